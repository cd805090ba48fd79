import ArgumentParser
import Foundation
import KordantAudio
import Logging

@main
struct Kordant: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "kordant",
        abstract: "Kordant Engine: audio, voice and document processing for Kordant's identity protection.",
        discussion: "Exit codes: 0 success; 64 bad arguments; 10-21 input and output errors (see README).",
        version: "0.1.0",
        subcommands: [Info.self, Convert.self, Levels.self, WaveformCommand.self, Record.self, Devices.self, Quality.self, Enroll.self, Features.self])
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
