import Foundation
@testable import KordantOCR
import Testing

/// Parts of a page read again on their own terms: a poorly read document number alone from its
/// box, and a poor page as loaded at the resolution Tesseract estimates for it (real Tesseract
/// readings of fixture pages, `Tests/Fixtures/ocr-fallback/README.md`).
@Suite struct ReadAloneTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path
    static func fixture(_ name: String) -> String { root + "/Tests/Fixtures/ocr-fallback/" + name }

    /// Read with the card, the number gains a character ("X14G652114", confidence 27); read again
    /// alone it is right, and stays in review.
    @Test func aPoorlyReadDocumentNumberIsReadAgainAlone() throws {
        let page = try OCRWorker().process(path: Self.fixture("s66-dev-030-id-card-stacked-photocopy.png")).pages[0]
        #expect(page.kind == .id)
        let number = try #require(page.fields["document_number"])
        #expect(number.value.string == "X14G52114")
        #expect(number.needsReview)
    }

    /// A number read well is not read again: the reread leaves a sure field alone, and gives the
    /// one it reads a second opinion only when it has as many letters.
    @Test func aSureNumberIsLeftAlone() throws {
        let worker = try OCRWorker()
        let path = Self.fixture("s66-dev-030-id-card-stacked-photocopy.png")
        let image = try ImageLoader.load(path: path)[0]
        let box = BoundingBox(x: 499, y: 279, width: 129, height: 25)
        let sure = ["document_number": Field(value: .text("X14G652114"), confidence: 95, box: box)]
        #expect(try worker.documentNumberReread(sure, image: image) == sure)
        let poor = ["document_number": Field(value: .text("X14G652114"), confidence: 27, box: box)]
        #expect(try worker.documentNumberReread(poor, image: image)["document_number"]?.value.string == "X14G52114")
        // A first reading with more letters than the number alone gives keeps them.
        let lettered = ["document_number": Field(value: .text("XA4G652114"), confidence: 27, box: box)]
        #expect(try worker.documentNumberReread(lettered, image: image) == lettered)
    }

    /// Preprocessed, the page reads as its title alone; as loaded at 300 DPI as its last two
    /// lines; at Tesseract's own estimate (it states no resolution), as the passport it is.
    @Test func aPageAsLoadedIsReadAtItsOwnResolution() throws {
        let page = try OCRWorker().process(path: Self.fixture("s66-dev-018-id-passport-page-photocopy.png")).pages[0]
        #expect(page.kind == .id)
        #expect(page.preprocessing.steps.contains("unprocessed"), "\(page.preprocessing.steps)")
        #expect(page.preprocessing.resolution == 0)
        #expect(page.fields["date_of_birth"]?.value.string == "1965-08-28")
        #expect(page.fields["expiry_date"]?.value.string == "2030-07-14")
        #expect(page.fields["sex"]?.value.string == "M")
    }
}
