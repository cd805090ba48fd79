import CKordantPDF
@preconcurrency import CTesseract
import Foundation

/// A PDF opened with poppler, for OCR: each page's text layer and each page rendered to a
/// Leptonica image. Owns poppler's document and frees it on deinit. Encrypted, damaged and
/// oversized documents are refused with an ``OCRError`` naming the file, before anything renders.
///
/// Not thread-safe: one document per worker.
public final class PDFDocument {
    let handle: OpaquePointer
    public let path: String
    public let pageCount: Int

    /// Resolution pages render at for OCR unless told otherwise (Tesseract reads best at 300 DPI).
    public static let defaultDPI = 300.0

    /// Opens `path`. Refuses a missing file, one poppler cannot open, an encrypted one, and one
    /// with more pages than `limits.maxPages`.
    public init(path: String, limits: ImageLimits = .init()) throws(OCRError) {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw OCRError(.notFound, path: path, "no such file")
        }
        if isDirectory.boolValue { throw OCRError(.unreadable, path: path, "is a directory, not a PDF") }
        var status: Int32 = 0
        var message = [CChar](repeating: 0, count: 256)
        guard let h = kordant_pdf_open(path, &status, &message, Int32(message.count)) else {
            if status == Int32(KORDANT_PDF_ENCRYPTED) {
                throw OCRError(.unreadable, path: path, "encrypted PDF: it needs a password to read")
            }
            let reason = String(cString: message)
            throw OCRError(.unreadable, path: path, "not a PDF poppler can read (damaged or truncated)\(reason.isEmpty ? "" : ": \(reason)")")
        }
        handle = h
        self.path = path
        pageCount = Int(kordant_pdf_page_count(h))
        // Every property is set: a throw from here runs deinit, which closes the document.
        guard pageCount <= limits.maxPages else { throw OCRError(.tooLarge, path: path, "\(pageCount) pages (limit \(limits.maxPages))") }
        guard pageCount > 0 else { throw OCRError(.emptyImage, path: path, "the PDF has no pages") }
    }

    deinit { kordant_pdf_close(handle) }

    /// Whether the file starts with the PDF signature (`%PDF-`) in its first 1024 bytes, where
    /// readers look for it.
    public static func looksLikePDF(path: String) -> Bool {
        guard let handle = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? handle.close() }
        let head = (try? handle.read(upToCount: 1024)) ?? Data()
        return head.range(of: Data("%PDF-".utf8)) != nil
    }

    /// Page `index` (0-based) size in points (1/72 inch), as displayed (rotation applied).
    public func pageSize(_ index: Int) throws(OCRError) -> (width: Double, height: Double) {
        var w = 0.0, h = 0.0
        guard kordant_pdf_page_size(handle, Int32(index), &w, &h) != 0 else {
            throw OCRError(.unreadable, path: path, "page \(index + 1) of \(pageCount) cannot be loaded")
        }
        return (w, h)
    }

    /// The text layer of page `index` (0-based), as poppler reads it in reading order; empty for a
    /// page that is only an image.
    public func text(page index: Int) throws(OCRError) -> String {
        guard let raw = kordant_pdf_page_text(handle, Int32(index)) else {
            throw OCRError(.unreadable, path: path, "page \(index + 1) of \(pageCount) cannot be loaded")
        }
        defer { free(raw) }
        return String(cString: raw)
    }

    /// Whether page `index` carries a text layer worth using instead of OCR: some letters or
    /// digits, not only whitespace (scanners often add an empty one).
    public func hasTextLayer(page index: Int) throws(OCRError) -> Bool {
        try text(page: index).unicodeScalars.contains { CharacterSet.alphanumerics.contains($0) }
    }

    /// The words of page `index`'s text layer with their boxes in pixels at `dpi` (as if rendered
    /// at it), numbered into lines: a word starts a new line when its vertical middle is outside
    /// the previous word's box or it starts left of the previous word's start. Confidence 100
    /// (the text is the document's own, not a reading).
    public func words(page index: Int, dpi: Double = defaultDPI) -> [Word] {
        var count: Int32 = 0
        guard let raw = kordant_pdf_page_words(handle, Int32(index), &count) else { return [] }
        defer { kordant_pdf_free_words(raw, count) }
        let scale = dpi / 72
        var words: [Word] = []
        var line = 0, number = 0
        var previous: kordant_pdf_word?
        for w in UnsafeBufferPointer(start: raw, count: Int(count)) {
            let text = String(cString: w.text)
            if text.isEmpty { continue }
            if let p = previous {
                let middle = w.y + w.height / 2
                if middle < p.y || middle > p.y + p.height || w.x < p.x { line += 1; number = 0 }
            }
            number += 1
            previous = w
            words.append(Word(text: text, confidence: 100,
                              box: BoundingBox(x: pixels(w.x * scale), y: pixels(w.y * scale),
                                               width: pixels(w.width * scale), height: pixels(w.height * scale)),
                              block: 1, paragraph: 1, line: line + 1, word: number))
        }
        return words
    }

    /// Page `index`'s size in whole pixels at `dpi`, refused (``OCRError/Kind/tooLarge`` or
    /// ``OCRError/Kind/emptyImage``) when it is beyond `limits`, empty or not a number.
    public func pixelSize(page index: Int, dpi: Double, limits: ImageLimits) throws(OCRError) -> (width: Int, height: Int) {
        guard dpi > 0, dpi <= 2400 else { throw OCRError(.unreadable, path: path, "resolution \(dpi) DPI is outside 1…2400") }
        let size = try pageSize(index)
        let w = size.width / 72 * dpi, h = size.height / 72 * dpi
        guard w.isFinite, h.isFinite, w.magnitude < 1e9, h.magnitude < 1e9 else {
            throw OCRError(.tooLarge, path: path, "page \(index + 1) is \(String(format: "%.4g", size.width)) × \(String(format: "%.4g", size.height)) points")
        }
        if w < 1 || h < 1 { throw OCRError(.emptyImage, path: path, "page \(index + 1) is \(Int(w)) × \(Int(h)) pixels at \(Int(dpi)) DPI") }
        let width = Int(w.rounded(.up)), height = Int(h.rounded(.up))
        do { try ImageLoader.checkSize(width, height, path: path, limits: limits) } catch {
            throw OCRError(.tooLarge, path: path, "page \(index + 1) at \(Int(dpi)) DPI: \(error.detail)")
        }
        return (width, height)
    }

    /// Page `index` rendered at `dpi`. The pixel count is checked against `limits` from the page
    /// size first, so an enormous page is refused before anything is allocated.
    public func render(page index: Int, dpi: Double = defaultDPI, limits: ImageLimits = .init()) throws(OCRError) -> LeptImage {
        _ = try pixelSize(page: index, dpi: dpi, limits: limits)
        guard let pix = kordant_pdf_render(handle, Int32(index), dpi) else {
            throw OCRError(.unreadable, path: path, "page \(index + 1) of \(pageCount) could not be rendered")
        }
        return LeptImage(pix)
    }
}

/// A coordinate in whole pixels. A hostile file's boxes can be enormous or not finite, which
/// `Int(_:)` would trap on; they are clamped to ±2³¹ (far outside any page we render).
private func pixels(_ value: Double) -> Int {
    guard value.isFinite else { return 0 }
    return Int(min(max(value.rounded(), -2_147_483_648), 2_147_483_647))
}
