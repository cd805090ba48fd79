import Foundation

/// A name of one letter ("O", a Korean surname) read as two: Tesseract's line reader doubles a
/// glyph standing alone ("OO", "oO") or reads it as a digit ("0"), which the name's validator
/// then drops. A word no wider than one capital holds one letter, and read on its own (as one
/// character) it comes back as that letter.
enum LoneGlyph {
    /// The name fields of an identity page, whose values are printed in capitals.
    static let fields = ["surname", "given_names"]

    /// Whether `word` is read as more than one character, or as a digit, in a box no wider than
    /// one capital letter of its height (a capital's width is at most about its height).
    static func doubled(_ word: Word) -> Bool {
        let t = word.text
        guard capitalWide(word), !t.contains(" ") else { return false }
        return t.count >= 2 || t.first?.isNumber == true
    }

    /// Whether `word`'s box is no wider than one capital letter of its height (a capital's width
    /// is at most about its height), and tall enough to be a letter.
    static func capitalWide(_ word: Word) -> Bool {
        word.box.height >= 8 && word.box.width * 10 <= word.box.height * 11
    }

    /// The letter `glyph` (Tesseract's reading of one character) stands for in a name: a capital,
    /// or a 0 read for an O. Nil otherwise.
    static func letter(_ glyph: String) -> String? {
        guard glyph.count == 1, let c = glyph.first else { return nil }
        if c == "0" { return "O" }
        return c.isLetter && c.isUppercase ? glyph : nil
    }
}

extension OCRWorker {
    /// The name fields of an identity page (`fields`, read from `page` on `image`) whose value
    /// is one glyph read as two ("OO") or dropped for it ("oO", "0"), read again as one
    /// character: the letter, for review. Empty when there is none.
    func loneGlyphNames(_ page: PageText, fields: [String: Field], image: LeptImage, resolution: Int) throws(OCRError) -> [String: Field] {
        var candidates: [(name: String, word: Word)] = []
        var rejected: [String: [Word]]?
        for name in LoneGlyph.fields {
            if let f = fields[name] {
                // The one word it was read from (its box turned level and back: a pixel off).
                guard let v = f.value.string, v.count >= 2, !v.contains(" "), let box = f.box,
                      let w = page.words.first(where: { $0.text.uppercased() == v && abs($0.box.x - box.x) <= 3 && abs($0.box.y - box.y) <= 3 }),
                      LoneGlyph.doubled(w) else { continue }
                candidates.append((name, w))
            } else {
                if rejected == nil { rejected = RejectedValues.words(on: page, kind: .id).rejected }
                guard let words = rejected?[name], words.count == 1,
                      let range = RejectedValues.range(of: words, in: page), case let w = page.words[range.lowerBound], LoneGlyph.doubled(w)
                else { continue }
                candidates.append((name, w))
            }
        }
        var found: [String: Field] = [:]
        for (name, w) in candidates {
            let region = LabelledPage.within(w.box.padded(max(2, w.box.height / 4)), width: image.width, height: image.height)
            guard region.width > 0, region.height > 0 else { continue }
            let read = try text.recognize(image, resolution: resolution, mode: .singleCharacter, rectangle: region)
            guard let glyph = read.words.first, let letter = LoneGlyph.letter(glyph.text) else { continue }
            found[name] = Field(value: .text(letter), confidence: min(glyph.confidence, RejectedValues.cap), box: w.box, needsReview: true)
        }
        return found
    }
}
