import Foundation
import KordantAPI

/// An error the server answered with, read from the tRPC error envelope.
public struct TRPCError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The string code (`data.code`), e.g. `UNAUTHORIZED`; kept as text so unknown codes survive.
    public var code: String
    /// `data.httpStatus`, or the response status when the body carried none.
    public var httpStatus: Int
    public var message: String
    /// The procedure path the server named, if any.
    public var path: String?
    /// The JSON-RPC number (`error.code`), for display only.
    public var jsonRPCCode: Int?

    public init(code: String, httpStatus: Int, message: String, path: String? = nil, jsonRPCCode: Int? = nil) {
        self.code = code; self.httpStatus = httpStatus; self.message = message; self.path = path; self.jsonRPCCode = jsonRPCCode
    }

    /// The code as a known case (nil for codes newer than this client).
    public var knownCode: TRPCErrorCode? { TRPCErrorCode(rawValue: code) }

    /// Decided from the string code, or the HTTP status when the code is unknown: never from the
    /// JSON-RPC number, which is -32603 for 500 to 504 alike.
    public var isRetryable: Bool {
        if let known = knownCode { return known.isRetryable }
        return [408, 429, 500, 502, 503, 504].contains(httpStatus)
    }

    public var description: String {
        var text = "\(code) (HTTP \(httpStatus))\(path.map { " at \($0)" } ?? ""): \(message)"
        if knownCode == .unauthorized { text += ". " + Credentials.setupHint }
        return text
    }
}

/// Everything a client call can fail with.
public enum ClientError: Error, Sendable, CustomStringConvertible {
    /// The server answered with a tRPC error (after retries, if it was retryable).
    case server(TRPCError)
    /// No answer after every attempt: connection refused or dropped, or a timeout.
    case unreachable(url: String, attempts: Int, reason: String)
    /// The server answered with something that is not a tRPC response.
    case invalidResponse(url: String, status: Int, reason: String)
    /// No token is configured, or the config file is unsafe or unreadable.
    case credentials(String)
    /// A local problem: a file to upload cannot be read, a bad server URL.
    case local(String)

    public var description: String {
        switch self {
        case .server(let e): e.description
        case .unreachable(let url, let attempts, let reason): "\(url): no answer after \(attempts) attempt\(attempts == 1 ? "" : "s") (\(reason))"
        case .invalidResponse(let url, let status, let reason): "\(url): HTTP \(status) with an invalid response: \(reason)"
        case .credentials(let m): m
        case .local(let m): m
        }
    }

    /// The condition may clear by itself (the server or network is down or overloaded), as
    /// opposed to a problem with this request or this client's setup.
    public var isTransient: Bool {
        switch self {
        case .server(let e): e.isRetryable
        case .unreachable: true
        case .invalidResponse: true
        case .credentials, .local: false
        }
    }

    /// The server refused our credentials, or we have none.
    public var isAuthentication: Bool {
        switch self {
        case .server(let e): e.knownCode == .unauthorized
        case .credentials: true
        default: false
        }
    }
}
