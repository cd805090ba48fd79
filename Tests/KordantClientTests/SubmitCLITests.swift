import Foundation
import GRDB
import KordantAPI
import KordantServer
import Testing

/// `kordant enroll --submit` and `kordant ocr --submit`, end to end through the outbox.
@Suite struct SubmitCLITests {
    @Test func enrollAndOCRResultsReachTheServerOnce() async throws {
        let dir = Kordant.scratch("submit")
        let server = try DevServer(dir: dir)
        let home = dir.appendingPathComponent("home")
        let env = Kordant.environment(home: home, server: server.url, token: Kordant.token(sub: "cli-user"))
        let samples = (1...3).map { Kordant.repository.appendingPathComponent("TestAudio/enroll_gb_female_\($0).wav").path }

        let enrolled = try Kordant.run(["enroll"] + samples + ["--submit", "--label", "cli", "--json"], environment: env, in: dir)
        #expect(enrolled.status == 0, "\(enrolled.stderr)")
        #expect(enrolled.stderr == "submit: 1 queued (#1); delivered 1, 0 still pending\n")
        #expect(JSONValue(json: Data(enrolled.stdout.utf8))?["pass"] == .bool(true))
        // The same enrollment again is recognised locally: nothing new is queued or sent.
        let again = try Kordant.run(["enroll"] + samples + ["--submit", "--label", "cli"], environment: env, in: dir)
        #expect(again.status == 0 && again.stderr.hasPrefix("submit: 1 already in the outbox (#1)"))

        // Offline: queued and reported as pending, exit 0; delivered by a later flush.
        server.kill()
        let scan = Kordant.repository.appendingPathComponent("TestDocuments/optout_form.clean.png").path
        let offline = try Kordant.run(["ocr", scan, "--submit", "--attempts", "2", "--backoff-base", "0.01"], environment: env, in: dir)
        #expect(offline.status == 0, "\(offline.stderr)")
        #expect(offline.stderr.contains("submit: 1 queued (#2); delivered 0, 1 still pending; stopped: ") && offline.stderr.contains("connection refused"))
        let failed = try Kordant.run(["outbox", "flush", "--attempts", "1"], environment: env, in: dir)
        #expect(failed.status == 50 && failed.stdout == "delivered 0, 1 pending, 0 dead\n")
        try server.start()
        let flushed = try Kordant.run(["outbox", "flush"], environment: env, in: dir)
        #expect(flushed.status == 0 && flushed.stdout == "delivered 1, 0 pending, 0 dead\n", "\(flushed.stderr)")

        // Without a token: still durably queued (exit 0), with the reason it was not sent.
        var noToken = env
        noToken.removeValue(forKey: "KORDANT_TOKEN")
        let quiet = try Kordant.run(["enroll"] + samples.prefix(2) + ["--submit"], environment: noToken, in: dir)
        #expect(quiet.status == 0 && quiet.stderr.contains("1 queued (#3); not delivered yet: no token. Set a token"), "\(quiet.stderr)")
        let unauthorized = try Kordant.run(["outbox", "flush"], environment: noToken, in: dir)
        #expect(unauthorized.status == 51 && unauthorized.stderr.contains("KORDANT_TOKEN"))
        #expect(try Kordant.run(["outbox", "flush"], environment: env, in: dir).status == 0)

        let db = try DatabaseQueue(path: server.database.path)
        let (enrollments, scans) = try db.read { db in
            (try Row.fetchAll(db, sql: "SELECT user, label, samples, payload FROM enrollment ORDER BY seq"),
             try Row.fetchAll(db, sql: "SELECT user, kind, payload FROM scan"))
        }
        #expect(enrollments.count == 2 && scans.count == 1)
        let user: String = enrollments[0]["user"], label: String? = enrollments[0]["label"], count: Int = enrollments[0]["samples"]
        #expect(user == "cli-user" && label == "cli" && count == 3)
        let first = try JSONDecoder().decode(CreateEnrollmentInput.self, from: Data((enrollments[0]["payload"] as String).utf8))
        #expect(first.samples.allSatisfy { $0.quality.pass && $0.features.nMfcc == 13 && $0.durationMs > 5000 })
        #expect(first.voiceprint.count == 256 && first.consistency.consistent)
        let submitted = try JSONDecoder().decode(SubmitScanInput.self, from: Data((scans[0]["payload"] as String).utf8))
        #expect(submitted.kind == "optout" && submitted.text.contains("Jordan M. Alvarez") && submitted.confidence > 50)
        #expect(submitted.fields["zip"] != nil && submitted.fields["email"] != nil, "\(submitted.fields.keys.sorted())")
        // The uploads are the files, byte for byte.
        let uploaded = try await db.read { db in try String.fetchAll(db, sql: "SELECT sha256 FROM upload ORDER BY seq") }
        #expect(uploaded.count == 6)
        for sha in uploaded {
            let bytes = try Data(contentsOf: server.dir.appendingPathComponent("uploads").appendingPathComponent(sha))
            #expect(Digest.sha256Hex(bytes) == sha)
        }
    }

    /// `batch enroll --submit`: passing enrollments go through the outbox; a re-run adds nothing.
    @Test func batchSubmitsPassingEnrollmentsOnce() throws {
        let dir = Kordant.scratch("batch-submit")
        let server = try DevServer(dir: dir)
        let env = Kordant.environment(home: dir.appendingPathComponent("home"), server: server.url, token: Kordant.token())
        let audio = Kordant.repository.appendingPathComponent("TestAudio").path
        let manifest = dir.appendingPathComponent("m.jsonl").path
        var text = ""
        for voice in ["us_male", "scot_male"] { for i in 1...3 { text += #"{"path":"\#(audio)/enroll_\#(voice)_\#(i).wav","group":"\#(voice)"}"# + "\n" } }
        text += #"{"path":"\#(audio)/quiet_speech.wav","group":"quiet"}"# + "\n"
        try text.write(toFile: manifest, atomically: true, encoding: .utf8)
        let out = dir.appendingPathComponent("r.jsonl").path
        let first = try Kordant.run(["batch", "enroll", manifest, "--out", out, "--submit"], environment: env, in: dir)
        #expect(first.status == 0 && first.stderr == "submit: 2 queued; delivered 2, 0 still pending\n", "\(first.stderr)")
        let again = try Kordant.run(["batch", "enroll", manifest, "--out", out, "--submit"], environment: env, in: dir)
        #expect(again.status == 0 && again.stderr == "submit: 0 queued; delivered 0, 0 still pending\n", "\(again.stderr)")
        let db = try DatabaseQueue(path: server.database.path)
        let labels = try db.read { db in try String.fetchAll(db, sql: "SELECT label FROM enrollment ORDER BY seq") }
        #expect(labels == ["us_male", "scot_male"])
        // Queue only: counted as pending in the outbox, nothing sent.
        var offline = env
        offline["KORDANT_HOME"] = dir.appendingPathComponent("home-offline").path
        let queued = try Kordant.run(["batch", "enroll", manifest, "--out", dir.appendingPathComponent("q.jsonl").path, "--submit", "--queue-only"],
                                     environment: offline, in: dir)
        #expect(queued.status == 0 && queued.stderr == "submit: 2 queued; 2 pending; deliver with `kordant outbox flush`\n", "\(queued.stderr)")
    }

    @Test func tokenCommandMakesTokensTheServerAccepts() throws {
        let dir = Kordant.scratch("token")
        let server = try DevServer(dir: dir)
        let token = try Kordant.run(["token", "--sub", "u-42", "--email", "u42@example.com", "--name", "U 42"], environment: [:], in: dir)
        #expect(token.status == 0)
        let env = Kordant.environment(home: dir.appendingPathComponent("home"), server: server.url,
                                      token: token.stdout.trimmingCharacters(in: .whitespacesAndNewlines))
        let me = try Kordant.run(["call", "user.me"], environment: env, in: dir)
        #expect(me.stdout == #"{"email":"u42@example.com","id":"u-42","name":"U 42"}"# + "\n")
        let claims = try DevToken.verify(token.stdout.trimmingCharacters(in: .whitespacesAndNewlines), secret: DevToken.defaultSecret)
        #expect(claims.sub == "u-42" && claims.exp - claims.iat == 30 * 86_400)
        #expect(throws: DevToken.Failure.badSignature) { try DevToken.verify(token.stdout.trimmingCharacters(in: .whitespacesAndNewlines), secret: "x") }
        let expired = DevToken.sign(.init(sub: "old", email: "", name: "", issuedAt: Date(timeIntervalSinceNow: -100), lifetime: 10),
                                    secret: DevToken.defaultSecret)
        #expect(throws: DevToken.Failure.expired) { try DevToken.verify(expired, secret: DevToken.defaultSecret) }
        let none = "eyJhbGciOiJub25lIn0." + token.stdout.split(separator: ".")[1] + "."
        #expect(throws: DevToken.Failure.unsupportedAlgorithm("none")) { try DevToken.verify(none, secret: DevToken.defaultSecret) }
    }
}
