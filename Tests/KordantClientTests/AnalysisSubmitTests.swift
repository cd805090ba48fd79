import Foundation
import GRDB
import KordantAPI
import KordantClient
import KordantServer
import Testing

/// `kordant verify --submit` → `voiceprint.submitAnalysis` → the enrollment's history
/// (`voiceprint.listAnalyses`), on a real server process and its SQLite file.
@Suite struct AnalysisSubmitTests {
    @Test func analysisAppearsInTheHistoryOnceThroughRetries() async throws {
        let dir = Kordant.scratch("analysis")
        var server = try DevServer(dir: dir)
        let home = dir.appendingPathComponent("home")
        var env = Kordant.environment(home: home, server: server.url, token: Kordant.token(sub: "analyst"))
        let audio = Kordant.repository.appendingPathComponent("TestAudio").path
        let samples = (1...3).map { "\(audio)/enroll_us_male_\($0).wav" }

        let enrolled = try Kordant.run(["enroll"] + samples + ["--submit", "--label", "me", "--json"], environment: env, in: dir)
        #expect(enrolled.status == 0, "\(enrolled.stderr)")
        let enrollmentFile = dir.appendingPathComponent("me.json").path
        try enrolled.stdout.write(toFile: enrollmentFile, atomically: true, encoding: .utf8)
        let db = try DatabaseQueue(path: server.database.path)
        let (enrollmentID, enrollmentRequest) = try await db.read { db in
            let r = try Row.fetchOne(db, sql: "SELECT id, client_request_id FROM enrollment")!
            return (r["id"] as String, r["client_request_id"] as String)
        }

        // Through a flaky server: 30 % of requests dropped (half of them after the commit), 20 % 5xx.
        server.kill()
        server = try DevServer(dir: dir, arguments: ["--fail-rate", "0.2", "--drop-rate", "0.3"])
        env["KORDANT_SERVER"] = server.url
        let recordings = ["\(audio)/speech_us_male.wav", "\(audio)/speech_gb_female.wav"]
        let verified = try Kordant.run(["verify", "--enrollment", enrollmentFile] + recordings
                                       + ["--submit", "--enrollment-id", enrollmentID, "--json", "--jobs", "1", "--queue-only"],
                                       environment: env, in: dir)
        #expect(verified.status == 0, "\(verified.stderr)")
        #expect(verified.stderr == "submit: 2 queued (#2, #3); 2 pending; deliver with `kordant outbox flush`\n", "\(verified.stderr)")
        let lines = verified.stdout.split(separator: "\n").compactMap { JSONValue(json: Data($0.utf8)) }
        #expect(lines.count == 2)
        var last = Kordant.Result(status: -1, stdout: "", stderr: "")
        for _ in 0..<30 {
            last = try Kordant.run(["outbox", "flush", "--attempts", "8", "--backoff-base", "0.01", "--backoff-cap", "0.05"], environment: env, in: dir)
            if last.status == 0 { break }
        }
        #expect(last.status == 0, "\(last.stdout)\(last.stderr)")
        // The same check again is the same analysis: known locally, nothing new is sent.
        let again = try Kordant.run(["verify", "--enrollment", enrollmentFile, recordings[0], "--submit", "--enrollment-id", enrollmentID, "--queue-only"],
                                    environment: env, in: dir)
        #expect(again.status == 0 && again.stderr.hasPrefix("submit: 1 already in the outbox (#2)"), "\(again.stderr)")

        // A retry the outbox no longer remembers (another outbox, same payload): the server answers duplicate.
        server.kill()
        server = try DevServer(dir: dir)
        let otherHome = KordantHome(url: dir.appendingPathComponent("home-2"))
        let outbox = try Outbox(home: otherHome)
        let submitted = try await db.read { db in try String.fetchAll(db, sql: "SELECT payload FROM analysis ORDER BY seq") }
        #expect(submitted.count == 2)
        let first = try JSONDecoder().decode(SubmitAnalysisInput.self, from: Data(submitted[0].utf8))
        _ = try outbox.enqueue(.analysis(first), files: [])
        let client = try makeClient(server.url, token: Kordant.token(sub: "analyst"))
        let report = try await OutboxDelivery(outbox: outbox, client: client).flush()
        #expect(report.delivered == 1 && report.duplicates == 1)

        // The history: each recording once, in order, as the CLI printed it; by either enrollment id.
        let history = try await client.listAnalyses(ListAnalysesInput(enrollmentId: enrollmentRequest))
        #expect(history.items.count == 2 && history.nextCursor == nil)
        #expect(history.items.allSatisfy { $0.enrollmentId == enrollmentID })
        for (item, line) in zip(history.items, lines) {
            #expect(item.verdict == line["verdict"]?.stringValue && item.model == line["model"]?.stringValue)
            #expect(abs(item.score - (line["score"]?.numberValue ?? .nan)) < 1e-6)
        }
        let digests = recordings.map { Digest.sha256Hex(fileAt: $0) }
        #expect(history.items.map(\.recordingSha256) == digests.compactMap { $0 })
        #expect(history.items[0].verdict == "match")
        let paged = try await client.listAnalyses(ListAnalysesInput(enrollmentId: enrollmentID, limit: 1))
        #expect(paged.items.count == 1 && paged.nextCursor != nil)
        let count = try await db.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM analysis") }
        #expect(count == 2)

        // batch verify --submit: lines naming the backend's enrollment go to the same history.
        let manifest = dir.appendingPathComponent("checks.jsonl").path
        try (#"{"enrollment": "me.json", "file": "\#(audio)/speech_scot_male.wav", "enrollment_id": "\#(enrollmentID)"}"# + "\n"
             + #"{"enrollment": "me.json", "file": "\#(audio)/speech_us_female.wav"}"# + "\n").write(toFile: manifest, atomically: true, encoding: .utf8)
        env["KORDANT_SERVER"] = server.url
        let batch = try Kordant.run(["batch", "verify", manifest, "--out", dir.appendingPathComponent("checks-out.jsonl").path, "--submit"],
                                    environment: env, in: dir)
        #expect(batch.status == 0 && batch.stderr == "submit: 1 queued; delivered 1, 0 still pending\n", "\(batch.stderr)")
        let longer = try await client.listAnalyses(ListAnalysesInput(enrollmentId: enrollmentID))
        #expect(longer.items.count == 3 && longer.items.last?.recordingSha256 == Digest.sha256Hex(fileAt: "\(audio)/speech_scot_male.wav"))

        // An analysis of an enrollment the server does not have is refused (the item would be dead).
        var unknown = first
        unknown.clientRequestId = Digest.stableID(["analysis", "unknown"])
        unknown.enrollmentId = "enr_doesnotexist"
        await #expect(throws: ClientError.self) { try await client.submitAnalysis(unknown) }
        try await client.shutdown()
    }
}
