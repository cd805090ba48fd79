import Benchmark
import Foundation
import KordantVoice

/// Ten minutes of 16 kHz speech-like noise in memory (benchmarks/compare gives the peers the same
/// length). Built once, outside the measured region.
let tenMinutes: [Float] = {
    var x = [Float](repeating: 0, count: 600 * 16_000)
    var state: UInt32 = 0x9E37_79B9
    for i in x.indices {
        state = state &* 1_664_525 &+ 1_013_904_223
        let envelope = Float(0.05 + 0.3 * abs(sin(Double(i) / 3000)))
        x[i] = (Float(state >> 8) / Float(1 << 24) - 0.5) * envelope
    }
    return x
}()

let benchmarks: @Sendable () -> Void = {
    qualityBenchmarks()
    let config = Benchmark.Configuration(
        metrics: [.wallClock, .cpuTotal, .mallocCountTotal], timeUnits: .microseconds,
        warmupIterations: 1, maxDuration: .seconds(10), maxIterations: 20)

    // One extractor per benchmark, reused: the way a worker thread uses it (plans and tables
    // built once, outside the measured region). Names are what benchmarks/compare looks up.
    let profiles: [(String, MFCCOptions)] = [
        ("mfcc.kaldi 10min 16k", .kaldi()),
        ("mfcc.librosa-speech 10min 16k", .librosa(nMFCC: 13, nFFT: 512, hopLength: 160, winLength: 400, nMels: 40)),
        ("mfcc.librosa-default 10min 16k", .librosa()),
        ("mfcc.psf 10min 16k", .psf()),
    ]
    for (name, options) in profiles {
        Benchmark(name, configuration: config) { benchmark in
            let extractor = try! MFCCExtractor(options: options)
            let x = tenMinutes
            benchmark.startMeasurement()
            let m = x.withUnsafeBufferPointer { extractor.compute($0) }
            blackHole(m.frames)
        }
    }
}

/// TestAudio, beside this package.
let testAudio = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("TestAudio").path

let qualityBenchmarks: @Sendable () -> Void = {
    let config = Benchmark.Configuration(
        metrics: [.wallClock, .cpuTotal, .mallocCountTotal], timeUnits: .microseconds,
        warmupIterations: 1, maxDuration: .seconds(10), maxIterations: 50)
    // The quality check of one decoded sample (VAD, SNR, level, clipping): what enrollment adds
    // to decoding and MFCC.
    Benchmark("quality.check speech_us_male", configuration: config) { benchmark in
        let input = try! VoiceInput.load(path: testAudio + "/speech_us_male.wav")
        benchmark.startMeasurement()
        blackHole(QualityCheck.check(input).0.pass)
    }
    // One enrollment of three samples from their files: decode, resample, quality, MFCC, voiceprint.
    Benchmark("enroll.files us_male 3 samples", configuration: config) { benchmark in
        let enroller = try! Enroller()
        let paths = (1...3).map { testAudio + "/enroll_us_male_\($0).wav" }
        benchmark.startMeasurement()
        blackHole(try! enroller.enroll(paths: paths).pass)
    }
}
