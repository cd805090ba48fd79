import Foundation

/// Power in dBFS on the AVAudioRecorder metering scale: full scale is |x| = 1.0, the result is
/// clamped to [-160, 0], and digital silence reads -160.
public enum Decibels {
    /// The floor AVAudioRecorder reports for silence.
    public static let floor: Double = -160

    /// 10·log10(mean square), i.e. 20·log10(RMS), clamped to [-160, 0].
    @inlinable
    public static func power(meanSquare: Double) -> Double {
        guard meanSquare > 0 else { return floor }
        return Swift.min(0, Swift.max(floor, 10 * log10(meanSquare)))
    }

    /// 20·log10(amplitude), clamped to [-160, 0].
    @inlinable
    public static func amplitude(_ a: Double) -> Double {
        guard a > 0 else { return floor }
        return Swift.min(0, Swift.max(floor, 20 * log10(a)))
    }
}

/// One meter reading: average (RMS) and peak power of one window, in dBFS.
public struct LevelReading: Sendable, Equatable, Codable {
    /// Start of the window, seconds from the start of the stream.
    public var time: Double
    /// Samples in the window (the last window of a stream may be shorter).
    public var samples: Int
    /// 20·log10(RMS), clamped to [-160, 0].
    public var averagePower: Double
    /// 20·log10(max |x|), clamped to [-160, 0].
    public var peakPower: Double

    public init(time: Double, samples: Int, averagePower: Double, peakPower: Double) {
        self.time = time
        self.samples = samples
        self.averagePower = averagePower
        self.peakPower = peakPower
    }
}

/// A streaming level meter: feed buffers of any size, get one ``LevelReading`` per window.
///
/// The readings do not depend on how the input is chunked: every window is measured by the same
/// kernel over the same contiguous samples (windows that straddle two buffers are gathered into
/// an internal window-sized buffer first). The recorder uses this meter live; `kordant levels`
/// uses it offline, so both print the same numbers for the same samples.
public struct LevelMeter: Sendable {
    public let sampleRate: Int
    /// Samples per window: round(sampleRate × windowSeconds), at least 1.
    public let windowLength: Int
    private var pending: [Float]
    private var pendingCount = 0
    private var windowsEmitted = 0

    /// - Parameters:
    ///   - sampleRate: samples per second of the stream.
    ///   - windowSeconds: window length in seconds (default 50 ms, as AVAudioRecorder apps poll).
    public init(sampleRate: Int, windowSeconds: Double = 0.05) {
        precondition(sampleRate > 0 && windowSeconds > 0)
        self.sampleRate = sampleRate
        self.windowLength = Swift.max(1, Int((Double(sampleRate) * windowSeconds).rounded()))
        self.pending = [Float](repeating: 0, count: windowLength)
    }

    /// Measures `samples`, calling `emit` for every window it completes.
    public mutating func process(_ samples: UnsafeBufferPointer<Float>, emit: (LevelReading) throws -> Void) rethrows {
        var offset = 0
        let n = samples.count
        if pendingCount > 0 {
            let take = Swift.min(windowLength - pendingCount, n)
            pending.withUnsafeMutableBufferPointer { p in
                _ = UnsafeMutableBufferPointer(rebasing: p[pendingCount..<(pendingCount + take)])
                    .initialize(from: UnsafeBufferPointer(rebasing: samples[0..<take]))
            }
            pendingCount += take
            offset = take
            if pendingCount == windowLength {
                let reading = pending.withUnsafeBufferPointer { measure($0) }
                pendingCount = 0
                try emit(reading)
            }
        }
        while offset + windowLength <= n {
            let reading = measure(UnsafeBufferPointer(rebasing: samples[offset..<(offset + windowLength)]))
            offset += windowLength
            try emit(reading)
        }
        if offset < n {
            let rest = n - offset
            pending.withUnsafeMutableBufferPointer { p in
                _ = UnsafeMutableBufferPointer(rebasing: p[0..<rest])
                    .initialize(from: UnsafeBufferPointer(rebasing: samples[offset..<n]))
            }
            pendingCount = rest
        }
    }

    /// Convenience for arrays.
    public mutating func process(_ samples: [Float], emit: (LevelReading) throws -> Void) rethrows {
        try samples.withUnsafeBufferPointer { try process($0, emit: emit) }
    }

    /// Emits the reading of the last, partial window (if any samples are waiting).
    public mutating func finish(emit: (LevelReading) throws -> Void) rethrows {
        guard pendingCount > 0 else { return }
        let reading = pending.withUnsafeBufferPointer { measure(UnsafeBufferPointer(rebasing: $0[0..<pendingCount])) }
        pendingCount = 0
        try emit(reading)
    }

    private mutating func measure(_ window: UnsafeBufferPointer<Float>) -> LevelReading {
        let (sumOfSquares, peak) = SampleKernels.sumOfSquaresAndPeak(window)
        let time = Double(windowsEmitted) * Double(windowLength) / Double(sampleRate)
        windowsEmitted += 1
        return LevelReading(
            time: time, samples: window.count,
            averagePower: Decibels.power(meanSquare: Double(sumOfSquares) / Double(window.count)),
            peakPower: Decibels.amplitude(Double(peak)))
    }
}

/// Whole-file level statistics.
public struct AudioStatistics: Sendable, Equatable, Codable {
    /// Samples at or above this magnitude count as clipped.
    public static let clipThreshold: Float = 0.999

    public var sampleRate: Int
    public var frames: Int
    public var duration: Double
    /// 20·log10(RMS) over the whole file, dBFS, clamped to [-160, 0].
    public var rmsPower: Double
    /// 20·log10(max |x|), dBFS, clamped to [-160, 0].
    public var peakPower: Double
    /// Mean sample value (DC offset), in full-scale units.
    public var dcOffset: Double
    /// Samples with |x| ≥ 0.999.
    public var clippedSamples: Int
    /// clippedSamples / frames (0 for empty input).
    public var clippedFraction: Double

    public init(sampleRate: Int, block: BlockStatistics) {
        self.sampleRate = sampleRate
        frames = block.count
        duration = Double(block.count) / Double(sampleRate)
        let n = Double(Swift.max(block.count, 1))
        rmsPower = Decibels.power(meanSquare: block.sumOfSquares / n)
        peakPower = block.count == 0 ? Decibels.floor
            : Decibels.amplitude(Double(Swift.max(block.maximum, -block.minimum)))
        dcOffset = block.sum / n
        clippedSamples = block.clipped
        clippedFraction = Double(block.clipped) / n
    }
}

/// Accumulates ``AudioStatistics`` over a stream of buffers.
public struct StatisticsAccumulator: Sendable {
    public let sampleRate: Int
    private var total = BlockStatistics()

    public init(sampleRate: Int) { self.sampleRate = sampleRate }

    public mutating func add(_ samples: UnsafeBufferPointer<Float>) {
        total.merge(SampleKernels.statistics(samples, clipThreshold: AudioStatistics.clipThreshold))
    }

    public var statistics: AudioStatistics { AudioStatistics(sampleRate: sampleRate, block: total) }
}
