import Benchmark
import Foundation
import KordantAPI
import KordantBatch
import KordantVoice

let testAudio = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("TestAudio").path

/// The batch enrollment pipeline over TestAudio (54 files, each a one-sample enrollment: decode,
/// resample, quality, Kaldi MFCC, one JSON line each), with 1 and 2 worker threads.
let benchmarks: @Sendable () -> Void = {
    let config = Benchmark.Configuration(
        metrics: [.wallClock, .cpuTotal, .mallocCountTotal], timeUnits: .milliseconds,
        warmupIterations: 1, maxDuration: .seconds(15), maxIterations: 20)
    for jobs in [1, 2] {
        Benchmark("batch.enroll TestAudio jobs \(jobs)", configuration: config) { benchmark in
            let items = try! BatchInput.enrollments(from: testAudio)
            var c = BatchRunner.Configuration(output: NSTemporaryDirectory() + "kordant-bench-batch-\(jobs).jsonl")
            c.jobs = jobs
            benchmark.startMeasurement()
            let summary = try! BatchRunner(configuration: c).run(
                items, makeWorker: { try Enroller() },
                process: { enroller, item in
                    do {
                        let r = try enroller.enroll(paths: item.paths)
                        return BatchLine(json: Data("{}".utf8), fields: [("pass", .bool(r.pass)), ("voiceprint", .array(r.voiceprint.map(JSONValue.number)))])
                    } catch {
                        return BatchLine(object: ["error": .string("\(error)")], failure: "error")
                    }
                },
                workerFailed: { _, _ in BatchLine(object: [:], failure: "worker") })
            blackHole(summary.processed)
        }
    }
}
