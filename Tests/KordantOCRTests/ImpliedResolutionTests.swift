import Foundation
@testable import KordantOCR
@preconcurrency import CTesseract
import Testing

/// The resolution Tesseract is told for a page that does not say its own: the one its capitals
/// imply when that is clearly below 300 DPI, since Tesseract sizes its noise thresholds by it.
@Suite struct ImpliedResolutionTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path

    /// The 300-DPI opt-out form at 52 % (capitals of about 18 pixels, too tall to rescale).
    static func small(resolution: Int32) throws -> LeptImage {
        let page = try ImageLoader.load(path: root + "/TestDocuments/optout_form.clean.png")[0]
        let scaled = try #require(pixScale(page.pix, 0.52, 0.52))
        // (pixSetResolution ignores 0.)
        pixSetXRes(scaled, resolution)
        pixSetYRes(scaled, resolution)
        return LeptImage(scaled)
    }

    @Test func smallPrintWithoutAResolutionIsToldItsOwn() throws {
        let (_, report) = try Preprocessor.run(try Self.small(resolution: 0), options: PreprocessOptions())
        let height = try #require(report.textHeight)
        #expect(!report.steps.contains("rescale"), "\(report.steps)")
        #expect(report.resolution < 240 && abs(Double(report.resolution) - 12.5 * height) <= 2, "\(report.resolution) DPI for capitals of \(height) px")
    }

    @Test func aStatedResolutionIsKept() throws {
        let (_, report) = try Preprocessor.run(try Self.small(resolution: 180), options: PreprocessOptions())
        #expect(report.resolution == 180)
    }

    @Test func printOfUsualSizeStaysAt300() throws {
        let page = try ImageLoader.load(path: Self.root + "/TestDocuments/optout_form.clean.png")[0]
        let copy = try #require(pixCopy(nil, page.pix))
        pixSetXRes(copy, 0)
        pixSetYRes(copy, 0)
        let (_, report) = try Preprocessor.run(LeptImage(copy), options: PreprocessOptions())
        #expect(report.resolution == 300)
    }
}
