import Foundation
import KordantAPI
import KordantClient
import KordantOCR
import KordantVoice

/// Engine results as backend submissions (the payloads the outbox stores).
public enum Submissions {
    /// The enrollment as `voiceprint.createEnrollment` input plus its sample files. Its
    /// `clientRequestId` is derived from the samples' content and the label, so submitting the
    /// same enrollment again is recognised as a duplicate, not recorded twice. Nil when a sample
    /// has no speech features (nothing to submit).
    public static func enrollment(_ r: EnrollmentResult, label: String?) throws -> (OutboxPayload, [OutboxFile])? {
        var samples: [EnrollmentSampleInput] = []
        var digests: [String] = []
        for s in r.samples {
            guard let f = s.features else { return nil }
            digests.append(try fileDigest(s.path))
            let q = s.quality
            samples.append(EnrollmentSampleInput(
                uploadId: "", durationMs: Int((q.durationSeconds * 1000).rounded()),
                quality: SampleQuality(pass: q.pass, reasons: q.reasons.map(\.rawValue), durationS: round6(q.durationSeconds),
                                       speechS: round6(q.speechSeconds), speechLevelDb: q.speechLevelDB.map(round6), snrDb: q.snrDB.map(round6),
                                       peakDb: round6(q.peakDB), clippedFraction: round6(q.clippedFraction)),
                features: SampleFeatureSummary(profile: f.profile, nMfcc: f.mean.count, mean: f.mean.map(round6), std: f.std.map(round6))))
        }
        let id = Digest.stableID(["enrollment", label ?? ""] + digests)
        let input = CreateEnrollmentInput(
            clientRequestId: id, label: label, samples: samples, voiceprint: r.voiceprint.map(round6),
            consistency: ConsistencySummary(consistent: r.consistency.consistent, threshold: r.consistency.threshold,
                                            inconsistent: r.consistency.inconsistent))
        let files = r.samples.map { OutboxFile(path: $0.path, kind: .voiceSample, contentType: contentType(for: $0.path)) }
        return (.enrollment(input), files)
    }

    /// One OCR'd document as `documents.submitScan` input: text of every page (form feed between
    /// pages), mean confidence, fields of the first page that has each, MRZ validity for IDs.
    public static func scan(_ d: DocumentResult) throws -> (OutboxPayload, [OutboxFile]) {
        let digest = try fileDigest(d.path)
        var fields: [String: ScanField] = [:]
        for page in d.pages {
            for (name, field) in page.fields where fields[name] == nil {
                let value: JSONValue = switch field.value {
                case .text(let s): .string(s)
                case .number(let n): .number(n)
                }
                fields[name] = ScanField(value: value, confidence: (field.confidence * 10).rounded() / 10)
            }
            if let mrz = page.mrz, fields["mrz_valid"] == nil { fields["mrz_valid"] = ScanField(value: .bool(mrz.valid), confidence: 100) }
        }
        let confidence = d.pages.isEmpty ? 0 : d.pages.map(\.meanConfidence).reduce(0, +) / Double(d.pages.count)
        let input = SubmitScanInput(
            clientRequestId: Digest.stableID(["scan", digest]), uploadId: "", kind: d.pages.first?.kind.rawValue ?? "unknown",
            text: d.pages.map(\.text).joined(separator: "\u{0C}"), confidence: min(100, max(0, (confidence * 10).rounded() / 10)),
            fields: fields)
        return (.scan(input), [OutboxFile(path: d.path, kind: .documentScan, contentType: contentType(for: d.path))])
    }

    /// One verification as `voiceprint.submitAnalysis` input, against the enrollment the server
    /// knows as `enrollmentId` (its id or its `clientRequestId`). The `clientRequestId` comes from
    /// the enrollment, the recording's content and the result, so checking the same recording again
    /// with the same outcome is a duplicate, not a second history entry. No file is sent.
    public static func analysis(_ a: VoiceAnalysis, enrollmentId: String) throws -> (OutboxPayload, [OutboxFile]) {
        let digest = try fileDigest(a.file)
        let score = round6(a.score)
        let input = SubmitAnalysisInput(
            clientRequestId: Digest.stableID(["analysis", enrollmentId, digest, a.model, a.verdict.rawValue, String(score)]),
            enrollmentId: enrollmentId, recordingSha256: digest, verdict: a.verdict.rawValue, score: score,
            sameSpeakerProbability: round6(a.sameSpeakerProbability), confidence: round6(a.confidence), reasons: a.reasons,
            warnings: a.warnings, voicedS: round6(a.voicedSeconds), model: a.model)
        return (.analysis(input), [])
    }

    static func fileDigest(_ path: String) throws -> String {
        guard let digest = Digest.sha256Hex(fileAt: path) else { throw ClientError.local("\(path): cannot read the file to submit") }
        return digest
    }

    static func round6(_ x: Double) -> Double { (x * 1_000_000).rounded() / 1_000_000 }

    /// A MIME type from the file extension (the server sniffs nothing we declare).
    public static func contentType(for path: String) -> String {
        switch (path as NSString).pathExtension.lowercased() {
        case "wav": "audio/wav"
        case "flac": "audio/flac"
        case "mp3": "audio/mpeg"
        case "ogg", "oga": "audio/ogg"
        case "aif", "aiff": "audio/aiff"
        case "png": "image/png"
        case "jpg", "jpeg": "image/jpeg"
        case "tif", "tiff": "image/tiff"
        case "bmp": "image/bmp"
        case "webp": "image/webp"
        case "pnm", "pgm", "ppm", "pbm": "image/x-portable-anymap"
        default: "application/octet-stream"
        }
    }
}
