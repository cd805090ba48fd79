import Foundation
import GRDB
import KordantAPI

/// The server's state: uploads (metadata; bytes live in the uploads folder), enrollments and
/// scans, in one SQLite file (WAL). Deduplication is by unique indexes, so two racing requests
/// with one key cannot both insert.
final class Store: Sendable {
    let db: DatabasePool
    let uploadsDirectory: URL

    init(path: String, uploadsDirectory: URL) throws {
        try FileManager.default.createDirectory(at: uploadsDirectory, withIntermediateDirectories: true)
        self.uploadsDirectory = uploadsDirectory
        var config = Configuration()
        config.busyMode = .timeout(10)
        db = try DatabasePool(path: path, configuration: config)
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.execute(sql: """
                CREATE TABLE upload (
                    seq INTEGER PRIMARY KEY AUTOINCREMENT,
                    id TEXT NOT NULL UNIQUE,
                    user TEXT NOT NULL,
                    idempotency_key TEXT NOT NULL,
                    sha256 TEXT NOT NULL,
                    bytes INTEGER NOT NULL,
                    content_type TEXT NOT NULL,
                    kind TEXT NOT NULL,
                    created_at TEXT NOT NULL,
                    UNIQUE (user, idempotency_key));
                CREATE TABLE enrollment (
                    seq INTEGER PRIMARY KEY AUTOINCREMENT,
                    id TEXT NOT NULL UNIQUE,
                    user TEXT NOT NULL,
                    client_request_id TEXT NOT NULL,
                    payload_sha256 TEXT NOT NULL,
                    label TEXT,
                    samples INTEGER NOT NULL,
                    consistent INTEGER NOT NULL,
                    payload TEXT NOT NULL,
                    created_at TEXT NOT NULL,
                    UNIQUE (user, client_request_id));
                CREATE TABLE scan (
                    seq INTEGER PRIMARY KEY AUTOINCREMENT,
                    id TEXT NOT NULL UNIQUE,
                    user TEXT NOT NULL,
                    client_request_id TEXT NOT NULL,
                    payload_sha256 TEXT NOT NULL,
                    upload_id TEXT NOT NULL,
                    kind TEXT NOT NULL,
                    payload TEXT NOT NULL,
                    created_at TEXT NOT NULL,
                    UNIQUE (user, client_request_id));
                """)
        }
        Self.registerSealMigration(&migrator)
        migrator.registerMigration("analysis") { db in
            try db.execute(sql: """
                CREATE TABLE analysis (
                    seq INTEGER PRIMARY KEY AUTOINCREMENT,
                    id TEXT NOT NULL UNIQUE,
                    user TEXT NOT NULL,
                    client_request_id TEXT NOT NULL,
                    payload_sha256 TEXT NOT NULL,
                    enrollment_id TEXT NOT NULL REFERENCES enrollment(id),
                    payload TEXT NOT NULL,
                    created_at TEXT NOT NULL,
                    UNIQUE (user, client_request_id));
                CREATE INDEX analysis_enrollment ON analysis (enrollment_id, seq);
                """)
        }
        try migrator.migrate(db)
    }

    static func newID(_ prefix: String) -> String {
        prefix + "_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "").prefix(20)
    }

    static func now() -> String {
        ISO8601DateFormatter().string(from: Date())
    }

    struct UploadRow: Sendable {
        var id, sha256, contentType, kind: String
        var bytes: Int
    }

    func upload(user: String, key: String) throws -> UploadRow? {
        try db.read { db in
            try Row.fetchOne(db, sql: "SELECT id, sha256, bytes, content_type, kind FROM upload WHERE user = ? AND idempotency_key = ?",
                             arguments: [user, key]).map(Self.uploadRow)
        }
    }

    func upload(user: String, id: String) throws -> UploadRow? {
        try db.read { db in
            try Row.fetchOne(db, sql: "SELECT id, sha256, bytes, content_type, kind FROM upload WHERE user = ? AND id = ?",
                             arguments: [user, id]).map(Self.uploadRow)
        }
    }

    private static func uploadRow(_ r: Row) -> UploadRow {
        UploadRow(id: r["id"], sha256: r["sha256"], contentType: r["content_type"], kind: r["kind"], bytes: r["bytes"])
    }

    /// Stores the bytes (content-addressed, written to a temporary file and renamed, so a crash
    /// leaves no half file under the final name) and inserts the row unless the key already has one.
    /// Returns the row for the key and whether it was created now.
    func insertUpload(user: String, key: String, data: Data, sha256: String, contentType: String, kind: String) throws -> (UploadRow, Bool) {
        let final = uploadsDirectory.appendingPathComponent(sha256)
        if !FileManager.default.fileExists(atPath: final.path) {
            let tmp = uploadsDirectory.appendingPathComponent(".\(sha256).\(UUID().uuidString).tmp")
            try data.write(to: tmp)
            let fd = open(tmp.path, O_RDONLY)
            if fd >= 0 { fsync(fd); close(fd) }
            if rename(tmp.path, final.path) != 0 { try? FileManager.default.removeItem(at: tmp) }
        }
        return try db.write { db in
            if let existing = try Row.fetchOne(db, sql: "SELECT id, sha256, bytes, content_type, kind FROM upload WHERE user = ? AND idempotency_key = ?",
                                               arguments: [user, key]) {
                return (Self.uploadRow(existing), false)
            }
            let row = UploadRow(id: Self.newID("upl"), sha256: sha256, contentType: contentType, kind: kind, bytes: data.count)
            try db.execute(sql: """
                INSERT INTO upload (id, user, idempotency_key, sha256, bytes, content_type, kind, created_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                """, arguments: [row.id, user, key, sha256, data.count, contentType, kind, Self.now()])
            return (row, true)
        }
    }

    enum InsertOutcome { case created(String), duplicate(String), conflict }

    func insertEnrollment(user: String, input: CreateEnrollmentInput, payload: Data) throws -> InsertOutcome {
        try insertOnce(table: "enrollment", prefix: "enr", user: user, clientRequestId: input.clientRequestId, payload: payload,
                       columns: ["label": input.label, "samples": input.samples.count, "consistent": input.consistency.consistent])
    }

    func insertScan(user: String, input: SubmitScanInput, payload: Data) throws -> InsertOutcome {
        try insertOnce(table: "scan", prefix: "scn", user: user, clientRequestId: input.clientRequestId, payload: payload,
                       columns: ["upload_id": input.uploadId, "kind": input.kind])
    }

    /// The server id of a user's enrollment named by its id or its `clientRequestId`.
    func enrollmentID(user: String, reference: String) throws -> String? {
        try db.read { db in
            try String.fetchOne(db, sql: "SELECT id FROM enrollment WHERE user = ? AND (id = ? OR client_request_id = ?)",
                                arguments: [user, reference, reference])
        }
    }

    func insertAnalysis(user: String, input: SubmitAnalysisInput, enrollmentID: String, payload: Data) throws -> InsertOutcome {
        try insertOnce(table: "analysis", prefix: "ana", user: user, clientRequestId: input.clientRequestId, payload: payload,
                       columns: ["enrollment_id": enrollmentID])
    }

    /// An enrollment's analyses in the order they arrived; the cursor is the last row's sequence number.
    func analyses(enrollmentID: String, limit: Int, after cursor: Int64?) throws -> AnalysisList {
        try db.read { db in
            let rows = try Row.fetchAll(db, sql: """
                SELECT seq, id, client_request_id, enrollment_id, payload, created_at FROM analysis
                WHERE enrollment_id = ? AND seq > ? ORDER BY seq LIMIT ?
                """, arguments: [enrollmentID, cursor ?? 0, limit + 1])
            let items = try rows.prefix(limit).map { r -> AnalysisSummary in
                let a = try JSONDecoder().decode(SubmitAnalysisInput.self, from: Data((r["payload"] as String).utf8))
                return AnalysisSummary(id: r["id"], clientRequestId: r["client_request_id"], enrollmentId: r["enrollment_id"],
                                       recordingSha256: a.recordingSha256, verdict: a.verdict, score: a.score, confidence: a.confidence,
                                       reasons: a.reasons, warnings: a.warnings, model: a.model, createdAt: r["created_at"])
            }
            let next: String? = rows.count > limit ? String(rows[limit - 1]["seq"] as Int64) : nil
            return AnalysisList(items: Array(items), nextCursor: next)
        }
    }

    /// Inserts a mutation's row unless its `clientRequestId` is known: the same payload again is a
    /// duplicate (the answer to a retry), another payload under the same id a conflict.
    private func insertOnce(table: String, prefix: String, user: String, clientRequestId: String, payload: Data,
                            columns: [String: (any DatabaseValueConvertible)?]) throws -> InsertOutcome {
        let digest = Digest.sha256Hex(payload)
        return try db.write { db in
            if let r = try Row.fetchOne(db, sql: "SELECT id, payload_sha256 FROM \(table) WHERE user = ? AND client_request_id = ?",
                                        arguments: [user, clientRequestId]) {
                return r["payload_sha256"] as String == digest ? .duplicate(r["id"]) : .conflict
            }
            let id = Self.newID(prefix)
            let names = ["id", "user", "client_request_id", "payload_sha256", "payload", "created_at"] + columns.keys
            let values: [(any DatabaseValueConvertible)?] = [id, user, clientRequestId, digest, String(decoding: payload, as: UTF8.self),
                                                             Self.now()] + Array(columns.values)
            try db.execute(sql: "INSERT INTO \(table) (\(names.joined(separator: ", "))) VALUES (\(names.map { _ in "?" }.joined(separator: ", ")))",
                           arguments: StatementArguments(values))
            return .created(id)
        }
    }

    /// Enrollments of a user in creation order; the cursor is the last row's sequence number.
    func enrollments(user: String, limit: Int, after cursor: Int64?) throws -> EnrollmentList {
        try db.read { db in
            let rows = try Row.fetchAll(db, sql: """
                SELECT seq, id, client_request_id, label, samples, consistent, created_at FROM enrollment
                WHERE user = ? AND seq > ? ORDER BY seq LIMIT ?
                """, arguments: [user, cursor ?? 0, limit + 1])
            let items = rows.prefix(limit).map {
                EnrollmentSummary(id: $0["id"], clientRequestId: $0["client_request_id"], label: $0["label"], samples: $0["samples"],
                                  consistent: $0["consistent"], createdAt: $0["created_at"])
            }
            let next: String? = rows.count > limit ? String(rows[limit - 1]["seq"] as Int64) : nil
            return EnrollmentList(items: Array(items), nextCursor: next)
        }
    }
}
