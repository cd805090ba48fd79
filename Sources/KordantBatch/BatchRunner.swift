import Foundation
import KordantAPI
import KordantClient

/// What processing one item produced: its JSON object (the runner adds `key`), and whether it failed.
public struct BatchLine: Sendable {
    /// One JSON object, encoded (no newline). Kept as bytes so that an item's result is encoded
    /// once, by whoever knows its shape.
    public var json: Data
    /// The error code when the item could not be processed (bad file): counted by reason.
    public var failure: String?
    /// Queued in the outbox before the line is written (with `--submit`).
    public var submission: (OutboxPayload, [OutboxFile])?

    /// `fields` come first in the object, then the members of `json` (an encoded JSON object).
    public init(json: Data, fields: [(String, JSONValue)] = [], failure: String? = nil, submission: (OutboxPayload, [OutboxFile])? = nil) {
        self.json = Self.prepend(fields, to: json)
        self.failure = failure
        self.submission = submission
    }

    public init(object: [String: JSONValue], failure: String? = nil, submission: (OutboxPayload, [OutboxFile])? = nil) {
        self.init(json: JSONValue.object(object).data, failure: failure, submission: submission)
    }

    /// `{"a":1,` + the rest of `object` after its opening brace.
    static func prepend(_ fields: [(String, JSONValue)], to object: Data) -> Data {
        guard !fields.isEmpty, object.first == UInt8(ascii: "{") else { return object }
        var out = Data("{".utf8)
        for (i, (name, value)) in fields.enumerated() {
            if i > 0 { out.append(UInt8(ascii: ",")) }
            out.append(JSONValue.string(name).data)
            out.append(UInt8(ascii: ":"))
            out.append(value.data)
        }
        let rest = object.dropFirst()
        if rest.first(where: { !$0.isASCIIWhitespace }) != UInt8(ascii: "}") { out.append(UInt8(ascii: ",")) }
        out.append(contentsOf: rest)
        return out
    }
}

private extension UInt8 {
    var isASCIIWhitespace: Bool { self == 0x20 || self == 0x0A || self == 0x0D || self == 0x09 }
}

/// Counts as the batch goes.
public struct BatchProgress: Sendable {
    public var done = 0
    public var total = 0
    public var failed = 0
    /// Items already in the output file (resume).
    public var skipped = 0
    public var elapsed: TimeInterval = 0
    /// Items processed (not skipped) per second so far.
    public var rate: Double { elapsed > 0 ? Double(done - skipped) / elapsed : 0 }
    /// Seconds left at the current rate.
    public var eta: TimeInterval? { rate > 0 ? Double(total - done) / rate : nil }
}

/// The end of a batch.
public struct BatchSummary: Sendable, Encodable {
    /// Items in this shard of the input.
    public var total = 0
    /// Items of the whole input before sharding.
    public var inputTotal = 0
    public var processed = 0
    public var succeeded = 0
    public var failed = 0
    /// Items found done in the output file and skipped.
    public var skipped = 0
    /// Of those, items whose line is an error (they count in `failuresByReason` too).
    public var previouslyFailed = 0
    /// Some item of this shard has an error line, from this run or an earlier one.
    public var anyFailed: Bool { failed + previouslyFailed > 0 }
    public var failuresByReason: [String: Int] = [:]
    /// A partial last line (from a crash) was cut off the output file before resuming.
    public var repairedPartialLine = false
    public var submissionsQueued = 0
    public var elapsedSeconds = 0.0
    public var itemsPerSecond = 0.0
    public var jobs = 0
    public var shard: String?
}

/// Runs a batch on a pool of threads and writes one JSON line per item to the output file in
/// input order, whatever order the workers finish in.
///
/// Each thread makes its own worker (FFTW plans, a Tesseract handle) once and reuses it. Workers
/// run at most `window` items ahead of the writer, so memory stays bounded on any input size.
/// Each line is written with one `write(2)` in append mode, so a killed batch leaves complete lines
/// and at most one partial last line, which `resume` cuts off before it skips the items whose key
/// is already in the file.
public final class BatchRunner: @unchecked Sendable {
    public struct Configuration: Sendable {
        public var output: String
        public var jobs = ProcessInfo.processInfo.activeProcessorCount
        public var resume = false
        public var shard: Shard?
        /// With `--submit`: items' submissions are queued here before their line is written.
        public var outbox: Outbox?
        public init(output: String) { self.output = output }
    }

    public let configuration: Configuration

    public init(configuration: Configuration) { self.configuration = configuration }

    /// Runs `process` over `items` (after sharding). `makeWorker` runs once on each thread;
    /// if it throws, that thread's items get `workerFailed`. `progress` is called on the calling
    /// thread after each line.
    public func run<Worker>(
        _ allItems: [BatchItem],
        makeWorker: @escaping @Sendable () throws -> Worker,
        process: @escaping @Sendable (Worker, BatchItem) -> BatchLine,
        workerFailed: @escaping @Sendable (BatchItem, any Error) -> BatchLine,
        progress: (BatchProgress) -> Void = { _ in }
    ) throws -> BatchSummary {
        let items = configuration.shard.map { s in allItems.filter { s.contains($0) } } ?? allItems
        var summary = BatchSummary()
        summary.inputTotal = allItems.count
        summary.total = items.count
        summary.shard = configuration.shard?.description
        let jobs = max(1, min(configuration.jobs, max(1, items.count)))
        summary.jobs = jobs

        let (done, repaired) = try prepareOutput()
        summary.repairedPartialLine = repaired
        let fd = open(configuration.output, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw BatchInputError(path: configuration.output, message: "cannot write: \(String(cString: strerror(errno)))") }
        defer { close(fd) }

        let queue = OrderedQueue(count: items.count, window: jobs * 8)
        let started = Date()
        // Each thread says when it is done, its worker freed: the caller may exit the process as
        // soon as this returns, and a worker (a Tesseract handle) still being torn down then was
        // now and then reported by LeakSanitizer as leaked.
        let finished = DispatchSemaphore(value: 0)
        for _ in 0..<jobs {
            let thread = Thread {
                do {
                    var worker: Worker?
                    var startError: (any Error)?
                    do { worker = try makeWorker() } catch { startError = error }
                    while let i = queue.take() {
                        let item = items[i]
                        let key = item.key()
                        if let earlier = done[key] { queue.store(i, .skipped(failure: earlier)); continue }
                        var line = worker.map { process($0, item) } ?? workerFailed(item, startError!)
                        line.json = BatchLine.prepend([("key", .string(key))], to: line.json)
                        queue.store(i, .line(line))
                    }
                }
                finished.signal()
            }
            thread.stackSize = 8 << 20
            thread.start()
        }

        var state = BatchProgress(total: items.count)
        var lastSync = Date()
        for i in 0..<items.count {
            switch queue.next(i) {
            case .skipped(let failure):
                state.skipped += 1
                if let reason = failure {
                    summary.previouslyFailed += 1
                    summary.failuresByReason[reason, default: 0] += 1
                }
            case .line(let line):
                if let (payload, files) = line.submission, let outbox = configuration.outbox {
                    // Queued before the line is written: a crash in between repeats the work, and
                    // the outbox recognises the repeat by its clientRequestId.
                    if case .queued = try outbox.enqueue(payload, files: files) { summary.submissionsQueued += 1 }
                }
                var bytes = line.json
                bytes.append(0x0A)
                try writeAll(fd, bytes)
                if Date().timeIntervalSince(lastSync) > 1 { fsync(fd); lastSync = Date() }
                summary.processed += 1
                if let reason = line.failure {
                    state.failed += 1
                    summary.failuresByReason[reason, default: 0] += 1
                }
            }
            state.done = i + 1
            state.elapsed = Date().timeIntervalSince(started)
            progress(state)
        }
        fsync(fd)
        // Every item has been taken, so every thread ends.
        for _ in 0..<jobs { finished.wait() }
        summary.failed = state.failed
        summary.skipped = state.skipped
        summary.succeeded = summary.processed - summary.failed
        summary.elapsedSeconds = Date().timeIntervalSince(started)
        summary.itemsPerSecond = summary.elapsedSeconds > 0 ? Double(summary.processed) / summary.elapsedSeconds : 0
        return summary
    }

    /// Without resume: an empty output file. With resume: the keys already in it (with the error
    /// code of failed ones), after cutting
    /// off a partial last line.
    private func prepareOutput() throws -> ([String: String?], Bool) {
        let path = configuration.output
        guard configuration.resume, let data = FileManager.default.contents(atPath: path) else {
            guard FileManager.default.createFile(atPath: path, contents: nil) else {
                throw BatchInputError(path: path, message: "cannot create the output file")
            }
            return ([:], false)
        }
        var keys: [String: String?] = [:]
        let end = data.lastIndex(of: 0x0A).map { $0 + 1 } ?? data.startIndex
        for line in data[data.startIndex..<end].split(separator: 0x0A) {
            if let v = JSONValue(json: Data(line)), let key = v["key"]?.stringValue {
                // updateValue, not subscript assignment: assigning nil would remove the key.
                keys.updateValue(v["error"].map { $0["code"]?.stringValue ?? "error" }, forKey: key)
            }
        }
        let repaired = end < data.endIndex
        if repaired { guard truncate(path, off_t(end - data.startIndex)) == 0 else {
            throw BatchInputError(path: path, message: "cannot repair the partial last line: \(String(cString: strerror(errno)))")
        } }
        return (keys, repaired)
    }

    private func writeAll(_ fd: Int32, _ data: Data) throws {
        try data.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let n = write(fd, raw.baseAddress! + offset, raw.count - offset)
                if n < 0 {
                    if errno == EINTR { continue }
                    throw BatchInputError(path: configuration.output, message: "write failed: \(String(cString: strerror(errno)))")
                }
                offset += n
            }
        }
    }
}

/// Hands out indices to worker threads no further than `window` ahead of the writer, and gives
/// the writer results in index order.
private final class OrderedQueue: @unchecked Sendable {
    enum Slot { case skipped(failure: String?), line(BatchLine) }
    private let condition = NSCondition()
    private var nextIndex = 0
    private var written = 0
    private let count: Int
    private let window: Int
    private var slots: [Int: Slot] = [:]

    init(count: Int, window: Int) {
        self.count = count
        self.window = window
    }

    func take() -> Int? {
        condition.lock()
        defer { condition.unlock() }
        while nextIndex < count && nextIndex >= written + window { condition.wait() }
        guard nextIndex < count else { return nil }
        defer { nextIndex += 1 }
        return nextIndex
    }

    func store(_ i: Int, _ slot: Slot) {
        condition.lock()
        slots[i] = slot
        condition.broadcast()
        condition.unlock()
    }

    /// Blocks until item `i` is done; frees a place in the window.
    func next(_ i: Int) -> Slot {
        condition.lock()
        defer { condition.unlock() }
        while slots[i] == nil { condition.wait() }
        written = i + 1
        condition.broadcast()
        return slots.removeValue(forKey: i)!
    }
}
