import Foundation

/// Procedure names of the Kordant backend's tRPC router.
public enum Procedure {
    public static let userMe = "user.me"
    public static let createEnrollment = "voiceprint.createEnrollment"
    public static let listEnrollments = "voiceprint.listEnrollments"
    public static let submitAnalysis = "voiceprint.submitAnalysis"
    public static let listAnalyses = "voiceprint.listAnalyses"
    public static let submitScan = "documents.submitScan"
}

/// `user.me` → the signed-in user.
public struct User: Codable, Sendable, Equatable {
    public var id: String
    public var email: String
    public var name: String
    public init(id: String, email: String, name: String) { self.id = id; self.email = email; self.name = name }
}

/// The quality verdict of one enrollment sample as the backend stores it.
public struct SampleQuality: Codable, Sendable, Equatable {
    public var pass: Bool
    public var reasons: [String]
    public var durationS: Double
    public var speechS: Double
    public var speechLevelDb: Double?
    public var snrDb: Double?
    public var peakDb: Double
    public var clippedFraction: Double
    public init(pass: Bool, reasons: [String], durationS: Double, speechS: Double, speechLevelDb: Double?, snrDb: Double?,
                peakDb: Double, clippedFraction: Double) {
        self.pass = pass; self.reasons = reasons; self.durationS = durationS; self.speechS = speechS
        self.speechLevelDb = speechLevelDb; self.snrDb = snrDb; self.peakDb = peakDb; self.clippedFraction = clippedFraction
    }
}

/// MFCC statistics of one sample over its speech frames.
public struct SampleFeatureSummary: Codable, Sendable, Equatable {
    public var profile: String
    public var nMfcc: Int
    public var mean: [Double]
    public var std: [Double]
    public init(profile: String, nMfcc: Int, mean: [Double], std: [Double]) {
        self.profile = profile; self.nMfcc = nMfcc; self.mean = mean; self.std = std
    }
}

/// One sample of an enrollment: its upload and what the engine measured.
public struct EnrollmentSampleInput: Codable, Sendable, Equatable {
    public var uploadId: String
    public var durationMs: Int
    public var quality: SampleQuality
    public var features: SampleFeatureSummary
    public init(uploadId: String, durationMs: Int, quality: SampleQuality, features: SampleFeatureSummary) {
        self.uploadId = uploadId; self.durationMs = durationMs; self.quality = quality; self.features = features
    }
}

/// Agreement between the samples of one enrollment.
public struct ConsistencySummary: Codable, Sendable, Equatable {
    public var consistent: Bool
    public var threshold: Double
    /// Sample positions that agree with no other sample.
    public var inconsistent: [Int]
    public init(consistent: Bool, threshold: Double, inconsistent: [Int]) {
        self.consistent = consistent; self.threshold = threshold; self.inconsistent = inconsistent
    }
}

/// `voiceprint.createEnrollment` input.
public struct CreateEnrollmentInput: Codable, Sendable, Equatable {
    /// Chosen once per logical submission and sent on every retry: the server's deduplication key.
    public var clientRequestId: String
    public var label: String?
    public var samples: [EnrollmentSampleInput]
    public var voiceprint: [Double]
    public var consistency: ConsistencySummary
    public init(clientRequestId: String, label: String?, samples: [EnrollmentSampleInput], voiceprint: [Double],
                consistency: ConsistencySummary) {
        self.clientRequestId = clientRequestId; self.label = label; self.samples = samples
        self.voiceprint = voiceprint; self.consistency = consistency
    }
}

/// Result of the two mutations: `created` the first time, `duplicate` for a repeated `clientRequestId`.
public struct SubmissionResult: Codable, Sendable, Equatable {
    public var id: String
    public var status: String
    public init(id: String, status: String) { self.id = id; self.status = status }
}

/// One row of `voiceprint.listEnrollments`.
public struct EnrollmentSummary: Codable, Sendable, Equatable {
    public var id: String
    public var clientRequestId: String
    public var label: String?
    public var samples: Int
    public var consistent: Bool
    public var createdAt: String
    public init(id: String, clientRequestId: String, label: String?, samples: Int, consistent: Bool, createdAt: String) {
        self.id = id; self.clientRequestId = clientRequestId; self.label = label; self.samples = samples
        self.consistent = consistent; self.createdAt = createdAt
    }
}

/// `voiceprint.listEnrollments` input (optional paging).
public struct ListEnrollmentsInput: Codable, Sendable, Equatable {
    public var limit: Int?
    public var cursor: String?
    public init(limit: Int? = nil, cursor: String? = nil) { self.limit = limit; self.cursor = cursor }
}

/// `voiceprint.listEnrollments` output.
public struct EnrollmentList: Codable, Sendable, Equatable {
    public var items: [EnrollmentSummary]
    public var nextCursor: String?
    public init(items: [EnrollmentSummary], nextCursor: String?) { self.items = items; self.nextCursor = nextCursor }
}

/// `voiceprint.submitAnalysis` input: one recording checked against an enrollment (what the
/// VoicePrint screen lists in the enrollment's analysis history). The recording itself is not
/// sent, only its SHA-256.
public struct SubmitAnalysisInput: Codable, Sendable, Equatable {
    public var clientRequestId: String
    /// The enrollment: the server's id (`enr_…`) or the `clientRequestId` it was created with.
    public var enrollmentId: String
    public var recordingSha256: String
    /// `match`, `no_match` or `uncertain`.
    public var verdict: String
    public var score: Double
    public var sameSpeakerProbability: Double
    public var confidence: Double
    public var reasons: [String]
    public var warnings: [String]
    public var voicedS: Double
    public var model: String
    public init(clientRequestId: String, enrollmentId: String, recordingSha256: String, verdict: String, score: Double,
                sameSpeakerProbability: Double, confidence: Double, reasons: [String], warnings: [String], voicedS: Double, model: String) {
        self.clientRequestId = clientRequestId; self.enrollmentId = enrollmentId; self.recordingSha256 = recordingSha256
        self.verdict = verdict; self.score = score; self.sameSpeakerProbability = sameSpeakerProbability; self.confidence = confidence
        self.reasons = reasons; self.warnings = warnings; self.voicedS = voicedS; self.model = model
    }
}

/// `voiceprint.listAnalyses` input: one enrollment's history (by either of its ids), oldest first.
public struct ListAnalysesInput: Codable, Sendable, Equatable {
    public var enrollmentId: String
    public var limit: Int?
    public var cursor: String?
    public init(enrollmentId: String, limit: Int? = nil, cursor: String? = nil) {
        self.enrollmentId = enrollmentId; self.limit = limit; self.cursor = cursor
    }
}

/// One row of `voiceprint.listAnalyses`.
public struct AnalysisSummary: Codable, Sendable, Equatable {
    public var id: String
    public var clientRequestId: String
    /// The server's enrollment id.
    public var enrollmentId: String
    public var recordingSha256: String
    public var verdict: String
    public var score: Double
    public var confidence: Double
    public var reasons: [String]
    public var warnings: [String]
    public var model: String
    public var createdAt: String
    public init(id: String, clientRequestId: String, enrollmentId: String, recordingSha256: String, verdict: String, score: Double,
                confidence: Double, reasons: [String], warnings: [String], model: String, createdAt: String) {
        self.id = id; self.clientRequestId = clientRequestId; self.enrollmentId = enrollmentId; self.recordingSha256 = recordingSha256
        self.verdict = verdict; self.score = score; self.confidence = confidence; self.reasons = reasons; self.warnings = warnings
        self.model = model; self.createdAt = createdAt
    }
}

/// `voiceprint.listAnalyses` output.
public struct AnalysisList: Codable, Sendable, Equatable {
    public var items: [AnalysisSummary]
    public var nextCursor: String?
    public init(items: [AnalysisSummary], nextCursor: String?) { self.items = items; self.nextCursor = nextCursor }
}

/// One extracted document field.
public struct ScanField: Codable, Sendable, Equatable {
    /// String, number (amounts) or ISO 8601 date string.
    public var value: JSONValue
    public var confidence: Double
    public init(value: JSONValue, confidence: Double) { self.value = value; self.confidence = confidence }
}

/// `documents.submitScan` input.
public struct SubmitScanInput: Codable, Sendable, Equatable {
    public var clientRequestId: String
    public var uploadId: String
    /// `deed`, `id`, `optout` or `unknown`.
    public var kind: String
    public var text: String
    /// Mean word confidence, 0–100.
    public var confidence: Double
    public var fields: [String: ScanField]
    public init(clientRequestId: String, uploadId: String, kind: String, text: String, confidence: Double,
                fields: [String: ScanField]) {
        self.clientRequestId = clientRequestId; self.uploadId = uploadId; self.kind = kind; self.text = text
        self.confidence = confidence; self.fields = fields
    }
}

/// What `POST /api/upload` stores a file as.
public enum UploadKind: String, Codable, Sendable, CaseIterable {
    case voiceSample = "voice_sample"
    case documentScan = "document_scan"
}

/// `POST /api/upload` → 201.
public struct UploadResult: Codable, Sendable, Equatable {
    public var id: String
    public var sha256: String
    public var bytes: Int
    public var contentType: String
    public init(id: String, sha256: String, bytes: Int, contentType: String) {
        self.id = id; self.sha256 = sha256; self.bytes = bytes; self.contentType = contentType
    }
}
