import CFuzzDriver
import Foundation
@testable import KordantServer

/// libFuzzer target: the dev server's upload parsing. The input's first line is the
/// Content-Type header (through `MultipartForm.boundary`), the rest the body (through
/// `MultipartForm(body:boundary:)`); when the header names no boundary, the body is parsed with
/// boundary `X` so the body parser is always reached. A result must be a refusal or parts that
/// lie inside the body.
///
/// Built only by `scripts/fuzz` (see FuzzWAV). `@testable`: the parser is internal to the server.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzMultipart(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data else { return 0 }
    let bytes = Data(UnsafeBufferPointer(start: data, count: size))
    let newline = bytes.firstIndex(of: 0x0A) ?? bytes.endIndex
    let header = String(decoding: bytes[..<newline], as: UTF8.self)
    let body = newline < bytes.endIndex ? Data(bytes[(newline + 1)...]) : Data()
    let boundary = MultipartForm.boundary(contentType: header) ?? "X"
    if let form = try? MultipartForm(body: body, boundary: boundary) {
        let total = form.parts.reduce(0) { $0 + $1.body.count }
        if total > body.count { fatalError("parts hold \(total) bytes of a \(body.count)-byte body") }
        _ = form["file"]
    }
    return 0
}

@_cdecl("FuzzMultipart_main")
public func fuzzMultipartMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    var argc = argc
    var argv = argv
    return LLVMFuzzerRunDriver(&argc, &argv) { data, size in fuzzMultipart(data, size) }
}
