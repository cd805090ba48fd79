import Foundation
@testable import KordantOCR
import Testing

/// Values as Tesseract read them on pages of a fresh dev seed (dev 48, faxes 45–46, web 12):
/// a character lost or read as a look-alike, a value read apart, a label's colon read as a full
/// stop. Each is mended only where one reading is possible, and a guess goes to review.
@Suite struct ReadingSlipTests {
    /// A listing whose 7 was read as a slash ("…//6079"), one whose middle was lost ("…/malia-kal"
    /// then "i/11025" along the line) and one whose last step was read apart after a space.
    @Test func aListingWithAStepLostOrApart() {
        let slash = FieldExtractor.optout(WordPage(["Opt-out request", "Your name: Zsofia Kovacs",
                                                    "Listing URL: https://www.truthfinder.com/people/zsofia-kovacs//6079"]).lines)
        // (Its slash taken for the 7 since session 65: "…//1270" and "…//8543" were 71270 and 78543.)
        #expect(value(slash, "listing_url") == "https://www.truthfinder.com/people/zsofia-kovacs/76079" && slash["listing_url"]?.needsReview == true)
        #expect(!FieldExtractor.plausibleURL("https://www.truthfinder.com/people/zsofia-kovacs//6079"))
        #expect(FieldExtractor.plausibleURL("https://www.truthfinder.com/people/zsofia-kovacs/76079"))

        // (The fragment three letters' width along: no word between, so not joined.)
        var cut = WordPage(["Radaris Opt-Out Form", "Requestor Name: Malia Kahananui"])
        cut.line("Listing link: https://www.radaris.com/person/malia-kal", y: 150)
        cut.line("i/11025", x: 1180 + 65, y: 150, continues: true)
        let lost = FieldExtractor.optout(cut.lines)
        #expect(value(lost, "listing_url") == "https://www.radaris.com/person/malia-kal" && lost["listing_url"]?.needsReview == true, "\(lost)")

        var apart = WordPage()
        apart.line("To the Radaris privacy team,", y: 50)
        apart.line("My name is Sjoerd ter Horst and I was born on 5/1/1984.", y: 100)
        apart.line("Your site shows a profile about me at https: // www.radaris.com/person/sjoerd-ter-horst /92771.", y: 150)
        let f = FieldExtractor.optout(apart.lines)
        #expect(value(f, "listing_url") == "www.radaris.com/person/sjoerd-ter-horst/92771" && f["listing_url"]?.needsReview == true, "\(f)")
        // The particle "ter" is part of a name in a sentence.
        #expect(value(f, "full_name") == "Sjoerd ter Horst")

        // A sentence with the broker's name, its domain and five digits is no footer of the
        // broker's: its listing is the requester's.
        let sentence = FieldExtractor.optout(WordPage(["To the Radaris privacy team,",
                                                       "Your site shows a profile about me at www.radaris.com/person/sjoerd-ter-horst/92771."]).lines)
        #expect(value(sentence, "listing_url") == "www.radaris.com/person/sjoerd-ter-horst/92771", "\(sentence)")
        // A whole listing with another word after it stays as read and sure.
        let whole = FieldExtractor.optout(WordPage(["Opt-out request", "Your name: Ana Lima",
                                                    "Listing: https://www.spokeo.com/people/ana-lima/12345   Date: 2024-01-02"]).lines)
        #expect(value(whole, "listing_url") == "https://www.spokeo.com/people/ana-lima/12345" && whole["listing_url"]?.needsReview == false, "\(whole)")
    }

    /// Letters a speck made after an address's top-level domain are cut off, for review.
    @Test func aSpeckReadAfterAnAddress() {
        #expect(FieldExtractor.hostMended("kittisak47@mail.example.orgay") == "kittisak47@mail.example.org")
        #expect(FieldExtractor.hostMended("ana@comcast.net") == nil)
        #expect(FieldExtractor.hostMended("ana@example.community") == nil)
        let f = FieldExtractor.optout(WordPage(["Opt-out request", "Contact Email | kittisak47@mail.example.org ay"]).lines)
        #expect(value(f, "email") == "kittisak47@mail.example.org" && f["email"]?.needsReview == true)
    }

    /// A reference's letter prefix with a digit among its capitals is a letter misread: kept, for review.
    @Test func aReferencePrefixWithADigit() {
        let f = FieldExtractor.optout(WordPage(["Opt-out request", "Confirmation number: OP1-946791"]).lines)
        #expect(value(f, "request_id") == "OP1-946791" && f["request_id"]?.needsReview == true)
        let g = FieldExtractor.optout(WordPage(["Opt-out request", "Confirmation number: REQ-271094"]).lines)
        #expect(value(g, "request_id") == "REQ-271094" && g["request_id"]?.needsReview == false)
        // A number of a digit or two, in a reference or ending a listing, lost the rest.
        let h = FieldExtractor.optout(WordPage(["Opt-out request", "Request ID: CASE-9",
                                                "Listing URL: https://www.usphonebook.com/profile/jean-francois-du-pont/4"]).lines)
        #expect(value(h, "request_id") == "CASE-9" && h["request_id"]?.needsReview == true)
        #expect(value(h, "listing_url") == "https://www.usphonebook.com/profile/jean-francois-du-pont/4" && h["listing_url"]?.needsReview == true)
    }

    /// An address's city with a full stop before its comma ("Spokane., WA") drops the stop (not
    /// an abbreviation's: "St. Paul"); a unit's word in small letters ("unit 58") is a capital
    /// misread, in a value that may hold more of them: for review.
    @Test func addressMarksAndUnits() {
        #expect(FieldExtractor.fullAddress("3852 Magnolia Place, Spokane., WA 99201")?.string == "3852 Magnolia Place, Spokane, WA 99201")
        #expect(FieldExtractor.fullAddress("87 Juniper Road, St. Paul, MN 55102")?.string == "87 Juniper Road, St. Paul, MN 55102")
        let f = FieldExtractor.optout(WordPage(["Opt-out request", "Street address: 7430 Harbor Boulevard, unit 58"]).lines)
        #expect(value(f, "street_address") == "7430 Harbor Boulevard, unit 58" && f["street_address"]?.needsReview == true)
        let g = FieldExtractor.optout(WordPage(["Opt-out request", "Street address: 7430 Harbor Boulevard, Unit 5B"]).lines)
        #expect(value(g, "street_address") == "7430 Harbor Boulevard, Unit 5B" && g["street_address"]?.needsReview == false)
    }

    /// A deed's parties as a copy reads them: a first name in small letters (the rest is taken,
    /// for review), a closing quote read as a trade mark, the Dutch "'t" without its apostrophe,
    /// a second party's "and" read "ancl", and an amount's groups read apart beside a comma.
    @Test func deedPartiesAndAmountsMisread() {
        var a = WordPage()
        a.line("THIS DEED is made on 2017-10-22 by and between ifigo Garcia Marquez (hereinafter", y: 100)
        a.line("\"Grantor\") and CAGRI DOGAN (hereinafter \"Grantee™).", y: 140, continues: true)
        a.line("For a consideration of $1, 923,500.00, Grantor hereby grants to Grantee the real", y: 180, continues: true)
        let f = FieldExtractor.deed(a.lines)
        #expect(value(f, "grantor") == "Garcia Marquez" && f["grantor"]?.needsReview == true)
        #expect(value(f, "grantee") == "CAGRI DOGAN")
        #expect(value(f, "consideration") == "1923500.0" && f["consideration"]?.needsReview == true)

        // A parties table: headings, then each column's party, the second grantor on a line of its own.
        func parties(_ first: String, _ second: String) -> [String: Field] {
            var b = WordPage()
            b.line("WARRANTY DEED", y: 50)
            b.line("GRANTOR(S)   GRANTEE(S)", y: 100, height: 20)
            b.line(first, y: 130)
            b.line(second, y: 170)
            return FieldExtractor.deed(b.lines)
        }
        let g = parties("AYSE GUL GUNES   BRAM VAN T HOF", "ancl ZDENEK SIMUNKOVA")
        #expect(value(g, "grantor") == "AYSE GUL GUNES and ZDENEK SIMUNKOVA" && g["grantor"]?.needsReview == true)
        #expect(value(g, "grantee") == "BRAM VAN 'T HOF" && g["grantee"]?.needsReview == true)
        // Read as printed, the same parties are sure.
        let h = parties("AYSE GUL GUNES   LIV HAGELAND", "and ZDENEK SIMUNKOVA")
        #expect(value(h, "grantor") == "AYSE GUL GUNES and ZDENEK SIMUNKOVA" && h["grantor"]?.needsReview == false)
    }

    /// A letter's sender block with a long name, or with the name a letter off the labelled one,
    /// gives the requester's address.
    @Test func aSenderBlockWithALongOrMisreadName() {
        let f = FieldExtractor.optout(WordPage(["Aisha Bint Khalid Abu Bakr Al Siddiq", "4215 Birch Lane", "Omaha, NE 68102",
                                                "October 25, 2024", "To: Nuwber Privacy Team", "Dear Nuwber Privacy Team,",
                                                "Full Name: Aisha Bint Khalid Abu Bakr Al Siddig"]).lines)
        #expect(value(f, "street_address") == "4215 Birch Lane" && value(f, "city") == "Omaha")
        #expect(value(f, "state") == "NE" && value(f, "zip") == "68102")
        // Under "To:", the broker's own address is not the requester's.
        let g = FieldExtractor.optout(WordPage(["Ana Lima", "To: Nuwber Privacy Team", "Nuwber Data Services", "12 Main Street",
                                                "Austin, TX 78701", "Full Name: Ana Lima"]).lines)
        #expect(value(g, "street_address") == nil)
    }

    /// A label's colon read as a full stop after a whole word at the start of its line ("Home
    /// Address. 1311 Riverside Road" on a fax), a pair's dash glued to its value, a table's rule
    /// glued between a value and the next label.
    @Test func aColonReadAsAFullStop() {
        let f = FieldExtractor.optout(WordPage(["REMOVAL REQUEST — Acxiom", "Your Name: Loic Lefevre",
                                                "Home Address. 1311 Riverside Road", "Town: St. Paul State: Minnesota"]).lines)
        #expect(value(f, "street_address") == "1311 Riverside Road")
        // A pair's dash glued to its value ("Town -Tucson") parts the two as the others' dashes do.
        let g = FieldExtractor.optout(WordPage(["TruthFinder: Opt-Out", "Mailing Address - 1600 Oak Way",
                                                "Town -Tucson   State - AZ   ZIP Code - 85701"]).lines)
        #expect(value(g, "city") == "Tucson" && value(g, "state") == "AZ" && value(g, "zip") == "85701", "\(g)")
        // A table's rule glued between a value and the next label ("1997|}Instrument").
        let d = FieldExtractor.deed(WordPage(["WARRANTY DEED", "Filed for record |February 11, 1997|}Instrument Number | 1997-939734"]).lines)
        #expect(value(d, "instrument_number") == "1997-939734" && value(d, "recording_date") == "1997-02-11", "\(d)")
        #expect(PageLayout.splitAtRule(Word(text: "1997|}Instrument", confidence: 90, box: BoundingBox(x: 0, y: 0, width: 160, height: 20),
                                            block: 1, paragraph: 1, line: 1, word: 1)).map(\.text) == ["1997", "|", "Instrument"])
        #expect(PageLayout.splitAtRule(Word(text: "Place|", confidence: 90, box: BoundingBox(x: 0, y: 0, width: 60, height: 20),
                                            block: 1, paragraph: 1, line: 1, word: 1)).map(\.text) == ["Place|"])
    }

    /// An ID whose labels a fax lost: three capitals one look-alike from one country code are
    /// the nationality (for review), and no name; a licence has no nationality at all; a
    /// one-letter surname is not joined to the next line.
    @Test func identityValuesWithoutLabels() {
        var b = WordPage()
        b.line("REPUBLIC OF UTOPIA", y: 50)
        b.line("IDENTITY CARD", y: 90)
        b.line("DOGAN", x: 400, y: 200)
        b.line("IBRAHIM", x: 400, y: 250)
        b.line("NLO", x: 400, y: 350)
        b.line("12 JAN 1963", x: 400, y: 400)
        b.line("03 MAR 2036", x: 400, y: 450)
        let g = FieldExtractor.idVisual(b.lines)
        #expect(value(g, "nationality") == "NLD" && g["nationality"]?.needsReview == true)
        #expect(value(g, "surname") == "DOGAN" && value(g, "given_names") == "IBRAHIM")

        // A one-letter surname is no name alone, nor with the next line's misread label and name.
        let o = WordPage(["MINNESOTA", "DRIVER'S LICENSE", "DL 517575009", "LN O", "rn JIA HUI"])
        #expect(value(FieldExtractor.idVisual(o.lines), "surname") == nil)

        // A driving licence prints no nationality: its eye colour "GRN" (a look-alike of GBN,
        // British National (Overseas)) or "USA" in its title are none.
        for title in ["DRIVER LICENSE", "4d DLN M9393113"] {
            var c = WordPage()
            c.line("IDAHO", y: 50)
            c.line(title, y: 90)
            c.line("PAPADOPOULOU", x: 400, y: 200)
            c.line("USA", x: 400, y: 300)
            c.line("GRN", x: 900, y: 350)
            #expect(value(FieldExtractor.idVisual(c.lines), "nationality") == nil, "\(title)")
        }
    }
}
