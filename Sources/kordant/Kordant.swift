import ArgumentParser
import Foundation
import KordantAudio
import KordantOCR
import Logging

@main
struct Kordant: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "kordant",
        abstract: "Kordant Engine: audio, voice and document processing for Kordant's identity protection.",
        discussion: "Exit codes: 0 success; 64 bad arguments; 10-22 input and output errors (see README).",
        version: "0.1.0",
        subcommands: [Info.self, Convert.self, Levels.self, WaveformCommand.self, Record.self, Devices.self, Quality.self, Enroll.self,
                      Features.self, OCR.self, Batch.self, OutboxCommand.self, Call.self, Serve.self, Token.self, Embed.self, Verify.self,
                      Provision.self, SealCommand.self, ReportCommand.self])

    /// OCR needs OpenMP limited to one thread before libgomp starts (see OpenMPGuard); only that
    /// command pays for the re-exec.
    static func main() async {
        let args = CommandLine.arguments.dropFirst()
        if args.first == "ocr" || (args.first == "batch" && args.dropFirst().first == "ocr") { OpenMPGuard.reexecIfNeeded() }
        do {
            // Kaldi's bare boolean options (`--snip-edges`) mean `=true`.
            var command = try parseAsRoot(args.first == "features" ? FeatureParameters.normalise(Array(args)) : nil)
            if var asyncCommand = command as? AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch {
            exit(withError: error)
        }
    }
}

/// Options every command shares.
struct CommonOptions: ParsableArguments {
    @Flag(name: .long, help: "Machine-readable JSON output (errors too, as {\"error\": …}).")
    var json = false

    @Flag(name: .shortAndLong, help: "Log progress to stderr (debug level; never logs personal data above it).")
    var verbose = false

    func bootstrapLogging() {
        let level: Logger.Level = verbose ? .debug : .warning
        LoggingSystem.bootstrap { label in
            var h = StreamLogHandler.standardError(label: label)
            h.logLevel = level
            return h
        }
    }
}
