import Foundation
@testable import KordantOCR
import Testing

/// Values read with a letter or digit wrong that the engine reported sure, seen on fresh dev seeds
/// (dev 59, photocopies 79–81, identity pages 82–83, faxes 84–85): a county on no list, a comma
/// read as a semicolon, two i's for a letter English lacks, a date that cannot be.
@Suite struct ImpossibleValuesTests {
    static func field(_ s: String) -> Field { Field(value: .text(s), confidence: 90, box: nil) }

    /// The Census list: names as printed (marks, apostrophes and full stops aside) are listed; a
    /// name a letter or two off one county of its state is that county; a short one is not
    /// guessed at.
    @Test func countiesAreCheckedAgainstTheirState() {
        #expect(USCounties.check("Sedgwick", state: "KS") == .listed)
        #expect(USCounties.check("Sedqwick", state: "KS") == .near("Sedgwick"))
        #expect(USCounties.check("Cast Baton Rouge", state: "LA") == .near("East Baton Rouge"))
        #expect(USCounties.check("Hart.tord", state: "CT") == .near("Hartford"))
        // Units other than counties, named without their kind.
        #expect(USCounties.check("Anchorage", state: "AK") == .listed)
        #expect(USCounties.check("Orleans", state: "LA") == .listed)
        #expect(USCounties.check("Dona Ana", state: "NM") == .listed)
        #expect(USCounties.check("St Louis", state: "MO") == .listed)
        #expect(USCounties.check("Prince Georges", state: "MD") == .listed)
        // Short names are a letter from many: not mended.
        #expect(USCounties.check("Polx", state: "TX") == .unlisted)
        // Another state's county, or none at all.
        #expect(USCounties.check("Essex", state: "TN") == .unlisted)
        #expect(USCounties.check("Travis", state: nil) == .listed)
    }

    /// In a deed: a county off the list is mended for review, one on it is sure.
    @Test func aDeedsCountyOffTheListGoesToReview() {
        let f = FieldExtractor.deed(WordPage(["WARRANTY DEED", "Grantor: ANNA MARIA TRAVELER", "Grantee: KITTISAK BUNNAG",
                                              "County of Sedqwick, State of Kansas"]).lines)
        #expect(f["county"]?.value.string == "Sedgwick")
        #expect(f["county"]?.needsReview == true)
        let listed = FieldExtractor.deed(WordPage(["WARRANTY DEED", "Grantor: ANNA MARIA TRAVELER", "Grantee: KITTISAK BUNNAG",
                                                   "County of Sedgwick, State of Kansas"]).lines)
        #expect(listed["county"]?.value.string == "Sedgwick")
        #expect(listed["county"]?.needsReview == false)
    }

    /// "2275 Riverside Lane; Apt 7": an address prints a comma there.
    @Test func aSemicolonInAnAddressIsACommaMisread() {
        let f = FieldExtractor.optout(WordPage(["Opt-Out Request", "Name of Requester: Aikaterini Papadopoulou",
                                                "Home Address: 2275 Riverside Lane; Apt 7", "City: Nashville"]).lines)
        #expect(f["street_address"]?.value.string == "2275 Riverside Lane, Apt 7")
        #expect(f["street_address"]?.needsReview == true)
    }

    /// Two i's inside a name's word are a letter English lacks ("Miiller", "Ibaiiez") or a broken
    /// capital ("SOMCIIAI"); at its end they are the name's own.
    @Test func twoIsInsideANameGoToReview() {
        var f = ["grantor": Self.field("Anna-Lena Miiller"), "full_name": Self.field("Juan Carlos Alberto Ibaiiez"),
                 "given_names": Self.field("SOMCIIAI"), "surname": Self.field("FUJII"), "grantee": Self.field("Hiroshi Ishii")]
        FieldExtractor.lackedLettersFlagged(&f)
        #expect(f["grantor"]?.needsReview == true && f["full_name"]?.needsReview == true && f["given_names"]?.needsReview == true)
        #expect(f["surname"]?.needsReview == false && f["grantee"]?.needsReview == false)
        #expect(f["grantor"]?.value.string == "Anna-Lena Miiller", "kept as read")
    }

    /// A request date decades ahead ("2075" for 2025, a 2 read as 7) or a birth after the day of
    /// reading cannot be; both stay as read, for review. The day is the caller's, not the clock's.
    @Test func datesThatCannotBeGoToReview() throws {
        let today = try #require(ISO8601DateFormatter().date(from: "2026-12-05T12:00:00Z"))
        var f = ["date": Self.field("2075-10-03"), "recording_date": Self.field("2027-01-15"),
                 "date_of_birth": Self.field("2027-03-01")]
        FieldExtractor.datesWeighed(&f, today: today)
        #expect(f["date"]?.needsReview == true && f["date_of_birth"]?.needsReview == true)
        #expect(f["recording_date"]?.needsReview == false, "next year's date is possible (a form dated ahead)")
        #expect(f["date"]?.value.string == "2075-10-03")
        var old = ["date_of_birth": Self.field("1890-01-01"), "date": Self.field("2026-12-04")]
        FieldExtractor.datesWeighed(&old, today: today)
        #expect(old["date_of_birth"]?.needsReview == true && old["date"]?.needsReview == false)
        // The same birth date read on a later day is possible.
        var later = ["date_of_birth": Self.field("2027-03-01")]
        FieldExtractor.datesWeighed(&later, today: try #require(ISO8601DateFormatter().date(from: "2030-01-01T00:00:00Z")))
        #expect(later["date_of_birth"]?.needsReview == false)
    }

    /// Through the whole engine, on the day the caller gives: the clean warranty deed recorded on
    /// 2023-03-14 is sure read in 2026 and in review read as if in 2020.
    @Test func theDayOfReadingIsTheCallers() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path
        let worker = try OCRWorker(orientation: false)
        let path = root + "/TestDocuments/deed_warranty.clean.png"
        var options = OCROptions()
        options.today = try #require(ISO8601DateFormatter().date(from: "2026-12-05T12:00:00Z"))
        let now = try worker.process(path: path, options: options).pages[0]
        #expect(now.fields["recording_date"]?.value.string == "2023-03-14")
        #expect(now.fields["recording_date"]?.needsReview == false)
        options.today = try #require(ISO8601DateFormatter().date(from: "2020-06-01T12:00:00Z"))
        let then = try worker.process(path: path, options: options).pages[0]
        #expect(then.fields["recording_date"]?.value.string == "2023-03-14")
        #expect(then.fields["recording_date"]?.needsReview == true)
    }
}

/// Values a layout left unread or read with the next column's words, seen on the same fresh dev
/// seeds: parties in two columns, a licence's number under a garbled label, a label whose colon
/// was read as a full stop, pairs parted by dashes.
@Suite struct ColumnsAndPairsTests {
    /// Two parties' columns whose values run close: the grantor's last word reaches under the
    /// grantee's label ("… GARCIA MARQUEZ" then "oGuz GUNES" under "TO (GRANTEE)").
    @Test func aColumnsValueIsNotTheLeftColumnsLastWord() {
        var page = WordPage([])
        page.line("GRANT DEED", y: 50)
        page.line("FROM (GRANTOR)", x: 100, y: 100)
        page.line("TO (GRANTEE)", x: 800, y: 100)
        page.line("MARIA DE LOS ANGELES GARCIA MARQUEZ", x: 100, y: 150)
        page.line("oGuz GUNES", x: 830, y: 150)
        let f = FieldExtractor.deed(page.lines)
        #expect(f["grantor"]?.value.string == "MARIA DE LOS ANGELES GARCIA MARQUEZ")
        // Its capitals shaped as small letters read small: in capitals, for review.
        #expect(f["grantee"]?.value.string == "OGUZ GUNES")
        #expect(f["grantee"]?.needsReview == true)
    }

    /// The two columns' values read as one phrase parted by the rule between them.
    @Test func aRuleReadAsAMarkPartsTwoColumns() {
        var page = WordPage([])
        page.line("SPECIAL WARRANTY DEED", y: 50)
        page.line("GRANTOR(S)", x: 100, y: 100)
        page.line("GRANTEE(S)", x: 800, y: 100)
        // (IYER's middle within three line heights left of the grantee's label: under it, as read.)
        page.line("LAKSHMINARASIMHAN SRINIVASA IYER | SOMCHAI PHANOMYONG", x: 100, y: 150, height: 45)
        let f = FieldExtractor.deed(page.lines)
        #expect(f["grantor"]?.value.string == "LAKSHMINARASIMHAN SRINIVASA IYER")
        #expect(f["grantee"]?.value.string == "SOMCHAI PHANOMYONG")
    }

    /// A licence's number after "4d DLN" read as "40 OL" or "J¢ DIN"; not the discriminator's.
    @Test func aLicenceNumberUnderAGarbledLabel() {
        for garbled in ["40 OL 359851864", "J¢ DIN 336878618", "4d OLN 719853483"] {
            let f = FieldExtractor.idVisual(WordPage(["NORTH CAROLINA", "DRIVER LICENSE", garbled, "1 TUPOU", "2 SIONE",
                                                      "3 DOB 10/09/1960 4b EXP 03/26/2032", "5 DD 50197119907477"]).lines)
            #expect(f["document_number"]?.value.string == String(garbled.split(separator: " ").last!), "\(garbled): \(f)")
            #expect(f["document_number"]?.needsReview == true)
        }
        let discriminator = FieldExtractor.idVisual(WordPage(["NORTH CAROLINA", "DRIVER LICENSE", "1 TUPOU", "2 SIONE",
                                                             "3 DOB 10/09/1960 4b EXP 03/26/2032", "5 DD 50197119907477"]).lines)
        #expect(discriminator["document_number"] == nil, "\(discriminator)")
    }

    /// "City. Sacramento": a colon read as a full stop after a whole label word.
    @Test func aLabelsColonReadAsAFullStop() {
        let f = FieldExtractor.optout(WordPage(["Consumer Opt-Out Form", "Name of Requester: Omar Abu Bakr Al Siddiq",
                                                "City. Sacramento", "State. CA", "Postal Code 95814"]).lines)
        #expect(f["city"]?.value.string == "Sacramento")
    }

    /// Several pairs on a line parted by dashes, the last glued to its label ("ZIP Code-40507").
    @Test func pairsPartedByDashes() {
        let f = FieldExtractor.optout(WordPage(["Opt-Out Request", "Full Name - Ana Lima",
                                                "City - Lexington State - Kentucky ZIP Code-40507 Phone - 648-534-8219"]).lines)
        #expect(f["city"]?.value.string == "Lexington")
        #expect(f["state"]?.value.string == "KY")
        #expect(f["zip"]?.value.string == "40507")
        #expect(f["phone"]?.value.string == "648-534-8219")
    }

    /// "Aoife Q'Sullivan": no name opens with Q before an apostrophe. "Mill Creek Avenue. Apt 37":
    /// a comma read as a full stop after a street type spelled out (not after "St.").
    @Test func anOReadAsQAndACommaReadAsAFullStop() {
        let f = FieldExtractor.deed(WordPage(["WARRANTY DEED", "Grantor: Bjorn Muller", "Grantee: Aoife Q'Sullivan"]).lines)
        #expect(f["grantee"]?.value.string == "Aoife O'Sullivan")
        #expect(f["grantee"]?.needsReview == true)
        let a = FieldExtractor.optout(WordPage(["Opt-Out Request", "Name: Pimchanok Suwannakittiwong",
                                                "Home Address: 6363 Mill Creek Avenue. Apt 37", "City: Austin"]).lines)
        #expect(a["street_address"]?.value.string == "6363 Mill Creek Avenue, Apt 37")
        #expect(a["street_address"]?.needsReview == true)
        let st = FieldExtractor.optout(WordPage(["Opt-Out Request", "Name: Pimchanok Suwannakittiwong",
                                                 "Home Address: 6363 Main St. Apt 37", "City: Austin"]).lines)
        #expect(st["street_address"]?.value.string == "6363 Main St. Apt 37")
    }
}

/// Marks and digits read for others in values a sentence or a card gives (web seed 21, identity
/// pages 82–83).
@Suite struct MisreadMarksTests {
    /// "1961.1 live at …" (the I glued to the sentence before as a 1), "[ live at" (a fax's I),
    /// and a comma read as a full stop after the street's type.
    @Test func anAddressInASentenceReadWithSlips() {
        let glued = FieldExtractor.optout(WordPage(["From: Bao Vu <bao.vu@inbox.example.net>", "To: dsar@whitepages.com",
                                                    "Subject: Removal request OPT-552652",
                                                    "My name is Bao Vu and | was born on Jan. 25, 1961.1 live at 869 Washington Way. Tucson, AZ 85701."]).lines)
        #expect(glued["street_address"]?.value.string == "869 Washington Way")
        #expect(glued["city"]?.value.string == "Tucson" && glued["zip"]?.value.string == "85701")
        #expect(glued["street_address"]?.needsReview == true)
        let bracket = FieldExtractor.optout(WordPage(["From: Asa Astrom <asa14@mail.example.org>", "To: privacy@spokeo.com",
                                                      "My name is Asa Astrom and | was born on 12/7/1999, [ live at 6717 Willow Avenue, Charleston, SC 29401."]).lines)
        #expect(bracket["street_address"]?.value.string == "6717 Willow Avenue")
        #expect(bracket["state"]?.value.string == "SC")
    }

    /// A card's Y read as a yen sign; a date's 0 read as a 9 where only that gives a date.
    @Test func aCardsYAndZeroReadAsOtherMarks() {
        let f = FieldExtractor.idVisual(WordPage(["REPUBLIC OF UTOPIA", "RESIDENCE PERMIT", "Family name: BAKKER", "Given names: JOOST MAARTEN",
                                                  "Date of birth: 93/14/2002 Sex: F", "Document No.: ¥6340197", "Valid until: 96/17/2028"]).lines)
        #expect(f["document_number"]?.value.string == "Y6340197")
        #expect(f["date_of_birth"]?.value.string == "2002-03-14")
        #expect(f["expiry_date"]?.value.string == "2028-06-17")
        #expect(f["document_number"]?.needsReview == true && f["date_of_birth"]?.needsReview == true)
        // A 9 that stands: "19/08/2020" is a date as read.
        #expect(FieldExtractor.mended("19/08/2020", field: "date_of_birth") == nil)
    }

    /// A space among a parcel number's groups parted by dashes: a dash a fax lost ("29
    /// 3402-115-86" for 29-3402-115-86) or a group read apart ("34-931 2-923-62"). Joined as
    /// before, but for review (the first was reported sure, and wrong). Groups parted by spaces
    /// alone are the number's own.
    @Test func aParcelNumbersSpaceAmongDashes() {
        for (read, joined) in [("29 3402-115-86", "293402-115-86"), ("34-931 2-923-62", "34-9312-923-62")] {
            let f = FieldExtractor.deed(WordPage(["WARRANTY DEED", "Parcel ID: " + read, "Grantor: Somchai Bunnag"]).lines)
            #expect(f["parcel_number"]?.value.string == joined)
            #expect(f["parcel_number"]?.needsReview == true)
        }
        #expect(FieldExtractor.parcel("690 11 960")?.string == "69011960")
    }

    /// An amount whose marks a fax read as full stops and commas mixed ("$1.040,000,00"): with two
    /// digits last and three in every other group, one reading only.
    @Test func anAmountsMarksReadMixed() {
        #expect(FieldExtractor.amount("$1.040,000,00")?.number == 1_040_000)
        #expect(FieldExtractor.amount("$1.350.000.00")?.number == 1_350_000)
        #expect(FieldExtractor.amount("$2,409,000.00")?.number == 2_409_000)
        #expect(FieldExtractor.amount("$2,409.000.00")?.number == 2_409_000)
        #expect(FieldExtractor.amount("$1.04,000,00") == nil)
        // Commas alone: an amount cut short by the page's edge ("$1,365,000.00" as "$1,365,00").
        #expect(FieldExtractor.amount("$1,365,00") == nil)
        let cut = FieldExtractor.deed(WordPage(["QUITCLAIM DEED", "Assessor's Parcel Number: 89-4781-979-41 Total Consideration: $1,365,00"]).lines)
        #expect(cut["consideration"] == nil)
    }
}

/// Names and references read with a letter as a digit or a mark, seen on fresh dev seeds (dev 93,
/// photocopies 94–96): mended where only one letter fits, and for review.
@Suite struct LettersReadAsMarksTests {
    static func field(_ s: String, _ confidence: Double = 90) -> Field { Field(value: .text(s), confidence: confidence, box: nil) }

    /// "8a0 Vu" (Bao), "Zs6fia" (an ó), "RO8ERT": no name holds a digit.
    @Test func digitsInANameAreItsLetters() {
        #expect(FieldExtractor.lettersMended("8a0 Vu") == "Bao Vu")
        #expect(FieldExtractor.lettersMended("Zs6fia Kovacs") == "Zsofia Kovacs")
        #expect(FieldExtractor.lettersMended("RO8ERT SMITH") == "ROBERT SMITH")
        #expect(FieldExtractor.lettersMended("J0HN SMITH") == "JOHN SMITH")
        let f = FieldExtractor.optout(WordPage(["Opt-Out Request", "Your Name: 8a0 Vu", "City: Tucson"]).lines)
        #expect(f["full_name"]?.value.string == "Bao Vu")
        #expect(f["full_name"]?.needsReview == true)
    }

    /// A full stop after a whole word of a name is a speck; after an abbreviation it is printed.
    @Test func aFullStopAfterAWholeWordOfAName() {
        let f = FieldExtractor.review(["full_name": Self.field("Ibrahim. Yilmaz"), "grantor": Self.field("Wm. Smith")])
        #expect(f["full_name"]?.value.string == "Ibrahim Yilmaz" && f["full_name"]?.needsReview == true)
        #expect(f["grantor"]?.value.string == "Wm. Smith" && f["grantor"]?.needsReview == false)
    }

    /// "QPT-592322": a reference's prefix opens with no Q before a consonant.
    @Test func aQOpeningAReferenceGoesToReview() {
        #expect(FieldExtractor.review(["request_id": Self.field("QPT-592322")])["request_id"]?.needsReview == true)
        #expect(FieldExtractor.review(["request_id": Self.field("OPT-592322")])["request_id"]?.needsReview == false)
    }

    /// A mailbox a letter off a name read poorly ("cagn.gunes" beside "Cain Güneş" at 55): two
    /// readings that disagree, neither mended.
    @Test func aMailboxOffAPoorlyReadName() {
        var f = ["email": Self.field("cagn.gunes@mail.example.org", 87), "full_name": Self.field("Cain Güneş", 55)]
        FieldExtractor.namesAgreed(&f)
        #expect(f["email"]?.value.string == "cagn.gunes@mail.example.org" && f["email"]?.needsReview == true)
        var agreeing = ["email": Self.field("cain.gunes@mail.example.org", 87), "full_name": Self.field("Cain Güneş", 55)]
        FieldExtractor.namesAgreed(&agreeing)
        #expect(agreeing["email"]?.needsReview == false)
    }

    /// A surname under its label whose particle stands apart ("VAN", a wide space, "'T HOF"):
    /// the whole name, not the particle alone.
    @Test func aParticleSetApartFromTheRestOfTheName() {
        var p = WordPage()
        p.line("REPUBLIC OF UTOPIA PASSPORT", y: 50)
        p.line("Surname / Nom", x: 600, y: 150, height: 20)
        p.words += [("VAN", 600, 60), ("'T", 710, 30), ("HOF", 790, 60)].enumerated().map { i, w in
            Word(text: w.0, confidence: 93, box: BoundingBox(x: w.1, y: 180, width: w.2, height: 30), block: 90, paragraph: 1, line: 1, word: i)
        }
        p.line("Given names / Prénoms", x: 600, y: 240, height: 20)
        p.line("GEERTRUIDA", x: 600, y: 270)
        let f = FieldExtractor.idVisual(p.lines)
        #expect(f["surname"]?.value.string == "VAN 'T HOF")
        #expect(f["given_names"]?.value.string == "GEERTRUIDA")
    }

    /// A fax's place row under labels misread past knowing ("city  trate  Portal Code"), its ZIP
    /// read with a digit twice and a rule after it: the state's one ZIP a digit less, for review.
    @Test func aPlacesZipReadWithADigitTwice() {
        let page = ["OPT-OUT REQUEST FORM — PeopleFinders", "Your Name   Birth Date", "Kwame Ouedraogo   12 August 1947",
                    "city   trate   Portal Code"]
        let f = FieldExtractor.optout(WordPage(page + ["Lexington   KY   440507 -"]).lines)
        #expect(f["zip"]?.value.string == "40507" && f["zip"]?.needsReview == true)
        #expect(f["state"]?.value.string == "KY" && f["state"]?.needsReview == true)
        // Two ways of dropping a digit that both give a Kentucky ZIP: neither is taken.
        let two = FieldExtractor.optout(WordPage(page + ["Lexington   KY   405071"]).lines)
        #expect(two["zip"] == nil)
    }

    /// A card's label with one word two letters off beside a whole word ("Caven names" on a fax):
    /// that label, for review; two words off, or a short word, no label.
    @Test func aCardsLabelWithOneWordTwoLettersOff() {
        let f = FieldExtractor.idVisual(WordPage(card: [(labels: "Surname", values: "ZHANG"), (labels: "Caven names", values: "JIA HUI"),
                                                        (labels: "Date of birth", values: "04/10/1944")]).lines)
        #expect(f["given_names"]?.value.string == "JIA HUI" && f["given_names"]?.needsReview == true)
        #expect(PageLayout.lenientCost(["caven", "names"], ["given", "names"]) == 2)
        #expect(PageLayout.lenientCost(["caven", "nemes"], ["given", "names"]) == nil)
        #expect(PageLayout.lenientCost(["cite", "of", "eapary"], ["date", "of", "expiry"]) == nil)
    }

    /// A card's date with a field number or a label's letters read as digits glued before it
    /// ("20806/12/2004"; "027 July 2035" reads as a date already).
    @Test func digitsGluedBeforeADate() {
        #expect(FieldExtractor.mended("20806/12/2004", field: "date_of_birth") == "06/12/2004")
        #expect(FieldExtractor.mended("4b527.07.2035", field: "expiry_date") == nil)
        #expect(FieldExtractor.mended("52727.07.2035", field: "expiry_date") == "27.07.2035")
        // A year opens a date with four digits; two digits are a day as printed.
        #expect(FieldExtractor.mended("2004-06-12", field: "date_of_birth") == nil)
        #expect(FieldExtractor.mended("31/02/2020", field: "date_of_birth") == nil)
    }

    /// ".com/" read as ".cony" or ".comil" before a listing's path word.
    @Test func aListingsComSlashReadAsLetters() {
        #expect(FieldExtractor.urlGlyphsMended("https://www.checkpeople.conyp/seo-yeon-takahashi/45310")
            == "https://www.checkpeople.com/p/seo-yeon-takahashi/45310")
        #expect(FieldExtractor.urlGlyphsMended("https://www.nuwber.comillisting/fatima-zahra-al-siddiq/77132")
            == "https://www.nuwber.com/listing/fatima-zahra-al-siddiq/77132")
        #expect(FieldExtractor.urlGlyphsMended("https://www.spokeo.conyprofile/li-na-li/85138") == "https://www.spokeo.com/profile/li-na-li/85138")
        #expect(FieldExtractor.urlGlyphsMended("https://www.spokeo.com/profile/li-na-li/85138") == nil)
        #expect(FieldExtractor.urlGlyphsMended("https://www.company.co/people/li-na-li/85138") == nil)
    }

    /// "and TH! MINH KHAI TRAN (hereinafter "Grantee")": the party is not "MINH KHAI TRAN".
    @Test func aPartysNameWithAMarkForALetter() {
        let f = FieldExtractor.deed(WordPage(["SPECIAL WARRANTY DEED",
                                              "This deed by and between IOANNIS GEORGIOU (hereinafter \"Grantor\") and TH! MINH KHAI TRAN (hereinafter \"Grantee\")."]).lines)
        #expect(f["grantee"]?.value.string == "THI MINH KHAI TRAN")
        #expect(f["grantee"]?.needsReview == true)
        #expect(f["grantor"]?.value.string == "IOANNIS GEORGIOU")
    }
}
