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
    /// Union of those words' boxes (pixels of the image as given; see ``PageResult/words``).
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
    /// Union of the label's boxes and union of the value's boxes (pixels of the image as given).
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

/// A page's lines turned level for the layout rules (rows, columns, "value below its label"),
/// which compare word boxes along the image axes. A photo whose skew the preprocessing could not
/// measure with confidence (sparse text, perspective) keeps its slant, and over a card a few
/// degrees move one column's rows past the next column's: the slant is taken from Tesseract's
/// own lines instead.
struct LevelledLines {
    var lines: [TextLine]
    /// The slant undone (radians; positive when lines run down to the right).
    var angle: Double
    let cx: Double, cy: Double

    /// `lines` turned level about the page centre when they have a ``slant(of:)`` or a
    /// ``smallSlant(of:)``; nil otherwise.
    init?(_ lines: [TextLine], width: Int, height: Int) {
        guard let angle = Self.slant(of: lines) ?? Self.smallSlant(of: lines) else { return nil }
        let (cx, cy) = (Double(width) / 2, Double(height) / 2)
        (self.angle, self.cx, self.cy) = (angle, cx, cy)
        let (c, s) = (cos(angle), sin(angle))
        self.lines = lines.map { line in
            TextLine(words: line.words.map { w in
                var w = w
                let x = Double(w.box.x) + Double(w.box.width) / 2 - cx, y = Double(w.box.y) + Double(w.box.height) / 2 - cy
                w.box.x = Int((x * c + y * s + cx - Double(w.box.width) / 2).rounded())
                w.box.y = Int((-x * s + y * c + cy - Double(w.box.height) / 2).rounded())
                return w
            })
        }
    }

    /// The lines' median slant (radians) when it is between 1° and 15°, measured on at least three
    /// lines that run at least four letter heights; nil otherwise.
    static func slant(of lines: [TextLine]) -> Double? {
        let slants = lineSlants(lines, words: 2, span: 4)
        guard slants.count >= 3 else { return nil }
        let angle = slants[slants.count / 2]
        return abs(angle) >= Double.pi / 180 && abs(angle) <= 15 * Double.pi / 180 ? angle : nil
    }

    /// A slant under a degree that Tesseract's long lines agree on: a page left a little askew
    /// ("Postal Code 07102" and "Phone (236) 720-6592" along one printed line of a form 0.9° askew
    /// stand more than half a letter height apart at its ends, and the rows part them). The median
    /// slant of the lines of three words or more that run eight letter heights or more, when there
    /// are three such lines, it is a quarter of a degree or more, and their middle half lies within
    /// 0.86° (a photo's perspective slopes its lines each their own way); nil otherwise.
    static func smallSlant(of lines: [TextLine]) -> Double? {
        let slants = lineSlants(lines, words: 3, span: 8)
        guard slants.count >= 3 else { return nil }
        let angle = slants[slants.count / 2]
        let spread = slants[(3 * slants.count) / 4] - slants[slants.count / 4]
        return abs(angle) >= Double.pi / 720 && abs(angle) < Double.pi / 180 && spread <= atan(0.015) ? angle : nil
    }

    /// The slants (radians, sorted) of the lines of at least `words` words whose leftmost and
    /// rightmost words' centres lie at least `span` letter heights apart, measured between those
    /// centres.
    static func lineSlants(_ lines: [TextLine], words: Int, span: Double) -> [Double] {
        lines.compactMap { line -> Double? in
            guard line.words.count >= max(2, words), let a = line.words.min(by: { $0.box.x < $1.box.x })?.box,
                  let b = line.words.max(by: { $0.box.x < $1.box.x })?.box else { return nil }
            let dx = Double(b.x + b.width / 2 - a.x - a.width / 2)
            let h = Double(PageLayout.median(line.words.map(\.box.height)))
            guard dx >= span * max(h, 4) else { return nil }
            return atan2(Double(b.y + b.height / 2 - a.y - a.height / 2), dx)
        }.sorted()
    }

    /// A box in the levelled frame back in the page's: the bounds of its corners turned back,
    /// within the page.
    func back(_ box: BoundingBox, width: Int, height: Int) -> BoundingBox {
        let (c, s) = (cos(angle), sin(angle))
        var x0 = Double.infinity, y0 = Double.infinity, x1 = -Double.infinity, y1 = -Double.infinity
        for (px, py) in [(box.x, box.y), (box.x + box.width, box.y), (box.x, box.y + box.height), (box.x + box.width, box.y + box.height)] {
            let x = Double(px) - cx, y = Double(py) - cy
            let X = x * c - y * s + cx, Y = x * s + y * c + cy
            (x0, y0, x1, y1) = (min(x0, X), min(y0, Y), max(x1, X), max(y1, Y))
        }
        let l = max(0, Int(x0.rounded(.down))), t = max(0, Int(y0.rounded(.down)))
        let r = min(width, Int(x1.rounded(.up))), b = min(height, Int(y1.rounded(.up)))
        return BoundingBox(x: l, y: t, width: max(0, r - l), height: max(0, b - t))
    }
}
