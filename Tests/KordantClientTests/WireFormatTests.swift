import AsyncHTTPClient
import Foundation
import KordantAPI
import KordantClient
import KordantServer
import NIOCore
import Testing

/// One raw HTTP exchange, to look at the bytes on the wire.
///
/// Asked again (at most twice) only when the connection closed before any answer was read (seen
/// under ThreadSanitizer on a loaded machine, on the shared client's pooled connections). The
/// exchanges of these tests bear repeating: uploads carry an Idempotency-Key, the rest are queries
/// or requests the server refuses. Any answer, whatever its status, is returned as it came.
func raw(_ method: NIOHTTP1.HTTPMethod, _ url: String, headers: [(String, String)] = [], body: Data? = nil) async throws -> (Int, HTTPHeaders, JSONValue?) {
    var request = HTTPClientRequest(url: url)
    request.method = method
    for (k, v) in headers { request.headers.add(name: k, value: v) }
    if let body { request.body = .bytes(ByteBuffer(bytes: body)) }
    var attempt = 0
    while true {
        attempt += 1
        let response: HTTPClientResponse
        do {
            response = try await HTTPClient.shared.execute(request, timeout: .seconds(10))
        } catch let error where closedBeforeAnswer(error) && attempt < 3 {
            continue
        }
        let data = Data(try await response.body.collect(upTo: 1 << 20).readableBytesView)
        return (Int(response.status.code), response.headers, JSONValue(json: data))
    }
}

/// Whether an exchange ended with its connection closed before any answer was read: a reset
/// while the request was being written, or a close seen while waiting for the answer.
func closedBeforeAnswer(_ error: any Error) -> Bool {
    (error as? ChannelError) == .ioOnClosedChannel || (error as? HTTPClientError) == .remoteConnectionClosed
}

import NIOHTTP1
import KordantTestSupport

@Suite struct WireFormatTests {
    let server: DevServer
    let auth: (String, String)

    init() throws {
        server = try DevServer(dir: Kordant.scratch("wire"))
        auth = ("Authorization", "Bearer \(Kordant.token())")
    }

    @Test func querySuccessEnvelope() async throws {
        let (status, headers, body) = try await raw(.GET, "\(server.url)/api/trpc/user.me", headers: [auth])
        #expect(status == 200)
        #expect(headers.first(name: "Content-Type") == "application/json")
        #expect(body == .object(["result": .object(["data": .object([
            "id": .string("tester"), "email": .string("tester@example.com"), "name": .string("Test tester")])])]))
    }

    @Test func errorEnvelopeCarriesStringCodeAndStatus() async throws {
        let (status, _, body) = try await raw(.GET, "\(server.url)/api/trpc/user.me")
        #expect(status == 401)
        #expect(body == .object(["error": .object([
            "message": .string("missing bearer token"), "code": .number(-32001),
            "data": .object(["code": .string("UNAUTHORIZED"), "httpStatus": .number(401), "path": .string("user.me")])])]))

        let (s404, _, b404) = try await raw(.GET, "\(server.url)/api/trpc/nope.nothing", headers: [auth])
        #expect(s404 == 404 && b404?["error"]?["data"]?["code"] == .string("NOT_FOUND") && b404?["error"]?["code"] == .number(-32004))
        let (s405, _, b405) = try await raw(.POST, "\(server.url)/api/trpc/user.me", headers: [auth, ("Content-Type", "application/json")], body: Data("{}".utf8))
        #expect(s405 == 405 && b405?["error"]?["data"]?["code"] == .string("METHOD_NOT_SUPPORTED"))
    }

    @Test func queryInputIsURLEncodedJSON() async throws {
        let input = #"{"limit":2,"cursor":null}"#.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
        let (status, _, body) = try await raw(.GET, "\(server.url)/api/trpc/voiceprint.listEnrollments?input=\(input)", headers: [auth])
        #expect(status == 200)
        #expect(body?["result"]?["data"]?["items"] == .array([]))
        let (bad, _, badBody) = try await raw(.GET, "\(server.url)/api/trpc/voiceprint.listEnrollments?input=%7Bnot", headers: [auth])
        #expect(bad == 400 && badBody?["error"]?["data"]?["code"] == .string("PARSE_ERROR") && badBody?["error"]?["code"] == .number(-32700))
        let (limit, _, limitBody) = try await raw(.GET, "\(server.url)/api/trpc/voiceprint.listEnrollments?input=%7B%22limit%22%3A0%7D", headers: [auth])
        #expect(limit == 400 && limitBody?["error"]?["data"]?["code"] == .string("BAD_REQUEST"))
    }

    @Test func mutationNeedsJSONContentType() async throws {
        let body = JSONValue(encoding: sampleEnrollment("00000000-aaaa-8bbb-8ccc-000000000001"))!.data
        let (status, _, json) = try await raw(.POST, "\(server.url)/api/trpc/voiceprint.createEnrollment", headers: [auth], body: body)
        #expect(status == 415)
        #expect(json?["error"]?["data"]?["code"] == .string("UNSUPPORTED_MEDIA_TYPE"))
        #expect(json?["error"]?["code"] == .number(-32015))
    }

    @Test func mutationValidatesInput() async throws {
        let (status, _, json) = try await raw(.POST, "\(server.url)/api/trpc/voiceprint.createEnrollment",
                                              headers: [auth, ("Content-Type", "application/json")], body: Data(#"{"clientRequestId":"abcdefgh-1"}"#.utf8))
        #expect(status == 400)
        #expect(json?["error"]?["data"]?["code"] == .string("BAD_REQUEST"))
        #expect(json?["error"]?["message"]?.stringValue?.contains("samples") == true)
        // An upload id that does not exist is refused, not stored.
        let e = sampleEnrollment("00000000-aaaa-8bbb-8ccc-000000000002")
        let client = try makeClient(server.url)
        await #expect {
            _ = try await client.createEnrollment(e)
        } throws: { error in
            guard case ClientError.server(let t) = error else { return false }
            return t.code == "BAD_REQUEST" && t.httpStatus == 400 && t.message.contains("uploadId") && t.path == Procedure.createEnrollment
        }
        try await client.shutdown()
    }

    @Test func uploadDigestIdempotencyAndMutationDeduplication() async throws {
        let client = try makeClient(server.url)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: sampleWAV))
        let first = try await client.upload(bytes, kind: .voiceSample, filename: "a.wav", contentType: "audio/wav", idempotencyKey: "key-1")
        let again = try await client.upload(bytes, kind: .voiceSample, filename: "a.wav", contentType: "audio/wav", idempotencyKey: "key-1")
        #expect(first == again)
        #expect(first.bytes == bytes.count && first.sha256 == Digest.sha256Hex(bytes) && first.contentType == "audio/wav")
        let other = try await client.upload(bytes, kind: .voiceSample, filename: "a.wav", contentType: "audio/wav", idempotencyKey: "key-2")
        #expect(other.id != first.id)

        // A digest that does not match the bytes: 422.
        await #expect {
            _ = try await client.upload(bytes, sha256: String(repeating: "0", count: 64), kind: .voiceSample, filename: "a.wav",
                                        contentType: "audio/wav", idempotencyKey: "key-3")
        } throws: { error in
            guard case ClientError.server(let t) = error else { return false }
            return t.httpStatus == 422 && t.code == "UNPROCESSABLE_CONTENT" && t.knownCode?.jsonRPCCode == -32022
        }
        // One key, other content: 409, never a second upload under the key.
        await #expect {
            _ = try await client.upload(Data("other".utf8), kind: .voiceSample, filename: "b.wav", contentType: "audio/wav", idempotencyKey: "key-1")
        } throws: { error in
            guard case ClientError.server(let t) = error else { return false }
            return t.httpStatus == 409
        }

        var e = sampleEnrollment("00000000-aaaa-8bbb-8ccc-000000000003")
        e.samples[0].uploadId = first.id
        let created = try await client.createEnrollment(e)
        let repeated = try await client.createEnrollment(e)
        #expect(created.status == "created" && repeated.status == "duplicate" && created.id == repeated.id)
        // The same clientRequestId with a different payload is a conflict, not a silent duplicate.
        e.label = "changed"
        await #expect {
            _ = try await client.createEnrollment(e)
        } throws: { error in
            guard case ClientError.server(let t) = error else { return false }
            return t.code == "CONFLICT" && t.httpStatus == 409
        }
        let list = try await client.listEnrollments()
        #expect(list.value.items.map(\.id) == [created.id] && list.cachedAt == nil)
        try await client.shutdown()
    }

    @Test func superjsonEnvelopes() async throws {
        let sj = try DevServer(dir: Kordant.scratch("superjson"), arguments: ["--transformer", "superjson"])
        let (status, _, body) = try await raw(.GET, "\(sj.url)/api/trpc/user.me", headers: [auth])
        #expect(status == 200)
        #expect(body?["result"]?["data"]?["json"]?["id"] == .string("tester"))
        let (_, _, error) = try await raw(.GET, "\(sj.url)/api/trpc/user.me")
        #expect(error?["error"]?["json"]?["data"]?["code"] == .string("UNAUTHORIZED"))
        let input = #"{"json":{"limit":1}}"#.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
        let (listed, _, listBody) = try await raw(.GET, "\(sj.url)/api/trpc/voiceprint.listEnrollments?input=\(input)", headers: [auth])
        #expect(listed == 200 && listBody?["result"]?["data"]?["json"]?["items"] == .array([]))

        let client = try makeClient(sj.url, transformer: .superjson)
        let me = try await client.me()
        #expect(me.value.id == "tester")
        let bytes = try Data(contentsOf: URL(fileURLWithPath: sampleWAV))
        let upload = try await client.upload(bytes, kind: .voiceSample, filename: "a.wav", contentType: "audio/wav", idempotencyKey: "sj-1")
        var e = sampleEnrollment("00000000-aaaa-8bbb-8ccc-0000000000a1")
        e.samples[0].uploadId = upload.id
        let created = try await client.createEnrollment(e)
        #expect(created.status == "created")
        // Errors read through the superjson envelope keep their string code.
        await #expect {
            _ = try await client.call("nope.nothing", input: nil, kind: .query)
        } throws: { error in
            guard case ClientError.server(let t) = error else { return false }
            return t.code == "NOT_FOUND" && t.httpStatus == 404
        }
        try await client.shutdown()
    }

    @Test func digestsAreStandardHex() {
        // FIPS 180-2 test vector; the upload form and the resume keys use this encoding.
        #expect(Digest.sha256Hex(Data("abc".utf8)) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(Digest.hex([0x00, 0x0f, 0xa0, 0xff]) == "000fa0ff")
        #expect(Digest.stableID(["a", "b"]).count == 36 && Digest.stableID(["a", "b"]) == Digest.stableID(["a", "b"]))
    }

    @Test func fileDigestsStreamInBlocks() throws {
        // Three and a bit 64 KiB blocks, so the streaming reader crosses block edges and ends on a short read.
        let bytes = Data((0..<(3 * 65_536 + 1_234)).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 9) })
        let path = TestScratch.directory.path + "/kordant-digest-\(UUID().uuidString).bin"
        try bytes.write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(Digest.sha256Hex(fileAt: path) == Digest.sha256Hex(bytes))
        #expect(Digest.sha256Hex(fileAt: path + ".missing") == nil)
        #expect(Digest.sha256Hex(fileAt: TestScratch.directory.path) == nil)   // a folder reads as EISDIR
    }

    @Test func errorCodeTable() {
        // tRPC v11's table: retryability from the string code, since -32603 covers 500–504.
        #expect(TRPCErrorCode.badGateway.jsonRPCCode == TRPCErrorCode.internalServerError.jsonRPCCode)
        #expect(TRPCErrorCode.notImplemented.jsonRPCCode == -32603 && !TRPCErrorCode.notImplemented.isRetryable)
        #expect([TRPCErrorCode.timeout, .tooManyRequests, .internalServerError, .badGateway, .serviceUnavailable, .gatewayTimeout]
            .allSatisfy { $0.isRetryable })
        #expect(TRPCErrorCode.allCases.filter { $0.isRetryable }.map(\.httpStatus).sorted() == [408, 429, 500, 502, 503, 504])
        #expect(TRPCError(code: "SOMETHING_NEW", httpStatus: 503, message: "").isRetryable)
        #expect(!TRPCError(code: "SOMETHING_NEW", httpStatus: 418, message: "").isRetryable)
        #expect(TRPCErrorCode(httpStatus: 422) == .unprocessableContent && TRPCErrorCode(httpStatus: 400) == .badRequest)
    }
}
