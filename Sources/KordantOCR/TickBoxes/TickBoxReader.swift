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
/// crossed by strokes when it is ticked. Where the boxes stand in a column right of the options
/// (a table's last column), the first mark right of the option's text is read the same way
/// (``mark(after:height:width:back:)``).
struct TickBoxReader {
    let image: LeptImage

    /// Ink share of the middle at or over which a box is ticked, and at or under which it is
    /// empty; in between, the pixels do not say. (Chosen on a prototype over the original images
    /// of the 78 dev opt-out pages of seeds 15–17, drawn boxes and typed brackets: ticked boxes
    /// measured 0.10 and over and empty ones 0.03 and under, but for rows grouped into the
    /// wrong line.)
    static let tickedShare = 0.10
    static let emptyShare = 0.03

    /// The box of the option whose first word is `label` (`height`: the option's letter height,
    /// pixels): a frame opening the word, else the mark left of it; nil when no box-sized mark is
    /// there or its middle is neither blank nor crossed.
    ///
    /// The word may have swallowed its box: Tesseract reads a box set close to its option as part
    /// of the first word ("MDoNotSell", "ONomarketing", or "No" whose box spans the tick box
    /// too). A frame opening the word (``mark(openingInside:height:)``) is that box, and is read
    /// first: left of such a word, with options side by side, the end of the option before it
    /// ("…tion") can pass for a box.
    func mark(before label: BoundingBox, height h: Int) -> TickMark? {
        guard h >= 6 else { return nil }
        if let inside = mark(openingInside: label, height: h) { return inside }
        let x1 = label.x - max(2, h / 6), x0 = max(0, label.x - 4 * h)
        let y0 = max(0, label.y - h / 3), y1 = min(image.height, label.y + label.height + h / 3)
        guard x1 - x0 >= h / 2, y1 - y0 >= h / 2, x1 <= image.width,
              let clip = image.clipped(to: BoundingBox(x: x0, y: y0, width: x1 - x0, height: y1 - y0)),
              let gray = Self.gray(clip) else { return nil }
        return Self.mark(in: gray, height: h)
    }

    /// The box a word opens with, read into it (see ``mark(before:height:)``): the start of the
    /// word's box and a little before it, searched for a drawn frame (``frameMark(_:width:height:letterHeight:)``).
    func mark(openingInside label: BoundingBox, height h: Int) -> TickMark? {
        guard h >= 6 else { return nil }
        let x0 = max(0, label.x - h / 4), x1 = min(image.width, label.x + min(label.width, 2 * h))
        let y0 = max(0, label.y - h / 2), y1 = min(image.height, label.y + label.height + h / 2)
        guard x1 - x0 >= h / 2, y1 - y0 >= h / 2,
              let clip = image.clipped(to: BoundingBox(x: x0, y: y0, width: x1 - x0, height: y1 - y0)),
              let gray = Self.gray(clip), let ink = Self.inkMask(gray) else { return nil }
        return Self.frameMark(ink, width: gray.width, height: gray.height, letterHeight: h)
    }

    /// A drawn frame, the leftmost in the strip, and what is in it: two thin upright strokes (each
    /// under a fifth of the frame's width, nothing upright between them) half a letter to a letter
    /// and a half apart, each over half a letter high and spanning the same rows (the right one at
    /// least the left one's), joined at the top and at the bottom by rows inked across (85 % of
    /// the way or more). Letters have no such shape: "N", "M" and "H" have no top and bottom
    /// across, "E" no right side, "O" and "D" round corners, and a bold serif "D", all but
    /// square, a thick stem and bowl. The left side's rows are those of its first column, or,
    /// when that finds no frame, of its second where it is taller (a corner a copy wore short).
    /// Ticked or empty by the ink of the frame's middle half (``decide(_:width:group:height:)``);
    /// nil when there is no frame.
    static func frameMark(_ ink: [Bool], width w: Int, height rows: Int, letterHeight h: Int) -> TickMark? {
        // Each column's longest upright run of ink: (length, first row).
        var runs = [(length: Int, top: Int)](repeating: (0, 0), count: w)
        for x in 0..<w {
            var start = 0, length = 0
            for y in 0...rows {
                if y < rows, ink[y * w + x] { length += 1; continue }
                if length > runs[x].length { runs[x] = (length, start) }
                start = y + 1
                length = 0
            }
        }
        let tall = (h + 1) / 2
        guard let first = runs.indices.first(where: { runs[$0].length >= tall && runs[$0].length * 10 <= 16 * h }) else { return nil }
        // On a copy, the frame's outer column may stop a few rows short of a corner; the side's
        // next column, when it stands as tall, is tried as the side too.
        if let mark = frameMark(runs: runs, ink, width: w, height: rows, letterHeight: h, left: first) { return mark }
        let next = first + 1
        guard next < w, runs[next].length >= tall, runs[next].length * 10 <= 16 * h, runs[next].length > runs[first].length else { return nil }
        return frameMark(runs: runs, ink, width: w, height: rows, letterHeight: h, left: next)
    }

    /// ``frameMark(_:width:height:letterHeight:)`` with the frame's left side starting at column `left`.
    private static func frameMark(runs: [(length: Int, top: Int)], _ ink: [Bool], width w: Int, height rows: Int, letterHeight h: Int,
                                  left: Int) -> TickMark? {
        let tall = (h + 1) / 2
        // The left side's own columns, then a gap of paper or a tick's strokes, then the right side.
        var side = left
        while side + 1 < w, runs[side + 1].length >= tall { side += 1 }
        let (top, bottom) = (runs[left].top, runs[left].top + runs[left].length)
        // The right side: the first upright stroke after a gap (a tick's strokes slope; a bold
        // letter's bowl stands there and fails what follows).
        guard let right = runs.indices.first(where: { $0 > side + 1 && runs[$0].length >= tall }),
              right >= left + tall, right <= left + 3 * h / 2 else { return nil }
        var outer = right
        while outer + 1 < w, runs[outer + 1].length >= tall { outer += 1 }
        // Drawn in thin lines: a bold letter's stem or bowl is a fifth of its width or more.
        guard 5 * (side - left + 1) <= outer - left, 5 * (outer - right + 1) <= outer - left else { return nil }
        let r = runs[right]
        let overlap = min(bottom, r.top + r.length) - max(top, r.top)
        // Both sides the frame's height (a check may run on over its top): a bold "D"'s bowl is
        // upright for only two thirds of its stem.
        guard 100 * overlap >= 85 * runs[left].length, 2 * overlap >= r.length else { return nil }
        let (y0, y1) = (max(top, r.top), min(bottom, r.top + r.length))
        // A row inked across, within a stroke of each end (a bold "D"'s top is inked two thirds of the way).
        let stroke = max(2, (right - left) / 6)
        func across(_ y: Int) -> Bool {
            guard y >= 0, y < rows else { return false }
            let inked = (left...right).count { ink[y * w + $0] }
            return 100 * inked >= 85 * (right - left + 1)
        }
        guard (y0..<(y0 + stroke)).contains(where: across), ((y1 - stroke)..<y1).contains(where: across) else { return nil }
        return decide(ink, width: w, group: (left, y0, right + 1, y1), height: h)
    }

    /// The mark in `gray`, a strip whose right edge is the option's first word (see
    /// ``mark(before:height:)``).
    static func mark(in gray: GrayImage, height h: Int) -> TickMark? {
        guard let ink = inkMask(gray),
              let group = markBounds(ink, width: gray.width, height: gray.height, letterHeight: h) else { return nil }
        return decide(ink, width: gray.width, group: group, height: h)
    }

    /// Ink: darker than halfway between the paper (the 95th percentile) and the darkest ink (the
    /// 1st, or `darkPerMille` per mille), whatever the lighting; a photocopy's prepared page is
    /// grey on grey. Nil when there is too little contrast for any mark.
    static func inkMask(_ gray: GrayImage, darkPerMille: Int = 10, towardsPaper: Int = 2) -> [Bool]? {
        var histogram = [Int](repeating: 0, count: 256)
        for v in gray.pixels { histogram[Int(v)] += 1 }
        func perMille(_ p: Int) -> Int {
            var seen = 0
            for v in 0..<256 {
                seen += histogram[v]
                if seen * 1000 >= gray.pixels.count * p { return v }
            }
            return 255
        }
        let (paper, darkest) = (perMille(950), perMille(darkPerMille))
        guard paper - darkest >= 40 else { return nil }
        let threshold = UInt8(paper - (paper - darkest) / towardsPaper)
        return gray.pixels.map { $0 < threshold }
    }

    /// A box or a bracketed mark is about a letter high and one to three letters wide.
    static func boxSized(_ g: (x0: Int, y0: Int, x1: Int, y1: Int), height h: Int) -> Bool {
        let (bw, bh) = (g.x1 - g.x0, g.y1 - g.y0)
        return 2 * bw >= h && 2 * bh >= h && bh * 10 <= 22 * h && bw <= 3 * h
    }

    /// Ticked, empty or undecided by the ink share of the mark's middle half (a quarter off each
    /// side drops a box's frame and a bracket's hooks).
    static func decide(_ ink: [Bool], width w: Int, group: (x0: Int, y0: Int, x1: Int, y1: Int), height h: Int) -> TickMark? {
        guard boxSized(group, height: h) else { return nil }
        let (bw, bh) = (group.x1 - group.x0, group.y1 - group.y0)
        let (ix0, ix1, iy0, iy1) = (group.x0 + bw / 4, group.x1 - bw / 4, group.y0 + bh / 4, group.y1 - bh / 4)
        guard ix1 > ix0, iy1 > iy0 else { return nil }
        var dark = 0
        for y in iy0..<iy1 { for x in ix0..<ix1 where ink[y * w + x] { dark += 1 } }
        let share = Double(dark) / Double((ix1 - ix0) * (iy1 - iy0))
        return share >= tickedShare ? .ticked : share <= emptyShare ? .empty : nil
    }

    /// The mark right of an option's text, in a column of boxes beside the options ("Remove my
    /// profile …   [X]"), which Tesseract often drops. `last`: the option's last word, and `width`
    /// the page's width, as the layout reads the page (levelled); `back` maps such a box to the
    /// image. The strip from a letter past the text to the page's edge is sampled level (a
    /// slanted page's strip would take in the next row's mark), and its first ink that is not a
    /// rule across it (a table's borders) says. Nil when that is no box-sized mark; a mark whose
    /// middle is neither blank nor crossed gives (nil, its centre x in the image).
    func mark(after last: BoundingBox, height h: Int, width: Int, back: (BoundingBox) -> BoundingBox) -> (mark: TickMark?, x: Int)? {
        guard h >= 6 else { return nil }
        let (y0, rows) = (last.y - h / 3, last.height + 2 * (h / 3))
        let start = last.x + last.width + h
        let w = width - start
        guard w >= 2 * h, rows >= h else { return nil }
        let whole = back(BoundingBox(x: start, y: y0, width: w, height: rows))
        let (ox, oy) = (whole.x, whole.y)
        guard let clip = image.clipped(to: whole), let source = Self.gray(clip) else { return nil }
        func point(_ x: Int, _ y: Int) -> (x: Int, y: Int) {
            let b = back(BoundingBox(x: x, y: y, width: 0, height: 0))
            return (b.x - ox, b.y - oy)
        }
        // Each level row runs straight in the image between its two ends' images.
        var pixels = [UInt8](repeating: 255, count: w * rows)
        for v in 0..<rows {
            let (a, b) = (point(start, y0 + v), point(width - 1, y0 + v))
            for u in 0..<w {
                let x = a.x + (b.x - a.x) * u / max(1, w - 1), y = a.y + (b.y - a.y) * u / max(1, w - 1)
                if x >= 0, x < source.width, y >= 0, y < source.height { pixels[v * w + u] = source.pixels[y * source.width + x] }
            }
        }
        guard let (found, x) = Self.firstMark(in: GrayImage(width: w, height: rows, pixels: pixels), height: h) else { return nil }
        return (found, back(BoundingBox(x: start + x, y: y0, width: 0, height: 0)).x)
    }

    /// The first mark, left to right, in a strip right of an option's text (see
    /// ``mark(after:height:width:back:)``): ink marks that cross the strip from top to bottom
    /// (rules, borders) or run into its end (the page's edge) are passed over; the leftmost of the
    /// rest, with its neighbours up to 1.2 letter heights away, is the mark when it has a box's
    /// size. Nil when there is none, or the first ink is of another shape (text).
    static func firstMark(in gray: GrayImage, height h: Int) -> (TickMark?, x: Int)? {
        // The darkest 0.3 % is the ink: a box is a small part of a long strip. A photocopy's
        // box drawn in thin grey lines is lighter than its speckle and rules, and breaks up at
        // halfway to the paper: it is looked for again at a third of the way.
        if let found = firstMark(in: gray, height: h, towardsPaper: 2) { return found }
        return firstMark(in: gray, height: h, towardsPaper: 3)
    }

    private static func firstMark(in gray: GrayImage, height h: Int, towardsPaper: Int) -> (TickMark?, x: Int)? {
        guard let ink = inkMask(gray, darkPerMille: 3, towardsPaper: towardsPaper) else { return nil }
        let (w, rows) = (gray.width, gray.height)
        // (A rule: across the strip, or thin and across most of it, as a slanted page's rule
        // sampled level starts a row or two in.)
        let marks = components(ink, width: w, height: rows, letterHeight: h)
            .filter { m in !(m.y0 == 0 && m.y1 == rows) && !(5 * (m.y1 - m.y0) >= 4 * rows && 4 * (m.x1 - m.x0) <= h) && m.x1 < w }
            .sorted { $0.x0 < $1.x0 }
        guard var group = marks.first else { return nil }
        for m in marks.dropFirst() where 5 * (m.x0 - group.x1) <= 6 * h {
            group = (min(group.x0, m.x0), min(group.y0, m.y0), max(group.x1, m.x1), max(group.y1, m.y1))
        }
        guard boxSized(group, height: h) else { return nil }
        return (decide(ink, width: w, group: group, height: h), (group.x0 + group.x1) / 2)
    }

    /// An 8-bit grey copy of `clip`.
    static func gray(_ clip: LeptImage) -> GrayImage? {
        if clip.depth == 8, pixGetColormap(clip.pix) == nil { return GrayImage(pix8: clip.pix) }
        guard let converted = pixConvertTo8(clip.pix, 0) else { return nil }
        let owned = LeptImage(converted)
        return withExtendedLifetime(owned) { GrayImage(pix8: owned.pix) }
    }

    /// Bounds (x1, y1 exclusive) of the mark: the ink marks (8-connected) of some size, not cut
    /// by the strip's right edge (a letter of the option itself), taken from the rightmost one
    /// leftwards while the gap to the next is at most 1.2 letter heights (the space inside "[ ]").
    static func markBounds(_ ink: [Bool], width w: Int, height rows: Int, letterHeight h: Int)
        -> (x0: Int, y0: Int, x1: Int, y1: Int)? {
        var marks = components(ink, width: w, height: rows, letterHeight: h).filter { $0.x1 < w }
        marks.sort { $0.x1 > $1.x1 }
        guard var group = marks.first else { return nil }
        for m in marks.dropFirst() where 5 * (group.x0 - m.x1) <= 6 * h {
            group = (min(group.x0, m.x0), min(group.y0, m.y0), max(group.x1, m.x1), max(group.y1, m.y1))
        }
        return group
    }

    /// Bounds of the ink marks (8-connected) big enough to be part of a letter or a box: some
    /// area, and over a third of a letter high (not speckle, not a rule under the line).
    static func components(_ ink: [Bool], width w: Int, height rows: Int, letterHeight h: Int)
        -> [(x0: Int, y0: Int, x1: Int, y1: Int)] {
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
            if area >= minArea, 20 * (y1 - y0) >= 7 * h { marks.append((x0, y0, x1, y1)) }
        }
        return marks
    }
}
