@preconcurrency import CTesseract
import Foundation

/// Which preprocessing steps run. Defaults are the steps that measurably lower character error on
/// TestDocuments (see README): Sauvola binarisation is available but off, because Tesseract's own
/// thresholding did as well on every variant.
public struct PreprocessOptions: Sendable, Hashable, Codable {
    public var grayscale = true
    /// Find a photographed page's outline on a darker surround and warp it flat and upright to
    /// the nearest quarter turn (see `PageOutline`).
    public var perspective = true
    public var orientation = true
    public var rescale = true
    public var deskew = true
    public var normalizeBackground = true
    public var binarize = false
    /// Paint out photocopy and fax speckle (see `Preprocessor.despeckle`) where a page has a lot.
    public var despeckle = true
    /// Fade a red stamp's ink in the grey page, print under it kept (see `Preprocessor.dropRedInk`).
    public var dropRedInk = true
    /// Smooth bilevel (1-bit) pages into grey before reading (see `Preprocessor.smoothBilevel`),
    /// their dithered pictures painted out first (see `Preprocessor.paintHalftones`).
    public var smoothBilevel = true
    /// Turn light print on a dark band (a card's or form's title bar) into dark print on light
    /// (see `Preprocessor.darkBands`).
    public var darkBands = true
    /// OSD confidence needed before a page is turned. Full pages score 10–22 here; small cards
    /// with little text score below 3 in either direction, so they are left to the upside-down retry.
    public var orientationConfidence: Float = 5
    /// Target height of capital letters in pixels (~10–12 pt text at 300 DPI).
    public var targetCapHeight = 24.0
    /// Background flattening is undone when a global (Otsu) threshold of its result marks more
    /// than this share of the page as ink: what was flattened was a textured surface around a
    /// small document, not uneven paper (see `Preprocessor.run`).
    public var maxFlattenedInk = 0.3
    /// The median filter on a speckled page; nil: the 3 × 3 one twice (see `Preprocessor.run`).
    var median: MedianFilter?
    /// Run `median` whatever the speckle measure says: the unflattened retry of a page found
    /// speckled flattened, whose specks stay under the measure's threshold on grey paper.
    var forceMedian = false
    /// A bilevel page is scaled by this before it is smoothed (with a Gaussian as many pixels
    /// wide): the second reading of a fax (see `DocumentOCR.secondReading`).
    var bilevelScale: Float = 1
    /// Threshold the prepared page near its paper, not between paper and the darkest ink (see
    /// `Preprocessor.lightInkThresholded`): a second reading of a grey page (see `DocumentOCR`).
    var lightInk = false
    /// Thicken a bilevel page's ink by a pixel before it is smoothed (see
    /// `Preprocessor.thickened`): a fax of a light face read poorly is read so once more.
    var thicken = false

    public init() {}

    /// Everything off: OCR of the image as loaded.
    public static var none: PreprocessOptions {
        var o = PreprocessOptions()
        o.grayscale = false
        o.perspective = false
        o.orientation = false
        o.rescale = false
        o.deskew = false
        o.normalizeBackground = false
        o.binarize = false
        o.despeckle = false
        o.smoothBilevel = false
        o.darkBands = false
        o.dropRedInk = false
        return o
    }
}

/// What preprocessing did to a page.
public struct PreprocessReport: Sendable, Equatable, Codable {
    public var steps: [String] = []
    /// Clockwise rotation applied to make the page upright (0, 90, 180, 270), by OSD or by the
    /// upside-down retry.
    public var rotation = 0
    public var orientationConfidence: Float?
    /// Skew found (degrees; the page was rotated by its opposite) and Leptonica's confidence.
    public var skewAngle: Float?
    public var skewConfidence: Float?
    public var scale: Double = 1
    /// The page's corners in the image as loaded (turned first if its MRZ said so), clockwise from
    /// the top left, when a photographed page was warped flat; word boxes are then in the
    /// flattened page's pixels.
    public var outline: [PagePoint]?
    /// Median capital-letter height found, in pixels, before rescaling.
    public var textHeight: Double?
    /// Resolution handed to Tesseract; 0 when the page was read as loaded without one, at
    /// Tesseract's own estimate (it states none).
    public var resolution = 300
    /// How the image read came from the image as given (nil: it is the image as given); the
    /// page's boxes are mapped back through it.
    var geometry: PageGeometry?
    /// The median filter, when one ran.
    var median: MedianFilter?

    enum CodingKeys: String, CodingKey {
        case steps, rotation, orientationConfidence, skewAngle, skewConfidence, scale, outline, textHeight, resolution
    }

    /// Records that the image these steps started from was `given` turned clockwise by `degrees`.
    mutating func turnedFirst(_ degrees: Int, given: LeptImage, turned: LeptImage) {
        if geometry == nil { geometry = PageGeometry(width: turned.width, height: turned.height) }
        geometry?.prepend(.turn(clockwise: degrees, width: Double(given.width), height: Double(given.height)),
                          inputWidth: given.width, inputHeight: given.height)
    }

    /// Records a step that moved the pixels of `image` (the image before the step).
    mutating func moved(_ step: PageGeometry.Step, from image: LeptImage) {
        if geometry == nil { geometry = PageGeometry(width: image.width, height: image.height) }
        geometry?.append(step)
    }
}

enum Preprocessor {
    /// Dots per inch per pixel of capital height, as Tesseract estimates a page's resolution.
    static let resolutionPerCapitalPixel = 12.5

    /// Whether `image` states a resolution worth believing (Tesseract's own credible range);
    /// otherwise the page is taken as 300 DPI, or left to Tesseract's estimate as loaded.
    static func statesResolution(_ image: LeptImage) -> Bool { (70...1200).contains(image.resolution) }

    /// Runs the enabled steps that the page needs. Orientation is not decided here: the caller
    /// reads the page first and only asks OSD when the reading is poor (see `OCRWorker`), so
    /// upright pages never pay for it.
    /// Returns the prepared image and what was done. (An upside-down identity document is turned
    /// before this, from its MRZ's direction: see `MRZScanner`.)
    static func run(_ input: LeptImage, options o: PreprocessOptions) throws(OCRError) -> (LeptImage, PreprocessReport) {
        var report = PreprocessReport()
        var image = input
        let stated = statesResolution(input)
        let sourceResolution = stated ? input.resolution : 300
        report.resolution = sourceResolution
        let anyStep = o.grayscale || o.perspective || o.deskew || o.normalizeBackground || o.rescale || o.binarize
        let bilevel = o.smoothBilevel && (image.depth == 1 || (image.depth == 8 && pixGetColormap(image.pix) == nil && isBilevel(image)))
        if anyStep, image.depth != 8 || pixGetColormap(image.pix) != nil {
            let color = image
            image = try LeptImage.make(pixConvertTo8(image.pix, 0), "grayscale conversion")
            report.steps.append("grayscale")
            if o.dropRedInk, color.depth == 32, dropRedInk(color, into: image) { report.steps.append("red-ink") }
        }
        // What the page was scaled by before its text height was measured (a bilevel page read larger).
        var scaledFirst = 1.0
        if bilevel && image.depth == 8 {
            if let (painted, _) = try paintHalftones(image) {
                image = painted
                report.steps.append("halftone")
            }
            if o.thicken {
                image = try thickened(image)
                report.steps.append("thicken")
            }
            if o.bilevelScale != 1 {
                let scaled = try LeptImage.make(pixScale(image.pix, o.bilevelScale, o.bilevelScale), "rescale")
                scaledFirst = Double(scaled.width) / Double(image.width)
                report.moved(.scale(scaledFirst), from: image)
                image = scaled
                report.resolution = Int((Double(sourceResolution) * scaledFirst).rounded())
                report.scale = scaledFirst
                report.steps.append("rescale")
            }
            image = try smoothBilevel(image, sigma: max(1, o.bilevelScale))
            report.steps.append("smooth")
        } else if o.perspective, image.depth == 8, let outline = PageOutline.find(in: image.pix),
                  let gray = GrayImage(pix8: image.pix), let flat = outline.rectified(gray).leptImage() {
            pixSetResolution(flat.pix, Int32(sourceResolution), Int32(sourceResolution))
            report.moved(.warp(map: PageOutline.unitSquareMap(to: outline.corners), width: Double(flat.width), height: Double(flat.height)), from: image)
            image = flat
            report.outline = outline.corners
            report.steps.append("perspective")
        }
        // Flatten uneven lighting (shadows, vignetting) where the paper is visibly uneven. On evenly
        // lit pages it changed nothing, and on the noisy ID card it tripled the error.
        if o.normalizeBackground, backgroundSpread(image) > 25, let flat = pixBackgroundNormSimple(image.pix, nil, nil) {
            let flattened = LeptImage(flat)
            // A photo of a card on a table or cloth: flattening lifts the texture to paper grey,
            // and Tesseract's global threshold then cuts it into half ink, tens of thousands of
            // specks that read as nothing and cost minutes (its result iterator is quadratic in
            // them). Text on paper stays under 0.11 ink on the dev pages; textured surrounds
            // measure 0.38–0.50 (and under 0.1 ink, or all ink, without flattening).
            // A fine texture (a woven cloth around a card in a 12-MP photo) averages to paper grey in
            // the reduced copy (0.007 ink) and is half ink at full size (0.50), where Tesseract
            // thresholds it: it is measured there too. Pages flattened on the dev corpora measure
            // at most 0.075 at full size.
            if otsuInkFraction(flattened) <= o.maxFlattenedInk, otsuInkFraction(flattened, reduced: false) <= o.maxFlattenedInk {
                image = flattened
                report.steps.append("background")
            }
        }
        // A title printed light on a dark band: Tesseract reads dark print on light, and its own
        // inversion of lines it read poorly left "IDENTITY CARD / CARTE D'IDENTITÉ" on a fax as
        // "TRO se BDAC) ICT:", so the card went unrecognised. (Before the page is measured and
        // levelled: the band's letters count as text, and a band level as given stays a rectangle.)
        if o.darkBands, image.depth == 8, pixGetColormap(image.pix) == nil, case let bands = darkBands(image), !bands.isEmpty,
           let copy = pixCopy(nil, image.pix) {
            let inverted = LeptImage(copy)
            invert(inverted, in: bands)
            image = inverted
            report.steps.append("dark-band")
        }
        // One binary copy serves text-height, skew and upside-down measurements (it is redone
        // only if the page is rescaled).
        var threshold: Int32 = 150
        var binary = try LeptImage.make(pixConvertTo1(image.pix, threshold), "binarise")
        let components = o.rescale || o.despeckle ? binary.componentBoxes() : []
        var measuredHeight = o.rescale || o.despeckle ? capHeight(components) : nil
        // A photocopy whose print came out lighter than its specks: at 150 the specks are all
        // there is, and the capital height measured on their clusters (9 px for 25) scaled the
        // page up with its speckle and kept the median off it.
        if o.despeckle, !bilevel, let light = try lightPrint(image, components: components) {
            threshold = light.threshold
            binary = try LeptImage.make(pixConvertTo1(image.pix, threshold), "binarise")
            measuredHeight = light.capHeight
            report.steps.append("light-print")
        }
        // A grey page drowned in speckle (a photocopy: specks outnumber the other components and
        // cover the page at one or more per square of the capital height) gets a median filter at
        // its own resolution, before any rescaling: speckle touching the letters, which painting
        // out cannot reach, goes too, and Tesseract's threshold sees whole strokes. (Dev
        // photocopies: 4–170 specks per other component, 1.0–12 per square; real receipt photos,
        // whose JPEG grain and dotted rules a median smears, under 1 per other component.)
        if o.despeckle, !bilevel, let height = measuredHeight, o.forceMedian || specks(binary, capHeight: height, share: 1.5, density: 0.8) != nil {
            let median = o.median ?? .threeTwice
            if let filtered = median.apply(image) {
                image = filtered
                binary = try LeptImage.make(pixConvertTo1(image.pix, threshold), "binarise")
                report.steps.append("median")
                report.median = median
            }
        }
        // What the rescale step scaled by (the page's text height is measured after `scaledFirst`).
        var rescaled = 1.0
        if o.rescale, let height = measuredHeight {
            // In the page's own pixels, as `scale` is from them.
            report.textHeight = height / scaledFirst
            if height < o.targetCapHeight * 0.7 {
                let factor = min(4, o.targetCapHeight / height)
                let scaled = try LeptImage.make(pixScale(image.pix, Float(factor), Float(factor)), "rescale")
                // pixScale rounds the size: the factor that maps the page is the one it took.
                report.moved(.scale(Double(scaled.width) / Double(image.width)), from: image)
                image = scaled
                binary = try LeptImage.make(pixConvertTo1(image.pix, threshold), "binarise")
                rescaled = factor
                report.scale = scaledFirst * factor
                report.resolution = Int((Double(sourceResolution) * scaledFirst * factor).rounded())
                if !report.steps.contains("rescale") { report.steps.append("rescale") }
            }
        }
        if o.despeckle, o.rescale, let height = measuredHeight {
            image = try despeckle(image, binary: &binary, capHeight: height * rescaled, filtered: report.median != nil, report: &report)
        }
        if o.deskew {
            let before = image
            image = try deskew(image, binary: binary, report: &report)
            // Line profiles need level lines: measure a rotated page again.
            if image !== before { binary = try LeptImage.make(pixConvertTo1(image.pix, threshold), "binarise") }
        }
        if o.orientation {
            let upright = uprightness(binary)
            if upright < -0.2 {
                report.moved(.turn(clockwise: 180, width: Double(image.width), height: Double(image.height)), from: image)
                image = try rotate(image, clockwise: 180)
                report.rotation = 180
                report.steps.append("orientation")
            }
        }
        if o.binarize {
            var out: UnsafeMutablePointer<Pix>?
            if pixSauvolaBinarizeTiled(image.pix, 25, 0.35, 1, 1, nil, &out) == 0, let out {
                image = LeptImage(out)
                report.steps.append("binarize")
            }
        }
        if o.lightInk, let light = try lightInkThresholded(image) {
            image = light
            report.steps.append("light-ink")
        }
        // Tesseract's layout analysis sizes its noise and line thresholds by the resolution it is
        // told. A page that does not say its own (generated, photographed, faxed without a header)
        // was taken as 300 DPI, which for small print, or a fax read at 1.5×, is more than its
        // letters have: a grey card's bold values among speckle were dropped as noise ("ASHI." for
        // TAKAHASHI). Such a page is given the resolution its capitals imply (Tesseract's own
        // estimate is about 12.5 × the capital height) when that is clearly lower.
        if !stated, let height = measuredHeight {
            let implied = Self.resolutionPerCapitalPixel * height * rescaled
            if implied < 0.8 * Double(report.resolution) { report.resolution = max(70, Int(implied.rounded())) }
        }
        return (image, report)
    }

    /// Bands of dark ground across a good part of the page (a third of its width or more, at
    /// most a quarter of its height, clear of its top and bottom edges) with light print in them:
    /// rows with dark pixels (under 128) across a fifth of the page, the columns dark over 60 %
    /// of those rows in one run (gaps under half its height), the rectangle between 55 and 95 %
    /// dark. Print on paper has no such run; a photo's dark surround touches the page's edges.
    static func darkBands(_ image: LeptImage) -> [BoundingBox] {
        let pix = image.pix
        guard pixGetDepth(pix) == 8, let data = pixGetData(pix) else { return [] }
        let w = Int(pixGetWidth(pix)), h = Int(pixGetHeight(pix)), wpl = Int(pixGetWpl(pix))
        guard w >= 64, h >= 64 else { return [] }
        func row(_ y: Int) -> UnsafePointer<UInt8> { UnsafeRawPointer(data + y * wpl).assumingMemoryBound(to: UInt8.self) }
        // Leptonica keeps 8-bit pixels big-endian within 32-bit words: pixel x is byte x ^ 3.
        var rowDark = [Int](repeating: 0, count: h)
        for y in 0..<h {
            let r = row(y)
            var n = 0
            for x in 0..<w where r[x ^ 3] < 128 { n += 1 }
            rowDark[y] = n
        }
        var bands: [BoundingBox] = []
        var colDark = [Int](repeating: 0, count: w)
        var y = 0
        while y < h {
            guard rowDark[y] * 5 >= w else { y += 1; continue }
            let top = y
            while y < h, rowDark[y] * 5 >= w { y += 1 }
            let bottom = y - 1, height = bottom - top + 1
            guard top >= 2, bottom <= h - 3, height >= 12, height * 4 <= h else { continue }
            for x in 0..<w { colDark[x] = 0 }
            for yy in top...bottom {
                let r = row(yy)
                for x in 0..<w where r[x ^ 3] < 128 { colDark[x] += 1 }
            }
            // The longest run of dark columns, bridging the band's letters (columns through two
            // lines of light capitals are dark over less than 60 % of it).
            var best = (start: 0, end: -1), start = -1, last = -w
            for x in 0..<w where colDark[x] * 10 >= height * 6 {
                if x - last > height / 2 { start = x }
                last = x
                if x - start > best.end - best.start { best = (start, x) }
            }
            let width = best.end - best.start + 1
            guard width * 3 >= w else { continue }
            let dark = colDark[best.start...best.end].reduce(0, +)
            let share = Double(dark) / Double(width * height)
            guard share >= 0.55, share <= 0.95 else { continue }
            bands.append(BoundingBox(x: best.start, y: top, width: width, height: height))
        }
        return bands
    }

    /// `image` (8-bit, owned by the caller) with the dark bands found in `boxes` inverted: in each
    /// column, from the first dark pixel to the last within the box and a few rows beyond it
    /// (its edges where the band sits a little off level), so no dark wedge is left at its ends.
    static func invert(_ image: LeptImage, in boxes: [BoundingBox]) {
        guard let data = pixGetData(image.pix) else { return }
        let wpl = Int(pixGetWpl(image.pix)), h = Int(pixGetHeight(image.pix))
        func at(_ x: Int, _ y: Int) -> UnsafeMutablePointer<UInt8> {
            UnsafeMutableRawPointer(data + y * wpl).assumingMemoryBound(to: UInt8.self) + (x ^ 3)
        }
        for b in boxes {
            let reach = min(16, max(3, b.width / 80))
            let top = max(0, b.y - reach), bottom = min(h - 1, b.y + b.height - 1 + reach)
            for x in b.x..<(b.x + b.width) {
                // Dark ground, not a letter's stem beside the band: three dark rows in a row.
                func ground(_ y: Int, _ step: Int) -> Bool {
                    (0..<3).allSatisfy { k in (top...bottom).contains(y + k * step) && at(x, y + k * step).pointee < 128 }
                }
                guard let first = (top...bottom).first(where: { ground($0, 1) }),
                      let last = (top...bottom).reversed().first(where: { ground($0, -1) }), last > first else { continue }
                for y in first...last { at(x, y).pointee = 255 &- at(x, y).pointee }
            }
        }
    }

    /// A form filled in light grey beside black labels: Tesseract's global Otsu threshold falls
    /// between the paper and the black, the grey strokes straddle it, and whole values break up
    /// or drop out (`sha Bint Kh` for "Aisha Bint Khalid Al-Hashimi", a City cell read as
    /// nothing, while a copy off by a quarter of a grey level read them all). Thresholded a
    /// quarter of the way from the paper to the ink instead (the two levels are the medians of
    /// either side of Otsu's split), and the steps smoothed back to edges as a fax's are. Nil
    /// when the page has no clear paper and ink.
    static func lightInkThresholded(_ image: LeptImage) throws(OCRError) -> LeptImage? {
        guard image.depth == 8, pixGetColormap(image.pix) == nil, let counts = grayHistogram(image, factor: 2),
              let split = PageOutline.otsuSplit(counts) else { return nil }
        /// The median level of `range`.
        func median(_ range: ClosedRange<Int>) -> Int? {
            let n = range.reduce(0.0) { $0 + counts[$1] }
            guard n > 0 else { return nil }
            var seen = 0.0
            for level in range {
                seen += counts[level]
                if seen >= n / 2 { return level }
            }
            return nil
        }
        guard let ink = median(0...split), let paper = median((split + 1)...255), paper - ink >= 60 else { return nil }
        let threshold = Int32(Double(paper) - 0.25 * Double(paper - ink))
        let binary = try LeptImage.make(pixThresholdToBinary(image.pix, threshold), "light-ink threshold")
        let eight = try LeptImage.make(pixConvert1To8(nil, binary.pix, 255, 0), "light-ink grey")
        pixSetResolution(eight.pix, pixGetXRes(image.pix), pixGetYRes(image.pix))
        return try smoothBilevel(eight)
    }

    /// The 256 grey levels' counts of an 8-bit image, sampled every `factor` pixels each way.
    static func grayHistogram(_ image: LeptImage, factor: Int32) -> [Double]? {
        guard let histogram = pixGetGrayHistogram(image.pix, factor) else { return nil }
        var owned: UnsafeMutablePointer<NUMA>? = histogram
        defer { numaDestroy(&owned) }
        return (0..<256).map { i in
            var v: Float = 0
            numaGetFValue(histogram, Int32(i), &v)
            return Double(v)
        }
    }

    /// Whether an 8-bit image holds two grey levels only (a bilevel page stored as grey, as PNG
    /// readers expand 1-bit images).
    static func isBilevel(_ image: LeptImage) -> Bool {
        // Read in place, no copy of the page; most pages show a third level within a few pixels.
        let pix = image.pix
        guard pixGetDepth(pix) == 8, let data = pixGetData(pix) else { return false }
        let w = Int(pixGetWidth(pix)), h = Int(pixGetHeight(pix)), wpl = Int(pixGetWpl(pix))
        var first = -1, second = -1
        for y in 0..<h {
            let row = UnsafeRawPointer(data + y * wpl).assumingMemoryBound(to: UInt8.self)
            for x in 0..<w {
                // Leptonica keeps 8-bit pixels big-endian within 32-bit words: pixel x is byte x ^ 3.
                let v = Int(row[x ^ 3])
                if v == first || v == second { continue }
                if first < 0 { first = v } else if second < 0 { second = v } else { return false }
            }
        }
        return second >= 0
    }

    /// A fax or a bilevel scan has jagged, broken strokes (a fax's rows are 98 to the inch), and
    /// Tesseract's recogniser was trained on grey, anti-aliased text: a Gaussian of one pixel (of
    /// `sigma` on a page scaled up by as much) turns the steps back into edges (on the dev faxes
    /// `FULL NAME`, `STATE`, `ZIP CODE` read whole instead of `rutl NAME`, `SHALE`).
    static func smoothBilevel(_ image: LeptImage, sigma: Float = 1) throws(OCRError) -> LeptImage {
        // Separable: a row pass and a column pass cost 2 × (4σ + 1) taps a pixel, not its square.
        let half = Int32((2 * sigma).rounded(.up))
        var rows: UnsafeMutablePointer<L_KERNEL>?, columns: UnsafeMutablePointer<L_KERNEL>?
        defer { kernelDestroy(&rows); kernelDestroy(&columns) }
        guard makeGaussianKernelSep(half, half, sigma, 1.0, &rows, &columns) == 0, rows != nil, columns != nil else { return image }
        return try LeptImage.make(pixConvolveSep(image.pix, rows, columns, 8, 1), "smooth")
    }

    /// A light face faxed keeps strokes of a pixel or two, broken where the fax's coarse rows
    /// fell between them, and Tesseract reads its words as noise (`Ptatda LD ob` for "Birth
    /// Date"). Every dot of ink grows by one pixel (a 2 × 2 dilation of the bilevel page;
    /// `image` is 8-bit, two levels), which joins the breaks without closing the
    /// counters of letters at fax sizes. Raw `tesseract` on 50 dev faxes of two seeds, the
    /// thickened page kept where it read more words clearly: mean CER 0.169 → 0.153; thickened
    /// everywhere, 0.187 (bold print and tables fill in); hence a retry kept by its words
    /// (`benchmarks/page-variants out/fax-dev/dev/*.png out/fax-s30/dev/*.png`).
    static func thickened(_ image: LeptImage) throws(OCRError) -> LeptImage {
        let binaryImage = try LeptImage.make(pixConvertTo1(image.pix, 128), "thicken")
        let grownImage = try LeptImage.make(pixDilateBrick(nil, binaryImage.pix, 2, 2), "thicken")
        let gray = try LeptImage.make(pixConvert1To8(nil, grownImage.pix, 255, 0), "thicken")
        pixCopyResolution(gray.pix, image.pix)
        return gray
    }

    /// Photocopies and faxes sprinkle isolated dots far smaller than the letters, which Tesseract
    /// reads as punctuation between words (`BRAM’ IJZERMAN: :`) and which break label/value pairs.
    /// Where a page has many (at least 150, and four for every five of its other components), the
    /// components no larger than a ninth of the capital height and away from the letters are
    /// painted paper-white, in the grey image and in its binary copy. A page `filtered` by the
    /// median (a copy known to be drowned in speckle) has what is left painted out from a quarter
    /// as many.
    ///
    /// (From a quarter as many everywhere, the step took 11 of the 30 real receipts too, whose
    /// JPEG grain and worn thermal print give 0.25–0.85 specks per other component. There the dots
    /// painted out were pieces of faded letters, dashed rules and decimal points: receipt 040 lost
    /// its faded tax summary. Of the generated pages, most that need the step have 0.8 and more;
    /// photocopies the median filtered have from 0.26, and without the step two cards of dev seed
    /// 232 lost their labels.)
    static func despeckle(_ image: LeptImage, binary: inout LeptImage, capHeight: Double, filtered: Bool,
                          report: inout PreprocessReport) throws(OCRError) -> LeptImage {
        guard let specks = specks(binary, capHeight: capHeight, share: filtered ? 0.25 : 0.8) else { return image }
        let small = specks.pix
        // Full stops, decimal points and the dots of i sit beside letters: only dots farther than
        // a quarter of the capital height from any larger component go.
        let reach = Int32(max(1, Int(capHeight / 4)))
        guard let large = pixSubtract(nil, binary.pix, small),
              let near = pixDilateBrick(nil, large, 2 * reach + 1, 2 * reach + 1) else { return image }
        defer { var a: UnsafeMutablePointer<Pix>? = large, b: UnsafeMutablePointer<Pix>? = near; pixDestroy(&a); pixDestroy(&b) }
        pixSubtract(small, small, near)
        let cleaned = try LeptImage.make(pixCopy(nil, image.pix), "despeckle")
        pixPaintThroughMask(cleaned.pix, small, 0, 0, 255)
        pixSubtract(binary.pix, binary.pix, small)
        report.steps.append("despeckle")
        return cleaned
    }

    /// The threshold and capital height of a speckled page whose print is lighter than its specks
    /// (a pale photocopy: paper 208, print 150–170, specks 30–70), or nil. At the fixed 150 such a
    /// page is specks and fragments of letters; under a 3 × 3 median the specks go, and Otsu's
    /// split of what is left falls between the paper and the print. Taken only where the median
    /// copy at that split shows at least twice the letter-sized components the page shows at 150
    /// (pale pages of the dev photocopies: 46–252 at 150, 150–540 so).
    /// `components`: the boxes of the page's components at 150.
    static func lightPrint(_ image: LeptImage, components boxes: [BoundingBox]) throws(OCRError) -> (threshold: Int32, capHeight: Double)? {
        guard image.depth == 8, pixGetColormap(image.pix) == nil else { return nil }
        let tiny = boxes.count { $0.width <= 2 && $0.height <= 2 }
        // Speckled: a sea of dots (a receipt's grain is under half its components).
        guard tiny >= 1000, tiny >= 3 * (boxes.count - tiny) else { return nil }
        guard let filtered = pixMedianFilter(image.pix, 3, 3).map(LeptImage.init), let counts = grayHistogram(filtered, factor: 1),
              let split = PageOutline.otsuSplit(counts), split >= 165 else { return nil }
        let light = try LeptImage.make(pixConvertTo1(filtered.pix, Int32(split)), "binarise")
        let letters = { (b: [BoundingBox]) in b.count { $0.height >= 6 && $0.height <= 300 && $0.width >= 2 && $0.width <= $0.height * 3 } }
        let lightBoxes = light.componentBoxes()
        guard letters(lightBoxes) >= 2 * letters(boxes), let height = capHeight(lightBoxes) else { return nil }
        return (Int32(split), height)
    }

    /// The specks of a speckled page (components no larger than a ninth of the capital height,
    /// at least 150 of them, `share` times as many as the rest and `density` per square of the
    /// capital height), or nil.
    static func specks(_ binary: LeptImage, capHeight: Double, share: Double, density: Double = 0) -> LeptImage? {
        let size = Int32(max(1, Int(capHeight / 9)))
        guard let selected = pixSelectBySize(binary.pix, size, size, 8, Int32(L_SELECT_IF_BOTH), Int32(L_SELECT_IF_LTE), nil) else {
            return nil
        }
        let small = LeptImage(selected)
        var specks: Int32 = 0, all: Int32 = 0
        guard pixCountConnComp(small.pix, 8, &specks) == 0, pixCountConnComp(binary.pix, 8, &all) == 0,
              specks >= 150, Double(specks) >= share * Double(all - specks),
              Double(specks) * capHeight * capHeight >= density * Double(binary.width * binary.height) else { return nil }
        return small
    }

    /// Finds the skew on `binary` (a binary copy of `image`; made here when nil) and rotates `image`.
    static func deskew(_ image: LeptImage, binary given: LeptImage? = nil, report: inout PreprocessReport) throws(OCRError) -> LeptImage {
        let binaryImage: LeptImage
        if let given { binaryImage = given } else { binaryImage = try LeptImage.make(pixConvertTo1(image.pix, 150), "binarise") }
        let binary = binaryImage.pix
        var angle: Float = 0, conf: Float = 0
        // ±12° sweep on a 4× reduced image: Leptonica's default ±7° reports zero confidence for
        // pages at the edge of it.
        guard pixFindSkewSweepAndSearch(binary, &angle, &conf, 4, 2, 12, 1, 0.01) == 0 else { return image }
        report.skewAngle = angle
        report.skewConfidence = conf
        // A card's few lines give a low confidence for an angle that is nonetheless right: on the
        // dev cards scanned askew, confidence 1.5–2.5 and the angle within 0.3° of the truth (one
        // within 1.1°), and left slanted they lost labels ("°0B" for DOB). Such an angle is
        // undone from a degree: under it Tesseract reads the slant well, and the turn's
        // resampling can cost more than it gains (a photocopy measured at -0.5°, confidence 2.3,
        // lost three fields turned).
        guard (conf >= 2.5 && abs(angle) >= 0.1) || (conf >= 0.5 && abs(angle) >= 1) else { return image }
        let rotated = rotatedOnItsPaper(image, radians: angle * .pi / 180)
        report.moved(.rotate(radians: Double(angle) * .pi / 180, width: Double(image.width), height: Double(image.height)), from: image)
        report.steps.append("deskew")
        return try LeptImage.make(rotated, "deskew")
    }

    /// `image` turned `radians` about its centre (same size), the corners brought in filled with
    /// the page's own paper: a grey page (a photocopy's paper is about 190) turned bringing in
    /// white gets white corners, and Tesseract's one global threshold then falls between paper and
    /// corners, and the print goes with the paper (a deed copied faint, deskewed, read as nothing
    /// at all). On 468 dev pages of 13 seeds, 26 more fields exact.
    static func rotatedOnItsPaper(_ image: LeptImage, radians: Float) -> UnsafeMutablePointer<Pix>? {
        // The paper: the level three quarters of the pixels are at or under (print covers less
        // than a quarter of a page).
        var paper: UInt32 = 255
        if pixGetDepth(image.pix) == 8, pixGetColormap(image.pix) == nil, pixGetRankValue(image.pix, 4, 0.75, &paper) == 0 {
            return pixRotateAMGray(image.pix, radians, UInt8(min(paper, 255)))
        }
        return pixRotate(image.pix, radians, Int32(L_ROTATE_AREA_MAP), Int32(L_BRING_IN_WHITE), 0, 0)
    }

    /// Share of ink after one global Otsu threshold (the kind of threshold Tesseract applies by
    /// default) of a 4× reduced copy, or with `reduced` false of the image itself. 0 when it
    /// cannot be measured.
    static func otsuInkFraction(_ image: LeptImage, reduced: Bool = true) -> Double {
        var half = reduced ? pixScaleAreaMap2(image.pix) : nil
        defer { pixDestroy(&half) }
        var quarter = half.flatMap { pixScaleAreaMap2($0) }
        defer { pixDestroy(&quarter) }
        guard let small = reduced ? quarter : image.pix else { return 0 }
        var binary: UnsafeMutablePointer<Pix>?
        let w = pixGetWidth(small), h = pixGetHeight(small)
        guard pixOtsuAdaptiveThreshold(small, w, h, 0, 0, 0, nil, &binary) == 0, binary != nil else { return 0 }
        defer { pixDestroy(&binary) }
        var fraction: Float = 0
        guard pixForegroundFraction(binary, &fraction) == 0 else { return 0 }
        return Double(fraction)
    }

    /// Spread of the paper's brightness across the page: the brightest pixel (≈ paper) of each
    /// cell of a 6 × 6 grid on an 8× reduced copy; max − min of those.
    static func backgroundSpread(_ image: LeptImage) -> Int {
        guard let small = pixScale(image.pix, 0.125, 0.125) else { return 0 }
        var s: UnsafeMutablePointer<Pix>? = small
        defer { pixDestroy(&s) }
        let w = Int(pixGetWidth(small)), h = Int(pixGetHeight(small))
        guard pixGetDepth(small) == 8, w >= 12, h >= 12, let data = pixGetData(small) else { return 0 }
        let wpl = Int(pixGetWpl(small))
        var brightest: [Int] = []
        for gy in 0..<6 {
            for gx in 0..<6 {
                var best = 0
                for y in (gy * h / 6)..<((gy + 1) * h / 6) {
                    let row = data + y * wpl
                    // 8 bpp: four pixels per 32-bit word, most significant byte first.
                    for x in (gx * w / 6)..<((gx + 1) * w / 6) { best = max(best, Int((row[x >> 2] >> UInt32(24 - 8 * (x & 3))) & 0xFF)) }
                }
                brightest.append(best)
            }
        }
        return (brightest.max() ?? 0) - (brightest.min() ?? 0)
    }

    /// Evidence that a page is upside down, from the shape of its text lines: in Latin text
    /// ascenders (b d f h k l t and capitals) far outnumber descenders (g j p q y), so above a
    /// line's x-height band there is more ink than below it — unless the page is turned by 180°.
    /// Returns (ink above − ink below) / (above + below) summed over lines: clearly positive for an
    /// upright page, clearly negative for an upside-down one, near 0 when there is too little text.
    static func uprightness(_ binaryImage: LeptImage) -> Double {
        let binary = binaryImage.pix
        let w = Int(pixGetWidth(binary)), h = Int(pixGetHeight(binary)), wpl = Int(pixGetWpl(binary))
        guard let data = pixGetData(binary), h > 10 else { return 0 }
        var rows = [Int](repeating: 0, count: h)
        for y in 0..<h {
            let row = data + y * wpl
            var n = 0
            for word in 0..<((w + 31) / 32) { n += row[word].nonzeroBitCount }
            rows[y] = n
        }
        var above = 0, below = 0, lines = 0
        var y = 0
        while y < h {
            guard rows[y] > 0 else { y += 1; continue }
            var end = y
            while end < h && rows[end] > 0 { end += 1 }
            // One text line: rows y..<end. Its x-height band is where the density is at least half
            // the line's peak.
            let line = rows[y..<end]
            // A band taller than an eighth of the page is not a text line (a sideways page,
            // a photo): no evidence either way.
            if end - y > h / 8 { return 0 }
            if end - y >= 8, let peak = line.max() {
                lines += 1
                let dense = line.indices.filter { rows[$0] * 2 >= peak }
                if let top = dense.first, let bottom = dense.last {
                    above += rows[y..<top].reduce(0, +)
                    below += rows[(bottom + 1)..<end].reduce(0, +)
                }
            }
            y = end
        }
        let total = above + below
        return total < 500 || lines < 5 ? 0 : Double(above - below) / Double(total)
    }

    /// Turns an image by clockwise quarter turns.
    static func rotate(_ image: LeptImage, clockwise degrees: Int) throws(OCRError) -> LeptImage {
        try LeptImage.make(pixRotateOrth(image.pix, Int32((degrees / 90) % 4)), "rotation")
    }
    /// Upper-quartile height of letter-sized connected components of a binary image (a proxy for
    /// cap height), or nil.
    static func capHeight(_ binaryImage: LeptImage) -> Double? { capHeight(binaryImage.componentBoxes()) }

    /// As ``capHeight(_:)``, from the boxes of a binary image's components.
    static func capHeight(_ components: [BoundingBox]) -> Double? {
        // Letters: taller than specks, not lines or rules, roughly letter-shaped.
        var heights = components
            .filter { $0.height >= 6 && $0.height <= 300 && $0.width >= 2 && $0.width <= $0.height * 3 }.map(\.height)
        guard heights.count >= 20 else { return nil }
        heights.sort()
        // Upper quartile: x-height letters are the majority; capitals and ascenders sit above them.
        return Double(heights[heights.count * 3 / 4])
    }
}

/// The median filters a speckled page is read under (see `Preprocessor.run` and
/// `DocumentOCR.reading`). The 3 × 3 filter run twice takes out specks of two or three pixels as
/// the 5 × 5 one does, but keeps the thin strokes and small labels the 5 × 5 one rubs out with
/// them. On 154 dev photocopies of nine sets, read first under it and again under the 5 × 5 one
/// (instead of first under the 5 × 5 one, or the 3 × 3 one for small text, and again under the
/// 3 × 3 one): fields exact 1344 → 1384 of 1485, wrong and not flagged 10 → 8, CER 0.157 → 0.143;
/// first under it and again under the 3 × 3 one, 1379, 10 and 0.139. Held apart, with the two
/// changes to the page as loaded made beside it (`OCRWorker.poorReading`, `fewWords`): the test
/// split's photocopies 90.3 → 94.5 % exact, CER 0.101 → 0.054; the real receipts unchanged (the
/// filter fires on none of them).
enum MedianFilter: String, Sendable, Hashable, Codable {
    /// The 3 × 3 filter twice: the first reading.
    case threeTwice
    /// The 5 × 5 filter: read again, and kept when it reads more words clearly.
    case five
    /// The 3 × 3 filter once: the second reading, for the fields.
    case three

    /// `image` filtered; nil if Leptonica could not.
    func apply(_ image: LeptImage) -> LeptImage? {
        switch self {
        case .five: return pixMedianFilter(image.pix, 5, 5).map(LeptImage.init)
        case .three: return pixMedianFilter(image.pix, 3, 3).map(LeptImage.init)
        case .threeTwice:
            guard let once = pixMedianFilter(image.pix, 3, 3).map(LeptImage.init) else { return nil }
            return pixMedianFilter(once.pix, 3, 3).map(LeptImage.init)
        }
    }
}
