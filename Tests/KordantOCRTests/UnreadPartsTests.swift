import Foundation
@testable import KordantOCR
import Testing

/// Parts of a page Tesseract read only in part, seen on fresh dev seeds (dev 55, identity pages
/// 48–49, faxes 53–54, web 17): what is left is kept, and the value goes to review, as the part
/// not read may change it.
@Suite struct UnreadPartsTests {
    /// A stamp over the last of four options side by side ("[X] Copy of my data" read "[ PRO
    /// data"): the three read are kept, for review, as the fourth box may be ticked.
    @Test func anOptionUnderAStampLeavesTheListInReview() {
        let stamped = FieldExtractor.optout(WordPage(["PeopleFinders: Opt-Out", "Action requested:",
                                                      "[X] Delete   { ] Do Not Sell   [X] No marketing   [ PRO data"]).lines)
        #expect(value(stamped, "request_options") == "delete,opt_out_marketing")
        #expect(stamped["request_options"]?.needsReview == true)
        // Its own row under the others (the stamp's tall word moved it down): the same.
        let below = FieldExtractor.optout(WordPage(["PeopleFinders: Opt-Out", "Action requested:",
                                                    "[X] Delete   { ] Do Not Sell   [X] No marketing", "[ PRO data"]).lines)
        #expect(below["request_options"]?.needsReview == true)
        // Every box read: sure. A note in brackets under the list is no box.
        let read = FieldExtractor.optout(WordPage(["PeopleFinders: Opt-Out", "Action requested:",
                                                   "[X] Delete   { ] Do Not Sell   [X] No marketing",
                                                   "(Please allow 45 days)"]).lines)
        #expect(value(read, "request_options") == "delete,opt_out_marketing")
        #expect(read["request_options"]?.needsReview == false)
    }
}

extension UnreadPartsTests {
    /// A faxed licence whose field numbers read as marks or not at all: its two name lines
    /// right above the street and city lines are its names, for review.
    @Test func aLicencesNamesAboveItsAddress() {
        let marks = FieldExtractor.idVisual(WordPage(["UU aE ha el", "41 DLN F5858074", "| OUEDRAOGO", "? BABAJIDE OLUWATOBILOBA",
                                                      "# 9861 SUNSET BOULEVARD", "PROVIDENCE, Ri 02903", "DOB 07/20/1951   SEX M"]).lines)
        #expect(value(marks, "surname") == "OUEDRAOGO")
        #expect(value(marks, "given_names") == "BABAJIDE OLUWATOBILOBA")
        #expect(marks["surname"]?.needsReview == true && marks["given_names"]?.needsReview == true)
        let lost = FieldExtractor.idVisual(WordPage(["aN Te ee", "DLN 05011509", "NWACHUKWU", "CHIAMAKA", "9854 OAK STRLLT",
                                                     "WICHITA, KS 6/270?", "LOB 07/15/1980   SEX M"]).lines)
        #expect(value(lost, "surname") == "NWACHUKWU")
        #expect(value(lost, "given_names") == "CHIAMAKA")
        // Three capitals lines above the street: which two are the names is not known.
        let three = FieldExtractor.idVisual(WordPage(["aN Te ee", "DLN 05011509", "KANSAS", "NWACHUKWU", "CHIAMAKA", "9854 OAK STREET",
                                                      "WICHITA, KS 67202"]).lines)
        #expect(three["surname"] == nil && three["given_names"] == nil)
        // Not a licence: nothing by place.
        let card = FieldExtractor.idVisual(WordPage(["IDENTITY CARD", "NWACHUKWU", "CHIAMAKA", "9854 OAK STREET", "WICHITA, KS 67202"]).lines)
        #expect(card["surname"] == nil)
    }
}

extension UnreadPartsTests {
    /// A phone number the line wrapped after its area code: the rest opens the next line.
    @Test func aPhoneWrappedAfterItsAreaCode() {
        let f = FieldExtractor.optout(WordPage(["Intelius Privacy Request",
                                                "Consumer: Ravi Chakraborty Birthday: 12/24/1966 Telephone number: (647)",
                                                "326-0848", "Home address: 3052 Cedar Boulevard, Apt 15"]).lines)
        #expect(value(f, "phone") == "(647) 326-0848")
        // Not a number of another shape on the next line.
        let g = FieldExtractor.optout(WordPage(["Intelius Privacy Request", "Birthday: 12/24/1966 Telephone number: (647)", "2024", "Home address: 3052 Cedar Boulevard"]).lines)
        #expect(g["phone"] == nil)
    }

    /// "Your Privacy Request" names the page, not a broker.
    @Test func aPossessiveTitleIsNoBroker() {
        let f = FieldExtractor.optout(WordPage(["Home Search Privacy Help", "Your Privacy Request", "Name of Consumer: Sean Ryan"]).lines)
        #expect(f["data_broker"] == nil)
        let g = FieldExtractor.optout(WordPage(["Home Search Privacy Help", "ThatsThem Privacy Request", "Name of Consumer: Sean Ryan"]).lines)
        #expect(value(g, "data_broker") == "ThatsThem")
        // A letter's "I ask you to:" is no "To:" label; a data-subject mailbox is the broker's.
        let letter = FieldExtractor.optout(WordPage(["From: Anna Maria Mustermann <anna.maria@example.com>", "To: dsar@epsilondata.com",
                                                     "To the Epsilon Data privacy team,", "| ask you to:", "Opt out of direct marketing"]).lines)
        #expect(value(letter, "data_broker") == "Epsilon Data")
    }
}

extension UnreadPartsTests {
    /// A letter's state code read as digits ("Boise, 10 83702" for ID): mended where exactly one
    /// look-alike code is a state its ZIP agrees with, for review.
    @Test func aLettersStateReadAsDigits() {
        let f = FieldExtractor.optout(WordPage(["To the PeopleLooker privacy team,",
                                                "My name is Makeda Tesfaye and | was born on Aug. 9, 1980. | live at 1221 Willow Court, Boise, 10 83702."]).lines)
        #expect(value(f, "state") == "ID" && value(f, "zip") == "83702" && value(f, "street_address") == "1221 Willow Court")
        #expect(f["state"]?.needsReview == true)
        // A ZIP of no look-alike state: nothing taken from the sentence.
        let g = FieldExtractor.optout(WordPage(["To the PeopleLooker privacy team,",
                                                "My name is Makeda Tesfaye and | was born on Aug. 9, 1980. | live at 1221 Willow Court, Boise, 10 90210."]).lines)
        #expect(g["state"] == nil && g["street_address"] == nil)
    }
}

extension UnreadPartsTests {
    /// An option read in two pieces ("Delete all personal data" and "you hold about me", a
    /// speck's gap between): one option, not a deletion beside an access request.
    @Test func anOptionReadInTwoPiecesIsOne() {
        let pieces = FieldExtractor.optionLines(PageLayout(lines: WordPage(["Delete all personal data   you hold about me"]).lines))
        #expect(pieces.count == 1 && FieldExtractor.optionKey(pieces[0].text) == "delete")
        let two = FieldExtractor.optionLines(PageLayout(lines: WordPage(["[X] Delete my data   [ ] Send me a copy"]).lines))
        #expect(two.count == 2)
        // A box read as a digit or a bar still opens an option of its own.
        let marks = FieldExtractor.optionLines(PageLayout(lines: WordPage(["[X] Deletion   1 | Do not sell/share"]).lines))
        #expect(marks.map { FieldExtractor.optionKey($0.text) } == ["delete", "do_not_sell"])
    }
}

extension UnreadPartsTests {
    /// A table's label cell wrapped over two lines, its hint in brackets on the second ("DOB" over
    /// "(MM/DD/YYYY)"), the value in the next cell set between the two.
    @Test func aLabelWrappedOverItsHint() {
        var p = WordPage()
        p.line("MyLife Privacy Request", y: 20)
        p.line("DOB", x: 100, y: 100)
        p.line("21 February 1982", x: 500, y: 120)
        p.line("(MM/DD/YYYY)", x: 100, y: 140)
        p.line("Street address", x: 100, y: 220)
        p.line("4089 Lakeview Terrace", x: 500, y: 220)
        let f = FieldExtractor.optout(p.lines)
        #expect(value(f, "date_of_birth") == "1982-02-21")
    }
}

extension UnreadPartsTests {
    /// A faxed bilingual card whose labels are all lost: its sex beside its country code and its
    /// dates as a card prints them (the month named, or dotted day first) say it is an ID. A
    /// receipt with two dates is not one.
    @Test func aCardToldByItsValues() {
        #expect(FieldExtractor.detectKind("le). se0R Aer\\ 8 aer\\- a8\nCHAKRABORTY\nPRIYA\nM SEN\n4 March 2004\n4 January 2021 4 January 2026\nNK6303964") == .id)
        #expect(FieldExtractor.detectKind("Meee me MAUSlI\nNAGY TOTH\nREKA\nF Civ\n25.07.1952\n24.12.2022 24.12.2030\nGT1210940") == .id)
        #expect(FieldExtractor.detectKind("BAKERY 24\nDATE 24.12.2022\nBREAD 2.50\nPAID 24.12.2022\nTOTAL 2.50") == .unknown)
        #expect(FieldExtractor.detectKind("SANDS HARDWARE\nDATE 4 March 2019 DUE 4 April 2019\nNAILS 2.50\nTOTAL 2.50") == .unknown)
    }
}
