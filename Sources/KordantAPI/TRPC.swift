import Foundation

/// tRPC error codes (tRPC v11 `TRPC_ERROR_CODE_KEY`), with their HTTP status and JSON-RPC number.
///
/// Retryability is decided from this string code (or the HTTP status), never from the JSON-RPC
/// number: -32603 stands for 500, 501, 502, 503 and 504 alike.
public enum TRPCErrorCode: String, Sendable, Codable, CaseIterable {
    case parseError = "PARSE_ERROR"
    case badRequest = "BAD_REQUEST"
    case unauthorized = "UNAUTHORIZED"
    case paymentRequired = "PAYMENT_REQUIRED"
    case forbidden = "FORBIDDEN"
    case notFound = "NOT_FOUND"
    case methodNotSupported = "METHOD_NOT_SUPPORTED"
    case timeout = "TIMEOUT"
    case conflict = "CONFLICT"
    case preconditionFailed = "PRECONDITION_FAILED"
    case payloadTooLarge = "PAYLOAD_TOO_LARGE"
    case unsupportedMediaType = "UNSUPPORTED_MEDIA_TYPE"
    case unprocessableContent = "UNPROCESSABLE_CONTENT"
    case tooManyRequests = "TOO_MANY_REQUESTS"
    case clientClosedRequest = "CLIENT_CLOSED_REQUEST"
    case internalServerError = "INTERNAL_SERVER_ERROR"
    case notImplemented = "NOT_IMPLEMENTED"
    case badGateway = "BAD_GATEWAY"
    case serviceUnavailable = "SERVICE_UNAVAILABLE"
    case gatewayTimeout = "GATEWAY_TIMEOUT"

    /// The HTTP status tRPC answers with for this code.
    public var httpStatus: Int {
        switch self {
        case .parseError, .badRequest: 400
        case .unauthorized: 401
        case .paymentRequired: 402
        case .forbidden: 403
        case .notFound: 404
        case .methodNotSupported: 405
        case .timeout: 408
        case .conflict: 409
        case .preconditionFailed: 412
        case .payloadTooLarge: 413
        case .unsupportedMediaType: 415
        case .unprocessableContent: 422
        case .tooManyRequests: 429
        case .clientClosedRequest: 499
        case .internalServerError: 500
        case .notImplemented: 501
        case .badGateway: 502
        case .serviceUnavailable: 503
        case .gatewayTimeout: 504
        }
    }

    /// The JSON-RPC 2.0 number in `error.code`.
    public var jsonRPCCode: Int {
        switch self {
        case .parseError: -32700
        case .badRequest: -32600
        case .internalServerError, .notImplemented, .badGateway, .serviceUnavailable, .gatewayTimeout: -32603
        case .unauthorized: -32001
        case .paymentRequired: -32002
        case .forbidden: -32003
        case .notFound: -32004
        case .methodNotSupported: -32005
        case .timeout: -32008
        case .conflict: -32009
        case .preconditionFailed: -32012
        case .payloadTooLarge: -32013
        case .unsupportedMediaType: -32015
        case .unprocessableContent: -32022
        case .tooManyRequests: -32029
        case .clientClosedRequest: -32099
        }
    }

    /// The code for an HTTP status when a response carries no tRPC error (a proxy's HTML page, say).
    public init(httpStatus: Int) {
        if let match = Self.allCases.first(where: { $0.httpStatus == httpStatus && $0 != .parseError }) {
            self = match
        } else {
            self = httpStatus >= 500 ? .internalServerError : .badRequest
        }
    }

    /// Transient conditions worth another attempt: 408, 429, 500, 502, 503, 504.
    public var isRetryable: Bool {
        switch self {
        case .timeout, .tooManyRequests, .internalServerError, .badGateway, .serviceUnavailable, .gatewayTimeout: true
        default: false
        }
    }
}

/// `error` in a tRPC error response: `{"message", "code": <JSON-RPC number>, "data": {"code", "httpStatus", "path"}}`.
public struct TRPCErrorShape: Codable, Sendable, Equatable {
    public struct Data: Codable, Sendable, Equatable {
        /// The string code, e.g. `UNAUTHORIZED` (kept as a string: a newer server may send codes we do not know).
        public var code: String
        public var httpStatus: Int
        public var path: String?
        public init(code: String, httpStatus: Int, path: String?) {
            self.code = code; self.httpStatus = httpStatus; self.path = path
        }
    }
    public var message: String
    public var code: Int
    public var data: Data

    public init(_ code: TRPCErrorCode, message: String, path: String?) {
        self.message = message
        self.code = code.jsonRPCCode
        data = Data(code: code.rawValue, httpStatus: code.httpStatus, path: path)
    }
}

/// How inputs and outputs sit inside the envelopes.
public enum TRPCTransformer: String, Sendable, Codable, CaseIterable {
    /// Plain JSON (tRPC without a transformer).
    case none
    /// superjson's envelope: every input, result and error is `{"json": …}` (no `meta`: our
    /// values are plain JSON, with dates as ISO 8601 strings).
    case superjson

    public func wrap(_ value: JSONValue) -> JSONValue {
        self == .superjson ? .object(["json": value]) : value
    }

    /// Unwraps `{"json": …}`; a superjson payload without it is a protocol error.
    public func unwrap(_ value: JSONValue) -> JSONValue? {
        guard self == .superjson else { return value }
        guard case .object(let o) = value, let inner = o["json"] else { return nil }
        return inner
    }
}

/// Building and reading tRPC v11 HTTP envelopes.
public enum TRPCEnvelope {
    /// `{"result": {"data": …}}`.
    public static func success(_ data: JSONValue, transformer: TRPCTransformer) -> JSONValue {
        .object(["result": .object(["data": transformer.wrap(data)])])
    }

    /// `{"error": …}` (superjson: `{"error": {"json": …}}`).
    public static func error(_ shape: TRPCErrorShape, transformer: TRPCTransformer) -> JSONValue {
        .object(["error": transformer.wrap(JSONValue(encoding: shape) ?? .null)])
    }

    /// The data of a success envelope; nil when the body is not one. Extra keys are accepted.
    public static func resultData(_ body: JSONValue, transformer: TRPCTransformer) -> JSONValue? {
        guard case .object(let o) = body, case .object(let result)? = o["result"] else { return nil }
        return transformer.unwrap(result["data"] ?? .null)
    }

    /// The error of an error envelope; nil when the body is not one.
    public static func errorShape(_ body: JSONValue, transformer: TRPCTransformer) -> TRPCErrorShape? {
        guard case .object(let o) = body, let e = o["error"] else { return nil }
        // Accept both: a server configured differently from us still gets its error read.
        let inner = transformer.unwrap(e) ?? e
        return inner.decode(TRPCErrorShape.self) ?? e.decode(TRPCErrorShape.self)
    }
}

/// The HTTP paths of the API.
public enum APIPath {
    public static let trpc = "/api/trpc"
    public static let upload = "/api/upload"
}
