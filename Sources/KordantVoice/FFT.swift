import CFFTW
import Foundation

/// FFTW single-precision plans, created once per size and shared.
///
/// Planning is not thread-safe in FFTW, so it happens under one lock, once per size per process;
/// execution uses the new-array interface (`fftwf_execute_dft_r2c`), which is thread-safe, on
/// buffers each caller owns. Every plan in the process must come from here (the tests' too): a
/// plan made beside this lock can crash a planning thread.
final class FFTPlans: @unchecked Sendable {
    static let shared = FFTPlans()
    private let lock = NSLock()
    private var plans: [Int: OpaquePointer] = [:]

    /// The r2c plan for `size` points (FFTW_ESTIMATE).
    func realForward(_ size: Int) -> OpaquePointer {
        lock.lock()
        defer { lock.unlock() }
        if let p = plans[size] { return p }
        let input = fftwf_alloc_real(size)!
        let output = fftwf_alloc_complex(size / 2 + 1)!
        defer {
            fftwf_free(input)
            fftwf_free(output)
        }
        // ESTIMATE, not MEASURE: for 512 points MEASURE took 72 ms to plan for a 7–10 % faster
        // transform (244–250 vs 268 ns), a loss until some 3 million transforms (8 h of audio), and
        // every short-lived CLI process paid it (benchmarks/fftw/plan-cost.c measures both).
        let plan = fftwf_plan_dft_r2c_1d(Int32(size), input, output, FFTW_ESTIMATE)!
        plans[size] = plan
        return plan
    }
}

/// A real-input FFT of one size with its own aligned buffers. Owns and frees them.
final class RealFFT {
    let size: Int
    /// Time-domain input, `size` floats (SIMD-aligned by fftwf_malloc, as the plan expects).
    let input: UnsafeMutableBufferPointer<Float>
    private let output: UnsafeMutablePointer<fftwf_complex>
    private let plan: OpaquePointer

    init(size: Int) {
        self.size = size
        plan = FFTPlans.shared.realForward(size)
        input = UnsafeMutableBufferPointer(start: fftwf_alloc_real(size)!, count: size)
        input.initialize(repeating: 0)
        output = fftwf_alloc_complex(size / 2 + 1)!
    }

    deinit {
        fftwf_free(input.baseAddress)
        fftwf_free(output)
    }

    /// Transforms ``input`` and writes |X_k|²·scale for k = 0…size/2 into `power`.
    @inline(__always)
    func powerSpectrum(into power: UnsafeMutablePointer<Float>, scale: Float) {
        fftwf_execute_dft_r2c(plan, input.baseAddress, output)
        let bins = size / 2 + 1
        // fftwf_complex is (re, im) interleaved floats.
        output.withMemoryRebound(to: Float.self, capacity: 2 * bins) { c in
            for k in 0..<bins {
                let re = c[2 &* k], im = c[2 &* k &+ 1]
                power[k] = (re * re + im * im) * scale
            }
        }
    }
}
