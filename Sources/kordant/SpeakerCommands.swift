import ArgumentParser
import Foundation
import KordantAudio
import KordantBatch
import KordantClient
import KordantVoice

/// Exit codes of the speaker commands (README): 40 the encoder's weights are missing or corrupt,
/// 45 the enrollment file cannot be used.
enum SpeakerExitCodes {
    static let weights: Int32 = 40
    static let enrollment: Int32 = 45
}

/// Loads the encoder or ends the process with one clear error naming the weights file.
func loadSpeakerEncoder(weights: String?, json: Bool) -> SpeakerEncoder {
    do {
        return try SpeakerEncoder(weightsPath: weights)
    } catch {
        speakerFail(code: error.kind.rawValue, file: error.path, message: error.detail, exit: SpeakerExitCodes.weights, json: json)
    }
}

func speakerFail(code: String, file: String?, message: String, exit: Int32, json: Bool) -> Never {
    if json {
        var object: [String: String] = ["code": code, "message": message]
        object["file"] = file
        Output.printJSON(["error": object])
    }
    FileHandle.standardError.write(Data("kordant: error: \(message) [\(code)]\n".utf8))
    Foundation.exit(exit)
}

/// One error line for a file the command could not process (the others still complete).
struct FileErrorJSON: Encodable {
    struct Body: Encodable { let code, file, message: String }
    let error: Body

    init(file: String, _ error: any Error) {
        if let e = error as? AudioError {
            self.error = Body(code: e.kind.rawValue, file: file, message: e.detail)
        } else {
            self.error = Body(code: "error", file: file, message: String(describing: error))
        }
    }
}

struct SpeakerOptions: ParsableArguments {
    @Option(name: .long, help: "The speaker encoder's weights (default: $KORDANT_VOICE_ENCODER or models/voice-encoder-ge2e.bin; scripts/setup fetches them).")
    var weights: String?
    @Option(name: .long, help: "Files processed in parallel (default: the number of cores).")
    var jobs: Int = ProcessInfo.processInfo.activeProcessorCount

    func validate() throws {
        guard jobs >= 1 else { throw ValidationError("--jobs must be at least 1") }
    }
}

struct Embed: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Speaker embeddings (Resemblyzer's GE2E encoder, 256 values) of audio files.",
        discussion: """
            With --json, one {file, embedding, model, partials, voiced_s} line per file in input order \
            (an {error} line for a file that cannot be read). Exit 0 when every file was embedded, \
            the first file error's code otherwise; 40 when the encoder's weights are missing or corrupt.
            """)

    @Argument(help: "Audio files (any format; converted to 16 kHz).")
    var files: [String]
    @OptionGroup var speaker: SpeakerOptions
    @OptionGroup var common: CommonOptions
    @Option(name: .long, help: .hidden)
    var encoderRepeat: Int?

    struct Line: Encodable {
        let file: String
        let embedding: [Float]
        let model: String
        let partials: Int
        let voiced_s: Double
    }

    func run() throws {
        common.bootstrapLogging()
        let encoder = loadSpeakerEncoder(weights: speaker.weights, json: common.json)
        if let encoderRepeat { return try timeEncoder(encoder, runs: max(1, encoderRepeat)) }
        var firstFailure: Int32?
        SpeakerBatch.run(files, jobs: speaker.jobs, { try encoder.embed(path: $0) }) { file, result in
            switch result {
            case .success(let e):
                if common.json {
                    Output.printJSON(Line(file: file, embedding: e.vector, model: e.model, partials: e.partials, voiced_s: Output.r3(e.voicedSeconds)))
                } else {
                    let head = e.vector.prefix(4).map { String(format: "%.4f", $0) }.joined(separator: " ")
                    print("\(file): \(e.vector.count) values [\(head) …], \(e.partials) partials, \(String(format: "%.2f", e.voicedSeconds)) s voiced, \(e.model)")
                }
            case .failure(let error):
                firstFailure = firstFailure ?? ((error as? AudioError).map { ExitCodes.code(for: $0.kind) } ?? ExitCodes.other)
                reportFileError(file: file, error, json: common.json)
            }
        }
        if let firstFailure { throw ExitCode(firstFailure) }
    }
}

extension Embed {
    struct Timing: Encodable {
        let file: String
        let seconds: Double
        let partials: Int
        let median_ms: Double
    }

    /// For benchmarks/compare: the encoder alone (mel + network on the preprocessed audio),
    /// timed in-process `runs` times per file after a warm-up; prints the median.
    func timeEncoder(_ encoder: SpeakerEncoder, runs: Int) throws {
        for file in files {
            let wav = SpeakerPreprocessing.preprocess(try VoiceInput.load(path: file).samples)
            var partials = encoder.embedPreprocessed(wav).partials.count
            var times: [Double] = []
            let clock = ContinuousClock()
            for _ in 0..<runs {
                let start = clock.now
                partials = encoder.embedPreprocessed(wav).partials.count
                let d = clock.now - start
                times.append(Double(d.components.seconds) * 1000 + Double(d.components.attoseconds) / 1e15)
            }
            times.sort()
            Output.printJSON(Timing(file: file, seconds: Double(wav.count) / 16_000, partials: partials, median_ms: times[times.count / 2]))
        }
    }
}

func reportFileError(file: String, _ error: any Error, json: Bool) {
    let e = FileErrorJSON(file: file, error)
    if json { Output.printJSON(e) }
    FileHandle.standardError.write(Data("kordant: error: \(file): \(e.error.message) [\(e.error.code)]\n".utf8))
}

/// Runs `work` over files on `jobs` threads and hands the results back in input order on the
/// calling thread as they become available.
enum SpeakerBatch {
    static func run<T: Sendable>(_ files: [String], jobs: Int, _ work: @escaping @Sendable (String) throws -> T,
                                 _ emit: (String, Result<T, any Error>) -> Void) {
        let state = BatchState<T>(count: files.count)
        let workers = max(1, min(jobs, files.count))
        let group = DispatchGroup()
        for _ in 0..<workers {
            group.enter()
            Thread.detachNewThread {
                while let i = state.claim() {
                    let r: Result<T, any Error> = Result { try work(files[i]) }
                    state.finish(i, r)
                }
                group.leave()
            }
        }
        for i in files.indices { emit(files[i], state.wait(i)) }
        group.wait()
    }

    private final class BatchState<T: Sendable>: @unchecked Sendable {
        private let condition = NSCondition()
        private var next = 0
        private var results: [Result<T, any Error>?]

        init(count: Int) { results = Array(repeating: nil, count: count) }

        func claim() -> Int? {
            condition.lock()
            defer { condition.unlock() }
            guard next < results.count else { return nil }
            next += 1
            return next - 1
        }

        func finish(_ i: Int, _ r: Result<T, any Error>) {
            condition.lock()
            results[i] = r
            condition.broadcast()
            condition.unlock()
        }

        func wait(_ i: Int) -> Result<T, any Error> {
            condition.lock()
            defer { condition.unlock() }
            while results[i] == nil { condition.wait() }
            let r = results[i]!
            results[i] = nil  // printed; free it
            return r
        }
    }
}

/// An enrollment as `kordant enroll --json` (or a `batch enroll` line) writes it.
struct EnrollmentFile: Sendable {
    let voiceprint: [Float]
    let model: String

    /// Why an enrollment file cannot be used (`code`: not_found, bad_enrollment, enrollment_outdated).
    struct Problem: Error, CustomStringConvertible {
        let code, message: String
        var description: String { message }
    }

    static func read(_ path: String) throws(Problem) -> EnrollmentFile {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw Problem(code: "not_found", message: "\(path): cannot read the enrollment file")
        }
        do {
            let stored = try StoredEnrollment.parse(data)
            return EnrollmentFile(voiceprint: stored.voiceprint, model: stored.model)
        } catch {
            throw Problem(code: error.code, message: "\(path): \(error.message)")
        }
    }

    /// ``read(_:)`` or the process ends with the problem (exit 45).
    static func load(_ path: String, json: Bool) -> EnrollmentFile {
        do { return try read(path) } catch {
            speakerFail(code: error.code, file: path, message: error.message, exit: SpeakerExitCodes.enrollment, json: json)
        }
    }
}

struct VerificationOptions: ParsableArguments {
    @Option(name: .long, help: "Score at or above which a recording is a match (default: the calibrated operating point).")
    var matchThreshold: Double?
    @Option(name: .long, help: "Score below which a recording is no match; between the two: uncertain.")
    var noMatchThreshold: Double?

    func validate() throws {
        let p = policy
        guard p.noMatchThreshold <= p.matchThreshold else { throw ValidationError("--no-match-threshold must not exceed --match-threshold") }
    }

    var policy: VerificationPolicy {
        var p = VerificationPolicy()
        if let matchThreshold { p.matchThreshold = matchThreshold }
        if let noMatchThreshold { p.noMatchThreshold = noMatchThreshold }
        return p
    }
}

struct Verify: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Check recordings against an enrollment: verdict (match, no_match, uncertain), score, confidence.",
        discussion: """
            ENROLLMENT.json is what `kordant enroll --json` prints. One result per file, in input order. \
            Exit 0 when every file was analysed (whatever the verdicts); a file error's code otherwise; \
            40 missing or corrupt encoder weights; 45 an unusable or outdated enrollment.
            """)

    @Option(name: .long, help: "The enrollment (`kordant enroll --json` output).")
    var enrollment: String
    @Argument(help: "Recordings to check (any audio format).")
    var files: [String]
    @OptionGroup var verification: VerificationOptions
    @OptionGroup var speaker: SpeakerOptions
    @Option(name: .long, help: "With --submit: the enrollment as the backend knows it (its id, or the clientRequestId it was submitted with).")
    var enrollmentId: String?
    @OptionGroup var submission: SubmitOptions
    @OptionGroup var common: CommonOptions

    func validate() throws {
        if submission.queueOnly && !submission.submit { throw ValidationError("--queue-only goes with --submit") }
        if submission.submit && (enrollmentId ?? "").isEmpty { throw ValidationError("--submit needs --enrollment-id (the backend's id of the enrollment)") }
    }

    /// One analysis as JSON (`verify --json`, a `batch verify` line).
    struct Line: Encodable {
        let file: String
        let verdict: String
        let score: Double
        let confidence: Double
        let same_speaker_probability: Double
        let reasons: [String]
        let warnings: [String]
        let voiced_s: Double
        let model: String

        init(_ a: VoiceAnalysis) {
            file = a.file
            verdict = a.verdict.rawValue
            score = Output.r6(a.score)
            confidence = Output.r3(a.confidence)
            same_speaker_probability = Output.r3(a.sameSpeakerProbability)
            reasons = a.reasons
            warnings = a.warnings
            voiced_s = Output.r3(a.voicedSeconds)
            model = a.model
        }
    }

    func run() async throws {
        common.bootstrapLogging()
        let enrolled = EnrollmentFile.load(enrollment, json: common.json)
        let encoder = loadSpeakerEncoder(weights: speaker.weights, json: common.json)
        let verifier = Verifier(encoder: encoder, voiceprint: enrolled.voiceprint, policy: verification.policy)
        var firstFailure: Int32?
        var toSubmit: [(OutboxPayload, [OutboxFile])] = []
        SpeakerBatch.run(files, jobs: speaker.jobs, { try verifier.analyse(path: $0) }) { file, result in
            switch result {
            case .success(let a):
                if submission.submit, let enrollmentId {
                    do { toSubmit.append(try Submissions.analysis(a, enrollmentId: enrollmentId)) } catch {
                        FileHandle.standardError.write(Data("kordant: error: \(error)\n".utf8))
                    }
                }
                if common.json {
                    Output.printJSON(Line(a))
                } else {
                    let why = a.reasons.isEmpty ? "" : " (\(a.reasons.joined(separator: ", ")))"
                    print("\(a.file): \(a.verdict.rawValue)\(why), score \(String(format: "%.3f", a.score)), confidence \(String(format: "%.3f", a.confidence))")
                }
            case .failure(let error):
                firstFailure = firstFailure ?? ((error as? AudioError).map { ExitCodes.code(for: $0.kind) } ?? ExitCodes.other)
                reportFileError(file: file, error, json: common.json)
            }
        }
        if !toSubmit.isEmpty { try await submission.send(toSubmit) }
        if let firstFailure { throw ExitCode(firstFailure) }
    }
}
