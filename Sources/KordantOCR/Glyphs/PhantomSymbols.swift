/// Characters Tesseract's LSTM reads twice out of one glyph.
///
/// On a clean flatbed card, "L21G73757" in a bold monospace face reads "L21G673757": the model
/// reads the G, then its closing bar once more as a 6 (on faxes, shadows, photocopies and phone
/// photos alike). The second reading has no glyph of its own, and the character boxes the
/// recogniser reports show it: its box overlaps the box before it by half the narrower of the
/// two, the two together fit in the room of one character, and it ends where the next
/// character starts. Such a character is dropped from the word (see
/// `TesseractHandle.recognize`, which does so only in a word read under the review line). The
/// word keeps the confidence Tesseract gave it (lowered by the doubled reading), so a value
/// holding it stays in review. Tesseract's own renderings (hOCR, TSV, ALTO, the searchable
/// PDF's text layer) are left as it made them.
enum PhantomSymbols {
    /// Characters whose glyph is narrow anyway: a real "1" or "I" kerned under the character
    /// before it is not a second reading, and their widths say nothing of the face's pitch.
    static let narrow: Set<Character> = ["1", "I", "l", "i", "j", "|", "t", "f", "r", "J"]

    /// The word's text without its phantom characters, or nil when it has none.
    ///
    /// Only in a code of capitals and digits (a document, permit or licence number: a run of at
    /// least five such characters, two of them digits, in the word, which may hold its label
    /// too, "No.:L21G673757") whose other characters' boxes are as even as a code's characters
    /// print (each within 0.75–1.33× their median width): in words of lower-case letters the
    /// recogniser's boxes spread over their neighbours often ("Date" with an "a" inside its
    /// "D") and say nothing. One phantom per run at most.
    static func kept(_ symbols: [TesseractHandle.Symbol]) -> String? {
        guard symbols.count >= 5 else { return nil }
        func code(_ s: TesseractHandle.Symbol) -> Bool {
            s.text.count == 1 && s.text.first.map { ($0.isLetter && $0.isUppercase && $0.isASCII) || $0.isASCII && $0.isNumber } == true
        }
        var drop: [Int] = []
        var start = 0
        while start < symbols.count {
            guard code(symbols[start]) else { start += 1; continue }
            var end = start
            while end < symbols.count, code(symbols[end]) { end += 1 }
            if let i = phantom(in: symbols[start..<end]) { drop.append(i) }
            start = end
        }
        guard !drop.isEmpty else { return nil }
        return symbols.indices.filter { !drop.contains($0) }.map { symbols[$0].text }.joined()
    }

    /// The index of the one phantom in a run of capitals and digits, if it has one: a character
    /// that shares one character's room with the one before it (the two boxes together at most
    /// 1.3× the others' median width, overlapping by half the narrower at least).
    static func phantom(in run: ArraySlice<TesseractHandle.Symbol>) -> Int? {
        guard run.count >= 5, run.filter({ $0.text.first!.isNumber }).count >= 2 else { return nil }
        var found: Int?
        for i in run.indices.dropFirst() {
            let s = run[i], p = run[i - 1]
            guard !narrow.contains(s.text.first!), s.box.x > p.box.x, s.box.width > 0, p.box.width > 0 else { continue }
            let overlap = Double(min(p.box.x + p.box.width, s.box.x + s.box.width) - max(p.box.x, s.box.x))
            guard overlap >= 0.5 * Double(min(p.box.width, s.box.width)) else { continue }
            let others = run.indices.filter { $0 != i && $0 != i - 1 && !narrow.contains(run[$0].text.first!) }
                .map { Double(run[$0].box.width) }.sorted()
            guard others.count >= 3 else { return nil }
            let median = others[others.count / 2]
            guard median >= 4, others.first! >= 0.75 * median, others.last! <= 1.33 * median else { return nil }
            // The character before it has its whole room (a box cut short is the one misread:
            // "€C69G…" with its C squeezed between "€" and "6" is a C read twice, not a 6), and
            // the two together fit in it.
            guard Double(p.box.width) >= 0.75 * median, Double(p.box.union(s.box).width) <= 1.3 * median else { continue }
            // (It ends where the next one starts: squeezed between the two.)
            if i + 1 < run.endIndex, Double(run[i + 1].box.x) < Double(s.box.x + s.box.width) - 0.35 * Double(s.box.width) { continue }
            guard found == nil else { return nil }
            found = i
        }
        return found
    }

    /// `text` with the first whitespace-separated token equal to `read` replaced by `kept`.
    static func replaced(_ read: String, by kept: String, in text: String) -> String {
        var search = text.startIndex
        while let range = text.range(of: read, range: search..<text.endIndex) {
            let before = range.lowerBound == text.startIndex || text[text.index(before: range.lowerBound)].isWhitespace
            let after = range.upperBound == text.endIndex || text[range.upperBound].isWhitespace
            if before && after { return text.replacingCharacters(in: range, with: kept) }
            search = text.index(after: range.lowerBound)
        }
        return text
    }
}
