import Foundation
@testable import KordantOCR
import Testing

/// PDFs through poppler: the text layer, rendering, and refusals (made at run time: a PDF with
/// text is a few hundred bytes of PDF syntax, written here with a correct cross-reference table).
@Suite struct PDFDocumentTests {
    /// One page: `text` in 36 pt Helvetica near the top, or (nil) a black bar and no text at all.
    struct Page { var text: String?; var width = 612, height = 792 }

    static func pdf(_ pages: [Page]) -> Data {
        var objects: [String] = []
        let pageIds = pages.indices.map { 4 + 2 * $0 }
        objects.append("<< /Type /Catalog /Pages 2 0 R >>")
        objects.append("<< /Type /Pages /Kids [\(pageIds.map { "\($0) 0 R" }.joined(separator: " "))] /Count \(pages.count) >>")
        objects.append("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>")
        for (i, p) in pages.enumerated() {
            let content = p.text.map { "BT /F1 36 Tf 72 \(p.height - 120) Td (\($0)) Tj ET" } ?? "0 0 0 rg 72 600 300 40 re f"
            objects.append("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 \(p.width) \(p.height)] /Resources << /Font << /F1 3 0 R >> >> /Contents \(pageIds[i] + 1) 0 R >>")
            objects.append("<< /Length \(content.utf8.count) >>\nstream\n\(content)\nendstream")
        }
        var out = "%PDF-1.4\n"
        var offsets: [Int] = []
        for (i, o) in objects.enumerated() {
            offsets.append(out.utf8.count)
            out += "\(i + 1) 0 obj\n\(o)\nendobj\n"
        }
        let xref = out.utf8.count
        out += "xref\n0 \(objects.count + 1)\n0000000000 65535 f \n"
        for o in offsets { out += String(format: "%010d 00000 n \n", o) }
        out += "trailer\n<< /Size \(objects.count + 1) /Root 1 0 R >>\nstartxref\n\(xref)\n%%EOF\n"
        return Data(out.utf8)
    }

    static func write(_ data: Data, _ name: String) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("kordant-pdf-\(getpid())-\(name)").path
        try data.write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test func textLayerAndRenderedPages() throws {
        let path = try Self.write(Self.pdf([Page(text: "Kordant deed 4417"), Page(text: nil, width: 842, height: 595)]), "two.pdf")
        let doc = try PDFDocument(path: path)
        #expect(doc.pageCount == 2)
        #expect(try doc.text(page: 0).contains("Kordant deed 4417"))
        #expect(try doc.hasTextLayer(page: 0) && !doc.hasTextLayer(page: 1))
        #expect(try doc.pageSize(1) == (842, 595))
        let image = try doc.render(page: 0, dpi: 150)
        #expect(image.width == 1275 && image.height == 1650 && image.depth == 32 && image.resolution == 150)
        // The rendered page reads back through the OCR engine as what the text layer says.
        let page = try OCRWorker().process(image: image)
        #expect(page.text.contains("Kordant deed 4417"), "\(page.text)")
        #expect(try doc.render(page: 1, dpi: 72).width == 842)
    }

    /// `OCRWorker.process(path:)` takes a PDF: a page with a text layer is read from it (unless
    /// `forceOCR`), a page without one is rendered and OCR'd; pages in order.
    @Test func workerReadsEveryPageOfAPDF() throws {
        let path = try Self.write(Self.pdf([Page(text: "First page 1001"), Page(text: nil), Page(text: "Third page 3003")]), "worker.pdf")
        var options = OCROptions()
        options.pdfDPI = 150
        let worker = try OCRWorker()
        let result = try worker.process(path: path, options: options)
        #expect(result.pages.map(\.page) == [1, 2, 3] && result.pages.allSatisfy { $0.width == 1275 && $0.height == 1650 })
        #expect(result.pages.map(\.source) == [.textLayer, .ocr, .textLayer])
        #expect(result.pages[0].text.contains("First page 1001") && result.pages[2].text.contains("Third page 3003"),
                "\(result.pages.map(\.text))")
        // The text layer's words carry boxes in pixels at 150 DPI: 36 pt Helvetica at (72, 792 − 120) pt.
        let first = try #require(result.pages[0].words.first)
        #expect(first.text == "First" && first.confidence == 100 && abs(first.box.x - 150) <= 2 && first.box.height > 30 && first.box.height < 90,
                "\(first)")
        // A page selection keeps the document's page numbers; one that selects nothing is refused.
        options.pages = PageRanges("2-")
        #expect(try worker.process(path: path, options: options).pages.map(\.page) == [2, 3])
        options.pages = PageRanges("1,3")
        #expect(try worker.process(path: path, options: options).pages.map(\.source) == [.textLayer, .textLayer])
        options.pages = PageRanges("4-9")
        #expect(throws: OCRError(.emptyImage, path: path, "no page in 4-9: the document has 3 pages")) { try worker.process(path: path, options: options) }
        #expect(PageRanges("3-2") == nil && PageRanges("0") == nil && PageRanges("a") == nil && PageRanges("1,,2") == nil)
        options.pages = nil
        options.forceOCR = true
        let forced = try worker.process(path: path, options: options)
        #expect(forced.pages.allSatisfy { $0.source == .ocr })
        #expect(forced.pages[0].text.contains("First page 1001") && forced.pages[2].text.contains("Third page 3003"))
        #expect(PDFDocument.looksLikePDF(path: path) && !PDFDocument.looksLikePDF(path: "/nonexistent"))
    }

    @Test func refusals() throws {
        #expect(throws: OCRError(.notFound, path: "/nonexistent.pdf", "no such file")) { try PDFDocument(path: "/nonexistent.pdf") }
        let garbage = try Self.write(Data("this is not a PDF at all\n".utf8), "garbage.pdf")
        #expect { try PDFDocument(path: garbage) } throws: { ($0 as? OCRError)?.kind == .unreadable }
        let two = try Self.write(Self.pdf([Page(text: "a"), Page(text: "b")]), "pages.pdf")
        var limits = ImageLimits()
        limits.maxPages = 1
        #expect { try PDFDocument(path: two, limits: limits) } throws: {
            ($0 as? OCRError).map { $0.kind == .tooLarge && $0.detail == "2 pages (limit 1)" } ?? false
        }
        // A 200 000-point (2.8 km) page is refused from its size, before anything is rendered.
        let huge = try Self.write(Self.pdf([Page(text: "x", width: 200_000, height: 200_000)]), "huge.pdf")
        let doc = try PDFDocument(path: huge)
        #expect { try doc.render(page: 0) } throws: {
            ($0 as? OCRError).map { $0.kind == .tooLarge && $0.detail.hasPrefix("page 1 at 300 DPI: ") } ?? false
        }
        #expect { try doc.text(page: 5) } throws: { ($0 as? OCRError)?.kind == .unreadable }
    }
}
