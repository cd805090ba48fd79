@preconcurrency import CTesseract
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
        // An ß, which English lacks, read as one or two marks of its shape, or lost at a word's end.
        ("Gisela Weif&", "Gisela Weiß", "Gisela Weiß"), ("Anna-Lena Grof-Oztiirk", "Anna-Lena Groß-Öztürk", "Anna-Lena Groß-Öztürk"),
        ("Hans Peter Weil", "Hans Peter Weiß", "Hans Peter Weiß"), ("Björn Wei", "Björn Weiß", "Björn Weiß"),
        ("Karl Müller and Gisela WeifS", "Karl Müller and Gisela Weiß", "Karl Müller and Gisela Weiß"),
        // But not an ß put where English read nothing inside a word, nor one for three marks.
        ("Fisher", "Fißcher", nil), ("Wolff", "Woß", nil),
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

    /// "Name of Requester: Bozena Anna tukaszewicz" (a shadowed letter): English reads the Ł as a
    /// small t, and no name takes a word so; read with the Latin model the words are the name,
    /// taken for review. Where the Latin reading changes more than marks, nothing is taken.
    /// The strip "Name of Requester: Bożena Anna Łukaszewicz" (shadowed), in grey, and a page of
    /// English's words over it: the label's as read, then the three given (at the name's boxes).
    static func shadowedNameStrip(_ name: [String]) throws -> (image: LeptImage, page: PageText) {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path
        let loaded = try ImageLoader.load(path: root + "/Tests/Fixtures/ocr-fallback/s130-dev-040-requester-name-shadow.png")[0]
        let image = LeptImage(try #require(pixConvertTo8(loaded.pix, 0)))
        func word(_ text: String, _ x: Int, _ y: Int, _ w: Int, _ h: Int, _ n: Int) -> Word {
            Word(text: text, confidence: 92, box: BoundingBox(x: x, y: y, width: w, height: h), block: 1, paragraph: 1, line: 1, word: n)
        }
        let words = [word("Name", 13, 18, 108, 38, 1), word("of", 134, 17, 37, 39, 2), word("Requester:", 183, 21, 195, 49, 3),
                     word(name[0], 393, 26, 132, 39, 4), word(name[1], 539, 29, 92, 38, 5), word(name[2], 645, 29, 235, 43, 6)]
        let page = PageText(text: words.map(\.text).joined(separator: " "), meanConfidence: 92, words: words, width: 900, height: 90,
                            hocr: nil, tsv: nil, alto: nil)
        return (image, page)
    }

    @Test func aNameEnglishCouldNotReadIsReadWithTheLatinModel() throws {
        let (image, page) = try Self.shadowedNameStrip(["Bozena", "Anna", "tukaszewicz"])
        let words = page.words
        #expect(FieldExtractor.optout(TextLine.group(words))["full_name"] == nil)
        let worker = try OCRWorker(orientation: false)
        let found = try worker.rejectedNamesWithDiacritics(page, kind: .optout, fields: [:], image: image, resolution: 300)
        let name = try #require(found["full_name"], "\(found)")
        #expect(name.value == .text("Bożena Anna Łukaszewicz"))
        #expect(name.needsReview && name.confidence >= 60)
        // A name the page gave is not read again.
        let given = Field(value: .text("Bozena Anna Lukaszewicz"), confidence: 90, box: nil)
        #expect(try worker.rejectedNamesWithDiacritics(page, kind: .optout, fields: ["full_name": given], image: image, resolution: 300).isEmpty)
    }

    /// A word read alone clearly in Cyrillic replaces English's Latin look-alikes, in the name's
    /// case; Cyrillic letters that are Latin capitals' twins only ("НОМЕ"), a word read poorly,
    /// or a word with marks that are no letters change nothing.
    @Test func aCyrillicWordReadClearlyReplacesItsLookAlikes() {
        #expect(CyrillicNames.mended("AH Kowalska-Kwiatkowska", rereads: [0: ("Ян", 95)]) == "Ян Kowalska-Kwiatkowska")
        #expect(CyrillicNames.mended("SH Ivanova", rereads: [0: ("ян.", 88)]) == "Ян Ivanova")
        #expect(CyrillicNames.mended("AH Łukaszewicz", rereads: [0: ("Ян", 90), 1: ("Lukaszewicz", 70)]) == "Ян Łukaszewicz")
        #expect(CyrillicNames.mended("AH", rereads: [0: ("Ян", 90)]) == "ЯН")
        #expect(CyrillicNames.mended("HOME SMITH", rereads: [0: ("НОМЕ", 95)]) == nil)
        #expect(CyrillicNames.mended("Wei Li", rereads: [0: ("ме", 90)]) == nil)
        #expect(CyrillicNames.mended("AH Kowalska", rereads: [0: ("Ян", 60)]) == nil)
        #expect(CyrillicNames.mended("A.H Kowalska", rereads: [0: ("Ян", 90)]) == nil)
        #expect(CyrillicNames.mended("AH Kowalska", rereads: [0: ("AH", 90)]) == nil)
        #expect(CyrillicNames.mended("AH Kowalska", rereads: [:]) == nil)
        #expect(CyrillicNames.isCyrillic("Ян") && !CyrillicNames.isCyrillic("НОМЕ") && !CyrillicNames.isCyrillic("AH"))
        // A mailbox and a path take the owner's Cyrillic letters as they take marks.
        #expect(NameDiacritics.addressMended("https://www.whitepages.com/p/sh-kowalska-kwiatkowska/71778",
                                             latin: "https://www.whitepages.com/p/ян-kowalska-kwiatkowska/71778", name: "Ян Kowalska-Kwiatkowska")
                == "https://www.whitepages.com/p/ян-kowalska-kwiatkowska/71778")
        #expect(NameDiacritics.addressMended("skowalskakwiatkowska@inbox.example.net", latin: "яkowalskakwiatkowska@inbox.example.net",
                                             name: "Ян Kowalska-Kwiatkowska") == "яkowalskakwiatkowska@inbox.example.net")
    }

    /// "Ян Kowalska-Kwiatkowska" on a faxed form, read "AH …" by English (69): its first word
    /// read again alone with English and Cyrillic together, the name is as printed, for review.
    @Test func aFaxedCyrillicNameIsReadWithTheCyrillicScript() throws {
        let worker = try OCRWorker(orientation: false)
        guard worker.cyrillic != nil else { return }  // tesseract-ocr-script-cyrl not installed
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path
        let loaded = try ImageLoader.load(path: root + "/Tests/Fixtures/ocr-fallback/s130-dev-015-requester-name-fax.png")[0]
        let image = LeptImage(try #require(pixConvertTo8(loaded.pix, 0)))
        let box = BoundingBox(x: 10, y: 10, width: image.width - 20, height: image.height - 20)
        let words = [Word(text: "AH", confidence: 69, box: BoundingBox(x: 11, y: 14, width: 38, height: 25), block: 1, paragraph: 1, line: 1, word: 1),
                     Word(text: "Kowalska-Kwiatkowska", confidence: 92, box: BoundingBox(x: 62, y: 11, width: 352, height: 30), block: 1, paragraph: 1, line: 1, word: 2)]
        let fields = ["full_name": Field(value: .text("AH Kowalska-Kwiatkowska"), confidence: 80, box: box)]
        let out = try worker.withDiacritics(fields, words: words, image: image, resolution: 204)
        #expect(out["full_name"]?.value == .text("Ян Kowalska-Kwiatkowska"))
        #expect(out["full_name"]?.needsReview == true)
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
