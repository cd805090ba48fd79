import CFuzzDriver
import Foundation
import KordantAudio

/// libFuzzer target: arbitrary bytes as an audio file through everything a user's file meets —
/// the WAV/AIFF chunk walk and container check, libsndfile's open and decode, the downmix and
/// the resampler. Any outcome but audio or an ``AudioError`` is a finding (a crash, a sanitizer
/// report, or another error type).
///
/// Built only by `scripts/fuzz` (`KORDANT_FUZZ=1`, `-sanitize=fuzzer,address`,
/// `-parse-as-library`: libFuzzer provides `main`).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzWAV(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data else { return 0 }
    // The reader takes a path (libsndfile opens it itself): one tmpfs file per process.
    guard let file = kordant_fuzz_file("wav", "", data, size) else { return 0 }
    let path = String(cString: file)
    // The first byte picks the options, so both the strict and the lenient path are explored.
    let lenient = size > 0 && data[0] & 1 == 1
    do {
        let decoder = try MonoDecoder(path: path, outputRate: EngineAudio.sampleRate, options: AudioReadOptions(allowTruncated: lenient))
        var total = 0
        try decoder.run { block in total += block.count }
        _ = decoder.source.warnings
    } catch is AudioError {
        // The expected way to refuse a file.
    } catch {
        fatalError("not an AudioError: \(error)")
    }
    return 0
}

/// SwiftPM links an executable's `main` to `FuzzWAV_main`; hand control to libFuzzer's driver.
@_cdecl("FuzzWAV_main")
public func fuzzWAVMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    var argc = argc
    var argv = argv
    return LLVMFuzzerRunDriver(&argc, &argv) { data, size in fuzzWAV(data, size) }
}
