@preconcurrency import CTesseract
import Foundation

/// A searchable PDF being written by Tesseract's own PDF renderer: each page is the image
/// Tesseract read, under an invisible text layer (Tesseract's glyphless font, `pdf.ttf` from the
/// tessdata directory) placed from the same recognition the JSON comes from, so a page is never
/// read twice for it. Owns the `TessResultRenderer*` and deletes it on deinit.
///
/// The document is written to a hidden file beside `path` and renamed over it by ``finish()``:
/// a failure part-way never leaves a half-written PDF under the requested name. Not thread-safe:
/// one document per worker.
public final class SearchablePDF {
    /// Nil once finished: Tesseract closes (flushes) the file only when the renderer is deleted.
    private var renderer: OpaquePointer?
    /// The requested output file.
    public let path: String
    /// What Tesseract writes: `<base>.pdf` (it appends the extension itself).
    private let temporary: String
    private var finished = false
    /// Pages added so far.
    public private(set) var pageCount = 0

    /// Starts a document at `path`; `datapath` is the tessdata directory holding `pdf.ttf`.
    /// Throws ``OCRError/Kind/writeFailed`` naming `path` when it cannot be created.
    init(path: String, datapath: String, title: String) throws(OCRError) {
        let url = URL(fileURLWithPath: path)
        let base = url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).\(getpid()).\(UInt32.random(in: 0...UInt32.max))").path
        guard FileManager.default.fileExists(atPath: datapath + "/pdf.ttf") || FileManager.default.fileExists(atPath: datapath + "pdf.ttf") else {
            throw OCRError(.engineFailed, path: path, "Tesseract's PDF font pdf.ttf is not in \(datapath) (install tesseract-ocr)")
        }
        // Created here first for the system's own reason when it cannot be (Tesseract only says no).
        let fd = open(base + ".pdf", O_WRONLY | O_CREAT | O_EXCL, 0o644)
        guard fd >= 0 else { throw OCRError(.writeFailed, path: path, "cannot create the PDF: \(String(cString: strerror(errno)))") }
        close(fd)
        temporary = base + ".pdf"
        self.path = path
        guard let r = TessPDFRendererCreate(base, datapath, 0) else {
            unlink(temporary)
            throw OCRError(.writeFailed, path: path, "cannot create the PDF renderer")
        }
        renderer = r
        guard TessResultRendererBeginDocument(r, title) != 0 else {
            throw OCRError(.writeFailed, path: path, "cannot write the PDF")
        }
    }

    deinit {
        if let renderer { TessDeleteResultRenderer(renderer) }
        if !finished { unlink(temporary) }
    }

    /// Adds the page `api` has just recognised (before it is cleared).
    func add(_ api: OpaquePointer) throws(OCRError) {
        guard let renderer, TessResultRendererAddImage(renderer, api) != 0 else {
            throw OCRError(.writeFailed, path: path, "page \(pageCount + 1) could not be added to the PDF")
        }
        pageCount += 1
    }

    /// Ends the document and moves it to ``path``.
    func finish() throws(OCRError) {
        guard let renderer, TessResultRendererEndDocument(renderer) != 0 else {
            throw OCRError(.writeFailed, path: path, "the PDF could not be completed")
        }
        TessDeleteResultRenderer(renderer)
        self.renderer = nil
        guard rename(temporary, path) == 0 else {
            throw OCRError(.writeFailed, path: path, "cannot move the finished PDF into place: \(String(cString: strerror(errno)))")
        }
        finished = true
    }
}
