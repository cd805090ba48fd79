import Benchmark
import Foundation
import KordantAPI
import KordantClient

/// Sealing one 10 MB file on one core: the whole `Sealer.seal(fileAt:)` (one streaming SHA-256
/// pass over the file from the page cache, HKDF, AES-GCM, ECDSA P-256), and its two halves.
/// The keys are made here as `kordant provision` would store them (no server needed).
let benchmarks: @Sendable () -> Void = {
    let config = Benchmark.Configuration(
        metrics: [.wallClock, .cpuTotal, .mallocCountTotal], timeUnits: .milliseconds,
        warmupIterations: 2, maxDuration: .seconds(10), maxIterations: 200)
    let path = NSTemporaryDirectory() + "kordant-bench-seal-10MB.bin"
    var generator = SystemRandomNumberGenerator()
    try! Data((0..<10_000_000).map { _ in UInt8.random(in: 0...255, using: &generator) }).write(to: URL(fileURLWithPath: path))
    let tables = (0..<3).map { KeyTableAssignment(id: $0 * 7, masterKey: Data((0..<32).map { _ in UInt8.random(in: 0...255) }).base64EncodedString()) }
    let keys = try! DeviceKeys(request: .init(), result: ProvisionResult(deviceId: "dev_bench", tables: tables, tableCount: 64, keysPerTable: 1000),
                               server: "http://127.0.0.1:3000")
    let sealer = Sealer(keys: keys)

    Benchmark("seal 10 MB file (hash + bundle)", configuration: config) { benchmark in
        for _ in benchmark.scaledIterations { blackHole(try! sealer.seal(fileAt: path)) }
    }
    Benchmark("seal: SHA-256 of 10 MB file", configuration: config) { benchmark in
        for _ in benchmark.scaledIterations { blackHole(try! Digest.sha256(fileAt: path)) }
    }
    let digest = try! Digest.sha256(fileAt: path).digest
    Benchmark("seal: bundle of a digest (HKDF + AES-GCM + ECDSA P-256)", configuration: config) { benchmark in
        for _ in benchmark.scaledIterations { blackHole(try! sealer.seal(digest: digest, timestamp: 1_800_000_000)) }
    }
}
