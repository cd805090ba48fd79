import AsyncHTTPClient
import Foundation
import KordantAPI
import Logging
import NIOCore
import NIOHTTP1
import Synchronization

/// Settings of a ``KordantAPIClient``.
public struct ClientConfiguration: Sendable {
    /// Base URL of the backend, e.g. `http://127.0.0.1:3000`.
    public var server: String
    public var transformer = TRPCTransformer.none
    public var retry = RetryPolicy()
    /// Time for one attempt (connect, send, receive), seconds.
    public var requestTimeout = 30.0
    /// Time for one call including every retry and backoff, seconds.
    public var totalTimeout = 120.0
    /// Largest response body read (a larger one is an invalid response, not a memory problem).
    public var maxResponseBytes = 16 << 20
    /// The time backoffs and both timeouts run on. Tests inject a virtual clock.
    public var clock: any KordantClock = SystemClock()

    public init(server: String) { self.server = server }

    /// `KORDANT_SERVER`, else the config file's `server`, else `http://127.0.0.1:3000`.
    public static func defaultServer(home: KordantHome, environment env: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let s = env["KORDANT_SERVER"], !s.isEmpty { return s }
        if let s = (try? ClientConfigFile.load(path: home.configFile.path))??.server, !s.isEmpty { return s }
        return "http://127.0.0.1:3000"
    }
}

/// A value from the server, or from the on-disk cache when the server was unreachable.
public struct Fetched<Value: Sendable>: Sendable {
    public var value: Value
    /// When the cached copy was fetched; nil for a live answer.
    public var cachedAt: Date?
}

/// Client of the Kordant backend: tRPC v11 over HTTP with bearer auth, retries with backoff
/// and full jitter, per-attempt and total timeouts, and multipart uploads with an idempotency key.
///
/// Call ``shutdown()`` when done. A client released without it (an embedder's early return, a
/// thrown error) shuts its connection pool down in the background instead of leaking it.
public final class KordantAPIClient: Sendable {
    public let configuration: ClientConfiguration
    let http: HTTPClient
    /// Set by the first ``shutdown()``: a second call, and the release, do nothing more.
    private let shutDown = Atomic<Bool>(false)
    let credentials: Credentials
    let cache: QueryCache?
    let logger: Logger
    let base: String

    public init(configuration: ClientConfiguration, credentials: Credentials, cache: QueryCache? = nil,
                logger: Logger = Logger(label: "kordant.client")) throws {
        var base = configuration.server
        while base.hasSuffix("/") { base.removeLast() }
        guard let url = URL(string: base), let scheme = url.scheme, ["http", "https"].contains(scheme), url.host != nil else {
            throw ClientError.local("server URL \(configuration.server) is not an http(s) URL")
        }
        self.base = base
        self.configuration = configuration
        self.credentials = credentials
        self.cache = cache
        self.logger = logger
        var http = HTTPClient.Configuration()
        // The API never redirects; following one could send the token elsewhere.
        http.redirectConfiguration = .disallow
        http.timeout = .init(connect: .milliseconds(Int64(min(configuration.requestTimeout, 10) * 1000)))
        // A refused connection fails the attempt at once; our own backoff decides what comes next.
        // (AHC's built-in reconnect loop would hold each attempt until its timeout when the server is down.)
        http.connectionPool.retryConnectionEstablishment = false
        self.http = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: http)
    }

    /// Closes the connection pool. Idempotent: later calls return at once.
    public func shutdown() async throws {
        guard !shutDown.exchange(true, ordering: .acquiringAndReleasing) else { return }
        try await http.shutdown()
    }

    deinit {
        // AsyncHTTPClient traps in debug builds (and leaks in release) when a client is released
        // running; the callback form does not block the releasing thread, which may be an event loop.
        if !shutDown.load(ordering: .acquiring) { http.shutdown { _ in } }
    }

    // MARK: Typed procedures

    /// `user.me`, falling back to the cache when the server is unreachable.
    public func me() async throws -> Fetched<User> {
        try await cachedQuery(Procedure.userMe, input: nil, as: User.self)
    }

    /// `voiceprint.listEnrollments`, falling back to the cache when the server is unreachable.
    public func listEnrollments(_ input: ListEnrollmentsInput = .init()) async throws -> Fetched<EnrollmentList> {
        try await cachedQuery(Procedure.listEnrollments, input: JSONValue(encoding: input), as: EnrollmentList.self)
    }

    /// `voiceprint.createEnrollment`. Safe to repeat with the same `clientRequestId`.
    public func createEnrollment(_ input: CreateEnrollmentInput) async throws -> SubmissionResult {
        try await mutation(Procedure.createEnrollment, input: input, as: SubmissionResult.self)
    }

    /// `voiceprint.submitAnalysis`. Safe to repeat with the same `clientRequestId`.
    public func submitAnalysis(_ input: SubmitAnalysisInput) async throws -> SubmissionResult {
        try await mutation(Procedure.submitAnalysis, input: input, as: SubmissionResult.self)
    }

    /// `voiceprint.listAnalyses`: an enrollment's analysis history (not cached: it changes with every check).
    public func listAnalyses(_ input: ListAnalysesInput) async throws -> AnalysisList {
        try await query(Procedure.listAnalyses, input: JSONValue(encoding: input), as: AnalysisList.self)
    }

    /// `documents.submitScan`. Safe to repeat with the same `clientRequestId`.
    public func submitScan(_ input: SubmitScanInput) async throws -> SubmissionResult {
        try await mutation(Procedure.submitScan, input: input, as: SubmissionResult.self)
    }

    // MARK: Generic calls

    public enum CallKind: Sendable { case query, mutation }

    /// Calls any procedure with a JSON input; returns the result's `data`.
    public func call(_ procedure: String, input: JSONValue?, kind: CallKind) async throws -> JSONValue {
        let url: String
        let method: HTTPMethod
        var body: Data?
        let encoded = procedure.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? procedure
        switch kind {
        case .query:
            method = .GET
            if let input, input != .null {
                let json = String(decoding: configuration.transformer.wrap(input).data, as: UTF8.self)
                // encodeURIComponent's set: what tRPC's own client sends.
                var allowed = CharacterSet.alphanumerics
                allowed.insert(charactersIn: "-_.!~*'()")
                url = "\(base)\(APIPath.trpc)/\(encoded)?input=\(json.addingPercentEncoding(withAllowedCharacters: allowed) ?? "")"
            } else {
                url = "\(base)\(APIPath.trpc)/\(encoded)"
            }
        case .mutation:
            method = .POST
            url = "\(base)\(APIPath.trpc)/\(encoded)"
            body = configuration.transformer.wrap(input ?? .null).data
        }
        let (status, _, data) = try await send(url: url, method: method, contentType: body == nil ? nil : "application/json",
                                               extraHeaders: [], body: body, label: procedure)
        guard let json = JSONValue(json: data) else {
            throw ClientError.invalidResponse(url: url, status: status, reason: "the body is not JSON (\(Self.preview(data)))")
        }
        guard let result = TRPCEnvelope.resultData(json, transformer: configuration.transformer) else {
            throw ClientError.invalidResponse(url: url, status: status, reason: "no result.data in the body (\(Self.preview(data)))")
        }
        return result
    }

    public func query<Output: Decodable>(_ procedure: String, input: JSONValue?, as: Output.Type) async throws -> Output {
        try decodeResult(try await call(procedure, input: input, kind: .query), procedure)
    }

    public func mutation<Input: Encodable, Output: Decodable>(_ procedure: String, input: Input, as: Output.Type) async throws -> Output {
        guard let json = JSONValue(encoding: input) else { throw ClientError.local("input of \(procedure) does not encode as JSON") }
        return try decodeResult(try await call(procedure, input: json, kind: .mutation), procedure)
    }

    private func decodeResult<Output: Decodable>(_ value: JSONValue, _ procedure: String) throws -> Output {
        guard let out = value.decode(Output.self) else {
            throw ClientError.invalidResponse(url: "\(base)\(APIPath.trpc)/\(procedure)", status: 200,
                                              reason: "result.data is not a \(Output.self)")
        }
        return out
    }

    private func cachedQuery<Output: Codable & Sendable>(_ procedure: String, input: JSONValue?, as: Output.Type) async throws -> Fetched<Output> {
        let key = QueryCache.key(server: base, procedure: procedure, input: input, credentials: credentials)
        do {
            let value = try await call(procedure, input: input, kind: .query)
            let out: Output = try decodeResult(value, procedure)
            try? cache?.store(key: key, value: value)
            return Fetched(value: out, cachedAt: nil)
        } catch let error as ClientError {
            if case .unreachable = error, let cache, let hit = try? cache.fresh(key: key), let out = hit.value.decode(Output.self) {
                logger.debug("serving \(procedure) from the cache (fetched \(hit.fetchedAt))")
                return Fetched(value: out, cachedAt: hit.fetchedAt)
            }
            throw error
        }
    }

    // MARK: Uploads

    /// `POST /api/upload` of `data` as `multipart/form-data` with its SHA-256 and kind. The same
    /// `idempotencyKey` always yields the same upload.
    public func upload(_ data: Data, sha256: String? = nil, kind: UploadKind, filename: String, contentType: String,
                       idempotencyKey: String) async throws -> UploadResult {
        let digest = sha256 ?? Digest.sha256Hex(data)
        let boundary = "kordant-\(UUID().uuidString)"
        var body = Data()
        func part(_ name: String, filename: String? = nil, contentType: String? = nil, _ content: Data) {
            body.append(Data("--\(boundary)\r\nContent-Disposition: form-data; name=\"\(name)\"".utf8))
            if let filename { body.append(Data("; filename=\"\(Self.formFilename(filename))\"".utf8)) }
            body.append(Data("\r\n".utf8))
            if let contentType { body.append(Data("Content-Type: \(contentType)\r\n".utf8)) }
            body.append(Data("\r\n".utf8))
            body.append(content)
            body.append(Data("\r\n".utf8))
        }
        part("sha256", Data(digest.utf8))
        part("kind", Data(kind.rawValue.utf8))
        part("file", filename: filename, contentType: contentType, data)
        body.append(Data("--\(boundary)--\r\n".utf8))
        let url = base + APIPath.upload
        let (status, _, response) = try await send(url: url, method: .POST, contentType: "multipart/form-data; boundary=\(boundary)",
                                                   extraHeaders: [("Idempotency-Key", idempotencyKey)], body: body, label: "upload")
        guard let result = try? JSONDecoder().decode(UploadResult.self, from: response) else {
            throw ClientError.invalidResponse(url: url, status: status, reason: "not an upload result (\(Self.preview(response)))")
        }
        guard result.sha256 == digest else {
            throw ClientError.invalidResponse(url: url, status: status, reason: "the server stored a different digest")
        }
        return result
    }

    // MARK: Transport

    /// One logical request with retries. Returns a 2xx answer; throws ``ClientError`` otherwise.
    func send(url: String, method: HTTPMethod, contentType: String?, extraHeaders: [(String, String)], body: Data?,
                      label: String) async throws -> (Int, HTTPHeaders, Data) {
        let policy = configuration.retry
        let clock = configuration.clock
        let deadline = clock.now + .seconds(clamped: configuration.totalTimeout)
        var attempt = 0
        while true {
            attempt += 1
            try Task.checkCancellation()
            var request = HTTPClientRequest(url: url)
            request.method = method
            request.headers.add(name: "Authorization", value: "Bearer \(credentials.token)")
            request.headers.add(name: "Accept", value: "application/json")
            request.headers.add(name: "User-Agent", value: "kordant-engine")
            if let contentType { request.headers.add(name: "Content-Type", value: contentType) }
            for (k, v) in extraHeaders { request.headers.add(name: k, value: v) }
            if let body { request.body = .bytes(ByteBuffer(bytes: body)) }
            let timeout = max(.milliseconds(50), min(.seconds(clamped: configuration.requestTimeout), deadline - clock.now))
            var retryAfter: Double?
            let failure: ClientError
            do {
                switch try await runAttempt(request, url: url, until: clock.now + timeout, clock: clock) {
                case .timedOut:
                    logger.debug("\(method) \(label) attempt \(attempt): timed out")
                    failure = .unreachable(url: url, attempts: attempt,
                                           reason: "timed out (no answer within \(Self.format(timeout)))")
                case .answered(let status, let headers, let data):
                    logger.debug("\(method) \(label) attempt \(attempt): HTTP \(status)")
                    if (200..<300).contains(status) { return (status, headers, data) }
                    let error = Self.trpcError(status: status, body: data, transformer: configuration.transformer)
                    guard error.isRetryable else { throw ClientError.server(error) }
                    retryAfter = RetryPolicy.parseRetryAfter(headers.first(name: "Retry-After"))
                    failure = .server(error)
                }
            } catch let error as ClientError {
                throw error
            } catch {
                if error is CancellationError || Task.isCancelled { throw CancellationError() }
                logger.debug("\(method) \(label) attempt \(attempt): \(Self.describe(error))")
                failure = .unreachable(url: url, attempts: attempt, reason: Self.describe(error))
            }
            let wait = Duration.seconds(clamped: policy.delay(after: attempt, retryAfter: retryAfter))
            guard attempt < policy.maxAttempts, clock.now + wait < deadline else {
                if case .unreachable(let u, _, let reason) = failure { throw ClientError.unreachable(url: u, attempts: attempt, reason: reason) }
                throw failure
            }
            try await clock.sleep(until: clock.now + wait)
        }
    }

    /// How one attempt ended: an HTTP answer with its whole body, or no answer in time.
    private enum Attempt: Sendable {
        case answered(status: Int, headers: HTTPHeaders, body: Data)
        case timedOut
    }

    /// One request raced against `deadline` on `clock`; the loser is cancelled (AHC cancels the
    /// request). The timeout is ours rather than AHC's so that it runs on the injected clock.
    private func runAttempt(_ request: HTTPClientRequest, url: String, until deadline: Duration, clock: any KordantClock) async throws -> Attempt {
        let http = http, limit = configuration.maxResponseBytes
        // AHC's own deadline only backs ours up (a clock that never fires must not hang a call);
        // generous, so that it never decides in place of the injected clock.
        let backstop = TimeAmount.seconds(Int64(min(configuration.requestTimeout, 86_400)) + 600)
        return try await withThrowingTaskGroup(of: Attempt.self) { group in
            group.addTask {
                let response = try await http.execute(request, timeout: backstop)
                let buffer: ByteBuffer
                do { buffer = try await response.body.collect(upTo: limit) } catch is NIOTooManyBytesError {
                    throw ClientError.invalidResponse(url: url, status: Int(response.status.code), reason: "body larger than \(limit) bytes")
                }
                return .answered(status: Int(response.status.code), headers: response.headers, body: Data(buffer.readableBytesView))
            }
            group.addTask {
                try await clock.sleep(until: deadline)
                return .timedOut
            }
            defer { group.cancelAll() }
            guard let first = try await group.next() else { throw CancellationError() }
            return first
        }
    }

    private static func format(_ d: Duration) -> String {
        let s = d.seconds
        return s < 10 ? String(format: "%.2g s", s) : String(format: "%.0f s", s)
    }

    /// The tRPC error in an error response; a body without one (a proxy's HTML page) gets the
    /// code of its HTTP status.
    static func trpcError(status: Int, body: Data, transformer: TRPCTransformer) -> TRPCError {
        if let json = JSONValue(json: body), let shape = TRPCEnvelope.errorShape(json, transformer: transformer) {
            return TRPCError(code: shape.data.code, httpStatus: shape.data.httpStatus, message: shape.message, path: shape.data.path,
                             jsonRPCCode: shape.code)
        }
        return TRPCError(code: TRPCErrorCode(httpStatus: status).rawValue, httpStatus: status,
                         message: "HTTP \(status) without a tRPC error body (\(preview(body)))")
    }

    /// A filename as it may appear in a part's quoted `filename=` parameter: a quote, CR or LF
    /// (all legal in Linux file names) would end the parameter or the header and corrupt the form.
    static func formFilename(_ name: String) -> String {
        String(name.map { $0 == "\"" || $0 == "\r" || $0 == "\n" || $0 == "\r\n" ? "_" : $0 })
    }

    static func preview(_ data: Data) -> String {
        if data.isEmpty { return "empty" }
        let text = String(decoding: data.prefix(80), as: UTF8.self).map { $0.isASCII && !$0.isNewline ? String($0) : "?" }.joined()
        return "\(data.count) bytes: \(text)\(data.count > 80 ? "…" : "")"
    }

    static func describe(_ error: any Error) -> String {
        if let e = error as? HTTPClientError {
            switch e {
            case .remoteConnectionClosed: return "connection closed without an answer"
            case .readTimeout, .deadlineExceeded: return "timed out"
            case .connectTimeout: return "connect timed out"
            default: return "\(e)"
            }
        }
        let text = "\(error)"
        if text.contains("refused") { return "connection refused" }
        return text
    }
}
