import CFuzzDriver
import KordantOCR

/// libFuzzer target: arbitrary text as OCR lines through MRZ detection, parsing, check digits and
/// repair. Must never crash, whatever the characters, line count or lengths.
///
/// Built only by `scripts/fuzz` (see FuzzWAV).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzMRZ(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data else { return 0 }
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    if let found = MRZParser.find(in: lines) {
        _ = MRZParser.parse(found.lines, format: found.format)
    }
    for format in [MRZ.Format.td1, .td2, .td3] { _ = MRZParser.parse(lines, format: format) }
    _ = MRZParser.checkDigit(text)
    return 0
}

/// SwiftPM links an executable's `main` to `FuzzMRZ_main`; hand control to libFuzzer's driver.
@_cdecl("FuzzMRZ_main")
public func fuzzMRZMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    var argc = argc
    var argv = argv
    return LLVMFuzzerRunDriver(&argc, &argv) { data, size in fuzzMRZ(data, size) }
}
