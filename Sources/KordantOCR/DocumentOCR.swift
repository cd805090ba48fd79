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

    public init() {}
}

/// The result for one page.
public struct PageResult: Sendable, Equatable {
    public var page: Int
    public var kind: DocumentKind
    public var text: String
    public var meanConfidence: Double
    public var words: [Word]
    public var width: Int
    public var height: Int
    public var preprocessing: PreprocessReport
    /// Extracted fields by name (absent when not found).
    public var fields: [String: Field]
    public var mrz: MRZ?
    /// For IDs with an MRZ: whether each visual-zone field agrees with the MRZ.
    public var visualZoneAgreement: [String: Bool]?
    public var hocr: String?
    public var tsv: String?
}

public struct DocumentResult: Sendable, Equatable {
    public var path: String
    public var pages: [PageResult]
}

/// One worker: a Tesseract handle for text and one for orientation detection, created once and
/// reused for every page it processes. Not thread-safe; ``OCREngine`` gives each thread its own.
public final class OCRWorker {
    private let text: TesseractHandle
    private let orientation: Bool
    /// Created on first use: most pages never need OSD, and loading its data costs ~0.1 s.
    private lazy var osd: TesseractHandle? = orientation ? try? TesseractHandle(language: "osd") : nil

    public init(language: String = "eng", orientation: Bool = true) throws(OCRError) {
        _ = ImageLoader.quiet
        text = try TesseractHandle(language: language)
        self.orientation = orientation
    }

    public func process(path: String, options: OCROptions = .init()) throws(OCRError) -> DocumentResult {
        let pages = try ImageLoader.load(path: path, limits: options.limits)
        var results: [PageResult] = []
        for (i, page) in pages.enumerated() {
            results.append(try process(image: page, index: i + 1, options: options))
        }
        return DocumentResult(path: path, pages: results)
    }

    public func process(image: LeptImage, index: Int = 1, options o: OCROptions = .init()) throws(OCRError) -> PageResult {
        var (prepared, report, glyphs) = try Preprocessor.run(image, options: o.preprocess)
        let mode: PageSegmentation = o.kind == .id ? .sparse : .auto
        var page = try text.recognize(prepared, resolution: report.resolution, mode: mode, hocr: o.hocr, tsv: o.tsv)
        // Orientation only when the reading is poor: an upright page reads with high confidence and
        // never pays for OSD. Otherwise ask OSD (trusted only when confident: it misjudges small
        // cards with little text), then also try the page turned by 180°, and keep the clearly
        // better reading.
        if o.preprocess.orientation && page.meanConfidence < 70 {
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
                if clockwise % 180 != 0 && o.preprocess.deskew { turned = try Preprocessor.deskew(turned, report: &turnedReport) }
                let again = try text.recognize(turned, resolution: report.resolution, mode: mode, hocr: o.hocr, tsv: o.tsv)
                if again.meanConfidence > page.meanConfidence + 10 && again.words.count * 2 >= page.words.count {
                    (prepared, page, report) = (turned, again, turnedReport)
                    report.rotation = (baseReport.rotation + clockwise) % 360
                    if !report.steps.contains("orientation") { report.steps.append("orientation") }
                }
            }
        }
        let lines = TextLine.group(page.words)
        let kind = o.kind ?? FieldExtractor.detectKind(page.text)
        var fields: [String: Field] = [:]
        var mrz: MRZ?
        var agreement: [String: Bool]?
        switch kind {
        case .deed: fields = FieldExtractor.deed(lines)
        case .optout: fields = FieldExtractor.optout(lines)
        case .id:
            (fields, mrz, agreement) = try identity(lines: lines, image: prepared, resolution: report.resolution, glyphs: glyphs)
        case .unknown: break
        }
        return PageResult(page: index, kind: kind, text: page.text, meanConfidence: (page.meanConfidence * 10).rounded() / 10,
                          words: page.words, width: page.width, height: page.height, preprocessing: report, fields: fields,
                          mrz: mrz, visualZoneAgreement: agreement, hocr: page.hocr, tsv: page.tsv)
    }

    /// ID fields: the MRZ (found in the page text, or read again line by line from the bottom
    /// band) is authoritative when it verifies; otherwise the visual zone's values are reported.
    private func identity(lines: [TextLine], image: LeptImage, resolution: Int, glyphs: GlyphReading?) throws(OCRError)
        -> ([String: Field], MRZ?, [String: Bool]?)
    {
        let visual = FieldExtractor.idVisual(lines)
        var mrzWords: [Word] = []
        var parsed: MRZ?
        if let (format, found) = MRZParser.find(in: lines.map(\.text)) {
            parsed = MRZParser.parse(found, format: format)
            mrzWords = lines.filter { l in found.contains(MRZParser.normalise(l.text)) }.flatMap(\.words)
        }
        // OCR-B template matching (Leptonica only, a few milliseconds), unless preprocessing
        // already did it on this very image.
        let glyphReading: MRZ? = if let glyphs, glyphs.image === image { glyphs.mrz } else { Preprocessor.glyphMRZ(image) }
        if parsed?.valid != true && glyphReading?.valid != true {
            // Last chance: the bottom band alone, as a block (MRZ lines are uniform monospace).
            let band = BoundingBox(x: 0, y: image.height * 6 / 10, width: image.width, height: image.height * 4 / 10)
            let page = try text.recognize(image, resolution: resolution, mode: .singleBlock, rectangle: band)
            let bandLines = TextLine.group(page.words)
            if let (format, found) = MRZParser.find(in: bandLines.map(\.text)), let again = MRZParser.parse(found, format: format),
               again.valid || parsed == nil {
                parsed = again
                mrzWords = bandLines.filter { l in found.contains(MRZParser.normalise(l.text)) }.flatMap(\.words)
            }
        }
        // OCR-B template matching: it reads `<` by shape and height where the model guesses K, and
        // the name line has no check digit to catch that, so a verified glyph reading is preferred
        // to a verified model reading, and either to an unverified one.
        if let byGlyph = glyphReading {
            if parsed == nil || (byGlyph.valid && parsed?.valid != true) {
                parsed = byGlyph
            } else if byGlyph.valid, let model = parsed, model.valid, byGlyph.lines != model.lines {
                // Both verify but differ (in fields no check digit covers): keep the reading the
                // printed zone agrees with more; on a tie, the glyph reading.
                func agreement(_ m: MRZ) -> Int {
                    [("surname", m.surname), ("given_names", m.givenNames), ("nationality", m.nationality)]
                        .filter { name, value in visual[name]?.value.string.map { normalised($0) == normalised(value) } ?? false }.count
                }
                if agreement(byGlyph) >= agreement(model) { parsed = byGlyph }
            }
        }
        var fields = visual
        var agreement: [String: Bool]?
        if let mrz = parsed {
            if mrz.valid {
                let from = FieldExtractor.field(.text(""), mrzWords)
                func set(_ name: String, _ value: String?) {
                    guard let value, !value.isEmpty else { return }
                    fields[name] = Field(value: .text(value), confidence: from.confidence, box: from.box)
                }
                // Names carry no check digit: the visual zone's (printed in an ordinary font, which
                // the model reads better than OCR-B) wins when it was found.
                if visual["surname"] == nil { set("surname", mrz.surname) }
                if visual["given_names"] == nil { set("given_names", mrz.givenNames) }
                set("document_number", mrz.documentNumber)
                set("nationality", mrz.nationality)
                set("date_of_birth", mrz.dateOfBirth)
                set("sex", mrz.sex)
                set("expiry_date", mrz.expiryDate)
            }
            var a: [String: Bool] = [:]
            let mrzValues: [String: String?] = [
                "surname": mrz.surname, "given_names": mrz.givenNames, "document_number": mrz.documentNumber,
                "nationality": mrz.nationality, "date_of_birth": mrz.dateOfBirth, "sex": mrz.sex, "expiry_date": mrz.expiryDate,
            ]
            for (name, v) in visual {
                guard let m = mrzValues[name] ?? nil, let s = v.value.string else { continue }
                a[name] = normalised(s) == normalised(m)
            }
            agreement = a
        }
        return (fields, parsed, agreement)
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
    /// completion order) after each file.
    public func process(paths: [String], options: OCROptions = .init(),
                        completed: @Sendable (Int, Result<DocumentResult, OCRError>) -> Void = { _, _ in })
        -> [Result<DocumentResult, OCRError>]
    {
        let queue = WorkQueue(count: paths.count)
        DispatchQueue.concurrentPerform(iterations: min(jobs, max(1, paths.count))) { slot in
            var worker: OCRWorker?
            var startError: OCRError?
            do throws(OCRError) { worker = try self.worker(slot, orientation: options.preprocess.orientation) } catch {
                startError = error
            }
            while let i = queue.take() {
                let r: Result<DocumentResult, OCRError>
                if let worker {
                    do throws(OCRError) { r = .success(try worker.process(path: paths[i], options: options)) } catch { r = .failure(error) }
                } else {
                    // No engine on this thread: its files fail with the reason, each named.
                    r = .failure(OCRError(startError!.kind, path: paths[i], startError!.detail))
                }
                queue.store(i, r)
                completed(i, r)
            }
        }
        return queue.results()
    }

    private func worker(_ slot: Int, orientation: Bool) throws(OCRError) -> OCRWorker {
        if let w = lock.withLock({ workers[slot] }) { return w }
        let w = try OCRWorker(language: language, orientation: orientation)
        lock.withLock { workers[slot] = w }
        return w
    }
}

/// Hands out indices and collects results across worker threads.
private final class WorkQueue: @unchecked Sendable {
    private let lock = NSLock()
    private var next = 0
    private let count: Int
    private var slots: [Result<DocumentResult, OCRError>?]

    init(count: Int) {
        self.count = count
        slots = Array(repeating: nil, count: count)
    }

    func take() -> Int? {
        lock.withLock {
            guard next < count else { return nil }
            defer { next += 1 }
            return next
        }
    }

    func store(_ i: Int, _ r: Result<DocumentResult, OCRError>) { lock.withLock { slots[i] = r } }

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
        let args = CommandLine.arguments
        var cargs = args.map { strdup($0) } + [nil]
        execv("/proc/self/exe", &cargs)
        // exec failed (no /proc): carry on multi-threaded rather than not at all.
    }
}
