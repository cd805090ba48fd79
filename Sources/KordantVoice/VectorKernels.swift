/// Reductions over short contiguous runs, with independent SIMD accumulators.
///
/// A plain `for` loop summing Floats is one serial dependency chain (Swift keeps IEEE order), so
/// a 400-sample frame sum costs ~400 add latencies; these split the chain eight ways. The order
/// of additions differs from a sequential sum by rounding only.
enum VectorKernels {
    @inline(__always)
    static func dot(_ a: UnsafePointer<Float>, _ b: UnsafePointer<Float>, _ n: Int) -> Float {
        let ra = UnsafeRawPointer(a), rb = UnsafeRawPointer(b)
        var acc0 = SIMD8<Float>(), acc1 = SIMD8<Float>()
        var i = 0
        while i &+ 16 <= n {
            acc0 += ra.loadUnaligned(fromByteOffset: i &* 4, as: SIMD8<Float>.self)
                * rb.loadUnaligned(fromByteOffset: i &* 4, as: SIMD8<Float>.self)
            acc1 += ra.loadUnaligned(fromByteOffset: (i &+ 8) &* 4, as: SIMD8<Float>.self)
                * rb.loadUnaligned(fromByteOffset: (i &+ 8) &* 4, as: SIMD8<Float>.self)
            i &+= 16
        }
        if i &+ 8 <= n {
            acc0 += ra.loadUnaligned(fromByteOffset: i &* 4, as: SIMD8<Float>.self)
                * rb.loadUnaligned(fromByteOffset: i &* 4, as: SIMD8<Float>.self)
            i &+= 8
        }
        var s = (acc0 + acc1).sum()
        while i < n {
            s += a[i] * b[i]
            i &+= 1
        }
        return s
    }

    @inline(__always)
    static func sum(_ a: UnsafePointer<Float>, _ n: Int) -> Float {
        let ra = UnsafeRawPointer(a)
        var acc0 = SIMD8<Float>(), acc1 = SIMD8<Float>()
        var i = 0
        while i &+ 16 <= n {
            acc0 += ra.loadUnaligned(fromByteOffset: i &* 4, as: SIMD8<Float>.self)
            acc1 += ra.loadUnaligned(fromByteOffset: (i &+ 8) &* 4, as: SIMD8<Float>.self)
            i &+= 16
        }
        var s = (acc0 + acc1).sum()
        while i < n {
            s += a[i]
            i &+= 1
        }
        return s
    }

    /// Σ (a[i] + epsilon) and Σ ln(a[i] + epsilon) for non-negative finite `a`, in one pass and
    /// without a log per element: each value splits into its binary exponent (summed as integers)
    /// and mantissa in [1, 2) (multiplied per lane), so the whole run costs one 8-lane log at the
    /// end. `epsilon` must be a normal float (it keeps every value positive and normal).
    @inline(__always)
    static func sumAndLogSum(_ a: UnsafePointer<Float>, _ n: Int, epsilon: Float) -> (sum: Double, logSum: Double) {
        let raw = UnsafeRawPointer(a)
        let eps = SIMD8<Float>(repeating: epsilon)
        var sum = SIMD8<Float>(), product = SIMD8<Float>(repeating: 1)
        var exponents = SIMD8<Int32>()
        // Binary exponent and mantissa in [1, 2) of positive normal floats, lane-wise.
        @inline(__always) func split(_ v: SIMD8<Float>) -> (SIMD8<Int32>, SIMD8<Float>) {
            let bits = unsafeBitCast(v, to: SIMD8<Int32>.self)
            return ((bits &>> 23) &- 127, unsafeBitCast((bits & 0x007F_FFFF) | 0x3F80_0000, to: SIMD8<Float>.self))
        }
        @inline(__always) func logTake(_ v: SIMD8<Float>) {
            let (e, m) = split(v)
            exponents &+= e
            product *= m
        }
        @inline(__always) func renormalise() {
            // A lane's product of mantissas below 2^8 after 8 steps; fold it back into [1, 2).
            let (e, m) = split(product)
            exponents &+= e
            product = m
        }
        var i = 0, steps = 0
        while i &+ 8 <= n {
            let v = raw.loadUnaligned(fromByteOffset: i &* 4, as: SIMD8<Float>.self) + eps
            sum += v
            logTake(v)
            i &+= 8
            steps &+= 1
            if steps & 7 == 0 { renormalise() }
        }
        if i < n {
            // The tail padded with 0s for the sum and 1s (mantissa 1, exponent 0) for the log sum.
            let values = partialLoad(raw + i &* 4, count: n &- i, padding: 0) + eps
            let lanes = SIMD8<Int32>(0, 1, 2, 3, 4, 5, 6, 7) .< SIMD8(repeating: Int32(n &- i))
            sum += values.replacing(with: 0, where: .!lanes)
            logTake(values.replacing(with: 1, where: .!lanes))
        }
        renormalise()
        let logMantissas = Double(FastLog.ln(product).sum())
        let logSum = logMantissas + Double(exponents.wrappedSum()) * 0.693_147_180_559_945_3
        return (Double(sum.sum()), logSum)
    }

    /// The first `count` (< 8) floats at `p`, the other lanes `padding`. Copied in as bytes:
    /// setting lanes by a variable index made the compiler scalarise the vector code around it.
    @inline(__always)
    static func partialLoad(_ p: UnsafeRawPointer, count: Int, padding: Float) -> SIMD8<Float> {
        var v = SIMD8<Float>(repeating: padding)
        withUnsafeMutableBytes(of: &v) { $0.baseAddress!.copyMemory(from: p, byteCount: count &* 4) }
        return v
    }
}
