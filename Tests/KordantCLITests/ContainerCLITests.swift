import Foundation
import KordantTestSupport
import Testing

/// Container diagnostics as a user sees them: every command names the problem with its own code
/// and exit status, and shows the warning of a file it read anyway.
@Suite struct ContainerCLITests {
    static let exitCodes = ["invalid_header": Int32(12), "unsupported_encoding": 18, "malformed": 19, "not_wave": 22]

    static func write(_ bytes: [UInt8], _ name: String) throws -> String {
        let path = CLI.temporary(name)
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test(arguments: RIFFBuilder.problems.indices)
    func containerProblemExitCodes(index: Int) throws {
        let (name, bytes, code, message) = RIFFBuilder.problems[index]
        let file = try Self.write(bytes, name)
        let status = try #require(Self.exitCodes[code])
        for command in [["info", file], ["levels", file], ["convert", file, CLI.temporary("x.wav")],
                        ["waveform", file, "--out", CLI.temporary("x.svg")], ["quality", file], ["features", file]] {
            let r = try CLI.run(command)
            #expect(r.status == status, "\(command): \(r.stderr)")
            #expect(r.stderr == "kordant: error: \(file): \(r.stderr.dropFirst("kordant: error: \(file): ".count))")
            #expect(r.stderr.contains(": \(message)"), "\(command): \(r.stderr)")
            #expect(r.stderr.hasSuffix("[\(code)]\n"))
            #expect(r.stderr.split(separator: "\n").count == 1)
        }
        let json = try CLI.run(["info", "--json", file])
        let object = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: [String: String]]
        #expect(object?["error"]?["code"] == code)
        #expect(object?["error"]?["message"]?.hasPrefix(message) == true)
    }

    /// A file whose sizes are 0xFFFFFFFF is read to the end by every command, and every command
    /// says so: a `warnings` array in JSON, a `kordant: warning:` line on stderr otherwise.
    @Test func unknownSizeWarningInEveryCommand() throws {
        let file = try Self.write(RIFFBuilder.unknownSize, "pipe.wav")
        let warning = "data size unknown (0xFFFFFFFF): read to end of file, 16000 frames"
        func json(_ text: Substring) throws -> [String: Any] {
            try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        }
        func warnings(_ object: Any?) -> [String]? { (object as? [String: Any])?["warnings"] as? [String] }

        // Human output: one warning line on stderr, nothing else there.
        for command in [["info", file], ["levels", file], ["convert", file, CLI.temporary("p.wav")],
                        ["waveform", file, "--out", CLI.temporary("p.svg")], ["quality", file], ["enroll", file],
                        ["features", file, "--format", "csv"]] {
            let r = try CLI.run(command)
            #expect(r.status == 0 || r.status == 30, "\(command): \(r.stderr)")  // 1 s of tone fails quality: a verdict
            #expect(r.stderr == "kordant: warning: \(file): \(warning)\n", "\(command)")
        }

        let info = try json(Substring(try CLI.run(["info", "--json", file]).stdout))
        #expect(warnings(info) == [warning] && info["frames"] as? Int == 16_000)
        let convert = try json(Substring(try CLI.run(["convert", "--json", file, CLI.temporary("p.wav")]).stdout))
        #expect(warnings(convert) == [warning])
        let levels = try CLI.run(["levels", "--json", file]).stdout.split(separator: "\n")
        #expect(warnings(try json(try #require(levels.last))["summary"]) == [warning])
        #expect(levels.count == 21)
        let waveform = try json(Substring(try CLI.run(["waveform", "--json", file, "--out", CLI.temporary("p.json")]).stdout))
        #expect(warnings(waveform) == [warning])
        let quality = try json(Substring(try CLI.run(["quality", "--json", file]).stdout))
        #expect(warnings(quality) == [warning])
        let enroll = try json(Substring(try CLI.run(["enroll", "--json", file]).stdout))
        #expect(warnings((enroll["samples"] as? [[String: Any]])?.first?["quality"]) == [warning])
        let features = try json(Substring(try CLI.run(["features", file]).stdout))
        #expect(warnings(features) == [warning] && features["frames"] as? Int == 98)

        // A batch line carries it in its quality object.
        let folder = CLI.temporary("pipe-batch")
        try? FileManager.default.removeItem(atPath: folder)
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try Data(RIFFBuilder.unknownSize).write(to: URL(fileURLWithPath: folder + "/pipe.wav"))
        let out = CLI.temporary("pipe-batch.jsonl")
        try? FileManager.default.removeItem(atPath: out)
        _ = try CLI.run(["batch", "enroll", folder, "--out", out, "--jobs", "1", "--quiet"])
        let line = try json(try #require(try String(contentsOfFile: out, encoding: .utf8).split(separator: "\n").first))
        let samples = try #require(((line["result"] ?? line) as? [String: Any])?["samples"] as? [[String: Any]], "\(line)")
        #expect(warnings(samples.first?["quality"]) == [warning])

        // A correct file has no warnings key and nothing on stderr.
        let clean = try CLI.run(["info", "--json", "TestAudio/tone_1000hz_m6dbfs.wav"])
        #expect(!clean.stdout.contains("warnings") && clean.stderr.isEmpty)
    }
}
