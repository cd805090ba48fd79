import Foundation
@testable import KordantOCR
import Testing

/// A poor page read again as loaded at the resolution Tesseract estimates for it, as raw
/// `tesseract` reads it (real Tesseract readings of a fixture page, `Tests/Fixtures/ocr-fallback/README.md`).
@Suite struct AsLoadedResolutionTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path
    static func fixture(_ name: String) -> String { root + "/Tests/Fixtures/ocr-fallback/" + name }

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
