import Testing
@testable import KordantOCR

/// Slips of a fax's reading (thin strokes lost at 98 rows to the inch) that left a field out or
/// made it wrong without a flag: a reference's hyphen read as a tilde or a colon, a 7 read as a
/// slash before a month's name, a label read past knowing over a reference, a card's label
/// garbled into a short synonym of another, an Œ read as "CE", a short word of a name read in
/// capitals, a table's rule read inside a value; and print set small to fit its line.
@Suite struct FaxSlipsTests {
    static func field(_ s: String, _ confidence: Double = 90) -> Field { Field(value: .text(s), confidence: confidence, box: nil) }

    /// "REQ~-459195", "OPT: 718028", "REQ--165875": one hyphen; a reference read whole is left alone.
    @Test func aReferencesHyphenReadAsATildeOrAColon() {
        #expect(FieldExtractor.referenceMended("REQ~-459195") == "REQ-459195")
        #expect(FieldExtractor.referenceMended("OPT: 718028") == "OPT-718028")
        #expect(FieldExtractor.referenceMended("REQ--165875") == "REQ-165875")
        #expect(FieldExtractor.referenceMended("REQ-165875") == nil)
        #expect(FieldExtractor.reference("REQ--165875") == nil)
        let letter = ["Ann Arbor, MI 48104", "To: Radaris Privacy Team", "Re: Opt-out request REQ~-459195", "Dear Radaris Privacy Team,"]
        let f = FieldExtractor.optout(WordPage(letter).lines)
        #expect(f["request_id"]?.value.string == "REQ-459195")
        #expect(f["request_id"]?.needsReview == true)
    }

    /// A reference alone under a label read past knowing ("RCP." for "REF."): the page's only
    /// reference, for review; two different ones name neither.
    @Test func aReferenceAloneInItsCellIsTakenByItsShape() {
        let form = ["Instant Checkmate — Opt-Out Request", "NAME OF REQUESTER", "Gyula Kovacs", "REQUEST DATE", "2026-06-24", "RCP."]
        let f = FieldExtractor.optout(WordPage(form + ["REQ-372452"]).lines)
        #expect(f["request_id"]?.value.string == "REQ-372452")
        #expect(f["request_id"]?.needsReview == true)
        let two = FieldExtractor.optout(WordPage(form + ["REQ-372452", "Tracking", "PR-118822"]).lines)
        #expect(two["request_id"] == nil)
        // Its hyphen lost ("REQ 619332"), or a 7 read as a slash ("PR 51/084"): mended, for review.
        for (read, kept) in [("REQ 619332", "REQ-619332"), ("PR 51/084", "PR-517084")] {
            let mended = FieldExtractor.optout(WordPage(form + [read]).lines)
            #expect(mended["request_id"]?.value.string == kept)
            #expect(mended["request_id"]?.needsReview == true)
        }
        // A line of prose is no reference's cell.
        #expect(FieldExtractor.optout(WordPage(form + ["Please remove REQ 619332 now"]).lines)["request_id"] == nil)
    }

    /// A form whose labels print colons, one label's colon lost on a fax ("Name of Requester
    /// Gisela von Bulow"): a label of two words or more opening its line, read whole, still
    /// vouches for the name beside it, for review. Not a one-word label ("Consumer Opt-Out Form"
    /// is a title), nor on a page whose labels print no colons otherwise.
    @Test func aFormLabelsColonLostOnAFax() {
        let form = ["Intelius — Opt-Out Request", "Date of Birth: 09/09/1992", "Email Address: gisela.von@inbox.example.net",
                    "Listing URL: https://www.intelius.com/people/gisela-von-bulow/47321"]
        let f = FieldExtractor.optout(WordPage(["Name of Requester Gisela von Bulow"] + form).lines)
        #expect(f["full_name"]?.value.string == "Gisela von Bulow")
        #expect(f["full_name"]?.needsReview == true)
        let title = FieldExtractor.optout(WordPage(["Consumer Opt-Out Form"] + form).lines)
        #expect(title["full_name"] == nil)
        let alone = FieldExtractor.optout(WordPage(["Intelius — Opt-Out Request", "Name of Requester Gisela von Bulow"]).lines)
        #expect(alone["full_name"] == nil)
    }

    /// A letter's "City, ST ZIP" line with its state's I read as l, the code run into its ZIP, a
    /// slash read in the ZIP or a letter of the code misread beside a city of the ZIP's state: the
    /// state and ZIP that agree, for review; a code no ZIP agrees with is not made up.
    @Test func aSendersStateMisreadOrRunIntoItsZip() {
        #expect(FieldExtractor.placeMended("Madison, Wl 53703") == "Madison, WI 53703")
        #expect(FieldExtractor.placeMended("Providence, RI02903") == "Providence, RI 02903")
        // A code whose letters are no look-alikes of the ZIP's state's ("Ml" beside a Wisconsin ZIP): nothing.
        #expect(FieldExtractor.placeMended("Madison, Ml 53703") == nil)
        // (Spaces and stops around the line are no part of it.)
        #expect(FieldExtractor.placeMended("Providence, RI02903. ") == "Providence, RI 02903")
        // Run into a ZIP of another state: nothing.
        #expect(FieldExtractor.placeMended("Providence, RI53703") == nil)
        // A slash read in the ZIP: the one reading of five digits its state agrees with.
        #expect(FieldExtractor.placeMended("Santa Fe, NM 87/501") == "Santa Fe, NM 87501")
        #expect(FieldExtractor.placeMended("Madison, WI 53/03") == "Madison, WI 53703")
        // A letter of the code misread where the city is one of the ZIP's state's places.
        #expect(FieldExtractor.placeMended("Providence, RE 02904") == "Providence, RI 02904")
        #expect(FieldExtractor.placeMended("Springfield, RE 02904") == nil)
        #expect(FieldExtractor.placeMended("Dear Spokeo Privacy Team,") == nil)
        for (place, state, zip) in [("Madison, Wl 53703", "WI", "53703"), ("Providence, RI02903", "RI", "02903")] {
            let letter = ["Gisela von Bulow", "7912 Chestnut Drive", place, "12/11/2026", "To: Spokeo Privacy Team",
                          "Dear Spokeo Privacy Team,"]
            let f = FieldExtractor.optout(WordPage(letter).lines)
            #expect(f["street_address"]?.value.string == "7912 Chestnut Drive")
            #expect(f["state"]?.value.string == state && f["state"]?.needsReview == true, "\(f)")
            #expect(f["zip"]?.value.string == zip && f["zip"]?.needsReview == true)
            #expect(f["city"]?.value.string == place.components(separatedBy: ",")[0] && f["city"]?.needsReview == true)
        }
        // The street read past knowing: the place under the sender's name, for review, and no street.
        let lost = FieldExtractor.optout(WordPage(["Joost Maarten de Bruijn", "15? Sunset Boulevard", "Savannah, GA 31401", "16/06/2023",
                                                   "To: Acxiom Privacy Team", "Dear Acxiom Privacy Team,"]).lines)
        #expect(lost["city"]?.value.string == "Savannah" && lost["city"]?.needsReview == true, "\(lost)")
        #expect(lost["zip"]?.value.string == "31401" && lost["state"]?.value.string == "GA")
        #expect(lost["street_address"] == nil)
        // Read whole, sure as before.
        let whole = FieldExtractor.optout(WordPage(["Gisela von Bulow", "7912 Chestnut Drive", "Madison, WI 53703", "12/11/2026",
                                                    "Dear Spokeo Privacy Team,"]).lines)
        #expect(whole["state"]?.value.string == "WI" && whole["state"]?.needsReview != true)
    }

    /// "2/ February 2024": not the 2nd (a slash closes no day before a month's name); the 7 whose
    /// bar was lost, for review.
    @Test func aSevenReadAsASlashBeforeAMonthsName() {
        #expect(FieldExtractor.isoDate("2/ February 2024") == nil)
        #expect(FieldExtractor.isoDate("27 February 2024")?.string == "2024-02-27")
        #expect(FieldExtractor.isoDate("02/27/2024")?.string == "2024-02-27")
        #expect(FieldExtractor.mended("2/ February 2024", field: "date") == "27 February 2024")
        let letter = ["Ute von Bulow", "2218 Riverside Court", "Reno, NV 89501", "2/ February 2024", "To: Spokeo Privacy Team",
                      "Dear Spokeo Privacy Team,"]
        let f = FieldExtractor.optout(WordPage(letter).lines)
        #expect(f["date"]?.value.string == "2024-02-27")
        #expect(f["date"]?.needsReview == true)
    }

    /// A card's "First names: YU" read as "bieet nom yu": "nom" (a surname's label) after a word
    /// in small letters is a longer label garbled, and the name in small letters beside it no surname.
    @Test func aShortLabelAfterAGarbledWordVouchesForLess() {
        var p = WordPage()
        p.line("REPUBLIC OF UTOPIA", x: 64, y: 70, charWidth: 14, height: 18)
        p.line("RESIDENCE PERMIT", x: 65, y: 98, charWidth: 15, height: 20)
        let row: [(String, Double, Int, Int, Int, Int)] = [("bieet", 0, 283, 200, 40, 9), ("nom", 57.7, 340, 202, 29, 6), ("yu", 96.1, 405, 195, 27, 16)]
        p.words += row.enumerated().map { i, w in
            Word(text: w.0, confidence: w.1, box: BoundingBox(x: w.2, y: w.3, width: w.4, height: w.5), block: 90, paragraph: 1, line: 1, word: i)
        }
        p.line("19 January 1953", x: 332, y: 222, charWidth: 14, height: 18)
        let f = FieldExtractor.idVisual(p.lines)
        #expect(f["surname"]?.value.string != "YU" || f["surname"]?.needsReview == true)
        // Read whole with its colon, the same short label still names the surname.
        var q = WordPage()
        q.line("REPUBLIC OF UTOPIA", x: 64, y: 70, charWidth: 14, height: 18)
        q.line("RESIDENCE PERMIT", x: 65, y: 98, charWidth: 15, height: 20)
        q.line("Nom: XU", x: 283, y: 200, charWidth: 14, height: 16)
        #expect(FieldExtractor.idVisual(q.lines)["surname"]?.value.string == "XU")
    }

    /// "93 FEB 1942": a day's 0 read as a 9 before a month's name, taken back for review.
    @Test func aDaysZeroReadAsANineBeforeAMonthsName() {
        #expect(FieldExtractor.mended("93 FEB 1942", field: "date_of_birth") == "03 FEB 1942")
        #expect(FieldExtractor.mended("23 FEB 1942", field: "date_of_birth") == nil)
    }

    /// "Date of birth: December 9, 1946 | Daytime": a table's rule read as "|" ends the value.
    @Test func aRuleReadInsideAValueEndsIt() {
        let form = ["CheckPeople — Opt-Out Form", "Consumer: Conceicao Ribeiro | Date of birth: December 9, 1946 | Daytime",
                    "Phone: 287-819-5309"]
        let f = FieldExtractor.optout(WordPage(form).lines)
        #expect(f["date_of_birth"]?.value.string == "1946-12-09")
        #expect(f["full_name"]?.value.string == "Conceicao Ribeiro")
    }

    /// "truthfinder.convp/": ".com/" with its "m/" read as "nv", before a listing's path word.
    @Test func aComWhoseSlashWasReadAsAV() {
        #expect(FieldExtractor.urlGlyphsMended("https://www.truthfinder.convp/sol-garcia-marquez/55433")
                == "https://www.truthfinder.com/p/sol-garcia-marquez/55433")
    }

    /// A value set small to fit the end of its line ("Phone Number:" at 42 pixels, then
    /// "440-727-4608" at 17), read poorly with the line: read again alone, and not taken for speckle.
    @Test func printSetSmallIsReadAgainAndKept() {
        let line: [(String, Double, Int, Int, Int, Int)] = [("Postal", 95, 1500, 625, 160, 42), ("Code:", 95, 1680, 625, 140, 42),
            ("48104", 95, 1840, 625, 155, 42), ("Phone", 95, 2040, 630, 170, 41), ("Number:", 91, 2230, 633, 237, 42), ("“””", 0, 2490, 630, 126, 17)]
        let words = line.enumerated().map { i, w in
            Word(text: w.0, confidence: w.1, box: BoundingBox(x: w.2, y: w.3, width: w.4, height: w.5), block: 1, paragraph: 1, line: 1, word: i)
        }
        let page = PageText(text: "", meanConfidence: 80, words: words, width: 2700, height: 3400)
        #expect(PoorWords.words(page).map(\.index) == [5])
        var again = words
        again[5].text = "440-727-4608"
        again[5].confidence = PoorWords.cap
        #expect(!PageLayout.speck(again[5], lineHeight: 42))
        #expect(PageLayout.speck(Word(text: "i:", confidence: 20, box: BoundingBox(x: 0, y: 0, width: 12, height: 10), block: 1, paragraph: 1, line: 1, word: 0),
                                 lineHeight: 42))
        let f = FieldExtractor.optout(TextLine.group(again) + WordPage(["Opt-Out Request", "Full Name: Ana Lima"]).lines)
        #expect(f["phone"]?.value.string == "440-727-4608" && f["phone"]?.needsReview == true)
    }

    /// "Anne Marie CEuvray": Œ read as C and E; mended, for review.
    @Test func anOEReadAsCE() {
        let f = FieldExtractor.review(["grantor": Self.field("Anne Marie CEuvray"), "grantee": Self.field("Cedric CEO Smith")])
        #expect(f["grantor"]?.value.string == "Anne Marie Œuvray" && f["grantor"]?.needsReview == true)
        #expect(f["grantee"]?.value.string == "Cedric CEO Smith")
    }

    /// A short word in capitals among a name's words in small letters ("Ayşe GUI Çelik", Gül
    /// read so) goes to review; a surname in capitals, a suffix, a company's form and a name all
    /// in capitals do not.
    @Test func aShortWordInCapitalsInsideANameInSmallLetters() {
        let f = FieldExtractor.review(["grantee": Self.field("Ayşe GUI Çelik"), "grantor": Self.field("Jean DUPONT"),
                                       "full_name": Self.field("Robert Smith JR")])
        #expect(f["grantee"]?.needsReview == true)
        #expect(f["grantor"]?.needsReview == false)
        #expect(f["full_name"]?.needsReview == false)
        let g = FieldExtractor.review(["grantor": Self.field("BRAM BAKKER and KITTISAK RATTANAKOSIN"), "grantee": Self.field("Maple Holdings LLC")])
        #expect(g["grantor"]?.needsReview == false)
        #expect(g["grantee"]?.needsReview == false)
    }
}
