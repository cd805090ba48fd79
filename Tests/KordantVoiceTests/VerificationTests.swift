import Foundation
import KordantAudio
import KordantVoice
import Testing
import KordantTestSupport

/// Verification against a real enrollment of TestAudio's US male voice, with the real encoder.
@Suite(.enabled(if: SharedEncoder.available, SharedEncoder.skipReason)) struct VerificationTests {
    static let verifier: Verifier? = {
        guard let encoder = SharedEncoder.encoder,
              let r = try? Enroller(encoder: encoder).enroll(paths: (1...3).map { Fixtures.testAudio("enroll_us_male_\($0).wav") })
        else { return nil }
        return Verifier(encoder: encoder, voiceprint: r.voiceprint.map(Float.init))
    }()

    static func temporary(_ name: String, _ samples: [Float]) throws -> String {
        let path = TestScratch.directory.appendingPathComponent("kordant-verify-\(getpid())-\(name)").path
        let writer = try WAVWriter(path: path, sampleRate: 16_000, encoding: .pcm16)
        try samples.withUnsafeBufferPointer { try writer.write($0) }
        try writer.close()
        return path
    }

    /// Another recording of the enrolled voice is a confident match, with the model named.
    @Test func sameVoiceMatches() throws {
        let v = try #require(Self.verifier)
        let a = try v.analyse(path: Fixtures.testAudio("speech_us_male.wav"))
        #expect(a.verdict == .match && a.score >= v.policy.matchThreshold && a.confidence > 0.9, "\(a)")
        #expect(a.reasons.isEmpty && a.model == SpeakerEncoder.modelName)
        #expect(abs(a.sameSpeakerProbability - v.policy.probability(a.score)) < 1e-12)
    }

    /// Bad input is never a confident match: silence, music, 0.3 s, clipping, loud noise.
    @Test func badInputIsUncertain() throws {
        let v = try #require(Self.verifier)
        let speech = try AudioDecoder.load(path: Fixtures.testAudio("speech_us_male.wav")).samples
        let music: [Float] = (0..<(6 * 16_000)).map { i in
            let t = Float(i) / 16_000, note = [261.6, 329.6, 392.0, 523.2][Int(t * 2) % 4] as Float
            return 0.1 * sinf(2 * .pi * note * t) + 0.05 * sinf(2 * .pi * 110 * t)
        }
        let cases: [(String, String, String)] = [
            (Fixtures.testAudio("silence_6s.wav"), "no_speech", "silence"),
            (try Self.temporary("music.wav", music), "no_speech", "music"),
            (try Self.temporary("short.wav", Array(speech[16_000..<20_800])), "too_short", "0.3 s"),
            (Fixtures.testAudio("clipped_speech.wav"), "clipping", "clipped"),
            (Fixtures.testAudio("noisy_white_snr5.wav"), "too_noisy", "5 dB SNR"),
        ]
        for (path, reason, what) in cases {
            let a = try v.analyse(path: path)
            #expect(a.verdict == .uncertain && a.confidence == 0, "\(what): \(a)")
            #expect(a.reasons.contains(reason), "\(what): \(a.reasons)")
        }
    }

    /// Thresholds are options: raising the match threshold above the score makes it uncertain,
    /// raising the no-match threshold above it makes it no_match.
    @Test func thresholdsAreConfigurable() throws {
        let base = try #require(Self.verifier)
        let path = Fixtures.testAudio("speech_us_male.wav")
        let score = try base.analyse(path: path).score
        var v = base
        v.policy.matchThreshold = score + 0.01
        #expect(try v.analyse(path: path).verdict == .uncertain)
        v.policy.noMatchThreshold = score + 0.005
        #expect(try v.analyse(path: path).verdict == .noMatch)
    }

    /// Two different speakers one after the other (real speech, when present): the split of the
    /// partial windows gives them away.
    @Test(.enabled(if: FileManager.default.fileExists(atPath: EnrollmentTests.speech + "/manifest.csv"), "../shared/data/speech absent"))
    func twoRealSpeakersAreFlagged() throws {
        let v = try #require(Self.verifier)
        let a = try AudioDecoder.load(path: EnrollmentTests.speech + "/vctk-p232/p232_003.wav").samples
        let b = try AudioDecoder.load(path: EnrollmentTests.speech + "/vctk-p257/p257_003.wav").samples
        let one = v.encoder.embedPreprocessed(SpeakerPreprocessing.preprocess(a)).partials
        #expect(Verifier.speakerChange(one) >= v.policy.speakerChangeThreshold)
        let both = try v.analyse(path: try Self.temporary("two.wav", a + b))
        #expect(both.reasons.contains("multiple_speakers") && both.verdict == .uncertain, "\(both)")
    }
}
