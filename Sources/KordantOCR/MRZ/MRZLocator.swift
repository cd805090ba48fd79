@preconcurrency import CTesseract
import Foundation

/// One MRZ text line as a grid of character cells in source-image coordinates.
///
/// Along the line, the position of cell `k` is a 1-D projective function
/// `t(k) = (a·k + b) / (c·k + 1)` (exact for a straight line seen in perspective, where the pitch
/// shrinks steadily towards the far end); across it, the centre line may tilt slightly
/// (`offset(t) = e + f·t`) when the two lines of a band are not quite parallel in the photo.
struct MRZLineGrid: Sendable {
    var originX: Double, originY: Double
    /// Unit vector along the line (reading direction as found; the reader may flip it).
    var ux: Double, uy: Double
    var a: Double, b: Double, c: Double
    var e: Double, f: Double
    /// Slant of the glyphs' upright axis: pixels along the line per pixel across it (0: upright).
    /// A page photographed at an angle leans its glyphs; the reader measures this per band.
    var shear = 0.0

    /// Normal pointing "down" from the line (u turned 90° clockwise in image coordinates).
    var nx: Double { -uy }
    var ny: Double { ux }

    func t(_ k: Double) -> Double { (a * k + b) / (c * k + 1) }
    /// Pitch (source pixels per cell) at cell `k`.
    func pitch(_ k: Double) -> Double {
        let d = c * k + 1
        return abs((a - b * c) / (d * d))
    }
    func centre(_ k: Double) -> (x: Double, y: Double) {
        let tk = t(k), off = e + f * tk
        return (originX + ux * tk + nx * off, originY + uy * tk + ny * off)
    }
}

/// A band of 2 or 3 MRZ-like lines found in an image.
struct MRZGeometry: Sendable {
    /// Characters per line (30, 36 or 44).
    var length: Int
    /// Lines in the order found (top to bottom when `u` points in the reading direction).
    var lines: [MRZLineGrid]
    /// Cell indices that may be the first character (more than one when cells at an end were
    /// not seen, e.g. a faint filler run).
    var starts: [Int]
    /// Glyph-like components the lines were built from.
    var evidence: Int
    /// Glyphs seen per cell of the band (1: every cell).
    var completeness: Double { Double(evidence) / Double(length * lines.count) }
    /// Seen whole and nearly complete: not ``partial``, and a glyph in at least 85% of its cells.
    var seenWhole: Bool { !partial && completeness >= 0.85 }
    /// Built from two or three lines seen only in part (glare or a fold broke them): its length
    /// is a guess (44 or 36 for two, 30 for three), and every start that covers what was seen is tried.
    var partial = false
}

/// Finds MRZ bands by their texture, not by what OCR says: OCR-B characters at one fixed pitch,
/// 30, 36 or 44 to a line, in 2 or 3 parallel lines of equal length, left-aligned. Works on
/// connected components of a locally thresholded copy at a working scale, so rotation (any
/// angle, upside down too), skew, perspective and the image's resolution do not matter.
enum MRZLocator {
    struct Component {
        var x: Double, y: Double
        var w: Double, h: Double
        var size: Double { max(w, h) }
    }

    struct Point {
        var x: Double, y: Double
        var k: Int
    }

    /// The local threshold's k (Sauvola) for every page, and for the second look at pale images.
    static let usualFactor: Float = 0.34, paleFactor: Float = 0.2

    /// Candidate bands, most complete first.
    static func locate(pix8: UnsafeMutablePointer<Pix>) -> [MRZGeometry] { locateLooks(pix8: pix8).bands }

    /// Candidate bands, most complete first, and whether the pale look was among the looks taken
    /// (on a pale image it is skipped when an earlier look saw a band whole; see ``paleBands(pix8:)``).
    static func locateLooks(pix8: UnsafeMutablePointer<Pix>) -> (bands: [MRZGeometry], paleLooked: Bool) {
        let scale = workingScale(pix8)
        let bands = locate(pix8: pix8, scale: scale)
        // A passport filling a tenth of a 12-MP photo has characters of 5–6 px at the working
        // scale, where its glyphs merge or vanish under the threshold: a large image with no band
        // seen whole is looked at again at twice the scale. Only where that magnifies by 1.5 or
        // more: on a 300-dpi page (working scale 0.7–0.8) the finer look adds too little to find
        // anything and was half of what the locator spent on a page without an MRZ.
        var found = bands
        if scale <= 2.0 / 3.0, !bands.contains(where: \.seenWhole) {
            let finer = locate(pix8: pix8, scale: min(1, 2 * scale))
            if !bands.contains(where: { !$0.partial }) {
                found = finer.contains { !$0.partial } ? finer : bands + finer
            } else if finer.contains(where: \.seenWhole) {
                // What the working scale found is only guessed whole: one line chained and its
                // partner placed a line-spacing off it (a passport a fifth of a 12-MP photo's
                // width, whose filler-rich first line breaks up at 6 px a character, dev seed
                // 43). A band the finer look sees whole goes first.
                found = finer.filter(\.seenWhole) + bands + finer.filter { !$0.seenWhole }
            }
        }
        // A pale photocopy's thin grey strokes fall apart into specks under the usual threshold
        // (the speckle is as dark as they are): with no band seen whole and nearly complete, on an
        // image with no black in it (its darkest 0.5 % at 50 of 255 or paler), look once more with
        // a threshold that keeps more ink. Only then: on glare it joins washed-out glyphs to the
        // haze, and printed or scanned pages with black ink (darkest 0.5 % at 0–35 in
        // TestDocuments; dev photocopies 66–108) need not pay.
        guard !found.contains(where: \.seenWhole) else { return (found, false) }
        let pale = isPale(pix8)
        if pale {
            // What the usual look found is then all in part, incomplete or guessed (a TD1's third
            // line tried one spacing on), and the reader tries only the first eight: a band the
            // pale look sees whole and nearly complete goes ahead of it.
            let paler = paleLook(pix8, scale: scale)
            found = paler.filter(\.seenWhole) + found + paler.filter { !$0.seenWhole }
        }
        // Glyphs the threshold breaks into pieces: a fax's one-pixel diagonals (a 2 or Z falls in
        // two, a 9 loses its tail), a pale photocopy's thin strokes among speckle. Each piece is
        // off the line's grid, so no line chains to its length. With nothing seen whole, one more
        // look with the threshold's gaps of a pixel or two closed (3 × 3), at the pale threshold
        // on a pale image; a band it sees whole goes first.
        if !found.contains(where: \.seenWhole) {
            let closed = locate(pix8: pix8, scale: scale, factor: pale ? paleFactor : usualFactor, close: true)
            found = closed.filter(\.seenWhole) + found + closed.filter { !$0.seenWhole && !$0.partial }
        }
        return (found, pale)
    }

    /// Working scale: characters of a page or photo land at roughly 8–40 px.
    static func workingScale(_ pix8: UnsafeMutablePointer<Pix>) -> Double {
        let long = Double(max(pixGetWidth(pix8), pixGetHeight(pix8)))
        return long > 2000 ? 2000 / long : long < 900 ? 2 : 1
    }

    /// The pale look alone (see ``locate(pix8:)``): bands of whole lines found under the threshold
    /// that keeps more ink, seen whole first, on an image with no black in it; none on any other.
    /// For the reader when nothing the usual look found reads: a band seen whole there spares
    /// the locator this look, and it can be the wrong one.
    static func paleBands(pix8: UnsafeMutablePointer<Pix>) -> [MRZGeometry] {
        guard isPale(pix8) else { return [] }
        let paler = paleLook(pix8, scale: workingScale(pix8))
        return paler.filter(\.seenWhole) + paler.filter { !$0.seenWhole }
    }

    /// An image with no black in it: its darkest 0.5 % at grey 50 or paler.
    static func isPale(_ pix8: UnsafeMutablePointer<Pix>) -> Bool { darkest(pix8, fraction: 0.005) >= 50 }

    /// Bands of lines chained whole under the threshold that keeps more ink, at `scale`.
    static func paleLook(_ pix8: UnsafeMutablePointer<Pix>, scale: Double) -> [MRZGeometry] {
        locate(pix8: pix8, scale: scale, factor: paleFactor).filter { !$0.partial }
    }

    /// The grey level under which `fraction` of the image lies (sampled every 4th pixel).
    static func darkest(_ pix8: UnsafeMutablePointer<Pix>, fraction: Double) -> Int {
        let histogram = pixGetGrayHistogram(pix8, 4)
        guard let histogram else { return 0 }
        defer { var owned: UnsafeMutablePointer<Numa>? = histogram; numaDestroy(&owned) }
        var total: Float = 0, running: Float = 0
        numaGetSum(histogram, &total)
        for v in 0..<256 {
            var count: Float = 0
            numaGetFValue(histogram, Int32(v), &count)
            running += count
            if Double(running) > fraction * Double(total) { return v }
        }
        return 255
    }

    /// Candidate bands found at `scale`, in source coordinates. `factor` is the local threshold's
    /// (Sauvola's k); at any other than ``usualFactor`` only one pass is made, without the stretched look.
    static func locate(pix8: UnsafeMutablePointer<Pix>, scale: Double, factor: Float = usualFactor, close: Bool = false) -> [MRZGeometry] {
        let long = Double(max(pixGetWidth(pix8), pixGetHeight(pix8)))
        var scaled: UnsafeMutablePointer<Pix>?
        if scale < 1 { scaled = pixScaleAreaMap(pix8, Float(scale), Float(scale)) } else if scale > 1 {
            scaled = pixScaleGrayLI(pix8, Float(scale), Float(scale))
        }
        defer { if scaled != nil { pixDestroy(&scaled) } }
        guard let work = scaled ?? Optional(pix8) else { return [] }
        let workLong = long * scale
        var bands = find(in: work, workLong: workLong, factor: factor, close: close)
        // Glare or a pale print leaves part of the band too faint for the local threshold (and the
        // band found shorter than it is): look again on a copy whose contrast is stretched tile by
        // tile; the reader keeps whichever band reads as the most OCR-B.
        if factor == usualFactor, !close, let stretched = pixContrastNorm(nil, work, 40, 40, 12, 2, 2) {
            // Kept only where it adds something: no band found whole, a longer one (the first
            // pass's geometry of a clear band is the more exact), or one seen whole apart from
            // every band found whole (a second document in the picture, glared or pale, that the
            // reader must be told of).
            let whole = bands.filter { $0.completeness >= 0.85 }
            let longest = whole.map(\.length).max() ?? 0
            let more = find(in: stretched, workLong: workLong).filter { band in
                whole.isEmpty || band.length > longest || band.seenWhole && whole.allSatisfy { apart(band, $0) }
            }
            let byEvidence: (MRZGeometry, MRZGeometry) -> Bool = { ($0.evidence, $0.lines.count) > ($1.evidence, $1.lines.count) }
            // A band seen whole stays ahead of what the stretched copy adds: on a textured
            // background (a woven cloth, a checked table) the stretch turns the texture into dozens
            // of long fixed-pitch "bands" with more evidence than a short real zone, and the
            // reader tries only the first eight.
            bands = whole.isEmpty ? (bands + more).sorted(by: byEvidence) : bands.sorted(by: byEvidence) + more.sorted(by: byEvidence)
            var owned: UnsafeMutablePointer<Pix>? = stretched
            pixDestroy(&owned)
        }
        return bands.map { g in
            var geometry = g
            // Back to source coordinates.
            geometry.lines = g.lines.map { l in
                var s = l
                s.originX /= scale; s.originY /= scale
                s.a /= scale; s.b /= scale; s.e /= scale
                return s
            }
            return geometry
        }
    }

    /// Whether the boxes of `a` and `b` (at their first starts) are apart by a twentieth of the
    /// larger's size or more.
    static func apart(_ a: MRZGeometry, _ b: MRZGeometry) -> Bool {
        guard let sa = a.starts.first, let sb = b.starts.first else { return true }
        return MRZScanner.apart(MRZScanner.box(a, start: sa), MRZScanner.box(b, start: sb))
    }

    /// Bands among the connected components of one locally thresholded copy (working scale).
    static func find(in work: UnsafeMutablePointer<Pix>, workLong: Double, factor: Float = usualFactor, close: Bool = false) -> [MRZGeometry] {
        var binary = Sauvola.binarize(work, whsize: 12, factor: factor)
        if close, binary != nil {
            let closed = pixCloseBrick(nil, binary, 3, 3)
            pixDestroy(&binary)
            binary = closed
        }
        guard binary != nil else { return [] }
        defer { pixDestroy(&binary) }
        guard let boxa = pixConnCompBB(binary, 8) else { return [] }
        defer { var b: UnsafeMutablePointer<Boxa>? = boxa; boxaDestroy(&b) }
        var glyphs: [Component] = [], wide: [Component] = []
        for i in 0..<boxaGetCount(boxa) {
            var x: Int32 = 0, y: Int32 = 0, w: Int32 = 0, h: Int32 = 0
            boxaGetBoxGeometry(boxa, i, &x, &y, &w, &h)
            let c = Component(x: Double(x) + Double(w) / 2, y: Double(y) + Double(h) / 2, w: Double(w), h: Double(h))
            guard c.size >= 5, c.size <= workLong / 6 else { continue }
            if c.w <= 3 * c.h && c.h <= 3 * c.w { glyphs.append(c) } else if min(c.w, c.h) >= 3 { wide.append(c) }
        }
        guard glyphs.count >= 40, glyphs.count < 200_000 else { return [] }
        let chains = findChains(glyphs, wide: wide)
        let merged = mergeCollinear(chains)
        var bands = group(merged)
        let noneWhole = { !bands.contains { !$0.partial } }
        if noneWhole() {
            // One line found whole, its partner crossed out by a pen stroke or glare: try the
            // partner one line-spacing above or below; the reader keeps what reads as OCR-B.
            for chain in merged where chain.cells >= 33 {
                let nx = -chain.uy, ny = chain.ux
                for spacing in [1.7, 2.0, 2.3, -1.7, -2.0, -2.3] {
                    let d = spacing * chain.pitch
                    let partner = Chain(points: chain.points.map { Point(x: $0.x + nx * d, y: $0.y + ny * d, k: $0.k) },
                                        pitch: chain.pitch, ux: chain.ux, uy: chain.uy)
                    if var g = geometry([chain, partner]) {
                        g.evidence = chain.points.count
                        bands.append(g)
                    }
                }
            }
        }
        if noneWhole() { bands += thirdLines(merged) }
        return bands
    }

    /// Two lines of a TD1 zone chained and the third not (a pale photocopy breaks its glyphs
    /// apart under the local threshold): the third is tried one line spacing beyond either line,
    /// or between two found two spacings apart. The reader keeps it only if it reads as OCR-B.
    static func thirdLines(_ chains: [Chain]) -> [MRZGeometry] {
        // A texture behind the document makes thousands of such chains: the longest few suffice.
        let short = Array(chains.filter { (24...33).contains($0.cells) }.sorted { $0.points.count > $1.points.count }.prefix(60))
        var bands: [MRZGeometry] = []
        for (i, a) in short.enumerated() {
            for raw in short[(i + 1)...] {
                let b = raw.aligned(a.ux, a.uy)
                guard a.ux * b.ux + a.uy * b.uy > cos(5 * Double.pi / 180), abs(b.pitch / a.pitch - 1) < 0.2 else { continue }
                let nx = -a.uy, ny = a.ux
                let p0 = a.points[0], mid = b.points[b.points.count / 2]
                let off = (mid.x - p0.x) * nx + (mid.y - p0.y) * ny
                let gap = abs(off) / a.pitch
                guard gap >= 1.0, gap <= 7.2 else { continue }
                // Left-aligned lines overlap along their length.
                let along = { (p: Point) in ((p.x - p0.x) * a.ux + (p.y - p0.y) * a.uy) / a.pitch }
                let ta = a.points.map(along), tb = b.points.map(along)
                guard min(ta.max()!, tb.max()!) - max(ta.min()!, tb.min()!) >= 0.5 * Double(min(a.cells, b.cells)) else { continue }
                func shifted(_ c: Chain, _ d: Double) -> Chain {
                    Chain(points: c.points.map { Point(x: $0.x + nx * d, y: $0.y + ny * d, k: $0.k) }, pitch: c.pitch, ux: c.ux, uy: c.uy)
                }
                var guesses: [Chain] = []
                if gap <= 3.6 { guesses += [shifted(off > 0 ? a : b, -abs(off)), shifted(off > 0 ? b : a, abs(off))] }
                if gap >= 2.0 { guesses.append(shifted(a, off / 2)) }
                for guess in guesses {
                    guard var g = geometry([a, b, guess]) else { continue }
                    g.evidence = a.points.count + b.points.count
                    bands.append(g)
                }
            }
        }
        return bands.sorted { $0.evidence > $1.evidence }
    }

    // MARK: chains of evenly spaced glyphs

    struct Chain {
        var points: [Point]
        var pitch: Double
        var ux: Double, uy: Double
        var cells: Int { (points.map(\.k).max() ?? 0) - (points.map(\.k).min() ?? 0) + 1 }

        /// The same chain indexed the other way (a chain's direction is whichever way it grew).
        var reversed: Chain {
            Chain(points: points.reversed().map { Point(x: $0.x, y: $0.y, k: -$0.k) }, pitch: pitch, ux: -ux, uy: -uy)
        }

        /// This chain pointing the same way as `u` (within ±90°).
        func aligned(_ ux: Double, _ uy: Double) -> Chain { self.ux * ux + self.uy * uy >= 0 ? self : reversed }
    }

    /// Greedy chains: from each unused glyph towards each near neighbour of similar size, step on
    /// at the current pitch while a glyph (or a merged run such as `<<<` at low resolution) sits
    /// where the next character should be.
    static func findChains(_ glyphs: [Component], wide: [Component]) -> [Chain] {
        let sizes = glyphs.map(\.size).sorted()
        let cell = max(4, sizes[sizes.count / 2] * 2)
        var grid: [Int: [Int]] = [:]
        func key(_ x: Double, _ y: Double) -> Int { Int((y / cell).rounded(.down)) * 100_003 + Int((x / cell).rounded(.down)) }
        for (i, g) in glyphs.enumerated() { grid[key(g.x, g.y), default: []].append(i) }
        func near(_ x: Double, _ y: Double, _ r: Double) -> [Int] {
            var out: [Int] = []
            let cx = Int((x / cell).rounded(.down)), cy = Int((y / cell).rounded(.down)), span = Int((r / cell).rounded(.up))
            for gy in (cy - span)...(cy + span) {
                for gx in (cx - span)...(cx + span) {
                    if let list = grid[gy * 100_003 + gx] { out.append(contentsOf: list) }
                }
            }
            return out
        }
        var used = [Bool](repeating: false, count: glyphs.count)
        var chains: [Chain] = []

        func grow(_ i: Int, _ j: Int) -> (Chain, [Int])? {
            var pts = [Point(x: glyphs[i].x, y: glyphs[i].y, k: 0), Point(x: glyphs[j].x, y: glyphs[j].y, k: 1)]
            var members: Set<Int> = [i, j]
            var misses = 0
            let refSize = (glyphs[i].size + glyphs[j].size) / 2
            for direction in [1, -1] {
                while pts.count < 60 {
                    let last = direction > 0 ? pts[pts.count - 1] : pts[0]
                    // Step vector from up to the 6 nearest points behind: follows perspective.
                    let back = direction > 0 ? pts[max(0, pts.count - 6)] : pts[min(pts.count - 1, 5)]
                    let dk = Double(last.k - back.k)
                    guard dk != 0 else { break }
                    let vx = (last.x - back.x) / dk, vy = (last.y - back.y) / dk
                    let step = (vx * vx + vy * vy).squareRoot()
                    var added = false
                    for skip in 1...2 {
                        let px = last.x + vx * Double(direction * skip), py = last.y + vy * Double(direction * skip)
                        let tol = 0.3 * step
                        var best = -1, bestD = tol
                        for c in near(px, py, tol) where !members.contains(c) {
                            let g = glyphs[c]
                            let d = ((g.x - px) * (g.x - px) + (g.y - py) * (g.y - py)).squareRoot()
                            if d <= bestD && g.size >= refSize * 0.4 && g.size <= refSize * 1.8 { best = c; bestD = d }
                        }
                        var point: Point?
                        if best >= 0 {
                            members.insert(best)
                            point = Point(x: glyphs[best].x, y: glyphs[best].y, k: last.k + direction * skip)
                        } else if wide.contains(where: { w in
                            abs(w.x - px) <= w.w / 2 + 0.2 * step && abs(w.y - py) <= w.h / 2 + 0.2 * step
                                && min(w.w, w.h) <= refSize * 1.3
                        }) {
                            // Glyphs merged into one component (a filler run at low resolution).
                            point = Point(x: px, y: py, k: last.k + direction * skip)
                        }
                        if let point {
                            if direction > 0 { pts.append(point) } else { pts.insert(point, at: 0) }
                            misses += skip - 1
                            added = true
                            break
                        }
                    }
                    if !added || misses > 6 { break }
                }
            }
            guard pts.count >= 14, misses * 8 <= pts.count else { return nil }
            guard !skipsGlyphs(pts, refSize: refSize, members: members), let chain = fit(pts) else { return nil }
            return (chain, Array(members))
        }

        // A chain through every other glyph of a line (its first two glyphs sit too far off their
        // cells for the line's own pitch to be followed: an S beside a U on a turned card, a 5
        // beside a B) takes half the line, and the other half then chains the same way: no line of
        // the band reaches its length (dev seeds 43 and 44). Such a chain has a glyph midway
        // between most of its neighbours; it is not kept, and a glyph further on starts the line.
        func skipsGlyphs(_ pts: [Point], refSize: Double, members: Set<Int>) -> Bool {
            var between = 0, pairs = 0
            for (p, q) in zip(pts, pts.dropFirst()) where q.k - p.k == 1 {
                pairs += 1
                let mx = (p.x + q.x) / 2, my = (p.y + q.y) / 2
                let tol = 0.25 * ((q.x - p.x) * (q.x - p.x) + (q.y - p.y) * (q.y - p.y)).squareRoot()
                if near(mx, my, tol).contains(where: { c in
                    let g = glyphs[c]
                    return !members.contains(c) && (g.x - mx) * (g.x - mx) + (g.y - my) * (g.y - my) <= tol * tol
                        && g.size >= refSize * 0.4 && g.size <= refSize * 1.8
                }) { between += 1 }
            }
            return pairs > 0 && 2 * between > pairs
        }

        for i in glyphs.indices where !used[i] {
            let g = glyphs[i]
            var best: (Chain, [Int])?
            for j in near(g.x, g.y, 2.2 * g.size) where j != i && !used[j] {
                let h = glyphs[j]
                let d = ((h.x - g.x) * (h.x - g.x) + (h.y - g.y) * (h.y - g.y)).squareRoot()
                guard d >= 0.45 * g.size, d <= 2.2 * g.size, h.size >= g.size * 0.5, h.size <= g.size * 2 else { continue }
                if let c = grow(i, j), c.0.points.count > (best?.0.points.count ?? 0) { best = c }
            }
            if let best {
                chains.append(best.0)
                for m in best.1 { used[m] = true }
            }
        }
        return chains
    }

    /// Direction, pitch and regularity of a chain; nil when its spacing is not fixed-pitch
    /// (proportional text, where word spaces and letter widths vary).
    static func fit(_ pts: [Point]) -> Chain? {
        let n = Double(pts.count)
        let mx = pts.reduce(0) { $0 + $1.x } / n, my = pts.reduce(0) { $0 + $1.y } / n
        let mk = pts.reduce(0) { $0 + Double($1.k) } / n
        var sxk = 0.0, syk = 0.0, skk = 0.0
        for p in pts {
            let dk = Double(p.k) - mk
            sxk += (p.x - mx) * dk; syk += (p.y - my) * dk; skk += dk * dk
        }
        guard skk > 0 else { return nil }
        let vx = sxk / skk, vy = syk / skk
        let pitch = (vx * vx + vy * vy).squareRoot()
        guard pitch > 2 else { return nil }
        let ux = vx / pitch, uy = vy / pitch
        // Residuals across the line and along it (after a quadratic in k for perspective).
        var across = 0.0
        var ts: [Double] = [], ks: [Double] = []
        for p in pts {
            across += pow(-(p.x - mx) * uy + (p.y - my) * ux, 2)
            ts.append((p.x - mx) * ux + (p.y - my) * uy)
            ks.append(Double(p.k) - mk)
        }
        let along = quadraticResidual(ks, ts)
        guard (across / n).squareRoot() <= 0.2 * pitch, along <= 0.16 * pitch else { return nil }
        return Chain(points: pts, pitch: pitch, ux: ux, uy: uy)
    }

    /// RMS residual of a least-squares quadratic y(x).
    static func quadraticResidual(_ x: [Double], _ y: [Double]) -> Double {
        guard let (c0, c1, c2) = quadraticFit(x, y) else { return .infinity }
        var s = 0.0
        for i in x.indices { s += pow(y[i] - (c0 + c1 * x[i] + c2 * x[i] * x[i]), 2) }
        return (s / Double(x.count)).squareRoot()
    }

    static func quadraticFit(_ x: [Double], _ y: [Double]) -> (Double, Double, Double)? {
        var m = [[Double]](repeating: [Double](repeating: 0, count: 4), count: 3)
        for i in x.indices {
            let v = [1, x[i], x[i] * x[i]]
            for r in 0..<3 {
                for c in 0..<3 { m[r][c] += v[r] * v[c] }
                m[r][3] += v[r] * y[i]
            }
        }
        guard let s = solve3(m) else { return nil }
        return (s[0], s[1], s[2])
    }

    /// Gaussian elimination on a 3 × 4 augmented matrix.
    static func solve3(_ input: [[Double]]) -> [Double]? {
        var m = input
        for col in 0..<3 {
            guard let pivot = (col..<3).max(by: { abs(m[$0][col]) < abs(m[$1][col]) }), abs(m[pivot][col]) > 1e-12 else { return nil }
            m.swapAt(col, pivot)
            for r in 0..<3 where r != col {
                let f = m[r][col] / m[col][col]
                for c in col..<4 { m[r][c] -= f * m[col][c] }
            }
        }
        return (0..<3).map { m[$0][3] / m[$0][$0] }
    }

    /// Joins pieces of one line broken by glare, a stamp or a fold: same direction and pitch, the
    /// second continuing the first's line a whole number of cells further on.
    ///
    /// At most `budget` pairs are compared in all: a woven cloth or a grid pattern behind the
    /// document makes thousands of parallel fixed-pitch chains, and comparing every pair again
    /// after each join took minutes. A page's few hundred chains need a small share of it (the
    /// MRZ benchmark has not been rerun since the bound was added: issue 14's note).
    static func mergeCollinear(_ input: [Chain], budget: Int = 4_000_000) -> [Chain] {
        var chains = input.sorted { $0.points.count > $1.points.count }
        var merged = true
        var compared = 0
        while merged && compared < budget {
            merged = false
            outer: for a in chains.indices {
                for b in chains.indices where b != a {
                    compared += 1
                    if compared >= budget { break outer }
                    let A = chains[a], B = chains[b].aligned(chains[a].ux, chains[a].uy)
                    guard A.ux * B.ux + A.uy * B.uy > cos(4 * Double.pi / 180),
                          abs(A.pitch / B.pitch - 1) < 0.15 else { continue }
                    let first = A.points[0], lastA = A.points[A.points.count - 1]
                    // B's ends off A's line already: a parallel line, not a continuation (the
                    // full test below takes the largest distance of all B's points).
                    func across(_ p: Point) -> Double { abs(-(p.x - first.x) * A.uy + (p.y - first.y) * A.ux) }
                    guard across(B.points[0]) <= 0.4 * A.pitch, across(B.points[B.points.count - 1]) <= 0.4 * A.pitch else { continue }
                    // B's points relative to A's line.
                    var offsets: [Double] = []
                    var perp = 0.0
                    for p in B.points {
                        let dx = p.x - first.x, dy = p.y - first.y
                        perp = max(perp, abs(-dx * A.uy + dy * A.ux))
                        offsets.append((dx * A.ux + dy * A.uy) / A.pitch + Double(first.k) - Double(p.k))
                    }
                    guard perp <= 0.4 * A.pitch else { continue }
                    let sorted = offsets.sorted()
                    let shift = sorted[sorted.count / 2]
                    guard abs(shift - shift.rounded()) < 0.3 else { continue }
                    let s = Int(shift.rounded())
                    let kA = Set(A.points.map(\.k))
                    let moved = B.points.map { Point(x: $0.x, y: $0.y, k: $0.k + s) }
                    // Pieces must not overlap much, and the gap must be plausible.
                    let overlap = moved.filter { kA.contains($0.k) }.count
                    let bMin = moved.map(\.k).min()!, bMax = moved.map(\.k).max()!
                    let gap = max(bMin - lastA.k, A.points[0].k - bMax)
                    guard overlap <= 2, gap <= 16 else { continue }
                    let combined = (A.points + moved.filter { !kA.contains($0.k) }).sorted { $0.k < $1.k }
                    guard let c = fit(combined) else { continue }
                    chains[a] = c
                    chains.remove(at: b)
                    merged = true
                    break outer
                }
            }
        }
        return chains
    }

    // MARK: bands

    /// Pairs and triples of parallel chains of one pitch, stacked one line apart and left-aligned.
    static func group(_ chains: [Chain]) -> [MRZGeometry] {
        let lines = chains.filter { $0.cells >= 18 }
        guard lines.count >= 2 else { return [] }
        var results: [MRZGeometry] = [], partials: [MRZGeometry] = []
        // Stacks: sort parallel lines by their offset along the normal of the longest.
        var seen = Set<[Int]>()
        for (ri, ref) in lines.enumerated() {
            let nx = -ref.uy, ny = ref.ux
            let p0 = ref.points[0]
            var stack: [(Int, Double)] = []
            for (i, line) in lines.enumerated() {
                let l = line.aligned(ref.ux, ref.uy)
                guard ref.ux * l.ux + ref.uy * l.uy > cos(5 * Double.pi / 180), abs(l.pitch / ref.pitch - 1) < 0.2 else { continue }
                let c = l.points[l.points.count / 2]
                let off = ((c.x - p0.x) * nx + (c.y - p0.y) * ny) / ref.pitch
                // Along-line overlap with the reference.
                let along = l.points.map { (($0.x - p0.x) * ref.ux + ($0.y - p0.y) * ref.uy) / ref.pitch }
                let refAlong = ref.points.map { (($0.x - p0.x) * ref.ux + ($0.y - p0.y) * ref.uy) / ref.pitch }
                let lo = max(along.min()!, refAlong.min()!), hi = min(along.max()!, refAlong.max()!)
                guard hi - lo >= 0.5 * Double(min(l.cells, ref.cells)), abs(off) <= 8 else { continue }
                stack.append((i, off))
            }
            stack.sort { $0.1 < $1.1 }
            guard let at = stack.firstIndex(where: { $0.0 == ri }) else { continue }
            // Windows of 2 and 3 consecutive lines containing the reference, spaced 1–3.6 pitches.
            for size in [3, 2] {
                for start in max(0, at - size + 1)...at where start + size <= stack.count {
                    let window = Array(stack[start..<(start + size)])
                    var ok = true
                    for w in 1..<window.count {
                        let gap = window[w].1 - window[w - 1].1
                        if gap < 1.0 || gap > 3.6 { ok = false }
                    }
                    guard ok else { continue }
                    let ids = window.map(\.0)
                    guard !seen.contains(ids.sorted()) else { continue }
                    seen.insert(ids.sorted())
                    let stack = ids.map { lines[$0].aligned(ref.ux, ref.uy) }
                    if let g = geometry(stack) { results.append(g) } else {
                        partials += (size == 2 ? [44, 36] : [30]).compactMap { geometry(stack, partialLength: $0) }
                    }
                }
            }
        }
        // Most complete first: 3-line TD1 bands before 2-line readings of part of them. Lines
        // seen in part only where no band was seen whole.
        if results.isEmpty { results = partials }
        return results.sorted { ($0.evidence, $0.lines.count) > ($1.evidence, $1.lines.count) }
    }

    /// The cell grid of a stack of lines, or nil when their lengths fit no MRZ format. With
    /// `partialLength`, two lines (44 or 36) or three (30) seen over at least 18 cells but too
    /// short for any format are taken for that length (``MRZGeometry/partial``).
    static func geometry(_ stack: [Chain], partialLength: Int? = nil) -> MRZGeometry? {
        guard let ref = stack.max(by: { $0.points.count < $1.points.count }) else { return nil }
        let p0 = ref.points[0]
        let ux = ref.ux, uy = ref.uy, nx = -uy, ny = ux
        func along(_ p: Point) -> Double { (p.x - p0.x) * ux + (p.y - p0.y) * uy }
        func across(_ p: Point) -> Double { (p.x - p0.x) * nx + (p.y - p0.y) * ny }
        // Index every line in the reference's cell frame (lines are left-aligned, so a cell index
        // names one column of the band).
        guard let refMap = projective(ref.points.map { (Double($0.k), along($0)) }) else { return nil }
        var indexed: [[Point]] = []
        for l in stack {
            var shifts: [Double] = []
            for p in l.points { shifts.append(inverse(refMap, along(p)) - Double(p.k)) }
            shifts.sort()
            let s = Int(shifts[shifts.count / 2].rounded())
            indexed.append(l.points.map { Point(x: $0.x, y: $0.y, k: $0.k + s) })
        }
        // A speck of background standing alone at a line's end, past a cell with nothing in it,
        // makes the line look longer than it is: where a white strip lies on a dark cloth, the
        // local threshold breaks the cloth along the strip's edge into glyph-sized pieces in line
        // with the text. A 36-character band read over 40 cells was taken for 44, whose blank
        // cells then failed the reader. Without such lone end glyphs, lines that fill their
        // cells (nine in ten or more) and fit another format are read in that one.
        let lone = indexed.map(Self.withoutLoneEnds)
        let seen = Self.length(of: indexed, lines: stack.count, partialLength: partialLength)
        let length: Int
        if partialLength == nil, let core = Self.length(of: lone, lines: stack.count), core != seen, lone.allSatisfy(Self.filled) {
            (indexed, length) = (lone, core)
        } else if let seen {
            length = seen
        } else {
            return nil
        }
        let kMin = indexed.flatMap { $0.map(\.k) }.min()!, kMax = indexed.flatMap { $0.map(\.k) }.max()!
        let span = kMax - kMin + 1
        // Windows of `length` cells covering what was seen (several when an end is missing).
        var starts: [Int] = []
        if span <= length {
            starts = Array((kMax - length + 1)...kMin)
        } else {
            starts = Array(kMin...(kMax - length + 1))
        }
        // Centre-first: a band seen whole needs no alternative, a short one tries both ends.
        starts.sort { abs(Double($0) - Double(kMin + kMax - length + 1) / 2) < abs(Double($1) - Double(kMin + kMax - length + 1) / 2) }
        var grids: [MRZLineGrid] = []
        for l in indexed {
            guard let (a, b, c) = projective(l.map { (Double($0.k), along($0)) }) else { return nil }
            // Offset across the line as a linear function of the position along it.
            let ts = l.map(along), ds = l.map(across)
            let mt = ts.reduce(0, +) / Double(ts.count), md = ds.reduce(0, +) / Double(ds.count)
            var stt = 0.0, std = 0.0
            for i in ts.indices { stt += (ts[i] - mt) * (ts[i] - mt); std += (ts[i] - mt) * (ds[i] - md) }
            let f = stt > 0 ? std / stt : 0
            grids.append(MRZLineGrid(originX: p0.x, originY: p0.y, ux: ux, uy: uy, a: a, b: b, c: c, e: md - f * mt, f: f))
        }
        // Top to bottom along the normal.
        let order = grids.indices.sorted { grids[$0].e + grids[$0].f * grids[$0].t(Double(kMin)) < grids[$1].e + grids[$1].f * grids[$1].t(Double(kMin)) }
        return MRZGeometry(length: length, lines: order.map { grids[$0] }, starts: partialLength == nil ? Array(starts.prefix(4)) : starts,
                           evidence: indexed.reduce(0) { $0 + $1.count }, partial: partialLength != nil)
    }

    /// Cells a TD1 line must span to be taken for one seen whole (fewer: seen in part).
    static let td1SeenWhole = 24

    /// The format length of a stack of `lines` lines whose cells (indexed in one frame) are
    /// `indexed`, or nil when they fit none. With `partialLength`, two lines (44, 36) or three
    /// (30) seen over at least 18 cells but too short for any format are taken for that length.
    static func length(of indexed: [[Point]], lines: Int, partialLength: Int? = nil) -> Int? {
        let ks = indexed.flatMap { $0.map(\.k) }
        guard let kMin = ks.min(), let kMax = ks.max() else { return nil }
        let span = kMax - kMin + 1
        let longest = indexed.map { ($0.map(\.k).max() ?? 0) - ($0.map(\.k).min() ?? 0) + 1 }.max() ?? 0
        if let partialLength {
            // Three lines are a TD1 (30), below the length seen whole; two a TD2 or TD3.
            guard lines == (partialLength == 30 ? 3 : 2), longest >= 18,
                  longest < (lines == 3 ? td1SeenWhole : partialLength - 8), span < partialLength else { return nil }
            return partialLength
        }
        if lines == 3 { return longest >= td1SeenWhole && span <= 33 ? 30 : nil }
        if longest >= 39 && span <= 47 { return 44 }
        if longest >= 31 && span <= 38 { return 36 }
        return nil
    }

    /// A line's cells without a glyph standing alone at either end (past an empty cell).
    static func withoutLoneEnds(_ line: [Point]) -> [Point] {
        var l = line.sorted { $0.k < $1.k }
        if l.count > 2, l[1].k - l[0].k >= 2 { l.removeFirst() }
        if l.count > 2, l[l.count - 1].k - l[l.count - 2].k >= 2 { l.removeLast() }
        return l
    }

    /// Whether a line has a glyph in nine of ten cells or more between its ends.
    static func filled(_ line: [Point]) -> Bool {
        guard let first = line.first, let last = line.last else { return false }
        return 10 * line.count >= 9 * (last.k - first.k + 1)
    }

    /// Least-squares t = (a·k + b)/(c·k + 1), linearised as t = a·k + b − c·k·t; falls back to
    /// a straight line when the points cannot support the extra term.
    static func projective(_ samples: [(Double, Double)]) -> (Double, Double, Double)? {
        var m = [[Double]](repeating: [Double](repeating: 0, count: 4), count: 3)
        for (k, t) in samples {
            let v = [k, 1, -k * t]
            for r in 0..<3 {
                for c in 0..<3 { m[r][c] += v[r] * v[c] }
                m[r][3] += v[r] * t
            }
        }
        if let s = solve3(m), abs(s[2]) < 0.02, samples.count >= 8 { return (s[0], s[1], s[2]) }
        // Linear.
        let n = Double(samples.count)
        let mk = samples.reduce(0) { $0 + $1.0 } / n, mt = samples.reduce(0) { $0 + $1.1 } / n
        var skk = 0.0, skt = 0.0
        for (k, t) in samples { skk += (k - mk) * (k - mk); skt += (k - mk) * (t - mt) }
        guard skk > 0 else { return nil }
        let a = skt / skk
        return (a, mt - a * mk, 0)
    }

    /// k for a given t under (a, b, c).
    static func inverse(_ m: (Double, Double, Double), _ t: Double) -> Double {
        // t(ck + 1) = ak + b  →  k = (b − t) / (c·t − a)
        let d = m.2 * t - m.0
        return abs(d) < 1e-12 ? 0 : (m.1 - t) / d
    }
}
