import ArgumentParser
import KordantVoice

extension MFCCOptions.InputScale: ExpressibleByArgument {}
extension MFCCOptions.Window: ExpressibleByArgument {}

/// `kordant features` parameters, each spelled as the users of its reference library know it:
/// librosa's keyword arguments in kebab case, Kaldi's `compute-mfcc-feats` options, and
/// python_speech_features' keyword arguments. Only the parsing lives here; the library's
/// ``MFCCOptions`` presets take the values.
struct FeatureParameters: ParsableArguments {
    // MARK: librosa.feature.mfcc
    @Option(name: .customLong("n-mfcc"), help: "librosa n_mfcc (default 20).")
    var nMFCC: Int?
    @Option(name: .customLong("n-fft"), help: "librosa n_fft (default 2048).")
    var nFFT: Int?
    @Option(name: .customLong("hop-length"), help: "librosa hop_length (default win_length / 4).")
    var hopLength: Int?
    @Option(name: .customLong("win-length"), help: "librosa win_length (default n_fft).")
    var winLength: Int?
    @Option(name: .customLong("n-mels"), help: "librosa n_mels (default 128).")
    var nMels: Int?
    @Option(name: .long, help: "librosa fmin, Hz (default 0).")
    var fmin: Double?
    @Option(name: .long, help: "librosa fmax, Hz (default sr / 2).")
    var fmax: Double?
    @Flag(name: .customLong("no-center"), help: "librosa center=False: frames start at t·hop, no padding.")
    var noCenter = false
    @Flag(name: .long, help: "librosa htk=True: HTK mel scale, triangles in Hz.")
    var htk = false
    @Option(name: .long, help: "librosa feature.mfcc norm: the DCT's, ortho (default) or none.")
    var norm: DCTNormArgument?
    @Option(name: .customLong("mel-norm"), help: "librosa filters.mel norm: slaney (default) or none.")
    var melNorm: MelNormArgument?
    @Option(name: .long, help: "librosa lifter (default 0: off).")
    var lifter: Float?

    // MARK: Kaldi compute-mfcc-feats
    @Option(name: .customLong("num-ceps"), help: "Kaldi --num-ceps (default 13).")
    var numCeps: Int?
    @Option(name: .customLong("num-mel-bins"), help: "Kaldi --num-mel-bins (default 23).")
    var numMelBins: Int?
    @Option(name: .customLong("frame-length"), help: "Kaldi --frame-length, ms (default 25).")
    var frameLength: Double?
    @Option(name: .customLong("frame-shift"), help: "Kaldi --frame-shift, ms (default 10).")
    var frameShift: Double?
    @Option(name: .customLong("low-freq"), help: "Kaldi --low-freq, Hz (default 20).")
    var lowFreq: Double?
    @Option(name: .customLong("high-freq"), parsing: .unconditional,
            help: "Kaldi --high-freq, Hz; 0 or negative is an offset from Nyquist (default 0).")
    var highFreq: Double?
    @Option(name: .customLong("use-energy"), help: "Kaldi --use-energy=true|false: c0 is the frame's log energy (default true).")
    var useEnergy: KaldiBool?
    @Option(name: .customLong("raw-energy"), help: "Kaldi --raw-energy=true|false: energy before pre-emphasis and window (default true).")
    var rawEnergy: KaldiBool?
    @Option(name: .customLong("energy-floor"), help: "Kaldi --energy-floor: c0 is at least ln(this) (default 0: off).")
    var energyFloor: Float?
    @Option(name: .customLong("cepstral-lifter"), help: "Kaldi --cepstral-lifter (default 22).")
    var cepstralLifter: Float?
    @Option(name: .customLong("snip-edges"), help: "Kaldi --snip-edges=true|false: false centres frames and reflects the ends (default true).")
    var snipEdges: KaldiBool?
    @Option(name: .customLong("window-type"), help: "Kaldi --window-type: povey (default), hamming, hanning, hann, rectangular.")
    var windowType: MFCCOptions.Window?
    @Option(name: .customLong("preemphasis-coefficient"), help: "Kaldi --preemphasis-coefficient (default 0.97).")
    var preemphasisCoefficient: Float?
    @Option(name: .customLong("remove-dc-offset"), help: "Kaldi --remove-dc-offset=true|false (default true).")
    var removeDCOffset: KaldiBool?

    // MARK: python_speech_features.mfcc
    @Option(name: .long, help: "psf numcep (default 13).")
    var numcep: Int?
    @Option(name: .long, help: "psf nfilt (default 26).")
    var nfilt: Int?
    @Option(name: .long, help: "psf nfft (default 512).")
    var nfft: Int?
    @Option(name: .long, help: "psf winlen, seconds (default 0.025).")
    var winlen: Double?
    @Option(name: .long, help: "psf winstep, seconds (default 0.01).")
    var winstep: Double?
    @Option(name: .long, help: "psf lowfreq, Hz (default 0).")
    var lowfreq: Double?
    @Option(name: .long, help: "psf highfreq, Hz (default samplerate / 2).")
    var highfreq: Double?
    @Option(name: .long, help: "psf preemph (default 0.97).")
    var preemph: Float?
    @Option(name: .long, help: "psf ceplifter (default 22).")
    var ceplifter: Float?
    @Option(name: .customLong("append-energy"), help: "psf appendEnergy=true|false (default true).")
    var appendEnergy: KaldiBool?

    // MARK: All profiles
    @Option(name: .customLong("input-scale"),
            help: "The sample scale the reference is fed: int16 (Kaldi and psf default, as scipy.io.wavfile reads) or float (librosa default, as soundfile reads). Only c0 changes.")
    var inputScale: MFCCOptions.InputScale?

    enum DCTNormArgument: String, ExpressibleByArgument, CaseIterable { case ortho, unnormalised = "none" }
    enum MelNormArgument: String, ExpressibleByArgument, CaseIterable { case slaney, off = "none" }

    /// Kaldi's boolean syntax: `--use-energy=false`, `--snip-edges=true`, also 1/0.
    struct KaldiBool: ExpressibleByArgument {
        let value: Bool
        init?(argument: String) {
            switch argument.lowercased() {
            case "true", "1", "t", "yes": value = true
            case "false", "0", "f", "no": value = false
            default: return nil
            }
        }
    }

    /// Kaldi accepts a bare boolean option as `=true`; ArgumentParser options need a value, so
    /// the arguments are normalised before parsing (`--snip-edges` → `--snip-edges=true`).
    static let bareBooleans: Set<String> = ["--use-energy", "--raw-energy", "--snip-edges", "--remove-dc-offset", "--append-energy"]

    static func normalise(_ arguments: [String]) -> [String] {
        var out: [String] = []
        for (i, a) in arguments.enumerated() {
            let next = i + 1 < arguments.count ? arguments[i + 1] : nil
            if bareBooleans.contains(a), next.flatMap(KaldiBool.init(argument:)) == nil {
                out.append(a + "=true")
            } else {
                out.append(a)
            }
        }
        return out
    }

    private var librosaGiven: [String] {
        [("--n-mfcc", nMFCC != nil), ("--n-fft", nFFT != nil), ("--hop-length", hopLength != nil), ("--win-length", winLength != nil),
         ("--n-mels", nMels != nil), ("--fmin", fmin != nil), ("--fmax", fmax != nil), ("--no-center", noCenter), ("--htk", htk),
         ("--norm", norm != nil), ("--mel-norm", melNorm != nil), ("--lifter", lifter != nil)].filter(\.1).map(\.0)
    }

    private var kaldiGiven: [String] {
        [("--num-ceps", numCeps != nil), ("--num-mel-bins", numMelBins != nil), ("--frame-length", frameLength != nil),
         ("--frame-shift", frameShift != nil), ("--low-freq", lowFreq != nil), ("--high-freq", highFreq != nil),
         ("--use-energy", useEnergy != nil), ("--raw-energy", rawEnergy != nil), ("--energy-floor", energyFloor != nil),
         ("--cepstral-lifter", cepstralLifter != nil), ("--snip-edges", snipEdges != nil), ("--window-type", windowType != nil),
         ("--preemphasis-coefficient", preemphasisCoefficient != nil), ("--remove-dc-offset", removeDCOffset != nil)]
            .filter(\.1).map(\.0)
    }

    private var psfGiven: [String] {
        [("--numcep", numcep != nil), ("--nfilt", nfilt != nil), ("--nfft", nfft != nil), ("--winlen", winlen != nil),
         ("--winstep", winstep != nil), ("--lowfreq", lowfreq != nil), ("--highfreq", highfreq != nil), ("--preemph", preemph != nil),
         ("--ceplifter", ceplifter != nil), ("--append-energy", appendEnergy != nil)].filter(\.1).map(\.0)
    }

    /// The profile the options belong to: `--profile` if given (its family's options only),
    /// else the one family whose options were given, else Kaldi.
    func profile(given: MFCCOptions.Profile?) throws -> MFCCOptions.Profile {
        let families: [(MFCCOptions.Profile, [String])] = [(.kaldi, kaldiGiven), (.librosa, librosaGiven), (.psf, psfGiven)]
        if let given {
            if let (other, names) = families.first(where: { $0.0 != given && !$0.1.isEmpty }) {
                throw ValidationError("\(names.joined(separator: ", ")) \(names.count == 1 ? "is a" : "are") \(other.rawValue) option\(names.count == 1 ? "" : "s"), not \(given.rawValue)'s")
            }
            return given
        }
        let used = families.filter { !$0.1.isEmpty }
        if used.count > 1 {
            throw ValidationError("options of several profiles: " + used.map { "\($0.0.rawValue) (\($0.1.joined(separator: ", ")))" }.joined(separator: " and "))
        }
        return used.first?.0 ?? .kaldi
    }

    /// The library options for `profile`, with every given value applied.
    func options(for profile: MFCCOptions.Profile) throws -> MFCCOptions {
        let o: MFCCOptions
        switch profile {
        case .kaldi:
            o = .kaldi(numBins: numMelBins ?? 23, numCeps: numCeps ?? 13, lowFreq: lowFreq ?? 20, highFreq: highFreq ?? 0,
                       window: windowType ?? .povey, useEnergy: useEnergy?.value ?? true, cepstralLifter: cepstralLifter ?? 22,
                       frameLengthMs: frameLength ?? 25, frameShiftMs: frameShift ?? 10, rawEnergy: rawEnergy?.value ?? true,
                       energyFloor: energyFloor ?? 0, snipEdges: snipEdges?.value ?? true,
                       preemphasis: preemphasisCoefficient ?? 0.97, removeDCOffset: removeDCOffset?.value ?? true,
                       inputScale: inputScale ?? .int16)
        case .librosa:
            o = .librosa(nMFCC: nMFCC ?? 20, nFFT: nFFT ?? 2048, hopLength: hopLength, winLength: winLength, nMels: nMels ?? 128,
                         fmin: fmin ?? 0, fmax: fmax, htk: htk, center: !noCenter, norm: (melNorm ?? .slaney) == .slaney,
                         lifter: lifter ?? 0, dctNorm: norm == .unnormalised ? .unnormalised : .ortho,
                         inputScale: inputScale ?? .float)
        case .psf:
            o = .psf(winlen: winlen ?? 0.025, winstep: winstep ?? 0.01, numcep: numcep ?? 13, nfilt: nfilt ?? 26, nfft: nfft ?? 512,
                     lowfreq: lowfreq ?? 0, highfreq: highfreq, preemph: preemph ?? 0.97, ceplifter: ceplifter ?? 22,
                     appendEnergy: appendEnergy?.value ?? true, inputScale: inputScale ?? .int16)
        }
        do { try o.validate() } catch { throw ValidationError(error.detail) }
        return o
    }
}
