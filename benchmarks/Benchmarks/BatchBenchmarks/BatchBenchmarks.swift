import Benchmark
import Foundation
import KordantAPI
import KordantBatch
import KordantOCR
import KordantVoice

let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()
let testAudio = repository.appendingPathComponent("TestAudio").path

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

    // What no implementation of the batch enrollment pipeline can skip, one thread, the same 54
    // files: decoding (libsndfile, downmix, libsoxr to 16 kHz) and then the Kaldi MFCC the result
    // carries. The quality check, resume keys, JSON and threads are left out, so these are floors;
    // benchmarks/compare batch turns them into the best ratio any engine could reach.
    for withMFCC in [false, true] {
        Benchmark("batch.floor \(withMFCC ? "decode+mfcc" : "decode") TestAudio", configuration: config) { benchmark in
            let paths = try! BatchInput.enrollments(from: testAudio).flatMap(\.paths)
            let extractor = try! MFCCExtractor(options: .kaldi())
            benchmark.startMeasurement()
            var frames = 0
            for path in paths {
                guard let input = try? VoiceInput.load(path: path) else { continue }
                frames += withMFCC ? input.samples.withUnsafeBufferPointer { extractor.compute($0) }.frames : input.samples.count
            }
            blackHole(frames)
        }
    }

    // Batch OCR of the 34 document pages of TestDocuments (deeds, IDs, opt-outs; clean and
    // degraded) with 2 workers, each with one Tesseract handle. Needs OMP_THREAD_LIMIT=1.
    let ocrConfig = Benchmark.Configuration(
        metrics: [.wallClock, .cpuTotal], timeUnits: .milliseconds, warmupIterations: 1, maxDuration: .seconds(30), maxIterations: 3)
    Benchmark("batch.ocr TestDocuments pages jobs 2", configuration: ocrConfig) { benchmark in
        let pages = try! BatchInput.documents(from: repository.appendingPathComponent("TestDocuments").path)
            .filter { !$0.id.hasPrefix("bad_") && !$0.id.hasSuffix(".tif") }
        var c = BatchRunner.Configuration(output: NSTemporaryDirectory() + "kordant-bench-batch-ocr.jsonl")
        c.jobs = 2
        benchmark.startMeasurement()
        let summary = try! BatchRunner(configuration: c).run(
            pages, makeWorker: { try OCRWorker() },
            process: { worker, item in
                do {
                    let doc = try worker.process(path: item.paths[0])
                    return BatchLine(json: Data("{}".utf8), fields: [("text", .string(doc.pages.map(\.text).joined()))])
                } catch {
                    return BatchLine(object: [:], failure: "error")
                }
            },
            workerFailed: { _, _ in BatchLine(object: [:], failure: "worker") })
        blackHole(summary.processed)
    }
}
