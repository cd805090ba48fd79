import Crypto
import Foundation
import GRDB
import KordantAPI
import KordantClient
import KordantServer
import KordantTestSupport
import NIOCore
import NIOHTTP1
import Testing

/// The dev server and the client at their limits (issue 17, part 6): 200 concurrent submissions,
/// oversized, stalled and malformed requests, hostile tokens and multipart bombs — each a clear
/// 4xx, the server's memory bounded, and nothing lost or duplicated. Every test runs against a real
/// `kordant serve` process on loopback with its real SQLite file.
@Suite struct LoadLimitTests {
    /// 200 uploads and 200 enrollments in flight at once from one client: every one is stored
    /// exactly once, and sending all 200 again at once duplicates nothing.
    @Test func twoHundredConcurrentSubmissionsAreStoredOnce() async throws {
        let server = try DevServer(dir: Kordant.scratch("load-200"))
        defer { server.stop() }
        let client = try makeClient(server.url, attempts: 5)
        let audio = try Data(contentsOf: URL(fileURLWithPath: sampleWAV))
        func submitAll() async throws -> [String: Int] {
            try await withThrowingTaskGroup(of: String.self) { group in
                for i in 0..<200 {
                    group.addTask {
                        let id = Digest.stableID(["load", String(i)])
                        let upload = try await client.upload(audio, kind: .voiceSample, filename: "s\(i).wav", contentType: "audio/wav",
                                                             idempotencyKey: "upload-\(id)")
                        var enrollment = sampleEnrollment(id)
                        enrollment.samples[0].uploadId = upload.id
                        return try await client.createEnrollment(enrollment).status
                    }
                }
                var statuses: [String: Int] = [:]
                for try await status in group { statuses[status, default: 0] += 1 }
                return statuses
            }
        }
        #expect(try await submitAll() == ["created": 200])
        #expect(try await submitAll() == ["duplicate": 200])
        try await client.shutdown()
        let db = try DatabaseQueue(path: server.database.path)
        let (enrollments, distinct, uploads) = try await db.read { db in
            (try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM enrollment") ?? -1,
             try Int.fetchOne(db, sql: "SELECT COUNT(DISTINCT client_request_id) FROM enrollment") ?? -1,
             try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM upload") ?? -1)
        }
        #expect(enrollments == 200 && distinct == 200 && uploads == 200)
        let peak = peakMemoryMB(server)
        #expect(peak < 1024, "server peak RSS \(peak) MB")
    }

    /// Four `kordant outbox flush` processes at once on one outbox of 200 submissions, against a
    /// server failing 10 % of requests: each item is claimed by one of them, and the server ends
    /// up with exactly 200 enrollments and 200 uploads.
    @Test func concurrentFlushesLoseAndDuplicateNothing() throws {
        let dir = Kordant.scratch("load-flush")
        let server = try DevServer(dir: dir, arguments: ["--fail-rate", "0.1"])
        defer { server.stop() }
        let home = KordantHome(url: dir.appendingPathComponent("home"))
        let outbox = try Outbox(home: home)
        for i in 0..<200 {
            let outcome = try outbox.enqueue(.enrollment(sampleEnrollment(Digest.stableID(["flush", String(i)]))),
                                             files: [OutboxFile(path: sampleWAV, kind: .voiceSample, contentType: "audio/wav")])
            guard case .queued = outcome else { Issue.record("not queued: \(outcome)"); return }
        }
        let env = Kordant.environment(home: home.url, server: server.url, token: Kordant.token())
        let arguments = ["outbox", "flush", "--attempts", "12", "--backoff-base", "0.02", "--backoff-cap", "0.25", "--timeout", "30",
                         "--outbox-attempts", "50"]
        let flushes = try (0..<4).map { try Kordant.start(arguments, environment: env, in: dir, tag: "flush-\($0)").0 }
        defer { for p in flushes { ChildProcesses.end(p) } }
        for p in flushes { p.waitUntilExit() }
        // A flush that found the others holding every item exits with the rest still theirs;
        // one more pass delivers anything a failed attempt left pending.
        let last = try Kordant.run(arguments, environment: env, in: dir)
        #expect(last.status == 0, "\(last.stdout)\(last.stderr)")
        let state = try Outbox(home: home).counts()
        #expect(state[.delivered] == 200 && state[.pending] == nil && state[.dead] == nil && state[.inflight] == nil, "\(state)")
        let db = try DatabaseQueue(path: server.database.path)
        let (enrollments, distinct, uploads) = try db.read { db in
            (try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM enrollment") ?? -1,
             try Int.fetchOne(db, sql: "SELECT COUNT(DISTINCT client_request_id) FROM enrollment") ?? -1,
             try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM upload") ?? -1)
        }
        #expect(enrollments == 200 && distinct == 200 && uploads == 200)
    }

    /// Bodies over the limits are refused with 413 whether the size is declared or only found
    /// while reading, and a declared size is refused before any of the body is read.
    @Test func oversizedBodiesAre413() async throws {
        let server = try DevServer(dir: Kordant.scratch("load-size"))
        defer { server.stop() }
        let auth = ("Authorization", "Bearer \(Kordant.token())")
        let mutation = "\(server.url)/api/trpc/\(Procedure.createEnrollment)"
        // Declared: 5 MB against the 4 MB tRPC limit.
        let (declared, _, body) = try await raw(.POST, mutation, headers: [auth, ("Content-Type", "application/json")],
                                                body: Data(repeating: 0x20, count: 5 << 20))
        #expect(declared == 413 && body?["error"]?["data"]?["code"] == .string("PAYLOAD_TOO_LARGE"))
        // Chunked, so only reading finds out: the limit's worth of 64 KB chunks and one byte more,
        // and no closing chunk. Sent on a plain connection: the server has read every byte sent
        // when it finds the body too large, so its answer is never raced by the client's writes
        // (an HTTP client still sending got a reset instead of the 413 under ThreadSanitizer, and
        // its body-stream task, suspended past the answer, was reported by LeakSanitizer at exit).
        let chunked = try RawConnection(port: server.port)
        try chunked.send("POST /api/trpc/\(Procedure.createEnrollment) HTTP/1.1\r\nHost: x\r\nAuthorization: \(auth.1)\r\n"
            + "Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n")
        let chunk = "10000\r\n" + String(repeating: " ", count: 64 << 10) + "\r\n"
        for _ in 0..<(4 << 20) / (64 << 10) { try chunked.send(chunk) }
        try chunked.send("1\r\n ")
        let refused = chunked.readUntilClosedOrResponse(timeout: 60)
        #expect(refused.hasPrefix("HTTP/1.1 413") && refused.contains("PAYLOAD_TOO_LARGE"), "\(refused.prefix(300))")
        // An upload declaring 1 GB: answered from the header alone (nothing of the body is sent).
        let connection = try RawConnection(port: server.port)
        try connection.send("POST /api/upload HTTP/1.1\r\nHost: x\r\nAuthorization: \(auth.1)\r\nIdempotency-Key: k1\r\n"
            + "Content-Type: multipart/form-data; boundary=X\r\nContent-Length: 1000000000\r\n\r\n")
        let answer = connection.readUntilClosedOrResponse()
        #expect(answer.hasPrefix("HTTP/1.1 413"), "\(answer.prefix(200))")
        #expect(peakMemoryMB(server) < 1024)
    }

    /// A client that stops sending in the middle of a body loses its connection after the idle
    /// timeout, while other clients are served all along.
    @Test func stalledBodyIsCutOffWhileOthersAreServed() async throws {
        let server = try DevServer(dir: Kordant.scratch("load-slow"), arguments: ["--idle-timeout", "1"])
        defer { server.stop() }
        let stalled = try (0..<20).map { _ in try RawConnection(port: server.port) }
        for c in stalled {
            try c.send("POST /api/trpc/\(Procedure.createEnrollment) HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(Kordant.token())\r\n"
                + "Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n{\"clientRe")
        }
        // Served while 20 connections hang mid-body.
        let (status, _, body) = try await raw(.GET, "\(server.url)/api/trpc/user.me", headers: [("Authorization", "Bearer \(Kordant.token())")])
        #expect(status == 200 && body?["result"]?["data"]?["id"] == .string("tester"))
        // Each stalled connection is closed by the server (a 60 s bound against a hang, not a timing claim).
        for c in stalled {
            let rest = c.readUntilClosed(timeout: 60)
            #expect(c.closedByPeer, "a stalled connection is still open (\(rest.prefix(100)))")
        }
    }

    /// Bodies being received share one budget (256 MB): four chunked uploads, each reserving
    /// the 64 MB upload limit, fill it; a fifth is answered 503 (which clients retry) at once
    /// instead of being buffered, and the budget comes back when the stalled connections go.
    @Test func bodyBudgetBoundsMemoryAcrossConnections() async throws {
        let server = try DevServer(dir: Kordant.scratch("load-budget"))
        defer { server.stop() }
        func chunkedUpload() throws -> RawConnection {
            let c = try RawConnection(port: server.port)
            try c.send("POST /api/upload HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(Kordant.token())\r\nIdempotency-Key: \(UUID().uuidString)\r\n"
                + "Content-Type: multipart/form-data; boundary=B\r\nTransfer-Encoding: chunked\r\n\r\n5\r\n--B\r\n\r\n")
            return c
        }
        // Uploads are opened one at a time until the server refuses one. The server reads
        // connections on several threads, so under load a later upload can be read before an
        // earlier one: each is given a moment, and one refused late holds nothing.
        var holding: [RawConnection] = []
        var answer = ""
        let deadline = Date().addingTimeInterval(120)   // a bound against a hang, not a timing
        while !answer.hasPrefix("HTTP/1.1 503"), holding.count < 16, Date() < deadline {
            let upload = try chunkedUpload()
            answer = upload.readUntilClosedOrResponse(timeout: 1)
            if answer.isEmpty { holding.append(upload) }
        }
        #expect(answer.hasPrefix("HTTP/1.1 503") && answer.contains("SERVICE_UNAVAILABLE"), "\(answer.prefix(300))")
        holding.removeAll { !$0.readUntilClosedOrResponse(timeout: 1).isEmpty }
        #expect(holding.count == 4, "uploads holding a reservation when the server refused one")
        holding.removeAll()   // closes them
        // The server releases the budget once it sees them closed (polled, bounded).
        let data = Data("after the bomb".utf8)
        let digest = Digest.sha256Hex(data)
        let form = "--B\r\nContent-Disposition: form-data; name=\"sha256\"\r\n\r\n\(digest)\r\n"
            + "--B\r\nContent-Disposition: form-data; name=\"kind\"\r\n\r\ndocument_scan\r\n"
            + "--B\r\nContent-Disposition: form-data; name=\"file\"\r\n\r\nafter the bomb\r\n--B--\r\n"
        var status = 0
        repeat {
            (status, _, _) = try await raw(.POST, "\(server.url)/api/upload", headers: [
                ("Authorization", "Bearer \(Kordant.token())"), ("Idempotency-Key", "budget-after"),
                ("Content-Type", "multipart/form-data; boundary=B"),
            ], body: Data(form.utf8))
            if status == 503 { try await Task.sleep(for: .milliseconds(50)) }
        } while status == 503 && Date() < deadline.addingTimeInterval(60)
        #expect(status == 201)
        #expect(peakMemoryMB(server) < 1024)
    }

    /// Tokens a client might forge or mangle: each is a 401 that says why, never echoing the token.
    @Test func malformedTokensAre401() async throws {
        let server = try DevServer(dir: Kordant.scratch("load-jwt"))
        defer { server.stop() }
        let secret = DevToken.defaultSecret
        let valid = DevToken.Claims(sub: "tester", email: "t@example.com", name: "T")
        func b64(_ d: Data) -> String {
            d.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
        }
        func signed(header: String, payload: String, key: String = secret) -> String {
            let input = b64(Data(header.utf8)) + "." + b64(Data(payload.utf8))
            return input + "." + b64(Data(HMAC<SHA256>.authenticationCode(for: Data(input.utf8), using: SymmetricKey(data: Data(key.utf8)))))
        }
        let hs256 = #"{"alg":"HS256","typ":"JWT"}"#
        let claims = String(decoding: try JSONEncoder().encode(valid), as: UTF8.self)
        var expired = valid
        expired.exp = expired.iat - 1
        var noSubject = valid
        noSubject.sub = ""
        let cases: [(String, String, String)] = [
            ("alg none", b64(Data(#"{"alg":"none","typ":"JWT"}"#.utf8)) + "." + b64(Data(claims.utf8)) + ".", "accepts HS256 only"),
            ("alg none, signed", signed(header: #"{"alg":"none"}"#, payload: claims), "accepts HS256 only"),
            ("RS256", signed(header: #"{"alg":"RS256"}"#, payload: claims), "accepts HS256 only"),
            ("bad signature", signed(header: hs256, payload: claims, key: "another-secret"), "signature does not verify"),
            ("expired", DevToken.sign(expired, secret: secret), "has expired"),
            ("empty sub", DevToken.sign(noSubject, secret: secret), "has no subject"),
            ("no sub", signed(header: hs256, payload: #"{"email":"a","name":"b","iat":1,"exp":99999999999,"iss":"x"}"#), "not a JWT"),
            ("two parts", "abc.def", "not a JWT"),
            ("not base64", "!!!.???.***", "not a JWT"),
            ("header not JSON", b64(Data("nope".utf8)) + ".e30.sig", "not a JWT"),
        ]
        for (name, token, reason) in cases {
            let (status, _, body) = try await raw(.GET, "\(server.url)/api/trpc/user.me", headers: [("Authorization", "Bearer \(token)")])
            let message = body?["error"]?["message"]?.stringValue ?? ""
            #expect(status == 401 && body?["error"]?["data"]?["code"] == .string("UNAUTHORIZED"), "\(name): \(status)")
            #expect(message.contains(reason), "\(name): \(message)")
            #expect(token.count < 8 || !message.contains(token), "\(name): the token is echoed")
        }
        let (status, _, _) = try await raw(.GET, "\(server.url)/api/trpc/user.me", headers: [("Authorization", "Basic dXNlcjpwYXNz")])
        #expect(status == 401)
    }

    /// Multipart bombs: thousands of parts, a part whose headers never end, headers the size of
    /// the body, a boundary that recurs inside a part, and a form nested in a part. Clear 400s
    /// (the nested form is just bytes of its part, stored as sent), and the server stays small.
    @Test func multipartBombsAreRefused() async throws {
        let server = try DevServer(dir: Kordant.scratch("load-multipart"))
        defer { server.stop() }
        func upload(_ body: Data, boundary: String = "B", key: String = UUID().uuidString) async throws -> (Int, String) {
            let (status, _, json) = try await raw(.POST, "\(server.url)/api/upload", headers: [
                ("Authorization", "Bearer \(Kordant.token())"), ("Idempotency-Key", key),
                ("Content-Type", "multipart/form-data; boundary=\(boundary)"),
            ], body: body)
            return (status, json?["error"]?["message"]?.stringValue ?? json.map { String(decoding: $0.data, as: UTF8.self) } ?? "")
        }
        func part(_ name: String, _ content: String, boundary: String = "B") -> String {
            "--\(boundary)\r\nContent-Disposition: form-data; name=\"\(name)\"\r\n\r\n\(content)\r\n"
        }
        // 100,000 parts in 5 MB.
        let many = String(repeating: part("x", "y"), count: 100_000) + "--B--\r\n"
        var (status, message) = try await upload(Data(many.utf8))
        #expect(status == 400 && message.contains("more than 16 multipart parts"), "\(status) \(message)")
        // One part whose headers run for 10 MB without ending.
        (status, message) = try await upload(Data(("--B\r\nX-Pad: " + String(repeating: "a", count: 10 << 20)).utf8))
        #expect(status == 400 && message.contains("headers longer than"), "\(status) \(message)")
        // Headers that do end, after 1 MB.
        (status, message) = try await upload(Data(("--B\r\nX-Pad: " + String(repeating: "a", count: 1 << 20) + "\r\n\r\nz\r\n--B--").utf8))
        #expect(status == 400 && message.contains("headers longer than"), "\(status) \(message)")
        // The boundary recurring inside content, followed by something that is not a delimiter.
        (status, message) = try await upload(Data((part("kind", "voice_sample") + "--B\r\nContent-Disposition: form-data; name=\"file\"\r\n\r\nab\r\n--BX\r\n--B--").utf8))
        #expect(status == 400 && message.contains("malformed multipart delimiter"), "\(status) \(message)")
        // A whole form nested in the file part, with its own boundary: stored byte for byte.
        let inner = part("file", "not me", boundary: "inner") + "--inner--"
        let digest = Digest.sha256Hex(Data(inner.utf8))
        (status, message) = try await upload(Data((part("sha256", digest) + part("kind", "document_scan") + part("file", inner) + "--B--\r\n").utf8))
        #expect(status == 201 && message.contains(digest), "\(status) \(message)")
        let peak = peakMemoryMB(server)
        #expect(peak < 1024, "server peak RSS \(peak) MB")
    }

    /// Request headers beyond the HTTP decoder's limit (80 KB) end that request, not the server.
    @Test func hugeHeadersAreRefused() async throws {
        let server = try DevServer(dir: Kordant.scratch("load-headers"))
        defer { server.stop() }
        let connection = try RawConnection(port: server.port)
        try connection.send("GET /api/trpc/user.me HTTP/1.1\r\nHost: x\r\nX-Pad: \(String(repeating: "a", count: 200 << 10))\r\n\r\n")
        let answer = connection.readUntilClosedOrResponse(timeout: 60)
        #expect(answer.hasPrefix("HTTP/1.1 4") || (answer.isEmpty && connection.closedByPeer), "\(answer.prefix(100))")
        let (status, _, _) = try await raw(.GET, "\(server.url)/healthz")
        #expect(status == 200)
    }

    /// A filename with a quote, CR or LF (legal on Linux) cannot break the client's form.
    @Test func uploadFilenameCannotInjectHeaders() async throws {
        let server = try DevServer(dir: Kordant.scratch("load-filename"))
        defer { server.stop() }
        let client = try makeClient(server.url)
        let data = Data("RIFF....WAVE".utf8)
        let result = try await client.upload(data, kind: .voiceSample, filename: "a\"\r\nContent-Type: text/html\r\n\r\nb.wav",
                                             contentType: "audio/wav", idempotencyKey: "filename-1")
        #expect(result.sha256 == Digest.sha256Hex(data) && result.bytes == data.count && result.contentType == "audio/wav")
        try await client.shutdown()
    }

    /// `kordant token --days` beyond what fits in seconds is refused, not a crash.
    @Test func tokenLifetimeIsValidated() throws {
        let dir = Kordant.scratch("token-days")
        for days in ["1e300", "nan", "inf", "-1", "0"] {
            let r = try Kordant.run(["token", "--days", days], environment: ProcessInfo.processInfo.environment, in: dir)
            #expect(r.status == 64 && r.stderr.contains("--days"), "\(days): \(r.status) \(r.stderr)")
        }
        #expect(try Kordant.run(["token", "--days", "0.5"], environment: ProcessInfo.processInfo.environment, in: dir).status == 0)
    }

    /// The server process's peak resident memory (VmHWM), MB.
    func peakMemoryMB(_ server: DevServer) -> Int {
        guard let pid = server.process?.processIdentifier,
              let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
              let kb = Int(line.split(separator: " ").dropFirst().first ?? "")
        else { return -1 }
        return kb / 1024
    }
}

/// A plain TCP connection to the loopback server, for requests no HTTP client would send.
final class RawConnection {
    let fd: Int32
    private(set) var closedByPeer = false

    init(port: Int) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard fd >= 0, connected == 0 else { throw POSIXError(.ECONNREFUSED) }
    }

    deinit { close(fd) }

    func send(_ text: String) throws {
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let n = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            // The server may answer and close before reading all of an oversized request.
            guard n > 0 else { return }
            bytes = bytes.dropFirst(n)
        }
    }

    /// Reads until the peer closes or `timeout` seconds pass with nothing to read.
    func readUntilClosed(timeout: Int) -> String {
        read(timeout: timeout) { _ in false }
    }

    /// Reads until the peer closes, a full response head and its declared body have arrived, or
    /// `timeout` seconds pass with nothing to read.
    func readUntilClosedOrResponse(timeout: Int = 30) -> String {
        read(timeout: timeout) { text in
            guard let head = text.range(of: "\r\n\r\n") else { return false }
            let length = text[..<head.lowerBound].split(separator: "\r\n")
                .first { $0.lowercased().hasPrefix("content-length:") }
                .flatMap { Int($0.split(separator: ":")[1].trimmingCharacters(in: .whitespaces)) } ?? 0
            return text.utf8.count - text[..<head.upperBound].utf8.count >= length
        }
    }

    /// Reads until the peer closes, `done` says the text so far is complete, or `timeout` seconds
    /// pass with nothing to read.
    private func read(timeout: Int, done: (String) -> Bool) -> String {
        var received = Data()
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&p, 1, Int32(timeout * 1000)) > 0 else { break }
            let n = recv(fd, &buffer, buffer.count, 0)
            if n <= 0 { closedByPeer = true; break }
            received.append(contentsOf: buffer[0..<n])
            if done(String(decoding: received, as: UTF8.self)) { break }
        }
        return String(decoding: received, as: UTF8.self)
    }
}
