import Foundation
import KordantAudio

/// MFCC statistics of one sample over its speech frames (the backend stores these).
public struct SampleFeatures: Sendable, Equatable, Codable {
    public var profile: String
    public var nMfcc: Int
    /// Per-coefficient mean over speech frames (c0 is the kaldi profile's log energy).
    public var mean: [Double]
    /// Per-coefficient standard deviation over speech frames.
    public var std: [Double]
    /// Frames the statistics cover.
    public var frames: Int
}

/// One enrollment sample: its quality verdict and features.
public struct EnrollmentSample: Sendable, Equatable {
    public var path: String
    public var quality: QualityReport
    public var features: SampleFeatures?
    /// The sample's speaker embedding.
    public var embedding: SpeakerEmbedding?

    public init(path: String, quality: QualityReport, features: SampleFeatures?, embedding: SpeakerEmbedding? = nil) {
        self.path = path
        self.quality = quality
        self.features = features
        self.embedding = embedding
    }
}

/// Agreement of the samples of one enrollment, judged on their speaker embeddings.
public struct Consistency: Sendable, Equatable, Codable {
    /// Pairwise cosine similarity of the samples' speaker embeddings.
    public var similarity: [[Double]]
    /// Each sample's cosine to the normalised mean embedding of the other samples (leave-one-out).
    public var leaveOneOut: [Double]
    public var threshold: Double
    /// Indices of samples that do not belong with the others (see ``Enrollment/consistency(_:threshold:)``).
    public var inconsistent: [Int]
    public var consistent: Bool { inconsistent.isEmpty }
}

/// The outcome of `kordant enroll`.
public struct EnrollmentResult: Sendable, Equatable {
    public var samples: [EnrollmentSample]
    /// The voiceprint: the L2-normalised mean speaker embedding of the passing samples (256 values;
    /// empty if none pass).
    public var voiceprint: [Double]
    /// The speaker model of the voiceprint.
    public var model: String
    public var consistency: Consistency
    /// Every sample passed its quality check and the samples are consistent.
    public var pass: Bool
}

/// Enrolls with one MFCC extractor (FFTW plans and buffers) and one speaker encoder reused for every
/// sample and every enrollment it processes: a batch worker keeps one. Not thread-safe; give each
/// thread its own.
public final class Enroller {
    private let extractor: MFCCExtractor
    private let encoder: SpeakerEncoder
    /// Leave-one-out cosine below which a sample does not belong.
    public var consistencyThreshold = Enrollment.consistencyThreshold

    /// Uses `encoder`, or loads the default weights (throws ``SpeakerEncoderError`` when they are
    /// missing or corrupt).
    public init(encoder: SpeakerEncoder? = nil) throws {
        extractor = try MFCCExtractor(options: .kaldi())
        self.encoder = try encoder ?? SpeakerEncoder()
    }

    public func enroll(paths: [String], policy: QualityPolicy = .init(), vad: VADOptions = .init()) throws -> EnrollmentResult {
        guard !paths.isEmpty else { throw VoiceError(.noSamples, "an enrollment needs at least one sample") }
        var samples: [EnrollmentSample] = []
        for path in paths {
            // The encoder needs the whole 16 kHz clip (enrollment samples are seconds long), so
            // this loads it rather than streaming as `quality` and `features` do.
            let input = try VoiceInput.load(path: path)
            let (report, activity) = QualityCheck.check(input, policy: policy, vad: vad)
            let mfcc = input.samples.withUnsafeBufferPointer { extractor.compute($0) }
            var sample = EnrollmentSample(path: path, quality: report, features: Enrollment.statistics(mfcc, activity: activity))
            sample.embedding = encoder.embed(input.samples)
            samples.append(sample)
        }
        return Enrollment.summarise(samples, threshold: consistencyThreshold)
    }
}

/// Enrollment from several samples of one user.
///
/// The voiceprint is the mean speaker embedding (Resemblyzer's GE2E encoder, ``SpeakerEncoder``)
/// of the samples that pass their quality check; ``Verifier`` compares recordings with it. The
/// samples' MFCC statistics are kept because the backend stores them.
public enum Enrollment {
    /// Below this leave-one-out cosine a sample is `inconsistent_speaker`: calibrated on a
    /// speaker-disjoint development split of real speech (benchmarks/speaker_calibration.py).
    public static let consistencyThreshold = 0.725

    public static func enroll(paths: [String], policy: QualityPolicy = .init(), vad: VADOptions = .init()) throws -> EnrollmentResult {
        try Enroller().enroll(paths: paths, policy: policy, vad: vad)
    }

    static func summarise(_ samples: [EnrollmentSample], threshold: Double = consistencyThreshold) -> EnrollmentResult {
        let embeddings = samples.map { $0.embedding?.vector ?? [] }
        let consistency = consistency(embeddings, threshold: threshold)
        let passing = samples.filter { $0.quality.pass }.compactMap(\.embedding)
        var voiceprint: [Double] = []
        if !passing.isEmpty {
            voiceprint = [Double](repeating: 0, count: passing[0].vector.count)
            for e in passing { for k in voiceprint.indices { voiceprint[k] += Double(e.vector[k]) } }
            let norm = voiceprint.reduce(0) { $0 + $1 * $1 }.squareRoot()
            if norm > 0 { voiceprint = voiceprint.map { $0 / norm } }
        }
        let pass = samples.allSatisfy { $0.quality.pass } && consistency.consistent
        return EnrollmentResult(samples: samples, voiceprint: voiceprint, model: SpeakerEncoder.modelName, consistency: consistency, pass: pass)
    }

    /// Leave-one-out consistency: each sample against the normalised mean of the others. The
    /// sample with the lowest score is named when it is below `threshold`, then the check repeats
    /// without it while at least three samples remain (so one odd sample does not drag the genuine
    /// ones down with it). With two samples that disagree both are named: nothing says which one
    /// is the odd one.
    public static func consistency(_ embeddings: [[Float]], threshold: Double) -> Consistency {
        let n = embeddings.count
        var similarity = [[Double]](repeating: [Double](repeating: 1, count: n), count: n)
        for i in 0..<n { for j in 0..<n where i != j { similarity[i][j] = SpeakerEncoder.cosine(embeddings[i], embeddings[j]) } }
        func looScores(_ members: [Int]) -> [Int: Double] {
            var scores: [Int: Double] = [:]
            for i in members {
                var mean = [Float](repeating: 0, count: embeddings[i].count)
                for j in members where j != i && embeddings[j].count == mean.count { for k in mean.indices { mean[k] += embeddings[j][k] } }
                scores[i] = SpeakerEncoder.cosine(embeddings[i], mean)
            }
            return scores
        }
        guard n >= 2 else { return Consistency(similarity: similarity, leaveOneOut: n == 1 ? [1] : [], threshold: threshold, inconsistent: []) }
        let initial = looScores(Array(0..<n))
        let leaveOneOut = (0..<n).map { initial[$0]! }
        var members = Array(0..<n), inconsistent: [Int] = []
        while members.count >= 2 {
            let scores = looScores(members)
            let worst = members.min { scores[$0]! < scores[$1]! }!
            guard scores[worst]! < threshold else { break }
            if members.count == 2 {
                // Two samples left after naming an odd one: the pair is what the others were judged against.
                if n == 2 { inconsistent += members }
                break
            }
            inconsistent.append(worst)
            members.removeAll { $0 == worst }
        }
        return Consistency(similarity: similarity, leaveOneOut: leaveOneOut, threshold: threshold, inconsistent: inconsistent.sorted())
    }

    /// Mean and standard deviation of each coefficient over the frames whose centre is speech.
    static func statistics(_ m: FeatureMatrix, activity: VoiceActivity) -> SampleFeatures? {
        let d = m.coefficients
        var sum = [Double](repeating: 0, count: d), sq = [Double](repeating: 0, count: d)
        var count = 0
        for t in 0..<m.frames {
            // kaldi frames: 400 samples from t·160; the VAD's 10 ms frames: 160 samples.
            let centre = (t * 160 + 200) / max(1, activity.frameLength)
            guard centre < activity.speechFrames.count, activity.speechFrames[centre] else { continue }
            count += 1
            for c in 0..<d {
                let v = Double(m[t, c])
                sum[c] += v
                sq[c] += v * v
            }
        }
        guard count > 0 else { return nil }
        let mean = sum.map { $0 / Double(count) }
        let std = (0..<d).map { max(0, sq[$0] / Double(count) - mean[$0] * mean[$0]).squareRoot() }
        return SampleFeatures(profile: "kaldi", nMfcc: d, mean: mean, std: std, frames: count)
    }

    static func cosine(_ a: [Double], _ b: [Double]) -> Double {
        guard !a.isEmpty, a.count == b.count else { return 0 }
        var dot = 0.0, na = 0.0, nb = 0.0
        for i in a.indices {
            dot += a[i] * b[i]
            na += a[i] * a[i]
            nb += b[i] * b[i]
        }
        return na > 0 && nb > 0 ? dot / (na * nb).squareRoot() : 0
    }
}
