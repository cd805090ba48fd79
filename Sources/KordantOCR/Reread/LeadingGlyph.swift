import Foundation

/// A document number's first letter read as a digit of its shape ("74968910" for Z4968910 in a
/// bold serif, "03955597" for D3955597 on a fax) or lost before its digits ("8870947" for
/// V8870947): Tesseract reads the number's first glyph well on its own, without the digits after
/// it pulling the reading their way. A number mended so goes to review, read surely or not (two
/// readings of one glyph disagree); a letter is put back before a number only when the number was
/// for review already (read surely, a 9-digit number's first glyph read alone took in the end of
/// its label: "N880574879", "A768854870" on the dev sets). On seven dev sets (crops of the input image, raw
/// `tesseract`), of 50 numbers for review whose first digit was right, every one read that digit
/// again alone; of 51 read surely and right, one did not (a "2" read as "Z", now for review), and
/// of 4 read surely and wrong, one was mended (benchmarks/README.md, session 60).
enum LeadingGlyph {
    /// Letters a digit of the same shape stands for. (Not I for 1, nor O for 0: a 1 alone reads
    /// as I, a 0 as O.)
    static let lookAlikes: [Character: String] = ["7": "ZT", "0": "D", "1": "LT", "2": "Z", "5": "S", "8": "B", "6": "G", "4": "A"]
    /// Capitals a digit alone is read as, which tell nothing of a letter before it.
    static let readAlone: [Character: String] = ["0": "OQ", "1": "I"]

    /// `value` with its first glyph as read alone (`glyph`, Tesseract's reading of one
    /// character): its digit replaced by the letter of its shape read there, or, with
    /// `lostLetter`, a number of digits only the capital letter read before it put back, as long
    /// as the number stays within the 9 characters of a travel document's number. Nil otherwise.
    static func mended(_ value: String, glyph: String, lostLetter: Bool = true) -> String? {
        guard let digit = value.first, digit.isNumber, let read = glyph.first, read.isLetter, read.isASCII else { return nil }
        let letter = Character(read.uppercased())
        // (A small letter only where it has its capital's shape: a 1 alone reads as "l" too.)
        if lookAlikes[digit]?.contains(letter) == true, read.isUppercase || "sz".contains(read) {
            return String(letter) + value.dropFirst()
        }
        // Another letter, read as a capital: the number's own first letter, which the reading of
        // the whole dropped.
        guard lostLetter, read.isUppercase, readAlone[digit]?.contains(letter) != true, lookAlikes[digit]?.contains(letter) != true,
              value.allSatisfy(\.isNumber), (5...8).contains(value.count) else { return nil }
        return String(letter) + value
    }
}

extension OCRWorker {
    /// A document number whose first character is a digit, with its first glyph read again alone
    /// (on `image`, where its box is) and mended by ``LeadingGlyph/mended(_:glyph:)``, for review;
    /// nil when that reading changes nothing.
    func leadingGlyphRead(_ field: Field, image: LeptImage, resolution: Int) throws(OCRError) -> Field? {
        guard let value = field.value.string, value.first?.isNumber == true, let box = field.box,
              box.height >= 4 else { return nil }
        // One glyph's width: the number's, shared among its characters.
        let glyph = box.width / value.count
        let pad = max(2, box.height / 4)
        let region = LabelledPage.within(BoundingBox(x: box.x - pad, y: box.y - pad, width: glyph + pad, height: box.height + 2 * pad),
                                         width: image.width, height: image.height)
        guard region.width > 0, region.height > 0 else { return nil }
        let read = try text.recognize(image, resolution: resolution, mode: .singleCharacter, rectangle: region)
        guard let mended = LeadingGlyph.mended(value, glyph: read.words.first?.text ?? "", lostLetter: field.needsReview),
              let number = FieldExtractor.documentNumber(mended) else { return nil }
        var f = field
        f.value = number
        f.needsReview = true
        return f
    }
}
