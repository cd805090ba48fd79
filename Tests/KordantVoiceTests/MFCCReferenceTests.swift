import Foundation
import KordantVoice
import Testing

/// Our MFCCs against the reference libraries' own output: for every fixture the frame counts are
/// equal and max |ours − reference| ≤ 1e-3 × max |reference|.
@Suite struct MFCCReferenceTests {
    static let plain = Fixtures.mfcc.filter { ["kaldi", "librosa", "psf"].contains(String($0.file.split(separator: ".")[1])) }

    @Test(arguments: plain)
    func matchesReference(fixture: MFCCFixture) throws {
        let reference = Fixtures.npy(fixture.file)
        let ours = try MFCC.compute(Fixtures.audio(fixture.clip), options: Fixtures.options(profile: fixture.profile, set: fixture.set))
        #expect(ours.frames == reference.rows)
        #expect(ours.coefficients == reference.cols)
        guard ours.values.count == reference.values.count else { return }
        let scale = reference.values.map(abs).max()!
        var worst: Float = 0, at = 0
        for i in ours.values.indices where abs(ours.values[i] - reference.values[i]) > worst {
            worst = abs(ours.values[i] - reference.values[i])
            at = i
        }
        print("mfcc-fixture \(fixture.file): max |ours - reference| / max |reference| = \(worst / scale)")
        #expect(worst <= 1e-3 * scale,
                "\(fixture.file): max error \(worst) at frame \(at / ours.coefficients) coef \(at % ours.coefficients), scale \(scale)")
    }

    @Test func fixturesCoverTheRequiredCases() {
        for profile in ["kaldi", "librosa", "psf"] {
            let sets = Dictionary(grouping: Self.plain.filter { $0.profile == profile }, by: \.set)
            #expect(sets.count >= 2)
            for (_, fixtures) in sets {
                #expect(Set(fixtures.map(\.clip)).count >= 3)
                #expect(fixtures.contains { $0.clip.hasPrefix("speech_") })   // digital silence between sentences
            }
        }
    }
}

@Suite struct MFCCConcurrencyTests {
    /// Many threads computing MFCCs at once (first use plans the FFTs under the lock) give exactly
    /// the single-threaded result.
    @Test func concurrentCallsAgree() async throws {
        let x = Fixtures.audio("speech_scot_male.wav")
        let profiles: [MFCCOptions] = [.kaldi(), .librosa(), .psf(), .kaldi(numBins: 40, numCeps: 20, window: .hamming),
                                       .librosa(nFFT: 1024, hopLength: 256, nMels: 64)]
        let expected = try profiles.map { try MFCC.compute(x, options: $0) }
        try await withThrowingTaskGroup(of: (Int, FeatureMatrix).self) { group in
            for round in 0..<4 {
                for (i, o) in profiles.enumerated() {
                    group.addTask { (i, try MFCC.compute(x, options: o)) }
                    _ = round
                }
            }
            for try await (i, m) in group { #expect(m == expected[i]) }
        }
    }

    @Test func badOptionsAreErrorsNotCrashes() throws {
        #expect(throws: VoiceError.self) { try MFCC.compute([0, 0], options: .kaldi(numBins: 10, numCeps: 20)) }
        #expect(throws: VoiceError.self) { try MFCC.compute([0, 0], options: .kaldi(lowFreq: 9000)) }
        #expect(throws: VoiceError.self) { try MFCC.compute([0, 0], options: .librosa(nFFT: 256, winLength: 400)) }
        #expect(try MFCC.compute([Float](repeating: 0, count: 100)).frames == 0)   // shorter than one frame
    }
}
