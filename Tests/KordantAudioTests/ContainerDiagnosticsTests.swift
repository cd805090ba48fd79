import CSndfile
import Foundation
import KordantAudio
import KordantTestSupport
import Testing

extension RIFFBuilder {
    static func write(_ bytes: [UInt8], _ name: String) throws -> String {
        let path = temporaryPath(name)
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }
}

@Suite struct ContainerDiagnosticsTests {
    /// Size 0xFFFFFFFF: the audio to the end of the file is read, and the reader says so.
    @Test func unknownDataSizeIsReadToTheEndWithAWarning() throws {
        let path = try RIFFBuilder.write(RIFFBuilder.unknownSize, "unknown-size.wav")
        let reader = try AudioFileReader(path: path)
        #expect(reader.info.frames == 16_000)
        #expect(reader.info.warnings == ["data size unknown (0xFFFFFFFF): read to end of file, 16000 frames"])
        let audio = try AudioDecoder.load(path: path, outputRate: nil)
        #expect(audio.samples.count == 16_000)
        #expect(audio.warnings == reader.info.warnings)
        #expect(!audio.summary.truncated)
        // The samples are the ones written, not the header's bytes or anything past the end.
        let expected = RIFFBuilder.tone(frames: 16_000)
        #expect(Int16(bitPattern: UInt16(expected[2]) | UInt16(expected[3]) << 8) == Int16((audio.samples[1] * 32768).rounded()))
        // Converting carries it too.
        let summary = try AudioConverter.convert(input: path, output: temporaryPath("unknown-size-16k.wav"))
        #expect(summary.warnings == reader.info.warnings)
    }

    /// A RIFF size of 0xFFFFFFFF alone changes nothing a user needs to know: no warning.
    @Test func unknownRIFFSizeAloneIsSilent() throws {
        let bytes = RIFFBuilder.riff("WAVE", [RIFFBuilder.fmt(), RIFFBuilder.chunk("data", RIFFBuilder.tone(frames: 800))], size: 0xFFFF_FFFF)
        let info = try AudioFileReader(path: try RIFFBuilder.write(bytes, "riff-size-unknown.wav")).info
        #expect(info.frames == 800)
        #expect(info.warnings.isEmpty)
    }

    @Test(arguments: RIFFBuilder.problems.indices)
    func containerProblemHasItsOwnCode(index: Int) throws {
        let (name, bytes, code, message) = RIFFBuilder.problems[index]
        let kind = try #require(AudioError.Kind(rawValue: code))
        let path = try RIFFBuilder.write(bytes, name)
        do {
            _ = try AudioFileReader(path: path)
            Issue.record("\(name) opened")
        } catch {
            #expect(error.kind == kind, "\(error)")
            #expect(error.path == path)
            #expect(error.detail.hasPrefix(message), "\(error.detail)")
            #expect(!error.detail.contains("libsndfile:"), "\(error.detail)")
        }
    }

    /// The legitimate cases around these: RF64 (whose RIFF-style sizes are 0xFFFFFFFF with the real
    /// ones in ds64), WAVE_FORMAT_EXTENSIBLE, W64 and an extensible file with a float sub-format
    /// all read exactly, without warnings.
    @Test(arguments: [
        ("rf64.wav", SF_FORMAT_RF64 | SF_FORMAT_PCM_16),
        ("wavex.wav", SF_FORMAT_WAVEX | SF_FORMAT_PCM_16),
        ("wavex-float.wav", SF_FORMAT_WAVEX | SF_FORMAT_FLOAT),
        ("w64.w64", SF_FORMAT_W64 | SF_FORMAT_PCM_24),
    ])
    func legitimateVariantsStillRead(name: String, format: Int) throws {
        let path = temporaryPath(name)
        var info = SF_INFO(frames: 0, samplerate: 16_000, channels: 2, format: Int32(format), sections: 0, seekable: 0)
        let h = try #require(sf_open(path, Int32(SFM_WRITE), &info))
        let frames = 4_000
        var samples = [Float](repeating: 0, count: frames * 2)
        for i in 0..<frames { samples[2 * i] = Float(sin(Double(i) / 7) * 0.5); samples[2 * i + 1] = -samples[2 * i] / 2 }
        #expect(sf_writef_float(h, samples, sf_count_t(frames)) == frames)
        sf_close(h)
        let reader = try AudioFileReader(path: path)
        #expect(reader.info.frames == frames && reader.info.channels == 2)
        #expect(reader.info.warnings.isEmpty)
        let audio = try AudioDecoder.load(path: path, outputRate: nil)
        #expect(audio.samples.count == frames)
        #expect(abs(audio.samples[100] - (samples[200] + samples[201]) / 2) < 1e-4)
    }
}
