import Benchmark
import Foundation
import KordantAudio

/// Inputs are built once, outside the measured region. Sizes match what benchmarks/compare
/// gives the peers, so the throughput figures (× real time) are directly comparable.
enum Inputs {
    /// One hour of 16 kHz speech-like noise, in memory.
    static let hour: [Float] = {
        var x = [Float](repeating: 0, count: 3600 * 16_000)
        var state: UInt32 = 0x1234_5678
        for i in x.indices {
            state = state &* 1_664_525 &+ 1_013_904_223
            let envelope = Float(0.1 + 0.4 * abs(sin(Double(i) / 4000)))
            x[i] = (Float(state >> 8) / Float(1 << 24) - 0.5) * envelope
        }
        return x
    }()

    /// A 10-minute 44.1 kHz stereo 16-bit WAV (benchmarks/compare writes the same file for the peers).
    static let longStereoPath: String = {
        let path = ProcessInfo.processInfo.environment["KORDANT_BENCH_WAV"]
            ?? FileManager.default.temporaryDirectory.appendingPathComponent("kordant-bench-44k1-stereo-600s.wav").path
        if !FileManager.default.fileExists(atPath: path) {
            let writer = try! StereoWAV(path: path, rate: 44_100)
            var block = [Int16](repeating: 0, count: 2 * 44_100)
            var phase = 0.0
            for s in 0..<600 {
                for f in 0..<44_100 {
                    phase += 2 * Double.pi * (150 + Double(s % 40) * 60) / 44_100
                    let v = Int16(9000 * sin(phase) * (0.5 + 0.5 * sin(Double(f) / 7000)))
                    block[2 * f] = v
                    block[2 * f + 1] = v / 3
                }
                writer.append(block)
            }
        }
        return path
    }()
}

/// Minimal 16-bit stereo WAV writer for the benchmark input (header written up front).
final class StereoWAV {
    let handle: FileHandle
    init(path: String, rate: Int, seconds: Int = 600) throws {
        let frames = rate * seconds
        var h = Data("RIFF".utf8)
        func u32(_ v: Int) { withUnsafeBytes(of: UInt32(v).littleEndian) { h.append(contentsOf: $0) } }
        func u16(_ v: Int) { withUnsafeBytes(of: UInt16(v).littleEndian) { h.append(contentsOf: $0) } }
        u32(36 + frames * 4); h.append(contentsOf: Array("WAVEfmt ".utf8)); u32(16); u16(1); u16(2)
        u32(rate); u32(rate * 4); u16(4); u16(16); h.append(contentsOf: Array("data".utf8)); u32(frames * 4)
        _ = FileManager.default.createFile(atPath: path, contents: h)
        handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.seekToEnd()
    }
    func append(_ samples: [Int16]) { samples.withUnsafeBytes { handle.write(Data($0)) } }
    deinit { try? handle.close() }
}

let benchmarks: @Sendable () -> Void = {
    let timeOnly = Benchmark.Configuration(
        metrics: [.wallClock, .cpuTotal, .mallocCountTotal, .peakMemoryResident],
        timeUnits: .microseconds, warmupIterations: 1, maxDuration: .seconds(10), maxIterations: 30)

    // Levels: the live meter's work over one hour of 16 kHz audio already in memory.
    Benchmark("levels.meter 1h 16k (50 ms windows)", configuration: timeOnly) { benchmark in
        let x = Inputs.hour
        benchmark.startMeasurement()
        var meter = LevelMeter(sampleRate: 16_000, windowSeconds: 0.05)
        var last = 0.0
        x.withUnsafeBufferPointer { meter.process($0) { last += $0.averagePower } }
        blackHole(last)
    }

    Benchmark("levels.statistics 1h 16k", configuration: timeOnly) { benchmark in
        let x = Inputs.hour
        benchmark.startMeasurement()
        var stats = StatisticsAccumulator(sampleRate: 16_000)
        x.withUnsafeBufferPointer { stats.add($0) }
        blackHole(stats.statistics)
    }

    // Conversion: decode + downmix + resample 44.1 kHz stereo → 16 kHz mono, into memory.
    Benchmark("convert.load 10min 44k1 stereo -> 16k mono", configuration: timeOnly) { benchmark in
        let path = Inputs.longStereoPath
        benchmark.startMeasurement()
        let audio = try AudioDecoder.load(path: path)
        blackHole(audio.samples.count)
    }
}
