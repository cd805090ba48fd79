import CFuzzDriver
import Foundation
import KordantVoice

/// libFuzzer target: arbitrary bytes as an enrollment file (`kordant verify --enrollment`,
/// `batch verify` manifests) through `StoredEnrollment.parse`. A refusal is fine; an accepted
/// enrollment must hold a voiceprint of the encoder's size made only of finite numbers (an
/// infinity or NaN would turn every score into NaN).
///
/// Built only by `scripts/fuzz` (see FuzzWAV).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzEnrollment(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data else { return 0 }
    let bytes = Data(UnsafeBufferPointer(start: data, count: size))
    do {
        let stored = try StoredEnrollment.parse(bytes)
        if stored.voiceprint.count != SpeakerEncoder.embeddingSize { fatalError("voiceprint of \(stored.voiceprint.count) values accepted") }
        if !stored.voiceprint.allSatisfy(\.isFinite) { fatalError("voiceprint with a value that is not finite accepted") }
    } catch {
        if error.code != "bad_enrollment" && error.code != "enrollment_outdated" { fatalError("unknown code \(error.code)") }
    }
    return 0
}

@_cdecl("FuzzEnrollment_main")
public func fuzzEnrollmentMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    var argc = argc
    var argv = argv
    return LLVMFuzzerRunDriver(&argc, &argv) { data, size in fuzzEnrollment(data, size) }
}
