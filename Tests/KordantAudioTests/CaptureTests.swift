import Foundation
import KordantAudio
import Testing

/// Real ALSA capture without sound hardware: ALSA's `file` plugin over a `null` slave reads the
/// bytes of a raw file (scripts/alsa/capfile.conf). Everything from snd_pcm_open to the WAV on
/// disk is the production path.
enum ALSAFixture {
    static let ready: Bool = {
        let conf = CLIPaths.repository.appendingPathComponent("scripts/alsa/capfile.conf").path
        setenv("ALSA_CONFIG_PATH", "/usr/share/alsa/alsa.conf:" + conf, 1)
        return true
    }()

    /// Writes the int16 samples of a TestAudio file as raw S16_LE, plus `padSeconds` of silence
    /// (the plugin returns stale data past the end, so recordings stop before it).
    static func raw(from file: String, padSeconds: Double = 1) throws -> (path: String, samples: [Int16]) {
        let samples = TestAudio.readInt16(TestAudio.path(file)).map { Int16($0 * 32768) }
        let path = temporaryPath(file + ".raw")
        var bytes = samples.withUnsafeBytes { Data($0) }
        bytes.append(Data(count: Int(padSeconds * 16_000) * 2))
        try bytes.write(to: URL(fileURLWithPath: path))
        return (path, samples)
    }
}

enum CLIPaths {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
}

@Suite(.serialized) struct CaptureTests {
    /// A known clip recorded through ALSA is the same samples, bit for bit, and the live meter
    /// gives exactly the readings the offline meter gives for the written file.
    @Test func recordingIsBitExactAndMeterMatchesOffline() throws {
        #expect(ALSAFixture.ready)
        let (raw, samples) = try ALSAFixture.raw(from: "speech_us_male.wav")
        let out = temporaryPath("recorded.wav")
        var live: [LevelReading] = []
        let summary = try Recorder.record(
            to: out, options: RecordingOptions(device: "capfile:\(raw)", duration: Double(samples.count) / 16_000)) {
                live.append($0)
            }
        #expect(summary.frames == samples.count)
        #expect(summary.stopReason == .duration)
        #expect(summary.deviceRate == 16_000 && summary.deviceChannels == 1)
        let recorded = TestAudio.readInt16(out).map { Int16($0 * 32768) }
        let identical = recorded == samples
        #expect(identical)

        var offline: [LevelReading] = []
        var meter = LevelMeter(sampleRate: 16_000)
        try AudioDecoder.stream(path: out, outputRate: nil) { meter.process($0) { offline.append($0) } }
        meter.finish { offline.append($0) }
        #expect(live == offline)
        #expect(live.count == 216)
    }

    /// A device format other than 16 kHz mono is converted in-stream (downmix + libsoxr).
    @Test func nonNativeDeviceFormatIsConvertedInStream() throws {
        #expect(ALSAFixture.ready)
        // fmt_44k1_stereo_s16.wav holds L = x, R = x/2 of the 16 kHz reference x, at 44.1 kHz.
        let entry = TestAudio.entries.first { $0.file == "fmt_44k1_stereo_s16.wav" }!
        let stereo = try AudioFileReader(path: entry.path)
        let buffer = UnsafeMutableBufferPointer<Float>.allocate(capacity: stereo.blockFrames * 2)
        defer { buffer.deallocate() }
        var interleaved: [Int16] = []
        while case let n = try stereo.read(into: buffer), n > 0 {
            interleaved += buffer[0..<(n * 2)].map { Int16(($0 * 32768).rounded()) }
        }
        let raw = temporaryPath("stereo44.raw")
        try (interleaved.withUnsafeBytes { Data($0) } + Data(count: 44_100 * 4)).write(to: URL(fileURLWithPath: raw))
        let out = temporaryPath("converted-live.wav")
        var options = RecordingOptions(device: "capfile:\(raw)", duration: 4.5)
        options.deviceRate = 44_100
        options.deviceChannels = 2
        let summary = try Recorder.record(to: out, options: options)
        #expect(summary.deviceRate == 44_100 && summary.deviceChannels == 2)
        #expect(summary.frames == 72_000)
        let reference = TestAudio.readInt16(TestAudio.path("fmt_16k_s16_reference.wav")).map { $0 * 0.75 }
        let recorded = TestAudio.readInt16(out).map(Float.init)
        #expect(agreementDB(recorded, reference) >= 25)
    }

    @Test func missingDeviceGivesAClearError() {
        #expect(ALSAFixture.ready)
        do {
            _ = try Recorder.record(to: temporaryPath("none.wav"), options: RecordingOptions(device: "no_such_pcm", duration: 1))
            Issue.record("recorded from a device that does not exist")
        } catch let error as AudioError {
            #expect(error.kind == .deviceFailed)
            #expect(error.path == "no_such_pcm")
            #expect(error.detail.contains("cannot open capture device"))
            #expect(error.detail.contains("Unknown PCM no_such_pcm"))
        } catch {
            Issue.record("\(error)")
        }
    }

    @Test func maximumSizeStopsTheRecording() throws {
        #expect(ALSAFixture.ready)
        let (raw, samples) = try ALSAFixture.raw(from: "speech_gb_female.wav")
        let out = temporaryPath("capped.wav")
        let summary = try Recorder.record(to: out, options: RecordingOptions(device: "capfile:\(raw)", maxBytes: 44 + 64_000))
        #expect(summary.stopReason == .maxSize)
        #expect(summary.frames == 32_000)
        let size = try FileManager.default.attributesOfItem(atPath: out)[.size] as! Int
        #expect(size <= 44 + 64_000)
        let identical = TestAudio.readInt16(out).map { Int16($0 * 32768) } == Array(samples.prefix(32_000))
        #expect(identical)
    }

    /// The embedding API: capture as an AsyncSequence; leaving the loop stops the device.
    @Test func asyncSequenceDeliversTheSameSamples() async throws {
        #expect(ALSAFixture.ready)
        let (raw, samples) = try ALSAFixture.raw(from: "speech_scot_male.wav")
        var got: [Int16] = []
        for try await buffer in CaptureDevice.stream(name: "capfile:\(raw)") {
            got += buffer
            if got.count >= 16_000 { break }
        }
        let identical = Array(got.prefix(16_000)) == Array(samples.prefix(16_000))
        #expect(identical)
    }

    @Test func openErrorsArriveThroughTheSequence() async {
        #expect(ALSAFixture.ready)
        do {
            for try await _ in CaptureDevice.stream(name: "no_such_pcm") {}
            Issue.record("no error")
        } catch let error as AudioError {
            #expect(error.kind == .deviceFailed)
        } catch {
            Issue.record("\(error)")
        }
    }
}
