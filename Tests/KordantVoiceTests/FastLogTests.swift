import Foundation
@testable import KordantVoice
import Testing

@Suite struct FastLogTests {
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
}
