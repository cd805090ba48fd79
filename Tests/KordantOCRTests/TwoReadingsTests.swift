@preconcurrency import CTesseract
import Foundation
@testable import KordantOCR
import Testing

/// A fax read twice, at its own size and at twice it, and a speckled photocopy under both median
/// filters (``TwoReadings``, `DocumentOCR.secondReading`).
@Suite struct TwoReadingsTests {
    static func field(_ value: String, review: Bool = false) -> Field {
        Field(value: .text(value), confidence: 80, box: nil, needsReview: review)
    }

    static func page(_ kind: DocumentKind, _ fields: [String: Field], text: String = "") -> PageResult {
        PageResult(page: 1, kind: kind, text: text, meanConfidence: 80, words: [], width: 10, height: 10,
                   preprocessing: PreprocessReport(), fields: fields)
    }

    /// A fixture page of `Tests/Fixtures/ocr-fallback` read by Tesseract once (no second reading)
    /// and as by default.
    static func readOnceAndAgain(_ name: String) throws -> (once: PageResult, again: PageResult) {
        let path = DegradedScanTests.root + "/Tests/Fixtures/ocr-fallback/" + name
        let worker = try OCRWorker()
        var once = OCROptions()
        once.secondReading = false
        return (try worker.process(path: path, options: once).pages[0], try worker.process(path: path).pages[0])
    }

    /// Two readings of a fax that read the ZIP differently ("17/07" mended to 17707, and 12207):
    /// the one Albany, NY agrees with is kept, in review, whichever way the readings are combined;
    /// when neither or both agree, the usual rules stand.
    @Test func ofTwoZIPsTheOneItsCityAndStateAgreeWith() {
        let place = ["city": Self.field("Albany"), "state": Self.field("NY")]
        let first = place.merging(["zip": Self.field("17707", review: true)]) { a, _ in a }
        let second = place.merging(["zip": Self.field("12207", review: true)]) { a, _ in a }
        #expect(TwoReadings.fields(first, second)["zip"] == Self.field("12207", review: true))
        #expect(TwoReadings.filled(Self.page(.optout, first), from: Self.page(.optout, second)).fields["zip"] == Self.field("12207", review: true))
        let neither = TwoReadings.fields(["state": Self.field("NY", review: true), "zip": Self.field("12208", review: true)],
                                         ["state": Self.field("NY"), "zip": Self.field("12207", review: true)])
        #expect(neither["zip"]?.value.string == "12208")
    }

    @Test func fieldsReadByTheSecondReadingOnlyGoToReview() {
        let merged = TwoReadings.fields(["zip": Self.field("59101")], ["state": Self.field("MT")])
        #expect(merged["zip"] == Self.field("59101"))
        #expect(merged["state"] == Self.field("MT", review: true))
    }

    @Test func aValueBothReadAlikeIsInReviewOnlyWhenBothPutItThere() {
        #expect(TwoReadings.fields(["zip": Self.field("59101", review: true)], ["zip": Self.field("59101")])["zip"]?.needsReview == false)
        #expect(TwoReadings.fields(["zip": Self.field("59101", review: true)], ["zip": Self.field("59101", review: true)])["zip"]?.needsReview == true)
    }

    @Test func readingsThatDisagreeKeepTheSureOneOrGoToReview() {
        // The doubtful one gives way to the sure one, whichever reading it came from, but the
        // disagreement puts it in review.
        #expect(TwoReadings.fields(["surname": Self.field("SZOKF", review: true)], ["surname": Self.field("SZOKE")])["surname"] == Self.field("SZOKE", review: true))
        #expect(TwoReadings.fields(["surname": Self.field("SZOKE")], ["surname": Self.field("SZOKF", review: true)])["surname"] == Self.field("SZOKE", review: true))
        // Both sure and different: neither is, and the first's goes to review.
        #expect(TwoReadings.fields(["zip": Self.field("59101")], ["zip": Self.field("59107")])["zip"] == Self.field("59101", review: true))
        // Two listings both in doubt: the one whose path spells the requester's name.
        let name = ["full_name": Self.field("María de los Ángeles Peña", review: true)]
        let garbled = Self.field("www.whitepages.com/pimaria-de-tos-angeles-pena/69076", review: true)
        let spelled = Self.field("https://www.whitepages.com/p/maria-de-los-angeles-pena/69076", review: true)
        #expect(TwoReadings.fields(name.merging(["listing_url": garbled]) { a, _ in a }, ["listing_url": spelled])["listing_url"] == spelled)
        #expect(TwoReadings.fields(name.merging(["listing_url": spelled]) { a, _ in a }, ["listing_url": garbled])["listing_url"] == spelled)
    }

    @Test func kindsAreNotMixed() {
        let deed = Self.page(.deed, ["county": Self.field("Yellowstone")], text: "first")
        let id = Self.page(.id, ["surname": Self.field("WEISS")], text: "second")
        #expect(TwoReadings.combined(deed, id) == deed)
        // A page the first reading could not place takes the second's reading whole.
        let unknown = Self.page(.unknown, [:], text: "first")
        var inReview = id
        inReview.fields["surname"]?.needsReview = true
        #expect(TwoReadings.combined(unknown, id) == inReview)
        #expect(TwoReadings.combined(deed, Self.page(.deed, ["state": Self.field("MT")]))
            .fields == ["county": Self.field("Yellowstone"), "state": Self.field("MT", review: true)])
    }

    @Test func theReadingAsLoadedFillsGapsAndNeverOverrules() {
        let first = Self.page(.id, ["surname": Self.field("CEUVRAY", review: true), "sex": Self.field("M"),
                                    "nationality": Self.field("NLD", review: true)], text: "first")
        let loaded = Self.page(.id, ["surname": Self.field("CEUVRAY"), "sex": Self.field("F"),
                                     "nationality": Self.field("ILD"), "given_names": Self.field("ODON")], text: "loaded")
        let filled = TwoReadings.filled(first, from: loaded)
        #expect(filled.text == "first")
        #expect(filled.fields == ["surname": Self.field("CEUVRAY", review: true), "sex": Self.field("M", review: true),
                                  "nationality": Self.field("NLD", review: true), "given_names": Self.field("ODON", review: true)])
        #expect(TwoReadings.filled(first, from: Self.page(.deed, ["county": Self.field("Ada")])) == first)
    }

    /// A fax read three ways (its own size, twice it, as loaded): where the combined two disagree
    /// with the page as loaded, the value two of the three read is kept, still in review.
    @Test func twoReadingsOfThreeOutvoteTheThird() {
        let first = Self.page(.optout, ["zip": Self.field("59107"), "city": Self.field("Biliings")], text: "first")
        let second = Self.page(.optout, ["zip": Self.field("59101"), "city": Self.field("Billings")], text: "second")
        let loaded = Self.page(.optout, ["zip": Self.field("59101"), "city": Self.field("Bi11ings")], text: "loaded")
        let filled = TwoReadings.filled(TwoReadings.combined(first, second), from: loaded, readings: [first, second])
        #expect(filled.text == "first")
        #expect(filled.fields == ["zip": Self.field("59101", review: true), "city": Self.field("Biliings", review: true)])
        // Without the other readings it only flags.
        #expect(TwoReadings.filled(first, from: loaded).fields["zip"] == Self.field("59107", review: true))
    }

    /// A real faxed residence permit (1-bit) read by Tesseract: the second reading finds a field
    /// the first could not, and is made only for bilevel pages. (The faxed passport page this
    /// was shown on first, `s18-dev-027`, has been read whole by the first reading since the
    /// page is told the resolution its capitals imply.)
    @Test func aFaxIsReadTwiceAndGainsFields() throws {
        let path = DegradedScanTests.root + "/Tests/Fixtures/ocr-fallback/dev-102-id-residence-permit-fax.png"
        let worker = try OCRWorker()
        let both = try worker.process(path: path).pages[0]
        #expect(both.preprocessing.steps.contains("smooth"))
        var once = OCROptions()
        once.secondReading = false
        let first = try worker.process(path: path, options: once).pages[0]
        // The first reading alone misses the expiry (the generator's truth: 2027-09-15); with the
        // second it is read, and nothing is lost.
        #expect(first.fields["expiry_date"] == nil, "\(first.fields)")
        #expect(both.fields["expiry_date"]?.value == .text("2027-09-15"), "\(both.fields)")
        #expect(Set(both.fields.keys).isSuperset(of: first.fields.keys))
        // A page that is not bilevel is read once: its result is the same either way.
        let flatbed = DegradedScanTests.root + "/TestDocuments/idcard_td1.noisy.jpg"
        #expect(try worker.process(path: flatbed).pages[0] == worker.process(path: flatbed, options: once).pages[0])
    }

    /// Each reading of a fax reports all it was scaled by: the second one's 2× before the rescale
    /// to the target text height too (its word boxes are mapped back by the same), and its text
    /// height in the page's own pixels. The resolution Tesseract is told is 300 DPI scaled the
    /// same, or (the page saying none) the one its capitals imply where that is clearly lower.
    @Test func aFaxsReadingsReportTheirWholeScale() throws {
        let page = try ImageLoader.load(path: DegradedScanTests.root + "/Tests/Fixtures/ocr-fallback/s18-dev-027-id-passport-page-fax.png")[0]
        var twice = PreprocessOptions()
        twice.bilevelScale = 2
        var reports: [PreprocessReport] = []
        for options in [PreprocessOptions(), twice] {
            let (image, report) = try Preprocessor.run(page, options: options)
            #expect(abs(report.scale * Double(page.width) - Double(image.width)) <= 2, "\(report)")
            let implied = Preprocessor.resolutionPerCapitalPixel * (report.textHeight ?? 0) * report.scale
            #expect(abs(Double(report.resolution) - (implied < 0.8 * report.scale * 300 ? implied : report.scale * 300)) <= 2, "\(report)")
            reports.append(report)
        }
        #expect(reports[1].scale >= 2, "\(reports)")
        let heights = reports.compactMap(\.textHeight)
        #expect(heights.count == 2 && abs(heights[0] - heights[1]) <= 1.5, "\(heights)")
    }

    /// A real reading of a photocopied residence permit (speckle): its birth date's label is read
    /// only under the 3 × 3 median filter once. The first reading (the better of the 3 × 3 filter
    /// twice and the 5 × 5 one) finds the date only by its shape, among the card's dates (in
    /// review); the second reads its expiry date well enough to take it out of review.
    @Test func aPhotocopyIsReadUnderBothMedianFilters() throws {
        let (first, both) = try Self.readOnceAndAgain("s21-dev-080-id-residence-permit-photocopy.png")
        #expect(first.preprocessing.steps.contains("median"))
        #expect(first.fields["date_of_birth"]?.value == .text("1963-04-27") && first.fields["date_of_birth"]?.needsReview == true,
                "\(first.fields)")
        #expect(first.fields["expiry_date"]?.needsReview == true, "\(first.fields)")
        #expect(both.fields["date_of_birth"] == Field(value: .text("1963-04-27"), confidence: both.fields["date_of_birth"]?.confidence ?? 0,
                                                     box: both.fields["date_of_birth"]?.box, needsReview: true), "\(both.fields)")
        #expect(Set(both.fields.keys).isSuperset(of: first.fields.keys))
        #expect(both.fields["expiry_date"]?.value == .text("2032-05-19") && both.fields["expiry_date"]?.needsReview == false, "\(both.fields)")
    }

    /// A real reading of a small grey identity card photocopied with speckle (828 × 580 pixels,
    /// printed at 200 DPI, the file saying none): flattened, rescaled and despeckled, it reads
    /// poorly (its small labels lost), and the page as loaded, which reads clearly more words, is
    /// kept. The two readings together give its surname, sex and nationality; nothing is lost,
    /// and every box is on the card as given. (Until the prepared page was told the resolution
    /// its capitals imply, the prepared reading was kept and gave three dates and a number only.)
    @Test func aPoorReadingGainsTheFieldsOfThePageAsLoaded() throws {
        let (first, both) = try Self.readOnceAndAgain("s19-dev-011-id-card-stacked-photocopy.png")
        #expect(first.preprocessing.steps == ["unprocessed"], "\(first.preprocessing)")
        // The generator's truth: GEORGIOU, M, IRL.
        for (name, value) in [("surname", "GEORGIOU"), ("sex", "M"), ("nationality", "IRL")] {
            #expect(both.fields[name]?.value == .text(value), "\(name): \(both.fields)")
        }
        #expect(Set(both.fields.keys).isSuperset(of: first.fields.keys))
        #expect(both.text == first.text, "the text stays the first reading's")
        for (name, field) in both.fields {
            guard let box = field.box else { continue }
            #expect(box.x >= 0 && box.y >= 0 && box.x + box.width <= both.width && box.y + box.height <= both.height, "\(name): \(box)")
        }
    }

    /// A faxed identity card whose title is printed white on a black band (the browser-made
    /// generator's bilingual card): smoothed, the band read as noise and the small labels hardly
    /// at all. The band is now turned dark on light first (`Preprocessor.darkBands`), and the
    /// first reading says "IDENTITY CARD"; the page as loaded, its poorly read lines read inverted
    /// too, says it as well, and the values come back (the generator's truth), in review.
    @Test func aTitleLightOnADarkBandNamesThePagesKind() throws {
        let (once, again) = try Self.readOnceAndAgain("web2-031-id-card-band-fax.png")
        #expect(once.kind == .id && once.text.contains("IDENTITY"), "\(once.kind) \(once.text)")
        #expect(once.preprocessing.steps.contains("dark-band"), "\(once.preprocessing.steps)")
        #expect(again.kind == .id)
        for (name, value) in [("surname", "MUSTERFRAU"), ("given_names", "ERIKA"), ("date_of_birth", "1950-07-16"), ("document_number", "WJ1830083")] {
            #expect(again.fields[name]?.value == .text(value) && again.fields[name]?.needsReview == true, "\(name): \(again.fields)")
        }
    }

    /// A boxed opt-out form photographed, its values printed light grey beside black labels (the
    /// page as flattened from its outline): Tesseract's global threshold falls between the paper
    /// and the black, and the requester's name and street break up or drop out. Thresholded near
    /// the paper for a second reading, both come back, whole and in review (read by that reading
    /// only); nothing the first reading had is lost.
    @Test func lightGreyValuesAreReadAgainThresholdedNearThePaper() throws {
        let (first, both) = try Self.readOnceAndAgain("s30-dev-127-optout-grid-light-ink.png")
        #expect(first.kind == .optout && first.meanConfidence < OCRWorker.poorForFields, "\(first.meanConfidence)")
        #expect(first.fields["full_name"]?.value != .text("Aisha Bint Khalid Al-Hashimi")
                || first.fields["street_address"]?.value != .text("1026 Park Court"), "\(first.fields)")
        // The generator's truth.
        for (name, value) in [("full_name", "Aisha Bint Khalid Al-Hashimi"), ("street_address", "1026 Park Court")] {
            #expect(both.fields[name]?.value == .text(value), "\(name): \(both.fields)")
        }
        #expect(Set(both.fields.keys).isSuperset(of: first.fields.keys))
        for (name, field) in first.fields where both.fields[name]?.value != field.value {
            #expect(both.fields[name]?.needsReview == true, "\(name): \(both.fields)")
        }
        // The light-ink page itself: the grey strokes are ink, the paper stays paper.
        let page = try ImageLoader.load(path: DegradedScanTests.root + "/Tests/Fixtures/ocr-fallback/s30-dev-127-optout-grid-light-ink.png")[0]
        let light = try #require(try Preprocessor.lightInkThresholded(page))
        #expect(light.width == page.width && light.height == page.height)
        let before = try #require(GrayImage(pix8: page.pix)), after = try #require(GrayImage(pix8: light.pix))
        /// Pixels darker than mid-grey, and pixels as light as the paper.
        func share(_ g: GrayImage, _ test: (UInt8) -> Bool) -> Double { Double(g.pixels.filter(test).count) / Double(g.pixels.count) }
        #expect(share(after) { $0 < 128 } > share(before) { $0 < 128 } * 1.2, "grey strokes become ink")
        #expect(share(after) { $0 >= 240 } > 0.7, "paper stays paper")
    }

    /// A page with no ink on it, or all of one grey, has nothing to threshold near its paper.
    @Test func aPageWithoutPaperAndInkIsNotThresholded() throws {
        for level: UInt32 in [255, 128] {
            let pix = try #require(pixCreate(64, 48, 8))
            pixSetAllArbitrary(pix, level)
            #expect(try Preprocessor.lightInkThresholded(LeptImage(pix)) == nil)
        }
    }
}
