import Foundation
import KordantAPI
import KordantClient
import KordantServer
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
        var config = ClientConfiguration(server: server.url)
        config.retry = RetryPolicy(maxAttempts: 2, base: 0, cap: 5)   // without Retry-After: no wait at all
        let client = try KordantAPIClient(configuration: config, credentials: Credentials(token: Kordant.token(), source: "test"))
        let start = Date()
        await #expect {
            _ = try await client.me()
        } throws: { error in
            guard case ClientError.server(let t) = error else { return false }
            return [500, 502, 503].contains(t.httpStatus) && t.isRetryable
        }
        // With base 0 the only wait is the server's Retry-After.
        let elapsed = Date().timeIntervalSince(start)
        #expect(elapsed >= 0.95, "waited \(elapsed) s")
        try await client.shutdown()

        // The policy itself: full jitter within [0, min(cap, base·2ⁿ⁻¹)], Retry-After capped.
        let p = RetryPolicy()
        #expect(p.delay(after: 1, random: 1) == 0.5 && p.delay(after: 3, random: 1) == 2 && p.delay(after: 10, random: 1) == 30)
        #expect(p.delay(after: 4, random: 0) == 0 && p.delay(after: 4, random: 0.5) == 2)
        #expect(p.delay(after: 1, retryAfter: 7) == 7 && p.delay(after: 1, retryAfter: 600) == 30)
        #expect(RetryPolicy.parseRetryAfter("3") == 3)
        let date = RetryPolicy.parseRetryAfter("Sun, 06 Nov 1994 08:49:47 GMT", now: Date(timeIntervalSince1970: 784_111_770))
        #expect(date == 17)
    }

    @Test func unreachableServerAndTimeouts() async throws {
        // A port nothing listens on: connection refused, every attempt, then one clear error.
        let client = try makeClient("http://127.0.0.1:9", attempts: 3)
        await #expect {
            _ = try await client.call(Procedure.userMe, input: nil, kind: .query)
        } throws: { error in
            guard case ClientError.unreachable(let url, let attempts, _) = error else { return false }
            return attempts == 3 && url.hasSuffix("/api/trpc/user.me")
        }
        try await client.shutdown()

        // A server slower than the request timeout: each attempt times out.
        let slow = try DevServer(dir: Kordant.scratch("slow"), arguments: ["--latency-ms", "10000"])
        var config = ClientConfiguration(server: slow.url)
        config.retry = RetryPolicy(maxAttempts: 2, base: 0.01, cap: 0.01)
        config.requestTimeout = 0.3
        let impatient = try KordantAPIClient(configuration: config, credentials: Credentials(token: Kordant.token(), source: "test"))
        await #expect {
            _ = try await impatient.call(Procedure.userMe, input: nil, kind: .query)
        } throws: { error in
            guard case ClientError.unreachable(_, let attempts, let reason) = error else { return false }
            return attempts == 2 && reason.contains("timed out")
        }
        try await impatient.shutdown()
        slow.kill()   // not a graceful stop: that would wait for the 10 s handler
    }

    @Test func garbageResponsesGiveAClearError() async throws {
        // A plain static web server where the API should be: HTML error pages and a 200 of garbage.
        let dir = Kordant.scratch("garbage")
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("api/trpc"), withIntermediateDirectories: true)
        try Data("this is not json {".utf8).write(to: dir.appendingPathComponent("api/trpc/user.me"))
        let python = Process()
        python.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        python.arguments = ["python3", "-u", "-m", "http.server", "0", "--bind", "127.0.0.1", "--directory", dir.path]
        let out = Pipe()
        python.standardOutput = out
        python.standardError = FileHandle.nullDevice
        try python.run()
        defer { python.terminate() }
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
}
