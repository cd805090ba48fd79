import Foundation

/// A frames × coefficients matrix of Float, stored row-major and contiguous.
public struct FeatureMatrix: Sendable, Equatable {
    public var frames: Int
    public var coefficients: Int
    public var values: [Float]

    public init(frames: Int, coefficients: Int, values: [Float]) {
        precondition(values.count == frames * coefficients)
        self.frames = frames
        self.coefficients = coefficients
        self.values = values
    }

    public subscript(frame: Int, coefficient: Int) -> Float {
        get { values[frame * coefficients + coefficient] }
        set { values[frame * coefficients + coefficient] = newValue }
    }

    /// One frame's coefficients.
    public func row(_ frame: Int) -> ArraySlice<Float> {
        values[(frame * coefficients)..<((frame + 1) * coefficients)]
    }
}

/// Computes MFCCs for one ``MFCCOptions``. Everything that does not depend on the audio (FFT plan,
/// window, sparse mel filters, DCT matrix, lifter) is built once in `init`; `compute` allocates
/// only its output (and, for librosa's whole-call dB clamp, the log-mel matrix), never per frame.
///
/// An extractor owns scratch buffers, so use one per thread (they are cheap: the FFT plan is
/// shared). ``MFCC/compute(_:options:)`` makes one per call and is safe from any thread.
public final class MFCCExtractor {
    public let options: MFCCOptions
    private let fft: RealFFT
    fileprivate let window: [Float]
    /// Where the window starts inside the FFT buffer (librosa centres a short window in n_fft).
    private let windowOffset: Int
    private let filters: MelFilterbank
    /// DCT-II (orthonormal) × lifter, laid out [mel band][coefficient block of 8].
    private let dctLiftered: [Float]
    /// ln(energy floor), when the options set one.
    private let logEnergyFloor: Float?
    private let frame: UnsafeMutableBufferPointer<Float>
    private let power: UnsafeMutableBufferPointer<Float>
    private let mel: UnsafeMutableBufferPointer<Float>

    public init(options: MFCCOptions) throws(VoiceError) {
        try options.validate()
        self.options = options
        fft = RealFFT(size: options.fftSize)
        window = Self.window(options.window, length: options.frameLength)
        windowOffset = options.framing == .centered || options.framing == .uncentered
            ? (options.fftSize - options.frameLength) / 2 : 0
        filters = MelFilterbank(options: options)
        let nm = options.numMels, nc = options.numCoefficients
        // DCT-II, orthonormal: row 0 scaled by √(1/N), the rest by √(2/N) (Kaldi's ComputeDctMatrix, scipy norm='ortho').
        var d = [Float](repeating: 0, count: nc * nm)
        // Unnormalised (scipy norm=None): 2·Σ x·cos(…) for every row.
        for k in 0..<nc {
            let norm = options.dctNorm == .unnormalised ? 2 : k == 0 ? (1 / Double(nm)).squareRoot() : (2 / Double(nm)).squareRoot()
            for n in 0..<nm { d[k * nm + n] = Float(norm * cos(Double.pi / Double(nm) * (Double(n) + 0.5) * Double(k))) }
        }
        let l = Double(options.lifter)
        let lifter = (0..<nc).map { i -> Float in
            guard l != 0 else { return 1 }
            let index = options.lifterStyle == .htk ? Double(i) : Double(i + 1)
            return Float(1 + l / 2 * sin(Double.pi * index / l))
        }
        let blocks = (nc + 7) / 8
        var t = [Float](repeating: 0, count: nm * blocks * 8)
        for k in 0..<nc { for n in 0..<nm { t[n * blocks * 8 + k] = d[k * nm + n] * lifter[k] } }
        dctLiftered = t
        logEnergyFloor = options.energyFloor > 0 ? logf(options.energyFloor) : nil
        frame = .allocate(capacity: options.frameLength)
        power = .allocate(capacity: options.fftSize / 2 + 1)
        mel = .allocate(capacity: nm)
    }

    deinit {
        frame.deallocate()
        power.deallocate()
        mel.deallocate()
    }

    /// Frames produced for `sampleCount` samples.
    public func frameCount(samples n: Int) -> Int {
        let o = options
        switch o.framing {
        case .snipEdges: return n < o.frameLength ? 0 : 1 + (n - o.frameLength) / o.hop
        case .centered: return n == 0 ? 0 : 1 + n / o.hop
        case .uncentered: return n < o.fftSize ? 0 : 1 + (n - o.fftSize) / o.hop
        case .padEnd: return n == 0 ? 0 : n <= o.frameLength ? 1 : 1 + (n - o.frameLength + o.hop - 1) / o.hop
        case .reflect: return (n + o.hop / 2) / o.hop
        }
    }

    /// Index in the signal of frame `t`'s first windowed sample.
    @inline(__always)
    fileprivate func frameStart(_ t: Int) -> Int {
        switch options.framing {
        case .snipEdges, .padEnd: return t &* options.hop
        case .centered: return t &* options.hop &- options.fftSize / 2 &+ windowOffset
        case .uncentered: return t &* options.hop &+ windowOffset
        case .reflect: return t &* options.hop &+ options.hop / 2 &- options.frameLength / 2
        }
    }

    /// MFCCs of mono samples in [-1, 1) at ``MFCCOptions/sampleRate``.
    public func compute(_ samples: UnsafeBufferPointer<Float>) -> FeatureMatrix {
        let o = options
        let frames = frameCount(samples: samples.count)
        let nc = o.numCoefficients, nm = o.numMels
        var out = [Float](repeating: 0, count: frames * nc)
        guard frames > 0 else { return FeatureMatrix(frames: 0, coefficients: nc, values: []) }

        // psf pre-emphasises the whole signal (scaled) before framing.
        var emphasised: [Float] = []
        if o.preemphasis != 0 && !o.preemphasisPerFrame {
            emphasised = [Float](repeating: 0, count: samples.count)
            var previous: Float = 0
            for i in 0..<samples.count {
                let v = samples[i] * o.inputScale
                emphasised[i] = i == 0 ? v : v - o.preemphasis * previous
                previous = v
            }
        }
        let source = emphasised.isEmpty ? samples : emphasised.withUnsafeBufferPointer { $0 }
        let scale: Float = emphasised.isEmpty ? o.inputScale : 1
        var melDB: [Float] = o.compression == .powerToDB ? [Float](repeating: 0, count: frames * nm) : []

        out.withUnsafeMutableBufferPointer { outBuffer in
            melDB.withUnsafeMutableBufferPointer { dbBuffer in
                window.withUnsafeBufferPointer { win in
                    for t in 0..<frames {
                        let energy = analyse(frame: t, source: source, origin: 0, scale: scale, window: win)
                        compress(into: t, db: dbBuffer)
                        if o.compression != .powerToDB {
                            cepstra(row: outBuffer.baseAddress! + t &* nc, energy: energy)
                        } else {
                            // c0 energy never applies to librosa; DCT waits for the global maximum.
                            _ = energy
                        }
                    }
                }
                if o.compression == .powerToDB {
                    finishPowerToDB(db: dbBuffer, out: outBuffer.baseAddress!, frames: frames)
                }
            }
        }
        // Keep the pre-emphasised copy alive through the loop above (`source` points into it).
        withExtendedLifetime(emphasised) {}
        return FeatureMatrix(frames: frames, coefficients: nc, values: out)
    }

    /// librosa's whole-call dB clamp (`top_db` below the maximum of every frame), then the DCT
    /// of each clamped row into `out`.
    fileprivate func finishPowerToDB(db dbBuffer: UnsafeMutableBufferPointer<Float>, out: UnsafeMutablePointer<Float>, frames: Int) {
        let o = options
        let nc = o.numCoefficients, nm = o.numMels
        var top = -Float.infinity
        for v in dbBuffer { top = max(top, v) }
        let floor = top - o.topDB
        for i in 0..<dbBuffer.count { dbBuffer[i] = max(dbBuffer[i], floor) }
        for t in 0..<frames {
            _ = UnsafeMutableBufferPointer(rebasing: mel[0..<nm])
                .initialize(from: UnsafeBufferPointer(rebasing: dbBuffer[(t * nm)..<((t + 1) * nm)]))
            cepstra(row: out + t &* nc, energy: 0)
        }
    }

    /// Frames, windows and transforms frame `t`; leaves mel energies in `mel` and returns the
    /// frame energy term for c0 (already in the log domain) when the options use one.
    /// `source[0]` is sample `origin` of the signal, and the signal ends where `source` ends.
    @inline(__always)
    fileprivate func analyse(frame t: Int, source: UnsafeBufferPointer<Float>, origin: Int, scale: Float,
                             window: UnsafeBufferPointer<Float>) -> Float {
        let o = options
        let len = o.frameLength
        let start = frameStart(t) &- origin
        let f = frame.baseAddress!
        // Copy with zeros outside the signal (centred and padded framings reach past the ends).
        let lo = max(0, -start), hi = min(len, source.count - start)
        if o.framing == .reflect && (lo > 0 || hi < len) {
            // Kaldi snip_edges=false: reflect about either end, -1 → 0, n → n-1 (repeatedly for
            // a signal shorter than a frame). Only the first and last frame or two get here.
            let n = source.count
            for i in 0..<len {
                var s = start &+ i
                while s < 0 || s >= n { s = s < 0 ? -s - 1 : 2 * n - 1 - s }
                f[i] = source[s] * scale
            }
        } else {
            if lo > 0 { f.initialize(repeating: 0, count: min(lo, len)) }
            if hi > lo {
                let src = source.baseAddress! + (start + lo)
                if scale == 1 {
                    (f + lo).update(from: src, count: hi - lo)
                } else {
                    for i in 0..<(hi - lo) { f[lo &+ i] = src[i] * scale }
                }
            }
            if hi < len { (f + max(hi, 0)).initialize(repeating: 0, count: len - max(hi, 0)) }
        }

        if o.removeDCOffset {
            let mean = VectorKernels.sum(f, len) / Float(len)
            for i in 0..<len { f[i] -= mean }
        }
        var energy: Float = 0
        if o.energy == .kaldiRaw {
            energy = logf(max(VectorKernels.dot(f, f, len), Float.ulpOfOne))
        }
        if o.preemphasis != 0 && o.preemphasisPerFrame {
            var i = len - 1
            while i > 0 {
                f[i] -= o.preemphasis * f[i &- 1]
                i &-= 1
            }
            f[0] -= o.preemphasis * f[0]
        }
        let input = fft.input.baseAddress! + windowOffset
        for i in 0..<len { input[i] = f[i] * window[i] }
        if o.energy == .kaldiWindowed {
            energy = logf(max(VectorKernels.dot(input, input, len), Float.ulpOfOne))
        }
        fft.powerSpectrum(into: power.baseAddress!, scale: o.powerScale)
        if o.energy == .psfSpectrum {
            let e = VectorKernels.sum(power.baseAddress!, o.fftSize / 2 + 1)
            energy = logf(e == 0 ? Float(Double.ulpOfOne) : e)
        }
        filters.apply(power.baseAddress!, into: mel.baseAddress!)
        return energy
    }

    /// Log-compresses `mel` in place (or into the dB matrix for librosa).
    @inline(__always)
    fileprivate func compress(into t: Int, db: UnsafeMutableBufferPointer<Float>) {
        let nm = options.numMels
        switch options.compression {
        case .logFloorEpsilon:
            for m in 0..<nm { mel[m] = max(mel[m], Float.ulpOfOne) }
            FastLog.lnInPlace(mel.baseAddress!, count: nm)
        case .logReplaceZeros:
            for m in 0..<nm where mel[m] == 0 { mel[m] = Float(Double.ulpOfOne) }
            FastLog.lnInPlace(mel.baseAddress!, count: nm)
        case .powerToDB:
            powerToDB(row: db.baseAddress! + t &* nm)
        }
    }

    /// librosa's power_to_db of `mel` into `row` (before the whole-call clamp).
    @inline(__always)
    fileprivate func powerToDB(row: UnsafeMutablePointer<Float>) {
        let nm = options.numMels
        for m in 0..<nm { row[m] = max(mel[m], 1e-10) }
        FastLog.lnInPlace(row, count: nm)
        // 10·log10(x) = (10 / ln 10)·ln(x)
        for m in 0..<nm { row[m] *= 4.342_944_8 }
    }

    /// DCT of `mel` into `row`, then lifter, then the energy term in c0.
    ///
    /// The DCT matrix is stored mel-major with the lifter folded in and each mel row padded to a
    /// multiple of 8 coefficients, so the product is one SIMD multiply-add per mel band and
    /// coefficient block rather than a serial dot product per coefficient.
    @inline(__always)
    fileprivate func cepstra(row: UnsafeMutablePointer<Float>, energy: Float) {
        let nm = options.numMels, nc = options.numCoefficients
        let blocks = (nc + 7) / 8
        dctLiftered.withUnsafeBufferPointer { d in
            let raw = UnsafeRawPointer(d.baseAddress!)
            for b in 0..<blocks {
                var acc = SIMD8<Float>()
                for n in 0..<nm {
                    acc += raw.loadUnaligned(fromByteOffset: ((n &* blocks &+ b) &* 8) &* 4, as: SIMD8<Float>.self) * mel[n]
                }
                for j in 0..<min(8, nc &- b &* 8) { row[b &* 8 &+ j] = acc[j] }
            }
        }
        if options.energy != .none { row[0] = logEnergyFloor.map { max(energy, $0) } ?? energy }
    }

    static func window(_ type: MFCCOptions.Window, length n: Int) -> [Float] {
        let a = 2 * Double.pi / Double(max(n - 1, 1))
        return (0..<n).map { i in
            let x = Double(i)
            switch type {
            case .povey: return Float(pow(0.5 - 0.5 * cos(a * x), 0.85))
            case .hamming: return Float(0.54 - 0.46 * cos(a * x))
            case .hanning: return Float(0.5 - 0.5 * cos(a * x))
            case .hann: return Float(0.5 - 0.5 * cos(2 * Double.pi * x / Double(n)))
            case .rectangular: return 1
            }
        }
    }
}

/// MFCCs of a signal fed block by block (any block sizes), equal bit for bit to
/// ``MFCCExtractor/compute(_:)`` of the whole signal: every frame goes through the same code on
/// the same samples, computed as soon as the samples it covers have arrived.
///
/// Memory: the samples the next frame still needs (one input chunk plus a frame), the output
/// rows, and for the librosa profile the log-mel rows, because librosa clamps its dB at `top_db`
/// below the maximum of the whole call and the DCT must wait for it. Output storage is reserved
/// from the expected length once (bounded, a header can claim anything) and grows only if the
/// signal runs longer.
public final class MFCCStream {
    public let extractor: MFCCExtractor
    /// The samples the next frames need (pre-emphasised and scaled for psf).
    private let window: SampleWindow
    private var nextFrame = 0
    /// psf pre-emphasises the whole signal before framing: the previous scaled sample.
    private var previous: Float = 0
    private let wholeSignalEmphasis: Bool
    private var values: [Float] = []
    private var melDB: [Float] = []
    private let row: UnsafeMutableBufferPointer<Float>

    /// Output reservations stop at this many floats (64 MB); longer signals grow by doubling.
    static let reservationLimit = 1 << 24
    private static let chunk = 1 << 16

    public init(extractor: MFCCExtractor, expectedSamples: Int = 0) {
        self.extractor = extractor
        let o = extractor.options
        wholeSignalEmphasis = o.preemphasis != 0 && !o.preemphasisPerFrame
        window = SampleWindow(capacity: Self.chunk + 2 * max(o.fftSize, o.frameLength) + o.hop)
        row = .allocate(capacity: max(1, o.numCoefficients))
        reset(expectedSamples: expectedSamples)
    }

    public convenience init(options: MFCCOptions, expectedSamples: Int = 0) throws(VoiceError) {
        self.init(extractor: try MFCCExtractor(options: options), expectedSamples: expectedSamples)
    }

    deinit { row.deallocate() }

    /// Starts a new signal (the extractor and buffers are reused).
    public func reset(expectedSamples: Int = 0) {
        window.reset()
        nextFrame = 0
        previous = 0
        let o = extractor.options
        let frames = extractor.frameCount(samples: max(0, expectedSamples)) + 2
        values = []
        values.reserveCapacity(min(frames * o.numCoefficients, Self.reservationLimit))
        melDB = []
        if o.compression == .powerToDB { melDB.reserveCapacity(min(frames * o.numMels, Self.reservationLimit)) }
    }

    /// Adds the next samples of the signal (mono, [-1, 1), at the options' sample rate).
    public func add(_ block: UnsafeBufferPointer<Float>) {
        let o = extractor.options
        var offset = 0
        while offset < block.count {
            let space = window.freeSpace
            let take = min(block.count - offset, space.count)
            let dst = space.baseAddress!
            let src = block.baseAddress! + offset
            if wholeSignalEmphasis {
                // The same arithmetic as the whole-signal pass in `compute`.
                let first = window.received
                for i in 0..<take {
                    let v = src[i] * o.inputScale
                    dst[i] = first &+ i == 0 ? v : v - o.preemphasis * previous
                    previous = v
                }
            } else {
                dst.update(from: src, count: take)
            }
            window.didAppend(take)
            offset += take
            computeFrames(final: false)
            // Keep from the next frame's first sample.
            window.discard(before: extractor.frameStart(nextFrame))
        }
    }

    /// Computes the last frames (zeros past the end, as the whole-signal call does) and returns
    /// the matrix; call ``reset(expectedSamples:)`` before the next signal.
    public func finish() -> FeatureMatrix {
        let o = extractor.options
        let nc = o.numCoefficients
        computeFrames(final: true)
        let frames = nextFrame
        guard frames > 0 else { return FeatureMatrix(frames: 0, coefficients: nc, values: []) }
        if o.compression == .powerToDB {
            values = [Float](repeating: 0, count: frames * nc)
            values.withUnsafeMutableBufferPointer { out in
                melDB.withUnsafeMutableBufferPointer { db in
                    extractor.finishPowerToDB(db: db, out: out.baseAddress!, frames: frames)
                }
            }
            melDB = []
        }
        let m = FeatureMatrix(frames: frames, coefficients: nc, values: values)
        values = []
        return m
    }

    private func computeFrames(final: Bool) {
        let o = extractor.options
        let received = window.received
        let available = extractor.frameCount(samples: received)
        guard nextFrame < available else { return }
        let nc = o.numCoefficients, nm = o.numMels
        let scale: Float = wholeSignalEmphasis ? 1 : o.inputScale
        let source = window.samples, origin = window.origin
        extractor.window.withUnsafeBufferPointer { win in
            while nextFrame < available {
                if !final && extractor.frameStart(nextFrame) &+ o.frameLength > received { break }
                let energy = extractor.analyse(frame: nextFrame, source: source, origin: origin, scale: scale, window: win)
                if o.compression == .powerToDB {
                    let base = melDB.count
                    melDB.append(contentsOf: repeatElement(0, count: nm))
                    melDB.withUnsafeMutableBufferPointer { db in extractor.powerToDB(row: db.baseAddress! + base) }
                } else {
                    extractor.compress(into: 0, db: UnsafeMutableBufferPointer(start: nil, count: 0))
                    extractor.cepstra(row: row.baseAddress!, energy: energy)
                    values.append(contentsOf: UnsafeBufferPointer(rebasing: row[0..<nc]))
                }
                nextFrame += 1
            }
        }
    }
}

/// One-call MFCC computation.
public enum MFCC {
    /// MFCCs of `samples` (mono, [-1, 1), at the options' sample rate). Thread-safe: builds its own
    /// extractor (FFT plans are shared and created once per size).
    public static func compute(_ samples: [Float], options: MFCCOptions = .kaldi()) throws(VoiceError) -> FeatureMatrix {
        let extractor = try MFCCExtractor(options: options)
        return samples.withUnsafeBufferPointer { extractor.compute($0) }
    }
}
