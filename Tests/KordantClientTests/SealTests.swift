import Crypto
import Foundation
import KordantAPI
import KordantClient
import KordantServer
import Testing

/// Sealed files (Birthmark bundles) against `kordant serve` on loopback with its SQLite file:
/// provisioning, sealing, verification, every tamper case, replays, and keys kept out of logs
/// and messages.
@Suite struct SealTests {
    /// A file of `bytes` pseudo-random bytes (different per call).
    static func randomFile(_ dir: URL, _ name: String, bytes: Int = 200_000) throws -> String {
        let path = dir.appendingPathComponent(name).path
        try Data((0..<bytes).map { _ in UInt8.random(in: 0...255) }).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// The same base64 with bit 0 of byte `at` flipped.
    static func flipped(_ base64: String, at: Int) -> String {
        var d = Data(base64Encoded: base64)!
        d[at] ^= 0x01
        return d.base64EncodedString()
    }

    /// Every secret in a device key file, as stored (base64).
    static func secrets(inKeyFile path: String) throws -> [String] {
        let json = try #require(JSONValue(json: try Data(contentsOf: URL(fileURLWithPath: path))))
        var out: [String] = []
        if case .string(let s)? = json["signingKey"] { out.append(s) }
        if case .string(let s)? = json["fingerprint"] { out.append(s) }
        if case .array(let tables)? = json["tables"] {
            for t in tables { if case .string(let k)? = t["masterKey"] { out.append(k) } }
        }
        return out
    }

    @Test func sealedFileVerifiesAndEveryTamperIsRejected() async throws {
        let dir = Kordant.scratch("seal")
        let server = try DevServer(dir: dir)
        defer { server.stop() }
        let logs = CapturedLogs()
        var messages: [String] = []
        var secrets: [String] = []
        // Both clients are shut down on every path (AsyncHTTPClient traps on one that is not, which
        // would end this process before it could stop its server).
        let client = try makeClient(server.url, token: Kordant.token(sub: "owner"), logger: logs.logger("client"))
        let intruder = try makeClient(server.url, token: Kordant.token(sub: "intruder"), logger: logs.logger("intruder"))
        do {
            let keys = try await client.provisionDevice()
            let keyFile = dir.appendingPathComponent("device-keys.json").path
            try keys.save(path: keyFile)
            var st = stat()
            #expect(stat(keyFile, &st) == 0 && st.st_mode & 0o777 == 0o600)
            #expect(throws: SealError.self) { try keys.save(path: keyFile) }
            let loaded = try DeviceKeys.load(path: keyFile)
            #expect(loaded.deviceId == keys.deviceId && loaded.tableIds == keys.tableIds && keys.tableIds.count == SealFormat.tablesPerDevice)
            secrets = try Self.secrets(inKeyFile: keyFile)
            #expect(secrets.count == 2 + SealFormat.tablesPerDevice)
            messages.append("\(keys)")

            let file = try Self.randomFile(dir, "scan.bin")
            let bundle = try Sealer(keys: loaded).seal(fileAt: file)
            #expect(bundle.imageHash == Digest.sha256Hex(fileAt: file))
            #expect(SealFormat.validate(bundle) == nil)
            #expect(bundle.tableReferences.contains { keys.tableIds.contains($0) })
            let created = try await client.submitSeal(bundle)
            #expect(created.status == "created")

            let lookup = try await client.lookupSeal(sha256: bundle.imageHash)
            #expect(lookup.sealed && lookup.seals.count == 1 && lookup.seals[0].deviceId == keys.deviceId && lookup.seals[0].id == created.id)
            #expect(lookup.seals[0].sealedAt == ISO8601DateFormatter().string(from: Date(timeIntervalSince1970: Double(bundle.timestamp))))

            // One flipped byte in the file: its hash has no seal.
            var bytes = try Data(contentsOf: URL(fileURLWithPath: file))
            bytes[bytes.count / 2] ^= 0x01
            let changed = dir.appendingPathComponent("scan-changed.bin")
            try bytes.write(to: changed)
            let changedLookup = try await client.lookupSeal(sha256: try #require(Digest.sha256Hex(fileAt: changed.path)))
            #expect(!changedLookup.sealed && changedLookup.seals.isEmpty)

            // One changed byte anywhere in the bundle: refused (422), and nothing recorded.
            var tampered: [(String, SealBundle)] = []
            var b = bundle
            let first = b.imageHash.first!
            b.imageHash = (first == "0" ? "1" : "0") + b.imageHash.dropFirst()
            tampered.append(("image_hash", b))
            b = bundle; b.imageHash = try #require(Digest.sha256Hex(fileAt: changed.path))
            tampered.append(("image_hash of the changed file", b))
            for at in [0, 12, 30, SealFormat.tokenBytes - 1] {
                b = bundle; b.encryptedNucToken = Self.flipped(bundle.encryptedNucToken, at: at)
                tampered.append(("encrypted_nuc_token byte \(at)", b))
            }
            for at in [0, 31, 32, 63] {
                b = bundle; b.deviceSignature = Self.flipped(bundle.deviceSignature, at: at)
                tampered.append(("device_signature byte \(at)", b))
            }
            for i in 0..<SealFormat.pairsPerBundle {
                b = bundle; b.keyIndices[i] = (b.keyIndices[i] + 1) % SealFormat.keysPerTable
                tampered.append(("key_indices[\(i)]", b))
                b = bundle; b.tableReferences[i] = (b.tableReferences[i] + 1) % 64
                tampered.append(("table_references[\(i)]", b))
            }
            b = bundle; b.timestamp += 1
            tampered.append(("timestamp", b))
            for (what, t) in tampered {
                let e = try #require(await Self.serverError { _ = try await client.submitSeal(t) }, "\(what) was accepted")
                messages.append("\(e)")
                #expect(e.httpStatus == 422 && e.message.hasPrefix("bundle rejected: "), "\(what): \(e)")
            }
            // A bundle signed by another provisioned device's key (the token still names the first device).
            let other = try await client.provisionDevice()
            var forged = try Sealer(keys: other).seal(fileAt: file)
            forged.encryptedNucToken = bundle.encryptedNucToken; forged.tableReferences = bundle.tableReferences
            forged.keyIndices = bundle.keyIndices; forged.timestamp = bundle.timestamp
            forged.deviceSignature = try Self.resign(forged, otherKeyFile: dir, other)
            let forgery = try #require(await Self.serverError { _ = try await client.submitSeal(forged) })
            messages.append("\(forgery)")
            #expect(forgery.httpStatus == 422 && forgery.message.contains("device_signature does not match"), "\(forgery)")
            // A bundle the device stamped an hour ahead (signed, otherwise valid) is refused.
            let future = try Sealer(keys: loaded).seal(digest: SealFormat.hashBytes(bundle.imageHash)!, timestamp: Int64(Date().timeIntervalSince1970) + 3600)
            let early = try #require(await Self.serverError { _ = try await client.submitSeal(future) })
            #expect(early.httpStatus == 422 && early.message.contains("timestamp is in the future"), "\(early)")
            // Malformed fields are a bad request naming the field.
            b = bundle; b.keyIndices[0] = SealFormat.keysPerTable
            let outOfRange = b
            let malformed = try #require(await Self.serverError { _ = try await client.submitSeal(outOfRange) })
            #expect(malformed.httpStatus == 400 && malformed.message.contains("key_indices"), "\(malformed)")

            // Replays: the same bundle from the same account is a retry (`duplicate`); from another
            // account it is refused as a replay. Neither records a second seal.
            let again = try await client.submitSeal(bundle)
            #expect(again == SubmissionResult(id: created.id, status: "duplicate"))
            let replay = try #require(await Self.serverError { _ = try await intruder.submitSeal(bundle) })
            messages.append("\(replay)")
            #expect(replay.httpStatus == 409 && replay.message.contains("replayed bundle"), "\(replay)")
            // A re-encoded signature (s → n − s verifies too) does not make a replay new.
            var malleated = bundle
            malleated.deviceSignature = Self.negatedS(bundle.deviceSignature)
            #expect(malleated.deviceSignature != bundle.deviceSignature)
            let reencoded = malleated
            let remalleated = try #require(await Self.serverError { _ = try await intruder.submitSeal(reencoded) })
            #expect(remalleated.httpStatus == 409, "\(remalleated)")
            let after = try await client.lookupSeal(sha256: bundle.imageHash)
            #expect(after.seals.count == 1 && after.seals[0].resubmissions == 3)

            // A key file others can read is refused, and the message names the file, not a key.
            chmod(keyFile, 0o644)
            do {
                _ = try DeviceKeys.load(path: keyFile)
                Issue.record("a key file with mode 0644 was read")
            } catch {
                messages.append("\(error)")
                guard case .unsafeKeyFile(let p, let mode) = error else { throw error }
                #expect(p == keyFile && mode == 0o644 && error.description.contains("mode 644"), "\(error)")
            }
        } catch {
            try? await client.shutdown()
            try? await intruder.shutdown()
            throw error
        }
        try await client.shutdown()
        try await intruder.shutdown()

        // No key in any log line (client at trace, server at debug) or error message.
        let everything = logs.all.joined(separator: "\n") + server.log + messages.joined(separator: "\n")
        #expect(!logs.all.isEmpty && server.log.contains("/api/v1/submit"))
        for secret in secrets { #expect(!everything.contains(secret)) }
        // Nor a secret in hex, nor the fingerprint's hash (the token's plaintext).
        for secret in secrets {
            #expect(!everything.contains(Digest.hex(Data(base64Encoded: secret)!)))
            #expect(!everything.contains(Digest.sha256Hex(Data(base64Encoded: secret)!)))
        }
    }

    /// The tRPC error a call failed with; nil when it succeeded (or failed otherwise, recorded).
    static func serverError(_ body: () async throws -> Void) async -> TRPCError? {
        do {
            try await body()
            return nil
        } catch ClientError.server(let e) {
            return e
        } catch {
            Issue.record("not a server error: \(error)")
            return nil
        }
    }

    /// The forged bundle's signature by `other`'s key over the canonical bytes.
    static func resign(_ b: SealBundle, otherKeyFile dir: URL, _ other: DeviceKeys) throws -> String {
        let path = dir.appendingPathComponent("other-keys.json").path
        try other.save(path: path, replace: true)
        let raw = try #require(JSONValue(json: try Data(contentsOf: URL(fileURLWithPath: path)))?["signingKey"])
        guard case .string(let s) = raw, let d = Data(base64Encoded: s) else { throw CancellationError() }
        let key = try P256.Signing.PrivateKey(rawRepresentation: d)
        return try key.signature(for: b.canonicalBytes).rawRepresentation.base64EncodedString()
    }

    /// r ‖ (n − s): the other valid encoding of the same ECDSA signature.
    static func negatedS(_ base64: String) -> String {
        let raw = [UInt8](Data(base64Encoded: base64)!)
        let n: [UInt8] = [0xFF, 0xFF, 0xFF, 0xFF, 0x00, 0x00, 0x00, 0x00, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
                          0xBC, 0xE6, 0xFA, 0xAD, 0xA7, 0x17, 0x9E, 0x84, 0xF3, 0xB9, 0xCA, 0xC2, 0xFC, 0x63, 0x25, 0x51]
        var s = Array(raw[32..<64]), out = [UInt8](repeating: 0, count: 32)
        var borrow = 0
        for i in stride(from: 31, through: 0, by: -1) {
            var v = Int(n[i]) - Int(s[i]) - borrow
            borrow = v < 0 ? 1 : 0
            if v < 0 { v += 256 }
            out[i] = UInt8(v)
        }
        s = out
        return Data(raw[0..<32] + s).base64EncodedString()
    }
}
