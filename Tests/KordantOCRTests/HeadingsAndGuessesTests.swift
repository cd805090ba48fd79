import Foundation
@testable import KordantOCR
import Testing

/// A table's heading standing two lines over its column, a rule read with a slash, a street's
/// type read as its label again, a speck after a city, a street line without its type, a card
/// whose labels a photocopy lost, values taken only once mended, names, document, instrument and
/// reference numbers read with a mark too many or a letter for a digit, and values wrapped onto
/// the next line: seen on the sets session 64 tuned on (dev 164 and 171, faxes 167–175, identity
/// pages 165–179, web 32).
@Suite struct HeadingsAndGuessesTests {
    /// "TRANSFEROR ‖ TRANSFEREE" with the parties' names 2.3 lines below: the names are the
    /// columns' values. Much further down they are not.
    @Test func aPartyHeadingTwoLinesOverItsName() {
        func deed(namesAt y: Int) -> [String: Field] {
            var p = WordPage()
            p.line("QUITCLAIM DEED", y: 20)
            p.line("TRANSFEROR   TRANSFEREE", y: 100)
            p.line("Conceicao Araujo   Keoni Kahananui", y: y)
            p.line("Recording Date   2006-11-19", y: y + 100)
            p.line("County   Multnomah", y: y + 150)
            return FieldExtractor.deed(p.lines)
        }
        let near = deed(namesAt: 200)
        #expect(near["grantor"]?.value.string == "Conceicao Araujo")
        #expect(near["grantee"]?.value.string == "Keoni Kahananui")
        #expect(near["recording_date"]?.value.string == "2006-11-19")
        let far = deed(namesAt: 260)
        #expect(far["grantor"] == nil && far["grantee"] == nil)
    }

    /// A cell's rule read glued to its label with a slash beside it ("Address/|6368"): the label,
    /// the rule and the value apart.
    @Test func aRuleReadWithASlash() {
        let words = PageLayout.splitAtRule(Word(text: "Address/|6368", confidence: 90, box: BoundingBox(x: 0, y: 0, width: 260, height: 30),
                                                block: 1, paragraph: 1, line: 1, word: 1))
        #expect(words.map(\.text) == ["Address", "|", "6368"])
        let f = FieldExtractor.deed(WordPage(["WARRANTY DEED", "County   Ada", "State   Idaho",
                                              "Property Address/|6368 Hillcrest Lane, Boise, ID 83702"]).lines)
        #expect(f["property_address"]?.value.string == "6368 Hillcrest Lane, Boise, ID 83702")
        // A slash alone is no rule: "and/or" stays one word.
        #expect(PageLayout.splitAtRule(Word(text: "and/or", confidence: 90, box: BoundingBox(x: 0, y: 0, width: 120, height: 30),
                                            block: 1, paragraph: 1, line: 1, word: 1)).count == 1)
    }

    /// "Street Address | 3379 Hillcrest Street | City Burlington": the street's type is no label of
    /// its own field after the value; the street keeps it and the city is still found.
    @Test func aStreetsTypeReadAsItsLabel() {
        let f = FieldExtractor.optout(WordPage(["Do Not Sell Request — CheckPeople",
                                                "Street Address | 3379 Hillcrest Street | City   Burlington",
                                                "State   VT   Postal Code | 05401"]).lines)
        #expect(f["street_address"]?.value.string == "3379 Hillcrest Street")
        #expect(f["street_address"]?.needsReview == false)
        #expect(f["city"]?.value.string == "Burlington")
    }

    /// A speck after a city read as a closing quote is no part of it; a quote inside one still
    /// fails it.
    @Test func aQuoteAfterACity() {
        #expect(FieldExtractor.place("Anchorage’")?.string == "Anchorage")
        #expect(FieldExtractor.place("Coeur d'Alene")?.string == "Coeur d'Alene")
        #expect(FieldExtractor.place("Anch’orage") == nil)
    }

    /// A street line ends in its type, in full or short, before its unit and after-directions; one
    /// without ("3379 Hillcrest", its type lost) is for review.
    @Test func aStreetWithoutItsTypeIsForReview() {
        for typed in ["3379 Hillcrest Street", "12 Oak St.", "5141 Park Road, Apt 20", "9 Main Street NW", "77 Elm Ave #4", "1 Route 9"] {
            #expect(FieldExtractor.streetTyped(typed), "\(typed)")
        }
        #expect(!FieldExtractor.streetTyped("3379 Hillcrest"))
        #expect(!FieldExtractor.streetTyped("3379 Hillcrest, Apt 5"))
        let f = FieldExtractor.review(["street_address": ImpossibleValuesTests.field("3379 Hillcrest")])
        #expect(f["street_address"]?.value.string == "3379 Hillcrest" && f["street_address"]?.needsReview == true)
        #expect(FieldExtractor.review(["street_address": ImpossibleValuesTests.field("3379 Hillcrest Street")])["street_address"]?.needsReview == false)
    }

    /// A stacked card whose labels a photocopy lost and whose title was read two letters off
    /// ("WENTITY CARD"): a sex and a country code each on a line of their own, with two dates as
    /// a card prints them, tell an identity page. A sex letter alone, or a code alone, does not.
    @Test func aCardWithItsLabelsLost() {
        let card = "CANADA\nWENTITY CARD\n\nVAN DER BERG\nILSE\nCAN\n\n24 JUL 1997\nF\nX6596021\n\n13 June 2029\n"
        #expect(FieldExtractor.detectKind(card) == .id)
        #expect(FieldExtractor.detectKind(card.replacingOccurrences(of: "\nF\n", with: "\n")) == .unknown)
        #expect(FieldExtractor.detectKind(card.replacingOccurrences(of: "\nCAN\n", with: "\n")) == .unknown)
        // A receipt's lone letters are no card.
        #expect(FieldExtractor.detectKind("TESCO\nMILK 2.50\nF\nTOTAL 2.50\n12 JUN 2024\n") == .unknown)
    }

    /// A value of strict shape taken only once mended ("17/07" for a ZIP) is recorded with its
    /// words, to be read again on its own; one read clearly is not; one that failed is rejected.
    @Test func aMendedValueIsRecordedForAnotherReading() {
        let mended = FieldExtractor.rejectedValues(WordPage(["Opt-Out Request", "Full Name: Sione Kahananui", "ZIP Code: 17/07",
                                                             "Phone: 518-555-0142"]).lines, kind: .optout)
        #expect(mended.mended["zip"]?.map(\.text) == ["17/07"])
        #expect(mended.mended["phone"] == nil && mended.rejected.isEmpty)
        let failed = FieldExtractor.rejectedValues(WordPage(["Opt-Out Request", "Full Name: Sione Kahananui", "ZIP Code: 1?2#"]).lines,
                                                   kind: .optout)
        #expect(failed.rejected["zip"] != nil && failed.mended.isEmpty)
    }
}

extension HeadingsAndGuessesTests {
    /// A reference's number with one look-alike letter among its digits is mended, for review;
    /// one with two letters, or a prefix alone of letters, is as read.
    @Test func aReferenceWithALetterAmongItsDigits() {
        let f = FieldExtractor.review(["request_id": ImpossibleValuesTests.field("PR-G25035")])
        #expect(f["request_id"]?.value.string == "PR-625035" && f["request_id"]?.needsReview == true)
        #expect(FieldExtractor.review(["request_id": ImpossibleValuesTests.field("REQ-893355")])["request_id"]?.needsReview == false)
        #expect(FieldExtractor.review(["request_id": ImpossibleValuesTests.field("AB-12C4D5")])["request_id"]?.value.string == "AB-12C4D5")
        #expect(FieldExtractor.review(["request_id": ImpossibleValuesTests.field("AB-12K45")])["request_id"]?.value.string == "AB-12K45")
    }
}

extension HeadingsAndGuessesTests {
    /// A double name's hyphen read as two dashes, or as a long one, is one hyphen, for review.
    @Test func aNamesHyphenReadAsTwoDashes() {
        #expect(FieldExtractor.mended("ABD AL—-RAHMAN", field: "surname") == "ABD AL-RAHMAN")
        #expect(FieldExtractor.mended("KOWALSKA-—KWIATKOWSKA", field: "surname") == "KOWALSKA-KWIATKOWSKA")
        #expect(FieldExtractor.mended("Anne–Marie Lefèvre", field: "full_name") == "Anne-Marie Lefèvre")
        #expect(FieldExtractor.mended("ABD AL-RAHMAN", field: "surname") == nil)
        var p = WordPage(card: [("Family name:", "ABD AL—-RAHMAN"), ("Forenames:", "OMAR")])
        p.line("RESIDENCE PERMIT", y: 400)
        let f = FieldExtractor.idVisual(p.lines)
        #expect(f["surname"]?.value.string == "ABD AL-RAHMAN" && f["surname"]?.needsReview == true)
        #expect(f["given_names"]?.value.string == "OMAR")
    }
}

extension HeadingsAndGuessesTests {
    /// A licence whose number was read with a mark before it: an S read as a dollar sign before
    /// hyphenated groups, a C read twice (the first time as a euro sign). The name under it, led
    /// by its field number, is never the number.
    @Test func aLicenceNumberWithAMarkBeforeIt() {
        #expect(FieldExtractor.mended("$881-5415-8130", field: "document_number") == "S881-5415-8130")
        #expect(FieldExtractor.documentNumber("S881-5415-8130")?.string == "S88154158130")
        #expect(FieldExtractor.mended("€C5953921", field: "document_number") == "C5953921")
        #expect(FieldExtractor.documentNumber("1 BLOGGS") == nil && FieldExtractor.documentNumber("21ISOLDE") == nil)
        #expect(FieldExtractor.documentNumber("X4RTBPFW4")?.string == "X4RTBPFW4")
        let f = FieldExtractor.idVisual(WordPage(["LOUISIANA", "DRIVER LICENSE", "4a ISS 12/12/2030 15 SEX M", "4d DLN €C5953921",
                                                  "1 BLOGGS", "2 ISOLDE"]).lines)
        #expect(f["document_number"]?.value.string == "C5953921" && f["document_number"]?.needsReview == true)
    }
}

extension HeadingsAndGuessesTests {
    /// Running text that wrapped a date after its day ("Date of birth: 20" over "October 1992"),
    /// and a listing's address after a hyphen whose box a slanted page made three lines tall:
    /// the rest of each opens the next line.
    @Test func valuesWrappedOntoTheNextLine() {
        var p = WordPage()
        p.line("USPhoneBook — Opt-Out Form", y: 20)
        p.line("Name of Consumer: Babajide Nwachukwu Date of birth: 20", y: 100, continues: false)
        p.line("October 1992 Best number to reach you: 538.412.8325", y: 140, continues: true)
        p.line("Email for confirmation: bn@inbox.example.net Submission date: April", y: 180, continues: true)
        p.line("24, 2025", y: 220, continues: true)
        p.line("Link to your profile:", y: 260, continues: true)
        p.words.append(Word(text: "https://www.usphonebook.com/person/babajide-", confidence: 91,
                            box: BoundingBox(x: 560, y: 250, width: 880, height: 110), block: p.words.last!.block, paragraph: 1, line: 9, word: 9))
        p.line("nwachukwu/31461", y: 300, continues: true)
        p.line("Confirmation number: CASE-324077", y: 340, continues: true)
        let f = FieldExtractor.optout(p.lines)
        #expect(f["date_of_birth"]?.value.string == "1992-10-20")
        #expect(f["date"]?.value.string == "2025-04-24")
        #expect(f["phone"]?.value.string == "538.412.8325")
        #expect(f["listing_url"]?.value.string == "https://www.usphonebook.com/person/babajide-nwachukwu/31461")
        #expect(f["listing_url"]?.needsReview == true)
        #expect(f["request_id"]?.value.string == "CASE-324077")
    }
}

extension HeadingsAndGuessesTests {
    /// A card's surname in capitals whose I was read as a small l ("Ll"): LI, for review; a name
    /// in small letters keeps its l.
    @Test func aCardsNameWithItsIReadAsL() {
        #expect(FieldExtractor.upperName("Ll") == nil)
        #expect(FieldExtractor.mended("Ll", field: "surname") == "LI")
        #expect(FieldExtractor.mended("Paul", field: "given_names") == nil)
        let f = FieldExtractor.idVisual(WordPage(card: [("Surname / Nom", "Ll"), ("Given names / Prénoms", "XIAOMING")]).lines)
        #expect(f["surname"]?.value.string == "LI" && f["surname"]?.needsReview == true)
        #expect(f["given_names"]?.value.string == "XIAOMING" && f["given_names"]?.needsReview == false)
    }
}

extension HeadingsAndGuessesTests {
    /// A deed's instrument number read with a space beside its hyphen, its year's hyphen lost, or
    /// its last digits apart: one number, for review. An address spaced into two cells after a
    /// comma is one address.
    @Test func aDeedsNumbersAndAddressReadApart() {
        #expect(FieldExtractor.mended("1995 -389161", field: "instrument_number") == "1995-389161")
        #expect(FieldExtractor.mended("2000 191315", field: "instrument_number") == "2000-191315")
        #expect(FieldExtractor.mended("200487896 12", field: "instrument_number") == "20048789612")
        #expect(FieldExtractor.mended("1234 56", field: "instrument_number") == nil)
        let f = FieldExtractor.deed(WordPage(["GRANT DEED", "Filed for record   May 17, 1995   Instrument Number   1995 -389161",
                                              "County   Anchorage   State   Alaska",
                                              "Premises   5872 Washington Place, Anchorage,   AK 99501"]).lines)
        #expect(f["instrument_number"]?.value.string == "1995-389161" && f["instrument_number"]?.needsReview == true)
        #expect(f["property_address"]?.value.string == "5872 Washington Place, Anchorage, AK 99501")
    }
}
