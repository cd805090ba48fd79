import Foundation
@testable import KordantOCR
import KordantTestSupport
import Testing

/// Names with diacritics: the English model reads "Müller" as "Muller" or "Miiller" and has no
/// `ø`; each name's box is read again with the Latin-script model, whose reading is taken only
/// where it puts letters with diacritics in place of plain ones.
@Suite struct NameDiacriticsTests {
    @Test(arguments: [
        ("Anna-Lena Miller", "Anna-Lena Müller", "Anna-Lena Müller"), ("Jiirgen", "Jürgen", "Jürgen"), ("Pefia", "Peña", "Peña"),
        ("Signe Ba", "Signe Bø", "Signe Bø"), ("AEVAR POR", "ÆVAR ÞOR", "ÆVAR ÞOR"), ("NF BHRIAIN", "NÍ BHRIAIN", "NÍ BHRIAIN"),
        // English's own mark a guess for one it lacks, and marks side by side.
        ("Zséfia Kovacs", "Zsófia Kovács", "Zsófia Kovács"), ("Odén", "Ödön", "Ödön"), ("Jifi", "Jiří", "Jiří"),
        ("Begofia de la Cruz Nufiez", "Begoña de la Cruz Núñez", "Begoña de la Cruz Núñez"),
        // Marks added where English read a letter whole, a letter lost, a letter changed for
        // another plain one, a mark dropped, nothing changed: English's reading stays.
        ("ANNA", "ĄANNA", nil), ("IBRAHIM", "İÎBRAHIM", nil), ("REKA", "ÉKA", nil), ("EZE", "EZEẸ", nil),
        ("Smith", "Smyth", nil), ("Müller", "Muller", nil), ("Zsófia", "Zsofia", nil), ("Jifi", "Jiri", nil), ("Muller", "Muller", nil), ("Bo", "Bø Li", nil),
    ] as [(String, String, String?)])
    func onlyMarksForPlainLetters(_ english: String, _ latin: String, _ expected: String?) {
        #expect(NameDiacritics.mended(english, latin: latin) == expected)
    }

    static var tessdata: URL {
        get throws {
            let handle = try TesseractHandle(language: "eng")
            return URL(fileURLWithPath: handle.datapath)
        }
    }

    /// The container rewritten with nothing dropped is the file itself; without the Latin word
    /// list it is under a megabyte and loads.
    @Test func trainedDataRewritten() throws {
        let eng = try Self.tessdata.appendingPathComponent("eng.traineddata")
        #expect(TrainedData.load(path: eng.path, dropping: []) == (try Data(contentsOf: eng)))
        let latin = try Self.tessdata.appendingPathComponent("Latin.traineddata").path
        let small = try #require(TrainedData.load(path: latin, dropping: [TrainedData.lstmWordList]))
        #expect(small.count < 1_000_000)
        _ = try TesseractHandle(data: small, language: "Latin")
        #expect(TrainedData.load(path: "/dev/null", dropping: []) == nil)
        #expect(TrainedData.load(path: eng.deletingLastPathComponent().appendingPathComponent("no-such.traineddata").path, dropping: []) == nil)
    }

    static func deed(_ grantor: String, _ grantee: String) throws -> LeptImage {
        let data = PDFBuilder.pdf([PDFBuilder.Page(text: "WARRANTY DEED", placed: [
            (72, 600, 16, "Grantor: \(grantor)"), (72, 560, 16, "Grantee: \(grantee)"), (72, 520, 16, "County: Travis"),
        ])])
        let path = TestScratch.directory.appendingPathComponent("kordant-names-\(getpid())-\(grantor.hashValue).pdf").path
        try data.write(to: URL(fileURLWithPath: path))
        return try PDFDocument(path: path).render(page: 0, dpi: 300)
    }

    /// On a page rendered by poppler and read by real Tesseract: the names come out as printed,
    /// with their marks, and a name printed without marks keeps none.
    @Test func namesAsPrinted() throws {
        let worker = try OCRWorker(orientation: false)
        var options = OCROptions()
        options.kind = .deed
        let marked = try worker.process(image: try Self.deed("Anna-Lena Müller", "Signe Bø"), options: options)
        #expect(marked.fields["grantor"]?.value.string == "Anna-Lena Müller")
        #expect(marked.fields["grantee"]?.value.string == "Signe Bø")
        let plain = try worker.process(image: try Self.deed("Anna-Lena Muller", "Signe Bo"), options: options)
        #expect(plain.fields["grantor"]?.value.string == "Anna-Lena Muller")
        #expect(plain.fields["grantee"]?.value.string == "Signe Bo")
    }
}
