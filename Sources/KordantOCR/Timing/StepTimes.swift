import Foundation

/// How long one step of a page's processing took (``OCROptions/stepClock``).
public struct StepTime: Sendable, Equatable {
    /// `load`, `render`, `mrz.locate`, `mrz.glyphs`, `mrz.cells`, `mrz.tesseract`, `mrz.decode`, `preprocess`,
    /// `recognize`, `median.retry`, `orientation`, `deskew.retry`, `unprocessed`, `pdf`, `reread`, `sparse`,
    /// `rejected`, `regions`, `glyph` (identity values read again glyph by glyph), `diacritics` or `fields`.
    public var step: String
    public var seconds: Double

    public init(step: String, seconds: Double) {
        self.step = step
        self.seconds = seconds
    }
}

extension OCROptions {
    /// A monotonic clock in seconds (what `kordant ocr --timings` uses).
    public static let monotonicSeconds: @Sendable () -> Double = { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }
}

/// The steps of one page (or document) as they run: each ``mark(_:)`` gives the time since the
/// previous mark to the named step. A class so the MRZ reader can add its steps to the page's
/// list; one per page and thread, never shared. Nil when timing is off, so the steps cost one
/// optional check each.
final class StepRecorder {
    private let now: @Sendable () -> Double
    private var last: Double
    private(set) var steps: [StepTime] = []

    init?(clock: (@Sendable () -> Double)?) {
        guard let clock else { return nil }
        now = clock
        last = clock()
    }

    /// The time since the previous mark goes to `step` (added to it when it ran before).
    func mark(_ step: String) {
        let t = now()
        let seconds = max(0, t - last)
        last = t
        if let i = steps.firstIndex(where: { $0.step == step }) { steps[i].seconds += seconds } else {
            steps.append(StepTime(step: step, seconds: seconds))
        }
    }
}
