import Crypto
import Foundation
import GRDB
import KordantAPI

/// The seal tables: key tables (each a 32-byte master key), provisioned devices, and verified
/// seals. A development server keeps the master keys in SQLite; a production one keeps them in
/// an HSM, which is where ``SealVerifier`` would ask for derived keys instead.
extension Store {
    /// Key tables created with a new database.
    static let keyTableCount = 64

    static func registerSealMigration(_ migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v2-seal") { db in
            try db.execute(sql: """
                CREATE TABLE key_table (
                    id INTEGER PRIMARY KEY,
                    master_key BLOB NOT NULL);
                CREATE TABLE device (
                    seq INTEGER PRIMARY KEY AUTOINCREMENT,
                    id TEXT NOT NULL UNIQUE,
                    user TEXT NOT NULL,
                    public_key BLOB NOT NULL UNIQUE,
                    fingerprint_hash BLOB NOT NULL UNIQUE,
                    tables TEXT NOT NULL,
                    created_at TEXT NOT NULL);
                CREATE TABLE seal (
                    seq INTEGER PRIMARY KEY AUTOINCREMENT,
                    id TEXT NOT NULL UNIQUE,
                    bundle_digest TEXT NOT NULL UNIQUE,
                    image_hash TEXT NOT NULL,
                    device_id TEXT NOT NULL,
                    submitter TEXT NOT NULL,
                    sealed_at INTEGER NOT NULL,
                    payload TEXT NOT NULL,
                    received_at TEXT NOT NULL,
                    resubmissions INTEGER NOT NULL DEFAULT 0,
                    replays INTEGER NOT NULL DEFAULT 0);
                CREATE INDEX seal_image_hash ON seal (image_hash, seq);
                """)
            for id in 0..<keyTableCount {
                let key = SymmetricKey(size: .bits256).withUnsafeBytes { Data($0) }
                try db.execute(sql: "INSERT INTO key_table (id, master_key) VALUES (?, ?)", arguments: [id, key])
            }
        }
    }

    struct Device: Sendable {
        var id: String
        var user: String
        var publicKey: Data
        var tables: [Int]
    }

    func keyTableCount() throws -> Int {
        try db.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM key_table") ?? 0 }
    }

    /// Master keys of the tables named (unknown ids are absent).
    func masterKeys(_ ids: [Int]) throws -> [Int: SymmetricKey] {
        try db.read { db in
            var out: [Int: SymmetricKey] = [:]
            for id in Set(ids) {
                if let k = try Data.fetchOne(db, sql: "SELECT master_key FROM key_table WHERE id = ?", arguments: [id]) { out[id] = SymmetricKey(data: k) }
            }
            return out
        }
    }

    enum ProvisionOutcome { case provisioned(Device), conflict(String) }

    /// Registers a device with `tablesPerDevice` random tables. The same public key and
    /// fingerprint again (a retried request) returns the device already registered.
    func provision(user: String, publicKey: Data, fingerprintHash: Data) throws -> ProvisionOutcome {
        try db.write { db in
            if let r = try Row.fetchOne(db, sql: "SELECT id, user, public_key, fingerprint_hash, tables FROM device WHERE public_key = ? OR fingerprint_hash = ?",
                                        arguments: [publicKey, fingerprintHash]) {
                guard r["public_key"] as Data == publicKey, r["fingerprint_hash"] as Data == fingerprintHash, r["user"] as String == user else {
                    return .conflict("this public key or fingerprint is already registered to another device")
                }
                return .provisioned(Self.device(r))
            }
            let all = try Int.fetchAll(db, sql: "SELECT id FROM key_table ORDER BY id")
            let tables = Array(all.shuffled().prefix(SealFormat.tablesPerDevice))
            let device = Device(id: Self.newID("dev"), user: user, publicKey: publicKey, tables: tables)
            try db.execute(sql: """
                INSERT INTO device (id, user, public_key, fingerprint_hash, tables, created_at) VALUES (?, ?, ?, ?, ?, ?)
                """, arguments: [device.id, user, publicKey, fingerprintHash, tables.map(String.init).joined(separator: ","), Self.now()])
            return .provisioned(device)
        }
    }

    func device(fingerprintHash: Data) throws -> Device? {
        try db.read { db in
            try Row.fetchOne(db, sql: "SELECT id, user, public_key, tables FROM device WHERE fingerprint_hash = ?", arguments: [fingerprintHash])
                .map(Self.device)
        }
    }

    private static func device(_ r: Row) -> Device {
        Device(id: r["id"], user: r["user"], publicKey: r["public_key"],
               tables: (r["tables"] as String).split(separator: ",").compactMap { Int($0) })
    }

    enum SealOutcome { case created(String), duplicate(String), replay(String, firstReceived: String) }

    /// Records a verified bundle once. The same bundle again (by its canonical digest, which a
    /// re-encoded signature does not change) from the same submitter is a retry (`duplicate`);
    /// from another submitter a replay. Both are counted, neither is recorded twice.
    func insertSeal(_ bundle: SealBundle, device: String, submitter: String) throws -> SealOutcome {
        let digest = bundle.digest
        return try db.write { db in
            if let r = try Row.fetchOne(db, sql: "SELECT id, submitter, received_at FROM seal WHERE bundle_digest = ?", arguments: [digest]) {
                let id: String = r["id"]
                if r["submitter"] as String == submitter {
                    try db.execute(sql: "UPDATE seal SET resubmissions = resubmissions + 1 WHERE id = ?", arguments: [id])
                    return .duplicate(id)
                }
                try db.execute(sql: "UPDATE seal SET resubmissions = resubmissions + 1, replays = replays + 1 WHERE id = ?", arguments: [id])
                return .replay(id, firstReceived: r["received_at"])
            }
            let id = Self.newID("seal")
            try db.execute(sql: """
                INSERT INTO seal (id, bundle_digest, image_hash, device_id, submitter, sealed_at, payload, received_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                """, arguments: [id, digest, bundle.imageHash, device, submitter, bundle.timestamp,
                                 String(decoding: JSONValue(encoding: bundle)!.data, as: UTF8.self), Self.now()])
            return .created(id)
        }
    }

    func seals(imageHash: String) throws -> [SealRecord] {
        try db.read { db in
            try Row.fetchAll(db, sql: "SELECT id, device_id, sealed_at, received_at, resubmissions FROM seal WHERE image_hash = ? ORDER BY seq",
                             arguments: [imageHash]).map {
                SealRecord(id: $0["id"], deviceId: $0["device_id"],
                           sealedAt: ISO8601DateFormatter().string(from: Date(timeIntervalSince1970: Double($0["sealed_at"] as Int64))),
                           receivedAt: $0["received_at"], resubmissions: $0["resubmissions"])
            }
        }
    }
}
