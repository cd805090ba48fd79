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
