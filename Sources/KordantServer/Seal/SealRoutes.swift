import Crypto
import Foundation
import Hummingbird
import KordantAPI

/// The seal endpoints: `seal.provision` (tRPC mutation), `seal.lookup` (tRPC query) and
/// `POST /api/v1/submit` (a bundle as JSON; errors in the tRPC error shape like every route).
extension APIResponder {
    func sealProvision(_ input: JSONValue, user: String) throws -> JSONValue {
        let p = try decode(ProvisionInput.self, input)
        guard let key = Data(base64Encoded: p.publicKey), (try? P256.Signing.PublicKey(x963Representation: key)) != nil else {
            throw TRPCError(.badRequest, "publicKey must be a base64 X9.63 P-256 public key")
        }
        guard let fingerprint = SealFormat.hashBytes(p.fingerprintHash) else {
            throw TRPCError(.badRequest, "fingerprintHash must be 64 lower-case hex digits")
        }
        switch try store.provision(user: user, publicKey: key, fingerprintHash: fingerprint) {
        case .conflict(let why): throw TRPCError(.conflict, why)
        case .provisioned(let device):
            let keys = try store.masterKeys(device.tables)
            let tables = device.tables.map { KeyTableAssignment(id: $0, masterKey: keys[$0]!.withUnsafeBytes { Data($0) }.base64EncodedString()) }
            logger.info("provisioned device \(device.id) with tables \(device.tables)")
            return JSONValue(encoding: ProvisionResult(deviceId: device.id, tables: tables, tableCount: try store.keyTableCount(),
                                                       keysPerTable: SealFormat.keysPerTable))!
        }
    }

    func sealLookup(_ input: JSONValue) throws -> JSONValue {
        let q = try decode(SealLookupInput.self, input)
        guard SealFormat.hashBytes(q.sha256) != nil else { throw TRPCError(.badRequest, "sha256 must be 64 lower-case hex digits") }
        let seals = try store.seals(imageHash: q.sha256)
        return JSONValue(encoding: SealLookupResult(sha256: q.sha256, sealed: !seals.isEmpty, seals: seals))!
    }

    func sealSubmit(_ request: Request) async throws -> Response {
        guard request.method == .post else { throw TRPCError(.methodNotSupported, "\(APIPath.sealSubmit) takes POST") }
        guard (request.headers[.contentType]?.lowercased() ?? "").hasPrefix("application/json") else {
            throw TRPCError(.unsupportedMediaType, "a bundle is sent as application/json")
        }
        let claims = try authenticate(request)
        let body = try await collect(request, limit: 64 << 10)
        guard let parsed = JSONValue(json: body) else { throw TRPCError(.parseError, "the body is not valid JSON") }
        let bundle = try decode(SealBundle.self, parsed)
        let device: Store.Device
        do { device = try SealVerifier(store: store).verify(bundle) } catch let r as SealVerifier.Rejection {
            logger.info("seal bundle rejected: \(r.description)")
            throw TRPCError(r.code, "bundle rejected: \(r.description)")
        }
        let result: SubmissionResult
        switch try store.insertSeal(bundle, device: device.id, submitter: claims.sub) {
        case .created(let id): result = SubmissionResult(id: id, status: "created")
        case .duplicate(let id): result = SubmissionResult(id: id, status: "duplicate")
        case .replay(let id, let first):
            logger.warning("replayed seal bundle \(id) (first received \(first)) from another account")
            throw TRPCError(.conflict, "replayed bundle: already submitted from another account (seal \(id), \(first))")
        }
        return json(result.status == "created" ? .created : .ok, JSONValue(encoding: result)!)
    }
}
