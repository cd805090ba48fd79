import Foundation
@testable import KordantOCR
import Testing

/// ICAO 9303 specimen MRZs (Part 4–6 examples, "Utopia", Anna Maria Eriksson).
enum Specimen {
    static let td3 = ["P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<", "L898902C36UTO7408122F1204159ZE184226B<<<<<10"]
    static let td2 = ["I<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<", "D231458907UTO7408122F1204159<<<<<<<6"]
    static let td1 = ["I<UTOD231458907<<<<<<<<<<<<<<<", "7408122F1204159UTO<<<<<<<<<<<6", "ERIKSSON<<ANNA<MARIA<<<<<<<<<<"]
}

@Suite struct MRZTests {
    @Test func checkDigitsUseWeights731() {
        #expect(MRZParser.checkDigit("L898902C3") == "6")
        #expect(MRZParser.checkDigit("740812") == "2")
        #expect(MRZParser.checkDigit("120415") == "9")
        #expect(MRZParser.checkDigit("ZE184226B<<<<<") == "1")
        #expect(MRZParser.checkDigit("D23145890") == "7")
        #expect(MRZParser.checkDigit("<<<<<<") == "0")
    }

    @Test func specimensParseAndVerify() throws {
        let p = try #require(MRZParser.parse(Specimen.td3, format: .td3))
        #expect(p.valid && p.repairs.isEmpty)
        #expect(p.documentCode == "P" && p.issuer == "UTO" && p.surname == "ERIKSSON" && p.givenNames == "ANNA MARIA")
        #expect(p.documentNumber == "L898902C3" && p.nationality == "UTO" && p.sex == "F")
        #expect(p.dateOfBirth == "1974-08-12" && p.expiryDate == "2012-04-15" && p.optionalData == "ZE184226B")
        #expect(p.checks.map(\.field) == ["document_number", "date_of_birth", "expiry_date", "optional_data", "composite"])

        let d = try #require(MRZParser.parse(Specimen.td2, format: .td2))
        #expect(d.valid && d.documentNumber == "D23145890" && d.surname == "ERIKSSON")

        let c = try #require(MRZParser.parse(Specimen.td1, format: .td1))
        #expect(c.valid && c.documentNumber == "D23145890" && c.givenNames == "ANNA MARIA" && c.dateOfBirth == "1974-08-12")
        #expect(c.checks.count == 4)
    }

    @Test func findLocatesEachFormatAmongOtherLines() throws {
        let page = ["UTOPIA PASSPORT", "Surname", "ERIKSSON"] + Specimen.td3
        let found = try #require(MRZParser.find(in: page))
        #expect(found.format == .td3 && found.lines == Specimen.td3)
        #expect(MRZParser.find(in: ["IDENTITY CARD"] + Specimen.td1)?.format == .td1)
        #expect(MRZParser.find(in: Specimen.td2)?.format == .td2)
        #expect(MRZParser.find(in: ["no machine readable zone here", "just text"]) == nil)
    }

    /// Page text alone gives an MRZ only when it has the format's structure, and never a valid one.
    @Test func textOnlyReadingNeedsTheStructure() throws {
        // A real zone read by page OCR with its usual confusions: kept, for review.
        let noisy = ["P<UT0ERIKSSON<<ANNA<MARIA<<<<<<KKKKK<<<<<<<<", "L898902C36UT07408I22F12O4159ZE184226B<<<<<1O"]
        let (mrz, lines) = try #require(MRZParser.fromText(["UTOPIA PASSPORT", "Surname"] + noisy))
        #expect(lines.count == 2 && !mrz.valid && mrz.needsReview)
        #expect(mrz.documentNumber == "L898902C3")
        // A form's OCR-B reference lines and a receipt's filler rows: MRZ length and alphabet, but
        // no country codes, dates, sex or passing check digits.
        let form = ["APPLICATION FORM", "REF<2024<INV<00931<<<<<<<<<", "ACCOUNT<<NUMBER<<1234567890<<<<<<",
                    "0O1I5S8B2Z6G<<<<<<<<<<<<<<<<<<<<<<<<<<"]
        #expect(MRZParser.find(in: form) != nil)
        #expect(MRZParser.fromText(form) == nil)
        let receipt = ["<<<<<<<<<<<<<<<<<<<<<<<<<<<<<<", "TOTAL<<<<<<<<<<<<<<<<<<<<42<50", "THANK<YOU<<SEE<YOU<SOON<<<<<<<"]
        #expect(MRZParser.fromText(receipt) == nil)
    }

    /// OCR confusions in fields of known type are repaired and the result verifies.
    @Test func typedRepairs() throws {
        // 0/O, 1/I, 8/B, 5/S swapped in numeric and alphabetic positions; '<' read as K; spaces.
        let noisy = ["P<UT0ERIKSSON<<ANNA<MARIA<<<<<<KKKKK<<<<<<<<",
                     "L898902C36UT07408I22F12O4159ZE184226B<<<<<1O"]
        let p = try #require(MRZParser.parse(noisy, format: .td3))
        #expect(p.valid, "\(p.checks) \(p.problems)")
        #expect(p.lines == Specimen.td3)
        #expect(!p.repairs.isEmpty)
    }

    @Test func fillerRunsOfWrongLengthAreFixed() throws {
        let short = ["P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<", Specimen.td3[1]]       // 3 '<' missing
        let long = [Specimen.td1[0] + "<<", Specimen.td1[1], Specimen.td1[2]]
        #expect(try #require(MRZParser.parse(short, format: .td3)).lines == Specimen.td3)
        let fixed = try #require(MRZParser.parse(long, format: .td1))
        // Mended, every check digit holds, and still not `valid`: a changed length is a guess.
        #expect(fixed.lines == Specimen.td1 && fixed.checks.allSatisfy { $0.valid })
        #expect(!fixed.valid && fixed.needsReview)
    }

    /// A document number misread as a confusable character is repaired only through its check
    /// digit, and text alone (no glyph evidence) never makes such a repair `valid`.
    @Test func checkDigitGuidedRepair() throws {
        var lines = Specimen.td3
        lines[1] = "L8989O2C3" + lines[1].dropFirst(9)    // 0 read as O in the alphanumeric document number
        let p = try #require(MRZParser.parse(lines, format: .td3))
        #expect(p.documentNumber == "L898902C3" && p.checks.allSatisfy { $0.valid })
        #expect(!p.valid && p.needsReview)
    }

    /// Any wrong digit that no repair explains leaves the MRZ invalid, with the failing check named.
    @Test(arguments: [(1, 16), (1, 24), (1, 43), (1, 3)])
    func corruptionIsNeverReportedValid(line: Int, column: Int) throws {
        var lines = Specimen.td3
        var chars = Array(lines[line])
        chars[column] = chars[column] == "7" ? "3" : "7"
        lines[line] = String(chars)
        let p = try #require(MRZParser.parse(lines, format: .td3))
        #expect(!p.valid)
        #expect(p.checks.contains { !$0.valid })
    }

    @Test func structuralProblemsInvalidate() throws {
        var lines = Specimen.td1
        lines[1] = "7413122F1204159UTO<<<<<<<<<<<6"       // month 13
        let p = try #require(MRZParser.parse(lines, format: .td1))
        #expect(!p.valid)
        #expect(p.dateOfBirth == nil)
        #expect(p.problems.contains { $0.contains("date of birth") })
    }

    @Test func namesKeepTheirKs() {
        #expect(MRZParser.normalise("KIRK<<JOHN<<<<") == "KIRK<<JOHN<<<<")
        #expect(MRZParser.normalise("ANNA<<<KKKK<K<<") == "ANNA<<<<<<<<<<<")
    }
}

@Suite struct FieldParsingTests {
    @Test func datesAndAmounts() {
        #expect(FieldExtractor.isoDate("March 14, 2023") == .text("2023-03-14"))
        #expect(FieldExtractor.isoDate("11/02/2021") == .text("2021-11-02"))
        #expect(FieldExtractor.isoDate("2024-06-03") == .text("2024-06-03"))
        #expect(FieldExtractor.isoDate("14 March 2023") == .text("2023-03-14"))
        #expect(FieldExtractor.isoDate("13/45/2021") == nil)
        #expect(FieldExtractor.amount("$385,000.00") == .number(385_000))
        #expect(FieldExtractor.state("Texas") == .text("TX") && FieldExtractor.state("AZ") == .text("AZ"))
        #expect(FieldExtractor.state("Utopia") == nil)
    }

    @Test func kindDetection() {
        #expect(FieldExtractor.detectKind("WARRANTY DEED Grantor: X Grantee: Y APN: 1") == .deed)
        #expect(FieldExtractor.detectKind("PASSPORT Surname Given names Date of birth") == .id)
        #expect(FieldExtractor.detectKind("Please remove my personal information. Opt-Out Request") == .optout)
        #expect(FieldExtractor.detectKind("a shopping list: eggs, milk") == .unknown)
    }

    /// A field carries the union box and mean confidence of the words it came from.
    @Test func fieldBoxesComeFromWords() throws {
        func w(_ t: String, _ x: Int, _ c: Double) -> Word {
            Word(text: t, confidence: c, box: BoundingBox(x: x, y: 10, width: 40, height: 20), block: 1, paragraph: 1, line: 1, word: 0)
        }
        let line = TextLine(words: [w("APN:", 0, 90), w("042-118-07", 50, 80)])
        let f = try #require(FieldExtractor.deed([line])["parcel_number"])
        #expect(f.value == .text("042-118-07"))
        #expect(f.box == BoundingBox(x: 50, y: 10, width: 40, height: 20))
        #expect(f.confidence == 80)
    }

    /// Inputs FuzzMRZ found crashing the text parser (release build, 2026-11-25): non-ASCII digits
    /// (Character.isNumber is true for "²" and Arabic digits, which Int() refuses) and lines whose
    /// characters are not one code point each. Fed as the fuzz target feeds them; none may trap.
    @Test func fuzzFindingsParseWithoutTrapping() throws {
        let inputs = [
        "SUFSKDw8CjI4OEFEaWPJ27a7UzE8Rdu3u9uWuy8xPEXbtzg4OTIwQ7A0//8AAACF0it6hYU=",
        "/wo5OTk5Odu2JEn/Q2hhCg==",
        "SUFSKDw8MkRBOAo4aWPJ27a7UzE8Rdu3u9u2uy8xPEXbtzk4ODIwQ7A0hdIreoWF",
        "Of8KADIxz8NEZWZhdWx0Sdu2u1MmME8xNtROCgAyMs/D27a7UyY=",
        "SUFSKDw8CjK2uy8xPEXbtzk4ODIwQ7A0hdIreoWF",
        "MDc4OUFCQ0RFRkdISUpLTDA3ODlBQkNERUZHSElKS0xNVFVWV1g8PDwxTwpMODk4OTAyW0MzNlVUTzc0MDgxMsy5MTIwNDEzOVpFMTg0MjI2YnNCPHRyaQ==",
        "STxVPDw8CQkJCQkJCQkJCf//CQkJCQkJCQmJCQkJCkk8ZQkJCQk8KwpJPGU=",
        "NzQwODEyMkYyNDAxNTE5VVRPPDw8PDw8PDw8PDw2Cjc0zYIxMzEyMkYx3Nzc3Nzc3Nzc3Nzc3Nzc3Nzc3Nzc3Nzc3Nzc3Nzc3Nzc3Nzc3Nzc3DIwNDE1OVVUTzw8MTMxMjw8Ngo3NDEzVVRPRjEyMDQ=",
        "SUFSKDw8CjI4OEFEaWPJ27a7UzE8Rdu3u9u2uy9JbnTbtzk4ODIwQ7A0DAwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDP//////////DAwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMhdIreoWF",
        "NDAzCjcxMDkwOcy5zs7Ozc7PCg==",
        "SUFSKDw8CjI4OEFEaWMvMTxF27c4ODkyMUOwNP8BAAAA/wAAAIWFhYWFhYWF0it6hYU=",
        "SUFSKDw8PQoyODhBRGljyQ0Ku1MxPEXbt7vbtrsvMTxF27c5ODgyMEOwNIXSK3qFhQ==",
        "sAvDPAs8CwsLCwsLCwsLCwsLCws8PDwwpzw8PDw8Cjw8PDwK",
        "SUFSKDw8CjI4OEFEaWPJt7vbtrsvMTxF27c5ODgyMEOwNIXSK3qFhQ=="
        ]
        for encoded in inputs {
            let data = try #require(Data(base64Encoded: encoded))
            let lines = String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            if let found = MRZParser.find(in: lines) { _ = MRZParser.parse(found.lines, format: found.format) }
            for format in [MRZ.Format.td1, .td2, .td3] { _ = MRZParser.parse(lines, format: format) }
        }
        #expect(MRZParser.date("8²0101", future: false) == nil)
        #expect(MRZParser.date("٨٠٠١٠١", future: false) == nil)
    }
}
