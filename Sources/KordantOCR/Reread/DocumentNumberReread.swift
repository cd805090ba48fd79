import Foundation

/// An identity document's number read poorly with the rest of the page, read again on its own.
///
/// Read in its line among labels, speckle and the card's pattern, a number gains or loses a
/// character ("X14G652114" for X14G52114 at confidence 27, "1L33A46102" for L33A46102 at 10);
/// read alone as one line of capitals and digits from the image as given, it mostly reads right
/// (on the documents of four dev sets whose numbers were read under 80, raw `tesseract --psm 7`
/// with those characters alone read 9 of 19 right, where the page's reading had none). The
/// reading taken stays in review: it is a second opinion, not a certainty.
/// On four dev sets (192 identity pages), taken whenever it differed it righted 10 numbers and
/// wronged 12, 8 of them by a leading letter dropped; taken only with as many letters as the
/// first reading, it rights 7 and wrongs 1.
enum DocumentNumberReread {
    /// A number read under this confidence is read again.
    static let poor = 80.0
    /// The characters a document number is printed in.
    static let alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
}

extension OCRWorker {
    /// `fields` with a poorly read `document_number` read again from its box in `image` (the
    /// image as given, in whose pixels the box is): taken, in review, when it reads as a
    /// document number otherwise than the first reading did.
    func documentNumberReread(_ fields: [String: Field], image: LeptImage) throws(OCRError) -> [String: Field] {
        guard let f = fields["document_number"], f.confidence < DocumentNumberReread.poor, let box = f.box,
              box.width > 0, box.height > 0, let first = f.value.string else { return fields }
        // Half a letter's height around it, inside the image.
        let pad = max(4, box.height / 2)
        let x = max(0, box.x - pad), y = max(0, box.y - pad)
        let region = BoundingBox(x: x, y: y, width: min(image.width, box.x + box.width + pad) - x,
                                 height: min(image.height, box.y + box.height + pad) - y)
        guard region.width > 0, region.height > 0 else { return fields }
        // (At the resolution the image states, else Tesseract's own estimate for the region.)
        let stated = (70...1200).contains(image.resolution) ? image.resolution : 0
        let read = try text.recognize(image, resolution: stated, mode: .singleLine, rectangle: region, whitelist: DocumentNumberReread.alphabet)
        guard !read.words.isEmpty, case let joined = read.words.map(\.text).joined(),
              let again = FieldExtractor.documentNumber(joined)?.string, again != first,
              // Read alone, a number's leading letter is often dropped or read as a digit
              // ("8924617" for S8924617, "71855325" for T1855325), where the page had it right:
              // a reading with fewer letters than the first is not taken.
              again.filter(\.isLetter).count >= first.filter(\.isLetter).count else { return fields }
        // (Tesseract gives a reading restricted to some characters no useful confidence, 0 for a
        // number read right: the field keeps the first reading's, and its review.)
        var out = fields
        out["document_number"] = Field(value: .text(again), confidence: f.confidence, box: box, needsReview: true)
        return out
    }
}
