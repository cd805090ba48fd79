import Crypto
import Foundation
import KordantAPI

/// What can go wrong while sealing on the device: each case is its own exit code in the CLI.
/// Messages name the file and the problem, never a key.
public enum SealError: Error, Sendable, CustomStringConvertible {
    /// No key file: the device was never provisioned.
    case notProvisioned(path: String)
    /// The key file can be read or written by group or others (refused, like an ssh key).
    case unsafeKeyFile(path: String, mode: UInt32)
    /// The key file exists but cannot be read or is not a key file of this version.
    case damagedKeyFile(path: String, reason: String)
    /// Provisioning would overwrite an existing key file.
    case alreadyProvisioned(path: String)
    /// The file to seal or verify does not exist.
    case fileNotFound(path: String)
    /// The file to seal or verify cannot be read (a directory, no permission, an I/O error).
    case fileUnreadable(path: String, reason: String)

    /// The file the error is about.
    public var path: String {
        switch self {
        case .notProvisioned(let p), .unsafeKeyFile(let p, _), .damagedKeyFile(let p, _), .alreadyProvisioned(let p), .fileNotFound(let p),
             .fileUnreadable(let p, _): p
        }
    }

    /// The problem, without the path.
    public var reason: String {
        switch self {
        case .notProvisioned: "no device keys; run `kordant provision` first"
        case .unsafeKeyFile(let p, let mode):
            String(format: "mode %o lets other users read or change the device keys; refusing to use them (run chmod 600 %@)", mode, p)
        case .damagedKeyFile(_, let reason): "not a usable device key file: \(reason)"
        case .alreadyProvisioned: "this device is already provisioned (--force replaces its keys)"
        case .fileNotFound: "no such file"
        case .fileUnreadable(_, let reason): "cannot read: \(reason)"
        }
    }

    public var description: String { "\(path): \(reason)" }
}

/// The device's sealing secrets, kept in `$KORDANT_HOME/device-keys.json` with mode 0600:
/// the P-256 signing key, the device fingerprint (the NUC token: 32 random bytes made at
/// provisioning, standing in for a camera sensor's non-uniformity map, which a Linux host lacks),
/// and the key tables the server assigned with their master keys.
///
/// Its description is redacted so that no key reaches a log line or an error message.
public struct DeviceKeys: Sendable, CustomStringConvertible, CustomDebugStringConvertible {
    public let deviceId: String
    /// The server that provisioned the device (for messages).
    public let server: String
    let signingKey: P256.Signing.PrivateKey
    /// The raw fingerprint; only its SHA-256 is ever sent (encrypted).
    let fingerprint: Data
    /// (table id, master key), in assignment order.
    let tables: [(id: Int, masterKey: SymmetricKey)]
    /// Tables on the server, for decoy table ids.
    public let tableCount: Int

    public var tableIds: [Int] { tables.map(\.id) }
    public var description: String { "DeviceKeys(device \(deviceId), tables \(tableIds), keys redacted)" }
    public var debugDescription: String { description }

    /// SHA-256 of the fingerprint: the plaintext of every encrypted token.
    var fingerprintHash: Data { Data(SHA256.hash(data: fingerprint)) }

    /// A new signing key and fingerprint, before the server knows them.
    public struct Request: Sendable {
        let signingKey = P256.Signing.PrivateKey()
        let fingerprint = Data((0..<32).map { _ in UInt8.random(in: 0...255) })
        public init() {}
        /// What `seal.provision` is sent: public key and fingerprint hash only.
        public var input: ProvisionInput {
            ProvisionInput(publicKey: signingKey.publicKey.x963Representation.base64EncodedString(),
                           fingerprintHash: Digest.sha256Hex(fingerprint))
        }
    }

    /// The keys of `request` with the server's answer.
    public init(request: Request, result: ProvisionResult, server: String) throws {
        var tables: [(Int, SymmetricKey)] = []
        for t in result.tables {
            guard let key = Data(base64Encoded: t.masterKey), key.count == 32 else {
                throw SealError.damagedKeyFile(path: server, reason: "the server sent a master key that is not 32 bytes")
            }
            tables.append((t.id, SymmetricKey(data: key)))
        }
        guard !tables.isEmpty, result.tableCount > 0 else {
            throw SealError.damagedKeyFile(path: server, reason: "the server assigned no key tables")
        }
        deviceId = result.deviceId
        self.server = server
        signingKey = request.signingKey
        fingerprint = request.fingerprint
        self.tables = tables
        tableCount = result.tableCount
    }

    /// On-disk form.
    struct File: Codable {
        var version = 1
        var deviceId: String
        var server: String
        var signingKey: String
        var fingerprint: String
        var tables: [KeyTableAssignment]
        var tableCount: Int
    }

    /// `$KORDANT_HOME/device-keys.json`.
    public static func path(home: KordantHome) -> String { home.url.appendingPathComponent("device-keys.json").path }

    /// Reads the key file, refusing one that group or others can read or write.
    public static func load(path: String) throws(SealError) -> DeviceKeys {
        var st = stat()
        guard stat(path, &st) == 0 else {
            if errno == ENOENT { throw .notProvisioned(path: path) }
            throw .damagedKeyFile(path: path, reason: String(cString: strerror(errno)))
        }
        guard st.st_mode & 0o077 == 0 else { throw .unsafeKeyFile(path: path, mode: UInt32(st.st_mode & 0o777)) }
        guard let data = FileManager.default.contents(atPath: path) else { throw .damagedKeyFile(path: path, reason: "cannot read it") }
        guard let f = try? JSONDecoder().decode(File.self, from: data), f.version == 1 else {
            throw .damagedKeyFile(path: path, reason: "not a version 1 device key file")
        }
        guard let raw = Data(base64Encoded: f.signingKey), let key = try? P256.Signing.PrivateKey(rawRepresentation: raw),
              let fingerprint = Data(base64Encoded: f.fingerprint), fingerprint.count == 32, !f.tables.isEmpty, f.tableCount > 0
        else { throw .damagedKeyFile(path: path, reason: "a key in it is malformed") }
        var tables: [(Int, SymmetricKey)] = []
        for t in f.tables {
            guard let k = Data(base64Encoded: t.masterKey), k.count == 32 else { throw .damagedKeyFile(path: path, reason: "a master key is malformed") }
            tables.append((t.id, SymmetricKey(data: k)))
        }
        return DeviceKeys(deviceId: f.deviceId, server: f.server, signingKey: key, fingerprint: fingerprint, tables: tables,
                          tableCount: f.tableCount)
    }

    private init(deviceId: String, server: String, signingKey: P256.Signing.PrivateKey, fingerprint: Data,
                 tables: [(id: Int, masterKey: SymmetricKey)], tableCount: Int) {
        self.deviceId = deviceId; self.server = server; self.signingKey = signingKey; self.fingerprint = fingerprint
        self.tables = tables; self.tableCount = tableCount
    }

    /// Writes the key file with mode 0600, fsynced and renamed into place; refuses to replace one
    /// unless `replace`.
    public func save(path: String, replace: Bool = false) throws {
        if !replace, FileManager.default.fileExists(atPath: path) { throw SealError.alreadyProvisioned(path: path) }
        let file = File(deviceId: deviceId, server: server, signingKey: signingKey.rawRepresentation.base64EncodedString(),
                        fingerprint: fingerprint.base64EncodedString(),
                        tables: tables.map { t in KeyTableAssignment(id: t.id, masterKey: t.masterKey.withUnsafeBytes { Data($0) }.base64EncodedString()) },
                        tableCount: tableCount)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
        let data = try encoder.encode(file)
        if let reason = DurableFile.write(data, to: path, temporary: path + ".\(getpid()).tmp", exclusive: true) {
            throw ClientError.local("\(path): cannot write the device keys: \(reason)")
        }
    }
}
