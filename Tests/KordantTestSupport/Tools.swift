import Foundation

/// Debian tools the tests check the engine's output with (poppler-utils, qpdf, chromium), found
/// on PATH. A test that needs one and finds none is skipped with a message naming the package
/// (`scripts/setup` installs them all).
public enum Tools {
    /// The executable `name` on PATH, or nil.
    public static func find(_ name: String) -> URL? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for dir in path.split(separator: ":") {
            let candidate = URL(fileURLWithPath: String(dir)).appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        return nil
    }

    /// Runs `tool` to the end (or kills it after `timeout` seconds) and returns its exit status,
    /// stdout and stderr. Every process started here is tracked and ended. `group`: the tool runs
    /// in a process group of its own (through setsid), and whatever is left of the group when it
    /// ends (a browser's helper processes) is killed with it.
    public static func run(_ tool: URL, _ arguments: [String], timeout: TimeInterval = 60, group: Bool = false) throws -> ProcessResult {
        let p = Process()
        // setsid execs the tool in place (the child is not a group leader), so the pid is the group's.
        p.executableURL = group ? URL(fileURLWithPath: "/usr/bin/setsid") : tool
        p.arguments = group ? [tool.path] + arguments : arguments
        let out = Pipe(), err = Pipe()
        p.standardOutput = out
        p.standardError = err
        try p.run()
        ChildProcesses.shared.track(p)
        // Read both pipes while it runs (a full pipe would stall it), and end it at the deadline.
        let collected = Collected()
        let readers = DispatchGroup()
        for (pipe, keyPath) in [(out, \Collected.stdout), (err, \Collected.stderr)] {
            readers.enter()
            DispatchQueue.global().async {
                let data = pipe.fileHandleForReading.readDataToEndOfFile()
                collected.set(keyPath, data)
                readers.leave()
            }
        }
        let pid = p.processIdentifier
        let deadline = Date().addingTimeInterval(timeout)
        while p.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
        if p.isRunning {
            if group { kill(-pid, SIGKILL) }
            ChildProcesses.end(p, grace: 1)
        }
        p.waitUntilExit()
        // Helpers that outlived the tool hold its pipes open: end them, then finish reading.
        if group { kill(-pid, SIGKILL) }
        readers.wait()
        return ProcessResult(status: p.terminationStatus, stdout: String(decoding: collected.stdout, as: UTF8.self),
                             stderr: String(decoding: collected.stderr, as: UTF8.self))
    }

    private final class Collected: @unchecked Sendable {
        private let lock = NSLock()
        var stdout = Data(), stderr = Data()
        func set(_ keyPath: ReferenceWritableKeyPath<Collected, Data>, _ data: Data) { lock.withLock { self[keyPath: keyPath] = data } }
    }

    /// Character error rate of `hypothesis` against `reference`, both with whitespace runs made
    /// one space (layout differs between renderings; the characters must not).
    public static func cer(_ hypothesis: String, _ reference: String) -> Double {
        func norm(_ s: String) -> [Character] { Array(s.split(whereSeparator: \.isWhitespace).joined(separator: " ")) }
        let a = norm(hypothesis), b = norm(reference)
        guard !b.isEmpty else { return a.isEmpty ? 0 : 1 }
        var previous = Array(0...b.count)
        for (i, ca) in a.enumerated() {
            var current = [i + 1] + Array(repeating: 0, count: b.count)
            for (j, cb) in b.enumerated() {
                current[j + 1] = min(previous[j + 1] + 1, current[j] + 1, previous[j] + (ca == cb ? 0 : 1))
            }
            previous = current
        }
        return Double(previous[b.count]) / Double(b.count)
    }
}
