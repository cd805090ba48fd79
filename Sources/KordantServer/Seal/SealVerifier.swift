import Crypto
import Foundation
import KordantAPI

/// Checks a Birthmark bundle: well-formed, not from the future, one of its (table, key index)
/// pairs opens the encrypted token (AES-256-GCM under the HKDF-derived key, the image hash as
/// associated data), the token names a provisioned device that holds that table, and the
/// device's P-256 key signed the canonical encoding. Rejections never quote a key or the token.
struct SealVerifier: Sendable {
    let store: Store

    struct Rejection: Error, CustomStringConvertible {
        let code: TRPCErrorCode
        let description: String
    }

    /// The device that sealed `bundle`, or a rejection.
    func verify(_ bundle: SealBundle, now: Int64 = Int64(Date().timeIntervalSince1970)) throws -> Store.Device {
        if let problem = SealFormat.validate(bundle) { throw Rejection(code: .badRequest, description: problem) }
        guard bundle.timestamp <= now + SealFormat.maxFutureSkew else {
            throw Rejection(code: .unprocessableContent, description: "timestamp is in the future")
        }
        let keys = try store.masterKeys(bundle.tableReferences)
        guard keys.count == Set(bundle.tableReferences).count else {
            throw Rejection(code: .unprocessableContent, description: "table_references names a table this server does not have")
        }
        let aad = SealFormat.hashBytes(bundle.imageHash)!
        let box = try AES.GCM.SealedBox(combined: Data(base64Encoded: bundle.encryptedNucToken)!)
        // Try every pair (not stopping at the first that opens), so the time taken does not say which was real.
        var opened: [(table: Int, fingerprintHash: Data)] = []
        for (table, index) in zip(bundle.tableReferences, bundle.keyIndices) {
            let key = SealFormat.derivedKey(masterKey: keys[table]!, keyIndex: index)
            if let plain = try? AES.GCM.open(box, using: key, authenticating: aad) { opened.append((table, plain)) }
        }
        guard opened.count == 1, let real = opened.first else {
            throw Rejection(code: .unprocessableContent, description: "no (table, key index) pair of the bundle opens encrypted_nuc_token")
        }
        guard let device = try store.device(fingerprintHash: real.fingerprintHash) else {
            throw Rejection(code: .unprocessableContent, description: "the token names no provisioned device")
        }
        guard device.tables.contains(real.table) else {
            throw Rejection(code: .unprocessableContent, description: "the token's table is not assigned to its device")
        }
        guard let publicKey = try? P256.Signing.PublicKey(x963Representation: device.publicKey),
              let signature = try? P256.Signing.ECDSASignature(rawRepresentation: Data(base64Encoded: bundle.deviceSignature)!),
              publicKey.isValidSignature(signature, for: bundle.canonicalBytes)
        else { throw Rejection(code: .unprocessableContent, description: "device_signature does not match the bundle") }
        return device
    }
}
