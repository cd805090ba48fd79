import CFuzzDriver
import Foundation
import KordantBatch

/// libFuzzer target: arbitrary bytes as a batch manifest (`.jsonl`) read as enrollments,
/// verifications and documents, plus the first line as a `--shard K/N`. Any outcome but items
/// or a ``BatchInputError`` is a finding; an item must name at least one file.
///
/// Built only by `scripts/fuzz` (see FuzzWAV).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzManifest(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data else { return 0 }
    guard let file = kordant_fuzz_file("manifest", ".jsonl", data, size) else { return 0 }
    let path = String(cString: file)
    let readers: [(String) throws -> [BatchItem]] = [BatchInput.enrollments, BatchInput.verifications, BatchInput.documents]
    for read in readers {
        do {
            for item in try read(path) {
                if item.paths.isEmpty { fatalError("an item without files: \(item.id)") }
                _ = item.key()
            }
        } catch is BatchInputError {
            // The expected way to refuse a manifest.
        } catch {
            fatalError("not a BatchInputError: \(error)")
        }
    }
    let firstLine = String(decoding: UnsafeBufferPointer(start: data, count: size).prefix { $0 != 0x0A }, as: UTF8.self)
    if let shard = Shard(firstLine) {
        if !(0..<shard.count).contains(shard.index) { fatalError("shard \(shard) accepted") }
        _ = shard.contains(BatchItem(id: firstLine, paths: ["x"]))
    }
    return 0
}

@_cdecl("FuzzManifest_main")
public func fuzzManifestMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    var argc = argc
    var argv = argv
    return LLVMFuzzerRunDriver(&argc, &argv) { data, size in fuzzManifest(data, size) }
}
