import Foundation
@testable import KordantVoice
import Testing

@Suite struct KernelTests {
    /// The vectorised log against libm over 60 decades, including FLT_EPSILON and 1e-10 (the floors
    /// the MFCC profiles apply) and values around 1.
    @Test func agreesWithLibm() {
        var values: [Float] = [Float.ulpOfOne, 1e-10, 1, 0.999_999, 1.000_001, 0.707_106_77, 0.5, 2, 32768 * 32768]
        var x = 1e-30
        while x < 1e30 { values.append(Float(x)); x *= 1.37 }
        var copy = values
        FastLog.lnInPlace(&copy, count: copy.count)
        for (v, ours) in zip(values, copy) {
            let exact = log(Double(v))
            #expect(abs(Double(ours) - exact) <= 4e-7 * max(1, abs(exact)), "ln(\(v)) = \(ours), libm \(exact)")
        }
    }

    /// Every tail length (the copy-in/copy-out path) leaves the values past `count` untouched.
    @Test func tailsOfEveryLength() {
        for n in 0...17 {
            var values = (0..<(n + 3)).map { Float($0 + 2) }
            FastLog.lnInPlace(&values, count: n)
            for i in 0..<n { #expect(abs(Double(values[i]) - log(Double(i + 2))) <= 4e-7 * log(Double(i + 2)) + 1e-7) }
            for i in n..<(n + 3) { #expect(values[i] == Float(i + 2)) }
        }
    }

    /// The flatness reduction (Σ and Σ ln from exponents and mantissa products) against Double
    /// sums of libm logs: silent runs (only epsilon), mixed decades, every tail length, and a run
    /// long enough to need the mantissa products folded back many times.
    @Test func sumAndLogSumAgreesWithDouble() {
        var cases: [[Float]] = [[Float](repeating: 0, count: 121), (0..<121).map { Float(pow(10, Double($0 % 13) - 6)) }]
        for n in 1...17 { cases.append((0..<n).map { Float($0 * 37 % 11) * 1e3 }) }
        cases.append((0..<4_096).map { 1.9 + Float($0 % 5) * 0.02 })
        for a in cases {
            let (sum, logSum) = a.withUnsafeBufferPointer { VectorKernels.sumAndLogSum($0.baseAddress!, a.count, epsilon: 1e-20) }
            let exactSum = a.reduce(0.0) { $0 + (Double($1) + 1e-20) }
            let exactLog = a.reduce(0.0) { $0 + log(Double(Float($1) + 1e-20)) }
            #expect(abs(sum - exactSum) <= 1e-6 * exactSum, "n \(a.count): sum \(sum) vs \(exactSum)")
            #expect(abs(logSum - exactLog) <= 2e-6 * max(1, abs(exactLog)), "n \(a.count): log sum \(logSum) vs \(exactLog)")
        }
    }

    /// The 8-at-a-time full-scale run counter against a one-sample-at-a-time count, with runs
    /// that start and end inside and across vectors and across the blocks a decoder hands over.
    @Test func fullScaleRunsMatchScalarCount() {
        var x = [Float](repeating: 0.25, count: 1_000)
        for (start, length) in [(5, 1), (14, 4), (30, 9), (63, 2), (100, 17), (500, 3), (995, 5)] {
            for i in start..<(start + length) { x[i] = i % 2 == 0 ? 1 : -1 }
        }
        var expectedLongest = 0, run = 0
        var runs: [Int] = []
        for v in x {
            if abs(v) >= VoiceInput.fullScale { run += 1; expectedLongest = max(expectedLongest, run) } else { if run > 0 { runs.append(run) }; run = 0 }
        }
        for block in [1, 7, 8, 13, 64, 1_000] {
            var run = 0, longest = 0
            x.withUnsafeBufferPointer { all in
                var i = 0
                while i < all.count {
                    VoiceInput.fullScaleRuns(UnsafeBufferPointer(rebasing: all[i..<min(all.count, i + block)]), run: &run, longest: &longest)
                    i += block
                }
            }
            #expect(longest == expectedLongest, "blocks of \(block)")
            #expect(run == 5, "the run open at the end carries over (blocks of \(block))")
        }
        #expect(expectedLongest == 17 && runs.count == 6)
    }
}
