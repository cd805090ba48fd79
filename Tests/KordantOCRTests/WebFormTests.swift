import Foundation
@testable import KordantOCR
import Testing

/// Forms as a browser lays them out (found on the browser-rendered dev corpus,
/// `scripts/make-doc-corpus-web`): addresses wrapped after a hyphen, hints in brackets and short
/// words after a label, qualified labels, request options in other words, dates printed day first.
@Suite struct WebFormTests {
    @Test(arguments: [("Opt out of the sale of my data", "do_not_sell"), ("Stop sharing my information with third parties", "do_not_sell"),
                      ("Remove me from marketing and mailing lists", "opt_out_marketing"),
                      ("Delete all personal data you hold about me", "delete"), ("Remove my profile and all associated records", "delete"),
                      ("Provide a copy of the data you hold about me", "access"), ("Right to know: send me my data", "access"),
                      ("Tell me what you hold about me", "access"), ("Erase all records about me", "delete")])
    func requestOptionsInOtherWords(text: String, key: String) {
        #expect(FieldExtractor.optionKey(text) == key)
    }

    /// An option of the list whose box says nothing is not left out quietly: the ticked ones are
    /// kept, for review.
    @Test func anOptionWhoseBoxSaysNothingSendsTheListToReview() {
        let unread = FieldExtractor.optout(WordPage(["Name: Ana Lima", "[X] Delete my information from your records",
                                                     "Stop sharing my information with third parties", "[ ] No marketing e-mails"]).lines)
        #expect(unread["request_options"]?.value.string == "delete" && unread["request_options"]?.needsReview == true)
        let read = FieldExtractor.optout(WordPage(["Name: Ana Lima", "[X] Delete my information from your records",
                                                   "[X] Stop sharing my information with third parties", "[ ] No marketing e-mails"]).lines)
        #expect(read["request_options"]?.value.string == "delete,do_not_sell" && read["request_options"]?.needsReview == false)
    }

    /// A listing address wrapped after a hyphen is joined with the rest on the next line (the word
    /// under its start, whatever specks stand beside it); cut off
    /// with nothing to join, it is kept for review, never passed off as whole.
    @Test func aWrappedListingAddressIsJoinedOrReviewed() {
        let wrapped = FieldExtractor.optout(WordPage(["Name: Ana Lima", "Listing URL: https://www.spokeo.com/people/ana-maria-",
                                                      "lima-costa/51571", "Date: 2024-01-02"]).lines)
        #expect(wrapped["listing_url"]?.value.string == "https://www.spokeo.com/people/ana-maria-lima-costa/51571")
        #expect(wrapped["listing_url"]?.needsReview == true)
        // The rest under the address's start, a scan's specks read as words beside it.
        var specks = WordPage(["Name: Ana Lima"])
        specks.line("Listing URL: https://www.spokeo.com/people/marie-", y: 100)
        specks.line("892- __ eve-oceane/91885", x: 200, y: 140)
        let joined = FieldExtractor.optout(specks.lines)
        #expect(joined["listing_url"]?.value.string == "https://www.spokeo.com/people/marie-eve-oceane/91885")
        let cut = FieldExtractor.optout(WordPage(["Name: Ana Lima", "Listing URL: https://www.spokeo.com/people/ana-",
                                                  "Date: 2024-01-02"]).lines)
        #expect(cut["listing_url"]?.value.string == "https://www.spokeo.com/people/ana-" && cut["listing_url"]?.needsReview == true)
        let whole = FieldExtractor.optout(WordPage(["Name: Ana Lima", "Listing URL: https://www.spokeo.com/people/ana-lima/51571",
                                                    "Date: 2024-01-02"]).lines)
        #expect(whole["listing_url"]?.value.string == "https://www.spokeo.com/people/ana-lima/51571")
    }

    /// A hint in brackets after a label, a short word before its colon and a qualifying word before
    /// it are all the label's: the value is what follows.
    @Test func labelsWithHintsTailsAndQualifiers() {
        let f = FieldExtractor.optout(WordPage(["Opt-Out Request to Spokeo", "Name (as listed): Ana Lima",
                                                "DOB (MM/DD/YYYY): 03/21/1980", "Phone (optional): 512-555-0147",
                                                "Ticket No.: REQ-123456", "Submitted on: March 3, 2024",
                                                "Current street address   12 Oak Street", "Cell phone   512-555-0147"]).lines)
        #expect(f["full_name"]?.value.string == "Ana Lima")
        #expect(f["date_of_birth"]?.value.string == "1980-03-21")
        #expect(f["phone"].map { $0.value.string?.filter(\.isNumber) } == "5125550147")
        #expect(f["request_id"]?.value.string == "REQ-123456")
        #expect(f["date"]?.value.string == "2024-03-03")
        #expect(f["street_address"]?.value.string == "12 Oak Street")
    }

    /// A fax's colons read as other marks on a line of several pairs: a semicolon after an earlier
    /// label with its colon, and a full stop after a separator there. A full stop ending a
    /// sentence is no colon.
    @Test func aColonReadAsAnotherMarkOnALineOfPairs() {
        let f = FieldExtractor.optout(WordPage(["Opt-Out Request Confirmation", "Case ID: DSR-842130 - Date submitted. 1 September 2026",
                                                "City: Pittsburgh = State; Pennsylvania ZIP; 15222"]).lines)
        #expect(f["date"]?.value.string == "2026-09-01" && f["request_id"]?.value.string == "DSR-842130")
        #expect(f["city"]?.value.string == "Pittsburgh" && f["state"]?.value.string == "PA" && f["zip"]?.value.string == "15222")
        let g = FieldExtractor.optout(WordPage(["Opt-Out Request", "Case ID: DSR-842130 I wrote on the date. 1 September 2026 was it"]).lines)
        #expect(g["date"] == nil)
    }

    /// A label's hint in brackets wrapped under it in a narrow cell ("DOB" over "(MM/DD/YYYY)"):
    /// the value is the cell after the hint, not the hint.
    @Test func aLabelsHintWrappedUnderIt() {
        var p = WordPage()
        p.line("REQUEST TO OPT OUT", y: 50)
        p.line("DOB", x: 1500, y: 120)
        p.line("Consumer   Ilse de Bruijn   (MM/DD/YYYY)   1/11/1989", y: 160)
        p.line("State   New Mexico   ZIP   87501", y: 220)
        let f = FieldExtractor.optout(p.lines)
        #expect(f["date_of_birth"]?.value.string == "1989-01-11")
        #expect(FieldExtractor.pairs(p.lines, kind: .optout).contains { $0.field == "date_of_birth" && $0.value == "1/11/1989" })
        // The hint read in one phrase with the value.
        var q = WordPage()
        q.line("REQUEST TO OPT OUT", y: 50)
        q.line("DOB", x: 1500, y: 120)
        q.line("Consumer   Ilse de Bruijn   (MM/DD/YYYY) 1/11/1989", y: 160)
        #expect(FieldExtractor.optout(q.lines)["date_of_birth"]?.value.string == "1989-01-11")
    }

    /// A request written as an e-mail: who is asking, in sentences ("I" read as "|" too), and the
    /// header's date with its weekday and time.
    @Test func aRequestInProse() {
        var p = WordPage(["From: Ana Lima <ana.lima@example.com>", "To: privacy@spokeo.com", "Date: Tue, 14 Mar 2023 10:22",
                          "Subject: Removal request REQ-209302", "To the Spokeo privacy team,"])
        p.line("My name is Ana Maria Lima and | was born on 01/25/1980. | live at 12 Oak Street,", y: 400)
        p.line("Austin, TX 78701. You can reach me at (512) 555-0147 or at this address.", y: 450, continues: true)
        let f = FieldExtractor.optout(p.lines)
        #expect(f["full_name"]?.value.string == "Ana Maria Lima")
        #expect(f["date_of_birth"]?.value.string == "1980-01-25")
        #expect(f["street_address"]?.value.string == "12 Oak Street" && f["city"]?.value.string == "Austin")
        #expect(f["state"]?.value.string == "TX" && f["zip"]?.value.string == "78701")
        #expect(f["phone"].map { $0.value.string?.filter(\.isNumber) } == "5125550147")
        #expect(f["date"]?.value.string == "2023-03-14")
        // The state code's I read as "|": the ZIP's state (Iowa's 503), for review; one the ZIP
        // does not own ("|X") is no address.
        for (code, expected) in [("|A", "IA"), ("|X", nil)] as [(String, String?)] {
            var q = WordPage(["From: Sakura Suzuki <sakura.suzuki@mail.example.org>", "To: privacy@nuwber.com"])
            q.line("My name is Sakura Suzuki. | live at 5995 Magnolia Road, Apt 11, Des Moines, \(code) 50309.", y: 400)
            let g = FieldExtractor.optout(q.lines)
            #expect(g["state"]?.value.string == expected)
            if expected != nil {
                #expect(g["street_address"]?.value.string == "5995 Magnolia Road, Apt 11" && g["city"]?.value.string == "Des Moines")
                #expect(g["zip"]?.value.string == "50309" && g["state"]?.needsReview == true && g["street_address"]?.needsReview == true)
            }
        }
        // A listing whose scheme was garbled and whose last digits were read apart: mended, for review.
        var u = WordPage(["From: Gisela Kohler <gisela98@inbox.example.net>", "To: dsar@acxiom.com"])
        u.line("Your site shows a profile about me at https:/Avww.acxiom.com/person/gisela-kohler/1 1727.", y: 400)
        let v = FieldExtractor.optout(u.lines)
        #expect(v["listing_url"]?.value.string == "https://www.acxiom.com/person/gisela-kohler/11727" && v["listing_url"]?.needsReview == true)
        // A listing with a comma for a dot, wrapped after its hyphen, the sentence's comma after it.
        var w = WordPage(["From: Aikaterini Papadopoulou <aikaterini29@mail.example.org>", "To: support@instantcheckmate.com"])
        w.line("Your site shows a profile about me at https://www.instantcheckmate,com/person/aikaterini-", y: 400)
        w.line("papadopoulou/67766,", y: 450, continues: true)
        let x = FieldExtractor.optout(w.lines)
        #expect(x["listing_url"]?.value.string == "https://www.instantcheckmate.com/person/aikaterini-papadopoulou/67766"
                && x["listing_url"]?.needsReview == true)
        // A name with an okina read as an opening quote, and one with the particle 't.
        for (read, name) in [("Ke‘alohilani Kahananui", "Keʻalohilani Kahananui"), ("Joost Maarten van 't Hof", "Joost Maarten van 't Hof")] {
            let n = FieldExtractor.optout(WordPage(["To: privacy@checkpeople.com", "My name is \(read) and I was born on November 7, 1944."]).lines)
            #expect(n["full_name"]?.value.string == name)
        }
        // A name longer than the sentence pattern's reach is not taken cut short.
        let long = FieldExtractor.optout(WordPage(["Email: ana@example.com",
                                                   "My name is Juan Carlos Alberto de la Cruz Nunez Garcia Lopez Marquez and I ask you to delete my data."]).lines)
        #expect(long["full_name"] == nil)
        // A sentence that names no one gives no name.
        #expect(FieldExtractor.optout(WordPage(["I am writing to ask you to delete my data.", "Email: ana@example.com"]).lines)["full_name"] == nil)
    }

    /// A date of numbers only: over 12 first, it can only be day first; both ways possible, the
    /// page's other dates decide; with nothing to decide and full stops between, it goes to review.
    @Test func datesPrintedDayFirst() {
        #expect(FieldExtractor.isoDate("26.11.2016")?.string == "2016-11-26")
        #expect(FieldExtractor.isoDate("11/26/2016")?.string == "2016-11-26")
        let card = FieldExtractor.idVisual(WordPage(["IDENTITY CARD", "Surname: LIMA", "Given names: ANA",
                                                     "Date of birth: 08.12.1980", "Date of issue: 26.11.2016",
                                                     "Expiry: 25.11.2026"]).lines)
        #expect(card["date_of_birth"]?.value.string == "1980-12-08")
        let alone = FieldExtractor.idVisual(WordPage(["IDENTITY CARD", "Surname: LIMA", "Given names: ANA",
                                                      "Date of birth: 08.12.1980"]).lines)
        #expect(alone["date_of_birth"]?.value.string == "1980-08-12" && alone["date_of_birth"]?.needsReview == true)
        let us = FieldExtractor.idVisual(WordPage(["DRIVER LICENSE", "Surname: LIMA", "Given names: ANA",
                                                   "DOB: 08/12/1980", "EXP: 08/30/2030"]).lines)
        #expect(us["date_of_birth"]?.value.string == "1980-08-12" && us["date_of_birth"]?.needsReview == false)
        // Labels in French beside the English: day first, for review still. One such word is not enough.
        let bilingual = FieldExtractor.idVisual(WordPage(["IDENTITY CARD", "Surname / Nom", "LIMA", "Given names / Prénoms", "ANA",
                                                          "Date of birth / Date de naissance", "08.12.1980"]).lines)
        #expect(bilingual["date_of_birth"]?.value.string == "1980-12-08" && bilingual["date_of_birth"]?.needsReview == true, "\(bilingual)")
        let one = FieldExtractor.idVisual(WordPage(["IDENTITY CARD", "Surname: LIMA", "Given names / Prénoms: ANA",
                                                    "Date of birth: 08.12.1980"]).lines)
        #expect(one["date_of_birth"]?.value.string == "1980-08-12")
        // Slashes on such a page: as before, month first.
        let slashes = FieldExtractor.idVisual(WordPage(["PASSPORT", "Surname / Nom", "LIMA", "Given names / Prénoms", "ANA",
                                                        "Date of birth / Date de naissance", "12/05/1948"]).lines)
        #expect(slashes["date_of_birth"]?.value.string == "1948-12-05")
    }

    /// A licence's "LN" and "FN" labels read as a lone N before their names ("(N KOHLER", "'N
    /// BJORN" on a fax, a generated page read by real Tesseract): the names without it, for review.
    @Test func aLicencesShortLabelReadAsALoneN() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path
        let page = try #require(try OCRWorker().process(path: root + "/Tests/Fixtures/ocr-fallback/s211-dev-111-id-driver-licence-fax.png").pages.first)
        #expect(page.kind == .id)
        #expect(page.fields["surname"]?.value.string == "KOHLER" && page.fields["surname"]?.needsReview == true, "\(page.fields)")
        #expect(page.fields["given_names"]?.value.string == "BJORN" && page.fields["given_names"]?.needsReview == true)
    }

    /// A table's label cell wrapped onto two lines, its value centred between them in the next
    /// cell, is one label for that value; the label may run on in small words ("… on file"), or
    /// in a capital word when the two lines spell a label ("Requestor" over "Name").
    @Test func labelCellsWrappedOntoTwoLines() {
        var page = WordPage()
        page.line("Opt-Out Request to Spokeo", y: 20)
        for (top, value, bottom, x, y) in [("Current street", "7321 Hillcrest Boulevard", "address", 100, 100),
                                          ("Email address on", "sjoerd84@example.com", "file", 100, 200),
                                          ("Best number to", "702.809.1448", "reach you", 1000, 200),
                                          // A second line in capitals, the two one label of the vocabulary.
                                          ("Requestor", "Hans Peter Weber", "Name", 100, 300)] {
            page.line(top, x: x, y: y)
            page.line(value, x: x + 400, y: y + 20)
            page.line(bottom, x: x, y: y + 40)
        }
        let f = FieldExtractor.optout(page.lines)
        #expect(f["street_address"]?.value.string == "7321 Hillcrest Boulevard")
        #expect(f["email"]?.value.string == "sjoerd84@example.com")
        #expect(f["phone"].map { $0.value.string?.filter(\.isNumber) } == "7028091448")
        #expect(f["full_name"]?.value.string == "Hans Peter Weber")
        // A label over its value, with nothing beside them, stays two lines.
        let stacked = PageLayout(lines: WordPage(["Full name", "ana lima", "Date of birth"]).lines)
        #expect(stacked.rows.count == 3)
    }

    /// A label Tesseract's page layout split over two blocks on one line ("Birth" in one column,
    /// "Date: 3 June 1990" in the next, a monospaced form's single space between them) is one
    /// label: the date is the birth date, not the request's.
    @Test func aLabelSplitOverTwoBlocks() {
        var page = WordPage()
        page.line("Personal Information Removal Request", y: 20)
        page.line("Name of Requester: Anne Marie de La Fontaine", y: 100)
        page.line("Birth", y: 150)
        page.line("Date: 3 June 1990", x: 220, y: 150)
        page.line("Submitted: 09/19/2026", y: 200)
        let f = FieldExtractor.optout(page.lines)
        #expect(f["date_of_birth"]?.value.string == "1990-06-03")
        #expect(f["date"]?.value.string == "2026-09-19")
        // A label cell and its value cell as near stay two cells: no label runs from one into
        // the other.
        var cells = WordPage()
        cells.line("Street Address", y: 150)
        cells.line("4751 Juniper Drive", x: 420, y: 150)
        #expect(PageLayout(lines: cells.lines).rows.first?.segments.count == 2)
        // Nor are two blocks further apart than words of one phrase joined.
        var apart = WordPage()
        apart.line("Birth", y: 150)
        apart.line("Date: 3 June 1990", x: 280, y: 150)
        #expect(PageLayout(lines: apart.lines).rows.first?.segments.count == 2)
    }

    /// Labels a form prints alone: "Consumer" for the requester's name, "Residence" for the street.
    @Test func consumerAndResidenceLabels() {
        var page = WordPage()
        page.line("CONSUMER PRIVACY REQUEST FORM", y: 20)
        page.line("Consumer", x: 100, y: 100)
        page.line("Abebe Tesfaye", x: 400, y: 100)
        page.line("Residence", x: 100, y: 160)
        page.line("6108 Maple Way", x: 400, y: 160)
        let f = FieldExtractor.optout(page.lines)
        #expect(f["full_name"]?.value.string == "Abebe Tesfaye")
        #expect(f["street_address"]?.value.string == "6108 Maple Way")
    }

    /// A word's capital I read as "l" before a capital ("lJzerman") is the I: no name word starts so.
    @Test func aCapitalIReadAsLInAName() {
        #expect(FieldExtractor.name("Sjoerd lJzerman")?.string == "Sjoerd IJzerman")
        #expect(FieldExtractor.name("Isabel llanos")?.string == nil)
    }

    /// A licence number printed in groups with dashes is one number; dashed digits alone (a date,
    /// a phone number) are none.
    @Test func aDocumentNumberInDashedGroups() {
        #expect(FieldExtractor.documentNumber("J173-2739-2236")?.string == "J17327392236")
        #expect(FieldExtractor.documentNumber("07-06-2032") == nil)
        #expect(FieldExtractor.documentNumber("555-123-4567") == nil)
        #expect(FieldExtractor.documentNumber("J173--2739") == nil)
    }

    /// A table's label cell wrapped after "line" ("Address line" over "1", the value centred
    /// beside the two), a short word before the rule that parts label from value ("Submitted on
    /// | 12/10/2025"), and a label's words read run together ("Your fullname").
    @Test func wrappedNumberedLabelsTailsBeforeARuleAndRunTogetherLabels() {
        var page = WordPage()
        page.line("Your fullname   Bao Vu", y: 40)
        page.line("Address line", y: 100)
        page.line("4480 Washington Way", x: 400, y: 125)
        page.line("1", y: 150)
        page.line("Case ID DSR-966374   Submitted on | 12/10/2025", y: 220)
        let f = FieldExtractor.optout(page.lines)
        #expect(value(f, "full_name") == "Bao Vu")
        #expect(value(f, "street_address") == "4480 Washington Way")
        #expect(value(f, "date") == "2025-12-10")
        #expect(value(f, "request_id") == "DSR-966374")
        // Run-together labels are matched as read only: "Document" is no "documentno" two letters short.
        #expect(PageLayout.gluedLabels.contains("fullname") && PageLayout.gluedLabels.contains("dateofbirth"))
        #expect(!PageLayout.gluedLabels.contains("zipcode"))  // a synonym of its own, matched as any other
        let card = FieldExtractor.idVisual(WordPage(["RESIDENCE PERMIT", "Surname: ERIKSSON", "Document Neo N5858339"]).lines)
        #expect(value(card, "document_number") == "N5858339")
    }

    /// An e-mail's header: an address read with a space beside its "@" is joined, for review; a
    /// misread weekday does not hide the date after it.
    @Test func anEmailsHeaderReadWithSpaces() {
        let f = FieldExtractor.optout(WordPage(["From: Ibrahim Dogan <idogan @inbox.example.net>", "To: privacy @ peoplefinders.com",
                                                "Date: ‘ic, 27 Mar 2023 16:45", "Subject: Removal request REQ-515965"]).lines)
        #expect(value(f, "email") == "idogan@inbox.example.net" && f["email"]?.needsReview == true)
        #expect(value(f, "date") == "2023-03-27")
        #expect(FieldExtractor.isoDate("Tue, 18 Jul 2024 10:54")?.string == "2024-07-18")
        #expect(FieldExtractor.isoDate("12, 27 Mar 2023") == nil)
    }
}
