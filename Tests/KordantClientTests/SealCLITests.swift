import Foundation
import GRDB
import KordantAPI
import KordantTestSupport
import Testing

/// `kordant provision`, `kordant seal … --submit` and `kordant seal verify`, end to end with the
/// built binary, `kordant serve` on loopback and its SQLite file.
@Suite struct SealCLITests {
    @Test func provisionSealSubmitAndVerify() throws {
        let dir = Kordant.scratch("seal-cli")
        let server = try DevServer(dir: dir)
        defer { server.stop() }
        let home = dir.appendingPathComponent("home")
        let env = Kordant.environment(home: home, server: server.url, token: Kordant.token(sub: "sealer"))
        let a = try SealTests.randomFile(dir, "a.png"), b = try SealTests.randomFile(dir, "b.wav")
        var outputs: [String] = []
        func run(_ args: [String], _ environment: [String: String]? = nil) throws -> ProcessResult {
            let r = try Kordant.run(args, environment: environment ?? env, in: dir)
            outputs.append(r.stdout + r.stderr)
            return r
        }

        let early = try run(["seal", a])
        #expect(early.status == 70 && early.stderr.contains("device-keys.json: no device keys; run `kordant provision` first [not_provisioned]"),
                "\(early.stderr)")
        let provisioned = try run(["provision"])
        #expect(provisioned.status == 0 && provisioned.stdout.hasPrefix("provisioned device dev_"), "\(provisioned.stderr)")
        let keyFile = home.appendingPathComponent("device-keys.json").path
        var st = stat()
        #expect(stat(keyFile, &st) == 0 && st.st_mode & 0o777 == 0o600)
        #expect(try run(["provision"]).status == 73)
        let secrets = try SealTests.secrets(inKeyFile: keyFile)
        #expect(secrets.count == 5)

        let sealed = try run(["seal", a, b, "--submit", "--json"])
        #expect(sealed.status == 0, "\(sealed.stderr)")
        #expect(sealed.stderr == "submit: 2 queued (#1, #2); delivered 2, 0 still pending\n")
        let lines = sealed.stdout.split(separator: "\n").compactMap { JSONValue(json: Data($0.utf8)) }
        #expect(lines.count == 2 && lines[0]["file"] == .string(a) && lines[0]["sha256"] == .string(Digest.sha256Hex(fileAt: a)!))
        #expect(lines[1]["bundle"]?["table_references"] != nil && lines[1]["bundle"]?["device_signature"] != nil)

        let verified = try run(["seal", "verify", a])
        #expect(verified.status == 0 && verified.stdout.contains("\(a): sealed, sha256 \(Digest.sha256Hex(fileAt: a)!): sealed at "), "\(verified.stderr)")
        let verifiedJSON = try run(["seal", "verify", b, "--json"])
        #expect(verifiedJSON.status == 0 && JSONValue(json: Data(verifiedJSON.stdout.utf8))?["result"]?["sealed"] == .bool(true))

        // One flipped byte: not sealed, exit 74. A missing file: 10.
        var bytes = try Data(contentsOf: URL(fileURLWithPath: a))
        bytes[0] ^= 0x80
        try bytes.write(to: URL(fileURLWithPath: a))
        let tampered = try run(["seal", "verify", a])
        #expect(tampered.status == 74 && tampered.stderr.contains("not sealed") && tampered.stdout.isEmpty, "\(tampered.stderr)")
        let missing = try run(["seal", "verify", dir.appendingPathComponent("nope.png").path])
        #expect(missing.status == 10 && missing.stderr.contains("nope.png: no such file [not_found]"))
        let missingSeal = try run(["seal", dir.appendingPathComponent("nope.png").path, "--json"])
        #expect(missingSeal.status == 10 && missingSeal.stdout.contains("\"code\":\"not_found\""))

        // The server holds exactly the two seals, each naming the provisioned device.
        let db = try DatabaseQueue(path: server.database.path)
        let rows = try db.read { db in try Row.fetchAll(db, sql: "SELECT image_hash, device_id, submitter FROM seal ORDER BY seq") }
        #expect(rows.count == 2 && rows.allSatisfy { ($0["submitter"] as String) == "sealer" && ($0["device_id"] as String).hasPrefix("dev_") })

        // Offline: queued (exit 0); a seal is tried in at most 5 flushes, then dead.
        server.kill()
        let c = try SealTests.randomFile(dir, "c.tif")
        let offline = try run(["seal", c, "--submit", "--attempts", "1"])
        #expect(offline.status == 0 && offline.stderr.contains("submit: 1 queued (#3); delivered 0, 1 still pending; stopped: "), "\(offline.stderr)")
        for _ in 0..<3 { #expect(try run(["outbox", "flush", "--attempts", "1"]).status == 50) }
        #expect(try run(["outbox", "list", "--state", "pending", "--json"]).stdout.contains("\"attempts\":4"))
        #expect(try run(["outbox", "flush", "--attempts", "1"]).status == 50)
        let dead = try run(["outbox", "list", "--state", "dead", "--json"])
        #expect(dead.stdout.contains("\"kind\":\"seal\"") && dead.stdout.contains("\"attempts\":5"), "\(dead.stdout)")
        try server.start()
        #expect(try run(["outbox", "retry"]).status == 0)
        #expect(try run(["outbox", "flush"]).stdout == "delivered 1, 0 pending, 0 dead\n")
        #expect(try run(["seal", "verify", c]).status == 0)

        // A key file others can read is refused with its own exit code.
        chmod(keyFile, 0o644)
        let unsafe = try run(["seal", b])
        #expect(unsafe.status == 71 && unsafe.stderr.contains("device-keys.json: mode 644 lets other users read") && unsafe.stdout.isEmpty,
                "\(unsafe.stderr)")
        chmod(keyFile, 0o600)
        try "{\"version\": 1}".write(toFile: keyFile, atomically: false, encoding: .utf8)
        #expect(try run(["seal", b]).status == 72)

        // No key in anything the commands printed or the server logged.
        let everything = outputs.joined(separator: "\n") + server.log
        #expect(server.log.contains("/api/v1/submit"))
        for secret in secrets { #expect(!everything.contains(secret) && !everything.contains(Digest.hex(Data(base64Encoded: secret)!))) }
    }
}
