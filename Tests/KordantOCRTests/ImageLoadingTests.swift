@preconcurrency import CTesseract
import Foundation
@testable import KordantOCR
import Testing
import KordantTestSupport

/// Image loading through Leptonica (no Tesseract involved).
@Suite struct ImageLoadingTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path

    /// The same page written as BMP, PNM, WebP, TIFF and JPEG by Leptonica loads back at the same size.
    @Test(arguments: [("bmp", IFF_BMP), ("pnm", IFF_PNM), ("webp", IFF_WEBP), ("tif", IFF_TIFF_G4), ("jpg", IFF_JFIF_JPEG)])
    func formats(ext: String, format: Int) throws {
        let page = try ImageLoader.load(path: Self.root + "/TestDocuments/optout_form.lowres.png")[0]
        let path = TestScratch.directory.appendingPathComponent("page-\(getpid()).\(ext)").path
        let source = format == IFF_TIFF_G4 ? try LeptImage.make(pixConvertTo1(page.pix, 128), "binarise") : page
        #expect(pixWrite(path, source.pix, Int32(format)) == 0)
        let loaded = try ImageLoader.load(path: path)
        #expect(loaded.count == 1)
        #expect(loaded[0].width == page.width && loaded[0].height == page.height)
    }

    /// A symbolic link to a page loads as the page (the size check once read the link's own
    /// size and called the PNG truncated); a link to an empty file is still an empty file.
    @Test func aLinkedPageLoadsAsThePage() throws {
        let page = Self.root + "/TestDocuments/optout_form.lowres.png"
        let link = TestScratch.directory.appendingPathComponent("linked-\(getpid()).png").path
        let emptyFile = TestScratch.directory.appendingPathComponent("empty-\(getpid()).png").path
        let emptyLink = TestScratch.directory.appendingPathComponent("linked-empty-\(getpid()).png").path
        defer { for p in [link, emptyFile, emptyLink] { try? FileManager.default.removeItem(atPath: p) } }
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: page)
        #expect(FileManager.default.createFile(atPath: emptyFile, contents: Data()))
        try FileManager.default.createSymbolicLink(atPath: emptyLink, withDestinationPath: emptyFile)
        let loaded = try ImageLoader.load(path: link)
        let original = try ImageLoader.load(path: page)
        #expect(loaded.count == 1 && loaded[0].width == original[0].width && loaded[0].height == original[0].height)
        #expect(throws: OCRError(.unreadable, path: emptyLink, "empty file (0 bytes)")) { try ImageLoader.load(path: emptyLink) }
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

    /// A PNG header claiming 2³² − 1 pixels each way is too large, not an arithmetic trap.
    @Test func absurdPNGDimensionsAreTooLarge() throws {
        var bytes: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13] + Array("IHDR".utf8)
        bytes += [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 8, 0, 0, 0, 0, 0, 0, 0, 0] + [0, 0, 0, 0] + Array("IEND".utf8) + [0, 0, 0, 0]
        let path = TestScratch.directory.appendingPathComponent("absurd-\(getpid()).png").path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(throws: OCRError.self) { try ImageLoader.load(path: path) }
        do { _ = try ImageLoader.load(path: path) } catch { #expect(error.kind == .tooLarge && error.detail.contains("4294967295 × 4294967295")) }
    }
}

/// PNG and JPEG are decoded by the engine's own quiet readers (libpng and libjpeg with their
/// messages kept off stderr); what they produce must be what Leptonica's readers produce.
@Suite struct QuietReaderTests {
    static func leptonica(_ path: String) throws -> LeptImage {
        try LeptImage.make(pixRead(path), "pixRead \(path)")
    }

    static func same(_ a: LeptImage, _ b: LeptImage) -> Bool {
        var equal: Int32 = 0
        return pixEqual(a.pix, b.pix, &equal) == 0 && equal == 1
    }

    /// Every PNG and JPEG page of TestDocuments: identical pixels, depth and resolution.
    @Test func testDocumentsMatchLeptonica() throws {
        let folder = ImageLoadingTests.root + "/TestDocuments"
        let files = try FileManager.default.contentsOfDirectory(atPath: folder)
            .filter { !$0.hasPrefix("bad_") && ($0.hasSuffix(".png") || $0.hasSuffix(".jpg")) }
        #expect(files.count >= 30)
        for file in files {
            let ours = try ImageLoader.load(path: folder + "/" + file)[0]
            let theirs = try Self.leptonica(folder + "/" + file)
            #expect(Self.same(ours, theirs), "\(file): pixels differ")
            #expect(ours.depth == theirs.depth && ours.resolution == theirs.resolution && pixGetSpp(ours.pix) == pixGetSpp(theirs.pix),
                    "\(file): depth \(ours.depth)/\(theirs.depth), resolution \(ours.resolution)/\(theirs.resolution)")
        }
    }

    /// Colour types the scans do not use, written by Leptonica (through libpng / libjpeg): RGB and
    /// RGBA PNG and colour JPEG decode to the same pixels as Leptonica's readers; 1-bit and
    /// palette PNGs, which the quiet reader expands to 8 bits per sample, to the same grey levels.
    @Test func otherColourTypes() throws {
        let gray = try ImageLoader.load(path: ImageLoadingTests.root + "/TestDocuments/optout_form.lowres.png")[0]
        let rgb = try LeptImage.make(pixConvert8To32(gray.pix), "to RGB")
        // A colour gradient so the channels differ.
        for y in stride(from: 0, to: rgb.height, by: 7) {
            for x in stride(from: 0, to: rgb.width, by: 5) { pixSetRGBPixel(rgb.pix, Int32(x), Int32(y), Int32(x % 256), Int32(y % 256), 77) }
        }
        // pixSetAlphaOverWhite returns a new image (white made transparent): it is the RGBA case.
        let rgba = try LeptImage.make(pixSetAlphaOverWhite(rgb.pix), "alpha over white")
        let binary = try LeptImage.make(pixConvertTo1(gray.pix, 128), "binarise")
        let palette = try LeptImage.make(pixConvertGrayToColormap(gray.pix), "palette")
        let cases: [(String, LeptImage, Int, Bool)] = [
            ("rgb.png", rgb, IFF_PNG, true), ("rgba.png", rgba, IFF_PNG, true), ("rgb.jpg", rgb, IFF_JFIF_JPEG, true),
            ("gray.jpg", gray, IFF_JFIF_JPEG, true), ("binary.png", binary, IFF_PNG, false), ("palette.png", palette, IFF_PNG, false),
        ]
        for (name, image, format, exact) in cases {
            let path = TestScratch.directory.appendingPathComponent("quiet-\(getpid())-\(name)").path
            #expect(pixWrite(path, image.pix, Int32(format)) == 0)
            defer { try? FileManager.default.removeItem(atPath: path) }
            let ours = try ImageLoader.load(path: path)[0]
            let theirs = try Self.leptonica(path)
            if exact {
                #expect(Self.same(ours, theirs), "\(name): pixels differ")
            } else {
                let a = try LeptImage.make(pixConvertTo8(ours.pix, 0), "gray"), b = try LeptImage.make(pixConvertTo8(theirs.pix, 0), "gray")
                #expect(ours.depth > 1 && Self.same(a, b), "\(name): grey levels differ")
            }
        }
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
            let path = TestScratch.directory.appendingPathComponent("corrupt-\(getpid())-\(trial)-\(file)").path
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            do { _ = try ImageLoader.load(path: path) } catch {}
            try? FileManager.default.removeItem(atPath: path)
        }
    }
}

/// CMYK JPEG through the quiet reader (FuzzImage found a cut one printing "Premature end of JPEG
/// file" on stderr when Leptonica's reader still took these).
@Suite(.serialized) struct CMYKJPEGTests {
    static let file = ImageLoadingTests.root + "/Fuzz/Seeds/FuzzImage/cmyk.jpg"   // Pillow, Adobe-inverted CMYK

    /// Runs `body` with file descriptor 2 pointed at a file; returns what was written to it.
    static func stderr(during body: () throws -> Void) rethrows -> String {
        let path = TestScratch.directory.appendingPathComponent("stderr-\(getpid())-\(UUID().uuidString)").path
        let saved = dup(2), fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        dup2(fd, 2)
        defer {
            dup2(saved, 2)
            close(saved)
            close(fd)
            try? FileManager.default.removeItem(atPath: path)
        }
        try body()
        fflush(nil)
        return (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
    }

    @Test func samePixelsAsLeptonica() throws {
        let ours = try ImageLoader.load(path: Self.file)[0]
        let theirs = try QuietReaderTests.leptonica(Self.file)
        #expect(ours.width == 48 && ours.height == 32 && ours.depth == 32)
        #expect(QuietReaderTests.same(ours, theirs), "CMYK pixels differ from Leptonica's reader")
    }

    /// Files with JPEG's magic (FF D8) that are not JPEGs the quiet reader takes: refused by it,
    /// never handed to Leptonica's printing reader (FuzzImage: "JPEG datastream contains no image").
    @Test func jpegMagicNeverReachesLeptonica() throws {
        let path = TestScratch.directory.appendingPathComponent("magic-\(getpid()).jpg").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        for bytes: [UInt8] in [[0xFF, 0xD8, 0xFE, 0x00, 0x10] + Array(repeating: 0x41, count: 64), [0xFF, 0xD8, 0xFF, 0xD9], [0xFF, 0xD8]] {
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            var error: OCRError?
            let printed = Self.stderr {
                do throws(OCRError) { _ = try ImageLoader.load(path: path) } catch let e { error = e }
            }
            #expect(error?.kind == .unreadable, "\(bytes.prefix(4)): \(String(describing: error))")
            #expect(printed.isEmpty, "\(bytes.prefix(4)) printed: \(printed)")
        }
    }

    @Test func cutFileIsRefusedWithoutPrinting() throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: Self.file))
        let path = TestScratch.directory.appendingPathComponent("cmyk-cut-\(getpid()).jpg").path
        try data.prefix(data.count / 2).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        var error: OCRError?
        let printed = Self.stderr {
            do throws(OCRError) { _ = try ImageLoader.load(path: path) } catch let e { error = e }
        }
        #expect(error?.kind == .unreadable && error?.detail.contains("JPEG") == true, "\(String(describing: error))")
        #expect(printed.isEmpty, "printed: \(printed)")
    }
}
