@preconcurrency import CTesseract
import Foundation

/// What to do with each document.
public struct OCROptions: Sendable {
    public var preprocess = PreprocessOptions()
    /// nil: detect the kind from the text.
    public var kind: DocumentKind?
    public var limits = ImageLimits()
    public var language = "eng"
    /// Also produce Tesseract's hOCR / TSV renderings of each page.
    public var hocr = false
    public var tsv = false
    /// Also produce each page as ALTO (Tesseract's renderer). Like hOCR and TSV it needs OCR, so
    /// PDF pages are then read by OCR even when they have a text layer.
    public var alto = false
    /// The MRZ reader's settings.
    public var mrz = MRZScanOptions()
    /// Resolution PDF pages are rendered at for OCR (and text-layer word boxes are scaled to).
    public var pdfDPI = PDFDocument.defaultDPI
    /// OCR every PDF page, even one with a text layer of its own.
    public var forceOCR = false
    /// Pages to read (1-based) of a PDF or multi-page image; nil: all.
    public var pages: PageRanges?
    /// Searchable PDFs to write: input path → output PDF path. Each page read of that input goes
    /// into the PDF as the image Tesseract read under an invisible text layer from the same
    /// recognition; PDF pages are then read by OCR even when they have a text layer.
    public var searchablePDF: [String: String] = [:]
    /// When set, each page's ``PageResult/timings`` (and the document's ``DocumentResult/timings``)
    /// list how long each step took by this clock, in seconds: ``monotonicSeconds``, or an
    /// injected clock in tests. Nil (the default): nothing is timed.
    public var stepClock: (@Sendable () -> Double)?
    /// The day dates on the page are weighed against: a request or recording date years ahead of
    /// it, or a birth date after it, is a digit misread ("2075-10-03") and goes to review. The
    /// day the page is read, unless a caller (a test, a batch replayed later) gives another.
    public var today = Date()
    /// Whether a fax or a speckled photocopy is read a second time (`DocumentOCR.secondReading`),
    /// and a poor reading's fields are joined by those of the page as loaded
    /// (`OCRWorker.poorForFields`); off only where a test compares the two.
    var secondReading = true

    public init() {}
}

/// A page selection such as `1-3,5,8-` (1-based, inclusive; `8-` runs to the last page).
public struct PageRanges: Sendable, Equatable, CustomStringConvertible {
    public let ranges: [ClosedRange<Int>]
    public let description: String

    /// Nil when `text` is not a comma-separated list of `N`, `N-M` (N ≤ M) or `N-`, pages from 1.
    public init?(_ text: String) {
        var ranges: [ClosedRange<Int>] = []
        for part in text.split(separator: ",", omittingEmptySubsequences: false) {
            let ends = part.trimmingCharacters(in: .whitespaces).split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
            guard let low = Int(ends[0]), low >= 1 else { return nil }
            if ends.count == 1 { ranges.append(low...low); continue }
            if ends[1].isEmpty { ranges.append(low...Int.max); continue }
            guard let high = Int(ends[1]), high >= low else { return nil }
            ranges.append(low...high)
        }
        self.ranges = ranges
        description = text
    }

    public func contains(_ page: Int) -> Bool { ranges.contains { $0.contains(page) } }

    /// The selected pages of a document of `count`, in order; an error naming the file when none is.
    func select(from count: Int, path: String) throws(OCRError) -> [Int] {
        let pages = (1...max(1, count)).filter(contains)
        guard !pages.isEmpty else {
            throw OCRError(.emptyImage, path: path, "no page in \(description): the document has \(count) page\(count == 1 ? "" : "s")")
        }
        return pages
    }
}

/// Where a page's text came from.
public enum PageSource: String, Sendable, Codable {
    /// Recognised by Tesseract from the image (every image page; PDF pages rendered first).
    case ocr
    /// Read from a PDF page's own text layer.
    case textLayer = "text_layer"
}

/// The result for one page.
public struct PageResult: Sendable, Equatable {
    public var page: Int
    public var source: PageSource = .ocr
    public var kind: DocumentKind
    public var text: String
    public var meanConfidence: Double
    /// Words read, their boxes in the pixels of the image as given (a PDF page: as rendered at
    /// ``OCROptions/pdfDPI``), whatever preprocessing turned, scaled, levelled or flattened.
    public var words: [Word]
    /// Size of the image as given: the frame of every box on the page.
    public var width: Int
    public var height: Int
    public var preprocessing: PreprocessReport
    /// Extracted fields by name (absent when not found).
    public var fields: [String: Field]
    /// Every label → value pair found on the page, whatever its kind.
    public var pairs: [FieldPair] = []
    public var mrz: MRZ?
    /// For IDs with an MRZ: whether each visual-zone field agrees with the MRZ.
    public var visualZoneAgreement: [String: Bool]?
    /// Tesseract's hOCR, TSV and ALTO: in the pixels of the image read (after preprocessing),
    /// the frame they describe and the searchable PDF shows.
    public var hocr: String?
    public var tsv: String?
    public var alto: String?
    /// The page's steps in the order they ran, when ``OCROptions/stepClock`` is set.
    public var timings: [StepTime] = []
}

public struct DocumentResult: Sendable, Equatable {
    public var path: String
    public var pages: [PageResult]
    /// Steps of the whole document (`load`: decoding an image file's pages), when
    /// ``OCROptions/stepClock`` is set.
    public var timings: [StepTime] = []
}

/// One worker: a Tesseract handle for text and one for orientation detection, created once and
/// reused for every page it processes. Not thread-safe; ``OCREngine`` gives each thread its own.
public final class OCRWorker {
    let text: TesseractHandle
    private let orientation: Bool
    /// Created on first use: most pages never need OSD, and loading its data costs ~0.1 s.
    private lazy var osd: TesseractHandle? = orientation ? try? TesseractHandle(language: "osd") : nil
    /// The Latin-script model for names with diacritics (`withDiacritics`), made on first use.
    lazy var latin: TesseractHandle? = Self.latinHandle(datapath: text.datapath)
    /// English and the Cyrillic script together, for a name's words in Cyrillic (`CyrillicNames`),
    /// made on first use; nil when the Cyrillic model is not installed.
    lazy var cyrillic: TesseractHandle? = Self.cyrillicHandle(datapath: text.datapath)

    public init(language: String = "eng", orientation: Bool = true) throws(OCRError) {
        _ = ImageLoader.quiet
        text = try TesseractHandle(language: language)
        self.orientation = orientation
    }

    public func process(path: String, options: OCROptions = .init()) throws(OCRError) -> DocumentResult {
        let output = options.searchablePDF[path]
        if PDFDocument.looksLikePDF(path: path) {
            // One page rendered at a time: a long PDF never holds more than one page image.
            let pdf = try PDFDocument(path: path, limits: options.limits)
            let selected = try options.pages?.select(from: pdf.pageCount, path: path) ?? Array(1...pdf.pageCount)
            let searchable = try output.map { out throws(OCRError) in try SearchablePDF(path: out, datapath: text.datapath, title: path) }
            var results: [PageResult] = []
            for i in selected.map({ $0 - 1 }) {
                if !(options.forceOCR || options.hocr || options.tsv || options.alto || searchable != nil), try pdf.hasTextLayer(page: i) {
                    results.append(try textLayerPage(pdf, index: i, options: options))
                    continue
                }
                let clock = StepRecorder(clock: options.stepClock)
                let image = try pdf.render(page: i, dpi: options.pdfDPI, limits: options.limits)
                clock?.mark("render")
                results.append(try process(image: image, index: i + 1, options: options, pdf: searchable, clock: clock))
            }
            try searchable?.finish()
            return DocumentResult(path: path, pages: results)
        }
        let loading = StepRecorder(clock: options.stepClock)
        let pages = try ImageLoader.load(path: path, limits: options.limits, pages: options.pages)
        loading?.mark("load")
        // Made after the image loaded: an unreadable input leaves no empty PDF behind.
        let searchable = try output.map { out throws(OCRError) in try SearchablePDF(path: out, datapath: text.datapath, title: path) }
        var results: [PageResult] = []
        for (number, page) in pages {
            results.append(try process(image: page, index: number, options: options, pdf: searchable,
                                       clock: StepRecorder(clock: options.stepClock)))
        }
        try searchable?.finish()
        return DocumentResult(path: path, pages: results, timings: loading?.steps ?? [])
    }

    /// A PDF page from its own text layer: no rendering, no OCR. Word boxes are in pixels at
    /// `pdfDPI`, as if the page had been rendered; an MRZ in the text is parsed but, without
    /// glyph evidence from an image, never `valid`.
    func textLayerPage(_ pdf: PDFDocument, index: Int, options o: OCROptions) throws(OCRError) -> PageResult {
        let size = try pdf.pixelSize(page: index, dpi: o.pdfDPI, limits: o.limits)
        let words = pdf.words(page: index, dpi: o.pdfDPI)
        var report = PreprocessReport()
        report.resolution = Int(o.pdfDPI.rounded())
        let page = PageText(text: try pdf.text(page: index), meanConfidence: 100, words: words,
                            width: size.width, height: size.height,
                            hocr: nil, tsv: nil, alto: nil)
        return finish(page, source: .textLayer, index: index + 1, report: report, scanned: nil, options: o)
    }

    public func process(image: LeptImage, index: Int = 1, options o: OCROptions = .init()) throws(OCRError) -> PageResult {
        try process(image: image, index: index, options: o, pdf: nil, clock: StepRecorder(clock: o.stepClock))
    }

    /// As ``process(image:index:options:)``; with `pdf`, the page also goes into that searchable
    /// PDF from the reading that is kept.
    func process(image: LeptImage, index: Int, options o: OCROptions, pdf: SearchablePDF?, clock: StepRecorder?) throws(OCRError) -> PageResult {
        let (first, zone, asLoaded) = try reading(image, index: index, options: o, pdf: pdf, clock: clock)
        let second = try secondReading(of: first, zone: zone, image: image, index: index, options: o, clock: clock)
        var combined = first
        // A page read again thresholded near its paper gains what the first reading missed, but
        // never loses what it read to it: that reading breaks thin strokes of dark print
        // ("CI4E28416" for a passport number read right the first time). Nor has it a vote: it
        // and the page as loaded share such misreadings, and two of them outvoted the first.
        let lightInk = second?.preprocessing.steps.contains("light-ink") == true
        if let second { combined = lightInk ? TwoReadings.filled(combined, from: second) : TwoReadings.combined(combined, second) }
        let voters = [first] + (lightInk ? [] : [second].compactMap { $0 })
        if let asLoaded { combined = TwoReadings.filled(combined, from: asLoaded, readings: voters) }
        // The requester's addresses checked against the name as finally read (diacritics included).
        if combined.kind == .optout { FieldExtractor.namesAgreed(&combined.fields) }
        FieldExtractor.lackedLettersFlagged(&combined.fields)
        FieldExtractor.datesWeighed(&combined.fields, today: o.today)
        // (A valid zone's values are vouched for by its check digits, whatever their confidence.)
        FieldExtractor.unsureUnderReviewConfidence(&combined.fields, except: combined.mrz?.valid == true ? Set(Self.identityFields) : [])
        if second != nil || asLoaded != nil { combined.timings = clock?.steps ?? [] }
        return combined
    }

    /// A page whose preprocessing had a choice to make read once more the other way, and the
    /// fields of the two readings combined (`TwoReadings`): they go wrong in different places (a
    /// stroke one threshold broke, a date one layout dropped). Nil for other pages, and for a
    /// page whose MRZ settled its fields.
    /// - A fax (a bilevel page, smoothed): read again scaled 2× before a Gaussian as much wider.
    ///   On 54 dev faxes of seeds 18–21 the fields exact went from 78.3 to 82.2 % (wrong and not
    ///   flagged 1.4 → 1.0 %), on 52 of seeds 22–25 from 76.2 to 77.8 % (2.0 → 1.2 %).
    /// - A photocopy (kept under the 3 × 3 median twice or the 5 × 5 one, whichever read more words
    ///   well): read under the 3 × 3 one once. (When the first choice was the 5 × 5 median or the
    ///   3 × 3 one: on 53 dev photocopies of seeds 18–21, 80.2 → 81.8 % (2.0 → 1.8 %); on 66 of
    ///   seeds 22–26, 85.4 → 87.0 % (1.3 → 1.0 %).)
    /// - Any other page of a known kind read under ``poorForFields``: read thresholded near its
    ///   paper (`Preprocessor.lightInkThresholded`), for values printed light grey; its fields
    ///   only fill the first's gaps (see `process`). On six dev corpora (668 pages, seed 30 new),
    ///   fields exact 6285 → 6320 of 6940, wrong and not flagged 42 → 32; a quarter of the way
    ///   from paper to ink did as well as a sixth or a third.
    private func secondReading(of first: PageResult, zone: MRZ?, image: LeptImage, index: Int, options o: OCROptions,
                               clock: StepRecorder?) throws(OCRError) -> PageResult? {
        // (Not a page the first reading turned by its own retries: the second does not retry.)
        guard o.secondReading, first.source == .ocr, zone?.valid != true,
              first.preprocessing.rotation == (o.preprocess.orientation ? zone?.rotation ?? 0 : 0) else { return nil }
        var other = o
        if first.preprocessing.steps.contains("smooth"), o.preprocess.bilevelScale == 1 {
            other.preprocess.bilevelScale = 2
            other.preprocess.thicken = first.preprocessing.steps.contains("thicken")
        } else if let median = first.preprocessing.median, median != .three {
            other.preprocess.median = .three
        } else if first.kind != .unknown, first.meanConfidence < Self.poorForFields {
            other.preprocess.lightInk = true
        } else {
            return nil
        }
        return try reading(image, index: index, options: other, pdf: nil, clock: clock, searched: .some(zone), again: true).page
    }

    /// A fax read under this mean word confidence is read again thickened (see `reading`), and
    /// the thickened reading kept with clearly more words read well (1.15× and 3 more: kept with
    /// any more, on three of the seeds below, 2 fields more and 1 more wrong, CER within 0.004, for
    /// more pages changed). On 102 dev faxes of four seeds (38 not tuned on), with the pale dithers of
    /// `Preprocessor.lightDithers` painted out: fields exact 744 → 746 of 960, wrong and not
    /// flagged 8 → 7, CER 0.158 → 0.151 (light faces: a boxed form 0.517 → 0.283). The test split
    /// and the real receipts are unchanged.
    static let thinFaces = 80.0

    /// A first reading under this mean word confidence is set against a reading of the image as
    /// loaded: kept instead of it when clearly better, else its fields fill the first's gaps
    /// (`TwoReadings.filled`). On the 492 pages of seven dev corpora: under
    /// 80, fields exact 4059 → 4095 of 4563, wrong 23 → 23; under 85, 4103 and 21 (held-out seeds
    /// and the test split a few more too), for about a third more pages read twice (test pages:
    /// total time 1.04× the engine without it); under 90, with the mends of rules beside values
    /// made in the same step, 4115 and 19 (the test split unchanged).
    static let poorForFields = 90.0
    /// A first reading under this is set against the one as loaded on a page of none of our kinds
    /// too. Either way the one as loaded is kept when it has clearly more words read well (1.5×
    /// and 3 more): once only under this, now under ``poorForFields`` too, where a grey card's
    /// small labels rubbed out by the flattening and the median read whole as loaded (on 7 dev
    /// corpora, 782 pages: fields exact 7166 → 7167 of 7822, wrong 29 → 29; CER on the photocopies
    /// of ID seeds 38–39 0.367 → 0.324, of dev seed 30 0.152 → 0.131; held apart, with
    /// `MedianFilter` and ``fewWords``, the test split 763 → 769 of 870, wrong 7 → 7).
    static let poorReading = 70.0
    /// A reading with fewer words read clearly than this is set against the one as loaded too,
    /// whatever its confidence.
    static let fewWords = 8

    /// One reading of a page: preprocessed, recognised (again where the first try reads poorly),
    /// its kind and fields found; and the MRZ found on the image, if any. `searched`: the MRZ an
    /// earlier reading of the same page found (or `.some(nil)`: none); the page is then not
    /// searched again. `again`: a second reading, which leaves the way up and the page as loaded
    /// to the first (no orientation retry, no unprocessed reading). `asLoaded`: the page's fields
    /// as read from the image as loaded, when the reading kept is a poor one of the page
    /// preprocessed, of a known kind (see ``poorForFields``).
    private func reading(_ image: LeptImage, index: Int, options o: OCROptions, pdf: SearchablePDF?, clock: StepRecorder?,
                         searched: MRZ?? = nil, again second: Bool = false) throws(OCRError) -> (page: PageResult, zone: MRZ?, asLoaded: PageResult?) {
        let mode: PageSegmentation = o.kind == .id ? .sparse : .auto
        // With a PDF to write, the handle keeps its results until the page is added (or dropped).
        let keep = pdf != nil
        defer { if keep { text.clear() } }
        // Every full reading of this page (first, turned, levelled, as loaded) asks for the same outputs.
        func read(_ image: LeptImage, resolution: Int, invert: Bool = false) throws(OCRError) -> PageText {
            try text.recognize(image, resolution: resolution, mode: mode, hocr: o.hocr, tsv: o.tsv, alto: o.alto,
                               pageNumber: index - 1, keep: keep, invert: invert)
        }
        // The MRZ is searched for on the image as given, whatever the page turns out to be: its
        // lines say which way up the document is, and a page that has one is an identity
        // document. A page said to be an ID, or one going into a PDF (the search reads with the
        // Tesseract handle, which must then hold the page's reading), is searched before it is
        // read; any other after its first reading, unless that reading rules a zone out
        // (``mayHoldZone(_:)``): the search cost a page without a zone a fifth to a quarter of
        // its time.
        var scanned: MRZ? = searched ?? nil
        let searchFirst = keep || o.kind == .id
        func search() {
            scanned = MRZScanner.scan(image, tesseract: text, options: o.mrz, clock: clock)
            clock?.mark("mrz.decode")
        }
        if searchFirst, searched == nil { search() }
        var input = image, turn = 0
        // The page turned the way its zone says (if one was found), then preprocessed.
        func prepare(_ options: PreprocessOptions? = nil) throws(OCRError) -> (LeptImage, PreprocessReport) {
            turn = o.preprocess.orientation ? scanned?.rotation ?? 0 : 0
            input = turn != 0 ? try Preprocessor.rotate(image, clockwise: turn) : image
            var (prepared, report) = try Preprocessor.run(input, options: options ?? o.preprocess)
            if turn != 0 {
                report.rotation = turn
                report.steps.insert("orientation", at: 0)
                report.turnedFirst(turn, given: image, turned: input)
            }
            clock?.mark("preprocess")
            return (prepared, report)
        }
        var (prepared, report) = try prepare()
        var page = try read(prepared, resolution: report.resolution)
        clock?.mark("recognize")
        if !searchFirst, searched == nil, Self.mayHoldZone(page) {
            search()
            // A zone read upside down or on its side: the page is read again the right way up.
            if o.preprocess.orientation, let rotation = scanned?.rotation, rotation != 0 {
                (prepared, report) = try prepare()
                page = try read(prepared, resolution: report.resolution)
                clock?.mark("recognize")
            }
        }
        // Whether the handle still holds the reading that is kept (a later try replaces it).
        var handleHoldsKept = true
        // A speckled page is read under the 3 × 3 median twice and under the 5 × 5 one, and the
        // reading with more words read well is kept: the 5 × 5 one may rub out a light face's thin
        // strokes with the speckle (a page of 2-pixel strokes copied at 200 DPI read as its title
        // alone), but leaves larger print cleaner (figures at `MedianFilter`; when the pair was the
        // 5 × 5 and the 3 × 3 filter, on 95 dev photocopies of seven seeds, fields exact 75 → 79 %
        // against the 5 × 5 alone; with "clearly more", 10 % and 3 words, 77 %).
        // The page prepared with `change` made to the options and read again (when `usable` takes
        // its preparation); that reading is kept when `better` says so (given it and the one kept
        // so far). Whether it was kept.
        @discardableResult
        func retry(_ step: String, _ change: (inout PreprocessOptions) -> Void, readIf usable: (PreprocessReport) -> Bool = { _ in true },
                   keptWhen better: (PageText, PageText) -> Bool) throws(OCRError) -> Bool {
            defer { clock?.mark(step) }
            var options = o.preprocess
            change(&options)
            let (other, otherReport) = try prepare(options)
            guard usable(otherReport) else { return false }
            let again = try read(other, resolution: otherReport.resolution)
            handleHoldsKept = false
            if better(again, page) {
                handleHoldsKept = true
                (prepared, report, page) = (other, otherReport, again)
                return true
            }
            return false
        }
        if report.median == .threeTwice {
            try retry("median.retry", { $0.median = .five }, keptWhen: { Self.clearWords($0) > Self.clearWords($1) })
        }
        // A speckled page that was also flattened: on a grey photocopy of a card the flattening
        // lifts the speckle's field, and Tesseract's threshold then drops the small grey labels
        // (a passport page read as its values alone). Read again unflattened (under the median
        // kept), the reading with clearly more words read at all is kept: the labels come back
        // read at confidence 30–60, so words read well alone barely move (fresh photocopies of
        // seeds 50–51: fields exact 434 → 440 of 480, CER 0.107 → 0.087; benchmarks/README.md).
        // Only where the page unflattened is still median filtered: unfiltered, its speckle reads
        // as words too, and a held-out passport page was kept so at twice the error.
        if report.steps.contains("background"), let median = report.median, !second {
            let wider = { (a: PageText, b: PageText) in Self.wordsRead(a) > Self.wordsRead(b) * 11 / 10 + 2 }
            // Failing that (on grey paper the specks may fall under the speckle measure's
            // threshold), under the 3 × 3 median twice, run whatever the measure says: the 5 × 5
            // one the flattened page may have kept rubs out the small labels this reading is for
            // (a card's "Surname" and "Sex" under it). A median forced so must also leave the
            // reading as sure: on a passport page it read more speckle as words, at 33 against 40.
            if try !retry("flatten.retry", { $0.normalizeBackground = false; $0.median = median }, readIf: { $0.median != nil }, keptWhen: wider) {
                try retry("flatten.forced", { $0.normalizeBackground = false; $0.median = .threeTwice; $0.forceMedian = true },
                          keptWhen: { wider($0, $1) && $0.meanConfidence >= $1.meanConfidence })
            }
        }
        // A fax of a light face read poorly is read again with its ink thickened by a pixel
        // (`Preprocessor.thickened`), and the reading with clearly more words read well is kept.
        if report.steps.contains("smooth"), !report.steps.contains("thicken"), page.meanConfidence < Self.thinFaces,
           scanned?.valid != true, !second {
            try retry("thicken.retry", { $0.thicken = true }, keptWhen: { Self.clearWords($0) > Self.clearWords($1) * 23 / 20 + 3 })
        }
        // Orientation only when the reading is poor: an upright page reads with high confidence and
        // never pays for OSD. Otherwise ask OSD (trusted only when confident: it misjudges small
        // cards with little text), then also try the page turned by 180°, and keep the clearly
        // better reading.
        if o.preprocess.orientation && page.meanConfidence < 70 && scanned == nil && !second {
            var candidates: [Int] = []
            // OSD only for page-sized images: on cards (≈ 1–2 MP at 300 DPI) it scored under 3
            // either way, below the trust threshold, so asking it there only costs time.
            if prepared.width * prepared.height >= 3_000_000, let osd,
               let (degrees, confidence) = osd.orientation(of: prepared, resolution: report.resolution) {
                report.orientationConfidence = confidence
                // Tesseract reports how far the text is turned counter-clockwise from upright (a
                // page fed in turned 90° clockwise reads 90); the rest of the circle undoes it.
                if degrees != 0 && confidence >= o.preprocess.orientationConfidence { candidates.append((360 - degrees) % 360) }
            }
            if !candidates.contains(180) { candidates.append(180) }
            // Every candidate turns the page as first read; the best reading wins.
            let (base, baseReport) = (prepared, report)
            for clockwise in candidates {
                var turned = try Preprocessor.rotate(base, clockwise: clockwise)
                var turnedReport = baseReport
                turnedReport.moved(.turn(clockwise: clockwise, width: Double(base.width), height: Double(base.height)), from: base)
                if clockwise % 180 != 0 && o.preprocess.deskew { turned = try Preprocessor.deskew(turned, report: &turnedReport) }
                let again = try read(turned, resolution: report.resolution)
                handleHoldsKept = false
                if again.meanConfidence > page.meanConfidence + 10 && again.words.count * 2 >= page.words.count {
                    handleHoldsKept = true
                    (prepared, page, report) = (turned, again, turnedReport)
                    report.rotation = (baseReport.rotation + clockwise) % 360
                    if !report.steps.contains("orientation") { report.steps.append("orientation") }
                }
            }
            clock?.mark("orientation")
        }
        // A page photographed askew on a textured desk: Leptonica's skew search over the whole
        // image (the desk's texture too) is unsure, the page is left slanted, and past a few
        // degrees Tesseract loses whole lines. The slant of the lines it did read (or, with too
        // few of them, Leptonica's unsure angle) is undone and the page read again; the reading
        // with clearly more words read well is kept, or with more characters read well and a mean
        // confidence as high: a card's few lines gain letters inside words more than whole words
        // ("Bae" → "Surname", "UNES" → "GUNES"). A wrong slant (two columns read as one line) adds
        // characters too, of garbage, and lowers the mean.
        // (Not on an identity page whose MRZ is valid: its fields are the zone's.)
        let settled = scanned?.valid == true
        if o.preprocess.deskew, !settled, !report.steps.contains("deskew") {
            let lines = LevelledLines.slant(of: TextLine.group(page.words)).map { -$0 * 180 / .pi }
            if let degrees = lines ?? report.skewAngle.map(Double.init), abs(degrees) >= 3, abs(degrees) <= 15,
               let turned = Preprocessor.rotatedOnItsPaper(prepared, radians: Float(degrees * .pi / 180)) {
                let level = LeptImage(turned)
                let again = try read(level, resolution: report.resolution)
                handleHoldsKept = false
                if Self.clearWords(again) > Self.clearWords(page) * 23 / 20 + 3
                    || (Self.clearCharacters(again) > Self.clearCharacters(page) * 21 / 20 + 3 && again.meanConfidence >= page.meanConfidence - 2) {
                    handleHoldsKept = true
                    report.moved(.rotate(radians: degrees * .pi / 180, width: Double(prepared.width), height: Double(prepared.height)), from: prepared)
                    (prepared, page) = (level, again)
                    report.skewAngle = Float(degrees)
                    report.steps.append("deskew")
                }
                clock?.mark("deskew.retry")
            }
        }
        // Never worse than the page as given: a reading still poor after the above is set against
        // one of the image as loaded, and the one with clearly more words read clearly is kept.
        // (Flattening can grey a card photographed on a textured cloth until Tesseract's global
        // threshold finds no text on it at all, where the photo as taken reads well.) So is a
        // reading of a few words only, however sure (a photocopied passport page read as its
        // title alone at 96). Kept or not, a reading under `poorForFields` gives its fields: a
        // small grey card's labels a median or a flattening thinned out can read whole as loaded.
        var asLoaded: (page: PageText, report: PreprocessReport, image: LeptImage)?
        // Whether the reading kept is the page as loaded read at Tesseract's own estimate.
        var readAtEstimate = false
        // (Between the two thresholds only for the fields, so not on a page of none of our kinds,
        // nor when no second reading is wanted.)
        let forFields = o.secondReading && page.meanConfidence < Self.poorForFields
            && (o.kind ?? (scanned != nil ? .id : FieldExtractor.detectKind(page.text))) != .unknown
        if page.meanConfidence < Self.poorReading || forFields || Self.clearWords(page) < Self.fewWords,
           !settled, !second, o.preprocess != .none, !(report.steps.isEmpty && report.rotation == 0) {
            let (plain, plainReport) = try Preprocessor.run(input, options: .none)
            // (Lines read poorly are read inverted too here, on a poor page only: a title printed
            // light on a dark band.)
            // Read as raw `tesseract` reads it: a page stating no resolution at Tesseract's own
            // estimate from its letters, not as 300 DPI, at which a speckled passport page's
            // column of values beside its photo was dropped (`DIMITRIOS … 28 AUG 1965 … M` at its
            // estimate, its last two lines alone at 300). On nine dev sets (684 pages), fields
            // exact +7, wrong unchanged, CER equal or lower (benchmarks/README.md, session 56).
            let estimated = !Preprocessor.statesResolution(input)
            let again = try read(plain, resolution: estimated ? 0 : plainReport.resolution, invert: true)
            handleHoldsKept = false
            // (Its fields only if the page kept is the right way up as this one is.)
            if o.secondReading, report.rotation == turn {
                var loadedReport = plainReport
                if turn != 0 { loadedReport.turnedFirst(turn, given: image, turned: input) }
                asLoaded = (again, loadedReport, plain)
            }
            // Kept instead when it reads clearly more words (a small card's grey labels that the
            // flattening and the median rubbed out, read whole as loaded); the preprocessed reading
            // then fills its gaps as the page as loaded would have.
            if Self.clearWords(again) > Self.clearWords(page) * 3 / 2 + 3 {
                asLoaded = o.secondReading && report.rotation == turn ? (page, report, prepared) : nil
                handleHoldsKept = true
                (prepared, page, report) = (plain, again, plainReport)
                readAtEstimate = estimated
                report.steps = (turn != 0 ? ["orientation"] : []) + ["unprocessed"]
                report.rotation = turn
                if turn != 0 { report.turnedFirst(turn, given: image, turned: input) }
            }
            clock?.mark("unprocessed")
        }
        if let pdf {
            if !handleHoldsKept {
                // Only a poor page whose later readings (turned, levelled, as loaded) were not
                // kept: the kept one is read once more for its layout (the reading, and so the
                // JSON, are the same as before).
                _ = try text.recognize(prepared, resolution: report.resolution, mode: mode, pageNumber: index - 1, keep: true)
            }
            // The page as given when preprocessing left its geometry alone (same size, not turned,
            // not deskewed): the PDF then shows the original, colour and all.
            let untouched = prepared.width == image.width && prepared.height == image.height && report.rotation == 0
                && !report.steps.contains("deskew") && !report.steps.contains("orientation")
            try text.addLastPage(to: pdf, shown: untouched ? image : nil)
            clock?.mark("pdf")
        }
        // Words read as a smudge or very poorly, read again on their own (`TallWords`,
        // `PoorWords`). (After the PDF took the page: its text layer is Tesseract's reading.)
        if !settled, case let smudges = TallWords.smudges(page), !smudges.isEmpty || !PoorWords.words(page).isEmpty {
            page = try tallWordsReread(page, smudges: smudges, image: prepared, resolution: report.resolution)
            page = try poorWordsReread(page, image: prepared, resolution: report.resolution)
            clock?.mark("reread")
        }
        var result = finish(page, source: .ocr, index: index, report: report, scanned: scanned, image: prepared, options: o)
        if readAtEstimate { result.preprocessing.resolution = 0 }
        // A poor reading of none of our kinds whose page as loaded reads as one of them is of that
        // kind (a card's title printed white on a dark band, which the smoothed fax lost and the
        // page as loaded reads: "IDENTITY CARD"); the page as loaded then fills its gaps (below).
        if o.kind == nil, result.kind == .unknown, let asLoaded, case let kind = FieldExtractor.detectKind(asLoaded.page.text), kind != .unknown {
            var known = o
            known.kind = kind
            result = finish(page, source: .ocr, index: index, report: report, scanned: scanned, image: prepared, options: known)
        }
        // Strictly shaped values whose words failed their validator, read again on their own.
        if !settled, result.kind != .unknown,
           let reread = try rejectedValuesReread(page, kind: result.kind, fields: result.fields, image: prepared, resolution: report.resolution,
                                                 options: o, report: report, index: index) {
            for (name, field) in reread { result.fields[name] = field }
            clock?.mark("rejected")
        }
        // An identity page found by its words was read as a page of text (automatic layout),
        // which can take a column of small labels and values beside the photo for a picture and
        // drop it. Read sparsely (every text fragment on its own), as an ID is read when the kind
        // is given, the dropped values come back; they fill only the fields still missing.
        if o.kind == nil, result.kind == .id, mode == .auto, !settled,
           !Self.identityFields.allSatisfy({ result.fields[$0] != nil }) {
            let sparse = try text.recognize(prepared, resolution: report.resolution, mode: .sparse, pageNumber: index - 1)
            var asID = o
            asID.kind = .id
            let again = finish(sparse, source: .ocr, index: index, report: report, scanned: scanned, options: asID)
            for name in Self.identityFields where result.fields[name] == nil {
                if let f = again.fields[name] { result.fields[name] = f }
            }
            clock?.mark("sparse")
        }
        if result.kind == .id, !settled {
            let missing = Set(Self.identityFields.filter { $0 != "sex" && result.fields[$0] == nil })
            if !missing.isEmpty {
                for (name, field) in try valuesInEmptyRegions(page, missing: missing, image: prepared, resolution: report.resolution) {
                    result.fields[name] = field
                }
                clock?.mark("regions")
            }
        }
        // A number or a name with a glyph read twice ("G6" for a G) or lost, read again glyph by glyph.
        if result.kind == .id, !settled {
            var mended = false
            if let number = result.fields["document_number"],
               let read = try glyphCountRead(number, image: prepared, resolution: report.resolution) {
                result.fields["document_number"] = read
                mended = true
            }
            for name in GlyphCount.nameFields {
                guard let field = result.fields[name],
                      let read = try glyphCountRead(field, alphabet: GlyphCount.nameAlphabet, least: 4, number: false, image: prepared,
                                                    resolution: report.resolution, valid: FieldExtractor.upperName) else { continue }
                result.fields[name] = read
                mended = true
            }
            if mended { clock?.mark("glyph") }
        }
        if result.kind == .id, !settled, let number = result.fields["document_number"],
           let mended = try leadingGlyphRead(number, image: prepared, resolution: report.resolution) {
            result.fields["document_number"] = mended
        }
        // A name of one letter read as two or as a digit, read again as one character.
        if result.kind == .id, !settled {
            let lone = try loneGlyphNames(page, fields: result.fields, image: prepared, resolution: report.resolution)
            for (name, field) in lone { result.fields[name] = field }
            if !lone.isEmpty { clock?.mark("glyph") }
        }
        if result.kind == .id, result.fields["sex"] == nil, let sex = try singleLetterSex(page.words, image: prepared, resolution: report.resolution) {
            result.fields["sex"] = sex
        }
        // A name English could not read as one for a capital it lacks ("tukaszewicz" for
        // Łukaszewicz), read with the Latin model.
        if !settled, result.kind != .unknown {
            let names = try rejectedNamesWithDiacritics(page, kind: result.kind, fields: result.fields, image: prepared, resolution: report.resolution)
            for (name, field) in names { result.fields[name] = field }
        }
        // (Not the names of a valid MRZ: the zone spells them without diacritics, by the rules.)
        if !settled, o.kind != nil || result.kind != .unknown, result.fields.keys.contains(where: NameDiacritics.fields.contains) {
            result.fields = try withDiacritics(result.fields, words: page.words, image: prepared, resolution: report.resolution)
            clock?.mark("diacritics")
        }
        clock?.mark("fields")
        result.timings = clock?.steps ?? []
        // Boxes were found on the image read; the caller knows the image it gave.
        var loadedResult: PageResult?
        if let asLoaded, result.kind != .unknown {
            // Read as the page's kind: two readings of different kinds are not combined.
            var same = o
            same.kind = result.kind
            loadedResult = finish(asLoaded.page, source: .ocr, index: index, report: asLoaded.report, scanned: scanned,
                                  image: asLoaded.image, options: same)
                .mapped(to: asLoaded.report.geometry, width: image.width, height: image.height)
        }
        return (result.mapped(to: report.geometry, width: image.width, height: image.height), scanned, loadedResult)
    }

    /// Whether a page's first reading leaves room for a machine-readable zone. Only a page read
    /// well (mean word confidence 80 or more) as a deed or an opt-out form is not searched, and
    /// only when nothing in its text looks like a zone: no `<` (Tesseract reads the fillers of a
    /// zone on a page read that well as `<`, or as runs of capitals: `KKK`, `CCC`) and no line of
    /// 25 capitals and digits or more with at most two spaces. On three dev seeds of the document
    /// corpus (267 pages) 147 of 156 deeds and forms were not searched; on the MRZ benchmark's pages
    /// (generated and real) not one zone was lost (benchmarks/README.md, issue 19).
    static func mayHoldZone(_ page: PageText) -> Bool {
        guard page.meanConfidence >= 80 else { return true }
        let kind = FieldExtractor.detectKind(page.text)
        guard kind == .deed || kind == .optout else { return true }
        if page.text.contains(where: { "<«‹".contains($0) }) { return true }
        return page.text.split(separator: "\n").contains { line in
            let letters = line.filter { !$0.isWhitespace }
            return letters.count >= 25 && line.count - letters.count <= 2
                && letters.allSatisfy { ($0.isUppercase && $0.isASCII) || $0.isNumber }
        }
    }

    /// A word read clearly: two letters or digits or more, at confidence 60 or over.
    static func isClear(_ w: Word) -> Bool {
        w.confidence >= 60 && w.text.filter { $0.isLetter || $0.isNumber }.count >= 2
    }

    /// Characters in the words ``clearWords(_:)`` counts.
    static func clearCharacters(_ page: PageText) -> Int {
        page.words.reduce(0) { isClear($1) ? $0 + $1.text.count : $0 }
    }

    /// Words of a reading read clearly (``isClear(_:)``).
    static func clearWords(_ page: PageText) -> Int {
        page.words.filter(isClear).count
    }

    /// Words of two letters or digits or more read at confidence 30 or more: text read at all,
    /// faint print included.
    static func wordsRead(_ page: PageText) -> Int {
        page.words.filter { $0.confidence >= 30 && $0.text.filter { $0.isLetter || $0.isNumber }.count >= 2 }.count
    }

    /// The field extractor's labels for `sex` ("sex", "gender"), as one word's letters.
    static let sexLabels = Set(Vocabulary.id.first { $0.field == "sex" }?.keys.map { $0.uppercased().filter(\.isLetter) } ?? [])

    /// An identity document's sex is one letter under or beside its label, and Tesseract's page
    /// layout often drops a lone letter as noise (dev split: 16 of 30 cards and passport pages
    /// lost it, on clean scans too). Where the label was read and no value, the letter-sized
    /// regions below and to the right of it are read once more as a single character; only `M`,
    /// `F` or `X` is taken, anything else (another label, a stamp, nothing) is not. Failing that,
    /// the label and the space under it are read as one block, which gives Tesseract a line to
    /// size a lone letter by.
    /// A reading under confidence 85, or of a letter first read as another, is marked for review.
    func singleLetterSex(_ words: [Word], image: LeptImage, resolution: Int) throws(OCRError) -> Field? {
        func key(_ w: Word) -> String { w.text.uppercased().filter(\.isLetter) }
        guard let label = words.first(where: { Self.sexLabels.contains(key($0)) }) else { return nil }
        let h = max(8, label.box.height)
        // The label may run on ("Sex / Sexe", "Sex:"): the value starts after its last piece.
        var end = label.box
        for w in words where w.block == label.block && w.line == label.line && w.box.x >= end.x + end.width
            && w.box.x - (end.x + end.width) <= 2 * h && ["SEXE", "SEXO", "GENRE", ""].contains(key(w)) {
            end = end.union(w.box)
        }
        let below = BoundingBox(x: label.box.x - h / 2, y: label.box.y + label.box.height + h / 5, width: 4 * h, height: 2 * h + h / 2)
        let beside = BoundingBox(x: end.x + end.width + h / 3, y: label.box.y - h / 2, width: 5 * h, height: 2 * h)
        func within(_ box: BoundingBox) -> BoundingBox { LabelledPage.within(box, width: image.width, height: image.height) }
        for region in [below, beside] {
            // The next label of a tight stack reaching into the region from below ends it above
            // that label (a passport page's "F" a line's gap over "Passport No.").
            let whole = within(region)
            let r = region == below
                ? LabelledPage.endedAbove(whole, words: words.filter { $0 != label && !key($0).isEmpty }, from: whole.y + h, height: h) : whole
            guard r.width >= h, r.height >= h else { continue }
            // A region holding a word already read (the next label, another column's value) is not
            // this one — unless that word is one or two letters that are no sex ("E", "Fr", "EF": F
            // misread on a copy), which is read again as one of M, F, X, for review.
            let inside = words.filter { $0 != label && $0.box.intersects(r) && !key($0).isEmpty }
            let misread = inside.count == 1 && key(inside[0]).count <= 2 && inside[0].text.count <= 3
                && FieldExtractor.sex(inside[0].text) == nil
            if !inside.isEmpty && !misread { continue }
            var area = r
            if misread, let b = inside.first?.box {
                let pad = h / 4
                area = within(b.padded(pad))
            }
            let read = try text.recognize(image, resolution: resolution, mode: .singleCharacter, rectangle: area,
                                          whitelist: misread ? "MFX" : nil)
            guard read.words.count == 1, let word = read.words.first, word.confidence >= 60,
                  let value = FieldExtractor.sex(word.text) else { continue }
            return Field(value: value, confidence: (word.confidence * 10).rounded() / 10, box: word.box,
                         needsReview: word.confidence < 85 || misread)
        }
        // A lone letter read on its own gives Tesseract no line to size it by: a bold "M" under
        // its label, plain on the page, reads as nothing or as "we". Read as one block with its
        // label above it, it reads as the letter. Only a letter under the label's start is taken.
        let stack = within(BoundingBox(x: label.box.x - h / 2, y: label.box.y - h / 4,
                                       width: max(end.x + end.width - label.box.x, 4 * h) + h, height: label.box.height + 3 * h))
        let block = try text.recognize(image, resolution: resolution, mode: .singleBlock, rectangle: stack)
        let under = block.words.filter { w in
            w.box.y >= label.box.y + label.box.height - h / 4 && abs(w.box.x - label.box.x) <= 2 * h && !key(w).isEmpty
        }
        if let word = under.min(by: { $0.box.y < $1.box.y }), word.confidence >= 60, key(word).count == 1,
           let value = FieldExtractor.sex(word.text) {
            return Field(value: value, confidence: (word.confidence * 10).rounded() / 10, box: word.box, needsReview: word.confidence < 85)
        }
        // A letter printed tight after the label can be taken into the label's box and dropped
        // ("Gender:M" read as "Gender:" at confidence 0): the label read again as one line, with
        // room on the right, gives it back when it is the label, a colon and one letter.
        let line = within(BoundingBox(x: label.box.x - h / 4, y: label.box.y - h / 4, width: end.x + end.width - label.box.x + 2 * h, height: label.box.height + h / 2))
        let read = try text.recognize(image, resolution: resolution, mode: .singleLine, rectangle: line)
        let pieces = read.words.map(\.text).joined(separator: " ").split(separator: ":", maxSplits: 1)
        if pieces.count == 2, Self.sexLabels.contains(String(pieces[0]).uppercased().filter(\.isLetter)),
           let last = read.words.last, last.confidence >= 60,
           let value = FieldExtractor.sex(pieces[1].trimmingCharacters(in: .whitespaces)) {
            // The letter's share of a word read whole ("Gender:M").
            var box = last.box
            let n = last.text.count
            if n > 1 { (box.x, box.width) = (box.x + box.width - box.width / n, box.width / n) }
            return Field(value: value, confidence: (last.confidence * 10).rounded() / 10, box: box, needsReview: true)
        }
        return nil
    }

    /// Identity values whose label was read and whose value was not (see
    /// `LabelledPage.emptyValueRegions`): the empty region below or beside the label is read
    /// again as one line. A reading is taken only when it passes the field's validator (or is a
    /// name of one letter, for review), at word confidence 60 or more; under 85, or failing a
    /// check of ``FieldExtractor/review(_:)``, it goes to review.
    /// The regions are found on the page levelled (as the layout rules read it) and read on the page as read.
    func valuesInEmptyRegions(_ page: PageText, missing: Set<String>, image: LeptImage, resolution: Int) throws(OCRError) -> [String: Field] {
        let lines = TextLine.group(page.words)
        let levelled = LevelledLines(lines, width: page.width, height: page.height)
        let layoutLines = levelled?.lines ?? lines
        let labelled = LabelledPage(lines: layoutLines, kind: .id)
        /// The box around the words read, nil when none were.
        func span(_ words: [Word]) -> BoundingBox? { words.isEmpty ? nil : Segment(words).box }
        var found: [String: Field] = [:]
        for (name, regions) in labelled.emptyValueRegions(for: missing, words: layoutLines.flatMap(\.words), width: image.width, height: image.height) {
            guard let validate = FieldExtractor.idSpecs.first(where: { $0.field == name })?.validate else { continue }
            for levelledRegion in regions {
                let region = LabelledPage.within(levelled?.back(levelledRegion, width: page.width, height: page.height) ?? levelledRegion,
                                                 width: image.width, height: image.height)
                guard region.width > 0, region.height > 0 else { continue }
                var read = try text.recognize(image, resolution: resolution, mode: .singleLine, rectangle: region)
                var kept = read.words.filter { !PageLayout.key($0.text).isEmpty }
                // Read poorly, perhaps for a neighbour's edge caught in the region (the foot of a
                // slanted label above): read once more, cut close around what was found.
                if let ink = span(kept), kept.contains(where: { $0.confidence < 60 }) {
                    let pad = max(2, ink.height / 4)
                    let close = LabelledPage.within(ink.padded(pad),
                                                    width: image.width, height: image.height)
                    read = try text.recognize(image, resolution: resolution, mode: .singleLine, rectangle: close)
                    kept = read.words.filter { !PageLayout.key($0.text).isEmpty }
                }
                // A name of one letter ("O", a Korean surname), read alone in its region as one
                // capital (or as a zero) in a box no wider than a capital: the letter, for review.
                // (The names' validator wants two letters: one alone is too easily a speck.)
                let lone = LoneGlyph.fields.contains(name) && kept.count == 1 && LoneGlyph.capitalWide(kept[0]) ? LoneGlyph.letter(kept[0].text) : nil
                guard let box = span(kept), let confidence = kept.map(\.confidence).min(), confidence >= 60,
                      case let read = kept.map(\.text).joined(separator: " "), let value = lone.map(FieldValue.text) ?? validate(read),
                      !labelled.readsAsLabel(read, for: name, structured: true) else { continue }
                // A word of the page holding the label and running on into the region (the label
                // read glued to its value, "No.:1)7725228", the region starting where the label's
                // share of it ends): the region may have cut the value's first letter off
                // ("7725228" for D7725228). Not sure.
                let cut = layoutLines.flatMap(\.words).contains { w in
                    w.box.x < levelledRegion.x - levelledRegion.height && w.box.x + w.box.width > levelledRegion.x + 2
                        && w.box.y < levelledRegion.y + levelledRegion.height && w.box.y + w.box.height > levelledRegion.y
                }
                found[name] = Field(value: value, confidence: (confidence * 10).rounded() / 10, box: box, needsReview: confidence < 85 || cut || lone != nil)
                break
            }
        }
        // The checks the labelled values had ("ILD", read clearly, is no country code).
        return FieldExtractor.review(found)
    }

    /// The fields an identity document's visual zone (or its MRZ) gives.
    static let identityFields = ["surname", "given_names", "date_of_birth", "sex", "nationality", "document_number", "expiry_date"]

    /// Kind, fields and MRZ of a page's text, read by OCR or taken from a PDF's text layer
    /// (`scanned`: the MRZ read from the image, if any; `image`: the image read, whose pixels
    /// decide tick boxes).
    func finish(_ page: PageText, source: PageSource, index: Int, report: PreprocessReport, scanned: MRZ?,
                        image: LeptImage? = nil, options o: OCROptions) -> PageResult {
        let lines = TextLine.group(page.words)
        let kind = o.kind ?? (scanned != nil ? .id : FieldExtractor.detectKind(page.text))
        // The layout rules read a slanted page levelled; boxes are reported on the page as read.
        let levelled = LevelledLines(lines, width: page.width, height: page.height)
        let layoutLines = levelled?.lines ?? lines
        func back(_ box: BoundingBox) -> BoundingBox { levelled?.back(box, width: page.width, height: page.height) ?? box }
        var fields: [String: Field] = [:]
        var mrz = scanned
        var agreement: [String: Bool]?
        switch kind {
        case .deed: fields = FieldExtractor.deed(layoutLines)
        case .optout:
            let reader = image.map(TickBoxReader.init)
            fields = FieldExtractor.optout(layoutLines, tick: reader.map { r in { label, height in r.mark(before: back(label), height: height) } },
                                           after: reader.map { r in { last, height in r.mark(after: last, height: height, width: page.width, back: back) } })
        case .id:
            var visual = FieldExtractor.idVisual(layoutLines)
            FieldExtractor.cutShort(&visual, lines: layoutLines)
            (fields, mrz, agreement) = identity(lines: lines, visual: visual.mapValues { f in
                var f = f
                f.box = f.box.map(back)
                return f
            }, scanned: scanned)
        case .unknown: break
        }
        if kind != .id {
            FieldExtractor.cutShort(&fields, lines: layoutLines)
            for (name, f) in fields { fields[name]?.box = f.box.map(back) }
            FieldExtractor.atPageEdge(&fields, width: page.width)
        }
        let pairs = FieldExtractor.pairs(layoutLines, kind: kind).map { p in
            var p = p
            (p.labelBox, p.valueBox) = (back(p.labelBox), back(p.valueBox))
            return p
        }
        return PageResult(page: index, source: source, kind: kind, text: page.text, meanConfidence: (page.meanConfidence * 10).rounded() / 10,
                          words: page.words, width: page.width, height: page.height, preprocessing: report, fields: fields,
                          pairs: pairs,
                          mrz: mrz, visualZoneAgreement: agreement, hocr: page.hocr, tsv: page.tsv, alto: page.alto)
    }

    /// ID fields: the MRZ read from the image is authoritative when it is valid; otherwise the
    /// visual zone's values are reported. The two are cross-checked, and a disagreement puts the
    /// MRZ up for review. Without an MRZ in the image, MRZ-like lines in the page text are parsed,
    /// but text alone (no glyph evidence) is never enough for `valid`.
    private func identity(lines: [TextLine], visual: [String: Field], scanned: MRZ?) -> ([String: Field], MRZ?, [String: Bool]?) {
        var parsed = scanned
        if parsed == nil, let (text, found) = MRZParser.fromText(lines.map(\.text)) {
            var fromText = text
            fromText.box = lines.filter { l in found.contains(MRZParser.normalise(l.text)) }.flatMap(\.words)
                .map(\.box).reduce(nil) { acc, box in acc.map { $0.union(box) } ?? box }
            parsed = fromText
        }
        guard var mrz = parsed.map({ MRZVisualNames.reconcile($0, words: lines.flatMap(\.words)) }) else { return (visual, nil, nil) }
        var agreement: [String: Bool] = [:]
        let mrzValues: [String: String?] = [
            "surname": mrz.surname, "given_names": mrz.givenNames, "document_number": mrz.documentNumber,
            "nationality": mrz.nationality, "date_of_birth": mrz.dateOfBirth, "sex": mrz.sex, "expiry_date": mrz.expiryDate,
        ]
        var disagreements: [String] = []
        for (name, v) in visual {
            guard let m = mrzValues[name] ?? nil, let s = v.value.string else { continue }
            var agrees = normalised(s) == normalised(m)
            // A date printed in digits with day and month both 12 or under reads either way round
            // ("08/03/1979"): the zone's order is the one it means.
            if !agrees, name.hasSuffix("_date") || name == "date_of_birth", let box = v.box {
                let printed = lines.flatMap(\.words).filter { box.contains(x: $0.box.x + $0.box.width / 2, y: $0.box.y + $0.box.height / 2) }
                    .map(\.text).joined()
                agrees = FieldExtractor.eitherWayRound(s, printed: printed, is: m)
            }
            agreement[name] = agrees
            // Only a clearly read visual value can overrule the zone's own checks (not one taken for
            // its shape alone, its label unread: see `FieldExtractor.byValueShape`).
            if !agrees && v.confidence >= 80 && !v.needsReview && ["surname", "document_number", "date_of_birth", "expiry_date"].contains(name) {
                disagreements.append(name)
            }
        }
        if !disagreements.isEmpty { mrz.reviewReasons.append("visual zone disagrees: " + disagreements.sorted().joined(separator: ", ")) }
        var fields = visual
        if mrz.valid {
            let confidence = (mrz.confidence ?? 0) * 100
            func set(_ name: String, _ value: String?) {
                guard let value, !value.isEmpty else { return }
                fields[name] = Field(value: .text(value), confidence: (confidence * 10).rounded() / 10, box: mrz.box)
            }
            set("surname", mrz.surname)
            set("given_names", mrz.givenNames)
            set("document_number", mrz.documentNumber)
            set("nationality", mrz.nationality)
            set("date_of_birth", mrz.dateOfBirth)
            set("sex", mrz.sex)
            set("expiry_date", mrz.expiryDate)
        }
        return (fields, mrz, agreement.isEmpty ? nil : agreement)
    }

    private func normalised(_ s: String) -> String {
        s.uppercased().filter { $0.isLetter || $0.isNumber }
    }
}

/// A pool of workers, one per thread, each initialised once. Processes files in parallel and
/// returns results in input order.
public final class OCREngine: @unchecked Sendable {
    public let jobs: Int
    private let language: String
    private var workers: [OCRWorker?]
    private let lock = NSLock()

    public init(jobs: Int = ProcessInfo.processInfo.activeProcessorCount, language: String = "eng") {
        self.jobs = max(1, jobs)
        self.language = language
        workers = Array(repeating: nil, count: self.jobs)
    }

    /// Processes `paths` on ``jobs`` threads; `completed` is called (from worker threads, in
    /// completion order) after each file. The work is handed out page by page: the pages of a
    /// multi-page TIFF or PDF go to whichever worker is free, so one long document keeps every
    /// worker busy (a file written to a searchable PDF stays with one worker, which writes it in
    /// page order).
    public func process(paths: [String], options: OCROptions = .init(),
                        completed: @Sendable (Int, Result<DocumentResult, OCRError>) -> Void = { _, _ in })
        -> [Result<DocumentResult, OCRError>]
    {
        let tasks = paths.indices.flatMap { i in
            pages(of: paths[i], options: options).map { WorkQueue.Task(file: i, page: $0) }
        }
        let queue = WorkQueue(files: paths.count, tasks: tasks)
        DispatchQueue.concurrentPerform(iterations: min(jobs, max(1, tasks.count))) { slot in
            var worker: OCRWorker?
            var startError: OCRError?
            do throws(OCRError) { worker = try self.worker(slot, orientation: options.preprocess.orientation) } catch {
                startError = error
            }
            while let task = queue.take() {
                let path = paths[task.file]
                let r: Result<DocumentResult, OCRError>
                if let worker {
                    var o = options
                    if let page = task.page { o.pages = PageRanges("\(page)") }
                    do throws(OCRError) { r = .success(try worker.process(path: path, options: o)) } catch { r = .failure(error) }
                } else {
                    // No engine on this thread: its files fail with the reason, each named.
                    r = .failure(OCRError(startError!.kind, path: path, startError!.detail))
                }
                if let whole = queue.store(task, r) { completed(task.file, whole) }
            }
        }
        return queue.results()
    }

    /// The pages of `path` to hand out one by one, or `[nil]`: the file is one task (a single
    /// image, one worker only, a searchable PDF to write, or a file whose pages cannot be counted
    /// up front; its own loading then reports any error).
    func pages(of path: String, options: OCROptions) -> [Int?] {
        guard jobs > 1, options.searchablePDF[path] == nil else { return [nil] }
        let count: Int?
        if PDFDocument.looksLikePDF(path: path) {
            count = (try? PDFDocument(path: path, limits: options.limits))?.pageCount
        } else {
            count = ImageLoader.tiffPageCount(path: path)
        }
        guard let count, count > 1, count <= options.limits.maxPages,
              let selected = try? options.pages?.select(from: count, path: path) ?? Array(1...count),
              selected.count > 1 else { return [nil] }
        return selected
    }

    private func worker(_ slot: Int, orientation: Bool) throws(OCRError) -> OCRWorker {
        if let w = lock.withLock({ workers[slot] }) { return w }
        let w = try OCRWorker(language: language, orientation: orientation)
        lock.withLock { workers[slot] = w }
        return w
    }
}

/// Hands out tasks (a file, or one page of it) and puts each file's pages back together.
private final class WorkQueue: @unchecked Sendable {
    struct Task {
        let file: Int
        /// One page of the file (from 1), or nil: the whole file.
        let page: Int?
    }

    private let lock = NSLock()
    private let tasks: [Task]
    private var next = 0
    /// Per file: tasks still out, and the results of those back with their page numbers.
    private var outstanding: [Int]
    private var parts: [[(page: Int, result: Result<DocumentResult, OCRError>)]]
    private var slots: [Result<DocumentResult, OCRError>?]

    init(files: Int, tasks: [Task]) {
        self.tasks = tasks
        outstanding = Array(repeating: 0, count: files)
        for t in tasks { outstanding[t.file] += 1 }
        parts = Array(repeating: [], count: files)
        slots = Array(repeating: nil, count: files)
    }

    func take() -> Task? {
        lock.withLock {
            guard next < tasks.count else { return nil }
            defer { next += 1 }
            return tasks[next]
        }
    }

    /// Records one task's result; the file's whole result once its last task is back.
    func store(_ task: Task, _ r: Result<DocumentResult, OCRError>) -> Result<DocumentResult, OCRError>? {
        lock.withLock {
            parts[task.file].append((task.page ?? 0, r))
            outstanding[task.file] -= 1
            guard outstanding[task.file] == 0 else { return nil }
            let whole = Self.merge(parts[task.file])
            parts[task.file] = []
            slots[task.file] = whole
            return whole
        }
    }

    /// A file's page results as one: its pages in order, each step's times summed; the error of
    /// its first failing page if any failed (where reading the file whole would have stopped).
    static func merge(_ parts: [(page: Int, result: Result<DocumentResult, OCRError>)]) -> Result<DocumentResult, OCRError> {
        if parts.count == 1 { return parts[0].result }
        var merged: DocumentResult?
        for part in parts.sorted(by: { $0.page < $1.page }) {
            switch part.result {
            case .failure: return part.result
            case .success(let d):
                guard var m = merged else { merged = d; continue }
                m.pages += d.pages
                for step in d.timings {
                    if let k = m.timings.firstIndex(where: { $0.step == step.step }) {
                        m.timings[k].seconds += step.seconds
                    } else {
                        m.timings.append(step)
                    }
                }
                merged = m
            }
        }
        return .success(merged!)
    }

    func results() -> [Result<DocumentResult, OCRError>] { lock.withLock { slots.map { $0! } } }
}

/// OpenMP inside Debian's libtesseract: one page takes 5–10× longer unless OMP_THREAD_LIMIT=1 is
/// in the environment before libgomp initialises, which happens when the process loads.
public enum OpenMPGuard {
    /// The running process's OpenMP thread limit (nil if libgomp is not loaded).
    public static func threadLimit() -> Int? {
        guard let handle = dlopen(nil, RTLD_NOW), let symbol = dlsym(handle, "omp_get_thread_limit") else { return nil }
        typealias Fn = @convention(c) () -> Int32
        return Int(unsafeBitCast(symbol, to: Fn.self)())
    }

    /// Call first thing in `main`: if OMP_THREAD_LIMIT is not 1, sets it and re-executes the
    /// process image (same arguments), so the OpenMP runtime starts single-threaded. Parallelism
    /// comes from the worker pool instead. Returns only when the limit is already in force.
    public static func reexecIfNeeded() {
        guard ProcessInfo.processInfo.environment["OMP_THREAD_LIMIT"] != "1" else { return }
        setenv("OMP_THREAD_LIMIT", "1", 1)
        // OpenBLAS (linked for the speaker encoder, unused by OCR) starts a server thread per core
        // at load, which spins on sched_yield for its first ~0.1 s: a core's worth of work taken
        // from every OCR process. With one thread it starts none (a user's own setting is kept).
        setenv("OPENBLAS_NUM_THREADS", "1", 0)
        let args = CommandLine.arguments
        var cargs = args.map { strdup($0) } + [nil]
        execv("/proc/self/exe", &cargs)
        // exec failed (no /proc): carry on multi-threaded rather than not at all.
    }
}
