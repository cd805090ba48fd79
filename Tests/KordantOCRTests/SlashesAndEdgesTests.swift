import Foundation
@testable import KordantOCR
import Testing

/// A fax's 7 read as a slash (its bar lost) where the value's shape says no slash belongs: a
/// ZIP after its state, a year, a reference, an instrument's number, a listing's record number, a
/// house number; and values that look whole but may not be: one ending at the page's right edge,
/// a mailbox ending in a top level reserved for examples, a card's name with a full stop for a
/// space, a value read from a region that cut into a glued word. Seen on the sets session 65 tuned
/// on (dev 180, faxes 181–184, identity pages 185–186, web 33, and session 64's).
@Suite struct SlashesAndEdgesTests {
    /// "Tucson AZ 85/01" under labels read past knowing: the ZIP the state agrees with, for review.
    /// A ZIP whose mended digits belong to another state is not taken.
    @Test func aZipsSevenReadAsASlash() {
        func fields(_ place: String) -> [String: Field] {
            FieldExtractor.optout(WordPage(["OPT-OUT REQUEST FORM — PeopleFinders", "Your Name",
                                            "Sione Kaahumanu", "lown ‘beates TUE ede", place,
                                            "Request Date   2024-03-11"]).lines)
        }
        let f = fields("Tucson AZ 85/01")
        #expect(f["zip"]?.value.string == "85701")
        #expect(f["zip"]?.needsReview == true)
        #expect(f["state"]?.value.string == "AZ")
        #expect(fields("Tucson AZ 15/01")["zip"] == nil)
    }

    /// A year with a slash for its 7 where the year stands alone: after a month's name, or leading
    /// its date. A slash between a date's numbers is a separator.
    @Test func aYearsSevenReadAsASlash() {
        #expect(FieldExtractor.mended("June 17,19/1", field: "date_of_birth").flatMap(FieldExtractor.isoDate)?.string == "1971-06-17")
        #expect(FieldExtractor.mended("October 20, 19/6", field: "date_of_birth").flatMap(FieldExtractor.isoDate)?.string == "1976-10-20")
        #expect(FieldExtractor.mended("19/8 04 09", field: "date_of_birth").flatMap(FieldExtractor.isoDate)?.string == "1978-04-09")
        // A numeric date's slashes stay separators ("12/19/1985" is December 19).
        #expect(FieldExtractor.mended("12/19/1985", field: "date_of_birth") == nil)
        #expect(FieldExtractor.isoDate("12/19/1985")?.string == "1985-12-19")
        let f = FieldExtractor.optout(WordPage(["DATA DELETION REQUEST — Spokeo", "Full Name: Bram van Hof",
                                                "Date of Birth: June 17,19/1", "Email: bram@example.com"]).lines)
        #expect(f["date_of_birth"]?.value.string == "1971-06-17")
        #expect(f["date_of_birth"]?.needsReview == true)
    }

    /// "Re: Opt-out request OPT-1958/8": the reference whole, not cut at the slash ("OPT-1958",
    /// sure, was wrong), for review; so too with the hyphen read as a space.
    @Test func aReferencesSevenReadAsASlash() {
        let f = FieldExtractor.optout(WordPage(["To: Spokeo Privacy Team", "Re: Opt-out request OPT-1958/8",
                                                "Dear Spokeo Privacy Team,"]).lines)
        #expect(f["request_id"]?.value.string == "OPT-195878")
        #expect(f["request_id"]?.needsReview == true)
        #expect(FieldExtractor.referenceMended("CASE 1164/7") == "CASE-116477")
        #expect(FieldExtractor.referenceMended("OPT-3/0/09") == "OPT-370709")
        #expect(FieldExtractor.referenceMended("REQ-411082") == nil)
    }

    /// An instrument's number with its 7 read as a slash after its year: mended, then joined.
    @Test func anInstrumentsSevenReadAsASlash() {
        #expect(FieldExtractor.mended("2005 /02325", field: "instrument_number") == "2005-702325")
    }

    /// A listing's record number with a slash for a 7 after its path word ("…/5/565",
    /// "…//1270"): one number. A number of its own before a slash, or a closing slash, stays.
    @Test func aListingsSevenReadAsASlash() {
        #expect(FieldExtractor.urlGlyphsMended("https://www.whitepages.com/p/fatima-zahra-al-hashimi/5/565")
            == "https://www.whitepages.com/p/fatima-zahra-al-hashimi/57565")
        #expect(FieldExtractor.urlGlyphsMended("https://www.spokeo.com/people/li-na-li//1270") == "https://www.spokeo.com/people/li-na-li/71270")
        #expect(FieldExtractor.urlGlyphsMended("https://www.example.com/p/jane-doe/2024/12345") == nil)
        #expect(FieldExtractor.urlGlyphsMended("https://www.spokeo.com/people/jane-doe/12345/") == nil)
    }

    /// A house number with a slash for its 7; a half after a house number is printed so.
    @Test func aHouseNumbersSevenReadAsASlash() {
        #expect(FieldExtractor.streetMended("9/16 Washington Way") == "9716 Washington Way")
        #expect(FieldExtractor.streetMended("3//0 Elm Way") == "3770 Elm Way")
        #expect(FieldExtractor.streetMended("12 1/2 Main Street") == nil)
        #expect(FieldExtractor.streetMended("1/2 Main Street") == nil)
        let f = FieldExtractor.optout(WordPage(["OPT-OUT REQUEST — Radaris", "Full Name   Yu Ng",
                                                "Street Address   9/16 Washington Way", "City   Boise"]).lines)
        #expect(f["street_address"]?.value.string == "9716 Washington Way")
        #expect(f["street_address"]?.needsReview == true)
    }

    /// A value whose box ends within 3 % of the image's right edge may run off the page: for
    /// review. One well inside stays sure.
    @Test func aValueAtThePagesRightEdge() {
        var fields: [String: Field] = [
            "request_id": Field(value: .text("CASE-181"), confidence: 90, box: BoundingBox(x: 1626, y: 425, width: 146, height: 22)),
            "phone": Field(value: .text("936-574-2710"), confidence: 90, box: BoundingBox(x: 900, y: 425, width: 300, height: 22)),
        ]
        FieldExtractor.atPageEdge(&fields, width: 1822)
        #expect(fields["request_id"]?.needsReview == true)
        #expect(fields["phone"]?.needsReview == false)
    }

    /// "…@inbox.example": a top level reserved for examples after a label of its own is a real
    /// one lost. Not sure; "…@inbox.example.net" is.
    @Test func aMailboxEndingInAReservedTopLevel() {
        func review(_ address: String) -> Bool? {
            FieldExtractor.review(["email": Field(value: .text(address), confidence: 90, box: nil)])["email"]?.needsReview
        }
        #expect(review("lakshminarasimhan78@inbox.example") == true)
        #expect(review("lakshminarasimhan78@inbox.example.net") == false)
        #expect(review("jane@example.com") == false)
    }

    /// A full stop read for the space between two words of a card's name: the space, not sure.
    /// An initial's full stop stays.
    @Test func aCardNamesFullStopForASpace() {
        let f = FieldExtractor.review(["surname": Field(value: .text("ABU.BAKR AL SIDDIQ"), confidence: 90, box: nil),
                                       "given_names": Field(value: .text("J. MARIE"), confidence: 90, box: nil)])
        #expect(f["surname"]?.value.string == "ABU BAKR AL SIDDIQ")
        #expect(f["surname"]?.needsReview == true)
        #expect(f["given_names"]?.value.string == "J. MARIE")
    }

    /// A value under the review confidence is not sure, however it was found; a valid zone's
    /// values are kept as its check digits vouch.
    @Test func aValueReadPoorlyIsNotSure() {
        var fields: [String: Field] = [
            "sex": Field(value: .text("F"), confidence: 59, box: nil),
            "surname": Field(value: .text("OKAFOR"), confidence: 72, box: nil),
            "phone": Field(value: .text("936-574-2710"), confidence: 91, box: nil),
        ]
        FieldExtractor.unsureUnderReviewConfidence(&fields, except: ["surname"])
        #expect(fields["sex"]?.needsReview == true)
        #expect(fields["surname"]?.needsReview == false)
        #expect(fields["phone"]?.needsReview == false)
        // Two readings that agree: sure by the second alone, at its confidence; in review in both,
        // at the first's (a listing's slug is then still spelled as the name read more surely).
        var agreed = TwoReadings.fields(["zip": Field(value: .text("59101"), confidence: 55, box: nil, needsReview: true),
                                         "state": Field(value: .text("MT"), confidence: 55, box: nil, needsReview: true)],
                                        ["zip": Field(value: .text("59101"), confidence: 88, box: nil),
                                         "state": Field(value: .text("MT"), confidence: 88, box: nil, needsReview: true)])
        FieldExtractor.unsureUnderReviewConfidence(&agreed, except: [])
        #expect(agreed["zip"]?.confidence == 88 && agreed["zip"]?.needsReview == false)
        #expect(agreed["state"]?.confidence == 55 && agreed["state"]?.needsReview == true)
    }

    /// A web form's hint under its label ("(MM/DD/YYYY)", "(OPTIONAL)") and its field's border read
    /// as specks ("oe", a sixth of a letter high) stand between the labels and the values: the
    /// values are under them. A number its box wrapped at a hyphen is one number, a date its box
    /// wrapped after the month one date. A short value read in the hint's place is still taken.
    @Test func aHintUnderALabel() {
        var p = WordPage()
        p.line("TruthFinder   Home Search Privacy Help", y: 20)
        p.line("Opt-Out Request Confirmation", y: 80)
        p.line("YOUR FULL NAME   DOB   ADDRESS LINE 1", y: 160)
        p.line(". oe", y: 215, height: 5, confidence: 40)
        p.line("(MM/DD/YYYY)", x: 800, y: 200)
        p.line("Aikaterini Papadopoulou   1 January   3097 Juniper Drive", y: 260)
        p.line("1940", x: 800, y: 300)
        p.line("E-MAIL   PHONE   LISTING LINK", y: 380)
        p.line("(OPTIONAL)", x: 800, y: 420)
        p.line("aikaterini80@example.com   613-260-   https://www.truthfinder.com/person/aikaterini-papadopoulou/53138", y: 480)
        p.line("1805", x: 800, y: 520)
        let f = FieldExtractor.optout(p.lines)
        #expect(f["full_name"]?.value.string == "Aikaterini Papadopoulou")
        #expect(f["date_of_birth"]?.value.string == "1940-01-01")
        #expect(f["phone"]?.value.string == "613-260-1805")
        #expect(f["street_address"]?.value.string == "3097 Juniper Drive")
        #expect(LabelledPage.isHint([Word(text: "(MM/DD/YYYY)", confidence: 90, box: BoundingBox(x: 0, y: 0, width: 200, height: 30),
                                            block: 1, paragraph: 1, line: 1, word: 1)], letterHeight: 30))
        #expect(!LabelledPage.isHint([Word(text: "M", confidence: 50, box: BoundingBox(x: 0, y: 0, width: 20, height: 30),
                                             block: 1, paragraph: 1, line: 1, word: 1)], letterHeight: 30))
    }

    /// A card's label read glued to its value ("No.:D7725228" as one poor word): the value read
    /// from the region after the label's share of the word may have lost its first letter, so it
    /// goes to review; read after a label of its own, it need not.
    @Test func aValueReadFromARegionThatCutAGluedWord() throws {
        let worker = try OCRWorker(orientation: false)
        let image = try LabelRegionTests.render([(72, 600, 14, "Surname: OKAFOR"), (72, 570, 14, "Document No.: D7725228"),
                                                 (72, 540, 14, "Nationality: NLD")], name: "glued")
        let read = try LabelRegionTests.asID(worker, image)
        let no = try #require(read.words.firstIndex { $0.text.hasPrefix("No") })
        let value = try #require(read.words.firstIndex { $0.text.contains("7725228") })
        #expect(value == no + 1)
        // The label's last word and the value read as one poor word.
        var glued = read.words
        glued[no].text = "No.:1)7725228"
        glued[no].box = glued[no].box.union(glued[value].box)
        glued[no].confidence = 8
        glued.remove(at: value)
        let found = try worker.valuesInEmptyRegions(LabelRegionTests.page(glued, image), missing: ["document_number"], image: image, resolution: 300)
        let cut = try #require(found["document_number"])
        #expect(cut.needsReview)
        // The value alone read poorly, after its label: read again, and sure when read well.
        var poor = read.words
        poor[value].text = "1)7725228"
        poor[value].confidence = 8
        let again = try worker.valuesInEmptyRegions(LabelRegionTests.page(poor, image), missing: ["document_number"], image: image, resolution: 300)
        #expect(again["document_number"]?.value.string == "D7725228")
        #expect(again["document_number"]?.needsReview == false)
    }
}
