import Foundation
import KordantAudio
import Testing

@Suite struct LevelsTests {
    /// Tones at known amplitudes: whole-file RMS and peak to ±0.01 dB of the values the generator
    /// computed with numpy from the same int16 samples.
    @Test(arguments: TestAudio.entries(kind: "tone"))
    func toneLevels(entry: TestAudioEntry) throws {
        let decoder = try MonoDecoder(path: entry.path, outputRate: nil)
        var stats = StatisticsAccumulator(sampleRate: decoder.outputRate)
        try decoder.run { stats.add($0) }
        let s = stats.statistics
        #expect(abs(s.rmsPower - entry.rms_db!) <= 0.01)
        #expect(abs(s.peakPower - entry.peak_db!) <= 0.01)
        #expect(s.frames == entry.frames)
        #expect(abs(s.dcOffset) < 1e-4)
    }

    @Test func fullScaleSineReadsMinus3dBAverageAnd0dBPeak() throws {
        var stats = StatisticsAccumulator(sampleRate: 16_000)
        let x = (0..<16_000).map { Float(sin(2 * Double.pi * 1000 * Double($0) / 16_000)) }
        x.withUnsafeBufferPointer { stats.add($0) }
        #expect(abs(stats.statistics.rmsPower - (-3.0103)) < 0.001)
        #expect(abs(stats.statistics.peakPower) < 0.001)
    }

    @Test func silenceAndOverloadAreClamped() {
        #expect(Decibels.power(meanSquare: 0) == -160)
        #expect(Decibels.amplitude(0) == -160)
        #expect(Decibels.amplitude(1e-12) == -160)
        #expect(Decibels.power(meanSquare: 4) == 0)
        #expect(Decibels.amplitude(2) == 0)
    }

    /// Every 50 ms window of a speech file against a plain Double computation over samples read
    /// through libsndfile's int16 API.
    @Test(arguments: ["speech_us_male.wav", "noisy_pink_snr10.wav", "clipped_speech.wav"])
    func windowsMatchIndependentComputation(file: String) throws {
        let reference = TestAudio.readInt16(TestAudio.path(file))
        var meter = LevelMeter(sampleRate: 16_000, windowSeconds: 0.05)
        var readings: [LevelReading] = []
        try AudioDecoder.stream(path: TestAudio.path(file), outputRate: nil) { meter.process($0) { readings.append($0) } }
        meter.finish { readings.append($0) }
        #expect(readings.count == (reference.count + 799) / 800)
        for (k, r) in readings.enumerated() {
            let w = reference[(k * 800)..<min(reference.count, (k + 1) * 800)]
            let ms = w.reduce(0) { $0 + $1 * $1 } / Double(w.count)
            let expectedAvg = ms > 0 ? max(-160, 10 * log10(ms)) : -160
            let peak = w.map(abs).max()!
            let expectedPeak = peak > 0 ? max(-160, 20 * log10(peak)) : -160
            #expect(abs(r.averagePower - expectedAvg) < 1e-3, "window \(k)")
            #expect(abs(r.peakPower - expectedPeak) < 1e-4, "window \(k)")
            #expect(abs(r.time - Double(k) * 0.05) < 1e-9)
        }
    }

    /// The meter gives bit-identical readings whatever the buffer sizes.
    @Test func chunkingInvariance() throws {
        let audio = try AudioDecoder.load(path: TestAudio.path("speech_gb_female.wav"), outputRate: nil)
        func run(_ chunks: [Int]) -> [LevelReading] {
            var meter = LevelMeter(sampleRate: 16_000, windowSeconds: 0.05)
            var out: [LevelReading] = []
            var offset = 0, k = 0
            audio.samples.withUnsafeBufferPointer { all in
                while offset < all.count {
                    let n = min(chunks[k % chunks.count], all.count - offset)
                    meter.process(UnsafeBufferPointer(rebasing: all[offset..<(offset + n)])) { out.append($0) }
                    offset += n
                    k += 1
                }
            }
            meter.finish { out.append($0) }
            return out
        }
        let whole = run([audio.samples.count])
        #expect(whole.count == 224)
        #expect(run([1]) == whole)
        #expect(run([799, 801, 3, 1600, 13]) == whole)
        var rng = SystemRandomNumberGenerator()
        #expect(run((0..<50).map { _ in Int.random(in: 1...5000, using: &rng) }) == whole)
    }

    @Test func windowLengthFollowsRateAndMilliseconds() {
        #expect(LevelMeter(sampleRate: 16_000).windowLength == 800)
        #expect(LevelMeter(sampleRate: 44_100, windowSeconds: 0.02).windowLength == 882)
        #expect(LevelMeter(sampleRate: 8_000, windowSeconds: 0.0001).windowLength == 1)
    }

    @Test func statisticsCountClippingAndDCOffset() {
        var x = [Float](repeating: 0.25, count: 1000)
        x[10] = 1.0
        x[11] = -0.9995
        x[12] = 0.998
        var acc = StatisticsAccumulator(sampleRate: 1000)
        x.withUnsafeBufferPointer { acc.add($0) }
        let s = acc.statistics
        #expect(s.clippedSamples == 2)
        #expect(abs(s.clippedFraction - 0.002) < 1e-12)
        let mean = x.reduce(0.0) { $0 + Double($1) } / 1000
        #expect(abs(s.dcOffset - mean) < 1e-6)
        #expect(s.peakPower == 0)
        #expect(abs(s.duration - 1.0) < 1e-12)
    }

    @Test func kernelsHandleEveryTailLength() {
        for n in 0..<40 {
            let x = (0..<n).map { Float(($0 * 7919) % 23) / 23 - 0.5 }
            let (ss, peak) = x.withUnsafeBufferPointer { SampleKernels.sumOfSquaresAndPeak($0) }
            #expect(abs(Double(ss) - x.reduce(0.0) { $0 + Double($1 * $1) }) < 1e-5)
            #expect(peak == (x.map(abs).max() ?? 0))
            let st = x.withUnsafeBufferPointer { SampleKernels.statistics($0, clipThreshold: 0.45) }
            #expect(st.clipped == x.filter { abs($0) >= 0.45 }.count)
        }
    }
}
