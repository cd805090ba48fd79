import Foundation
import KordantTestSupport
import Testing

/// `kordant batch verify`: a manifest of (enrollment, file) lines → one analysis line each, in
/// input order whatever the jobs, bad recordings and enrollments reported in their lines, resumable.
@Suite struct BatchVerifyCLITests {
    @Test func verdictLinesInInputOrderWithErrorsInTheirLines() throws {
        let audio = CLI.repository.appendingPathComponent("TestAudio").path
        let enrolled = try CLI.run(["enroll"] + (1...3).map { "\(audio)/enroll_us_male_\($0).wav" } + ["--json"])
        #expect(enrolled.status == 0, "\(enrolled.stderr)")
        let enrollment = CLI.temporary("bv-us-male.json")
        try enrolled.stdout.write(toFile: enrollment, atomically: true, encoding: .utf8)
        var text = ""
        for (e, file) in [(enrollment, "speech_us_male.wav"), (enrollment, "speech_gb_female.wav"), (enrollment, "bad_truncated.wav"),
                          ("/nonexistent/enrollment.json", "speech_us_male.wav"), (enrollment, "silence_6s.wav")] {
            text += #"{"enrollment": "\#(e)", "file": "\#(audio)/\#(file)"}"# + "\n"
        }
        let manifest = CLI.temporary("bv.jsonl")
        try text.write(toFile: manifest, atomically: true, encoding: .utf8)
        let one = CLI.temporary("bv-1.jsonl"), two = CLI.temporary("bv-2.jsonl")
        try? FileManager.default.removeItem(atPath: one)
        try? FileManager.default.removeItem(atPath: two)
        let r1 = try CLI.run(["batch", "verify", manifest, "--out", one, "--jobs", "1", "--json"])
        let r2 = try CLI.run(["batch", "verify", manifest, "--out", two, "--jobs", "2"])
        #expect(r1.status == 60 && r2.status == 60, "\(r1.stderr)")
        #expect(try String(contentsOfFile: one, encoding: .utf8) == String(contentsOfFile: two, encoding: .utf8))
        let out = BatchCLITests.lines(one)
        #expect(out.count == 5)
        #expect(out.map { ($0["file"] as? String).map { ($0 as NSString).lastPathComponent } }
                == ["speech_us_male.wav", "speech_gb_female.wav", "bad_truncated.wav", "speech_us_male.wav", "silence_6s.wav"])
        for i in [0, 1, 4] {
            let keys = Set(out[i].keys)
            #expect(keys.isSuperset(of: ["key", "enrollment", "file", "verdict", "score", "confidence", "same_speaker_probability",
                                         "reasons", "warnings", "voiced_s", "model"]), "\(keys.sorted())")
            #expect(out[i]["enrollment"] as? String == enrollment)
        }
        #expect(out[0]["verdict"] as? String == "match")
        #expect((out[0]["score"] as? Double ?? 0) > (out[1]["score"] as? Double ?? 1))
        #expect(out[4]["verdict"] as? String == "uncertain" && (out[4]["reasons"] as? [String])?.contains("no_speech") == true)
        #expect((out[2]["error"] as? [String: String])?["code"] == "truncated")
        let missing = try #require(out[3]["error"] as? [String: String])
        #expect(missing["code"] == "not_found" && missing["file"] == "/nonexistent/enrollment.json")
        let summary = try #require(try JSONSerialization.jsonObject(with: Data(r1.stdout.utf8)) as? [String: Any])
        #expect(summary["processed"] as? Int == 5 && summary["failed"] as? Int == 2)
        #expect(r2.stdout.hasPrefix("batch verify: 5 processed (3 ok, 2 failed)"))

        // Resuming a finished run does nothing; the lines are not repeated.
        let again = try CLI.run(["batch", "verify", manifest, "--out", one, "--resume"])
        #expect(again.stdout.hasPrefix("batch verify: 0 processed (0 ok, 0 failed), 5 already done (2 failed)"), "\(again.stdout)")
        #expect(BatchCLITests.lines(one).count == 5)

        // A folder is not a verification manifest.
        let folder = try CLI.run(["batch", "verify", audio, "--out", CLI.temporary("bv-x.jsonl")])
        #expect(folder.status == 61 && folder.stderr.contains("manifest"))
    }
}
