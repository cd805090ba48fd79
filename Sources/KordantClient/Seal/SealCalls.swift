import Foundation
import KordantAPI

extension KordantAPIClient {
    /// `seal.provision`: registers the device's public key and fingerprint hash and returns the
    /// complete key set. Nothing is written; the caller saves it (``DeviceKeys/save(path:replace:)``).
    public func provisionDevice(_ request: DeviceKeys.Request = .init()) async throws -> DeviceKeys {
        let result = try await mutation(Procedure.sealProvision, input: request.input, as: ProvisionResult.self)
        return try DeviceKeys(request: request, result: result, server: configuration.server)
    }

    /// `POST /api/v1/submit` of one bundle. Safe to repeat: the same bundle again is `duplicate`.
    public func submitSeal(_ bundle: SealBundle) async throws -> SubmissionResult {
        guard let body = JSONValue(encoding: bundle)?.data else { throw ClientError.local("the bundle does not encode as JSON") }
        let url = base + APIPath.sealSubmit
        let (status, _, data) = try await send(url: url, method: .POST, contentType: "application/json", extraHeaders: [], body: body,
                                               label: "seal submit")
        guard let result = try? JSONDecoder().decode(SubmissionResult.self, from: data) else {
            throw ClientError.invalidResponse(url: url, status: status, reason: "not a submission result (\(Self.preview(data)))")
        }
        return result
    }

    /// `seal.lookup`: the verified seals of a file's SHA-256 (hex).
    public func lookupSeal(sha256: String) async throws -> SealLookupResult {
        try await query(Procedure.sealLookup, input: JSONValue(encoding: SealLookupInput(sha256: sha256)), as: SealLookupResult.self)
    }
}
