import Foundation
import GRDB
import KordantAPI

/// Query results on disk (`cache.sqlite`), served when the server cannot be reached and the
/// entry is younger than the TTL. Keys include a digest of the token, so two users of one home
/// never see each other's answers.
public final class QueryCache: Sendable {
    let db: DatabaseQueue
    public let ttl: TimeInterval

    public init(path: URL, ttl: TimeInterval = 24 * 3600) throws {
        self.ttl = ttl
        db = try DatabaseQueue(path: path.path)
        chmod(path.path, 0o600)
        try db.write { db in
            try db.execute(sql: "CREATE TABLE IF NOT EXISTS entry (key TEXT PRIMARY KEY, value BLOB NOT NULL, fetched_at REAL NOT NULL)")
        }
    }

    static func key(server: String, procedure: String, input: JSONValue?, credentials: Credentials) -> String {
        Digest.sha256Hex(Data([server, procedure, String(decoding: (input ?? .null).data, as: UTF8.self),
                               Digest.sha256Hex(Data(credentials.token.utf8))].joined(separator: "\u{1F}").utf8))
    }

    func store(key: String, value: JSONValue) throws {
        try db.write { db in
            try db.execute(sql: "INSERT OR REPLACE INTO entry (key, value, fetched_at) VALUES (?, ?, ?)",
                           arguments: [key, value.data, Date().timeIntervalSince1970])
            try db.execute(sql: "DELETE FROM entry WHERE fetched_at < ?", arguments: [Date().timeIntervalSince1970 - ttl])
        }
    }

    func fresh(key: String) throws -> (value: JSONValue, fetchedAt: Date)? {
        try db.read { db in
            guard let row = try Row.fetchOne(db, sql: "SELECT value, fetched_at FROM entry WHERE key = ?", arguments: [key]) else { return nil }
            let at = Date(timeIntervalSince1970: row["fetched_at"])
            guard Date().timeIntervalSince(at) <= ttl, let v = JSONValue(json: row["value"]) else { return nil }
            return (v, at)
        }
    }
}
