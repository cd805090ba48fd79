import Foundation

/// Why a recording ended.
public enum RecordingStopReason: String, Sendable, Codable {
    /// The requested duration was reached.
    case duration
    /// A stop was requested (SIGINT/SIGTERM in the CLI, ``StopFlag/stop()`` in the library).
    case stopped
    /// The maximum file size was reached.
    case maxSize = "max_size"
}

/// What to record and when to stop.
public struct RecordingOptions: Sendable {
    public var device = "default"
    /// Stop after this many seconds of audio (nil: until stopped).
    public var duration: Double?
    /// Stop before the WAV file would exceed this many bytes (header included).
    public var maxBytes: Int?
    /// Level meter window (also the capture period).
    public var windowSeconds = 0.05
    /// Ask the device for this rate / channel count instead of 16 kHz mono; converted in-stream.
    public var deviceRate: Int?
    public var deviceChannels: Int?
    /// The WAV header is rewritten at least this often (wall clock) and after every this many
    /// seconds of audio, so a killed recording loses at most this much.
    public var headerInterval = 1.0

    public init(device: String = "default", duration: Double? = nil, maxBytes: Int? = nil, windowSeconds: Double = 0.05) {
        self.device = device
        self.duration = duration
        self.maxBytes = maxBytes
        self.windowSeconds = windowSeconds
    }
}

/// The outcome of a recording.
public struct RecordingSummary: Sendable, Equatable {
    public var path: String
    public var device: String
    public var deviceRate: Int
    public var deviceChannels: Int
    public var frames: Int
    public var duration: Double { Double(frames) / Double(EngineAudio.sampleRate) }
    public var overruns: Int
    public var suspends: Int
    public var stopReason: RecordingStopReason
    /// Whole-recording levels, as `kordant levels` would report them for the file.
    public var statistics: AudioStatistics
}

/// Records 16 kHz mono 16-bit WAV from an ALSA device, metering as it goes.
///
/// Crash safety: the file is written in place (no temporary file, no rename across devices) and
/// its header is brought up to date at least once a second, so after SIGKILL or a power cut it is
/// a valid WAV missing at most the last second.
public enum Recorder {
    /// Records until the duration or size limit is reached or `stop` is set; calls `onReading`
    /// with every meter reading (the same numbers `kordant levels` gives for the file).
    public static func record(
        to path: String, options: RecordingOptions, stop: StopFlag = StopFlag(),
        onReading: (LevelReading) -> Void = { _ in }
    ) throws -> RecordingSummary {
        let device = try CaptureDevice(name: options.device, periodSeconds: options.windowSeconds,
                                       deviceRate: options.deviceRate, deviceChannels: options.deviceChannels)
        let writer = try WAVWriter(path: path, sampleRate: device.sampleRate)
        var meter = LevelMeter(sampleRate: device.sampleRate, windowSeconds: options.windowSeconds)
        var stats = StatisticsAccumulator(sampleRate: device.sampleRate)
        let rate = device.sampleRate
        var limit = Int.max
        var limitReason = RecordingStopReason.stopped
        if let d = options.duration { limit = Int((d * Double(rate)).rounded()); limitReason = .duration }
        if let m = options.maxBytes, (m - 44) / 2 < limit { limit = max(0, (m - 44) / 2); limitReason = .maxSize }
        let headerFrames = max(1, Int(options.headerInterval * Double(rate)))
        let floats = UnsafeMutableBufferPointer<Float>.allocate(capacity: 1 << 16)
        defer { floats.deallocate() }
        var frames = 0
        var framesAtHeader = 0
        var lastHeader = Date()
        var reason = RecordingStopReason.stopped
        while true {
            if frames >= limit { reason = limitReason; break }
            if stop.isStopped { reason = .stopped; break }
            try device.read { block in
                let take = min(block.count, limit - frames)
                guard take > 0 else { return }
                let part = UnsafeBufferPointer(rebasing: block[0..<take])
                try writer.write(part)
                var offset = 0
                while offset < take {
                    let n = min(floats.count, take - offset)
                    SampleKernels.fromInt16(UnsafeBufferPointer(rebasing: part[offset..<(offset + n)]), into: floats)
                    let f = UnsafeBufferPointer(rebasing: floats[0..<n])
                    meter.process(f, emit: onReading)
                    stats.add(f)
                    offset += n
                }
                frames += take
            }
            if frames - framesAtHeader >= headerFrames || Date().timeIntervalSince(lastHeader) >= options.headerInterval {
                writer.updateHeader()
                framesAtHeader = frames
                lastHeader = Date()
            }
        }
        meter.finish(emit: onReading)
        try writer.close()
        return RecordingSummary(
            path: path, device: options.device, deviceRate: device.deviceRate, deviceChannels: device.deviceChannels,
            frames: frames, overruns: device.overruns, suspends: device.suspends, stopReason: reason,
            statistics: stats.statistics)
    }
}
