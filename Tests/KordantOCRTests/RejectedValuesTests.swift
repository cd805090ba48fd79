@preconcurrency import CTesseract
import Foundation
@testable import KordantOCR
import Testing

/// A strictly shaped value whose words failed its validator, read again alone
/// (`RejectedValues`), on real Tesseract: a faxed form's postal code cell
/// (`Tests/Fixtures/ocr-fallback/README.md`).
@Suite struct RejectedValuesTests {
    static func word(_ text: String, _ x: Int, _ y: Int, _ w: Int, _ h: Int, block: Int, word n: Int = 1, confidence: Double = 94) -> Word {
        Word(text: text, confidence: confidence, box: BoundingBox(x: x, y: y, width: w, height: h), block: block, paragraph: 1, line: 1, word: n)
    }

    /// The cell as the page's reading had it: "Postal Code" over "7870}" (the 1's foot and flag
    /// read as a brace), which no ZIP code validator takes.
    static let cell = PageText(text: "Postal Code\n7870}\n", meanConfidence: 90, words: [
        word("Postal", 27, 18, 59, 18, block: 1), word("Code", 95, 18, 49, 19, block: 1, word: 2),
        word("7870}", 28, 53, 70, 24, block: 2, confidence: 82.6),
    ], width: 220, height: 90, hocr: nil, tsv: nil, alto: nil)

    @Test func theWordsOfAValueThatFailedAreFoundOnThePage() {
        let lines = TextLine.group(Self.cell.words)
        let rejected = FieldExtractor.rejectedValues(lines, kind: .optout).rejected
        #expect(rejected["zip"]?.map(\.text) == ["7870}"], "\(rejected)")
        #expect(RejectedValues.range(of: rejected["zip"] ?? [], in: Self.cell) == 2..<3)
        // Words found elsewhere, or not one after another, are not these.
        #expect(RejectedValues.range(of: [Self.cell.words[2], Self.cell.words[0]], in: Self.cell) == nil)
    }

    @Test func aFaxedPostalCodeReadAgainAloneIsTakenForReview() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path
        let page = try ImageLoader.load(path: root + "/Tests/Fixtures/ocr-fallback/s113-dev-057-postal-code-fax.png")[0]
        let image = LeptImage(try #require(pixConvertTo8(page.pix, 0)))
        let worker = try OCRWorker(orientation: false)
        var report = PreprocessReport()
        report.resolution = 238
        let found = try worker.rejectedValuesReread(Self.cell, kind: .optout, fields: [:], image: image, resolution: 238,
                                                    options: OCROptions(), report: report, index: 1)
        let zip = try #require(found?["zip"], "\(String(describing: found))")
        #expect(zip.value == .text("78701"))
        #expect(zip.needsReview)
        #expect(zip.confidence <= RejectedValues.cap)
        // A field the page gave is not read again.
        let given = Field(value: .text("78701"), confidence: 90, box: nil)
        #expect(try worker.rejectedValuesReread(Self.cell, kind: .optout, fields: ["zip": given], image: image, resolution: 238,
                                                options: OCROptions(), report: report, index: 1) == nil)
    }
}
