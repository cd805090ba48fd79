import ArgumentParser
import Dispatch
import Foundation
import KordantAudio
import KordantVoice

struct Record: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Record 16 kHz mono 16-bit WAV from an ALSA capture device, with a live level meter.",
        discussion: """
            Stops after --duration, at --max-bytes, or on Ctrl-C / SIGTERM (the file is finalised \
            and the summary printed; exit 0). The WAV header is rewritten every second, so a killed \
            recording is still a valid WAV missing at most the last second.
            """)

    @Argument(help: "The WAV file to write.")
    var output: String
    @Option(name: .shortAndLong, help: "ALSA capture PCM (see `kordant devices`).")
    var device = "default"
    @Option(name: .long, help: "Stop after this many seconds.")
    var duration: Double?
    @Option(name: .long, help: "Stop before the file exceeds this many bytes.")
    var maxBytes: Int?
    @Option(name: .long, help: "Meter window in milliseconds.")
    var windowMs: Double = 50
    @Option(name: .long, help: "Capture at this device rate and convert to 16 kHz in-stream.")
    var deviceRate: Int?
    @Option(name: .long, help: "Capture this many channels and downmix in-stream.")
    var deviceChannels: Int?
    @Flag(name: .long, help: "Run the enrollment quality check on the recording and print the verdict (exit 30 if it fails).")
    var check = false
    @OptionGroup var thresholds: PolicyOptions
    @OptionGroup var common: CommonOptions

    func validate() throws {
        if let d = duration, !(d > 0) { throw ValidationError("--duration must be positive") }
        if let m = maxBytes, m < 44 + 2 { throw ValidationError("--max-bytes must leave room for the 44-byte header") }
        guard windowMs >= 1 && windowMs <= 10_000 else { throw ValidationError("--window-ms must be in [1, 10000]") }
        if let r = deviceRate, !(4000...384_000).contains(r) { throw ValidationError("--device-rate must be in 4000...384000") }
        if let c = deviceChannels, !(1...32).contains(c) { throw ValidationError("--device-channels must be in 1...32") }
    }

    struct Summary: Encodable {
        let file, device, stop_reason: String
        let frames, device_rate, device_channels, overruns, suspends: Int
        let duration_s, rms_db, peak_db: Double
        let clipped_samples: Int
        let quality: QualityJSON?
    }

    func run() throws {
        common.bootstrapLogging()
        let stop = StopFlag()
        // Ctrl-C and SIGTERM stop the recording cleanly instead of killing the process.
        var sources: [DispatchSourceSignal] = []
        for sig in [SIGINT, SIGTERM] {
            signal(sig, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: sig, queue: .global())
            source.setEventHandler { stop.stop() }
            source.resume()
            sources.append(source)
        }
        defer { sources.forEach { $0.cancel() } }
        let live = isatty(STDERR_FILENO) == 1 && !common.json
        var out = BufferedOutput()
        var passed = true
        try reportingErrors(json: common.json) {
            var options = RecordingOptions(device: device, duration: duration, maxBytes: maxBytes, windowSeconds: windowMs / 1000)
            options.deviceRate = deviceRate
            options.deviceChannels = deviceChannels
            let summary = try Recorder.record(to: output, options: options, stop: stop) { r in
                if common.json {
                    out.write("{\"t\":\(Output.r3(r.time)),\"avg_db\":\(Output.r3(r.averagePower)),\"peak_db\":\(Output.r3(r.peakPower))}\n")
                    out.flush()
                } else if live {
                    FileHandle.standardError.write(Data(("\r" + LevelBar.line(r)).utf8))
                }
            }
            if live { FileHandle.standardError.write(Data("\n".utf8)) }
            let st = summary.statistics
            let quality = check ? QualityJSON(try QualityCheck.check(path: output, policy: thresholds.policy), file: output) : nil
            passed = quality?.pass ?? true
            if common.json {
                Output.printJSON(["summary": Summary(
                    file: output, device: device, stop_reason: summary.stopReason.rawValue, frames: summary.frames,
                    device_rate: summary.deviceRate, device_channels: summary.deviceChannels, overruns: summary.overruns,
                    suspends: summary.suspends, duration_s: Output.r6(summary.duration), rms_db: Output.r3(st.rmsPower),
                    peak_db: Output.r3(st.peakPower), clipped_samples: st.clippedSamples, quality: quality)])
            } else {
                print("\(output): \(String(format: "%.2f", summary.duration)) s, 16000 Hz mono 16-bit from \(device) "
                      + "(device \(summary.deviceRate) Hz, \(summary.deviceChannels) ch), stopped by \(summary.stopReason.rawValue)")
                print(String(format: "  average %.2f dBFS, peak %.2f dBFS, %d clipped samples, %d overruns, %d suspends",
                             st.rmsPower, st.peakPower, st.clippedSamples, summary.overruns, summary.suspends))
                if let quality { print(quality.text) }
            }
        }
        if !passed { throw ExitCode(qualityFailedExitCode) }
    }
}

/// The one-line terminal meter: elapsed time, a bar for the average level, a mark for the peak.
enum LevelBar {
    static let width = 40

    static func line(_ r: LevelReading) -> String {
        // -60 dBFS .. 0 dBFS across the bar, like the app's meter.
        func cell(_ db: Double) -> Int { max(0, min(width, Int(((db + 60) / 60 * Double(width)).rounded()))) }
        let avg = cell(r.averagePower), peak = cell(r.peakPower)
        var bar = Array(repeating: Character(" "), count: width)
        for i in 0..<avg { bar[i] = "#" }
        if peak > 0 { bar[peak - 1] = "|" }
        let t = r.time + Double(r.samples) / 16_000
        return String(format: "%02d:%04.1f [", Int(t) / 60, t.truncatingRemainder(dividingBy: 60)) + String(bar)
            + String(format: "] avg %6.1f dB  peak %6.1f dB ", r.averagePower, r.peakPower)
    }
}

struct Devices: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "List ALSA capture devices (name and description).")
    @OptionGroup var common: CommonOptions

    func run() throws {
        common.bootstrapLogging()
        let devices = CaptureDevice.list()
        if common.json {
            Output.printJSON(devices)
        } else if devices.isEmpty {
            print("no capture devices")
        } else {
            for d in devices {
                print(d.name)
                for line in d.description.split(separator: "\n") { print("    \(line)") }
            }
        }
    }
}
