import Foundation

extension FieldExtractor {
    /// Structured values Tesseract may split inside: a word read under the value's last one is
    /// the rest of it (or a character of it misread as a mark).
    static let cutShortFields: [String: Validator] = [
        "listing_url": url, "request_id": reference, "parcel_number": parcel, "instrument_number": instrument,
        "document_number": documentNumber,
    ]

    /// The share of a page's width within which a value ending at its right edge may run off it.
    static let pageEdgeShare = 0.03

    /// Values of a page whose box ends within ``pageEdgeShare`` of the image's right edge go to
    /// review: what the paper held past the edge is not known ("Request ID CASE-181" ending 50 px
    /// from the edge of a fax 1822 px wide; its last three digits never reached it). Not a card's:
    /// a card may be photographed cropped close. Boxes on the page as read.
    static func atPageEdge(_ fields: inout [String: Field], width: Int) {
        for (name, f) in fields {
            if let b = f.box, Double(width - (b.x + b.width)) < pageEdgeShare * Double(width) { fields[name]?.needsReview = true }
        }
    }

    /// Values whose last word is overlapped by the next word read on its line. Tesseract cut the
    /// value there: a slanted line's URL read as "…/2051" with its last digit "2." a word of its
    /// own inside the URL's box, or "OPT-87968" with its last digit read as "/"; words on a line
    /// seldom overlap otherwise. Letters and digits that continue the value are joined to it
    /// when it still passes its validator; either way the value goes to review, as it is a guess
    /// where the cut was.
    static func cutShort(_ fields: inout [String: Field], lines: [TextLine]) {
        for (name, field) in fields {
            guard let validate = cutShortFields[name], let box = field.box, let value = field.value.string else { continue }
            let valueKey = PageLayout.key(value)
            for line in lines {
                // The value's last word: inside its box, ending where the box ends, closing its text.
                guard let i = line.words.lastIndex(where: { w in
                    w.box.x >= box.x - 1 && w.box.y >= box.y - 1 && w.box.x + w.box.width <= box.x + box.width + 1
                        && w.box.y + w.box.height <= box.y + box.height + 1 && box.x + box.width - (w.box.x + w.box.width) <= 3
                        && !PageLayout.key(w.text).isEmpty && valueKey.hasSuffix(PageLayout.key(w.text))
                }), i + 1 < line.words.count else { continue }
                let last = line.words[i], next = line.words[i + 1]
                guard next.box.x < last.box.x + last.box.width else { continue }
                var f = field
                f.needsReview = true
                let rest = next.text.trimmingCharacters(in: CharacterSet(charactersIn: ".,;:)]}\"'’”"))
                // (Letters after letters, digits after digits, either after a path's "/" or "-".)
                if !rest.isEmpty, rest.allSatisfy({ $0.isLetter || $0.isNumber }),
                   value.last.map({ "/-".contains($0) }) == true || value.last?.isNumber == rest.first?.isNumber,
                   let joined = validate(value + rest) {
                    f.value = joined
                    f.box = box.union(next.box)
                }
                fields[name] = f
                break
            }
        }
    }
}
