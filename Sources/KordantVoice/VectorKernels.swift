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
}
