import Foundation
import KordantTestSupport
import Testing

/// `kordant batch enroll|ocr`: order, resume after a crash, sharding, bad files.
@Suite struct BatchCLITests {
    static func lines(_ path: String) -> [[String: Any]] {
        ((try? String(contentsOfFile: path, encoding: .utf8)) ?? "").split(separator: "\n").map {
            (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any] ?? [:]
        }
    }

    /// A manifest of three enrollments and one unreadable sample, in a scratch folder.
    static func enrollmentManifest(_ name: String) throws -> String {
        let audio = CLI.repository.appendingPathComponent("TestAudio").path
        var text = ""
        for (group, voice) in [("u1", "us_male"), ("u2", "gb_female"), ("u3", "scot_male")] {
            for i in 1...3 { text += #"{"path": "\#(audio)/enroll_\#(voice)_\#(i).wav", "group": "\#(group)", "label": "\#(voice)"}"# + "\n" }
        }
        text += "\n" + #"{"path": "\#(audio)/bad_truncated.wav", "group": "u4"}"# + "\n"
        let path = CLI.temporary(name)
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test func enrollmentGroupsInInputOrderWhateverTheJobs() throws {
        let manifest = try Self.enrollmentManifest("groups.jsonl")
        let one = CLI.temporary("groups-1.jsonl"), two = CLI.temporary("groups-2.jsonl")
        let r1 = try CLI.run(["batch", "enroll", manifest, "--out", one, "--jobs", "1", "--json"])
        let r2 = try CLI.run(["batch", "enroll", manifest, "--out", two, "--jobs", "2"])
        #expect(r1.status == 60 && r2.status == 60)   // the truncated sample
        #expect(try String(contentsOfFile: one, encoding: .utf8) == String(contentsOfFile: two, encoding: .utf8))
        let out = Self.lines(one)
        #expect(out.map { $0["group"] as? String } == ["u1", "u2", "u3", "u4"])
        #expect(out.prefix(3).allSatisfy { ($0["pass"] as? Bool) == true && ($0["samples"] as? [Any])?.count == 3 })
        #expect(out.prefix(3).allSatisfy { ($0["voiceprint"] as? [Double])?.count == 256 })
        let error = try #require(out[3]["error"] as? [String: String])
        #expect(error["code"] == "truncated" && error["file"]?.hasSuffix("bad_truncated.wav") == true)
        let summary = try #require(try JSONSerialization.jsonObject(with: Data(r1.stdout.utf8)) as? [String: Any])
        #expect(summary["processed"] as? Int == 4 && summary["failed"] as? Int == 1 && summary["succeeded"] as? Int == 3)
        #expect((summary["failures_by_reason"] as? [String: Int]) == ["truncated": 1])
        #expect(r2.stdout.hasPrefix("batch enroll: 4 processed (3 ok, 1 failed)"))
        #expect(r2.stderr.isEmpty, "no progress line outside a terminal: \(r2.stderr)")
    }

    /// Missing encoder weights: one error naming the file and how to get it, exit 40, and no
    /// result lines (not a failed line per enrollment).
    @Test func missingWeightsAreOneErrorBeforeAnyItem() throws {
        let manifest = try Self.enrollmentManifest("weights.jsonl")
        let out = CLI.temporary("weights-out.jsonl")
        let missing = CLI.temporary("no-such-encoder.bin")
        var environment = ProcessInfo.processInfo.environment
        environment["KORDANT_VOICE_ENCODER"] = missing
        let r = try CLI.run(["batch", "enroll", manifest, "--out", out, "--jobs", "2"], environment: environment)
        #expect(r.status == 40, "\(r.stderr)")
        #expect(r.stderr.contains(missing) && r.stderr.contains("scripts/setup"), "\(r.stderr)")
        #expect(r.stderr.split(separator: "\n").count == 1, "\(r.stderr)")
        #expect(Self.lines(out).filter { !$0.isEmpty }.isEmpty)
    }

    @Test func killedBatchResumesWithoutRepeatingAnItem() throws {
        let folder = CLI.repository.appendingPathComponent("TestAudio").path
        let out = CLI.temporary("killed.jsonl")
        let (p, _, _) = try CLI.start(["batch", "enroll", folder, "--out", out, "--jobs", "2"])
        defer { ChildProcesses.end(p) }
        // SIGKILL once some lines are out, before the end.
        let deadline = Date().addingTimeInterval(60)
        while p.isRunning, Date() < deadline, Self.lines(out).count < 15 { Thread.sleep(forTimeInterval: 0.01) }
        kill(p.processIdentifier, SIGKILL)
        p.waitUntilExit()
        let before = Self.lines(out).count
        // And a torn last line, as a crash mid-write would leave.
        let handle = try #require(FileHandle(forWritingAtPath: out))
        handle.seekToEndOfFile()
        handle.write(Data(#"{"group":"half a li"#.utf8))
        handle.closeFile()

        let resumed = try CLI.run(["batch", "enroll", folder, "--out", out, "--resume", "--json"])
        #expect(resumed.status == 60)   // TestAudio has malformed files, reported in their lines
        let summary = try #require(try JSONSerialization.jsonObject(with: Data(resumed.stdout.utf8)) as? [String: Any])
        #expect(summary["repaired_partial_line"] as? Bool == true)
        #expect(summary["skipped"] as? Int == before && before >= 15 && before < 54)
        let all = Self.lines(out)
        let keys = all.compactMap { $0["key"] as? String }
        #expect(all.count == 54 && Set(keys).count == 54, "\(all.count) lines, \(Set(keys).count) distinct")

        // Resuming a finished batch does nothing.
        let again = try CLI.run(["batch", "enroll", folder, "--out", out, "--resume"])
        #expect(again.stdout.hasPrefix("batch enroll: 0 processed (0 ok, 0 failed), 54 already done (9 failed)"))
        #expect(again.status == 60)
        #expect(Self.lines(out).count == 54)
    }

    @Test func shardsPartitionTheInput() throws {
        let folder = CLI.repository.appendingPathComponent("TestAudio").path
        var seen: [Set<String>] = []
        for k in 0..<3 {
            let out = CLI.temporary("shard-\(k).jsonl")
            let r = try CLI.run(["batch", "enroll", folder, "--out", out, "--shard", "\(k)/3"])
            #expect(r.stdout.contains("shard \(k)/3 of 54 items"))
            seen.append(Set(Self.lines(out).compactMap { $0["group"] as? String }))
        }
        #expect(seen.map(\.count).reduce(0, +) == 54 && seen.reduce(Set<String>()) { $0.union($1) }.count == 54)
        #expect(seen.allSatisfy { !$0.isEmpty })
        let bad = try CLI.run(["batch", "enroll", folder, "--out", CLI.temporary("x.jsonl"), "--shard", "3/3"])
        #expect(bad.status == 64)
        let missing = try CLI.run(["batch", "enroll", "/nonexistent/manifest.jsonl", "--out", CLI.temporary("x.jsonl")])
        #expect(missing.status == 61 && missing.stderr == "kordant: error: /nonexistent/manifest.jsonl: no such file or folder\n")
    }

    /// On a terminal (a pseudo-terminal from script(1)) the progress line shows; `--quiet` hides it.
    @Test func progressLineOnlyOnATerminal() throws {
        let folder = CLI.repository.appendingPathComponent("TestAudio").path
        func underTerminal(_ extra: String) throws -> String {
            let p = Process()
            p.executableURL = URL(fileURLWithPath: "/usr/bin/script")
            p.arguments = ["-qec", "\(CLI.executable.path) batch enroll \(folder) --out \(CLI.temporary("tty.jsonl")) \(extra)", "/dev/null"]
            let out = Pipe()
            p.standardOutput = out
            try p.run()
            ChildProcesses.shared.track(p)
            defer { ChildProcesses.end(p) }
            let data = out.fileHandleForReading.readDataToEndOfFile()
            p.waitUntilExit()
            return String(decoding: data, as: UTF8.self)
        }
        let shown = try underTerminal("")
        #expect(shown.contains("54/54") && shown.contains("/s") && shown.contains("ETA") && shown.contains("9 failed"), "\(shown)")
        let quiet = try underTerminal("--quiet")
        #expect(!quiet.contains("ETA") && quiet.contains("batch enroll: 54 processed"))
    }

    @Test func batchOCRKeepsOrderAndReportsBadFiles() throws {
        let docs = CLI.repository.appendingPathComponent("TestDocuments").path
        let manifest = CLI.temporary("docs.jsonl")
        try ["optout_form.clean.png", "bad_truncated.png", "deed_warranty.clean.png", "idcard_td1.clean.png"]
            .map { #"{"path": "\#(docs)/\#($0)"}"# }.joined(separator: "\n").write(toFile: manifest, atomically: true, encoding: .utf8)
        let out = CLI.temporary("docs-out.jsonl")
        let r = try CLI.run(["batch", "ocr", manifest, "--out", out, "--jobs", "2"])
        #expect(r.status == 60, "\(r.stderr)")
        let lines = Self.lines(out)
        #expect(lines.map { ($0["file"] as? String).map { ($0 as NSString).lastPathComponent } }
            == ["optout_form.clean.png", "bad_truncated.png", "deed_warranty.clean.png", "idcard_td1.clean.png"])
        let kinds = lines.map { (($0["pages"] as? [[String: Any]])?.first?["kind"] as? String) ?? "-" }
        #expect(kinds == ["optout", "-", "deed", "id"])
        #expect((lines[1]["error"] as? [String: String])?["code"] == "unreadable")
        #expect(r.stdout.hasPrefix("batch ocr: 4 processed (3 ok, 1 failed)"))
    }
}
