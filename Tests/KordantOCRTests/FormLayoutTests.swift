import Foundation
@testable import KordantOCR
import Testing

/// Forms laid out as brokers and recorders print them: the broker's own letterhead over the
/// requester's details, ruled grids of label | value cells, several pairs to a line parted by
/// dashes or gaps, request options side by side, a deed's parties under their column headings.
@Suite struct FormLayoutTests {
    /// One printed line from (token, gap before it in pixels) pairs, 20 pixels a character, as
    /// Tesseract reports its words.
    func row(_ tokens: [(String, Int)], y: Int, height: Int = 30) -> [Word] {
        var x = 100
        return tokens.enumerated().map { n, t in
            x += t.1
            let w = Word(text: t.0, confidence: 92, box: BoundingBox(x: x, y: y, width: 20 * t.0.count, height: height),
                         block: y, paragraph: 1, line: 1, word: n)
            x += 20 * t.0.count
            return w
        }
    }

    /// A page left 0.7° askew (under the degree a slant is otherwise levelled from): the pairs
    /// along one printed line stand 18 px apart at its ends, more than half a letter height, and
    /// are one row once the page's lines are levelled. A photo whose lines slope each their own
    /// way (perspective) is not levelled so.
    @Test func pairsAlongALineOfAPageLeftAskew() throws {
        /// `tokens` (text, x) on one Tesseract line starting at `y`, sloping `slope` px per px.
        func line(_ tokens: [(String, Int)], y: Int, slope: Double, block: Int) -> TextLine {
            TextLine(words: tokens.enumerated().map { n, t in
                Word(text: t.0, confidence: 92, box: BoundingBox(x: t.1, y: y + Int(slope * Double(t.1 - 100)), width: 16 * t.0.count, height: 30),
                     block: block, paragraph: 1, line: 1, word: n + 1)
            })
        }
        func page(_ slopes: [Double]) -> [TextLine] {
            [line([("Request", 100), ("to", 300), ("opt", 400), ("out", 1400), ("now", 1700)], y: 100, slope: slopes[0], block: 1),
             line([("Name", 100), ("Ana", 900), ("Lima", 1100), ("today", 1700)], y: 200, slope: slopes[1], block: 2),
             line([("Postal", 100), ("Code", 240), ("07102", 600), ("Phone", 1100), ("(236)", 1480), ("720-6592", 1600)], y: 300,
                  slope: slopes[2], block: 3),
             line([("Contact", 100), ("Email", 260), ("ana@example.com", 600), ("ok", 1800)], y: 400, slope: slopes[3], block: 4)]
        }
        let askew = page([0.012, 0.0125, 0.012, 0.0115])
        let rows = { (lines: [TextLine]) in PageLayout(lines: lines).rows.map { $0.segments.map(\.text) } }
        #expect(!rows(askew).contains(["Postal Code", "07102", "Phone", "(236) 720-6592"]), "as read, two rows")
        #expect(LevelledLines.slant(of: askew) == nil)
        let levelled = try #require(LevelledLines(askew, width: 2000, height: 600))
        #expect(abs(levelled.angle - atan(0.012)) < 0.001)
        #expect(rows(levelled.lines).contains(["Postal Code", "07102", "Phone", "(236) 720-6592"]), "\(rows(levelled.lines))")
        #expect(FieldExtractor.optout(levelled.lines)["phone"]?.value.string == "(236) 720-6592")
        // Level, nothing to level; sloping each its own way, nothing levelled.
        #expect(LevelledLines(page([0, 0.001, 0, -0.001]), width: 2000, height: 600) == nil)
        #expect(LevelledLines(page([-0.01, 0, 0.012, 0.03]), width: 2000, height: 600) == nil)
    }

    /// The broker's name, street, city and phone head the page: its phone is not the requester's,
    /// its street no sender's address, and its name is the word its web address spells.
    @Test func theBrokersLetterheadIsNotTheRequesters() {
        let p = WordPage(["Spokeo", "5078 Chestnut Road", "Pittsburgh, PA 15/222", "Phone 947.944.4016", "privacy@spokeo.com",
                          "Request to Delete or Stop the Sale of Personal Information", "Your Name: Liv Thorsson",
                          "Mobile: (574) 686-7839", "URL of Listing: https://www.spokeo.com/people/liv-thorsson/51571",
                          "I ask you to: Deletion"])
        let f = FieldExtractor.optout(p.lines)
        #expect(value(f, "data_broker") == "Spokeo" && f["data_broker"]?.needsReview == false)
        #expect(value(f, "phone") == "(574) 686-7839")
        #expect(value(f, "full_name") == "Liv Thorsson")
        #expect(f["street_address"] == nil && f["city"] == nil && f["zip"] == nil)
        // Its state code faxed into marks ("Nashville, [(N 37203"): still its letterhead.
        let g = FieldExtractor.optout(WordPage(["FastPeopleSearch", "5995 Hillcrest Way", "Nashville, [(N 37203", "Phone 321-553-6621",
                                                "Personal Information Removal Request", "Full Name: Zdenek Zak", "Phone: (712) 993-5330",
                                                "Web Address of Listing: https://www.fastpeoplesearch.com/p/zdenek-zak/21940"]).lines)
        #expect(value(g, "phone") == "(712) 993-5330")
    }

    /// The letterhead as a shadowed page was read: its contact line first, the broker's name set
    /// above it to the right second, and the phone after a separator ("· Tel." read "- Tel.") as a
    /// line of its own. The requester's daytime phone in the grid below is the phone; "Ticket No."
    /// labels the request's number.
    @Test func aLetterheadReadOutOfOrder() {
        var words = row([("4718", 0), ("Mill", 20), ("Creek", 20), ("Street", 20), ("-", 20), ("Spokane,", 20), ("WA", 20), ("99201", 20)], y: 350)
        words += [Word(text: "Radaris", confidence: 95, box: BoundingBox(x: 2271, y: 293, width: 203, height: 38), block: 2, paragraph: 1, line: 1, word: 0)]
        words += row([("-", 1820), ("Tel.", 20), ("1-800-719-7621", 20)], y: 350).map { w in
            var w = w
            w.block = 3
            return w
        }
        words += row([("REQUEST", 0), ("TO", 20), ("OPT", 20), ("OUT", 20)], y: 480)
        words += row([("Name:", 0), ("Sean", 20), ("McCarthy", 20)], y: 560)
        words += row([("Daytime", 0), ("Phone:", 20), ("893.784.0730", 20)], y: 620)
        words += row([("Ticket", 0), ("No.", 20), ("REQ-509426", 20)], y: 680)
        words += row([("Return", 0), ("to", 20), ("optout@radaris.com", 20)], y: 740)
        let f = FieldExtractor.optout(TextLine.group(words))
        #expect(value(f, "data_broker") == "Radaris")
        #expect(value(f, "phone") == "893.784.0730" && f["street_address"] == nil && f["zip"] == nil)
        #expect(value(f, "request_id") == "REQ-509426")
    }

    /// A title or letterhead naming the broker where the page's web address was read past
    /// knowing (a fax, a photo): "X: Opt-Out", "X LLC", a brand's "X Data Removal Form" or its name
    /// alone atop the page. The last two for review; a generic title or a word in capitals names
    /// no broker.
    @Test func theBrokerNamedByATitleWhenItsAddressIsLost() {
        let rest = ["Name: Ana Lima", "Listing URL: https:/Avww.acxiom.conyprofile/ana-lima/54796"]
        let colon = FieldExtractor.optout(WordPage(["Acxiom: Opt-Out"] + rest).lines)
        #expect(value(colon, "data_broker") == "Acxiom" && colon["data_broker"]?.needsReview != true)
        #expect(value(FieldExtractor.optout(WordPage(["BeenVerified LLC", "Privacy Department"] + rest).lines), "data_broker") == "BeenVerified")
        let brand = FieldExtractor.optout(WordPage(["ThatsThem Data Removal Form"] + rest).lines)
        #expect(value(brand, "data_broker") == "ThatsThem" && brand["data_broker"]?.needsReview == true)
        let alone = FieldExtractor.optout(WordPage(["ClustrMaps", "Re: removal of my listing"] + rest).lines)
        #expect(value(alone, "data_broker") == "ClustrMaps" && alone["data_broker"]?.needsReview == true)
        #expect(FieldExtractor.optout(WordPage(["Consumer Data Removal Form"] + rest).lines)["data_broker"] == nil)
        #expect(FieldExtractor.optout(WordPage(["CONFIDENTIAL", "Re: removal of my listing"] + rest).lines)["data_broker"] == nil)
    }

    /// Any title's wording names the broker when a word of it spells the page's web domain; a
    /// section heading never does, and a name one letter off the domain goes to review.
    @Test func theBrokerIsTheWordItsWebAddressSpells() {
        let url = "Listing URL: https://www.mylife.com/profile/ana-lima/56087"
        #expect(value(FieldExtractor.optout(WordPage(["PRIVACY REQUEST (MyLife)", "Name: Ana Lima", url]).lines), "data_broker") == "MyLife")
        #expect(value(FieldExtractor.optout(WordPage(["MYLIFE CONSUMER REQUEST", "Name: Ana Lima", url]).lines), "data_broker") == "MYLIFE")
        let twoWords = FieldExtractor.optout(WordPage(["Epsilon Data: Opt-Out", "Name: Ana Lima",
                                                       "Profile URL: https://www.epsilondata.com/people/ana-lima/1"]).lines)
        #expect(value(twoWords, "data_broker") == "Epsilon Data")
        let misread = FieldExtractor.optout(WordPage(["CheckPeople: Opt-Out", "Name: Ana Lima",
                                                      "Profile URL: https://www.checkpeopie.com/people/ana-lima/1"]).lines)
        #expect(value(misread, "data_broker") == "CheckPeople" && misread["data_broker"]?.needsReview == true)
        let section = FieldExtractor.optout(WordPage(["Section B — Request", "Name: Ana Lima", "[X] Delete my personal information",
                                                      "[ ] Send me a copy of my data"]).lines)
        #expect(section["data_broker"] == nil)
        // A title's broker that spells none of the page's domains is kept, for review.
        let other = FieldExtractor.optout(WordPage(["REMOVAL REQUEST — Radaris", "Name: Ana Lima", url]).lines)
        #expect(value(other, "data_broker") == "Radaris" && other["data_broker"]?.needsReview == true)
    }

    /// A grid's cells: the rule between label and value read as "|" or "__|", the value's cell
    /// starting with its rule, a dash between label and value, a label word inside a value.
    @Test func labelsAndValuesInRuledCells() {
        let p = WordPage(["Data Removal Form", "Full Name __| Priya Chakraborty", "Home Address | 9676 Highland Street",
                          "Birthdate   | 1984-08-15", "Town — Billings", "Mobile - 620.567.9521"])
        let f = FieldExtractor.optout(p.lines)
        #expect(value(f, "full_name") == "Priya Chakraborty")
        #expect(value(f, "street_address") == "9676 Highland Street")
        #expect(value(f, "date_of_birth") == "1984-08-15")
        #expect(value(f, "city") == "Billings")
        #expect(value(f, "phone") == "620.567.9521")

        // A gap wider than a space parts a label from its value, but only for a label that opens
        // its cell: "City" inside "Salt Lake City" is no label.
        let words = row([("Opt-Out", 0), ("Request", 20)], y: 50)
            + row([("City:", 0), ("Salt", 20), ("Lake", 20), ("City", 20), ("State:", 45), ("UT", 20)], y: 100)
            + row([("Name", 0), ("Ana", 45), ("Lima", 20)], y: 150)
        let g = FieldExtractor.optout(TextLine.group(words))
        #expect(value(g, "city") == "Salt Lake City" && value(g, "state") == "UT")
        #expect(value(g, "full_name") == "Ana Lima")
        // A label past a wide gap at the end of its phrase has its value in the next cell.
        let cells = FieldExtractor.optout(TextLine.group(row([("Opt-Out", 0), ("Request", 20)], y: 50)
            + row([("Town", 0), ("—", 20), ("Billings", 20), ("State", 45), ("MT", 62)], y: 100)))
        #expect(value(cells, "city") == "Billings" && value(cells, "state") == "MT")
        // A photocopy's loose space (0.8 of a letter height) before a label word inside a value
        // opens no cell: "227 Juniper Street" stays whole.
        let loose = FieldExtractor.optout(TextLine.group(row([("Opt-Out", 0), ("Request", 20)], y: 50)
            + row([("Home", 0), ("Address:", 20), ("227", 20), ("Juniper", 20), ("Street", 24)], y: 100)))
        #expect(value(loose, "street_address") == "227 Juniper Street")
        // With a space's width between them, a label without a colon gives no free-text value.
        let h = FieldExtractor.optout(TextLine.group(row([("Opt-Out", 0), ("Request", 20)], y: 50) + row([("Name", 0), ("Ana", 20), ("Lima", 20)], y: 100)))
        #expect(h["full_name"] == nil)
    }

    /// Request options side by side on one line, each in its own cell.
    @Test func optionsSideBySide() {
        let f = FieldExtractor.optout(WordPage(["Opt-out request", "Action requested:", "[X] Delete   [ ] Do Not Sell   [X] Access"]).lines)
        #expect(value(f, "request_options") == "access,delete")
        // One cell naming one option is read as before: a row of its own.
        let g = FieldExtractor.optout(WordPage(["Opt-out request", "[ ] Delete my personal information", "[X] Stop selling my data"]).lines)
        #expect(value(g, "request_options") == "do_not_sell")
    }

    /// A deed's parties in a two-column table, each under its role's heading ("FROM (GRANTOR)",
    /// "| TRANSFEREE" read with the column's rule).
    @Test(arguments: [("FROM (GRANTOR)   TO (GRANTEE)", "SIONE TUPOU", "NJERI KIPLAGAT"),
                      ("TRANSFEROR   | TRANSFEREE", "Abebe Kiplagat", "Bjorn Kohler")])
    func partiesUnderTheirColumnHeadings(headings: String, grantor: String, grantee: String) {
        var p = WordPage()
        p.line("WARRANTY DEED", y: 50)
        p.line(headings, y: 100)
        p.line("\(grantor)   \(grantee)", y: 150)
        let f = FieldExtractor.deed(p.lines)
        #expect(value(f, "grantor") == grantor && value(f, "grantee") == grantee)
    }

    /// A street word read in small letters is a capital misread: the address goes to review.
    @Test func aStreetWordInSmallLettersIsForReview() {
        let misread = FieldExtractor.deed(WordPage(["WARRANTY DEED", "Property Address: 984 Oak tane, Apt 21, Ann Arbor, MI 48104"]).lines)
        #expect(value(misread, "property_address") == "984 Oak tane, Apt 21, Ann Arbor, MI 48104" && misread["property_address"]?.needsReview == true)
        let read = FieldExtractor.deed(WordPage(["WARRANTY DEED", "Property Address: 1427 Juniper Hollow Lane, Austin, TX 78745"]).lines)
        #expect(read["property_address"]?.needsReview == false)
    }

    /// A request named in other words ("Suppression"), its options read with their spaces lost.
    @Test func anOptOutInOtherWords() {
        #expect(FieldExtractor.detectKind("Spokeo — Suppression Request\nYour Name: Van An Tran\n[X]Delete [X]DoNotSell") == .optout)
        #expect(FieldExtractor.detectKind("Oak Bakery\nThe meeting next week will bring bread and tea") == .unknown)
    }
}
