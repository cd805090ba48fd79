import Foundation

/// Print Tesseract's page layout took for a picture and so did not read: a receipt's faint
/// thermal print beside a pen mark ("Tax Summary … SR GST 6% 324.50 … Thank you" dropped as one
/// picture block, which raw `tesseract` on the page as loaded reads). A picture block that holds
/// none of the page's words is read again on its own as one block, and its lines that read as
/// text are put in the page where the block stands.
enum PictureText {
    /// A line read again is kept when its words' mean confidence is at least this …
    static let lineMean = TallWords.poor
    /// … and one of its words of two letters or digits or more is read at least this well: a
    /// photo or a signature read as text is a few short words of low confidence.
    static let wordClear = TallWords.clear

    /// The pictures of `page` worth reading again, each with the region to read (its box with a
    /// third of a letter height around it): at least a letter height high and two wide, at most
    /// half the page, and holding no word's centre (a picture behind the text, such as a whole
    /// page taken for one, is not read twice).
    static func candidates(_ page: PageText) -> [(picture: PageText.Picture, region: BoundingBox)] {
        guard !page.pictures.isEmpty, page.words.count >= 3 else { return [] }
        let h = PageLayout.median(page.words.map(\.box.height))
        guard h >= 4 else { return [] }
        let pad = max(2, h / 3)
        return page.pictures.compactMap { p in
            let b = p.box
            guard b.height >= h, b.width >= 2 * h, b.width * b.height * 2 <= page.width * page.height,
                  !page.words.contains(where: { w in
                      let cx = w.box.x + w.box.width / 2, cy = w.box.y + w.box.height / 2
                      return cx >= b.x && cx < b.x + b.width && cy >= b.y && cy < b.y + b.height
                  }) else { return nil }
            let region = LabelledPage.within(BoundingBox(x: b.x - pad, y: b.y - pad, width: b.width + 2 * pad, height: b.height + 2 * pad),
                                             width: page.width, height: page.height)
            return region.width > 0 && region.height > 0 ? (p, region) : nil
        }
    }

    /// The lines of `read` (a picture's region read as one block) that read as text, in order.
    static func lines(_ read: [Word]) -> [[Word]] {
        var lines: [[Word]] = []
        var key: [Int]?
        for w in read where !w.text.trimmingCharacters(in: .whitespaces).isEmpty {
            let k = [w.block, w.paragraph, w.line]
            if k != key { lines.append([]); key = k }
            lines[lines.count - 1].append(w)
        }
        return lines.filter { line in
            line.reduce(0) { $0 + $1.confidence } / Double(line.count) >= lineMean
                && line.contains { $0.confidence >= wordClear && $0.text.filter { $0.isLetter || $0.isNumber }.count >= 2 }
        }
    }

    /// `page` with `lines` (read again in `picture`) as the picture's block: its words numbered
    /// in the picture's block, before the words of the blocks after it, and its text at the
    /// picture's place in the page's text. The mean confidence stays Tesseract's, the quality
    /// signal earlier steps chose the reading by.
    static func added(_ lines: [[Word]], in picture: PageText.Picture, to page: PageText) -> PageText {
        guard !lines.isEmpty else { return page }
        var out = page
        let words = lines.enumerated().flatMap { n, line in
            line.enumerated().map { i, w in
                var w = w
                (w.block, w.paragraph, w.line, w.word) = (picture.block, 1, n + 1, i + 1)
                return w
            }
        }
        let at = out.words.firstIndex { $0.block > picture.block } ?? out.words.endIndex
        out.words.insert(contentsOf: words, at: at)
        let text = lines.map { $0.map(\.text).joined(separator: " ") }.joined(separator: "\n") + "\n\n"
        let offset = min(max(0, picture.offset), out.text.count)
        out.text.insert(contentsOf: text, at: out.text.index(out.text.startIndex, offsetBy: offset))
        return out
    }
}

extension OCRWorker {
    /// `page` (read from `image`) with the print in its pictures (``PictureText``) read and added.
    func picturesReread(_ page: PageText, image: LeptImage, resolution: Int) throws(OCRError) -> PageText {
        // Last first: a picture's text goes in at its offset, which the pictures after it follow.
        var out = page
        for (picture, region) in PictureText.candidates(page).sorted(by: { $0.picture.offset > $1.picture.offset }) {
            let read = try text.recognize(image, resolution: resolution, mode: .singleBlock, rectangle: region)
            out = PictureText.added(PictureText.lines(read.words), in: picture, to: out)
        }
        out.pictures = []
        return out
    }
}
