import ArgumentParser
import Foundation
import KordantAPI
import KordantAudio
import KordantBatch
import KordantClient
import KordantOCR
import KordantVoice

extension ExitCodes {
    /// `batch`: at least one item could not be processed (its line has the error).
    static let batchItemsFailed: Int32 = 60
    /// `batch`: the input folder or manifest is unusable, or the output cannot be written.
    static let batchInput: Int32 = 61
}

struct Batch: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Batch enrollment, verification and OCR over a folder or a JSON Lines manifest, on all cores, resumable and shardable.",
        subcommands: [BatchEnroll.self, BatchVerify.self, BatchOCR.self])
}

extension Shard: ExpressibleByArgument {
    public init?(argument: String) { self.init(argument) }
}

/// Options both batch commands share.
struct BatchOptions: ParsableArguments {
    @Argument(help: "A folder, or a manifest (.jsonl) with one {\"path\": …} object per line.")
    var input: String
    @Option(name: .shortAndLong, help: "Results, one JSON line per item in input order.")
    var out: String
    @Option(name: .shortAndLong, help: "Worker threads (default: number of cores).")
    var jobs: Int = ProcessInfo.processInfo.activeProcessorCount
    @Flag(name: .long, help: "Skip items already in --out (by path and content SHA-256); repair a partial last line.")
    var resume = false
    @Option(name: .long, help: "Take only shard K of N (0 ≤ K < N), a stable hash partition of the items: N machines split the input with no overlap.")
    var shard: Shard?
    @Flag(name: .shortAndLong, help: "No progress line.")
    var quiet = false

    func validate() throws {
        guard (1...256).contains(jobs) else { throw ValidationError("--jobs must be 1…256") }
    }

    func runner(outbox: Outbox?) -> BatchRunner {
        var c = BatchRunner.Configuration(output: out)
        c.jobs = jobs
        c.resume = resume
        c.shard = shard
        c.outbox = outbox
        return BatchRunner(configuration: c)
    }
}

/// The live progress line on a terminal; silent in pipes and CI.
struct ProgressLine {
    let enabled: Bool
    var last = Date.distantPast

    init(quiet: Bool) { enabled = !quiet && isatty(STDERR_FILENO) == 1 }

    mutating func update(_ p: BatchProgress) {
        guard enabled, p.done == p.total || Date().timeIntervalSince(last) > 0.1 else { return }
        last = Date()
        let eta = p.eta.map { String(format: "ETA %d:%02d", Int($0) / 60, Int($0) % 60) } ?? "ETA --:--"
        let text = String(format: "\r\u{1B}[2K%d/%d  %.1f/s  %@  %d failed%@", p.done, p.total, p.rate, eta, p.failed,
                          p.skipped > 0 ? "  \(p.skipped) resumed" : "")
        FileHandle.standardError.write(Data(text.utf8))
        if p.done == p.total { FileHandle.standardError.write(Data("\n".utf8)) }
    }
}

/// Runs a batch with the CLI's reporting: input errors, the summary, the exit code, `--submit`.
func runBatch(_ name: String, options: BatchOptions, submission: SubmitOptions, common: CommonOptions,
              items load: () throws -> [BatchItem], body: (BatchRunner, [BatchItem], inout ProgressLine) throws -> BatchSummary) async throws {
    common.bootstrapLogging()
    let items: [BatchItem]
    do { items = try load() } catch {
        FileHandle.standardError.write(Data("kordant: error: \(error)\n".utf8))
        throw ExitCode(ExitCodes.batchInput)
    }
    let outbox = submission.submit ? try Submitting.openOutbox(submission.client) : nil
    var progress = ProgressLine(quiet: options.quiet)
    let summary: BatchSummary
    do { summary = try body(options.runner(outbox: outbox), items, &progress) } catch {
        FileHandle.standardError.write(Data("kordant: error: \(error)\n".utf8))
        throw ExitCode(ExitCodes.batchInput)
    }
    if common.json {
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        encoder.outputFormatting = [.sortedKeys]
        if let data = try? encoder.encode(summary) { FileHandle.standardOutput.write(data + Data("\n".utf8)) }
    } else {
        var text = "\(name): \(summary.processed) processed (\(summary.succeeded) ok, \(summary.failed) failed)"
        if summary.skipped > 0 { text += ", \(summary.skipped) already done" + (summary.previouslyFailed > 0 ? " (\(summary.previouslyFailed) failed)" : "") }
        if let s = summary.shard { text += ", shard \(s) of \(summary.inputTotal) items" }
        text += String(format: " in %.2f s, %.2f items/s on %d jobs → %@", summary.elapsedSeconds, summary.itemsPerSecond, summary.jobs, options.out)
        for (reason, n) in summary.failuresByReason.sorted(by: { $0.key < $1.key }) { text += "\n  \(reason): \(n)" }
        if summary.repairedPartialLine { text += "\n  repaired a partial last line left by an interrupted run" }
        // Unbuffered, so that it comes before the submit line on stderr.
        FileHandle.standardOutput.write(Data((text + "\n").utf8))
    }
    if let outbox {
        // Items were queued as their lines were written; now deliver (or count) what is pending.
        let outcome = try await Submitting.submit([], to: outbox, client: submission.client, queueOnly: submission.queueOnly)
        FileHandle.standardError.write(Data((Submitting.describe(outcome, queuedByBatch: summary.submissionsQueued) + "\n").utf8))
    }
    if summary.anyFailed { throw ExitCode(ExitCodes.batchItemsFailed) }
}

/// `{"code", "message", "file"}` for an item that could not be processed.
func errorObject(_ error: any Error, fallbackFile: String?) -> (JSONValue, String) {
    let (code, file, message): (String, String?, String) = switch error {
    case let e as AudioError: (e.kind.rawValue, e.path, e.detail)
    case let e as OCRError: (e.kind.rawValue, e.path, e.detail)
    case let e as VoiceError: ("voice_error", fallbackFile, e.description)
    default: ("error", fallbackFile, String(describing: error))
    }
    var o: [String: JSONValue] = ["code": .string(code), "message": .string(message)]
    if let file { o["file"] = .string(file) }
    return (.object(o), code)
}

struct BatchEnroll: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "enroll",
        abstract: "Enroll many users: convert, quality-check, MFCC and embed every sample, one result line per enrollment.",
        discussion: """
            A folder: each audio file in it is an enrollment of one sample; each subfolder is one \
            enrollment of the files under it. A manifest: {"path", "group", "label"} per line; lines \
            with one group form one enrollment. Exit 0 when every item was processed (a failed \
            quality verdict is a result, not a failure), 60 when an item could not be read (in this \
            run or, with --resume, an earlier one), 40 when the speaker encoder's weights are \
            missing or corrupt (nothing is processed).
            """)
    @OptionGroup var batch: BatchOptions
    @OptionGroup var thresholds: PolicyOptions
    @OptionGroup var submission: SubmitOptions
    @OptionGroup var common: CommonOptions
    @Option(name: .long, help: "The speaker encoder's weights (default: $KORDANT_VOICE_ENCODER or models/voice-encoder-ge2e.bin).")
    var weights: String?

    func run() async throws {
        let policy = thresholds.policy
        let submit = submission.submit
        // Loaded once, before any item: missing or corrupt weights are one error (exit 40), not a
        // failed line per enrollment. The weights are read-only and shared by the workers.
        let encoder = loadSpeakerEncoder(weights: weights, json: common.json)
        try await runBatch("batch enroll", options: batch, submission: submission, common: common,
                           items: { try BatchInput.enrollments(from: batch.input) }) { runner, items, progress in
            try runner.run(
                items,
                makeWorker: { try Enroller(encoder: encoder) },
                process: { enroller, item in
                    var fields: [(String, JSONValue)] = [("group", .string(item.id)), ("files", .array(item.paths.map(JSONValue.string)))]
                    if let label = item.label { fields.append(("label", .string(label))) }
                    do {
                        let r = try enroller.enroll(paths: item.paths, policy: policy)
                        let submission = submit && r.pass ? try? Submissions.enrollment(r, label: item.label ?? item.id) : nil
                        return BatchLine(json: try JSONCoding.encoder.encode(Enroll.resultJSON(r)), fields: fields, submission: submission ?? nil)
                    } catch {
                        let (e, code) = errorObject(error, fallbackFile: item.paths.first)
                        return BatchLine(json: Data("{}".utf8), fields: fields + [("error", e)], failure: code)
                    }
                },
                workerFailed: { item, error in
                    let (e, code) = errorObject(error, fallbackFile: nil)
                    return BatchLine(object: ["group": .string(item.id), "error": e], failure: code)
                },
                progress: { progress.update($0) })
        }
    }
}

struct BatchVerify: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify",
        abstract: "Check many recordings against enrollments: one verdict line per manifest line.",
        discussion: """
            A manifest of {"enrollment": "E.json", "file": "x.wav"} lines (paths relative to the \
            manifest; E.json is what `kordant enroll --json` prints or a `batch enroll` line). Each \
            result line carries `enrollment` as written and the fields of `kordant verify --json`. With \
            --submit, lines that give "enrollment_id" (the backend's id of the enrollment) send their \
            analysis through the outbox. \
            Exit 0 when every line was analysed (whatever the verdicts), 60 when a recording or an \
            enrollment could not be used (its line has the error), 40 when the encoder's weights are \
            missing or corrupt.
            """)
    @OptionGroup var batch: BatchOptions
    @OptionGroup var verification: VerificationOptions
    @Option(name: .long, help: "The speaker encoder's weights (default: $KORDANT_VOICE_ENCODER or models/voice-encoder-ge2e.bin).")
    var weights: String?
    @OptionGroup var submission: SubmitOptions
    @OptionGroup var common: CommonOptions

    /// Per thread: the enrollments read so far (a manifest names a few, many times).
    final class VerifyWorker {
        var enrollments: [String: Result<EnrollmentFile, EnrollmentFile.Problem>] = [:]

        func enrollment(_ path: String) throws(EnrollmentFile.Problem) -> EnrollmentFile {
            if let known = enrollments[path] { return try known.get() }
            let r = Result { () throws(EnrollmentFile.Problem) in try EnrollmentFile.read(path) }
            enrollments[path] = r
            return try r.get()
        }
    }

    func run() async throws {
        let encoder = loadSpeakerEncoder(weights: weights, json: common.json)
        let policy = verification.policy, submit = submission.submit
        try await runBatch("batch verify", options: batch, submission: submission, common: common,
                           items: { try BatchInput.verifications(from: batch.input) }) { runner, items, progress in
            try runner.run(
                items,
                makeWorker: { () -> VerifyWorker in VerifyWorker() },
                process: { worker, item in
                    let fields: [(String, JSONValue)] = [("enrollment", .string(item.enrollmentAsWritten ?? ""))]
                    let enrolled: EnrollmentFile
                    do throws(EnrollmentFile.Problem) { enrolled = try worker.enrollment(item.enrollment ?? "") } catch {
                        let e: JSONValue = .object(["code": .string(error.code), "message": .string(error.message),
                                                    "file": .string(item.enrollment ?? "")])
                        return BatchLine(json: Data("{}".utf8), fields: fields + [("file", .string(item.paths[0])), ("error", e)],
                                         failure: error.code)
                    }
                    do {
                        let a = try Verifier(encoder: encoder, voiceprint: enrolled.voiceprint, policy: policy).analyse(path: item.paths[0])
                        let submission = submit ? item.label.flatMap { try? Submissions.analysis(a, enrollmentId: $0) } : nil
                        return BatchLine(json: try JSONCoding.encoder.encode(Verify.Line(a)), fields: fields, submission: submission)
                    } catch {
                        let (e, code) = errorObject(error, fallbackFile: item.paths[0])
                        return BatchLine(json: Data("{}".utf8), fields: fields + [("file", .string(item.paths[0])), ("error", e)], failure: code)
                    }
                },
                workerFailed: { item, error in
                    let (e, code) = errorObject(error, fallbackFile: item.paths[0])
                    return BatchLine(object: ["enrollment": .string(item.enrollmentAsWritten ?? ""), "file": .string(item.paths[0]), "error": e],
                                     failure: code)
                },
                progress: { progress.update($0) })
        }
    }
}

struct BatchOCR: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ocr",
        abstract: "OCR many scans: one result line per file (pages, kind, fields, MRZ), Tesseract handles reused per worker.",
        discussion: "A folder: every image under it. A manifest: {\"path\", \"kind\"} per line. Exit 60 when a file could not be read.")
    @OptionGroup var batch: BatchOptions
    @Option(name: .long, help: "auto (detect from the text), deed, id or optout; a manifest's kind wins.")
    var kind: String = "auto"
    @Flag(name: .long, help: "Include every word with its box.")
    var words = false
    @Option(name: .long, help: "Refuse images above this many megapixels (checked from the header).")
    var maxMegapixels: Int = 100
    @Flag(name: .long, help: "OCR every PDF page, even one that has a text layer of its own (default: use the text layer).")
    var forceOCR = false
    @Option(name: .long, help: "Pages to read of a PDF or multi-page TIFF, e.g. 1-3,5,8- (default: all).")
    var pages: String?
    @Option(name: .long, help: ArgumentHelp("Also write a searchable PDF of each file to DIR/ID.pdf (the item id with its extension replaced; its line gets \"pdf\").", valueName: "DIR"))
    var pdfDir: String?
    @OptionGroup var submission: SubmitOptions
    @OptionGroup var common: CommonOptions

    func validate() throws {
        guard kind == "auto" || DocumentKind(rawValue: kind) != nil else { throw ValidationError("--kind must be auto, deed, id or optout") }
        if let pages, PageRanges(pages) == nil { throw ValidationError("--pages must look like 1-3,5,8- (pages from 1)") }
    }

    func run() async throws {
        var options = OCROptions()
        options.kind = DocumentKind(rawValue: kind)
        options.limits = ImageLimits(maxPixels: maxMegapixels * 1_000_000)
        options.forceOCR = forceOCR
        options.pages = pages.flatMap(PageRanges.init)
        let base = options
        let words = words, submit = submission.submit, pdfDir = pdfDir
        try await runBatch("batch ocr", options: batch, submission: submission, common: common,
                           items: { try BatchInput.documents(from: batch.input) }) { runner, items, progress in
            try runner.run(
                items,
                makeWorker: { () throws -> OCRWorker in
                    do throws(OCRError) { return try OCRWorker(orientation: base.preprocess.orientation) } catch { throw error }
                },
                process: { worker, item in
                    var options = base
                    if let k = item.kind.flatMap(DocumentKind.init(rawValue:)) { options.kind = k }
                    var pdf: String?
                    if let pdfDir {
                        let out = URL(fileURLWithPath: pdfDir).appendingPathComponent(item.id).deletingPathExtension().appendingPathExtension("pdf")
                        // A subfolder of the input gets its own under DIR (a failure shows when the PDF is made).
                        try? FileManager.default.createDirectory(at: out.deletingLastPathComponent(), withIntermediateDirectories: true)
                        pdf = out.path
                        options.searchablePDF = [item.paths[0]: out.path]
                    }
                    do throws(OCRError) {
                        let doc = try worker.process(path: item.paths[0], options: options)
                        guard let json = try? JSONCoding.encoder.encode(OCRJSON.document(doc, words: words)) else {
                            return BatchLine(object: ["file": .string(item.paths[0]), "id": .string(item.id)], failure: "error")
                        }
                        return BatchLine(json: json, fields: [("id", .string(item.id))] + (pdf.map { [("pdf", JSONValue.string($0))] } ?? []),
                                         submission: submit ? try? Submissions.scan(doc) : nil)
                    } catch {
                        let (e, code) = errorObject(error, fallbackFile: item.paths[0])
                        return BatchLine(object: ["file": .string(item.paths[0]), "id": .string(item.id), "error": e], failure: code)
                    }
                },
                workerFailed: { item, error in
                    let (e, code) = errorObject(error, fallbackFile: item.paths[0])
                    return BatchLine(object: ["file": .string(item.paths[0]), "id": .string(item.id), "error": e], failure: code)
                },
                progress: { progress.update($0) })
        }
    }
}
