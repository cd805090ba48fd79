import ArgumentParser
import Foundation
import KordantAPI
import KordantBatch
import KordantClient
import KordantServer
import Logging

/// Exit codes of the client commands (see README).
extension ExitCodes {
    /// `outbox flush`: something is still undelivered.
    static let undelivered: Int32 = 50
    /// No token, or the server refused it.
    static let unauthorized: Int32 = 51
    /// Client setup problem: unsafe config file, bad server URL, outbox not writable.
    static let clientSetup: Int32 = 52
    /// `call`: the server answered with an error or an invalid response, or could not be reached.
    static let callFailed: Int32 = 53
}

extension TRPCTransformer: ExpressibleByArgument {}

/// Where the backend is and how hard to try.
struct ClientOptions: ParsableArguments {
    @Option(name: .long, help: "Backend base URL (default: $KORDANT_SERVER, else config.json's server, else http://127.0.0.1:3000).")
    var server: String?
    @Option(name: .long, help: "none (plain JSON) or superjson ({\"json\": …} envelopes).")
    var transformer: TRPCTransformer = .none
    @Option(name: .long, help: "Attempts per request, the first included.")
    var attempts = RetryPolicy().maxAttempts
    @Option(name: .long, help: "Backoff base, seconds (full jitter, doubling per attempt).")
    var backoffBase = RetryPolicy().base
    @Option(name: .long, help: "Backoff cap, seconds.")
    var backoffCap = RetryPolicy().cap
    @Option(name: .long, help: "Timeout of one attempt, seconds.")
    var timeout = 30.0
    @Option(name: .long, help: "Timeout of one request with all its retries, seconds.")
    var totalTimeout = 120.0
    @Option(name: .long, help: "Flushes an outbox item may fail transiently before it is dead.")
    var outboxAttempts = 10

    func validate() throws {
        guard attempts >= 1, backoffBase >= 0, backoffCap >= 0, timeout > 0, totalTimeout > 0, outboxAttempts >= 1 else {
            throw ValidationError("attempts, timeouts and backoff must be positive")
        }
    }

    var home: KordantHome { KordantHome.fromEnvironment() }

    func configuration() -> ClientConfiguration {
        var c = ClientConfiguration(server: server ?? ClientConfiguration.defaultServer(home: home))
        c.transformer = transformer
        c.retry = RetryPolicy(maxAttempts: attempts, base: backoffBase, cap: backoffCap)
        c.requestTimeout = timeout
        c.totalTimeout = totalTimeout
        return c
    }

    func makeClient() throws -> KordantAPIClient {
        let h = home
        try h.prepare()
        return try KordantAPIClient(configuration: configuration(), credentials: try Credentials.load(home: h),
                                    cache: try? QueryCache(path: h.cacheDatabase))
    }
}

/// Runs a client body; client errors become one line on stderr and their exit code.
func reportingClientErrors(_ body: () async throws -> Void) async throws {
    do {
        try await body()
    } catch let error as ClientError {
        FileHandle.standardError.write(Data("kordant: error: \(error)\n".utf8))
        let code: Int32 = error.isAuthentication ? ExitCodes.unauthorized
            : { if case .local = error { return ExitCodes.clientSetup }; return ExitCodes.callFailed }()
        throw ExitCode(code)
    }
}

/// Enqueue-then-deliver, shared by `enroll --submit`, `ocr --submit` and the batch commands.
enum Submitting {
    struct Outcome {
        var queued: [Int64] = []
        var alreadyQueued: [Int64] = []
        /// Items pending in the outbox after queueing (set when nothing was delivered by design).
        var pending = 0
        var report: FlushReport?
        var notDelivered: String?
    }

    /// Opens the outbox in `KORDANT_HOME`; a failure is one error line and exit 52.
    static func openOutbox(_ options: ClientOptions) throws -> Outbox {
        do { return try Outbox(home: options.home) } catch {
            FileHandle.standardError.write(Data("kordant: error: \(error)\n".utf8))
            throw ExitCode(ExitCodes.clientSetup)
        }
    }

    /// Puts every payload in the outbox (durably, before any network call), then delivers
    /// whatever is pending unless `queueOnly`.
    static func submit(_ items: [(OutboxPayload, [OutboxFile])], to outbox: Outbox, client options: ClientOptions,
                       queueOnly: Bool) async throws -> Outcome {
        var outcome = Outcome()
        for (payload, files) in items {
            switch try outbox.enqueue(payload, files: files) {
            case .queued(let id): outcome.queued.append(id)
            case .alreadyQueued(let id, _): outcome.alreadyQueued.append(id)
            }
        }
        guard !queueOnly else {
            outcome.pending = try outbox.counts()[.pending] ?? 0
            return outcome
        }
        do {
            let client = try options.makeClient()
            let delivery = OutboxDelivery(outbox: outbox, client: client, maxAttempts: options.outboxAttempts)
            do { outcome.report = try await delivery.flush() } catch { try? await client.shutdown(); throw error }
            try await client.shutdown()
        } catch let e as ClientError {
            outcome.notDelivered = e.description
        }
        return outcome
    }

    /// "submit: 1 queued (#12); delivered 3, 0 still pending" on stderr. A batch, which queued
    /// as it went, gives its count instead of the ids.
    static func describe(_ o: Outcome, queuedByBatch: Int? = nil) -> String {
        var parts: [String] = []
        if let n = queuedByBatch { parts.append("\(n) queued") }
        if !o.queued.isEmpty { parts.append("\(o.queued.count) queued (\(o.queued.map { "#\($0)" }.joined(separator: ", ")))") }
        if !o.alreadyQueued.isEmpty { parts.append("\(o.alreadyQueued.count) already in the outbox (\(o.alreadyQueued.map { "#\($0)" }.joined(separator: ", ")))") }
        if let r = o.report {
            parts.append("delivered \(r.delivered)\(r.duplicates > 0 ? " (\(r.duplicates) already on the server)" : ""), \(r.pending) still pending")
            if !r.dead.isEmpty { parts.append("\(r.dead.count) refused (see `kordant outbox list --state dead`)") }
            if let why = r.stoppedBecause { parts.append("stopped: \(why)") }
        } else if let why = o.notDelivered {
            parts.append("not delivered yet: \(why)")
        } else {
            parts.append("\(o.pending) pending; deliver with `kordant outbox flush`")
        }
        return "submit: " + parts.joined(separator: "; ")
    }
}

// MARK: - outbox

struct OutboxCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "outbox",
        abstract: "The durable queue of submissions to the backend ($KORDANT_HOME/outbox.sqlite).",
        subcommands: [OutboxList.self, OutboxFlush.self, OutboxRetry.self, OutboxPurge.self])
}

extension OutboxItem.State: ExpressibleByArgument {}

struct OutboxList: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "List outbox items (oldest first).")
    @Option(name: .long, help: "Only items in this state (pending, inflight, delivered, dead).")
    var state: OutboxItem.State?
    @OptionGroup var common: CommonOptions

    struct ItemJSON: Encodable {
        let id: Int64
        let kind, client_request_id, state: String
        let attempts, uploads, uploads_pending: Int
        let files: [String]
        let last_error, result_id, result_status: String?
        let created_at, updated_at: String
    }

    func run() async throws {
        common.bootstrapLogging()
        try await reportingClientErrors {
            let outbox = try Outbox(home: KordantHome.fromEnvironment())
            let items = try outbox.items(states: state.map { [$0] })
            let iso = ISO8601DateFormatter()
            for i in items {
                if common.json {
                    Output.printJSON(ItemJSON(id: i.id, kind: i.kind.rawValue, client_request_id: i.clientRequestId, state: i.state.rawValue,
                                              attempts: i.attempts, uploads: i.uploads, uploads_pending: i.uploadsPending, files: i.files,
                                              last_error: i.lastError, result_id: i.resultId, result_status: i.resultStatus,
                                              created_at: iso.string(from: i.createdAt), updated_at: iso.string(from: i.updatedAt)))
                } else {
                    var line = "#\(i.id)  \(i.kind.rawValue)  \(i.state.rawValue)  attempts \(i.attempts)  \(i.files.joined(separator: ", "))"
                    if let r = i.resultId { line += "  → \(r) (\(i.resultStatus ?? ""))" }
                    if let e = i.lastError, i.state != .delivered { line += "\n    last error: \(e)" }
                    print(line)
                }
            }
            if !common.json {
                let c = try outbox.counts()
                print(OutboxItem.State.allCases.map { "\($0.rawValue) \(c[$0] ?? 0)" }.joined(separator: ", "))
            }
        }
    }
}

struct OutboxFlush: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "flush", abstract: "Deliver everything pending, oldest first.",
        discussion: "Exit 0 when nothing is left undelivered, 50 when something is pending or dead, 51 when the token is missing or refused.")
    @OptionGroup var client: ClientOptions
    @OptionGroup var common: CommonOptions

    struct ReportJSON: Encodable {
        let delivered, duplicates, pending, dead_total: Int
        let dead: [String: String]
        let stopped_because: String?
    }

    func run() async throws {
        common.bootstrapLogging()
        var leftover = false
        try await reportingClientErrors {
            let outbox = try Outbox(home: client.home)
            let api = try client.makeClient()
            let report: FlushReport
            do { report = try await OutboxDelivery(outbox: outbox, client: api, maxAttempts: client.outboxAttempts).flush() } catch {
                try? await api.shutdown(); throw error
            }
            try await api.shutdown()
            let dead = (try outbox.counts())[.dead] ?? 0
            if common.json {
                Output.printJSON(ReportJSON(delivered: report.delivered, duplicates: report.duplicates, pending: report.pending, dead_total: dead,
                                            dead: Dictionary(uniqueKeysWithValues: report.dead.map { ("\($0.key)", $0.value) }),
                                            stopped_because: report.stoppedBecause))
            } else {
                print("delivered \(report.delivered)\(report.duplicates > 0 ? " (\(report.duplicates) already on the server)" : ""), "
                      + "\(report.pending) pending, \(dead) dead")
                for (id, why) in report.dead.sorted(by: { $0.key < $1.key }) { print("  #\(id) dead: \(why)") }
            }
            if let why = report.stoppedBecause {
                FileHandle.standardError.write(Data("kordant: flush stopped: \(why)\n".utf8))
                if report.delivered == 0, why.contains("UNAUTHORIZED") { throw ExitCode(ExitCodes.unauthorized) }
            }
            leftover = report.pending > 0 || dead > 0
        }
        if leftover { throw ExitCode(ExitCodes.undelivered) }
    }
}

struct OutboxRetry: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "retry", abstract: "Return dead items to pending (all, or the ids given).")
    @Argument(help: "Item ids (default: every dead item).")
    var ids: [Int64] = []
    func run() async throws {
        try await reportingClientErrors {
            let n = try Outbox(home: KordantHome.fromEnvironment()).retry(ids: ids.isEmpty ? nil : ids)
            print("\(n) item\(n == 1 ? "" : "s") back to pending")
        }
    }
}

struct OutboxPurge: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "purge", abstract: "Delete delivered items (and, with --dead, dead ones). Pending items are never purged.")
    @Flag(name: .long, help: "Also delete dead items: their data is lost.")
    var dead = false
    func run() async throws {
        try await reportingClientErrors {
            let n = try Outbox(home: KordantHome.fromEnvironment()).purge(states: dead ? [.delivered, .dead] : [.delivered])
            print("\(n) item\(n == 1 ? "" : "s") purged")
        }
    }
}

// MARK: - call

struct Call: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Call a backend procedure (user.me, voiceprint.listEnrollments, …) and print its result as JSON.",
        discussion: "Queries fall back to the on-disk cache ($KORDANT_HOME/cache.sqlite) when the server cannot be reached.")
    @Argument(help: "Procedure path, e.g. user.me.")
    var procedure: String
    @Option(name: .long, help: "Input as JSON.")
    var input: String?
    @Flag(name: .long, help: "Call as a mutation (POST) instead of a query (GET).")
    var mutation = false
    @OptionGroup var client: ClientOptions
    @OptionGroup var common: CommonOptions

    func run() async throws {
        common.bootstrapLogging()
        let parsed = try input.map { text -> JSONValue in
            guard let v = JSONValue(json: Data(text.utf8)) else { throw ValidationError("--input is not valid JSON") }
            return v
        }
        try await reportingClientErrors {
            let api = try client.makeClient()
            do {
                let value: JSONValue
                switch (procedure, mutation) {
                case (Procedure.userMe, false):
                    let r = try await api.me()
                    value = JSONValue(encoding: r.value)!
                    if let at = r.cachedAt { FileHandle.standardError.write(Data("kordant: server unreachable; cached answer from \(ISO8601DateFormatter().string(from: at))\n".utf8)) }
                case (Procedure.listEnrollments, false):
                    let r = try await api.listEnrollments(parsed?.decode(ListEnrollmentsInput.self) ?? .init())
                    value = JSONValue(encoding: r.value)!
                    if let at = r.cachedAt { FileHandle.standardError.write(Data("kordant: server unreachable; cached answer from \(ISO8601DateFormatter().string(from: at))\n".utf8)) }
                default:
                    value = try await api.call(procedure, input: parsed, kind: mutation ? .mutation : .query)
                }
                try await api.shutdown()
                Output.printJSON(value)
            } catch {
                try? await api.shutdown()
                throw error
            }
        }
    }
}

// MARK: - serve, token

struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run the development backend: the Kordant tRPC and upload API over SQLite, on loopback.",
        discussion: "Prints `listening on http://HOST:PORT` once ready. Stops on SIGINT/SIGTERM. Fault flags make it a flaky backend for resilience tests.")
    @Option(name: .long, help: "Port (0: any free port).") var port = 3000
    @Option(name: .long, help: "Address to bind.") var host = "127.0.0.1"
    @Option(name: .long, help: "SQLite database file.") var db = "kordant.sqlite"
    @Option(name: .long, help: "Folder for uploaded files.") var uploads = "uploads"
    @Option(name: .long, help: "HS256 secret for tokens (default: $KORDANT_DEV_SECRET, else the built-in development secret).")
    var secret: String?
    @Option(name: .long, help: "none or superjson.") var transformer: TRPCTransformer = .none
    @Option(name: .long, help: "Fraction of API requests answered with a random 500/502/503.") var failRate = 0.0
    @Option(name: .long, help: "Fraction of API requests whose connection is closed without an answer.") var dropRate = 0.0
    @Option(name: .long, help: "Delay added to every API request, milliseconds.") var latencyMs = 0
    @Option(name: .long, help: "Retry-After seconds sent with injected failures.") var retryAfter: Int?
    @Option(name: .long, help: "Seconds a connection may send nothing (between requests or mid-body) before it is closed.")
    var idleTimeout = 30.0
    @OptionGroup var common: CommonOptions

    func validate() throws {
        guard (0...1).contains(failRate), (0...1).contains(dropRate), failRate + dropRate <= 1 else {
            throw ValidationError("--fail-rate and --drop-rate are fractions with a sum ≤ 1")
        }
        guard latencyMs >= 0, (0...65535).contains(port) else { throw ValidationError("bad --latency-ms or --port") }
        guard idleTimeout.isFinite, idleTimeout > 0, idleTimeout <= 86_400 else { throw ValidationError("--idle-timeout is seconds, more than 0 and at most 86400") }
    }

    func run() async throws {
        LoggingSystem.bootstrap { label in
            var h = StreamLogHandler.standardError(label: label)
            h.logLevel = common.verbose ? .debug : .warning
            return h
        }
        var c = ServerConfiguration()
        c.host = host; c.port = port; c.databasePath = db; c.uploadsDirectory = uploads
        c.secret = secret ?? ProcessInfo.processInfo.environment["KORDANT_DEV_SECRET"] ?? DevToken.defaultSecret
        c.transformer = transformer
        c.idleTimeout = idleTimeout
        c.faults = FaultInjection(failRate: failRate, dropRate: dropRate, latencyMs: latencyMs, retryAfterSeconds: retryAfter)
        let host = host
        do {
            try await APIServer(configuration: c).run { port in
                FileHandle.standardOutput.write(Data("listening on http://\(host):\(port)\n".utf8))
            }
        } catch {
            FileHandle.standardError.write(Data("kordant: error: serve: \(error)\n".utf8))
            throw ExitCode(ExitCodes.other)
        }
    }
}

struct Token: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print an HS256 bearer token for the development server.",
        discussion: "Use it as KORDANT_TOKEN. Signed with --secret, $KORDANT_DEV_SECRET or the built-in development secret.")
    @Option(name: .long, help: "User id (sub claim).") var sub = "dev-user"
    @Option(name: .long) var email = "dev@example.com"
    @Option(name: .long) var name = "Dev User"
    @Option(name: .long, help: "Lifetime, days.") var days = 30.0
    @Option(name: .long) var secret: String?

    func validate() throws {
        // The lifetime becomes whole seconds: NaN, infinity or an overflowing count would trap.
        guard days.isFinite, days > 0, days <= 36_500 else { throw ValidationError("--days must be more than 0 and at most 36500") }
    }

    func run() throws {
        let s = secret ?? ProcessInfo.processInfo.environment["KORDANT_DEV_SECRET"] ?? DevToken.defaultSecret
        print(DevToken.sign(.init(sub: sub, email: email, name: name, lifetime: days * 86_400), secret: s))
    }
}
