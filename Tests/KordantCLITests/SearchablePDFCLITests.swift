import Foundation
import KordantTestSupport
import Testing

/// `kordant ocr --pdf`: the searchable PDF checked with poppler's own tools (`pdftotext`,
/// `pdfinfo`, Debian poppler-utils), and the refusal of encrypted PDFs (made with qpdf).
@Suite(.serialized) struct SearchablePDFCLITests {
    static let pdftotext = Tools.find("pdftotext"), pdfinfo = Tools.find("pdfinfo"), qpdf = Tools.find("qpdf")

    static func temporaryDirectory() throws -> URL {
        let dir = TestScratch.directory.appendingPathComponent("kordant-searchable-\(getpid())-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }

    /// pdfinfo's page count and first page size in points.
    static func info(_ pdf: String) throws -> (pages: Int, width: Double, height: Double) {
        let r = try Tools.run(pdfinfo!, [pdf])
        #expect(r.status == 0, "\(r.stderr)")
        var pages = 0, width = 0.0, height = 0.0
        for line in r.stdout.split(separator: "\n") {
            let parts = line.split(separator: ":", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard parts.count == 2 else { continue }
            if parts[0] == "Pages" { pages = Int(parts[1]) ?? 0 }
            if parts[0] == "Page size" {
                // "612 x 792 pts (letter)"
                let n = parts[1].split(separator: " ")
                width = Double(n[0]) ?? 0
                height = Double(n[2]) ?? 0
            }
        }
        return (pages, width, height)
    }

    /// Each page's text as pdftotext reads it back (pages end with a form feed), in its layout
    /// mode: lines as they sit on the page. (Its default reading order splits lines whose words
    /// carry slightly different baseline angles, as on a deskewed page; every word is still there.)
    static func pagesText(_ pdf: String) throws -> [String] {
        let r = try Tools.run(pdftotext!, ["-layout", "-enc", "UTF-8", pdf, "-"])
        #expect(r.status == 0, "\(r.stderr)")
        var pages = r.stdout.components(separatedBy: "\u{0C}")
        if pages.last?.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty == true { pages.removeLast() }
        return pages
    }

    /// Each word of the PDF's text layer with its box's centre, in points from the page's top left
    /// (`pdftotext -bbox`).
    static func wordBoxes(_ pdf: String) throws -> [(text: String, x: Double, y: Double)] {
        let r = try Tools.run(pdftotext!, ["-bbox", "-enc", "UTF-8", pdf, "-"])
        #expect(r.status == 0, "\(r.stderr)")
        let entities = ["&amp;": "&", "&lt;": "<", "&gt;": ">", "&quot;": "\"", "&apos;": "'", "&#39;": "'"]
        return r.stdout.split(separator: "\n").compactMap { line -> (String, Double, Double)? in
            guard let open = line.range(of: "<word "), let close = line.range(of: "</word>"),
                  let tagEnd = line[open.upperBound...].firstIndex(of: ">") else { return nil }
            func attribute(_ name: String) -> Double? {
                guard let start = line.range(of: "\(name)=\"") else { return nil }
                return Double(line[start.upperBound...].prefix { $0 != "\"" })
            }
            guard let x0 = attribute("xMin"), let y0 = attribute("yMin"), let x1 = attribute("xMax"), let y1 = attribute("yMax") else { return nil }
            var text = String(line[line.index(after: tagEnd)..<close.lowerBound])
            for (entity, character) in entities { text = text.replacingOccurrences(of: entity, with: character) }
            return (text, (x0 + x1) / 2, (y0 + y1) / 2)
        }
    }

    static func json(_ stdout: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(stdout.utf8)) as? [String: Any])
    }

    /// One page: pdftotext gets back the text the JSON has, on a page of the scan's physical size.
    @Test(.enabled(if: pdftotext != nil && pdfinfo != nil, "pdftotext/pdfinfo not installed (Debian poppler-utils; scripts/setup installs it)"),
          arguments: ["optout_form.clean.png", "deed_warranty.skewp4.0.png", "idcard_td1.noisy.jpg"])
    func searchablePDFOfAPage(_ name: String) throws {
        let dir = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("page.pdf").path
        let r = try CLI.run(["ocr", "TestDocuments/\(name)", "--words", "--pdf", out])
        #expect(r.status == 0, "\(r.stderr)")
        let page = OCRRun.page(try Self.json(r.stdout))
        let text = try Self.pagesText(out)
        #expect(text.count == 1)
        let cer = Tools.cer(text.first ?? "", page["text"] as! String)
        #expect(cer < 0.03, "CER \(cer) of the PDF's text against the JSON's")
        let info = try Self.info(out)
        let preprocessing = page["preprocessing"] as! [String: Any]
        let resolution = Double(preprocessing["resolution"] as! Int)
        // Selecting or finding a word highlights it where it is printed: each sure word's box in the
        // PDF's text layer (pdftotext -bbox, points) sits on its box in the image read. The JSON's
        // boxes are in the image as given: moved here as preprocessing moved the page (rescaled,
        // then turned about its centre by the skew angle; none of these pages is turned upright).
        #expect(preprocessing["rotation"] as? Int == 0)
        let scale = preprocessing["scale"] as? Double ?? 1
        let skew = (preprocessing["steps"] as! [String]).contains("deskew") ? (preprocessing["skew_angle"] as! Double) * .pi / 180 : 0
        let (cx, cy) = (Double(page["width"] as! Int) * scale / 2, Double(page["height"] as! Int) * scale / 2)
        func read(_ x: Double, _ y: Double) -> (Double, Double) {
            let (dx, dy) = (x * scale - cx, y * scale - cy)
            return (cx + cos(skew) * dx - sin(skew) * dy, cy + sin(skew) * dx + cos(skew) * dy)
        }
        let placed = try Self.wordBoxes(out)
        var checked = 0, misplaced: [String] = []
        for word in page["words"] as! [[String: Any]] {
            let text = word["text"] as! String, box = word["box"] as! [String: Int]
            guard (word["confidence"] as! Double) >= 80, text.count >= 3 else { continue }
            let s = 72 / resolution
            let centre = read(Double(box["x"]!) + Double(box["width"]!) / 2, Double(box["y"]!) + Double(box["height"]!) / 2)
            let x = centre.0 * s, y = centre.1 * s
            // (A box around a turned word is a little larger than the word.)
            let w = Double(box["width"]!) * scale * s, h = Double(box["height"]!) * scale * s * cos(skew)
            checked += 1
            let near = placed.filter { $0.text == text }.contains { abs($0.x - x) <= max(3, w / 4) && abs($0.y - y) <= h / 2 }
            if !near { misplaced.append(text) }
        }
        #expect(checked >= 10 && Double(misplaced.count) <= 0.05 * Double(checked),
                "\(misplaced.count) of \(checked) words not where the image has them: \(misplaced.prefix(10))")
        // The page is the scan's size: pixels read / resolution they were read at, in points.
        #expect(info.pages == 1)
        #expect(abs(info.width - Double(page["width"] as! Int) * scale / resolution * 72) < 1.5, "\(info)")
        #expect(abs(info.height - Double(page["height"] as! Int) * scale / resolution * 72) < 1.5, "\(info)")
        // Nothing else is left beside it (the temporary file is renamed into place).
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["page.pdf"])
    }

    /// Two-page inputs (a multi-page TIFF, a PDF with a text-layer page and an image page): two
    /// pages out, each page's text back, and `--pdf-dir` for several inputs.
    @Test(.enabled(if: pdftotext != nil && pdfinfo != nil, "pdftotext/pdfinfo not installed (Debian poppler-utils; scripts/setup installs it)"))
    func searchablePDFOfTwoPages() throws {
        let dir = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let source = dir.appendingPathComponent("two.pdf").path
        try PDFBuilder.pdf([.init(text: "Opt-out request 5150"), .init(text: nil)]).write(to: URL(fileURLWithPath: source))
        let outDir = dir.appendingPathComponent("out").path
        try FileManager.default.createDirectory(atPath: outDir, withIntermediateDirectories: true)
        let r = try CLI.run(["ocr", "TestDocuments/optout_both.multipage.tif", source, "--pdf-dir", outDir])
        #expect(r.status == 0, "\(r.stderr)")
        let docs = r.stdout.split(separator: "\n").map { try? Self.json(String($0)) }
        for (doc, name) in zip(docs, ["optout_both.multipage.pdf", "two.pdf"]) {
            let out = outDir + "/" + name
            let pages = try #require(doc?["pages"] as? [[String: Any]])
            #expect(pages.count == 2)
            // With --pdf every page is read by OCR, a text-layer page too (the PDF needs its image).
            #expect(pages.allSatisfy { $0["source"] as? String == "ocr" })
            let text = try Self.pagesText(out)
            #expect(text.count == 2)
            for (got, page) in zip(text, pages) where !(page["text"] as! String).isEmpty {
                let cer = Tools.cer(got, page["text"] as! String)
                #expect(cer < 0.03, "\(name) page \(page["page"] ?? 0): CER \(cer)")
            }
            let info = try Self.info(out)
            #expect(info.pages == 2, "\(name)")
            if name == "two.pdf" { #expect(abs(info.width - 612) < 1 && abs(info.height - 792) < 1, "\(info)") }
        }
        #expect(try Self.pagesText(outDir + "/two.pdf").first?.contains("5150") == true)
    }

    /// `batch ocr --pdf-dir`: DIR/ID.pdf per item (subfolders kept), named in its line.
    @Test(.enabled(if: pdftotext != nil && pdfinfo != nil, "pdftotext/pdfinfo not installed (Debian poppler-utils; scripts/setup installs it)"))
    func batchWritesAPDFPerItem() throws {
        let dir = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let input = dir.appendingPathComponent("in/sub")
        try FileManager.default.createDirectory(at: input, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: CLI.repository.appendingPathComponent("TestDocuments/optout_form.clean.png").path,
                                         toPath: input.appendingPathComponent("form.png").path)
        let out = dir.appendingPathComponent("out.jsonl").path, pdfs = dir.appendingPathComponent("pdfs").path
        let r = try CLI.run(["batch", "ocr", dir.appendingPathComponent("in").path, "--out", out, "--pdf-dir", pdfs, "--quiet"])
        #expect(r.status == 0, "\(r.stderr)")
        let line = try Self.json(try String(contentsOfFile: out, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines))
        #expect(line["pdf"] as? String == pdfs + "/sub/form.pdf")
        let text = try Self.pagesText(pdfs + "/sub/form.pdf")
        #expect(Tools.cer(text.first ?? "", OCRRun.page(line)["text"] as! String) < 0.03)
    }

    /// An output that cannot be written: exit 20 naming it, before or instead of a half PDF.
    @Test func unwritableOutput() throws {
        let r = try CLI.run(["ocr", "TestDocuments/optout_form.clean.png", "--pdf", "/nonexistent-kordant-dir/out.pdf"])
        #expect(r.status == 20, "\(r.stderr)")
        #expect(r.stderr.contains("/nonexistent-kordant-dir/out.pdf: cannot create the PDF: No such file or directory [write_failed]"), "\(r.stderr)")
        let line = try Self.json(r.stdout)
        #expect(line["file"] as? String == "TestDocuments/optout_form.clean.png")
        #expect((line["error"] as? [String: Any])?["file"] as? String == "/nonexistent-kordant-dir/out.pdf")
        #expect(try CLI.run(["ocr", "TestDocuments/optout_form.clean.png", "TestDocuments/optout_form.lowres.png", "--pdf", "x.pdf"]).status == 64)
    }

    /// An encrypted PDF (qpdf, AES-256, a user password) is refused with exit 41, naming the
    /// file; the same document unencrypted is read.
    @Test(.enabled(if: qpdf != nil, "qpdf not installed (Debian qpdf; scripts/setup installs it)"))
    func encryptedPDFIsRefused() throws {
        let dir = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let plain = dir.appendingPathComponent("plain.pdf").path, locked = dir.appendingPathComponent("locked.pdf").path
        try PDFBuilder.pdf([.init(text: "Opt-out request 5150")]).write(to: URL(fileURLWithPath: plain))
        let made = try Tools.run(Self.qpdf!, ["--encrypt", "user-secret", "owner-secret", "256", "--", plain, locked])
        #expect(made.status == 0, "\(made.stderr)")
        let readable = try CLI.run(["ocr", plain])
        #expect(readable.status == 0 && readable.stdout.contains("5150"), "\(readable.stderr)")
        let r = try CLI.run(["ocr", locked])
        #expect(r.status == 41, "\(r.stderr)")
        #expect(r.stderr.contains("\(locked): encrypted PDF: it needs a password to read [unreadable]"), "\(r.stderr)")
        #expect(r.stdout.contains("\"code\":\"unreadable\""))
    }
}
