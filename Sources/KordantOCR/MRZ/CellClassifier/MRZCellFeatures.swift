import Foundation

/// What the learned cell reader sees of one MRZ cell: the rectified cell's ink, stretched between
/// its line's own ink and paper levels (so a grey photocopy, a shadow and a clean scan look alike),
/// at full strip resolution for training dumps and pooled 2 × 2 for the classifier.
enum MRZCellFeatures {
    static let width = MRZStrip.cellWidth, height = MRZStrip.height
    static let pooledWidth = width / 2, pooledHeight = height / 2
    static let count = pooledWidth * pooledHeight

    /// Ink fraction (0 = paper, 1 = ink) of every cell of `strip`, cell-major, `width × height`
    /// per cell. The stretch is the whole line's (``MRZScanner/levels(_:)``), the one the model was
    /// trained with (Tesseract's copy of a line is now stretched cell by cell).
    static func ink(_ strip: MRZStrip) -> [Float] {
        let (inkLevel, paper) = MRZScanner.levels(strip.pixels)
        let stretched = paper - inkLevel >= 16
        let base = stretched ? paper : 255, scale = stretched ? 1 / (paper - inkLevel) : 1 / 255
        let W = strip.width, per = width * height
        var out = [Float](repeating: 0, count: strip.length * per)
        out.withUnsafeMutableBufferPointer { o in
            strip.pixels.withUnsafeBufferPointer { p in
                for cell in 0..<strip.length {
                    for y in 0..<height {
                        let src = y * W + cell * width, dst = cell * per + y * width
                        for x in 0..<width { o[dst + x] = min(1, max(0, (base - p[src + x]) * scale)) }
                    }
                }
            }
        }
        return out
    }

    /// The classifier's input for `cell` of `ink` (as ``ink(_:)`` returns it): 2 × 2 means.
    static func pooled(_ ink: UnsafeBufferPointer<Float>, cell: Int, into out: UnsafeMutablePointer<Float>) {
        let base = cell * width * height
        for y in 0..<pooledHeight {
            for x in 0..<pooledWidth {
                let a = base + 2 * y * width + 2 * x
                out[y * pooledWidth + x] = 0.25 * (ink[a] + ink[a + 1] + ink[a + width] + ink[a + width + 1])
            }
        }
    }
}
