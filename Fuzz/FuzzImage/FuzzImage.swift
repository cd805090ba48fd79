import CFuzzDriver
import Foundation
import KordantOCR

/// libFuzzer target: arbitrary bytes as an image file through `ImageLoader.load` — the signature
/// and header checks, the PNG/JPEG shim (libpng, libjpeg, errors routed through longjmp), and
/// Leptonica's readers for everything else (TIFF incl. multi-page, BMP, PNM, GIF, WebP). Any
/// outcome but images within the limit or an ``OCRError`` is a finding.
///
/// Built only by `scripts/fuzz` (see FuzzWAV).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzImage(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data else { return 0 }
    guard let file = kordant_fuzz_file("image", "", data, size) else { return 0 }
    let path = String(cString: file)
    // A small pixel limit keeps one input's decode bounded (the limit itself is under test too).
    let limits = ImageLimits(maxPixels: 4_000_000)
    do {
        let pages = try ImageLoader.load(path: path, limits: limits)
        for page in pages where page.width * page.height > limits.maxPixels || page.width <= 0 || page.height <= 0 {
            fatalError("page of \(page.width) × \(page.height) passed the limit of \(limits.maxPixels) pixels")
        }
    } catch {
        // An OCRError: the expected way to refuse a file (typed throws: nothing else can arrive).
    }
    return 0
}

/// SwiftPM links an executable's `main` to `FuzzImage_main`; hand control to libFuzzer's driver.
@_cdecl("FuzzImage_main")
public func fuzzImageMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    var argc = argc
    var argv = argv
    return LLVMFuzzerRunDriver(&argc, &argv) { data, size in fuzzImage(data, size) }
}
