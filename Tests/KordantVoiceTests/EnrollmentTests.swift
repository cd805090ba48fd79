import Foundation
import KordantVoice
import Testing

@Suite struct EnrollmentTests {
    static func paths(_ files: [String]) -> [String] { files.map(Fixtures.testAudio) }

    /// Three recordings of one voice: every sample passes, consistent, a normalised voiceprint.
    @Test(arguments: ["us_male", "gb_female", "scot_male"])
    func oneVoiceIsConsistent(speaker: String) throws {
        let r = try Enrollment.enroll(paths: Self.paths((1...3).map { "enroll_\(speaker)_\($0).wav" }))
        #expect(r.pass, "\(r.samples.map(\.quality.reasons)) \(r.consistency.similarity)")
        #expect(r.consistency.consistent)
        #expect(r.voiceprint.count == 24)
        #expect(abs(r.voiceprint.reduce(0) { $0 + $1 * $1 } - 1) < 1e-9)
        for s in r.samples {
            #expect(s.features?.nMfcc == 13 && s.features?.mean.count == 13 && s.features?.std.count == 13)
            #expect((s.features?.frames ?? 0) > 300)
        }
    }

    /// A sample from another (female) voice agrees with none of the others and is named.
    @Test func otherVoiceIsFlagged() throws {
        let r = try Enrollment.enroll(paths: Self.paths(["enroll_us_male_1.wav", "enroll_us_male_2.wav", "speech_us_female.wav"]))
        #expect(r.consistency.inconsistent == [2], "\(r.consistency.similarity)")
        #expect(!r.pass)
    }

    /// Features are the kaldi profile's statistics over speech frames: recomputing them from the
    /// MFCC matrix and the VAD by hand gives the same numbers.
    @Test func featuresAreSpeechFrameStatistics() throws {
        let path = Fixtures.testAudio("enroll_gb_female_2.wav")
        let r = try Enrollment.enroll(paths: [path])
        let input = try VoiceInput.load(path: path)
        let vad = VoiceActivityDetector.analyse(input.samples)
        let m = try MFCC.compute(input.samples)
        let rows = (0..<m.frames).filter { vad.speechFrames[min(vad.speechFrames.count - 1, (($0 * 160) + 200) / 160)] }
        let c1 = rows.map { Double(m[$0, 1]) }
        let mean = c1.reduce(0, +) / Double(c1.count)
        let f = r.samples[0].features!
        #expect(f.frames == rows.count)
        #expect(abs(f.mean[1] - mean) < 1e-6)
        #expect(abs(f.std[1] - (c1.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / Double(c1.count)).squareRoot()) < 1e-6)
    }

    @Test func failingSamplesAreReportedNotDropped() throws {
        let r = try Enrollment.enroll(paths: Self.paths(["enroll_scot_male_1.wav", "short_speech.wav", "silence_6s.wav"]))
        #expect(r.samples.count == 3)
        #expect(r.samples[1].quality.reasons.contains(.tooShort))
        #expect(r.samples[2].quality.reasons == [.noSpeech] && r.samples[2].features == nil)
        #expect(!r.pass)
        #expect(r.voiceprint.count == 24)   // from the one passing sample
    }
}
