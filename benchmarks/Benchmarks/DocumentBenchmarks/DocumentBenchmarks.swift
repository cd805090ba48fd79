import Benchmark
import Foundation
import KordantOCR

/// TestDocuments, beside this package.
let testDocuments = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("TestDocuments").path

// Run with OMP_THREAD_LIMIT=1 in the environment (benchmarks/compare does): Debian's libtesseract
// starts an OpenMP team otherwise, and a page takes 5–10× longer.
let benchmarks: @Sendable () -> Void = {
    let config = Benchmark.Configuration(
        metrics: [.wallClock, .cpuTotal, .mallocCountTotal], timeUnits: .milliseconds,
        warmupIterations: 1, maxDuration: .seconds(20), maxIterations: 10)
    // One page through one reused worker (handle created outside the measured region), with the
    // default preprocessing and field extraction.
    for (name, file) in [("ocr.page optout clean", "optout_form.clean.png"), ("ocr.page deed skewed", "deed_warranty.skewp4.0.png"),
                         ("ocr.page passport (MRZ)", "passport_td3.clean.png")] {
        Benchmark(name, configuration: config) { benchmark in
            let worker = try! OCRWorker()
            benchmark.startMeasurement()
            blackHole(try! worker.process(path: testDocuments + "/" + file).pages.count)
        }
    }
}
