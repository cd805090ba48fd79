import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import KordantTestSupport
import Testing

/// `kordant ocr` end to end on TestDocuments (the CLI runs Tesseract with OMP_THREAD_LIMIT=1; an
/// in-process test could not, because libgomp reads it when the test runner loads).
enum OCRRun {
    struct Image: Decodable, Sendable {
        let file: String
        let document: String?
        let kind: String
        let variant: String?
        let expect_error: String?
    }
    struct Truth: Decodable, Sendable {
        let kind: String
        let lines: [String]
        let fields: [String: FieldValue]
    }
    enum FieldValue: Decodable, Sendable, Equatable {
        case text(String), number(Double), list([String])
        init(from decoder: any Decoder) throws {
            let c = try decoder.singleValueContainer()
            if let n = try? c.decode(Double.self) { self = .number(n) } else if let s = try? c.decode(String.self) { self = .text(s) } else {
                self = .list(try c.decode([String].self))
            }
        }
    }

    static let images: [Image] = {
        struct Manifest: Decodable { let images: [Image] }
        let data = try! Data(contentsOf: CLI.repository.appendingPathComponent("TestDocuments/manifest.json"))
        return try! JSONDecoder().decode(Manifest.self, from: data).images
    }()

    static let documents = images.filter { ["deed", "id", "optout"].contains($0.kind) }

    static func truth(_ document: String) -> Truth {
        let data = try! Data(contentsOf: CLI.repository.appendingPathComponent("TestDocuments/\(document).truth.json"))
        return try! JSONDecoder().decode(Truth.self, from: data)
    }

    /// One JSON object per input file, in input order.
    static func run(_ extra: [String]) -> [[String: Any]] {
        let r = try! CLI.run(["ocr", "--jobs", "2"] + extra + documents.map { "TestDocuments/\($0.file)" })
        return r.stdout.split(separator: "\n").map { try! JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any] }
    }

    nonisolated(unsafe) static let processed = run([])  // immutable once built
    nonisolated(unsafe) static let raw = run(["--raw"])

    static func page(_ doc: [String: Any]) -> [String: Any] { (doc["pages"] as! [[String: Any]])[0] }

    static func cer(_ doc: [String: Any], _ image: Image) -> Double {
        let hyp = (page(doc)["text"] as! String).split(whereSeparator: \.isWhitespace).joined(separator: " ")
        let ref = truth(image.document!).lines.joined(separator: " ").split(whereSeparator: \.isWhitespace).joined(separator: " ")
        return Double(levenshtein(Array(hyp), Array(ref))) / Double(ref.count)
    }

    static func levenshtein(_ a: [Character], _ b: [Character]) -> Int {
        var prev = Array(0...b.count)
        for (i, ca) in a.enumerated() {
            var cur = [i + 1]
            for (j, cb) in b.enumerated() { cur.append(min(prev[j + 1] + 1, cur[j] + 1, prev[j] + (ca == cb ? 0 : 1))) }
            prev = cur
        }
        return prev[b.count]
    }

    static func meanCER(_ results: [[String: Any]], variant: String) -> Double {
        let pairs = zip(results, documents).filter { $0.1.variant == variant }
        return pairs.map { cer($0.0, $0.1) }.reduce(0, +) / Double(pairs.count)
    }
}

@Suite(.serialized) struct OCRCLITests {
    /// Character error rate per variant, after preprocessing. Thresholds set from measurement
    /// (2026-11-22: clean 0.005, skew 0.007, noisy 0.016, lowres 0.008, uneven 0.001, rotated 0.005)
    /// with headroom for Tesseract builds; raise them only with a reason.
    @Test(arguments: [("clean", 0.015), ("skew", 0.015), ("noisy", 0.03), ("lowres", 0.02), ("uneven", 0.01), ("rotated", 0.015)])
    func characterErrorRate(variant: String, limit: Double) {
        #expect(OCRRun.processed.count == OCRRun.documents.count)
        let cer = OCRRun.meanCER(OCRRun.processed, variant: variant)
        #expect(cer <= limit, "\(variant): CER \(cer)")
    }

    /// Preprocessing measurably lowers error against OCR of the raw image (noisy pages: it does
    /// no harm, see `noisyPagesAreNoWorse`).
    @Test(arguments: ["skew", "lowres", "uneven", "rotated"])
    func preprocessingHelps(variant: String) {
        let with = OCRRun.meanCER(OCRRun.processed, variant: variant)
        let without = OCRRun.meanCER(OCRRun.raw, variant: variant)
        #expect(with < without * 0.8, "\(variant): \(with) with preprocessing vs \(without) raw")
    }

    @Test func noisyPagesAreNoWorse() {
        let with = OCRRun.meanCER(OCRRun.processed, variant: "noisy")
        let without = OCRRun.meanCER(OCRRun.raw, variant: "noisy")
        #expect(with <= without + 0.002, "noisy: \(with) with preprocessing vs \(without) raw")
    }

    /// Fields per kind: found with the right value (dates ISO, amounts numbers); none invented.
    @Test(arguments: [("deed", 0.95), ("optout", 0.95), ("id", 0.95)])
    func fieldAccuracy(kind: String, minimum: Double) {
        var right = 0, total = 0
        for (doc, image) in zip(OCRRun.processed, OCRRun.documents) where image.kind == kind {
            let page = OCRRun.page(doc)
            #expect(page["kind"] as? String == kind, "\(image.file) detected as \(page["kind"] ?? "?")")
            let fields = page["fields"] as! [String: [String: Any]]
            for (name, expected) in OCRRun.truth(image.document!).fields where !name.hasPrefix("mrz") {
                total += 1
                guard let got = fields[name] else { continue }
                switch expected {
                case .number(let n): if abs((got["value"] as? Double ?? .nan) - n) < 0.01 { right += 1 }
                case .text(let s): if (got["value"] as? String)?.uppercased() == s.uppercased() { right += 1 }
                case .list: break
                }
                #expect(got["box"] != nil && (got["confidence"] as? Double ?? -1) >= 0, "\(image.file) \(name)")
            }
            for name in fields.keys { #expect(OCRRun.truth(image.document!).fields[name] != nil, "\(image.file): invented \(name)") }
        }
        #expect(Double(right) / Double(total) >= minimum, "\(kind): \(right)/\(total)")
    }

    /// Every passport and card page yields a valid MRZ, and a valid MRZ carries exactly the true lines.
    @Test func mrzIsNeverFalselyValid() {
        for (doc, image) in zip(OCRRun.processed, OCRRun.documents) where image.kind == "id" {
            guard let mrz = OCRRun.page(doc)["mrz"] as? [String: Any] else { continue }
            guard case .list(let truthLines) = OCRRun.truth(image.document!).fields["mrz"] else { Issue.record("no truth MRZ"); continue }
            if mrz["valid"] as? Bool == true { #expect(mrz["lines"] as? [String] == truthLines, "\(image.file)") }
            #expect(mrz["valid"] as? Bool == true, "\(image.file)")
            if mrz["valid"] as? Bool == true {
                // The comparison is reported field by field (a misread printed value shows as false).
                let agrees = OCRRun.page(doc)["visual_zone_agrees"] as? [String: Bool] ?? [:]
                #expect(agrees.count >= 4 && agrees.values.filter { $0 }.count >= agrees.count - 1, "\(image.file): \(agrees)")
            }
        }
    }

    /// Bad images: one error line each, their own exit code, and the good file in the same batch is still read.
    @Test func malformedImagesAreReportedAndSkipped() throws {
        let bad = OCRRun.images.filter { $0.kind == "malformed" }
        let r = try CLI.run(["ocr"] + bad.map { "TestDocuments/\($0.file)" } + ["TestDocuments/optout_form.clean.png"])
        let lines = r.stdout.split(separator: "\n").map { try! JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any] }
        #expect(lines.count == bad.count + 1)
        for (line, image) in zip(lines, bad) {
            let error = line["error"] as? [String: String]
            #expect(error?["code"] == image.expect_error, "\(image.file): \(line)")
            // The error object every command prints: code, file, message.
            #expect(error?["file"] == "TestDocuments/\(image.file)" && error?["message"]?.isEmpty == false)
            #expect(line["file"] as? String == "TestDocuments/\(image.file)")
        }
        #expect((lines.last?["pages"] as? [[String: Any]])?.first?["kind"] as? String == "optout")
        #expect(r.status == 41)   // the first failure (unreadable)
        // One line per bad file on stderr, ours: nothing from libpng or Leptonica.
        #expect(r.stderr.split(separator: "\n").count == bad.count && r.stderr.split(separator: "\n").allSatisfy { $0.hasPrefix("kordant: error: ") },
                "\(r.stderr)")
        #expect(r.stderr.contains("bad_truncated.png: truncated PNG"))
        #expect(try CLI.run(["ocr", "TestDocuments/bad_huge_header.png"]).status == 42)
        #expect(try CLI.run(["ocr", "TestDocuments/nope.png"]).status == 10)
        #expect(try CLI.run(["ocr", "TestDocuments/bad_huge_header.png"]).stderr.contains("megapixels exceeds the limit"))
    }

    /// Damaged image data, not just a cut file: flipped bytes inside a PNG's compressed pixels and
    /// a JPEG cut in the middle of its entropy-coded data. One line each on stderr, ours, naming the
    /// file and the decoder's reason; nothing printed by libpng or libjpeg themselves.
    @Test func damagedImageDataIsReportedOnlyByUs() throws {
        var png = [UInt8](try Data(contentsOf: URL(fileURLWithPath: "TestDocuments/optout_form.lowres.png", relativeTo: CLI.repository)))
        let idat = try #require(png.indices.dropLast(4).first { png[$0..<($0 + 4)].elementsEqual("IDAT".utf8) })
        for k in 0..<16 { png[idat + 200 + k * 37] ^= 0x5A }
        let damaged = CLI.temporary("damaged.png")
        try Data(png).write(to: URL(fileURLWithPath: damaged))
        let jpeg = try Data(contentsOf: URL(fileURLWithPath: "TestDocuments/passport_td3.noisy.jpg", relativeTo: CLI.repository))
        let cut = CLI.temporary("cut.jpg")
        try jpeg.prefix(jpeg.count / 2).write(to: URL(fileURLWithPath: cut))
        let r = try CLI.run(["ocr", damaged, cut])
        #expect(r.status == 41)
        let lines = r.stderr.split(separator: "\n")
        #expect(lines.count == 2 && lines.allSatisfy { $0.hasPrefix("kordant: error: ") }, "\(r.stderr)")
        #expect(lines.first?.contains("damaged.png: corrupt PNG data: ") == true, "\(r.stderr)")
        #expect(lines.last?.contains("cut.jpg: corrupt JPEG data: ") == true, "\(r.stderr)")
    }

    /// Without language data the engine cannot start: every file says so, with its own name.
    @Test func missingLanguageDataIsAnEngineError() throws {
        let empty = CLI.temporary("no-tessdata")
        try FileManager.default.createDirectory(atPath: empty, withIntermediateDirectories: true)
        var env = ProcessInfo.processInfo.environment
        env["TESSDATA_PREFIX"] = empty
        let r = try CLI.run(["ocr", "TestDocuments/optout_form.clean.png"], environment: env)
        #expect(r.status == 44)
        #expect(r.stderr.contains("TestDocuments/optout_form.clean.png: cannot load language data 'eng'"), "\(r.stderr)")
    }

    /// Results are printed as they are done, in input order: the first file's line is on stdout
    /// while the rest are still being read, and stopping the run keeps it. (The test waits for the
    /// line to arrive, however long that takes, then ends the process: no timing assumed.)
    @Test func resultsArePrintedAsTheyAreDone() throws {
        let rest = Array(repeating: "TestDocuments/deed_warranty.clean.png", count: 40)
        let (p, out, _) = try CLI.start(["ocr", "--jobs", "1", "TestDocuments/idcard_td1.clean.png"] + rest)
        defer { if p.isRunning { p.terminate() }; p.waitUntilExit() }
        var received = Data()
        while !received.contains(UInt8(ascii: "\n")) {
            let chunk = out.fileHandleForReading.availableData
            if chunk.isEmpty { break }  // end of output: the run finished before the first line
            received.append(chunk)
        }
        let first = try #require(received.split(separator: UInt8(ascii: "\n")).first)
        let doc = try #require(try JSONSerialization.jsonObject(with: Data(first)) as? [String: Any])
        #expect(doc["file"] as? String == "TestDocuments/idcard_td1.clean.png")
        // Forty deed pages take far longer than a card: still running when its line arrived.
        #expect(p.isRunning)
        p.terminate()
        p.waitUntilExit()
        #expect(p.terminationReason == .uncaughtSignal)
    }

    @Test func multipageTIFFGivesEveryPage() throws {
        let r = try CLI.run(["ocr", "--timings", "TestDocuments/optout_both.multipage.tif"])
        let doc = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as! [String: Any]
        let pages = doc["pages"] as! [[String: Any]]
        #expect(pages.count == 2)
        // --timings: the file's load, then each page's steps, each with its seconds.
        #expect((doc["timings"] as? [[String: Any]])?.map { $0["step"] as? String } == ["load"])
        for page in pages {
            let steps = (page["timings"] as? [[String: Any]]) ?? []
            // Forms read well, with nothing like a zone in them: not searched for an MRZ.
            #expect(steps.first?["step"] as? String == "preprocess" && steps.contains { $0["step"] as? String == "recognize" })
            #expect(!steps.contains { ($0["step"] as? String ?? "").hasPrefix("mrz.") })
            #expect(steps.allSatisfy { ($0["seconds"] as? Double ?? -1) >= 0 })
        }
        #expect(pages.map { $0["kind"] as? String } == ["optout", "optout"])
        let brokers = pages.compactMap { (($0["fields"] as? [String: [String: Any]])?["data_broker"])?["value"] as? String }
        #expect(brokers == ["PeopleFinderHub", "Spokeo"])
    }

    /// PDFs: a page's own text layer or OCR of the rendered page, page selection, and refusals
    /// with their exit codes.
    @Test func pdfPages() throws {
        let dir = TestScratch.directory.appendingPathComponent("kordant-cli-pdf-\(getpid())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("two.pdf").path
        try PDFBuilder.pdf([.init(text: "Opt-out request 5150"), .init(text: nil)]).write(to: URL(fileURLWithPath: path))
        let r = try CLI.run(["ocr", path, "--json"])
        #expect(r.status == 0, "\(r.stderr)")
        let pages = try #require((try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])?["pages"] as? [[String: Any]])
        #expect(pages.map { $0["source"] as? String } == ["text_layer", "ocr"] && pages.map { $0["width"] as? Int } == [2550, 2550])
        #expect((pages[0]["text"] as? String)?.contains("Opt-out request 5150") == true)
        let forced = try CLI.run(["ocr", path, "--json", "--force-ocr", "--pages", "1"])
        #expect(forced.status == 0 && forced.stdout.contains("\"source\":\"ocr\"") && forced.stdout.contains("5150"), "\(forced.stderr)")
        let none = try CLI.run(["ocr", path, "--pages", "3-"])
        #expect(none.status == 43 && none.stderr.contains("\(path): no page in 3-: the document has 2 pages [empty_image]"), "\(none.stderr)")
        #expect(try CLI.run(["ocr", path, "--pages", "0"]).status == 64)
        let damaged = dir.appendingPathComponent("damaged.pdf").path
        try Data("%PDF-1.4\n1 0 obj <<".utf8).write(to: URL(fileURLWithPath: damaged))
        let broken = try CLI.run(["ocr", damaged])
        #expect(broken.status == 41 && broken.stderr.contains("\(damaged): not a PDF poppler can read") && !broken.stderr.contains("Syntax"),
                "\(broken.stderr)")
        // ALTO: one XML document, a Page per page (numbered), OCR even for the text-layer page.
        let alto = try CLI.run(["ocr", path, "--format", "alto"])
        #expect(alto.status == 0 && alto.stdout.hasPrefix("<?xml") && alto.stdout.contains("CONTENT=\"5150\""), "\(alto.stderr)")
        let parsed = XMLParser(data: Data(alto.stdout.utf8))
        let pageIds = ALTOPages()
        parsed.delegate = pageIds
        #expect(parsed.parse() && pageIds.ids == ["page_0", "page_1"], "\(pageIds.ids)")
        // A 200-inch page without a text layer is refused from its size, before rendering.
        let huge = dir.appendingPathComponent("huge.pdf").path
        try PDFBuilder.pdf([.init(text: nil, width: 14_400, height: 14_400)]).write(to: URL(fileURLWithPath: huge))
        let large = try CLI.run(["ocr", huge])
        #expect(large.status == 42 && large.stderr.contains("page 1 at 300 DPI: 60000 × 60000"), "\(large.stderr)")
    }

    @Test func otherFormats() throws {
        for format in ["text", "tsv", "hocr"] {
            let r = try CLI.run(["ocr", "--format", format, "TestDocuments/deed_warranty.clean.png"] + (format == "text" ? ["--timings"] : []))
            #expect(r.status == 0)
            switch format {
            case "text":
                #expect(r.stdout.contains("WARRANTY DEED") && !r.stdout.contains("timings"))
                #expect(r.stderr.contains("timings TestDocuments/deed_warranty.clean.png: load ") && r.stderr.contains("page 1: preprocess "), "\(r.stderr)")
            case "tsv": #expect(r.stdout.split(separator: "\n").contains { $0.split(separator: "\t").count == 12 && $0.hasSuffix("Grantor:") })
            default: #expect(r.stdout.contains("ocrx_word") && r.stdout.contains("bbox"))
            }
        }
        let words = try CLI.run(["ocr", "--words", "TestDocuments/optout_form.clean.png"])
        let page = OCRRun.page(try JSONSerialization.jsonObject(with: Data(words.stdout.utf8)) as! [String: Any])
        let first = (page["words"] as! [[String: Any]]).first!
        for key in ["text", "confidence", "box", "block", "paragraph", "line", "word"] { #expect(first[key] != nil) }
    }

    /// Tesseract runs single-threaded per worker: the CLI puts OMP_THREAD_LIMIT=1 in force before
    /// libgomp starts, and the process never has more threads than workers plus a few of its own.
    @Test func openMPIsLimitedToOneThread() throws {
        let r = try CLI.run(["ocr", "-v", "--jobs", "1", "TestDocuments/deed_warranty.clean.png"])
        #expect(r.stderr.contains("OpenMP thread limit 1"), "\(r.stderr)")
        let (p, _, _) = try CLI.start(["ocr", "--jobs", "1"] + Array(repeating: "TestDocuments/deed_quitclaim.clean.png", count: 3))
        var seen: [Int: Int] = [:]
        while p.isRunning {
            let n = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(p.processIdentifier)/task").count) ?? 0
            if n > 0 { seen[n, default: 0] += 1 }
            usleep(5_000)
        }
        #expect(p.terminationStatus == 0)
        // Main thread, the async command's thread, one worker, Dispatch's signal/timer threads; an
        // OpenMP team would add one per core beyond the first, for as long as Tesseract reads (most
        // of the run). ThreadSanitizer's runtime adds a thread of its own to every process it
        // instruments (the CLI is built with it when the tests are). The count most often seen is
        // judged, not the most: on a loaded machine Dispatch may start a worker for a moment
        // (7 threads once under ThreadSanitizer while two benchmarks ran beside it).
        let sanitizer = dlsym(dlopen(nil, RTLD_NOW), "__tsan_init") != nil ? 1 : 0
        let usual = seen.max { ($0.value, -$0.key) < ($1.value, -$1.key) }?.key ?? 0
        #expect(usual > 0 && usual <= 5 + sanitizer, "\(seen) threads: samples")
    }
}

/// Collects the ids of an ALTO document's `Page` elements (and proves it parses as XML).
final class ALTOPages: NSObject, XMLParserDelegate {
    var ids: [String] = []
    func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
                attributes: [String: String] = [:]) {
        if name == "Page", let id = attributes["ID"] { ids.append(id) }
    }
}
