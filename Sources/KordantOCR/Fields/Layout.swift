import Foundation

/// A run of words on one line with no wide gap inside: a phrase, a table cell, or one of several
/// `label: value` pairs when they are spaced apart.
struct Segment {
    var words: [Word]
    var box: BoundingBox
    var text: String { words.map(\.text).joined(separator: " ") }

    init(_ words: [Word]) {
        self.words = words
        box = words.dropFirst().reduce(words[0].box) { $0.union($1.box) }
    }
}

/// Segments whose vertical extents line up, left to right (one printed line of the page, across
/// columns and table cells that Tesseract may have put in different blocks).
struct Row {
    var segments: [Segment]
    var box: BoundingBox
    /// A typical letter height on this row (the median word height).
    var height: Int
}

/// The page as rows of segments, built from word boxes rather than from Tesseract's blocks.
struct PageLayout {
    var rows: [Row]
    /// Every word in reading order, grouped by Tesseract paragraph (for narrative phrasing).
    var paragraphs: [TextLine]

    init(lines: [TextLine]) {
        var segments: [Segment] = []
        for line in lines where !line.words.isEmpty {
            let h = Self.median(line.words.map(\.box.height))
            var current: [Word] = []
            let words = line.words.flatMap(Self.splitAtRule).flatMap(Self.splitAtColon).flatMap(Self.splitLeadingDash).map(Self.withoutStrayMarks)
                .flatMap(Self.splitGlued).flatMap(FieldNumbers.splitGlued)
            for (i, w) in words.enumerated() where !Self.speck(w, lineHeight: h) || Self.dayBeforeMonth(words, i) {
                // A gap wider than about two letter heights separates cells or pairs; but not one
                // after a name's particle before a capital or an apostrophe, up to three ("1 VAN ‖
                // 'T HOF" on a licence, whose apostrophe is set apart).
                if let last = current.last, case let gap = w.box.x - (last.box.x + last.box.width), gap > max(2 * h, 12),
                   !(Self.particleBefore(last, w) && gap <= 3 * h) {
                    segments.append(Segment(current))
                    current = []
                }
                current.append(w)
            }
            if !current.isEmpty { segments.append(Segment(current)) }
        }
        // A lone dot or bar (speckle, a rule) is no cell: it must not stand between a label and its value.
        segments.removeAll { $0.words.allSatisfy { Self.key($0.text).isEmpty } }
        // Rows: a segment joins the row whose vertical centre is within half a letter height of its own.
        var rows: [(segments: [Segment], center: Double, height: Double)] = []
        for s in segments.sorted(by: { $0.box.y + $0.box.height / 2 < $1.box.y + $1.box.height / 2 }) {
            let c = Double(s.box.y) + Double(s.box.height) / 2
            let h = Double(Self.median(s.words.map(\.box.height)))
            if let i = rows.indices.last, abs(rows[i].center - c) < 0.5 * max(h, rows[i].height),
               !rows[i].segments.contains(where: { Self.overlapX($0.box, s.box) }) {
                rows[i].segments.append(s)
            } else {
                rows.append(([s], c, h))
            }
        }
        self.rows = Self.wrappedCellsJoined(Self.cellsSplitAtColumns(rows.map { r in Self.row(r.segments) }))
        var paragraphs: [TextLine] = []
        var current: [Word] = [], key: (Int, Int)?
        for line in lines {
            for w in line.words {
                if let key, key != (w.block, w.paragraph) {
                    paragraphs.append(TextLine(words: current))
                    current = []
                }
                key = (w.block, w.paragraph)
                current.append(w)
            }
        }
        if !current.isEmpty { paragraphs.append(TextLine(words: current)) }
        self.paragraphs = paragraphs
    }

    /// A row of `segments`, left to right.
    static func row(_ segments: [Segment]) -> Row {
        var segs: [Segment] = []
        // Segments no further apart than words of one phrase, where a label of the vocabulary runs
        // from one into the other, are one phrase that Tesseract's page layout put in two blocks
        // ("Birth" | "Date: 3 June 1990" of a monospaced form, whose "Date:" alone would be the
        // request's date). Nothing else is joined: a label cell beside its value cell is as near.
        for s in segments.sorted(by: { $0.box.x < $1.box.x }) {
            if let last = segs.last, case let h = median((last.words + s.words).map(\.box.height)),
               s.box.x - (last.box.x + last.box.width) <= max(2 * h, 12), s.box.x >= last.box.x + last.box.width - h / 2,
               labelRunsOn(last, into: s) {
                segs[segs.count - 1] = Segment(last.words + s.words)
            } else {
                segs.append(s)
            }
        }
        return Row(segments: segs, box: segs.dropFirst().reduce(segs[0].box) { $0.union($1.box) },
                   height: Self.median(segs.flatMap { $0.words.map(\.box.height) }))
    }

    /// Every label of every kind's vocabulary, by word keys ("date of birth").
    static let allLabels: Set<String> = Set((Vocabulary.deed + Vocabulary.optout + Vocabulary.id).flatMap(\.keys))

    /// A table's cell run into the next one, the gap between them no wider than a space
    /// ("Oluwaseun Okonkwo-Eze Birthdate" beside "1994-12-14" on a fax whose grid's rules were
    /// lost): split before a word that starts where cells start on two other rows or more (the
    /// grid's column) and begins a label of the vocabulary as spelled (four letters or more, or
    /// several words), after a gap wider than half a letter's height.
    static func cellsSplitAtColumns(_ rows: [Row]) -> [Row] {
        let starts = rows.map { $0.segments.map(\.box.x) }
        var out = rows
        for i in rows.indices {
            var segs: [Segment] = [], changed = false
            for seg in rows[i].segments {
                var current: [Word] = []
                let h = max(median(seg.words.map(\.box.height)), 4)
                for (k, w) in seg.words.enumerated() {
                    if k > 0, let last = current.last, 2 * (w.box.x - (last.box.x + last.box.width)) > h,
                       starts.indices.filter({ $0 != i && starts[$0].contains { 2 * abs($0 - w.box.x) <= h } }).count >= 2,
                       case let keys = seg.words[k...].prefix(3).map({ key($0.text) }),
                       (1...keys.count).contains(where: { n in
                           allLabels.contains(keys[..<n].joined(separator: " ")) && (n > 1 || keys[0].count >= 4)
                       }) {
                        segs.append(Segment(current))
                        current = []
                        changed = true
                    }
                    current.append(w)
                }
                segs.append(Segment(current))
            }
            if changed { out[i] = row(segs) }
        }
        return out
    }

    /// Every label of every kind's vocabulary of two words or more, by word keys.
    static let wrappableLabels: Set<String> = Set((Vocabulary.deed + Vocabulary.optout + Vocabulary.id).flatMap(\.keys)
        .filter { $0.contains(" ") })

    /// Labels of several words (eight characters or more, spaces counted) as read run together ("fullname",
    /// "dateofbirth"), where not a synonym of their own: matched only as read, never leniently
    /// ("Document" is not "documentno" two letters short).
    static let gluedLabels: Set<String> = {
        let all = (Vocabulary.deed + Vocabulary.optout + Vocabulary.id).flatMap(\.keys)
        return Set(all.filter { $0.contains(" ") && $0.count >= 8 }.map { $0.replacingOccurrences(of: " ", with: "") }).subtracting(all)
    }()

    /// Whether the last words of `a` and the first of `b` spell one label of the vocabulary.
    static func labelRunsOn(_ a: Segment, into b: Segment) -> Bool {
        let left = a.words.suffix(3).map { key($0.text) }, right = b.words.prefix(3).map { key($0.text) }
        for i in left.indices {
            for j in 1...right.count {
                let words = (left[i...] + right[..<j]).filter { !$0.isEmpty }
                if words.count >= 2, wrappableLabels.contains(words.joined(separator: " ")) { return true }
            }
        }
        return false
    }

    /// Whether `a` over `b` spells one label of the vocabulary.
    static func labelWrapped(_ a: Segment, _ b: Segment) -> Bool {
        wrappableLabels.contains((a.words + b.words).map { key($0.text) }.filter { !$0.isEmpty }.joined(separator: " "))
    }

    /// A table's label cell wrapped onto two lines ("Current street" over "address", "Email
    /// address on" over "file") with its value on one line in the next cell, centred between them:
    /// the two lines are one cell, on the value's row (whichever row the value was grouped into).
    /// The second line goes on in small letters, or the two spell a label of the vocabulary
    /// ("Requestor" over "Name"), and neither holds a digit (a label over its value does not:
    /// "Name" over "Ana Lima").
    static func wrappedCellsJoined(_ rows: [Row]) -> [Row] {
        var rows = rows
        func centre(_ b: BoundingBox) -> Int { 2 * b.y + b.height }
        func find(_ i: Int) -> (a: Int, j: Int, b: Int, k: Int)? {
            let h = max(rows[i].height, 4)
            for (ai, a) in rows[i].segments.enumerated() where a.words.count <= 4 && !a.text.contains(where: \.isNumber) {
                for j in (i + 1)...min(i + 2, rows.count - 1) {
                    guard let bi = rows[j].segments.firstIndex(where: { 2 * abs($0.box.x - a.box.x) <= h }) else { continue }
                    let b = rows[j].segments[bi]
                    // (A digit only where the two spell a label that has one: "Address line" over "1".)
                    // (Or a hint in brackets, "DOB" over "(MM/DD/YYYY)".)
                    let hint = b.text.hasPrefix("(") && (b.text.hasSuffix(")") || b.text.hasSuffix("):"))
                    guard b.words.count <= 3, b.text.first?.isLowercase == true || Self.labelWrapped(a, b) || hint,
                          !b.text.contains(where: \.isNumber) || Self.labelWrapped(a, b),
                          b.box.y - (a.box.y + a.box.height) <= h,
                          !rows[(i + 1)..<j].contains(where: { $0.segments.contains { overlapX($0.box, a.box) || overlapX($0.box, b.box) } })
                    else { break }
                    // The value: right of both lines, its centre a quarter letter or more inside
                    // theirs; the nearest such (the next cell, not the next column's label,
                    // whose tall rule put it on the label's first row).
                    let right = max(a.box.x + a.box.width, b.box.x + b.box.width)
                    let values = (i...j).flatMap { k in
                        rows[k].segments.filter { v in
                            v.box.x > right && centre(v.box) - centre(a.box) >= h / 2 && centre(b.box) - centre(v.box) >= h / 2
                        }.map { (k, $0.box.x) }
                    }
                    if let nearest = values.min(by: { $0.1 < $1.1 }) { return (ai, j, bi, nearest.0) }
                    break
                }
            }
            return nil
        }
        var i = 0
        while i + 1 < rows.count {
            guard let (ai, j, bi, k) = find(i) else {
                i += 1
                continue
            }
            let joined = Segment(rows[i].segments[ai].words + rows[j].segments[bi].words)
            rows[j].segments.remove(at: bi)
            rows[i].segments.remove(at: ai)
            rows[k].segments.append(joined)
            for r in Set([i, j, k]).sorted(by: >) {
                if rows[r].segments.isEmpty { rows.remove(at: r) } else { rows[r] = row(rows[r].segments) }
            }
            // (Row i, if left, may hold a second such cell: "… on" beside "Best number to".)
        }
        return rows
    }

    /// Whether `a` is a name's particle ("VAN", "de") and `b` goes on with the name (a capital,
    /// or the particle 't with its apostrophe): the words of one name, however wide the gap.
    static func particleBefore(_ a: Word, _ b: Word) -> Bool {
        let key = a.text.lowercased()
        guard key.count >= 2, key != "and", FieldExtractor.particles.contains(key), let first = b.text.first else { return false }
        return first.isUppercase || ("'’‘".contains(first) && b.text.dropFirst().first?.isLetter == true)
    }

    /// Whether word `i` is a date's day before its month's name ("6 July 2027"): a digit read
    /// poorly there (at 0 on a phone photo) is the day, not a speck. (Its date, read from a word
    /// that poor, goes to review by its confidence.)
    static func dayBeforeMonth(_ words: [Word], _ i: Int) -> Bool {
        guard i + 1 < words.count, (1...2).contains(words[i].text.count), words[i].text.allSatisfy(\.isNumber) else { return false }
        return FieldExtractor.monthNumber(words[i + 1].text.uppercased().filter(\.isLetter)) != nil
    }

    /// Photocopy speckle read as a word: a poorly read token far shorter than its line's words
    /// (dots read as `i`, `:`, `=`), or one Tesseract all but rejected with no letter or digit
    /// but one small letter; never a dash. Left in, specks bridge the gap between a label and the
    /// next cell's label ("Full Name es i : & Birthdate") and stand in for the value.
    static func speck(_ w: Word, lineHeight: Int) -> Bool {
        // A dash is short and often poorly read, and it separates a title from a name.
        guard !["-", "–", "—"].contains(w.text) else { return false }
        // Nor is an amount's start read poorly apart from the rest ("$1," before "463,000.00").
        if w.text.hasPrefix("$"), w.text.dropFirst().first?.isNumber == true { return false }
        let alphanumerics = w.text.filter { $0.isLetter || $0.isNumber }.count
        // Nor is a long word of print set small (a value shrunk to fit its line, read again
        // alone: "440-727-4608" beside "Phone Number:" at 17 pixels to its 42).
        if alphanumerics >= 5, w.box.width >= 4 * w.box.height { return false }
        // A lone capital may be a value (a card's sex, M or F), however poorly read.
        let rejected = alphanumerics == 0 || (alphanumerics == 1 && !w.text.contains(where: \.isUppercase))
        return (w.confidence < 60 && 2 * w.box.height < lineHeight) || (w.confidence < 20 && rejected)
    }

    /// A label and its value read as one word when printed tight ("Sex:M", "DOB:01/02/1980"):
    /// two words, the box split by characters. Only after a label of letters (not "9:00", not
    /// "https://"), which may hold a digit read for a letter ("D0B:02/11/1987"). A colon read as
    /// a second full stop or a comma after one ("No..X26D23991", "No.,X26D23991") is a colon
    /// too, and the label keeps a colon in its place.
    static func splitAtColon(_ w: Word) -> [Word] {
        let chars = Array(w.text)
        // "No.:" read as a dash against the number ("Document No-L2193804"): a reference's prefix
        // is in capitals ("NO-…" would be one), the label's "No" is not.
        if chars.count >= 8, chars[0] == "N", chars[1] == "o", chars[2] == "-", chars[3...].allSatisfy({ $0.isUppercase || $0.isNumber }),
           chars[3...].filter(\.isNumber).count >= 4 {
            var parts = divided(w, at: 3)
            parts[0].text = "No:"
            return parts
        }
        guard let i = chars.indices.first(where: { chars[$0] == ":" || ($0 >= 2 && chars[$0 - 1] == "." && (chars[$0] == "." || chars[$0] == ",")) }),
              i >= 2, i + 1 < chars.count, chars[i + 1] != "/",
              chars[..<i].allSatisfy({ $0.isLetter || $0 == "." || letterLikeDigits[$0] != nil }),
              chars[..<i].filter(\.isLetter).count >= 2,
              chars[(i + 1)...].contains(where: { $0.isLetter || $0.isNumber })
        else { return [w] }
        var parts = divided(w, at: i + 1)
        if chars[i] != ":" { parts[0].text = String(chars[..<i]) + ":" }
        // A capital I against a name's label read as a rule ("Forenames:|NES" for INES): a rule
        // is set apart from the words it parts, and a name in capitals opens with a letter. A
        // guess between the two: the word keeps a confidence under review's.
        let value = Array(parts[1].text)
        if value.count >= 3, value[0] == "|", value[1...].allSatisfy(\.isUppercase), nameLabelWords.contains(labelKey(String(chars[..<i]))) {
            parts[1].text = "I" + String(value.dropFirst())
            parts[1].confidence = min(parts[1].confidence, FieldExtractor.reviewConfidence - 1)
        }
        return parts
    }

    /// The last words of an identity document's labels of names ("forenames", "names", "surname"),
    /// whose values are printed in capitals.
    static let nameLabelWords: Set<String> = Set(Vocabulary.id
        .filter { FieldExtractor.nameFields.contains($0.field) }.flatMap { $0.keys.compactMap { $0.split(separator: " ").last.map(String.init) } })

    /// Digits small print is read as in place of a letter ("D0B", "Fu11 name", "5ex").
    static let letterLikeDigits: [Character: Character] = ["0": "o", "1": "l", "5": "s"]

    /// ``key(_:)`` for matching a label: in a word of more letters than digits, the digits read
    /// for letters are taken as those letters ("D0B" → "dob"). A number, or a code of digits
    /// ("X26D23991"), is left as it is.
    static func labelKey(_ s: String) -> String {
        // A Y read with its bars as a yen sign ("CIT¥").
        let k = key(s.contains("¥") ? s.replacingOccurrences(of: "¥", with: "Y") : s)
        guard k.filter(\.isLetter).count > k.filter(\.isNumber).count, k.contains(where: { letterLikeDigits[$0] != nil }) else { return k }
        return String(k.map { letterLikeDigits[$0] ?? $0 })
    }

    /// A label's plural ending printed in brackets, as Tesseract reads it apart ("(S)", "(es)").
    static let pluralMarks: Set<String> = ["(s)", "(es)"]

    /// Marks no value starts with.
    static let strayLeading: Set<Character> = ["‘", "’", "“", "”", "\"", "'", "`", "°", "|", "_", "~", "^", "•", "·", "«", "»"]
    /// Marks no number starts with (".84111", ".1C"; ".com" is part of an address split in two).
    static let strayBeforeNumber: Set<Character> = [".", ",", ";", ":"]
    /// Marks no value ends with (a full stop or comma may: "Jr.", "St.", a list).
    static let strayTrailing: Set<Character> = ["‘", "“", "`", "°", "|", "_", "~", "^", "•", "·", "«"]

    /// Photocopy speckle read as marks stuck to a word ("‘February", "3425°", ".84111."): they are
    /// cut off, the box by characters, so the value beside a label validates. A number also loses
    /// a full stop before or after it ("84111." ends a sentence, not the ZIP; a comma after one
    /// may be a thousands separator read apart, "$2, 432,500.00"). Only marks: no letter
    /// or digit is ever removed or changed, and a word of marks alone is left to the speck rules.
    static func withoutStrayMarks(_ w: Word) -> Word {
        let chars = Array(w.text)
        guard let first = chars.firstIndex(where: { $0.isLetter || $0.isNumber }),
              let last = chars.lastIndex(where: { $0.isLetter || $0.isNumber }) else { return w }
        // The Dutch particle "'t" ("van 't Hof", "VAN 'T HOF") opens with its apostrophe.
        if chars.count == 2, "'’‘".contains(chars[0]), chars[1] == "t" || chars[1] == "T" { return w }
        let number = chars[first...last].allSatisfy(\.isNumber)
        // (Nor does a house or unit number: "Unit .1C".)
        let houseNumber = chars[first].isNumber && chars[first...last].allSatisfy { $0.isLetter || $0.isNumber }
        // A box's rule read as a bracket against a word ("[Aminata", "Name}"): no bracket opens
        // a word that never closes it, nor closes one never opened. (Against a number it may be
        // a 1, "8750]", and against capitals an I, "[YER": only a word in small letters.)
        let opens = chars.contains { "[{(".contains($0) }, closes = chars.contains { "]})".contains($0) }
        let alphanumerics = chars[first...last].filter { $0.isLetter || $0.isNumber }.count
        let small = chars[first...last].contains(where: \.isLowercase)
        func leading(_ c: Character) -> Bool {
            strayLeading.contains(c) || (houseNumber && strayBeforeNumber.contains(c)) || ("[{".contains(c) && !closes && alphanumerics >= 2 && small && chars[first].isLetter)
        }
        let start = chars[..<first].allSatisfy(leading) ? first : 0
        let tail = chars[(last + 1)...]
        // Speckle after a word takes the full stop or dash it follows with it ("Wanjiru.~—"):
        // a tail holding a stray mark is marks alone.
        let speckled = tail.contains { strayTrailing.contains($0) } && tail.allSatisfy { !$0.isLetter && !$0.isNumber && !")]}".contains($0) }
        let end = speckled || tail.allSatisfy({ strayTrailing.contains($0) || (number && $0 == ".") || ("]}".contains($0) && !opens && alphanumerics >= 2 && small && chars[last].isLetter) })
            ? last + 1 : chars.count
        guard start > 0 || end < chars.count else { return w }
        var out = w
        let unit = Double(w.box.width) / Double(chars.count)
        out.text = String(chars[start..<end])
        out.box.x += Int((Double(start) * unit).rounded())
        out.box.width = max(1, Int((Double(end - start) * unit).rounded()))
        return out
    }

    /// `w` as two words, its first `at` characters and the rest, the box split by characters.
    static func divided(_ w: Word, at i: Int) -> [Word] {
        let chars = Array(w.text)
        var label = w, value = w
        let cut = w.box.width * i / chars.count
        label.text = String(chars[..<i])
        label.box.width = cut
        value.text = String(chars[i...])
        value.box.x += cut
        value.box.width -= cut
        return [label, value]
    }

    /// Every word of every label the engine knows (three letters or more).
    static let labelWords: Set<String> = Set((Vocabulary.deed + Vocabulary.optout + Vocabulary.id)
        .flatMap { $0.keys.flatMap { $0.split(separator: " ").map(String.init) } }.filter { $0.count >= 3 })

    /// A table's rule read glued between a value and the next cell's label ("1997|}Instrument"),
    /// or between a label and its value ("Address|764"): the three apart, the rule as "|" (which
    /// parts a label from its value as a colon does).
    static func splitAtRule(_ w: Word) -> [Word] {
        let chars = Array(w.text)
        // (A slash read beside the rule is part of it: "Address/|6368".)
        guard let bar = chars.indices.first(where: { "|}{][".contains(chars[$0]) }),
              case let i = chars[..<bar].lastIndex(where: { !"/\\".contains($0) }).map({ $0 + 1 }) ?? 0, i >= 1,
              chars[i - 1].isLetter || chars[i - 1].isNumber,
              let j = chars[bar...].firstIndex(where: { !"|}{][/\\".contains($0) }) else { return [w] }
        let labelFirst = chars[..<i].allSatisfy(\.isLetter) && labelWords.contains(key(String(chars[..<i])))
            && (chars[j].isNumber || chars[j].isUppercase)
        guard labelFirst || (chars[j].isUppercase && chars[j...].filter(\.isLetter).count >= 3
                             && chars[j...].allSatisfy({ $0.isLetter || ".:".contains($0) })) else { return [w] }
        let parts = divided(w, at: i)
        var rest = divided(parts[1], at: j - i)
        rest[0].text = "|"
        return [parts[0]] + rest
    }

    /// A dash glued before a capitalised word ("Town -Tucson"): the separator of a "Town - Tucson"
    /// pair read without its space, as two words.
    static func splitLeadingDash(_ w: Word) -> [Word] {
        let chars = Array(w.text)
        // (Or before a state's code: "State -LA".)
        guard let first = chars.firstIndex(where: { !"-–—".contains($0) }), (1...2).contains(first), chars[first].isUppercase,
              chars[first...].filter(\.isLetter).count >= 3 || (chars.count - first == 2 && chars[first...].allSatisfy(\.isUppercase)),
              chars[first...].allSatisfy({ $0.isLetter || ".,'’-".contains($0) }) else { return [w] }
        return divided(w, at: first)
    }

    /// A label read glued to its value without a colon ("sumameHAILE", "GenderF", "date16"), or
    /// with its colon read as another mark or a dash ("Nationality'NLD", "Code-40507"): a word of
    /// lower-case letters that is (or is close to) a label word, then capitals or digits.
    /// Two words, the box split by characters. A name ("McDONALD") or a brand ("LinkedIn") is
    /// left whole: its lower-case part is no label word.
    static func splitGlued(_ w: Word) -> [Word] {
        let chars = Array(w.text)
        guard let i = chars.indices.dropFirst().first(where: { chars[$0].isUppercase || chars[$0].isNumber }), i >= 3 else { return [w] }
        // A colon read as another mark stays with the label ("Nationality'NLD"); so does a dash
        // parting pairs ("ZIP Code-40507").
        let end = "'’;|!-".contains(chars[i - 1]) ? i - 1 : i
        guard end >= 3, chars[1..<end].allSatisfy({ $0.isLowercase }), chars[0].isLetter,
              chars[i...].allSatisfy({ $0.isUppercase || $0.isNumber || "/-.,".contains($0) }) else { return [w] }
        let head = String(chars[..<end]).lowercased()
        guard labelWords.contains(where: { close(head, $0) }) else { return [w] }
        return divided(w, at: i)
    }

    static func median(_ xs: [Int]) -> Int {
        xs.isEmpty ? 0 : xs.sorted()[xs.count / 2]
    }

    static func overlapX(_ a: BoundingBox, _ b: BoundingBox) -> Bool {
        min(a.x + a.width, b.x + b.width) - max(a.x, b.x) > 0
    }
}

/// Where a known or generic label was found.
struct LabelHit {
    var row: Int
    var segment: Int
    /// Word indices of the label inside the segment (colon and `#` tokens included).
    var start: Int
    var end: Int
    /// The canonical field, or nil for a generic `Word:` label.
    var field: String?
    /// Printed with a colon (or followed by one), or glued to its value ("SexF").
    var colon: Bool
    /// Only the label's first words were read, the rest garbled ("Valid wot" for "Valid until"):
    /// its value goes to review.
    var approximate = false
    /// Opens its phrase, or follows a rule or a gap wider than a space: where a cell begins.
    var opensCell = false
    /// Every word of the label read as its synonym spells it (not a lenient match).
    var exact = false
    /// Read exactly where a cell begins: on a form without colons, as good as a colon
    /// (`LabelledPage.colonlessForm`).
    var opensCellExactly: Bool { exact && opensCell }
    var text: String
    var box: BoundingBox
}

extension PageLayout {
    /// Letters and digits only, lower-cased: "E-mail" → "email", "No.:" → "no", "#" → "".
    static func key(_ s: String) -> String {
        String(s.lowercased().unicodeScalars.filter { CharacterSet.alphanumerics.contains($0) }.map(Character.init))
    }

    /// Letters a read word may differ from a label word by on a card or a form (labels printed
    /// small, or faxed, read poorly: "Nawonality"): none under five letters, one up to seven, two
    /// from eight. Nil when it is further off.
    static func lenientCost(_ read: String, _ label: String) -> Int? {
        if read == label { return 0 }
        if close(read, label) || strokesLost(read, label) { return 1 }
        let labelCount = letters(label)
        guard labelCount >= 8, abs(letters(read) - labelCount) <= 2 else { return nil }
        return editDistance(read, label, limit: 2) <= 2 ? 2 : nil
    }

    /// Characters in `s`: its UTF-8 length when it is ASCII (as every label and most words are;
    /// `String.count` walks grapheme clusters, and this runs for every word against every label).
    static func letters(_ s: String) -> Int {
        s.utf8.allSatisfy { $0 < 0x80 } ? s.utf8.count : s.count
    }

    /// Levenshtein distance between two words.
    static func editDistance(_ read: String, _ label: String) -> Int {
        editDistance(read, label, limit: Int.max - 1)
    }

    /// Levenshtein distance between two words, or `limit + 1` as soon as it must exceed `limit`.
    /// ASCII words are compared as bytes in two rows on the stack: label matching calls this
    /// for every word of a page against every synonym that could start there.
    static func editDistance(_ read: String, _ label: String, limit: Int) -> Int {
        let a = read.utf8, b = label.utf8
        guard a.allSatisfy({ $0 < 0x80 }), b.allSatisfy({ $0 < 0x80 }) else {
            return distance(Array(read), Array(label), limit: limit)
        }
        return distance(Array(a), Array(b), limit: limit)
    }

    private static func distance<T: Equatable>(_ a: [T], _ b: [T], limit: Int) -> Int {
        guard !a.isEmpty, !b.isEmpty else { return min(max(a.count, b.count), limit + 1) }
        if abs(a.count - b.count) > limit { return limit + 1 }
        return withUnsafeTemporaryAllocation(of: Int.self, capacity: 2 * (b.count + 1)) { rows in
            var prev = rows.baseAddress!, cur = prev + (b.count + 1)
            for j in 0...b.count { prev[j] = j }
            for i in 1...a.count {
                cur[0] = i
                var least = i
                for j in 1...b.count {
                    cur[j] = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
                    least = min(least, cur[j])
                }
                // Every path to the end passes through this row.
                if least > limit { return limit + 1 }
                swap(&prev, &cur)
            }
            return min(prev[b.count], limit + 1)
        }
    }

    /// Cost of reading `keys` as the label `parts`: each word within ``lenientCost``, or one short
    /// word one letter off when at least two others, or four letters of others, are exact
    /// ("Oate of expiry", "Birth Dale"), or one word of five letters or more two off when the
    /// rest are exact and five letters or more ("Caven names").
    static func lenientCost(_ keys: ArraySlice<String>, _ parts: [String]) -> Int? {
        lenientMatch(keys, parts)?.cost
    }

    /// ``lenientCost(_:_:)`` and whether a word was two letters off (the label then vouches for
    /// less: as one read in part).
    static func lenientMatch(_ keys: ArraySlice<String>, _ parts: [String]) -> (cost: Int, wide: Bool)? {
        var total = 0, exact = 0, shortMiss = 0, wideMiss = 0
        for (read, label) in zip(keys, parts) {
            if let c = lenientCost(read, label) {
                total += c
                if c == 0 { exact += 1 }
            } else if letters(label) >= 3, editDistance(read, label, limit: 1) == 1 {
                shortMiss += 1
                total += 1
            } else if parts.count >= 2, letters(label) >= 5, abs(letters(read) - letters(label)) <= 1, editDistance(read, label, limit: 2) == 2 {
                wideMiss += 1
                total += 2
            } else {
                return nil
            }
        }
        // One short word a letter off beside a whole word of four letters or more ("Last naine",
        // "Expiry ate"); or one word of five letters or more two off beside a whole word of five
        // or more, alone ("Caven names" on a fax of a card).
        let exactLetters = zip(keys, parts).filter { $0 == $1 }.reduce(0) { $0 + $1.1.count }
        if wideMiss > 0 { return wideMiss == 1 && shortMiss == 0 && exactLetters >= 5 ? (total, true) : nil }
        return shortMiss == 0 || (shortMiss == 1 && (exact >= 2 || exactLetters >= 4)) ? (total, false) : nil
    }

    /// A card's label whose first words were read whole and whose last word came out garbled
    /// ("Valid wot", "Family eave", "First memes"): the synonym, when the words read whole (four
    /// letters or more) begin synonyms of one field only, and the garbled word is a small-print
    /// misreading (lower-case letters, no digit, at most eight characters) rather than a value.
    static func truncatedLabel(_ keys: ArraySlice<String>, raw: String, _ parts: [String], field: String,
                               vocabulary: [(field: String, keys: [[String]])]) -> Bool {
        let head = Array(parts.dropLast())
        guard parts.count >= 2, keys.count == parts.count, Array(keys.dropLast()) == head,
              head.reduce(0, { $0 + $1.count }) >= 4,
              let last = keys.last, !last.isEmpty, last.count <= 8, last != parts.last,
              raw.contains(where: \.isLowercase), !raw.contains(where: \.isNumber) else { return false }
        // Distinct: no other field has a synonym starting with the same words.
        return !vocabulary.contains { $0.field != field && $0.keys.contains { $0.count > head.count && Array($0.prefix(head.count)) == head } }
    }

    /// A fax's 98 rows per inch lose a light face's horizontal strokes: E reads as F, T and L as I
    /// or l ("DATF OF BIRIH", "PHONI", "LISTING URI"). Whether `read` is `label` with one or two
    /// letters of those strokes read as another of them, in a word of four letters or more.
    static func strokesLost(_ read: String, _ label: String) -> Bool {
        let a = Array(read.utf8), b = Array(label.utf8)
        guard a.count == b.count, b.count >= 4 else { return false }
        var differ = 0
        for (x, y) in zip(a, b) where x != y {
            guard stems.contains(x), stems.contains(y) else { return false }
            differ += 1
        }
        return differ <= 2
    }

    /// Letters (as keys spell them) that are a stem and bars: e f i l t, and 1 for a stem alone.
    static let stems: Set<UInt8> = Set("efilt1".utf8)

    /// Equal, or one letter off for words of five letters or more ("Emall" for "email" on a fax).
    static func close(_ read: String, _ label: String) -> Bool {
        if read == label { return true }
        // "rn" read as "m" ("Sumame") is the commonest confusion in small print.
        if read.utf8.count < label.utf8.count, read.contains("m"), read == label.replacingOccurrences(of: "rn", with: "m") { return true }
        let labelCount = letters(label)
        guard labelCount >= 5, abs(letters(read) - labelCount) <= 1 else { return false }
        return editDistance(read, label, limit: 1) <= 1
    }

    /// Words that qualify a label before it ("Current street address", "Primary phone").
    static let labelQualifiers: Set<String> = ["current", "your", "primary", "permanent", "present", "legal", "preferred", "best", "home"]
    /// Short words printed between a label and its colon ("Ticket No.:", "Submitted on:").
    static let labelTails: Set<String> = ["no", "nr", "on", "number", "num", "id", "at"]
    /// Small words that carry a label on in its cell ("… on file", "… to reach you", "… as listed").
    static let labelLinks: Set<String> = ["on", "to", "of", "as", "for", "at", "in", "by"]

    /// A mark between a label and its value that parts them as a colon does: a table's rule read
    /// as "|" or "__|", or a dash ("—", "—-").
    static func isRuleMark(_ s: String) -> Bool {
        !s.isEmpty && s.count <= 4 && s.allSatisfy { "|¦-–—_".contains($0) }
    }

    /// Every label in the segment, left to right. A known label counts when it has a colon (or,
    /// opening its cell, a rule, dash or wide gap after it), starts the segment (the value follows,
    /// or sits below or in the next cell), closes a short heading in brackets, or, on cards, starts
    /// the segment without one ("DOB 01/02/1980") or stands mid-phrase printed as a label ("… Sex F").
    /// A generic label is one to four words ending in a colon.
    /// `lenient`: labels may be read a little off (see ``lenientCost(_:_:)``); `card`: the rules
    /// of an ID card's small labels too (read in part, mid-phrase, glued to the value).
    /// `colonless`: the page is a form whose labels go without colons (see
    /// `LabelledPage.colonlessForm`): a label read exactly after a gap wider than a space opens a
    /// cell of its own ("… Fontaine    Birthdate  11/18/1990").
    func labels(row r: Int, segment s: Int, vocabulary: [(field: String, keys: [[String]])], lenient: Bool = false,
                card: Bool = false, colonless: Bool = false) -> [LabelHit] {
        let words = rows[r].segments[s].words
        let keys = words.map { Self.labelKey($0.text) }
        // The phrase's usual space between words (none in a phrase of one or two words).
        let usualSpace = words.count < 3 ? Int.max / 4
            : Self.median(zip(words, words.dropFirst()).map { $1.box.x - ($0.box.x + $0.box.width) })
        var hits: [LabelHit] = []
        var i = 0
        func make(_ start: Int, _ k: Int, _ field: String?) -> LabelHit {
            var end = start + k
            // A card's label glued to its value ("SexF", split by `splitGlued`: the two boxes touch)
            // is as delimited as one with a colon.
            var colon = words[end - 1].text.hasSuffix(":")
                || (card && end < words.count && words[end].box.x <= words[end - 1].box.x + words[end - 1].box.width && !keys[end].isEmpty)
            // A colon read as a semicolon ("Email; …", "Your Name\"; …": the required mark read
            // as a quote) after a label that opens its line: not one inside running text
            // ("… the Grantor; and …").
            // So after an earlier label with a colon on the line, as a form prints several pairs
            // ("City: Pittsburgh = State; Pennsylvania ZIP; 15222" on a fax).
            if !colon, words[end - 1].text.hasSuffix(";"), start <= (keys.firstIndex { !$0.isEmpty } ?? 0) || hits.contains(where: \.colon) {
                colon = true
            }
            // And a colon read as a full stop after a separator there ("Case ID: DSR-842130 - Date
            // submitted. 1 September 2026"): not a sentence's end.
            if !colon, words[end - 1].text.hasSuffix("."), start > 0, ["-", "–", "—", "|", "·", "•", "="].contains(words[start - 1].text),
               hits.contains(where: \.colon) {
                colon = true
            }
            // Or opening its line, after a whole word ("Home Address. 1311 Riverside Road", "City.
            // Sacramento" on a fax): no abbreviation's full stop ("No.", "Tel."), and a value follows.
            if !colon, words[end - 1].text.hasSuffix("."), start <= (keys.firstIndex { !$0.isEmpty } ?? 0), end < words.count,
               words[end - 1].text.filter(\.isLetter).count >= 5 || ["city", "town", "name", "date"].contains(keys[end - 1]),
               words[end].text.first.map({ $0.isNumber || $0.isUppercase }) == true {
                colon = true
            }
            // A plural mark read apart from its label ("TRANSFEREE (S) :" for "TRANSFEREE(S):") is
            // part of it, not its value.
            if end < words.count, Self.pluralMarks.contains(words[end].text.lowercased().trimmingCharacters(in: CharacterSet(charactersIn: ":"))) {
                colon = colon || words[end].text.hasSuffix(":")
                end += 1
            }
            // A short word between the label and its colon ("Ticket No.:", "Submitted on:") is the label's.
            if !colon, end < words.count, words[end].text.hasSuffix(":"), Self.labelTails.contains(keys[end]) {
                colon = true
                end += 1
            }
            // So is one before the rule that parts a cell's label from its value ("Submitted on | 12/10/2025").
            if !colon, end + 1 < words.count, Self.labelTails.contains(keys[end]), Self.isRuleMark(words[end + 1].text) { end += 1 }
            // So are a few small words carrying the label on to its colon ("Best number to reach
            // you:", "Email address on file:"): letters only, one of them a link ("to", "on", "as").
            if !colon, end < words.count,
               let j = (end..<min(words.count, end + 4)).first(where: { words[$0].text.hasSuffix(":") }),
               words[end...j].allSatisfy({ w in w.text.dropLast(w.text.hasSuffix(":") ? 1 : 0).allSatisfy { $0.isLowercase && $0.isLetter } && w.text.count > 1 }),
               (end...j).contains(where: { Self.labelLinks.contains(keys[$0]) }) {
                colon = true
                end = j + 1
            }
            // A hint in brackets after the label is the label's ("Phone (optional):", "Name (as
            // listed)", "DOB (MM/DD/YYYY):"): up to three words without a digit, closed by ")".
            if !colon, end < words.count, words[end].text.hasPrefix("("), words[end].text.count > 1 {
                var j = end
                while j < min(words.count, end + 3), !words[j].text.contains(")") { j += 1 }
                if j < words.count, words[j].text.contains(")"), !words[end...j].contains(where: { $0.text.contains(where: \.isNumber) }),
                   words[j].text.hasSuffix(")") || words[j].text.hasSuffix("):") {
                    colon = words[j].text.hasSuffix(":")
                    end = j + 1
                }
            }
            // A table's label cell may run on past its synonym in small words ("Email address on
            // file", "Best number to reach you"): up to four, letters only, one of them a link
            // ("on", "to", "as"), when the value is in the next cell or under the label (a web
            // form's "Best number to reach you" over "365-692-4675").
            if !colon, start <= (keys.firstIndex { !$0.isEmpty } ?? 0), end < words.count, s + 1 < rows[r].segments.count || r + 1 < rows.count,
               words.count - end <= 4,
               words[end...].allSatisfy({ $0.text.first?.isLowercase == true && $0.text.allSatisfy(\.isLetter) }),
               words[end...].contains(where: { Self.labelLinks.contains($0.text) }) {
                colon = true
                end = words.count
            }
            // So may a heading in capitals over its value ("BEST NUMBER TO REACH YOU" over
            // "915.681.4202"), its small words in capitals too.
            if !colon, start <= (keys.firstIndex { !$0.isEmpty } ?? 0), end < words.count, words.count - end <= 4,
               words[start..<end].allSatisfy({ !$0.text.contains(where: \.isLowercase) }),
               words[end...].allSatisfy({ $0.text.count > 1 && $0.text.allSatisfy(\.isUppercase) }),
               words[end...].contains(where: { Self.labelLinks.contains(Self.key($0.text)) }) {
                colon = true
                end = words.count
            }
            // A label that opens its cell (its phrase, or after a table's rule or a wide gap) and is
            // followed by a rule read as "|", a dash ("Name - Ana Lima") or a gap wider than a
            // space (the value in the next cell) is parted from its value as by a colon. Not a
            // label word inside a value: "City: Salt Lake City   State: UT".
            let h = max(words[start..<end].map(\.box.height).max() ?? 1, 1)
            // (A space between words measures up to about one letter height on a photocopy.) Or
            // nearly a letter height and twice the phrase's usual space: pairs set close on a line
            // ("Suwannakittiwong   Birthdate June 26, 1952", 40 pixels against 12 to 29).
            func wide(_ a: Word, _ b: Word) -> Bool {
                let gap = b.box.x - (a.box.x + a.box.width)
                return gap >= h * 5 / 4 || (gap * 10 >= h * 9 && gap >= 2 * usualSpace)
            }
            let opensCell = start <= (keys.firstIndex { !$0.isEmpty } ?? 0)
                || (start > 0 && (Self.isRuleMark(words[start - 1].text) || wide(words[start - 1], words[start])))
            // (Mid-line too, after an earlier label on the line with its colon or dash: a form
            // printing several pairs parted by dashes, "City - Lexington State - Kentucky".)
            let pairsBefore = hits.contains(where: \.colon)
            while end < words.count, keys[end].isEmpty, words[end].text != "$", !words[end].text.contains("/") {
                colon = colon || words[end].text.contains(":") || ((opensCell || pairsBefore) && Self.isRuleMark(words[end].text))
                end += 1
            }
            // (The dash glued to the label: "ZIP Code-40507" read apart as "Code-" and its value.)
            if !colon, opensCell || pairsBefore, words[end - 1].text.count > 1, words[end - 1].text.hasSuffix("-") { colon = true }
            // (Past a wide gap at the end of its phrase, the value is in the next cell: "Billings   State   MT".)
            if !colon, opensCell { colon = end < words.count ? wide(words[end - 1], words[end]) : start > 0 }
            // A second-language label after a slash ("Surname / Nom") belongs to the label; a
            // number led by a slash is a value whose 7 a fax thinned to one ("ZIP Code: /0801").
            if end < words.count, (words[end].text.hasPrefix("/") && !words[end].text.contains(where: \.isNumber))
                || words[end - 1].text.hasSuffix("/") { end = words.count }
            // So is one after the slash read as a rule ("Given names | Prénoms."): the words after it
            // are the same field's label again, not its value (nor a label of their own, beside the value's start).
            if end < words.count, end > start + k, let field, Self.isRuleMark(words[end - 1].text),
               case let after = words[end...].map({ Self.key($0.text.folding(options: .diacriticInsensitive, locale: nil)) }),
               vocabulary.contains(where: { $0.field == field && $0.keys.contains { $0.count <= after.count && Array(after.prefix($0.count)) == $0 } }) {
                end = words.count
            }
            let box = words[start..<end].dropFirst().reduce(words[start].box) { $0.union($1.box) }
            return LabelHit(row: r, segment: s, start: start, end: end, field: field, colon: colon, opensCell: opensCell,
                            text: words[start..<(start + k)].map(\.text).joined(separator: " ").trimmingCharacters(in: CharacterSet(charactersIn: ":# ")),
                            box: box)
        }
        while i < words.count {
            var best: (Int, String)?
            var exactMatch = false, approximate = false
            // Words that qualify a label ("Current street address", "Your e-mail address"): a
            // synonym after one or two of them, opening its cell, is the label with them.
            var qualifiers = 0
            while qualifiers < 2, i + qualifiers < words.count, Self.labelQualifiers.contains(keys[i + qualifiers]) { qualifiers += 1 }
            if qualifiers > 0, i <= (keys.firstIndex { !$0.isEmpty } ?? 0) {
                var found: (count: Int, field: String)?
                for (field, synonyms) in vocabulary {
                    for parts in synonyms where i + qualifiers + parts.count <= words.count && parts.count > (found?.count ?? 0) - qualifiers
                        && Array(keys[(i + qualifiers)..<(i + qualifiers + parts.count)]) == parts {
                        found = (qualifiers + parts.count, field)
                    }
                }
                // (Only when no synonym spans the qualifier itself: "your email" is one already.)
                if let found, !vocabulary.contains(where: { $0.keys.contains { $0.count >= found.count && i + $0.count <= words.count
                    && Array(keys[i..<(i + $0.count)]) == $0 } }) {
                    best = (found.count, found.field)
                    exactMatch = true
                }
            }
            if best == nil, lenient {
                // The longest synonym read with the fewest edits; a tie between fields is no label.
                var found: (count: Int, cost: Int, field: String?, wide: Bool)?
                for (field, synonyms) in vocabulary {
                    for parts in synonyms where i + parts.count <= words.count {
                        guard let (cost, wide) = Self.lenientMatch(keys[i..<(i + parts.count)], parts),
                              cost == 0 || parts.count > 1 || !Self.gluedLabels.contains(parts[0]) else { continue }
                        if let f = found, (f.count, -f.cost) > (parts.count, -cost) { continue }
                        if let f = found, f.count == parts.count, f.cost == cost {
                            if f.field != field { found = (f.count, f.cost, nil, wide) }
                            continue
                        }
                        found = (parts.count, cost, field, wide)
                    }
                }
                if let found, let field = found.field {
                    best = (found.count, field)
                    exactMatch = found.cost == 0
                    // A word two letters off ("Caven names") vouches for less: as a label read in part.
                    approximate = found.wide
                } else if card {
                    // The garbled last word of a label whose first words say which it is.
                    let hits = vocabulary.flatMap { v in
                        v.keys.filter { i + $0.count <= words.count
                            && Self.truncatedLabel(keys[i..<(i + $0.count)], raw: words[i + $0.count - 1].text, $0, field: v.field, vocabulary: vocabulary)
                        }.map { (count: $0.count, field: v.field) }
                    }
                    if let first = hits.first, hits.allSatisfy({ $0.field == first.field && $0.count == first.count }) {
                        best = (first.count, first.field)
                        approximate = true
                    }
                }
            } else if best == nil {
                for (field, synonyms) in vocabulary {
                    for parts in synonyms {
                        guard i + parts.count <= words.count, parts.count > (best?.0 ?? 0),
                              zip(keys[i..<(i + parts.count)], parts).allSatisfy({ Self.close($0, $1) }),
                              parts.count > 1 || keys[i] == parts[0] || !Self.gluedLabels.contains(parts[0]) else { continue }
                        best = (parts.count, field)
                        exactMatch = Array(keys[i..<(i + parts.count)]) == parts
                    }
                }
            }
            if let (k, field) = best {
                // A card's field number before its label ("3 DOB", "4b EXP") is the label's, and
                // marks it as one wherever it stands on the line.
                // (A small 5 may read as an s: "1s SEX F".)
                let numbered = card && i > 0 && (FieldNumbers.isFieldNumber(words[i - 1].text)
                    || (exactMatch && FieldNumbers.shortLabels.contains(words[i].text) && FieldNumbers.isFieldNumber(words[i - 1].text.replacingOccurrences(of: "s", with: "5"))))
                var hit = numbered ? make(i - 1, k + 1, field) : make(i, k, field)
                // A label of three letters or fewer ("nom", "ln") after a word in small letters, with
                // no colon of its own, may be the end of a longer label garbled ("bieet nom yu" for
                // "First names: YU" on a fax): it vouches for less.
                if card, k == 1, keys[i].count <= 3, i > 0, !words[i..<hit.end].contains(where: { $0.text.contains(":") }),
                   words[i - 1].text.count >= 2, words[i - 1].text.allSatisfy({ $0.isLetter && $0.isLowercase }) {
                    approximate = true
                }
                hit.approximate = approximate
                hit.exact = exactMatch && !approximate
                // A card's label read whole in the middle of a phrase, without a colon, counts when
                // it is printed as a label is, in small letters ("… 2 July 1963 Sex F"): the
                // values on a card are capitals and digits.
                let printedAsLabel = card && exactMatch && i > 0 && keys[i].count >= 3
                    && words[i].text.first?.isUppercase == true && words[i].text.dropFirst().contains(where: \.isLowercase)
                    && !words[i].text.dropFirst().contains(where: \.isUppercase)
                // Leading marks without letters or digits (`~~`, `|`: a rule or speck) do not count.
                // A label in brackets closing a short heading cell: "FROM (GRANTOR)", "TO (GRANTEE)".
                // The whole cell is the heading: its value is under its first word.
                let bracketed = words[i].text.hasPrefix("(") && hit.end == words.count && words.count <= 3
                if bracketed, i > 0, !numbered {
                    hit = make(0, i + k, field)
                    hit.approximate = approximate
                }
                // A card's label in a second language after a slash, its first language read past
                // matching ("Surriame / Nom"): the label starts where the phrase does, and its value
                // below starts there too, not under the second language.
                if card, !numbered, !bracketed, hits.isEmpty, (2...4).contains(i), words[i - 1].text == "/",
                   words[..<(i - 1)].allSatisfy({ $0.text.count >= 2 && $0.text.allSatisfy(\.isLetter) }) {
                    let (exact, text) = (hit.exact, hit.text)
                    hit = make(0, i + k, field)
                    (hit.approximate, hit.exact, hit.text) = (approximate, exact, text)
                }
                // A label read whole after a table's rule read as "|" opens the next cell, as
                // a colon would end it ("[Aminata Nwachukwu | Birth Date [07/07/1986": the rule
                // and the value beside the label read on one line).
                let afterRule = exactMatch && !approximate && i > 0 && words[i - 1].text.contains("|") && Self.isRuleMark(words[i - 1].text)
                    && keys[i..<(i + k)].reduce(0) { $0 + $1.count } >= 5
                if hit.colon || printedAsLabel || numbered || bracketed || afterRule || (colonless && hit.opensCellExactly)
                    || i <= (keys.firstIndex { !$0.isEmpty } ?? 0) {
                    hits.append(hit)
                    i = hit.end
                    continue
                }
            }
            // Generic: "Word:" with up to three words before it from the segment start or a previous label's value.
            // (Not a web address's scheme read apart: "https: //www.…".)
            if words[i].text.hasSuffix(":"), words[i].text.count > 1, !keys[i].isEmpty, !keys[i].allSatisfy(\.isNumber),
               !["http", "https"].contains(keys[i]) {
                let from = i <= 3 && hits.isEmpty ? 0 : i
                // A label reads as words: it starts with a letter and holds at least two.
                let label = words[from...i].map(\.text).joined()
                if words[from..<i].allSatisfy({ !$0.text.hasSuffix(":") }), label.first?.isLetter == true,
                   label.filter(\.isLetter).count >= 2 {
                    hits.append(make(from, i - from + 1, nil))
                    i += 1
                    continue
                }
            }
            i += 1
        }
        return hits
    }
}
