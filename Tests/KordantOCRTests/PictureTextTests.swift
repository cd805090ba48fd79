@preconcurrency import CTesseract
import Foundation
@testable import KordantOCR
import KordantTestSupport
import Testing

/// Print Tesseract's page layout took for a picture, read again on its own (`PictureText`).
@Suite struct PictureTextTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path
    static let receipts = URL(fileURLWithPath: root).appendingPathComponent("../shared/data/docs-real/receipts").standardized.path

    static func word(_ text: String, _ x: Int, _ y: Int, _ width: Int, _ height: Int, confidence: Double = 95,
                     block: Int = 1, line: Int = 1, word: Int = 1) -> Word {
        Word(text: text, confidence: confidence, box: BoundingBox(x: x, y: y, width: width, height: height),
             block: block, paragraph: 1, line: line, word: word)
    }

    /// Two blocks of words 20 high (blocks 1 and 3), and block 2 between them taken for a picture.
    static var page: PageText {
        let words = [word("SUB", 20, 100, 60, 20, block: 1), word("TOTAL", 90, 100, 90, 20, block: 1, word: 2),
                     word("295.00", 400, 100, 100, 20, block: 1, word: 3),
                     word("NET", 20, 400, 60, 20, block: 3), word("TOTAL", 90, 400, 90, 20, block: 3, word: 2)]
        var page = PageText(text: "SUB TOTAL 295.00\n\nNET TOTAL\n\n", meanConfidence: 95, words: words, width: 600, height: 500)
        page.pictures = [PageText.Picture(block: 2, box: BoundingBox(x: 18, y: 200, width: 250, height: 120), offset: 18)]
        return page
    }

    @Test func aPictureHoldingNoWordIsReadAgain() throws {
        let candidates = PictureText.candidates(Self.page)
        let region = try #require(candidates.first?.region)
        #expect(candidates.count == 1)
        // Its box with a third of a letter height around it.
        #expect(region == BoundingBox(x: 12, y: 194, width: 262, height: 132))
        // A picture with a word's centre inside (a page taken for a picture behind its text) is not.
        var behind = Self.page
        behind.pictures[0].box = BoundingBox(x: 0, y: 0, width: 600, height: 300)
        #expect(PictureText.candidates(behind).isEmpty)
        // Nor one lower than a letter, nor one over half the page.
        var thin = Self.page
        thin.pictures[0].box.height = 12
        #expect(PictureText.candidates(thin).isEmpty)
        var large = Self.page
        large.pictures[0].box = BoundingBox(x: 0, y: 125, width: 600, height: 270)
        #expect(PictureText.candidates(large).isEmpty)
    }

    @Test func onlyLinesThatReadAsTextAreKept() {
        let read = [
            // Faint print read poorly: "Tax Summary" (mean 10).
            Self.word("Vos", 20, 200, 40, 20, confidence: 14, line: 1), Self.word("fiat", 70, 200, 50, 20, confidence: 6, line: 1, word: 2),
            // A line of text, one word read clearly (mean 61).
            Self.word("SR", 20, 240, 30, 20, confidence: 90, line: 2), Self.word("GS:", 60, 240, 40, 20, confidence: 64, line: 2, word: 2),
            Self.word("fk", 110, 240, 20, 20, confidence: 30, line: 2, word: 3),
            // Sure, but of one letter and a mark: a photo's edge.
            Self.word("|", 20, 280, 5, 20, confidence: 80, line: 3), Self.word("i", 40, 280, 5, 20, confidence: 70, line: 3, word: 2),
            Self.word("Thank", 20, 300, 80, 20, confidence: 94, line: 4)]
        #expect(PictureText.lines(read).map { $0.map(\.text) } == [["SR", "GS:", "fk"], ["Thank"]])
        #expect(PictureText.lines([]).isEmpty)
    }

    @Test func linesReadGoWhereThePictureStands() {
        let lines = [[Self.word("SR", 20, 240, 30, 20, block: 1, line: 3), Self.word("324.50", 300, 240, 80, 20, block: 1, line: 3, word: 2)],
                     [Self.word("Thank", 20, 300, 80, 20, block: 1, line: 4)]]
        let page = Self.page
        let added = PictureText.added(lines, in: page.pictures[0], to: page)
        #expect(added.text == "SUB TOTAL 295.00\n\nSR 324.50\nThank\n\nNET TOTAL\n\n")
        #expect(added.words.map(\.text) == ["SUB", "TOTAL", "295.00", "SR", "324.50", "Thank", "NET", "TOTAL"])
        // Numbered in the picture's block, line by line.
        #expect(added.words[3...5].map { [$0.block, $0.line, $0.word] } == [[2, 1, 1], [2, 1, 2], [2, 2, 1]])
        #expect(added.meanConfidence == page.meanConfidence)
        #expect(PictureText.added([], in: page.pictures[0], to: page) == page)
    }

    /// A page of text with a photo below it (a grainy gradient), rendered by poppler and read by
    /// real Tesseract: the photo is a picture block, and read again it adds nothing.
    @Test func aPhotoAddsNothing() throws {
        let lines = ["RECEIPT 0042", "SUB TOTAL 295.00", "SERVICE CHARGE 29.50", "NET TOTAL 343.95", "THANK YOU, COME AGAIN"]
        let data = PDFBuilder.pdf([PDFBuilder.Page(text: "CAFE SEVEN", placed: lines.enumerated().map { (72, 620 - 30 * $0, 16, $1) })])
        let path = TestScratch.directory.appendingPathComponent("kordant-picture-\(getpid()).pdf").path
        try data.write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let image = try PDFDocument(path: path).render(page: 0, dpi: 300)
        var state: UInt32 = 12345
        for y in 1900..<2900 {
            for x in 500..<1700 {
                state = state &* 1_664_525 &+ 1_013_904_223
                let v = Int32(40 + (x - 500) / 8 + (y - 1900) / 10 + Int(state >> 27))
                pixSetPixel(image.pix, Int32(x), Int32(y), UInt32(v) << 24 | UInt32(v) << 16 | UInt32(v) << 8)
            }
        }
        let worker = try OCRWorker(orientation: false)
        let read = try worker.text.recognize(image, resolution: 300, mode: .auto)
        #expect(read.text.contains("SUB TOTAL"))
        let picture = try #require(read.pictures.first)
        #expect(picture.box.x < 600 && picture.box.x + picture.box.width > 1600 && picture.box.y < 2000, "\(read.pictures)")
        // The photo stands after the text: its place is the text's end.
        #expect(picture.offset == read.text.count)
        #expect(!PictureText.candidates(read).isEmpty)
        let again = try worker.picturesReread(read, image: image, resolution: 300)
        #expect(again.text == read.text && again.words == read.words)
    }

    /// A real receipt (../shared/data, when present; not copied here) whose faint tax summary
    /// beside a pen mark Tesseract took for a picture: its lines are read and put back.
    @Test(.enabled(if: FileManager.default.fileExists(atPath: receipts + "/040.jpg"), "../shared/data/docs-real/receipts absent"))
    func aReceiptsFaintPrintTakenForAPictureIsRead() throws {
        let worker = try OCRWorker(orientation: false)
        let page = try #require(try worker.process(path: Self.receipts + "/040.jpg").pages.first)
        #expect(page.text.contains("Thank"))
        #expect(page.kind == .unknown)
    }
}
