import Foundation

/// Turns per-cell evidence into MRZ lines: the format's grammar where it is certain, the check
/// digits, and repairs only where the evidence singles one out.
///
/// Evidence is a log-score per character per cell (higher is likelier), the sum of the OCR-B
/// template match and Tesseract's reading. Grammar used, all of it fixed by ICAO 9303: digits in
/// dates and check digits, dates that are dates, sex `M`/`F`/`<`/`X`, document codes starting
/// with A, C, I, P or V, issuing state and nationality from the ICAO list, and the name field's
/// shape (components joined by `<`, surname and given names by `<<`, then only fillers).
/// Nothing else is assumed: document numbers and optional data may hold any character.
struct MRZDecoder {
    /// Log-scores: lines × cells × 37.
    let evidence: [[[Double]]]
    /// Minimum posterior for a character to count as read with confidence.
    var confident = 0.9
    /// Largest log-score gap between the reading and a confusable alternative for a repair.
    var repairGap = 8.0
    /// How much less evidence (in log-score) the second-best passing repair must have than the
    /// best for the best to be made; `.infinity`: only a repair that is the sole passing one.
    var repairMargin = Double.infinity
    /// The second reader's sure characters (key `line * 1000 + cell`). When given, a character
    /// against the grammar stands as printed only where the second reader saw it too; when nil,
    /// wherever the evidence is sure of it.
    var secondReading: [Int: Character]?

    /// What a run of cells may hold. The document code's first letter is fixed by the format
    /// (ICAO 9303): `P` on a passport (TD3), `V` on a visa, `A`, `C` or `I` on a card (TD1, TD2).
    enum Kind: Equatable { case documentCode(letters: [Int]), country, name, free, date, check, checkOrFiller, sex }

    struct Span {
        var line: Int
        var range: Range<Int>
        var kind: Kind
        var field: String
    }

    static func layout(_ f: MRZ.Format) -> [Span] {
        switch f {
        case .td3, .mrva, .td2, .mrvb:
            // Passports, TD2 cards and visas share the first 28 cells of line 2.
            let n = f.lineLength
            let code: [Int] = f == .td3 ? passportLetters : f == .td2 ? cardLetters : visaLetters
            var s: [Span] = [
                Span(line: 0, range: 0..<2, kind: .documentCode(letters: code), field: "document_code"),
                Span(line: 0, range: 2..<5, kind: .country, field: "issuer"),
                Span(line: 0, range: 5..<n, kind: .name, field: "name"),
                Span(line: 1, range: 0..<9, kind: .free, field: "document_number"),
                Span(line: 1, range: 9..<10, kind: .check, field: "document_number_check"),
                Span(line: 1, range: 10..<13, kind: .country, field: "nationality"),
                Span(line: 1, range: 13..<19, kind: .date, field: "date_of_birth"),
                Span(line: 1, range: 19..<20, kind: .check, field: "date_of_birth_check"),
                Span(line: 1, range: 20..<21, kind: .sex, field: "sex"),
                Span(line: 1, range: 21..<27, kind: .date, field: "expiry_date"),
                Span(line: 1, range: 27..<28, kind: .check, field: "expiry_date_check"),
            ]
            switch f {
            case .td3:
                s += [Span(line: 1, range: 28..<42, kind: .free, field: "optional_data"),
                      Span(line: 1, range: 42..<43, kind: .checkOrFiller, field: "optional_data_check"),
                      Span(line: 1, range: 43..<44, kind: .check, field: "composite_check")]
            case .td2:
                s += [Span(line: 1, range: 28..<35, kind: .free, field: "optional_data"),
                      Span(line: 1, range: 35..<36, kind: .check, field: "composite_check")]
            default:
                // Visas: no composite; the optional data runs to the end of the line.
                s.append(Span(line: 1, range: 28..<n, kind: .free, field: "optional_data"))
            }
            return s
        case .frenchID:
            return [
                Span(line: 0, range: 0..<2, kind: .documentCode(letters: cardLetters), field: "document_code"),
                Span(line: 0, range: 2..<5, kind: .country, field: "issuer"),
                Span(line: 0, range: 5..<30, kind: .name, field: "surname"),
                Span(line: 0, range: 30..<36, kind: .free, field: "optional_data"),
                Span(line: 1, range: 0..<12, kind: .free, field: "document_number"),
                Span(line: 1, range: 12..<13, kind: .check, field: "document_number_check"),
                Span(line: 1, range: 13..<27, kind: .name, field: "given_names"),
                Span(line: 1, range: 27..<33, kind: .date, field: "date_of_birth"),
                Span(line: 1, range: 33..<34, kind: .check, field: "date_of_birth_check"),
                Span(line: 1, range: 34..<35, kind: .sex, field: "sex"),
                Span(line: 1, range: 35..<36, kind: .check, field: "composite_check"),
            ]
        case .td1:
            return [
                Span(line: 0, range: 0..<2, kind: .documentCode(letters: cardLetters), field: "document_code"),
                Span(line: 0, range: 2..<5, kind: .country, field: "issuer"),
                Span(line: 0, range: 5..<14, kind: .free, field: "document_number"),
                // `<` here means the number continues in the optional data (ICAO 9303-5 4.2.2).
                Span(line: 0, range: 14..<15, kind: .checkOrFiller, field: "document_number_check"),
                Span(line: 0, range: 15..<30, kind: .free, field: "optional_data"),
                Span(line: 1, range: 0..<6, kind: .date, field: "date_of_birth"),
                Span(line: 1, range: 6..<7, kind: .check, field: "date_of_birth_check"),
                Span(line: 1, range: 7..<8, kind: .sex, field: "sex"),
                Span(line: 1, range: 8..<14, kind: .date, field: "expiry_date"),
                Span(line: 1, range: 14..<15, kind: .check, field: "expiry_date_check"),
                Span(line: 1, range: 15..<18, kind: .country, field: "nationality"),
                Span(line: 1, range: 18..<29, kind: .free, field: "optional_data_2"),
                Span(line: 1, range: 29..<30, kind: .check, field: "composite_check"),
                Span(line: 2, range: 0..<30, kind: .name, field: "name"),
            ]
        }
    }

    static let digits = Array(0..<10)
    static let letters = Array(10..<36)
    static let lettersAndFiller = Array(10..<37)
    static let any = Array(0..<37)
    static let documentLetters = ["A", "C", "I", "P", "V"].map { MRZAlphabet.index(Character($0))! }
    static let passportLetters = [MRZAlphabet.index("P")!], visaLetters = [MRZAlphabet.index("V")!]
    static let cardLetters = ["A", "C", "I"].map { MRZAlphabet.index(Character($0))! }
    static let sexes = ["M", "F", "<", "X"].map { MRZAlphabet.index(Character($0))! }
    static let countries: [[Int]] = CountryCodes.all.sorted().map { $0.map { MRZAlphabet.index($0)! } }

    static func allowed(_ kind: Kind, offset: Int) -> [Int] {
        switch kind {
        case .documentCode(let first): return offset == 0 ? first : lettersAndFiller
        case .country, .name: return lettersAndFiller
        case .free: return any
        case .date, .check: return digits
        case .checkOrFiller: return digits + [MRZAlphabet.filler]
        case .sex: return sexes
        }
    }

    /// The best reading of the document code (for choosing the format before the rest).
    func documentCode() -> String {
        let c0 = Self.documentLetters.max { evidence[0][0][$0] < evidence[0][0][$1] }!
        let c1 = Self.lettersAndFiller.max { evidence[0][1][$0] < evidence[0][1][$1] }!
        return String([MRZAlphabet.characters[c0], MRZAlphabet.characters[c1]])
    }

    /// How sure the reading of the document code's first letter is (posterior among the letters
    /// a document code may start with).
    func documentLetterConfidence() -> Double {
        let c0 = Self.documentLetters.max { evidence[0][0][$0] < evidence[0][0][$1] }!
        return posterior(0, 0, c0, Self.documentLetters)
    }

    /// The best issuing-state code at line 1, cells 2–4.
    func issuer() -> String {
        let best = Self.countries.max { a, b in score(0, [2, 3, 4], a) < score(0, [2, 3, 4], b) }!
        return String(best.map { MRZAlphabet.characters[$0] })
    }

    struct Result {
        var lines: [String]
        /// Posterior of the chosen character per line and cell (0–1).
        var confidence: [[Double]]
        var repairs: [String]
        var repairedCells: [(Int, Int)]
        /// Characters kept against the grammar (a malformed document).
        var overridden: [String] = []
        /// The fields those characters are in, one entry per character.
        var overriddenFields: [String] = []
        /// The lines (0-based) those characters are in, one entry per character.
        var overriddenLines: [Int] = []

        /// Whether the reading has the format's structure at all. OCR-B that is not an MRZ (a
        /// giro slip's coding line, a member card's strip shaped like a TD1 zone) breaks it with
        /// sure characters in many places: letters in dates and country codes, digits in names.
        /// A real zone read badly breaks it in a field or two: on the dev split's pages and the
        /// real specimens at most 2 fields besides the names and 4 characters in all; the dev
        /// split's OCR-B negatives 6–8 fields, or 9 characters and more.
        var hasStructure: Bool {
            let fields = Set(overriddenFields).subtracting(["name", "surname", "given_names"])
            return fields.count < 4 && overriddenFields.count < 7
        }
    }

    func decode(format: MRZ.Format) -> Result {
        let spans = Self.layout(format)
        var chosen = evidence.map { [Int](repeating: MRZAlphabet.filler, count: $0.count) }
        for span in spans {
            let cells = Array(span.range)
            switch span.kind {
            case .country:
                let best = Self.countries.max { a, b in score(span.line, cells, a) < score(span.line, cells, b) }!
                for (i, c) in cells.enumerated() { chosen[span.line][c] = best[i] }
            case .date:
                for (i, c) in bestDate(span.line, cells).enumerated() { chosen[span.line][cells[i]] = c }
            case .name:
                for (i, c) in bestName(span.line, cells).enumerated() { chosen[span.line][cells[i]] = c }
            default:
                for (i, c) in cells.enumerated() {
                    let options = Self.allowed(span.kind, offset: i)
                    chosen[span.line][c] = options.max { evidence[span.line][c][$0] < evidence[span.line][c][$1] }!
                }
            }
        }
        var confidence = evidence.indices.map { l in [Double](repeating: 0, count: evidence[l].count) }
        for span in spans {
            for (i, c) in span.range.enumerated() {
                confidence[span.line][c] = posterior(span.line, c, chosen[span.line][c], Self.allowed(span.kind, offset: i))
            }
        }
        // A character the evidence is sure of where the format forbids it (a letter in a date, a
        // digit in a name). Printed that way, both readers see it: it stands, and the document is
        // malformed (its checks and structure then fail), never silently "corrected". Seen by one
        // reader only (glare and fax make the templates sure of an E's remains as an 8), the
        // format is certain and the grammar's best choice stands in the lines, but the cell is
        // never sure and the reading says what was seen. Not for look-alikes the grammar exists
        // to separate (O/0, `<`/K…), which are ordinary doubt.
        var overridden: [String] = [], overriddenFields: [String] = [], overriddenLines: [Int] = []
        var forbidden: [(Int, Int)] = []
        for span in spans {
            for c in span.range {
                let now = chosen[span.line][c]
                let raw = Self.any.max { evidence[span.line][c][$0] < evidence[span.line][c][$1] }!
                guard raw != now, !Self.lookAlike(raw, now) else { continue }
                let sure = posterior(span.line, c, raw, Self.any)
                guard sure >= 0.97, posterior(span.line, c, now, Self.any) <= 0.02 else { continue }
                let seen = MRZAlphabet.characters[raw]
                overriddenFields.append(span.field)
                overriddenLines.append(span.line)
                if let second = secondReading, second[span.line * 1000 + c] != seen {
                    overridden.append("line \(span.line + 1) col \(c + 1): '\(seen)' seen by one reader where the format allows \(span.field), taken as '\(MRZAlphabet.characters[now])'")
                    forbidden.append((span.line, c))
                } else {
                    overridden.append("line \(span.line + 1) col \(c + 1): '\(seen)' where the format allows \(span.field)")
                    chosen[span.line][c] = raw
                    confidence[span.line][c] = sure
                }
            }
        }
        var lines = chosen.map { String($0.map { MRZAlphabet.characters[$0] }) }
        var repairs: [String] = []
        var repaired: [(Int, Int)] = []
        if let m = MRZParser.build(format: format, lines: lines, repairs: []), !m.checks.allSatisfy(\.valid) {
            // Repair: confusable alternatives the evidence ranks close, in the fields whose
            // check digits fail (and the composite's fields when only it fails); kept only when
            // one combination of at most three changes makes every check digit pass, or one that
            // passes is `repairMargin` likelier than any other that does.
            var positions: [(Int, Int, Int)] = []   // line, cell, alternative
            let failing = Set(m.checks.filter { !$0.valid }.map(\.field))
            for span in spans where [.free, .date, .check, .checkOrFiller].contains(span.kind) {
                let base = span.field.replacingOccurrences(of: "_check", with: "")
                let covered = failing.contains(base) || failing.contains("composite")
                guard covered else { continue }
                for (i, c) in span.range.enumerated() {
                    let now = chosen[span.line][c]
                    for alt in Self.confusable(now) where Self.allowed(span.kind, offset: i).contains(alt) {
                        if evidence[span.line][c][now] - evidence[span.line][c][alt] <= repairGap { positions.append((span.line, c, alt)) }
                    }
                }
            }
            if positions.count <= 20 {
                let checks = Self.checkRanges(format)
                let solutions = passingRepairs(positions, chosen: chosen, maxChanges: 3) { l in checks.allSatisfy { Self.verifies($0, l) } }
                // Exactly one combination, or one the evidence prefers by a wide margin over every
                // other that passes; otherwise nothing (a repaired zone is never valid either way).
                let whole = decisive(solutions)
                // Nothing makes every check digit pass: a printed digit is wrong (the composite,
                // or one field's), or more went wrong than three changes mend. Each field whose own
                // check fails is then mended by that check alone, under the same rule (one passing
                // combination, or one clearly likelier); the zone still fails its checks and goes
                // to review.
                var pick = whole ?? []
                if solutions.isEmpty { pick += fieldRepairs(format: format, spans: spans, chosen: chosen) }
                if !pick.isEmpty {
                    for (line, cell, alt) in pick {
                        let before = MRZAlphabet.characters[chosen[line][cell]], after = MRZAlphabet.characters[alt]
                        repairs.append("line \(line + 1) col \(cell + 1): \(before)→\(after)")
                        chosen[line][cell] = alt
                        repaired.append((line, cell))
                        // A repaired character was not the reading: its confidence is the evidence's.
                        confidence[line][cell] = min(confidence[line][cell], posterior(line, cell, alt, Self.any))
                    }
                    lines = chosen.map { String($0.map { MRZAlphabet.characters[$0] }) }
                }
            }
        }
        if repairs.isEmpty { confirmByCheckDigits(format: format, spans: spans, chosen: chosen, confidence: &confidence) }
        for (line, cell) in forbidden { confidence[line][cell] = min(confidence[line][cell], 0.5) }
        return Result(lines: lines, confidence: confidence, repairs: repairs, repairedCells: repaired, overridden: overridden,
                      overriddenFields: overriddenFields, overriddenLines: overriddenLines)
    }

    /// Passing repairs past this many are too many to decide between (with no margin, two are).
    var solutionLimit: Int { repairMargin.isFinite ? 200 : 2 }

    /// Every combination of up to `maxChanges` of `positions` (line, cell, alternative) at
    /// distinct cells that `passes`, with its cost (the evidence given up), cheapest first; the
    /// search stops past the number of solutions ``decisive(_:)`` can still decide between.
    func passingRepairs(_ positions: [(Int, Int, Int)], chosen: [[Int]], maxChanges: Int,
                 passes: ([[Int]]) -> Bool) -> [(changes: [(Int, Int, Int)], cost: Double)] {
        var solutions: [(changes: [(Int, Int, Int)], cost: Double)] = []
        var lines = chosen
        func search(_ from: Int, _ picked: [(Int, Int, Int)]) {
            guard solutions.count <= solutionLimit else { return }
            if !picked.isEmpty {
                for (line, cell, alt) in picked { lines[line][cell] = alt }
                if passes(lines) {
                    let cost = picked.reduce(0.0) { $0 + evidence[$1.0][$1.1][chosen[$1.0][$1.1]] - evidence[$1.0][$1.1][$1.2] }
                    solutions.append((picked, cost))
                }
                for (line, cell, _) in picked { lines[line][cell] = chosen[line][cell] }
            }
            guard picked.count < maxChanges else { return }
            for i in from..<positions.count where !picked.contains(where: { $0.0 == positions[i].0 && $0.1 == positions[i].1 }) {
                search(i + 1, picked + [positions[i]])
            }
        }
        search(0, [])
        return solutions.sorted { $0.cost < $1.cost }
    }

    /// The repair to make among passing `solutions` (cheapest first): the only one, or one the
    /// evidence prefers over the next by ``repairMargin``; nil otherwise.
    func decisive(_ solutions: [(changes: [(Int, Int, Int)], cost: Double)]) -> [(Int, Int, Int)]? {
        if solutions.count == 1 { return solutions[0].changes }
        if solutions.count > 1 && solutions.count <= solutionLimit && solutions[1].cost - solutions[0].cost >= repairMargin { return solutions[0].changes }
        return nil
    }

    /// Repairs of single fields by their own check digits (document number, dates, optional
    /// data; never the composite, which spans several): for each such check that fails, the
    /// confusable alternatives in its field and digit that the evidence ranks within
    /// ``repairGap``, combined as in the whole-zone search, and kept only when one combination
    /// makes that check pass or one is ``repairMargin`` likelier than the next.
    func fieldRepairs(format: MRZ.Format, spans: [Span], chosen: [[Int]]) -> [(Int, Int, Int)] {
        var picked: [(Int, Int, Int)] = []
        for check in Self.checkRanges(format) where check.data.count == 1 && !Self.verifies(check, chosen) {
            let (dataLine, range) = check.data[0]
            var positions: [(Int, Int, Int)] = []
            for span in spans {
                for (i, c) in span.range.enumerated() where (span.line == dataLine && range.contains(c)) || (span.line == check.line && c == check.digit) {
                    let now = chosen[span.line][c]
                    for alt in Self.confusable(now) where Self.allowed(span.kind, offset: i).contains(alt) {
                        if evidence[span.line][c][now] - evidence[span.line][c][alt] <= repairGap { positions.append((span.line, c, alt)) }
                    }
                }
            }
            guard !positions.isEmpty, positions.count <= 12 else { continue }
            let solutions = passingRepairs(positions, chosen: chosen, maxChanges: 2) { Self.verifies(check, $0) }
            if let best = decisive(solutions) { picked += best }
        }
        return picked
    }

    /// Characters OCR-B makes look alike, which the format's grammar is there to tell apart.
    static let lookAlikeClasses = ["0ODQU", "1ILT", "2Z", "5S", "6G", "8B", "<KCES"]

    static func lookAlike(_ a: Int, _ b: Int) -> Bool {
        let x = MRZAlphabet.characters[a], y = MRZAlphabet.characters[b]
        return lookAlikeClasses.contains { $0.contains(x) && $0.contains(y) }
    }

    /// Check digits as evidence: the doubtful characters under check digits are confirmed when,
    /// among every combination of their plausible alternatives, the reading carries nearly all
    /// the probability of the combinations that pass every check. One doubtful O/0 under a
    /// passing check digit is confirmed (a single swap always changes the digit); two doubtful
    /// ones whose swaps cancel out are not.
    func confirmByCheckDigits(format: MRZ.Format, spans: [Span], chosen: [[Int]], confidence: inout [[Double]]) {
        var doubtful: [(line: Int, cell: Int, options: [(Int, Double)])] = []
        for span in spans where [.free, .date, .check, .checkOrFiller].contains(span.kind) {
            for (i, c) in span.range.enumerated() where confidence[span.line][c] < confident {
                let allowed = Self.allowed(span.kind, offset: i)
                let now = chosen[span.line][c]
                let alternatives = allowed.filter { $0 != now }
                    .map { ($0, posterior(span.line, c, $0, allowed)) }
                    .filter { $0.1 >= 0.005 }
                    .sorted { $0.1 > $1.1 }
                doubtful.append((span.line, c, [(now, confidence[span.line][c])] + alternatives.prefix(2)))
            }
        }
        guard !doubtful.isEmpty, doubtful.count <= 10 else { return }
        let checks = Self.checkRanges(format)
        var lines = chosen
        var readMass = 0.0, passMass = 0.0
        var choice = [Int](repeating: 0, count: doubtful.count)
        while true {
            var p = 1.0
            for (i, d) in doubtful.enumerated() {
                lines[d.line][d.cell] = d.options[choice[i]].0
                p *= d.options[choice[i]].1
            }
            if checks.allSatisfy({ Self.verifies($0, lines) }) {
                passMass += p
                if choice.allSatisfy({ $0 == 0 }) { readMass = p }
            }
            // Next combination (odometer).
            var i = 0
            while i < choice.count {
                choice[i] += 1
                if choice[i] < doubtful[i].options.count { break }
                choice[i] = 0
                i += 1
            }
            if i == choice.count { break }
        }
        guard readMass > 0, passMass > 0 else { return }
        let confirmed = readMass / passMass
        for d in doubtful { confidence[d.line][d.cell] = max(confidence[d.line][d.cell], confirmed) }
    }

    /// Check digits of a format as (line, data ranges, digit position); `<` as a digit counts as 0
    /// only where the format allows it (an empty optional field).
    static func checkRanges(_ f: MRZ.Format) -> [(line: Int, data: [(Int, Range<Int>)], digit: Int)] {
        switch f {
        case .td3:
            return [(1, [(1, 0..<9)], 9), (1, [(1, 13..<19)], 19), (1, [(1, 21..<27)], 27), (1, [(1, 28..<42)], 42),
                    (1, [(1, 0..<10), (1, 13..<20), (1, 21..<43)], 43)]
        case .td2:
            return [(1, [(1, 0..<9)], 9), (1, [(1, 13..<19)], 19), (1, [(1, 21..<27)], 27),
                    (1, [(1, 0..<10), (1, 13..<20), (1, 21..<35)], 35)]
        case .mrva, .mrvb:
            return [(1, [(1, 0..<9)], 9), (1, [(1, 13..<19)], 19), (1, [(1, 21..<27)], 27)]
        case .frenchID:
            return [(1, [(1, 0..<12)], 12), (1, [(1, 27..<33)], 33), (1, [(0, 0..<36), (1, 0..<35)], 35)]
        case .td1:
            return [(0, [(0, 5..<14)], 14), (1, [(1, 0..<6)], 6), (1, [(1, 8..<14)], 14),
                    (1, [(0, 5..<30), (1, 0..<7), (1, 8..<15), (1, 18..<29)], 29)]
        }
    }

    static func verifies(_ check: (line: Int, data: [(Int, Range<Int>)], digit: Int), _ lines: [[Int]]) -> Bool {
        let weights = [7, 3, 1]
        var sum = 0, n = 0
        for (line, range) in check.data {
            for c in range {
                let v = lines[line][c]
                sum += (v == MRZAlphabet.filler ? 0 : v) * weights[n % 3]
                n += 1
            }
        }
        let printed = lines[check.line][check.digit]
        // `<` as the check digit of an all-filler field (ICAO 9303-4 4.2.2).
        if printed == MRZAlphabet.filler { return check.data.count == 1 && sum == 0 && check.digit == 42 }
        return printed == sum % 10
    }

    static func confusable(_ c: Int) -> [Int] {
        let pairs: [(Character, Character)] = [("0", "O"), ("1", "I"), ("2", "Z"), ("5", "S"), ("8", "B"), ("6", "G"), ("3", "5"),
                                               ("<", "K"), ("<", "C"), ("<", "S"), ("<", "E")]
        let ch = MRZAlphabet.characters[c]
        return pairs.compactMap { a, b in ch == a ? MRZAlphabet.index(b) : ch == b ? MRZAlphabet.index(a) : nil }
    }

    func score(_ line: Int, _ cells: [Int], _ chars: [Int]) -> Double {
        var s = 0.0
        for (i, c) in cells.enumerated() { s += evidence[line][c][chars[i]] }
        return s
    }

    /// Softmax posterior of `c` among `options`.
    func posterior(_ line: Int, _ cell: Int, _ c: Int, _ options: [Int]) -> Double {
        let e = evidence[line][cell]
        let top = options.map { e[$0] }.max() ?? 0
        var sum = 0.0
        for o in options { sum += exp(e[o] - top) }
        return exp(e[c] - top) / sum
    }

    /// YYMMDD with a real month and day (the year is free); all fillers when that reads better.
    func bestDate(_ line: Int, _ cells: [Int]) -> [Int] {
        let e = evidence[line]
        func best(_ cell: Int) -> Int { Self.digits.max { e[cell][$0] < e[cell][$1] }! }
        var out = [best(cells[0]), best(cells[1])]
        var bm = (0, 1, -Double.infinity)
        for m in 1...12 { let s = e[cells[2]][m / 10] + e[cells[3]][m % 10]; if s > bm.2 { bm = (m / 10, m % 10, s) } }
        var bd = (0, 1, -Double.infinity)
        for d in 1...31 { let s = e[cells[4]][d / 10] + e[cells[5]][d % 10]; if s > bd.2 { bd = (d / 10, d % 10, s) } }
        out += [bm.0, bm.1, bd.0, bd.1]
        let fill = cells.reduce(0) { $0 + e[$1][MRZAlphabet.filler] }
        return fill > score(line, cells, out) ? [Int](repeating: MRZAlphabet.filler, count: 6) : out
    }

    /// Viterbi over the name field's grammar: letters in components, one `<` between components,
    /// `<<` between surname and given names, and once the name has ended, only fillers.
    func bestName(_ line: Int, _ cells: [Int]) -> [Int] {
        // States: 0 start, 1 surname letter, 2 one filler after surname, 3 separator `<<` seen,
        // 4 given-name letter, 5 one filler after a given name, 6 trailing fillers.
        let f = MRZAlphabet.filler
        let e = evidence[line]
        let n = cells.count
        var score = [Double](repeating: -.infinity, count: 7)
        var back: [[(Int, Int)]] = []
        score[0] = 0
        for i in 0..<n {
            let ev = e[cells[i]]
            // Best letter at this cell.
            let letter = Self.letters.max { ev[$0] < ev[$1] }!
            let ls = ev[letter], fs = ev[f]
            var next = [Double](repeating: -.infinity, count: 7)
            var from = [(Int, Int)](repeating: (-1, f), count: 7)
            func go(_ a: Int, _ b: Int, _ s: Double, _ c: Int) {
                guard score[a] > -.infinity, score[a] + s > next[b] else { return }
                next[b] = score[a] + s
                from[b] = (a, c)
            }
            go(0, 1, ls, letter)
            go(1, 1, ls, letter); go(1, 2, fs, f)
            go(2, 1, ls, letter); go(2, 3, fs, f)
            go(3, 4, ls, letter); go(3, 6, fs, f)
            go(4, 4, ls, letter); go(4, 5, fs, f)
            go(5, 4, ls, letter); go(5, 6, fs, f)
            go(6, 6, fs, f)
            score = next
            back.append(from)
        }
        var state = (0..<7).max { score[$0] < score[$1] }!
        var out = [Int](repeating: f, count: n)
        for i in stride(from: n - 1, through: 0, by: -1) {
            let (prev, c) = back[i][state]
            out[i] = c
            state = max(0, prev)
        }
        return out
    }
}
