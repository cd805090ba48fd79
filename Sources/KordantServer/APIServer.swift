import Foundation
import HTTPTypes
import Hummingbird
import KordantAPI
import Logging
import NIOCore

/// Faults the development server injects so that clients can be tested against a flaky backend.
public struct FaultInjection: Sendable, Equatable {
    /// Fraction of API requests answered with a random 500, 502 or 503 (before any work is done).
    public var failRate: Double = 0
    /// Fraction of API requests whose connection is closed without an answer: half of them before
    /// the work is done, half after it was committed (the client cannot tell which: the case that
    /// needs idempotency).
    public var dropRate: Double = 0
    /// Added delay before every API request, milliseconds.
    public var latencyMs: Int = 0
    /// Retry-After (seconds) sent with injected failures.
    public var retryAfterSeconds: Int?
    public init(failRate: Double = 0, dropRate: Double = 0, latencyMs: Int = 0, retryAfterSeconds: Int? = nil) {
        self.failRate = failRate; self.dropRate = dropRate; self.latencyMs = latencyMs; self.retryAfterSeconds = retryAfterSeconds
    }
}

/// Settings of the development server.
public struct ServerConfiguration: Sendable {
    public var host = "127.0.0.1"
    /// 0 picks a free port (reported through `onListening`).
    public var port = 3000
    public var databasePath = "kordant.sqlite"
    public var uploadsDirectory = "uploads"
    /// HS256 secret for bearer tokens.
    public var secret = DevToken.defaultSecret
    public var transformer = TRPCTransformer.none
    public var faults = FaultInjection()
    /// Largest upload accepted (413 above).
    public var maxUploadBytes = 64 << 20
    /// Largest tRPC request body accepted (413 above).
    public var maxRequestBytes = 4 << 20
    /// Seconds a connection may send nothing — between requests or in the middle of one — before
    /// it is closed: a client that stalls mid-body cannot hold a connection (and its buffers) forever.
    public var idleTimeout = 30.0
    /// Bytes of request bodies being received at once, over all connections: a request reserves
    /// its declared length (or its limit, when chunked) before reading, and is answered 503 (which
    /// clients retry) when the reservation does not fit. With processing after receipt synchronous,
    /// the server holds at most this plus one body per cooperative thread.
    public var maxBufferedBodyBytes = 256 << 20
    public init() {}
}

/// The request context: Hummingbird's core storage plus the connection, so that a fault can
/// close it without answering.
struct ServerContext: RequestContext {
    var coreContext: CoreRequestContextStorage
    let channel: any Channel
    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        channel = source.channel
    }
}

/// The Kordant backend API (tRPC v11 over HTTP, uploads, HS256 bearer auth) over SQLite and
/// files on disk, for development and tests.
public struct APIServer: Sendable {
    public let configuration: ServerConfiguration
    let logger: Logger

    public init(configuration: ServerConfiguration, logger: Logger = Logger(label: "kordant.server")) {
        self.configuration = configuration
        self.logger = logger
    }

    /// Opens the database and serves until SIGINT/SIGTERM. `onListening` receives the bound port.
    public func run(onListening: @escaping @Sendable (Int) async -> Void = { _ in }) async throws {
        let store = try Store(path: configuration.databasePath,
                              uploadsDirectory: URL(fileURLWithPath: configuration.uploadsDirectory, isDirectory: true))
        let responder = APIResponder(store: store, configuration: configuration, logger: logger,
                                     bodies: BodyBudget(total: configuration.maxBufferedBodyBytes))
        var appConfig = ApplicationConfiguration(address: .hostname(configuration.host, port: configuration.port), serverName: nil)
        appConfig.reuseAddress = true
        let idle = TimeAmount.milliseconds(Int64((max(configuration.idleTimeout, 0.001) * 1000).rounded()))
        let app = Application(
            responder: responder, server: .http1(configuration: .init(idleTimeout: idle)), configuration: appConfig,
            onServerRunning: { channel in await onListening(channel.localAddress?.port ?? 0) },
            logger: logger)
        try await app.runService()
    }
}

/// Routes: `GET|POST /api/trpc/<procedure>`, `POST /api/upload`, `GET /healthz`.
struct APIResponder: HTTPResponder {
    typealias Context = ServerContext
    let store: Store
    let configuration: ServerConfiguration
    let logger: Logger
    let bodies: BodyBudget

    func respond(to request: Request, context: ServerContext) async throws -> Response {
        let path = request.uri.path
        if path == "/healthz" { return Response(status: .ok, body: .init(byteBuffer: ByteBuffer(string: "ok\n"))) }
        let isAPI = path.hasPrefix(APIPath.trpc + "/") || path == APIPath.upload || path == APIPath.sealSubmit
        let faults = configuration.faults
        if isAPI {
            if faults.latencyMs > 0 {
                // Lets a test see that a request arrived before the injected latency holds it.
                logger.debug("\(request.method) \(path) received, answering in \(faults.latencyMs) ms")
                try await Task.sleep(for: .milliseconds(faults.latencyMs))
            }
            let roll = Double.random(in: 0..<1)
            if roll < faults.failRate {
                let code: TRPCErrorCode = [.internalServerError, .badGateway, .serviceUnavailable].randomElement()!
                logger.info("injected \(code.httpStatus)", metadata: ["path": "\(path)"])
                var response = errorResponse(TRPCError(code, "injected fault"), path: procedureName(path))
                if let s = faults.retryAfterSeconds { response.headers[HTTPField.Name("Retry-After")!] = String(s) }
                return response
            }
            if roll < faults.failRate + faults.dropRate {
                let afterWork = Bool.random()
                var response: Response?
                if afterWork { response = try await handle(request, context: context, path: path) }
                logger.info("injected drop \(afterWork ? "after" : "before") the work", metadata: ["path": "\(path)", "status": "\(response?.status.code ?? 0)"])
                try? await context.channel.close()
                return response ?? Response(status: .internalServerError)
            }
        }
        let response = try await handle(request, context: context, path: path)
        logger.info("\(request.method) \(path) \(response.status.code)")
        return response
    }

    private func handle(_ request: Request, context: ServerContext, path: String) async throws -> Response {
        do {
            if path == APIPath.upload { return try await upload(request, context: context) }
            if path == APIPath.sealSubmit { return try await sealSubmit(request) }
            if path.hasPrefix(APIPath.trpc + "/") { return try await trpc(request, procedure: procedureName(path)!) }
            throw TRPCError(.notFound, "no route for \(path)")
        } catch let error as TRPCError {
            return errorResponse(error, path: procedureName(path))
        } catch {
            logger.error("internal error: \(error)")
            return errorResponse(TRPCError(.internalServerError, "internal error"), path: procedureName(path))
        }
    }

    private func procedureName(_ path: String) -> String? {
        if path.hasPrefix(APIPath.trpc + "/") { return String(path.dropFirst(APIPath.trpc.count + 1)) }
        return path == APIPath.upload ? "upload" : path == APIPath.sealSubmit ? "submit" : nil
    }

    // MARK: tRPC

    private func trpc(_ request: Request, procedure: String) async throws -> Response {
        let isQuery = [Procedure.userMe, Procedure.listEnrollments, Procedure.listAnalyses, Procedure.sealLookup].contains(procedure)
        let isMutation = [Procedure.createEnrollment, Procedure.submitScan, Procedure.submitAnalysis, Procedure.sealProvision].contains(procedure)
        guard isQuery || isMutation else { throw TRPCError(.notFound, "No procedure found on path \"\(procedure)\"") }
        if request.uri.queryParameters["batch"] != nil { throw TRPCError(.badRequest, "batch calls are not supported by this server") }
        var input: JSONValue = .null
        if isQuery {
            guard request.method == .get else { throw TRPCError(.methodNotSupported, "Unsupported POST-request to query procedure at path \"\(procedure)\"") }
            if let raw = request.uri.queryParameters["input"] {
                guard let v = JSONValue(json: Data(raw.utf8)) else { throw TRPCError(.parseError, "input is not valid JSON") }
                input = v
            }
        } else {
            guard request.method == .post else { throw TRPCError(.methodNotSupported, "Unsupported GET-request to mutation procedure at path \"\(procedure)\"") }
            let contentType = request.headers[.contentType]?.lowercased() ?? ""
            guard contentType.hasPrefix("application/json") else {
                throw TRPCError(.unsupportedMediaType, contentType.isEmpty ? "Missing content-type header" : "Unsupported content-type \"\(contentType)\"")
            }
            let body = try await collect(request, limit: configuration.maxRequestBytes)
            if !body.isEmpty {
                guard let v = JSONValue(json: body) else { throw TRPCError(.parseError, "request body is not valid JSON") }
                input = v
            }
        }
        if configuration.transformer == .superjson, input != .null {
            guard let inner = configuration.transformer.unwrap(input) else { throw TRPCError(.badRequest, "superjson input must be {\"json\": …}") }
            input = inner
        }
        let claims = try authenticate(request)
        let data: JSONValue
        switch procedure {
        case Procedure.userMe:
            data = JSONValue(encoding: User(id: claims.sub, email: claims.email, name: claims.name))!
        case Procedure.listEnrollments:
            let list = input == .null ? ListEnrollmentsInput() : try decode(ListEnrollmentsInput.self, input)
            let (limit, cursor) = try paging(list.limit, list.cursor)
            data = JSONValue(encoding: try store.enrollments(user: claims.sub, limit: limit, after: cursor))!
        case Procedure.listAnalyses:
            let list = try decode(ListAnalysesInput.self, input)
            let (limit, cursor) = try paging(list.limit, list.cursor)
            guard let enrollment = try store.enrollmentID(user: claims.sub, reference: list.enrollmentId) else {
                throw TRPCError(.notFound, "no enrollment \(list.enrollmentId) for this user")
            }
            data = JSONValue(encoding: try store.analyses(enrollmentID: enrollment, limit: limit, after: cursor))!
        case Procedure.submitAnalysis:
            let a = try decode(SubmitAnalysisInput.self, input)
            let enrollment = try validate(a, user: claims.sub)
            data = JSONValue(encoding: try outcome(store.insertAnalysis(user: claims.sub, input: a, enrollmentID: enrollment, payload: input.data),
                                                   a.clientRequestId))!
        case Procedure.sealProvision:
            data = try sealProvision(input, user: claims.sub)
        case Procedure.sealLookup:
            data = try sealLookup(input)
        case Procedure.createEnrollment:
            let e = try decode(CreateEnrollmentInput.self, input)
            try validate(e, user: claims.sub)
            data = JSONValue(encoding: try outcome(store.insertEnrollment(user: claims.sub, input: e, payload: input.data), e.clientRequestId))!
        default:
            let s = try decode(SubmitScanInput.self, input)
            try validate(s, user: claims.sub)
            data = JSONValue(encoding: try outcome(store.insertScan(user: claims.sub, input: s, payload: input.data), s.clientRequestId))!
        }
        return json(.ok, TRPCEnvelope.success(data, transformer: configuration.transformer))
    }

    /// A list's page size (default 50, 1…500) and cursor (a row sequence number).
    private func paging(_ limit: Int?, _ cursor: String?) throws -> (Int, Int64?) {
        let limit = limit ?? 50
        guard (1...500).contains(limit) else { throw TRPCError(.badRequest, "limit must be 1…500") }
        guard let cursor else { return (limit, nil) }
        guard let v = Int64(cursor) else { throw TRPCError(.badRequest, "invalid cursor") }
        return (limit, v)
    }

    private func outcome(_ o: Store.InsertOutcome, _ clientRequestId: String) throws -> SubmissionResult {
        switch o {
        case .created(let id): return SubmissionResult(id: id, status: "created")
        case .duplicate(let id): return SubmissionResult(id: id, status: "duplicate")
        case .conflict: throw TRPCError(.conflict, "clientRequestId \(clientRequestId) was already used for a different submission")
        }
    }

    func decode<T: Decodable>(_ type: T.Type, _ input: JSONValue) throws -> T {
        do { return try JSONDecoder().decode(T.self, from: input.data) } catch let DecodingError.keyNotFound(key, ctx) {
            throw TRPCError(.badRequest, "input: missing \(Self.path(ctx.codingPath + [key]))")
        } catch let DecodingError.typeMismatch(_, ctx) {
            throw TRPCError(.badRequest, "input: wrong type at \(Self.path(ctx.codingPath))")
        } catch let DecodingError.valueNotFound(_, ctx) {
            throw TRPCError(.badRequest, "input: null at \(Self.path(ctx.codingPath))")
        } catch {
            throw TRPCError(.badRequest, "input is not a valid \(T.self)")
        }
    }

    private static func path(_ keys: [any CodingKey]) -> String {
        keys.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined().trimmingCharacters(in: CharacterSet(charactersIn: "."))
    }

    private func validate(clientRequestId id: String) throws {
        guard (8...128).contains(id.count), id.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "-_".contains($0)) }) else {
            throw TRPCError(.badRequest, "clientRequestId must be 8–128 letters, digits, '-' or '_'")
        }
    }

    private func validate(_ e: CreateEnrollmentInput, user: String) throws {
        try validate(clientRequestId: e.clientRequestId)
        guard (1...20).contains(e.samples.count) else { throw TRPCError(.badRequest, "an enrollment has 1–20 samples") }
        if let label = e.label, label.count > 200 { throw TRPCError(.badRequest, "label is longer than 200 characters") }
        guard e.voiceprint.count <= 1024, e.voiceprint.allSatisfy(\.isFinite) else { throw TRPCError(.badRequest, "voiceprint must be ≤1024 finite numbers") }
        for (i, s) in e.samples.enumerated() {
            guard s.durationMs > 0 else { throw TRPCError(.badRequest, "samples[\(i)].durationMs must be positive") }
            guard s.features.mean.count == s.features.nMfcc, s.features.std.count == s.features.nMfcc,
                  (s.features.mean + s.features.std).allSatisfy(\.isFinite)
            else { throw TRPCError(.badRequest, "samples[\(i)].features: mean and std need nMfcc finite values") }
            guard let upload = try store.upload(user: user, id: s.uploadId) else {
                throw TRPCError(.badRequest, "samples[\(i)].uploadId \(s.uploadId) is not an upload of this user")
            }
            guard upload.kind == UploadKind.voiceSample.rawValue else { throw TRPCError(.badRequest, "samples[\(i)].uploadId is not a voice_sample") }
        }
        guard e.consistency.inconsistent.allSatisfy({ (0..<e.samples.count).contains($0) }) else {
            throw TRPCError(.badRequest, "consistency.inconsistent names a sample that does not exist")
        }
    }

    /// Checks an analysis and returns the server id of its enrollment.
    private func validate(_ a: SubmitAnalysisInput, user: String) throws -> String {
        try validate(clientRequestId: a.clientRequestId)
        guard ["match", "no_match", "uncertain"].contains(a.verdict) else { throw TRPCError(.badRequest, "verdict must be match, no_match or uncertain") }
        guard a.score.isFinite, (-1.0001...1.0001).contains(a.score) else { throw TRPCError(.badRequest, "score must be a cosine, -1…1") }
        guard (0...1).contains(a.confidence), (0...1).contains(a.sameSpeakerProbability) else {
            throw TRPCError(.badRequest, "confidence and sameSpeakerProbability must be 0–1")
        }
        guard a.voicedS.isFinite, a.voicedS >= 0 else { throw TRPCError(.badRequest, "voicedS must be a non-negative number") }
        guard a.recordingSha256.count == 64, a.recordingSha256.allSatisfy(\.isHexDigit) else {
            throw TRPCError(.badRequest, "recordingSha256 must be 64 hex digits")
        }
        guard a.reasons.count <= 20, a.warnings.count <= 20, (a.reasons + a.warnings + [a.model]).allSatisfy({ $0.count <= 100 }) else {
            throw TRPCError(.badRequest, "reasons, warnings and model must be short")
        }
        guard let enrollment = try store.enrollmentID(user: user, reference: a.enrollmentId) else {
            throw TRPCError(.notFound, "no enrollment \(a.enrollmentId) for this user")
        }
        return enrollment
    }

    private func validate(_ s: SubmitScanInput, user: String) throws {
        try validate(clientRequestId: s.clientRequestId)
        guard ["deed", "id", "optout", "unknown"].contains(s.kind) else { throw TRPCError(.badRequest, "kind must be deed, id, optout or unknown") }
        guard (0...100).contains(s.confidence) else { throw TRPCError(.badRequest, "confidence must be 0–100") }
        guard s.text.utf8.count <= 1 << 20 else { throw TRPCError(.payloadTooLarge, "text is larger than 1 MiB") }
        guard let upload = try store.upload(user: user, id: s.uploadId) else {
            throw TRPCError(.badRequest, "uploadId \(s.uploadId) is not an upload of this user")
        }
        guard upload.kind == UploadKind.documentScan.rawValue else { throw TRPCError(.badRequest, "uploadId is not a document_scan") }
    }

    // MARK: Uploads

    private func upload(_ request: Request, context: ServerContext) async throws -> Response {
        guard request.method == .post else { throw TRPCError(.methodNotSupported, "uploads are POST") }
        let claims = try authenticate(request)
        guard let boundary = MultipartForm.boundary(contentType: request.headers[.contentType] ?? "") else {
            throw TRPCError(.unsupportedMediaType, "uploads must be multipart/form-data with a boundary")
        }
        guard let key = request.headers[HTTPField.Name("Idempotency-Key")!], (1...200).contains(key.count) else {
            throw TRPCError(.badRequest, "an Idempotency-Key header (1–200 characters) is required")
        }
        let body = try await collect(request, limit: configuration.maxUploadBytes)
        let form: MultipartForm
        do { form = try MultipartForm(body: body, boundary: boundary) } catch { throw TRPCError(.badRequest, "\(error)") }
        guard let file = form["file"] else { throw TRPCError(.badRequest, "the form has no file part") }
        guard let claimed = form["sha256"].map({ String(decoding: $0.body, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines).lowercased() }),
              claimed.count == 64, claimed.allSatisfy(\.isHexDigit)
        else { throw TRPCError(.badRequest, "the form needs a sha256 part: 64 hex digits") }
        guard let kindText = form["kind"].map({ String(decoding: $0.body, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines) }),
              let kind = UploadKind(rawValue: kindText)
        else { throw TRPCError(.badRequest, "kind must be voice_sample or document_scan") }
        guard !file.body.isEmpty else { throw TRPCError(.badRequest, "the file is empty") }
        let actual = Digest.sha256Hex(file.body)
        guard actual == claimed else { throw TRPCError(.unprocessableContent, "sha256 does not match the uploaded bytes") }
        if let existing = try store.upload(user: claims.sub, key: key), existing.sha256 != actual {
            throw TRPCError(.conflict, "Idempotency-Key was already used for different content")
        }
        let contentType = file.contentType ?? Self.sniff(file.body)
        let (row, created) = try store.insertUpload(user: claims.sub, key: key, data: file.body, sha256: actual,
                                                    contentType: contentType, kind: kind.rawValue)
        guard row.sha256 == actual else { throw TRPCError(.conflict, "Idempotency-Key was already used for different content") }
        var response = json(.created, JSONValue(encoding: UploadResult(id: row.id, sha256: row.sha256, bytes: row.bytes, contentType: row.contentType))!)
        if !created { response.headers[HTTPField.Name("Idempotent-Replayed")!] = "true" }
        return response
    }

    private static func sniff(_ d: Data) -> String {
        let b = [UInt8](d.prefix(12))
        if b.count >= 12, b[0...3] == [0x52, 0x49, 0x46, 0x46], b[8...11] == [0x57, 0x41, 0x56, 0x45] { return "audio/wav" }
        if b.starts(with: [0x89, 0x50, 0x4E, 0x47]) { return "image/png" }
        if b.starts(with: [0xFF, 0xD8, 0xFF]) { return "image/jpeg" }
        if b.starts(with: [0x49, 0x49, 0x2A, 0x00]) || b.starts(with: [0x4D, 0x4D, 0x00, 0x2A]) { return "image/tiff" }
        if b.starts(with: Array("fLaC".utf8)) { return "audio/flac" }
        return "application/octet-stream"
    }

    // MARK: Helpers

    func authenticate(_ request: Request) throws -> DevToken.Claims {
        guard let header = request.headers[.authorization], header.lowercased().hasPrefix("bearer ") else {
            throw TRPCError(.unauthorized, "missing bearer token")
        }
        do {
            return try DevToken.verify(String(header.dropFirst(7)).trimmingCharacters(in: .whitespaces), secret: configuration.secret)
        } catch {
            throw TRPCError(.unauthorized, error.description)
        }
    }

    func collect(_ request: Request, limit: Int) async throws -> Data {
        let declared = request.headers[.contentLength].flatMap(Int.init)
        if let length = declared, length > limit {
            throw TRPCError(.payloadTooLarge, "body of \(length) bytes is larger than the \(limit)-byte limit")
        }
        let reserved = min(max(declared ?? limit, 0), bodies.total)
        guard bodies.reserve(reserved) else {
            throw TRPCError(.serviceUnavailable, "the server is receiving too many large bodies at once; retry shortly")
        }
        defer { bodies.release(reserved) }
        var request = request
        do {
            let buffer = try await request.collectBody(upTo: limit)
            return Data(buffer.readableBytesView)
        } catch is NIOTooManyBytesError {
            throw TRPCError(.payloadTooLarge, "body is larger than the \(limit)-byte limit")
        } catch {
            // The connection closed or timed out mid-body: not the client's size, its transfer.
            throw TRPCError(.badRequest, "the request body could not be read to its end")
        }
    }

    func json(_ status: HTTPResponse.Status, _ value: JSONValue) -> Response {
        var buffer = ByteBuffer()
        buffer.writeBytes(value.data)
        return Response(status: status, headers: [.contentType: "application/json"], body: .init(byteBuffer: buffer))
    }

    private func errorResponse(_ error: TRPCError, path: String?) -> Response {
        let shape = TRPCErrorShape(error.code, message: error.message, path: path)
        return json(HTTPResponse.Status(code: error.code.httpStatus), TRPCEnvelope.error(shape, transformer: configuration.transformer))
    }
}

/// A tRPC error raised by a procedure: its code decides the HTTP status.
struct TRPCError: Error {
    let code: TRPCErrorCode
    let message: String
    init(_ code: TRPCErrorCode, _ message: String) { self.code = code; self.message = message }
}

/// The bytes of request bodies being received, shared by every connection (see
/// ``ServerConfiguration/maxBufferedBodyBytes``).
final class BodyBudget: @unchecked Sendable {
    let total: Int
    private var used = 0
    private let lock = NSLock()

    init(total: Int) { self.total = total }

    /// Takes `bytes` of the budget; false (taking nothing) when they do not fit.
    func reserve(_ bytes: Int) -> Bool {
        lock.withLock {
            guard bytes <= total - used else { return false }
            used += bytes
            return true
        }
    }

    func release(_ bytes: Int) { lock.withLock { used -= bytes } }
}
