import Crypto
import Foundation
import KordantAPI

/// Builds Birthmark bundles (``SealBundle``) on the device.
///
/// Per file: one streaming SHA-256 pass over the file (64 KiB blocks, the file is read once),
/// one HKDF-SHA256, one AES-256-GCM encryption of 32 bytes and one ECDSA P-256 signature.
public struct Sealer: Sendable {
    public let keys: DeviceKeys

    public init(keys: DeviceKeys) { self.keys = keys }

    /// Seals the file at `path`, stamped `timestamp` (Unix seconds, default now).
    public func seal(fileAt path: String, timestamp: Int64? = nil) throws -> SealBundle {
        let digest: Data
        do { digest = try Digest.sha256(fileAt: path).digest } catch {
            if error.isNotFound { throw SealError.fileNotFound(path: path) }
            throw SealError.fileUnreadable(path: path, reason: String(cString: strerror(error.errno)))
        }
        return try seal(digest: digest, timestamp: timestamp ?? Int64(Date().timeIntervalSince1970))
    }

    /// Seals a file already digested: `digest` is its 32-byte SHA-256.
    public func seal(digest: Data, timestamp: Int64) throws -> SealBundle {
        precondition(digest.count == 32, "a SHA-256 digest is 32 bytes")
        // One pair is real: a table of this device at a random key index. The others are decoys
        // (random tables, random indices), at random positions.
        var generator = SystemRandomNumberGenerator()
        let real = keys.tables.randomElement(using: &generator)!
        let realIndex = Int.random(in: 0..<SealFormat.keysPerTable, using: &generator)
        let position = Int.random(in: 0..<SealFormat.pairsPerBundle, using: &generator)
        var tables: [Int] = [], indices: [Int] = []
        for i in 0..<SealFormat.pairsPerBundle {
            if i == position {
                tables.append(real.id); indices.append(realIndex)
            } else {
                tables.append(Int.random(in: 0..<keys.tableCount, using: &generator))
                indices.append(Int.random(in: 0..<SealFormat.keysPerTable, using: &generator))
            }
        }
        let key = SealFormat.derivedKey(masterKey: real.masterKey, keyIndex: realIndex)
        let box = try AES.GCM.seal(keys.fingerprintHash, using: key, nonce: AES.GCM.Nonce(), authenticating: digest)
        guard let token = box.combined else { throw SealError.damagedKeyFile(path: "seal", reason: "AES-GCM gave no combined box") }
        var bundle = SealBundle(imageHash: Digest.hex(digest), encryptedNucToken: token.base64EncodedString(), tableReferences: tables,
                                keyIndices: indices, timestamp: timestamp, deviceSignature: "")
        bundle.deviceSignature = try keys.signingKey.signature(for: bundle.canonicalBytes).rawRepresentation.base64EncodedString()
        return bundle
    }
}
