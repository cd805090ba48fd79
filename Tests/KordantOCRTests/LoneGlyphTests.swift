@preconcurrency import CTesseract
import Foundation
@testable import KordantOCR
import Testing

/// A name of one letter read as two or as a digit (`LoneGlyph`), read again as one character on
/// real Tesseract (a crop of a generated identity card, `Tests/Fixtures/ocr-fallback/README.md`);
/// and a bilingual label whose first language was misread.
@Suite struct LoneGlyphTests {
    static func word(_ text: String, _ x: Int, _ y: Int, _ w: Int, _ h: Int, block: Int, line: Int = 1, word n: Int = 1,
                     confidence: Double = 95) -> Word {
        Word(text: text, confidence: confidence, box: BoundingBox(x: x, y: y, width: w, height: h), block: block, paragraph: 1, line: line, word: n)
    }

    @Test func oneCapitalsWidthHoldsOneLetter() {
        #expect(LoneGlyph.doubled(Self.word("oO", 27, 39, 27, 28, block: 1)))
        #expect(LoneGlyph.doubled(Self.word("OO", 27, 39, 27, 28, block: 1)))
        #expect(LoneGlyph.doubled(Self.word("0", 611, 427, 21, 27, block: 1)))
        // Two capitals' width, a single letter, a tiny speck: as read.
        #expect(!LoneGlyph.doubled(Self.word("OO", 27, 39, 44, 28, block: 1)))
        #expect(!LoneGlyph.doubled(Self.word("O", 27, 39, 27, 28, block: 1)))
        #expect(!LoneGlyph.doubled(Self.word("oO", 27, 39, 5, 6, block: 1)))
        #expect(LoneGlyph.letter("O") == "O" && LoneGlyph.letter("0") == "O")
        #expect(LoneGlyph.letter("o") == nil && LoneGlyph.letter("OO") == nil && LoneGlyph.letter("|") == nil)
    }

    /// "Surname" over a photocopied card's "O", read "oO" with its page (confidence 45) and so
    /// taken as "OO" for review; read as one character it is the letter, for review. Read as a
    /// "0" (no name, so the field is missing), it is mended the same way.
    @Test func aPhotocopiedOneLetterSurnameIsReadAgain() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path
        let loaded = try ImageLoader.load(path: root + "/Tests/Fixtures/ocr-fallback/s129-dev-043-surname-photocopy.png")[0]
        let image = LeptImage(try #require(pixConvertTo8(loaded.pix, 0)))
        let worker = try OCRWorker(orientation: false)
        func page(_ value: String) -> PageText {
            PageText(text: "Surname\n\(value)\n", meanConfidence: 70, words: [
                Self.word("Surname", 28, 12, 92, 18, block: 1), Self.word(value, 27, 39, 27, 28, block: 2, confidence: 44.6),
            ], width: 220, height: 80, hocr: nil, tsv: nil, alto: nil)
        }
        // "oO" is taken as "OO" (small letters among capitals put in capitals), for review.
        let doubled = try #require(FieldExtractor.idVisual(TextLine.group(page("oO").words))["surname"])
        #expect(doubled.value == .text("OO") && doubled.needsReview)
        let mended = try #require(try worker.loneGlyphNames(page("oO"), fields: ["surname": doubled], image: image, resolution: 300)["surname"])
        #expect(mended.value == .text("O"))
        #expect(mended.needsReview && mended.confidence <= RejectedValues.cap)
        // Read as a digit, it is no name: the field is missing, and its rejected word is read again.
        #expect(FieldExtractor.idVisual(TextLine.group(page("0").words))["surname"] == nil)
        let missing = try worker.loneGlyphNames(page("0"), fields: [:], image: image, resolution: 300)
        #expect(missing["surname"]?.value == .text("O"), "\(missing) \(FieldExtractor.rejectedValues(TextLine.group(page("0").words), kind: .id).rejected)")
        // A name read as one letter already, or as a whole word, is left alone.
        let one = Field(value: .text("O"), confidence: 90, box: BoundingBox(x: 27, y: 39, width: 27, height: 28))
        #expect(try worker.loneGlyphNames(page("O"), fields: ["surname": one], image: image, resolution: 300).isEmpty)
    }

    /// "Surname / Nom" read "Surriame / Nom" (the n as "ri"): the label is found by its French half,
    /// and its value below starts under the phrase, not under "Nom" (a passport photocopy's words).
    @Test func aBilingualLabelStartsWhereItsPhraseDoes() {
        let words = [
            Self.word("REPUBLIC", 140, 119, 108, 22, block: 1), Self.word("PASSPORT", 139, 150, 129, 24, block: 1, line: 2),
            Self.word("Surriame", 432, 275, 66, 17, block: 2, confidence: 83.5), Self.word("/", 508, 281, 8, 11, block: 2, word: 2),
            Self.word("Nom", 526, 282, 28, 12, block: 2, word: 3),
            Self.word("OKONKWO", 431, 297, 150, 23, block: 3, confidence: 86.7), Self.word("-", 528, 298, 11, 27, block: 3, word: 2, confidence: 71),
            Self.word("EZE", 542, 299, 41, 27, block: 3, word: 3, confidence: 71),
            Self.word("Given", 430, 325, 46, 15, block: 4), Self.word("names", 487, 329, 46, 12, block: 4, word: 2),
            Self.word("CHIAMAKA", 429, 344, 110, 22, block: 5),
        ]
        let f = FieldExtractor.idVisual(TextLine.group(words))
        #expect(f["surname"]?.value.string == "OKONKWO-EZE", "\(f)")
        #expect(f["given_names"]?.value.string == "CHIAMAKA")
    }
}
