import Foundation
@testable import KordantOCR
import Testing

/// A city checked against its state's places (the Postal Service's names) and its ZIP, the Dutch
/// particle 't however its apostrophe was read, a licence's names whose field numbers were read
/// as marks, and a card's name with a comma in it: values seen reported sure, or lost, on fresh
/// dev seeds (dev 164, identity pages 165–166, faxes 167–170).
@Suite struct PlacesAndParticlesTests {
    /// Names as printed are listed (case and marks aside); a name a letter or two off one place of
    /// its state is that place; another state's place is not; no state, no check.
    @Test func citiesAreCheckedAgainstTheirState() {
        #expect(USPlaces.check("Baton Rouge", state: "LA") == .listed)
        #expect(USPlaces.check("BATON ROUGE", state: "LA") == .listed)
        #expect(USPlaces.check("Balon Rouge", state: "LA") == .near("Baton Rouge"))
        #expect(USPlaces.check("Sookane", state: "WA") == .near("Spokane"))
        #expect(USPlaces.check("Coeur d'Alene", state: "ID") == .listed)
        #expect(USPlaces.check("Salt Lake City", state: "UT") == .listed)
        // An abbreviated word spelt out: "St. Paul" is Saint Paul (not a letter off "W St Paul").
        #expect(USPlaces.check("St. Paul", state: "MN") == .listed)
        #expect(USPlaces.check("Ft Worth", state: "TX") == .listed)
        #expect(USPlaces.check("Spokane", state: "OR") != .listed)
        #expect(USPlaces.check("Spokane", state: nil) == nil)
        #expect(USPlaces.check("Spokane", state: "ZZ") == nil)
    }

    /// On a form the city is mended for review, in the case it was printed in; one on the list
    /// stays sure; one near no place goes to review as read.
    @Test func aFormsCityOffTheListGoesToReview() {
        let f = FieldExtractor.review(["city": ImpossibleValuesTests.field("Sookane"), "state": ImpossibleValuesTests.field("WA")])
        #expect(f["city"]?.value.string == "Spokane" && f["city"]?.needsReview == true)
        let caps = FieldExtractor.review(["city": ImpossibleValuesTests.field("BALON ROUGE"), "state": ImpossibleValuesTests.field("LA")])
        #expect(caps["city"]?.value.string == "BATON ROUGE" && caps["city"]?.needsReview == true)
        let sure = FieldExtractor.review(["city": ImpossibleValuesTests.field("Spokane"), "state": ImpossibleValuesTests.field("WA")])
        #expect(sure["city"]?.value.string == "Spokane" && sure["city"]?.needsReview == false)
        let far = FieldExtractor.review(["city": ImpossibleValuesTests.field("Stiah"), "state": ImpossibleValuesTests.field("FL")])
        #expect(far["city"]?.value.string == "Stiah" && far["city"]?.needsReview == true)
        // A listed city and a ZIP none of its own: both for review.
        let zip = FieldExtractor.review(["city": ImpossibleValuesTests.field("Columbus"), "state": ImpossibleValuesTests.field("OH"),
                                         "zip": ImpossibleValuesTests.field("43715")])
        #expect(zip["city"]?.needsReview == true && zip["zip"]?.needsReview == true)
        let agreed = FieldExtractor.review(["city": ImpossibleValuesTests.field("Columbus"), "state": ImpossibleValuesTests.field("OH"),
                                            "zip": ImpossibleValuesTests.field("43215")])
        #expect(agreed["city"]?.needsReview == false && agreed["zip"]?.needsReview == false)
        #expect(USPlaces.zipAgrees(city: "St. Paul", state: "MN", zip: "55102") == true)
        #expect(FieldExtractor.review(["property_address": ImpossibleValuesTests.field("12 Oak Road, Columbus, OH 43715")])["property_address"]?.needsReview == true)
        // A deed's one-line address: its city mended in place.
        let d = FieldExtractor.review(["property_address": ImpossibleValuesTests.field("2142 Riverside Terrace, Balon Rouge, LA 70801")])
        #expect(d["property_address"]?.value.string == "2142 Riverside Terrace, Baton Rouge, LA 70801")
        #expect(d["property_address"]?.needsReview == true)
    }

    /// "van ‘t Hof": the particle's apostrophe read as an opening quote or a backtick is the
    /// apostrophe; a quote elsewhere still fails the name.
    @Test func theParticleTWithItsApostropheReadAsAQuote() {
        #expect(FieldExtractor.name("Geertruida van ‘t Hof")?.string == "Geertruida van 't Hof")
        #expect(FieldExtractor.name("BRAM VAN `T HOF")?.string == "BRAM VAN 'T HOF")
        #expect(FieldExtractor.name("Geertruida van ‘Hof") == nil)
        let f = FieldExtractor.optout(WordPage(["BeenVerified Suppression Request", "Full Name: Willeke Liselotte van ‘t Hof",
                                                "Email: willeke64@inbox.example.net"]).lines)
        #expect(f["full_name"]?.value.string == "Willeke Liselotte van 't Hof")
    }

    /// A licence's "1 VAN 'T HOF" with the apostrophe set apart from VAN by more than two letter
    /// heights (its box cut to the T as a stray mark leaves the gap wider): one phrase, one name.
    @Test func aParticleSetApartStaysWithItsName() {
        var page = WordPage()
        let words: [(String, Int, Int)] = [("1", 428, 8), ("VAN", 451, 60), ("'T", 550, 32), ("HOF", 600, 56)]
        for (i, (text, x, w)) in words.enumerated() {
            page.words.append(Word(text: text, confidence: 90, box: BoundingBox(x: x, y: 379, width: w, height: 17),
                                   block: 1, paragraph: 1, line: 1, word: i))
        }
        let layout = PageLayout(lines: page.lines)
        #expect(layout.rows.count == 1 && layout.rows[0].segments.count == 1, "\(layout.rows.map { $0.segments.map { $0.words.map(\.text) } })")
        // A word after the gap that opens in small letters is another cell.
        var other = WordPage()
        for (i, (text, x, w)) in [("Surname", 100, 120), ("de", 230, 30), ("signature", 300, 140)].enumerated() {
            other.words.append(Word(text: text, confidence: 90, box: BoundingBox(x: x, y: 50, width: w, height: 17),
                                    block: 1, paragraph: 1, line: 1, word: i))
        }
        #expect(PageLayout(lines: other.lines).rows[0].segments.count == 2)
    }

    /// A licence whose field numbers 1 and 2 a fax both read as marks ("|’ SUWANNAKITTIWONG" over
    /// "+’ PIMCHANOK"): the two stacked names are the family and given names, for review; a page
    /// that is no licence, or one with a line led by either number, is left.
    @Test func bothFieldNumbersReadAsMarks() {
        let lines = ["MONTANA", "OPERATOR LICENSE", "p08 07/11/1972 oe 10/03/2033", "| 61615895", "|’ SUWANNAKITTIWONG", "+’ PIMCHANOK",
                     "appeess 9495 ELM WAY", "BILLINGS, MT 59101"]
        let f = FieldExtractor.idVisual(WordPage(lines).lines)
        #expect(f["surname"]?.value.string == "SUWANNAKITTIWONG" && f["surname"]?.needsReview == true)
        #expect(f["given_names"]?.value.string == "PIMCHANOK" && f["given_names"]?.needsReview == true)
        let card = FieldExtractor.idVisual(WordPage(["REPUBLIC OF UTOPIA", "IDENTITY CARD", "|’ SUWANNAKITTIWONG", "+’ PIMCHANOK"]).lines)
        #expect(card["surname"] == nil && card["given_names"] == nil)
    }

    /// A card's surname with a comma inside ("FL, AMRANI" for EL AMRANI) goes to review.
    @Test func aCardsNameWithACommaGoesToReview() {
        let f = FieldExtractor.review(["surname": ImpossibleValuesTests.field("FL, AMRANI"), "given_names": ImpossibleValuesTests.field("FATIMA ZAHRA")])
        #expect(f["surname"]?.value.string == "FL, AMRANI" && f["surname"]?.needsReview == true)
        #expect(f["given_names"]?.needsReview == false)
    }
}
