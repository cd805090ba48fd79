import CSndfile
import Foundation
import KordantAudio
import Testing
import KordantTestSupport

@Suite struct MalformedInputTests {
    /// Every malformed file in TestAudio gives its own specific error, naming the file.
    @Test(arguments: TestAudio.entries(kind: "malformed"))
    func malformedFileGivesItsError(entry: TestAudioEntry) {
        do {
            _ = try AudioDecoder.load(path: entry.path)
            Issue.record("\(entry.file) decoded without error")
        } catch let error as AudioError {
            #expect(error.kind.rawValue == entry.expect_error, "\(entry.file): \(error)")
            #expect(error.path == entry.path)
            #expect(!error.detail.isEmpty)
        } catch {
            Issue.record("\(entry.file): unexpected \(error)")
        }
    }

    @Test func specificMessages() throws {
        func message(_ file: String) -> String {
            do { _ = try AudioDecoder.load(path: TestAudio.path(file)); return "" } catch { return "\(error)" }
        }
        #expect(message("bad_truncated.wav").contains("claims 128000 bytes of audio data, the file holds 32000"))
        #expect(message("bad_zero_rate.wav").contains("sample rate of 0 Hz"))
        #expect(message("bad_zero_channels.wav").contains("0 channels"))
        #expect(message("bad_nan.wav").contains("frame 8000"))
        #expect(message("bad_inf.wav").contains("frame 100"))
        #expect(message("no_such_file.wav").contains("no such file"))
    }

    /// Found by FuzzWAV (release build): an AIFF whose 80-bit sample rate is a huge negative whole
    /// number trapped while its error message was written. It is refused with the rate named.
    @Test func aiffRateBeyondIntIsRefusedNotTrapped() throws {
        // FORM/AIFF, COMM: 1 channel, 16 bits, an 80-bit rate of about −2.96e158, then SSND.
        let bytes: [UInt8] = [
            0x46, 0x4F, 0x52, 0x4D, 0x00, 0x03, 0x07, 0x82, 0x41, 0x49, 0x46, 0x46, 0x43, 0x4F, 0x4D, 0x4D,
            0x00, 0x00, 0x00, 0x12, 0x01, 0x83, 0x00, 0x99, 0x00, 0x01, 0x00, 0x10, 0xC2, 0x0D, 0xAC, 0x44,
            0x00, 0x00, 0x2C, 0x00, 0x00, 0x00, 0x53, 0x53, 0x4E, 0x44, 0x00, 0x46, 0x4F, 0x4D, 0xFF,
        ]
        let path = TestScratch.directory.appendingPathComponent("kordant-rate-\(UUID().uuidString).aiff").path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        do {
            _ = try AudioDecoder.load(path: path)
            Issue.record("decoded without error")
        } catch let error as AudioError {
            #expect(error.kind == .invalidHeader)
            #expect(error.detail.contains("sample rate of -2.9564216487281595e+158 Hz"), "\(error)")
        }
    }

    /// Found by FuzzWAV (CI's fuzz smoke run): a LIST entry whose size wraps libsndfile 1.2's
    /// 32-bit count sent its parser back into the header for ever, inside `sf_open`. The file is
    /// refused before libsndfile sees it. The read runs on its own thread so a regression fails
    /// this test instead of hanging the suite.
    @Test func listEntryThatWrapsLibsndfilesCountIsRefused() throws {
        // RIFF/WAVE, fmt (PCM 16 kHz mono), LIST of 37 bytes: INFO, then an entry 'IN\xBF\xB2'
        // declaring 0xFFFFFFF3 bytes; no data chunk follows.
        let bytes: [UInt8] = [
            0x52, 0x49, 0x46, 0x46, 0x02, 0x33, 0x02, 0x00, 0x57, 0x41, 0x56, 0x45, 0x66, 0x6D, 0x74, 0x20,
            0x10, 0x00, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00, 0x80, 0x3E, 0x00, 0x00, 0x00, 0x00, 0x7D, 0x00,
            0x02, 0x00, 0x10, 0x00, 0x4C, 0x49, 0x53, 0x54, 0x25, 0x00, 0x00, 0x00, 0x49, 0x4E, 0x46, 0x4F,
            0x49, 0x4E, 0xBF, 0xB2, 0xF3, 0xFF, 0xFF, 0xFF, 0xB4, 0x8B, 0x72, 0x64, 0x61, 0x6E, 0x74, 0x20,
            0x74, 0x65, 0x73, 0x74, 0x49, 0x43, 0x4D, 0x54, 0x05, 0x00, 0x00, 0x00, 0x6F, 0x64, 0x64, 0x00,
            0x00, 0x00, 0x00, 0x80, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
            0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
            0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
        ]
        let path = TestScratch.directory.appendingPathComponent("kordant-list-\(UUID().uuidString).wav").path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let outcome = OneShot<String>()
        Thread.detachNewThread {
            do { _ = try AudioFileReader(path: path); outcome.put("opened") } catch let error as AudioError {
                outcome.put("\(error.kind.rawValue): \(error.detail)")
            } catch { outcome.put("\(error)") }
        }
        let result = try #require(outcome.wait(seconds: 60), "the reader did not return")
        #expect(result == "invalid_header: malformed LIST chunk at byte 36: its 'IN??' entry declares 4294967283 bytes, more than the chunk "
                + "holds (libsndfile's parser would jump back into the header and may never finish)")
    }

    /// Found by FuzzWAV: a tiny file declaring 4 Hz would have become 1.6 GB at 16 kHz; below
    /// 1000 Hz nothing is resampled, and the file's own rate is still readable.
    @Test func absurdlyLowRatesAreNotResampled() throws {
        let path = TestScratch.directory.appendingPathComponent("kordant-4hz-\(UUID().uuidString).wav").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        var info = SF_INFO(frames: 0, samplerate: 4, channels: 1, format: Int32(SF_FORMAT_WAV | SF_FORMAT_PCM_16), sections: 0, seekable: 0)
        let handle = try #require(sf_open(path, Int32(SFM_WRITE), &info))
        var samples = [Int16](repeating: 1000, count: 400)
        #expect(sf_write_short(handle, &samples, 400) == 400)
        sf_close(handle)
        do {
            _ = try MonoDecoder(path: path)
            Issue.record("a 4 Hz file was resampled")
        } catch {
            #expect(error.kind == .invalidHeader && error.detail.contains("below 1000 Hz"), "\(error)")
        }
        #expect(try MonoDecoder(path: path, outputRate: nil).source.sampleRate == 4)
    }

    @Test func missingFileAndDirectory() {
        #expect(throws: AudioError(.notFound, path: "/nonexistent/x.wav", "no such file")) {
            _ = try AudioFileReader(path: "/nonexistent/x.wav")
        }
        do {
            _ = try AudioFileReader(path: TestAudio.directory)
            Issue.record("a directory opened as audio")
        } catch {
            #expect(error.kind == .unreadable)
        }
    }

    /// With allowTruncated the readable part is kept and flagged.
    @Test func truncatedFileKeepsWhatIsThereWhenAsked() throws {
        let audio = try AudioDecoder.load(path: TestAudio.path("bad_truncated.wav"), options: .init(allowTruncated: true))
        #expect(audio.samples.count == 16_000)
        #expect(audio.summary.truncated)
        let expected = TestAudio.readInt16(TestAudio.path("bad_truncated.wav"))
        let identical = audio.samples.map(Double.init) == expected
        #expect(identical)
    }

    /// Flipped bytes anywhere in a real file never crash the reader: each attempt decodes or
    /// throws an AudioError.
    @Test func corruptedBytesNeverCrash() throws {
        let original = try Data(contentsOf: URL(fileURLWithPath: TestAudio.path("fmt_44k1_stereo.flac")))
        var rng = SplitMix(seed: 7)
        for trial in 0..<40 {
            var bytes = [UInt8](original.prefix(trial % 2 == 0 ? original.count : 4096 + trial * 512))
            for _ in 0..<8 { bytes[Int(rng.next() % UInt64(min(bytes.count, 20_000)))] ^= UInt8(truncatingIfNeeded: rng.next() | 1) }
            let path = temporaryPath("corrupt\(trial).flac")
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            do { _ = try AudioDecoder.load(path: path) } catch is AudioError {} catch { Issue.record("\(error)") }
        }
    }
}

/// A value handed from another thread, waited for with a bound.
final class OneShot<Value: Sendable>: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    private let lock = NSLock()
    private var value: Value?

    func put(_ v: Value) {
        lock.withLock { value = v }
        done.signal()
    }

    func wait(seconds: Double) -> Value? {
        guard done.wait(timeout: .now() + seconds) == .success else { return nil }
        return lock.withLock { value }
    }
}

struct SplitMix: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
