@preconcurrency import CTesseract
import Foundation
@testable import KordantOCR
import Testing

/// A phone photo of a card lying on a textured surface (a table, a cloth): background flattening
/// must leave it alone. Flattened, the texture becomes paper grey that Tesseract's global
/// threshold cuts into half ink, and a dev corpus page like that took 2–4 minutes in recognition
/// (tens of thousands of specks) and read as nothing. Real Leptonica and Tesseract, on a page
/// made here: TestDocuments' ID card pasted on a lit, mottled surface.
@Suite struct TexturedBackgroundTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path

    /// TestDocuments' ID card pasted in the middle of a `width` × `height` surface whose grey
    /// level at each pixel is `surface(x, y)`.
    static func cardOn(width W: Int, height H: Int, surface: (Int, Int) -> Double) throws -> LeptImage {
        let loaded = try ImageLoader.load(path: root + "/TestDocuments/idcard_td1.clean.png")[0]
        let card8 = LeptImage(try #require(pixConvertTo8(loaded.pix, 0)))
        let card = try #require(GrayImage(pix8: card8.pix))
        var pixels = [UInt8](repeating: 0, count: W * H)
        for y in 0..<H {
            for x in 0..<W { pixels[y * W + x] = UInt8(max(0, min(255, surface(x, y)))) }
        }
        let ox = (W - card.width) / 2, oy = (H - card.height) / 2
        for y in 0..<card.height {
            for x in 0..<card.width { pixels[(oy + y) * W + ox + x] = card.pixels[y * card.width + x] }
        }
        return try #require(GrayImage(width: W, height: H, pixels: pixels).leptImage())
    }

    /// 2400 × 3000 mottled surface, brighter to the right (uneven light, so the page is a
    /// candidate for flattening), with the card in the middle.
    static func cardOnTexture() throws -> LeptImage {
        var seed: UInt64 = 14
        return try cardOn(width: 2400, height: 3000) { x, y in
            seed = seed &* 6364136223846793005 &+ 1442695040888963407
            let noise = Double(Int(seed >> 59)) - 16   // −16…15
            let mottle = 40 * sin(Double(x) / 23 + 3 * sin(Double(y) / 41)) * cos(Double(y) / 17 + 2 * sin(Double(x) / 31))
            return 95 + mottle + 60 * Double(x) / 2400 + noise
        }
    }

    @Test func texturedSurroundIsNotFlattened() throws {
        let photo = try Self.cardOnTexture()
        // The page is one flattening would be tried on, and flattening turns it into a texture.
        #expect(Preprocessor.backgroundSpread(photo) > 25)
        let flattened = LeptImage(try #require(pixBackgroundNormSimple(photo.pix, nil, nil)))
        #expect(Preprocessor.otsuInkFraction(flattened) > PreprocessOptions().maxFlattenedInk)
        let (_, report) = try Preprocessor.run(photo, options: PreprocessOptions())
        #expect(!report.steps.contains("background"), "\(report.steps)")
        // Read whole, the card's text is found among a bounded number of words.
        let page = try OCRWorker(orientation: false).process(image: photo)
        #expect(page.words.count < 400, "\(page.words.count) words")
        #expect(page.text.contains("MOREAU"), "\(page.text.prefix(400))")
        #expect(page.mrz?.lines == ["I<UTOT7B0443150<<<<<<<<<<<<<<<", "9209301M2901053UTO<<<<<<<<<<<6", "MOREAU<<JULIEN<PIERRE<<<<<<<<<"])
    }

    /// A fine weave (a 2-pixel checker, light and shade alternating) averages to one grey in the
    /// 4× reduced copy, so the reduced measure saw no ink at all; at full size, where Tesseract
    /// thresholds it, flattened it is half ink. A dev page like it (a 12-MP photo of a passport on
    /// a cloth) ran for minutes in Tesseract's paragraph pass. It is measured at full size too.
    @Test func aFineWeaveIsMeasuredAtFullSize() throws {
        let photo = try Self.cardOn(width: 2400, height: 3000) { x, y in
            ((x / 2 + y / 2) % 2 == 0 ? 70 : 120) + 60 * Double(x) / 2400
        }
        #expect(Preprocessor.backgroundSpread(photo) > 25)
        let flattened = LeptImage(try #require(pixBackgroundNormSimple(photo.pix, nil, nil)))
        #expect(Preprocessor.otsuInkFraction(flattened) <= PreprocessOptions().maxFlattenedInk)
        #expect(Preprocessor.otsuInkFraction(flattened, reduced: false) > PreprocessOptions().maxFlattenedInk)
        let (_, report) = try Preprocessor.run(photo, options: PreprocessOptions())
        #expect(!report.steps.contains("background"), "\(report.steps)")
    }

    /// Paper lit unevenly is still flattened: its text stays far under the ink limit.
    @Test func unevenPaperIsStillFlattened() throws {
        let page = try ImageLoader.load(path: Self.root + "/TestDocuments/deed_warranty.uneven.png")[0]
        let (_, report) = try Preprocessor.run(page, options: PreprocessOptions())
        #expect(report.steps.contains("background"), "\(report.steps)")
    }

    /// A woven cloth is a lattice of glyph-sized blobs at one pitch: thousands of parallel
    /// fixed-pitch chains for the MRZ locator, whose joining of broken lines compared every pair
    /// again after each join (50 s on a 2400 × 3000 photo in a release build). Now bounded; the
    /// card's MRZ on such a cloth is still found and read.
    @Test func wovenSurroundIsBoundedForTheLocator() throws {
        let photo = try Self.cardOn(width: 1600, height: 1200) { x, y in
            let weave = 0.5 + 0.25 * sin(1.3 * Double(x) / 4) * sin(1.3 * Double(y) / 4)
            return 110 * (0.8 + 0.3 * weave) + 40 * Double(x) / 1600
        }
        let mrz = MRZScanner.scan(photo, tesseract: try TesseractHandle())
        #expect(mrz?.lines == ["I<UTOT7B0443150<<<<<<<<<<<<<<<", "9209301M2901053UTO<<<<<<<<<<<6", "MOREAU<<JULIEN<PIERRE<<<<<<<<<"])
    }
}
