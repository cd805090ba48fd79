@preconcurrency import CTesseract
import Foundation

/// Settings of the MRZ reader (the defaults are the calibrated operating point; see README).
public struct MRZScanOptions: Sendable {
    /// Temperature of the OCR-B template evidence: log-score = −distance / temperature.
    public var glyphTemperature = 0.012
    /// A cell whose best template match is farther than this is softened in proportion (its
    /// temperature times best distance / this): a glyph that matches no template well (glare
    /// washed it out, a fax or photocopy lost strokes, a phone photo blurred it) says less about
    /// which template it is, and at the sharp temperature a washed-out 4 nearest the filler
    /// outvoted both other readers' clear 4. Fitted with the two weights below and
    /// ``tesseractNameWeight`` (`scripts/fit-mrz-fusion`, see README).
    public var glyphSharpDistance = 0.088
    /// Weight of Tesseract's reading beside the templates'. This weight, the learned reader's, the
    /// name weight and the softening distance are the maximum-likelihood fit of the printed
    /// characters on 62,932 cells of the dev seeds 14 and 301–304, within what the grammar allows
    /// there, at the templates' temperature (`scripts/fit-mrz-fusion`; see benchmarks/README.md).
    public var tesseractWeight = 0.96
    /// Extra weight of a letter Tesseract reads with confidence ≥ 90 in a name cell, on top of
    /// its measured evidence (``tesseractWeight``), fitted with it. At the weight 1.0 once set by
    /// hand, its `I` for the `Z` of HEINZ (the learned reader sure of the Z) made a wrong zone
    /// valid once the learned reader's weight came down (dev seed 301).
    public var tesseractNameWeight = 0.185
    /// A character counts as read with confidence at this posterior or above.
    public var confidentCharacter = 0.9
    /// Largest log-score gap between a reading and a confusable alternative for a repair.
    public var repairGap = 8.0
    /// When several repairs make every check digit pass, the best is made only if the evidence
    /// prefers it over the next by this log-score margin (e⁴ ≈ 55 to 1); a repaired zone is
    /// never valid either way.
    public var repairMargin = 4.0
    /// Mean template distance above which a band is not taken for an MRZ at all. Dev split: MRZ
    /// bands 0.01–0.23 (the top end blurred phone photos), OCR-B-free negatives from 0.25 up; an
    /// OCR-B negative under it is turned away by the structure checks after decoding.
    public var maxMeanDistance = 0.24
    /// The same for a band whose every line was chained cell by cell to the format's full length
    /// (completeness ≥ 0.95): such geometry is rare outside an MRZ, and a real zone photographed
    /// soft and bold (a real Azerbaijani passport: 0.254) can sit just above the usual bound. The
    /// structure checks after decoding still turn away what is not an MRZ (none found on 176
    /// pages without one: 30 real receipts in monospaced print, generated deeds and forms).
    public var maxMeanDistanceWhole = 0.28
    /// Mean distance, as a multiple of the bound above, past which the best band is turned away
    /// before the slant and one-cell-shift searches (which then cost a page without an MRZ as much
    /// as its locating). On the dev seeds and the real images a zone found sat at most at 0.91
    /// of the bound before those searches, negatives from 0.79 up (most above 1.1).
    public var refinableDistance = 1.15
    /// Try every line of a reading without the MRZ's structure one cell either way, not only a
    /// line the grammar overrode alone (see `MRZScanner.realigned`). The reader sets it for its
    /// last look, after every band it read failed: a grid of the wrong length shifted onto a
    /// shorter zone can gain the structure, and must not keep the right band from being read.
    public var shiftEveryLine = false
    /// Weight of the learned cell reader's log-probabilities (``MRZCellClassifier``) beside the
    /// templates'; 0 leaves it out. Fitted with ``tesseractWeight``.
    public var cellModelWeight = 1.6
    /// Weigh look-alikes against the document's own sure glyphs (``MRZAdaptation``).
    public var adaptation = true
    /// Temperature of that evidence (distance to a document prototype per nat). A prototype is
    /// the mean of a few of the document's glyphs, and on a soft or glared capture those scatter
    /// as much as a 0 differs from an O: at 0.006 the prototypes overruled both readers' clear 0
    /// with a sure O (dev seeds 14 and 301–304, 750 pages: 0.012 read 4 more zones exactly, 0.024 read
    /// 7 more and 1 fewer, no adaptation 7 more and 4 fewer).
    public var adaptationTemperature = 0.024
    /// A cell lends its glyph to a prototype at this posterior or above.
    public var prototypeConfidence = 0.97
    /// Log-odds a look-alike pair's evidence is calibrated to at the document's own sure digits
    /// and letters (``MRZAdaptation/calibrate(_:decoded:format:minConfidence:halfGap:)``); 0 leaves
    /// the evidence as the readers gave it.
    public var calibrationHalfGap = 4.0
    /// Sample a band along the slant its glyphs lean by (a page photographed at an angle), not
    /// only upright (``MRZScanner/deslanted(_:start:flipped:gray:matched:)``).
    public var slantSearch = true
    /// A picture of 1000 px or more on its long side in which no zone reads is looked at again at
    /// half size (``MRZScanner/scan(_:tesseract:options:clock:)``).
    public var halfSizeRetry = true
    /// A bilevel picture (a fax) in which no zone reads is looked at again with its ink
    /// thickened by a pixel (``MRZScanner/scan(_:tesseract:options:clock:)``).
    public var thickenedRetry = true
    /// Tesseract's copy of each line is stretched from ink to paper by the levels of the cells
    /// within this many cells either side (interpolated between cell centres), not by one pair of
    /// levels for the whole line: glare or shadow pales part of a line, and one stretch left those
    /// glyphs light grey for Tesseract's global threshold. 0 stretches each line as a whole.
    /// Dev seeds 14 and 301–304 (750 pages): radius 3 read as many zones exactly (699) and made
    /// 32 more of them valid and right (309 → 341), still none valid and wrong.
    public var tesseractLevelRadius = 3
    /// A zone with at least this share of its characters below ``confidentCharacter`` and a
    /// check digit failing is not taken for an MRZ: each field of a text line in a plain face can
    /// be forced into its grammar, but not read surely, and its check digits do not add up. Dev
    /// seeds 14 and 301–304: zones of real MRZs with a failing check digit at most 26 % unsure,
    /// a letter read as a TD2 zone 47 %; bad-input copies: a real page cut at its foot 38 %, a
    /// photo of a screen 46 % (read wrong, in review; turned away is what the issue allows).
    public var maxUnsureShareWithFailedCheck = 0.42
    /// Return what each reader saw in each cell (``MRZ/cellReadings``): a diagnostic.
    public var keepCellReadings = false

    public init() {}
}

/// Finds, rectifies and reads the machine-readable zone of a page or photo, whatever the page's
/// kind: locate the band by its fixed-pitch texture (``MRZLocator``), sample each line onto a
/// fixed grid (so a 4000-px photo and a 600-px crop are read alike), read every cell twice (OCR-B
/// templates and Tesseract restricted to the MRZ alphabet), combine the evidence per cell, decode
/// with the format's grammar and check digits (``MRZDecoder``), and say how sure it is.
enum MRZScanner {
    static let whitelist = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789<"

    /// The zone in `image`, or nil when there is none (or nothing MRZ-like reads as one).
    /// `clock` records the steps `mrz.locate`, `mrz.glyphs`, `mrz.cells` and `mrz.tesseract` as they end.
    static func scan(_ image: LeptImage, tesseract: TesseractHandle?, options: MRZScanOptions = .init(),
                     clock: StepRecorder? = nil) -> MRZ? {
        // MRZ ink is black: the brightest channel keeps it dark while coloured security
        // backgrounds, stamps and pen marks over the band turn pale.
        let eight: LeptImage, gray: GrayImage
        if image.depth == 32, let (p, g) = GrayImage.brightestChannel(of: image.pix) {
            (eight, gray) = (p, g)
        } else {
            if image.depth == 8 && pixGetColormap(image.pix) == nil { eight = image } else {
                guard let p = pixConvertTo8(image.pix, 0) else { return nil }
                eight = LeptImage(p)
            }
            guard let g = GrayImage(pix8: eight.pix) else { return nil }
            gray = g
        }
        let pix8 = eight.pix
        let (bands, paleLooked) = withExtendedLifetime(eight) { MRZLocator.locateLooks(pix8: pix8) }
        clock?.mark("mrz.locate")
        // The eight bands with the most evidence; then, only if none of them reads as an MRZ, two
        // seen only in part (their length is a guess, and a longer window can only add match).
        if let mrz = readZone(bands: bands, gray: gray, tesseract: tesseract, options: options, clock: clock) { return mrz }
        // A band seen whole spares the locator its pale look, and since session 41's chains it
        // can be a wrong one: a real passport's soft glyphs, JPEG-compressed at quality 30, chain
        // into a 36-cell band over its 44-cell lines that does not read. With nothing read, a pale
        // image is looked at pale once more (the real set's `docsaid_pass-aze2.jpg`), unless the
        // locator already took that look.
        if !paleLooked, bands.contains(where: \.seenWhole) {
            let pale = withExtendedLifetime(eight) { MRZLocator.paleBands(pix8: pix8) }
            clock?.mark("mrz.locate")
            if !pale.isEmpty, let mrz = readZone(bands: pale, gray: gray, tesseract: tesseract, options: options, clock: clock) { return mrz }
        }
        // Nothing read at full size: the picture looked at again at half size, where averaging
        // four pixels into one evens out a photocopy's speckle and grain and the noise of glare
        // over the band (dev seed 41: four of the five zones not found at full size are found at
        // half size: two cards under glare, a small passport photographed upside down, a visa in
        // a 12-MP photo). Only for pictures large enough to keep the glyphs legible at half size.
        // A zone read there passes the same checks as any other, so it is valid only as read.
        if options.halfSizeRetry, max(gray.width, gray.height) >= 1000,
           let half = withExtendedLifetime(eight, { pixScaleAreaMap2(pix8) }).map(LeptImage.init),
           let halfGray = GrayImage(pix8: half.pix) {
            let halfBands = withExtendedLifetime(half) { MRZLocator.locate(pix8: half.pix) }
            clock?.mark("mrz.locate")
            if var mrz = readZone(bands: halfBands, gray: halfGray, tesseract: tesseract, options: options, clock: clock, scale: 2) {
                mrz.box = mrz.box.map { BoundingBox(x: 2 * $0.x, y: 2 * $0.y, width: 2 * $0.width, height: 2 * $0.height) }
                return mrz
            }
        }
        // A fax's threshold can leave an MRZ of small glyphs as strokes a pixel wide, broken into
        // specks the locator cannot chain (dev seed 46's TD2 crop); nothing read on a bilevel
        // page, its ink is thickened by a pixel each way and looked at once more. Read there, a
        // zone passes the same checks as any other.
        guard options.thickenedRetry, image.depth == 1 || gray.isBilevel,
              let thick = withExtendedLifetime(eight, { pixErodeGray(pix8, 3, 3) }).map(LeptImage.init),
              let thickGray = GrayImage(pix8: thick.pix) else { return nil }
        let thickBands = withExtendedLifetime(thick) { MRZLocator.locate(pix8: thick.pix) }
        clock?.mark("mrz.locate")
        return readZone(bands: thickBands, gray: thickGray, tesseract: tesseract, options: options, clock: clock)
    }

    /// The zone read from the eight bands with the most evidence; then, only if none of them
    /// reads as an MRZ, from two seen only in part (their length is a guess, and a longer window
    /// can only add match). `scale`: the picture's size over `gray`'s, for coordinates reported.
    static func readZone(bands: [MRZGeometry], gray: GrayImage, tesseract: TesseractHandle?, options: MRZScanOptions,
                         clock: StepRecorder?, scale: Int = 1) -> MRZ? {
        read(bands: Array(bands.filter { !$0.partial }.prefix(8)), gray: gray, tesseract: tesseract, options: options, clock: clock, scale: scale)
            ?? read(bands: Array(bands.filter(\.partial).prefix(2)), gray: gray, tesseract: tesseract, options: options, clock: clock, scale: scale)
    }

    /// The zone read from the best of `bands`, or nil.
    ///
    /// The band whose glyphs match OCR-B best is read; if it is read but does not hold together as
    /// an MRZ, the best of the others is read once more, and failing that the first once more
    /// with each line tried a cell either way. A grid's match is summed over its cells,
    /// so a TD2 taken for a TD3 (its 36 cells and eight of background beyond them) can outscore
    /// the TD2 band itself, and the TD3 reading then has no structure (dev seed 43: a card
    /// photographed at 15° was not found). Only a band that got as far as being read hands over:
    /// a page without an MRZ mostly stops before that and pays nothing more.
    static func read(bands: [MRZGeometry], gray: GrayImage, tesseract: TesseractHandle?, options: MRZScanOptions,
                     clock: StepRecorder?, scale: Int) -> MRZ? {
        var chosen: Int?
        if let mrz = readBest(bands: bands, gray: gray, tesseract: tesseract, options: options, clock: clock, scale: scale, chosen: &chosen) {
            return mrz
        }
        guard let chosen else { return nil }
        var ignored: Int?
        if bands.count > 1 {
            var others = bands
            others.remove(at: chosen)
            if let mrz = readBest(bands: others, gray: gray, tesseract: tesseract, options: options, clock: clock, scale: scale, chosen: &ignored) {
                return mrz
            }
        }
        // Nothing read holds together: the first band read once more with every line tried a
        // cell either way (a fax's faint first glyph left out puts a whole line a cell off: dev
        // seed 45).
        var shifting = options
        shifting.shiftEveryLine = true
        return readBest(bands: [bands[chosen]], gray: gray, tesseract: tesseract, options: shifting, clock: clock, scale: scale, chosen: &ignored)
    }

    /// The zone read from the band of `bands` that matches OCR-B best, or nil. `chosen` is set to
    /// that band's index once its reading has begun (it passed the distance bounds).
    static func readBest(bands: [MRZGeometry], gray: GrayImage, tesseract: TesseractHandle?, options: MRZScanOptions,
                         clock: StepRecorder?, scale: Int, chosen: inout Int?) -> MRZ? {
        guard !bands.isEmpty else { return nil }
        // The band, start cell and direction with the most OCR-B-like glyphs: summed match
        // quality, so a whole line beats its better-lit part (glare) and a shifted or flipped
        // grid loses the cells it no longer covers.
        var best: (band: MRZGeometry, start: Int, flipped: Bool, strips: [MRZStrip], cells: [[MRZGlyphScorer.Cell]], distance: Double, matched: Double)?
        var bestIndex = 0
        for (index, band) in bands.enumerated() {
            let cellsPerBand = band.length * band.lines.count
            // Each line is sampled once over every start (``MRZLineScorer``). The band read turned
            // by 180° samples the same pixels: its strips are the upright ones in reverse line
            // order, each reversed end to end (exactly, not resampled).
            guard let first = band.starts.min(), let last = band.starts.max() else { continue }
            let span = last - first + band.length
            let upright = band.lines.map { MRZLineScorer(MRZStrip(gray: gray, grid: $0, start: first, length: span, flipped: false)) }
            var turned: [MRZLineScorer] = []
            for start in band.starts {
                for flipped in [false, true] {
                    if flipped && turned.isEmpty { turned = upright.reversed().map { MRZLineScorer($0.wide.turned()) } }
                    let lines = flipped ? turned : upright
                    let offset = flipped ? span - (start - first) - band.length : start - first
                    // Lines are scored one at a time, and a candidate stops as soon as even perfect
                    // matches on its remaining cells could not beat the best so far (each cell adds
                    // at most `maxCellMatch`): the same winner, without scoring hopeless grids.
                    var cells: [[MRZGlyphScorer.Cell]] = []
                    var m = 0.0
                    for line in lines {
                        let scored = line.score(offset: offset, length: band.length)
                        cells.append(scored)
                        m = matched([scored], adding: m)
                        if m + Double(cellsPerBand - cells.count * band.length) * maxCellMatch <= (best?.matched ?? 0) { break }
                    }
                    guard cells.count == lines.count, m > (best?.matched ?? 0) else { continue }
                    best = (band, start, flipped, lines.map { $0.strip(offset: offset, length: band.length) }, cells, meanDistance(cells), m)
                    bestIndex = index
                }
            }
        }
        clock?.mark("mrz.glyphs")
        guard var best else { return nil }
        let bound = !best.band.partial && best.band.completeness >= 0.95 ? options.maxMeanDistanceWhole : options.maxMeanDistance
        // Far from OCR-B before the slants and shifts below is no MRZ after them.
        guard meanDistance(best.cells) <= bound * options.refinableDistance else { return nil }
        // A page photographed at an angle leans its glyphs (its verticals converge), and cells
        // sampled upright cut them: the band is sampled again along a few slants, one for all
        // its lines, and kept at the slant whose cells match OCR-B best, upright unless another
        // clearly gains.
        if options.slantSearch, let slanted = deslanted(best.band, start: best.start, flipped: best.flipped, gray: gray, matched: best.matched) {
            (best.band.lines, best.strips, best.cells, best.matched) = slanted
        }
        // A line counted one cell off from its partner (its first or last glyph missed by the
        // locator) reads shifted: try each line one cell either way, kept only for a clear gain
        // (a shift drops the glyph at one end and adds whatever lies past the other). The glyph
        // added must also match at least as well as the one dropped: resampling moves every cell a
        // little, and on a warped photo that alone can sum to a gain for a shift that drops the
        // line's first letter for the blank past its end.
        let grids = best.flipped ? best.band.lines.reversed() : best.band.lines
        var starts = [Int](repeating: best.start, count: grids.count)
        for i in grids.indices {
            var lineMatched = matched([best.cells[i]])
            let original = best.cells[i]
            for delta in [-1, 1] {
                let strip = MRZStrip(gray: gray, grid: grids[i], start: best.start + delta, length: best.band.length, flipped: best.flipped)
                let cells = MRZGlyphScorer.score(strip)
                let m = matched([cells])
                // Cells are in reading order; a flipped band's grid runs the other way.
                let forward = (delta > 0) != best.flipped
                guard let dropped = forward ? original.first : original.last,
                      let added = forward ? cells.last : cells.first,
                      matched([[added]]) >= matched([[dropped]]) else { continue }
                if m > lineMatched + 0.05 {
                    (best.strips[i], best.cells[i], lineMatched, starts[i]) = (strip, cells, m, best.start + delta)
                }
            }
        }
        best.distance = meanDistance(best.cells)
        clock?.mark("mrz.glyphs")
        guard best.distance <= bound else { return nil }
        chosen = bestIndex
        var zone = Rectified(grids: grids, start: best.start, lineStarts: starts, length: best.band.length, flipped: best.flipped,
                             strips: best.strips, cells: best.cells)
        let first = read(zone.strips, zone.cells, length: zone.length, tesseract: tesseract, options: options, clock: clock)
        let reading = realigned(&zone, reading: first, gray: gray, tesseract: tesseract, options: options)
        (best.strips, best.cells) = (zone.strips, zone.cells)
        guard let reading else { return nil }
        let (format, decoded, evidence, tesseractReading) = (reading.format, reading.decoded, reading.evidence, reading.tesseract)
        // OCR-B without the format's structure is not an MRZ (see `hasStructure`).
        guard decoded.hasStructure else { return nil }
        guard var mrz = MRZParser.build(format: format, lines: decoded.lines, repairs: decoded.repairs) else { return nil }
        // Per-field readings and what is in doubt.
        var doubtful: [String] = []
        for span in MRZDecoder.layout(format) {
            let chars = Array(decoded.lines[span.line])
            let value = String(span.range.map { chars[$0] })
            let confidence = span.range.map { decoded.confidence[span.line][$0] }.min() ?? 0
            let repaired = decoded.repairedCells.filter { $0.0 == span.line && span.range.contains($0.1) }
                .map { "line \($0.0 + 1) col \($0.1 + 1)" }
            let base = span.field.replacingOccurrences(of: "_check", with: "")
            let verdict = span.field.hasSuffix("_check") ? nil : mrz.checks.first { $0.field == base }?.valid
            mrz.fieldReadings.append(MRZ.FieldReading(name: span.field, value: value, valid: verdict,
                                                      confidence: (confidence * 1000).rounded() / 1000, repaired: repaired))
            for cell in span.range where decoded.confidence[span.line][cell] < options.confidentCharacter {
                doubtful.append("line \(span.line + 1) col \(cell + 1)")
            }
        }
        if !decoded.overridden.isEmpty { mrz.reviewReasons.append("malformed: " + decoded.overridden.joined(separator: "; ")) }
        if !decoded.repairs.isEmpty { mrz.reviewReasons.append("repaired: " + decoded.repairs.joined(separator: "; ")) }
        if !doubtful.isEmpty {
            mrz.reviewReasons.append("low-confidence characters at " + doubtful.prefix(12).joined(separator: ", ")
                                     + (doubtful.count > 12 ? " (\(doubtful.count) in all)" : ""))
        }
        if !mrz.checks.allSatisfy(\.valid) {
            mrz.reviewReasons.append("check digits fail: " + mrz.checks.filter { !$0.valid }.map(\.field).joined(separator: ", "))
        }
        // A zone that runs past the picture's edge (cut off by the frame or the scanner) was not
        // seen whole: what the grammar put in the cells outside was never read, whatever the
        // check digits say.
        let outside = zone.grids.indices.map { i in
            (zone.lineStarts[i]..<zone.lineStarts[i] + zone.length).filter { k in
                let (x, y) = zone.grids[i].centre(Double(k))
                return x < 0 || y < 0 || x >= Double(gray.width) || y >= Double(gray.height)
            }.count
        }
        if outside.contains(where: { $0 > 0 }) {
            let lines = outside.enumerated().filter { $0.element > 0 }.map { "line \($0.offset + 1): \($0.element)" }
            mrz.reviewReasons.append("cut off: cells of the zone lie outside the picture (" + lines.joined(separator: ", ") + ")")
        }
        mrz.confidence = ((decoded.confidence.flatMap { $0 }.min() ?? 0) * 1000).rounded() / 1000
        mrz.box = box(best.band, start: best.start)
        mrz.rotation = rotation(best.band.lines[0], flipped: best.flipped)
        mrz.cellReadings = !options.keepCellReadings ? nil : best.cells.enumerated().map { l, line in
            let ink = MRZCellFeatures.ink(best.strips[l]), per = MRZCellFeatures.width * MRZCellFeatures.height
            let classes = MRZAlphabet.count
            let logP = MRZCellClassifier.shared.map { $0.logProbabilities(ink: ink, cells: best.strips[l].length) } ?? []
            return line.enumerated().map { c, cell in
                let t = tesseractReading[l * 1000 + c]
                let order = cell.distances.indices.filter { cell.distances[$0].isFinite }.sorted { cell.distances[$0] < cell.distances[$1] }
                return MRZ.CellReading(tesseract: t?.0, tesseractConfidence: t?.1,
                                       templates: String(order.prefix(3).map { MRZAlphabet.characters[$0] }),
                                       ink: ink[c * per..<(c + 1) * per].map { UInt8(($0 * 255).rounded()) },
                                       templateDistances: cell.distances.map { $0.isFinite ? $0 : -1 },
                                       cellModel: logP.count >= (c + 1) * classes ? Array(logP[c * classes..<(c + 1) * classes]) : [],
                                       tesseractEvidence: t.flatMap { TesseractConfusion.logLikelihoods(read: $0.0, confidence: $0.1) } ?? [])
            }
        }
        mrz.characterConfidence = decoded.confidence.map { $0.map { ($0 * 1000).rounded() / 1000 } }
        var alternatives = decoded.lines.map { [String](repeating: "", count: $0.count) }
        for span in MRZDecoder.layout(format) where span.line < evidence.count {
            let chars = Array(decoded.lines[span.line])
            for (offset, cell) in span.range.enumerated() where cell < chars.count && cell < evidence[span.line].count {
                let allowed = MRZDecoder.allowed(span.kind, offset: offset)
                let e = evidence[span.line][cell], top = allowed.map { e[$0] }.max() ?? 0
                let total = allowed.reduce(0.0) { $0 + exp(e[$1] - top) }
                let plausible = allowed.filter { MRZAlphabet.characters[$0] != chars[cell] && exp(e[$0] - top) / total >= 0.01 }
                    .sorted { e[$0] > e[$1] }
                alternatives[span.line][cell] = String(plausible.map { MRZAlphabet.characters[$0] })
            }
        }
        mrz.characterAlternatives = alternatives
        // Something MRZ-shaped (a monospaced listing, a barcode's digits) that does not read as the
        // format's structure is not an MRZ: ask for most of the fixed parts to be read clearly.
        let cells = decoded.confidence.flatMap { $0 }
        let readable = cells.filter { $0 >= 0.5 }.count
        let structure = mrz.fieldReadings.filter { ["issuer", "nationality", "date_of_birth", "expiry_date", "sex"].contains($0.name) }
        let clear = structure.filter { ($0.confidence ?? 0) >= 0.5 }.count + mrz.checks.filter(\.valid).count
        guard readable * 10 >= cells.count * 6, clear >= 3 else { return nil }
        // Mostly unsure and not adding up: text forced into the grammar, not a zone read.
        if !mrz.checks.allSatisfy(\.valid),
           Double(doubtful.count) >= options.maxUnsureShareWithFailedCheck * Double(max(cells.count, 1)) { return nil }
        // Two documents in one picture (two passports on one flatbed scan): the zone read is one
        // of them, and which identity the picture stands for is not the reader's to pick. (A TD3
        // line 1 carries no check digit, so nothing else would notice a mix of the two.)
        if let box = mrz.box, let other = secondZone(in: bands, besides: box, gray: gray, options: options) {
            mrz.reviewReasons.append("another machine-readable zone in the picture (at x \(scale * other.x), y \(scale * other.y)): one document per picture")
        }
        return mrz
    }

    /// The box of a band among `bands` that lies apart from `zone` and matches OCR-B as closely as
    /// a zone must to be read at all (its own bound, at its best start and direction), or nil.
    static func secondZone(in bands: [MRZGeometry], besides zone: BoundingBox, gray: GrayImage,
                           options: MRZScanOptions) -> BoundingBox? {
        for band in bands where band.seenWhole {
            guard let first = band.starts.first else { continue }
            let b = box(band, start: first)
            // Bands of the zone read (another length, another pair of a TD1's lines) overlap it.
            guard apart(b, zone) else { continue }
            let bound = band.completeness >= 0.95 ? options.maxMeanDistanceWhole : options.maxMeanDistance
            for start in band.starts {
                for flipped in [false, true] {
                    let cells = band.lines.map { MRZGlyphScorer.score(MRZStrip(gray: gray, grid: $0, start: start, length: band.length, flipped: flipped)) }
                    if meanDistance(cells) <= bound { return b }
                }
            }
        }
        return nil
    }

    /// Slants tried, upright included: pixels along the line per pixel across (±0.36 is about
    /// ±20°; the dev phone photos this mends lean by 0.06–0.12).
    static let slants = [-0.36, -0.24, -0.12, 0, 0.12, 0.24, 0.36]

    /// The band's lines, strips and cells sampled along the slant whose cells match OCR-B best,
    /// or nil when the upright sampling (`matched`) stays. A slant is taken only where the match
    /// peaks: falling away from it on both sides over the next two steps, and above the upright
    /// by ``slantGainPerCell`` per cell. On a very blurred page the match barely depends on the
    /// slant and wanders, and a far slant that happens to score higher reads worse.
    static func deslanted(_ band: MRZGeometry, start: Int, flipped: Bool, gray: GrayImage, matched current: Double)
        -> (lines: [MRZLineGrid], strips: [MRZStrip], cells: [[MRZGlyphScorer.Cell]], matched: Double)? {
        typealias Sampled = (lines: [MRZLineGrid], strips: [MRZStrip], cells: [[MRZGlyphScorer.Cell]], matched: Double)
        func sample(_ shear: Double) -> Sampled {
            var lines = band.lines
            for i in lines.indices { lines[i].shear = shear }
            let strips = (flipped ? lines.reversed() : lines).map {
                MRZStrip(gray: gray, grid: $0, start: start, length: band.length, flipped: flipped)
            }
            let cells = strips.map(MRZGlyphScorer.score)
            return (lines, strips, cells, matched(cells))
        }
        // The match rises towards a band's lean from upright: when neither neighbouring slant
        // gains on the upright sampling, no farther one peaks (on the dev seeds and the real
        // images none did), and the other four samplings are skipped.
        let near = slants.indices.filter { abs(slants[$0]) == nearSlant }
        var sampled = [Sampled?](repeating: nil, count: slants.count)
        for i in near { sampled[i] = sample(slants[i]) }
        if near.allSatisfy({ sampled[$0]!.matched <= current }) { return nil }
        for i in slants.indices where slants[i] != 0 && sampled[i] == nil { sampled[i] = sample(slants[i]) }
        let value = slants.indices.map { sampled[$0]?.matched ?? current }
        let top = value.indices.max { value[$0] < value[$1] }!
        guard slants[top] != 0, value[top] > current + slantGainPerCell * Double(band.length * band.lines.count) else { return nil }
        for j in (top + 1)..<min(top + 3, value.count) where value[j] >= value[j - 1] { return nil }
        for j in stride(from: top - 1, through: max(0, top - 2), by: -1) where value[j] >= value[j + 1] { return nil }
        var found = sampled[top]!
        for shear in [slants[top] - 0.06, slants[top] + 0.06] {
            let r = sample(shear)
            if r.matched > found.matched { found = r }
        }
        return found
    }

    /// The slants either side of upright, sampled first.
    static let nearSlant = 0.12

    /// Match gained per cell for a slant to replace the upright sampling.
    static let slantGainPerCell = 0.002

    /// A band's lines as sampled for reading: each line's grid, the cell each line starts at
    /// (`start`, or one either side where the template match moved it), and its strips and cells.
    struct Rectified {
        var grids: [MRZLineGrid]
        var start: Int
        var lineStarts: [Int]
        var length: Int
        var flipped: Bool
        var strips: [MRZStrip]
        var cells: [[MRZGlyphScorer.Cell]]
    }

    /// A line sampled one cell off its partner (its first glyph missed, or one past the end
    /// taken) reads as characters the format forbids where it starts: the grammar, not the
    /// template match, then says which grid is right. Each line with such characters is read
    /// again one cell either way, and the reading with fewer is kept, with `zone` moved to it (a
    /// rare, costlier path: Tesseract reads the zone again). A second line read a cell off breaks
    /// every field it holds; OCR-B that is no MRZ at all breaks the structure on every line, which
    /// no shift mends, and is left as it is.
    static func realigned(_ zone: inout Rectified, reading: Reading?, gray: GrayImage, tesseract: TesseractHandle?,
                          options: MRZScanOptions) -> Reading? {
        guard var reading else { return nil }
        // Mending a reading without the structure must leave little doubt: at most two characters
        // against the grammar (a band of the wrong length, shifted, also fits better, but not that well).
        let mended = reading.decoded.hasStructure ? Int.max : 2
        // Without the structure and against it on several lines, one line counted a cell off may
        // be all that is wrong: on the reader's last look (``MRZScanOptions/shiftEveryLine``)
        // every line is tried shifted.
        let overridden = Set(reading.decoded.overriddenLines)
        let unmendable = !reading.decoded.hasStructure && overridden.count != 1
        guard !unmendable || options.shiftEveryLine else { return reading }
        let tried = unmendable ? Array(zone.grids.indices) : overridden.sorted()
        for i in tried where i < zone.grids.count {
            for start in [zone.start - 1, zone.start, zone.start + 1] where start != zone.lineStarts[i] {
                var strips = zone.strips, cells = zone.cells
                strips[i] = MRZStrip(gray: gray, grid: zone.grids[i], start: start, length: zone.length, flipped: zone.flipped)
                cells[i] = MRZGlyphScorer.score(strips[i])
                guard let shifted = read(strips, cells, length: zone.length, tesseract: tesseract, options: options, clock: nil),
                      shifted.decoded.hasStructure, shifted.decoded.overriddenFields.count <= mended,
                      shifted.decoded.overriddenFields.count < reading.decoded.overriddenFields.count else { continue }
                reading = shifted
                (zone.strips, zone.cells, zone.lineStarts[i]) = (strips, cells, start)
            }
        }
        return reading
    }

    /// A band's lines as read: the format, the decoded lines, the evidence per cell and
    /// Tesseract's own character per cell (key `line * 1000 + cell`).
    struct Reading {
        var format: MRZ.Format
        var decoded: MRZDecoder.Result
        var evidence: [[[Double]]]
        var tesseract: [Int: (Character, Double)]
    }

    /// What the readers make of a band's rectified lines: the evidence per cell (templates, the
    /// learned cell reader, Tesseract), decoded with the format's grammar, Tesseract's letters in
    /// names and the document's own glyphs. Nil when no format fits.
    static func read(_ strips: [MRZStrip], _ cells: [[MRZGlyphScorer.Cell]], length: Int, tesseract: TesseractHandle?,
                     options: MRZScanOptions, clock: StepRecorder?) -> Reading? {
        // Evidence per cell: templates, plus Tesseract's reading of the rectified lines.
        var evidence = cells.map { line in
            line.map { cell in templateEvidence(cell.distances, options: options) }
        }
        // The learned reader has seen photocopied, faxed and photographed OCR-B; the stock
        // templates only the font.
        if options.cellModelWeight > 0, let model = MRZCellClassifier.shared {
            let classes = MRZAlphabet.count
            for (l, strip) in strips.enumerated() {
                let logP = model.logProbabilities(strip)
                for c in 0..<min(strip.length, evidence[l].count) {
                    for k in 0..<classes { evidence[l][c][k] += options.cellModelWeight * logP[c * classes + k] }
                }
            }
            clock?.mark("mrz.cells")
        }
        // Tesseract's own reading per cell, kept to cross-check the decision below.
        var tesseractReading: [Int: (Character, Double)] = [:]
        if let tesseract, let symbols = readWithTesseract(strips, tesseract, levelRadius: options.tesseractLevelRadius) {
            for (line, cell, char, confidence) in symbols {
                tesseractReading[line * 1000 + cell] = (char, confidence)
                // How often Tesseract reads each character this way, measured on OCR-B zones
                // (``TesseractConfusion``): its `eng` model does not tell OCR-B's O from 0 or `<`
                // from K, and reads a flat-topped 3 as S, and the evidence says only that much.
                guard let likelihood = TesseractConfusion.logLikelihoods(read: char, confidence: confidence) else { continue }
                for c in 0..<MRZAlphabet.count { evidence[line][cell][c] += options.tesseractWeight * likelihood[c] }
            }
        }
        clock?.mark("mrz.tesseract")
        // What Tesseract read clearly: a character against the grammar that it saw too is printed so.
        var sure: [Int: Character]? = tesseract == nil ? nil : [:]
        for (key, (char, confidence)) in tesseractReading where confidence >= 80 { sure?[key] = char }
        guard var (format, decoded) = decode(evidence, length: length, lines: strips.count, options: options, secondReading: sure) else {
            return nil
        }
        // Where glare paled a glyph against its neighbours, its own ink level shows the shape their
        // threshold broke (a 3 or 0 reduced to a 1). Taken only where the grammar wants a digit
        // (dates, check digits): elsewhere the same threshold turns a bold 5 into S and a 0 with a
        // glare gap into C (dev seed 14).
        var paled = false
        for span in MRZDecoder.layout(format) where span.kind == .date || span.kind == .check || span.kind == .checkOrFiller {
            guard span.line < cells.count else { continue }
            for cell in span.range where cell < cells[span.line].count {
                guard let own = cells[span.line][cell].paled else { continue }
                let usual = cells[span.line][cell].distances
                // At the temperature the usual match was weighed with.
                let before = templateEvidence(usual, options: options), after = templateEvidence(own, options: options, as: usual)
                for k in 0..<MRZAlphabet.count { evidence[span.line][cell][k] += after[k] - before[k] }
                paled = true
            }
        }
        if paled {
            guard let again = decode(evidence, length: length, lines: strips.count, options: options, secondReading: sure) else { return nil }
            (format, decoded) = again
        }
        // Names carry no check digit, and where toner or a fax thins a stroke the templates take
        // an L or E for a C; Tesseract reads letters in names well (its weakness is digits
        // against letters and `<` against K/C/S/E, so its letter is weighed against the other
        // letters only, never against the filler).
        if options.tesseractNameWeight > 0 {
            for span in MRZDecoder.layout(format) where span.kind == .name {
                for cell in span.range {
                    guard let (char, confidence) = tesseractReading[span.line * 1000 + cell], confidence >= 90,
                          char.isLetter, let k = MRZAlphabet.index(char) else { continue }
                    let q = min(0.97, confidence / 100), hit = log(q), miss = log((1 - q) / 36)
                    for c in 0..<MRZAlphabet.count where c != MRZAlphabet.filler {
                        evidence[span.line][cell][c] += options.tesseractNameWeight * (c == k ? hit : miss)
                    }
                }
            }
            if !options.adaptation {
                guard let again = decode(evidence, length: length, lines: strips.count, options: options, secondReading: sure) else { return nil }
                (format, decoded) = again
            }
        }
        // The document's own sure glyphs decide between look-alikes (0/O, 8/B…) where the stock
        // templates lean weakly; then everything is decided again on the sharper evidence.
        if options.adaptation {
            let prototypes = MRZAdaptation.prototypes(cells: cells, decoded: decoded, format: format,
                                                      minConfidence: options.prototypeConfidence)
            MRZAdaptation.adapt(&evidence, cells: cells, prototypes: prototypes, format: format,
                                temperature: options.adaptationTemperature)
            if options.calibrationHalfGap > 0 {
                MRZAdaptation.calibrate(&evidence, decoded: decoded, format: format, minConfidence: options.prototypeConfidence,
                                        halfGap: options.calibrationHalfGap)
            }
            guard let again = decode(evidence, length: length, lines: strips.count, options: options, secondReading: sure) else { return nil }
            (format, decoded) = again
        }
        // Read twice, decide once: where Tesseract clearly read something it reads for the chosen
        // character less than one time in a hundred at any confidence (``TesseractConfusion``),
        // the two readers disagree and the character is not sure, however strongly the templates
        // lean (names carry no check digit to catch it). One in a thousand made 19 more dev pages
        // valid and right, and one held-out page valid and wrong (an O of a name read Q): not taken.
        for (key, (char, conf)) in tesseractReading where conf >= 60 {
            let line = key / 1000, cell = key % 1000
            guard line < decoded.lines.count, cell < decoded.lines[line].count,
                  let chosen = MRZAlphabet.index(Array(decoded.lines[line])[cell]),
                  let p = TesseractConfusion.probability(read: char, printed: chosen) else { continue }
            if p < 0.01 { decoded.confidence[line][cell] = min(decoded.confidence[line][cell], 0.5) }
        }
        // Every MRZ cell holds ink, fillers too: a cell the templates found empty (washed out by
        // glare, or past a line's end) was not seen, whatever the grammar fills in.
        for (l, line) in cells.enumerated() where l < decoded.confidence.count {
            for (c, cell) in line.enumerated() where cell.box == nil && c < decoded.confidence[l].count {
                decoded.confidence[l][c] = min(decoded.confidence[l][c], 0.5)
            }
        }
        return Reading(format: format, decoded: decoded, evidence: evidence, tesseract: tesseractReading)
    }

    /// Log-scores of a cell's template distances (−20 for a template not compared), at the
    /// temperature its best match earns (``MRZScanOptions/glyphSharpDistance``); `as` gives the
    /// distances that set the temperature when they are not `distances` themselves.
    static func templateEvidence(_ distances: [Double], options: MRZScanOptions, as reference: [Double]? = nil) -> [Double] {
        var best = Double.infinity
        for d in reference ?? distances where d < best { best = d }
        let temperature = options.glyphTemperature * (best.isFinite ? max(1, best / options.glyphSharpDistance) : 1)
        return distances.map { $0.isFinite ? -$0 / temperature : -20 }
    }

    /// The format (from the band's shape and the document code) and the decoded lines.
    static func decode(_ evidence: [[[Double]]], length: Int, lines: Int, options: MRZScanOptions,
                       secondReading: [Int: Character]? = nil) -> (MRZ.Format, MRZDecoder.Result)? {
        var decoder = MRZDecoder(evidence: evidence)
        decoder.secondReading = secondReading
        decoder.confident = options.confidentCharacter
        decoder.repairGap = options.repairGap
        decoder.repairMargin = options.repairMargin
        // Passport or visa (and TD2 or visa B) differ only in the document code's first letter and
        // the check digits they carry: when the letter is in doubt, the layout whose check digits
        // hold wins.
        guard let coded = MRZ.Format.of(length: length, lines: lines, code: decoder.documentCode(), issuer: decoder.issuer()) else {
            return nil
        }
        var format = coded
        var decoded = decoder.decode(format: coded)
        // Only when the letter itself is in doubt: a visa's optional data can satisfy a passport's
        // two extra check digits by chance (1 in 100), and a clearly printed V is a visa.
        if coded != .td1 && coded != .frenchID, decoder.documentLetterConfidence() < options.confidentCharacter,
           let other = MRZ.Format.of(length: length, lines: 2, code: coded == .mrva || coded == .mrvb ? "P" : "V") {
            let alternative = decoder.decode(format: other)
            func passing(_ r: MRZDecoder.Result, _ f: MRZ.Format) -> Int {
                MRZDecoder.checkRanges(f).filter { MRZDecoder.verifies($0, r.lines.map { $0.map { MRZAlphabet.index($0)! } }) }.count
            }
            // Visas have fewer check digits: the passport layout must verify more to win.
            let (a, b) = (passing(decoded, coded), passing(alternative, other))
            if (other == .td3 || other == .td2) ? b > a : b > a + 1 {
                format = other
                decoded = alternative
            }
        }
        return (format, decoded)
    }

    /// The most one cell adds to ``matched(_:adding:)`` (a perfect template match).
    static let maxCellMatch = 0.3

    /// Summed match quality of a band's cells, added to `sum` (a cell no closer than 0.3 to any
    /// template adds nothing).
    static func matched(_ cells: [[MRZGlyphScorer.Cell]], adding sum: Double = 0) -> Double {
        var sum = sum
        for line in cells { for c in line { sum += max(0, maxCellMatch - (c.distances.min() ?? maxCellMatch)) } }
        return sum
    }

    static func meanDistance(_ cells: [[MRZGlyphScorer.Cell]]) -> Double {
        var sum = 0.0, n = 0
        for line in cells { for c in line { sum += min(0.5, c.distances.min() ?? 0.5); n += 1 } }
        return n == 0 ? .infinity : sum / Double(n)
    }

    /// Tesseract on the rectified lines stacked into one image; each symbol assigned to the cell
    /// under its centre (line, cell, character, confidence). Each line is stretched from ink to
    /// paper cell by cell over `levelRadius` cells either side (``stretches(_:radius:)``).
    static func readWithTesseract(_ strips: [MRZStrip], _ tesseract: TesseractHandle,
                                  levelRadius: Int) -> [(Int, Int, Character, Double)]? {
        let P = MRZStrip.cellWidth, S = MRZStrip.height, margin = 24
        let width = strips[0].width + 2 * margin, rowHeight = S + S / 2
        let height = strips.count * rowHeight + 2 * margin
        var pixels = [UInt8](repeating: 255, count: width * height)
        for (l, strip) in strips.enumerated() {
            let top = margin + l * rowHeight
            // Paper to white and ink to black: on a grey photocopy or in shadow the strip's paper
            // sits far below the white margins around it, and Tesseract's global threshold then
            // falls between margin and paper and takes the whole strip for ink.
            let (base, gain) = stretches(strip, radius: levelRadius)
            let W = strip.width
            // Between the centres of cells j and j + 1 the stretch moves linearly; once per column.
            var columnBase = [Float](repeating: 0, count: W), columnGain = [Float](repeating: 0, count: W)
            for x in 0..<W {
                let f = (Float(x) + 0.5) / Float(P) - 0.5
                let j = max(0, min(strip.length - 1, Int(f.rounded(.down)))), k = min(strip.length - 1, j + 1)
                let t = max(0, min(1, f - Float(j)))
                columnBase[x] = base[j] + (base[k] - base[j]) * t
                columnGain[x] = gain[j] + (gain[k] - gain[j]) * t
            }
            for y in 0..<S {
                for x in 0..<W {
                    let v = (strip.pixels[y * W + x] - columnBase[x]) * columnGain[x]
                    pixels[(top + y) * width + margin + x] = UInt8(max(0, min(255, v.rounded())))
                }
            }
        }
        guard let image = GrayImage(width: width, height: height, pixels: pixels).leptImage() else { return nil }
        var out: [(Int, Int, Character, Double)] = []
        var taken: [Int: Double] = [:]
        for s in tesseract.recognizeSymbols(image, whitelist: whitelist) {
            guard s.text.count == 1, let ch = s.text.first else { continue }
            let cx = Double(s.box.x) + Double(s.box.width) / 2 - Double(margin)
            let cy = Double(s.box.y) + Double(s.box.height) / 2 - Double(margin)
            let line = Int((cy / Double(rowHeight)).rounded(.down)), cell = Int((cx / Double(P)).rounded(.down))
            guard line >= 0, line < strips.count, cell >= 0, cell < strips[line].length else { continue }
            // Two symbols in one cell (a split glyph): keep the surer one.
            let key = line * 1000 + cell
            if let c = taken[key], c >= s.confidence { continue }
            taken[key] = s.confidence
            out.removeAll { $0.0 == line && $0.1 == cell }
            out.append((line, cell, ch, s.confidence))
        }
        return out
    }

    /// Each cell's stretch for Tesseract (`(v − base) · gain` maps ink to 0 and paper to 255): from
    /// the ink and paper levels (``levels(_:)``) of the cells within `radius` either side, or of
    /// the whole line where `radius` is 0 or a window holds too little contrast to tell them apart.
    static func stretches(_ strip: MRZStrip, radius: Int) -> (base: [Float], gain: [Float]) {
        let n = strip.length, P = MRZStrip.cellWidth, W = strip.width, cellPixels = P * MRZStrip.height
        // One grey histogram per cell; a window's is kept as a running sum as it slides.
        var histograms = [Int](repeating: 0, count: n * 256), window = [Int](repeating: 0, count: 256)
        for (i, v) in strip.pixels.enumerated() { histograms[(i % W) / P * 256 + Int(max(0, min(255, v)))] += 1 }
        for c in 0..<n { for i in 0..<256 { window[i] += histograms[c * 256 + i] } }
        // Ink to 0 and paper to 255, where there are at least 16 greys between them.
        func stretch(_ levels: (ink: Float, paper: Float)) -> (Float, Float)? {
            levels.paper - levels.ink >= 16 ? (levels.ink, 255 / (levels.paper - levels.ink)) : nil
        }
        let line = stretch(percentiles(window, total: n * cellPixels))
        var base = [Float](repeating: line?.0 ?? 0, count: n), gain = [Float](repeating: line?.1 ?? 1, count: n)
        guard radius > 0, line != nil else { return (base, gain) }
        for i in 0..<256 { window[i] = 0 }
        var lo = 0, hi = -1
        for j in 0..<n {
            while hi < min(n - 1, j + radius) { hi += 1; for i in 0..<256 { window[i] += histograms[hi * 256 + i] } }
            while lo < j - radius { for i in 0..<256 { window[i] -= histograms[lo * 256 + i] }; lo += 1 }
            if let local = stretch(percentiles(window, total: (hi - lo + 1) * cellPixels)) { (base[j], gain[j]) = local }
        }
        return (base, gain)
    }

    /// Ink and paper grey of a strip: its 2nd and 90th percentiles (a zone line is mostly paper).
    static func levels(_ pixels: [Float]) -> (Float, Float) {
        var histogram = [Int](repeating: 0, count: 256)
        for v in pixels { histogram[Int(max(0, min(255, v)))] += 1 }
        return percentiles(histogram, total: pixels.count)
    }

    /// The 2nd and 90th percentiles of a grey histogram of `total` pixels.
    private static func percentiles(_ histogram: [Int], total: Int) -> (Float, Float) {
        func percentile(_ q: Double) -> Float {
            let target = Int(Double(total) * q)
            var sum = 0
            for (i, n) in histogram.enumerated() {
                sum += n
                if sum > target { return Float(i) }
            }
            return 255
        }
        return (percentile(0.02), percentile(0.90))
    }

    /// The band's bounding box in source coordinates.
    static func box(_ band: MRZGeometry, start: Int) -> BoundingBox {
        var x0 = Double.infinity, y0 = Double.infinity, x1 = -Double.infinity, y1 = -Double.infinity
        for line in band.lines {
            for k in [start, start + band.length - 1] {
                let (cx, cy) = line.centre(Double(k))
                let r = line.pitch(Double(k))
                x0 = min(x0, cx - r); x1 = max(x1, cx + r); y0 = min(y0, cy - r); y1 = max(y1, cy + r)
            }
        }
        return BoundingBox(x: Int(max(0, x0)), y: Int(max(0, y0)), width: Int(x1 - max(0, x0)), height: Int(y1 - max(0, y0)))
    }

    /// Whether two boxes are apart by a twentieth of the larger's longer side or more.
    static func apart(_ a: BoundingBox, _ b: BoundingBox) -> Bool {
        let pad = max(a.width, a.height, b.width, b.height) / 20
        return !a.padded(pad).intersects(b)
    }

    /// Clockwise quarter turn that makes text running along `line` (reversed when `flipped`) upright.
    static func rotation(_ line: MRZLineGrid, flipped: Bool) -> Int {
        let sign = flipped ? -1.0 : 1.0
        let angle = atan2(line.uy * sign, line.ux * sign) * 180 / .pi   // 0 = upright, 90 = text running down
        let quarter = Int((angle / 90).rounded())
        return ((-quarter * 90) % 360 + 360) % 360
    }
}
