import Foundation

/// The field numbers of a US driving licence or state ID card. The AAMVA card design standard
/// numbers every field and issuers print the number small before it: 1 family name, 2 given
/// names, 3 date of birth, 4a issue date, 4b expiry, 4d the licence number, 5 the document
/// discriminator, 8 the address, 9 the class, 15 sex. Most print a short label after the number
/// ("4d DLN", "3 DOB", "15 SEX"); the names and the address have the number alone.
enum FieldNumbers {
    /// Short labels printed after a field number, which Tesseract reads glued to it and to the
    /// value when the card sets them tight ("15SEXM", "18EYESHAZ").
    static let shortLabels = ["DOB", "EXP", "ISS", "SEX", "HGT", "WGT", "EYES", "HAIR", "CLASS", "DLN", "DL", "LN", "FN",
                              "DD", "END", "REST", "RSTR"]

    /// "3", "15", "4d", and "4»" (a small b misread): one or two digits and at most one letter a
    /// to d or a mark standing for one; and "+d", a small 4 read as a plus before its letter
    /// ("+d DLN 794876092" on a shadowed licence).
    static func isFieldNumber(_ text: String) -> Bool {
        let chars = Array(text)
        if chars.count == 2, chars[0] == "+", "abcd".contains(chars[1]) { return true }
        let digits = chars.prefix { $0.isASCII && $0.isNumber }.count
        guard (1...2).contains(digits), chars.count - digits <= 1, chars[0] != "0" else { return false }
        return digits == chars.count || "abcdABCD»".contains(chars[digits])
    }

    /// The numbers with a letter (4a, 4b, 4c, 4d, 9a): nothing but an AAMVA card prints them
    /// before its fields, so two of them on a page say it numbers its fields.
    static func isLettered(_ text: String) -> Bool {
        isFieldNumber(text) && !(text.last?.isNumber ?? true)
    }

    /// A field number read together with its short label and value ("15SEXM" → 15, SEX, M;
    /// "4dDLN" → 4d, DLN): the words apart, the box split by characters.
    static func splitGlued(_ w: Word) -> [Word] {
        let chars = Array(w.text)
        // The licence number's label glued to the number ("DLC28G96080", "DLN123456789").
        if chars.count >= 8, w.text.hasPrefix("DL") {
            let at = chars[2] == "N" && chars.count >= 9 ? 3 : 2
            let rest = chars[at...]
            if rest.filter(\.isNumber).count >= 5, rest.allSatisfy({ $0.isNumber || $0.isUppercase }) { return PageLayout.divided(w, at: at) }
            return [w]
        }
        // A licence's name glued to its short label ("FNYU"): no name starts with FN or LN.
        if chars.count >= 4, w.text.hasPrefix("FN") || w.text.hasPrefix("LN"), chars[2...].allSatisfy({ $0.isUppercase || "-'".contains($0) }) {
            return PageLayout.divided(w, at: 2)
        }
        // A card's sex glued to its label ("SEXF").
        if chars.count == 4, w.text.uppercased().hasPrefix("SEX"), "MFX".contains(chars[3]) { return PageLayout.divided(w, at: 3) }
        guard let first = chars.firstIndex(where: { !$0.isNumber }), (1...2).contains(first), chars[0] != "0" else { return [w] }
        var at = first
        // A lettered number ("4dDLN"): the letter is the number's when a label follows it; so is
        // it before "0LN", the licence number's label with its D read as a zero ("4d0LN").
        let zeroForD = "abcd".contains(chars[at]) && String(chars.dropFirst(at + 1).prefix(3)) == "0LN"
        if "abcd".contains(chars[at]), at + 1 < chars.count, chars[at + 1].isUppercase || zeroForD { at += 1 }
        // Small print comes out in mixed case ("15sExM").
        var rest = String(chars[at...]).uppercased()
        if zeroForD { rest = "D" + rest.dropFirst() }
        guard let label = shortLabels.filter({ rest.hasPrefix($0) }).max(by: { $0.count < $1.count }) else { return [w] }
        var parts = PageLayout.divided(w, at: at)
        if zeroForD { parts[1].text = "D" + parts[1].text.dropFirst() }
        guard rest.count > label.count else { return parts }
        return [parts[0]] + PageLayout.divided(parts[1], at: label.count)
    }

    /// Whether the page numbers its fields as an AAMVA card does.
    static func numbered(_ layout: PageLayout) -> Bool {
        layout.rows.lazy.flatMap(\.segments).flatMap(\.words).filter { isLettered($0.text) }.prefix(2).count == 2
    }
}

extension FieldExtractor {
    /// `found` with the names an AAMVA card prints after its field numbers 1 (family name) and 2
    /// (given names), each at the start of its line, read as the number and a name ("1 GEORGIOU")
    /// or as one word ("2ELENI"; a name's O read as the digit glued to it, "20LGA", is mended and
    /// goes to review).
    static func namesByFieldNumber(_ layout: PageLayout, filling found: [String: Field]) -> [String: Field] {
        guard found["surname"] == nil || found["given_names"] == nil else { return found }
        let segments = layout.rows.flatMap(\.segments)
        /// The number a segment starts with: "1", "2", "2?" (a speck read beside it) or glued to the name.
        func number(_ s: Segment) -> Character? {
            guard let head = s.words.first?.text, let n = head.first, n == "1" || n == "2" else { return nil }
            let rest = head.dropFirst()
            guard let c = rest.first else { return n }
            let mark = rest.count == 1 && !c.isLetter && !c.isNumber
            let glued = rest.count >= 2 && (c.isUppercase || c == "0")
            return mark || glued ? n : nil
        }
        func stacked(_ a: Segment, _ b: Segment) -> Bool {
            let gap: Int = b.box.y - (a.box.y + a.box.height)
            return abs(a.box.x - b.box.x) <= max(a.box.height, 8) && b.box.y > a.box.y && gap <= 2 * a.box.height
        }
        // Numbered fields: two lettered numbers on the page, or a line led by 1 with the next led
        // by 2 right below it, starting where it starts (the names, whatever else was misread).
        let pair = Swift.zip(segments, segments.dropFirst()).contains { (a: Segment, b: Segment) -> Bool in
            number(a) == "1" && number(b) == "2" && stacked(a, b)
        }
        // One of the two numbers read as a mark on a fax ("1 MUSTERMANN" over "> ANNA MARIA",
        // "\ ZAK" over "2 JIRE"): a line led by a mark or two ("|’") right below the 1, or right
        // above the 2, is the other; its name for review.
        func markLed(_ s: Segment) -> Bool {
            guard s.words.count >= 2, let head = s.words.first?.text, (1...2).contains(head.count) else { return false }
            return head.allSatisfy { !$0.isLetter && !$0.isNumber }
        }
        // Or lost altogether (a photocopy's "1" left as a speck the layout drops: "PENA" over
        // "2BEGONA"): a line of nothing but a name in capitals there is the other.
        func bare(_ s: Segment) -> Bool {
            number(s) == nil && !markLed(s) && s.words.allSatisfy { $0.text.allSatisfy { $0.isUppercase || "-'".contains($0) } }
                && upperName(s.words.map(\.text).joined(separator: " ")) != nil
        }
        var inferred: [Int: Character] = [:]
        var unled: Set<Int> = []
        /// Segment `j` numbered `n` when led by a mark or bare (then with no lead word to drop).
        func infer(_ j: Int, _ n: Character) {
            guard number(segments[j]) == nil else { return }
            if markLed(segments[j]) {
                inferred[j] = n
            } else if bare(segments[j]) {
                inferred[j] = n
                unled.insert(j)
            }
        }
        for i in segments.indices.dropLast() where stacked(segments[i], segments[i + 1]) {
            if number(segments[i]) == "1" { infer(i + 1, "2") }
            if number(segments[i + 1]) == "2" { infer(i, "1") }
        }
        // Both numbers read as marks on a licence ("|’ SUWANNAKITTIWONG" over "+’ PIMCHANOK" on a
        // fax): two names in capitals stacked, each led by a mark, are 1 and 2 when no line is led
        // by either number.
        func markLedName(_ s: Segment) -> Bool {
            markLed(s) && upperName(s.words.dropFirst().map(\.text).joined(separator: " ")) != nil
        }
        func licence() -> Bool {
            segments.contains { $0.words.contains { ["LICENSE", "LICENCE"].contains($0.text.uppercased().trimmingCharacters(in: .punctuationCharacters)) } }
        }
        if inferred.isEmpty, licence() || FieldNumbers.numbered(layout), !segments.contains(where: { number($0) != nil }),
           let i = segments.indices.dropLast().first(where: { markLedName(segments[$0]) && markLedName(segments[$0 + 1]) && stacked(segments[$0], segments[$0 + 1]) }) {
            inferred[i] = "1"
            inferred[i + 1] = "2"
        }
        let numbered = pair || FieldNumbers.numbered(layout)
        guard numbered || !inferred.isEmpty else { return found }
        var fields = found
        for (index, segment) in segments.enumerated() {
            guard let head = segment.words.first, let n = number(segment) ?? inferred[index] else { continue }
            let name = n == "1" ? "surname" : "given_names"
            guard fields[name] == nil else { continue }
            // Glued ("2ELENI", "20LGA"): the rest of the word is the name's start. One small letter
            // among its capitals is a capital misread ("1Ni BHRIAIN" for NI): mended, for review,
            // not dropped to leave the rest passed off as the whole name.
            let glued = head.text.dropFirst()
            let small = glued.filter(\.isLowercase).count
            let gluedName = inferred[index] == nil && glued.count >= 2 && glued.first.map({ $0.isUppercase || $0 == "0" }) == true && small <= 1
                && glued.allSatisfy { $0.isUppercase || $0.isLowercase || $0 == "0" }
            let lead = unled.contains(index) ? 0 : 1
            let read = Array(((gluedName ? [String(glued).uppercased()] : []) + segment.words.dropFirst(lead).map(\.text)).joined(separator: " "))
            // A name's O read as a zero beside its letters ("20LGA", "O'BRIEN-0 SUILLEABHAIN").
            var chars = read
            for i in chars.indices where chars[i] == "0" {
                let before = i > 0 ? chars[i - 1] : nil, after = i + 1 < chars.count ? chars[i + 1] : nil
                func nameMark(_ c: Character?) -> Bool { c.map { $0.isLetter || "-'".contains($0) } ?? false }
                if (nameMark(before) || nameMark(after)) && before?.isNumber != true && after?.isNumber != true { chars[i] = "O" }
            }
            let mended = chars != read || (gluedName && small > 0)
            let text = String(chars)
            guard !text.contains(where: \.isLowercase), let value = upperName(text), value.string?.filter(\.isLetter).count ?? 0 >= 2 else { continue }
            let words = gluedName ? Array(segment.words) : Array(segment.words.dropFirst(lead))
            var f = field(value, words)
            // (A number read as a mark, or a page known numbered only by one: for review.)
            f.needsReview = f.needsReview || mended || !numbered || inferred[index] != nil
            fields[name] = f
        }
        return fields
    }
}
