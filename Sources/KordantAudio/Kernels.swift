/// Sample kernels over contiguous buffers, written once and used by every meter, statistic,
/// converter and writer in the engine.
///
/// All of them walk the buffer in 16-float SIMD steps with independent accumulators (so the
/// additions pipeline), then finish the tail one sample at a time. The order of operations
/// depends only on the buffer's contents and length, never on how a caller chunked a stream,
/// which is what makes ``LevelMeter`` chunking-invariant.
public enum SampleKernels {
    /// Sum of squares and largest magnitude of `x`, in one pass.
    ///
    /// Independent SSE-width accumulators so the adds pipeline; |x| by clearing the sign bit and the running
    /// maximum by compare-and-select, both single instructions (the generic `pointwiseMax` is not,
    /// and made this kernel 6× slower).
    @inlinable
    public static func sumOfSquaresAndPeak(_ x: UnsafeBufferPointer<Float>) -> (sumOfSquares: Float, peak: Float) {
        guard let base = x.baseAddress, x.count > 0 else { return (0, 0) }
        let n = x.count
        let raw = UnsafeRawPointer(base)
        var s0 = SIMD4<Float>(), s1 = SIMD4<Float>(), s2 = SIMD4<Float>(), s3 = SIMD4<Float>()
        var m0 = SIMD4<Float>(), m1 = SIMD4<Float>()
        var i = 0
        while i &+ 16 <= n {
            let a = raw.loadUnaligned(fromByteOffset: i &* 4, as: SIMD4<Float>.self)
            let b = raw.loadUnaligned(fromByteOffset: (i &+ 4) &* 4, as: SIMD4<Float>.self)
            let c = raw.loadUnaligned(fromByteOffset: (i &+ 8) &* 4, as: SIMD4<Float>.self)
            let d = raw.loadUnaligned(fromByteOffset: (i &+ 12) &* 4, as: SIMD4<Float>.self)
            s0 += a * a
            s1 += b * b
            s2 += c * c
            s3 += d * d
            let fa = magnitude(a), fb = magnitude(b), fc = magnitude(c), fd = magnitude(d)
            m0 = m0.replacing(with: fa, where: fa .> m0)
            m1 = m1.replacing(with: fb, where: fb .> m1)
            m0 = m0.replacing(with: fc, where: fc .> m0)
            m1 = m1.replacing(with: fd, where: fd .> m1)
            i &+= 16
        }
        var sum = ((s0 + s1) + (s2 + s3)).sum()
        var peak = pointwiseMax(m0, m1).max()
        while i < n {
            let v = base[i]
            sum += v * v
            peak = Swift.max(peak, Swift.abs(v))
            i &+= 1
        }
        return (sum, peak)
    }

    /// |v| lane-wise by clearing the sign bits.
    @inlinable @inline(__always)
    static func magnitude(_ v: SIMD4<Float>) -> SIMD4<Float> {
        unsafeBitCast(unsafeBitCast(v, to: SIMD4<UInt32>.self) & SIMD4(repeating: 0x7FFF_FFFF), to: SIMD4<Float>.self)
    }

    /// Whole-buffer statistics in one pass: sum, sum of squares, extremes and the count of
    /// samples whose magnitude is at least `clipThreshold`.
    @inlinable
    public static func statistics(_ x: UnsafeBufferPointer<Float>, clipThreshold: Float) -> BlockStatistics {
        guard let base = x.baseAddress, x.count > 0 else { return BlockStatistics() }
        let n = x.count
        let raw = UnsafeRawPointer(base)
        var sum0 = SIMD4<Float>(), sum1 = SIMD4<Float>(), sq0 = SIMD4<Float>(), sq1 = SIMD4<Float>()
        var hi = SIMD4<Float>(repeating: -.infinity), lo = SIMD4<Float>(repeating: .infinity)
        var clipped = SIMD4<Int32>()
        let threshold = SIMD4<Float>(repeating: clipThreshold)
        let one = SIMD4<Int32>(repeating: 1)
        var i = 0
        while i &+ 8 <= n {
            let a = raw.loadUnaligned(fromByteOffset: i &* 4, as: SIMD4<Float>.self)
            let b = raw.loadUnaligned(fromByteOffset: (i &+ 4) &* 4, as: SIMD4<Float>.self)
            sum0 += a
            sum1 += b
            sq0 += a * a
            sq1 += b * b
            hi = hi.replacing(with: a, where: a .> hi)
            hi = hi.replacing(with: b, where: b .> hi)
            lo = lo.replacing(with: a, where: a .< lo)
            lo = lo.replacing(with: b, where: b .< lo)
            clipped &+= SIMD4<Int32>().replacing(with: one, where: magnitude(a) .>= threshold)
            clipped &+= SIMD4<Int32>().replacing(with: one, where: magnitude(b) .>= threshold)
            i &+= 8
        }
        var result = BlockStatistics(
            count: n, sum: Double((sum0 + sum1).sum()), sumOfSquares: Double((sq0 + sq1).sum()),
            maximum: hi.max(), minimum: lo.min(), clipped: Int(clipped.wrappedSum()))
        while i < n {
            let v = base[i]
            result.sum += Double(v)
            result.sumOfSquares += Double(v * v)
            result.maximum = Swift.max(result.maximum, v)
            result.minimum = Swift.min(result.minimum, v)
            if Swift.abs(v) >= clipThreshold { result.clipped += 1 }
            i &+= 1
        }
        return result
    }

    /// Index of the first NaN or infinite sample, or nil when every sample is finite.
    @inlinable
    public static func firstNonFinite(_ x: UnsafeBufferPointer<Float>) -> Int? {
        guard let base = x.baseAddress else { return nil }
        let n = x.count
        let raw = UnsafeRawPointer(base)
        var i = 0
        // x·0 is 0 for finite x and NaN for NaN or ±Inf; NaN is the only value unequal to itself.
        while i &+ 8 <= n {
            let a = raw.loadUnaligned(fromByteOffset: i &* 4, as: SIMD8<Float>.self)
            let z = a * SIMD8<Float>()
            if any(z .!= z) { break }
            i &+= 8
        }
        while i < n {
            if !base[i].isFinite { return i }
            i &+= 1
        }
        return nil
    }

    /// Mean of the channels of interleaved `frames` into `mono` (`mono.count` ≥ frame count).
    @inlinable
    public static func downmix(
        _ interleaved: UnsafeBufferPointer<Float>, channels: Int, into mono: UnsafeMutableBufferPointer<Float>
    ) {
        let frames = interleaved.count / channels
        precondition(mono.count >= frames)
        switch channels {
        case 1:
            _ = mono.initialize(from: interleaved)
        case 2:
            for f in 0..<frames {
                mono[f] = (interleaved[2 &* f] + interleaved[2 &* f &+ 1]) * 0.5
            }
        default:
            let scale = 1 / Float(channels)
            for f in 0..<frames {
                var s: Float = 0
                let row = f &* channels
                for c in 0..<channels { s += interleaved[row &+ c] }
                mono[f] = s * scale
            }
        }
    }

    /// 16-bit PCM to float, ÷32768 (the scale libsndfile reads with, so both paths agree).
    @inlinable
    public static func fromInt16(_ x: UnsafeBufferPointer<Int16>, into out: UnsafeMutableBufferPointer<Float>) {
        precondition(out.count >= x.count)
        for i in 0..<x.count { out[i] = Float(x[i]) * (1 / 32768) }
    }

    /// Float [-1, 1) to 16-bit PCM: round to nearest (even), saturating at the ends.
    ///
    /// Uses the 1.5·2²³ trick: adding it to a float of magnitude below 2²² leaves the rounded
    /// integer in the low mantissa bits, with no branch or library call, so the loop vectorises.
    @inlinable
    public static func toInt16(_ x: UnsafeBufferPointer<Float>, into out: UnsafeMutableBufferPointer<Int16>) {
        precondition(out.count >= x.count)
        let magic: Float = 12_582_912
        let magicBits = Int32(bitPattern: magic.bitPattern)
        for i in 0..<x.count {
            let v = Swift.min(Swift.max(x[i] * 32768, -32768), 32767)
            out[i] = Int16(truncatingIfNeeded: Int32(bitPattern: (v + magic).bitPattern) &- magicBits)
        }
    }
}

/// Sums and extremes of a block of samples; blocks merge with ``merge(_:)``.
public struct BlockStatistics: Sendable, Equatable {
    public var count = 0
    public var sum = 0.0
    public var sumOfSquares = 0.0
    public var maximum: Float = -.infinity
    public var minimum: Float = .infinity
    public var clipped = 0

    public init() {}

    @inlinable
    public init(count: Int, sum: Double, sumOfSquares: Double, maximum: Float, minimum: Float, clipped: Int) {
        self.count = count
        self.sum = sum
        self.sumOfSquares = sumOfSquares
        self.maximum = maximum
        self.minimum = minimum
        self.clipped = clipped
    }

    @inlinable
    public mutating func merge(_ other: BlockStatistics) {
        count += other.count
        sum += other.sum
        sumOfSquares += other.sumOfSquares
        maximum = Swift.max(maximum, other.maximum)
        minimum = Swift.min(minimum, other.minimum)
        clipped += other.clipped
    }
}
