import Foundation
import KordantVoice
import Testing

/// Reading an enrollment file (`kordant verify --enrollment`, `batch verify`): what the fuzz
/// target FuzzEnrollment checks, pinned down case by case.
@Suite struct StoredEnrollmentTests {
    static let voiceprint = (0..<SpeakerEncoder.embeddingSize).map { Double($0 % 7 - 3) / 16 }

    static func file(_ values: [Any], model: String = SpeakerEncoder.modelName) throws -> Data {
        try JSONSerialization.data(withJSONObject: ["pass": true, "voiceprint": values, "model": model])
    }

    @Test func aCurrentEnrollmentIsRead() throws {
        let stored = try StoredEnrollment.parse(Self.file(Self.voiceprint))
        #expect(stored.voiceprint == Self.voiceprint.map(Float.init) && stored.model == SpeakerEncoder.modelName)
    }

    /// Regression (found while writing FuzzEnrollment's invariant): 1e39 is a valid JSON number
    /// and a finite Double, but as a Float it is infinity, and every score against it was NaN.
    @Test func aValueBeyondFloatRangeIsRefused() throws {
        for huge in [1e39, -3.5e38, 1e308] {
            var values = Self.voiceprint
            values[17] = huge
            let data = try Self.file(values)
            #expect(throws: StoredEnrollment.Problem.self) { try StoredEnrollment.parse(data) }
            do throws(StoredEnrollment.Problem) { _ = try StoredEnrollment.parse(data) } catch {
                #expect(error.code == "bad_enrollment" && error.message.contains("not a finite number"))
            }
        }
    }

    @Test func otherShapesGetTheirCodes() throws {
        func code(_ data: Data) -> String? {
            do { _ = try StoredEnrollment.parse(data); return nil } catch { return error.code }
        }
        #expect(code(Data("[1, 2]".utf8)) == "bad_enrollment")
        #expect(code(Data("{\"voiceprint\": []}".utf8)) == "bad_enrollment")
        #expect(code(Data("{\"voiceprint\": [1, \"x\"]}".utf8)) == "bad_enrollment")
        #expect(code(try Self.file(Array(Self.voiceprint.prefix(26)))) == "enrollment_outdated")
        #expect(code(try Self.file(Self.voiceprint, model: "other")) == "enrollment_outdated")
        #expect(code(Data([0xFF, 0xFE, 0x00])) == "bad_enrollment")
    }
}
