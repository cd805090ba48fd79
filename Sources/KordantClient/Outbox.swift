import Foundation
import GRDB
import KordantAPI

/// A submission waiting in, or delivered from, the outbox.
public struct OutboxItem: Sendable, Equatable {
    public enum State: String, Sendable, CaseIterable, Codable {
        /// Waiting for delivery.
        case pending
        /// Being delivered by a live process (a dead process's items return to pending).
        case inflight
        case delivered
        /// Gave up: refused by the server, or out of attempts. Stays until retried or purged.
        case dead
    }
    public enum Kind: String, Sendable, Codable { case enrollment, scan, seal, analysis }

    public var id: Int64
    public var kind: Kind
    public var clientRequestId: String
    public var state: State
    public var attempts: Int
    public var lastError: String?
    /// The server's id and status (`created` / `duplicate`) once delivered.
    public var resultId: String?
    public var resultStatus: String?
    /// Uploads still to send / in all.
    public var uploadsPending: Int
    public var uploads: Int
    /// File names of the attachments (for `outbox list`).
    public var files: [String]
    public var createdAt: Date
    public var updatedAt: Date
}

/// A file to upload as part of a submission.
public struct OutboxFile: Sendable {
    public var path: String
    public var kind: UploadKind
    public var contentType: String
    public init(path: String, kind: UploadKind, contentType: String) { self.path = path; self.kind = kind; self.contentType = contentType }
}

/// The mutation of a submission; upload ids are filled in at delivery, in file order.
public enum OutboxPayload: Sendable {
    /// `samples[i].uploadId` is set from file i.
    case enrollment(CreateEnrollmentInput)
    /// `uploadId` is set from the one file.
    case scan(SubmitScanInput)
    /// A Birthmark bundle for `POST /api/v1/submit`; no files (only the file's hash leaves the device).
    case seal(SealBundle)
    /// A verification result; no files (only the recording's hash leaves the device).
    case analysis(SubmitAnalysisInput)

    var clientRequestId: String {
        switch self {
        case .enrollment(let e): e.clientRequestId
        case .scan(let s): s.clientRequestId
        case .seal(let b): Digest.stableID(["seal", b.digest])
        case .analysis(let a): a.clientRequestId
        }
    }
}

/// The durable outbox: submissions (uploads plus the mutation that refers to them) are written
/// here, with their files copied in, before any network call, and leave only when the server has
/// confirmed them. SQLite in WAL mode; ids give FIFO order; every key the server deduplicates on
/// (`clientRequestId`, each upload's `Idempotency-Key`) is chosen at enqueue time and stored, so a
/// retry after any crash repeats the same request. Safe to use from several processes.
public final class Outbox: Sendable {
    let db: DatabasePool
    let blobs: URL
    /// Inflight items whose process died (or that are older than this) go back to pending.
    public static let leaseSeconds: TimeInterval = 15 * 60
    /// Wall-clock time for the timestamps stored with items and the lease (they are compared
    /// across processes, so not a monotonic clock); injectable so the lease can be tested.
    let now: @Sendable () -> Date

    /// - Parameter now: the wall clock; tests pass a fixed or advancing one.
    public init(home: KordantHome, now: @escaping @Sendable () -> Date = { Date() }) throws {
        self.now = now
        try home.prepare()
        blobs = home.blobs
        try FileManager.default.createDirectory(at: blobs, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        var config = Configuration()
        config.busyMode = .timeout(30)
        config.prepareDatabase { db in try db.execute(sql: "PRAGMA foreign_keys = ON; PRAGMA synchronous = FULL") }
        do {
            db = try DatabasePool(path: home.outboxDatabase.path, configuration: config)
        } catch {
            throw ClientError.local("\(home.outboxDatabase.path): cannot open the outbox: \(error)")
        }
        chmod(home.outboxDatabase.path, 0o600)
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.execute(sql: """
                CREATE TABLE submission (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    kind TEXT NOT NULL,
                    client_request_id TEXT NOT NULL UNIQUE,
                    payload BLOB NOT NULL,
                    state TEXT NOT NULL DEFAULT 'pending',
                    owner INTEGER,
                    attempts INTEGER NOT NULL DEFAULT 0,
                    last_error TEXT,
                    result_id TEXT,
                    result_status TEXT,
                    created_at REAL NOT NULL,
                    updated_at REAL NOT NULL);
                CREATE INDEX submission_state ON submission (state, id);
                CREATE TABLE attachment (
                    submission_id INTEGER NOT NULL REFERENCES submission(id) ON DELETE CASCADE,
                    position INTEGER NOT NULL,
                    kind TEXT NOT NULL,
                    sha256 TEXT NOT NULL,
                    bytes INTEGER NOT NULL,
                    content_type TEXT NOT NULL,
                    filename TEXT NOT NULL,
                    idempotency_key TEXT NOT NULL,
                    upload_id TEXT,
                    PRIMARY KEY (submission_id, position));
                """)
        }
        try migrator.migrate(db)
        try recoverAbandoned()
    }

    public enum EnqueueOutcome: Sendable, Equatable {
        case queued(Int64)
        /// The same `clientRequestId` is already in the outbox (in this state): nothing added.
        case alreadyQueued(Int64, OutboxItem.State)
    }

    /// Copies the files in and records the submission, atomically. Nothing has touched the
    /// network when this returns.
    public func enqueue(_ payload: OutboxPayload, files: [OutboxFile]) throws -> EnqueueOutcome {
        switch payload {
        case .enrollment(let e) where e.samples.count != files.count:
            throw ClientError.local("an enrollment of \(e.samples.count) samples needs \(e.samples.count) files, got \(files.count)")
        case .scan where files.count != 1:
            throw ClientError.local("a scan needs exactly one file")
        case .seal where !files.isEmpty, .analysis where !files.isEmpty:
            throw ClientError.local("a seal or an analysis sends no files")
        default: break
        }
        let requestId = payload.clientRequestId
        if let existing = try db.read({ db in
            try Row.fetchOne(db, sql: "SELECT id, state FROM submission WHERE client_request_id = ?", arguments: [requestId])
        }) {
            return .alreadyQueued(existing["id"], OutboxItem.State(rawValue: existing["state"]) ?? .pending)
        }
        // Files first (content-addressed, fsynced, renamed into place), then the row that names them.
        var stored: [(sha: String, bytes: Int)] = []
        for f in files {
            guard let data = FileManager.default.contents(atPath: f.path) else { throw ClientError.local("\(f.path): cannot read the file to upload") }
            let sha = Digest.sha256Hex(data)
            try storeBlob(data, sha: sha)
            stored.append((sha, data.count))
        }
        let (kind, input): (OutboxItem.Kind, Data) = switch payload {
        case .enrollment(let e): (.enrollment, JSONValue(encoding: e)!.data)
        case .scan(let s): (.scan, JSONValue(encoding: s)!.data)
        case .seal(let b): (.seal, JSONValue(encoding: b)!.data)
        case .analysis(let a): (.analysis, JSONValue(encoding: a)!.data)
        }
        let stamp = now().timeIntervalSince1970
        return try db.write { db in
            if let row = try Row.fetchOne(db, sql: "SELECT id, state FROM submission WHERE client_request_id = ?", arguments: [requestId]) {
                return .alreadyQueued(row["id"], OutboxItem.State(rawValue: row["state"]) ?? .pending)
            }
            try db.execute(sql: """
                INSERT INTO submission (kind, client_request_id, payload, created_at, updated_at) VALUES (?, ?, ?, ?, ?)
                """, arguments: [kind.rawValue, requestId, input, stamp, stamp])
            let id = db.lastInsertedRowID
            for (i, f) in files.enumerated() {
                try db.execute(sql: """
                    INSERT INTO attachment (submission_id, position, kind, sha256, bytes, content_type, filename, idempotency_key)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                    """, arguments: [id, i, f.kind.rawValue, stored[i].sha, stored[i].bytes, f.contentType,
                                     (f.path as NSString).lastPathComponent, Digest.stableID([requestId, "upload", String(i)])])
            }
            return .queued(id)
        }
    }

    private func storeBlob(_ data: Data, sha: String) throws {
        let final = blobs.appendingPathComponent(sha)
        if FileManager.default.fileExists(atPath: final.path) { return }
        if let reason = DurableFile.write(data, to: final.path, temporary: blobs.appendingPathComponent(".\(sha).\(getpid()).tmp").path) {
            throw ClientError.local("\(final.path): cannot write into the outbox: \(reason)")
        }
        let dir = open(blobs.path, O_RDONLY)
        if dir >= 0 { fsync(dir); close(dir) }
    }

    func blob(sha: String) throws -> Data {
        guard let data = FileManager.default.contents(atPath: blobs.appendingPathComponent(sha).path), Digest.sha256Hex(data) == sha else {
            throw ClientError.local("outbox file \(sha) is missing or damaged")
        }
        return data
    }

    /// Items of an inflight state whose process is gone (or whose lease ran out) return to pending.
    @discardableResult
    public func recoverAbandoned() throws -> Int {
        try db.write { db in
            let rows = try Row.fetchAll(db, sql: "SELECT id, owner, updated_at FROM submission WHERE state = 'inflight'")
            var n = 0
            for r in rows {
                let owner: Int32 = r["owner"] ?? 0
                let stale = now().timeIntervalSince1970 - (r["updated_at"] as Double) > Self.leaseSeconds
                let alive = owner > 0 && (kill(owner, 0) == 0 || errno == EPERM)
                if stale || !alive || owner == getpid() {
                    try db.execute(sql: "UPDATE submission SET state = 'pending', owner = NULL WHERE id = ?", arguments: [r["id"] as Int64])
                    n += 1
                }
            }
            return n
        }
    }

    // MARK: Queries

    public func items(states: Set<OutboxItem.State>? = nil, ids: [Int64]? = nil) throws -> [OutboxItem] {
        try db.read { db in
            var sql = """
                SELECT s.*, COUNT(a.position) AS uploads, SUM(a.upload_id IS NULL) AS uploads_pending, GROUP_CONCAT(a.filename, char(31)) AS files
                FROM submission s LEFT JOIN attachment a ON a.submission_id = s.id
                """
            var conditions: [String] = []
            var args: [any DatabaseValueConvertible] = []
            if let states { conditions.append("s.state IN (\(states.map { _ in "?" }.joined(separator: ",")))"); args += states.map(\.rawValue) }
            if let ids { conditions.append("s.id IN (\(ids.map { _ in "?" }.joined(separator: ",")))"); args += ids }
            if !conditions.isEmpty { sql += " WHERE " + conditions.joined(separator: " AND ") }
            sql += " GROUP BY s.id ORDER BY s.id"
            return try Row.fetchAll(db, sql: sql, arguments: StatementArguments(args)).map(Self.item)
        }
    }

    public func counts() throws -> [OutboxItem.State: Int] {
        try db.read { db in
            var out: [OutboxItem.State: Int] = [:]
            for r in try Row.fetchAll(db, sql: "SELECT state, COUNT(*) AS n FROM submission GROUP BY state") {
                if let s = OutboxItem.State(rawValue: r["state"]) { out[s] = r["n"] }
            }
            return out
        }
    }

    static func item(_ r: Row) -> OutboxItem {
        OutboxItem(id: r["id"], kind: OutboxItem.Kind(rawValue: r["kind"]) ?? .scan, clientRequestId: r["client_request_id"],
                   state: OutboxItem.State(rawValue: r["state"]) ?? .pending, attempts: r["attempts"], lastError: r["last_error"],
                   resultId: r["result_id"], resultStatus: r["result_status"], uploadsPending: r["uploads_pending"] ?? 0,
                   uploads: r["uploads"] ?? 0,
                   files: ((r["files"] as String?) ?? "").split(separator: "\u{1F}").map(String.init),
                   createdAt: Date(timeIntervalSince1970: r["created_at"]), updatedAt: Date(timeIntervalSince1970: r["updated_at"]))
    }

    // MARK: Maintenance

    /// Dead items (all, or those with `ids`) go back to pending with a fresh attempt count.
    @discardableResult
    public func retry(ids: [Int64]? = nil) throws -> Int {
        try db.write { db in
            var sql = "UPDATE submission SET state = 'pending', attempts = 0, updated_at = ? WHERE state = 'dead'"
            var args: [any DatabaseValueConvertible] = [now().timeIntervalSince1970]
            if let ids { sql += " AND id IN (\(ids.map { _ in "?" }.joined(separator: ",")))"; args += ids }
            try db.execute(sql: sql, arguments: StatementArguments(args))
            return db.changesCount
        }
    }

    /// Deletes items in `states` (never pending or inflight ones) and the files only they used.
    @discardableResult
    public func purge(states: Set<OutboxItem.State>) throws -> Int {
        let allowed = states.subtracting([.pending, .inflight])
        guard !allowed.isEmpty else { return 0 }
        let n = try db.write { db in
            try db.execute(sql: "DELETE FROM submission WHERE state IN (\(allowed.map { _ in "?" }.joined(separator: ",")))",
                           arguments: StatementArguments(allowed.map(\.rawValue)))
            return db.changesCount
        }
        try removeUnreferencedBlobs()
        return n
    }

    /// Deletes outbox files no undelivered submission needs.
    func removeUnreferencedBlobs() throws {
        let needed = try db.read { db in
            Set(try String.fetchAll(db, sql: """
                SELECT DISTINCT a.sha256 FROM attachment a JOIN submission s ON s.id = a.submission_id
                WHERE s.state != 'delivered' AND a.upload_id IS NULL
                """))
        }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: blobs.path)) ?? []
        for name in names where name.count == 64 && !needed.contains(name) {
            try? FileManager.default.removeItem(at: blobs.appendingPathComponent(name))
        }
    }

    // MARK: Delivery steps

    struct Claimed {
        var id: Int64
        var kind: OutboxItem.Kind
        var payload: Data
        var attachments: [(position: Int, kind: UploadKind, sha: String, contentType: String, filename: String, key: String, uploadId: String?)]
    }

    /// Marks the oldest pending item after `afterID` inflight for this process and returns it.
    func claimNext(after afterID: Int64) throws -> Claimed? {
        try db.write { db in
            guard let r = try Row.fetchOne(db, sql: "SELECT id, kind, payload FROM submission WHERE state = 'pending' AND id > ? ORDER BY id LIMIT 1",
                                           arguments: [afterID]) else { return nil }
            let id: Int64 = r["id"]
            try db.execute(sql: "UPDATE submission SET state = 'inflight', owner = ?, updated_at = ? WHERE id = ?",
                           arguments: [getpid(), now().timeIntervalSince1970, id])
            let atts = try Row.fetchAll(db, sql: "SELECT * FROM attachment WHERE submission_id = ? ORDER BY position", arguments: [id]).map {
                (position: $0["position"] as Int, kind: UploadKind(rawValue: $0["kind"]) ?? .documentScan, sha: $0["sha256"] as String,
                 contentType: $0["content_type"] as String, filename: $0["filename"] as String, key: $0["idempotency_key"] as String,
                 uploadId: $0["upload_id"] as String?)
            }
            return Claimed(id: id, kind: OutboxItem.Kind(rawValue: r["kind"]) ?? .scan, payload: r["payload"], attachments: atts)
        }
    }

    func recordUpload(submission: Int64, position: Int, uploadId: String) throws {
        try db.write { db in
            try db.execute(sql: "UPDATE attachment SET upload_id = ? WHERE submission_id = ? AND position = ?",
                           arguments: [uploadId, submission, position])
        }
    }

    func markDelivered(_ id: Int64, result: SubmissionResult) throws {
        try db.write { db in
            try db.execute(sql: """
                UPDATE submission SET state = 'delivered', owner = NULL, attempts = attempts + 1, last_error = NULL,
                result_id = ?, result_status = ?, updated_at = ? WHERE id = ?
                """, arguments: [result.id, result.status, now().timeIntervalSince1970, id])
        }
    }

    /// A failed attempt: back to pending, or dead when `dead` or out of attempts. Returns the new state.
    func markFailed(_ id: Int64, error: String, dead: Bool, maxAttempts: Int, countAttempt: Bool = true) throws -> OutboxItem.State {
        try db.write { db in
            let attempts = (try Int.fetchOne(db, sql: "SELECT attempts FROM submission WHERE id = ?", arguments: [id]) ?? 0) + (countAttempt ? 1 : 0)
            let state: OutboxItem.State = dead || attempts >= maxAttempts ? .dead : .pending
            try db.execute(sql: "UPDATE submission SET state = ?, owner = NULL, attempts = ?, last_error = ?, updated_at = ? WHERE id = ?",
                           arguments: [state.rawValue, attempts, error, now().timeIntervalSince1970, id])
            return state
        }
    }
}

/// Files that are either complete or absent: written to a temporary name with mode 0600, fsynced,
/// then renamed into place.
enum DurableFile {
    /// Nil on success, else the reason (the temporary file is removed).
    static func write(_ data: Data, to path: String, temporary tmp: String, exclusive: Bool = false) -> String? {
        let fd = open(tmp, O_WRONLY | O_CREAT | O_CLOEXEC | (exclusive ? O_EXCL : O_TRUNC), 0o600)
        guard fd >= 0 else { return String(cString: strerror(errno)) }
        // fchmod: the umask must not widen (or narrow) what a key file is created with.
        let ok = fchmod(fd, 0o600) == 0 && data.withUnsafeBytes { raw -> Bool in
            var offset = 0
            while offset < raw.count {
                let n = Foundation.write(fd, raw.baseAddress! + offset, raw.count - offset)
                if n <= 0 { return false }
                offset += n
            }
            return fsync(fd) == 0
        }
        let reason = String(cString: strerror(errno))
        close(fd)
        guard ok, rename(tmp, path) == 0 else {
            let why = ok ? String(cString: strerror(errno)) : reason
            unlink(tmp)
            return why
        }
        return nil
    }
}
