/// The recent part of a signal arriving block by block: what frame-based streaming analyses
/// (``MFCCStream``, ``VoiceActivityStream``) keep of it. Owns one buffer sized once; appending
/// fills its free space, and ``discard(before:)`` drops what no later frame needs.
final class SampleWindow {
    private let storage: UnsafeMutableBufferPointer<Float>
    /// Signal index of ``samples``' first element.
    private(set) var origin = 0
    /// Samples received since the last ``reset()`` (the signal index one past ``samples``).
    private(set) var received = 0
    private var count = 0

    /// - Parameter capacity: a block's worth plus the longest span frames can still need.
    init(capacity: Int) { storage = .allocate(capacity: capacity) }

    deinit { storage.deallocate() }

    func reset() {
        origin = 0
        received = 0
        count = 0
    }

    /// The samples held, from signal index ``origin``.
    var samples: UnsafeBufferPointer<Float> { UnsafeBufferPointer(rebasing: storage[0..<count]) }

    /// Room for the next samples; fill a prefix, then call ``didAppend(_:)``.
    var freeSpace: UnsafeMutableBufferPointer<Float> { UnsafeMutableBufferPointer(rebasing: storage[count...]) }

    func didAppend(_ n: Int) {
        count += n
        received += n
    }

    /// Drops the samples before signal index `index` (clamped to what is held).
    func discard(before index: Int) {
        let keepFrom = min(received, max(origin, index))
        let drop = keepFrom - origin
        guard drop > 0 else { return }
        let keep = count - drop
        if keep > 0 { storage.baseAddress!.update(from: storage.baseAddress! + drop, count: keep) }
        count = keep
        origin = keepFrom
    }
}
