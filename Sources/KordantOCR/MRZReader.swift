@preconcurrency import CTesseract
import Foundation

/// Reads MRZ lines by matching glyphs against OCR-B templates, for when Tesseract's `eng` model
/// misreads them (it reads `<` as `K` and merges or splits filler runs).
///
/// The MRZ is printed in a fixed-pitch font at the bottom of the document: find the bottom text
/// rows that hold 30, 36 or 44 glyphs, cut each row into that many cells at a fixed pitch, and
/// classify each cell's ink against the 37 templates (shape on a 20 × 28 grid, plus the glyph's
/// height relative to the row's capitals and its aspect ratio — what separates `<` from `K`).
enum MRZReader {
    struct Bitmap {
        let width: Int
        let height: Int
        let bits: [Bool]
        func ink(_ x: Int, _ y: Int) -> Bool { bits[y * width + x] }
    }

    struct GlyphBox {
        var x0, y0, x1, y1: Int   // inclusive
        var width: Int { x1 - x0 + 1 }
        var height: Int { y1 - y0 + 1 }
        var centerX: Double { Double(x0 + x1) / 2 }
        func union(_ o: GlyphBox) -> GlyphBox { GlyphBox(x0: min(x0, o.x0), y0: min(y0, o.y0), x1: max(x1, o.x1), y1: max(y1, o.y1)) }
    }

    static let templates: [(Character, Double, Double, [Float])] = OCRBTemplates.glyphs.map { c, rel, aspect, hex in
        (c, rel, aspect, hex.map { Float($0.hexDigitValue ?? 0) / 15 })
    }

    /// MRZ lines read from the bottom 45 % of `image`, or nil when no MRZ-shaped rows are there.
    static func read(_ image: LeptImage) -> (MRZ.Format, [String])? {
        guard let bitmap = binarise(image, fromRow: image.height * 55 / 100) else { return nil }
        var rows = textRows(bitmap)
        // The MRZ's top row can touch the text above it (no blank row between). MRZ glyphs share
        // one height and a baseline, with no descenders, so a taller row keeps only its bottom,
        // one MRZ row high.
        if rows.count >= 2 {
            let h = max(rows[rows.count - 1].count, rows[rows.count - 2].count)
            rows = rows.map { r in r.count > h * 12 / 10 ? (r.upperBound - h + 1)...r.upperBound : r }
        }
        var lines: [(rows: ClosedRange<Int>, glyphs: [GlyphBox])] = rows.map { ($0, glyphs(in: bitmap, rows: $0)) }
        // MRZ rows are the bottom-most rows with many glyphs.
        while let last = lines.last, last.glyphs.count < 20 { lines.removeLast() }
        var mrz: [(rows: ClosedRange<Int>, glyphs: [GlyphBox])] = []
        for line in lines.reversed() {
            guard line.glyphs.count >= 20 else { break }
            mrz.insert(line, at: 0)
            if mrz.count == 3 { break }
        }
        guard mrz.count >= 2 else { return nil }
        let format: MRZ.Format
        if mrz.count == 3 && mrz.allSatisfy({ abs($0.glyphs.count - 30) <= 6 }) {
            format = .td1
        } else {
            mrz = Array(mrz.suffix(2))
            let mean = Double(mrz[0].glyphs.count + mrz[1].glyphs.count) / 2
            format = abs(mean - 44) < abs(mean - 36) ? .td3 : .td2
        }
        // All MRZ rows share one pitch and left edge: take them from a row whose glyphs split
        // cleanly into exactly the format's count (the bottom-most such row).
        let n = format.lineLength
        guard let reference = mrz.last(where: { $0.glyphs.count == n }) ?? mrz.last,
              let first = reference.glyphs.first, let last = reference.glyphs.last else { return nil }
        let pitch = (last.centerX - first.centerX) / Double(n - 1)
        let text = mrz.map { classify(rows: $0.rows, firstCentre: first.centerX, pitch: pitch, count: n, bitmap: bitmap) }
        return (format, text)
    }

    /// 1 bit per pixel of the region below `fromRow` (ink = dark).
    static func binarise(_ image: LeptImage, fromRow top: Int) -> Bitmap? {
        guard let box = boxCreate(0, Int32(top), Int32(image.width), Int32(image.height - top)) else { return nil }
        var b: UnsafeMutablePointer<Box>? = box
        defer { boxDestroy(&b) }
        guard let clipped = pixClipRectangle(image.pix, box, nil) else { return nil }
        var c: UnsafeMutablePointer<Pix>? = clipped
        defer { pixDestroy(&c) }
        // Otsu over the whole band (one tile): paper and ink levels vary with lighting and scans.
        var otsu: UnsafeMutablePointer<Pix>?
        let gray = pixGetDepth(clipped) == 8 ? clipped : pixConvertTo8(clipped, 0)
        guard let gray else { return nil }
        defer { if gray != clipped { var g: UnsafeMutablePointer<Pix>? = gray; pixDestroy(&g) } }
        guard pixOtsuAdaptiveThreshold(gray, pixGetWidth(gray), pixGetHeight(gray), 0, 0, 0.1, nil, &otsu) == 0,
              let binary = otsu else { return nil }
        var bb: UnsafeMutablePointer<Pix>? = binary
        defer { pixDestroy(&bb) }
        let w = Int(pixGetWidth(binary)), h = Int(pixGetHeight(binary)), wpl = Int(pixGetWpl(binary))
        guard let data = pixGetData(binary), w > 0, h > 0 else { return nil }
        var bits = [Bool](repeating: false, count: w * h)
        for y in 0..<h {
            let row = data + y * wpl
            for x in 0..<w where (row[x >> 5] >> UInt32(31 - (x & 31))) & 1 == 1 { bits[y * w + x] = true }
        }
        return Bitmap(width: w, height: h, bits: bits)
    }

    /// Row ranges that contain ink.
    static func textRows(_ b: Bitmap) -> [ClosedRange<Int>] {
        var rows: [ClosedRange<Int>] = []
        var start: Int?
        let minimum = max(2, b.width / 400)
        for y in 0..<b.height {
            var count = 0
            for x in 0..<b.width where b.ink(x, y) { count += 1 }
            if count >= minimum { if start == nil { start = y } } else if let s = start {
                if y - s >= 6 { rows.append(s...(y - 1)) }
                start = nil
            }
        }
        if let s = start, b.height - s >= 6 { rows.append(s...(b.height - 1)) }
        return rows
    }

    /// Glyph boxes in a text row: columns of ink separated by blank columns, split further where a
    /// run is much wider than the row's typical glyph.
    static func glyphs(in b: Bitmap, rows: ClosedRange<Int>) -> [GlyphBox] {
        var boxes: [GlyphBox] = []
        var start: Int?
        func close(_ x1: Int) {
            guard let s = start else { return }
            var y0 = rows.upperBound, y1 = rows.lowerBound
            for x in s...x1 { for y in rows where b.ink(x, y) { y0 = min(y0, y); y1 = max(y1, y) } }
            if y1 >= y0 { boxes.append(GlyphBox(x0: s, y0: y0, x1: x1, y1: y1)) }
            start = nil
        }
        for x in 0..<b.width {
            let any = rows.contains { b.ink(x, $0) }
            if any { if start == nil { start = x } } else { close(x - 1) }
        }
        close(b.width - 1)
        // Drop specks (noise) smaller than a fifth of the row height.
        let rowHeight = rows.count
        return boxes.filter { $0.height * 5 >= rowHeight || $0.width * 5 >= rowHeight }
    }

    /// Classifies a row into exactly `count` characters: each fixed-pitch cell's ink box (found
    /// in the bitmap itself, so glyphs merged by segmentation do not matter) matched against the
    /// templates.
    static func classify(rows: ClosedRange<Int>, firstCentre: Double, pitch: Double, count: Int, bitmap: Bitmap) -> String {
        var boxes: [GlyphBox?] = []
        for i in 0..<count {
            let centre = firstCentre + Double(i) * pitch
            let x0 = max(0, Int((centre - pitch / 2).rounded(.up))), x1 = min(bitmap.width - 1, Int((centre + pitch / 2).rounded(.down)))
            var box: GlyphBox?
            if x0 <= x1 {
                for y in rows { for x in x0...x1 where bitmap.ink(x, y) {
                    let p = GlyphBox(x0: x, y0: y, x1: x, y1: y)
                    box = box.map { $0.union(p) } ?? p
                } }
            }
            boxes.append(box)
        }
        let heights = boxes.compactMap { $0?.height }.sorted()
        guard !heights.isEmpty else { return String(repeating: "<", count: count) }
        let cap = Double(heights[heights.count * 3 / 4])
        return String(boxes.map { $0.map { best($0, cap: cap, bitmap: bitmap) } ?? "<" })
    }

    static func best(_ g: GlyphBox, cap: Double, bitmap: Bitmap) -> Character {
        let grid = fit(g, bitmap: bitmap)
        let relHeight = Double(g.height) / cap
        let aspect = Double(g.width) / Double(g.height)
        var bestChar: Character = "<"
        var bestScore = Double.infinity
        for (c, rel, tAspect, t) in templates {
            var d: Float = 0
            for k in 0..<t.count {
                let e = grid[k] - t[k]
                d += e * e
            }
            let score = Double(d) / Double(t.count) + 2 * pow(relHeight - rel, 2) + 0.5 * pow(aspect - tAspect, 2)
            if score < bestScore {
                bestScore = score
                bestChar = c
            }
        }
        return bestChar
    }

    /// The glyph's ink box fitted into the template grid: aspect kept, centred, area-averaged.
    static func fit(_ g: GlyphBox, bitmap: Bitmap) -> [Float] {
        let W = OCRBTemplates.gridWidth, H = OCRBTemplates.gridHeight
        let s = min(Double(W) / Double(g.width), Double(H) / Double(g.height))
        let nw = max(1, Int((Double(g.width) * s).rounded())), nh = max(1, Int((Double(g.height) * s).rounded()))
        let x0 = (W - nw) / 2, y0 = (H - nh) / 2
        var out = [Float](repeating: 0, count: W * H)
        for ty in 0..<nh {
            let sy0 = g.y0 + ty * g.height / nh, sy1 = max(sy0 + 1, g.y0 + (ty + 1) * g.height / nh)
            for tx in 0..<nw {
                let sx0 = g.x0 + tx * g.width / nw, sx1 = max(sx0 + 1, g.x0 + (tx + 1) * g.width / nw)
                var ink = 0, total = 0
                for y in sy0..<min(sy1, bitmap.height) {
                    for x in sx0..<min(sx1, bitmap.width) {
                        total += 1
                        if bitmap.ink(x, y) { ink += 1 }
                    }
                }
                out[(y0 + ty) * W + x0 + tx] = total > 0 ? Float(ink) / Float(total) : 0
            }
        }
        return out
    }
}
