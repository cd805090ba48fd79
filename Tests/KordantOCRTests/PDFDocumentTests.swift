import Foundation
@testable import KordantOCR
import KordantTestSupport
import Testing

/// PDFs through poppler: the text layer, rendering, and refusals (PDFs made at run time by
/// ``PDFBuilder``).
@Suite struct PDFDocumentTests {
    typealias Page = PDFBuilder.Page
    static func write(_ data: Data, _ name: String) throws -> String {
        let path = TestScratch.directory.appendingPathComponent("kordant-pdf-\(getpid())-\(name)").path
        try data.write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test func textLayerAndRenderedPages() throws {
        let path = try Self.write(PDFBuilder.pdf([Page(text: "Kordant deed 4417"), Page(text: nil, width: 842, height: 595)]), "two.pdf")
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

    /// The engine hands out the pages of a multi-page PDF or TIFF one by one (so one long document
    /// keeps both workers busy) and puts each file back together: the same pages, in order, as
    /// one worker reading the file whole; a page selection is kept, a file to be written as a
    /// searchable PDF and a file that cannot be opened stay whole, and a bad page fails its file.
    @Test func pagesOfOneFileGoToEveryWorker() throws {
        let pdf = try Self.write(PDFBuilder.pdf([Page(text: "First page 1001"), Page(text: nil), Page(text: "Third page 3003")]), "split.pdf")
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().path
        let tiff = root + "/TestDocuments/optout_both.multipage.tif"
        let single = root + "/TestDocuments/optout_form.lowres.png"
        var options = OCROptions()
        options.pdfDPI = 150
        options.forceOCR = true
        let engine = OCREngine(jobs: 2)
        #expect(engine.pages(of: pdf, options: options) == [1, 2, 3])
        #expect(engine.pages(of: tiff, options: options) == [1, 2])
        #expect(engine.pages(of: single, options: options) == [nil])
        #expect(engine.pages(of: "/nonexistent.pdf", options: options) == [nil])
        #expect(OCREngine(jobs: 1).pages(of: pdf, options: options) == [nil])
        var written = options
        written.searchablePDF = [pdf: TestScratch.directory.appendingPathComponent("split-\(getpid())-out.pdf").path]
        #expect(engine.pages(of: pdf, options: written) == [nil])
        var some = options
        some.pages = PageRanges("2-")
        #expect(engine.pages(of: pdf, options: some) == [2, 3])
        some.pages = PageRanges("2")
        #expect(engine.pages(of: pdf, options: some) == [nil])
        let worker = try OCRWorker()
        let results = engine.process(paths: [pdf, single, tiff], options: options)
        for (path, result) in zip([pdf, single, tiff], results) {
            let whole = try worker.process(path: path, options: options)
            let split = try result.get()
            #expect(split.path == path && split.pages == whole.pages, "\(path)")
        }
        #expect(try results[0].get().pages.map(\.page) == [1, 2, 3])
        // A TIFF whose second page's strips point past the end of the file: the file fails
        // naming that page, the other file is read.
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: tiff)))
        #expect(bytes.prefix(2) == [0x49, 0x49])  // little-endian ("II")
        func u32(_ at: Int) -> Int { (0..<4).reduce(0) { $0 | Int(bytes[at + $1]) << (8 * $1) } }
        func u16(_ at: Int) -> Int { Int(bytes[at]) | Int(bytes[at + 1]) << 8 }
        let firstIFD = u32(4), secondIFD = u32(firstIFD + 2 + 12 * u16(firstIFD))
        for entry in 0..<u16(secondIFD) {
            let at = secondIFD + 2 + 12 * entry
            guard u16(at) == 273 else { continue }  // StripOffsets
            let count = u32(at + 4), values = count == 1 ? at + 8 : u32(at + 8)
            for k in 0..<count { bytes.replaceSubrange((values + 4 * k)..<(values + 4 * k + 4), with: [0xF0, 0xFF, 0xFF, 0x7F]) }
        }
        let bad = try Self.write(Data(bytes), "bad-page-2.tif")
        #expect(engine.pages(of: bad, options: options) == [1, 2])
        let mixed = engine.process(paths: [bad, single], options: options)
        #expect(throws: OCRError(.unreadable, path: bad, "page 2 of 2 is corrupt or truncated")) { try mixed[0].get() }
        #expect((try? mixed[1].get()) != nil)
    }

    /// `OCRWorker.process(path:)` takes a PDF: a page with a text layer is read from it (unless
    /// `forceOCR`), a page without one is rendered and OCR'd; pages in order.
    @Test func workerReadsEveryPageOfAPDF() throws {
        let path = try Self.write(PDFBuilder.pdf([Page(text: "First page 1001"), Page(text: nil), Page(text: "Third page 3003")]), "worker.pdf")
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
        let two = try Self.write(PDFBuilder.pdf([Page(text: "a"), Page(text: "b")]), "pages.pdf")
        var limits = ImageLimits()
        limits.maxPages = 1
        #expect { try PDFDocument(path: two, limits: limits) } throws: {
            ($0 as? OCRError).map { $0.kind == .tooLarge && $0.detail == "2 pages (limit 1)" } ?? false
        }
        // A 200 000-point (2.8 km) page is refused from its size, before anything is rendered.
        let huge = try Self.write(PDFBuilder.pdf([Page(text: "x", width: 200_000, height: 200_000)]), "huge.pdf")
        let doc = try PDFDocument(path: huge)
        #expect { try doc.render(page: 0) } throws: {
            ($0 as? OCRError).map { $0.kind == .tooLarge && $0.detail.hasPrefix("page 1 at 300 DPI: ") } ?? false
        }
        #expect { try doc.text(page: 5) } throws: { ($0 as? OCRError)?.kind == .unreadable }
    }

    /// Page sizes beyond any integer (a fuzzer's find: a 64-digit `/MediaBox` corner trapped in
    /// the conversion to pixels) are refused by `render` and clamped in the text layer's boxes.
    // (PDF numbers have no exponent; poppler reads a long run of digits as a real.)
    @Test(arguments: ["0 0 612 " + String(repeating: "9", count: 80), "0 0666666666666666666666666666666666666666666666666666666666666666 200 584",
                      "0 0 -" + String(repeating: "9", count: 300) + " 792"])
    func absurdPageSizesAreRefusedWithoutATrap(mediaBox: String) throws {
        let path = try Self.write(PDFBuilder.pdf([Page(text: "HELLO", mediaBox: mediaBox)]), "absurd-\(mediaBox.count).pdf")
        let doc = try PDFDocument(path: path)
        let refused: (any Error) -> Bool = { [.tooLarge, .emptyImage].contains(($0 as? OCRError)?.kind) }
        #expect(performing: { try doc.render(page: 0) }, throws: refused)
        for word in doc.words(page: 0) {
            #expect(abs(word.box.x) <= 2_147_483_647 && abs(word.box.y) <= 2_147_483_647)
        }
        // The text layer is refused alike: its page would be as large as the rendered one.
        #expect(performing: { try OCRWorker(orientation: false).process(path: path) }, throws: refused)
    }
}
