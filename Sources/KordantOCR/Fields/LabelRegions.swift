import Foundation

/// Where the value of a label that was read without one may be: the empty space below it (a
/// card's stacked label and value) and beside it. Tesseract's page layout drops a short value it
/// cannot place — a bold surname next to a photo's dark frame, a three-letter nationality alone
/// in its column — in both the automatic and the sparse reading; read again on its own as one
/// line, it reads cleanly (dev split of the document corpus: `BAKKER`, `NLD` beside the photo of a
/// card in shadow).
extension LabelledPage {
    /// For each label of `fields` with nothing read after it in its phrase: the regions to read
    /// again, most likely first. A region holding a word read clearly (confidence 60 or more:
    /// another label, another column's value) is left out: that word is what is there, and it is
    /// not this value; a word read worse is the value misread, and the region is read again.
    func emptyValueRegions(for fields: Set<String>, words: [Word], width: Int, height: Int) -> [(field: String, regions: [BoundingBox])] {
        var out: [(field: String, regions: [BoundingBox])] = []
        var seen: Set<String> = []
        for (r, row) in layout.rows.enumerated() {
            for (s, segment) in row.segments.enumerated() {
                let segHits = hits[r][s]
                for (i, hit) in segHits.enumerated() {
                    guard let field = hit.field, fields.contains(field), !seen.contains(field) else { continue }
                    // Words after the label in its phrase are its value: not empty, unless every one
                    // was read too poorly to stand ("Nationality: NT,D" at confidence 22), and then
                    // it is read again like an empty one.
                    let next = i + 1 < segHits.count ? segHits[i + 1].start : segment.words.count
                    guard hit.end == next || segment.words[hit.end..<next].allSatisfy({ $0.confidence < 60 }) else { continue }
                    let h = max(8, row.height)
                    // The next column on the label's row bounds both regions on the right.
                    let right = i + 1 < segHits.count ? segHits[i + 1].box.x - h
                        : s + 1 < row.segments.count ? row.segments[s + 1].box.x - h : width
                    let box = hit.box
                    let below = BoundingBox(x: box.x - h / 2, y: box.y + box.height + h / 5,
                                            width: right - (box.x - h / 2), height: 2 * h + h / 2)
                    let beside = BoundingBox(x: box.x + box.width + h / 3, y: box.y - h / 2,
                                             width: min(right, box.x + box.width + 16 * h) - (box.x + box.width + h / 3), height: 2 * h)
                    // A label with a colon is followed by its value; one without stands above it.
                    let order = hit.colon ? [beside, below] : [below, beside]
                    let regions = order.compactMap { region -> BoundingBox? in
                        var r = Self.within(region, width: width, height: height)
                        // Words read clearly in the region's band well right of the label belong to
                        // another column (the label rows of two columns need not line up): the region
                        // ends before the first of them.
                        let others = words.filter { w in
                            w.confidence >= 60 && !PageLayout.key(w.text).isEmpty && w.box.y < r.y + r.height
                                && w.box.y + w.box.height > r.y && w.box.x >= box.x + box.width + h
                        }
                        if let edge = others.map(\.box.x).min(), edge - h / 3 < r.x + r.width { r.width = edge - h / 3 - r.x }
                        // Likewise words read clearly below the label's line (the next label of a
                        // tight stack, under the value): the region ends above the first of them.
                        r = Self.endedAbove(r, words: words.filter { $0.confidence >= 60 && !PageLayout.key($0.text).isEmpty },
                                            from: box.y + box.height + h / 3, height: h)
                        // What is left must be empty but for words read too poorly to stand (a value
                        // misread at confidence under 60 is read again).
                        guard r.width >= 2 * h, r.height >= h,
                              !words.contains(where: { $0.confidence >= 60 && !PageLayout.key($0.text).isEmpty && $0.box.intersects(r) })
                        else { return nil }
                        return r
                    }
                    if !regions.isEmpty {
                        out.append((field, regions))
                        seen.insert(field)
                    }
                }
            }
        }
        return out
    }

    /// `region` ended a sixth of a line height (`height`) above the highest of `words` that starts
    /// inside it at `from` or lower and shares its width: the next label of a tight stack, under
    /// the value sought. Unchanged when there is none.
    static func endedAbove(_ region: BoundingBox, words: [Word], from: Int, height h: Int) -> BoundingBox {
        guard let top = words.filter({ w in
            w.box.y >= from && w.box.y < region.y + region.height && w.box.x < region.x + region.width && w.box.x + w.box.width > region.x
        }).map(\.box.y).min() else { return region }
        var r = region
        r.height = top - h / 6 - r.y
        return r
    }

    /// `box` cut to the image.
    static func within(_ box: BoundingBox, width: Int, height: Int) -> BoundingBox {
        let x0 = max(0, box.x), y0 = max(0, box.y)
        return BoundingBox(x: x0, y: y0, width: max(0, min(width, box.x + box.width) - x0), height: max(0, min(height, box.y + box.height) - y0))
    }
}
