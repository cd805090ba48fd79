import Foundation

/// One MRZ line sampled once across every start its band may take, and scored cell by cell with
/// what each cell's glyph gives kept for the next start.
///
/// A band whose ends are in doubt is tried at up to four starts, both ways up: a cell's pixels
/// depend only on its index along the line's grid, and its threshold only on the cells within two
/// of it, so those readings share every cell but the two at each end. The result of
/// ``score(offset:length:)`` is exactly ``MRZGlyphScorer/score(_:)`` of that part sampled on
/// its own (tested).
final class MRZLineScorer {
    /// The line sampled over every cell any start covers.
    let wide: MRZStrip
    /// 256-bin histogram of each cell's grey levels, cell after cell.
    private var histograms: [Int32]
    /// Cell shapes by (cell, first and last cell of its threshold window).
    private var shapes: [Int: MRZGlyphScorer.CellShape] = [:]
    // Scratch, made once per line.
    private var window = [Int](repeating: 0, count: 256)
    private var mask = [Bool](repeating: false, count: MRZStrip.cellWidth * MRZStrip.height)
    private var labels = [Int32](repeating: -1, count: MRZStrip.cellWidth * MRZStrip.height)
    private var stack: [Int] = []

    init(_ wide: MRZStrip) {
        self.wide = wide
        let P = MRZStrip.cellWidth, S = MRZStrip.height, W = wide.width
        var h = [Int32](repeating: 0, count: wide.length * 256)
        wide.pixels.withUnsafeBufferPointer { px in
            h.withUnsafeMutableBufferPointer { h in
                for j in 0..<wide.length {
                    for y in 0..<S {
                        for x in (j * P)..<((j + 1) * P) { h[j * 256 + Int(px[y * W + x])] += 1 }
                    }
                }
            }
        }
        histograms = h
        stack.reserveCapacity(P * S)
    }

    /// Cells `offset ..< offset + length` as a strip of their own.
    func strip(offset: Int, length: Int) -> MRZStrip {
        let P = MRZStrip.cellWidth, W = wide.width, w = length * P
        var px = [Float](repeating: 0, count: w * MRZStrip.height)
        for y in 0..<MRZStrip.height {
            px.replaceSubrange((y * w)..<((y + 1) * w), with: wide.pixels[(y * W + offset * P)..<(y * W + (offset + length) * P)])
        }
        return MRZStrip(length: length, pixels: px)
    }

    /// Template evidence for cells `offset ..< offset + length`, read as one line.
    func score(offset: Int, length: Int) -> [MRZGlyphScorer.Cell] {
        let last = offset + length - 1
        let shapes = (offset...last).map { j in shape(j, lo: max(offset, j - 2), hi: min(last, j + 2)) }
        return MRZGlyphScorer.cells(shapes)
    }

    /// Cell `j`'s glyph thresholded between the ink and paper levels of cells `lo...hi` (glare and
    /// shadow change them along a line).
    private func shape(_ j: Int, lo: Int, hi: Int) -> MRZGlyphScorer.CellShape {
        let key = (j * 8 + (j - lo)) * 8 + (hi - j)
        if let known = shapes[key] { return known }
        let P = MRZStrip.cellWidth, S = MRZStrip.height
        for i in 0..<256 { window[i] = 0 }
        for c in lo...hi { for i in 0..<256 { window[i] += Int(histograms[c * 256 + i]) } }
        let total = (hi - lo + 1) * P * S
        func percentile(_ q: Double) -> Float { level(q, of: total) }
        let dark = percentile(0.03), light = percentile(0.85)
        var result = MRZGlyphScorer.CellShape()
        if let (box, grid, shape) = glyph(j, threshold: (dark + light) / 2, contrast: light - dark) {
            result = MRZGlyphScorer.CellShape(box: box, grid: grid, shape: shape)
        }
        // Glare pales a glyph against its neighbours, and their threshold keeps only its darkest
        // crumbs (a 3 or 0 read as 1): the cell's own ink level gives a second shape.
        for i in 0..<256 { window[i] = Int(histograms[j * 256 + i]) }
        let own = level(0.03, of: P * S)
        if own - dark >= 0.1 * (light - dark), light - own >= 12,
           let (box, _, shape) = glyph(j, threshold: (own + light) / 2, contrast: light - own) {
            (result.paledBox, result.paledShape) = (box, shape)
        }
        shapes[key] = result
        return result
    }

    /// Grey level below which a fraction `q` of the `total` pixels counted in `window` lie.
    private func level(_ q: Double, of total: Int) -> Float {
        var acc = 0
        let target = Int(Double(total) * q)
        for i in 0..<256 { acc += window[i]; if acc > target { return Float(i) } }
        return 255
    }

    /// Cell `j` thresholded at `threshold` and despeckled: its ink box, template-grid image and
    /// shape distances, nil when it holds no ink (or too little contrast to tell ink from paper).
    private func glyph(_ j: Int, threshold: Float, contrast: Float) -> ((Int, Int, Int, Int), [Float], [Double])? {
        let P = MRZStrip.cellWidth, S = MRZStrip.height, W = wide.width
        for i in mask.indices { mask[i] = false }
        if contrast >= 12 {
            for y in 0..<S {
                for x in 0..<P where wide.pixels[y * W + j * P + x] < threshold { mask[y * P + x] = true }
            }
        }
        MRZGlyphScorer.despeckle(&mask, P, S, labels: &labels, stack: &stack)
        guard let box = MRZGlyphScorer.inkBox(mask, P, S) else { return nil }
        let grid = MRZGlyphScorer.blur(MRZGlyphScorer.fit(mask, P, box))
        return (box, grid, MRZGlyphScorer.shapeDistances(grid))
    }
}
