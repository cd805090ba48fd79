import Foundation
import KordantAudio
import KordantVoice
import Testing
import KordantTestSupport

/// Quality on what real recordings bring: hum and DC offset below the voice, noise that masks it,
/// few pauses, and the real speech set when it is present.
@Suite struct RealSpeechQualityTests {
    static let speechPath = Fixtures.testAudio("speech_us_male.wav")
    static let speech = Fixtures.audio("speech_us_male.wav")

    static func write(_ name: String, _ x: [Float]) throws -> String {
        let path = TestScratch.directory.appendingPathComponent("kordant-quality-\(getpid())-\(name).wav").path
        let w = try WAVWriter(path: path)
        try x.withUnsafeBufferPointer { try w.write($0) }
        try w.close()
        return path
    }

    /// Gaussian white noise of RMS `rms` from a fixed seed (xorshift, Box–Muller).
    static func noise(_ count: Int, rms: Double, seed: UInt64 = 0x9E37_79B9_7F4A_7C15) -> [Float] {
        var s = seed
        func uniform() -> Double {
            s ^= s << 13; s ^= s >> 7; s ^= s << 17
            return (Double(s >> 11) + 0.5) / Double(1 << 53)
        }
        return (0..<count).map { _ in Float(rms * sqrt(-2 * log(uniform())) * cos(2 * .pi * uniform())) }
    }

    /// Mean power of the clean clip's speech frames (its known level), from the VAD's segments.
    static func speechPower(_ x: [Float]) -> Double {
        let vad = VoiceActivityDetector.analyse(x)
        var sum = 0.0, n = 0
        for seg in vad.segments {
            for i in Int(seg.start * 16_000)..<min(x.count, Int(seg.end * 16_000)) {
                sum += Double(x[i] * x[i])
                n += 1
            }
        }
        return sum / Double(n)
    }

    /// Mains hum 20 dB below the speech (with a third harmonic 20 dB below the hum) and a DC offset
    /// of 0.02: accepted, with `hum` and `dc_offset` warnings at the levels put in.
    @Test(arguments: [50.0, 60.0])
    func humAndDCOffsetAreWarningsNotRejections(mains: Double) throws {
        let clean = try QualityCheck.check(path: Self.speechPath)
        let humDB = try #require(clean.speechLevelDB) - 20
        let a = pow(10, humDB / 20) * 2.0.squareRoot()
        let x = Self.speech.enumerated().map { i, v in
            let t = Double(i) / 16_000
            return v + Float(a * sin(2 * .pi * mains * t) + 0.1 * a * sin(2 * .pi * 3 * mains * t) + 0.02)
        }
        let r = try QualityCheck.check(path: try Self.write("hum\(Int(mains))", x))
        #expect(r.pass, "\(r.reasons) snr \(r.snrDB ?? .nan) hum \(r.humLevelDB)")
        #expect(r.warnings.map(\.code) == [.hum, .dcOffset])
        #expect(abs(r.humLevelDB - humDB) < 1, "hum measured \(r.humLevelDB) dBFS, put in \(humDB)")
        #expect(abs(r.dcOffset - 0.02) < 0.001)
        let dc = try #require(r.warnings.first { $0.code == .dcOffset })
        #expect(abs(dc.levelDB - 20 * log10(0.02)) < 0.5)
        // The speech band barely sees either: the SNR stays far above any threshold.
        #expect((r.snrDB ?? 0) > 30, "snr \(r.snrDB ?? .nan)")
        #expect(abs(r.speechSeconds - clean.speechSeconds) < 0.3)
        #expect(clean.warnings.isEmpty)
    }

    /// Hum nearly as loud as the speech masks it: `too_noisy`, saying it is hum.
    @Test func humThatMasksSpeechIsTooNoisy() throws {
        let clean = try QualityCheck.check(path: Self.speechPath)
        let a = pow(10, (try #require(clean.speechLevelDB) - 3) / 20) * 2.0.squareRoot()
        let x = Self.speech.enumerated().map { i, v in v + Float(a * sin(2 * .pi * 50 * Double(i) / 16_000)) }
        let r = try QualityCheck.check(path: try Self.write("hum-masking", x))
        #expect(r.reasons.contains(.tooNoisy), "\(r.reasons)")
        #expect(r.messages[.tooNoisy]?.contains("hum") == true)
    }

    /// White noise at 5 dB SNR (over the speech) is still `too_noisy`.
    @Test func whiteNoiseAtFiveDecibelsIsTooNoisy() throws {
        let rms = (Self.speechPower(Self.speech) / pow(10, 0.5)).squareRoot()
        let n = Self.noise(Self.speech.count, rms: rms)
        let x = zip(Self.speech, n).map { $0 + $1 }
        let r = try QualityCheck.check(path: try Self.write("white5", x))
        #expect(r.reasons.contains(.tooNoisy), "\(r.reasons) snr \(r.snrDB ?? .nan)")
        #expect(abs((r.snrDB ?? 0) - 5) <= 3, "snr \(r.snrDB ?? .nan)")
    }

    /// Speech without its pauses (the segments joined) plus white noise 20 dB below it: the SNR
    /// comes from the quietest frames and stays within 3 dB.
    @Test func snrWithoutPauses() throws {
        let vad = VoiceActivityDetector.analyse(Self.speech)
        var joined: [Float] = []
        for seg in vad.segments { joined += Self.speech[Int(seg.start * 16_000)..<min(Self.speech.count, Int(seg.end * 16_000))] }
        let rms = (Self.speechPower(Self.speech) / 100).squareRoot()
        let x = zip(joined, Self.noise(joined.count, rms: rms)).map { $0 + $1 }
        let r = VoiceActivityDetector.analyse(x)
        #expect(abs((r.snrDB ?? 0) - 20) <= 3, "snr \(r.snrDB ?? .nan) on \(joined.count / 160) frames")
    }

    static let realSpeech = Fixtures.root.appendingPathComponent("../shared/data/speech").standardized.path

    /// The clean clips of the real speech set (notes without NOISY / real noisy / meeting): none is
    /// `too_noisy`.
    @Test(.enabled(if: FileManager.default.fileExists(atPath: Self.realSpeech + "/manifest.csv"), "../shared/data/speech absent"))
    func noCleanRealClipIsTooNoisy() throws {
        let lines = try String(contentsOfFile: Self.realSpeech + "/manifest.csv", encoding: .utf8).split(whereSeparator: \.isNewline).dropFirst()
        var checked = 0
        for line in lines {
            let notes = line.lowercased()
            guard !notes.contains("noisy"), !notes.contains("meeting") else { continue }
            let file = String(line.split(separator: ",")[0])
            let r = try QualityCheck.check(path: Self.realSpeech + "/" + file)
            #expect(!r.reasons.contains(.tooNoisy), "\(file): snr \(r.snrDB ?? .nan)")
            checked += 1
        }
        #expect(checked == 69)
    }
}
