import Foundation
import KordantAPI
import KordantClient
import KordantServer
import KordantTestSupport
import Testing

@Suite struct ClientBehaviourTests {
    @Test func unauthorizedIsNotRetriedAndSaysHowToSetAToken() async throws {
        let server = try DevServer(dir: Kordant.scratch("401"))
        let client = try makeClient(server.url, token: Kordant.token(secret: "some-other-secret"), attempts: 5)
        await #expect {
            _ = try await client.me()
        } throws: { error in
            guard let e = error as? ClientError, case .server(let t) = e else { return false }
            return t.code == "UNAUTHORIZED" && t.httpStatus == 401 && e.isAuthentication && !e.isTransient
                && e.description.contains("KORDANT_TOKEN") && e.description.contains("kordant token")
        }
        try await client.shutdown()
        try await Task.sleep(for: .milliseconds(100))
        let requests = server.log.split(separator: "\n").filter { $0.contains("/api/trpc/user.me") }
        #expect(requests.count == 1, "\(requests)")
    }

    @Test func aClientDroppedWithoutShutdownClosesItsPoolAndShutdownIsIdempotent() async throws {
        let server = try DevServer(dir: Kordant.scratch("dropped-client"))
        defer { server.stop() }
        // A test that throws (or an embedder that returns early) releases a client still running:
        // in a debug build AsyncHTTPClient traps on that unless the client shuts its pool itself.
        do {
            let dropped = try makeClient(server.url)
            #expect(try await dropped.me().value.id == "tester")
        }
        let client = try makeClient(server.url)
        #expect(try await client.me().value.id == "tester")
        try await client.shutdown()
        try await client.shutdown()   // a second shutdown is a no-op, not ClientError/alreadyShutdown
    }

    @Test func transientFailuresAreRetriedUntilTheyPass() async throws {
        // Half the requests fail or drop; 20 attempts make a call that never gets through a
        // one-in-a-million event, so the test is not flaky.
        let server = try DevServer(dir: Kordant.scratch("retry"), arguments: ["--fail-rate", "0.3", "--drop-rate", "0.2"])
        let client = try makeClient(server.url, attempts: 20)
        for _ in 0..<30 {
            let me = try await client.me()
            #expect(me.value.id == "tester" && me.cachedAt == nil)
        }
        try await client.shutdown()
        let log = server.log
        #expect(log.contains("injected 50"), "no failure was injected")
        #expect(log.contains("injected drop"), "no connection was dropped")
    }

    @Test func retryAfterIsHonoured() async throws {
        let server = try DevServer(dir: Kordant.scratch("retry-after"), arguments: ["--fail-rate", "1", "--retry-after", "1"])
        defer { server.stop() }
        let clock = VirtualClock(autoAdvance: .seconds(5))
        var config = ClientConfiguration(server: server.url)
        config.retry = RetryPolicy(maxAttempts: 2, base: 0, cap: 5)   // without Retry-After: no wait at all
        config.requestTimeout = 30
        config.clock = clock
        let client = try KordantAPIClient(configuration: config, credentials: Credentials(token: Kordant.token(), source: "test"))
        await #expect {
            _ = try await client.call(Procedure.userMe, input: nil, kind: .query)
        } throws: { error in
            guard case ClientError.server(let t) = error else { return false }
            return [500, 502, 503].contains(t.httpStatus) && t.isRetryable
        }
        // With base 0 the only wait is the server's Retry-After: exactly 1 s of the client's time,
        // between the two attempts (each also armed a 30 s timeout that the answers beat).
        #expect(clock.now == .seconds(1))
        #expect(clock.sleeps == [.seconds(30), .seconds(1), .seconds(30)])
        try await client.shutdown()
        #expect(server.log.components(separatedBy: "injected 50").count - 1 == 2)

        // The policy itself: full jitter within [0, min(cap, base·2ⁿ⁻¹)], Retry-After capped.
        let p = RetryPolicy()
        #expect(p.delay(after: 1, random: 1) == 0.5 && p.delay(after: 3, random: 1) == 2 && p.delay(after: 10, random: 1) == 30)
        #expect(p.delay(after: 4, random: 0) == 0 && p.delay(after: 4, random: 0.5) == 2)
        #expect(p.delay(after: 1, retryAfter: 7) == 7 && p.delay(after: 1, retryAfter: 600) == 30)
        #expect(RetryPolicy.parseRetryAfter("3") == 3)
        let date = RetryPolicy.parseRetryAfter("Sun, 06 Nov 1994 08:49:47 GMT", now: Date(timeIntervalSince1970: 784_111_770))
        #expect(date == 17)
    }

    @Test func unreachableServerIsRetriedWithBackoff() async throws {
        // A port nothing listens on: connection refused, every attempt, then one clear error.
        let clock = VirtualClock(autoAdvance: .seconds(1))
        let client = try makeClient("http://127.0.0.1:9", attempts: 3, clock: clock)
        await #expect {
            _ = try await client.call(Procedure.userMe, input: nil, kind: .query)
        } throws: { error in
            guard case ClientError.unreachable(let url, let attempts, let reason) = error else { return false }
            return attempts == 3 && url.hasSuffix("/api/trpc/user.me") && reason == "connection refused"
        }
        try await client.shutdown()
        // Three attempts each armed their 30 s timeout; between them, two backoffs within
        // [0, 0.02] and [0, 0.04] (base 0.02 s, doubling); nothing else passed.
        let sleeps = clock.sleeps
        #expect(sleeps.count == 5 && [0, 2, 4].allSatisfy { sleeps[$0] == .seconds(30) }, "\(sleeps)")
        #expect(sleeps.count == 5 && sleeps[1] <= .milliseconds(20) && sleeps[3] <= .milliseconds(40), "\(sleeps)")
        #expect(clock.now == (sleeps.count == 5 ? sleeps[1] + sleeps[3] : .zero))
    }

    /// A server slower than the request timeout: each attempt times out on the client's clock,
    /// with the request in flight at the server, and the call fails after its attempts.
    @Test func slowServerTimesOutEachAttempt() async throws {
        // The server holds every answer for an hour: only the client's timeout can end an attempt.
        let slow = try DevServer(dir: Kordant.scratch("slow"), arguments: ["--latency-ms", "3600000"])
        defer { slow.kill() }   // not a graceful stop: that would wait for the held handlers
        let clock = VirtualClock()
        var config = ClientConfiguration(server: slow.url)
        config.retry = RetryPolicy(maxAttempts: 2, base: 0.01, cap: 0.01)
        config.requestTimeout = 0.3
        config.clock = clock
        let impatient = try KordantAPIClient(configuration: config, credentials: Credentials(token: Kordant.token(), source: "test"))
        let done = Flag()
        let call = Task {
            defer { done.set() }
            return try await impatient.call(Procedure.userMe, input: nil, kind: .query)
        }
        for n in 1...2 {
            // The attempt's timeout is armed; once the server holds the request, time passes.
            let deadline = try #require(await clock.waitForSleeper(unless: done))
            #expect(deadline == clock.now + .milliseconds(300))
            #expect(await waitFor { slow.log.components(separatedBy: "user.me received").count - 1 == n }, "request \(n) never arrived")
            clock.advance(to: deadline)
            if n == 1 {
                // The backoff (≤ 10 ms) before the second attempt, unless it drew 0 and the second
                // attempt's timeout is already what waits.
                let next = try #require(await clock.waitForSleeper(unless: done))
                if next <= clock.now + .milliseconds(10) { clock.advance(to: next) }
            }
        }
        await #expect {
            _ = try await call.value
        } throws: { error in
            guard case ClientError.unreachable(_, let attempts, let reason) = error else { return false }
            return attempts == 2 && reason.contains("timed out")
        }
        #expect(clock.now <= .milliseconds(610))
        try await impatient.shutdown()
    }

    /// The total timeout bounds a call however many attempts remain: on a server that never
    /// answers, 100 attempts of 0.3 s with backoff stop within the 1 s total.
    @Test func totalTimeoutBoundsTheRetries() async throws {
        let slow = try DevServer(dir: Kordant.scratch("slow-total"), arguments: ["--latency-ms", "3600000"])
        defer { slow.kill() }
        // Every sleep passes at once: virtual time runs as fast as the client asks.
        let clock = VirtualClock(autoAdvance: .seconds(3600))
        var config = ClientConfiguration(server: slow.url)
        config.retry = RetryPolicy(maxAttempts: 100, base: 0.2, cap: 0.2)
        config.requestTimeout = 0.3
        config.totalTimeout = 1
        config.clock = clock
        let client = try KordantAPIClient(configuration: config, credentials: Credentials(token: Kordant.token(), source: "test"))
        await #expect {
            _ = try await client.call(Procedure.userMe, input: nil, kind: .query)
        } throws: { error in
            // Each round is a 0.3 s timeout plus a backoff in [0, 0.2]: 3 or 4 attempts fit in 1 s.
            guard case ClientError.unreachable(_, let attempts, let reason) = error else { return false }
            return (3...4).contains(attempts) && reason.contains("timed out")
        }
        // The last attempt gets at least 50 ms even when less is left.
        #expect(clock.now <= .milliseconds(1050))
        // No attempt was given longer than its 0.3 s.
        #expect(clock.sleeps.allSatisfy { $0 <= .milliseconds(300) }, "\(clock.sleeps)")
        try await client.shutdown()
    }

    @Test func garbageResponsesGiveAClearError() async throws {
        // A plain static web server where the API should be: HTML error pages and a 200 of garbage.
        let dir = Kordant.scratch("garbage")
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("api/trpc"), withIntermediateDirectories: true)
        try Data("this is not json {".utf8).write(to: dir.appendingPathComponent("api/trpc/user.me"))
        let python = Process()
        python.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        python.arguments = ["python3", "-u", "-c", Self.httpServerExitingWithParent, "0", "--bind", "127.0.0.1", "--directory", dir.path]
        let out = Pipe()
        python.standardOutput = out
        python.standardError = FileHandle.nullDevice
        try python.run()
        ChildProcesses.shared.track(python)
        defer { ChildProcesses.end(python) }
        let line = String(decoding: out.fileHandleForReading.availableData, as: UTF8.self)
        let port = try #require(line.split(separator: " ").firstIndex(of: "port").map { Int(line.split(separator: " ")[$0 + 1])! })
        let client = try makeClient("http://127.0.0.1:\(port)", attempts: 2)
        await #expect {
            _ = try await client.call(Procedure.userMe, input: nil, kind: .query)
        } throws: { error in
            guard case ClientError.invalidResponse(_, let status, let reason) = error else { return false }
            return status == 200 && reason.contains("not JSON") && reason.contains("this is not json")
        }
        await #expect {
            _ = try await client.call(Procedure.listEnrollments, input: nil, kind: .query)
        } throws: { error in
            guard case ClientError.server(let t) = error else { return false }
            return t.httpStatus == 404 && t.code == "NOT_FOUND" && t.message.contains("without a tRPC error body")
        }
        try await client.shutdown()
    }

    /// `python3 -m http.server` that SIGTERM ends and that ends by itself when its parent (the
    /// test process) is gone, even by a crash that runs no cleanup.
    ///
    /// The child inherits the spawning thread's signal mask, in which SIGTERM is blocked: a plain
    /// `http.server` never saw the `terminate()` sent at the end of the test and stayed running.
    static let httpServerExitingWithParent = """
        import os, runpy, signal, sys, threading, time
        signal.pthread_sigmask(signal.SIG_SETMASK, [])
        parent = os.getppid()
        def watch():
            while os.getppid() == parent:
                time.sleep(0.2)
            os._exit(0)
        threading.Thread(target=watch, daemon=True).start()
        sys.argv = ["http.server"] + sys.argv[1:]
        runpy.run_module("http.server", run_name="__main__", alter_sys=True)
        """

    @Test func cacheAnswersQueriesWhenTheServerIsDown() async throws {
        let dir = Kordant.scratch("cache")
        let server = try DevServer(dir: dir)
        let cache = try QueryCache(path: dir.appendingPathComponent("cache.sqlite"), ttl: 3600)
        let client = try makeClient(server.url, attempts: 2, cache: cache)
        let live = try await client.me()
        #expect(live.cachedAt == nil)
        server.kill()
        let cached = try await client.me()
        #expect(cached.value == live.value && cached.cachedAt != nil)
        // Another user's token never sees this user's cached answer.
        let other = try makeClient(server.url, token: Kordant.token(sub: "someone-else"), attempts: 1, cache: cache)
        await #expect(throws: ClientError.self) { _ = try await other.me() }
        // Expired entries are not served.
        let expired = try QueryCache(path: dir.appendingPathComponent("cache.sqlite"), ttl: 0)
        let strict = try makeClient(server.url, attempts: 1, cache: expired)
        await #expect(throws: ClientError.self) { _ = try await strict.me() }
        for c in [client, other, strict] { try await c.shutdown() }
    }

    @Test func tokenComesFromEnvironmentOrAPrivateConfigFile() throws {
        let home = KordantHome(url: Kordant.scratch("home"))
        #expect(throws: ClientError.self) { try Credentials.load(home: home, environment: [:]) }
        let fromEnv = try Credentials.load(home: home, environment: ["KORDANT_TOKEN": "env-token-123"])
        #expect(fromEnv.source == "KORDANT_TOKEN")
        #expect(!"\(fromEnv)".contains("env-token-123") && !String(reflecting: fromEnv).contains("env-token-123"))

        try Data(#"{"token": "file-token-456", "server": "http://127.0.0.1:1234"}"#.utf8).write(to: home.configFile)
        chmod(home.configFile.path, 0o644)
        do {
            _ = try Credentials.load(home: home, environment: [:])
            Issue.record("a group/world-readable config file was accepted")
        } catch let e as ClientError {
            #expect(e.description.contains("chmod 600") && !e.description.contains("file-token-456"))
        }
        chmod(home.configFile.path, 0o600)
        let fromFile = try Credentials.load(home: home, environment: [:])
        #expect(fromFile.source == home.configFile.path)
        #expect(ClientConfiguration.defaultServer(home: home, environment: [:]) == "http://127.0.0.1:1234")
        #expect(ClientConfiguration.defaultServer(home: home, environment: ["KORDANT_SERVER": "http://x:1"]) == "http://x:1")
    }

    /// An empty config file (FuzzConfig's one finding: reading a 0-byte file leaked 4 KB inside
    /// FoundationEssentials) is refused from its size, without being read, and says what it expected.
    @Test func emptyConfigFileIsRefusedUnread() throws {
        let home = KordantHome(url: Kordant.scratch("empty-config"))
        #expect(FileManager.default.createFile(atPath: home.configFile.path, contents: Data(), attributes: [.posixPermissions: 0o600]))
        do {
            _ = try ClientConfigFile.load(path: home.configFile.path)
            Issue.record("an empty config file was accepted")
        } catch let e as ClientError {
            #expect(e.description.contains("empty; expected a JSON object"), "\(e)")
        }
        #expect(ClientConfiguration.defaultServer(home: home, environment: [:]) == "http://127.0.0.1:3000")
    }
}
