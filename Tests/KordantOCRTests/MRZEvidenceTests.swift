@preconcurrency import CTesseract
import Foundation
@testable import KordantOCR
import Testing

/// The readers' evidence beside the OCR-B templates: Tesseract's measured confusions, Tesseract on
/// grey (photocopied, shadowed) zones, and the visual zone as a reader of the names.
@Suite struct MRZEvidenceTests {
    // MARK: Tesseract's confusions

    /// The table is a distribution per printed character (summing to 1 over every reading) and
    /// says what was measured: an S is evidence for 5 and S, weaker for a flat-topped 3, and
    /// nearly none for a letter of another shape; `<` is often read K.
    @Test func tesseractsConfusionsAreMeasuredProbabilities() throws {
        #expect(!TesseractConfusionCounts.counts.isEmpty)
        for c in 0..<MRZAlphabet.count {
            let total = (0..<(2 * MRZAlphabet.count)).reduce(0.0) { $0 + exp(TesseractConfusion.table[$1][c]) }
            #expect(abs(total - 1) < 1e-9, "printed \(MRZAlphabet.characters[c])")
        }
        func p(_ read: Character, _ printed: Character) throws -> Double {
            try #require(TesseractConfusion.probability(read: read, printed: MRZAlphabet.index(printed)!))
        }
        #expect(try p("S", "S") > p("S", "5"))
        #expect(try p("S", "5") > p("S", "3"))
        #expect(try p("S", "3") > 20 * p("S", "A"))
        #expect(try p("5", "5") > 0.5)
        #expect(TesseractConfusion.probability(read: "K", printed: MRZAlphabet.filler)! > 0.05)
        // A filler read S or 4 happens one time in a hundred or so: no disagreement.
        #expect(TesseractConfusion.probability(read: "S", printed: MRZAlphabet.filler)! >= 0.01)
        #expect(TesseractConfusion.logLikelihoods(read: "é", confidence: 99) == nil)
    }

    // MARK: Tesseract on grey zones

    /// A zone on grey paper (a photocopy, a shadow: paper at 160, ink at 100) is still read by
    /// Tesseract: each strip is stretched from its own ink and paper levels before it is stacked
    /// between white margins.
    @Test func tesseractReadsAGreyZone() throws {
        let image = try ImageLoader.load(path: MRZReaderTests.root + "/TestDocuments/passport_td3.clean.png")[0]
        let pix8 = LeptImage(try #require(pixConvertTo8(image.pix, 0)))
        let gray = try #require(GrayImage(pix8: pix8.pix))
        let bands = MRZLocator.locate(pix8: pix8.pix).filter { $0.length == 44 && $0.lines.count == 2 }
        #expect(!bands.isEmpty)
        let truth = try MRZReaderTests.truth("passport_td3")
        let tesseract = try TesseractHandle()
        // The band, start and direction whose strips read best are the zone's (the locator offers
        // others, and a line's grid may run either way).
        var best = 0
        for band in bands.prefix(4) {
            for start in band.starts {
                for flipped in [false, true] {
                    let strips = (flipped ? band.lines.reversed() : band.lines).map { grid in
                        var s = MRZStrip(gray: gray, grid: grid, start: start, length: band.length, flipped: flipped)
                        s.pixels = s.pixels.map { 100 + $0 * 60 / 255 }
                        return s
                    }
                    let symbols = try #require(MRZScanner.readWithTesseract(strips, tesseract, levelRadius: 0))
                    let right = symbols.filter { s in
                        s.0 < truth.count && s.1 < truth[s.0].count && Array(truth[s.0])[s.1] == s.2
                    }.count
                    best = max(best, right)
                }
            }
        }
        #expect(best * 10 >= truth.joined().count * 8, "\(best) of \(truth.joined().count) cells read right")
    }

    /// Glare pales the second half of each line (ink at 200 on paper at 255, the rest at 60):
    /// stretched by the whole line's levels those glyphs stay light grey and Tesseract's global
    /// threshold loses them; stretched by the levels of the cells around them, it reads them.
    @Test func tesseractReadsGlyphsGlarePaledAgainstTheirNeighbours() throws {
        let image = try ImageLoader.load(path: MRZReaderTests.root + "/TestDocuments/passport_td3.clean.png")[0]
        let pix8 = LeptImage(try #require(pixConvertTo8(image.pix, 0)))
        let gray = try #require(GrayImage(pix8: pix8.pix))
        let bands = MRZLocator.locate(pix8: pix8.pix).filter { $0.length == 44 && $0.lines.count == 2 }
        let truth = try MRZReaderTests.truth("passport_td3")
        let tesseract = try TesseractHandle()
        let P = MRZStrip.cellWidth, half = 22
        func paledHalfRight(_ symbols: [(Int, Int, Character, Double)]) -> Int {
            symbols.filter { s in s.1 >= half && s.0 < truth.count && s.1 < truth[s.0].count && Array(truth[s.0])[s.1] == s.2 }.count
        }
        var best: (whole: Int, local: Int) = (0, 0)
        for band in bands.prefix(4) {
            for start in band.starts {
                for flipped in [false, true] {
                    let strips = (flipped ? band.lines.reversed() : band.lines).map { grid in
                        var s = MRZStrip(gray: gray, grid: grid, start: start, length: band.length, flipped: flipped)
                        for i in s.pixels.indices {
                            let ink = 255 - s.pixels[i]
                            s.pixels[i] = (i % s.width) / P >= half ? 255 - ink * 55 / 255 : 255 - ink * 195 / 255
                        }
                        return s
                    }
                    let whole = paledHalfRight(try #require(MRZScanner.readWithTesseract(strips, tesseract, levelRadius: 0)))
                    let local = paledHalfRight(try #require(MRZScanner.readWithTesseract(strips, tesseract, levelRadius: 3)))
                    if local + whole > best.local + best.whole { best = (whole, local) }
                }
            }
        }
        #expect(best.local * 10 >= 2 * half * 8, "\(best.local) of \(2 * half) paled cells read right")
        #expect(best.local >= best.whole + 8, "local \(best.local), whole line \(best.whole)")
    }

    @Test func aStripsStretchFollowsItsCellsWhereGlarePalesThem() {
        // 10 cells: ink at 60 in the first five, at 200 in the last five, paper at 255.
        let P = MRZStrip.cellWidth, S = MRZStrip.height, n = 10
        var strip = MRZStrip(length: n, pixels: [Float](repeating: 255, count: n * P * S))
        for y in 10..<38 { for x in 0..<(n * P) where x % P >= 10 && x % P < 22 { strip.pixels[y * n * P + x] = x / P < 5 ? 60 : 200 } }
        let whole = MRZScanner.stretches(strip, radius: 0), local = MRZScanner.stretches(strip, radius: 1)
        #expect(Set(whole.base) == [60] && Set(whole.gain).count == 1)
        #expect(local.base[0] == 60 && local.base[9] == 200)
        #expect(abs(local.gain[9] - 255 / 55) < 1e-4)
    }

    @Test func levelsAreTheStripsInkAndPaper() {
        let pixels = [Float](repeating: 160, count: 900) + [Float](repeating: 100, count: 100)
        let (ink, paper) = MRZScanner.levels(pixels)
        #expect(ink == 100 && paper == 160)
    }

    // MARK: The visual zone as a reader of the names

    static let td3 = ["P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<", "L898902C36UTO7408122F1204159ZE184226B<<<<<10"]

    /// A zone as the image reader returns it: `lines`, sure everywhere except `doubt` (line,
    /// cell, confidence), with `alternatives` (line, cell, characters) found plausible.
    static func zone(_ lines: [String], doubt: [(Int, Int, Double)] = [], alternatives: [(Int, Int, String)] = []) -> MRZ {
        var m = MRZParser.build(format: .td3, lines: lines, repairs: [])!
        var confidence = lines.map { [Double](repeating: 1, count: $0.count) }
        for (l, c, p) in doubt { confidence[l][c] = p }
        var plausible = lines.map { [String](repeating: "", count: $0.count) }
        for (l, c, s) in alternatives { plausible[l][c] = s }
        m.characterConfidence = confidence
        m.characterAlternatives = plausible
        return m
    }

    static func words(_ texts: [String]) -> [Word] {
        texts.enumerated().map { i, t in
            Word(text: t, confidence: 90, box: BoundingBox(x: 10 * i, y: 0, width: 9, height: 9), block: 1, paragraph: 1, line: 1, word: i + 1)
        }
    }

    /// A photocopy's C read as Y in a name, the visual zone printing ERIKSSON: the letter is
    /// taken from it, said so, and the zone is not valid.
    @Test func aDoubtfulNameLetterIsTakenFromTheVisualZone() {
        var read = Self.td3
        read[0] = "P<UTOERIKSSON<<ANNA<MAYIA<<<<<<<<<<<<<<<<<<<"
        let m = MRZVisualNames.reconcile(Self.zone(read, doubt: [(0, 22, 0.4)]), words: Self.words(["PASSPORT", "Eriksson", "Anna", "María", "UTOPIA"]))
        #expect(m.lines == Self.td3)
        #expect(m.givenNames == "ANNA MARIA")
        #expect(m.reviewReasons.contains { $0.contains("visual zone") && $0.contains("col 23: Y→R") })
        #expect(m.characterConfidence?[0][22] == 0)
        #expect(!m.valid)
        #expect(m.fieldReadings.isEmpty || m.fieldReadings.contains { $0.value.contains("MARIA") })
    }

    /// A letter the zone's readers were sure of stays, unless they found the visual zone's letter
    /// plausible themselves.
    @Test func aSureLetterGivesWayOnlyToAPlausibleOne() {
        var read = Self.td3
        read[0] = "P<UTOERIKSSON<<ANNA<MAYIA<<<<<<<<<<<<<<<<<<<"
        let words = Self.words(["ERIKSSON", "ANNA", "MARIA"])
        #expect(MRZVisualNames.reconcile(Self.zone(read), words: words).lines == read)
        let plausible = MRZVisualNames.reconcile(Self.zone(read, alternatives: [(0, 22, "VR")]), words: words)
        #expect(plausible.lines == Self.td3 && !plausible.valid)
    }

    /// A sure letter the visual zone spells otherwise is not changed, but the zone goes to review:
    /// one of the two readings is wrong.
    @Test func aSureLetterSpelledOtherwiseIsSentToReview() {
        var read = Self.td3
        read[0] = "P<UTOERIKSSON<<ANNA<MAYIA<<<<<<<<<<<<<<<<<<<"
        let m = MRZVisualNames.reconcile(Self.zone(read), words: Self.words(["ERIKSSON", "ANNA", "MARIA"]))
        #expect(m.lines == read)
        #expect(m.reviewReasons.contains { $0.hasPrefix("visual zone spells a name otherwise") })
        #expect(!m.valid)
        // As read in the visual zone too: nothing to say.
        let agreeing = MRZVisualNames.reconcile(Self.zone(Self.td3), words: Self.words(["ERIKSSON", "ANNA", "MARIA"]))
        #expect(agreeing.reviewReasons.isEmpty && agreeing.valid)
    }

    /// Nothing is taken when the visual zone does not single out one spelling: two candidates,
    /// the reading itself among the words, too many letters different, or only the zone's own
    /// line as the page reading saw it.
    @Test func nothingIsTakenWithoutOneClearSpelling() {
        var read = Self.td3
        read[0] = "P<UTOERIKSSON<<ANNA<MAYIA<<<<<<<<<<<<<<<<<<<"
        let doubt = [(0, 22, 0.4)]
        let cases: [[String]] = [
            ["MARIA", "MAGIA"],                              // two spellings
            ["MARIA", "MAYIA"],                              // the reading itself is printed
            ["MAYIO"],                                       // the differing letter was sure
            ["P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<"],           // the zone's own line, not the visual zone
        ]
        for texts in cases {
            let m = MRZVisualNames.reconcile(Self.zone(read, doubt: doubt), words: Self.words(texts))
            #expect(m.lines == read, "\(texts)")
            #expect(!m.reviewReasons.contains { $0.hasPrefix("name letters from the visual zone") }, "\(texts)")
        }
        var two = Self.td3
        two[0] = "P<UTOERIKSSON<<ANNA<MXYIA<<<<<<<<<<<<<<<<<<<"   // 2 of 5 letters differ: over 1 in 4
        let m = MRZVisualNames.reconcile(Self.zone(two, doubt: [(0, 21, 0.3), (0, 22, 0.3)]), words: Self.words(["MARIA"]))
        #expect(m.lines == two)
        // A zone parsed from text has no character confidences: left as it is.
        var text = MRZParser.build(format: .td3, lines: read, repairs: [])!
        text.characterConfidence = nil
        #expect(MRZVisualNames.reconcile(text, words: Self.words(["MARIA"])).lines == read)
    }

    /// Visual-zone words are compared as ICAO 9303 writes names in the zone.
    @Test func visualWordsAreTransliteratedAsTheZoneWritesThem() {
        #expect(MRZVisualNames.tokens("Müller-Lüdenscheidt") == ["MUELLER", "LUEDENSCHEIDT"])
        #expect(MRZVisualNames.tokens("O'Sullivan") == ["OSULLIVAN"])
        #expect(MRZVisualNames.tokens("Ørsted,") == ["OERSTED"])
        #expect(MRZVisualNames.tokens("Conceição") == ["CONCEICAO"])
        #expect(MRZVisualNames.tokens("Straße") == ["STRASSE"])
        #expect(MRZVisualNames.tokens("12.05.1990") == [])
    }
}
