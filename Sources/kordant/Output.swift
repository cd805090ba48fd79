import Foundation

/// Terminal output. The CLI is the only place that prints.
enum Output {
    static func printJSON<T: Encodable>(_ value: T) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(value) else { return }
        FileHandle.standardOutput.write(data)
        FileHandle.standardOutput.write(Data("\n".utf8))
    }

    /// Human output: a file's warnings (see `AudioFormatInfo.warnings`), one stderr line each, so
    /// they never mix into data on stdout. JSON output carries them as a `warnings` array instead.
    static func warn(_ file: String, _ warnings: [String]) {
        for w in warnings { FileHandle.standardError.write(Data("kordant: warning: \(file): \(w)\n".utf8)) }
    }

    /// nil for no warnings, so JSON output only grows a `warnings` key when there is one.
    static func warnings(_ w: [String]) -> [String]? { w.isEmpty ? nil : w }

    /// Rounds for display and JSON so that output is stable and readable (0.001 dB is far below
    /// anything audible or any threshold we apply).
    /// (`+ 0` turns -0.0 into 0, so a level just below 0 dB prints as 0, not -0.)
    static func r3(_ x: Double) -> Double { (x * 1000).rounded() / 1000 + 0 }
    static func r6(_ x: Double) -> Double { (x * 1_000_000).rounded() / 1_000_000 + 0 }

    static func table(_ rows: [(String, String)]) -> String {
        let width = rows.map(\.0.count).max() ?? 0
        return rows.map { $0.0.padding(toLength: width + 2, withPad: " ", startingAt: 0) + $0.1 }.joined(separator: "\n")
    }
}
