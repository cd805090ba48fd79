@preconcurrency import CTesseract

/// What a tick box's pixels say.
enum TickMark: Sendable, Equatable {
    case ticked
    case empty
}

/// Reads a tick box ("☐ Delete my data", "[X] Do not sell") from the page's pixels rather than
/// from what Tesseract made of it. Tesseract reads an empty drawn box as "O", "LJ", "fF]" or
/// nothing, and a crossed one as "X", "&", "2d" or nothing, so the text alone calls boxes both
/// ways wrongly; the ink inside the box does not.
///
/// The mark is the group of ink marks just left of the option's first word: a drawn box, or
/// brackets with or without an "X" between them. Its middle half (a quarter off each side,
/// which drops a box's frame and a bracket's hooks) is all but blank when the box is empty and
/// crossed by strokes when it is ticked.
struct TickBoxReader {
    let image: LeptImage

    /// Ink share of the middle at or over which a box is ticked, and at or under which it is
    /// empty; in between, the pixels do not say. (Chosen on a prototype over the original images
    /// of the 78 dev opt-out pages of seeds 15–17, drawn boxes and typed brackets: ticked boxes
    /// measured 0.10 and over and empty ones 0.03 and under, but for rows grouped into the
    /// wrong line.)
    static let tickedShare = 0.10
    static let emptyShare = 0.03

    /// The mark left of `label` (the option's first word; `height`: the option's letter
    /// height, pixels), or nil when no box-sized mark is there or its middle is neither blank
    /// nor crossed.
    func mark(before label: BoundingBox, height h: Int) -> TickMark? {
        guard h >= 6 else { return nil }
        let x1 = label.x - max(2, h / 6), x0 = max(0, label.x - 4 * h)
        let y0 = max(0, label.y - h / 3), y1 = min(image.height, label.y + label.height + h / 3)
        guard x1 - x0 >= h / 2, y1 - y0 >= h / 2, x1 <= image.width,
              let clip = image.clipped(to: BoundingBox(x: x0, y: y0, width: x1 - x0, height: y1 - y0)) else { return nil }
        let eight: LeptImage
        if clip.depth == 8, pixGetColormap(clip.pix) == nil {
            eight = clip
        } else {
            guard let converted = pixConvertTo8(clip.pix, 0) else { return nil }
            eight = LeptImage(converted)
        }
        guard let gray = GrayImage(pix8: eight.pix) else { return nil }
        return Self.mark(in: gray, height: h)
    }

    /// The mark in `gray`, a strip whose right edge is the option's first word (see
    /// ``mark(before:height:)``).
    static func mark(in gray: GrayImage, height h: Int) -> TickMark? {
        let (w, rows) = (gray.width, gray.height)
        // Ink: darker than halfway between the paper (the 95th percentile) and the darkest ink
        // (the 1st), whatever the lighting; a photocopy's prepared page is grey on grey. Too
        // little contrast is no mark at all.
        var histogram = [Int](repeating: 0, count: 256)
        for v in gray.pixels { histogram[Int(v)] += 1 }
        func percentile(_ p: Int) -> Int {
            var seen = 0
            for v in 0..<256 {
                seen += histogram[v]
                if seen * 100 >= gray.pixels.count * p { return v }
            }
            return 255
        }
        let (paper, darkest) = (percentile(95), percentile(1))
        guard paper - darkest >= 40 else { return nil }
        let threshold = UInt8((paper + darkest) / 2)
        let ink = gray.pixels.map { $0 < threshold }
        guard let group = markBounds(ink, width: w, height: rows, letterHeight: h) else { return nil }
        let (bw, bh) = (group.x1 - group.x0, group.y1 - group.y0)
        // A box or a bracketed mark is about a letter high and one to three letters wide.
        guard 2 * bw >= h, 2 * bh >= h, bh * 10 <= 22 * h, bw <= 3 * h else { return nil }
        let (ix0, ix1, iy0, iy1) = (group.x0 + bw / 4, group.x1 - bw / 4, group.y0 + bh / 4, group.y1 - bh / 4)
        guard ix1 > ix0, iy1 > iy0 else { return nil }
        var dark = 0
        for y in iy0..<iy1 { for x in ix0..<ix1 where ink[y * w + x] { dark += 1 } }
        let share = Double(dark) / Double((ix1 - ix0) * (iy1 - iy0))
        return share >= tickedShare ? .ticked : share <= emptyShare ? .empty : nil
    }

    /// Bounds (x1, y1 exclusive) of the mark: the ink marks (8-connected) of some size, not cut
    /// by the strip's right edge (a letter of the option itself), taken from the rightmost one
    /// leftwards while the gap to the next is at most 1.2 letter heights (the space inside "[ ]").
    static func markBounds(_ ink: [Bool], width w: Int, height rows: Int, letterHeight h: Int)
        -> (x0: Int, y0: Int, x1: Int, y1: Int)? {
        var seen = [Bool](repeating: false, count: ink.count)
        var stack: [Int] = []
        var marks: [(x0: Int, y0: Int, x1: Int, y1: Int)] = []
        let minArea = max(4, h * h / 150)
        for start in 0..<ink.count where ink[start] && !seen[start] {
            seen[start] = true
            stack.append(start)
            var (x0, y0, x1, y1, area) = (w, rows, 0, 0, 0)
            while let p = stack.popLast() {
                let (x, y) = (p % w, p / w)
                (x0, y0, x1, y1, area) = (min(x0, x), min(y0, y), max(x1, x + 1), max(y1, y + 1), area + 1)
                for dy in -1...1 {
                    let ny = y + dy
                    guard ny >= 0, ny < rows else { continue }
                    for dx in -1...1 {
                        let nx = x + dx
                        guard nx >= 0, nx < w else { continue }
                        let q = ny * w + nx
                        if ink[q], !seen[q] { seen[q] = true; stack.append(q) }
                    }
                }
            }
            if area >= minArea, 20 * (y1 - y0) >= 7 * h, x1 < w { marks.append((x0, y0, x1, y1)) }
        }
        marks.sort { $0.x1 > $1.x1 }
        guard var group = marks.first else { return nil }
        for m in marks.dropFirst() where 5 * (group.x0 - m.x1) <= 6 * h {
            group = (min(group.x0, m.x0), min(group.y0, m.y0), max(group.x1, m.x1), max(group.y1, m.y1))
        }
        return group
    }
}
