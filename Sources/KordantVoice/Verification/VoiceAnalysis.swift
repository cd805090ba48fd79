import Foundation

/// The result of checking one recording against an enrollment (what the VoicePrint screen shows in
/// its analysis history).
public struct VoiceAnalysis: Sendable, Equatable, Codable {
    public enum Verdict: String, Sendable, Codable {
        /// The recording is the enrolled voice (score at or above the match threshold).
        case match
        /// Another voice (score below the no-match threshold).
        case noMatch = "no_match"
        /// Between the thresholds, or the recording cannot be judged (see `reasons`).
        case uncertain
    }

    public var file: String
    public var verdict: Verdict
    /// Cosine similarity of the recording's embedding to the enrollment's voiceprint.
    public var score: Double
    /// Calibrated probability that the recording is the enrolled speaker (logistic fit of the
    /// score on development trials).
    public var sameSpeakerProbability: Double
    /// Probability that the verdict is right: `sameSpeakerProbability` for `match`, its
    /// complement for `no_match`, 0 for `uncertain` (no claim).
    public var confidence: Double
    /// Why the recording could not be judged or what limits the judgement: quality reasons
    /// (`too_short`, `no_speech`, `insufficient_speech`, `clipping`, `too_quiet`, `too_noisy`) and
    /// `multiple_speakers`.
    public var reasons: [String]
    /// What is worth fixing but does not withhold the verdict: `hum`, `dc_offset`.
    public var warnings: [String]
    /// Seconds of speech the encoder heard (after silence trimming).
    public var voicedSeconds: Double
    /// The speaker model (embeddings of different models are not comparable).
    public var model: String
}

/// Thresholds and calibration of verification. The defaults are the operating point calibrated on
/// a speaker-disjoint development split of real read speech (`benchmarks/speaker_calibration.py`;
/// figures in README).
public struct VerificationPolicy: Sendable, Hashable, Codable {
    /// At or above: `match`.
    public var matchThreshold = 0.843
    /// Below: `no_match`. Between the two: `uncertain`.
    public var noMatchThreshold = 0.762
    /// Logistic calibration p = 1 / (1 + e^-(slope·score + intercept)).
    public var calibrationSlope = 33.155
    public var calibrationIntercept = -25.184
    /// When the partial windows split into a first and a second part whose mean embeddings have a
    /// cosine below this, the recording holds `multiple_speakers`. On the real speech set, 36 of 36
    /// concatenations of two speakers scored at most 0.711; 38 of 40 single-speaker clips at least
    /// 0.762 (the two below: noisy DNS recordings, one with other voices in the background).
    public var speakerChangeThreshold = 0.74
    /// Recordings shorter than this are `too_short` (uncertain).
    public var minimumDuration = 1.0
    /// Less voiced audio than this (after the encoder's silence trimming) is `insufficient_speech`.
    public var minimumVoicedSeconds = 1.0
    /// The recording's quality thresholds (level, clipping, noise) beyond duration and speech.
    public var quality: QualityPolicy = {
        var q = QualityPolicy()
        q.minimumDuration = 1.0
        q.minimumSpeech = 1.0
        // Noise degrades the embedding before it stops a person from recording an enrollment:
        // below 10 dB a verdict is withheld (`too_noisy` blocks), between 10 and 15 dB it stands.
        q.minimumSNRDB = 10
        return q
    }()

    public init() {}

    /// Calibrated probability of the same speaker for a score.
    public func probability(_ score: Double) -> Double {
        1 / (1 + Foundation.exp(-(calibrationSlope * score + calibrationIntercept)))
    }
}

/// Checks recordings against one enrollment's voiceprint. Thread-safe (the encoder is).
public struct Verifier: Sendable {
    public let encoder: SpeakerEncoder
    public let voiceprint: [Float]
    public var policy: VerificationPolicy

    /// Quality reasons that make any verdict but `uncertain` unjustified.
    static let blocking: Set<String> = ["too_short", "no_speech", "insufficient_speech", "clipping", "too_noisy", "multiple_speakers"]

    /// The lowest cosine between the mean of the first k partial embeddings and the mean of the
    /// rest, over k (1 with fewer than 3 partials: too short to tell).
    public static func speakerChange(_ partials: [[Float]]) -> Double {
        guard partials.count >= 3, let d = partials.first?.count else { return 1 }
        var total = [Float](repeating: 0, count: d)
        for p in partials { for k in 0..<d { total[k] += p[k] } }
        var head = [Float](repeating: 0, count: d), worst = 1.0
        for split in 1..<partials.count {
            for k in 0..<d { head[k] += partials[split - 1][k] }
            let tail = (0..<d).map { total[$0] - head[$0] }
            worst = min(worst, SpeakerEncoder.cosine(head, tail))
        }
        return worst
    }

    public init(encoder: SpeakerEncoder, voiceprint: [Float], policy: VerificationPolicy = .init()) {
        self.encoder = encoder
        self.voiceprint = voiceprint
        self.policy = policy
    }

    /// Decodes and analyses one recording.
    public func analyse(path: String) throws -> VoiceAnalysis {
        try analyse(VoiceInput.load(path: path), file: path)
    }

    public func analyse(_ input: VoiceInput, file: String) -> VoiceAnalysis {
        let (report, _) = QualityCheck.check(input, policy: policy.quality)
        var reasons = report.reasons.map(\.rawValue)
        let wav = SpeakerPreprocessing.preprocess(input.samples)
        let voiced = Double(wav.count) / 16_000
        if voiced < policy.minimumVoicedSeconds && !reasons.contains("no_speech") && !reasons.contains("insufficient_speech") {
            reasons.append("insufficient_speech")
        }
        let (embedding, partials) = encoder.embedPreprocessed(wav)
        let score = SpeakerEncoder.cosine(embedding, voiceprint)
        // Two voices one after the other: some split of the partial windows into a first and a
        // second part whose mean embeddings disagree.
        if Self.speakerChange(partials) < policy.speakerChangeThreshold { reasons.append("multiple_speakers") }
        let p = policy.probability(score)
        var verdict: VoiceAnalysis.Verdict
        if reasons.contains(where: Self.blocking.contains) {
            verdict = .uncertain
        } else if score >= policy.matchThreshold {
            verdict = .match
        } else if score < policy.noMatchThreshold {
            verdict = .noMatch
        } else {
            verdict = .uncertain
        }
        let confidence = verdict == .match ? p : verdict == .noMatch ? 1 - p : 0
        return VoiceAnalysis(
            file: file, verdict: verdict, score: score, sameSpeakerProbability: p, confidence: confidence,
            reasons: reasons, warnings: report.warnings.map(\.code.rawValue), voicedSeconds: voiced, model: SpeakerEncoder.modelName)
    }
}
