import Foundation

/// Words Tesseract's page layout read as one tall smudge: a table's label cell wrapped onto two
/// lines beside a value on one ("Tracking" over "number" read as `ee` at confidence 33, "Link to"
/// over "profile" as `rafile`), or a word caught up with a stamp beside it ("September" read as
/// `>` in a box five lines high). Read again on their own as one block, they read as what is
/// printed there (dev web forms: every such label cell of seeds 1–2).
enum TallWords {
    /// A word is a smudge when read under this confidence …
    static let poor = 50.0
    /// … in a box this many times the page's typical word height or more.
    static let tallness = 1.7
    /// A block read again replaces the smudge only when every word it keeps is read this well.
    static let clear = 60.0

    /// A region to read again in place of the words at `range`, read in `mode`.
    struct Region {
        var range: Range<Int>
        var box: BoundingBox
        var mode: PageSegmentation
    }

    /// The smudges of `page`, each as the regions to read again in place of some of its words,
    /// most likely first, in the page's pixels:
    /// - the words' box with a third of a letter height around it, read as one block. A smudge
    ///   takes in the words after it on its line that stand within its height, each within two
    ///   letter heights of the last ("address" after "Email" over "on file", read as `ema`): the
    ///   rest of its cell;
    /// - on a line with words read clearly, the widest gap between them (or the line's ends) that
    ///   the smudge's box runs into, the line's height high, read as one line: a smudge whose box
    ///   Tesseract put beside the word it lost ("14 September 1965" read as "14 —_ 1965", the `—_`
    ///   over the "14" and a stamp below).
    static func smudges(_ page: PageText) -> [[Region]] {
        let heights = page.words.filter(OCRWorker.isClear).map(\.box.height)
        guard heights.count >= 5 else { return [] }
        let h = PageLayout.median(heights)
        guard h >= 4 else { return [] }
        let pad = max(2, h / 3)
        func within(_ b: BoundingBox, across: Int) -> BoundingBox {
            LabelledPage.within(BoundingBox(x: b.x - across, y: b.y - pad, width: b.width + 2 * across, height: b.height + 2 * pad),
                                width: page.width, height: page.height)
        }
        var out: [[Region]] = []
        var i = 0
        while i < page.words.count {
            let w = page.words[i]
            guard w.confidence < poor, Double(w.box.height) >= tallness * Double(h), w.box.width >= h else {
                i += 1
                continue
            }
            var box = w.box, end = i + 1
            while end < page.words.count, case let n = page.words[end],
                  [n.block, n.paragraph, n.line] == [w.block, w.paragraph, w.line],
                  n.box.x - (box.x + box.width) <= 2 * h, n.box.y >= w.box.y - pad, n.box.y + n.box.height <= w.box.y + w.box.height + pad {
                box = box.union(n.box)
                end += 1
            }
            var regions = [Region(range: i..<end, box: within(box, across: pad), mode: .singleBlock)]
            let line = page.words.filter { [$0.block, $0.paragraph, $0.line] == [w.block, w.paragraph, w.line] && OCRWorker.isClear($0) }
                .sorted { $0.box.x < $1.box.x }
            if !line.isEmpty {
                let top = line.map(\.box.y).min()!, bottom = line.map { $0.box.y + $0.box.height }.max()!
                let edges = [w.box.x] + line.flatMap { [$0.box.x, $0.box.x + $0.box.width] } + [w.box.x + w.box.width]
                let gaps = stride(from: 0, to: edges.count, by: 2).map { (edges[$0], edges[$0 + 1]) }
                    .filter { $0.1 - $0.0 >= h && $0.0 < w.box.x + w.box.width && $0.1 > w.box.x }
                if let gap = gaps.max(by: { $0.1 - $0.0 < $1.1 - $1.0 }) {
                    // No room taken across (the gap's ends are words read clearly); in place of
                    // the smudge alone (the words it took in are outside the gap).
                    let box = BoundingBox(x: gap.0, y: top, width: gap.1 - gap.0, height: bottom - top)
                    regions.append(Region(range: i..<(i + 1), box: within(box, across: 0), mode: .singleLine))
                }
            }
            out.append(regions)
            i = end
        }
        return out
    }

    /// `page` with the smudge at `range` replaced by `read` (the words of its region read again),
    /// or nil when that reading is no better: no word in it, or one read under `least`, or one
    /// running into a word read clearly beside the smudge. A reading of one line takes the
    /// smudge's place in its line; one of several lines becomes lines of its own (block numbers
    /// past the page's), which the layout rules put on their rows by their boxes. The page's text
    /// has the smudge's line mended the same way, when that line is found in it; its mean
    /// confidence stays Tesseract's (the quality signal later steps go by). `least`: the
    /// confidence every word read again must have; `cap`: the highest one it keeps; `all`: every
    /// word beside the smudge is guarded, not only those read clearly.
    static func replaced(_ page: PageText, range: Range<Int>, by read: [Word], nextBlock: Int, least: Double = clear,
                         cap: Double = 100, guarding all: Bool = false) -> PageText? {
        let smudge = page.words[range.lowerBound]
        let others = page.words.enumerated().filter { !range.contains($0.offset) }.map(\.element)
        let neighbours = all ? others : others.filter(OCRWorker.isClear)
        // A word read again over a neighbour read as the same is that neighbour ("14" inside the
        // box of "14 September" read as `>`; "7212" under a web address read again as two lines
        // with it): not taken twice.
        let kept = read.filter { k in
            !PageLayout.key(k.text).isEmpty
                && !others.contains { $0.box.intersects(k.box) && PageLayout.key($0.text) == PageLayout.key(k.text) }
        }
        guard !kept.isEmpty, kept.allSatisfy({ $0.confidence >= least }),
              !kept.contains(where: { k in neighbours.contains { $0.box.intersects(k.box) } }) else { return nil }
        let lines = Dictionary(grouping: kept) { [$0.block, $0.paragraph, $0.line] }
        var words: [Word]
        if lines.count == 1 {
            words = kept.enumerated().map { n, w in
                var w = w
                (w.block, w.paragraph, w.line, w.word) = (smudge.block, smudge.paragraph, smudge.line, smudge.word + n)
                w.confidence = min(w.confidence, cap)
                return w
            }
        } else {
            let order = lines.keys.sorted { a, b in a.lexicographicallyPrecedes(b) }
            words = kept.map { w in
                var n = w
                (n.block, n.paragraph) = (nextBlock, 1)
                n.line = 1 + (order.firstIndex(of: [w.block, w.paragraph, w.line]) ?? 0)
                n.confidence = min(n.confidence, cap)
                return n
            }
        }
        var out = page
        out.words.replaceSubrange(range, with: words)
        out.text = mendedText(page, range: range, with: words.map(\.text).joined(separator: " ")) ?? page.text
        return out
    }

    /// The page's text with the words at `range` (on one line) replaced by `replacement`, on the
    /// one line of the text where they stand in a row; where several do, on the line the words'
    /// own line is in order (the text's non-empty lines follow Tesseract's lines, until a smudge
    /// read on two lines took one line of the text). Nil when not found.
    static func mendedText(_ page: PageText, range: Range<Int>, with replacement: String) -> String? {
        let smudge = page.words[range].map(\.text)
        var lines = page.text.components(separatedBy: "\n")
        func at(_ line: String) -> Int? {
            let tokens = line.components(separatedBy: " ")
            return tokens.indices.first { tokens[$0...].starts(with: smudge) }
        }
        var found = lines.indices.filter { at(lines[$0]) != nil }
        if found.count > 1 {
            // Which of the page's lines (in reading order) holds the smudge.
            var lineNumber = -1, key: [Int]?
            for w in page.words[...range.lowerBound] {
                let k = [w.block, w.paragraph, w.line]
                if k != key { lineNumber += 1; key = k }
            }
            let nonEmpty = lines.indices.filter { !lines[$0].trimmingCharacters(in: .whitespaces).isEmpty }
            found = lineNumber < nonEmpty.count && found.contains(nonEmpty[lineNumber]) ? [nonEmpty[lineNumber]] : []
        }
        guard found.count == 1, let i = found.first, let start = at(lines[i]) else { return nil }
        var tokens = lines[i].components(separatedBy: " ")
        tokens.replaceSubrange(start..<(start + smudge.count), with: [replacement])
        lines[i] = tokens.joined(separator: " ")
        return lines.joined(separator: "\n")
    }
}

extension OCRWorker {
    /// `page` (read from `image`) with each of its `smudges` (``TallWords/smudges(_:)``) read
    /// again and replaced by the first of its regions that reads clearly.
    func tallWordsReread(_ page: PageText, smudges: [[TallWords.Region]], image: LeptImage, resolution: Int) throws(OCRError) -> PageText {
        guard !smudges.isEmpty else { return page }
        var out = page
        var nextBlock = (page.words.map(\.block).max() ?? 0) + 1
        // Last first: a replacement changes the indices after it.
        for regions in smudges.reversed() {
            for region in regions where region.box.width > 0 && region.box.height > 0 {
                let read = try text.recognize(image, resolution: resolution, mode: region.mode, rectangle: region.box)
                if let mended = TallWords.replaced(out, range: region.range, by: read.words, nextBlock: nextBlock) {
                    out = mended
                    nextBlock += 1
                    break
                }
            }
        }
        return out
    }
}
