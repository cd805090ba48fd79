import Foundation
@testable import KordantOCR
import Testing

/// The document's own glyphs as references (``MRZAdaptation``): they settle look-alikes the stock
/// templates leave in doubt, and they never favour a character they say nothing about.
@Suite struct MRZAdaptationTests {
    static let td3 = MRZDecoderTests.td3

    /// Cells showing `lines` as one document prints them: every character's stock glyph, changed
    /// the same way everywhere (bolder ink, as one printer and one capture make it).
    static func cells(_ lines: [String]) -> [[MRZGlyphScorer.Cell]] {
        lines.map { line in
            line.map { ch in
                let t = MRZGlyphScorer.templates[MRZAlphabet.index(ch)!]
                return MRZGlyphScorer.Cell(distances: [Double](repeating: 0, count: MRZAlphabet.count), box: (0, 0, 1, 1),
                                           grid: t.grid.map { min(1, $0 * 1.4 + 0.05) }, rel: t.rel, aspect: t.aspect)
            }
        }
    }

    static func adapted(_ evidence: [[[Double]]], lines: [String], format: MRZ.Format) -> [[[Double]]] {
        let decoded = MRZDecoder(evidence: evidence).decode(format: format)
        let prototypes = MRZAdaptation.prototypes(cells: cells(lines), decoded: decoded, format: format, minConfidence: 0.97)
        var e = evidence
        MRZAdaptation.adapt(&e, cells: cells(lines), prototypes: prototypes, format: format, temperature: MRZScanOptions().adaptationTemperature)
        return e
    }

    /// The document number's `0` looks a little more like the stock `O` (a capture's doing); the
    /// zeros of the dates (digits by the format) and the O of the name (a letter by the format)
    /// show what this document's `0` and `O` look like, and the reading becomes the printed one.
    @Test func theDocumentsOwnZerosSettleAZeroReadAsO() throws {
        let doubt: [(Int, Int, Character, Double)] = [(1, 5, "O", -1.0)]
        let evidence = MRZDecoderTests.evidence(Self.td3, doubt: doubt)
        let before = MRZDecoderTests.read(Self.td3, .td3, doubt: doubt)
        #expect(!before.valid || before.lines != Self.td3)   // stock evidence alone: O, or a repair under review

        let e = Self.adapted(evidence, lines: Self.td3, format: .td3)
        let zero = MRZAlphabet.index("0")!, oh = MRZAlphabet.index("O")!
        // The stock evidence leaned to O by 1; the document's glyphs turn it round.
        #expect(evidence[1][5][oh] > evidence[1][5][zero] && e[1][5][zero] > e[1][5][oh])
        let decoded = MRZDecoder(evidence: e).decode(format: .td3)
        #expect(decoded.lines == Self.td3)
        #expect(decoded.repairs.isEmpty)
        let m = try #require(MRZParser.build(format: .td3, lines: decoded.lines, repairs: decoded.repairs))
        #expect(m.valid && decoded.confidence[1][5] >= 0.9)
    }

    /// The document's glyphs only redistribute weight within a look-alike class, among the members
    /// they show: a character with no prototype (Q) or of no class (A) keeps its evidence, and the
    /// class's members with one keep their total weight.
    @Test func evidenceOutsideAClassesPrototypesIsUnchanged() {
        let q = MRZAlphabet.index("Q")!, a = MRZAlphabet.index("A")!
        let evidence = MRZDecoderTests.evidence(Self.td3, doubt: [(1, 5, "Q", 0.5), (1, 5, "O", -1.0), (1, 5, "A", 1.0)])
        let decoded = MRZDecoder(evidence: evidence).decode(format: .td3)
        let prototypes = MRZAdaptation.prototypes(cells: Self.cells(Self.td3), decoded: decoded, format: .td3, minConfidence: 0.97)
        #expect(prototypes[q] == nil && prototypes[a] != nil)
        var e = evidence
        MRZAdaptation.adapt(&e, cells: Self.cells(Self.td3), prototypes: prototypes, format: .td3, temperature: 0.006)
        #expect(e[1][5][q] == evidence[1][5][q])
        #expect(e[1][5][a] == evidence[1][5][a])
        let members = MRZAdaptation.classes.first { $0.contains(MRZAlphabet.index("0")!) }!.filter { prototypes[$0] != nil }
        #expect(members.count >= 2)
        let lse = { (v: [Double]) in MRZAdaptation.logSumExp(members.map { v[$0] }) }
        #expect(abs(lse(e[1][5]) - lse(evidence[1][5])) < 1e-9)
    }

    /// A look-alike missing from the document is derived from its partner: zeros in the dates
    /// and no O anywhere sure still give an O to compare with.
    @Test func aMissingLookAlikeIsDerivedFromItsPartner() {
        let lines = ["P<D<<ERIKSSEN<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<", "L898902C36D<<7408122F1204159ZE184226B<<<<<10"]
        #expect(lines.allSatisfy { $0.count == 44 && !$0.contains("O") })
        let decoded = MRZDecoder(evidence: MRZDecoderTests.evidence(lines)).decode(format: .td3)
        let prototypes = MRZAdaptation.prototypes(cells: Self.cells(lines), decoded: decoded, format: .td3, minConfidence: 0.97)
        let zero = MRZAlphabet.index("0")!, oh = MRZAlphabet.index("O")!
        let derived = prototypes[oh], present = prototypes[zero]
        #expect(derived != nil && present != nil)
        // The derived O is closer to this document's O than to its 0.
        let documentO = Self.cells(["O"])[0][0].grid
        if let derived, let present {
            #expect(MRZGlyphScorer.shapeDistance(documentO, derived.grid) < MRZGlyphScorer.shapeDistance(documentO, present.grid))
        }
    }
    /// A capture that rounds every zero (a phone photo's blur): all of the document's zeros lean
    /// to O by 3, the dates' as much as the document number's. Its dates' zeros are digits by the
    /// format and its name's Os letters, so a lean the sure zeros share says nothing, and the
    /// document number's zero is read as printed, with the check digit agreeing.
    @Test func aLeanEveryZeroSharesIsMeasuredOnTheDocumentsOwnZeros() throws {
        let zeros = Array(Self.td3[1]).indices.filter { Array(Self.td3[1])[$0] == "0" }
        #expect(zeros.count == 4)   // document number col 6, both dates, the composite check digit
        let evidence = MRZDecoderTests.evidence(Self.td3, doubt: zeros.map { (1, $0, "O", -3.0) })
        let decoded = MRZDecoder(evidence: evidence).decode(format: .td3)
        #expect(decoded.lines[1] != Self.td3[1] || !decoded.repairs.isEmpty)   // read O, or mended under review

        var e = evidence
        MRZAdaptation.calibrate(&e, decoded: decoded, format: .td3, minConfidence: 0.97, halfGap: MRZScanOptions().calibrationHalfGap)
        let again = MRZDecoder(evidence: e).decode(format: .td3)
        #expect(again.lines == Self.td3 && again.repairs.isEmpty)
        #expect(again.confidence[1][5] >= 0.9)
        // Only the document number's cell moved (dates and check digits are digits by the
        // format), and its pair kept its weight.
        let zero = MRZAlphabet.index("0")!, oh = MRZAlphabet.index("O")!
        for c in zeros.dropFirst() { #expect(e[1][c] == evidence[1][c]) }
        let pair = { (v: [Double]) in MRZAdaptation.logSumExp([v[zero], v[oh]]) }
        #expect(abs(pair(e[1][5]) - pair(evidence[1][5])) < 1e-9)
    }

    /// Calibration never invents: a document-number O that leans to O as far as the name's Os do
    /// stays an O; and a document whose zeros and Os both read as what they are, whose dates'
    /// zeros lean no further to 0 than its Os (nothing to tell them apart by), or that shows no O
    /// at all, keeps the readers' evidence.
    @Test func calibrationKeepsWhatTheDocumentCannotTellApart() {
        let lines = ["P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<", "L89O902C36UTO7408122F1204159ZE184226B<<<<<10"]
        let zeros = [15, 22]
        // Zeros lean to O by 3; the document number's O and the name's Os are clear Os.
        let e0 = MRZDecoderTests.evidence(lines, doubt: zeros.map { (1, $0, "O", -3.0) })
        let decoded = MRZDecoder(evidence: e0).decode(format: .td3)
        var e = e0
        MRZAdaptation.calibrate(&e, decoded: decoded, format: .td3, minConfidence: 0.97, halfGap: 4)
        let oh = MRZAlphabet.index("O")!, zero = MRZAlphabet.index("0")!
        #expect(e[1][3][oh] > e[1][3][zero] + 4)
        #expect(MRZDecoder(evidence: e).decode(format: .td3).lines[1].hasPrefix("L89O"))

        // Zeros read as zeros (by 20) and Os as Os (by 7): no lean to take out, and a document
        // number's 0 read less clearly than the dates' (by 4 under glare, short of the midpoint
        // of the two means) stays a 0.
        let clear = MRZDecoderTests.evidence(Self.td3, doubt: [(1, 5, "O", 4.0), (1, 15, "O", 20.0), (1, 22, "O", 20.0)]
            + Array(Self.td3[0]).indices.filter { Array(Self.td3[0])[$0] == "O" }.map { (0, $0, "0", 7.0) })
        var c = clear
        MRZAdaptation.calibrate(&c, decoded: MRZDecoder(evidence: clear).decode(format: .td3), format: .td3, minConfidence: 0.97, halfGap: 4)
        #expect(c == clear)

        // The name's Os lean to 0 as far as the zeros do: no direction to calibrate by.
        let os = Array(lines[0]).indices.filter { Array(lines[0])[$0] == "O" }
        let flat = MRZDecoderTests.evidence(lines, doubt: zeros.map { (1, $0, "O", -3.0) } + os.map { (0, $0, "0", 3.0) } + [(1, 3, "0", 3.0)])
        var f = flat
        MRZAdaptation.calibrate(&f, decoded: MRZDecoder(evidence: flat).decode(format: .td3), format: .td3, minConfidence: 0.0, halfGap: 4)
        #expect(f == flat)

        // No O anywhere sure: nothing to measure the lean against.
        let noO = ["P<D<<ERIKSSEN<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<", "L898902C36D<<7408122F1204159ZE184226B<<<<<10"]
        let n0 = MRZDecoderTests.evidence(noO, doubt: [(1, 5, "O", -3.0), (1, 15, "O", -3.0)])
        var n = n0
        MRZAdaptation.calibrate(&n, decoded: MRZDecoder(evidence: n0).decode(format: .td3), format: .td3, minConfidence: 0.97, halfGap: 4)
        #expect(n == n0)
    }
}
