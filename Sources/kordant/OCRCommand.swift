import ArgumentParser
import Foundation
import KordantOCR
import KordantBatch
import KordantClient
import Logging

extension ExitCodes {
    static func code(for kind: OCRError.Kind) -> Int32 {
        switch kind {
        case .notFound: 10
        case .unreadable: 41
        case .tooLarge: 42
        case .emptyImage: 43
        case .engineFailed: 44
        case .writeFailed: 20
        }
    }
}

extension DocumentKind: ExpressibleByArgument {}

/// JSON shapes of `kordant ocr` (stable keys).
struct OCRJSON {
    struct Box: Encodable {
        let x, y, width, height: Int
        init(_ b: BoundingBox) { x = b.x; y = b.y; width = b.width; height = b.height }
    }
    struct FieldJSON: Encodable {
        let value: FieldValue
        let confidence: Double
        let box: Box?
        /// Present (true) only when the value is doubtful.
        let needs_review: Bool?
    }
    struct PairJSON: Encodable {
        let label, value: String
        let field: String?
        let confidence: Double
        let label_box, value_box: Box
    }
    struct WordJSON: Encodable {
        let text: String
        let confidence: Double
        let box: Box
        let block, paragraph, line, word: Int
    }
    struct CheckJSON: Encodable {
        let field, printed, computed: String
        let valid: Bool
    }
    struct MRZFieldJSON: Encodable {
        let name, value: String
        let valid: Bool?
        let confidence: Double?
        let repaired: [String]
    }
    struct MRZJSON: Encodable {
        let format: String
        /// The exact layout where it is not the size class's ICAO one (e.g. "FRA-ID", "MRVA").
        let layout: String
        let lines: [String]
        let valid: Bool
        let needs_review: Bool
        let review_reasons: [String]
        let confidence: Double?
        let rotation: Int?
        let box: Box?
        let field_readings: [MRZFieldJSON]
        let checks: [CheckJSON]
        let problems: [String]
        let repairs: [String]
        let document_code, issuer, surname, given_names, document_number, nationality, sex, optional_data: String
        let date_of_birth, expiry_date: String?
        /// With `--mrz-cells`: lines × cells of what each reader saw.
        let cells: [[CellJSON]]?
    }
    struct CellJSON: Encodable {
        let tesseract: String?
        let tesseract_confidence: Double?
        let templates: String
        /// Posterior of the character as read.
        let confidence: Double?
        /// The rectified cell's ink (32 × 48 bytes, base64), what the learned reader sees.
        let ink: String
        /// Each reader's evidence per character of `0–9A–Z<` (``MRZ/CellReading``): template
        /// distances, the learned reader's log-probabilities, Tesseract's log-likelihoods.
        let template_distances, cell_model, tesseract_evidence: [Double]?
    }
    struct Preprocessing: Encodable {
        let steps: [String]
        let rotation: Int
        let orientation_confidence: Double?
        let skew_angle, skew_confidence: Double?
        let scale: Double
        let text_height: Double?
        let resolution: Int
        /// A photographed page's corners where it was warped flat, [[x, y], …] clockwise from top left.
        let outline: [[Double]]?
    }
    struct StepJSON: Encodable {
        let step: String
        let seconds: Double
        static func list(_ steps: [StepTime]) -> [StepJSON]? {
            steps.isEmpty ? nil : steps.map { StepJSON(step: $0.step, seconds: ($0.seconds * 10000).rounded() / 10000) }
        }
    }
    struct Page: Encodable {
        let page: Int
        /// `ocr` or `text_layer` (a PDF page's own text).
        let source: String
        let kind: String
        let text: String
        let mean_confidence: Double
        let width, height: Int
        let preprocessing: Preprocessing
        let fields: [String: FieldJSON]
        let pairs: [PairJSON]
        let mrz: MRZJSON?
        let visual_zone_agrees: [String: Bool]?
        let words: [WordJSON]
        /// With `--timings`: the page's steps in the order they ran.
        let timings: [StepJSON]?
    }
    struct Document: Encodable {
        let file: String
        let pages: [Page]
        /// With `--timings`: steps of the whole file (`load`).
        let timings: [StepJSON]?
    }

    /// `words: false` leaves the per-word list empty (fields and text only).
    static func document(_ d: DocumentResult, words: Bool = true) -> Document {
        Document(file: d.path, pages: d.pages.map { page($0, words: words) }, timings: StepJSON.list(d.timings))
    }

    static func page(_ p: PageResult, words includeWords: Bool = true) -> Page {
        let r = p.preprocessing
        func r2(_ f: Float?) -> Double? { f.map { (Double($0) * 100).rounded() / 100 } }
        return Page(
            page: p.page, source: p.source.rawValue, kind: p.kind.rawValue, text: p.text, mean_confidence: p.meanConfidence, width: p.width, height: p.height,
            preprocessing: Preprocessing(steps: r.steps, rotation: r.rotation, orientation_confidence: r2(r.orientationConfidence),
                                         skew_angle: r2(r.skewAngle), skew_confidence: r2(r.skewConfidence),
                                         scale: Output.r3(r.scale), text_height: r.textHeight, resolution: r.resolution,
                                         outline: r.outline?.map { [($0.x * 10).rounded() / 10, ($0.y * 10).rounded() / 10] }),
            fields: p.fields.mapValues {
                FieldJSON(value: $0.value, confidence: $0.confidence, box: $0.box.map(Box.init), needs_review: $0.needsReview ? true : nil)
            },
            pairs: p.pairs.map {
                PairJSON(label: $0.label, value: $0.value, field: $0.field, confidence: $0.confidence, label_box: Box($0.labelBox),
                         value_box: Box($0.valueBox))
            },
            mrz: p.mrz.map { m in
                MRZJSON(format: m.format.size, layout: m.format.rawValue, lines: m.lines, valid: m.valid, needs_review: m.needsReview,
                        review_reasons: m.reviewReasons, confidence: m.confidence, rotation: m.rotation, box: m.box.map(Box.init),
                        field_readings: m.fieldReadings.map {
                            MRZFieldJSON(name: $0.name, value: $0.value, valid: $0.valid, confidence: $0.confidence, repaired: $0.repaired)
                        },
                        checks: m.checks.map { CheckJSON(field: $0.field, printed: $0.printed, computed: $0.computed, valid: $0.valid) },
                        problems: m.problems, repairs: m.repairs, document_code: m.documentCode, issuer: m.issuer, surname: m.surname,
                        given_names: m.givenNames, document_number: m.documentNumber, nationality: m.nationality, sex: m.sex,
                        optional_data: m.optionalData, date_of_birth: m.dateOfBirth, expiry_date: m.expiryDate,
                        cells: m.cellReadings.map { lines in
                            lines.enumerated().map { l, line in
                                line.enumerated().map { c, cell in
                                    CellJSON(tesseract: cell.tesseract.map(String.init), tesseract_confidence: cell.tesseractConfidence.map { $0.rounded() },
                                             templates: cell.templates, confidence: m.characterConfidence.flatMap { l < $0.count && c < $0[l].count ? $0[l][c] : nil },
                                             ink: Data(cell.ink).base64EncodedString(),
                                             template_distances: rounded(cell.templateDistances), cell_model: rounded(cell.cellModel),
                                             tesseract_evidence: rounded(cell.tesseractEvidence))
                                }
                            }
                        })
            },
            visual_zone_agrees: p.visualZoneAgreement,
            words: !includeWords ? [] : p.words.map { WordJSON(text: $0.text, confidence: (($0.confidence * 10).rounded()) / 10, box: Box($0.box),
                                          block: $0.block, paragraph: $0.paragraph, line: $0.line, word: $0.word) },
            timings: StepJSON.list(p.timings))
    }
}

struct OCR: AsyncParsableCommand {
    enum Format: String, ExpressibleByArgument, CaseIterable { case json, text, tsv, hocr, alto }

    static let configuration = CommandConfiguration(
        abstract: "OCR scans (PNG, JPEG, TIFF incl. multi-page, PNM, BMP, WebP) and extract deed, ID (MRZ) and opt-out fields.",
        discussion: """
            Preprocessing (on by default, reported per page): grayscale (a red stamp's ink faded), flattening a photographed \
            page (perspective), smoothing bilevel (fax) pages, background flattening, a median \
            filter on photocopies drowned in speckle, light print on dark bands turned dark, \
            rescaling small text, despeckle, orientation \
            (Tesseract OSD), deskew. JSON output is one line per \
            file; a file that cannot be read gets {"file", "error": {"code", "file", "message"}} and the others go on. Runs \
            Tesseract single-threaded per worker (OMP_THREAD_LIMIT=1) with --jobs workers.
            """)

    @Argument(help: "Image files.")
    var files: [String]
    @Option(name: .long, help: "auto (detect from the text), deed, id or optout.")
    var kind: String = "auto"
    @Option(name: .long, help: "json, text, tsv (Tesseract's columns), hocr, or alto (one ALTO v3 XML document per file).")
    var format: Format = .json
    @Option(name: .shortAndLong, help: "Worker threads (default: number of cores).")
    var jobs: Int = ProcessInfo.processInfo.activeProcessorCount
    @Flag(name: .long, help: "OCR the image as loaded, without preprocessing.")
    var raw = false
    @Flag(name: .long, help: "OCR every PDF page, even one that has a text layer of its own (default: use the text layer).")
    var forceOCR = false
    @Option(name: .long, help: "Pages to read of a PDF or multi-page TIFF, e.g. 1-3,5,8- (default: all).")
    var pages: String?
    @Flag(name: .long, inversion: .prefixedNo, help: "Detect page orientation with Tesseract OSD.")
    var orientation = true
    @Flag(name: .long, help: "Also binarise with Sauvola (off by default: it did not help on our scans).")
    var binarize = false
    @Option(name: .long, help: "Refuse images above this many megapixels (checked from the header).")
    var maxMegapixels: Int = 100
    @Flag(name: .long, help: "Include every word with its box in JSON (default: fields and text only).")
    var words = false
    @Flag(name: .long, help: "Time each step of each page (load, MRZ search, preprocessing, recognition, fields): in the JSON as \"timings\", on stderr for the other formats.")
    var timings = false
    @Flag(name: .long, help: "Diagnostic: add what each reader saw in each MRZ cell (Tesseract's character and confidence, the OCR-B templates' best three, the rectified cell's ink, each reader's evidence per character) to the JSON as \"cells\" (scripts/make-mrz-confusion, make-mrz-cell-model and fit-mrz-fusion calibrate, train and weigh the readers from it).")
    var mrzCells = false
    @Option(name: .customLong("pdf"), help: ArgumentHelp("Also write a searchable PDF (page images + invisible text) of the one input file.", valueName: "OUT.pdf"))
    var pdfOut: String?
    @Option(name: .long, help: ArgumentHelp("Also write a searchable PDF of each input file to DIR/NAME.pdf.", valueName: "DIR"))
    var pdfDir: String?
    @OptionGroup var submission: SubmitOptions
    @OptionGroup var common: CommonOptions

    func validate() throws {
        guard !files.isEmpty else { throw ValidationError("give at least one image") }
        if submission.queueOnly && !submission.submit { throw ValidationError("--queue-only goes with --submit") }
        guard kind == "auto" || DocumentKind(rawValue: kind) != nil else { throw ValidationError("--kind must be auto, deed, id or optout") }
        if let pages, PageRanges(pages) == nil { throw ValidationError("--pages must look like 1-3,5,8- (pages from 1)") }
        guard (1...256).contains(jobs) else { throw ValidationError("--jobs must be 1…256") }
        guard maxMegapixels >= 1 else { throw ValidationError("--max-megapixels must be positive") }
        if pdfOut != nil && pdfDir != nil { throw ValidationError("--pdf and --pdf-dir do not go together") }
        if pdfOut != nil && files.count != 1 { throw ValidationError("--pdf takes one input file; use --pdf-dir DIR for several") }
        if let pdfDir {
            let names = files.map { SearchablePDFNames.name(for: $0) }
            if let twice = Dictionary(grouping: names, by: { $0 }).first(where: { $0.value.count > 1 })?.key {
                throw ValidationError("two inputs would both be written to \(pdfDir)/\(twice)")
            }
        }
    }

    /// Input path → searchable PDF path, from `--pdf` / `--pdf-dir`.
    var searchablePDFs: [String: String] {
        if let pdfOut, let file = files.first { return [file: pdfOut] }
        guard let pdfDir else { return [:] }
        return Dictionary(files.map { ($0, URL(fileURLWithPath: pdfDir).appendingPathComponent(SearchablePDFNames.name(for: $0)).path) },
                          uniquingKeysWith: { a, _ in a })
    }

    func run() async throws {
        common.bootstrapLogging()
        var options = OCROptions()
        options.kind = kind == "auto" ? nil : DocumentKind(rawValue: kind)
        options.preprocess = raw ? .none : PreprocessOptions()
        options.forceOCR = forceOCR
        options.pages = pages.flatMap(PageRanges.init)
        options.preprocess.orientation = !raw && orientation
        options.preprocess.binarize = binarize
        options.limits = ImageLimits(maxPixels: maxMegapixels * 1_000_000)
        options.hocr = format == .hocr
        options.tsv = format == .tsv
        options.alto = format == .alto
        options.searchablePDF = searchablePDFs
        if timings { options.stepClock = OCROptions.monotonicSeconds }
        options.mrz.keepCellReadings = mrzCells
        let logger = Logger(label: "kordant.ocr")
        logger.debug("OpenMP thread limit \(OpenMPGuard.threadLimit().map(String.init) ?? "n/a"), \(jobs) workers")
        let engine = OCREngine(jobs: jobs)
        // Each file is printed as soon as it and every file before it are done: a long run shows
        // its results as it goes, in input order, and one that is interrupted keeps what it printed.
        let (format, words, timings, files) = (self.format, self.words, self.timings, self.files)
        let printer = InOrderPrinter(count: files.count) { i, result in
            Self.show(result, input: files[i], format: format, words: words, timings: timings)
        }
        let results = engine.process(paths: files, options: options) { i, result in printer.add(i, result) }
        var firstFailure: Int32?
        var toSubmit: [(OutboxPayload, [OutboxFile])] = []
        for result in results {
            switch result {
            case .success(let doc):
                if submission.submit {
                    do { toSubmit.append(try Submissions.scan(doc)) } catch {
                        FileHandle.standardError.write(Data("kordant: error: \(error)\n".utf8))
                        firstFailure = firstFailure ?? ExitCodes.clientSetup
                    }
                }
            case .failure(let error):
                firstFailure = firstFailure ?? ExitCodes.code(for: error.kind)
            }
        }
        if submission.submit, !toSubmit.isEmpty {
            try await submission.send(toSubmit)
        }
        if let firstFailure { throw ExitCode(firstFailure) }
    }
}

extension OCR {
    /// Prints one file's result (or its error) in `format`; its timings go to stderr for the
    /// formats other than JSON.
    static func show(_ result: Result<DocumentResult, OCRError>, input: String, format: Format, words: Bool, timings: Bool) {
        switch result {
        case .success(let doc):
            switch format {
            case .json:
                Output.printJSON(OCRJSON.document(doc, words: words))
            case .text: print(doc.pages.map(\.text).joined(separator: "\u{0C}\n"), terminator: "")
            case .tsv: print(doc.pages.compactMap(\.tsv).joined(), terminator: "")
            case .hocr: print(doc.pages.compactMap(\.hocr).joined(), terminator: "")
            case .alto: print(ALTO.document(file: doc.path, pages: doc.pages.compactMap(\.alto)), terminator: "")
            }
            // Written now, not when the process ends: the next file may take minutes.
            fflush(nil)
            if timings && format != .json { FileHandle.standardError.write(Data(Self.timingLines(doc).utf8)) }
        case .failure(let error):
            if format == .json {
                // `file` is the input; the error's own `file` is what failed (the PDF written, for write_failed).
                Output.printJSON(ErrorLine(file: input, error: .init(code: error.kind.rawValue, file: error.path, message: error.detail)))
            }
            FileHandle.standardError.write(Data("kordant: error: \(error.path): \(error.detail) [\(error.kind.rawValue)]\n".utf8))
        }
    }

    /// `timings FILE [load 0.012 s]` then `  page N: preprocess 0.031 s, …` for each page.
    static func timingLines(_ doc: DocumentResult) -> String {
        func list(_ steps: [StepTime]) -> String { steps.map { "\($0.step) \(String(format: "%.3f", $0.seconds)) s" }.joined(separator: ", ") }
        var text = "timings \(doc.path)" + (doc.timings.isEmpty ? "" : ": " + list(doc.timings)) + "\n"
        for p in doc.pages { text += "  page \(p.page): \(list(p.timings))\n" }
        return text
    }
}

/// `{"file", "error": {"code", "file", "message"}}`: one failed file in JSON Lines output. The
/// error object is the one every command prints; `file` is also at the top, as on success lines.
struct ErrorLine: Encodable {
    struct Detail: Encodable { let code, file, message: String }
    let file: String
    let error: Detail
}

/// An ALTO v3 document around Tesseract's per-page `<Page>` elements (the header and footer its
/// own ALTO renderer writes).
enum ALTO {
    static func document(file: String, pages: [String]) -> String {
        let name = file.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
        return """
            <?xml version="1.0" encoding="UTF-8"?>
            <alto xmlns="http://www.loc.gov/standards/alto/ns-v3#" xmlns:xlink="http://www.w3.org/1999/xlink" \
            xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" \
            xsi:schemaLocation="http://www.loc.gov/standards/alto/ns-v3# http://www.loc.gov/alto/v3/alto-3-0.xsd">
            \t<Description>
            \t\t<MeasurementUnit>pixel</MeasurementUnit>
            \t\t<sourceImageInformation>
            \t\t\t<fileName>\(name)</fileName>
            \t\t</sourceImageInformation>
            \t\t<OCRProcessing ID="OCR_0">
            \t\t\t<ocrProcessingStep>
            \t\t\t\t<processingSoftware>
            \t\t\t\t\t<softwareName>kordant (tesseract)</softwareName>
            \t\t\t\t</processingSoftware>
            \t\t\t</ocrProcessingStep>
            \t\t</OCRProcessing>
            \t</Description>
            \t<Layout>

            """ + pages.joined() + "\t</Layout>\n</alto>\n"
    }
}

/// Output names for `--pdf-dir`.
enum SearchablePDFNames {
    /// `scan.png` → `scan.pdf`; `deed.pdf` → `deed.pdf` (in another folder).
    static func name(for input: String) -> String {
        URL(fileURLWithPath: input).deletingPathExtension().lastPathComponent + ".pdf"
    }
}

/// Hands results that complete in any order to `emit` in index order, each as soon as every one
/// before it has been handed on (under a lock: workers call ``add(_:_:)`` from their threads).
final class InOrderPrinter: @unchecked Sendable {
    private let lock = NSLock()
    private var next = 0
    private var waiting: [Int: Result<DocumentResult, OCRError>] = [:]
    private let emit: @Sendable (Int, Result<DocumentResult, OCRError>) -> Void

    init(count: Int, emit: @escaping @Sendable (Int, Result<DocumentResult, OCRError>) -> Void) {
        self.emit = emit
        waiting.reserveCapacity(min(count, 64))
    }

    func add(_ index: Int, _ result: Result<DocumentResult, OCRError>) {
        lock.withLock {
            waiting[index] = result
            while let ready = waiting.removeValue(forKey: next) {
                emit(next, ready)
                next += 1
            }
        }
    }
}

/// Four decimals: finer than any weight fitted on the readers' evidence; nil for none.
private func rounded(_ values: [Double]) -> [Double]? {
    values.isEmpty ? nil : values.map { ($0 * 1e4).rounded() / 1e4 }
}
