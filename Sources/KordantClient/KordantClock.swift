import Foundation

/// The monotonic time the client's retries, backoffs and timeouts run on.
///
/// Production uses ``SystemClock`` (Swift's `ContinuousClock`). Tests inject a virtual clock
/// whose time moves only when the test advances it, so backoff and timeout logic is exercised
/// without depending on how fast a loaded machine schedules threads. Instants are durations since
/// an origin the clock chooses.
public protocol KordantClock: Sendable {
    /// Time since the clock's origin; never goes backwards.
    var now: Duration { get }
    /// Returns once ``now`` has reached `deadline` (at once if it has already); throws
    /// `CancellationError` when the calling task is cancelled first.
    func sleep(until deadline: Duration) async throws
}

extension KordantClock {
    /// Sleeps for `duration` from ``now``.
    public func sleep(for duration: Duration) async throws {
        try await sleep(until: now + duration)
    }
}

/// Real monotonic time: `ContinuousClock`, which keeps counting while the machine sleeps, so a
/// backoff or timeout is never stretched by a suspended laptop.
public struct SystemClock: KordantClock {
    private let origin: ContinuousClock.Instant

    public init() { origin = .now }

    public var now: Duration { ContinuousClock.now - origin }

    public func sleep(until deadline: Duration) async throws {
        try await ContinuousClock().sleep(until: origin + deadline, tolerance: nil)
    }
}

extension Duration {
    /// Seconds as a `Double` (for logging and the configuration's seconds).
    var seconds: Double {
        let (s, atto) = components
        return Double(s) + Double(atto) * 1e-18
    }

    /// A duration of `seconds`, clamped to what `Duration` holds (a configuration can say anything).
    static func seconds(clamped seconds: Double) -> Duration {
        guard seconds.isFinite else { return seconds > 0 ? .seconds(Int64.max / 4) : .zero }
        return .nanoseconds(Int64((max(0, min(seconds, 1e9)) * 1e9).rounded()))
    }
}
