import Foundation
import KordantTestSupport
import KordantAPI
import KordantClient
import KordantServer
import Logging
import Testing

/// The `kordant` binary SwiftPM built beside this test bundle, and processes of it.
enum Kordant {
    static let repository = BuiltBinary.repository
    static let executable = BuiltBinary.kordant
    typealias Result = ProcessResult

    /// A fresh directory for one test.
    static func scratch(_ name: String) -> URL {
        let dir = TestScratch.directory.appendingPathComponent("kordant-client-\(getpid())-\(name)-\(UUID().uuidString.prefix(8))")
        try? FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }

    /// Starts `kordant` with stdout and stderr going to files (no pipe can fill up and block it).
    static func start(_ arguments: [String], environment: [String: String], in dir: URL, tag: String) throws -> (Process, URL, URL) {
        let out = dir.appendingPathComponent("\(tag).out"), err = dir.appendingPathComponent("\(tag).err")
        _ = FileManager.default.createFile(atPath: out.path, contents: nil)
        _ = FileManager.default.createFile(atPath: err.path, contents: nil)
        let p = Process()
        p.executableURL = executable
        p.arguments = arguments
        p.currentDirectoryURL = dir
        p.environment = environment
        p.standardOutput = try FileHandle(forWritingTo: out)
        p.standardError = try FileHandle(forWritingTo: err)
        try p.run()
        ChildProcesses.shared.track(p)
        return (p, out, err)
    }

    static func run(_ arguments: [String], environment: [String: String], in dir: URL) throws -> Result {
        let tag = "run-\(UUID().uuidString.prefix(8))"
        let (p, out, err) = try start(arguments, environment: environment, in: dir, tag: tag)
        p.waitUntilExit()
        return Result(status: p.terminationStatus, stdout: (try? String(contentsOf: out, encoding: .utf8)) ?? "",
                      stderr: (try? String(contentsOf: err, encoding: .utf8)) ?? "")
    }

    static func token(sub: String = "tester", secret: String = DevToken.defaultSecret) -> String {
        DevToken.sign(.init(sub: sub, email: "\(sub)@example.com", name: "Test \(sub)"), secret: secret)
    }

    /// Environment for a client process: home, server and token.
    static func environment(home: URL, server: String, token: String?) -> [String: String] {
        var env = ProcessInfo.processInfo.environment
        env["KORDANT_HOME"] = home.path
        env["KORDANT_SERVER"] = server
        env.removeValue(forKey: "KORDANT_TOKEN")
        if let token { env["KORDANT_TOKEN"] = token }
        return env
    }
}

/// `kordant serve` on loopback with its database in a scratch folder; restartable on the same port.
final class DevServer: @unchecked Sendable {
    let dir: URL
    let extraArguments: [String]
    private(set) var port = 0
    private(set) var process: Process?
    private(set) var logs: [URL] = []
    private var starts = 0

    init(dir: URL, arguments: [String] = []) throws {
        self.dir = dir
        extraArguments = arguments
        try start()
    }

    var url: String { "http://127.0.0.1:\(port)" }
    var database: URL { dir.appendingPathComponent("server.sqlite") }

    func start() throws {
        starts += 1
        let (p, out, err) = try Kordant.start(
            ["serve", "--port", String(port), "--db", database.path, "--uploads", dir.appendingPathComponent("uploads").path, "--verbose"]
                + extraArguments,
            environment: ProcessInfo.processInfo.environment, in: dir, tag: "server-\(starts)")
        process = p
        logs.append(err)
        // A bound against a hang, not a timing assumption: a loaded machine may take long to start it.
        let deadline = Date().addingTimeInterval(120)
        while Date() < deadline {
            if let text = try? String(contentsOf: out, encoding: .utf8), let line = text.split(separator: "\n").first(where: { $0.hasPrefix("listening on") }),
               let p = Int(line.split(separator: ":").last ?? "") {
                port = p
                return
            }
            if !p.isRunning { break }
            Thread.sleep(forTimeInterval: 0.02)
        }
        throw ServerError.didNotStart((try? String(contentsOf: err, encoding: .utf8)) ?? "")
    }

    enum ServerError: Error { case didNotStart(String) }

    /// SIGKILL: no chance to finish anything in flight.
    func kill() {
        guard let p = process, p.isRunning else { return }
        Foundation.kill(p.processIdentifier, SIGKILL)
        p.waitUntilExit()
    }

    /// SIGTERM (a graceful stop), SIGKILL if it has not exited within 10 s (a handler held by
    /// injected latency would keep it up).
    func stop() {
        guard let p = process else { return }
        ChildProcesses.end(p, grace: 10)
    }

    /// Everything the server logged, over all its runs.
    var log: String { logs.compactMap { try? String(contentsOf: $0, encoding: .utf8) }.joined() }

    deinit { stop() }
}

/// A log handler that keeps every line (message and metadata), to assert on what was logged.
final class CapturedLogs: @unchecked Sendable {
    private let lock = NSLock()
    private var lines: [String] = []

    func append(_ line: String) { lock.lock(); lines.append(line); lock.unlock() }
    var all: [String] { lock.lock(); defer { lock.unlock() }; return lines }

    func logger(_ label: String) -> Logger {
        var l = Logger(label: label) { _ in Handler(sink: self) }
        l.logLevel = .trace
        return l
    }

    struct Handler: LogHandler {
        let sink: CapturedLogs
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace
        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }
        func log(event: LogEvent) {
            let all = metadata.merging(event.metadata ?? [:]) { $1 }
            sink.append("\(event.level) \(event.message) \(all.map { "\($0)=\($1)" }.joined(separator: " ")) \(event.error.map { "\($0)" } ?? "")")
        }
    }
}

/// A client for `server` on virtual time: its backoffs (≤ 0.2 s) pass at once, and its timeouts
/// (30 s per attempt, 120 s in all) never fire unless the test advances `clock`, so however slowly
/// a loaded machine runs the test, every attempt waits for the server's real answer.
func makeClient(_ server: String, token: String = Kordant.token(), transformer: TRPCTransformer = .none, attempts: Int = 5,
                cache: QueryCache? = nil, logger: Logger = Logger(label: "test"),
                clock: VirtualClock = VirtualClock(autoAdvance: .seconds(1))) throws -> KordantAPIClient {
    var c = ClientConfiguration(server: server)
    c.transformer = transformer
    c.retry = RetryPolicy(maxAttempts: attempts, base: 0.02, cap: 0.2)
    c.requestTimeout = 30
    c.totalTimeout = 120
    c.clock = clock
    return try KordantAPIClient(configuration: c, credentials: Credentials(token: token, source: "test"), cache: cache, logger: logger)
}

/// A synthetic enrollment payload (the engine's own enrollments are exercised by the CLI tests).
func sampleEnrollment(_ id: String, samples: Int = 1) -> CreateEnrollmentInput {
    let features = SampleFeatureSummary(profile: "kaldi", nMfcc: 13, mean: (0..<13).map { Double($0) * 0.5 }, std: Array(repeating: 1.25, count: 13))
    let quality = SampleQuality(pass: true, reasons: [], durationS: 6.2, speechS: 4.1, speechLevelDb: -21.5, snrDb: 31.2, peakDb: -3.1,
                                clippedFraction: 0)
    return CreateEnrollmentInput(
        clientRequestId: id, label: "test \(id.prefix(8))",
        samples: Array(repeating: EnrollmentSampleInput(uploadId: "", durationMs: 6200, quality: quality, features: features), count: samples),
        voiceprint: (0..<24).map { Double($0) / 24 }, consistency: ConsistencySummary(consistent: true, threshold: 0.85, inconsistent: []))
}

/// A small real WAV from TestAudio.
let sampleWAV = Kordant.repository.appendingPathComponent("TestAudio/enroll_us_male_1.wav").path
