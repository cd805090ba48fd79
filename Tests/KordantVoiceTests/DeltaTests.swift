import Foundation
import KordantVoice
import Testing
import KordantTestSupport

@Suite struct DeltaTests {
    static func matrix(_ file: String) -> FeatureMatrix {
        let m = Fixtures.npy(file)
        return FeatureMatrix(frames: m.rows, coefficients: m.cols, values: m.values)
    }

    static func expectClose(_ ours: FeatureMatrix, _ ref: FeatureMatrix, _ label: String) {
        #expect(ours.frames == ref.frames && ours.coefficients == ref.coefficients, "\(label)")
        guard ours.values.count == ref.values.count else { return }
        let scale = ref.values.map(abs).max()!
        let worst = zip(ours.values, ref.values).map { abs($0 - $1) }.max()!
        #expect(worst <= 1e-3 * scale, "\(label): \(worst) vs scale \(scale)")
    }

    static let clips = ["speech_us_male", "speech_gb_female", "noisy_pink_snr10"]

    /// Kaldi add-deltas (order 2, window 2) over the kaldi-native-fbank MFCCs.
    @Test(arguments: clips)
    func kaldiDeltas(clip: String) {
        let base = Self.matrix("\(clip).kaldi.A.npy")
        let ours = Deltas.kaldi(base)
        Self.expectClose(ours, Self.matrix("\(clip).kaldi-deltas.A.npy"), "kaldi deltas \(clip)")
        // Kaldi's first order equals python_speech_features.delta(N=2), computed by that library.
        let psf = Self.matrix("\(clip).psf-delta.A.npy")
        let first = FeatureMatrix(frames: ours.frames, coefficients: 13,
                                  values: (0..<ours.frames).flatMap { ours.row($0).dropFirst(13).prefix(13) })
        Self.expectClose(first, psf, "first order vs psf.delta \(clip)")
    }

    /// librosa.feature.delta orders 1 and 2 (width 9, mode interp) over librosa's MFCCs.
    @Test(arguments: clips)
    func librosaDeltas(clip: String) throws {
        let base = Self.matrix("\(clip).librosa.A.npy")
        for order in [1, 2] {
            Self.expectClose(try Deltas.librosa(base, order: order), Self.matrix("\(clip).librosa-delta\(order).A.npy"),
                             "librosa delta\(order) \(clip)")
        }
    }

    @Test func librosaDeltasNeedAFullWindow() {
        let tiny = FeatureMatrix(frames: 5, coefficients: 2, values: [Float](repeating: 1, count: 10))
        #expect(throws: VoiceError.self) { try Deltas.librosa(tiny) }
    }

    @Test func cmvnCentresAndScales() {
        let m = FeatureMatrix(frames: 4, coefficients: 2, values: [1, 5, 2, 5, 3, 5, 6, 5])
        let n = CMVN.apply(m)
        let (mean, std) = CMVN.statistics(n)
        #expect(abs(mean[0]) < 1e-6 && abs(std[0] - 1) < 1e-6)
        #expect(n.values[1] == 0 && n.values[3] == 0)   // constant column: centred, not divided by 0
        let centred = CMVN.apply(m, variance: false)
        #expect(centred.values[0] == -2 && centred.values[6] == 3)
    }
}

@Suite struct FeatureExportTests {
    /// Our .npy writer and the fixtures' reader (the format numpy.save wrote) agree.
    @Test func npyRoundTrips() throws {
        let m = FeatureMatrix(frames: 3, coefficients: 2, values: [1, -2.5, 3e-8, 4, .pi, -0])
        let path = TestScratch.directory.appendingPathComponent("m-\(getpid()).npy").path
        try m.npy().write(to: URL(fileURLWithPath: path))
        let dir = URL(fileURLWithPath: path).deletingLastPathComponent().path
        let relative = String(repeating: "../", count: Fixtures.mfccDirectory.split(separator: "/").count) + String(dir.dropFirst()) + "/" + URL(fileURLWithPath: path).lastPathComponent
        let back = Fixtures.npy(relative)
        #expect(back.rows == 3 && back.cols == 2 && back.values == m.values)
        #expect(m.npy().count % 64 == 24)   // header padded to 64; 6 floats of data follow
    }

    @Test func csvHasHeaderAndRows() {
        let m = FeatureMatrix(frames: 2, coefficients: 2, values: [1, 2.5, -3, 0.125])
        #expect(m.csv() == "c0,c1\n1.0,2.5\n-3.0,0.125\n")
    }
}
