@preconcurrency import CTesseract
import Foundation
@testable import KordantOCR
import Testing

/// A photocopy whose print came out lighter than its speckle (paper 208, print 160, specks 40):
/// at the fixed threshold of 150 the page is specks alone. Made here from TestDocuments' clean
/// warranty deed with seeded specks; real Leptonica and Tesseract.
@Suite struct LightPrintTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path

    /// The clean deed copied with its ink at `ink` on paper at 208, under `specks` dark dots of
    /// one or two pixels at seeded random places (about 7 000 a megapixel, as the dev copies).
    static func copied(ink: Int, specks: Int = 50_000) throws -> LeptImage {
        let page = try ImageLoader.load(path: root + "/TestDocuments/deed_warranty.clean.png")[0]
        let gray = LeptImage(try #require(pixConvertTo8(page.pix, 0)))
        var image = try #require(GrayImage(pix8: gray.pix))
        let paper = 208
        for i in image.pixels.indices {
            image.pixels[i] = UInt8(ink + (paper - ink) * Int(image.pixels[i]) / 255)
        }
        image.speckle(count: specks, maxSize: 2, seed: 23)
        return try #require(image.leptImage())
    }

    /// Measured at 150, the page's capital height is that of the specks' clusters; measured on
    /// its print, it is the clean page's, the page is not scaled up with its speckle, and the
    /// median filter takes the specks.
    @Test func aPaleCopyIsMeasuredOnItsPrint() throws {
        let clean = try ImageLoader.load(path: Self.root + "/TestDocuments/deed_warranty.clean.png")[0]
        let (_, cleanReport) = try Preprocessor.run(clean, options: PreprocessOptions())
        let cleanHeight = try #require(cleanReport.textHeight)
        let page = try Self.copied(ink: 160)
        let atFixed = LeptImage(try #require(pixConvertTo1(page.pix, 150)))
        // No letters to measure at 150, or only the specks' clusters.
        let specksHeight = Preprocessor.capHeight(atFixed)
        #expect(specksHeight.map { $0 < 0.6 * cleanHeight } ?? true, "at 150: \(String(describing: specksHeight)), clean: \(cleanHeight)")
        let (_, report) = try Preprocessor.run(page, options: PreprocessOptions())
        #expect(report.steps.contains("light-print") && report.steps.contains("median"), "\(report.steps)")
        #expect(!report.steps.contains("rescale"), "\(report.steps)")
        let height = try #require(report.textHeight)
        #expect(abs(height - cleanHeight) <= 0.15 * cleanHeight, "measured \(height), clean \(cleanHeight)")
    }

    /// Read whole: the parties and numbers of the deed, not the specks.
    @Test func aPaleCopyReadsItsFields() throws {
        let read = try OCRWorker(orientation: false).process(image: try Self.copied(ink: 160))
        let data = try Data(contentsOf: URL(fileURLWithPath: Self.root + "/TestDocuments/deed_warranty.truth.json"))
        let truth = try #require((try JSONSerialization.jsonObject(with: data) as? [String: Any])?["fields"] as? [String: Any])
        for key in ["grantor", "grantee", "parcel_number", "county"] {
            #expect(read.fields[key]?.value.string == truth[key] as? String, "\(key): \(String(describing: read.fields[key]))")
        }
    }

    /// Dark print under the same specks is measured at 150 as before: no light-print step.
    @Test func aDarkCopyIsMeasuredAsBefore() throws {
        let (_, report) = try Preprocessor.run(try Self.copied(ink: 30), options: PreprocessOptions())
        #expect(!report.steps.contains("light-print"), "\(report.steps)")
        #expect(report.steps.contains("median"), "\(report.steps)")
    }
}
