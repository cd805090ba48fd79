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
}

/// Agreement of the samples of one enrollment.
public struct Consistency: Sendable, Equatable, Codable {
    /// Pairwise cosine similarity of the samples' mean cepstra (c1…c12).
    public var similarity: [[Double]]
    public var threshold: Double
    /// Indices of samples that agree with no other sample (best similarity below the threshold).
    public var inconsistent: [Int]
    public var consistent: Bool { inconsistent.isEmpty }
}

/// The outcome of `kordant enroll`.
public struct EnrollmentResult: Sendable, Equatable {
    public var samples: [EnrollmentSample]
    /// Mean over passing samples of [mean c1…c12, std c1…c12], L2-normalised (empty if none pass).
    public var voiceprint: [Double]
    public var consistency: Consistency
    /// Every sample passed its quality check and the samples are consistent.
    public var pass: Bool
}

/// Enrolls with one MFCC extractor (FFTW plans and buffers) reused for every sample and every
/// enrollment it processes: a batch worker keeps one. Not thread-safe; give each thread its own.
public final class Enroller {
    private let mfcc: MFCCStream
    private let activity = VoiceActivityStream()

    public init() throws {
        mfcc = MFCCStream(extractor: try MFCCExtractor(options: .kaldi()))
    }

    public func enroll(paths: [String], policy: QualityPolicy = .init(), vad: VADOptions = .init()) throws -> EnrollmentResult {
        guard !paths.isEmpty else { throw VoiceError(.noSamples, "an enrollment needs at least one sample") }
        var samples: [EnrollmentSample] = []
        for path in paths {
            // One streaming pass: quality and MFCCs without holding the audio.
            let analysis = try VoiceAnalysis.run(path: path, vad: vad, activityStream: activity, mfcc: mfcc)
            let report = QualityCheck.check(analysis, policy: policy)
            let features = Enrollment.statistics(mfcc.finish(), activity: analysis.activity)
            samples.append(EnrollmentSample(path: path, quality: report, features: features))
        }
        return Enrollment.summarise(samples)
    }
}

/// Enrollment from several samples of one user.
///
/// What the voiceprint is: a summary of average spectral envelope (MFCC means and spreads over
/// speech). It separates clearly different voices (for example a male and a female speaker) and
/// catches a wrong or mixed-up sample, but it also moves with what was said, the microphone and
/// the room, and it is not a speaker embedding: it must not be used to verify identity on its own.
public enum Enrollment {
    /// Below this best-match cosine similarity a sample is `inconsistent_speaker`. On TestAudio,
    /// different recordings of one voice score 0.92–0.99 and male against female voices 0.56–0.70.
    public static let consistencyThreshold = 0.85

    public static func enroll(paths: [String], policy: QualityPolicy = .init(), vad: VADOptions = .init()) throws -> EnrollmentResult {
        try Enroller().enroll(paths: paths, policy: policy, vad: vad)
    }

    static func summarise(_ samples: [EnrollmentSample]) -> EnrollmentResult {
        let means = samples.map { $0.features.map { Array($0.mean.dropFirst()) } ?? [] }
        let n = samples.count
        var similarity = [[Double]](repeating: [Double](repeating: 1, count: n), count: n)
        for i in 0..<n { for j in 0..<n where i != j { similarity[i][j] = cosine(means[i], means[j]) } }
        let inconsistent = n < 2 ? [] : (0..<n).filter { i in
            (0..<n).filter { $0 != i }.map { similarity[i][$0] }.max()! < consistencyThreshold
        }
        let consistency = Consistency(similarity: similarity, threshold: consistencyThreshold, inconsistent: inconsistent)
        let passing = samples.filter { $0.quality.pass }.compactMap(\.features)
        var voiceprint: [Double] = []
        if !passing.isEmpty {
            let d = passing[0].mean.count - 1
            voiceprint = [Double](repeating: 0, count: 2 * d)
            for f in passing {
                for k in 0..<d {
                    voiceprint[k] += f.mean[k + 1] / Double(passing.count)
                    voiceprint[d + k] += f.std[k + 1] / Double(passing.count)
                }
            }
            let norm = voiceprint.reduce(0) { $0 + $1 * $1 }.squareRoot()
            if norm > 0 { voiceprint = voiceprint.map { $0 / norm } }
        }
        let pass = samples.allSatisfy { $0.quality.pass } && consistency.consistent
        return EnrollmentResult(samples: samples, voiceprint: voiceprint, consistency: consistency, pass: pass)
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
