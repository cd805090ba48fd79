import Foundation
import KordantAPI
import Logging

/// What a flush did.
public struct FlushReport: Sendable, Equatable {
    public var delivered = 0
    /// Delivered items the server already had (a retry of an earlier, unconfirmed delivery).
    public var duplicates = 0
    /// Items that became dead in this flush, with the reason.
    public var dead: [Int64: String] = [:]
    /// Items still pending afterwards.
    public var pending = 0
    /// Why the flush stopped before the end of the queue (server unreachable, token refused).
    public var stoppedBecause: String?
    public var complete: Bool { pending == 0 && stoppedBecause == nil }
}

/// Delivers the outbox in FIFO order: for each submission, its uploads (each with its stored
/// Idempotency-Key, skipping those already confirmed), then the mutation with its stored
/// `clientRequestId`.
///
/// A request the server refuses (4xx other than 401/408/429) makes the item dead at once: it would
/// fail the same way again. A transient failure (no answer, 5xx after the client's own retries)
/// counts an attempt and ends the flush, keeping the order; after `maxAttempts` the item is dead.
/// A refused token ends the flush without counting: it is not the item's fault.
public struct OutboxDelivery: Sendable {
    public let outbox: Outbox
    public let client: KordantAPIClient
    /// Failed flush attempts before an item becomes dead.
    public var maxAttempts: Int
    let logger: Logger

    /// Failed flush attempts before a seal bundle is dead, whatever `maxAttempts` says (the
    /// Birthmark design's limit: a bundle that five flushes could not deliver is given up).
    public static let sealAttempts = 5

    public init(outbox: Outbox, client: KordantAPIClient, maxAttempts: Int = 10, logger: Logger = Logger(label: "kordant.outbox")) {
        self.outbox = outbox; self.client = client; self.maxAttempts = maxAttempts; self.logger = logger
    }

    public func flush() async throws -> FlushReport {
        var report = FlushReport()
        try outbox.recoverAbandoned()
        var last: Int64 = 0
        while let item = try outbox.claimNext(after: last) {
            last = item.id
            do {
                let result = try await deliver(item)
                try outbox.markDelivered(item.id, result: result)
                report.delivered += 1
                if result.status == "duplicate" { report.duplicates += 1 }
                logger.debug("outbox item \(item.id) delivered as \(result.id) (\(result.status))")
            } catch let error as ClientError {
                if error.isAuthentication {
                    _ = try outbox.markFailed(item.id, error: error.description, dead: false, maxAttempts: .max, countAttempt: false)
                    report.stoppedBecause = error.description
                    break
                }
                let limit = item.kind == .seal ? min(maxAttempts, Self.sealAttempts) : maxAttempts
                let state = try outbox.markFailed(item.id, error: error.description, dead: !error.isTransient, maxAttempts: limit)
                if state == .dead { report.dead[item.id] = error.description }
                logger.debug("outbox item \(item.id): \(state.rawValue) after \(error)")
                if error.isTransient {
                    report.stoppedBecause = error.description
                    break
                }
            } catch is CancellationError {
                _ = try outbox.markFailed(item.id, error: "cancelled", dead: false, maxAttempts: .max, countAttempt: false)
                throw CancellationError()
            }
        }
        try outbox.removeUnreferencedBlobs()
        report.pending = (try outbox.counts())[.pending] ?? 0
        return report
    }

    private func deliver(_ item: Outbox.Claimed) async throws -> SubmissionResult {
        var uploadIds: [String] = []
        for a in item.attachments {
            if let id = a.uploadId { uploadIds.append(id); continue }
            let data = try outbox.blob(sha: a.sha)
            let result = try await client.upload(data, sha256: a.sha, kind: a.kind, filename: a.filename, contentType: a.contentType,
                                                 idempotencyKey: a.key)
            try outbox.recordUpload(submission: item.id, position: a.position, uploadId: result.id)
            uploadIds.append(result.id)
        }
        switch item.kind {
        case .enrollment:
            guard var input = try? JSONDecoder().decode(CreateEnrollmentInput.self, from: item.payload) else {
                throw ClientError.local("outbox item \(item.id) has a damaged payload")
            }
            for i in input.samples.indices { input.samples[i].uploadId = uploadIds[i] }
            return try await client.createEnrollment(input)
        case .scan:
            guard var input = try? JSONDecoder().decode(SubmitScanInput.self, from: item.payload) else {
                throw ClientError.local("outbox item \(item.id) has a damaged payload")
            }
            input.uploadId = uploadIds[0]
            return try await client.submitScan(input)
        case .seal:
            guard let bundle = try? JSONDecoder().decode(SealBundle.self, from: item.payload) else {
                throw ClientError.local("outbox item \(item.id) has a damaged payload")
            }
            return try await client.submitSeal(bundle)
        case .analysis:
            guard let input = try? JSONDecoder().decode(SubmitAnalysisInput.self, from: item.payload) else {
                throw ClientError.local("outbox item \(item.id) has a damaged payload")
            }
            return try await client.submitAnalysis(input)
        }
    }
}
