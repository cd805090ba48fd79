import Foundation

/// Document kinds the engine extracts fields for.
public enum DocumentKind: String, Sendable, Codable, CaseIterable {
    case deed, id, optout, unknown
}

/// An extracted value: a string, a number (amounts) or an ISO 8601 date string.
public enum FieldValue: Sendable, Equatable, Codable {
    case text(String)
    case number(Double)

    public var string: String? { if case .text(let s) = self { s } else { nil } }
    public var number: Double? { if case .number(let n) = self { n } else { nil } }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        switch self {
        case .text(let s): try c.encode(s)
        case .number(let n): try c.encode(n)
        }
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.singleValueContainer()
        if let n = try? c.decode(Double.self) { self = .number(n) } else { self = .text(try c.decode(String.self)) }
    }
}

/// One field with where it came from.
public struct Field: Sendable, Equatable, Codable {
    public var value: FieldValue
    /// Mean word confidence of the words it was read from (0–100).
    public var confidence: Double
    /// Union of those words' boxes (page pixels after preprocessing).
    public var box: BoundingBox?
}

/// A line of recognised text with its words.
struct TextLine {
    var words: [Word]
    var text: String
    /// Character offset of each word in `text`.
    var offsets: [Int]

    init(words: [Word]) {
        self.words = words
        var text = "", offsets: [Int] = []
        for w in words {
            if !text.isEmpty { text += " " }
            offsets.append(text.count)
            text += w.text
        }
        self.text = text
        self.offsets = offsets
    }

    /// The words covering characters `range` of `text`.
    func words(in range: Range<Int>) -> [Word] {
        zip(words, offsets).filter { w, o in o < range.upperBound && o + w.text.count > range.lowerBound }.map(\.0)
    }

    static func group(_ words: [Word]) -> [TextLine] {
        var lines: [TextLine] = []
        var current: [Word] = []
        var key: (Int, Int, Int)?
        for w in words {
            let k = (w.block, w.paragraph, w.line)
            if let key, key != k {
                lines.append(TextLine(words: current))
                current = []
            }
            key = k
            current.append(w)
        }
        if !current.isEmpty { lines.append(TextLine(words: current)) }
        return lines
    }
}

/// Pattern-based field extraction over OCR lines. A field is reported only when its label or
/// pattern is found: missing fields are absent, never guessed.
enum FieldExtractor {
    static func detectKind(_ text: String) -> DocumentKind {
        let t = text.uppercased()
        func score(_ words: [String]) -> Int { words.filter { t.contains($0) }.count }
        let deed = score(["DEED", "GRANTOR", "GRANTEE", "PARCEL", "APN", "RECORDED", "CONVEY", "LEGAL DESCRIPTION", "CONSIDERATION"])
        let id = score(["PASSPORT", "IDENTITY", "DATE OF BIRTH", "DATE OF EXPIRY", "NATIONALITY", "GIVEN NAMES", "SURNAME", "<<<"])
        let optout = score(["OPT-OUT", "OPT OUT", "REMOVAL", "REMOVE MY", "DELETE MY", "PRIVACY", "PERSONAL INFORMATION", "REQUEST"])
        let best = max(deed, id, optout)
        guard best >= 2 else { return .unknown }
        return best == id ? .id : best == deed ? .deed : .optout
    }

    /// First match of `pattern` (capture group `group`) in any line, as a field.
    static func find(_ lines: [TextLine], _ pattern: String, group: Int = 1, transform: (String) -> FieldValue? = { .text($0) }) -> Field? {
        guard let regex = try? NSRegularExpression(pattern: pattern, options: [.caseInsensitive]) else { return nil }
        for line in lines {
            let ns = line.text as NSString
            guard let m = regex.firstMatch(in: line.text, range: NSRange(location: 0, length: ns.length)),
                  m.range(at: group).location != NSNotFound else { continue }
            let r = m.range(at: group)
            let raw = ns.substring(with: r).trimmingCharacters(in: .whitespacesAndNewlines.union(CharacterSet(charactersIn: ",;")))
            guard !raw.isEmpty, let value = transform(raw) else { continue }
            // Map the UTF-16 range back to character offsets for the word lookup.
            let start = line.text.distance(from: line.text.startIndex, to: Range(r, in: line.text)!.lowerBound)
            let words = line.words(in: start..<(start + raw.count))
            return field(value, words)
        }
        return nil
    }

    static func field(_ value: FieldValue, _ words: [Word]) -> Field {
        let box = words.dropFirst().reduce(words.first?.box) { $0?.union($1.box) }
        let confidence = words.isEmpty ? 0 : words.reduce(0) { $0 + $1.confidence } / Double(words.count)
        return Field(value: value, confidence: (confidence * 10).rounded() / 10, box: box)
    }

    static let states: [String: String] = [
        "ALABAMA": "AL", "ALASKA": "AK", "ARIZONA": "AZ", "ARKANSAS": "AR", "CALIFORNIA": "CA", "COLORADO": "CO",
        "CONNECTICUT": "CT", "DELAWARE": "DE", "FLORIDA": "FL", "GEORGIA": "GA", "HAWAII": "HI", "IDAHO": "ID",
        "ILLINOIS": "IL", "INDIANA": "IN", "IOWA": "IA", "KANSAS": "KS", "KENTUCKY": "KY", "LOUISIANA": "LA", "MAINE": "ME",
        "MARYLAND": "MD", "MASSACHUSETTS": "MA", "MICHIGAN": "MI", "MINNESOTA": "MN", "MISSISSIPPI": "MS", "MISSOURI": "MO",
        "MONTANA": "MT", "NEBRASKA": "NE", "NEVADA": "NV", "NEW HAMPSHIRE": "NH", "NEW JERSEY": "NJ", "NEW MEXICO": "NM",
        "NEW YORK": "NY", "NORTH CAROLINA": "NC", "NORTH DAKOTA": "ND", "OHIO": "OH", "OKLAHOMA": "OK", "OREGON": "OR",
        "PENNSYLVANIA": "PA", "RHODE ISLAND": "RI", "SOUTH CAROLINA": "SC", "SOUTH DAKOTA": "SD", "TENNESSEE": "TN",
        "TEXAS": "TX", "UTAH": "UT", "VERMONT": "VT", "VIRGINIA": "VA", "WASHINGTON": "WA", "WEST VIRGINIA": "WV",
        "WISCONSIN": "WI", "WYOMING": "WY",
    ]

    static func state(_ s: String) -> FieldValue? {
        let u = s.uppercased()
        if u.count == 2, states.values.contains(u) { return .text(u) }
        return states[u].map { .text($0) }
    }

    static let months = ["JANUARY", "FEBRUARY", "MARCH", "APRIL", "MAY", "JUNE", "JULY", "AUGUST", "SEPTEMBER",
                         "OCTOBER", "NOVEMBER", "DECEMBER"]

    /// "March 14, 2023", "14 March 2023", "03/14/2023", "2023-03-14" → "2023-03-14".
    static func isoDate(_ s: String) -> FieldValue? {
        let t = s.uppercased().replacingOccurrences(of: ",", with: " ")
        func make(_ y: Int, _ m: Int, _ d: Int) -> FieldValue? {
            guard (1...12).contains(m), (1...31).contains(d), (1800...2200).contains(y) else { return nil }
            return .text(String(format: "%04d-%02d-%02d", y, m, d))
        }
        let parts = t.split(whereSeparator: { $0 == " " || $0 == "/" || $0 == "-" || $0 == "." }).map(String.init)
        if parts.count >= 3 {
            if let y = Int(parts[0]), parts[0].count == 4, let m = Int(parts[1]), let d = Int(parts[2]) { return make(y, m, d) }
            if let m = Int(parts[0]), let d = Int(parts[1]), let y = Int(parts[2]), parts[2].count == 4 { return make(y, m, d) }
            if let mi = months.firstIndex(where: { $0.hasPrefix(parts[0].prefix(3)) && parts[0].count >= 3 }),
               let d = Int(parts[1].filter(\.isNumber)), let y = Int(parts[2]) { return make(y, mi + 1, d) }
            if let d = Int(parts[0]), let mi = months.firstIndex(where: { $0.hasPrefix(parts[1].prefix(3)) && parts[1].count >= 3 }),
               let y = Int(parts[2]) { return make(y, mi + 1, d) }
        }
        return nil
    }

    /// "$385,000.00" → 385000.
    static func amount(_ s: String) -> FieldValue? {
        Double(s.replacingOccurrences(of: ",", with: "").replacingOccurrences(of: "$", with: "")).map { .number($0) }
    }

    static let datePattern = #"((?:January|February|March|April|May|June|July|August|September|October|November|December)\s+\d{1,2},?\s+\d{4}|\d{1,2}/\d{1,2}/\d{4}|\d{4}-\d{2}-\d{2})"#

    static func deed(_ lines: [TextLine]) -> [String: Field] {
        var f: [String: Field] = [:]
        f["grantor"] = find(lines, #"Grantor\s*[:;]\s*([A-Z][A-Z .,'&-]+)"#) ?? find(lines, #"^([A-Z][A-Z .'-]+),\s*Grantor"#)
        f["grantee"] = find(lines, #"Grantee\s*[:;]\s*([A-Z][A-Z .,'&-]+)"#) ?? find(lines, #"^([A-Z][A-Z .'-]+),\s*Grantee"#)
        f["parcel_number"] = find(lines, #"(?:APN|Parcel\s+(?:Number|No\.?|ID))\s*[:#]?\s*([0-9][0-9-]{4,})"#)
        f["recording_date"] = find(lines, #"Record(?:ed|ing Date)\s*[:;]?\s*"# + datePattern, transform: isoDate)
        f["instrument_number"] = find(lines, #"(?:Instrument|Document)\s+(?:No\.?|Number|#)\s*[:#]?\s*((?:DOC\s+)?[0-9][0-9-]{4,})"#)
        f["county"] = find(lines, #"County of\s+([A-Z][a-z]+(?:\s[A-Z][a-z]+)?)"#) ?? find(lines, #"([A-Z][a-z]+)\s+County"#)
        f["state"] = find(lines, #"State of\s+([A-Z][a-z]+(?:\s[A-Z][a-z]+)?)"#, transform: state)
            ?? find(lines, #",\s*([A-Z]{2})\s+\d{5}"#, transform: state)
        f["property_address"] = find(lines, #"Property Address\s*[:;]\s*(.+\d{5})"#)
            ?? find(lines, #"property located at\s*(.+)"#)
            ?? find(lines, #"^(\d+\s+[A-Z][A-Za-z ]+(?:Lane|Drive|Street|Road|Avenue|Boulevard|Court|Way)\b.*\d{5})"#)
        f["consideration"] = find(lines, #"consideration\D{0,40}(\$\s?[0-9][0-9,]*(?:\.\d{2})?)"#, transform: amount)
            ?? find(lines, #"(\$\s?[0-9][0-9,]*\.\d{2})"#, transform: amount)
        // Legal description: the labelled line and its continuation up to the sentence's end.
        for (i, line) in lines.enumerated() {
            guard let r = line.text.range(of: #"Legal(?:ly)?\s+descri(?:ption|bed as)\s*[:;]?\s*"#, options: [.regularExpression, .caseInsensitive]) else { continue }
            var text = String(line.text[r.upperBound...])
            var words = line.words(in: line.text.distance(from: line.text.startIndex, to: r.upperBound)..<line.text.count)
            var j = i + 1
            while !text.hasSuffix("."), j < lines.count, j <= i + 3 {
                text += " " + lines[j].text
                words += lines[j].words
                j += 1
            }
            text = text.trimmingCharacters(in: CharacterSet(charactersIn: ". "))
            if !text.isEmpty { f["legal_description"] = field(.text(text), words) }
            break
        }
        return f
    }

    static func optout(_ lines: [TextLine]) -> [String: Field] {
        var f: [String: Field] = [:]
        f["data_broker"] = find(lines, #"REMOVAL REQUEST\s*[-–—:]\s*(\S.+)"#) ?? find(lines, #"^To\s*:\s*(.+?)\s+Privacy"#)
            ?? find(lines, #"^To\s*:\s*(.+)"#)
        f["full_name"] = find(lines, #"(?:Full\s+)?Name\s*[:;]\s*([A-Z][A-Za-z.' -]+)"#)
        f["email"] = find(lines, #"([A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,})"#)
        f["phone"] = find(lines, #"(\(?\d{3}\)?[\s.-]?\d{3}[\s.-]\d{4})"#)
        f["street_address"] = find(lines, #"Street Address\s*[:;]\s*(.+)"#) ?? find(lines, #"^Address\s*[:;]\s*([^,]+(?:,\s*(?:Apt|Unit|Suite|#)[^,]*)?),"#)
        f["city"] = find(lines, #"^City\s*[:;]\s*(.+)"#) ?? find(lines, #"Address\s*[:;].*,\s*([A-Z][A-Za-z .]+),\s*[A-Z]{2}\s+\d{5}"#)
        f["state"] = find(lines, #"^State\s*[:;]\s*([A-Za-z ]+)"#, transform: state) ?? find(lines, #",\s*([A-Z]{2})\s+\d{5}"#, transform: state)
        f["zip"] = find(lines, #"^ZIP(?:\s*Code)?\s*[:;]\s*(\d{5}(?:-\d{4})?)"#) ?? find(lines, #",\s*[A-Z]{2}\s+(\d{5}(?:-\d{4})?)"#)
        f["request_id"] = find(lines, #"(?:Request\s+ID|Reference|Ref\.?)\s*[:#;]\s*([A-Z0-9][A-Z0-9-]{3,})"#)
        f["date"] = find(lines, #"^Date\s*[:;]\s*"# + datePattern, transform: isoDate) ?? find(lines, #"^"# + datePattern + #"$"#, transform: isoDate)
        return f
    }

    /// Visual-zone fields of an ID, from "Label" lines followed by their values.
    static func idVisual(_ lines: [TextLine]) -> [String: Field] {
        var f: [String: Field] = [:]
        let labels: [(String, String, (String) -> FieldValue?)] = [
            ("surname", #"^Surname$"#, { .text($0.uppercased()) }),
            ("given_names", #"^Given names?$"#, { .text($0.uppercased()) }),
            ("nationality", #"^Nationality$"#, { .text($0.uppercased()) }),
            ("date_of_birth", #"^Date of birth$"#, isoDate),
            ("sex", #"^Sex$"#, { ["M", "F", "X"].contains($0.uppercased()) ? .text($0.uppercased()) : nil }),
            ("document_number", #"^Document no\.?$"#, { .text($0.uppercased().replacingOccurrences(of: " ", with: "")) }),
            ("expiry_date", #"^Date of expiry$"#, isoDate),
        ]
        for (i, line) in lines.enumerated() where i + 1 < lines.count {
            for (name, pattern, transform) in labels where f[name] == nil {
                if line.text.range(of: pattern, options: [.regularExpression, .caseInsensitive]) != nil,
                   let value = transform(lines[i + 1].text.trimmingCharacters(in: .whitespaces)) {
                    f[name] = field(value, lines[i + 1].words)
                }
            }
        }
        return f
    }
}
