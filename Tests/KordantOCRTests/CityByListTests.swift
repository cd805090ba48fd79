@testable import KordantOCR
import Testing

/// A requester's city (and, with it, a ZIP and a state) whose labels a fax misread past knowing,
/// found by the Postal Service's place list (`FieldExtractor.cityByList`).
@Suite struct CityByListTests {
    /// A stacked form every label of which was misread: the one city of the page whose ZIP codes
    /// start as the ZIP alone in its cell does, with the state's code alone in its cell, gives
    /// all three, for review.
    @Test func aStackedFormsPlaceUnderMisreadLabels() {
        let f = FieldExtractor.optout(WordPage(["FastPeopleSearch — Opt-Out Request", "NAMB CE BRQGUE STEER", "Makeda Haile Selassie", "HOME Abie",
                                                "4723 Washington Terrace", "ey", "Salt Lake City", "HATE", "UT", "Zth CODE", "84111"]).lines)
        #expect(value(f, "city") == "Salt Lake City" && f["city"]?.needsReview == true)
        #expect(value(f, "state") == "UT" && f["state"]?.needsReview == true)
        #expect(value(f, "zip") == "84111" && f["zip"]?.needsReview == true)
        // Without the state printed, the ZIP and a name on the list are not enough.
        let noState = FieldExtractor.optout(WordPage(["FastPeopleSearch — Opt-Out Request", "NAMB CE BRQGUE STEER", "Makeda Haile Selassie",
                                                      "Salt Lake City", "HATE", "Zth CODE", "84111"]).lines)
        #expect(value(noState, "city") == nil && value(noState, "zip") == nil)
    }

    /// A city whose label was lost beside a ZIP and state read: the one place of that state and
    /// ZIP area on the page, for review; a place of another area, or two places of the area, give none.
    @Test func aCityUnderALostLabelBesideItsZip() {
        let f = FieldExtractor.optout(WordPage(["REMOVAL REQUEST — Spokeo", "Full Name: Ana Lima", "Madison", "State: WI", "ZIP Code: 53703"]).lines)
        #expect(value(f, "city") == "Madison" && f["city"]?.needsReview == true, "\(String(describing: f["city"]))")
        let elsewhere = FieldExtractor.optout(WordPage(["REMOVAL REQUEST — Spokeo", "Full Name: Ana Lima", "Milwaukee", "State: WI", "ZIP Code: 53703"]).lines)
        #expect(value(elsewhere, "city") == nil)
        let two = FieldExtractor.optout(WordPage(["REMOVAL REQUEST — Spokeo", "Full Name: Ana Lima", "Madison", "Monona", "State: WI", "ZIP Code: 53703"]).lines)
        #expect(value(two, "city") == nil)
    }

    /// The value a city's label gave that its validator refused ("City: | fartford"): the place a
    /// letter off it whose ZIP area is the requester's, for review.
    @Test func aCityReadALetterOffUnderItsLabel() {
        let f = FieldExtractor.optout(WordPage(["REMOVAL REQUEST — Spokeo", "Full Name: Ana Lima", "City: | fartford", "State: Connecticut", "ZIP Code: 06103"]).lines)
        #expect(value(f, "city") == "Hartford" && f["city"]?.needsReview == true, "\(String(describing: f["city"]))")
    }
}
