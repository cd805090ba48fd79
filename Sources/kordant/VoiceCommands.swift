import ArgumentParser
import Foundation
import KordantAudio
import KordantVoice
import KordantBatch
import KordantClient

/// Exit code for a delivered verdict of "fails the quality check" (not an error: the file was
/// analysed, and the reasons are in the output).
let qualityFailedExitCode: Int32 = 30

/// Quality thresholds as flags; defaults are ``QualityPolicy``'s.
struct PolicyOptions: ParsableArguments {
    @Option(name: .long, help: "Minimum recording length, seconds.")
    var minDuration = QualityPolicy().minimumDuration
    @Option(name: .long, help: "Minimum net speech, seconds.")
    var minSpeech = QualityPolicy().minimumSpeech
    @Option(name: .long, help: "Minimum speech level, dBFS (RMS of speech frames).")
    var minLevel = QualityPolicy().minimumSpeechLevelDB
    @Option(name: .long, help: "Maximum fraction of samples with |x| ≥ 0.999.")
    var maxClipped = QualityPolicy().maximumClippedFraction
    @Option(name: .long, help: "Consecutive full-scale samples that count as clipping.")
    var fullScaleRun = QualityPolicy().fullScaleRun
    @Option(name: .long, help: "Minimum SNR, dB.")
    var minSnr = QualityPolicy().minimumSNRDB

    var policy: QualityPolicy {
        var p = QualityPolicy()
        p.minimumDuration = minDuration
        p.minimumSpeech = minSpeech
        p.minimumSpeechLevelDB = minLevel
        p.maximumClippedFraction = maxClipped
        p.fullScaleRun = fullScaleRun
        p.minimumSNRDB = minSnr
        return p
    }
}

/// The stable JSON shape of a quality report (`kordant quality --json`, inside `enroll`, `record --check`).
struct QualityJSON: Encodable {
    struct Message: Encodable { let code, message: String }
    struct Format: Encodable {
        let container, encoding: String
        let sample_rate, channels, frames: Int
    }
    let file: String
    let pass: Bool
    let reasons: [String]
    let messages: [Message]
    let duration_s, speech_s, speech_ratio, peak_db, clipped_fraction: Double
    let speech_level_db, snr_db: Double?
    let longest_full_scale_run: Int
    let format: Format
    let segments: [[Double]]
    /// The source's warnings (e.g. a data size of 0xFFFFFFFF read to the end); absent when none.
    let warnings: [String]?
    struct Warning: Encodable { let code: String; let level_db: Double; let message: String }
    /// `hum` / `dc_offset` with their levels (empty when none).
    let quality_warnings: [Warning]
    /// RMS dBFS below 100 Hz away from speech, and the mean sample value.
    let hum_db, dc_offset: Double

    init(_ r: QualityReport, file: String, extra: [(String, String)] = []) {
        self.file = file
        reasons = r.reasons.map(\.rawValue) + extra.map(\.0)
        pass = reasons.isEmpty
        messages = r.reasons.map { Message(code: $0.rawValue, message: r.messages[$0] ?? "") }
            + extra.map { Message(code: $0.0, message: $0.1) }
        duration_s = Output.r6(r.durationSeconds)
        speech_s = Output.r3(r.speechSeconds)
        speech_ratio = Output.r3(r.speechRatio)
        peak_db = Output.r3(r.peakDB)
        clipped_fraction = Output.r6(r.clippedFraction)
        speech_level_db = r.speechLevelDB.map(Output.r3)
        snr_db = r.snrDB.map(Output.r3)
        longest_full_scale_run = r.longestFullScaleRun
        format = Format(container: r.source.container, encoding: r.source.encoding, sample_rate: r.source.sampleRate,
                        channels: r.source.channels, frames: r.source.frames)
        segments = r.segments.map { [Output.r3($0.start), Output.r3($0.end)] }
        warnings = Output.warnings(r.source.warnings)
        quality_warnings = r.warnings.map { Warning(code: $0.code.rawValue, level_db: Output.r3($0.levelDB), message: $0.message) }
        hum_db = Output.r3(r.humLevelDB)
        dc_offset = Output.r6(r.dcOffset)
    }

    /// Human summary lines.
    var text: String {
        var lines = ["\(file): \(pass ? "PASS" : "FAIL")" + (pass ? "" : " (\(reasons.joined(separator: ", ")))")]
        lines.append(String(format: "  duration %.2f s, speech %.2f s (%.0f %%), speech level %@, peak %.1f dBFS, SNR %@, clipped %.3f %%",
                            duration_s, speech_s, speech_ratio * 100,
                            speech_level_db.map { String(format: "%.1f dBFS", $0) } ?? "n/a", peak_db,
                            snr_db.map { String(format: "%.1f dB", $0) } ?? "n/a", clipped_fraction * 100))
        for m in messages { lines.append("  - \(m.code): \(m.message)") }
        for w in quality_warnings { lines.append("  warning \(w.code): \(w.message)") }
        return lines.joined(separator: "\n")
    }
}

struct Quality: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Check a voice enrollment sample: duration, net speech, level, clipping, noise.",
        discussion: "Exit 0 when it passes, 30 when it fails (reasons in the output), other codes for unreadable input.")

    @OptionGroup var input: InputOptions
    @OptionGroup var thresholds: PolicyOptions
    @OptionGroup var common: CommonOptions

    func run() throws {
        common.bootstrapLogging()
        var passed = true
        try reportingErrors(json: common.json) {
            let report = try QualityCheck.check(path: input.file, policy: thresholds.policy)
            let j = QualityJSON(report, file: input.file)
            if common.json { Output.printJSON(j) } else {
                Output.warn(input.file, report.source.warnings)
                print(j.text)
            }
            passed = j.pass
        }
        if !passed { throw ExitCode(qualityFailedExitCode) }
    }
}

/// `--submit` and friends, for commands whose results go to the backend.
struct SubmitOptions: ParsableArguments {
    @Flag(name: .long, help: "Send the result to the backend through the outbox ($KORDANT_HOME): queued durably first, then delivered.")
    var submit = false
    @Flag(name: .long, help: "With --submit: only queue; deliver later with `kordant outbox flush`.")
    var queueOnly = false
    @OptionGroup(title: "Backend (with --submit)") var client: ClientOptions

    /// Queues `items` in the outbox, delivers them unless `--queue-only`, and says so on stderr.
    func send(_ items: [(OutboxPayload, [OutboxFile])]) async throws {
        let outcome = try await Submitting.submit(items, to: try Submitting.openOutbox(client), client: client, queueOnly: queueOnly)
        FileHandle.standardError.write(Data((Submitting.describe(outcome) + "\n").utf8))
    }
}

struct Enroll: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Enroll a voice from several samples: quality of each, MFCC statistics, voiceprint, consistency.",
        discussion: """
            The voiceprint is the mean speaker embedding of the passing samples (GE2E encoder); \
            `kordant verify --enrollment` checks recordings against it (see README). \
            Exit 0 when every sample passes and they agree, 30 otherwise.
            """)

    @Argument(help: "The samples (any audio format).")
    var files: [String]
    @Option(name: .long, help: "A label stored with a submitted enrollment.")
    var label: String?
    @Option(name: .long, help: "Leave-one-out cosine below which a sample is inconsistent_speaker (default: the calibrated 0.725).")
    var consistencyThreshold: Double?
    @OptionGroup var thresholds: PolicyOptions
    @OptionGroup var submission: SubmitOptions
    @OptionGroup var common: CommonOptions

    func validate() throws {
        guard !files.isEmpty else { throw ValidationError("give at least one sample") }
        if submission.queueOnly && !submission.submit { throw ValidationError("--queue-only goes with --submit") }
    }

    struct SampleJSON: Encodable {
        let file: String
        let quality: QualityJSON
        let features: SampleFeatures?
    }

    struct ConsistencyJSON: Encodable {
        let consistent: Bool
        let threshold: Double
        let inconsistent: [String]
        let similarity: [[Double]]
        let leave_one_out: [Double]
    }

    struct ResultJSON: Encodable {
        let pass: Bool
        let samples: [SampleJSON]
        let voiceprint: [Double]
        let model: String
        let consistency: ConsistencyJSON
    }

    func run() async throws {
        common.bootstrapLogging()
        var passed = true
        var enrollment: EnrollmentResult?
        try reportingErrors(json: common.json) {
            let enroller = try Enroller(encoder: loadSpeakerEncoder(weights: nil, json: common.json))
            if let consistencyThreshold { enroller.consistencyThreshold = consistencyThreshold }
            let r = try enroller.enroll(paths: files, policy: thresholds.policy)
            enrollment = r
            let result = Self.resultJSON(r)
            let samples = result.samples
            passed = r.pass
            if common.json {
                Output.printJSON(result)
            } else {
                print("enrollment: \(r.pass ? "PASS" : "FAIL") (\(files.count) samples, "
                      + "\(r.consistency.consistent ? "consistent" : "inconsistent speaker: " + result.consistency.inconsistent.joined(separator: ", ")))")
                for s in samples {
                    Output.warn(s.file, s.quality.warnings ?? [])
                    print(s.quality.text)
                }
                if !r.voiceprint.isEmpty { print("voiceprint: \(r.voiceprint.count) values (mean speaker embedding, \(r.model))") }
            }
        }
        if submission.submit, let enrollment {
            if !passed {
                FileHandle.standardError.write(Data("submit: not submitted: the enrollment did not pass\n".utf8))
            } else {
                try await submitEnrollment(enrollment)
            }
        }
        if !passed { throw ExitCode(qualityFailedExitCode) }
    }
}

extension Enroll {
    /// The JSON shape of an enrollment (also one line of `batch enroll`).
    static func resultJSON(_ r: EnrollmentResult) -> ResultJSON {
        let samples = r.samples.enumerated().map { i, s in
            let extra = r.consistency.inconsistent.contains(i)
                ? [("inconsistent_speaker", "This sample does not sound like the others; record it again.")] : []
            return SampleJSON(file: s.path, quality: QualityJSON(s.quality, file: s.path, extra: extra), features: s.features)
        }
        return ResultJSON(
            pass: r.pass, samples: samples, voiceprint: r.voiceprint.map(Output.r6), model: r.model,
            consistency: ConsistencyJSON(
                consistent: r.consistency.consistent, threshold: r.consistency.threshold,
                inconsistent: r.consistency.inconsistent.map { r.samples[$0].path },
                similarity: r.consistency.similarity.map { $0.map(Output.r3) },
                leave_one_out: r.consistency.leaveOneOut.map(Output.r3)))
    }

    func submitEnrollment(_ r: EnrollmentResult) async throws {
        let item: (OutboxPayload, [OutboxFile])?
        do { item = try Submissions.enrollment(r, label: label) } catch {
            FileHandle.standardError.write(Data("kordant: error: \(error)\n".utf8))
            throw ExitCode(ExitCodes.clientSetup)
        }
        guard let item else {
            FileHandle.standardError.write(Data("submit: not submitted: a sample has no speech features\n".utf8))
            return
        }
        try await submission.send([item])
    }
}

extension MFCCOptions.Profile: ExpressibleByArgument {}

struct Features: ParsableCommand {
    enum Format: String, ExpressibleByArgument, CaseIterable { case json, csv, npy }

    static let configuration = CommandConfiguration(
        abstract: "MFCC features of a file (kaldi, librosa or python_speech_features definitions).",
        discussion: """
            The file is converted to 16 kHz mono first. --deltas appends Kaldi add-deltas (order 2, \
            window 2) for the kaldi and psf profiles, and librosa.feature.delta orders 1 and 2 \
            (width 9) for librosa. --cmvn normalises each column to zero mean and unit variance. \
            Each profile takes its reference's own parameters (librosa's in kebab case, Kaldi's \
            compute-mfcc-feats options, python_speech_features' keywords); without --profile, the \
            parameters given choose it.
            """)

    @OptionGroup var input: InputOptions
    @Option(name: .long, help: "kaldi (default), librosa or psf.")
    var profile: MFCCOptions.Profile?
    @OptionGroup(title: "Reference parameters") var parameters: FeatureParameters
    @Flag(name: .long, help: "Append delta and delta-delta features.")
    var deltas = false
    @Flag(name: .long, help: "Cepstral mean and variance normalisation over the file.")
    var cmvn = false
    @Option(name: .long, help: "json, csv or npy.")
    var format: Format = .json
    @Option(name: .shortAndLong, help: "Write to this file instead of standard output (required for npy on a terminal).")
    var out: String?
    @OptionGroup var common: CommonOptions

    func validate() throws {
        if format == .npy && out == nil && isatty(STDOUT_FILENO) == 1 { throw ValidationError("npy is binary: give --out FILE or redirect") }
        _ = try parameters.options(for: try parameters.profile(given: profile))
    }

    /// The JSON document's fields before `data` (which is written row by row after them).
    struct MatrixHeaderJSON: Encodable {
        let file, profile: String
        let sample_rate, frames, coefficients: Int
        let frame_shift_s: Double
        let warnings: [String]?
    }

    func run() throws {
        common.bootstrapLogging()
        try reportingErrors(json: common.json) {
            let profile = try parameters.profile(given: self.profile)
            let options = try parameters.options(for: profile)
            // Block by block: decode → 16 kHz → MFCC frames as soon as their samples arrive, so
            // the audio is never held whole (only the feature rows are).
            let decoder = try MonoDecoder(path: input.file, options: input.readOptions)
            let expected = Double(max(0, decoder.source.frames)) * Double(decoder.outputRate) / Double(decoder.source.sampleRate)
            let stream = try MFCCStream(options: options, expectedSamples: Int(min(expected, 1e12)))
            try decoder.run { stream.add($0) }
            var m = stream.finish()
            let warnings = decoder.source.warnings
            if deltas {
                m = profile == .librosa
                    ? m.appending(columnsOf: try Deltas.librosa(m, order: 1)).appending(columnsOf: try Deltas.librosa(m, order: 2))
                    : Deltas.kaldi(m)
            }
            if cmvn { m = CMVN.apply(m) }
            // Written from the matrix in large blocks (the .npy data straight from its memory),
            // to a file renamed into place when complete, or to standard output.
            let sink = try out.map { try ByteSink(path: $0) } ?? ByteSink(fileDescriptor: STDOUT_FILENO)
            switch format {
            case .npy: try m.writeNPY(to: sink)
            case .csv: try m.writeCSV(to: sink)
            case .json:
                let encoder = JSONEncoder()
                // Sorted keys: the same document every run (`data` sorts last, so it can follow).
                encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
                var head = try encoder.encode(MatrixHeaderJSON(
                    file: input.file, profile: profile.rawValue, sample_rate: options.sampleRate, frames: m.frames,
                    coefficients: m.coefficients, frame_shift_s: Double(options.hop) / Double(options.sampleRate),
                    warnings: Output.warnings(warnings)))
                head.removeLast()   // the closing brace: `data` follows
                try head.withUnsafeBytes { try sink.write($0) }
                try sink.write(",\"data\":")
                try m.writeJSONRows(to: sink)
                try sink.write("}\n")
            }
            try sink.commit()
            if !common.json { Output.warn(input.file, warnings) }
            if let out, !common.json {
                FileHandle.standardError.write(Data("\(out): \(m.frames) frames × \(m.coefficients) (\(profile.rawValue))\n".utf8))
            }
        }
    }
}
