import Foundation
import GRDB
import KordantTestSupport
import KordantAPI
import KordantClient
import KordantServer
import Testing

/// The durable outbox against a real server process, with faults, kills and restarts.
@Suite struct OutboxTests {
    // 12 attempts per request: with ~30 % of attempts failing, 6 left a 0.3⁶ chance per request
    // that a flush gave up on its own (and stopped, to keep order) before the test killed it.
    static let flushArguments = ["outbox", "flush", "--attempts", "12", "--backoff-base", "0.02", "--backoff-cap", "0.25",
                                 "--timeout", "3", "--outbox-attempts", "50"]

    /// The issue's acceptance run: 200 submissions through 20 % injected 5xx and 10 % dropped
    /// connections, a client SIGKILLed mid-flush, the server SIGKILLed and restarted mid-flush.
    /// Afterwards the server holds exactly 200 enrollments and 200 uploads, in queue order.
    @Test func twoHundredSubmissionsArriveExactlyOnce() throws {
        let dir = Kordant.scratch("resilience")
        let server = try DevServer(dir: dir, arguments: ["--fail-rate", "0.2", "--drop-rate", "0.1", "--latency-ms", "8"])
        let home = KordantHome(url: dir.appendingPathComponent("home"))
        let outbox = try Outbox(home: home)
        var ids: [String] = []
        for i in 0..<200 {
            let id = Digest.stableID(["resilience", String(i)])
            ids.append(id)
            let outcome = try outbox.enqueue(.enrollment(sampleEnrollment(id)), files: [OutboxFile(path: sampleWAV, kind: .voiceSample, contentType: "audio/wav")])
            guard case .queued = outcome else { Issue.record("not queued: \(outcome)"); return }
        }
        #expect(try outbox.counts()[.pending] == 200)
        let env = Kordant.environment(home: home.url, server: server.url, token: Kordant.token())

        // 1. A client killed mid-flush: SIGKILL once the server has some but not all of them.
        // (Progress, not a timer, decides when: the test runner's threads may be busy elsewhere.)
        let (first, _, _) = try Kordant.start(Self.flushArguments, environment: env, in: dir, tag: "flush-killed")
        defer { ChildProcesses.end(first) }
        let killedAt = waitForDeliveries(server, atLeast: 20, while: first)
        let exitedByItself = !first.isRunning
        kill(first.processIdentifier, SIGKILL)
        first.waitUntilExit()
        #expect((20..<200).contains(killedAt) && !exitedByItself,
                "the first flush was not killed mid-way (\(killedAt) delivered\(exitedByItself ? ", it exited by itself with \(first.terminationStatus)" : ""))")

        // 2. The server killed and restarted under a running flush.
        let (second, _, _) = try Kordant.start(Self.flushArguments, environment: env, in: dir, tag: "flush-restart")
        defer { ChildProcesses.end(second) }
        let restartedAt = waitForDeliveries(server, atLeast: killedAt + 20, while: second)
        server.kill()
        Thread.sleep(forTimeInterval: 0.4)
        try server.start()
        second.waitUntilExit()
        #expect(restartedAt < 200, "the server was not killed mid-flush")

        // 3. Flush until nothing is left (a flush stops when the server stays unreachable).
        var last = Kordant.Result(status: -1, stdout: "", stderr: "")
        for _ in 0..<40 {
            last = try Kordant.run(Self.flushArguments, environment: env, in: dir)
            if last.status == 0 { break }
        }
        #expect(last.status == 0, "\(last.stdout)\(last.stderr)")

        let counts = try serverCounts(server)
        #expect(counts.enrollments == 200 && counts.distinctRequests == 200)
        #expect(counts.uploads == 200 && counts.distinctKeys == 200)
        #expect(counts.orphanSamples == 0, "an enrollment names an upload the server does not have")
        #expect(counts.requestOrder == ids, "not delivered in queue order")
        let state = try Outbox(home: home).counts()
        #expect(state[.delivered] == 200 && state[.pending] == nil && state[.dead] == nil && state[.inflight] == nil)
        // The faults really happened.
        let log = server.log
        #expect(log.contains("injected 50") && log.contains("injected drop after"))
        // Delivered items leave no files behind.
        #expect(try FileManager.default.contentsOfDirectory(atPath: home.blobs.path).filter { !$0.hasPrefix(".") }.isEmpty)
    }

    /// Polls the server's database until it holds `atLeast` enrollments or `process` exits.
    func waitForDeliveries(_ server: DevServer, atLeast n: Int, while process: Process) -> Int {
        let deadline = Date().addingTimeInterval(120)
        var count = 0
        while process.isRunning, Date() < deadline {
            count = (try? serverCounts(server).enrollments) ?? count
            if count >= n { break }
            Thread.sleep(forTimeInterval: 0.01)
        }
        return count
    }

    struct Counts {
        var enrollments = 0, distinctRequests = 0, uploads = 0, distinctKeys = 0, orphanSamples = 0
        var requestOrder: [String] = []
    }

    func serverCounts(_ server: DevServer) throws -> Counts {
        let db = try DatabaseQueue(path: server.database.path)
        return try db.read { db in
            var c = Counts()
            c.enrollments = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM enrollment") ?? 0
            c.distinctRequests = try Int.fetchOne(db, sql: "SELECT COUNT(DISTINCT client_request_id) FROM enrollment") ?? 0
            c.uploads = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM upload") ?? 0
            c.distinctKeys = try Int.fetchOne(db, sql: "SELECT COUNT(DISTINCT idempotency_key) FROM upload") ?? 0
            c.requestOrder = try String.fetchAll(db, sql: "SELECT client_request_id FROM enrollment ORDER BY seq")
            for payload in try String.fetchAll(db, sql: "SELECT payload FROM enrollment") {
                let e = try JSONDecoder().decode(CreateEnrollmentInput.self, from: Data(payload.utf8))
                for s in e.samples where try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM upload WHERE id = ?", arguments: [s.uploadId]) != 1 {
                    c.orphanSamples += 1
                }
            }
            return c
        }
    }

    /// The lease on an inflight item runs on the outbox's wall clock: an item held by a process
    /// that is still alive returns to pending only once the lease has run out.
    @Test func inflightLeaseExpiresOnTheOutboxClock() throws {
        let home = KordantHome(url: Kordant.scratch("lease").appendingPathComponent("home"))
        let time = ManualWallClock(Date(timeIntervalSince1970: 1_800_000_000))
        let outbox = try Outbox(home: home, now: { time.now })
        _ = try outbox.enqueue(.enrollment(sampleEnrollment(Digest.stableID(["lease"]))),
                               files: [OutboxFile(path: sampleWAV, kind: .voiceSample, contentType: "audio/wav")])
        // Another process, alive (pid 1), claimed it just now.
        try DatabaseQueue(path: home.outboxDatabase.path).write {
            try $0.execute(sql: "UPDATE submission SET state = 'inflight', owner = 1, updated_at = ?", arguments: [time.now.timeIntervalSince1970])
        }
        #expect(try outbox.recoverAbandoned() == 0)
        time.advance(Outbox.leaseSeconds - 1)
        #expect(try outbox.recoverAbandoned() == 0)
        #expect(try outbox.counts()[.inflight] == 1)
        time.advance(2)
        #expect(try outbox.recoverAbandoned() == 1)
        #expect(try outbox.counts()[.pending] == 1)
    }

    @Test func refusedSubmissionsBecomeDeadAndCanBeRetriedOrPurged() async throws {
        let dir = Kordant.scratch("dead")
        let server = try DevServer(dir: dir)
        let home = KordantHome(url: dir.appendingPathComponent("home"))
        let outbox = try Outbox(home: home)
        let scanFile = Kordant.repository.appendingPathComponent("TestDocuments/optout_form.clean.png").path
        let bad = SubmitScanInput(clientRequestId: Digest.stableID(["bad"]), uploadId: "", kind: "passport-ish", text: "x", confidence: 50, fields: [:])
        let good = SubmitScanInput(clientRequestId: Digest.stableID(["good"]), uploadId: "", kind: "optout", text: "y", confidence: 90,
                                   fields: ["zip": ScanField(value: .string("94110"), confidence: 91)])
        _ = try outbox.enqueue(.scan(bad), files: [OutboxFile(path: scanFile, kind: .documentScan, contentType: "image/png")])
        _ = try outbox.enqueue(.scan(good), files: [OutboxFile(path: sampleWAV, kind: .documentScan, contentType: "audio/wav")])
        #expect(try outbox.enqueue(.scan(good), files: [OutboxFile(path: sampleWAV, kind: .documentScan, contentType: "audio/wav")])
            == .alreadyQueued(2, .pending))

        let env = Kordant.environment(home: home.url, server: server.url, token: Kordant.token())
        let flush = try Kordant.run(["outbox", "flush", "--json"], environment: env, in: dir)
        // What the flush said and what the server logged, for any expectation below that fails.
        let context = Comment(rawValue: "flush \(flush.status): \(flush.stdout) \(flush.stderr)\nserver: \(server.log.suffix(3000))")
        #expect(flush.status == 50, context)   // something is dead
        let report = try #require(JSONValue(json: Data(flush.stdout.utf8)), context)
        #expect(report["delivered"] == .number(1) && report["dead_total"] == .number(1), context)
        #expect(report["dead"]?["1"]?.stringValue?.contains("BAD_REQUEST") == true, context)

        let dead = try outbox.items(states: [.dead])
        try #require(dead.map(\.id) == [1], context)
        #expect(dead[0].attempts == 1 && dead[0].lastError?.contains("kind must be") == true)
        // The refused scan's upload went through before the mutation was refused; a retry reuses it.
        #expect(dead[0].uploadsPending == 0)

        let listed = try Kordant.run(["outbox", "list"], environment: env, in: dir)
        #expect(listed.stdout.contains("#1  scan  dead") && listed.stdout.contains("pending 0, inflight 0, delivered 1, dead 1"))
        let retried = try Kordant.run(["outbox", "retry", "1"], environment: env, in: dir)
        let pendingAfterRetry = try outbox.counts()[.pending]
        #expect(retried.stdout == "1 item back to pending\n" && pendingAfterRetry == 1)
        #expect(try Kordant.run(["outbox", "flush"], environment: env, in: dir).status == 50)
        #expect(try Kordant.run(["outbox", "purge"], environment: env, in: dir).stdout == "1 item purged\n")
        #expect(try Kordant.run(["outbox", "purge", "--dead"], environment: env, in: dir).stdout == "1 item purged\n")
        #expect(try outbox.counts().isEmpty)
        #expect(try FileManager.default.contentsOfDirectory(atPath: home.blobs.path).isEmpty)
        server.stop()
    }

    @Test func theTokenNeverReachesLogsErrorsOrTheOutbox() async throws {
        let dir = Kordant.scratch("secrets")
        let server = try DevServer(dir: dir, arguments: ["--fail-rate", "0.3", "--drop-rate", "0.1"])
        let token = Kordant.token(sub: "secret-holder")
        let home = KordantHome(url: dir.appendingPathComponent("home"))
        let outbox = try Outbox(home: home)
        for i in 0..<10 {
            _ = try outbox.enqueue(.enrollment(sampleEnrollment(Digest.stableID(["secret", String(i)]))),
                                   files: [OutboxFile(path: sampleWAV, kind: .voiceSample, contentType: "audio/wav")])
        }
        let logs = CapturedLogs()
        let client = try makeClient(server.url, token: token, attempts: 8, logger: logs.logger("client"))
        let delivery = OutboxDelivery(outbox: outbox, client: client, maxAttempts: 100, logger: logs.logger("outbox"))
        var errors: [String] = []
        for _ in 0..<20 {
            let r = try await delivery.flush()
            if let why = r.stoppedBecause { errors.append(why) }
            if r.complete { break }
        }
        let left = try outbox.items(states: [.pending, .inflight, .dead])
            .map { "#\($0.id) \($0.state.rawValue) attempts \($0.attempts): \($0.lastError ?? "-")" }
        #expect(try outbox.counts()[.delivered] == 10, "not delivered: \(left); flushes stopped by: \(errors); server: \(server.log.suffix(3000))")
        // A refused token, an unreachable server: their errors too.
        let refusedToken = Kordant.token(secret: "not-the-server-secret")
        let refused = try makeClient(server.url, token: refusedToken, attempts: 1, logger: logs.logger("refused"))
        do { _ = try await refused.me() } catch { errors.append("\(error)"); errors.append(String(reflecting: error)) }
        server.kill()
        do { _ = try await client.me() } catch { errors.append("\(error)"); errors.append(String(reflecting: error)) }
        try await client.shutdown()
        try await refused.shutdown()
        // The CLI at its most verbose, with a token from the environment.
        try server.start()
        let cli = try Kordant.run(["outbox", "flush", "--verbose"], environment: Kordant.environment(home: home.url, server: server.url, token: token), in: dir)

        #expect(logs.all.count > 20, "the client logged too little for this test to mean anything")
        #expect(errors.count >= 4)
        for secret in [token, refusedToken, String(token.split(separator: ".")[2])] {
            #expect(!logs.all.contains { $0.contains(secret) })
            #expect(!errors.contains { $0.contains(secret) })
            #expect(!server.log.contains(secret))
            #expect(!cli.stderr.contains(secret) && !cli.stdout.contains(secret))
            for file in ["outbox.sqlite", "outbox.sqlite-wal", "cache.sqlite"] {
                let bytes = FileManager.default.contents(atPath: home.url.appendingPathComponent(file).path) ?? Data()
                #expect(bytes.firstRange(of: Data(secret.utf8)) == nil, "\(file) holds the token")
            }
        }
    }
}

/// A wall clock that moves only when told.
final class ManualWallClock: @unchecked Sendable {
    private let lock = NSLock()
    private var current: Date
    init(_ start: Date) { current = start }
    var now: Date { lock.withLock { current } }
    func advance(_ seconds: TimeInterval) { lock.withLock { current += seconds } }
}
