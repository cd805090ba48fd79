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
        ("Al-Hashimi", "Al-Hashımı", nil), ("IBRAHIM", "İBRAHIM", nil), ("Smith", "Smyth", nil), ("Müller", "Muller", nil), ("Zsófia", "Zsofia", nil), ("Jifi", "Jiri", nil), ("Muller", "Muller", nil), ("Bo", "Bø Li", nil),
    ] as [(String, String, String?)])
    func onlyMarksForPlainLetters(_ english: String, _ latin: String, _ expected: String?) {
        #expect(NameDiacritics.mended(english, latin: latin) == expected)
    }

    /// Word by word: a word read clearly is taken though another was not ("Małgorzata" at 71
    /// beside "Żak" at 57); a word read poorly, a word count that differs or a letter changed
    /// for a plain one changes nothing.
    @Test func wordsReadClearlyAreTakenOneByOne() {
        #expect(NameDiacritics.wordwise("Matgorzata Zak", latin: [("Małgorzata", 71), ("Żak", 57)]) == "Małgorzata Zak")
        #expect(NameDiacritics.wordwise("BENOIT CE", latin: [("Benoît", 90), ("Œų", 24)]) == "BENOÎT CE")
        #expect(NameDiacritics.wordwise("Matgorzata Zak", latin: [("Małgorzata", 55), ("Żak", 57)]) == nil)
        #expect(NameDiacritics.wordwise("Matgorzata Zak", latin: [("Małgorzata Żak", 90)]) == nil)
        #expect(NameDiacritics.wordwise("Matgorzata Wojcik", latin: [("Matłgorzata", 62), ("Wójcik,", 90)]) == "Matgorzata Wójcik")
        #expect(NameDiacritics.wordwise("Smith Jones", latin: [("Smyth", 95), ("Jones", 95)]) == nil)
    }

    /// A mailbox or a listing's path takes the letters no accent comes off ("ł", "ß", "ø") that
    /// the requester's name is spelled with; never an accent, a letter the name lacks, a digit's
    /// change (but an "ß" read as "8"), or anything in the host.
    @Test(arguments: [
        ("matgorzata.zak@inbox.example.net", "małgorzata.zak@inbox.example.net", "Małgorzata Zak", "małgorzata.zak@inbox.example.net"),
        ("https://www.checkpeople.com/profile/matgorzata-zak/31088", "https://www.checkpeople.com/profile/małgorzata-zak/31088",
         "Małgorzata Żak", "https://www.checkpeople.com/profile/małgorzata-zak/31088"),
        ("jzimmermannstrau8@example.com", "jzimmermannstrauß@example.com", "Jürgen Zimmermann-Strauß", "jzimmermannstrauß@example.com"),
        ("https://www.spokeo.com/p/ute-weib/46776", "https://www.spokeo.com/p/ute-weiß/46776", "Ute Weiß", "https://www.spokeo.com/p/ute-weiß/46776"),
        // The name read without the letter, an accent, a digit, the host, punctuation: as read.
        ("matgorzata.zak@inbox.example.net", "małgorzata.zak@inbox.example.net", "Matgorzata Zak", nil),
        ("jose.garcia@example.com", "josé.garcía@example.com", "José García", nil),
        ("anna1@example.com", "annał@example.com", "Anna Łuk", nil),
        ("anna@examp1e.com", "anna@examplé.com", "Anna", nil),
        ("ann-a@example.com", "anna@example.com", "Anna", nil),
        ("matgorzata@inbox.example.net", "matgorzata@inbox.example.net", "Małgorzata", nil),
    ] as [(String, String, String, String?)])
    func anAddressTakesTheNamesLettersOnly(_ english: String, _ latin: String, _ name: String, _ expected: String?) {
        #expect(NameDiacritics.addressMended(english, latin: latin, name: name) == expected)
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
