import Foundation
import KordantClient

/// Virtual time for the client's backoffs and timeouts: it moves only when a sleep is
/// auto-advanced or the test calls ``advance(to:)``, never with the wall clock, so a loaded
/// machine can make a test slower but cannot change what it observes.
///
/// A sleep no longer than ``autoAdvance`` returns at once and moves the clock to its deadline
/// (backoffs in tests that are about something else); a longer one (a request timeout) waits
/// until the test advances the clock past it, or is cancelled.
final class VirtualClock: KordantClock, @unchecked Sendable {
    let autoAdvance: Duration
    private let lock = NSLock()
    private var current: Duration = .zero
    private var nextID = 0
    private var sleepers: [Int: (deadline: Duration, continuation: CheckedContinuation<Void, any Error>)] = [:]
    /// Sleeps cancelled before they were registered.
    private var cancelledEarly: Set<Int> = []
    /// Every sleep asked for, as (start, deadline), in order.
    private var requested: [(start: Duration, deadline: Duration)] = []

    init(autoAdvance: Duration = .zero) { self.autoAdvance = autoAdvance }

    var now: Duration { lock.withLock { current } }

    /// The sleeps asked for so far, as durations from when each was asked.
    var sleeps: [Duration] { lock.withLock { requested.map { $0.deadline - $0.start } } }

    /// Deadlines of the sleeps now waiting, earliest first.
    var pending: [Duration] { lock.withLock { sleepers.values.map(\.deadline).sorted() } }

    func sleep(until deadline: Duration) async throws {
        let id: Int = lock.withLock {
            nextID += 1
            requested.append((current, deadline))
            return nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (c: CheckedContinuation<Void, any Error>) in
                lock.lock()
                if cancelledEarly.remove(id) != nil {
                    lock.unlock()
                    c.resume(throwing: CancellationError())
                } else if deadline <= current {
                    lock.unlock()
                    c.resume()
                } else if deadline - current <= autoAdvance {
                    current = deadline
                    let due = takeDue()
                    lock.unlock()
                    c.resume()
                    for d in due { d.resume() }
                } else {
                    sleepers[id] = (deadline, c)
                    lock.unlock()
                }
            }
        } onCancel: {
            lock.lock()
            if let s = sleepers.removeValue(forKey: id) {
                lock.unlock()
                s.continuation.resume(throwing: CancellationError())
            } else {
                cancelledEarly.insert(id)
                lock.unlock()
            }
        }
    }

    /// Moves the clock to `instant` (never back) and wakes every sleep that is due.
    func advance(to instant: Duration) {
        lock.lock()
        current = max(current, instant)
        let due = takeDue()
        lock.unlock()
        for d in due { d.resume() }
    }

    func advance(by d: Duration) { advance(to: now + d) }

    /// Waits until a sleep is pending (its deadline) or `done` says no more will come (nil). No
    /// real-time limit: a starved machine (the whole suite on 2 cores once held this for minutes)
    /// only makes it slower; a true hang is the test runner's to catch.
    func waitForSleeper(unless done: Flag) async -> Duration? {
        while true {
            if let first = pending.first { return first }
            if done.isSet { return pending.first }
            try? await Task.sleep(for: .milliseconds(2))
        }
    }

    /// Callers hold the lock.
    private func takeDue() -> [CheckedContinuation<Void, any Error>] {
        let due = sleepers.filter { $0.value.deadline <= current }
        for id in due.keys { sleepers.removeValue(forKey: id) }
        return due.values.map(\.continuation)
    }
}

/// A flag one task sets and another polls.
final class Flag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    var isSet: Bool { lock.withLock { value } }
    func set() { lock.withLock { value = true } }
}

/// Polls `condition` until it holds; real time only bounds a hang (a loaded machine is slower,
/// not wrong), and the condition is checked once more after the bound.
func waitFor(limit: TimeInterval = 600, _ condition: () -> Bool) async -> Bool {
    let end = Date().addingTimeInterval(limit)
    while Date() < end {
        if condition() { return true }
        try? await Task.sleep(for: .milliseconds(5))
    }
    return condition()
}
