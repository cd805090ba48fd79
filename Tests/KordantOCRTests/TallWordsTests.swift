import Foundation
@testable import KordantOCR
import Testing

/// Words Tesseract's page layout read as one tall smudge (a table's label cell wrapped onto two
/// lines, a word caught up with a stamp), read again on their own (`TallWords`).
@Suite struct TallWordsTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path

    /// The first page of a fixture in `Tests/Fixtures/ocr-fallback`, read by a real worker.
    static func read(fixture: String) throws -> PageResult {
        let worker = try OCRWorker(orientation: false)
        return try #require(try worker.process(path: root + "/Tests/Fixtures/ocr-fallback/" + fixture).pages.first)
    }

    static func word(_ text: String, _ x: Int, _ y: Int, _ width: Int, _ height: Int, confidence: Double = 95,
                     block: Int = 1, line: Int = 1, word: Int = 1) -> Word {
        Word(text: text, confidence: confidence, box: BoundingBox(x: x, y: y, width: width, height: height),
             block: block, paragraph: 1, line: line, word: word)
    }

    /// A page of clear words 30 high, and on its last line a label cell read as `ema` two lines
    /// high, then "address" (the rest of the cell) and the value well apart.
    static var page: PageText {
        var words = (0..<6).map { word("Word\($0)", 100 + 200 * $0, 100, 150, 30, word: $0 + 1) }
        words += [word("ema", 100, 300, 120, 85, confidence: 25, line: 2, word: 1),
                  word("address", 235, 300, 150, 33, line: 2, word: 2),
                  word("ana@example.org", 600, 320, 500, 40, line: 2, word: 3)]
        let text = "Word0 Word1 Word2 Word3 Word4 Word5\nema address ana@example.org\n"
        return PageText(text: text, meanConfidence: 90, words: words, width: 2000, height: 1000)
    }

    @Test func aSmudgeTakesInTheRestOfItsCell() throws {
        let smudges = TallWords.smudges(Self.page)
        #expect(smudges.count == 1)
        let region = try #require(smudges.first?.first)
        // "ema" and "address" (within two letter heights, inside the smudge's height), not the value.
        #expect(region.range == 6..<8)
        #expect(region.mode == .singleBlock)
        #expect(region.box.x < 100 && region.box.x + region.box.width > 385 && region.box.x + region.box.width < 600)
        // Read well, or no taller than its line, a word is no smudge.
        var clear = Self.page
        clear.words[6].confidence = 80
        #expect(TallWords.smudges(clear).isEmpty)
        var short = Self.page
        short.words[6].box.height = 40
        #expect(TallWords.smudges(short).isEmpty)
    }

    @Test func aCellReadAgainOnTwoLinesBecomesLinesOfItsOwn() throws {
        let read = [Self.word("Email", 100, 300, 119, 33, confidence: 96, block: 1, line: 1),
                    Self.word("address", 235, 300, 150, 33, confidence: 96, block: 1, line: 1),
                    Self.word("on", 100, 352, 46, 22, confidence: 95, block: 1, line: 2),
                    Self.word("file", 160, 341, 59, 33, confidence: 95, block: 1, line: 2)]
        let mended = try #require(TallWords.replaced(Self.page, range: 6..<8, by: read, nextBlock: 9))
        #expect(mended.words.map(\.text) == ["Word0", "Word1", "Word2", "Word3", "Word4", "Word5", "Email", "address", "on", "file",
                                             "ana@example.org"])
        #expect(mended.text == "Word0 Word1 Word2 Word3 Word4 Word5\nEmail address on file ana@example.org\n")
        // Two lines of a block of their own; the value keeps its line.
        let lines = TextLine.group(mended.words).map(\.text)
        #expect(lines == ["Word0 Word1 Word2 Word3 Word4 Word5", "Email address", "on file", "ana@example.org"])
        // The layout puts the two lines together as the value's label.
        let fields = FieldExtractor.optout(TextLine.group(mended.words))
        #expect(fields["email"]?.value.string == "ana@example.org")
    }

    @Test func aReadingNoBetterIsNotTaken() {
        // A word read poorly.
        #expect(TallWords.replaced(Self.page, range: 6..<8, by: [Self.word("Emall", 100, 300, 119, 33, confidence: 41)], nextBlock: 9) == nil)
        // Nothing read.
        #expect(TallWords.replaced(Self.page, range: 6..<8, by: [], nextBlock: 9) == nil)
        // A word running into the value read clearly beside the smudge.
        #expect(TallWords.replaced(Self.page, range: 6..<8, by: [Self.word("ana", 590, 320, 80, 40, confidence: 90)], nextBlock: 9) == nil)
    }

    /// A word read again over a neighbour read clearly as the same word is that neighbour: one
    /// line read again takes the smudge's place in its line.
    @Test func aNeighbourReadAgainIsNotTakenTwice() throws {
        let words = (0..<5).map { Self.word("Word\($0)", 100 + 200 * $0, 100, 150, 30, word: $0 + 1) }
            + [Self.word("14", 1827, 632, 53, 35, line: 2, word: 1), Self.word(">", 1702, 630, 460, 166, confidence: 32, line: 2, word: 2),
               Self.word("1965", 2184, 631, 112, 37, line: 2, word: 3)]
        let page = PageText(text: "Word0 Word1 Word2 Word3 Word4\n14 > 1965\n", meanConfidence: 90, words: words, width: 2400, height: 1000)
        let smudges = TallWords.smudges(page)
        // The smudge takes in "1965" after it, within its height; failing its box, the widest gap
        // it runs into between words read clearly on its line is read as one line.
        #expect(smudges.count == 1 && smudges.first?.first?.range == 6..<8)
        let gap = try #require(smudges.first?.last)
        #expect([gap.box.x, gap.box.x + gap.box.width] == [1880, 2184] && gap.mode == .singleLine && gap.range == 6..<7)
        #expect(TallWords.replaced(page, range: 6..<7, by: [Self.word("September", 1900, 630, 260, 45, confidence: 93)], nextBlock: 2)?.text
                == "Word0 Word1 Word2 Word3 Word4\n14 September 1965\n")
        let read = [Self.word("[14", 1820, 630, 62, 36, confidence: 91, line: 1), Self.word("September", 1900, 630, 260, 45, confidence: 93, line: 1),
                    Self.word("1965", 2184, 631, 112, 37, confidence: 95, line: 1)]
        let mended = try #require(TallWords.replaced(page, range: 6..<8, by: read, nextBlock: 2))
        #expect(mended.text == "Word0 Word1 Word2 Word3 Word4\n14 September 1965\n")
        #expect(TextLine.group(mended.words).last?.text == "14 September 1965")
        // A word read poorly beside the smudge, read again with it, is not taken twice.
        var poor = page
        poor.words[7].confidence = 10
        let twice = try #require(TallWords.replaced(poor, range: 6..<7, by: [Self.word("September", 1900, 630, 260, 45, confidence: 93),
                                                                           Self.word("1965", 2186, 632, 110, 36, confidence: 90)], nextBlock: 2))
        #expect(twice.text == "Word0 Word1 Word2 Word3 Word4\n14 September 1965\n")
        // Guarding every word, one read poorly stops a reading running into it.
        #expect(TallWords.replaced(poor, range: 6..<7, by: [Self.word("September", 1900, 630, 300, 45, confidence: 93)], nextBlock: 2,
                                   guarding: true) == nil)
    }

    /// Real Tesseract: a form's label cells wrapped onto two lines (scripts/wrapped_label_table.py);
    /// "Requestor" over "Name" reads as one smudge, and read again it gives the name its label.
    @Test func wrappedLabelCellsOnAPage() throws {
        let page = try TallWordsTests.read(fixture: "wrapped-label-cells.png")
        #expect(page.kind == .optout)
        #expect(page.fields["full_name"]?.value.string == "Ana Maria Lima", "\(page.text)")
        #expect(page.fields["request_id"]?.value.string == "CASE-996321")
        #expect(page.fields["email"]?.value.string == "ana.lima@mail.example.org")
        #expect(page.text.contains("Requestor"), "\(page.text)")
        #expect(page.words.allSatisfy { $0.box.x >= 0 && $0.box.y >= 0 && $0.box.x + $0.box.width <= page.width
            && $0.box.y + $0.box.height <= page.height })
    }

    /// Real Tesseract: a grid form's "14 September 1965" beside a stamp, read as "14 > 1965" with
    /// the `>` five lines high (generated dev page, see the fixtures' README); read again, the
    /// date of birth is there.
    @Test func aDateCaughtUpWithAStamp() throws {
        let page = try TallWordsTests.read(fixture: "s23-dev-102-optout-grid-stamp.png")
        #expect(page.text.contains("14 September 1965"), "\(page.text)")
        #expect(page.fields["date_of_birth"]?.value.string == "1965-09-14")
    }
}

/// Words of ordinary height read very poorly, read again on their own (`PoorWords`).
@Suite struct PoorWordsTests {
    static func page(_ words: [Word]) -> PageText {
        let clear = (0..<6).map { TallWordsTests.word("Word\($0)", 100 + 200 * $0, 100, 150, 30, word: $0 + 1) }
        let all = clear + words
        return PageText(text: TextLine.group(all).map(\.text).joined(separator: "\n") + "\n", meanConfidence: 80, words: all,
                        width: 3000, height: 1000)
    }

    @Test func thePoorestWordsOfATypicalHeight() {
        let page = Self.page([TallWordsTests.word("ae", 100, 300, 180, 41, confidence: 10, line: 2),
                              TallWordsTests.word("CASE-996321", 740, 300, 307, 36, confidence: 30, line: 2, word: 2),
                              // Too tall (a smudge), too small, one letter, read well enough.
                              TallWordsTests.word("ee", 1200, 300, 180, 90, confidence: 5, line: 2, word: 3),
                              TallWordsTests.word("xy", 1500, 300, 40, 12, confidence: 5, line: 2, word: 4),
                              TallWordsTests.word("a.", 1600, 300, 60, 30, confidence: 5, line: 2, word: 5),
                              TallWordsTests.word("Date", 1700, 300, 90, 30, confidence: 45, line: 2, word: 6)])
        #expect(PoorWords.words(page).map(\.index) == [6, 7])
        // At most `most` a page, the poorest.
        let many = Self.page((0..<20).map { TallWordsTests.word("w\($0)", 100 * $0, 300, 60, 30, confidence: Double($0), line: 2, word: $0 + 1) })
        #expect(PoorWords.words(many).map(\.index) == Array(6..<(6 + PoorWords.most)))
    }

    /// A word read again differently keeps a confidence under 60: a value of it goes to review.
    @Test func aWordReadAgainDifferentlyIsNotSure() throws {
        let page = Self.page([TallWordsTests.word("Sim6es", 100, 300, 180, 35, confidence: 30, line: 2)])
        let again = [TallWordsTests.word("Simoes", 100, 300, 180, 35, confidence: 91)]
        let mended = try #require(TallWords.replaced(page, range: 6..<7, by: again, nextBlock: 2, least: PoorWords.clear, cap: PoorWords.cap))
        #expect(mended.words[6].text == "Simoes" && mended.words[6].confidence == PoorWords.cap)
        #expect(mended.text.hasSuffix("\nSimoes\n"))
        // Read the same, it is sure; with other marks only, the first reading stays.
        #expect(PoorWords.cap(first: "Sim6es", again: "Simoes") == PoorWords.cap)
        #expect(PoorWords.cap(first: "Tracking", again: "Tracking") == 100)
        #expect(PoorWords.cap(first: "signe.", again: "signe") == nil)
        #expect(PoorWords.cap(first: "https://www.", again: "https") == nil)
        #expect(PoorWords.cap(first: "ae", again: "Tracking") == PoorWords.cap)
        // Read under `clear` the second time: not taken.
        #expect(TallWords.replaced(page, range: 6..<7, by: [TallWordsTests.word("Simoes", 100, 300, 180, 35, confidence: 70)], nextBlock: 2,
                                   least: PoorWords.clear, cap: PoorWords.cap) == nil)
    }

    /// Real Tesseract: a web form's label cell "Tracking" over "number" read as `ae` and
    /// "number"; `ae` read again is "Tracking", and the request ID has its label.
    @Test func aPoorWordReadAgainFindsItsValue() throws {
        let page = try TallWordsTests.read(fixture: "web2-021-table-label-cells.png")
        #expect(page.text.contains("Tracking"), "\(page.text)")
        #expect(page.fields["request_id"]?.value.string == "CASE-996321")
    }
}
