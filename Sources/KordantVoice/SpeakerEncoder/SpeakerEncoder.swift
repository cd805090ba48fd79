import CKordantSpeaker
import COpenBLAS
import Foundation

/// A speaker embedding: 256 non-negative values of unit length. Two recordings of one voice have
/// a high cosine similarity (their dot product), recordings of different voices a low one.
public struct SpeakerEmbedding: Sendable, Equatable, Codable {
    public var vector: [Float]
    /// Partial windows (1.6 s each, 1.3 per second) averaged into the embedding.
    public var partials: Int
    /// Seconds of audio left after the reference's silence trimming (what the network heard).
    public var voicedSeconds: Double
    /// The model that produced it (embeddings of different models are not comparable).
    public var model: String

    public init(vector: [Float], partials: Int, voicedSeconds: Double, model: String) {
        self.vector = vector
        self.partials = partials
        self.voicedSeconds = voicedSeconds
        self.model = model
    }

    /// Cosine similarity to another embedding (both are unit length, so the dot product; 0 if the
    /// sizes differ or either is empty).
    public func similarity(to other: SpeakerEmbedding) -> Double {
        SpeakerEncoder.cosine(vector, other.vector)
    }
}

/// Resemblyzer 0.1.4's GE2E voice encoder (Wan et al. 2018, "Generalized end-to-end loss for
/// speaker verification"), ported from `resemblyzer/voice_encoder.py` with its pretrained weights:
/// 40-band mel power spectra of 25 ms / 10 ms frames, partial windows of 160 frames (1.6 s) taken
/// 1.3 times a second, a 3-layer LSTM of 256 units, a 256 → 256 linear layer, ReLU and L2
/// normalisation per partial; the utterance embedding is the normalised mean of the partials.
///
/// Single-threaded (the engine parallelises across files): per layer, the input projection of
/// every frame of every partial is one OpenBLAS GEMM (`cblas_sgemm`); each
/// recurrent step is one product over all partials at once, in a small C kernel against weights
/// packed at load (OpenBLAS repacked the 1 MB matrix on every step). Working buffers are allocated once
/// per call. Thread-safe: the weights are immutable and each call owns its buffers.
public final class SpeakerEncoder: @unchecked Sendable {
    /// The model's name and version, recorded with every embedding and analysis.
    public static let modelName = "resemblyzer-ge2e-0.1.4"
    public static let embeddingSize = SpeakerEncoderWeights.embeddingSize
    /// Frames per partial window (1.6 s).
    public static let partialFrames = 160
    /// Partial windows run through the network together (bounds the working memory to ~64 MB).
    static let partialBatch = 64
    /// Partial windows per second of audio.
    public static let partialRate = 1.3
    /// The last partial is kept if at least this share of it is audio.
    public static let minCoverage = 0.75

    /// Where the weights were loaded from.
    public let weightsPath: String
    private let weights: Parameters

    /// Loads the weights (`weightsPath`, else `$KORDANT_VOICE_ENCODER`, else
    /// `models/voice-encoder-ge2e.bin`; see `scripts/get-voice-encoder`).
    public init(weightsPath: String? = nil) throws(SpeakerEncoderError) {
        let path = weightsPath ?? SpeakerEncoderWeights.defaultPath()
        self.weightsPath = path
        weights = Parameters(try SpeakerEncoderWeights.load(path: path))
        // The engine runs one encoder call per worker thread; OpenBLAS's own threads would
        // oversubscribe the cores.
        openblas_set_num_threads(1)
    }

    /// The embedding of one recording (16 kHz mono samples in [-1, 1)), after the reference's
    /// preprocessing (volume normalisation, long silences trimmed).
    public func embed(_ samples: [Float]) -> SpeakerEmbedding {
        let wav = SpeakerPreprocessing.preprocess(samples)
        let (vector, partials) = embedPreprocessed(wav)
        return SpeakerEmbedding(
            vector: vector, partials: partials.count, voicedSeconds: Double(wav.count) / 16_000, model: Self.modelName)
    }

    /// Decodes a file (any format, converted to 16 kHz) and embeds it.
    public func embed(path: String) throws -> SpeakerEmbedding {
        embed(try VoiceInput.load(path: path).samples)
    }

    /// `VoiceEncoder.embed_utterance` on an already preprocessed waveform: the utterance embedding
    /// and the partial embeddings it averages.
    public func embedPreprocessed(_ input: [Float]) -> (embedding: [Float], partials: [[Float]]) {
        let slices = Self.partialSlices(samples: input.count)
        var wav = input
        // The reference pads with zeros up to the end of the last partial.
        let end = slices.last!.upperBound * SpeakerMel.hop
        if end >= wav.count { wav += [Float](repeating: 0, count: end - wav.count) }
        let frames = SpeakerMel.frameCount(samples: wav.count)
        let mel = UnsafeMutableBufferPointer<Float>.allocate(capacity: frames * SpeakerMel.bands)
        defer { mel.deallocate() }
        wav.withUnsafeBufferPointer { SpeakerMel().compute($0, frames: frames, into: mel.baseAddress!) }
        // At most `partialBatch` partials per pass: the working buffers grow by about 1 MB per
        // partial (an hour of speech would need 4.5 GB at once), and each partial is independent.
        let starts = slices.map(\.lowerBound)
        var partials: [[Float]] = []
        partials.reserveCapacity(starts.count)
        for first in stride(from: 0, to: starts.count, by: Self.partialBatch) {
            partials += forward(mel: UnsafeBufferPointer(mel), starts: Array(starts[first..<min(first + Self.partialBatch, starts.count)]))
        }
        let d = Self.embeddingSize
        var mean = [Float](repeating: 0, count: d)
        for p in partials { for k in 0..<d { mean[k] += p[k] } }
        for k in 0..<d { mean[k] /= Float(partials.count) }
        return (Self.normalised(mean), partials)
    }

    /// `VoiceEncoder.compute_partial_slices`: the mel-frame ranges of the partial windows of an
    /// utterance of `n` samples (always at least one; may extend past the end).
    public static func partialSlices(samples n: Int, rate: Double = partialRate, minCoverage: Double = minCoverage) -> [Range<Int>] {
        let hop = SpeakerMel.hop
        let frames = Int((Double(n + 1) / Double(hop)).rounded(.up))
        let step = Int(((16_000 / rate) / Double(hop)).rounded(.toNearestOrEven))
        let steps = max(1, frames - partialFrames + step + 1)
        var slices = stride(from: 0, to: steps, by: step).map { $0..<($0 + partialFrames) }
        let last = slices.last!
        let coverage = Double(n - last.lowerBound * hop) / Double(partialFrames * hop)
        if coverage < minCoverage && slices.count > 1 { slices.removeLast() }
        return slices
    }

    // MARK: - Network

    /// The mel power frames of the partial windows starting at `starts` → their unit embeddings.
    func forward(mel: UnsafeBufferPointer<Float>, starts: [Int]) -> [[Float]] {
        let P = starts.count, T = Self.partialFrames, H = SpeakerEncoderWeights.hidden, G = 4 * H
        let bands = SpeakerMel.bands
        let rows = T * P
        // One allocation per call: layer-0 input, two layer outputs (ping-pong), gates, cell state.
        let total = rows * bands + 2 * rows * H + rows * G + P * H + P * H
        let buffer = UnsafeMutablePointer<Float>.allocate(capacity: total)
        defer { buffer.deallocate() }
        let x0 = buffer, ya = x0 + rows * bands, yb = ya + rows * H, gates = yb + rows * H
        let cell = gates + rows * G, embedding = cell + P * H

        // Time-major layer-0 input: row t·P + p is frame starts[p] + t.
        for t in 0..<T {
            for p in 0..<P {
                (x0 + (t * P + p) * bands).update(from: mel.baseAddress! + (starts[p] + t) * bands, count: bands)
            }
        }
        var input = x0, inputSize = bands, output = ya
        for layer in 0..<SpeakerEncoderWeights.layers {
            // Input projections of every frame of every partial: (T·P × in) · W_ihᵀ.
            cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasTrans, Int32(rows), Int32(G), Int32(inputSize),
                        1, input, Int32(inputSize), weights.inputWeights[layer], Int32(inputSize), 0, gates, Int32(G))
            cell.update(repeating: 0, count: P * H)
            let recurrent = weights.recurrentPacked[layer], bias = weights.biases[layer]
            for t in 0..<T {
                let g = gates + t * P * G
                if t > 0 {
                    // All partials' recurrent step at once: (P × H) · W_hhᵀ added to the gates, against
                    // W_hh packed once at load (a BLAS call would repack it on every step).
                    kordant_recurrent_step(g, output + (t - 1) * P * H, recurrent, Int32(P), Int32(H), Int32(G))
                }
                kordant_lstm_cell(g, bias, cell, output + t * P * H, Int32(P), Int32(H))
            }
            input = output
            inputSize = H
            output = output == ya ? yb : ya
        }
        // The last layer's final hidden state → linear → ReLU → L2 norm.
        let last = input + (T - 1) * P * H
        let D = Self.embeddingSize
        for p in 0..<P { (embedding + p * D).update(from: weights.linearBias, count: D) }
        cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasTrans, Int32(P), Int32(D), Int32(H),
                    1, last, Int32(H), weights.linearWeight, Int32(H), 1, embedding, Int32(D))
        return (0..<P).map { p in
            Self.normalised((0..<D).map { max(0, embedding[p * D + $0]) })
        }
    }

    static func normalised(_ v: [Float]) -> [Float] {
        var s: Float = 0
        for x in v { s += x * x }
        let norm = s.squareRoot()
        return norm > 0 ? v.map { $0 / norm } : v
    }

    /// Cosine similarity of two vectors (0 when either is empty or zero, or the sizes differ).
    public static func cosine(_ a: [Float], _ b: [Float]) -> Double {
        guard !a.isEmpty, a.count == b.count else { return 0 }
        var dot = 0.0, na = 0.0, nb = 0.0
        for i in a.indices {
            dot += Double(a[i]) * Double(b[i])
            na += Double(a[i]) * Double(a[i])
            nb += Double(b[i]) * Double(b[i])
        }
        return na > 0 && nb > 0 ? dot / (na * nb).squareRoot() : 0
    }

    /// The weights in memory the BLAS reads directly (owned, freed with the encoder).
    private final class Parameters: @unchecked Sendable {
        let inputWeights: [UnsafeMutablePointer<Float>]
        /// W_hh packed in column blocks for ``kordant_recurrent_step``.
        let recurrentPacked: [UnsafeMutablePointer<Float>]
        let biases: [UnsafeMutablePointer<Float>]
        let linearWeight: UnsafeMutablePointer<Float>
        let linearBias: UnsafeMutablePointer<Float>

        init(_ w: SpeakerEncoderWeights) {
            func copy(_ a: [Float]) -> UnsafeMutablePointer<Float> {
                let p = UnsafeMutablePointer<Float>.allocate(capacity: a.count)
                p.initialize(from: a, count: a.count)
                return p
            }
            inputWeights = w.inputWeights.map(copy)
            // W_hh is 4H × H (row-major); the recurrent kernel reads it in column blocks of 16,
            // each block's 16 values of one k together (see kordant_recurrent_step).
            recurrentPacked = w.recurrentWeights.map { a in
                let G = 4 * SpeakerEncoderWeights.hidden, H = SpeakerEncoderWeights.hidden
                let p = UnsafeMutablePointer<Float>.allocate(capacity: a.count)
                for j in 0..<G { for k in 0..<H { (p + (j / 16) * H * 16 + k * 16 + j % 16).initialize(to: a[j * H + k]) } }
                return p
            }
            biases = w.biases.map(copy)
            linearWeight = copy(w.linearWeight)
            linearBias = copy(w.linearBias)
        }

        deinit {
            for p in inputWeights + recurrentPacked + biases + [linearWeight, linearBias] { p.deallocate() }
        }
    }
}
