import Foundation

/// A machine-readable zone (ICAO 9303), parsed and verified.
public struct MRZ: Sendable, Equatable, Codable {
    public enum Format: String, Sendable, Codable {
        /// ID card: 3 lines × 30.
        case td1 = "TD1"
        /// 2 lines × 36.
        case td2 = "TD2"
        /// Passport: 2 lines × 44.
        case td3 = "TD3"
        /// Visa, format A: 2 lines × 44, no composite check digit.
        case mrva = "MRVA"
        /// Visa, format B: 2 lines × 36, no composite check digit.
        case mrvb = "MRVB"
        /// French national identity card (1988–2021): TD2-sized, 2 × 36, with its own layout
        /// (12-character number, given names on line 2, no expiry date).
        case frenchID = "FRA-ID"

        /// The ICAO size class: TD1, TD2 or TD3 (visas are MRVA/MRVB, the French card TD2).
        public var size: String { self == .frenchID ? "TD2" : rawValue }

        public var lineLength: Int { self == .td1 ? 30 : (self == .td2 || self == .mrvb || self == .frenchID) ? 36 : 44 }
        public var lineCount: Int { self == .td1 ? 3 : 2 }
        /// The format of lines this long whose document code is `code` (visas start with V).
        static func of(length: Int, lines: Int, code: String, issuer: String = "") -> Format? {
            let visa = code.hasPrefix("V")
            switch (length, lines) {
            case (30, 3): return .td1
            case (36, 2): return visa ? .mrvb : (code == "ID" && issuer == "FRA") ? .frenchID : .td2
            case (44, 2): return visa ? .mrva : .td3
            default: return nil
            }
        }
    }

    /// One field as read: its value, its check digit's verdict (nil for fields without one), the
    /// lowest confidence of its characters (0–1, nil for text-only parsing) and the cells changed
    /// by repair ("line 2 col 5").
    public struct FieldReading: Sendable, Equatable, Codable {
        public var name: String
        public var value: String
        public var valid: Bool?
        public var confidence: Double?
        public var repaired: [String]
    }

    /// One check digit: which field, the digit printed and the digit computed.
    public struct Check: Sendable, Equatable, Codable {
        public var field: String
        public var printed: String
        public var computed: String
        public var valid: Bool { printed == computed }
    }

    public var format: Format
    /// The lines after repair.
    public var lines: [String]
    public var documentCode: String
    public var issuer: String
    public var surname: String
    public var givenNames: String
    public var documentNumber: String
    public var nationality: String
    /// ISO 8601 (YYYY-MM-DD), or nil when the field is not a valid date.
    public var dateOfBirth: String?
    public var sex: String
    public var expiryDate: String?
    public var optionalData: String
    /// Structural problems (a malformed country code, an impossible date, an unknown sex…).
    public var problems: [String]
    public var checks: [Check]
    /// Characters changed by repair, e.g. "line 2 col 14: O→0".
    public var repairs: [String]
    /// Why a person should look at this reading: low-confidence characters, repairs, failed
    /// check digits, disagreement with the visual zone. Empty when nothing is in doubt.
    public var reviewReasons: [String] = []
    /// Lowest character confidence over every line (0–1); nil when the lines came as text.
    public var confidence: Double?
    /// Per-field readings (filled by the image reader).
    public var fieldReadings: [FieldReading] = []
    /// Where the zone is in the image (source coordinates), when read from an image.
    public var box: BoundingBox?
    /// Clockwise turn that makes the zone upright (0, 90, 180, 270), when read from an image.
    public var rotation: Int?
    /// Posterior of each character as read (lines × cells, 0–1), when read from an image.
    public var characterConfidence: [[Double]]?
    /// Per cell, the other characters the format allows there that the readers found plausible
    /// (posterior ≥ 0.01), likeliest first; when read from an image.
    public var characterAlternatives: [[String]]?
    /// What each reader saw in each cell, lines × cells, before the decision; only with
    /// ``MRZScanOptions/keepCellReadings`` (a diagnostic for calibrating the readers:
    /// `scripts/make-mrz-confusion`).
    public var cellReadings: [[CellReading]]?

    /// One cell as the two readers saw it.
    public struct CellReading: Sendable, Equatable, Codable {
        /// Tesseract's character, nil where it read none in this cell.
        public var tesseract: Character?
        /// Its confidence (0–100).
        public var tesseractConfidence: Double?
        /// The OCR-B templates' best three characters, best first (empty for a cell without ink).
        public var templates: String
        /// The rectified cell as the learned reader sees it: ink fraction × 255, 32 × 48, row by
        /// row (`scripts/make-mrz-cell-model` trains on it).
        public var ink: [UInt8] = []
        /// Each reader's evidence per character of ``MRZAlphabet`` before they are weighed
        /// together (`scripts/fit-mrz-fusion` fits the weights on it): the OCR-B template
        /// distances (−1 where a template was not compared), the learned reader's
        /// log-probabilities, and Tesseract's log-likelihoods (empty where it read nothing here).
        public var templateDistances: [Double] = []
        public var cellModel: [Double] = []
        public var tesseractEvidence: [Double] = []

        enum CodingKeys: String, CodingKey { case tesseract, tesseractConfidence, templates, ink, templateDistances, cellModel, tesseractEvidence }
        public init(tesseract: Character?, tesseractConfidence: Double?, templates: String, ink: [UInt8] = [],
                    templateDistances: [Double] = [], cellModel: [Double] = [], tesseractEvidence: [Double] = []) {
            self.tesseract = tesseract
            self.tesseractConfidence = tesseractConfidence
            self.templates = templates
            self.ink = ink
            self.templateDistances = templateDistances
            self.cellModel = cellModel
            self.tesseractEvidence = tesseractEvidence
        }
        public init(from decoder: Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            tesseract = try c.decodeIfPresent(String.self, forKey: .tesseract)?.first
            tesseractConfidence = try c.decodeIfPresent(Double.self, forKey: .tesseractConfidence)
            templates = try c.decode(String.self, forKey: .templates)
            ink = try c.decodeIfPresent(String.self, forKey: .ink).flatMap { Data(base64Encoded: $0) }.map { [UInt8]($0) } ?? []
            templateDistances = try c.decodeIfPresent([Double].self, forKey: .templateDistances) ?? []
            cellModel = try c.decodeIfPresent([Double].self, forKey: .cellModel) ?? []
            tesseractEvidence = try c.decodeIfPresent([Double].self, forKey: .tesseractEvidence) ?? []
        }
        public func encode(to encoder: Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encodeIfPresent(tesseract.map(String.init), forKey: .tesseract)
            try c.encodeIfPresent(tesseractConfidence, forKey: .tesseractConfidence)
            try c.encode(templates, forKey: .templates)
            if !ink.isEmpty { try c.encode(Data(ink).base64EncodedString(), forKey: .ink) }
            if !templateDistances.isEmpty { try c.encode(templateDistances, forKey: .templateDistances) }
            if !cellModel.isEmpty { try c.encode(cellModel, forKey: .cellModel) }
            if !tesseractEvidence.isEmpty { try c.encode(tesseractEvidence, forKey: .tesseractEvidence) }
        }
    }

    /// A person should check this reading before it is used.
    public var needsReview: Bool { !reviewReasons.isEmpty || !checks.allSatisfy(\.valid) || !problems.isEmpty }
    /// Every check digit (composite included) verifies, the structure is sound, and nothing in the
    /// reading is in doubt (no repair by guess, no low-confidence character, no disagreement with
    /// the visual zone). Never true otherwise.
    public var valid: Bool { !checks.isEmpty && checks.allSatisfy(\.valid) && problems.isEmpty && reviewReasons.isEmpty }
}

public enum MRZParser {
    /// ICAO 9303 check digit: weights 7, 3, 1; digits their value, A–Z 10–35, `<` 0.
    public static func checkDigit<S: StringProtocol>(_ s: S) -> Character {
        var sum = 0
        for (i, c) in s.enumerated() { sum += value(c) * [7, 3, 1][i % 3] }
        return Character(String(sum % 10))
    }

    static func value(_ c: Character) -> Int {
        if let d = c.wholeNumberValue, c.isASCII { return d }
        if let a = c.asciiValue, a >= 65 && a <= 90 { return Int(a) - 55 }
        return 0
    }

    /// Finds MRZ lines among OCR text lines: runs of `A–Z0–9<` (after normalising common OCR
    /// confusions) of MRZ length, consecutive, in a known format.
    public static func find(in lines: [String]) -> (format: MRZ.Format, lines: [String])? {
        let candidates = lines.map(normalise)
        for format in [MRZ.Format.td3, .td2, .td1] {
            let n = format.lineCount, len = format.lineLength
            guard candidates.count >= n else { continue }
            for start in stride(from: candidates.count - n, through: 0, by: -1) {
                let group = Array(candidates[start..<(start + n)])
                // Allow a few characters of slack: OCR often gets runs of '<' the wrong length.
                if group.allSatisfy({ abs($0.count - len) <= 3 && $0.count >= 20 && isMRZLike($0) }) {
                    if format == .td2 && group.contains(where: { $0.count > 39 }) { continue }
                    if format == .td3 && group.contains(where: { $0.count < 41 }) { continue }
                    return (format, group)
                }
            }
        }
        return nil
    }

    /// An MRZ read from page text alone (no band found in the image), or nil when the text does
    /// not show the format's structure: a form's OCR-B reference lines or a receipt's filler rows
    /// match an MRZ's length and alphabet, but not its country codes, dates, sex or check digits.
    /// A real zone read through OCR keeps most of those (its O/0-type errors are repaired by field
    /// type), so at most one structural problem and at least one passing check digit are asked.
    /// Never `valid` either way: text carries no glyph evidence. Also returns the text lines it
    /// was read from (normalised).
    public static func fromText(_ lines: [String]) -> (mrz: MRZ, lines: [String])? {
        guard let (format, found) = find(in: lines), var mrz = parse(found, format: format),
              mrz.problems.count <= 1, mrz.checks.contains(where: \.valid) else { return nil }
        mrz.reviewReasons.append("read from the page text only (no MRZ band found in the image)")
        return (mrz, found)
    }

    static func isMRZLike(_ s: String) -> Bool {
        let allowed = s.filter { $0.isASCII && ($0.isUppercase || $0.isNumber || $0 == "<") }.count
        return allowed == s.count && s.contains("<")
    }

    /// Upper-cases, drops spaces, and maps characters OCR substitutes for the filler `<`: the stock
    /// model often reads `<` as `K`, so runs of K and < with at least two Ks become filler (a
    /// name's single K next to a filler is left alone).
    static func normalise(_ line: String) -> String {
        var s = line.uppercased().filter { !$0.isWhitespace }
        for (bad, good) in [("«", "<<"), ("‹", "<"), ("(", "<"), ("[", "<"), ("{", "<")] {
            s = s.replacingOccurrences(of: bad, with: good)
        }
        var chars = Array(s)
        var i = 0
        while i < chars.count {
            guard chars[i] == "K" || chars[i] == "<" else { i += 1; continue }
            var j = i
            while j < chars.count && (chars[j] == "K" || chars[j] == "<") { j += 1 }
            let ks = chars[i..<j].filter { $0 == "K" }.count
            if ks >= 2 && j - i >= 3 { for k in i..<j { chars[k] = "<" } }
            i = j
        }
        return String(chars)
    }

    /// Parses and verifies MRZ lines, repairing OCR confusions guided by each field's type and its
    /// check digit. Returns nil only when the lines cannot be an MRZ of `format`.
    public static func parse(_ raw: [String], format given: MRZ.Format) -> MRZ? {
        guard raw.count == given.lineCount else { return nil }
        // Visas share the passport and TD2 line lengths; their document code starts with V.
        let format = MRZ.Format.of(length: given.lineLength, lines: given.lineCount,
                                   code: String(normalise(raw[0]).prefix(2))) ?? given
        var repairs: [String] = []
        var lines = raw.enumerated().map { i, l in fitLength(normalise(l), format: format, line: i, repairs: &repairs) }
        // Field layout: (line, range, type).
        let layout = fields(format)
        for f in layout {
            var chars = Array(lines[f.line])
            for i in f.range where i < chars.count {
                let fixed = f.type == .numeric ? toDigit(chars[i]) : f.type == .alpha ? toLetter(chars[i]) : chars[i]
                if fixed != chars[i] {
                    repairs.append("line \(f.line + 1) col \(i + 1): \(chars[i])→\(fixed)")
                    chars[i] = fixed
                }
            }
            lines[f.line] = String(chars)
        }
        // Alphanumeric fields with a check digit: try the usual confusions until the digit verifies,
        // but only when the check digit itself was read as a digit (a digit we produced by
        // repair cannot also be the evidence for another repair).
        for (line, range, digitAt, name) in checkedAlphanumeric(format) {
            // As read, before any length repair (normalising may change the length: tabs dropped,
            // « made <<).
            let read = Array(normalise(raw[line]))
            guard read.count == format.lineLength, digitAt < read.count, read[digitAt].isASCII, read[digitAt].isNumber else { continue }
            let chars = Array(lines[line])
            let field = String(chars[range])
            if checkDigit(field) != chars[digitAt], let fixed = repairByCheckDigit(field, digit: chars[digitAt]) {
                repairs.append("line \(line + 1) \(name): \(field)→\(fixed)")
                var c = chars
                c.replaceSubrange(range, with: Array(fixed))
                lines[line] = String(c)
            }
        }
        guard var result = build(format: format, lines: lines, repairs: repairs) else { return nil }
        // Type repairs in digit-only and letter-only fields follow the format; a changed line
        // length or a character chosen to satisfy a check digit is a guess a person must confirm.
        let guessed = repairs.filter { $0.contains("length") || $0.contains("document number") }
        if !guessed.isEmpty { result.reviewReasons.append("repaired without glyph evidence: " + guessed.joined(separator: "; ")) }
        return result
    }

    enum FieldType { case alpha, numeric, any }

    static func fields(_ f: MRZ.Format) -> [(line: Int, range: Range<Int>, type: FieldType)] {
        switch f {
        case .td3:
            return [(0, 2..<5, .alpha), (0, 5..<44, .alpha), (1, 9..<10, .numeric), (1, 10..<13, .alpha),
                    (1, 13..<20, .numeric), (1, 21..<28, .numeric), (1, 42..<44, .numeric)]
        case .frenchID:
            return [(0, 2..<5, .alpha), (0, 5..<30, .alpha), (1, 12..<13, .numeric), (1, 13..<27, .alpha),
                    (1, 27..<34, .numeric), (1, 35..<36, .numeric)]
        case .mrva, .mrvb:
            return [(0, 2..<5, .alpha), (0, 5..<f.lineLength, .alpha), (1, 9..<10, .numeric), (1, 10..<13, .alpha),
                    (1, 13..<20, .numeric), (1, 21..<28, .numeric)]
        case .td2:
            return [(0, 2..<5, .alpha), (0, 5..<36, .alpha), (1, 9..<10, .numeric), (1, 10..<13, .alpha),
                    (1, 13..<20, .numeric), (1, 21..<28, .numeric), (1, 35..<36, .numeric)]
        case .td1:
            return [(0, 2..<5, .alpha), (0, 14..<15, .numeric), (1, 0..<7, .numeric), (1, 8..<15, .numeric),
                    (1, 15..<18, .alpha), (1, 29..<30, .numeric), (2, 0..<30, .alpha)]
        }
    }

    static func checkedAlphanumeric(_ f: MRZ.Format) -> [(Int, Range<Int>, Int, String)] {
        switch f {
        case .td3, .td2, .mrva, .mrvb: return [(1, 0..<9, 9, "document number")]
        case .frenchID: return [(1, 0..<12, 12, "document number")]
        case .td1: return [(0, 5..<14, 14, "document number")]
        }
    }

    /// Makes a line exactly the format's length. OCR most often gets runs of `<` wrong, so extra or
    /// missing characters are taken from (or added to) the longest filler run.
    static func fitLength(_ s: String, format: MRZ.Format, line: Int, repairs: inout [String]) -> String {
        let len = format.lineLength
        guard s.count != len else { return s }
        var chars = Array(s)
        let original = s.count
        // Find the longest run of '<'.
        var bestStart = chars.count, bestLength = 0, i = 0
        while i < chars.count {
            if chars[i] == "<" {
                var j = i
                while j < chars.count && chars[j] == "<" { j += 1 }
                if j - i > bestLength { bestStart = i; bestLength = j - i }
                i = j
            } else { i += 1 }
        }
        if chars.count > len {
            let excess = chars.count - len
            if bestLength > excess { chars.removeSubrange(bestStart..<(bestStart + excess)) } else { chars = Array(chars.prefix(len)) }
        } else {
            let missing = len - chars.count
            let at = bestLength > 0 ? bestStart : chars.count
            chars.insert(contentsOf: Array(repeating: "<", count: missing), at: at)
        }
        repairs.append("line \(line + 1): length \(original)→\(len)")
        return String(chars)
    }

    static func toDigit(_ c: Character) -> Character {
        switch c {
        case "O", "Q", "D", "U": "0"
        case "I", "L", "T": "1"
        case "Z": "2"
        case "A": "4"
        case "S": "5"
        case "G", "b": "6"
        case "B": "8"
        case "<": "<"
        default: c
        }
    }

    static func toLetter(_ c: Character) -> Character {
        switch c {
        case "0": "O"
        case "1": "I"
        case "2": "Z"
        case "4": "A"
        case "5": "S"
        case "6": "G"
        case "8": "B"
        default: c
        }
    }

    /// Tries single and double substitutions of confusable characters until the check digit matches;
    /// returns the repair only if exactly one candidate matches (never guesses between several).
    static func repairByCheckDigit(_ field: String, digit: Character) -> String? {
        let swaps: [Character: [Character]] = [
            "0": ["O", "D", "Q"], "O": ["0", "D", "Q"], "D": ["0", "O"], "Q": ["0", "O"], "1": ["I", "L"], "I": ["1", "L"],
            "L": ["1", "I"], "2": ["Z"], "Z": ["2"], "5": ["S"], "S": ["5"], "8": ["B"], "B": ["8"], "6": ["G"],
            "G": ["6"], "4": ["A"], "A": ["4"], "<": ["K"], "K": ["<"], "7": ["T"], "T": ["7"],
        ]
        let chars = Array(field)
        var found: Set<String> = []
        for i in chars.indices {
            for a in swaps[chars[i]] ?? [] {
                var c = chars
                c[i] = a
                if checkDigit(String(c)) == digit { found.insert(String(c)) }
                for j in (i + 1)..<max(i + 1, chars.count) {
                    for b in swaps[chars[j]] ?? [] {
                        var d = c
                        d[j] = b
                        if checkDigit(String(d)) == digit { found.insert(String(d)) }
                    }
                }
            }
        }
        // Single substitutions are far more likely than double; prefer them when unique.
        let single = found.filter { zip($0, chars).filter { $0 != $1 }.count == 1 }
        if single.count == 1 { return single.first }
        return found.count == 1 ? found.first : nil
    }

    /// Structure beyond the check digits: issuer and nationality are real country codes, dates are
    /// calendar dates, sex is M, F, X or <.
    static func problems(_ m: MRZ, birth: String, expiry: String) -> [String] {
        var p: [String] = []
        func country(_ s: String) -> Bool { CountryCodes.all.contains(s) }
        let l = m.lines.map(Array.init)
        let issuer = String(l[0][2..<5])
        let nationality = m.format == .td1 ? String(l[1][15..<18]) : m.format == .frenchID ? issuer : String(l[1][10..<13])
        if !(l[0][0].isLetter) { p.append("document code does not start with a letter") }
        if !country(issuer) { p.append("issuing state '\(issuer)' is not a country code") }
        if !country(nationality) { p.append("nationality '\(nationality)' is not a country code") }
        if m.dateOfBirth == nil && birth != "<<<<<<" { p.append("date of birth '\(birth)' is not a date") }
        if m.expiryDate == nil && m.format != .frenchID { p.append("expiry date '\(expiry)' is not a date") }
        if !["M", "F", "X"].contains(m.sex) { p.append("sex '\(m.sex)' is not M, F or <") }
        return p
    }

    static func build(format: MRZ.Format, lines: [String], repairs: [String]) -> MRZ? {
        let l = lines.map(Array.init)
        func s(_ line: Int, _ r: Range<Int>) -> String { String(l[line][r]) }
        func c(_ line: Int, _ i: Int) -> String { String(l[line][i]) }
        var checks: [MRZ.Check] = []
        func check(_ name: String, _ data: String, _ printed: String) {
            checks.append(MRZ.Check(field: name, printed: printed, computed: String(checkDigit(data))))
        }
        let name: String
        var result: MRZ
        switch format {
        case .td3, .td2, .mrva, .mrvb:
            name = s(0, 5..<format.lineLength)
            let number = s(1, 0..<9), dob = s(1, 13..<19), exp = s(1, 21..<27)
            check("document_number", number, c(1, 9))
            check("date_of_birth", dob, c(1, 19))
            check("expiry_date", exp, c(1, 27))
            var optional = ""
            switch format {
            case .td3:
                optional = s(1, 28..<42)
                // An empty optional field may carry `<` as its check digit (ICAO 9303-4 4.2.2).
                if !(c(1, 42) == "<" && optional.allSatisfy { $0 == "<" }) { check("optional_data", optional, c(1, 42)) }
                check("composite", s(1, 0..<10) + s(1, 13..<20) + s(1, 21..<43), c(1, 43))
            case .td2:
                optional = s(1, 28..<35)
                check("composite", s(1, 0..<10) + s(1, 13..<20) + s(1, 21..<35), c(1, 35))
            default:
                // Visas: no composite; the optional data runs to the end of the line.
                optional = s(1, 28..<format.lineLength)
            }
            let (surname, given) = splitName(name)
            result = MRZ(format: format, lines: lines, documentCode: clean(s(0, 0..<2)), issuer: clean(s(0, 2..<5)),
                         surname: surname, givenNames: given, documentNumber: clean(number), nationality: clean(s(1, 10..<13)),
                         dateOfBirth: date(dob, future: false), sex: c(1, 20) == "<" ? "X" : c(1, 20),
                         expiryDate: date(exp, future: true), optionalData: clean(optional), problems: [], checks: checks,
                         repairs: repairs)
        case .frenchID:
            let number = s(1, 0..<12), dob = s(1, 27..<33)
            check("document_number", number, c(1, 12))
            check("date_of_birth", dob, c(1, 33))
            check("composite", lines[0] + s(1, 0..<35), c(1, 35))
            let given = clean(s(1, 13..<27)).components(separatedBy: "<").filter { !$0.isEmpty }
            result = MRZ(format: format, lines: lines, documentCode: clean(s(0, 0..<2)), issuer: clean(s(0, 2..<5)),
                         surname: splitName(s(0, 5..<30)).0,
                         givenNames: given.joined(separator: " ").split(separator: " ").joined(separator: " "),
                         documentNumber: clean(number), nationality: clean(s(0, 2..<5)),
                         dateOfBirth: date(dob, future: false), sex: c(1, 34) == "<" ? "X" : c(1, 34),
                         expiryDate: nil, optionalData: clean(s(0, 30..<36)), problems: [], checks: checks, repairs: repairs)
        case .td1:
            var number = s(0, 5..<14), numberCheck = c(0, 14)
            let dob = s(1, 0..<6), exp = s(1, 8..<14)
            // A number longer than 9 characters continues in the optional data, `<` standing
            // where its check digit would be; the check digit ends the continuation.
            if numberCheck == "<", let end = s(0, 15..<30).firstIndex(of: "<"), end != s(0, 15..<30).startIndex {
                let rest = s(0, 15..<30)[..<end]
                number += rest.dropLast()
                numberCheck = String(rest.last!)
            }
            check("document_number", number, numberCheck)
            check("date_of_birth", dob, c(1, 6))
            check("expiry_date", exp, c(1, 14))
            check("composite", s(0, 5..<30) + s(1, 0..<7) + s(1, 8..<15) + s(1, 18..<29), c(1, 29))
            let (surname, given) = splitName(s(2, 0..<30))
            result = MRZ(format: format, lines: lines, documentCode: clean(s(0, 0..<2)), issuer: clean(s(0, 2..<5)),
                         surname: surname, givenNames: given, documentNumber: clean(number), nationality: clean(s(1, 15..<18)),
                         dateOfBirth: date(dob, future: false), sex: c(1, 7) == "<" ? "X" : c(1, 7),
                         expiryDate: date(exp, future: true), optionalData: clean(s(0, 15..<30) + s(1, 18..<29)),
                         problems: [], checks: checks, repairs: repairs)
        }
        let birth = format == .td1 ? s(1, 0..<6) : format == .frenchID ? s(1, 27..<33) : s(1, 13..<19)
        let expiry = format == .td1 ? s(1, 8..<14) : format == .frenchID ? "" : s(1, 21..<27)
        result.problems = problems(result, birth: birth, expiry: expiry)
        if format == .mrva || format == .mrvb {
            // No composite check digit: nothing confirms the optional data or where the lines end
            // (a visa band whose right part is lost to glare reads as a shorter, "valid" visa).
            result.reviewReasons.append("visa: no composite check digit covers the optional data and the line ends")
        }
        return result
    }

    static func clean(_ s: String) -> String {
        s.replacingOccurrences(of: "<", with: " ").trimmingCharacters(in: .whitespaces)
    }

    static func splitName(_ field: String) -> (String, String) {
        let parts = field.components(separatedBy: "<<")
        let surname = clean(parts.first ?? "")
        let given = clean(parts.dropFirst().joined(separator: " ")).split(separator: " ").joined(separator: " ")
        return (surname, given)
    }

    /// YYMMDD → ISO date. Birth dates are in the past; expiry years 00–69 are 20xx.
    static func date(_ yymmdd: String, future: Bool) -> String? {
        // ASCII digits only: Character.isNumber also holds for "²" or "٨", which Int() refuses.
        guard yymmdd.count == 6, yymmdd.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        let yy = Int(yymmdd.prefix(2))!, mm = Int(yymmdd.dropFirst(2).prefix(2))!, dd = Int(yymmdd.suffix(2))!
        guard (1...12).contains(mm), (1...31).contains(dd) else { return nil }
        let current = Calendar(identifier: .gregorian).component(.year, from: Date()) % 100
        let century = future ? (yy < 70 ? 2000 : 1900) : (yy <= current ? 2000 : 1900)
        return String(format: "%04d-%02d-%02d", century + yy, mm, dd)
    }
}
