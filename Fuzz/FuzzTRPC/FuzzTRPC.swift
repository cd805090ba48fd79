import CFuzzDriver
import Foundation
import KordantAPI
@testable import KordantClient

/// libFuzzer target: arbitrary bytes as a tRPC body, read the way both sides read one — the
/// client's response handling (`JSONValue`, the success and error envelopes under both
/// transformers, `KordantAPIClient.trpcError` for an error status, decoding `result.data` into every
/// procedure's output) and the server's input handling (superjson unwrap, decoding into every
/// procedure's input). A parsed value must also survive its own re-encoding.
///
/// Built only by `scripts/fuzz` (see FuzzWAV). `@testable`: `trpcError` is internal to the client.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTRPC(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data else { return 0 }
    let body = Data(UnsafeBufferPointer(start: data, count: size))
    for transformer in TRPCTransformer.allCases {
        _ = KordantAPIClient.trpcError(status: 400 + size % 200, body: body, transformer: transformer)
    }
    guard let value = JSONValue(json: body) else { return 0 }
    guard let again = JSONValue(json: value.data) else { fatalError("a parsed body does not parse after re-encoding") }
    if again.data != value.data { fatalError("re-encoding a parsed body is not stable") }
    for transformer in TRPCTransformer.allCases {
        if let result = TRPCEnvelope.resultData(value, transformer: transformer) {
            _ = result.decode(User.self)
            _ = result.decode(SubmissionResult.self)
            _ = result.decode(EnrollmentList.self)
            _ = result.decode(AnalysisList.self)
            _ = result.decode(UploadResult.self)
        }
        _ = TRPCEnvelope.errorShape(value, transformer: transformer)
        let input = transformer.unwrap(value) ?? value
        _ = input.decode(CreateEnrollmentInput.self)
        _ = input.decode(SubmitAnalysisInput.self)
        _ = input.decode(SubmitScanInput.self)
        _ = input.decode(ListEnrollmentsInput.self)
        _ = input.decode(ListAnalysesInput.self)
        _ = input.decode(ProvisionInput.self)
        _ = input.decode(SealLookupInput.self)
    }
    return 0
}

@_cdecl("FuzzTRPC_main")
public func fuzzTRPCMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    var argc = argc
    var argv = argv
    return LLVMFuzzerRunDriver(&argc, &argv) { data, size in fuzzTRPC(data, size) }
}
