import Foundation

/// Triangular mel filters stored sparse: each filter is a run of weights starting at an FFT bin.
struct MelFilterbank: Sendable {
    /// First FFT bin of each filter.
    let starts: [Int]
    /// Offset of each filter's weights in ``weights`` (count + 1 entries).
    let offsets: [Int]
    let weights: [Float]

    var count: Int { starts.count }

    init(options o: MFCCOptions) {
        let bins = o.fftSize / 2 + 1
        let dense: [[Float]]
        switch o.melScale {
        case .kaldi: dense = Self.kaldi(o)
        case .htk, .slaney: dense = Self.librosa(o, htk: o.melScale == .htk, bins: bins)
        case .psfBins: dense = Self.psf(o, bins: bins)
        }
        var starts: [Int] = [], offsets: [Int] = [0], weights: [Float] = []
        for row in dense {
            let first = row.firstIndex { $0 != 0 } ?? 0
            let last = row.lastIndex { $0 != 0 } ?? -1
            starts.append(first)
            if last >= first { weights.append(contentsOf: row[first...last]) }
            offsets.append(weights.count)
        }
        self.starts = starts
        self.offsets = offsets
        self.weights = weights
    }

    /// mel[m] = Σ_k w[m][k]·power[k].
    @inline(__always)
    func apply(_ power: UnsafePointer<Float>, into mel: UnsafeMutablePointer<Float>) {
        weights.withUnsafeBufferPointer { w in
            for m in 0..<starts.count {
                let base = offsets[m]
                mel[m] = VectorKernels.dot(w.baseAddress! + base, power + starts[m], offsets[m + 1] - base)
            }
        }
    }

    /// Kaldi's MelBanks (float arithmetic, as kaldi-native-fbank), over bins 0 ..< fftSize/2.
    private static func kaldi(_ o: MFCCOptions) -> [[Float]] {
        func mel(_ f: Float) -> Float { 1127 * logf(1 + f / 700) }
        let fftBins = o.fftSize / 2
        let binWidth = Float(o.sampleRate) / Float(o.fftSize)
        let low = mel(Float(o.lowFrequency)), high = mel(Float(o.resolvedHighFrequency))
        let delta = (high - low) / Float(o.numMels + 1)
        return (0..<o.numMels).map { b in
            let left = low + Float(b) * delta, center = low + Float(b + 1) * delta, right = low + Float(b + 2) * delta
            var row = [Float](repeating: 0, count: o.fftSize / 2 + 1)
            for i in 0..<fftBins {
                let m = mel(binWidth * Float(i))
                if m > left && m < right {
                    row[i] = m <= center ? (m - left) / (center - left) : (right - m) / (right - center)
                }
            }
            return row
        }
    }

    /// librosa.filters.mel (float64 arithmetic, stored as float32 as librosa does).
    private static func librosa(_ o: MFCCOptions, htk: Bool, bins: Int) -> [[Float]] {
        let sr = Double(o.sampleRate)
        let lo = hzToMel(o.lowFrequency, htk: htk), hi = hzToMel(o.resolvedHighFrequency, htk: htk)
        let edges = (0..<(o.numMels + 2)).map { melToHz(lo + (hi - lo) * Double($0) / Double(o.numMels + 1), htk: htk) }
        let freqs = (0..<bins).map { Double($0) * sr / Double(o.fftSize) }
        return (0..<o.numMels).map { i in
            let enorm = o.slaneyNorm ? 2 / (edges[i + 2] - edges[i]) : 1
            return freqs.map { f in
                let lower = (f - edges[i]) / (edges[i + 1] - edges[i])
                let upper = (edges[i + 2] - f) / (edges[i + 2] - edges[i + 1])
                return Float(max(0, min(lower, upper)) * enorm)
            }
        }
    }

    /// python_speech_features.get_filterbanks: HTK mel edges floored to integer bins.
    private static func psf(_ o: MFCCOptions, bins: Int) -> [[Float]] {
        func mel(_ hz: Double) -> Double { 2595 * log10(1 + hz / 700) }
        func hz(_ m: Double) -> Double { 700 * (pow(10, m / 2595) - 1) }
        let lo = mel(o.lowFrequency), hi = mel(o.resolvedHighFrequency)
        let edge = (0..<(o.numMels + 2)).map { j -> Int in
            Int((Double(o.fftSize + 1) * hz(lo + (hi - lo) * Double(j) / Double(o.numMels + 1)) / Double(o.sampleRate)).rounded(.down))
        }
        return (0..<o.numMels).map { j in
            var row = [Float](repeating: 0, count: bins)
            for i in edge[j]..<max(edge[j], edge[j + 1]) where i < bins {
                row[i] = Float(Double(i - edge[j]) / Double(edge[j + 1] - edge[j]))
            }
            for i in edge[j + 1]..<max(edge[j + 1], edge[j + 2]) where i < bins {
                row[i] = Float(Double(edge[j + 2] - i) / Double(edge[j + 2] - edge[j + 1]))
            }
            return row
        }
    }

    static func hzToMel(_ f: Double, htk: Bool) -> Double {
        if htk { return 2595 * log10(1 + f / 700) }
        let fsp = 200.0 / 3, minLogHz = 1000.0, minLogMel = minLogHz / fsp, logstep = log(6.4) / 27
        return f >= minLogHz ? minLogMel + log(f / minLogHz) / logstep : f / fsp
    }

    static func melToHz(_ m: Double, htk: Bool) -> Double {
        if htk { return 700 * (pow(10, m / 2595) - 1) }
        let fsp = 200.0 / 3, minLogHz = 1000.0, minLogMel = minLogHz / fsp, logstep = log(6.4) / 27
        return m >= minLogMel ? minLogHz * exp(logstep * (m - minLogMel)) : fsp * m
    }
}
