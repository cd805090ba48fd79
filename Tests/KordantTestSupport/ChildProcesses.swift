import Foundation

/// Every process the tests start, so each one ends even when its test fails: a test ends its
/// children itself (``end(_:grace:)`` in a `defer`), and whatever is still running when the test
/// process exits is killed then.
public final class ChildProcesses: @unchecked Sendable {
    public static let shared = ChildProcesses()
    private let lock = NSLock()
    private var processes: [Process] = []

    private init() {
        // A test that threw past its cleanup, or a suite that stopped early, must not leave servers behind.
        atexit { ChildProcesses.shared.killAll() }
    }

    /// Remembers `process` (already running) until the test process exits.
    public func track(_ process: Process) {
        lock.withLock {
            processes.removeAll { !$0.isRunning }
            processes.append(process)
        }
    }

    /// SIGTERM, up to `grace` seconds to exit, then SIGKILL; returns once the process is reaped.
    /// (Children inherit the spawning thread's signal mask, where SIGTERM may be blocked: only a
    /// child that takes it anyway (`kordant` reads it through Dispatch; the tests' Python helper
    /// unblocks it) exits on SIGTERM;
    /// SIGKILL ends the rest.)
    public static func end(_ process: Process, grace: TimeInterval = 5) {
        guard process.isRunning else { return }
        kill(process.processIdentifier, SIGTERM)
        let limit = Date().addingTimeInterval(grace)
        while process.isRunning && Date() < limit { Thread.sleep(forTimeInterval: 0.01) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }

    private func killAll() {
        let running = lock.withLock { processes.filter(\.isRunning) }
        // No waiting at exit (Foundation's reaper may be gone); init reaps what SIGKILL ends.
        for p in running { kill(p.processIdentifier, SIGKILL) }
    }
}
