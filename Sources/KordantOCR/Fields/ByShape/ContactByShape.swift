import Foundation

/// A requester's phone number and street whose labels were read past knowing.
///
/// A form set in a light face and faxed keeps its values legible ("559.669.0191", "5545 Chestnut
/// Road") while its labels, printed smaller, break into noise ("Nisbet" for "Phone", "Here Achy
/// asus" for "Home Address"), and no label gives the value. A phone number and a street have shapes
/// of their own: where the requester's part of the page holds exactly one value of that shape, it
/// is taken, for review (nothing but its shape says whose it is).
extension FieldExtractor {
    /// A North American number: three digits (in brackets or not), three, four, the groups apart
    /// by a dot, a hyphen or a space (a dot read as a comma: "925,203.5341"). Not inside a longer
    /// run of digits, letters or a path.
    static let phoneShape = #"(?<![0-9A-Za-z/#-])(\(?[2-9][0-9]{2}\)?(?:[ .,-]|\) ?)?[0-9]{3}[ .,-][0-9]{4})(?![0-9A-Za-z/-])"#

    /// Words of a row that say a number there is not the requester's own ("Fax", "toll-free", the
    /// broker's "call us" or "our"; whole words: "your" is the requester's).
    static let notTheRequestersPhone = #"(?i)\b(?:fax|toll|call us|our)\b"#

    /// The page's one phone-shaped value, for review, when no label gave the phone. `others`: the
    /// indices of `rows` that are not the requester's (``othersRows(_:broker:)``).
    static func phoneByShape(_ f: inout [String: Field], rows: [TextLine], others: Set<Int>) {
        guard f["phone"] == nil else { return }
        let candidates = rows.enumerated().filter { i, row in
            !others.contains(i) && row.text.range(of: notTheRequestersPhone, options: .regularExpression) == nil
        }.map(\.element)
        let found = findAll(candidates, phoneShape, transform: { phone($0.replacingOccurrences(of: ",", with: ".")) })
        guard let one = found.first, Set(found.compactMap { $0.value.string?.filter(\.isNumber) }).count == 1 else { return }
        f["phone"] = one
        f["phone"]?.needsReview = true
    }

    /// A street line's shape: a house number, one to four capitalised words, a street type, and an
    /// apartment or unit after a comma.
    static let streetShape = #"^([0-9]{1,6}[A-Z]? (?:[A-Z][\p{L}'’.-]*\s){1,4}[A-Z][a-z]{1,9}\.?(?:,? (?:Apt|Unit|Suite|Ste|#)\.? ?[A-Z0-9-]{1,5})?)$"#

    /// The page's one street-shaped cell, for review, when no label gave the street: a cell that
    /// is nothing but a street line, or one led by up to three words without a digit (its label
    /// read past knowing, "Tlome Address -"). `others`: the indices of the layout's rows that are
    /// not the requester's (``othersRows(_:broker:)``).
    static func streetByShape(_ f: inout [String: Field], layout: PageLayout, others: Set<Int>) {
        guard f["street_address"] == nil else { return }
        let regex = try? NSRegularExpression(pattern: streetShape)
        var found: [(value: String, words: [Word])] = []
        for (i, row) in layout.rows.enumerated() where !others.contains(i) {
            for cell in row.segments {
                // The street from each word that could start it (after a label read as noise).
                for start in 0..<min(cell.words.count, 4) {
                    let lead = cell.words[..<start]
                    guard !lead.contains(where: { $0.text.contains(where: \.isNumber) }) else { break }
                    let words = Array(cell.words[start...])
                    let text = words.map(\.text).joined(separator: " ").trimmingCharacters(in: CharacterSet(charactersIn: ".,;:"))
                    guard regex?.firstMatch(in: text, range: NSRange(location: 0, length: text.utf16.count)) != nil,
                          words.count >= 3, streetTyped(text), street(text) != nil else { continue }
                    found.append((text, words))
                    break
                }
            }
        }
        guard let one = found.first, Set(found.map(\.value)).count == 1 else { return }
        f["street_address"] = field(.text(one.value), one.words)
        f["street_address"]?.needsReview = true
    }

    /// Rows that are someone else's than the requester's: a row naming the broker, and the
    /// recipient's block, "To:" or "Attn" and the four rows under it ("Nuwber Data Services" over
    /// "12 Main Street"). (Not the rows under any row naming the broker: a form's title names it
    /// over the requester's first rows, "USPhoneBook: Opt-Out" over "Mailing Address …".)
    static func othersRows(_ rows: [String], broker: String) -> Set<Int> {
        var out: Set<Int> = []
        for (i, text) in rows.enumerated() {
            let lead = text.trimmingCharacters(in: .whitespaces).lowercased()
            let span = lead.hasPrefix("to:") || lead.hasPrefix("attn") ? 4 : PageLayout.key(text).contains(broker) ? 0 : -1
            guard span >= 0 else { continue }
            out.formUnion(i...min(rows.count - 1, i + span))
        }
        return out
    }
}
