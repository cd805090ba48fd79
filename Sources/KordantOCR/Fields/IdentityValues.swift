import Foundation

/// Identity fields whose labels were misread: on a fax or a photocopy the small bilingual labels
/// of a passport page come out as noise ("Nate af Batty (Gate de taevedete") while the large
/// values under them read well. A value whose shape says what it is, standing alone in its cell,
/// is then taken — but only where exactly one cell on the page has that shape, and always for
/// review: its label was not read, so nothing but its shape vouches for it.
extension FieldExtractor {
    /// `found` with the identity fields it lacks filled from values alone in their cells
    /// (nationality, sex, document number, birth and expiry dates), each `needsReview`.
    static func byValueShape(_ layout: PageLayout, filling found: [String: Field]) -> [String: Field] {
        var fields = found
        let taken = found.values.compactMap(\.box)
        // Cells not already used by a field, without MRZ filler. Marks standing apart at either end
        // (a rule, a speck) go; a mark glued to the front is a misread character ("£3081562" for
        // E3081562), and the cell is no value.
        // A cell whose garbled label was read into it ("Litverw NGA", "Perum No 124669540") also
        // gives the capitals and digits after the label's small letters.
        let phrases = Self.phrases(layout.rows.flatMap(\.segments)) { w in !w.text.contains(where: \.isLowercase) || w.text.contains(where: \.isNumber) }
        let cells: [(text: String, words: [Word])] = phrases.compactMap { phrase in
            guard !phrase.contains(where: { $0.text.contains("<") }), !phrase.contains(where: { w in taken.contains { $0.intersects(w.box) } }) else { return nil }
            var words = phrase[...]
            while let w = words.first, PageLayout.key(w.text).isEmpty { words = words.dropFirst() }
            while let w = words.last, PageLayout.key(w.text).isEmpty { words = words.dropLast() }
            let text = words.map(\.text).joined(separator: " ").trimmingCharacters(in: CharacterSet(charactersIn: ".,;:"))
            guard let first = text.unicodeScalars.first, CharacterSet.alphanumerics.contains(first) else { return nil }
            return (text, Array(words))
        }
        func take(_ name: String, _ value: String, _ words: [Word]) {
            var f = field(.text(value), words)
            f.needsReview = true
            fields[name] = f
        }
        // Cells that are a whole segment, not capitals left of a garbled label ("Pisaport No. PNG tu peeaport").
        let segmentBoxes = layout.rows.flatMap(\.segments).map(\.box)
        /// The one value of this shape on the page (the same value in several cells counts once);
        /// `alone`: failing that, the one in a cell of its own. (Not for numbers: two of them are
        /// left to the reading of the empty regions, which reads a letter a fax made a digit.)
        func unique(_ name: String, alone: Bool = false, sure: Double = 0, _ parse: (String) -> String?) {
            guard fields[name] == nil else { return }
            var hits = cells.filter { c in c.words.allSatisfy { $0.confidence >= sure } }.compactMap { c in parse(c.text).map { (value: $0, words: c.words) } }
            if alone, Set(hits.map(\.value)).count > 1 { hits = hits.filter { segmentBoxes.contains(Segment($0.words).box) } }
            guard let first = hits.first, Set(hits.map(\.value)).count == 1 else { return }
            take(name, first.value, first.words)
        }
        // A driving licence prints no nationality: three capitals there are something else
        // ("EYES GRN", a state's code).
        if !isLicence(layout) {
            unique("nationality", alone: true) { t in
                t.count == 3 && t.allSatisfy({ $0.isASCII && $0.isUppercase }) && CountryCodes.all.contains(t) ? t : nil
            }
            // Failing that, three capitals read clearly one look-alike from exactly one code ("NLO"
            // for NLD on a fax; not a garbled label's capitals).
            unique("nationality", alone: true, sure: 70) { t in
                t.count == 3 && t.allSatisfy({ $0.isASCII && ($0.isUppercase || $0.isNumber) }) && !CountryCodes.all.contains(t) ? nationalityMended(t) : nil
            }
        }
        unique("sex") { t in t.count == 1 ? sex(t)?.string : nil }
        // A card's pair printed after a date on its line with its small label garbled ("Bom
        // 03/16/1974 Germ F", "ISS 09/27/2018 “*F" on a fax): a lone F or M closing the line, at
        // most two short words after the date (not a licence's class), the one such on the page.
        if fields["sex"] == nil {
            let hits = layout.rows.flatMap(\.segments).compactMap { s -> (value: String, word: Word)? in
                guard s.words.count >= 2, let last = s.words.last, last.text.count <= 3, case let letters = last.text.filter(\.isLetter),
                      letters.count == 1, let value = sex(letters)?.string, value != "X", !taken.contains(where: { $0.intersects(last.box) })
                else { return nil }
                let before = Array(s.words.dropLast())
                guard let d = before.indices.last(where: { i in
                    isoDate(before[i].text) != nil || (i >= 2 && isoDate(before[(i - 2)...i].map(\.text).joined(separator: " ")) != nil)
                }), before.count - d - 1 <= 2,
                      before[(d + 1)...].allSatisfy({ $0.text.count <= 6 && !$0.text.contains(where: \.isNumber) && PageLayout.key($0.text) != "class" })
                else { return nil }
                return (value, last)
            }
            if let first = hits.first, Set(hits.map(\.value)).count == 1 { take("sex", first.value, [first.word]) }
        }
        unique("document_number") { t in
            guard !t.contains(" "), t.count >= 6, isoDate(t) == nil, let v = documentNumber(t)?.string,
                  v.filter(\.isNumber).count >= 5, v.filter(\.isLetter).count <= 3 else { return nil }
            return v
        }
        // A licence's number after its small "4d DLN" read past knowing ("40 OL 359851864", "J¢
        // DIN 336878618": the d read as a zero, the D as an O): a mark or two for the field number
        // (not 5, the discriminator's), two or three letters a letter off DL or DLN (not another
        // field's short label, "DD"), then the number; the one such line on the page.
        if fields["document_number"] == nil, isLicence(layout) {
            let hits = layout.rows.compactMap { row -> (value: String, word: Word)? in
                let w = row.segments.flatMap(\.words)
                guard let i = w.indices.dropLast(2).first(where: { i in
                    let label = w[i + 1].text.uppercased()
                    return w[i].text.count <= 2 && w[i].text.first != "5" && (2...3).contains(label.count)
                        && (["DL", "DLN"].contains(label) || !FieldNumbers.shortLabels.contains(label))
                        && ["DL", "DLN"].contains { PageLayout.editDistance(label, $0, limit: 1) <= 1 }
                }), !taken.contains(where: { $0.intersects(w[i + 2].box) }),
                      let v = documentNumber(w[i + 2].text)?.string, v.count >= 6, v.filter(\.isNumber).count >= 5 else { return nil }
                return (v, w[i + 2])
            }
            if hits.count == 1 { take("document_number", hits[0].value, [hits[0].word]) }
        }
        // Dates: the earliest is the birth, the latest the expiry (an issue date sits between).
        // Two dates at most ten years apart may be issue and expiry, so the earlier is then no birth.
        // Dates inside a longer cell count too, each as read: an AAMVA card prints its pairs side
        // by side ("3 DOB 04/07/1960 4b EXP 02/08/2027"), and its small labels may be misread.
        // A date of digits is one word; one of several words names its month ("3 March 2033"),
        // so that a date's fragments are no date ("OG/ 1 8/2032" is not 8 January).
        let inside = layout.rows.flatMap(\.segments).flatMap { s in
            s.words.indices.flatMap { i in
                [1, 3].compactMap { n -> (value: String, words: [Word])? in
                    guard i + n <= s.words.count, n < s.words.count,
                          n == 1 || s.words[i..<(i + n)].contains(where: { $0.text.count >= 3 && $0.text.allSatisfy(\.isLetter) }) else { return nil }
                    let words = Array(s.words[i..<(i + n)])
                    guard !words.contains(where: { w in taken.contains { $0.intersects(w.box) } }),
                          let value = isoDate(words.map(\.text).joined(separator: " "))?.string else { return nil }
                    return (value, words)
                }
            }
        }
        let dated = cells.compactMap { c in isoDate(c.text)?.string.map { (value: $0, words: c.words) } } + inside
        let known = [fields["date_of_birth"], fields["expiry_date"]].compactMap { $0?.value.string }
        let all = Set(dated.map(\.value) + known).sorted()
        guard all.count >= 2, all.count <= 3, let earliest = all.first, let latest = all.last else { return fields }
        func years(_ iso: String) -> Int { Int(iso.prefix(4)) ?? 0 }
        let apart = years(latest) - years(earliest) > 10
            || (years(latest) - years(earliest) == 10 && latest.dropFirst(5) > earliest.dropFirst(5))
        if fields["date_of_birth"] == nil, apart, let d = dated.first(where: { $0.value == earliest }) {
            take("date_of_birth", d.value, d.words)
        }
        if fields["expiry_date"] == nil, let d = dated.first(where: { $0.value == latest }),
           fields["date_of_birth"]?.value.string != latest {
            take("expiry_date", d.value, d.words)
        }
        return fields
    }

    /// Each segment, and where words of letters (a garbled label) come first, also the words from
    /// the first one that can start a value on; and where a value runs into the next column's,
    /// also the two apart.
    static func phrases(_ segments: [Segment], valueStart: (Word) -> Bool) -> [[Word]] {
        segments.flatMap { s -> [[Word]] in
            var out = [s.words]
            if let start = s.words.firstIndex(where: valueStart), start > 0,
               s.words[..<start].allSatisfy({ $0.text.contains(where: \.isLetter) }) {
                out.append(Array(s.words[start...]))
            }
            // "Bern 05/04/1950 Gender M": a value with the next label printed after it on its
            // line (a card's pairs inline) is also its own words alone, up to that label.
            if let start = s.words.firstIndex(where: valueStart),
               let end = s.words[start...].firstIndex(where: { !valueStart($0) }) {
                out.append(Array(s.words[start..<end]))
            }
            // "SUWANNAKITTIWONG 17 SEP 1950": a long name reaches the column where the birth date
            // stands, and the gap between them is a word space. A word starting with a digit
            // that starts where two cells on other lines start begins the next column's value.
            let h = PageLayout.median(s.words.map(\.box.height))
            for (i, w) in s.words.enumerated().dropFirst() where w.text.first?.isNumber == true {
                let aligned = segments.filter { o in
                    abs(o.box.x - w.box.x) <= max(h / 2, 4) && (o.box.y >= s.box.y + s.box.height || o.box.y + o.box.height <= s.box.y)
                }
                if aligned.count >= 2 {
                    out += [Array(s.words[..<i]), Array(s.words[i...])]
                    break
                }
            }
            return out
        }
    }

    /// Whether the page is a driving licence: its title says so, or (the title lost on a fax)
    /// its number's label does.
    static func isLicence(_ layout: PageLayout) -> Bool {
        layout.rows.contains { r in r.segments.contains { s in s.words.contains { w in
            ["LICENSE", "LICENCE", "DLN"].contains(w.text.uppercased().trimmingCharacters(in: .punctuationCharacters))
        } } }
    }

    /// Words of a document's title, never of a holder's name.
    static let titleWords: Set<String> = ["REPUBLIC", "KINGDOM", "UNITED", "STATES", "FEDERAL", "NATIONAL", "PASSPORT",
                                          "IDENTITY", "CARD", "RESIDENCE", "PERMIT", "DOCUMENT", "LICENCE", "LICENSE",
                                          "DRIVER", "DRIVING", "PASSEPORT", "CARTE", "TITRE", "SEJOUR", "SÉJOUR"]

    /// `found` with the names it lacks taken from their place, for review: in the visual zone of
    /// every ICAO document the surname comes first and the given names directly below it. Only
    /// capitals cells that are names (no label or title word, no country code) in the column of
    /// values already found count; with one name found the cell right below (or above) it is the
    /// other; with neither, exactly one such pair of cells one above the other on the page.
    static func namesByPlace(_ layout: PageLayout, filling found: [String: Field]) -> [String: Field] {
        guard found["surname"] == nil || found["given_names"] == nil else { return found }
        var fields = found
        let taken = found.values.compactMap(\.box)
        let others = ["date_of_birth", "sex", "nationality", "document_number", "expiry_date"].compactMap { found[$0]?.box }
        let segments = layout.rows.flatMap(\.segments)
        typealias Cell = (value: String, words: [Word], box: BoundingBox, height: Int)
        // A segment, or its capitals after a label read as garbage ("ven names! MALIA").
        let phrases = Self.phrases(segments) { !$0.text.contains(where: \.isLowercase) }
        let cells: [Cell] = phrases.compactMap { phrase in
            var read = phrase
            let h = PageLayout.median(read.map(\.box.height))
            // A lone letter read onto the end of a name from the next column ("SOFIA F." beside a
            // card's sex): it starts where other cells of that column start.
            if read.count >= 2, let last = read.last, last.text.filter(\.isLetter).count == 1, last.text.count <= 2,
               segments.contains(where: { ($0.box.y > last.box.y + last.box.height || $0.box.y + $0.box.height < last.box.y) && abs($0.box.x - last.box.x) <= h }) {
                read.removeLast()
            }
            let text = read.map(\.text).joined(separator: " ")
            guard !text.contains(where: \.isLowercase), !read.contains(where: { w in taken.contains { $0.intersects(w.box) } }),
                  let value = upperName(text)?.string, value.filter(\.isLetter).count >= 2,
                  !(value.count == 3 && (CountryCodes.all.contains(value) || nationalityMended(value) != nil)) else { return nil }
            let words = value.split(separator: " ").map(String.init)
            guard !words.contains(where: { titleWords.contains($0) || PageLayout.labelWords.contains(PageLayout.key($0)) }) else { return nil }
            let box = read.dropFirst().reduce(read[0].box) { $0.union($1.box) }
            return (value, read, box, h)
        }
        // In the column of the values found: left edges within a letter height and a half.
        func aligned(_ a: BoundingBox, _ b: BoundingBox, _ h: Int) -> Bool { abs(a.x - b.x) <= max(3 * h / 2, 8) }
        func inColumn(_ c: Cell) -> Bool { others.contains { aligned($0, c.box, c.height) } }
        // `lower` directly below `upper`: the same column (or, after labels of other lengths, under
        // it), the next line (a label line may sit between).
        func below(_ lower: BoundingBox, _ upper: BoundingBox, _ h: Int) -> Bool {
            let gap = lower.y - (upper.y + upper.height)
            return (aligned(lower, upper, h) || PageLayout.overlapX(lower, upper)) && gap >= -h / 4 && gap <= 3 * max(h, upper.height)
        }
        func take(_ name: String, _ c: Cell) {
            var f = field(.text(c.value), c.words)
            f.needsReview = true
            fields[name] = f
        }
        // A licence's "FN" or "LN" read a letter off ("PN GYULA" under "LN ERDOS", "WN PHAM" over
        // "FN VAN AN"): the label, not a name, when the other name's line is led by its own.
        func unlabelled(_ c: Cell, besideLineLedBy label: String, at box: BoundingBox) -> Cell {
            guard segments.contains(where: { $0.words.count >= 2 && $0.words[0].text == label && $0.box.intersects(box) }),
                  c.words.count >= 2, case let head = Array(c.words[0].text), head.count == 2, head[1] == "N", "PEBRIWUL".contains(head[0])
            else { return c }
            var c = c
            c.words.removeFirst()
            c.value = String(c.value.drop { $0 != " " }.dropFirst())
            return c
        }
        if let s = found["surname"]?.box {
            if let c = cells.filter({ below($0.box, s, $0.height) }).min(by: { $0.box.y < $1.box.y }) {
                take("given_names", unlabelled(c, besideLineLedBy: "LN", at: s))
            }
        } else if let g = found["given_names"]?.box {
            if let c = cells.filter({ below(g, $0.box, $0.height) }).max(by: { $0.box.y < $1.box.y }) {
                take("surname", unlabelled(c, besideLineLedBy: "FN", at: g))
            }
        } else {
            let column = cells.filter(inColumn)
            let pairs = column.flatMap { u in column.filter { $0.box.y > u.box.y && below($0.box, u.box, u.height) }.map { (u, $0) } }
            // The lower name is the one right below: a third name cell under it makes the pair ambiguous.
            guard pairs.count == 1, let (upper, lower) = pairs.first else { return fields }
            take("surname", upper)
            take("given_names", lower)
        }
        return fields
    }

    /// A licence's names above its address, for review, when neither was found: the AAMVA design
    /// prints field 1 (the family name) and 2 (the given names) on lines of their own right
    /// above field 8 (the street, then "CITY, ST ZIP"), numbered only. Faxed, the small numbers
    /// read as marks ("| OUEDRAOGO", "? BABAJIDE", "# 9861 SUNSET BOULEVARD") or are lost, and
    /// no label is left. Only two capitals lines alone, names, directly above a street line that
    /// is followed by a city line; a third such line above makes it ambiguous.
    static func namesAboveAddress(_ layout: PageLayout, filling found: [String: Field]) -> [String: Field] {
        guard found["surname"] == nil, found["given_names"] == nil, isLicence(layout) else { return found }
        let rows = layout.rows
        // A row's words after a leading field number or mark with no letter ("1}", "|", "?", "#").
        func unnumbered(_ r: Row) -> [Word]? {
            guard r.segments.count == 1 else { return nil }
            var words = r.segments[0].words
            if words.count >= 2, !words[0].text.contains(where: \.isLetter) { words.removeFirst() }
            return words.isEmpty ? nil : words
        }
        func nameLine(_ r: Row) -> (value: String, words: [Word])? {
            // (Not a line led by a short label: "LN SMITH" is labelled, and was not found so.)
            guard let words = unnumbered(r), words.count <= 4, !FieldNumbers.shortLabels.contains(words[0].text.uppercased()) else { return nil }
            // (A mark glued to the name: "*MAKEDA".)
            var text = words.map(\.text).joined(separator: " ")
            text = String(text.drop { !$0.isLetter })
            guard !text.contains(where: { $0.isLowercase || $0.isNumber }), let value = upperName(text)?.string,
                  value.filter(\.isLetter).count >= 2,
                  !value.split(separator: " ").contains(where: { titleWords.contains(String($0)) || PageLayout.labelWords.contains(PageLayout.key(String($0))) })
            else { return nil }
            return (value, words)
        }
        // The house number, after a field number or mark if one was read ("8 2208 ELM ST", "# 9861 …").
        func streetLine(_ r: Row) -> Bool {
            guard r.segments.count == 1 else { return false }
            let words = Array(r.segments[0].words.drop { w in !w.text.contains(where: \.isLetter) }), i = r.segments[0].words.count - words.count
            guard i >= 1, words.contains(where: { $0.text.filter(\.isLetter).count >= 2 }), case let number = r.segments[0].words[i - 1].text,
                  number.allSatisfy(\.isNumber), (1...6).contains(number.count) else { return false }
            return true
        }
        func cityLine(_ r: Row) -> Bool {
            r.segments.map(\.text).joined(separator: " ").range(of: #"^[A-Z][A-Za-z .'-]*, ?[A-Za-z]{2}\b"#, options: .regularExpression) != nil
        }
        guard let s = rows.indices.first(where: { $0 >= 2 && $0 + 1 < rows.count && streetLine(rows[$0]) && cityLine(rows[$0 + 1]) }),
              let given = nameLine(rows[s - 1]), let surname = nameLine(rows[s - 2]), s < 3 || nameLine(rows[s - 3]) == nil else { return found }
        var fields = found
        for (key, n) in [("surname", surname), ("given_names", given)] {
            var f = field(.text(n.value), n.words)
            f.needsReview = true
            fields[key] = f
        }
        return fields
    }
}
