import Foundation
@testable import KordantOCR
import Testing

/// The page's text takes Tesseract's blocks in the order printed: a block goes after every block
/// printed wholly above it that shares some of its width (`ReadingOrder`).
@Suite struct ReadingOrderTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path

    static func box(_ x: Int, _ y: Int, _ right: Int, _ bottom: Int) -> BoundingBox {
        BoundingBox(x: x, y: y, width: right - x, height: bottom - y)
    }

    @Test func aBlockPrintedAboveIsReadFirst() {
        // A title, then (in Tesseract's order) a tick-box list printed under a table, then the table.
        let boxes = [Self.box(100, 50, 2400, 120), Self.box(120, 1500, 900, 1700), Self.box(100, 200, 2400, 1400)]
        #expect(ReadingOrder.order(boxes) == [0, 2, 1])
    }

    @Test func columnsSideBySideKeepTesseractsOrder() {
        // Two columns (the right one starting a little higher) and a footer across both.
        let boxes = [Self.box(100, 120, 1000, 2000), Self.box(1100, 100, 2000, 1900), Self.box(100, 2100, 2000, 2200)]
        #expect(ReadingOrder.order(boxes) == [0, 1, 2])
        // Already in order, or a single block: unchanged.
        #expect(ReadingOrder.order([Self.box(0, 0, 10, 10)]) == [0])
        #expect(ReadingOrder.order([]) == [])
    }

    @Test func overlappingBlocksKeepTesseractsOrder() {
        // A fragment inside another block's height decides nothing about that block.
        let boxes = [Self.box(100, 200, 900, 400), Self.box(500, 250, 560, 270), Self.box(100, 420, 900, 500)]
        #expect(ReadingOrder.order(boxes) == [0, 1, 2])
    }

    /// Read by Tesseract, the boxed form's e-mail value comes out before the row of cells printed
    /// above it; the page's text reads it after its label, with every word kept.
    @Test func aBoxedFormReadsInTheOrderPrinted() throws {
        let path = Self.root + "/Tests/Fixtures/ocr-fallback/s55-dev-015-optout-boxed-flatbed.png"
        let page = try OCRWorker().process(path: path).pages[0]
        let text = page.text
        let town = try #require(text.range(of: "Postal Code")), email = try #require(text.range(of: "Email"))
        let address = try #require(text.range(of: "omar81@inbox.example.net"))
        #expect(town.lowerBound < address.lowerBound && email.lowerBound < address.lowerBound, "\(text)")
        // The same words as the reading's, only in another order.
        let fromWords = page.words.map(\.text).sorted()
        let fromText = text.split(whereSeparator: \.isWhitespace).map(String.init).sorted()
        #expect(fromWords == fromText)
    }
}
