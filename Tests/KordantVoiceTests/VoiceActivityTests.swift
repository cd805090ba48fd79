import Foundation
import KordantAudio
import KordantVoice
import Testing

/// TestAudio/manifest.json entries with ground truth for speech.
struct SpeechTruth: Decodable, Sendable, CustomStringConvertible {
    let file: String
    let kind: String
    let speech_segments: [[Int]]?
    let snr_db: Double?
    let noise: String?
    let expect_quality: String?
    var description: String { file }

    static let all: [SpeechTruth] = {
        struct Manifest: Decodable { let files: [SpeechTruth] }
        let data = try! Data(contentsOf: URL(fileURLWithPath: Fixtures.testAudio("manifest.json")))
        return try! JSONDecoder().decode(Manifest.self, from: data).files
    }()
}

@Suite struct VoiceActivityTests {
    /// Clean speech and noisy speech at SNR ≥ 10 dB.
    static let vadCases = SpeechTruth.all.filter {
        $0.kind == "speech" || $0.kind == "enrollment_speech" || ($0.kind == "noisy_speech" && ($0.snr_db ?? 0) >= 10)
    }

    /// Agreement with the ground-truth speech segments on ≥ 95 % of 10 ms frames.
    @Test(arguments: vadCases)
    func vadAgreesWithGroundTruth(truth: SpeechTruth) throws {
        let x = try AudioDecoder.load(path: Fixtures.testAudio(truth.file)).samples
        let vad = VoiceActivityDetector.analyse(x)
        let segments = truth.speech_segments!
        var agree = 0, missed = 0, extra = 0
        for t in 0..<vad.speechFrames.count {
            let centre = t * 160 + 80
            let truthSpeech = segments.contains { centre >= $0[0] && centre < $0[1] }
            if truthSpeech == vad.speechFrames[t] { agree += 1 } else if truthSpeech { missed += 1 } else { extra += 1 }
        }
        let accuracy = Double(agree) / Double(vad.speechFrames.count)
        print("vad \(truth.file): \(accuracy) of frames agree (missed \(missed), extra \(extra))")
        #expect(accuracy >= 0.95, "\(truth.file): \(accuracy) (missed \(missed), extra \(extra) frames; \(vad.segments.map { String(format: "%.2f-%.2f", $0.start, $0.end) }))")
    }

    /// SNR within ±3 dB of the mixing SNR for white and pink noise, 5 to 30 dB.
    @Test(arguments: SpeechTruth.all.filter { $0.kind == "noisy_speech" })
    func snrWithinThreeDecibels(truth: SpeechTruth) throws {
        let x = try AudioDecoder.load(path: Fixtures.testAudio(truth.file)).samples
        let snr = VoiceActivityDetector.analyse(x).snrDB
        print("snr \(truth.file): estimated \(snr ?? .nan) dB, mixed at \(truth.snr_db!) dB")
        #expect(snr != nil)
        #expect(abs((snr ?? 0) - truth.snr_db!) <= 3, "\(truth.file): estimated \(snr ?? .nan) dB, mixed at \(truth.snr_db!) dB")
    }

    @Test func silenceAndToneHaveNoSpeech() throws {
        for file in ["silence_6s.wav", "tone_1000hz_m6dbfs.wav"] {
            let vad = VoiceActivityDetector.analyse(try AudioDecoder.load(path: Fixtures.testAudio(file)).samples)
            #expect(vad.segments.isEmpty, "\(file)")
            #expect(vad.snrDB == nil && vad.speechLevelDB == nil)
        }
    }

    /// Speech level is the RMS of speech frames: 32 dB of gain shows up as 32 dB.
    @Test func speechLevelFollowsGain() throws {
        let loud = VoiceActivityDetector.analyse(try AudioDecoder.load(path: Fixtures.testAudio("speech_us_male.wav")).samples)
        let quiet = VoiceActivityDetector.analyse(try AudioDecoder.load(path: Fixtures.testAudio("quiet_speech.wav")).samples)
        #expect(abs((loud.speechLevelDB! - quiet.speechLevelDB!) - 32) < 0.5)
        #expect(loud.snrDB == VoiceActivityDetector.maximumSNR)
    }
}
