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
    /// The value was read but is doubtful (poorly read, or inconsistent with another field, such
    /// as a ZIP code outside its state): a person should check it before it is used.
    public var needsReview = false
}

/// A label and the value printed beside, below or in the cell next to it, for forms of any kind.
public struct FieldPair: Sendable, Equatable, Codable {
    /// The label as printed, without its colon.
    public var label: String
    /// The value as printed.
    public var value: String
    /// The canonical field name when the label is one the engine knows (e.g. `zip` for "Postal Code").
    public var field: String?
    /// Mean word confidence of the value's words (0–100).
    public var confidence: Double
    /// Union of the label's boxes and union of the value's boxes.
    public var labelBox: BoundingBox
    public var valueBox: BoundingBox
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
