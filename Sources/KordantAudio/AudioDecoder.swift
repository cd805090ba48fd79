/// The engine's canonical audio: mono Float32 at 16 kHz.
public enum EngineAudio {
    public static let sampleRate = 16_000
}

/// What a decode produced, beside the samples.
public struct DecodeSummary: Sendable, Equatable {
    /// The source file as its header describes it.
    public var source: AudioFormatInfo
    /// Frames actually decoded from the source.
    public var sourceFramesDecoded: Int
    /// Mono samples delivered at ``outputRate``.
    public var outputSamples: Int
    public var outputRate: Int
    /// The source was shorter than its header claimed (only with `allowTruncated`).
    public var truncated: Bool
}

/// Decoded mono audio held in memory.
public struct MonoAudio: Sendable {
    public var samples: [Float]
    public var sampleRate: Int
    public var summary: DecodeSummary
    public var duration: Double { Double(samples.count) / Double(sampleRate) }
}

/// Streams a file through decode → downmix (mean of channels) → resample (libsoxr HQ), in
/// fixed-size blocks: memory use is a few hundred KB whatever the file's length or header.
///
/// Opening validates the header, so ``source`` and ``outputRate`` are known before any audio is
/// decoded; ``run(_:)`` then delivers the audio once.
public final class MonoDecoder {
    /// Below this input rate nothing is resampled (no audio format records speech so slowly).
    public static let lowestResampledRate = 1000
    public let source: AudioFormatInfo
    public let outputRate: Int
    private let reader: AudioFileReader
    private let resampler: Resampler?

    /// - Parameter outputRate: the rate to deliver, or nil for the file's own rate (no resampling).
    public init(path: String, outputRate: Int? = EngineAudio.sampleRate, options: AudioReadOptions = .init()) throws(AudioError) {
        reader = try AudioFileReader(path: path, options: options)
        source = reader.info
        self.outputRate = outputRate ?? reader.info.sampleRate
        // A 100-byte FLAC declaring 4 Hz became 1.6 GB at 16 kHz (found by FuzzWAV): rates below
        // any audio's are refused rather than blown up thousands of times.
        if self.outputRate != reader.info.sampleRate && reader.info.sampleRate < MonoDecoder.lowestResampledRate {
            throw AudioError(.invalidHeader, path: path, "sample rate of \(reader.info.sampleRate) Hz: below \(MonoDecoder.lowestResampledRate) Hz, "
                             + "the lowest the engine resamples from")
        }
        resampler = self.outputRate == reader.info.sampleRate ? nil
            : try Resampler(inputRate: Double(reader.info.sampleRate), outputRate: Double(self.outputRate),
                            maxInputBlock: reader.blockFrames)
    }

    /// Decodes to the end, handing mono blocks to `sink`. Blocks are only valid during the call.
    @discardableResult
    public func run(_ sink: (UnsafeBufferPointer<Float>) throws -> Void) throws -> DecodeSummary {
        let channels = source.channels
        let interleaved = UnsafeMutableBufferPointer<Float>.allocate(capacity: reader.blockFrames * channels)
        let mono = channels == 1 ? interleaved : .allocate(capacity: reader.blockFrames)
        defer {
            interleaved.deallocate()
            if channels != 1 { mono.deallocate() }
        }
        var produced = 0
        func counted(_ block: UnsafeBufferPointer<Float>) throws {
            produced += block.count
            try sink(block)
        }
        while true {
            let frames = try reader.read(into: interleaved)
            if frames == 0 { break }
            if channels != 1 {
                SampleKernels.downmix(UnsafeBufferPointer(rebasing: interleaved[0..<(frames * channels)]),
                                      channels: channels, into: mono)
            }
            let block = UnsafeBufferPointer(rebasing: mono[0..<frames])
            if let resampler { try resampler.process(block, counted) } else { try counted(block) }
        }
        try resampler?.flush(counted)
        return DecodeSummary(source: source, sourceFramesDecoded: reader.framesDecoded,
                             outputSamples: produced, outputRate: outputRate, truncated: reader.truncated)
    }
}

/// One-call conveniences over ``MonoDecoder``.
public enum AudioDecoder {
    /// Decodes `path` and hands mono blocks at `outputRate` (or the file's own rate when nil) to `sink`.
    @discardableResult
    public static func stream(
        path: String, outputRate: Int? = EngineAudio.sampleRate, options: AudioReadOptions = .init(),
        sink: (UnsafeBufferPointer<Float>) throws -> Void
    ) throws -> DecodeSummary {
        try MonoDecoder(path: path, outputRate: outputRate, options: options).run(sink)
    }

    /// Decodes the whole file into memory as mono at `outputRate` (default 16 kHz).
    public static func load(path: String, outputRate: Int? = EngineAudio.sampleRate,
                            options: AudioReadOptions = .init()) throws -> MonoAudio {
        let decoder = try MonoDecoder(path: path, outputRate: outputRate, options: options)
        // Room for what the header promises (resampling adds at most a few samples), so the
        // array is not grown and copied while decoding; bounded, since a header can claim anything.
        let expected = Double(max(0, decoder.source.frames)) * Double(decoder.outputRate) / Double(decoder.source.sampleRate)
        var samples: [Float] = []
        samples.reserveCapacity(Int(min(expected, Double(1 << 26))) + 1024)
        let summary = try decoder.run { block in
            samples.append(contentsOf: block)
        }
        return MonoAudio(samples: samples, sampleRate: summary.outputRate, summary: summary)
    }
}
