@testable import KordantOCR
import Testing

/// An opt-out request's values whose labels a fax of a light face read past knowing, taken by
/// their shape (`FieldExtractor.phoneByShape`, `streetByShape`, `datesByAge`), and a cell's rule
/// read as a bracket before a city.
@Suite struct ValuesByShapeTests {
    /// The boxed form of dev seed 245 (page 41, a thin monospace face faxed): every label is
    /// noise, every value legible.
    static let boxedFax = ["OPT-OUT REQUEST   Spokeo", "Fist | thy Mates", "Arjan Lindqvist   02/22/1962", "Here Achy asus", "5545 Chestnut Road",
                           "Kimi", "Nisbet", "559.669.0191"]

    /// The one phone-shaped value and the one street-shaped cell of the page, for review.
    @Test func aPhoneAndAStreetUnderLabelsReadAsNoise() {
        let f = FieldExtractor.optout(WordPage(Self.boxedFax).lines)
        #expect(value(f, "phone") == "559.669.0191" && f["phone"]?.needsReview == true, "\(String(describing: f["phone"]))")
        #expect(value(f, "street_address") == "5545 Chestnut Road" && f["street_address"]?.needsReview == true,
                "\(String(describing: f["street_address"]))")
        // A dot read as a comma ("925,203.5341") is the dot.
        let comma = FieldExtractor.optout(WordPage(["OPT-OUT REQUEST   Spokeo", "Town Springfield   State IL", "Fhome 925,203.5341"]).lines)
        #expect(value(comma, "phone") == "925.203.5341" && comma["phone"]?.needsReview == true, "\(String(describing: comma["phone"]))")
        // A street after its label read past knowing ("Tlome Address -"), under a title that
        // names the broker.
        let led = FieldExtractor.optout(WordPage(["USPhoneBook: Opt-Out", "Name of Requester Sean McCarthy",
                                                  "Tlome Address - 8661 Maple Avenue",
                                                  "Web Address of Listing https://www.usphonebook.com/p/sean-mccarthy/69870"]).lines)
        #expect(value(led, "data_broker") == "USPhoneBook")
        #expect(value(led, "street_address") == "8661 Maple Avenue", "\(String(describing: led["street_address"]))")
    }

    /// Two numbers of that shape, or one on a fax line, or two streets, or one in the broker's
    /// block: none is known to be the requester's, and none is taken.
    @Test func noValueWhereTheShapeIsNotEnough() {
        let two = FieldExtractor.optout(WordPage(Self.boxedFax + ["(212) 555-0199"]).lines)
        #expect(value(two, "phone") == nil)
        for line in ["Fax: 559.669.0191", "Call our team at 559.669.0191"] {
            let other = FieldExtractor.optout(WordPage(["OPT-OUT REQUEST   Spokeo", line]).lines)
            #expect(value(other, "phone") == nil, "\(line)")
        }
        // ("Your" is the requester's: its number is taken.)
        let yours = FieldExtractor.optout(WordPage(["OPT-OUT REQUEST   Spokeo", "Your Phnne 559.669.0191"]).lines)
        #expect(value(yours, "phone") == "559.669.0191")
        let streets = FieldExtractor.optout(WordPage(Self.boxedFax + ["12 Harbor Way"]).lines)
        #expect(value(streets, "street_address") == nil)
        let recipient = FieldExtractor.optout(WordPage(["Ana Lima", "To: Nuwber Privacy Team", "Nuwber Data Services", "12 Main Street",
                                                        "Austin, TX 78701", "(512) 555-0100"]).lines)
        #expect(value(recipient, "street_address") == nil && value(recipient, "phone") == nil)
        // Not a street: a number and words with no street type.
        let prose = FieldExtractor.optout(WordPage(["OPT-OUT REQUEST   Spokeo", "45 Days Notice Given"]).lines)
        #expect(value(prose, "street_address") == nil)
    }

    /// With no date labelled, the page's one date of the last century is the birth (no request
    /// is that old), and its one date 13 years after it the request, both for review; two such
    /// old dates give neither.
    @Test func aBirthDateOfTheLastCenturyAlone() {
        let f = FieldExtractor.optout(WordPage(Self.boxedFax).lines)
        #expect(value(f, "date_of_birth") == "1962-02-22" && f["date_of_birth"]?.needsReview == true,
                "\(String(describing: f["date_of_birth"]))")
        #expect(value(f, "date") == nil)
        let both = FieldExtractor.optout(WordPage(Self.boxedFax + ["11/17/2024", "01/05/1970"]).lines)
        #expect(value(both, "date_of_birth") == nil)
        let recent = FieldExtractor.optout(WordPage(["OPT-OUT REQUEST   Spokeo", "Arjan Lindqvist   02/22/2004"]).lines)
        #expect(value(recent, "date_of_birth") == nil && value(recent, "date") == nil)
        // A third date too close to the birth to be the request ("01/05/2001" beside a birth in
        // 1995) leaves the one 13 years after it as the request.
        // (Under a row with a colon: a date alone on a line above one is a letter's own date.)
        let three = FieldExtractor.optout(WordPage(["OPT-OUT REQUEST   Spokeo", "Fist | thy: Mates", "Arjan Lindqvist   02/22/1995",
                                                    "Kimi   01/05/2001", "Nisbet   11/17/2024"]).lines)
        #expect(value(three, "date_of_birth") == "1995-02-22" && value(three, "date") == "2024-11-17" && three["date"]?.needsReview == true,
                "\(String(describing: three["date"]))")
    }

    /// A cell's rule read as a bracket before a city ("Town: (Billings") is no part of it.
    @Test func aBracketBeforeACity() {
        let f = FieldExtractor.optout(WordPage(["OPT-OUT REQUEST   Spokeo", "Name of Requester: Ama Owusu",
                                                "Town: (Billings   State: Montana   ZIP Code: 59101"]).lines)
        #expect(value(f, "city") == "Billings", "\(String(describing: f["city"]))")
        // (Through the place list too a near city is found; the validator itself takes it whole.)
        #expect(FieldExtractor.place("(Billings")?.string == "Billings")
        // (A bracket inside a name's words is no rule: not trimmed there.)
        let inside = FieldExtractor.optout(WordPage(["OPT-OUT REQUEST   Spokeo", "Name of Requester: Ama Owusu",
                                                     "Town: Bil(lings   State: Montana   ZIP Code: 59101"]).lines)
        #expect(value(inside, "city") != "Bil(lings")
    }

    /// A reference closing its cell after a label read past knowing ("Se ID: CASE-611622"), the
    /// page's only one: taken, for review. A prefix's T whose bar a fax lost, read as a mark
    /// ("OP !-452750", "OP'1-784554"): the one prefix in common use it completes, for review; a
    /// digit alone ("OP1-") is kept as read.
    @Test func aReferenceAfterAMisreadLabelOrWithAMarkForItsLastLetter() {
        let f = FieldExtractor.optout(WordPage(["OPT-OUT REQUEST   Spokeo", "Mobile: (838) 342-8148   Date: 07/19/2026 ~~ Se ID: CASE-611622"]).lines)
        #expect(value(f, "request_id") == "CASE-611622" && f["request_id"]?.needsReview == true, "\(String(describing: f["request_id"]))")
        let two = FieldExtractor.optout(WordPage(["OPT-OUT REQUEST   Spokeo", "Se ID: CASE-611622", "Fonn No.: FTC-224466"]).lines)
        #expect(value(two, "request_id") == nil)
        for (line, want) in [("Request ID: OP !-452750", "OPT-452750"), ("Ticket # - OP'1-784554", "OPT-784554"), ("Ref.: OP '-973827", "OPT-973827")] {
            let g = FieldExtractor.optout(WordPage(["OPT-OUT REQUEST   Spokeo", line]).lines)
            #expect(value(g, "request_id") == want && g["request_id"]?.needsReview == true, "\(line): \(String(describing: g["request_id"]))")
        }
        // Two prefixes the letter could complete (REF, REQ: neither a T, I or L), or none: as read, or nothing.
        #expect(FieldExtractor.referenceMended("RE !-452750") == nil)
        #expect(FieldExtractor.referenceMended("OP1-154324") == nil)
    }
}
