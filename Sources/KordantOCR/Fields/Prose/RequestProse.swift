import Foundation

/// An opt-out request written as a letter or an e-mail says who is asking in sentences, not in
/// labelled fields: "My name is Ana Lima and I was born on March 3, 1980. I live at 12 Oak Street,
/// Austin, TX 78701. You can reach me at (512) 555-0147." Each phrase is read only where a labelled
/// field gave nothing, from the page's running text (Tesseract paragraphs, so a sentence wrapped
/// over two lines is whole), and each value must pass its field's validator.
extension FieldExtractor {
    /// A person's name in a sentence: capitalised words and the particles names carry, up to where
    /// the clause ends (a mark, "and", "I", the line's end), so that a name is never taken cut short.
    /// A particle is any short word in small letters here ("ter", "do", "'t"); the name's
    /// validator keeps only the particles names carry. (Listed, they made the pattern 310 UTF-16
    /// units long, and swift-corelibs-foundation 6.3.1 then leaked a copy of it, 620 bytes, in every
    /// process that read a letter, under LeakSanitizer; at 220 units it did not.)
    static let proseName = #"([A-Z][\p{L}'’‘ʻ.-]+(?: (?:[A-Z][\p{L}'’‘ʻ.-]+|(?!(?:and|who)\b)\p{Ll}{1,5}|['’]t)){1,8})(?=[.,;]|\s+(?:(?:and|who|I)\b|\|)|\s*$)"#
    /// A date as letters write it.
    static let proseDate = #"((?:[A-Z][a-z]{2,8}\.? [0-9]{1,2}(?:st|nd|rd|th)?,? [0-9]{4})|(?:[0-9]{1,2} [A-Z][a-z]{2,8} [0-9]{4})|(?:[0-9]{1,2}[./-][0-9]{1,2}[./-][0-9]{4})|(?:[0-9]{4}-[0-9]{2}-[0-9]{2}))"#

    /// A one-line postal address, "12 Oak Street, Apt 4, Austin, TX 78701" (capture group 1).
    static let oneLineAddress = oneLineAddress(state: #"[A-Za-z][A-Za-z ]*?"#)
    /// The same with a two-character state code that may hold a mark or a digit for its I ("|A").
    static let oneLineAddressMarkedState = oneLineAddress(state: #"[A-Za-z|!105]{2}"#)

    static func oneLineAddress(state: String) -> String {
        #"([0-9]+[^,]*(?:,\s*(?:Apt|Unit|Suite|#)[^,]*)?,\s*[\p{L} .'-]+,?\s+"# + state + #"\s+[0-9]{5}(?:-[0-9]{4})?)"#
    }

    /// "I" as a word, as Tesseract also reads it ("| live at", "l am", "[ live at" on a fax;
    /// "1961.1 live at", a 1 glued to the sentence before).
    static let proseI = #"(?:(?:^|(?<=\s))[I|l\[]|(?<=[0-9]\.)1)"#

    /// The requester's name, birth date, address and phone from the page's sentences, each only
    /// where `f` has none.
    static func proseDetails(_ f: inout [String: Field], paragraphs: [TextLine]) {
        if f["full_name"] == nil {
            f["full_name"] = find(paragraphs, #"(?:(?i:\bmy name is|\bmy full name is)|"# + proseI + #" am)\s+"# + proseName, sensitive: true, transform: fullName)
        }
        // A first name's capital I read as a small l ("My name is loannis Georgiou"): mended, for review.
        if f["full_name"] == nil {
            f["full_name"] = forReview(find(paragraphs, #"(?i:\bmy name is)\s+l(\p{Ll}{3,}(?: [A-Z][\p{L}'’-]+){1,4})(?=[.,;]|\s+(?:and|who|I)\b|\s*$)"#,
                                            sensitive: true, transform: { fullName("I" + $0) }))
        }
        if f["date_of_birth"] == nil {
            f["date_of_birth"] = find(paragraphs, #"(?i:\bborn on|\bmy date of birth is|\bdate of birth is)\s+"# + proseDate,
                                      sensitive: true, transform: isoDate)
        }
        if f["street_address"] == nil {
            let lead = #"(?:(?i:\bmy address is|\bmy home address is)|"# + proseI + #" (?i:live at|reside at))\s+"#
            // A state code's letter read as a mark or a digit ("Des Moines, |A 50309", "Boise, 10
            // 83702"): taken when exactly one code so mended is a state's that its ZIP agrees
            // with, for review.
            func mendedState(_ s: String) -> FieldValue? {
                guard let r = s.range(of: #"(?<=[\s,])[A-Za-z|!105]{2}(?=,?\s+[0-9]{5}(?:-[0-9]{4})?\s*$)"#, options: .regularExpression),
                      case let zipCode = String(s[r.upperBound...].filter(\.isNumber).prefix(5)) else { return nil }
                let read = s[r].uppercased().map { c -> [Character] in
                    "|!1".contains(c) ? ["I"] : c == "0" ? ["O", "D"] : c == "5" ? ["S"] : [c]
                }
                let codes = read[0].flatMap { a in read[1].map { b in String([a, b]) } }
                    .filter { $0 != String(s[r]) && states.values.contains($0) && zip(zipCode, agreesWith: $0) }
                guard codes.count == 1 else { return nil }
                return fullAddress(s.replacingCharacters(in: r, with: codes[0]))
            }
            func mended() -> Field? {
                var found = find(paragraphs, lead + oneLineAddressMarkedState, sensitive: true, transform: mendedState)
                found?.needsReview = true
                return found
            }
            // A comma read as a full stop after the street's type ("I live at 869 Washington Way.
            // Tucson, AZ 85701"): mended, for review.
            func commaMended() -> Field? {
                let typed = Set(streetTypes.map { $0 + "." })
                var changed = false
                let mended = paragraphs.map { line in
                    TextLine(words: line.words.map { w in
                        guard typed.contains(w.text) else { return w }
                        changed = true
                        var comma = w
                        comma.text = String(w.text.dropLast()) + ","
                        return comma
                    })
                }
                guard changed else { return nil }
                var found = find(mended, lead + oneLineAddress, sensitive: true, transform: fullAddress)
                found?.needsReview = true
                return found
            }
            if let found = find(paragraphs, lead + oneLineAddress, sensitive: true, transform: fullAddress) ?? mended() ?? commaMended(),
               let raw = found.value.string, let parts = splitAddress(raw) {
                f["street_address"] = Field(value: .text(parts.street), confidence: found.confidence, box: found.box, needsReview: found.needsReview)
                for (k, v) in [("city", parts.city), ("state", parts.state), ("zip", parts.zip)] where f[k] == nil {
                    f[k] = Field(value: .text(v), confidence: found.confidence, box: found.box, needsReview: found.needsReview)
                }
            }
        }
        if f["phone"] == nil {
            f["phone"] = find(paragraphs, #"(?i:\breach me at|\bcall me at|\bmy (?:phone|telephone|mobile|cell)(?: number)? is)\s+(\+?1?[ (]*[0-9]{3}[) .-]*[0-9]{3}[ .-]*[0-9]{4})"#,
                              sensitive: true, transform: phone)
        }
    }
}
