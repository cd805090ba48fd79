@preconcurrency import CTesseract
import Foundation
@testable import KordantOCR
import Testing

/// A document number's first glyph read again alone (`LeadingGlyph`), on real Tesseract: crops
/// of two generated residence permits (`Tests/Fixtures/ocr-fallback/README.md`).
@Suite struct LeadingGlyphTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path

    static func gray(_ name: String) throws -> LeptImage {
        let page = try ImageLoader.load(path: root + "/Tests/Fixtures/ocr-fallback/" + name)[0]
        return LeptImage(try #require(pixConvertTo8(page.pix, 0)))
    }

    static func number(_ value: String, _ box: BoundingBox, review: Bool = true) -> Field {
        Field(value: .text(value), confidence: 49, box: box, needsReview: review)
    }

    @Test func aDigitOfTheLettersShapeAndALostLetter() {
        #expect(LeadingGlyph.mended("74968910", glyph: "Z.") == "Z4968910")
        #expect(LeadingGlyph.mended("25494256", glyph: "z") == "Z5494256")
        #expect(LeadingGlyph.mended("03955597", glyph: "D") == "D3955597")
        // The digit read again as itself, or as a mark: nothing to mend.
        #expect(LeadingGlyph.mended("201132145", glyph: "2") == nil)
        #expect(LeadingGlyph.mended("0124179776", glyph: ":") == nil)
        // A 1 alone reads as I or l, a 0 as O: no sign of a letter.
        #expect(LeadingGlyph.mended("13D99763", glyph: "I") == nil)
        #expect(LeadingGlyph.mended("196461741", glyph: "l") == nil)
        #expect(LeadingGlyph.mended("012345678", glyph: "O") == nil)
        #expect(LeadingGlyph.mended("196461741", glyph: "I") == nil)
        // A capital of no digit's shape before digits only: the letter the whole reading lost.
        #expect(LeadingGlyph.mended("8460587", glyph: "F") == "F8460587")
        #expect(LeadingGlyph.mended("8870947", glyph: "Vv") == "V8870947")
        // In small letters it is no sign (a 9 read alone as "q", a 4 as "y"), nor before a
        // number that has letters, nor where a tenth character would make it too long for a
        // travel document's number.
        #expect(LeadingGlyph.mended("960139071", glyph: "q") == nil)
        #expect(LeadingGlyph.mended("439243765", glyph: "y") == nil)
        #expect(LeadingGlyph.mended("13D99763", glyph: "F") == nil)
        #expect(LeadingGlyph.mended("880574879", glyph: "N") == nil)
        // Nor before a number read surely: a letter read there is the end of its label.
        #expect(LeadingGlyph.mended("8870947", glyph: "N", lostLetter: false) == nil)
        #expect(LeadingGlyph.mended("74968910", glyph: "Z", lostLetter: false) == "Z4968910")
        // A number that opens with a letter is left alone.
        #expect(LeadingGlyph.mended("X4506117", glyph: "X") == nil)
    }

    /// "Document No.: Z4968910" in a bold serif, read "74968910" with the page (confidence 49,
    /// for review): its first glyph alone reads Z.
    @Test func aZReadAsASevenIsReadAgain() throws {
        let worker = try OCRWorker(orientation: false)
        let image = try Self.gray("s117-dev-096-document-number-flatbed.png")
        let read = try #require(try worker.leadingGlyphRead(Self.number("74968910", BoundingBox(x: 164, y: 16, width: 137, height: 23)),
                                                            image: image, resolution: 300))
        #expect(read.value == .text("Z4968910"))
        #expect(read.needsReview)
        // Read surely as "74968910", the number is mended all the same, and goes to review: the
        // two readings of its first glyph disagree.
        let sure = try #require(try worker.leadingGlyphRead(Self.number("74968910", BoundingBox(x: 164, y: 16, width: 137, height: 23), review: false),
                                                            image: image, resolution: 300))
        #expect(sure.value == .text("Z4968910"))
        #expect(sure.needsReview)
    }

    /// "201132145" in a bold sans: its 2 read alone is a 2, not a Z; the number is left as it was.
    @Test func aTwoReadAloneStaysATwo() throws {
        let worker = try OCRWorker(orientation: false)
        let image = try Self.gray("s106-dev-098-document-number-flatbed.png")
        for review in [true, false] {
            #expect(try worker.leadingGlyphRead(Self.number("201132145", BoundingBox(x: 177, y: 17, width: 188, height: 27), review: review),
                                                image: image, resolution: 300) == nil)
        }
    }
}
