import Foundation

/// Time derivatives of feature matrices, as Kaldi and librosa define them.
public enum Deltas {
    /// Kaldi's add-deltas (feat/feature-functions.cc DeltaFeatures): appends `order` derivative
    /// blocks. Order i's filter is order i−1's convolved with [−N…N]/(2·Σn²); every filter is applied
    /// to the original features with the edge frames repeated. Output: frames × (order+1)·dim.
    public static func kaldi(_ m: FeatureMatrix, order: Int = 2, window: Int = 2) -> FeatureMatrix {
        precondition(order >= 0 && window >= 1)
        let denominator = Double(2 * (1...window).reduce(0) { $0 + $1 * $1 })
        let base = (-window...window).map { Double($0) / denominator }
        var scales: [[Double]] = [[1]]
        for _ in 0..<order { scales.append(convolve(scales.last!, base)) }
        let t = m.frames, d = m.coefficients, width = (order + 1) * d
        var out = [Float](repeating: 0, count: t * width)
        for f in 0..<t {
            for (i, s) in scales.enumerated() {
                let half = (s.count - 1) / 2
                for c in 0..<d {
                    var acc = 0.0
                    for (j, w) in s.enumerated() {
                        let src = min(max(f + j - half, 0), t - 1)
                        acc += w * Double(m.values[src * d + c])
                    }
                    out[f * width + i * d + c] = Float(acc)
                }
            }
        }
        return FeatureMatrix(frames: t, coefficients: width, values: out)
    }

    /// librosa.feature.delta(width:order:) along time (mode 'interp'): a Savitzky–Golay
    /// derivative of polynomial order `order` over `width` frames. At the edges 'interp' fits the
    /// polynomial to the first (last) `width` frames; since its `order`-th derivative is constant,
    /// the edge frames take the value of the first (last) full window. Returns only the derivative.
    public static func librosa(_ m: FeatureMatrix, width: Int = 9, order: Int = 1) throws(VoiceError) -> FeatureMatrix {
        guard width >= 3, width % 2 == 1 else { throw VoiceError(.invalidOptions, "delta width must be odd and ≥ 3") }
        guard order >= 1 else { throw VoiceError(.invalidOptions, "delta order must be ≥ 1") }
        guard m.frames >= width else {
            throw VoiceError(.tooShort, "librosa deltas need at least \(width) frames, got \(m.frames)")
        }
        let c = savitzkyGolay(width: width, derivative: order)
        let half = width / 2, t = m.frames, d = m.coefficients
        var out = [Float](repeating: 0, count: t * d)
        for f in half..<(t - half) {
            for k in 0..<d {
                var acc = 0.0
                for j in 0..<width { acc += c[j] * Double(m.values[(f - half + j) * d + k]) }
                out[f * d + k] = Float(acc)
            }
        }
        for f in 0..<half {
            for k in 0..<d {
                out[f * d + k] = out[half * d + k]
                out[(t - 1 - f) * d + k] = out[(t - 1 - half) * d + k]
            }
        }
        return FeatureMatrix(frames: t, coefficients: d, values: out)
    }

    /// Least-squares derivative weights: fit a polynomial of degree `derivative` to positions
    /// −h…h and take derivative!·(its coefficient of n^derivative).
    static func savitzkyGolay(width: Int, derivative p: Int) -> [Double] {
        let h = width / 2
        let positions = (-h...h).map(Double.init)
        // Normal equations (AᵀA) a = Aᵀ e_j, solved for each column j.
        let size = p + 1
        var ata = [[Double]](repeating: [Double](repeating: 0, count: size), count: size)
        for r in 0..<size { for c in 0..<size { ata[r][c] = positions.reduce(0) { $0 + pow($1, Double(r + c)) } } }
        let inverse = invert(ata)
        let factorial = (1...max(p, 1)).reduce(1.0) { $0 * Double($1) }
        return positions.map { n in
            var w = 0.0
            for c in 0..<size { w += inverse[p][c] * pow(n, Double(c)) }
            return w * factorial
        }
    }

    private static func invert(_ a: [[Double]]) -> [[Double]] {
        let n = a.count
        var m = a.enumerated().map { i, row in row + (0..<n).map { $0 == i ? 1.0 : 0.0 } }
        for col in 0..<n {
            let pivot = (col..<n).max { abs(m[$0][col]) < abs(m[$1][col]) }!
            m.swapAt(col, pivot)
            let div = m[col][col]
            for j in 0..<(2 * n) { m[col][j] /= div }
            for r in 0..<n where r != col {
                let f = m[r][col]
                for j in 0..<(2 * n) { m[r][j] -= f * m[col][j] }
            }
        }
        return m.map { Array($0[n...]) }
    }

    private static func convolve(_ a: [Double], _ b: [Double]) -> [Double] {
        var out = [Double](repeating: 0, count: a.count + b.count - 1)
        for (i, x) in a.enumerated() { for (j, y) in b.enumerated() { out[i + j] += x * y } }
        return out
    }
}

/// Cepstral mean (and variance) normalisation over all frames of a matrix.
public enum CMVN {
    /// Per-coefficient mean and standard deviation over frames.
    public static func statistics(_ m: FeatureMatrix) -> (mean: [Double], std: [Double]) {
        let d = m.coefficients
        var mean = [Double](repeating: 0, count: d), sq = [Double](repeating: 0, count: d)
        for f in 0..<m.frames {
            for c in 0..<d {
                let v = Double(m.values[f * d + c])
                mean[c] += v
                sq[c] += v * v
            }
        }
        let n = Double(max(m.frames, 1))
        for c in 0..<d { mean[c] /= n }
        let std = (0..<d).map { (max(0, sq[$0] / n - mean[$0] * mean[$0])).squareRoot() }
        return (mean, std)
    }

    /// Subtracts each coefficient's mean and (with `variance`) divides by its standard deviation
    /// (coefficients with zero variance are left centred, not divided).
    public static func apply(_ m: FeatureMatrix, variance: Bool = true) -> FeatureMatrix {
        let (mean, std) = statistics(m)
        var out = m
        let d = m.coefficients
        for f in 0..<m.frames {
            for c in 0..<d {
                var v = Double(m.values[f * d + c]) - mean[c]
                if variance && std[c] > 0 { v /= std[c] }
                out.values[f * d + c] = Float(v)
            }
        }
        return out
    }
}
