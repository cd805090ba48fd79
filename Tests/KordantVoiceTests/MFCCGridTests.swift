import Foundation
import KordantAudio
import KordantVoice
import Testing

/// Tests/Fixtures/mfcc-grid: one clip through kaldi-native-fbank, librosa and
/// python_speech_features over a grid of their parameters (scripts/make-mfcc-fixtures --grid).
struct MFCCGridFixture: Decodable, Sendable, CustomStringConvertible {
    let file: String
    let profile: String
    let name: String
    let frames: Int
    let coefficients: Int
    let params: [String: GridValue]
    let cli: [String]
    var description: String { file }

    /// A JSON parameter value (number, bool, string or null).
    enum GridValue: Decodable, Sendable {
        case number(Double), bool(Bool), string(String), null
        init(from decoder: any Decoder) throws {
            let c = try decoder.singleValueContainer()
            if c.decodeNil() { self = .null } else if let b = try? c.decode(Bool.self) { self = .bool(b) }
            else if let d = try? c.decode(Double.self) { self = .number(d) } else { self = .string(try c.decode(String.self)) }
        }
        var double: Double? { if case .number(let d) = self { d } else { nil } }
        var bool: Bool? { if case .bool(let b) = self { b } else { nil } }
        var string: String? { if case .string(let s) = self { s } else { nil } }
    }

    /// The library options for these reference parameters (the same names the reference takes).
    var options: MFCCOptions {
        func d(_ k: String) -> Double? { params[k]?.double }
        func i(_ k: String) -> Int? { d(k).map { Int($0) } }
        func f(_ k: String) -> Float? { d(k).map { Float($0) } }
        let scale = params["input_scale"]?.string.flatMap(MFCCOptions.InputScale.init(rawValue:))
        switch profile {
        case "kaldi":
            return .kaldi(numBins: i("num_bins") ?? 23, numCeps: i("num_ceps") ?? 13, lowFreq: d("low_freq") ?? 20,
                          highFreq: d("high_freq") ?? 0,
                          window: params["window_type"]?.string.flatMap(MFCCOptions.Window.init(rawValue:)) ?? .povey,
                          useEnergy: params["use_energy"]?.bool ?? true, cepstralLifter: f("cepstral_lifter") ?? 22,
                          frameLengthMs: d("frame_length_ms") ?? 25, frameShiftMs: d("frame_shift_ms") ?? 10,
                          rawEnergy: params["raw_energy"]?.bool ?? true, energyFloor: f("energy_floor") ?? 0,
                          snipEdges: params["snip_edges"]?.bool ?? true, preemphasis: f("preemph_coeff") ?? 0.97,
                          removeDCOffset: params["remove_dc_offset"]?.bool ?? true, inputScale: scale ?? .int16)
        case "librosa":
            let melNorm: Bool = if case .null = params["mel_norm"] { false } else { true }
            let dctNorm: MFCCOptions.DCTNorm = if case .null = params["norm"] { .unnormalised } else { .ortho }
            return .librosa(nMFCC: i("n_mfcc") ?? 20, nFFT: i("n_fft") ?? 2048, hopLength: i("hop_length"), winLength: i("win_length"),
                            nMels: i("n_mels") ?? 128, fmin: d("fmin") ?? 0, fmax: d("fmax"), htk: params["htk"]?.bool ?? false,
                            center: params["center"]?.bool ?? true, norm: melNorm, lifter: f("lifter") ?? 0, dctNorm: dctNorm,
                            inputScale: scale ?? .float)
        default:
            return .psf(winlen: d("winlen") ?? 0.025, winstep: d("winstep") ?? 0.01, numcep: i("numcep") ?? 13, nfilt: i("nfilt") ?? 26,
                        nfft: i("nfft") ?? 512, lowfreq: d("lowfreq") ?? 0, highfreq: d("highfreq"), preemph: f("preemph") ?? 0.97,
                        ceplifter: f("ceplifter") ?? 22, appendEnergy: params["appendEnergy"]?.bool ?? true, inputScale: scale ?? .int16)
        }
    }
}

enum GridFixtures {
    static let directory = Fixtures.root.appendingPathComponent("Tests/Fixtures/mfcc-grid").path
    static let clip = directory + "/clip.wav"

    static let all: [MFCCGridFixture] = {
        struct Manifest: Decodable { let fixtures: [MFCCGridFixture] }
        let data = try! Data(contentsOf: URL(fileURLWithPath: directory + "/manifest.json"))
        return try! JSONDecoder().decode(Manifest.self, from: data).fixtures
    }()

    /// max |ours − reference| / max |reference|, and where.
    static func relativeError(_ ours: [Float], _ reference: [Float], coefficients: Int) -> (error: Float, frame: Int, coefficient: Int) {
        let scale = reference.map(abs).max() ?? 1
        var worst: Float = 0, at = 0
        for i in ours.indices where abs(ours[i] - reference[i]) > worst {
            worst = abs(ours[i] - reference[i])
            at = i
        }
        return (worst / max(scale, .leastNormalMagnitude), at / coefficients, at % coefficients)
    }
}

@Suite struct MFCCGridTests {
    /// Every grid point within 1e-4 of the reference's largest magnitude, with equal frame counts.
    @Test(arguments: GridFixtures.all)
    func matchesReferenceOnTheGrid(fixture: MFCCGridFixture) throws {
        let reference = Fixtures.npy("../mfcc-grid/" + fixture.file)
        let samples = try AudioDecoder.load(path: GridFixtures.clip).samples
        let ours = try MFCC.compute(samples, options: fixture.options)
        #expect(ours.frames == reference.rows && ours.coefficients == reference.cols, "\(ours.frames)×\(ours.coefficients)")
        guard ours.values.count == reference.values.count else { return }
        let (error, frame, coefficient) = GridFixtures.relativeError(ours.values, reference.values, coefficients: ours.coefficients)
        print("mfcc-grid \(fixture.file): max |ours - reference| / max |reference| = \(error)")
        #expect(error <= 1e-4, "\(fixture.file): relative error \(error) at frame \(frame) coefficient \(coefficient)")
    }

    /// The grid varies every parameter the CLI exposes, for each library, beyond the defaults.
    @Test func gridCoversEveryParameter() {
        let covered = Dictionary(grouping: GridFixtures.all, by: \.profile).mapValues { Set($0.flatMap(\.params.keys)) }
        #expect(covered["kaldi"]?.isSuperset(of: [
            "num_ceps", "num_bins", "frame_length_ms", "frame_shift_ms", "low_freq", "high_freq", "use_energy", "raw_energy",
            "cepstral_lifter", "snip_edges", "energy_floor", "window_type", "preemph_coeff", "remove_dc_offset", "input_scale",
        ]) == true)
        #expect(covered["librosa"]?.isSuperset(of: [
            "n_mfcc", "n_fft", "hop_length", "win_length", "n_mels", "fmin", "fmax", "center", "htk", "norm", "mel_norm", "lifter",
            "input_scale",
        ]) == true)
        #expect(covered["psf"]?.isSuperset(of: [
            "numcep", "nfilt", "nfft", "winlen", "winstep", "lowfreq", "highfreq", "preemph", "ceplifter", "appendEnergy", "input_scale",
        ]) == true)
        for profile in ["kaldi", "librosa", "psf"] {
            #expect(GridFixtures.all.filter { $0.profile == profile }.count >= 4)
        }
    }
}
