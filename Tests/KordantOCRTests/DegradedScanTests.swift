@preconcurrency import CTesseract
import Foundation
@testable import KordantOCR
import KordantTestSupport
import Testing

/// Photocopy speckle (isolated dots far smaller than the letters, which Tesseract reads as
/// punctuation between words) and fax-like bilevel pages. Real Leptonica and Tesseract on
/// TestDocuments' pages degraded here.
@Suite struct DegradedScanTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path

    static func truth() throws -> String {
        struct Truth: Decodable { let lines: [String] }
        let data = try Data(contentsOf: URL(fileURLWithPath: root + "/TestDocuments/deed_warranty.truth.json"))
        return try JSONDecoder().decode(Truth.self, from: data).lines.joined(separator: " ")
    }

    /// The clean deed with `count` dark dots of 1–3 px at seeded random places.
    static func speckled(count: Int) throws -> LeptImage {
        let page = try ImageLoader.load(path: root + "/TestDocuments/deed_warranty.clean.png")[0]
        let gray = LeptImage(try #require(pixConvertTo8(page.pix, 0)))
        var image = try #require(GrayImage(pix8: gray.pix))
        image.speckle(count: count, maxSize: 3, seed: 19)
        return try #require(image.leptImage())
    }

    /// Many dots: they are painted out, and the page reads as well as the clean one, decimal
    /// points and all; without the step the dots come back as stray punctuation.
    @Test func speckleIsRemovedAndTheTextReadsClean() throws {
        let page = try Self.speckled(count: 4000)
        let (_, report) = try Preprocessor.run(page, options: PreprocessOptions())
        #expect(report.steps.contains("despeckle"), "\(report.steps)")
        let worker = try OCRWorker(orientation: false)
        var options = OCROptions()
        let cleaned = try worker.process(image: page, options: options)
        options.preprocess.despeckle = false
        let raw = try worker.process(image: page, options: options)
        let truth = try Self.truth()
        let (withStep, without) = (Tools.cer(cleaned.text, truth), Tools.cer(raw.text, truth))
        #expect(withStep <= 0.01, "CER \(withStep): \(cleaned.text.prefix(300))")
        #expect(withStep < without, "CER \(withStep) against \(without) without the step")
        #expect(cleaned.text.contains("$385,000.00"), "\(cleaned.text.prefix(600))")
    }

    /// A few hundred dots among the letters (300 on the deed's 628 other marks: a receipt's grain
    /// and worn print have 0.25–0.85 per other mark) are left: painting out a page's dots takes
    /// four for every five other marks, so that the dots of faded print stay.
    @Test func aFewDotsAmongTheLettersAreLeft() throws {
        let (_, report) = try Preprocessor.run(try Self.speckled(count: 300), options: PreprocessOptions())
        #expect(!report.steps.contains("despeckle"), "\(report.steps)")
    }

    static let realReceipts = URL(fileURLWithPath: root).appendingPathComponent("../shared/data/docs-real/receipts").standardized.path

    /// A real scanned receipt (SROIE, ../shared/data/docs-real/receipts when present; not copied
    /// here) whose tax summary is printed faint and worn into dots: it is not despeckled, and the
    /// summary's taxable amounts are read (painted out, the dots took the summary with them).
    @Test(.enabled(if: FileManager.default.fileExists(atPath: realReceipts + "/040.jpg"), "../shared/data/docs-real/receipts absent"))
    func aReceiptsFadedPrintIsNotTakenForSpeckle() throws {
        let page = try ImageLoader.load(path: Self.realReceipts + "/040.jpg")[0]
        let read = try OCRWorker(orientation: false).process(image: page, options: OCROptions())
        #expect(!read.preprocessing.steps.contains("despeckle"), "\(read.preprocessing.steps)")
        // SVC 295.00 and SR 324.50, the summary's two taxable amounts.
        #expect(read.text.contains("324.50"), "\(read.text)")
    }

    /// A photocopy: the deed greyed to 60 % contrast on a grey ground, with grain and tens of
    /// thousands of specks, many touching the letters where painting out cannot reach them.
    /// Specks outnumber the other components and cover the page, so it is median-filtered before
    /// anything else, and its fields read; a page with a few thousand dots is only painted out.
    @Test func aPhotocopyDrownedInSpeckleIsMedianFiltered() throws {
        let page = try ImageLoader.load(path: Self.root + "/TestDocuments/deed_warranty.clean.png")[0]
        let gray = LeptImage(try #require(pixConvertTo8(page.pix, 0)))
        var image = try #require(GrayImage(pix8: gray.pix))
        var seed: UInt64 = 23
        func next(_ n: Int) -> Int {
            seed = seed &* 6364136223846793005 &+ 1442695040888963407
            return Int(seed >> 33) % n
        }
        for i in image.pixels.indices {
            let ink = 255 - Double(image.pixels[i])
            image.pixels[i] = UInt8(max(0, min(255, 205 - ink * 0.6 * 205 / 255 + Double(next(21) - 10))))
        }
        for _ in 0..<30_000 { image.pixels[next(image.pixels.count)] = UInt8(20 + next(100)) }
        let copy = try #require(image.leptImage())
        let (_, report) = try Preprocessor.run(copy, options: PreprocessOptions())
        #expect(report.steps.contains("median"), "\(report.steps)")
        let worker = try OCRWorker(orientation: false)
        var options = OCROptions()
        let read = try worker.process(image: copy, options: options)
        // Each field as printed or left out (a speck beside "L." reads "L..", no name), and most read.
        var right = 0
        for (name, value) in [("grantor", "MARGARET L. HOLLOWAY"), ("parcel_number", "042-118-07"),
                              ("instrument_number", "2023-0045871"), ("recording_date", "2023-03-14")] {
            guard let field = read.fields[name] else { continue }
            #expect(field.value == .text(value), "\(name): \(field)")
            right += field.value == .text(value) ? 1 : 0
        }
        #expect(right >= 3, "\(read.fields)")
        options.preprocess.despeckle = false
        let unfiltered = try worker.process(image: copy, options: options)
        let truth = try Self.truth()
        #expect(Tools.cer(read.text, truth) < Tools.cer(unfiltered.text, truth))
        // 4000 dots on the page (0.6 per square of the capital height): painted out, not filtered.
        let (_, light) = try Preprocessor.run(try Self.speckled(count: 4000), options: PreprocessOptions())
        #expect(light.steps.contains("despeckle") && !light.steps.contains("median"), "\(light.steps)")
    }

    /// A fax-like page: the 150-DPI opt-out form at half its vertical resolution, stretched back
    /// by repeating rows and cut to black and white (as a 1-bit image, and the same stored as grey,
    /// as PNG readers expand it). It is smoothed before reading, and reads better than without.
    @Test(arguments: [false, true]) func bilevelPagesAreSmoothed(storedAsGrey: Bool) throws {
        let page = try ImageLoader.load(path: Self.root + "/TestDocuments/optout_form.lowres.png")[0]
        let gray = LeptImage(try #require(pixConvertTo8(page.pix, 0)))
        let half = LeptImage(try #require(pixScale(gray.pix, 1, 0.5)))
        let rows = LeptImage(try #require(pixScaleBySampling(half.pix, 1, 2)))
        var fax = LeptImage(try #require(pixConvertTo1(rows.pix, 150)))
        if storedAsGrey { fax = LeptImage(try #require(pixConvert1To8(nil, fax.pix, 255, 0))) }
        let (_, report) = try Preprocessor.run(fax, options: PreprocessOptions())
        #expect(report.steps.contains("smooth"), "\(report.steps)")
        struct Truth: Decodable { let lines: [String] }
        let truth = try JSONDecoder().decode(Truth.self, from: Data(contentsOf: URL(fileURLWithPath: Self.root + "/TestDocuments/optout_form.truth.json")))
            .lines.joined(separator: " ")
        let worker = try OCRWorker(orientation: false)
        var options = OCROptions()
        let smoothed = Tools.cer(try worker.process(image: fax, options: options).text, truth)
        options.preprocess.smoothBilevel = false
        let jagged = Tools.cer(try worker.process(image: fax, options: options).text, truth)
        #expect(smoothed < jagged, "CER \(smoothed) smoothed, \(jagged) without")
    }

    /// Pages without speckle are left alone (every TestDocuments page was measured so).
    @Test(arguments: ["deed_warranty.clean.png", "optout_form.noisy.jpg", "deed_quitclaim.lowres.png", "idcard_td1.noisy.jpg"])
    func cleanPagesAreNotDespeckled(_ file: String) throws {
        let page = try ImageLoader.load(path: Self.root + "/TestDocuments/" + file)[0]
        let (_, report) = try Preprocessor.run(page, options: PreprocessOptions())
        #expect(!report.steps.contains("despeckle"), "\(file): \(report.steps)")
    }

    /// Preprocessing as if the photographed page's outline could not be found (a surround as pale
    /// as the paper): the fallbacks below are for such photos.
    static var withoutOutline: OCROptions {
        var o = OCROptions()
        o.preprocess.perspective = false
        return o
    }

    /// A passport page photocopied grey with speckle (seed 39, dev, document 30): prepared (median
    /// filtered, rescaled), its small grey labels are rubbed out and it reads under 90; as loaded
    /// it reads clearly more words, labels and all. That reading is kept and the
    /// prepared one fills its gaps: the text has the labels, the sex is read "F" as printed (the
    /// build before this change, keeping the prepared reading, had "X"), and the birth and expiry
    /// dates are read (in review when the prepared reading gave them; read as loaded at
    /// Tesseract's own estimate of the resolution, as raw `tesseract` reads it, it reads them itself).
    @Test func aReadingWithItsLabelsRubbedOutGivesWayToThePageAsLoaded() throws {
        let path = Self.root + "/Tests/Fixtures/ocr-fallback/s39-dev-030-id-passport-page-photocopy.png"
        let read = try OCRWorker(orientation: false).process(image: try ImageLoader.load(path: path)[0], options: OCROptions())
        #expect(read.preprocessing.steps == ["unprocessed"], "\(read.preprocessing)")
        #expect(read.kind == .id)
        #expect(read.text.contains("Given names") && read.text.contains("Nationality"), "\(read.text.prefix(400))")
        #expect(read.fields["sex"]?.value == .text("F"), "\(read.fields)")
        #expect(read.fields["given_names"]?.value == .text("PRIYA"))
        for (name, value) in [("date_of_birth", "1999-06-20"), ("expiry_date", "2027-04-25")] {
            #expect(read.fields[name]?.value == .text(value), "\(name): \(read.fields)")
        }
    }

    /// A card photocopied grey with speckle (seed 50, dev, document 62): flattened and median
    /// filtered, its small grey labels break up ("Given nar", "Na ity") and Tesseract reads the
    /// card across its two columns ("RATTANAKOSIN 14. M. AR 2002", "PIMC HANOK F"). Read again
    /// unflattened, clearly more words are read (the labels, at confidence 30–60) and that reading
    /// is kept: labels, names and nationality as printed. (The page stated at 300 DPI, as a
    /// scanner writes it; saying none, it is told the resolution its capitals imply, and read
    /// flattened it gives all but the nationality.)
    @Test func aFlattenedPhotocopyIsReadAgainUnflattened() throws {
        let page = try ImageLoader.load(path: Self.root + "/Tests/Fixtures/ocr-fallback/s50-dev-062-id-card-stacked-photocopy.png")[0]
        pixSetXRes(page.pix, 300)
        pixSetYRes(page.pix, 300)
        let (_, report) = try Preprocessor.run(page, options: PreprocessOptions())
        #expect(report.steps.contains("background") && report.steps.contains("median"), "\(report.steps)")
        let read = try OCRWorker(orientation: false).process(image: page, options: OCROptions())
        #expect(!read.preprocessing.steps.contains("background") && read.preprocessing.steps.contains("median"), "\(read.preprocessing)")
        #expect(read.text.contains("Given names") && read.text.contains("Nationality") && read.text.contains("Date of expiry"), "\(read.text.prefix(400))")
        for (name, value) in [("surname", "RATTANAKOSIN"), ("given_names", "PIMCHANOK"), ("nationality", "KEN"), ("document_number", "992124469")] {
            #expect(read.fields[name]?.value == .text(value), "\(name): \(read.fields)")
        }
    }

    /// The speckled fixture `name` read by the engine, once its preprocessing is seen to choose
    /// the 3 × 3 median twice.
    static func readUnderTheMedianTwice(_ name: String) throws -> PageResult {
        let page = try ImageLoader.load(path: Self.root + "/Tests/Fixtures/ocr-fallback/" + name)[0]
        let (_, report) = try Preprocessor.run(page, options: PreprocessOptions())
        #expect(report.median == .threeTwice, "\(name): \(report.steps)")
        return try OCRWorker(orientation: false).process(image: page, options: OCROptions())
    }

    /// A passport page photocopied with speckle (seed 42, dev, document 24): under the 3 × 3 median
    /// twice (and the 5 × 5 one) Tesseract's layout takes its column of labels and values for a
    /// picture and reads the title alone, at 96. Sure as it is, a reading of a few words is set
    /// against the page as loaded, which reads the column: the page is a passport, its names,
    /// nationality, sex and number read. (Read as loaded at 300 DPI it lost the names and read
    /// the expiry; at Tesseract's own estimate, as raw `tesseract` reads it, the other way round.)
    @Test func aSureReadingOfAFewWordsIsSetAgainstThePageAsLoaded() throws {
        let read = try Self.readUnderTheMedianTwice("s42-dev-024-id-passport-page-photocopy.png")
        #expect(read.kind == .id, "\(read.text.prefix(300))")
        #expect(read.preprocessing.steps == ["unprocessed"], "\(read.preprocessing)")
        for (name, value) in [("surname", "TESFAYE"), ("given_names", "MAKEDA"), ("nationality", "KEN"), ("sex", "M"),
                              ("document_number", "C96D30903")] {
            #expect(read.fields[name]?.value == .text(value), "\(name): \(read.fields)")
        }
    }

    /// A passport page photographed on a textured cloth: flattening the background greys the page
    /// until Tesseract reads no text at all, where the photo as taken reads well. The reading
    /// that is poor after preprocessing is set against the image as loaded, and the better kept.
    /// (Its outline found, the page is cropped from the cloth and flattened first:
    /// `PageOutlineTests.aPhotographedPassportPage`.)
    @Test func aPageTheFlatteningSpoilsIsReadAsLoaded() throws {
        let path = Self.root + "/Tests/Fixtures/ocr-fallback/dev-070-id-passport-page-phone.jpg"
        let page = try ImageLoader.load(path: path)[0]
        let (_, report) = try Preprocessor.run(page, options: Self.withoutOutline.preprocess)
        #expect(report.steps.contains("background"), "\(report.steps)")
        let worker = try OCRWorker(orientation: true)
        let read = try worker.process(image: page, options: Self.withoutOutline)
        #expect(read.preprocessing.steps == ["unprocessed"])
        #expect(read.kind == .id)
        #expect(read.text.contains("Date of birth") && read.text.contains("27 June 2027"), "\(read.text.prefix(300))")
        #expect(read.fields["expiry_date"]?.value == .text("2027-06-27"))
        // A page the preprocessing reads well keeps it.
        let deed = try worker.process(image: try ImageLoader.load(path: Self.root + "/TestDocuments/deed_warranty.clean.png")[0],
                                      options: OCROptions())
        #expect(!deed.preprocessing.steps.contains("unprocessed"))
    }

    /// A faint photocopy of a light face (DejaVu Sans ExtraLight copied at 200 DPI: strokes about
    /// two pixels wide) drowned in speckle. The 5 × 5 median its 21-pixel capitals once called for
    /// erases the strokes, and Tesseract read the title alone. The page is read under the 3 × 3
    /// median twice first (and under the 5 × 5 one too, kept only with more words read well): the
    /// deed, its parcel, its address.
    @Test func aLightFacesStrokesSurviveTheMedianFilter() throws {
        let read = try Self.readUnderTheMedianTwice("s17-dev-001-deed-photocopy-light-face.png")
        #expect(read.kind == .deed, "\(read.text.prefix(300))")
        #expect(read.fields["parcel_number"]?.value == .text("9814899"))
        // (Read "Wiilow" under the 3 × 3 median twice, "Willow" under it once: the two readings
        // disagree, so the address goes to review.)
        let address = try #require(read.fields["property_address"])
        #expect(address.value.string?.hasSuffix("Lane, Savannah, GA 31401") == true && address.needsReview, "\(address)")
        #expect(read.text.contains("Chatham County"))
    }

    /// A boxed opt-out form in a light face, faxed (seed 30, dev, document 54): its strokes of a
    /// pixel or two break where the fax's coarse rows fell, and smoothed it reads at a mean
    /// confidence of 36, labels and values noise (`Ptatda LD ob` for "Birth Date", no ZIP code).
    /// Read again with its ink thickened by a pixel it reads clearly more words, and that reading
    /// is kept: the ZIP code comes back and the state is still read (the generator's truth: 68102, NE).
    @Test func aFaxOfALightFaceIsReadThickened() throws {
        let path = Self.root + "/Tests/Fixtures/ocr-fallback/s30-dev-054-optout-boxed-fax.png"
        let read = try OCRWorker(orientation: false).process(image: try ImageLoader.load(path: path)[0], options: OCROptions())
        #expect(read.preprocessing.steps.starts(with: ["thicken", "smooth"]), "\(read.preprocessing)")
        #expect(read.kind == .optout)
        #expect(read.text.contains("Nebraska") && read.text.contains("68102"), "\(read.text.prefix(400))")
        #expect(read.fields["zip"]?.value == .text("68102"), "\(read.fields)")
        #expect(read.fields["state"]?.value == .text("NE"), "\(read.fields)")
    }

    /// Thickening grows every dot of ink by one pixel (a 2 × 2 dilation): a stroke one pixel wide
    /// and ten long becomes two wide and eleven long; the paper and the resolution stay as they were.
    @Test func thickeningGrowsTheInkByAPixel() throws {
        let page = try LeptImage.make(pixCreate(20, 20, 8), "page")
        pixSetAllArbitrary(page.pix, 255)
        pixSetResolution(page.pix, 204, 204)
        for y in Int32(5)..<15 { pixSetPixel(page.pix, 10, y, 0) }
        let thick = try Preprocessor.thickened(page)
        #expect(thick.width == 20 && thick.height == 20 && thick.depth == 8 && thick.resolution == 204)
        var ink: [(Int, Int)] = []
        for y in 0..<20 {
            for x in 0..<20 {
                var v: UInt32 = 0
                pixGetPixel(thick.pix, Int32(x), Int32(y), &v)
                if v < 128 { ink.append((x, y)) }
            }
        }
        #expect(ink.count == 22, "\(ink)")
        #expect(Set(ink.map(\.0)).count == 2 && Set(ink.map(\.1)).count == 11, "\(ink)")
    }

    /// A grey page (paper 190, print a faint 160, as a light face copies) scanned 4° askew. Turned
    /// level bringing in white, its corners are the brightest thing on it, Tesseract's one global
    /// threshold falls between paper and corners, and the print goes with the paper: a deed copied
    /// faint read as nothing. Its corners are now filled with its own paper.
    @Test func aGreyPageIsLevelledOnItsOwnPaper() throws {
        let lines = ["QUITCLAIM DEED", "Filed for record: 4 September 1996", "APN: 40-7079-202-60", "County: Douglas",
                     "Seller: Siobhan Ni Bhriain", "Transferee: Kittisak Bunnag", "Property Address: 7457 Maple Place, Omaha, NE 68102",
                     "The grantor conveys to the grantee the property described as Lot 15, Block 10.", "Dated: 4 September 1996"]
        let data = PDFBuilder.pdf([PDFBuilder.Page(text: nil, placed: lines.enumerated().map { (72, 700 - 24 * $0, 12, $1) })])
        let path = TestScratch.directory.appendingPathComponent("kordant-grey-\(getpid()).pdf").path
        try data.write(to: URL(fileURLWithPath: path))
        let white = try PDFDocument(path: path).render(page: 0, dpi: 300)
        let eight = LeptImage(try #require(pixConvertTo8(white.pix, 0)))
        var gray = try #require(GrayImage(pix8: eight.pix))
        gray.pixels = gray.pixels.map { UInt8(160 + Int($0) * 30 / 255) }
        let flat = try #require(gray.leptImage())
        let askew = LeptImage(try #require(pixRotateAMGray(flat.pix, 4 * .pi / 180, 190)))
        // Levelled, its corners are its paper, not white.
        let level = LeptImage(try #require(Preprocessor.rotatedOnItsPaper(askew, radians: -4 * .pi / 180)))
        var corner: UInt32 = 0
        #expect(pixGetPixel(level.pix, 2, 2, &corner) == 0 && (180...200).contains(corner), "\(corner)")
        let read = try OCRWorker(orientation: false).process(image: askew, options: OCROptions())
        #expect(read.preprocessing.steps.contains("deskew"), "\(read.preprocessing)")
        #expect(read.kind == .deed, "\(read.text.prefix(200))")
        #expect(read.fields["parcel_number"]?.value == .text("40-7079-202-60"), "\(read.text.prefix(400))")
        #expect(read.fields["property_address"]?.value == .text("7457 Maple Place, Omaha, NE 68102"), "\(read.fields.mapValues(\.value))")
        #expect(read.fields["grantee"]?.value == .text("Kittisak Bunnag"))
    }

    /// The tick boxes of an opt-out request, drawn and photocopied with speckle: Tesseract reads
    /// the three crossed boxes as "{}", "<j" and "fh}" and the empty one as "(1)", and the text
    /// alone gave one option, the wrong one. Each box's ink says which are crossed.
    @Test func crossedBoxesAreReadFromTheirInk() throws {
        let path = Self.root + "/Tests/Fixtures/ocr-fallback/s16-dev-039-optout-boxes-photocopy.png"
        let page = try ImageLoader.load(path: path)[0]
        var options = OCROptions()
        options.kind = .optout
        let worker = try OCRWorker(orientation: false)
        // The page is read under the 3 × 3 median twice (whose reading of the boxes' glyphs, "[J]"
        // and "{x}", disagrees with their ink), the 5 × 5 one and the 3 × 3 one once: the combined
        // field keeps the ink's options, in review. The ink's verdict is checked on the reading
        // under the 5 × 5 median alone, whose glyphs say nothing against it.
        let combined = try worker.process(image: page, options: options)
        #expect(combined.fields["request_options"]?.value == .text("access,delete,do_not_sell"), "\(combined.fields)")
        options.secondReading = false
        options.preprocess.median = .five
        let read = try worker.process(image: page, options: options)
        let ticked = try #require(read.fields["request_options"], "\(read.text)")
        #expect(ticked.value == .text("access,delete,do_not_sell"), "\(read.text)")
        #expect(!ticked.needsReview)
        // Without the pixels (a PDF's text layer, say), the same words give less, and say so.
        let fromText = FieldExtractor.optout(TextLine.group(read.words))["request_options"]
        #expect(fromText?.value != .text("access,delete,do_not_sell") && fromText?.needsReview != false, "\(String(describing: fromText))")
    }

    /// A deed photographed about 8° askew on a desk: Leptonica's skew search is unsure over the
    /// desk's texture (confidence under 2.5), and left slanted Tesseract reads one line of it. The
    /// unsure angle is undone all the same (it is a degree or more): the whole deed, its kind and
    /// its parties are read. With its outline found (the default), the page is warped flat and
    /// level before it is read at all.
    @Test func aPageFoundUnsurelyAskewIsLevelled() throws {
        let path = Self.root + "/Tests/Fixtures/ocr-fallback/dev-043-deed-inline-phone.jpg"
        let page = try ImageLoader.load(path: path)[0]
        let (_, report) = try Preprocessor.run(page, options: Self.withoutOutline.preprocess)
        #expect(report.steps.contains("deskew") && (report.skewConfidence ?? 0) < 2.5, "\(report)")
        let worker = try OCRWorker(orientation: false)
        for options in [Self.withoutOutline, OCROptions()] {
            let read = try worker.process(image: page, options: options)
            #expect(read.preprocessing.steps.contains(options.preprocess.perspective ? "perspective" : "deskew"), "\(read.preprocessing)")
            #expect(read.kind == .deed)
            #expect(read.fields["grantor"]?.value == .text("Eliud Kiplagat") && read.fields["grantee"]?.value == .text("Somchai Bunnag"))
            #expect(read.text.contains("Riverside Estates"), "\(read.text.prefix(300))")
        }
    }

    /// A card scanned 4.4° askew: its few lines give Leptonica a confidence of 2.2, under the 2.5
    /// a page of text reaches, but the angle is right; it is undone, and every field is read
    /// (left slanted, the nationality was lost). The generator's truth.
    @Test func aCardFoundUnsurelyAskewIsLevelled() throws {
        let path = Self.root + "/Tests/Fixtures/ocr-fallback/dev-038-id-card-stacked-flatbed-skew.jpg"
        let page = try ImageLoader.load(path: path)[0]
        let (_, report) = try Preprocessor.run(page, options: PreprocessOptions())
        #expect(report.steps.contains("deskew") && (report.skewConfidence ?? 9) < 2.5, "\(report)")
        #expect(abs(Double(report.skewAngle ?? 0) - 4.38) < 0.3, "\(report)")
        let read = try OCRWorker().process(path: path).pages[0]
        let want = ["surname": "MUSTERFRAU", "given_names": "ISOLDE", "date_of_birth": "2000-09-18", "sex": "M",
                    "nationality": "DEU", "document_number": "K9767648", "expiry_date": "2026-10-03"]
        #expect(read.fields.mapValues { $0.value.string ?? "" } == want, "\(read.fields)")
    }
}
