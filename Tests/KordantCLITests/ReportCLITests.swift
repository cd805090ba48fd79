import Foundation
import KordantTestSupport
import Testing

/// `kordant report` on real `batch ocr`, `batch enroll` and `verify --json` output, rendered in
/// headless Chromium (Debian `chromium`): the DOM after its script ran, and a phone-width
/// screenshot read back by the engine's own OCR.
@Suite(.serialized) struct ReportCLITests {
    static let chromium = Tools.find("chromium") ?? Tools.find("chromium-browser")

    /// Chromium headless with a throwaway profile, in a process group of its own that is ended
    /// with it.
    static func chromium(_ arguments: [String], profile: URL) throws -> ProcessResult {
        try Tools.run(chromium!, ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-extensions",
                                  "--disable-dev-shm-usage", "--hide-scrollbars", "--user-data-dir=\(profile.path)"] + arguments,
                      timeout: 90, group: true)
    }

    /// Results of the three commands in a scratch folder: two good pages, an ID card, an
    /// unreadable image; two enrollments (one failing its quality check); two verifications.
    static func makeResults(in dir: URL) throws -> [String] {
        let docs = CLI.repository.appendingPathComponent("TestDocuments").path
        let audio = CLI.repository.appendingPathComponent("TestAudio").path
        let ocrManifest = dir.appendingPathComponent("scans.jsonl").path
        try ["optout_form.clean.png", "idcard_td1.noisy.jpg", "bad_truncated.png", "deed_warranty.lowres.png"]
            .map { #"{"path": "\#(docs)/\#($0)"}"# }.joined(separator: "\n").write(toFile: ocrManifest, atomically: true, encoding: .utf8)
        let ocr = dir.appendingPathComponent("ocr.jsonl").path
        let r1 = try CLI.run(["batch", "ocr", ocrManifest, "--out", ocr, "--words", "--jobs", "2", "--quiet"])
        #expect(r1.status == 60, "one unreadable scan: \(r1.stderr)")
        let enrollManifest = dir.appendingPathComponent("voices.jsonl").path
        var lines = (1...3).map { #"{"path": "\#(audio)/enroll_gb_female_\#($0).wav", "group": "gb_female"}"# }
        lines += ["short_speech.wav", "clipped_speech.wav"].map { #"{"path": "\#(audio)/\#($0)", "group": "poor"}"# }
        try lines.joined(separator: "\n").write(toFile: enrollManifest, atomically: true, encoding: .utf8)
        let enroll = dir.appendingPathComponent("enroll.jsonl").path
        let r2 = try CLI.run(["batch", "enroll", enrollManifest, "--out", enroll, "--jobs", "2", "--quiet"])
        #expect(r2.status == 0, "\(r2.stderr)")
        let enrollment = dir.appendingPathComponent("enrollment.json").path
        let r3 = try CLI.run(["enroll", "--json"] + (1...3).map { "\(audio)/enroll_gb_female_\($0).wav" })
        try r3.stdout.write(toFile: enrollment, atomically: true, encoding: .utf8)
        let r4 = try CLI.run(["verify", "--json", "--enrollment", enrollment, "\(audio)/speech_gb_female.wav", "\(audio)/speech_scot_male.wav"])
        #expect(r4.status == 0, "\(r4.stderr)")
        let verify = dir.appendingPathComponent("verify.jsonl").path
        try r4.stdout.write(toFile: verify, atomically: true, encoding: .utf8)
        return [ocr, enroll, verify]
    }

    @Test(.enabled(if: chromium != nil, "chromium not installed (Debian chromium; scripts/setup installs it): the review page is not rendered"))
    func reviewPageInChromium() throws {
        let dir = TestScratch.directory.appendingPathComponent("kordant-report-\(getpid())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let results = try Self.makeResults(in: dir)
        let html = dir.appendingPathComponent("report.html").path
        let r = try CLI.run(["report"] + results + ["--out", html])
        #expect(r.status == 0, "\(r.stderr)")
        let unwritable = try CLI.run(["report"] + results + ["--out", "/nonexistent-kordant/r.html"])
        #expect(unwritable.status == 20 && unwritable.stderr.contains("/nonexistent-kordant/r.html: cannot write the report"), "\(unwritable.stderr)")
        let source = try String(contentsOfFile: html, encoding: .utf8)
        // Self-contained: nothing is fetched.
        #expect(!source.contains("src=\"http") && !source.contains("url(http"))

        let profile = dir.appendingPathComponent("profile")
        let dom = try Self.chromium(["--dump-dom", "file://\(html)"], profile: profile)
        #expect(dom.status == 0, "\(dom.stderr.suffix(2000))")
        // 4 scans + 2 enrollments + 2 verifications.
        let items = dom.stdout.components(separatedBy: "<li class=\"item ").dropFirst()
        #expect(items.count == 8, "\(items.count) items")
        // Failures, then items needing review, then the rest.
        let statuses = items.compactMap { item in
            item.components(separatedBy: "data-status=\"").dropFirst().first?.split(separator: "\"").first.map(String.init)
        }
        let rank = ["bad": 0, "warn": 1, "good": 2]
        #expect(statuses.count == 8 && statuses == statuses.sorted { rank[$0]! < rank[$1]! }, "\(statuses)")
        #expect(statuses.first == "bad" && statuses.contains("good"), "\(statuses)")
        // The unreadable scan is the failure, first.
        #expect(items.first?.contains("bad_truncated.png") == true)
        // The filter is there with its reasons, and the page's script ran (it rewrote the count).
        #expect(dom.stdout.contains("<select id=\"filter\">") && dom.stdout.contains("<option value=\"error: unreadable\">"))
        #expect(dom.stdout.contains("8 of 8 shown"))
        // Page images and audio embedded, waveforms drawn, MRZ checks listed.
        #expect(dom.stdout.contains("background-image:url(data:image/jpeg;base64,"))
        #expect(dom.stdout.contains("<audio controls") && dom.stdout.contains(">data:audio/wav;base64,"))
        // The page recorded when it had loaded (its script ran to the end).
        #expect(dom.stdout.contains("data-loaded-ms=\""))
        #expect(dom.stdout.contains("Check digits") && dom.stdout.contains("class=\"w hi\""))

        // Phone width: the screenshot is a real picture, and the engine reads the page's words off it.
        let png = dir.appendingPathComponent("phone.png").path
        let shot = try Self.chromium(["--screenshot=\(png)", "--window-size=390,844", "file://\(html)"], profile: profile)
        #expect(shot.status == 0, "\(shot.stderr.suffix(2000))")
        let size = (try FileManager.default.attributesOfItem(atPath: png)[.size] as? Int) ?? 0
        #expect(size > 15_000, "screenshot of \(size) bytes")
        let read = try CLI.run(["ocr", "--format", "text", "--raw", png])
        #expect(read.status == 0 && read.stdout.contains("Summary") && read.stdout.contains("Items by kind"), "\(read.stdout)")

        // Phone width and accessibility, measured in Chromium's layout: a copy of the page with the
        // audit script (Tests/Fixtures/report/audit.js) in a 390 px iframe (headless windows are
        // at least 500 px wide), which posts its findings to the parent page.
        let audit = try Self.audit(html: html, in: dir, profile: profile)
        #expect(audit.int("innerWidth") == 390, "the page was laid out \(audit.int("innerWidth") ?? -1) px wide")
        #expect(audit.int("scrollWidth") == 390, "horizontal scrolling at phone width: \(audit.list("wide"))")
        #expect(audit.list("wide").isEmpty, "elements wider than a phone: \(audit.list("wide"))")
        #expect(audit.list("lowContrast").isEmpty, "text under WCAG AA contrast: \(audit.list("lowContrast"))")
        #expect((audit.double("minContrast") ?? 0) >= 4.5 && (audit.int("textElements") ?? 0) > 50, "\(audit.values)")
        #expect(audit.int("unparsedColours") == nil, "colours the audit could not read: \(audit.values)")
        #expect(audit.list("unlabelled").isEmpty, "controls or pictures without an accessible name: \(audit.list("unlabelled"))")
        #expect(audit.list("unfocusable").isEmpty && audit.int("positiveTabindex") == 0, "keyboard order: \(audit.values)")
        #expect(audit.bool("filterFocused") == true, "the filter does not take the keyboard focus")
    }

    /// What the audit script measured on `html` at 390 px (see Tests/Fixtures/report/audit.js).
    struct Audit {
        let values: [String: Any]
        func int(_ key: String) -> Int? { (values[key] as? NSNumber)?.intValue }
        func double(_ key: String) -> Double? { (values[key] as? NSNumber)?.doubleValue }
        func bool(_ key: String) -> Bool? { values[key] as? Bool ?? (values[key] as? NSNumber)?.boolValue }
        func list(_ key: String) -> [String] { values[key] as? [String] ?? ["(missing: \(key))"] }
    }

    static func audit(html: String, in dir: URL, profile: URL) throws -> Audit {
        let script = try String(contentsOf: CLI.repository.appendingPathComponent("Tests/Fixtures/report/audit.js"), encoding: .utf8)
        let page = try String(contentsOfFile: html, encoding: .utf8)
        #expect(page.contains("</body>"))
        let audited = dir.appendingPathComponent("audited.html")
        try page.replacingOccurrences(of: "</body>", with: "<script>\(script)</script></body>")
            .write(to: audited, atomically: true, encoding: .utf8)
        let phone = dir.appendingPathComponent("phone.html")
        try """
            <!doctype html><html lang="en"><title>phone</title><body style="margin:0">\
            <iframe title="report" src="audited.html" style="width:390px;height:844px;border:0"></iframe>\
            <script>addEventListener("message",function(e){document.body.setAttribute("data-audit",e.data);});</script></body></html>
            """.write(to: phone, atomically: true, encoding: .utf8)
        // Virtual time lets the iframe's message arrive before the DOM is dumped.
        let dom = try chromium(["--virtual-time-budget=10000", "--dump-dom", "file://\(phone.path)"], profile: profile)
        #expect(dom.status == 0, "\(dom.stderr.suffix(2000))")
        guard let start = dom.stdout.range(of: "data-audit=\""),
              let end = dom.stdout[start.upperBound...].firstIndex(of: "\""),
              let data = Data(base64Encoded: String(dom.stdout[start.upperBound..<end])),
              let values = try JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            Issue.record("no audit in the dumped page: \(dom.stdout.prefix(500))")
            return Audit(values: [:])
        }
        return Audit(values: values)
    }

    /// Inputs that are not results: exit 10 for a missing file, 62 for another kind of JSON, each naming the file.
    @Test func badInputs() throws {
        let missing = try CLI.run(["report", "/nonexistent/results.jsonl", "--out", CLI.temporary("r.html")])
        #expect(missing.status == 10 && missing.stderr.contains("/nonexistent/results.jsonl: no such file [not_found]"), "\(missing.stderr)")
        let other = CLI.temporary("other.jsonl")
        try #"{"hello": 1}"#.write(toFile: other, atomically: true, encoding: .utf8)
        let wrong = try CLI.run(["report", other, "--out", CLI.temporary("r.html")])
        #expect(wrong.status == 62 && wrong.stderr.contains("\(other): line 1 is not a result of batch ocr, batch enroll or verify --json"), "\(wrong.stderr)")
    }
}
