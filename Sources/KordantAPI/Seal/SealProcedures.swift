import Foundation

extension Procedure {
    /// Mutation: register a device's signing key and fingerprint hash; answers its tables and master keys.
    public static let sealProvision = "seal.provision"
    /// Query: the verified seals of a file's SHA-256.
    public static let sealLookup = "seal.lookup"
}

extension APIPath {
    /// `POST` a ``SealBundle`` as JSON; answers a ``SubmissionResult`` (`created` / `duplicate`).
    public static let sealSubmit = "/api/v1/submit"
}

/// `seal.provision` input. The signing key and the fingerprint are made on the device; only the
/// public key and the fingerprint's hash leave it.
public struct ProvisionInput: Codable, Sendable, Equatable {
    /// Base64 of the P-256 public key, X9.63 uncompressed (65 bytes).
    public var publicKey: String
    /// Lower-case hex SHA-256 of the device fingerprint (the NUC token).
    public var fingerprintHash: String
    public init(publicKey: String, fingerprintHash: String) { self.publicKey = publicKey; self.fingerprintHash = fingerprintHash }
}

/// One key table assigned to a device, with its master key. The description never shows the key.
public struct KeyTableAssignment: Codable, Sendable, Equatable, CustomStringConvertible, CustomDebugStringConvertible {
    public var id: Int
    /// Base64 of the table's 32-byte master key.
    public var masterKey: String
    public init(id: Int, masterKey: String) { self.id = id; self.masterKey = masterKey }
    public var description: String { "KeyTableAssignment(id: \(id), master key redacted)" }
    public var debugDescription: String { description }
}

/// `seal.provision` output.
public struct ProvisionResult: Codable, Sendable, Equatable, CustomStringConvertible {
    public var deviceId: String
    public var tables: [KeyTableAssignment]
    /// Tables on the server (decoy table ids are drawn from 0..<tableCount).
    public var tableCount: Int
    public var keysPerTable: Int
    public init(deviceId: String, tables: [KeyTableAssignment], tableCount: Int, keysPerTable: Int) {
        self.deviceId = deviceId; self.tables = tables; self.tableCount = tableCount; self.keysPerTable = keysPerTable
    }
    public var description: String { "ProvisionResult(device \(deviceId), tables \(tables.map(\.id)), keys redacted)" }
}

/// `seal.lookup` input.
public struct SealLookupInput: Codable, Sendable, Equatable {
    /// Lower-case hex SHA-256 of the file.
    public var sha256: String
    public init(sha256: String) { self.sha256 = sha256 }
}

/// A verified seal as the server reports it.
public struct SealRecord: Codable, Sendable, Equatable {
    public var id: String
    public var deviceId: String
    /// When the device sealed the file (the bundle's timestamp), ISO 8601.
    public var sealedAt: String
    /// When the server accepted the bundle, ISO 8601.
    public var receivedAt: String
    /// Times the same bundle was submitted again (retries and replays), after the first.
    public var resubmissions: Int
    public init(id: String, deviceId: String, sealedAt: String, receivedAt: String, resubmissions: Int) {
        self.id = id; self.deviceId = deviceId; self.sealedAt = sealedAt; self.receivedAt = receivedAt; self.resubmissions = resubmissions
    }
}

/// `seal.lookup` output: `sealed` is true only when a verified bundle names exactly this hash.
public struct SealLookupResult: Codable, Sendable, Equatable {
    public var sha256: String
    public var sealed: Bool
    /// Oldest first.
    public var seals: [SealRecord]
    public init(sha256: String, sealed: Bool, seals: [SealRecord]) { self.sha256 = sha256; self.sealed = sealed; self.seals = seals }
}
