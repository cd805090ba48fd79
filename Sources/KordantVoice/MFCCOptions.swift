import Foundation

/// One fully specified MFCC pipeline. The three profiles are presets of it that reproduce
/// Kaldi (kaldi-native-fbank), librosa and python_speech_features; every step is a field, so the
/// differences between the references are explicit rather than hidden in code paths.
public struct MFCCOptions: Sendable, Hashable, Codable {
    public enum Profile: String, Sendable, Codable, CaseIterable {
        case kaldi, librosa, psf
    }

    /// Where frames start and how the signal's ends are handled.
    public enum Framing: String, Sendable, Codable {
        /// Kaldi snip_edges: frames fit inside the signal, the first starts at sample 0.
        case snipEdges
        /// librosa center=True: n_fft/2 zeros on both sides, frame t centred on sample t·hop.
        case centered
        /// librosa center=False: frames start at t·hop and fit inside the signal.
        case uncentered
        /// python_speech_features: frames start at t·step; the last frame is zero-padded.
        case padEnd
        /// Kaldi snip_edges=false: round(n / shift) frames, frame t centred on t·shift + shift/2,
        /// samples past either end reflected back into the signal.
        case reflect
    }

    public enum Window: String, Sendable, Codable {
        /// Kaldi's: (0.5 − 0.5·cos(2πi/(N−1)))^0.85.
        case povey
        /// 0.54 − 0.46·cos(2πi/(N−1)).
        case hamming
        /// Symmetric Hann, 0.5 − 0.5·cos(2πi/(N−1)).
        case hanning
        /// Periodic Hann, 0.5 − 0.5·cos(2πi/N) (scipy's get_window('hann'), librosa's default).
        case hann
        case rectangular
    }

    public enum MelScale: String, Sendable, Codable {
        /// Kaldi: triangles on the HTK mel scale 1127·ln(1 + f/700), evaluated at FFT bin centres.
        case kaldi
        /// librosa htk=True: triangles in Hz between HTK-mel-spaced edges.
        case htk
        /// librosa default: Slaney's mel scale (linear below 1 kHz, log above).
        case slaney
        /// python_speech_features: HTK mel edges rounded down to integer FFT bins.
        case psfBins
    }

    public enum Compression: String, Sendable, Codable {
        /// ln(max(E, FLT_EPSILON)) (Kaldi).
        case logFloorEpsilon
        /// 10·log10(max(E, 1e-10)), then clamped at `topDB` below the maximum of the whole call
        /// (librosa.power_to_db with ref 1.0); the clamp makes it non-streamable.
        case powerToDB
        /// ln(E), with exact zeros replaced by the float64 epsilon first (python_speech_features).
        case logReplaceZeros
    }

    public enum Energy: String, Sendable, Codable {
        /// c0 stays the DCT's.
        case none
        /// Kaldi raw energy: ln(max(Σx², FLT_EPSILON)) after DC removal, before pre-emphasis.
        case kaldiRaw
        /// Kaldi raw_energy=false: the same, of the frame after pre-emphasis and the window.
        case kaldiWindowed
        /// python_speech_features: ln of the frame's power-spectrum sum (|X|²/NFFT), zeros → eps.
        case psfSpectrum
    }

    public enum Lifter: String, Sendable, Codable {
        /// 1 + L/2·sin(πi/L), i = 0… (Kaldi, HTK, python_speech_features).
        case htk
        /// 1 + L/2·sin(π(i+1)/L), i = 0… (librosa).
        case librosa
    }

    /// Scaling of the DCT-II (librosa's `norm` argument of `feature.mfcc`).
    public enum DCTNorm: String, Sendable, Codable {
        /// Orthonormal: c0 × √(1/N), the others × √(2/N) (Kaldi, python_speech_features, librosa's default).
        case ortho
        /// scipy's unnormalised DCT-II, 2·Σ x·cos(…) (librosa norm=None).
        case unnormalised = "none"
    }

    /// The sample scale the reference sees: python_speech_features and Kaldi users feed 16-bit
    /// integer values, librosa users floats in [-1, 1). Only c0 / the energy term depend on it.
    public enum InputScale: String, Sendable, Codable, CaseIterable {
        case int16
        case float

        public var factor: Float { self == .int16 ? 32768 : 1 }
    }

    public var profile: Profile
    public var sampleRate: Int
    /// Samples per analysis window.
    public var frameLength: Int
    /// Samples between frame starts.
    public var hop: Int
    /// FFT size; the window sits at the start (Kaldi, psf) or centred (librosa) in it.
    public var fftSize: Int
    public var framing: Framing
    public var window: Window
    /// Kaldi and psf see 16-bit-scaled samples (x·32768); librosa sees x.
    public var inputScale: Float
    public var removeDCOffset: Bool
    /// Pre-emphasis coefficient (0: off).
    public var preemphasis: Float
    /// true: per frame after DC removal (Kaldi); false: over the whole signal (psf).
    public var preemphasisPerFrame: Bool
    /// Power spectrum scale: 1 (Kaldi, librosa) or 1/NFFT (psf).
    public var powerScale: Float
    public var melScale: MelScale
    public var numMels: Int
    public var lowFrequency: Double
    /// Upper edge in Hz; ≤ 0 means Nyquist + value (Kaldi's convention).
    public var highFrequency: Double
    /// Slaney area normalisation of the filters (librosa norm='slaney').
    public var slaneyNorm: Bool
    public var compression: Compression
    public var topDB: Float
    public var numCoefficients: Int
    /// Cepstral lifter L (0: off).
    public var lifter: Float
    public var lifterStyle: Lifter
    public var energy: Energy
    /// Kaldi energy_floor: with an energy term, c0 is at least ln(energyFloor) (0: off).
    public var energyFloor: Float = 0
    public var dctNorm: DCTNorm = .ortho

    /// The engine's default: Kaldi MfccOptions with dither 0.
    ///
    /// The parameters are Kaldi's `compute-mfcc-feats` options (`--num-mel-bins`, `--num-ceps`,
    /// `--low-freq`, `--high-freq` (≤ 0: offset from Nyquist), `--window-type`, `--use-energy`,
    /// `--raw-energy`, `--energy-floor`, `--cepstral-lifter`, `--frame-length`, `--frame-shift`,
    /// `--snip-edges`, `--preemphasis-coefficient`, `--remove-dc-offset`).
    public static func kaldi(
        numBins: Int = 23, numCeps: Int = 13, lowFreq: Double = 20, highFreq: Double = 0,
        window: Window = .povey, useEnergy: Bool = true, cepstralLifter: Float = 22,
        frameLengthMs: Double = 25, frameShiftMs: Double = 10, sampleRate: Int = 16_000,
        rawEnergy: Bool = true, energyFloor: Float = 0, snipEdges: Bool = true,
        preemphasis: Float = 0.97, removeDCOffset: Bool = true, inputScale: InputScale = .int16
    ) -> MFCCOptions {
        // kaldi-native-fbank truncates, in float: static_cast<int32_t>(samp_freq * 0.001f * frame_length_ms).
        func samples(_ ms: Double) -> Int {
            let product = Float(sampleRate) * Float(0.001) * Float(ms)
            return product.isFinite && product > 0 ? Int(min(product, 1e9).rounded(.towardZero)) : 0
        }
        let length = samples(frameLengthMs)
        var fft = 1
        while fft < length { fft <<= 1 }
        var o = MFCCOptions(
            profile: .kaldi, sampleRate: sampleRate, frameLength: length,
            hop: samples(frameShiftMs), fftSize: fft, framing: snipEdges ? .snipEdges : .reflect,
            window: window, inputScale: inputScale.factor, removeDCOffset: removeDCOffset, preemphasis: preemphasis,
            preemphasisPerFrame: true, powerScale: 1, melScale: .kaldi, numMels: numBins, lowFrequency: lowFreq,
            highFrequency: highFreq, slaneyNorm: false, compression: .logFloorEpsilon, topDB: 0, numCoefficients: numCeps,
            lifter: cepstralLifter, lifterStyle: .htk, energy: !useEnergy ? .none : rawEnergy ? .kaldiRaw : .kaldiWindowed)
        o.energyFloor = energyFloor
        return o
    }

    /// librosa.feature.mfcc, parameter for parameter (window 'hann', power 2, ref 1.0, amin 1e-10;
    /// `center` pads with zeros as librosa ≥ 0.10 does). `norm` is the mel filters' Slaney area
    /// normalisation (`librosa.filters.mel(norm='slaney')`); `dctNorm` is `feature.mfcc`'s own
    /// `norm` ('ortho' or None).
    public static func librosa(
        nMFCC: Int = 20, nFFT: Int = 2048, hopLength: Int? = nil, winLength: Int? = nil, nMels: Int = 128,
        fmin: Double = 0, fmax: Double? = nil, htk: Bool = false, center: Bool = true, norm: Bool = true,
        topDB: Float = 80, lifter: Float = 0, sampleRate: Int = 16_000, dctNorm: DCTNorm = .ortho,
        inputScale: InputScale = .float
    ) -> MFCCOptions {
        let win = winLength ?? nFFT
        var o = MFCCOptions(
            profile: .librosa, sampleRate: sampleRate, frameLength: win, hop: hopLength ?? win / 4, fftSize: nFFT,
            framing: center ? .centered : .uncentered, window: .hann, inputScale: inputScale.factor, removeDCOffset: false,
            preemphasis: 0, preemphasisPerFrame: true, powerScale: 1, melScale: htk ? .htk : .slaney, numMels: nMels,
            lowFrequency: fmin, highFrequency: fmax ?? Double(sampleRate) / 2, slaneyNorm: norm,
            compression: .powerToDB, topDB: topDB, numCoefficients: nMFCC, lifter: lifter, lifterStyle: .librosa,
            energy: .none)
        o.dctNorm = dctNorm
        return o
    }

    /// python_speech_features.mfcc (rectangular window unless `window` says otherwise).
    public static func psf(
        winlen: Double = 0.025, winstep: Double = 0.01, numcep: Int = 13, nfilt: Int = 26, nfft: Int = 512,
        lowfreq: Double = 0, highfreq: Double? = nil, preemph: Float = 0.97, ceplifter: Float = 22,
        appendEnergy: Bool = true, window: Window = .rectangular, sampleRate: Int = 16_000,
        inputScale: InputScale = .int16
    ) -> MFCCOptions {
        // psf rounds half up: int(decimal.Decimal(x).quantize(ROUND_HALF_UP)).
        func roundHalfUp(_ x: Double) -> Int { Int((x + 0.5).rounded(.down)) }
        return MFCCOptions(
            profile: .psf, sampleRate: sampleRate, frameLength: roundHalfUp(winlen * Double(sampleRate)),
            hop: roundHalfUp(winstep * Double(sampleRate)), fftSize: nfft, framing: .padEnd, window: window,
            inputScale: inputScale.factor, removeDCOffset: false, preemphasis: preemph, preemphasisPerFrame: false,
            powerScale: 1 / Float(nfft), melScale: .psfBins, numMels: nfilt, lowFrequency: lowfreq,
            highFrequency: highfreq ?? Double(sampleRate) / 2, slaneyNorm: false, compression: .logReplaceZeros,
            topDB: 0, numCoefficients: numcep, lifter: ceplifter, lifterStyle: .htk,
            energy: appendEnergy ? .psfSpectrum : .none)
    }

    /// The profile's defaults.
    public static func defaults(for profile: Profile) -> MFCCOptions {
        switch profile {
        case .kaldi: .kaldi()
        case .librosa: .librosa()
        case .psf: .psf()
        }
    }

    /// Checks the combination before any work (a bad option is a usage error, not a crash).
    public func validate() throws(VoiceError) {
        func bad(_ s: String) -> VoiceError { VoiceError(.invalidOptions, s) }
        guard sampleRate > 0 else { throw bad("sample rate must be positive") }
        guard frameLength > 0, hop > 0 else { throw bad("frame length and hop must be positive") }
        guard fftSize >= frameLength, fftSize >= 2, fftSize <= 1 << 16 else {
            throw bad("FFT size \(fftSize) must be at least the frame length \(frameLength) and at most 65536")
        }
        guard numMels >= 1, numCoefficients >= 1, numCoefficients <= numMels else {
            throw bad("need 1 ≤ coefficients (\(numCoefficients)) ≤ mel bands (\(numMels))")
        }
        let nyquist = Double(sampleRate) / 2
        let high = highFrequency > 0 ? highFrequency : nyquist + highFrequency
        guard lowFrequency >= 0, high <= nyquist + 1e-9, high > lowFrequency else {
            throw bad("mel range \(lowFrequency)–\(high) Hz must lie within 0–\(nyquist) Hz")
        }
    }

    /// The resolved upper edge in Hz.
    var resolvedHighFrequency: Double {
        highFrequency > 0 ? highFrequency : Double(sampleRate) / 2 + highFrequency
    }
}

/// A voice-processing problem with a stable code.
public struct VoiceError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Kind: String, Sendable, Codable {
        case invalidOptions = "invalid_options"
        case tooShort = "too_short_for_features"
        case noSamples = "no_samples"
    }

    public let kind: Kind
    public let detail: String

    public init(_ kind: Kind, _ detail: String) {
        self.kind = kind
        self.detail = detail
    }

    public var description: String { detail }
}
