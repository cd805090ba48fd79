import Foundation
@testable import KordantOCR
import Testing

/// Values as Tesseract read them on pages of a fresh dev seed (dev 53, identity pages 44–45,
/// faxes 49–50, web 15): a box's rule read as a bracket or bar against a value, speckle after a
/// name, a label's letter read as a look-alike symbol or digit, a digit read apart. Each is
/// mended only where one reading is possible; a guess goes to review.
@Suite struct MarksAndSlipsTests {
    /// A grid form's rules read against its labels and values: "Name}", "[Aminata", a rule "|"
    /// before the next cell's label, speckle after a name ("Wanjiru.~—").
    @Test func rulesReadAsBracketsAndBars() {
        let closing = FieldExtractor.optout(WordPage(["USPhoneBook Data Removal Form", "Full Name} Eliud Haile Selassie",
                                                      "Town Albany State New York"]).lines)
        #expect(value(closing, "full_name") == "Eliud Haile Selassie", "\(closing)")

        var grid = WordPage()
        grid.line("Do Not Sell Request — TruthFinder", y: 50)
        grid.line("Your Name   [Aminata Nwachukwu | Birth Date [07/07/1986", y: 150)
        grid.line("Home Address   2537 Sunset Terrace", y: 250)
        let g = FieldExtractor.optout(grid.lines)
        #expect(value(g, "full_name") == "Aminata Nwachukwu", "\(g)")
        #expect(value(g, "date_of_birth") == "1986-07-07", "\(g)")

        // A pair's dash glued to a state's code.
        let dash = FieldExtractor.optout(WordPage(["Instant Checkmate: Opt-Out", "Name of Requester - Kittisak Bunnag",
                                               "Home Address - 8306 Park Place", "Town - Baton Rouge   State -LA   ZIP Code - 70801"]).lines)
        #expect(value(dash, "city") == "Baton Rouge" && value(dash, "state") == "LA", "\(dash)")
        #expect(PageLayout.splitLeadingDash(Word(text: "-LA", confidence: 90, box: BoundingBox(x: 0, y: 0, width: 30, height: 20),
                                                 block: 1, paragraph: 1, line: 1, word: 1)).map(\.text) == ["-", "LA"])

        let speck = FieldExtractor.optout(WordPage(["MyLife — Suppression Request",
                                                    "Name of Requester - Njeri Wanjiru.~—   Birthdate - 11/17/1951"]).lines)
        #expect(value(speck, "full_name") == "Njeri Wanjiru", "\(speck)")
        // A bracket against capitals or a number may be a letter or digit: kept.
        #expect(PageLayout.withoutStrayMarks(Word(text: "[YER", confidence: 90, box: BoundingBox(x: 0, y: 0, width: 40, height: 20),
                                                  block: 1, paragraph: 1, line: 1, word: 1)).text == "[YER")
        #expect(PageLayout.withoutStrayMarks(Word(text: "8750]", confidence: 90, box: BoundingBox(x: 0, y: 0, width: 50, height: 20),
                                                  block: 1, paragraph: 1, line: 1, word: 1)).text == "8750]")
    }

    /// A stacked form's "CITY" with its Y read as a yen sign, and a broker named in brackets
    /// after the title.
    @Test func aLabelWithASymbolAndABrokerInBrackets() {
        let f = FieldExtractor.optout(WordPage(["PRIVACY REQUEST (FastPeopleSearch)", "FULL NAME", "Kittisak Suwannakittiwong",
                                                "CIT¥", "Columbus", "STATE", "Ohio"]).lines)
        #expect(value(f, "city") == "Columbus", "\(f)")
        #expect(value(f, "data_broker") == "FastPeopleSearch", "\(f)")
        let two = FieldExtractor.optout(WordPage(["PRIVACY REQUEST (Instant Checkmate)", "FULL NAME", "Ana Lima"]).lines)
        #expect(value(two, "data_broker") == "Instant Checkmate", "\(two)")
        // An option in brackets is no broker.
        let option = FieldExtractor.optout(WordPage(["DATA SUBJECT REQUEST", "FULL NAME", "Ana Lima", "Request type",
                                                     "Access request (copy of my information)"]).lines)
        #expect(value(option, "data_broker") == nil, "\(option)")
    }

    /// A letter's sender block whose ZIP ends in a 1 read as a bracket: mended, for review.
    @Test func aSenderZIPWithABracketForAOne() {
        let f = FieldExtractor.optout(WordPage(["Xiaoming Ng", "4144 Main Terrace", "Santa Fe, NM 8750]", "01/01/2024",
                                                "To: Radaris Privacy Team", "Dear Radaris Privacy Team,"]).lines)
        #expect(value(f, "zip") == "87501" && f["zip"]?.needsReview == true, "\(f)")
        #expect(value(f, "city") == "Santa Fe" && value(f, "state") == "NM")
        #expect(value(f, "street_address") == "4144 Main Terrace")
        // A street whose short type is a letter off is kept as read, not sure.
        let g = FieldExtractor.optout(WordPage(["Opt-out request", "Street address: 333 Birch Roae"]).lines)
        #expect(value(g, "street_address") == "333 Birch Roae" && g["street_address"]?.needsReview == true)
        let h = FieldExtractor.optout(WordPage(["Opt-out request", "Street address: 333 Birch Road"]).lines)
        #expect(value(h, "street_address") == "333 Birch Road" && h["street_address"]?.needsReview == false)
    }

    /// Identity values read with a slip: "No." read as a dash against the number, a day's digits
    /// apart, a licence's 15 read as "1s" before "SEX", its "FN" as "PN", a surname's I as a
    /// bracket, a speck after a given name.
    @Test func identitySlips() {
        let permit = FieldExtractor.idVisual(WordPage(["REPUBLIC OF UTOPIA", "RESIDENCE PERMIT", "Surname:NGUYEN",
                                                       "Date of birth:1 1 August 1990", "Document No-L2193804"]).lines)
        #expect(value(permit, "document_number") == "L2193804", "\(permit)")
        #expect(value(permit, "date_of_birth") == "1990-08-11" && permit["date_of_birth"]?.needsReview == true, "\(permit)")

        let licence = FieldExtractor.idVisual(WordPage(["NORTH CAROLINA DRIVER'S LICENSE USA", "4d DLN W303-2621-7173", "1 IBANEZ",
                                                        "2 JUAN CARLOS ALBERTO", "3 DOB 11/07/1958 1s SEX F",
                                                        "4a ISS 08/15/2016 4b EXP 08/15/2026"]).lines)
        #expect(value(licence, "sex") == "F", "\(licence)")
        // "is" is no 15: "SEX" mid-line is no label there, and the F after the date is taken only
        // by its shape (`byValueShape`), for review.
        let notNumbered = FieldExtractor.idVisual(WordPage(["NORTH CAROLINA DRIVER'S LICENSE USA", "4d DLN W303-2621-7173",
                                                            "3 DOB 11/07/1958 is SEX F", "4a ISS 08/15/2016 4b EXP 08/15/2026"]).lines)
        #expect(value(notNumbered, "sex") == "F" && notNumbered["sex"]?.needsReview == true)
        #expect(licence["sex"]?.needsReview == false)

        var wisconsin = WordPage()
        for (i, row) in ["WISCONSIN", "OPERATOR LICENSE", "LIC# V2018478", "LN ERDOS", "PN GYULA", "DOB 03/03/1943 EXP 10/05/2030"].enumerated() {
            wisconsin.line(row, y: 50 + 50 * i)
        }
        let w = FieldExtractor.idVisual(wisconsin.lines)
        #expect(value(w, "surname") == "ERDOS", "\(w)")
        #expect(value(w, "given_names") == "GYULA" && w["given_names"]?.needsReview == true, "\(w)")

        // A licence's given name glued to its "FN".
        let glued = FieldExtractor.idVisual(WordPage(["COLORADO", "OPERATOR LICENSE", "DOB 12/01/2005 EXP 09/13/2036", "DLN N1065210",
                                                      "LN WANG", "FNYU"]).lines)
        #expect(value(glued, "surname") == "WANG" && value(glued, "given_names") == "YU", "\(glued)")
        let texas = FieldExtractor.idVisual(WordPage(["TEXAS", "DRIVER'S LICENSE", "DLN X25C47558", "WN PHAM", "FNVAN AN",
                                                      "ADDRESS 1794 LAKEVIEW DRIVE"]).lines)
        #expect(value(texas, "surname") == "PHAM" && value(texas, "given_names") == "VAN AN", "\(texas)")

        let card = FieldExtractor.idVisual(WordPage(["REPUBLIC OF UTOPIA", "RESIDENCE PERMIT", "Family name: [YER",
                                                     "Given names: BABAJIDE. OLUWATOBILOBA"]).lines)
        #expect(value(card, "surname") == "IYER" && card["surname"]?.needsReview == true, "\(card)")
        #expect(value(card, "given_names") == "BABAJIDE OLUWATOBILOBA" && card["given_names"]?.needsReview == true, "\(card)")
    }

    /// A fax of a card whose every label was lost is still a card: a sex beside a country code,
    /// dates as the visual zone prints them. A receipt with a date is not.
    @Test func aCardWithoutLabelsIsACard() {
        #expect(FieldExtractor.detectKind("TU TAL LUE) ab ere\nPHAM\nVAN AN\nF SEN\n13 FEB 1966\n02 MAR 2025 02 MAR 2033\nNT3940412") == .id)
        #expect(FieldExtractor.detectKind("SANDS HARDWARE\nDATE 13 FEB 2019\nNAILS 2.50\nTOTAL 2.50\nCASH 5.00") == .unknown)
    }

    /// A letter's "My name is" with the name's capital I read as a small l: mended, for review.
    @Test func aProseNameWithItsIReadAsL() {
        let f = FieldExtractor.optout(WordPage(["To the ThatsThem privacy team,",
                                                "My name is loannis Georgiou and I was born on 25 January 1977."]).lines)
        #expect(value(f, "full_name") == "Ioannis Georgiou" && f["full_name"]?.needsReview == true, "\(f)")
    }

    /// Numbers and names of deeds and requests read with a slip: an instrument number's digits
    /// apart, a reference's 7 as a slash, an amount's "$1," read poorly apart from the rest or its
    /// commas and point all read as spaces, a party's first I read as a small l, a speck read as a
    /// degree sign inside a name. Each mended for review.
    @Test func numbersAndPartiesReadWithASlip() {
        let d = FieldExtractor.deed(WordPage(["BARGAIN AND SALE DEED", "Filed for record: 2004-11-18 Instrument No.: 2004-31 7036",
                                              "lsolde Bloggs and Ute Kohler, Grantor, for and in consideration of $1,591,500.00, hereby grants to Ana",
                                              "Lima, Grantee, the real property in Hartford County."]).lines)
        #expect(value(d, "instrument_number") == "2004-317036" && d["instrument_number"]?.needsReview == true, "\(d)")
        #expect(value(d, "grantor") == "Isolde Bloggs and Ute Kohler" && d["grantor"]?.needsReview == true, "\(d)")

        var cells = WordPage()
        cells.line("WARRANTY DEED", y: 50)
        cells.line("Assessor's Parcel Number   Total Consideration", y: 150, height: 20)
        cells.line("822-35-139", y: 190)
        cells.words.append(Word(text: "$1,", confidence: 12.6, box: BoundingBox(x: 800, y: 190, width: 40, height: 25),
                                block: 99, paragraph: 1, line: 1, word: 0))
        cells.words.append(Word(text: "463,000.00", confidence: 96, box: BoundingBox(x: 845, y: 190, width: 200, height: 30),
                                block: 99, paragraph: 1, line: 1, word: 1))
        let amount = FieldExtractor.deed(cells.lines)
        #expect(value(amount, "consideration") == "1463000.0", "\(amount)")
        let spaced = FieldExtractor.deed(WordPage(["GRANT DEED", "Consideration | $2 011 000 00"]).lines)
        #expect(value(spaced, "consideration") == "2011000.0" && spaced["consideration"]?.needsReview == true, "\(spaced)")

        let o = FieldExtractor.optout(WordPage(["Acxiom — Opt-Out Request", "TICKET #", "CASE-/34565",
                                                "Your Name: Ke'alohilani Ka‘°ahumanu"]).lines)
        #expect(value(o, "request_id") == "CASE-734565" && o["request_id"]?.needsReview == true, "\(o)")
        #expect(value(o, "full_name") == "Ke'alohilani Kaʻahumanu" && o["full_name"]?.needsReview == true, "\(o)")
    }

    /// A card prints its names in capitals: small letters beside a name's label read a letter off
    /// are another label misread ("Given nemes Sea": the sex's), but a name read in small letters
    /// after its label read whole is the name.
    @Test func smallLettersBesideACardsNameLabel() {
        let misread = FieldExtractor.idVisual(WordPage(["REPUBLIC OF UTOPIA", "IDENTITY CARD", "Surname: TER HORST", "Given nemes Sea"]).lines)
        #expect(value(misread, "surname") == "TER HORST" && value(misread, "given_names") == nil, "\(misread)")
        let small = FieldExtractor.idVisual(WordPage(["REPUBLIC OF UTOPIA", "RESIDENCE PERMIT", "Family name: BENARD-LACROIX", "First names: Loic"]).lines)
        #expect(value(small, "given_names") == "LOIC", "\(small)")
    }

    /// A heading in capitals whose label runs on in small words, in capitals too, over its value
    /// ("BEST NUMBER TO REACH YOU" over "915.681.4202").
    @Test func aHeadingInCapitalsRunningOnOverItsValue() {
        var page = WordPage()
        page.line("Epsilon Data", y: 50)
        page.line("Opt-Out Request Confirmation", y: 100)
        page.line("YOUR FULL NAME", y: 150, height: 20)
        page.line("Pimchanok Phanomyong", y: 180)
        page.line("YOUR E-MAIL ADDRESS", y: 250, height: 20)
        page.line("BEST NUMBER TO REACH YOU", x: 900, y: 250, height: 20)
        page.line("pimchanok78@mail.example.org", y: 280)
        page.line("915.681.4202", x: 900, y: 280)
        let f = FieldExtractor.optout(page.lines)
        #expect(value(f, "phone") == "915.681.4202" && value(f, "email") == "pimchanok78@mail.example.org", "\(f)")
    }
}

