/// The order a page's text blocks are read in.
///
/// Tesseract orders its blocks by its column analysis, which now and then puts a block before
/// one printed above it in the same column: a form's table (cells boxed in rules) after the
/// list of tick boxes printed under it, a deed's header after its body. The page's text then
/// reads out of order (on a photocopied form, text-line error 0.70 for 0.04 with the blocks in
/// the order printed). Only that is undone: a block goes after every block printed wholly
/// above it that it shares some width with; otherwise Tesseract's order stands, so columns
/// side by side (which share no width) keep theirs.
enum ReadingOrder {
    /// Tesseract's blocks are not reordered past this many (the search is cubic in them; a
    /// page has tens).
    static let maxBlocks = 300

    /// The blocks' indices in reading order, given their boxes in Tesseract's order.
    static func order(_ boxes: [BoundingBox]) -> [Int] {
        guard boxes.count > 1, boxes.count <= maxBlocks else { return Array(boxes.indices) }
        func above(_ a: BoundingBox, _ b: BoundingBox) -> Bool {
            a.y + a.height <= b.y && min(a.x + a.width, b.x + b.width) > max(a.x, b.x)
        }
        var left = Array(boxes.indices), out: [Int] = []
        out.reserveCapacity(boxes.count)
        while !left.isEmpty {
            // The first block (in Tesseract's order) with nothing left above it; every cycle is
            // broken by geometry (above is a strict order), so one always exists.
            let k = left.firstIndex { i in !left.contains { j in j != i && above(boxes[j], boxes[i]) } } ?? 0
            out.append(left.remove(at: k))
        }
        return out
    }
}
