import CFuzzDriver
import Foundation
import KordantOCR

/// libFuzzer target: arbitrary bytes as a PDF through `PDFDocument` — poppler's open (through the
/// C shim that keeps its messages off stderr), page count and limits, the first page's size, text
/// layer and words, and a low-resolution render. Any outcome but pages or an ``OCRError`` is a finding.
///
/// Built only by `scripts/fuzz` (see FuzzWAV).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPDF(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data else { return 0 }
    guard let file = kordant_fuzz_file("pdf", "", data, size) else { return 0 }
    let path = String(cString: file)
    let limits = ImageLimits(maxPixels: 1_000_000)
    do {
        let document = try PDFDocument(path: path, limits: limits)
        _ = try document.pageSize(0)
        _ = try document.text(page: 0)
        _ = document.words(page: 0, dpi: 36)
        // 18 DPI: an A4 page is about 150 × 210 pixels, enough to run the renderer over the content.
        let image = try document.render(page: 0, dpi: 18, limits: limits)
        if image.width * image.height > limits.maxPixels { fatalError("render of \(image.width) × \(image.height) passed the limit") }
    } catch {
        // An OCRError: the expected way to refuse a document.
    }
    return 0
}

@_cdecl("FuzzPDF_main")
public func fuzzPDFMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    var argc = argc
    var argv = argv
    return LLVMFuzzerRunDriver(&argc, &argv) { data, size in fuzzPDF(data, size) }
}
