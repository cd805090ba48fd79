import Foundation

/// Exponential backoff with full jitter: attempt n waits a uniform random time in
/// [0, min(cap, base · 2ⁿ⁻¹)], so that many clients retrying after one outage spread out instead of
/// arriving together. A server's Retry-After is honoured (up to the cap).
public struct RetryPolicy: Sendable, Equatable {
    /// Attempts per call, the first included.
    public var maxAttempts = 5
    /// Seconds.
    public var base = 0.5
    /// Seconds.
    public var cap = 30.0

    public init(maxAttempts: Int = 5, base: Double = 0.5, cap: Double = 30) {
        self.maxAttempts = maxAttempts; self.base = base; self.cap = cap
    }

    /// Seconds to wait after failed attempt `attempt` (1-based).
    public func delay(after attempt: Int, retryAfter: Double? = nil, random: Double = Double.random(in: 0...1)) -> Double {
        if let retryAfter, retryAfter >= 0 { return min(cap, retryAfter) }
        let ceiling = min(cap, base * pow(2, Double(max(0, attempt - 1))))
        return ceiling * random
    }

    /// Parses a Retry-After header: delay-seconds or an HTTP-date.
    public static func parseRetryAfter(_ value: String?, now: Date = Date()) -> Double? {
        guard let value = value?.trimmingCharacters(in: .whitespaces), !value.isEmpty else { return nil }
        if let seconds = Double(value) { return max(0, seconds) }
        let f = DateFormatter()
        f.locale = Locale(identifier: "en_US_POSIX")
        f.timeZone = TimeZone(identifier: "GMT")
        f.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        return f.date(from: value).map { max(0, $0.timeIntervalSince(now)) }
    }
}
