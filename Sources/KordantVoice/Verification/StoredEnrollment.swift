import Foundation

/// The part of an enrollment file (what `kordant enroll --json` or a `batch enroll` line writes)
/// that verification needs: the voiceprint and the model that made it. The file comes from the
/// user, so parsing it must refuse anything else with a reason, never trap.
public struct StoredEnrollment: Sendable, Equatable {
    public let voiceprint: [Float]
    public let model: String

    /// Why an enrollment file cannot be used. `code` is stable: `bad_enrollment` or `enrollment_outdated`.
    public struct Problem: Error, Sendable, Equatable, CustomStringConvertible {
        public let code: String
        public let message: String
        public var description: String { message }
    }

    /// Reads the JSON bytes of an enrollment file.
    public static func parse(_ data: Data) throws(Problem) -> StoredEnrollment {
        func bad(_ message: String, _ code: String = "bad_enrollment") -> Problem { Problem(code: code, message: message) }
        guard let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] else {
            throw bad("not an enrollment (expected the JSON object `kordant enroll --json` prints)")
        }
        guard let values = object["voiceprint"] as? [Double], !values.isEmpty else { throw bad("the enrollment has no voiceprint (did it pass?)") }
        guard let model = object["model"] as? String, values.count == SpeakerEncoder.embeddingSize else {
            throw bad("the enrollment was made by an older engine (MFCC voiceprint of \(values.count) values), which cannot verify a voice; enroll again with `kordant enroll`", "enrollment_outdated")
        }
        guard model == SpeakerEncoder.modelName else {
            throw bad("the enrollment's voiceprint comes from model \(model), this engine uses \(SpeakerEncoder.modelName); enroll again", "enrollment_outdated")
        }
        // A value beyond Float's range would become infinity and poison every score with NaN.
        guard values.allSatisfy({ $0.isFinite && abs($0) <= Double(Float.greatestFiniteMagnitude) }) else {
            throw bad("the enrollment's voiceprint holds a value that is not a finite number")
        }
        return StoredEnrollment(voiceprint: values.map(Float.init), model: model)
    }
}
