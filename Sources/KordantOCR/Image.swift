import CKordantImage
@preconcurrency import CTesseract
import Foundation

/// An OCR input or engine problem, naming the file. ``kind`` is stable (JSON, exit codes).
public struct OCRError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Kind: String, Sendable, Codable {
        case notFound = "not_found"
        /// Not an image format the engine reads, empty, or corrupt/truncated.
        case unreadable
        /// Larger than the pixel limit (refused from the header, before decoding).
        case tooLarge = "too_large"
        /// Zero width or height.
        case emptyImage = "empty_image"
        /// Tesseract could not start (language data missing) or failed on a page.
        case engineFailed = "engine_failed"
        /// An output file (the searchable PDF) cannot be created or written.
        case writeFailed = "write_failed"
    }

    public let kind: Kind
    public let path: String
    public let detail: String

    public init(_ kind: Kind, path: String, _ detail: String) {
        self.kind = kind
        self.path = path
        self.detail = detail
    }

    public var description: String { "\(path): \(detail)" }
}

/// A Leptonica image. Owns its `PIX*` and destroys it on deinit.
public final class LeptImage: @unchecked Sendable {
    let pix: UnsafeMutablePointer<Pix>

    /// Takes ownership of `pix`.
    init(_ pix: UnsafeMutablePointer<Pix>) { self.pix = pix }

    deinit {
        var p: UnsafeMutablePointer<Pix>? = pix
        pixDestroy(&p)
    }

    public var width: Int { Int(pixGetWidth(pix)) }
    public var height: Int { Int(pixGetHeight(pix)) }
    public var depth: Int { Int(pixGetDepth(pix)) }
    /// Resolution from the file's metadata (0 when absent).
    public var resolution: Int { Int(pixGetXRes(pix)) }

    /// Wraps a new PIX returned by a Leptonica call, or fails with `what`.
    static func make(_ pix: UnsafeMutablePointer<Pix>?, _ what: String) throws(OCRError) -> LeptImage {
        guard let pix else { throw OCRError(.engineFailed, path: "leptonica", "\(what) failed") }
        return LeptImage(pix)
    }

    /// Writes a PNG (for debugging and tests).
    public func writePNG(_ path: String) -> Bool { pixWrite(path, pix, Int32(IFF_PNG)) == 0 }

    /// The boxes of the 8-connected components of a binary image.
    func componentBoxes() -> [BoundingBox] {
        guard let boxa = pixConnCompBB(pix, 8) else { return [] }
        var owned: UnsafeMutablePointer<Boxa>? = boxa
        defer { boxaDestroy(&owned) }
        return (0..<boxaGetCount(boxa)).map { i in
            var x: Int32 = 0, y: Int32 = 0, w: Int32 = 0, h: Int32 = 0
            boxaGetBoxGeometry(boxa, i, &x, &y, &w, &h)
            return BoundingBox(x: Int(x), y: Int(y), width: Int(w), height: Int(h))
        }
    }

    /// Runs `body` with a Leptonica box for `box` (freed after), or returns nil if none is made.
    private static func withBox<T>(_ box: BoundingBox, _ body: (UnsafeMutablePointer<Box>) -> T?) -> T? {
        guard let made = boxCreate(Int32(box.x), Int32(box.y), Int32(box.width), Int32(box.height)) else { return nil }
        var owned: UnsafeMutablePointer<Box>? = made
        defer { boxDestroy(&owned) }
        return body(made)
    }

    /// A copy of the part of the image inside `box` (cut to the image), or nil.
    func clipped(to box: BoundingBox) -> LeptImage? {
        Self.withBox(box) { b in pixClipRectangle(pix, b, nil).map(LeptImage.init) }
    }

    /// Sets every pixel inside `box` to `value`, in place.
    func fill(_ box: BoundingBox, with value: UInt32) {
        _ = Self.withBox(box) { b in pixSetInRectArbitrary(pix, b, value) }
    }

    /// A JPEG of the image at most `maxWidth` pixels wide (scaled down with Leptonica's
    /// anti-aliasing when wider), for pictures of pages on screen. Nil when encoding fails.
    public func jpeg(maxWidth: Int, quality: Int = 70) -> Data? {
        var scaled: UnsafeMutablePointer<Pix>? = nil
        if width > maxWidth { scaled = pixScale(pix, Float(maxWidth) / Float(width), Float(maxWidth) / Float(width)) }
        defer { if scaled != nil { pixDestroy(&scaled) } }
        // JPEG takes 8-bit gray or 32-bit colour: a colormap or 1-bit image is converted first.
        var converted: UnsafeMutablePointer<Pix>? = pixConvertTo32(scaled ?? pix)
        defer { pixDestroy(&converted) }
        guard let converted else { return nil }
        var bytes: UnsafeMutablePointer<UInt8>?
        var size = 0
        guard pixWriteMemJpeg(&bytes, &size, converted, Int32(quality), 0) == 0, let bytes else { return nil }
        defer { free(bytes) }
        return Data(bytes: bytes, count: size)
    }
}

/// Limits for image loading.
public struct ImageLimits: Sendable {
    /// Pages above this many pixels are refused from the header, before decoding.
    public var maxPixels = 100_000_000
    public var maxPages = 500

    public init(maxPixels: Int = 100_000_000) { self.maxPixels = maxPixels }
}

public enum ImageLoader {
    /// Silences Leptonica's stderr messages once (the libraries never print).
    static let quiet: Void = { _ = setMsgSeverity(Int32(L_SEVERITY_NONE)) }()

    /// Loads every page of an image file (PNG, JPEG, TIFF incl. multi-page, PNM, BMP, WebP, GIF).
    public static func load(path: String, limits: ImageLimits = .init()) throws(OCRError) -> [LeptImage] {
        try load(path: path, limits: limits, pages: nil).map(\.image)
    }

    /// The pages of an image file that `pages` selects (all when nil), each with its number from
    /// 1; only those pages of a multi-page TIFF are decoded. An error names the file when the
    /// selection holds none of its pages.
    public static func load(path: String, limits: ImageLimits = .init(), pages wanted: PageRanges?) throws(OCRError) -> [(page: Int, image: LeptImage)] {
        _ = quiet
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw OCRError(.notFound, path: path, "no such file")
        }
        if isDirectory.boolValue { throw OCRError(.unreadable, path: path, "is a directory, not an image") }
        // stat follows a symbolic link (FileManager's attributes describe the link itself, and a
        // linked PNG was taken for a truncated one).
        var st = stat()
        let size = stat(path, &st) == 0 ? Int(st.st_size) : 0
        if size == 0 { throw OCRError(.unreadable, path: path, "empty file (0 bytes)") }
        // PNG and JPEG, most scans, are decoded here with libpng's and libjpeg's messages kept off
        // stderr (Leptonica's readers leave their print-to-stderr defaults); the rest go to Leptonica.
        let head = prefix(of: path, count: 24)
        // A single image: decoded, then the selection checked (as for a one-page TIFF).
        func single(_ image: LeptImage) throws(OCRError) -> [(page: Int, image: LeptImage)] {
            _ = try wanted?.select(from: 1, path: path)
            return [(1, image)]
        }
        if head.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) {
            if let image = try loadPNG(path: path, head: head, size: size, limits: limits) { return try single(image) }
        } else if head.starts(with: [0xFF, 0xD8]) {
            // Every file with JPEG's two magic bytes (Leptonica's own test) stays with the quiet
            // reader: Leptonica's libjpeg prints on stderr (FuzzImage found both routes).
            if let image = try loadJPEG(path: path, limits: limits) { return try single(image) }
            throw OCRError(.unreadable, path: path, "unsupported JPEG layout (neither grey, RGB nor CMYK)")
        }
        var format: Int32 = 0, w: Int32 = 0, h: Int32 = 0, bps: Int32 = 0, spp: Int32 = 0, cmap: Int32 = 0
        guard pixReadHeader(path, &format, &w, &h, &bps, &spp, &cmap) == 0 else {
            throw OCRError(.unreadable, path: path, "not an image format Leptonica reads (or the header is damaged)")
        }
        if w <= 0 || h <= 0 { throw OCRError(.emptyImage, path: path, "image is \(w) × \(h) pixels") }
        try checkSize(Int(w), Int(h), path: path, limits: limits)
        let tiffFormats = [IFF_TIFF, IFF_TIFF_PACKBITS, IFF_TIFF_RLE, IFF_TIFF_G3, IFF_TIFF_G4, IFF_TIFF_LZW, IFF_TIFF_ZIP, IFF_TIFF_JPEG]
        let isTIFF = tiffFormats.map(Int32.init).contains(format)
        if isTIFF {
            let pages = tiffPages(path)
            guard pages <= limits.maxPages else { throw OCRError(.tooLarge, path: path, "\(pages) pages (limit \(limits.maxPages))") }
            var images: [(page: Int, image: LeptImage)] = []
            for n in try wanted?.select(from: pages, path: path) ?? Array(1...pages) {
                guard let p = pixReadTiff(path, Int32(n - 1)) else {
                    throw OCRError(.unreadable, path: path, "page \(n) of \(pages) is corrupt or truncated")
                }
                let image = LeptImage(p)
                // Later pages' headers are only known once decoded; check them as soon as they are.
                try checkSize(image.width, image.height, path: path, limits: limits)
                images.append((n, image))
            }
            return images
        }
        guard let p = pixRead(path) else {
            throw OCRError(.unreadable, path: path, "corrupt or truncated image data (header says \(w) × \(h))")
        }
        return try single(LeptImage(p))
    }

    /// Pages in a TIFF (its image directories; 1 when they cannot be counted).
    static func tiffPages(_ path: String) -> Int {
        var pages: Int32 = 1
        if let fp = fopen(path, "rb") {
            if tiffGetCount(fp, &pages) != 0 { pages = 1 }
            fclose(fp)
        }
        return max(1, Int(pages))
    }

    /// Pages of a file that is a TIFF by its first bytes, counted without decoding any; nil for
    /// any other file (or one that cannot be read): it is then one page, or its loading says why not.
    static func tiffPageCount(path: String) -> Int? {
        let head = prefix(of: path, count: 4)
        guard head == [0x49, 0x49, 0x2A, 0x00] || head == [0x4D, 0x4D, 0x00, 0x2A] else { return nil }
        return tiffPages(path)
    }

    /// A PNG through the quiet reader, or nil for a layout left to Leptonica (interlaced).
    static func loadPNG(path: String, head: [UInt8], size: Int, limits: ImageLimits) throws(OCRError) -> LeptImage? {
        guard head.count >= 24 else { throw OCRError(.unreadable, path: path, "truncated PNG: the file ends inside its header") }
        // IHDR's width and height, big-endian, right after the signature and the chunk's length and type.
        let w = head[16..<20].reduce(0) { $0 << 8 | Int($1) }, h = head[20..<24].reduce(0) { $0 << 8 | Int($1) }
        if w == 0 || h == 0 { throw OCRError(.emptyImage, path: path, "image is \(w) × \(h) pixels") }
        try checkSize(w, h, path: path, limits: limits)
        // Said before decoding, so a cut file gets this plain reason rather than libpng's.
        if !hasPNGEnd(path, size: size) {
            throw OCRError(.unreadable, path: path, "truncated PNG: the file ends before its IEND chunk (header says \(w) × \(h))")
        }
        var result = kordant_image_result()
        let pix = kordant_read_png(path, Int64(limits.maxPixels), &result)
        return try wrap(pix, result, format: "PNG", path: path, limits: limits)
    }

    /// A JPEG through the quiet reader, or nil for a layout left to Leptonica (none in practice: 1, 3 and 4 components are read here).
    static func loadJPEG(path: String, limits: ImageLimits) throws(OCRError) -> LeptImage? {
        var result = kordant_image_result()
        let pix = kordant_read_jpeg(path, Int64(limits.maxPixels), &result)
        return try wrap(pix, result, format: "JPEG", path: path, limits: limits)
    }

    static func wrap(_ pix: UnsafeMutablePointer<Pix>?, _ r: kordant_image_result, format: String, path: String,
                     limits: ImageLimits) throws(OCRError) -> LeptImage? {
        if let pix { return LeptImage(pix) }
        switch Int(r.status) {
        case KORDANT_IMAGE_UNSUPPORTED: return nil
        case KORDANT_IMAGE_TOO_LARGE: try checkSize(Int(r.width), Int(r.height), path: path, limits: limits)
        default: break
        }
        var reason = withUnsafeBytes(of: r.message) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        // libjpeg's own wording often starts "Corrupt JPEG data: "; say it once.
        let lead = "corrupt \(format) data: "
        if reason.lowercased().hasPrefix(lead.lowercased()) { reason = String(reason.dropFirst(lead.count)) }
        let header = r.width > 0 ? " (header says \(r.width) × \(r.height))" : ""
        throw OCRError(.unreadable, path: path, "\(lead)\(reason.isEmpty ? "the decoder gave up" : reason)\(header)")
    }

    /// Up to `count` bytes from the start of the file.
    static func prefix(of path: String, count: Int) -> [UInt8] {
        guard let handle = FileHandle(forReadingAtPath: path) else { return [] }
        defer { try? handle.close() }
        return [UInt8]((try? handle.read(upToCount: count)) ?? Data())
    }

    /// The IEND chunk type within the last 64 bytes (a few writers append padding after it).
    static func hasPNGEnd(_ path: String, size: Int) -> Bool {
        guard let handle = FileHandle(forReadingAtPath: path) else { return true }
        defer { try? handle.close() }
        let tail = min(size, 64)
        guard (try? handle.seek(toOffset: UInt64(size - tail))) != nil, let data = try? handle.read(upToCount: tail) else { return true }
        return data.firstRange(of: Data("IEND".utf8)) != nil
    }

    static func checkSize(_ w: Int, _ h: Int, path: String, limits: ImageLimits) throws(OCRError) {
        // A PNG header can claim 2³² − 1 on each side: the product must not trap.
        let (pixels, overflow) = w.multipliedReportingOverflow(by: h)
        if overflow || pixels > limits.maxPixels {
            let megapixels = Int((Double(w) * Double(h) / 1_000_000).rounded(.down))
            throw OCRError(.tooLarge, path: path,
                           "\(w) × \(h) = \(megapixels) megapixels exceeds the limit of \(limits.maxPixels / 1_000_000) megapixels")
        }
    }
}
