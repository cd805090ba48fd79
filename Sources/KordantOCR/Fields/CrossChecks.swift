import Foundation

/// Checks of one field against another that only flag: a form prints the requester's name up to
/// three times (the name, the listing's web address, the e-mail address), and a letter misread in
/// one of them leaves the copies one letter apart ("Konstantinopoulos-Viachos" beside
/// `…/dimitrios-konstantinopoulos-vlachos/…`). Which copy is right is not known, so both go to
/// review and neither is changed. The one change: a name whose last word the listing's slug
/// continues was cut at its cell (``nameCutShort(_:path:)``), and is taken whole, for review.
extension FieldExtractor {
    static func crossChecked(_ fields: [String: Field]) -> [String: Field] {
        var f = fields
        if let name = f["full_name"]?.value.string {
            let words = foldedWords(name).filter { $0.count >= 5 }
            if let u = f["listing_url"]?.value.string {
                var rest = Substring(u)
                if let r = rest.range(of: "://") { rest = rest[r.upperBound...] }
                let path = foldedWords(String(rest.drop { $0 != "/" })).joined(separator: " ")
                if words.contains(where: { nearlyContains(path, $0) }) {
                    f["listing_url"]?.needsReview = true
                    f["full_name"]?.needsReview = true
                }
                if let whole = nameCutShort(name, path: foldedWords(String(rest.drop { $0 != "/" }))) {
                    f["full_name"]?.value = .text(whole)
                    f["full_name"]?.needsReview = true
                }
            }
            if let e = f["email"]?.value.string, let local = e.split(separator: "@").first {
                let letters = foldedWords(String(local)).joined()
                if words.contains(where: { nearlyContains(letters, $0) }) {
                    f["email"]?.needsReview = true
                    f["full_name"]?.needsReview = true
                }
            }
        }
        // A capital inside a word after four small letters or more ("Kowalska-KwiatkowSka") is a
        // misread letter: names capitalise after a prefix (McDonald, MacArthur, DeShawn), not there.
        for key in ["full_name", "grantor", "grantee"] {
            guard let v = f[key]?.value.string else { continue }
            let parts = v.split(whereSeparator: { !$0.isLetter })
            if parts.contains(where: { part in
                var lower = 0
                for c in part {
                    if c.isUppercase, lower >= 4 { return true }
                    lower = c.isLowercase ? lower + 1 : 0
                }
                return false
            }) { f[key]?.needsReview = true }
        }
        return f
    }

    /// A name whose last word the slug of its listing's address continues ("… Venkataragh" beside
    /// `…/venkata-satya-sai-subrahmanyam-venkataraghavan/…`): the word ran past its cell's rule,
    /// or under the next cell's value, and was read only up to there. The slug's word is taken,
    /// in the name's case, when both are plain letters (a slug drops a name's marks, so a marked
    /// word is not spelled back from it). Nil when the name is not cut so.
    static func nameCutShort(_ name: String, path: [String]) -> String? {
        guard let lastWord = name.split(separator: " ").last, lastWord.count >= 4,
              lastWord.allSatisfy({ $0.isASCII && $0.isLetter }) else { return nil }
        let read = lastWord.lowercased()
        let longer = Set(path.filter { $0.hasPrefix(read) && $0.count >= read.count + 2 && $0.allSatisfy { $0.isASCII && $0.isLetter } })
        guard longer.count == 1, let whole = longer.first, !path.contains(read) else { return nil }
        let spelled = lastWord.allSatisfy(\.isUppercase) ? whole.uppercased() : whole.prefix(1).uppercased() + whole.dropFirst()
        return name.dropLast(lastWord.count) + spelled
    }

    /// Names of the page as finally read (after the Latin model's reading of their letters
    /// with diacritics) that still spell two i's inside a word go to review: that is what English
    /// reads for a letter it lacks or a broken capital ("Miiller", "Ibaiiez", "SOMCIIAI" for
    /// SOMCHAI). At a word's end they are a name's own (Fujii, Ishii); Finnish and Estonian names
    /// that spell them inside (Riikka, Liisa) go to review too.
    static func lackedLettersFlagged(_ f: inout [String: Field]) {
        for key in NameDiacritics.fields {
            if let v = f[key]?.value.string, v.range(of: #"(?i)ii\p{L}"#, options: .regularExpression) != nil { f[key]?.needsReview = true }
        }
    }

    /// Dates that cannot be what the page says they are, read with a digit wrong, go to review
    /// (kept as read: which digit is not known): a request or a recording after the next year
    /// ("2075-10-03" for 2025), a birth after `today` or more than 130 years before it.
    static func datesWeighed(_ f: inout [String: Field], today: Date) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let year = calendar.component(.year, from: today)
        let day = String(format: "%04d-%02d-%02d", year, calendar.component(.month, from: today), calendar.component(.day, from: today))
        func iso(_ key: String) -> String? {
            guard let v = f[key]?.value.string, v.range(of: #"^[0-9]{4}-[0-9]{2}-[0-9]{2}$"#, options: .regularExpression) != nil else { return nil }
            return v
        }
        for key in ["date", "recording_date"] {
            if let v = iso(key), let y = Int(v.prefix(4)), y > year + 1 { f[key]?.needsReview = true }
        }
        // ISO dates compare as strings.
        if let v = iso("date_of_birth"), let y = Int(v.prefix(4)), v > day || y < year - 130 { f["date_of_birth"]?.needsReview = true }
    }

    /// A name's words as lower-case letters without marks, as web and e-mail addresses spell
    /// them ("Jiří Łukaszewicz-Nowak" → jiri, lukaszewicz, nowak).
    static func foldedWords(_ s: String) -> [String] {
        let folded = s.folding(options: [.diacriticInsensitive, .caseInsensitive], locale: nil)
            .map { unmarked[$0] ?? String($0) }.joined()
        return folded.split(whereSeparator: { !$0.isLetter }).map { $0.lowercased() }
    }

    /// Letters that no mark can be taken off, as addresses spell them.
    static let unmarked: [Character: String] = [
        "ł": "l", "ø": "o", "đ": "d", "ð": "d", "ı": "i", "ß": "ss", "æ": "ae", "œ": "oe", "þ": "th", "ħ": "h",
    ]

    /// Whether `word` is not in `text` but a stretch of it is one letter off `word` ("vlachos" in
    /// "dkonstantinopoulosviachos"), or two for a word of seven letters or more: a letter the
    /// English model lacks is often read as two ("Simiinkova" beside "simunkova", "Aratijo"
    /// beside "araujo"). Only for words of five letters or more: shorter ones match by chance.
    static func nearlyContains(_ text: String, _ word: String) -> Bool {
        guard word.count >= 5, !text.contains(word) else { return false }
        let t = Array(text), n = word.count, limit = n >= 7 ? 2 : 1
        for length in (n - limit)...(n + limit) where length <= t.count {
            for start in 0...(t.count - length) where (1...limit).contains(PageLayout.editDistance(String(t[start..<(start + length)]), word, limit: limit)) {
                return true
            }
        }
        return false
    }
}
