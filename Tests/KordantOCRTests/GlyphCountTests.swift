@preconcurrency import CTesseract
import Foundation
@testable import KordantOCR
import Testing

/// A document number or an ID name read with a glyph twice, or a number with one lost, read again
/// glyph by glyph (`GlyphCount`).
@Suite struct GlyphCountTests {
    /// The glyphs' readings spell the first reading less one character, or with two of its
    /// characters read as one glyph; anything else is left alone.
    @Test func aGlyphReadTwiceIsDropped() {
        #expect(GlyphCount.mended("C68G682377", glyphs: "C68G82377") == "C68G82377")
        #expect(GlyphCount.mended("X15G691565", glyphs: "X15G91565") == "X15G91565")
        // A G read "05".
        #expect(GlyphCount.mended("C420550554", glyphs: "C42G50554") == "C42G50554")
        // At either end, a glyph missing from the count is likelier lost to the ink.
        #expect(GlyphCount.mended("1775C87559", glyphs: "L75C87559") == nil)
        #expect(GlyphCount.mended("755045218", glyphs: "55045218") == nil)
        #expect(GlyphCount.mended("X64F94636", glyphs: "54F94636") == nil)
        #expect(GlyphCount.mended("75504521B8", glyphs: "755045218") == nil)
        // A second disagreement: neither reading is vouched for.
        #expect(GlyphCount.mended("C68G682377", glyphs: "C68G82371") == nil)
        #expect(GlyphCount.mended("C68G682377", glyphs: "D68G82377") == nil)
        // As many glyphs as characters, or two fewer: not a glyph read twice.
        #expect(GlyphCount.mended("C68G82377", glyphs: "C68G82377") == nil)
        #expect(GlyphCount.mended("C68G6823777", glyphs: "C68G82377") == nil)
        // Too short a number to count on.
        #expect(GlyphCount.mended("AB1234", glyphs: "A1234") == nil)
    }

    /// One glyph more than characters: the glyph the first reading lost, when the rest agree.
    @Test func aGlyphTheReadingLostIsPutBack() {
        #expect(GlyphCount.lost("5544627", glyphs: "N5544627") == "N5544627")
        #expect(GlyphCount.lost("X6G44623", glyphs: "X64G44623") == "X64G44623")
        #expect(GlyphCount.lost("L21G7375", glyphs: "L21G73757") == "L21G73757")
        // A narrow glyph may be a speck or a rule's end; a second disagreement, or as many
        // glyphs as characters, vouch for nothing.
        #expect(GlyphCount.lost("2345678", glyphs: "12345678") == nil)
        #expect(GlyphCount.lost("5544627", glyphs: "N5544621") == nil)
        #expect(GlyphCount.lost("5544627", glyphs: "5544627") == nil)
        #expect(GlyphCount.lost("5544", glyphs: "N5544") == nil)
    }

    /// A name's spaces stay between the same glyphs once the glyph read twice is one.
    @Test func aNamesSpacesAreKept() {
        #expect(GlyphCount.spaced("THI MINH KHALI", mended: "THIMINHKHAI") == "THI MINH KHAI")
        #expect(GlyphCount.spaced("NJERTI", mended: "NJERI") == "NJERI")
        #expect(GlyphCount.spaced("ITYER", mended: "IYER") == "IYER")
        #expect(GlyphCount.spaced("OQUEDRAOGO", mended: "OUEDRAOGO") == "OUEDRAOGO")
        #expect(GlyphCount.spaced("DA CONCEICGAO RIBEIRO", mended: "DACONCEICAORIBEIRO") == "DA CONCEICAO RIBEIRO")
        // The last character read twice.
        #expect(GlyphCount.spaced("AYSE GULL", mended: "AYSEGUL") == "AYSE GUL")
        // The pair at the end (not taken), or too few glyphs for a number.
        #expect(GlyphCount.mended("NJERTI", glyphs: "NJERI", least: 4) == nil)
        #expect(GlyphCount.mended("NJERTI", glyphs: "NJERI") == nil)
        // A narrow glyph dropped: more likely merged into its neighbour's ink than read twice.
        #expect(GlyphCount.mended("CELIK", glyphs: "CELK", least: 4) == nil)
        #expect(GlyphCount.mended("NJERTIA", glyphs: "NJERIA", least: 4) == "NJERIA")
        #expect(GlyphCount.mended("AB11234", glyphs: "AB1234") == nil)
    }

    /// Columns of ink between columns of paper, specks left out; a glyph twice the others'
    /// width may be two touching, and fewer than six tell too little.
    @Test func glyphsAreColumnsOfInk() throws {
        let (w, h) = (80, 20)
        var pixels = [UInt8](repeating: 230, count: w * h)
        func ink(_ x0: Int, _ x1: Int, _ y0: Int, _ y1: Int) {
            for y in y0..<y1 { for x in x0..<x1 { pixels[y * w + x] = 20 } }
        }
        ink(2, 10, 2, 18)
        ink(14, 22, 2, 18)
        ink(26, 34, 2, 18)
        ink(40, 41, 9, 11)   // a speck: 2 pixels of ink
        ink(50, 58, 2, 18)
        let glyphs = try #require(GlyphCount.glyphs(GrayImage(width: w, height: h, pixels: pixels)))
        #expect(glyphs.map { [$0.x0, $0.x1] } == [[2, 10], [14, 22], [26, 34], [50, 58]])
        #expect(GlyphCount.glyphs(GrayImage(width: w, height: h, pixels: [UInt8](repeating: 230, count: w * h))) == nil)
        let even = (0..<9).map { (x0: $0 * 20, x1: $0 * 20 + 15) }
        #expect(GlyphCount.apart(even))
        #expect(!GlyphCount.apart(Array(even.prefix(5))))
        var touching = even
        touching[4].x1 += 15
        #expect(!GlyphCount.apart(touching))
    }

    /// "L21G73757" in a bold monospace face, which Tesseract reads "L21G673757" (the G's closing
    /// bar once more as a 6) on real Tesseract: its nine glyphs read alone spell it.
    @Test func aPermitNumbersGReadAsG6IsReadAgain() throws {
        let page = try ImageLoader.load(path: LeadingGlyphTests.root + "/Tests/Fixtures/ocr-fallback/s186-dev-093-permit-number-flatbed.png")[0]
        let image = LeptImage(try #require(pixConvertTo8(page.pix, 0)))
        let worker = try OCRWorker(orientation: false)
        let box = BoundingBox(x: 184, y: 211, width: 175, height: 23)
        let read = try #require(try worker.glyphCountRead(Field(value: .text("L21G673757"), confidence: 51, box: box, needsReview: true),
                                                          image: image, resolution: 300))
        #expect(read.value == .text("L21G73757"))
        #expect(read.needsReview)
        // Read surely, it is not taken to have read a glyph twice.
        #expect(try worker.glyphCountRead(Field(value: .text("L21G673757"), confidence: 91, box: box, needsReview: false),
                                          image: image, resolution: 300) == nil)
        // Its first or its last glyph lost: put back.
        for lost in ["21G73757", "L21G7375"] {
            let read = try #require(try worker.glyphCountRead(Field(value: .text(lost), confidence: 93, box: box, needsReview: false),
                                                              image: image, resolution: 300))
            #expect(read.value == .text("L21G73757"))
            #expect(read.needsReview)
        }
        // The label's colon inside the box, a word's space before the number: no glyph of it.
        #expect(try worker.glyphCountRead(Field(value: .text("L21G73757"), confidence: 93, box: BoundingBox(x: 172, y: 211, width: 187, height: 23)),
                                          image: image, resolution: 300) == nil)
        // Read right: as many characters as glyphs, nothing to do. A name is read again only
        // when it is for review already.
        #expect(try worker.glyphCountRead(Field(value: .text("L21G73757"), confidence: 51, box: box, needsReview: true),
                                          image: image, resolution: 300) == nil)
        #expect(try worker.glyphCountRead(Field(value: .text("L21G673757"), confidence: 91, box: box, needsReview: false),
                                          alphabet: GlyphCount.nameAlphabet + "0123456789", least: 4, number: false,
                                          image: image, resolution: 300) == nil)
    }
}
