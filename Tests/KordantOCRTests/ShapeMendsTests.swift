import Testing
@testable import KordantOCR

/// Values a fax or a stamp spoiled where their shape says what was printed: a deed's one-line
/// address (a ZIP's 7 read as a slash, a state code's letters as look-alikes, a house number's
/// digits as letters), a state code one letter of which was lost, a name's capital I read as a
/// rule against its label's colon, and a broker's letterhead with a stamp beside it.
@Suite struct ShapeMendsTests {
    /// ZIP, state and house number mended by their shapes; an address read whole, or one whose
    /// state its ZIP does not give, is left alone.
    @Test func aDeedsAddressMendedByItsShape() {
        #expect(FieldExtractor.addressMended("SO86 Mill Creek Drive, Ralergh, NC 2/601") == "5086 Mill Creek Drive, Ralergh, NC 27601")
        #expect(FieldExtractor.addressMended("4561 Pine Ridge Terrace, Albany, NY 1220/") == "4561 Pine Ridge Terrace, Albany, NY 12207")
        #expect(FieldExtractor.addressMended("8160 Oak Terrace, Austin, TX 78/01") == "8160 Oak Terrace, Austin, TX 78701")
        #expect(FieldExtractor.addressMended("4568 Cedar Terrace, Des Moines, 1A 50309") == "4568 Cedar Terrace, Des Moines, IA 50309")
        #expect(FieldExtractor.addressMended("4004 Juniper Boulevard, Austin, LX 78701") == "4004 Juniper Boulevard, Austin, TX 78701")
        #expect(FieldExtractor.addressMended("68/5 Birch Drive, Pittsburgh, PA 15222") == "6875 Birch Drive, Pittsburgh, PA 15222")
        #expect(FieldExtractor.addressMended("6875 Birch Drive, Pittsburgh, PA 15222") == nil)
        // A house number's own letter stays ("12B" is no 128).
        #expect(FieldExtractor.addressMended("12B Birch Drive, Pittsburgh, PA 1522/") == "12B Birch Drive, Pittsburgh, PA 15227")
        // A code the ZIP does not give ("NY" read as "QQ" beside Albany's 12207) is no guess to make.
        #expect(FieldExtractor.addressMended("4561 Pine Ridge Terrace, Albany, QQ 12207") == nil)
        // Nor is a ZIP of six characters.
        #expect(FieldExtractor.addressMended("4013 Washington Street, Tucson, AZ 857/01") == nil)
    }

    /// A unit's word a letter off ("Unil 9A") is the one unit word it is an edit from, for review;
    /// a word that is no unit's, or one before no number, is left.
    @Test func aUnitsWordALetterOff() {
        let f = FieldExtractor.review(["property_address": Field(value: .text("9894 Birch Avenue, Unil 9A, Austin, TX 78701"), confidence: 90, box: nil),
                                       "street_address": Field(value: .text("12 Oak Road, Unit 4"), confidence: 90, box: nil)])
        #expect(f["property_address"]?.value.string == "9894 Birch Avenue, Unit 9A, Austin, TX 78701")
        #expect(f["property_address"]?.needsReview == true)
        #expect(f["street_address"]?.value.string == "12 Oak Road, Unit 4" && f["street_address"]?.needsReview == false)
        let g = FieldExtractor.review(["property_address": Field(value: .text("9894 Birch Avenue, Erie, PA 16501"), confidence: 90, box: nil)])
        #expect(g["property_address"]?.value.string == "9894 Birch Avenue, Erie, PA 16501")
    }

    /// Under its label, over two lines, the address is mended whole and goes to review.
    @Test func aDeedsAddressOverTwoLinesUnderItsLabel() {
        let d = FieldExtractor.deed(WordPage(["QUITCLAIM DEED", "GRANTOR(S):", "YUKI SUZUKI", "SITUS ADDRESS:", "SO86 Mill Creek Drive",
                                              "Raleigh, NC 2/601", "The grantor hereby conveys the above property."]).lines)
        #expect(d["property_address"]?.value.string == "5086 Mill Creek Drive, Raleigh, NC 27601")
        #expect(d["property_address"]?.needsReview == true)
    }

    /// "W" beside 53703 is WI whose I was lost; a letter whose other is no thin stroke ("M" for
    /// MN), or that the ZIP's state does not hold, names nothing.
    @Test func aStateCodeWithAThinLetterLost() {
        #expect(FieldExtractor.stateNearZip("W", "53703") == "WI")
        #expect(FieldExtractor.stateNearZip("M", "55102") == nil)
        #expect(FieldExtractor.stateNearZip("W", "15222") == nil)
        let f = FieldExtractor.optout(WordPage(["BeenVerified Opt-Out Request", "Name: Abebe Kiplagat", "Street Address: 8789 Highland Way",
                                                "ZIP Code: 53703", "City: Madison State: W"]).lines)
        #expect(f["state"]?.value.string == "WI" && f["state"]?.needsReview == true)
    }

    /// "Forenames:|NES" for INES: the rule against a name's label is its I, for review; against
    /// another label it is a rule still.
    @Test func aNamesCapitalIReadAsARuleAgainstItsLabel() {
        let word = Word(text: "Forenames:|NES", confidence: 90, box: BoundingBox(x: 467, y: 344, width: 165, height: 31),
                        block: 1, paragraph: 1, line: 1, word: 0)
        let parts = PageLayout.splitAtColon(word)
        #expect(parts.map(\.text) == ["Forenames:", "INES"])
        #expect(parts[1].confidence < FieldExtractor.reviewConfidence)
        var state = word
        state.text = "State:|TX"
        #expect(PageLayout.splitAtColon(state).map(\.text) == ["State:", "|TX"])
    }

    /// A grid's rule read glued between a label and its value ("Mailing Address|764 Elm Terrace"):
    /// the label finds its value; a word that is no label keeps its bar.
    @Test func aRuleGluedBetweenALabelAndItsValue() {
        let word = Word(text: "Address|764", confidence: 90, box: BoundingBox(x: 0, y: 0, width: 220, height: 30), block: 1, paragraph: 1, line: 1, word: 1)
        #expect(PageLayout.splitAtRule(word).map(\.text) == ["Address", "|", "764"])
        var other = word
        other.text = "Hill|764"
        #expect(PageLayout.splitAtRule(other).map(\.text) == ["Hill|764"])
        let f = FieldExtractor.optout(WordPage(["Do Not Sell Request — Acxiom", "Your Name Jean Dupont", "Mailing Address|764 Elm Terrace",
                                                "Town Baton Rouge", "State LA", "ZIP Code 70801"]).lines)
        #expect(f["street_address"]?.value.string == "764 Elm Terrace")
    }

    /// A "RECEIVED" stamp at the page's edge, read between the letterhead's street and city, does
    /// not end the letterhead: the broker's phone under it is not the requester's.
    @Test func aStampBesideTheLetterheadDoesNotEndIt() {
        var p = WordPage()
        p.line("TruthFinder, Inc.", x: 400, y: 420, charWidth: 32, height: 70)
        p.line("3698 Harbor Lane", x: 400, y: 530)
        p.line("RECEIVED", x: 2230, y: 548, charWidth: 38, height: 47)
        p.line("Omaha, NE 68102", x: 400, y: 582)
        p.line("Phone 549-425-7203", x: 400, y: 637)
        p.line("www.truthfinder.com", x: 400, y: 690)
        p.line("Request to Delete or Stop the Sale of Personal Information", x: 400, y: 820)
        p.line("Name of Requester: Sione Fa'alogo", x: 400, y: 1000)
        p.line("Phone: 745-899-3294", x: 400, y: 1060)
        let f = FieldExtractor.optout(p.lines)
        #expect(f["phone"]?.value.string == "745-899-3294")
        #expect(f["data_broker"]?.value.string == "TruthFinder")
    }
}
