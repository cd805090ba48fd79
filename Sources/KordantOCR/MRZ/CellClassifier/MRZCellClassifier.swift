import Foundation

/// A small network that reads one rectified MRZ cell (``MRZCellFeatures``): one hidden layer of
/// ReLUs over the cell's 2 × 2-pooled ink, trained by `scripts/make-mrz-cell-model` on cells of
/// generated dev-split pages whose truth is known (photocopies, faxes, glare and phone photos
/// included), so it has seen the degradations the stock OCR-B templates were never drawn with.
/// Its log-probabilities are a third reader's evidence beside the templates and Tesseract.
struct MRZCellClassifier: Sendable {
    let inputs: Int
    let hidden: Int
    /// Hidden × inputs, row-major, dequantised once.
    let w1: [Float]
    let b1: [Float]
    /// 37 × hidden, row-major.
    let w2: [Float]
    let b2: [Float]

    /// The committed model (``MRZCellModelWeights``), decoded on first use.
    static let shared: MRZCellClassifier? = MRZCellClassifier(base64: MRZCellModelWeights.base64,
                                                               inputs: MRZCellModelWeights.inputs,
                                                               hidden: MRZCellModelWeights.hidden)

    init?(base64: String, inputs: Int, hidden: Int) {
        guard inputs == MRZCellFeatures.count, hidden > 0,
              let data = Data(base64Encoded: base64, options: .ignoreUnknownCharacters) else { return nil }
        let classes = MRZAlphabet.count
        let expected = hidden * inputs + 8 * hidden + classes * hidden + 8 * classes
        guard data.count == expected else { return nil }
        let bytes = [UInt8](data)
        var offset = 0
        func int8s(_ n: Int) -> [Int8] {
            defer { offset += n }
            return bytes[offset..<offset + n].map { Int8(bitPattern: $0) }
        }
        func floats(_ n: Int) -> [Float] {
            defer { offset += 4 * n }
            return (0..<n).map { i in
                let b = offset + 4 * i
                return Float(bitPattern: UInt32(bytes[b]) | UInt32(bytes[b + 1]) << 8 | UInt32(bytes[b + 2]) << 16 | UInt32(bytes[b + 3]) << 24)
            }
        }
        let q1 = int8s(hidden * inputs), s1 = floats(hidden), b1 = floats(hidden)
        let q2 = int8s(classes * hidden), s2 = floats(classes), b2 = floats(classes)
        self.inputs = inputs
        self.hidden = hidden
        w1 = q1.enumerated().map { Float($1) * s1[$0 / inputs] }
        self.b1 = b1
        w2 = q2.enumerated().map { Float($1) * s2[$0 / hidden] }
        self.b2 = b2
    }

    /// Log-probabilities (natural log) of the 37 characters for every cell of `strip`, cell-major
    /// (cell `c`, character `k` at `c * 37 + k`).
    func logProbabilities(_ strip: MRZStrip) -> [Double] {
        logProbabilities(ink: MRZCellFeatures.ink(strip), cells: strip.length)
    }

    /// The same for cells given as ``MRZCellFeatures/ink(_:)`` gives them (cell-major ink).
    func logProbabilities(ink: [Float], cells: Int) -> [Double] {
        precondition(ink.count == cells * MRZCellFeatures.width * MRZCellFeatures.height)
        let classes = MRZAlphabet.count
        // Scratch for one cell at a time, allocated once per call.
        var scratch = [Float](repeating: 0, count: inputs + hidden + classes)
        var out = [Double](repeating: 0, count: cells * classes)
        ink.withUnsafeBufferPointer { inkBuffer in
            scratch.withUnsafeMutableBufferPointer { buffer in
                let x = buffer.baseAddress!, h = x + inputs, z = h + hidden
                for cell in 0..<cells {
                    MRZCellFeatures.pooled(inkBuffer, cell: cell, into: x)
                    Self.affine(w1, b1, x, inputs, into: h)
                    for j in 0..<hidden { h[j] = max(0, h[j]) }
                    Self.affine(w2, b2, h, hidden, into: z)
                    var top = z[0]
                    for k in 1..<classes { top = max(top, z[k]) }
                    var total = 0.0
                    for k in 0..<classes { total += exp(Double(z[k] - top)) }
                    let norm = Double(top) + log(total)
                    for k in 0..<classes { out[cell * classes + k] = Double(z[k]) - norm }
                }
            }
        }
        return out
    }

    /// `out[r] = bias[r] + Σᵢ w[r · n + i] · x[i]` for every row of the row-major `w`.
    private static func affine(_ w: [Float], _ bias: [Float], _ x: UnsafePointer<Float>, _ n: Int,
                               into out: UnsafeMutablePointer<Float>) {
        w.withUnsafeBufferPointer { w in
            for r in bias.indices {
                var s: Float = 0
                let row = w.baseAddress! + r * n
                for i in 0..<n { s += row[i] * x[i] }
                out[r] = s + bias[r]
            }
        }
    }
}
