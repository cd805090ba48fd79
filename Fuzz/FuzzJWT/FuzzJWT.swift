import CFuzzDriver
import Crypto
import Foundation
@testable import KordantServer

/// libFuzzer target: the dev server's bearer-token check (`DevToken.verify`). Even first byte:
/// the rest is the token as sent. Odd first byte: the rest is `header JSON \0 payload JSON`,
/// signed here with the server's secret, so the claims parsing behind the signature check is
/// reached too. A token is accepted only when it is HS256, correctly signed, unexpired and has
/// a subject.
///
/// Built only by `scripts/fuzz` (see FuzzWAV). `@testable`: the base64url helpers are internal.
let secret = "fuzz-secret"
let now = Date(timeIntervalSince1970: 1_800_000_000)

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJWT(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data, size > 0 else { return 0 }
    let rest = Data(UnsafeBufferPointer(start: data + 1, count: size - 1))
    let token: String
    if data[0] & 1 == 0 {
        token = String(decoding: rest, as: UTF8.self)
    } else {
        let zero = rest.firstIndex(of: 0) ?? rest.endIndex
        let header = DevToken.base64URL(Data(rest[..<zero]))
        let payload = DevToken.base64URL(zero < rest.endIndex ? Data(rest[(zero + 1)...]) : Data())
        let mac = HMAC<SHA256>.authenticationCode(for: Data("\(header).\(payload)".utf8), using: SymmetricKey(data: Data(secret.utf8)))
        token = "\(header).\(payload).\(DevToken.base64URL(Data(mac)))"
    }
    do {
        let claims = try DevToken.verify(token, secret: secret, now: now)
        if claims.sub.isEmpty || Double(claims.exp) <= now.timeIntervalSince1970 { fatalError("accepted \(claims)") }
        if data[0] & 1 == 0, !token.hasPrefix("eyJ") { fatalError("a token not built by this target was accepted") }
    } catch {
        _ = error.description
    }
    return 0
}

@_cdecl("FuzzJWT_main")
public func fuzzJWTMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    var argc = argc
    var argv = argv
    return LLVMFuzzerRunDriver(&argc, &argv) { data, size in fuzzJWT(data, size) }
}
