import Crypto
import Foundation

/// HS256 JSON Web Tokens for the development server (`kordant token` signs, `kordant serve` verifies).
public enum DevToken {
    /// The secret both use unless `--secret` or `KORDANT_DEV_SECRET` says otherwise. Development only.
    public static let defaultSecret = "kordant-dev-secret-change-me"

    /// The claims the server reads.
    public struct Claims: Codable, Sendable, Equatable {
        public var sub: String
        public var email: String
        public var name: String
        public var iat: Int
        public var exp: Int
        public var iss: String
        public init(sub: String, email: String, name: String, issuedAt: Date = Date(), lifetime: TimeInterval = 30 * 86_400) {
            self.sub = sub; self.email = email; self.name = name
            iat = Int(issuedAt.timeIntervalSince1970)
            exp = iat + Int(lifetime)
            iss = "kordant-dev"
        }
    }

    /// Why a token was refused (said to the client without echoing the token).
    public enum Failure: Error, Sendable, Equatable, CustomStringConvertible {
        case malformed, unsupportedAlgorithm(String), badSignature, expired, missingSubject
        public var description: String {
            switch self {
            case .malformed: "the bearer token is not a JWT"
            case .unsupportedAlgorithm(let a): "the bearer token uses \(a); this server accepts HS256 only"
            case .badSignature: "the bearer token's signature does not verify"
            case .expired: "the bearer token has expired"
            case .missingSubject: "the bearer token has no subject"
            }
        }
    }

    public static func sign(_ claims: Claims, secret: String) -> String {
        let header = base64URL(Data(#"{"alg":"HS256","typ":"JWT"}"#.utf8))
        let payload = base64URL((try? JSONEncoder().encode(claims)) ?? Data())
        let input = header + "." + payload
        let mac = HMAC<SHA256>.authenticationCode(for: Data(input.utf8), using: SymmetricKey(data: Data(secret.utf8)))
        return input + "." + base64URL(Data(mac))
    }

    public static func verify(_ token: String, secret: String, now: Date = Date()) throws(Failure) -> Claims {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let headerData = decodeBase64URL(parts[0]), let payloadData = decodeBase64URL(parts[1]),
              let signature = decodeBase64URL(parts[2]),
              let header = try? JSONDecoder().decode([String: String].self, from: headerData)
        else { throw .malformed }
        // Only HS256: "none" and algorithm confusion are refused before anything else is read.
        guard header["alg"] == "HS256" else { throw .unsupportedAlgorithm(header["alg"] ?? "no algorithm") }
        let key = SymmetricKey(data: Data(secret.utf8))
        guard HMAC<SHA256>.isValidAuthenticationCode(signature, authenticating: Data((parts[0] + "." + parts[1]).utf8), using: key)
        else { throw .badSignature }
        guard let claims = try? JSONDecoder().decode(Claims.self, from: payloadData) else { throw .malformed }
        guard Double(claims.exp) > now.timeIntervalSince1970 else { throw .expired }
        guard !claims.sub.isEmpty else { throw .missingSubject }
        return claims
    }

    static func base64URL(_ data: Data) -> String {
        data.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    static func decodeBase64URL(_ s: Substring) -> Data? {
        var b = s.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while b.count % 4 != 0 { b += "=" }
        return Data(base64Encoded: b)
    }
}
