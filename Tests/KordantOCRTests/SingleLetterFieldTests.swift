import Foundation
@testable import KordantOCR
import KordantTestSupport
import Testing

/// An identity document's sex is one letter under its label, which Tesseract's page layout often
/// drops; the worker reads the region under (or beside) the label again as one character. Pages
/// rendered by poppler from PDFs made at run time, read by real Tesseract.
@Suite struct SingleLetterFieldTests {
    /// A card's fields at 300 DPI: labels in 12 pt, values in 16 pt below them.
    static func card(sex: String?) throws -> LeptImage {
        var placed: [(x: Int, y: Int, size: Int, text: String)] = [
            (72, 600, 12, "Surname"), (72, 580, 16, "DOE"), (300, 600, 12, "Sex"), (72, 540, 12, "Nationality"), (72, 520, 16, "UTO"),
        ]
        if let sex { placed.append((300, 580, 16, sex)) }
        let data = PDFBuilder.pdf([PDFBuilder.Page(text: "IDENTITY CARD", placed: placed)])
        // A file of its own per call: tests run in parallel, and two cards with the same letter
        // written to one path could be read half written.
        let path = TestScratch.directory.appendingPathComponent("kordant-card-\(getpid())-\(sex ?? "none")-\(UUID().uuidString).pdf").path
        try data.write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        return try PDFDocument(path: path).render(page: 0, dpi: 300)
    }

    /// The page's words as read, less the value under "Sex" (as when the layout drops it).
    static func words(_ worker: OCRWorker, _ image: LeptImage) throws -> [Word] {
        var options = OCROptions()
        options.kind = .id
        let page = try worker.process(image: image, options: options)
        #expect(page.preprocessing.scale == 1 && page.preprocessing.rotation == 0)
        let label = try #require(page.words.first { $0.text == "Sex" })
        return page.words.filter { w in !(w.box.y > label.box.y + label.box.height && abs(w.box.x - label.box.x) < 3 * label.box.height) }
    }

    @Test func aDroppedLetterIsReadAgain() throws {
        let worker = try OCRWorker(orientation: false)
        let image = try Self.card(sex: "F")
        let field = try #require(try worker.singleLetterSex(try Self.words(worker, image), image: image, resolution: 300))
        #expect(field.value == .text("F"))
        // Where the letter is printed: under the label at 300 pt from the left (1250 px).
        #expect(abs(field.box!.x - 1250) < 40)
    }

    /// A letter read as another ("E" for F on a copy) is read again as one of M, F, X — for
    /// review; a letter printed that is no sex is not forced into one.
    @Test(arguments: [("F", "E", "F"), ("F", "Fr", "F"), ("M", "IM", "M"), ("P", "P", nil), ("B", "B", nil), ("R", "R", nil)] as [(String, String, String?)])
    func aMisreadLetterIsReadAgainForReview(_ printed: String, _ misread: String, _ expected: String?) throws {
        let worker = try OCRWorker(orientation: false)
        let image = try Self.card(sex: printed)
        var options = OCROptions()
        options.kind = .id
        let page = try worker.process(image: image, options: options)
        let label = try #require(page.words.first { $0.text == "Sex" })
        var words = try Self.words(worker, image)
        // The value as if misread, where it is printed.
        words.append(Word(text: misread, confidence: 40, box: BoundingBox(x: 1250, y: label.box.y + 2 * label.box.height, width: 45, height: 60),
                          block: label.block, paragraph: label.paragraph, line: label.line + 1, word: 1))
        let field = try worker.singleLetterSex(words, image: image, resolution: 300)
        #expect(field?.value.string == expected)
        if field != nil { #expect(field?.needsReview == true) }
    }

    /// A letter printed tight after its label ("Gender:M") that Tesseract took into the label's
    /// box and dropped: the label read again as one line gives it back, for review; another
    /// letter there is no sex.
    @Test(arguments: [("M", "M"), ("P", nil)] as [(String, String?)])
    func aLetterGluedToItsLabelIsReadAgain(_ printed: String, _ expected: String?) throws {
        let worker = try OCRWorker(orientation: false)
        let data = PDFBuilder.pdf([PDFBuilder.Page(text: "RESIDENCE PERMIT", placed: [
            (72, 600, 14, "Surname:DOE"), (72, 570, 14, "Gender:\(printed)"), (72, 540, 14, "Nationality:UTO"),
        ])])
        let path = TestScratch.directory.appendingPathComponent("kordant-glued-\(getpid())-\(printed).pdf").path
        try data.write(to: URL(fileURLWithPath: path))
        let image = try PDFDocument(path: path).render(page: 0, dpi: 300)
        var options = OCROptions()
        options.kind = .id
        let page = try worker.process(image: image, options: options)
        // As Tesseract read it on a dev card: the label alone, its box over the letter too.
        let words = page.words.map { w -> Word in
            guard w.text.hasPrefix("Gender") else { return w }
            var label = w
            label.text = "Gender:"
            return label
        }
        #expect(words.contains { $0.text == "Gender:" })
        let field = try worker.singleLetterSex(words, image: image, resolution: 300)
        #expect(field?.value.string == expected)
        if let field { #expect(field.needsReview && field.box!.x > words.first { $0.text == "Gender:" }!.box.x + 100) }
    }

    /// A bold "M" under "Sex / Sexe" on a page photographed askew, as the engine prepared it (grey,
    /// flattened, scaled 2.18×; Tests/Fixtures/ocr-fallback/README.md). Read alone as one
    /// character it gives nothing; read as one block with its label above, it is the letter.
    @Test func aLoneLetterIsReadWithItsLabelAboveIt() throws {
        let image = try ImageLoader.load(path: DegradedScanTests.root + "/Tests/Fixtures/ocr-fallback/s15-dev-024-sex-prepared.png")[0]
        let worker = try OCRWorker(orientation: false)
        func word(_ text: String, _ x: Int, _ y: Int, _ w: Int, _ h: Int, _ n: Int) -> Word {
            Word(text: text, confidence: 90, box: BoundingBox(x: x, y: y, width: w, height: h), block: 1, paragraph: 1, line: 2, word: n)
        }
        // As the page's reading gave them: the label, nothing under it.
        let words = [word("sex", 48, 48, 42, 16, 1), word("/", 108, 44, 12, 18, 2), word("sexe", 138, 44, 54, 17, 3)]
        let alone = try TesseractHandle().recognize(image, resolution: 655, mode: .singleCharacter, rectangle: BoundingBox(x: 40, y: 67, width: 64, height: 40))
        #expect(!alone.words.contains { FieldExtractor.sex($0.text) != nil }, "\(alone.words.map(\.text))")
        let field = try #require(try worker.singleLetterSex(words, image: image, resolution: 655))
        #expect(field.value == .text("M"))
        let box = try #require(field.box)
        #expect(box.y > 64 && abs(box.x - 48) < 16)
    }

    /// A tight stack: the next label ("Passport No.") starts a line's gap under the letter, inside
    /// the region read under "Sex". The region ends above that label, and the letter is read (a
    /// passport page of the dev split lost its "F" so).
    @Test func aTightStacksNextLabelEndsTheRegionAboveIt() throws {
        let worker = try OCRWorker(orientation: false)
        let data = PDFBuilder.pdf([PDFBuilder.Page(text: "PASSPORT", placed: [
            (72, 600, 12, "Surname"), (72, 580, 16, "DOE"), (300, 600, 12, "Sex"), (300, 580, 16, "F"), (300, 567, 12, "Passport No."),
            (300, 548, 16, "K9767648"),
        ])])
        let path = TestScratch.directory.appendingPathComponent("kordant-tight-sex-\(getpid()).pdf").path
        try data.write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let image = try PDFDocument(path: path).render(page: 0, dpi: 300)
        var options = OCROptions()
        options.kind = .id
        // The page's words as read, less the letter (as when the layout drops it).
        let words = try worker.process(image: image, options: options).words.filter { $0.text != "F" }
        let label = try #require(words.first { $0.text == "Sex" })
        // The next label lies inside the region a looser card leaves empty (2½ label heights under it).
        let next = try #require(words.first { $0.text == "Passport" })
        #expect(next.box.y < label.box.y + label.box.height + label.box.height / 5 + 5 * label.box.height / 2)
        let field = try #require(try worker.singleLetterSex(words, image: image, resolution: 300))
        #expect(field.value == .text("F"))
        let box = try #require(field.box)
        #expect(box.y > label.box.y + label.box.height && box.y + box.height < next.box.y)
    }

    /// Another letter, or nothing, under the label gives no value: the reading is not forced
    /// into M, F or X.
    @Test(arguments: ["P", nil] as [String?])
    func nothingIsInvented(_ printed: String?) throws {
        let worker = try OCRWorker(orientation: false)
        let image = try Self.card(sex: printed)
        #expect(try worker.singleLetterSex(try Self.words(worker, image), image: image, resolution: 300) == nil)
    }
}
