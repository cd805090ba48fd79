import CSndfile
import Foundation
import KordantTestSupport
import Testing

/// `kordant record` end to end through real ALSA (file plugin over a null slave, no hardware).
@Suite struct RecordCLITests {
    /// 16-bit samples of a TestAudio file, read with libsndfile.
    static func samples(_ path: String) -> [Int16] {
        var info = SF_INFO()
        guard let h = sf_open(path, Int32(SFM_READ), &info) else { return [] }
        defer { sf_close(h) }
        var x = [Int16](repeating: 0, count: Int(info.frames))
        let n = sf_read_short(h, &x, info.frames)
        return Array(x.prefix(Int(n)))
    }

    static func raw(_ file: String, pad: Int = 16_000) throws -> (String, [Int16]) {
        let x = samples(CLI.repository.appendingPathComponent("TestAudio/\(file)").path)
        let path = CLI.temporary(file + ".raw")
        try ((x + [Int16](repeating: 0, count: pad)).withUnsafeBytes { Data($0) }).write(to: URL(fileURLWithPath: path))
        return (path, x)
    }

    /// The live JSON readings are exactly what `kordant levels --json` prints for the recorded file.
    @Test func liveReadingsEqualOfflineLevels() throws {
        let (raw, x) = try Self.raw("speech_us_female.wav")
        let out = CLI.temporary("live.wav")
        let r = try CLI.run(["record", out, "--device", "capfile:\(raw)", "--duration", "\(Double(x.count) / 16_000)", "--json"],
                            environment: CLI.alsaEnvironment)
        #expect(r.status == 0, "\(r.stderr)")
        let identical = Self.samples(out) == x
        #expect(identical)
        let live = r.stdout.split(separator: "\n")
        let offline = try CLI.run(["levels", "--json", out]).stdout.split(separator: "\n")
        #expect(live.count == offline.count)
        #expect(Array(live.dropLast()) == Array(offline.dropLast()))
        let summary = try JSONSerialization.jsonObject(with: Data(live.last!.utf8)) as! [String: [String: Any]]
        #expect(summary["summary"]?["stop_reason"] as? String == "duration")
        #expect(summary["summary"]?["frames"] as? Int == x.count)
    }

    @Test func missingDeviceExits21WithOneLine() throws {
        let r = try CLI.run(["record", CLI.temporary("none.wav"), "--device", "no_such_pcm", "--duration", "1"],
                            environment: CLI.alsaEnvironment)
        #expect(r.status == 21)
        #expect(r.stderr == "kordant: error: no_such_pcm: cannot open capture device: No such file or directory (ALSA: Unknown PCM no_such_pcm) [device_failed]\n")
    }

    /// Feeds the recorder through a FIFO so the test decides when audio arrives.
    /// `act` runs once the WAV header on disk covers at least `onDisk` seconds.
    static func fifoRecording(seconds: Double, onDisk: Double, then act: (Process, String) throws -> Void) throws -> (Process, String, [Int16], Pipe) {
        let (_, x) = try raw("speech_us_male.wav", pad: 0)
        let fifo = CLI.temporary("fifo-\(UUID().uuidString)")
        #expect(mkfifo(fifo, 0o600) == 0)
        // O_RDWR | O_NONBLOCK: neither opening nor writing can hang the test if the recorder dies.
        let fd = open(fifo, O_RDWR | O_NONBLOCK)
        let out = CLI.temporary("fifo-\(UUID().uuidString).wav")
        let (p, stdout, _) = try CLI.start(["record", out, "--device", "capfile:\(fifo)", "--json"], environment: CLI.alsaEnvironment)
        // Only on a throw: otherwise the caller signals the recorder and checks how it ended.
        var handedOver = false
        defer { if !handedOver { ChildProcesses.end(p) } }
        let n = Int(seconds * 16_000)
        let writeDeadline = Date(timeIntervalSinceNow: 20)
        x.prefix(n).withUnsafeBytes { b in
            var off = 0
            while off < b.count && Date() < writeDeadline {
                let w = write(fd, b.baseAddress! + off, b.count - off)
                if w > 0 { off += w } else { usleep(1000) }
            }
        }
        // Wait until the header says at least `onDisk` seconds are there.
        let deadline = Date(timeIntervalSinceNow: 20)
        while Date() < deadline {
            if let h = FileHandle(forReadingAtPath: out), let d = try? h.read(upToCount: 44), d.count == 44 {
                let dataBytes = d[40..<44].withUnsafeBytes { $0.loadUnaligned(as: UInt32.self) }
                if Int(dataBytes) >= Int(onDisk * 16_000) * 2 { break }
            }
            usleep(20_000)
        }
        try act(p, out)
        // One more period lets a blocked read return; then end the input.
        x.dropFirst(n).prefix(1600).withUnsafeBytes { b in _ = write(fd, b.baseAddress!, b.count) }
        close(fd)
        handedOver = true
        return (p, out, x, stdout)
    }

    @Test func sigintFinalisesAndExitsZero() throws {
        let (p, out, x, stdout) = try Self.fifoRecording(seconds: 2, onDisk: 2) { p, _ in kill(p.processIdentifier, SIGINT) }
        let text = String(decoding: stdout.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        #expect(p.terminationStatus == 0)
        #expect(text.contains("\"stop_reason\":\"stopped\""))
        let got = Self.samples(out)
        #expect(got.count >= 32_000)
        let samePrefix = Array(got.prefix(32_000)) == Array(x.prefix(32_000))
        #expect(samePrefix)
    }

    @Test func sigkilledRecordingIsAValidWAVMissingAtMostOneSecond() throws {
        let (p, out, x, _) = try Self.fifoRecording(seconds: 3.5, onDisk: 2.5) { p, _ in kill(p.processIdentifier, SIGKILL) }
        p.waitUntilExit()
        #expect(p.terminationReason == .uncaughtSignal)
        let got = Self.samples(out)
        #expect(got.count >= Int(3.5 * 16_000) - 16_000, "\(got.count) frames readable")
        let samePrefix = got == Array(x.prefix(got.count))
        #expect(samePrefix)
    }
}
