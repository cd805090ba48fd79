import Foundation

/// One directory per test process for the files tests write, removed when the process exits, so
/// repeated runs do not fill `/tmp` (directories of processes that were killed are removed by the
/// next run).
public enum TestScratch {
    static let prefix = "kordant-test-"

    /// `$TMPDIR/kordant-test-<pid>`, made on first use.
    public static let directory: URL = {
        let tmp = FileManager.default.temporaryDirectory
        // Leftovers of test processes that no longer run (killed before their exit handler).
        for name in (try? FileManager.default.contentsOfDirectory(atPath: tmp.path)) ?? [] where name.hasPrefix(prefix) {
            if let pid = Int32(name.dropFirst(prefix.count)), pid != getpid(), kill(pid, 0) != 0, errno == ESRCH {
                try? FileManager.default.removeItem(at: tmp.appendingPathComponent(name))
            }
        }
        let dir = tmp.appendingPathComponent(prefix + String(getpid()))
        try? FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        atexit {
            let dir = FileManager.default.temporaryDirectory.appendingPathComponent(TestScratch.prefix + String(getpid()))
            try? FileManager.default.removeItem(at: dir)
        }
        return dir
    }()

    /// A path inside ``directory``.
    public static func path(_ name: String) -> String { directory.appendingPathComponent(name).path }
}
