import Foundation

/// Words of ordinary height read very poorly: read again on their own as one line, Tesseract
/// often reads them well ("Tracking", the first line of a label cell, read as `ae` at confidence
/// 10 with the page and as "Tracking" alone). A reading that differs from the first is one more
/// opinion, not the truth: its words keep a confidence under 60, so a value made of them goes to
/// review, while a label read again still finds its value.
enum PoorWords {
    /// A word is read again when read under this confidence …
    static let poor = 40.0
    /// … and the reading is taken when every word of it is read this well.
    static let clear = 80.0
    /// The confidence a word read again differently keeps at most.
    static let cap = 59.0
    /// At most this many words of a page are read again (the poorest first): a page with more is
    /// a poor page, which the second readings serve.
    static let most = 12

    /// The highest confidence a word read `first` and then `again` keeps: any, when read the same
    /// to the letter and mark (the second reading confirms the first); ``cap`` when read
    /// otherwise; nil (the first reading stays) when only marks differ, of which the second
    /// reading says no more than the first ("signe." read again as "signe": a mailbox's dot), or
    /// when it reads fewer letters and digits ("https://www." read again as "https").
    static func cap(first: String, again: String) -> Double? {
        if again == first { return 100 }
        let (a, f) = (PageLayout.key(again), PageLayout.key(first))
        return a == f || a.count < f.count ? nil : cap
    }

    /// The poor words of `page` (indices, poorest first), each with the region to read again: its
    /// box with a quarter of a letter height around it. Words of two letters or digits or more,
    /// of a typical word's height (a taller one is a ``TallWords`` smudge) and at least one high;
    /// or set small and long, whatever they were read as.
    static func words(_ page: PageText) -> [(index: Int, region: BoundingBox)] {
        let heights = page.words.filter(OCRWorker.isClear).map(\.box.height)
        guard heights.count >= 5 else { return [] }
        let h = PageLayout.median(heights)
        guard h >= 4 else { return [] }
        let pad = max(2, h / 4)
        let poorest = page.words.indices.filter { i in
            let w = page.words[i]
            guard w.confidence < poor, Double(w.box.height) < TallWords.tallness * Double(h), w.box.width >= h else { return false }
            // Or print set small, a third to three fifths of the usual word height, at least four times
            // as wide as high, whatever it was read as: a long value shrunk to fit the end of its
            // line ("Phone Number:" then "440-727-4608" read as quote marks at confidence 0; read
            // alone, whole).
            let height = Double(w.box.height)
            return height >= 0.6 * Double(h) ? w.text.filter({ $0.isLetter || $0.isNumber }).count >= 2
                : height >= Double(h) / 3 && w.box.width >= 4 * w.box.height
        }.sorted { page.words[$0].confidence < page.words[$1].confidence }.prefix(most)
        return poorest.map { i in
            let b = page.words[i].box
            return (i, LabelledPage.within(b.padded(pad),
                                           width: page.width, height: page.height))
        }
    }
}

extension OCRWorker {
    /// `page` (read from `image`) with each of its ``PoorWords`` read again as one line and
    /// replaced where that reading is clear; a word read as before keeps the new confidence.
    func poorWordsReread(_ page: PageText, image: LeptImage, resolution: Int) throws(OCRError) -> PageText {
        // Last first: a replacement changes the indices after it.
        let poor = PoorWords.words(page).sorted { $0.index > $1.index }
        guard !poor.isEmpty else { return page }
        var out = page
        let nextBlock = (page.words.map(\.block).max() ?? 0) + 1
        for (index, region) in poor where region.width > 0 && region.height > 0 {
            let read = try text.recognize(image, resolution: resolution, mode: .singleLine, rectangle: region)
            // Every word beside it is guarded: one read poorly is still there.
            if let cap = PoorWords.cap(first: out.words[index].text, again: read.words.map(\.text).joined(separator: " ")),
               let mended = TallWords.replaced(out, range: index..<(index + 1), by: read.words, nextBlock: nextBlock,
                                               least: PoorWords.clear, cap: cap, guarding: true) {
                out = mended
            }
        }
        return out
    }
}
