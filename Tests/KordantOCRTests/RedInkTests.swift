@preconcurrency import CTesseract
import Foundation
import Testing
@testable import KordantOCR

/// A red "RECORDED" stamp over a deed's lines: faded in the grey page by its red channel, the
/// print under and beside it is read whole.
@Suite struct RedInkTests {
    static var fixture: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/ocr-fallback/s150-dev-044-recorded-stamp.jpg").path
    }

    /// Read with the stamp faded, "Recorded on: 10 January 2017" and "for and in consideration
    /// of" come through (as luminance, "… 20" and "consid").
    @Test func aRedStampOverPrintIsFaded() throws {
        let worker = try OCRWorker(orientation: false)
        let page = try #require(try worker.process(path: Self.fixture).pages.first)
        #expect(page.preprocessing.steps.contains("red-ink"))
        #expect(page.text.contains("10 January 2017"))
        #expect(page.text.contains("consideration"))
    }

    /// Only red ink and the pixels beside it change, and only lighter: the stamp's pixels much
    /// lighter than luminance makes them, everything away from it as luminance makes it; a page
    /// with no red, red only in glyph-sized marks, or all red, is left alone.
    @Test func onlyRedInkIsLightened() throws {
        let color = try #require(try ImageLoader.load(path: Self.fixture).first)
        let luminance = LeptImage(try #require(pixConvertTo8(color.pix, 0)))
        let gray = LeptImage(try #require(pixConvertTo8(color.pix, 0)))
        #expect(Preprocessor.dropRedInk(color, into: gray))
        // Where the red ink is (its box, and three pixels round it for the edge taken with it).
        var (left, top, right, bottom) = (Int.max, Int.max, -1, -1)
        for y in 0..<color.height {
            for x in 0..<color.width {
                var p: UInt32 = 0
                pixGetPixel(color.pix, Int32(x), Int32(y), &p)
                let r = p >> 24, g = (p >> 16) & 0xff, b = (p >> 8) & 0xff
                if r >= max(g, b) + Preprocessor.redExcess { (left, top, right, bottom) = (min(left, x), min(top, y), max(right, x), max(bottom, y)) }
            }
        }
        var muchLighter = 0, darker = 0, changedAway = 0
        for y in 0..<color.height {
            for x in 0..<color.width {
                var a: UInt32 = 0, b: UInt32 = 0
                pixGetPixel(luminance.pix, Int32(x), Int32(y), &a)
                pixGetPixel(gray.pix, Int32(x), Int32(y), &b)
                if b < a { darker += 1 }
                if b >= a + 40 { muchLighter += 1 }
                if b != a, x < left - 3 || x > right + 3 || y < top - 3 || y > bottom + 3 { changedAway += 1 }
            }
        }
        #expect(darker == 0 && changedAway == 0)
        #expect(muchLighter > 2000)
        // No stamp's share of red: a grey copy of the page, and a page all red.
        let plain = LeptImage(try #require(pixConvertTo32(luminance.pix)))
        #expect(!Preprocessor.dropRedInk(plain, into: LeptImage(try #require(pixConvertTo8(plain.pix, 0)))))
        // Red print (a card's field numbers): solid red of a glyph's size, left; so is light red
        // of a glyph's size, and solid red of a stamp's.
        for (color, size) in [(UInt32(0xC0_20_20_00), Int32(12)), (0xE0_70_70_00, 12), (0xC0_20_20_00, 80)] {
            let marks = LeptImage(try #require(pixCreate(1000, 700, 32)))
            pixSetAllArbitrary(marks.pix, 0xF5_F5_F0_00)
            for i in 0..<(size > 40 ? 2 : 30) {
                var box = boxCreate(Int32(40 + (i % 10) * 90), Int32(60 + (i / 10) * 200), size, size + 2)
                pixSetInRectArbitrary(marks.pix, box, color)
                boxDestroy(&box)
            }
            #expect(!Preprocessor.dropRedInk(marks, into: LeptImage(try #require(pixConvertTo8(marks.pix, 0)))))
        }
        let red = LeptImage(try #require(pixCreate(200, 100, 32)))
        pixSetAllArbitrary(red.pix, 0xC8_1E_1E_00)
        #expect(!Preprocessor.dropRedInk(red, into: LeptImage(try #require(pixConvertTo8(red.pix, 0)))))
    }
}
