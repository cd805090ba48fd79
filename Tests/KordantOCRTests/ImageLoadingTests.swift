@preconcurrency import CTesseract
import Foundation
@testable import KordantOCR
import Testing

/// Image loading through Leptonica (no Tesseract involved).
@Suite struct ImageLoadingTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path

    /// The same page written as BMP, PNM, WebP, TIFF and JPEG by Leptonica loads back at the same size.
    @Test(arguments: [("bmp", IFF_BMP), ("pnm", IFF_PNM), ("webp", IFF_WEBP), ("tif", IFF_TIFF_G4), ("jpg", IFF_JFIF_JPEG)])
    func formats(ext: String, format: Int) throws {
        let page = try ImageLoader.load(path: Self.root + "/TestDocuments/optout_form.lowres.png")[0]
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("page-\(getpid()).\(ext)").path
        let source = format == IFF_TIFF_G4 ? try LeptImage.make(pixConvertTo1(page.pix, 128), "binarise") : page
        #expect(pixWrite(path, source.pix, Int32(format)) == 0)
        let loaded = try ImageLoader.load(path: path)
        #expect(loaded.count == 1)
        #expect(loaded[0].width == page.width && loaded[0].height == page.height)
    }

    @Test func multipageTIFFLoadsEveryPage() throws {
        let pages = try ImageLoader.load(path: Self.root + "/TestDocuments/optout_both.multipage.tif")
        #expect(pages.count == 2)
        #expect(pages.allSatisfy { $0.resolution == 150 })
    }

    /// The pixel limit is applied from the header, before decoding (the file claims 3.6 gigapixels).
    @Test func limitsAndMalformedFiles() {
        func kind(_ file: String, _ limits: ImageLimits = .init()) -> OCRError.Kind? {
            do { _ = try ImageLoader.load(path: Self.root + "/TestDocuments/" + file, limits: limits); return nil } catch { return error.kind }
        }
        #expect(kind("bad_huge_header.png") == .tooLarge)
        #expect(kind("bad_empty.png") == .unreadable)
        #expect(kind("bad_not_an_image.png") == .unreadable)
        #expect(kind("bad_truncated.png") == .unreadable)
        #expect(kind("missing.png") == .notFound)
        #expect(kind("deed_warranty.clean.png", ImageLimits(maxPixels: 1_000_000)) == .tooLarge)
        #expect(kind("deed_warranty.clean.png") == nil)
    }
}

@Suite struct CorruptImageTests {
    /// Flipped bytes in real PNG, JPEG and TIFF files never crash the loader: each attempt loads
    /// or throws an OCRError.
    @Test(arguments: ["optout_form.lowres.png", "passport_td3.noisy.jpg", "optout_both.multipage.tif"])
    func corruptedBytesNeverCrash(file: String) throws {
        let original = try Data(contentsOf: URL(fileURLWithPath: ImageLoadingTests.root + "/TestDocuments/" + file))
        var state: UInt64 = 0x2545_F491_4F6C_DD1D
        func next() -> UInt64 {
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            return state
        }
        for trial in 0..<30 {
            var bytes = [UInt8](original.prefix(trial % 3 == 0 ? original.count / 2 : original.count))
            for _ in 0..<6 { bytes[Int(next() % UInt64(min(bytes.count, 4096)))] ^= UInt8(truncatingIfNeeded: next() | 1) }
            let path = FileManager.default.temporaryDirectory.appendingPathComponent("corrupt-\(getpid())-\(trial)-\(file)").path
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            do { _ = try ImageLoader.load(path: path) } catch {}
            try? FileManager.default.removeItem(atPath: path)
        }
    }
}
