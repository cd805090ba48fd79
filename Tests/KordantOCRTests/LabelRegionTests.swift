import Foundation
@testable import KordantOCR
import KordantTestSupport
import Testing

/// An identity value whose label was read and which Tesseract's page layout dropped is read again
/// from the empty region below (or beside) its label, as one line, and kept only when it passes
/// the field's validator. Cards rendered by poppler from PDFs made at run time, read by real
/// Tesseract; the drop is made by leaving the value's words out of the reading.
@Suite struct LabelRegionTests {
    /// A card at 300 DPI: labels in 12 pt, values in 16 pt below them; `nationality` nil leaves
    /// its region blank.
    static func card(nationality: String?, name: String) throws -> LeptImage {
        var placed: [(x: Int, y: Int, size: Int, text: String)] = [
            (72, 600, 12, "Surname"), (72, 580, 16, "OKAFOR"), (300, 600, 12, "Date of birth"), (300, 580, 16, "12 MAR 1984"),
            (72, 540, 12, "Nationality"), (300, 540, 12, "Document no."), (300, 520, 16, "K9767648"),
        ]
        if let nationality { placed.append((72, 520, 16, nationality)) }
        let data = PDFBuilder.pdf([PDFBuilder.Page(text: "IDENTITY CARD", placed: placed)])
        let path = TestScratch.directory.appendingPathComponent("kordant-region-\(getpid())-\(name).pdf").path
        try data.write(to: URL(fileURLWithPath: path))
        return try PDFDocument(path: path).render(page: 0, dpi: 300)
    }

    /// The card read as an ID (`--kind id`).
    static func asID(_ worker: OCRWorker, _ image: LeptImage) throws -> PageResult {
        var options = OCROptions()
        options.kind = .id
        return try worker.process(image: image, options: options)
    }

    /// The card's reading, less the words under "Nationality" in its column (as when the layout
    /// drops them), and the label.
    static func reading(_ worker: OCRWorker, _ image: LeptImage) throws -> (PageText, Word) {
        let page = try asID(worker, image)
        #expect(page.preprocessing.scale == 1 && page.preprocessing.rotation == 0)
        let label = try #require(page.words.first { $0.text == "Nationality" })
        let words = page.words.filter { w in
            !(w.box.y > label.box.y + label.box.height && w.box.y < label.box.y + 4 * label.box.height && w.box.x < label.box.x + 600)
        }
        return (PageText(text: words.map(\.text).joined(separator: " "), meanConfidence: 90, words: words,
                         width: image.width, height: image.height, hocr: nil, tsv: nil, alto: nil), label)
    }

    @Test func aDroppedValueIsReadFromTheRegionUnderItsLabel() throws {
        let worker = try OCRWorker(orientation: false)
        let image = try Self.card(nationality: "NLD", name: "nld")
        let (page, label) = try Self.reading(worker, image)
        let found = try worker.valuesInEmptyRegions(page, missing: ["nationality"], image: image, resolution: 300)
        let field = try #require(found["nationality"])
        #expect(field.value == .text("NLD") && field.needsReview == false)
        // Where it is printed: under the label, in its column.
        let box = try #require(field.box)
        #expect(abs(box.x - label.box.x) < 30 && box.y > label.box.y + label.box.height && box.y < label.box.y + 4 * label.box.height)
        // Only missing fields are looked for.
        #expect(try worker.valuesInEmptyRegions(page, missing: ["surname"], image: image, resolution: 300).isEmpty)
    }

    /// Nothing printed under the label, or what is printed failing the field's validator (a
    /// nationality is three letters), gives no value: nothing is invented from an empty region.
    @Test(arguments: [nil, "1984", "N"] as [String?])
    func anEmptyOrInvalidRegionGivesNoValue(_ printed: String?) throws {
        let worker = try OCRWorker(orientation: false)
        let image = try Self.card(nationality: printed, name: printed ?? "none")
        let (page, _) = try Self.reading(worker, image)
        #expect(try worker.valuesInEmptyRegions(page, missing: ["nationality"], image: image, resolution: 300)["nationality"] == nil)
    }

    /// A region holding a word read clearly is not empty: that word is what is there (a value the
    /// extractor judged, or the next label), and it is not read again as this label's value.
    @Test func aRegionHoldingAWordReadIsNotReadAgain() throws {
        let worker = try OCRWorker(orientation: false)
        let image = try Self.card(nationality: "NLD", name: "kept")
        let result = try Self.asID(worker, image)
        let page = PageText(text: result.text, meanConfidence: 90, words: result.words, width: image.width, height: image.height,
                            hocr: nil, tsv: nil, alto: nil)
        #expect(try worker.valuesInEmptyRegions(page, missing: ["nationality", "surname"], image: image, resolution: 300).isEmpty)
    }

    /// A name of one letter ("O", a Korean surname) the layout dropped: read alone in the region
    /// under its label, it is the letter, for review (the names' validator wants two letters, as
    /// one alone is too easily a speck). Nothing printed gives nothing; a digit printed is no name.
    @Test(arguments: [("O", "O"), (nil, nil), ("7", nil)] as [(String?, String?)])
    func aOneLetterNameIsReadForReview(_ printed: String?, _ expected: String?) throws {
        let worker = try OCRWorker(orientation: false)
        var placed: [(x: Int, y: Int, size: Int, text: String)] = [(72, 600, 12, "Surname"), (72, 540, 12, "Given names"),
                                                                    (72, 520, 16, "MIN-JUN"), (300, 600, 12, "Nationality"), (300, 580, 16, "KOR")]
        if let printed { placed.append((72, 580, 16, printed)) }
        let image = try Self.render(placed, name: "lone-\(printed ?? "none")")
        let read = try Self.asID(worker, image)
        let label = try #require(read.words.first { $0.text == "Surname" })
        // As when the layout drops it: nothing read under the label in its column.
        let words = read.words.filter { w in
            !(w.box.y > label.box.y + label.box.height && w.box.y < label.box.y + 3 * label.box.height && w.box.x < label.box.x + 300)
        }
        let field = try worker.valuesInEmptyRegions(Self.page(words, image), missing: ["surname"], image: image, resolution: 300)["surname"]
        #expect(field?.value.string == expected)
        if let field {
            #expect(field.needsReview)
            let box = try #require(field.box)
            #expect(abs(box.x - label.box.x) < 30 && box.y > label.box.y + label.box.height)
        }
    }

    /// A card at 300 DPI from `placed` (x, baseline y, size in points, text).
    static func render(_ placed: [(x: Int, y: Int, size: Int, text: String)], name: String) throws -> LeptImage {
        let data = PDFBuilder.pdf([PDFBuilder.Page(text: "IDENTITY CARD", placed: placed)])
        let path = TestScratch.directory.appendingPathComponent("kordant-region-\(getpid())-\(name).pdf").path
        try data.write(to: URL(fileURLWithPath: path))
        return try PDFDocument(path: path).render(page: 0, dpi: 300)
    }

    /// `words` as a page's reading.
    static func page(_ words: [Word], _ image: LeptImage) -> PageText {
        PageText(text: words.map(\.text).joined(separator: " "), meanConfidence: 90, words: words,
                 width: image.width, height: image.height, hocr: nil, tsv: nil, alto: nil)
    }

    /// A tight stack: the next label sits right under the value, inside the region a looser card
    /// leaves empty. The region ends above that label, and the value is read; the value printed
    /// as three letters that are no country code ("ILD") goes to review.
    @Test(arguments: [("NLD", false), ("ILD", true)])
    func aTightStackEndsTheRegionAboveTheNextLabel(_ printed: String, _ review: Bool) throws {
        let worker = try OCRWorker(orientation: false)
        let image = try Self.render([(72, 600, 12, "Surname"), (72, 584, 16, "OKAFOR"), (72, 568, 12, "Nationality"), (72, 552, 16, printed),
                                     (72, 536, 12, "Date of birth"), (72, 520, 16, "12 MAR 1984"), (300, 568, 12, "Document no."),
                                     (300, 552, 16, "K9767648")], name: "tight-\(printed)")
        let read = try Self.asID(worker, image)
        #expect(read.preprocessing.scale == 1 && read.preprocessing.rotation == 0)
        // The reading less the value (as when the layout drops it); the next label stays.
        let words = read.words.filter { $0.text != printed }
        #expect(words.count == read.words.count - 1 && words.contains { $0.text == "birth" })
        let field = try #require(try worker.valuesInEmptyRegions(Self.page(words, image), missing: ["nationality"], image: image, resolution: 300)["nationality"])
        if review {
            #expect(field.needsReview)
        } else {
            #expect(field.value == .text(printed) && !field.needsReview)
        }
    }

    /// A value read after its label too poorly to stand ("Nationality: NT,D" at confidence 22) is
    /// read again from the region beside the label.
    @Test func aValueReadTooPoorlyIsReadAgain() throws {
        let worker = try OCRWorker(orientation: false)
        let image = try Self.render([(72, 600, 14, "Surname: OKAFOR"), (72, 570, 14, "Nationality: NLD"), (72, 540, 14, "Document no: K9767648")],
                                    name: "poor")
        let read = try Self.asID(worker, image)
        let words = read.words.map { w -> Word in
            guard w.text == "NLD" else { return w }
            var poor = w
            (poor.text, poor.confidence) = ("NT,D", 22)
            return poor
        }
        #expect(words.contains { $0.text == "NT,D" })
        let found = try worker.valuesInEmptyRegions(Self.page(words, image), missing: ["nationality"], image: image, resolution: 300)
        #expect(found["nationality"]?.value == .text("NLD"))
        // Read clearly, a value that fails its validator is not read again: it is what is there.
        let clear = read.words.map { w -> Word in
            guard w.text == "NLD" else { return w }
            var other = w
            other.text = "NT,D"
            return other
        }
        #expect(try worker.valuesInEmptyRegions(Self.page(clear, image), missing: ["nationality"], image: image, resolution: 300).isEmpty)
    }

    /// A name read clearly under its label but failing the validator leaves the region beside the
    /// label to be read; what is there is the next column's label, which the page's reading lost
    /// ("Sex"): a label is never a name (seen: given names "SEX" on a skewed card).
    @Test func aLabelBesideIsNoName() throws {
        let worker = try OCRWorker(orientation: false)
        let image = try Self.render([(72, 600, 12, "Surname"), (72, 584, 16, "OKAFOR"), (72, 560, 12, "Given names"), (72, 536, 16, "ADAEZE"),
                                     (180, 560, 12, "Sex"), (180, 536, 16, "F")], name: "sex-beside")
        let read = try Self.asID(worker, image)
        let label = try #require(read.words.first { $0.text == "Sex" })
        #expect(read.fields["given_names"]?.value == .text("ADAEZE"))
        // The reading less the label "Sex", with the name read clearly as no name.
        let words = read.words.filter { $0.text != "Sex" }.map { w -> Word in
            guard w.text == "ADAEZE" else { return w }
            var other = w
            other.text = "ADA3ZE"
            return other
        }
        #expect(words.count == read.words.count - 1)
        let found = try worker.valuesInEmptyRegions(Self.page(words, image), missing: ["given_names"], image: image, resolution: 300)
        #expect(found["given_names"] == nil)
        // The label itself reads as one wherever a name was expected; a name does not.
        let labelled = LabelledPage(lines: TextLine.group(words), kind: .id)
        #expect(labelled.readsAsLabel(label.text.uppercased(), for: "given_names", structured: true))
        #expect(!labelled.readsAsLabel("ADAEZE", for: "given_names", structured: true))
        #expect(!labelled.readsAsLabel("NO", for: "surname", structured: true))
    }

    /// A card read whole: the fields its reading found stand as they are.
    @Test func aCardReadWholeKeepsItsFields() throws {
        let worker = try OCRWorker(orientation: false)
        let page = try Self.asID(worker, try Self.card(nationality: "NLD", name: "page"))
        #expect(page.fields["surname"]?.value == .text("OKAFOR"))
        #expect(page.fields["nationality"]?.value == .text("NLD"))
        #expect(page.fields["document_number"]?.value == .text("K9767648"))
    }
}
