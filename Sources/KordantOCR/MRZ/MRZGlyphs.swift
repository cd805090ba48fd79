import Foundation

/// The MRZ alphabet in template order; evidence arrays are indexed by it.
enum MRZAlphabet {
    static let characters: [Character] = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ<")
    static let count = 37
    static let filler = 36
    static func index(_ c: Character) -> Int? {
        guard let a = c.asciiValue else { return nil }
        switch a {
        case 48...57: return Int(a) - 48
        case 65...90: return Int(a) - 55
        case 60: return 36
        default: return nil
        }
    }
}

/// One rectified MRZ line: `length` cells of `cellWidth` × `height` grey pixels (0 = ink),
/// sampled from the source image along the line's grid, so every line is read at one scale
/// whatever the photo's resolution, angle or perspective.
struct MRZStrip {
    static let cellWidth = 32
    static let height = 48
    let length: Int
    var pixels: [Float]
    var width: Int { length * MRZStrip.cellWidth }

    /// Samples line `grid` from cell `start`; `flipped` reads it turned by 180° (last cell first).
    init(gray: GrayImage, grid: MRZLineGrid, start: Int, length: Int, flipped: Bool) {
        self.length = length
        let P = MRZStrip.cellWidth, S = MRZStrip.height
        var px = [Float](repeating: 255, count: length * P * S)
        let sign = flipped ? -1.0 : 1.0
        let ux = grid.ux * sign, uy = grid.uy * sign, nx = grid.nx * sign, ny = grid.ny * sign
        // The slanted upright axis n + shear·u; turned by 180° both vectors flip, so the same
        // shear holds and ``turned()`` stays exact.
        let sx = nx + grid.shear * ux, sy = ny + grid.shear * uy
        for j in 0..<length {
            let k = Double(flipped ? start + length - 1 - j : start + j)
            let (cx, cy) = grid.centre(k)
            let pitch = grid.pitch(k)
            let unit = pitch / Double(P)
            for py in 0..<S {
                let ay = (Double(py) + 0.5 - Double(S) / 2) * unit
                let bx = cx + sx * ay, by = cy + sy * ay
                let row = py * length * P + j * P
                for qx in 0..<P {
                    let ax = (Double(qx) + 0.5 - Double(P) / 2) * unit
                    px[row + qx] = Float(gray.sample(bx + ux * ax, by + uy * ax))
                }
            }
        }
        pixels = px
    }

    init(length: Int, pixels: [Float]) {
        self.length = length
        self.pixels = pixels
    }

    /// The strip turned by 180°: what `init` gives with `flipped` toggled on the same cells (the
    /// sampling offsets are symmetric about each cell's centre, so the pixels are exactly these,
    /// in reverse order).
    func turned() -> MRZStrip { MRZStrip(length: length, pixels: pixels.reversed()) }
}

/// Template evidence for each cell of a strip: the squared distance of the cell's glyph to each
/// of the 37 OCR-B templates (shape on the template grid, height relative to the line's
/// capitals, aspect), the measure the previous reader used for its single best guess.
enum MRZGlyphScorer {
    static let templates: [(rel: Double, aspect: Double, grid: [Float])] = OCRBTemplates.glyphs.map { _, rel, aspect, hex in
        (rel, aspect, blur(hex.map { Float($0.hexDigitValue ?? 0) / 15 }))
    }

    /// Weights of the height and aspect terms beside the shape distance.
    static let heightWeight = 4.0
    static let aspectWeight = 0.5
    /// Template indices of characters with an OCR-B look-alike (and the filler).
    static let lookAlikes: Set<Int> = Set("0O1I8B5S2Z6GDQ<".compactMap(MRZAlphabet.index))

    struct Cell {
        /// Distance to each template (index = ``MRZAlphabet``); all `.infinity` for an empty cell.
        var distances: [Double]
        /// Ink box within the cell (x0, y0, x1, y1), nil when the cell holds no ink.
        var box: (Int, Int, Int, Int)?
        /// The glyph fitted to the template grid and blurred (empty when the cell holds no ink),
        /// its height against the line's capitals and its aspect: what ``MRZAdaptation``
        /// compares with the document's own glyphs.
        var grid: [Float] = []
        var rel = 0.0
        var aspect = 0.0
        /// Distances of the same glyph thresholded at its own ink level, where glare has paled it
        /// against its neighbours (nil otherwise): weighed only where the grammar wants a digit.
        var paled: [Double]? = nil
    }

    /// Shape distance (mean squared difference) of two template-grid glyphs.
    static func shapeDistance(_ a: [Float], _ b: [Float]) -> Double {
        var e: Float = 0
        for k in 0..<min(a.count, b.count) {
            let x = a[k] - b[k]
            e += x * x
        }
        return Double(e) / Double(max(1, a.count))
    }

    /// Template evidence for every cell of `strip`.
    static func score(_ strip: MRZStrip) -> [Cell] {
        MRZLineScorer(strip).score(offset: 0, length: strip.length)
    }

    /// What one cell's glyph gives on its own (the line's capital height and squash are applied
    /// afterwards): its ink box, its template-grid image and the shape distance to each template.
    struct CellShape {
        var box: (Int, Int, Int, Int)?
        var grid: [Float] = []
        var shape: [Double] = []
        /// The ink box and shape distances when thresholded at the cell's own ink level (glare).
        var paledBox: (Int, Int, Int, Int)? = nil
        var paledShape: [Double]? = nil
    }

    /// The templates' grids transposed, 8 templates to a vector (padded to 40): one pass over a
    /// glyph's pixels updates all 37 distances, each summed in pixel order as
    /// ``shapeDistance(_:_:)`` sums it, so the values are the same to the last bit.
    static let templateColumns: [SIMD8<Float>] = {
        let n = OCRBTemplates.gridWidth * OCRBTemplates.gridHeight
        var out = [SIMD8<Float>](repeating: .zero, count: n * templateVectors)
        for (t, template) in templates.enumerated() {
            for k in 0..<n { out[k * templateVectors + t / 8][t % 8] = template.grid[k] }
        }
        return out
    }()
    static let templateVectors = (MRZAlphabet.count + 7) / 8

    /// Shape distance of `grid` to every template (index = ``MRZAlphabet``).
    static func shapeDistances(_ grid: [Float]) -> [Double] {
        let n = OCRBTemplates.gridWidth * OCRBTemplates.gridHeight, V = templateVectors
        precondition(grid.count == n)
        var sums = [SIMD8<Float>](repeating: .zero, count: V)
        grid.withUnsafeBufferPointer { g in
            templateColumns.withUnsafeBufferPointer { columns in
                sums.withUnsafeMutableBufferPointer { acc in
                    for k in 0..<n {
                        let x = SIMD8<Float>(repeating: g[k])
                        for v in 0..<V {
                            let d = x - columns[k * V + v]
                            acc[v] += d * d
                        }
                    }
                }
            }
        }
        return (0..<MRZAlphabet.count).map { Double(sums[$0 / 8][$0 % 8]) / Double(n) }
    }

    /// A line's cells from their shapes: the glyph's height against the line's capital height,
    /// which is estimated from the shape matches themselves (digits and letters differ in height
    /// in OCR-B, and a line of digits must not make every letter look short), and its aspect
    /// against the line's own squash.
    static func cells(_ shapes: [CellShape]) -> [Cell] {
        var caps: [Double] = [], stretch: [Double] = []
        for c in shapes {
            guard let b = c.box, !c.shape.isEmpty else { continue }
            let t = c.shape.indices.min { c.shape[$0] < c.shape[$1] }!
            // The look-alike pairs (0/O, 1/I, 8/B, 5/S, 2/Z, 6/G) differ in height by 6–13 % in
            // OCR-B (digits stand taller), so the reference height comes only from glyphs whose
            // shape is unambiguous.
            if !lookAlikes.contains(t) {
                let h = Double(b.3 - b.1 + 1), w = Double(b.2 - b.0 + 1)
                caps.append(h / templates[t].rel)
                stretch.append((w / h) / templates[t].aspect)
            }
        }
        caps.sort()
        stretch.sort()
        let cap = caps.isEmpty ? Double(MRZStrip.height) / 2 : caps[caps.count / 2]
        // A photo taken at an angle squashes the glyphs one way.
        let squash = stretch.isEmpty ? 1 : stretch[stretch.count / 2]
        return shapes.map { c in
            func distances(_ b: (Int, Int, Int, Int), _ shape: [Double]) -> (d: [Double], rel: Double, aspect: Double) {
                let h = Double(b.3 - b.1 + 1), w = Double(b.2 - b.0 + 1)
                let rel = h / cap, aspect = w / h / squash
                let d = templates.indices.map { t in
                    shape[t] + heightWeight * pow(rel - templates[t].rel, 2) + aspectWeight * pow(aspect - templates[t].aspect, 2)
                }
                return (d, rel, aspect)
            }
            let paled = c.paledBox.flatMap { pb in c.paledShape.map { distances(pb, $0).d } }
            guard let b = c.box, !c.shape.isEmpty else {
                return Cell(distances: [Double](repeating: .infinity, count: MRZAlphabet.count), box: nil, paled: paled)
            }
            let (d, rel, aspect) = distances(b, c.shape)
            return Cell(distances: d, box: b, grid: c.grid, rel: rel, aspect: aspect, paled: paled)
        }
    }

    /// Clears specks (photocopy toner dots, JPEG noise) from a cell's ink mask: 8-connected
    /// pieces far smaller than the cell's largest piece. OCR-B glyphs are one piece each (a
    /// stroke broken by a pale scan leaves pieces far larger than a speck), so only dirt goes,
    /// and the glyph's ink box is no longer stretched to a dot beside it.
    static func despeckle(_ mask: inout [Bool], _ P: Int, _ S: Int, labels: inout [Int32], stack: inout [Int]) {
        for i in 0..<(P * S) { labels[i] = -1 }
        var areas: [Int] = []
        for i in 0..<(P * S) where mask[i] && labels[i] < 0 {
            let id = Int32(areas.count)
            var area = 0
            labels[i] = id
            stack.append(i)
            while let p = stack.popLast() {
                area += 1
                let x = p % P, y = p / P
                for ny in max(0, y - 1)...min(S - 1, y + 1) {
                    for nx in max(0, x - 1)...min(P - 1, x + 1) {
                        let q = ny * P + nx
                        if mask[q] && labels[q] < 0 { labels[q] = id; stack.append(q) }
                    }
                }
            }
            areas.append(area)
        }
        guard areas.count > 1, let largest = areas.max() else { return }
        let floor = max(6, largest / 12)
        guard areas.contains(where: { $0 < floor }) else { return }
        for i in 0..<(P * S) where labels[i] >= 0 && areas[Int(labels[i])] < floor { mask[i] = false }
    }

    /// 3 × 3 box blur of a template-grid image.
    static func blur(_ g: [Float]) -> [Float] {
        let W = OCRBTemplates.gridWidth, H = OCRBTemplates.gridHeight
        var out = [Float](repeating: 0, count: W * H)
        for y in 0..<H {
            for x in 0..<W {
                var s: Float = 0, n: Float = 0
                for dy in -1...1 where y + dy >= 0 && y + dy < H {
                    for dx in -1...1 where x + dx >= 0 && x + dx < W { s += g[(y + dy) * W + x + dx]; n += 1 }
                }
                out[y * W + x] = s / n
            }
        }
        return out
    }

    /// The glyph's ink box in a cell: the run of ink columns nearest the centre (a neighbour's
    /// edge that strays in is left out), then the run of ink rows within it.
    static func inkBox(_ mask: [Bool], _ P: Int, _ S: Int) -> (Int, Int, Int, Int)? {
        var cols = [Int](repeating: 0, count: P)
        for y in 0..<S { for x in 0..<P where mask[y * P + x] { cols[x] += 1 } }
        func runs(_ v: [Int], gap: Int) -> [(Int, Int, Int)] {
            var out: [(Int, Int, Int)] = []
            var start: Int?, ink = 0, blank = 0
            for i in 0..<v.count {
                if v[i] > 0 {
                    if start == nil { start = i; ink = 0 }
                    ink += v[i]; blank = 0
                } else if let s = start {
                    blank += 1
                    if blank > gap { out.append((s, i - blank, ink)); start = nil; blank = 0 }
                }
            }
            if let s = start { out.append((s, v.count - 1 - blank, ink)) }
            return out
        }
        let centre = Double(P) / 2
        let colRuns = runs(cols, gap: 1).filter { $0.2 >= 3 }
        guard let cr = colRuns.max(by: { a, b in
            let da = max(0, abs(Double(a.0 + a.1) / 2 - centre) - Double(P) / 4), db = max(0, abs(Double(b.0 + b.1) / 2 - centre) - Double(P) / 4)
            return (Double(a.2) / (1 + da)) < (Double(b.2) / (1 + db))
        }) else { return nil }
        var rows = [Int](repeating: 0, count: S)
        for y in 0..<S { for x in cr.0...cr.1 where mask[y * P + x] { rows[y] += 1 } }
        let mid = Double(S) / 2
        let rowRuns = runs(rows, gap: 2).filter { $0.2 >= 3 }
        guard let rr = rowRuns.max(by: { a, b in
            let da = max(0, abs(Double(a.0 + a.1) / 2 - mid) - Double(S) / 6), db = max(0, abs(Double(b.0 + b.1) / 2 - mid) - Double(S) / 6)
            return (Double(a.2) / (1 + da)) < (Double(b.2) / (1 + db))
        }) else { return nil }
        // Tighten the columns to the chosen rows.
        var x0 = cr.1, x1 = cr.0
        for y in rr.0...rr.1 { for x in cr.0...cr.1 where mask[y * P + x] { x0 = min(x0, x); x1 = max(x1, x) } }
        guard x1 >= x0, rr.1 - rr.0 >= 3 else { return nil }
        return (x0, rr.0, x1, rr.1)
    }

    /// The ink box fitted into the template grid: aspect kept, centred, area-averaged (as
    /// `scripts/make-ocrb-templates` renders the templates).
    static func fit(_ mask: [Bool], _ P: Int, _ b: (Int, Int, Int, Int)) -> [Float] {
        let GW = OCRBTemplates.gridWidth, GH = OCRBTemplates.gridHeight
        let bw = b.2 - b.0 + 1, bh = b.3 - b.1 + 1
        let s = min(Double(GW) / Double(bw), Double(GH) / Double(bh))
        let nw = max(1, Int((Double(bw) * s).rounded())), nh = max(1, Int((Double(bh) * s).rounded()))
        let ox = (GW - nw) / 2, oy = (GH - nh) / 2
        var out = [Float](repeating: 0, count: GW * GH)
        for ty in 0..<nh {
            let fy0 = Double(ty) / Double(nh) * Double(bh), fy1 = Double(ty + 1) / Double(nh) * Double(bh)
            for tx in 0..<nw {
                let fx0 = Double(tx) / Double(nw) * Double(bw), fx1 = Double(tx + 1) / Double(nw) * Double(bw)
                // Area-weighted coverage of the source pixels under this grid cell.
                var ink = 0.0, area = 0.0
                var y = Int(fy0)
                while Double(y) < fy1 && y < bh {
                    let wy = min(fy1, Double(y + 1)) - max(fy0, Double(y))
                    var x = Int(fx0)
                    while Double(x) < fx1 && x < bw {
                        let wx = min(fx1, Double(x + 1)) - max(fx0, Double(x))
                        area += wx * wy
                        if mask[(b.1 + y) * P + b.0 + x] { ink += wx * wy }
                        x += 1
                    }
                    y += 1
                }
                out[(oy + ty) * GW + ox + tx] = area > 0 ? Float(ink / area) : 0
            }
        }
        return out
    }
}
