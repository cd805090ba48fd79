@testable import KordantOCR
import Testing

/// Values a fax of a light face misread where its thin strokes fell between the fax's rows, read
/// back for review: a Z whose foot was lost read as 7, a 2 as "?", a 1 or an l as "!", a 7 read
/// twice; a month's m read as "rn"; and values cut short or garbled at their edges.
@Suite struct FaxFeetTests {
    /// A name opening with a 7 before small letters is a Z; its e-mail and listing agree with it.
    @Test func aZReadAsSeven() {
        let f = FieldExtractor.optout(WordPage(["Spokeo LLC", "Consumer Opt-Out Form", "Name of Requester: 7denek Dvorak",
                                                "Email Address: zdenek87@example.com"]).lines)
        #expect(value(f, "full_name") == "Zdenek Dvorak" && f["full_name"]?.needsReview == true, "\(String(describing: f["full_name"]))")
        // Its mailbox and listing read with the same 7 take the name's letter, even where the
        // name was read too poorly to spell them otherwise; the digits after a word stay.
        #expect(FieldExtractor.digitsOfName("7denek87@example.com", name: "Zdenék Dvořák") == "zdenek87@example.com")
        #expect(FieldExtractor.digitsOfName("https://www.spokeo.com/profile/7denek-dvorak/51506", name: "Zdenék Dvořák")
                == "https://www.spokeo.com/profile/zdenek-dvorak/51506")
        #expect(FieldExtractor.digitsOfName("https://www.spokeo.com/profile/zdenek-dvorak/51506", name: "Zdenék Dvořák") == nil)
        #expect(FieldExtractor.digitsOfName("ana1990@example.com", name: "Ana Lima") == nil)
        // Not in a name in capitals: which letter a 7 before capitals is, is not known.
        #expect(FieldExtractor.lettersMended("7DENEK DVORAK")?.hasPrefix("Z") != true)
    }

    /// A name's last word read small after capitalised ones is capitalised; a particle is not,
    /// nor a small l (a capital I). The extractor leaves such a name to the Latin model's reading
    /// (an Ł is read as t too: "Anna tukaszewicz", `NameDiacriticsTests`), and takes this only
    /// when that does not read it.
    @Test func aLastWordReadSmall() {
        #expect(FieldExtractor.lastWordCapitalised("Thi Minh Khai tran") == "Thi Minh Khai Tran")
        #expect(FieldExtractor.lastWordCapitalised("Ludwig van") == nil)
        #expect(FieldExtractor.lastWordCapitalised("Ravi lyer") == nil)
        #expect(FieldExtractor.lastWordCapitalised("thi minh") == nil)
        let f = FieldExtractor.optout(WordPage(["Opt-Out Form", "Name of Requester: Thi Minh Khai tran", "Phone: 614.382.7736"]).lines)
        #expect(f["full_name"] == nil)
    }

    /// Read again with the Latin model (a real Tesseract call on a shadowed name's strip), a
    /// reading that is not English's with marks leaves English's with its last word capitalised,
    /// for review.
    @Test func aLastWordReadSmallAfterTheLatinModel() throws {
        // (English's words as a fax of another name would give them; the strip reads "Bożena Anna Łukaszewicz".)
        let (image, page) = try NameDiacriticsTests.shadowedNameStrip(["Thi", "Minh", "tran"])
        let worker = try OCRWorker(orientation: false)
        let found = try worker.rejectedNamesWithDiacritics(page, kind: .optout, fields: [:], image: image, resolution: 300)
        let name = try #require(found["full_name"], "\(found)")
        #expect(name.value == .text("Thi Minh Tran") && name.needsReview)
    }

    /// "?" after a digit is a 2 and "!" a 1, in dates, references and house numbers.
    @Test func aFootLostAfterADigit() {
        #expect(FieldExtractor.mended("2002 12 1?", field: "date_of_birth").flatMap { FieldExtractor.isoDate($0)?.string } == "2002-12-12")
        #expect(FieldExtractor.mended("2! April 1997", field: "date_of_birth").flatMap { FieldExtractor.isoDate($0)?.string } == "1997-04-21")
        #expect(FieldExtractor.mended("OPT-71274?", field: "request_id") == "OPT-712742")
        #expect(FieldExtractor.mended("CASE -46/004", field: "request_id").flatMap { FieldExtractor.reference($0)?.string } == "CASE-467004")
        #expect(FieldExtractor.streetMended("356? Harbor Drive, Unit 1¢C") == "3562 Harbor Drive, Unit 1C")
        #expect(FieldExtractor.streetMended("12 Elm Street, Apt 4¢") == "12 Elm Street, Apt 4C")
        // A question after a number in prose is not a value's: only a date's or a number's words are mended.
        #expect(FieldExtractor.mended("Is it 12?", field: "full_name") == nil)
    }

    /// A month's last l read as "!" and its m as "rn"; a comma read as a semicolon.
    @Test func aMonthMisread() {
        #expect(FieldExtractor.mended("13 Apri! 2024", field: "date").flatMap { FieldExtractor.isoDate($0)?.string } == "2024-04-13")
        #expect(FieldExtractor.mended("Decernber 15, 2003", field: "date_of_birth").flatMap { FieldExtractor.isoDate($0)?.string } == "2003-12-15")
        #expect(FieldExtractor.isoDate("November 5; 1988")?.string == "1988-11-05")
        // (Only names of five letters or more: "Jun!" stays as read.)
        #expect(FieldExtractor.monthMended("Jun! 3") == nil)
    }

    /// A ZIP with its 7 read twice ("837/02") is five digits; a slash beside another digit is a 7
    /// of its own.
    @Test func aSevenReadTwice() {
        #expect(FieldExtractor.mended("837/02", field: "zip") == "83702")
        // (A slash beside another digit is a 7 of its own, as before: six digits, no ZIP.)
        #expect(FieldExtractor.mended("8370/2", field: "zip") == "837072")
    }

    /// A consideration read without its dollar sign may hold the sign as a digit (a fax's "$"
    /// read as 4): for review; one printed with it is not.
    @Test func anAmountWithoutItsSign() {
        let read = FieldExtractor.deed(WordPage(["QUITCLAIM DEED", "APN: 15-6337-650-48   Total Consideration: 42,374,000.00",
                                                 "Grantor: Thi Minh Khai Nguyen", "Grantee: Priya Venkataraghavan"]).lines)
        #expect(read["consideration"]?.value == .number(42374000) && read["consideration"]?.needsReview == true,
                "\(String(describing: read["consideration"]))")
        let printed = FieldExtractor.deed(WordPage(["QUITCLAIM DEED", "APN: 15-6337-650-48   Total Consideration: $2,374,000.00",
                                                    "Grantor: Thi Minh Khai Nguyen", "Grantee: Priya Venkataraghavan"]).lines)
        #expect(printed["consideration"]?.value == .number(2374000) && printed["consideration"]?.needsReview == false,
                "\(String(describing: printed["consideration"]))")
    }

    /// A listing's address with a host label ending in a hyphen, or cut after its path word, goes
    /// to review; a name whose last word the slug continues is taken whole from it.
    @Test func addressesCutShort() {
        #expect(!FieldExtractor.plausibleDomain("www-.spokeo.com"))
        #expect(FieldExtractor.hostMended("https://www-.spokeo.com/listing") == "https://www.spokeo.com/listing")
        let cut = FieldExtractor.optout(WordPage(["Opt-Out Request", "Listing URL: https://www.spokeo.com/listing"]).lines)
        #expect(cut["listing_url"]?.needsReview == true, "\(String(describing: cut["listing_url"]))")
        #expect(FieldExtractor.nameCutShort("Venkata Satya Sai Subrahmanyam Venkataragh",
                                            path: ["p", "venkata", "satya", "sai", "subrahmanyam", "venkataraghavan"])
                == "Venkata Satya Sai Subrahmanyam Venkataraghavan")
        // A whole word of the slug, or one a letter longer, or two that would do: no change.
        #expect(FieldExtractor.nameCutShort("Ana Santos", path: ["ana", "santos"]) == nil)
        #expect(FieldExtractor.nameCutShort("Ana Santo", path: ["ana", "santos"]) == nil)
        #expect(FieldExtractor.nameCutShort("Ana Mart", path: ["ana", "martinez", "martins"]) == nil)
        let f = FieldExtractor.optout(WordPage(["OPT-OUT REQUEST FORM — Radaris", "Name of Requester",
                                                "Venkata Satya Sai Subrahmanyam Venkataragh",
                                                "URL of Listing",
                                                "https://www.radaris.com/p/venkata-satya-sai-subrahmanyam-venkataraghavan/91338"]).lines)
        #expect(value(f, "full_name") == "Venkata Satya Sai Subrahmanyam Venkataraghavan" && f["full_name"]?.needsReview == true,
                "\(String(describing: f["full_name"]))")
    }
}
