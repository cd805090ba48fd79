import Foundation
import KordantTestSupport
import Testing

/// The `kordant` executable, run as a user runs it.
enum CLI {
    static let repository = BuiltBinary.repository
    static let executable = BuiltBinary.kordant
    typealias Result = ProcessResult

    /// Capture from raw files through ALSA's file plugin (scripts/alsa/capfile.conf).
    static var alsaEnvironment: [String: String] {
        var env = ProcessInfo.processInfo.environment
        env["ALSA_CONFIG_PATH"] = "/usr/share/alsa/alsa.conf:" + repository.appendingPathComponent("scripts/alsa/capfile.conf").path
        return env
    }

    static func start(_ arguments: [String], environment: [String: String]? = nil) throws -> (Process, Pipe, Pipe) {
        let p = Process()
        p.executableURL = executable
        p.arguments = arguments
        p.currentDirectoryURL = repository
        if let environment { p.environment = environment }
        let out = Pipe(), err = Pipe()
        p.standardOutput = out
        p.standardError = err
        try p.run()
        ChildProcesses.shared.track(p)
        return (p, out, err)
    }

    static func run(_ arguments: [String], environment: [String: String]? = nil) throws -> Result {
        let (p, out, err) = try start(arguments, environment: environment)
        let o = out.fileHandleForReading.readDataToEndOfFile()
        let e = err.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return Result(status: p.terminationStatus, stdout: String(decoding: o, as: UTF8.self), stderr: String(decoding: e, as: UTF8.self))
    }

    static func temporary(_ name: String) -> String {
        let dir = TestScratch.directory.appendingPathComponent("kordant-cli-\(getpid())")
        try? FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir.appendingPathComponent(name).path
    }
}

@Suite struct CLITests {
    /// Each malformed input: a distinct exit code and one stderr line naming the file and the problem.
    @Test(arguments: [
        ("TestAudio/bad_truncated.wav", Int32(13), "truncated"),
        ("TestAudio/bad_absurd_size.wav", 13, "truncated"),
        ("TestAudio/bad_zero_channels.wav", 12, "invalid_header"),
        ("TestAudio/bad_zero_rate.wav", 12, "invalid_header"),
        ("TestAudio/bad_nan.wav", 15, "non_finite_samples"),
        ("TestAudio/bad_inf.wav", 15, "non_finite_samples"),
        ("TestAudio/bad_empty_audio.wav", 16, "empty_audio"),
        ("TestAudio/bad_zero_bytes.wav", 11, "unreadable"),
        ("TestAudio/bad_not_audio.wav", 11, "unreadable"),
        ("TestAudio/missing.wav", 10, "not_found"),
    ])
    func badInputExitCodes(file: String, code: Int32, kind: String) throws {
        for command in [["levels", file], ["convert", file, CLI.temporary("x.wav")], ["waveform", file, "--out", CLI.temporary("x.svg")]] {
            let r = try CLI.run(command)
            #expect(r.status == code, "\(command)")
            #expect(r.stderr.hasPrefix("kordant: error: \(file): "), "\(r.stderr)")
            #expect(r.stderr.hasSuffix("[\(kind)]\n"))
            #expect(r.stderr.split(separator: "\n").count == 1)
        }
        let json = try CLI.run(["levels", "--json", file])
        let object = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: [String: String]]
        #expect(object?["error"]?["code"] == kind)
        #expect(object?["error"]?["file"] == file)
    }

    @Test func usageErrorsExit64() throws {
        #expect(try CLI.run(["levels"]).status == 64)
        #expect(try CLI.run(["levels", "TestAudio/silence_6s.wav", "--window-ms", "0"]).status == 64)
        #expect(try CLI.run(["waveform", "TestAudio/silence_6s.wav", "--out", "x.png"]).status == 64)
    }

    @Test func levelsJSONLinesAndSummary() throws {
        let r = try CLI.run(["levels", "--json", "TestAudio/tone_1000hz_m6dbfs.wav"])
        #expect(r.status == 0)
        let lines = r.stdout.split(separator: "\n").map { try! JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any] }
        #expect(lines.count == 41)
        for window in lines.dropLast() {
            #expect(abs((window["avg_db"] as! Double) + 9.0103) < 0.01)
            #expect(abs((window["peak_db"] as! Double) + 6.0) < 0.01)
        }
        let summary = lines.last!["summary"] as! [String: Any]
        #expect(summary["windows"] as? Int == 40)
        #expect(summary["sample_rate"] as? Int == 16_000)
        #expect(abs((summary["rms_db"] as! Double) + 9.0103) < 0.01)
    }

    @Test func infoConvertWaveformEndToEnd() throws {
        let info = try CLI.run(["info", "--json", "TestAudio/fmt_44k1_stereo.ogg"])
        let i = try JSONSerialization.jsonObject(with: Data(info.stdout.utf8)) as! [String: Any]
        #expect(i["container"] as? String == "OGG" && i["channels"] as? Int == 2 && i["sample_rate"] as? Int == 44_100)

        let out = CLI.temporary("c.wav")
        let c = try CLI.run(["convert", "--json", "TestAudio/fmt_44k1_stereo.ogg", out])
        #expect(c.status == 0)
        let back = try CLI.run(["info", "--json", out])
        let b = try JSONSerialization.jsonObject(with: Data(back.stdout.utf8)) as! [String: Any]
        #expect(b["sample_rate"] as? Int == 16_000 && b["channels"] as? Int == 1 && b["encoding"] as? String == "PCM_16")
        #expect(b["frames"] as? Int == 72_000)

        let svg = CLI.temporary("w.svg")
        #expect(try CLI.run(["waveform", "TestAudio/speech_us_female.wav", "--out", svg]).status == 0)
        #expect(try String(contentsOfFile: svg, encoding: .utf8).hasPrefix("<svg"))
    }

    /// Converting a long file streams: a 10-minute 44.1 kHz stereo file (106 MB of PCM, 212 MB as
    /// floats) converts in about the memory of a 10-second one.
    @Test func conversionStreamsInBoundedMemory() throws {
        let input = CLI.temporary("long.wav")
        try writeLongStereoWAV(path: input, seconds: 600, rate: 44_100)
        // posix_spawn's vfork-style child reports the parent's RSS until it execs, so compare with
        // the same measurement of a 10-second conversion: streaming keeps the two close, while
        // loading the file would add its 212 MB of floats.
        // Short runs on both sides bracket the long one, so the parent's RSS moving in between
        // (other tests run in parallel) cannot fake or hide a difference.
        let short = CLI.repository.appendingPathComponent("TestAudio/speech_us_male.wav").path
        let (s1, shortBefore) = try spawnMeasuringPeakRSS([CLI.executable.path, "convert", short, CLI.temporary("short16k.wav")])
        let (status, peakKB) = try spawnMeasuringPeakRSS([CLI.executable.path, "convert", input, CLI.temporary("long16k.wav")])
        let (s2, shortAfter) = try spawnMeasuringPeakRSS([CLI.executable.path, "convert", short, CLI.temporary("short16k.wav")])
        #expect(status == 0 && s1 == 0 && s2 == 0)
        let extraMB = Double(peakKB - max(shortBefore, shortAfter)) / 1024
        #expect(extraMB < 30, "a 10-minute file took \(extraMB) MB more than a 10-second one")
        let info = try CLI.run(["info", "--json", CLI.temporary("long16k.wav")])
        let i = try JSONSerialization.jsonObject(with: Data(info.stdout.utf8)) as! [String: Any]
        #expect(i["frames"] as? Int == 600 * 16_000)
        try? FileManager.default.removeItem(atPath: input)
    }
}

/// Runs a program and returns its exit status and peak RSS in KB, from wait4 on that one child
/// (getrusage(RUSAGE_CHILDREN) would mix in every other child the test process has run).
func spawnMeasuringPeakRSS(_ argv: [String]) throws -> (Int32, Int) {
    var pid: pid_t = 0
    var cargs = argv.map { strdup($0) } + [nil]
    defer { cargs.forEach { free($0) } }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    guard posix_spawn(&pid, argv[0], &actions, nil, &cargs, environ) == 0 else { throw CocoaError(.fileNoSuchFile) }
    var status: Int32 = 0
    var usage = rusage()
    while wait4(pid, &status, 0, &usage) < 0 && errno == EINTR {}
    return ((status >> 8) & 0xFF, usage.ru_maxrss)
}

/// A plain 16-bit stereo WAV of a slow chirp, written block by block.
func writeLongStereoWAV(path: String, seconds: Int, rate: Int) throws {
    let frames = seconds * rate
    var header = Data()
    func u32(_ v: Int) { withUnsafeBytes(of: UInt32(v).littleEndian) { header.append(contentsOf: $0) } }
    func u16(_ v: Int) { withUnsafeBytes(of: UInt16(v).littleEndian) { header.append(contentsOf: $0) } }
    header.append(contentsOf: Array("RIFF".utf8)); u32(36 + frames * 4); header.append(contentsOf: Array("WAVEfmt ".utf8))
    u32(16); u16(1); u16(2); u32(rate); u32(rate * 4); u16(4); u16(16)
    header.append(contentsOf: Array("data".utf8)); u32(frames * 4)
    _ = FileManager.default.createFile(atPath: path, contents: header)
    let h = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
    defer { try? h.close() }
    try h.seekToEnd()
    var block = [Int16](repeating: 0, count: rate * 2)
    var phase = 0.0
    for s in 0..<seconds {
        for f in 0..<rate {
            phase += 2 * Double.pi * (200 + Double(s % 60) * 50) / Double(rate)
            let v = Int16(8000 * sin(phase))
            block[2 * f] = v
            block[2 * f + 1] = v / 2
        }
        try h.write(contentsOf: block.withUnsafeBytes { Data($0) })
    }
}
