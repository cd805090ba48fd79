import ArgumentParser
import Foundation
import KordantAudio

/// The CLI's exit codes, one per error kind, stable across releases (documented in README).
enum ExitCodes {
    static let other: Int32 = 1
    static func code(for kind: AudioError.Kind) -> Int32 {
        switch kind {
        case .notFound: 10
        case .unreadable: 11
        case .invalidHeader: 12
        case .truncated: 13
        case .decodeFailed: 14
        case .nonFiniteSamples: 15
        case .emptyAudio: 16
        case .resampleFailed: 17
        case .unsupportedEncoding: 18
        case .malformed: 19
        case .notWave: 22
        case .writeFailed: 20
        case .deviceFailed: 21
        }
    }
}

/// Runs a command body, turning engine errors into one clear line on stderr (and a JSON error
/// object on stdout with `--json`) and the matching exit code.
func reportingErrors(json: Bool, _ body: () throws -> Void) throws {
    do {
        try body()
    } catch let error as AudioError {
        fail(code: error.kind.rawValue, file: error.path, message: error.detail, exit: ExitCodes.code(for: error.kind), json: json)
    } catch let error as ExitCode {
        throw error
    } catch {
        fail(code: "error", file: nil, message: String(describing: error), exit: ExitCodes.other, json: json)
    }
}

func fail(code: String, file: String?, message: String, exit: Int32, json: Bool) -> Never {
    if json {
        var object: [String: String] = ["code": code, "message": message]
        object["file"] = file
        Output.printJSON(["error": object])
    }
    let prefix = file.map { "\($0): " } ?? ""
    FileHandle.standardError.write(Data("kordant: error: \(prefix)\(message) [\(code)]\n".utf8))
    Foundation.exit(exit)
}
