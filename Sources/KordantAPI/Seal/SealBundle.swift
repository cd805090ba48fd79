import Crypto
import Foundation

/// The Birthmark authentication bundle of one sealed file: what a device sends to
/// `POST /api/v1/submit` so that a server can later prove the file is unchanged and came from a
/// provisioned device. The file itself never leaves the device; only its SHA-256 does.
///
/// - `imageHash`: lower-case hex SHA-256 of the file's bytes.
/// - `encryptedNucToken`: base64 of nonce (12) ‖ ciphertext (32) ‖ tag (16): AES-256-GCM of the
///   SHA-256 of the device fingerprint, under ``SealFormat/derivedKey(masterKey:keyIndex:)`` of one
///   (table, key index) pair of the bundle, with the 32 raw bytes of `imageHash` as associated data.
/// - `tableReferences`, `keyIndices`: ``SealFormat/pairsPerBundle`` pairs. Exactly one is real (a
///   table assigned to the device, at a random key index); the others are random decoys, so the
///   tables a bundle names do not identify the device to anyone who cannot open the token.
/// - `timestamp`: Unix seconds when the file was sealed.
/// - `deviceSignature`: base64 of the raw r ‖ s (64 bytes) ECDSA P-256 / SHA-256 signature of
///   ``canonicalBytes`` with the device's signing key.
public struct SealBundle: Codable, Sendable, Equatable, Hashable {
    public var imageHash: String
    public var encryptedNucToken: String
    public var tableReferences: [Int]
    public var keyIndices: [Int]
    public var timestamp: Int64
    public var deviceSignature: String

    enum CodingKeys: String, CodingKey {
        case imageHash = "image_hash", encryptedNucToken = "encrypted_nuc_token", tableReferences = "table_references"
        case keyIndices = "key_indices", timestamp, deviceSignature = "device_signature"
    }

    public init(imageHash: String, encryptedNucToken: String, tableReferences: [Int], keyIndices: [Int], timestamp: Int64,
                deviceSignature: String) {
        self.imageHash = imageHash; self.encryptedNucToken = encryptedNucToken; self.tableReferences = tableReferences
        self.keyIndices = keyIndices; self.timestamp = timestamp; self.deviceSignature = deviceSignature
    }

    /// What the device signs: every field but the signature, one `name=value` line each, in this
    /// order, ASCII, each line ending in `\n`:
    ///
    /// ```
    /// kordant-seal-v1
    /// image_hash=<64 lower-case hex digits>
    /// encrypted_nuc_token=<standard base64, padded>
    /// table_references=<decimal ids, comma-separated>
    /// key_indices=<decimal indices, comma-separated>
    /// timestamp=<decimal Unix seconds>
    /// ```
    ///
    /// No value can contain `\n` and the names are fixed, so two different bundles never share an
    /// encoding. ``SealFormat/validate(_:)`` accepts only fields already in this canonical form
    /// (lower-case hex, base64 that re-encodes to itself), so the signature covers exactly what
    /// the server stores.
    public var canonicalBytes: Data {
        var text = SealFormat.version + "\n"
        text += "image_hash=\(imageHash)\n"
        text += "encrypted_nuc_token=\(encryptedNucToken)\n"
        text += "table_references=\(tableReferences.map(String.init).joined(separator: ","))\n"
        text += "key_indices=\(keyIndices.map(String.init).joined(separator: ","))\n"
        text += "timestamp=\(timestamp)\n"
        return Data(text.utf8)
    }

    /// Hex SHA-256 of ``canonicalBytes``: the bundle's identity. It leaves out the signature
    /// (ECDSA signatures can be re-encoded without the key), so a replay cannot pass as new.
    public var digest: String { Digest.sha256Hex(canonicalBytes) }
}

/// Constants and derivations both sides of the seal protocol share.
public enum SealFormat {
    /// First line of the canonical encoding.
    public static let version = "kordant-seal-v1"
    /// (table, key index) pairs in a bundle: one real, the rest decoys.
    public static let pairsPerBundle = 3
    /// Tables assigned to a device at provisioning.
    public static let tablesPerDevice = 3
    /// Key indices per table: derived keys 0..<keysPerTable.
    public static let keysPerTable = 1000
    /// A bundle stamped further in the future than this (seconds) is refused (clock skew allowance).
    public static let maxFutureSkew: Int64 = 300
    /// Bytes of an encrypted token: 12-byte nonce, 32-byte fingerprint hash, 16-byte tag.
    public static let tokenBytes = 12 + 32 + 16

    /// The AES-256-GCM key of `keyIndex` in a table: HKDF-SHA256 with the table's master key as
    /// input key material, no salt, info = UTF-8 `"Birthmark"` followed by the decimal key index
    /// (`"Birthmark417"`), 32 bytes out.
    public static func derivedKey(masterKey: SymmetricKey, keyIndex: Int) -> SymmetricKey {
        HKDF<SHA256>.deriveKey(inputKeyMaterial: masterKey, info: Data("Birthmark\(keyIndex)".utf8), outputByteCount: 32)
    }

    /// The raw bytes of a lower-case hex SHA-256 (nil when it is not 64 lower-case hex digits).
    public static func hashBytes(_ hex: String) -> Data? {
        let utf8 = Array(hex.utf8)
        guard utf8.count == 64 else { return nil }
        var out = Data(capacity: 32)
        for i in stride(from: 0, to: 64, by: 2) {
            guard let hi = nibble(utf8[i]), let lo = nibble(utf8[i + 1]) else { return nil }
            out.append(hi << 4 | lo)
        }
        return out
    }

    private static func nibble(_ c: UInt8) -> UInt8? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): c - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): c - UInt8(ascii: "a") + 10
        default: nil
        }
    }

    /// Why a bundle is not well-formed (nil when it is): the shape checks both sides apply before
    /// any cryptography. Messages name the field, never a key.
    public static func validate(_ b: SealBundle) -> String? {
        if hashBytes(b.imageHash) == nil { return "image_hash must be 64 lower-case hex digits" }
        guard let token = Data(base64Encoded: b.encryptedNucToken), token.base64EncodedString() == b.encryptedNucToken,
              token.count == tokenBytes
        else { return "encrypted_nuc_token must be \(tokenBytes) bytes in padded standard base64" }
        guard b.tableReferences.count == pairsPerBundle, b.keyIndices.count == pairsPerBundle else {
            return "table_references and key_indices must have \(pairsPerBundle) entries each"
        }
        guard b.tableReferences.allSatisfy({ $0 >= 0 }) else { return "table_references must be non-negative" }
        guard b.keyIndices.allSatisfy({ (0..<keysPerTable).contains($0) }) else { return "key_indices must be 0…\(keysPerTable - 1)" }
        guard b.timestamp > 0 else { return "timestamp must be positive Unix seconds" }
        guard let sig = Data(base64Encoded: b.deviceSignature), sig.base64EncodedString() == b.deviceSignature, sig.count == 64 else {
            return "device_signature must be 64 bytes (raw r‖s) in padded standard base64"
        }
        return nil
    }
}
