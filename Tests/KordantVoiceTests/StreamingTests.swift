import Foundation
import KordantAudio
@testable import KordantVoice
import Testing
import KordantTestSupport

/// The streaming paths (block by block, as the commands run) give what the whole-signal paths give,
/// exactly, whatever the block sizes.
@Suite struct StreamingTests {
    static let options: [(String, MFCCOptions)] = [
        ("kaldi", .kaldi()), ("librosa defaults", .librosa()),
        ("librosa speech", .librosa(nMFCC: 13, nFFT: 512, hopLength: 160, winLength: 400, nMels: 40)),
        ("librosa uncentered", .librosa(nMFCC: 13, nFFT: 512, hopLength: 160, winLength: 400, nMels: 40, center: false)),
        ("psf", .psf()), ("psf hop > window", .psf(winlen: 0.01, winstep: 0.03)),
    ]

    /// Feeds `x` to `add` in blocks whose sizes cycle through awkward values.
    static func feed(_ x: [Float], _ add: (UnsafeBufferPointer<Float>) -> Void) {
        let sizes = [1, 7, 160, 399, 4096, 65_536, 100_003, 3]
        x.withUnsafeBufferPointer { all in
            var i = 0, k = 0
            while i < all.count {
                let n = min(sizes[k % sizes.count], all.count - i)
                add(UnsafeBufferPointer(rebasing: all[i..<(i + n)]))
                i += n
                k += 1
            }
        }
    }

    @Test(arguments: 0..<options.count)
    func mfccStreamEqualsWholeSignal(index: Int) throws {
        let (name, options) = Self.options[index]
        let x = Fixtures.audio("speech_us_male.wav")
        let whole = try MFCC.compute(x, options: options)
        let stream = try MFCCStream(options: options, expectedSamples: 1000)   // a header that lies low
        for clip in [x, Array(x.prefix(5000)), Array(x.prefix(100)), []] {
            stream.reset(expectedSamples: clip.count)
            Self.feed(clip) { stream.add($0) }
            let streamed = stream.finish()
            let expected = clip.count == x.count ? whole : try MFCC.compute(clip, options: options)
            #expect(streamed == expected, "\(name), \(clip.count) samples: \(streamed.frames) vs \(expected.frames) frames")
        }
        #expect(whole.frames > 100)
    }

    /// The VAD's per-frame summaries computed block by block equal the whole-clip computation
    /// (DC removal and the 100 Hz high-pass over the clip, then power of each 10 ms frame, band
    /// level and flatness of its centred 25 ms window; the low-passed power per frame and the mean).
    @Test(arguments: ["speech_us_male.wav", "noisy_pink_snr10.wav", "silence_6s.wav", "short_speech.wav", "fmt_8k_ulaw.wav"])
    func voiceActivityStreamEqualsWholeClip(file: String) throws {
        let raw = Fixtures.audio(file)
        let hop = 160
        let n = (raw.count + hop - 1) / hop
        var filter = SpeechBandFilter(sampleRate: 16_000)
        var x = [Float](repeating: 0, count: raw.count)
        var lowPower: [Double] = []
        raw.withUnsafeBufferPointer { all in
            x.withUnsafeMutableBufferPointer { out in
                for t in 0..<n {
                    let a = t * hop, b = min(all.count, a + hop)
                    filter.process(UnsafeBufferPointer(rebasing: all[a..<b]), into: out.baseAddress! + a)
                    lowPower.append(filter.lowEnergy / Double(b - a))
                    filter.lowEnergy = 0
                }
            }
        }
        let spectral = SpectralFrames(sampleRate: 16_000)
        var power: [Double] = [], level: [Double] = [], flatness: [Double] = []
        x.withUnsafeBufferPointer { all in
            for t in 0..<n {
                let slice = UnsafeBufferPointer(rebasing: all[(t * hop)..<min(all.count, (t + 1) * hop)])
                power.append(Double(SampleKernels.sumOfSquaresAndPeak(slice).sumOfSquares) / Double(slice.count))
                let (l, f) = spectral.frame(all, start: t * hop + hop / 2 - spectral.length / 2)
                level.append(l)
                flatness.append(f)
            }
        }
        let reference = VoiceActivityDetector.decide(power: power, level: level, flatness: flatness, lowPower: lowPower,
                                                     dcOffset: raw.isEmpty ? 0 : filter.sampleSum / Double(raw.count), hop: hop,
                                                     sampleRate: 16_000, samples: x.count, options: .init())
        let stream = VoiceActivityStream(expectedSamples: 10)
        Self.feed(raw) { stream.add($0) }
        let streamed = stream.finish()
        #expect(streamed == reference)
        #expect(VoiceActivityDetector.analyse(raw) == reference)
        if file.hasPrefix("speech") { #expect(!streamed.segments.isEmpty) }
    }

    /// The streaming quality check and enrollment equal the load-everything path, on TestAudio
    /// files of every kind of format, rate, level and content.
    @Test func analysisEqualsLoadedInput() throws {
        let files = ["fmt_44k1_stereo.flac", "fmt_44k1_stereo.ogg", "fmt_8k_ulaw.wav", "fmt_22k05_u8.wav", "fmt_48k_s24.flac",
                     "fmt_16k_float.wav", "clipped_speech.wav", "noisy_white_snr10.wav", "silence_6s.wav", "short_speech.wav",
                     "speech_us_male.wav", "tone_1000hz_0dbfs.wav"]
        let extractor = try MFCCExtractor(options: .kaldi())
        let enroller = try Enroller()
        for file in files {
            let path = Fixtures.testAudio(file)
            let input = try VoiceInput.load(path: path)
            let (loaded, activity) = QualityCheck.check(input)
            #expect(try QualityCheck.check(path: path) == loaded, "\(file)")
            let mfcc = input.samples.withUnsafeBufferPointer { extractor.compute($0) }
            let expected = Enrollment.statistics(mfcc, activity: activity)
            let enrolled = try enroller.enroll(paths: [path])
            #expect(enrolled.samples[0].features == expected && enrolled.samples[0].quality == loaded, "\(file)")
        }
    }

    /// The writers produce byte for byte what the in-memory encoders produce.
    @Test func writersMatchEncoders() throws {
        var m = try MFCC.compute(Fixtures.audio("speech_gb_female.wav"), options: .kaldi())
        m.values[0] = 2      // a whole number: JSON writes "2", CSV "2.0"
        m.values[1] = -0.0
        m.values[2] = 1e-7
        let dir = TestScratch.directory.path
        func written(_ name: String, _ body: (ByteSink) throws -> Void) throws -> Data {
            let path = "\(dir)/stream-\(getpid())-\(name)"
            let sink = try ByteSink(path: path, bufferSize: 4096)   // small, so the buffer is flushed many times
            try body(sink)
            #expect(!FileManager.default.fileExists(atPath: path))   // not in place before the commit
            try sink.commit()
            defer { unlink(path) }
            return try Data(contentsOf: URL(fileURLWithPath: path))
        }
        #expect(try written("m.npy") { try m.writeNPY(to: $0) } == m.npy())
        #expect(try written("m.csv") { try m.writeCSV(to: $0) } == Data(m.csv().utf8))
        let rows = (0..<m.frames).map { Array(m.row($0)) }
        #expect(try written("m.json") { try m.writeJSONRows(to: $0) } == (try JSONEncoder().encode(rows)))
        #expect(try written("i.txt") { s in for v in [0, 7, -7, 1234567, Int.min, Int.max] { try s.write(v); try s.write(byte: 32) } }
                == Data("0 7 -7 1234567 \(Int.min) \(Int.max) ".utf8))
    }

    /// A sink dropped without a commit leaves nothing behind.
    @Test func abandonedSinkLeavesNoFile() throws {
        let path = TestScratch.directory.path + "/abandoned-\(getpid()).npy"
        do {
            let sink = try ByteSink(path: path)
            try sink.write("partial")
            try sink.flush()
        }
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: TestScratch.directory.path)
            .filter { $0.contains("abandoned-\(getpid())") }
        #expect(leftovers.isEmpty)
        #expect(throws: AudioError.self) { try ByteSink(path: "/nonexistent/dir/x.npy") }
    }
}
