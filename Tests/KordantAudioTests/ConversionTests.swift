import CSndfile
import Foundation
import KordantAudio
import Testing

@Suite struct ConversionTests {
    static let variants = TestAudio.entries(kind: "format_variant")

    /// Every format and rate variant, converted to 16 kHz mono, agrees with the 16 kHz reference
    /// it was made from (by sox, an independent resampler) to at least 25 dB, and has
    /// round(frames × 16000 / rate) ± 1 samples.
    @Test(arguments: variants)
    func variantMatchesReference(entry: TestAudioEntry) throws {
        let audio = try AudioDecoder.load(path: entry.path)
        let source = audio.summary.source
        #expect(source.sampleRate == entry.sample_rate)
        #expect(source.channels == entry.channels)
        #expect(audio.summary.sourceFramesDecoded == entry.frames)
        let expected = (Double(entry.frames!) * 16_000 / Double(entry.sample_rate!)).rounded()
        #expect(abs(Double(audio.samples.count) - expected) <= 1)
        let reference = TestAudio.readInt16(TestAudio.path(entry.reference!)).map { $0 * entry.reference_gain! }
        let agreement = agreementDB(audio.samples, reference)
        #expect(agreement >= 25, "\(entry.file): \(agreement) dB")
    }

    @Test func formatNamesComeFromTheHeader() throws {
        let cases: [(String, String, String)] = [
            ("fmt_44k1_stereo.flac", "FLAC", "PCM_16"), ("fmt_44k1_stereo.ogg", "OGG", "VORBIS"),
            ("fmt_8k_ulaw.wav", "WAV", "ULAW"), ("fmt_8k_alaw.wav", "WAV", "ALAW"),
            ("fmt_22k05_u8.wav", "WAV", "PCM_U8"), ("fmt_48k_s24.wav", "WAV", "PCM_24"),
            ("fmt_16k_float.wav", "WAV", "FLOAT"), ("fmt_22k05_s16.aiff", "AIFF", "PCM_16"),
            ("fmt_44k1_stereo_extensible.wav", "WAV", "PCM_16"),
        ]
        for (file, container, encoding) in cases {
            let info = try AudioFileReader(path: TestAudio.path(file)).info
            #expect(info.container == container && info.encoding == encoding, "\(file)")
        }
    }

    /// 16 kHz 16-bit input passes through conversion bit for bit (÷32768 on read, ×32768 on write).
    @Test func sixteenKilohertzPCMRoundTripsExactly() throws {
        let out = temporaryPath("roundtrip.wav")
        let summary = try AudioConverter.convert(input: TestAudio.path("speech_us_male.wav"), output: out)
        #expect(summary.outputSamples == summary.source.frames)
        let identical = TestAudio.readInt16(out) == TestAudio.readInt16(TestAudio.path("speech_us_male.wav"))
        #expect(identical)
    }

    @Test func convertsToFloatWAVAndOtherRates() throws {
        let out = temporaryPath("f.wav")
        try AudioConverter.convert(input: TestAudio.path("fmt_44k1_stereo.flac"), output: out, sampleRate: 8000, encoding: .float32)
        let info = try AudioFileReader(path: out).info
        #expect(info.sampleRate == 8000 && info.channels == 1 && info.encoding == "FLOAT")
        #expect(info.frames == 36_000)
    }

    /// A stereo file is downmixed as the mean of its channels.
    @Test func downmixIsTheMeanOfChannels() {
        let interleaved: [Float] = [1, 0, 0.5, -0.5, -1, -0.25]
        var mono = [Float](repeating: 9, count: 3)
        interleaved.withUnsafeBufferPointer { i in mono.withUnsafeMutableBufferPointer { SampleKernels.downmix(i, channels: 2, into: $0) } }
        #expect(mono == [0.5, 0, -0.625])
        let three: [Float] = [0.3, 0.3, 0.3, 1, 0, -1]
        var m3 = [Float](repeating: 9, count: 2)
        three.withUnsafeBufferPointer { i in m3.withUnsafeMutableBufferPointer { SampleKernels.downmix(i, channels: 3, into: $0) } }
        #expect(abs(m3[0] - 0.3) < 1e-7 && m3[1] == 0)
    }

    @Test func int16ConversionRoundsAndSaturates() {
        let x: [Float] = [0, 1, -1, 2, -2, 0.5 / 32768, 1.5 / 32768, -1.5 / 32768, 100.4 / 32768, 32766.6 / 32768]
        var out = [Int16](repeating: 0, count: x.count)
        x.withUnsafeBufferPointer { i in out.withUnsafeMutableBufferPointer { SampleKernels.toInt16(i, into: $0) } }
        #expect(out == [0, 32767, -32768, 32767, -32768, 0, 2, -2, 100, 32767])
    }

    /// The writer's header is valid at any moment it is brought up to date, while still open.
    @Test func writerHeaderCanBeFinalisedAtAnyTime() throws {
        let path = temporaryPath("live.wav")
        let writer = try WAVWriter(path: path)
        let block = [Int16](repeating: 1000, count: 1600)
        for k in 1...3 {
            try block.withUnsafeBufferPointer { try writer.write($0) }
            writer.updateHeader()
            let info = try AudioFileReader(path: path).info
            #expect(info.frames == 1600 * k)
        }
        try writer.close()
        #expect(TestAudio.readInt16(path).count == 4800)
    }

    @Test func unwritableOutputNamesTheOutputPath() {
        do {
            try AudioConverter.convert(input: TestAudio.path("speech_us_male.wav"), output: "/nonexistent/dir/x.wav")
            Issue.record("wrote into a directory that does not exist")
        } catch let error as AudioError {
            #expect(error.kind == .writeFailed && error.path == "/nonexistent/dir/x.wav")
        } catch {
            Issue.record("\(error)")
        }
    }

    @Test func failedConversionLeavesNoOutput() throws {
        let dir = temporaryPath("failed-conversion")
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let out = dir + "/never.wav"
        #expect(throws: AudioError.self) {
            try AudioConverter.convert(input: TestAudio.path("bad_nan.wav"), output: out)
        }
        #expect(!FileManager.default.fileExists(atPath: out))
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir).isEmpty)
    }
}
