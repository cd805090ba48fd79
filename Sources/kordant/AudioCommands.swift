import ArgumentParser
import Foundation
import KordantAudio

struct InputOptions: ParsableArguments {
    @Argument(help: "An audio file in any format libsndfile reads (WAV, FLAC, Ogg Vorbis, AIFF, …).")
    var file: String

    @Flag(name: .long, help: "Keep the readable part of a file whose header claims more data than it holds.")
    var allowTruncated = false

    var readOptions: AudioReadOptions { AudioReadOptions(allowTruncated: allowTruncated) }
}

// MARK: - info

struct Info: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Show an audio file's format, rate, channels, frames and duration.")

    @OptionGroup var input: InputOptions
    @OptionGroup var common: CommonOptions

    struct Report: Encodable {
        let file, container, encoding, format: String
        let sample_rate, channels, frames: Int
        let duration_s: Double
        let warnings: [String]?
    }

    func run() throws {
        common.bootstrapLogging()
        try reportingErrors(json: common.json) {
            let info = try AudioFileReader(path: input.file, options: input.readOptions).info
            if common.json {
                Output.printJSON(Report(file: info.path, container: info.container, encoding: info.encoding,
                                        format: info.formatDescription, sample_rate: info.sampleRate,
                                        channels: info.channels, frames: info.frames, duration_s: Output.r6(info.duration),
                                        warnings: Output.warnings(info.warnings)))
            } else {
                Output.warn(info.path, info.warnings)
                print(Output.table([
                    ("file", info.path), ("format", info.formatDescription),
                    ("container", "\(info.container) / \(info.encoding)"), ("sample rate", "\(info.sampleRate) Hz"),
                    ("channels", "\(info.channels)"), ("frames", "\(info.frames)"),
                    ("duration", String(format: "%.3f s", info.duration)),
                ]))
            }
        }
    }
}

// MARK: - convert

struct Convert: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Convert any audio file to mono WAV at 16 kHz (libsoxr high quality), streaming.")

    @OptionGroup var input: InputOptions
    @Argument(help: "The WAV file to write (replaced atomically when complete).")
    var output: String
    @Option(name: .long, help: "Output sample rate in Hz.")
    var rate: Int = EngineAudio.sampleRate
    @Flag(name: .long, help: "Write 32-bit float samples instead of 16-bit PCM.")
    var float = false
    @OptionGroup var common: CommonOptions

    func validate() throws {
        guard (1000...384_000).contains(rate) else { throw ValidationError("--rate must be between 1000 and 384000 Hz") }
    }

    struct Report: Encodable {
        let input, output: String
        let source: Source
        let output_rate, output_samples: Int
        let output_encoding: String
        let duration_s: Double
        let truncated: Bool
        let warnings: [String]?
        struct Source: Encodable {
            let container, encoding: String
            let sample_rate, channels, frames: Int
        }
    }

    func run() throws {
        common.bootstrapLogging()
        try reportingErrors(json: common.json) {
            let encoding: WAVEncoding = float ? .float32 : .pcm16
            let s = try AudioConverter.convert(input: input.file, output: output, sampleRate: rate,
                                               encoding: encoding, options: input.readOptions)
            let duration = Double(s.outputSamples) / Double(s.outputRate)
            if common.json {
                Output.printJSON(Report(
                    input: input.file, output: output,
                    source: .init(container: s.source.container, encoding: s.source.encoding,
                                  sample_rate: s.source.sampleRate, channels: s.source.channels,
                                  frames: s.sourceFramesDecoded),
                    output_rate: s.outputRate, output_samples: s.outputSamples, output_encoding: encoding.rawValue,
                    duration_s: Output.r6(duration), truncated: s.truncated, warnings: Output.warnings(s.warnings)))
            } else {
                Output.warn(input.file, s.warnings)
                print("\(input.file): \(s.source.container) \(s.source.encoding), \(s.source.sampleRate) Hz, "
                      + "\(s.source.channels) ch, \(s.sourceFramesDecoded) frames")
                print("  -> \(output): WAV \(encoding == .pcm16 ? "PCM_16" : "FLOAT"), \(s.outputRate) Hz, mono, "
                      + "\(s.outputSamples) samples (\(String(format: "%.3f", duration)) s)"
                      + (s.truncated ? "  [source truncated: kept what was readable]" : ""))
            }
        }
    }
}

// MARK: - levels

struct Levels: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Average (RMS) and peak power in dBFS per window and for the whole file.",
        discussion: """
            Levels are measured on the mono downmix at the file's own sample rate, on the \
            AVAudioRecorder scale: 20·log10(RMS) and 20·log10(max |x|), full scale 1.0, clamped to \
            [-160, 0]. With --json: one JSON object per window ({"t","avg_db","peak_db"}), then one \
            {"summary": …} object.
            """)

    @OptionGroup var input: InputOptions
    @Option(name: .long, help: "Window length in milliseconds.")
    var windowMs: Double = 50
    @Flag(name: .long, help: "Human output: also list every window.")
    var windows = false
    @OptionGroup var common: CommonOptions

    func validate() throws {
        guard windowMs > 0 && windowMs <= 60_000 else { throw ValidationError("--window-ms must be in (0, 60000]") }
    }

    struct Summary: Encodable {
        let file: String
        let sample_rate, frames, windows: Int
        let window_ms, duration_s, rms_db, peak_db, dc_offset: Double
        let clipped_samples: Int
        let clipped_fraction: Double
        let warnings: [String]?
    }

    func run() throws {
        common.bootstrapLogging()
        try reportingErrors(json: common.json) {
            let decoder = try MonoDecoder(path: input.file, outputRate: nil, options: input.readOptions)
            var meter = LevelMeter(sampleRate: decoder.outputRate, windowSeconds: windowMs / 1000)
            var stats = StatisticsAccumulator(sampleRate: decoder.outputRate)
            var count = 0
            // Window lines go to standard output through one buffer, each number formatted in place.
            let out = ByteSink(fileDescriptor: STDOUT_FILENO, bufferSize: 1 << 16)
            var writeError: (any Error)?
            let emit: (LevelReading) -> Void = { r in
                count += 1
                do {
                    if common.json {
                        try out.write("{\"t\":")
                        try out.write(Output.r3(r.time))
                        try out.write(",\"avg_db\":")
                        try out.write(Output.r3(r.averagePower))
                        try out.write(",\"peak_db\":")
                        try out.write(Output.r3(r.peakPower))
                        try out.write("}\n")
                    } else if windows {
                        try out.write(String(format: "%9.3f s  avg %8.2f dB  peak %8.2f dB\n", r.time, r.averagePower, r.peakPower))
                    }
                } catch {
                    writeError = writeError ?? error
                }
            }
            try decoder.run { block in
                meter.process(block, emit: emit)
                stats.add(block)
            }
            meter.finish(emit: emit)
            if let writeError { throw writeError }
            try out.flush()
            let st = stats.statistics
            let report = Summary(
                file: input.file, sample_rate: st.sampleRate, frames: st.frames, windows: count,
                window_ms: windowMs, duration_s: Output.r6(st.duration), rms_db: Output.r3(st.rmsPower),
                peak_db: Output.r3(st.peakPower), dc_offset: Output.r6(st.dcOffset),
                clipped_samples: st.clippedSamples, clipped_fraction: Output.r6(st.clippedFraction),
                warnings: Output.warnings(decoder.source.warnings))
            if common.json {
                Output.printJSON(["summary": report])
            } else {
                Output.warn(input.file, decoder.source.warnings)
                print(Output.table([
                    ("file", input.file), ("duration", String(format: "%.3f s (%d frames at %d Hz)", st.duration, st.frames, st.sampleRate)),
                    ("average power", String(format: "%.2f dBFS (RMS)", st.rmsPower)),
                    ("peak power", String(format: "%.2f dBFS", st.peakPower)),
                    ("DC offset", String(format: "%.6f", st.dcOffset)),
                    ("clipped", String(format: "%d samples (%.4f %%)", st.clippedSamples, st.clippedFraction * 100)),
                    ("windows", "\(count) × \(windowMs) ms"),
                ]))
            }
        }
    }
}

// MARK: - waveform

struct WaveformCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "waveform",
        abstract: "Min/max waveform data as audiowaveform JSON (peaks.js, waveform-data.js) or an SVG picture.")

    @OptionGroup var input: InputOptions
    @Option(name: .shortAndLong, help: "Output file: .json (audiowaveform format) or .svg.")
    var out: String
    @Option(name: .long, help: "Pixels (min/max pairs) per second of audio.")
    var pixelsPerSecond: Double = 100
    @Option(name: .long, help: "Samples per pixel (overrides --pixels-per-second).")
    var samplesPerPixel: Int?
    @Option(name: .long, help: "Data resolution, 8 or 16 bits (as audiowaveform --bits).")
    var bits: Int = 16
    @Option(name: .long, help: "SVG height in pixels.")
    var height: Int = 160
    @OptionGroup var common: CommonOptions

    func validate() throws {
        guard out.hasSuffix(".json") || out.hasSuffix(".svg") else { throw ValidationError("--out must end in .json or .svg") }
        guard bits == 8 || bits == 16 else { throw ValidationError("--bits must be 8 or 16") }
        guard pixelsPerSecond > 0 && pixelsPerSecond <= 100_000 else { throw ValidationError("--pixels-per-second must be in (0, 100000]") }
        if let s = samplesPerPixel, s < 1 { throw ValidationError("--samples-per-pixel must be at least 1") }
        guard (16...4096).contains(height) else { throw ValidationError("--height must be in 16...4096") }
    }

    func run() throws {
        common.bootstrapLogging()
        try reportingErrors(json: common.json) {
            let decoder = try MonoDecoder(path: input.file, outputRate: nil, options: input.readOptions)
            let rate = decoder.outputRate
            var builder = samplesPerPixel.map { Waveform.Builder(sampleRate: rate, samplesPerPixel: $0, bits: bits) }
                ?? Waveform.Builder(sampleRate: rate, pixelsPerSecond: pixelsPerSecond, bits: bits)
            builder.reserve(samples: decoder.source.frames)
            try decoder.run { builder.add($0) }
            let waveform = builder.finish()
            // Written through one buffer to a file renamed into place when complete.
            let sink = try ByteSink(path: out)
            if out.hasSuffix(".svg") {
                try sink.write(waveform.svg(height: height, title: input.file))
            } else {
                try waveform.writeAudiowaveformJSON(to: sink)
            }
            try sink.commit()
            let warnings = decoder.source.warnings
            if common.json {
                var report: [String: JSONScalar] = [
                    "file": .string(input.file), "out": .string(out), "length": .int(waveform.length),
                    "samples_per_pixel": .int(waveform.samplesPerPixel), "sample_rate": .int(rate), "bits": .int(bits)]
                if !warnings.isEmpty { report["warnings"] = .strings(warnings) }
                Output.printJSON(report)
            } else {
                Output.warn(input.file, warnings)
                print("\(out): \(waveform.length) pixels, \(waveform.samplesPerPixel) samples per pixel at \(rate) Hz, \(bits)-bit")
            }
        }
    }
}

/// A heterogeneous JSON value for small ad-hoc reports.
enum JSONScalar: Encodable {
    case string(String), int(Int), double(Double), bool(Bool), strings([String])
    func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        switch self {
        case .string(let v): try c.encode(v)
        case .int(let v): try c.encode(v)
        case .double(let v): try c.encode(v)
        case .bool(let v): try c.encode(v)
        case .strings(let v): try c.encode(v)
        }
    }
}

/// Collects output lines and writes them in large chunks (a one-hour file has 72,000 windows).
struct BufferedOutput {
    private var buffer = ""
    mutating func write(_ s: String) {
        buffer += s
        if buffer.utf8.count > 1 << 16 { flush() }
    }
    mutating func flush() {
        FileHandle.standardOutput.write(Data(buffer.utf8))
        buffer = ""
    }
}
