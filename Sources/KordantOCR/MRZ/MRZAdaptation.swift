import Foundation

/// In-document glyph prototypes: every character of one MRZ is printed in one font, at one scale,
/// through one capture, so the document's own clearly read glyphs are better references than any
/// stock template for the cells in doubt.
///
/// Prototypes come only from cells whose character class the format fixes and whose reading is
/// sure: digits of dates and check digits (a `0` there cannot be an `O`), letters and fillers of
/// names, countries and the document code (an `O` there cannot be a `0`). Where a document shows
/// only one of a look-alike pair (its dates have zeros but its names no `O`), the partner's
/// prototype is the present one moved by the difference between the two stock templates.
///
/// The evidence of a cell is then re-weighed within each look-alike class (0/O/D/Q/U, 1/I/L/T,
/// 2/Z, 5/S/`<`/K/C/E, 6/G, 8/B) among the members that have a prototype and that the format allows
/// in that cell, keeping their total weight: the document's glyphs decide between, say, `0` and
/// `O`, and never make a character likelier against one of another class or one they say nothing
/// about.
enum MRZAdaptation {
    /// Look-alike pairs whose missing member is derived from the present one.
    static let transfers: [(Int, Int)] = [("0", "O"), ("1", "I"), ("2", "Z"), ("5", "S"), ("8", "B"), ("6", "G"), ("0", "D")]
        .map { (MRZAlphabet.index(Character($0))!, MRZAlphabet.index(Character($1))!) }

    /// Weight of the height term: lower than the stock templates' because a glyph's measured
    /// height moves by a whole pixel in ~30 (glare, blur), while the shape against the document's
    /// own glyph is the sharper evidence.
    static let heightWeight = 1.0

    struct Prototype {
        var grid: [Float]
        var rel: Double
        var aspect: Double
    }

    /// The document's prototypes, by ``MRZAlphabet`` index, from the sure cells of `decoded`.
    static func prototypes(cells: [[MRZGlyphScorer.Cell]], decoded: MRZDecoder.Result, format: MRZ.Format,
                           minConfidence: Double) -> [Int: Prototype] {
        var sums: [Int: (grid: [Float], rel: Double, aspect: Double, n: Int)] = [:]
        for span in MRZDecoder.layout(format) {
            switch span.kind {
            case .date, .check, .country, .name, .sex, .documentCode: break
            case .free, .checkOrFiller: continue   // any character may stand there: no label
            }
            guard span.line < cells.count, span.line < decoded.lines.count else { continue }
            let chars = Array(decoded.lines[span.line])
            for c in span.range where c < cells[span.line].count && c < chars.count {
                let cell = cells[span.line][c]
                guard !cell.grid.isEmpty, decoded.confidence[span.line][c] >= minConfidence,
                      let k = MRZAlphabet.index(chars[c]) else { continue }
                var s = sums[k] ?? ([Float](repeating: 0, count: cell.grid.count), 0, 0, 0)
                for i in s.grid.indices { s.grid[i] += cell.grid[i] }
                s.rel += cell.rel
                s.aspect += cell.aspect
                s.n += 1
                sums[k] = s
            }
        }
        var out: [Int: Prototype] = [:]
        for (k, s) in sums {
            let n = Float(s.n)
            out[k] = Prototype(grid: s.grid.map { $0 / n }, rel: s.rel / Double(s.n), aspect: s.aspect / Double(s.n))
        }
        let templates = MRZGlyphScorer.templates
        for (a, b) in transfers {
            for (have, missing) in [(a, b), (b, a)] where out[missing] == nil {
                guard let p = out[have], sums[have] != nil else { continue }
                let ta = templates[have], tb = templates[missing]
                out[missing] = Prototype(grid: zip(p.grid, zip(tb.grid, ta.grid)).map { $0 + $1.0 - $1.1 },
                                         rel: p.rel * tb.rel / ta.rel, aspect: p.aspect * tb.aspect / ta.aspect)
            }
        }
        return out
    }

    /// Look-alike classes (``MRZDecoder/lookAlikeClasses``, those sharing a member joined).
    static let classes: [[Int]] = {
        var sets = MRZDecoder.lookAlikeClasses.map { Set($0.compactMap(MRZAlphabet.index)) }
        var merged: [Set<Int>] = []
        while let first = sets.popLast() {
            var group = first
            while let i = sets.firstIndex(where: { !$0.isDisjoint(with: group) }) { group.formUnion(sets.remove(at: i)) }
            merged.append(group)
        }
        return merged.map { $0.sorted() }
    }()

    /// Re-weighs `evidence` (log-scores, lines × cells × 37) within each look-alike class among
    /// the members that have a prototype and that the format allows in the cell, keeping their
    /// total weight: the document's glyphs tell a `0` from an `O` where both may stand, never a
    /// glyph of one class from another's (nor, in a date, a `5` from a `3` by way of an `S`).
    static func adapt(_ evidence: inout [[[Double]]], cells: [[MRZGlyphScorer.Cell]], prototypes: [Int: Prototype], format: MRZ.Format,
                      temperature: Double) {
        let groups = classes.map { $0.filter { prototypes[$0] != nil } }.filter { $0.count >= 2 }
        guard !groups.isEmpty else { return }
        var adjusted = [Double](repeating: 0, count: MRZAlphabet.count)
        for span in MRZDecoder.layout(format) where span.line < cells.count && span.line < evidence.count {
            let l = span.line
            for (offset, c) in span.range.enumerated() where c < cells[l].count && c < evidence[l].count {
                let cell = cells[l][c]
                guard !cell.grid.isEmpty else { continue }
                let allowed = Set(MRZDecoder.allowed(span.kind, offset: offset))
                let e = evidence[l][c]
                for group in groups {
                    let members = group.filter(allowed.contains)
                    guard members.count >= 2 else { continue }
                    for k in members {
                        let p = prototypes[k]!
                        let d = MRZGlyphScorer.shapeDistance(cell.grid, p.grid)
                            + heightWeight * pow(cell.rel - p.rel, 2)
                            + MRZGlyphScorer.aspectWeight * pow(cell.aspect - p.aspect, 2)
                        adjusted[k] = e[k] - d / temperature
                    }
                    let shift = logSumExp(members.map { e[$0] }) - logSumExp(members.map { adjusted[$0] })
                    for k in members { evidence[l][c][k] = adjusted[k] + shift }
                }
            }
        }
    }

    /// Calibrates each digit/letter look-alike pair (0/O, 1/I, 2/Z, 5/S, 8/B, 6/G, 0/D) in the
    /// cells where either may stand (document numbers, optional data) against what the same
    /// evidence says in this document's cells whose class the format fixes: a phone photo's blur
    /// rounds every 0, so all three readers lean towards O on its dates' zeros as much as on its
    /// document number's (dev seed 45), and a lean a sure 0 shares says nothing.
    ///
    /// The pair's log-odds (digit over letter) are measured on the sure digits of dates and check
    /// digits and on the sure letters of names, countries and the document code. Only a lean
    /// those show is taken out: where the digits lean to the letter (or the letters to the
    /// digit), a doubtful cell's log-odds are taken from the midpoint of the two means, scaled so
    /// the means sit at ±`halfGap` when they lie closer than that (never narrowed); where the
    /// document shows only the leaning one, from `halfGap` past its mean. The pair keeps its
    /// total weight. Where the digits read as digits and the letters as letters, or the digits
    /// lean no further to the digit than the letters, nothing changes: a glared 0 weaker than
    /// the dates' clear zeros is still a 0 (dev seed 46).
    static func calibrate(_ evidence: inout [[[Double]]], decoded: MRZDecoder.Result, format: MRZ.Format,
                          minConfidence: Double, halfGap: Double) {
        let spans = MRZDecoder.layout(format)
        for (digit, letter) in transfers {
            var digits: [Double] = [], letters: [Double] = []
            var doubtful: [(Int, Int)] = []
            for span in spans where span.line < evidence.count && span.line < decoded.lines.count {
                let chars = Array(decoded.lines[span.line])
                for c in span.range where c < evidence[span.line].count && c < chars.count {
                    guard let k = MRZAlphabet.index(chars[c]), k == digit || k == letter else { continue }
                    let e = evidence[span.line][c]
                    let sure = decoded.confidence[span.line][c] >= minConfidence
                    switch span.kind {
                    case .date, .check: if sure && k == digit { digits.append(e[digit] - e[letter]) }
                    case .name, .country, .documentCode: if sure && k == letter { letters.append(e[digit] - e[letter]) }
                    case .free: doubtful.append((span.line, c))
                    case .checkOrFiller, .sex: break
                    }
                }
            }
            guard !doubtful.isEmpty, !digits.isEmpty || !letters.isEmpty else { continue }
            let onDigits = digits.isEmpty ? nil : digits.reduce(0, +) / Double(digits.count)
            let onLetters = letters.isEmpty ? nil : letters.reduce(0, +) / Double(letters.count)
            let mid: Double, scale: Double
            switch (onDigits, onLetters) {
            case let (d?, l?):
                guard d <= 0 || l >= 0, d > l else { continue }
                mid = (d + l) / 2
                scale = max(1, 2 * halfGap / (d - l))
            case let (d?, nil):
                guard d <= 0 else { continue }
                (mid, scale) = (d - halfGap, 1)
            case let (nil, l?):
                guard l >= 0 else { continue }
                (mid, scale) = (l + halfGap, 1)
            case (nil, nil): continue
            }
            for (l, c) in doubtful {
                let a = evidence[l][c][digit], b = evidence[l][c][letter]
                let total = logSumExp([a, b]), odds = (a - b - mid) * scale
                // log σ(±odds), stable for large odds.
                evidence[l][c][digit] = total - logSumExp([0, -odds])
                evidence[l][c][letter] = total - logSumExp([0, odds])
            }
        }
    }

    static func logSumExp(_ v: [Double]) -> Double {
        guard let top = v.max(), top > -.infinity else { return -.infinity }
        var s = 0.0
        for x in v { s += exp(x - top) }
        return top + log(s)
    }
}
