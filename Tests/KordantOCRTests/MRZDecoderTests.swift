import Foundation
@testable import KordantOCR
import Testing

/// The decision part of the MRZ reader on controlled evidence: what it may repair, what the check
/// digits can and cannot confirm, and that nothing doubtful is ever called valid.
@Suite struct MRZDecoderTests {
    static let td3 = ["P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<", "L898902C36UTO7408122F1204159ZE184226B<<<<<10"]
    static let td1 = ["I<UTOD231458907<<<<<<<<<<<<<<<", "7408122F1204159UTO<<<<<<<<<<<6", "ERIKSSON<<ANNA<MARIA<<<<<<<<<<"]

    /// Evidence that reads `lines` clearly, except where `doubt` puts a rival character close
    /// behind (or ahead, when its gap is negative).
    static func evidence(_ lines: [String], doubt: [(Int, Int, Character, Double)] = []) -> [[[Double]]] {
        var e = lines.map { line in
            line.map { c in (0..<MRZAlphabet.count).map { $0 == MRZAlphabet.index(c)! ? 0.0 : -12.0 } }
        }
        for (line, cell, rival, gap) in doubt { e[line][cell][MRZAlphabet.index(rival)!] = -gap }
        return e
    }

    static func read(_ lines: [String], _ format: MRZ.Format, doubt: [(Int, Int, Character, Double)] = []) -> MRZ {
        let decoded = MRZDecoder(evidence: evidence(lines, doubt: doubt)).decode(format: format)
        var m = MRZParser.build(format: format, lines: decoded.lines, repairs: decoded.repairs)!
        let low = decoded.confidence.flatMap { $0 }.contains { $0 < 0.9 }
        if low || !decoded.repairs.isEmpty || !decoded.overridden.isEmpty { m.reviewReasons.append("doubt") }
        return m
    }

    @Test func clearReadingsAreValid() {
        #expect(Self.read(Self.td3, .td3).valid)
        #expect(Self.read(Self.td1, .td1).valid)
        #expect(Self.read(Self.td3, .td3).lines == Self.td3)
    }

    /// One doubtful O/0 under a passing check digit: a swap would change the digit, so the check
    /// digit confirms the reading.
    @Test func aSingleDoubtfulCharacterIsConfirmedByItsCheckDigit() {
        let m = Self.read(Self.td3, .td3, doubt: [(1, 3, "O", 0.3)])
        #expect(m.lines == Self.td3 && m.valid)
    }

    /// A passport whose document number is `number`, every check digit computed.
    static func passport(number: String) -> [String] {
        var l2 = number + String(MRZParser.checkDigit(number)) + "UTO7408122F1204159ZE184226B<<<<<1"
        let chars = Array(l2)
        let composite: String = String(chars[0..<10]) + String(chars[13..<20]) + String(chars[21..<43])
        l2 += String(MRZParser.checkDigit(composite))
        return [td3[0], l2]
    }

    /// Two O/0 swaps at weights 3 and 7 add 24·3 + 24·7 = 240 ≡ 0 (mod 10): neither the number's
    /// check digit nor the composite can tell the two readings apart, so the number goes to review.
    @Test func cancellingSwapsAreNeverValid() throws {
        let lines = Self.passport(number: "A0B0C1234")
        let swapped = Self.passport(number: "AOBOC1234")
        let swappedReading = try #require(MRZParser.build(format: .td3, lines: swapped, repairs: []))
        #expect(swappedReading.checks.allSatisfy { $0.valid })
        let m = Self.read(lines, .td3, doubt: [(1, 1, "O", 0.2), (1, 3, "O", 0.2)])
        #expect(m.lines == lines)
        #expect(!m.valid)
    }

    /// A repair the evidence supports and only one combination satisfies: the line is mended,
    /// and still sent to review.
    @Test func uniqueRepairIsMadeButNotValid() {
        var lines = Self.td3
        lines[1] = "L8989O2C36UTO7408122F1204159ZE184226B<<<<<10"   // 0 read as O at cell 5
        let m = Self.read(lines, .td3, doubt: [(1, 5, "0", 1.0)])
        #expect(m.lines == Self.td3)
        #expect(!m.valid)
    }

    /// A digit misread as another digit is no look-alike: no repair, check digits fail.
    @Test func noRepairWithoutEvidence() {
        var lines = Self.td3
        lines[1] = "L898902C36UTO7408122F1204169ZE184226B<<<<<10"   // expiry 120415 read 120416
        let m = Self.read(lines, .td3)
        #expect(m.lines == lines)
        #expect(!m.valid && m.checks.contains { !$0.valid })
    }

    /// OCR-B's 3 has a flat top like the 5's: a date digit read 3 for 5 (or 5 for 3) is mended
    /// when the evidence has the other close behind and only it passes the check digit; a repaired
    /// zone is never valid.
    @Test func aDateDigitIsRepairedBetween3And5() {
        var lines = Self.td3
        lines[1] = "L898902C36UTO7408122F1204139ZE184226B<<<<<10"   // expiry 120415 read 120413
        let m = Self.read(lines, .td3, doubt: [(1, 26, "5", 1.5)])
        #expect(m.lines == Self.td3)
        #expect(!m.valid)
        // Without the 5 close behind, nothing is changed.
        let sure = Self.read(lines, .td3)
        #expect(sure.lines == lines && !sure.valid)
    }

    /// Fillers read as K or S after the name has ended are fillers (the grammar is certain there);
    /// a doubtful `<`/K inside the name is not decided by guessing.
    @Test func nameFillers() {
        var lines = Self.td3
        lines[0] = "P<UTOERIKSSON<<ANNA<MARIA<<<<<<<KSKS<<<<<<<<"
        // The filler's shape is close behind the K or S the readers preferred.
        let fillers = (32..<36).map { (0, $0, Character("<"), 1.0) }
        let m = Self.read(lines, .td3, doubt: fillers)
        #expect(m.lines == Self.td3)
        #expect(!m.valid)
        let doubtful = Self.read(Self.td3, .td3, doubt: [(0, 20, "K", 0.1)])
        #expect(!doubtful.valid)
    }

    @Test func visasHaveNoCompositeCheck() {
        let lines = ["V<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<", "L8988901C4XXX4009078F96121096ZE184226B<<<<<<"]
        let m = MRZParser.parse(lines, format: .td3)!
        #expect(m.format == .mrva)
        #expect(!m.checks.contains { $0.field == "composite" })
        // Nothing confirms where a visa's lines end: named, never `valid`.
        var clear = lines
        clear[1] = "L8988901C4UTO4009078F9612109<<<<<<<<<<<<<<<<"
        for (i, c) in [(9, 0), (19, 13), (27, 21)] {
            var chars = Array(clear[1])
            chars[i] = MRZParser.checkDigit(String(chars[c..<(c + (i == 9 ? 9 : 6))]))
            clear[1] = String(chars)
        }
        let visa = Self.read(clear, .mrva)
        #expect(visa.checks.allSatisfy { $0.valid } && visa.problems.isEmpty, "\(visa.checks) \(visa.problems)")
        #expect(!visa.valid && visa.needsReview)
    }

    /// An empty optional field may carry `<` as its check digit (Irish passports).
    @Test func emptyOptionalFieldWithFillerCheck() {
        let lines = ["P<IRLOSULLIVAN<<LAUREN<<<<<<<<<<<<<<<<<<<<<<", "XN50042162IRL8805049F2309154<<<<<<<<<<<<<<<6"]
        let m = Self.read(lines, .td3)
        #expect(m.lines == lines && m.valid)
    }

    /// A character the evidence is sure of is kept where the format forbids it: a malformed
    /// document is reported as printed, invalid, never "corrected".
    @Test func malformedDocumentsStayAsPrinted() {
        let lines = ["IDAUT000009993<<<<<<<<<<<<<<<<", "7109094F111231AUT<<<<<<<<<<<<0", "MUSTERFRAU<<ISOLDE<<<<<<<<<<<<"]
        let m = Self.read(lines, .td1)
        #expect(m.lines == lines)
        #expect(!m.valid)
    }

    /// A character against the grammar that only one reader saw (glare leaves an E's remains
    /// that the templates take for an 8, a date's 2 washed out to a C) is the grammar's best
    /// choice in the lines, never sure; the same character seen by both readers is printed so
    /// and stands (the Austrian specimen's expiry check digit is an A).
    @Test func aCharacterAgainstTheGrammarStandsOnlyWhenBothReadersSeeIt() {
        var glare = Self.td3
        glare[1] = String(glare[1].prefix(13)) + "7C08122" + glare[1].dropFirst(20)   // a 4 of the birth date seen as C
        // The templates lean to 4 among the digits, though sure of the C.
        var decoder = MRZDecoder(evidence: Self.evidence(glare, doubt: [(1, 14, "4", 5)]))
        #expect(decoder.decode(format: .td3).lines == glare)                      // no second reader: as seen
        decoder.secondReading = [1 * 1000 + 14: "4"]
        let oneReader = decoder.decode(format: .td3)
        #expect(oneReader.lines == Self.td3, "\(oneReader.lines)")
        #expect(oneReader.confidence[1][14] <= 0.5 && oneReader.overriddenFields == ["date_of_birth"])
        #expect(oneReader.overridden.first?.contains("taken as '4'") == true)
        decoder.secondReading = [1 * 1000 + 14: "C"]
        let both = decoder.decode(format: .td3)
        #expect(both.lines == glare && both.overriddenFields == ["date_of_birth"])
        decoder.secondReading = [:]                                                // Tesseract saw nothing there
        #expect(decoder.decode(format: .td3).lines == Self.td3)
    }

    /// OCR-B that is not an MRZ: a member card's strip shaped like a TD1 zone and a giro slip's
    /// digits in a passport's shape break the grammar with sure characters in many fields; a real
    /// malformed specimen (two fields) still has the structure.
    @Test func ocrBWithoutTheGrammarIsNoMRZ() {
        let card = ["MBRVSVWDA<<8147044<<<<<<<<<<<<", "403740826552<V0D<<<<<<<<<<<<<<", "ERIKSSON<<ANNA<MARIA<<<<<<<<<<"]
        #expect(!MRZDecoder(evidence: Self.evidence(card)).decode(format: .td1).hasStructure)
        let slip = ["2937155302057387918481389329172442503", "29937213964102469678776062870305330000"].map { String($0.prefix(36)) }
        #expect(!MRZDecoder(evidence: Self.evidence(slip)).decode(format: .td2).hasStructure)
        let specimen = ["IDAUT000009993<<<<<<<<<<<<<<<<", "7109094F111231AUT<<<<<<<<<<<<0", "MUSTERFRAU<<ISOLDE<<<<<<<<<<<<"]
        #expect(MRZDecoder(evidence: Self.evidence(specimen)).decode(format: .td1).hasStructure)
        #expect(MRZDecoder(evidence: Self.evidence(Self.td3)).decode(format: .td3).hasStructure)
    }

    /// Several repairs pass the check digits: the one the evidence clearly prefers is made (and
    /// sent to review); two about as likely as each other leave the reading as it is.
    @Test func repairMarginDecidesBetweenPassingCombinations() {
        let truth = Self.passport(number: "A0B0C1234")
        var read = truth
        read[1] = "A0BO" + String(read[1].dropFirst(4))     // the 0 at cell 3 (weight 7) read as O
        // Cell 1 has weight 3: turning its 0 into an O passes every check as well (24·3 + 24·7 ≡ 0).
        var decoder = MRZDecoder(evidence: Self.evidence(read, doubt: [(1, 3, "0", 1.0), (1, 1, "O", 6.0)]))
        decoder.repairMargin = 4
        let clear = decoder.decode(format: .td3)
        #expect(clear.lines == truth && clear.repairs.count == 1)
        decoder.repairMargin = .infinity
        let strict = decoder.decode(format: .td3)
        #expect(strict.lines == read && strict.repairs.isEmpty)
        var close = MRZDecoder(evidence: Self.evidence(read, doubt: [(1, 3, "0", 1.0), (1, 1, "O", 2.0)]))
        close.repairMargin = 4
        let undecided = close.decode(format: .td3)
        #expect(undecided.lines == read && undecided.repairs.isEmpty)
    }

    /// A document printed with a wrong composite digit: no reading passes every check, so the
    /// whole-zone repair finds nothing. The document number's own check digit still mends its O
    /// read for a 0 (one combination passes it); the zone keeps failing its composite and is
    /// never valid. Where two swaps would each pass that check, nothing is changed.
    @Test func aFieldIsMendedByItsOwnCheckDigitWhenTheCompositeIsWrong() {
        var truth = Self.passport(number: "A0B0C1234")
        truth[1] = String(truth[1].dropLast()) + (truth[1].last == "9" ? "0" : "9")   // composite misprinted
        var read = truth
        read[1] = "A0BO" + String(read[1].dropFirst(4))     // the 0 at cell 3 read as O
        let m = Self.read(read, .td3, doubt: [(1, 3, "0", 1.0)])
        #expect(m.lines == truth)
        #expect(!m.valid && m.checks.contains { $0.field == "composite" && !$0.valid })
        #expect(m.checks.contains { $0.field == "document_number" && $0.valid })
        // The O at cell 1 (weight 3) could pass the number's check as well, with as much evidence.
        let doubtful = Self.read(read, .td3, doubt: [(1, 3, "0", 1.0), (1, 1, "O", 1.0)])
        #expect(doubtful.lines == read && !doubtful.valid)
        // A date whose printed check digit is wrong is not "mended" by a digit the evidence does not offer.
        var date = truth
        date[1] = String(date[1].prefix(19)) + (date[1][date[1].index(date[1].startIndex, offsetBy: 19)] == "1" ? "2" : "1") + String(date[1].dropFirst(20))
        let kept = Self.read(date, .td3)
        #expect(kept.lines == date && !kept.valid)
    }

    /// The French identity card's own layout and check digits.
    @Test func frenchIdentityCard() {
        let lines = ["IDFRABERTHIER<<<<<<<<<<<<<<<<<<<<<<<", "9409923102854CORINNE<<<<<<<6512068F4"]
        let m = Self.read(lines, .frenchID)
        #expect(m.lines == lines && m.valid, "\(m.checks) \(m.problems)")
        #expect(m.surname == "BERTHIER" && m.givenNames == "CORINNE" && m.documentNumber == "940992310285")
        #expect(m.dateOfBirth == "1965-12-06" && m.sex == "F" && m.format.size == "TD2")
    }
    /// The document code's first letter is fixed by the format (ICAO 9303): P on a passport, V on
    /// a visa, A, C or I on a card. A passport line read one cell late (`<UTO…`, its P missed)
    /// or a sure C on a passport is kept as printed, flagged as malformed on its line, never valid.
    @Test func documentLettersFollowTheFormat() {
        var late = Self.td3
        late[0] = String(late[0].dropFirst()) + "<"
        let shifted = MRZDecoder(evidence: Self.evidence(late)).decode(format: .td3)
        #expect(shifted.overriddenLines.contains(0) && shifted.hasStructure)
        var card = Self.td3
        card[0] = "C" + card[0].dropFirst()
        let c = MRZDecoder(evidence: Self.evidence(card)).decode(format: .td3)
        #expect(c.lines == card && c.overriddenFields == ["document_code"] && c.overriddenLines == [0])
        #expect(!Self.read(card, .td3).valid)
        // A doubtful first letter is read as the format's own.
        let doubtful = MRZDecoder(evidence: Self.evidence(card, doubt: [(0, 0, "P", 1.0)])).decode(format: .td3)
        #expect(doubtful.lines == Self.td3 && doubtful.overridden.isEmpty)
        for letter in ["A", "C", "I"] {
            var td1 = Self.td1
            td1[0] = letter + td1[0].dropFirst()
            #expect(MRZDecoder(evidence: Self.evidence(td1)).decode(format: .td1).overridden.isEmpty, "\(letter)")
        }
        var passportCard = Self.td1
        passportCard[0] = "P" + passportCard[0].dropFirst()
        #expect(MRZDecoder(evidence: Self.evidence(passportCard)).decode(format: .td1).overriddenFields == ["document_code"])
    }

    /// ICAO 9303-3's codes for organisations that issue travel documents are countries to the
    /// reader (an Afreximbank document was read `XOM`, the Order of Malta, before).
    @Test func organisationCodesAreIssuers() {
        for code in ["XIM", "XBA", "XCE", "XCO", "XEC", "XDC", "XOM", "XPO"] {
            var lines = Self.td3
            lines[0] = "P<" + code + lines[0].dropFirst(5)
            lines[1] = String(lines[1].prefix(10)) + code + lines[1].dropFirst(13)
            let d = MRZDecoder(evidence: Self.evidence(lines)).decode(format: .td3)
            #expect(d.lines == lines && d.overridden.isEmpty, "\(code)")
        }
    }

    /// The document letter's own confidence decides whether the passport/visa layouts may be
    /// weighed by their check digits: a clearly printed V stays a visa (whose optional data can
    /// pass a passport's extra check digits by chance), a doubtful first letter does not.
    @Test func documentLetterConfidence() {
        let visa = ["V<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<", "L898902C36UTO7408122F1204159ZE184226B<<<<<10"]
        #expect(MRZDecoder(evidence: Self.evidence(visa)).documentLetterConfidence() > 0.99)
        let doubtful = MRZDecoder(evidence: Self.evidence(visa, doubt: [(0, 0, "P", 0.2)]))
        #expect(doubtful.documentLetterConfidence() < 0.9)
    }

    /// Specks beside a glyph go; the glyph, and a stroke broken in two large pieces, stay.
    @Test func despeckleKeepsGlyphPiecesAndDropsDots() {
        let P = MRZStrip.cellWidth, S = MRZStrip.height
        var mask = [Bool](repeating: false, count: P * S)
        func fill(_ x0: Int, _ y0: Int, _ x1: Int, _ y1: Int) {
            for y in y0...y1 { for x in x0...x1 { mask[y * P + x] = true } }
        }
        fill(10, 8, 14, 20)     // upper half of a stroke (65 px)
        fill(10, 23, 14, 38)    // lower half, broken off by a pale scan (80 px)
        fill(20, 30, 21, 31)    // toner dot (4 px)
        fill(2, 44, 2, 44)      // single speck
        let before = mask
        var labels = [Int32](repeating: -1, count: P * S), stack: [Int] = []
        MRZGlyphScorer.despeckle(&mask, P, S, labels: &labels, stack: &stack)
        #expect(!mask[30 * P + 20] && !mask[44 * P + 2])
        #expect(mask.indices.filter { mask[$0] } == before.indices.filter { before[$0] && ($0 % P) >= 10 && ($0 % P) <= 14 })
    }
}
