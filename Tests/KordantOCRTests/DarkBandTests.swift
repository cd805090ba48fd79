@preconcurrency import CTesseract
import Foundation
@testable import KordantOCR
import Testing

/// A card's title printed white on a dark band (`Preprocessor.darkBands`): made here from
/// TestDocuments' clean ID card with its title line inverted; real Leptonica and Tesseract.
@Suite struct DarkBandTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path

    /// The band as drawn: the title line "UTOPIA IDENTITY CARD" with a margin round it.
    static let band = BoundingBox(x: 30, y: 20, width: 690, height: 66)

    /// The clean card, grey, with `band` inverted: light print on dark ground.
    static func banded() throws -> LeptImage {
        let page = try ImageLoader.load(path: root + "/TestDocuments/idcard_td1.clean.png")[0]
        let gray = LeptImage(try #require(pixConvertTo8(page.pix, 0)))
        var image = try #require(GrayImage(pix8: gray.pix))
        for y in band.y..<(band.y + band.height) {
            for x in band.x..<(band.x + band.width) { image.pixels[y * image.width + x] = 255 - image.pixels[y * image.width + x] }
        }
        return try #require(image.leptImage())
    }

    /// The band is found where it was drawn, to within a few pixels.
    @Test func theBandIsFound() throws {
        let bands = Preprocessor.darkBands(try Self.banded())
        try #require(bands.count == 1, "\(bands)")
        let b = bands[0]
        #expect(abs(b.x - Self.band.x) <= 3 && abs(b.y - Self.band.y) <= 3, "\(b)")
        #expect(abs(b.width - Self.band.width) <= 6 && abs(b.height - Self.band.height) <= 6, "\(b)")
    }

    /// Read with the band turned back to dark on light, the title is read whole; left as it is,
    /// Tesseract reads it as marks ("ONO) =a) |B) = NN").
    @Test func theTitleIsReadOffTheBand() throws {
        let worker = try OCRWorker(orientation: false)
        let read = try worker.process(image: try Self.banded())
        #expect(read.preprocessing.steps.contains("dark-band"), "\(read.preprocessing.steps)")
        #expect(read.text.contains("IDENTITY CARD"), "\(read.text.prefix(80))")
        var off = OCROptions()
        off.preprocess.darkBands = false
        let without = try worker.process(image: try Self.banded(), options: off)
        #expect(!without.text.contains("IDENTITY CARD"), "\(without.text.prefix(80))")
    }

    /// No TestDocuments page has a band: print on paper, a shadowed page, a noisy photocopy, a
    /// skewed scan and a photo are left as they are.
    @Test func pagesWithoutABandAreLeftAlone() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: Self.root + "/TestDocuments")
            .filter { ($0.hasSuffix(".png") || $0.hasSuffix(".jpg")) && !$0.hasPrefix("bad_") }
        #expect(names.count >= 10)
        for name in names {
            let page = try ImageLoader.load(path: Self.root + "/TestDocuments/" + name)[0]
            guard let gray = pixConvertTo8(page.pix, 0) else { continue }
            #expect(Preprocessor.darkBands(LeptImage(gray)).isEmpty, "\(name)")
        }
    }
}
