import Foundation
import KordantAudio
import KordantVoice
import Testing
import KordantTestSupport

@Suite struct QualityTests {
    /// Every TestAudio file with a known quality verdict gets it (and the expected reason).
    @Test(arguments: SpeechTruth.all.filter { $0.expect_quality != nil })
    func verdict(truth: SpeechTruth) throws {
        let report = try QualityCheck.check(path: Fixtures.testAudio(truth.file))
        if truth.expect_quality == "pass" {
            #expect(report.pass, "\(truth.file): \(report.reasons) snr \(report.snrDB ?? .nan) speech \(report.speechSeconds)")
        } else {
            #expect(!report.pass)
            #expect(report.reasons.map(\.rawValue).contains(truth.expect_quality!), "\(truth.file): \(report.reasons)")
            for r in report.reasons { #expect(report.messages[r]?.isEmpty == false) }
        }
    }

    @Test func measurementsAreReported() throws {
        let r = try QualityCheck.check(path: Fixtures.testAudio("speech_us_male.wav"))
        #expect(abs(r.durationSeconds - 10.760875) < 1e-6)
        #expect(r.speechSeconds > 8 && r.speechSeconds < 10)
        #expect(abs(r.speechRatio - r.speechSeconds / r.durationSeconds) < 1e-12)
        #expect(abs(r.peakDB + 3) < 0.01)
        #expect(r.clippedFraction == 0)
        #expect(r.source.container == "WAV" && r.source.sampleRate == 16_000)
    }

    /// Any input format is accepted: the 44.1 kHz stereo FLAC variant is converted first and its
    /// measurements match the 16 kHz reference it was made from.
    @Test func otherFormatsAreConvertedFirst() throws {
        let flac = try QualityCheck.check(path: Fixtures.testAudio("fmt_44k1_stereo.flac"))
        let ref = try QualityCheck.check(path: Fixtures.testAudio("fmt_16k_s16_reference.wav"))
        #expect(flac.source.container == "FLAC" && flac.source.sampleRate == 44_100 && flac.source.channels == 2)
        #expect(abs(flac.durationSeconds - 4.5) < 0.001)
        #expect(flac.reasons == [.tooShort] && ref.reasons == [.tooShort])
        // Stereo carries L = x, R = x/2: the downmix is 0.75·x, i.e. 2.5 dB quieter.
        #expect(abs((ref.speechLevelDB! - flac.speechLevelDB!) - 20 * log10(1 / 0.75)) < 0.2)
    }

    /// The policy is one value: relaxing a threshold changes the verdict.
    @Test func policyOverrides() throws {
        var lenient = QualityPolicy()
        lenient.minimumSNRDB = 5
        #expect(try QualityCheck.check(path: Fixtures.testAudio("noisy_white_snr10.wav"), policy: lenient).pass)
        var strict = QualityPolicy()
        strict.minimumDuration = 12
        #expect(try QualityCheck.check(path: Fixtures.testAudio("speech_us_male.wav"), policy: strict).reasons == [.tooShort])
    }

    /// Three consecutive full-scale samples are clipping even when the clipped fraction is tiny.
    @Test func shortFullScaleRunIsClipping() throws {
        var x = (0..<96_000).map { Float(sin(Double($0) / 7)) * 0.3 }
        for i in 50_000..<50_003 { x[i] = 1 }
        let path = TestScratch.directory.appendingPathComponent("fullscale-\(getpid()).wav").path
        let w = try WAVWriter(path: path)
        try x.withUnsafeBufferPointer { try w.write($0) }
        try w.close()
        let input = try VoiceInput.load(path: path)
        #expect(input.longestFullScaleRun == 3)
        #expect(QualityCheck.check(input).report.reasons.contains(.clipping))
    }
}
