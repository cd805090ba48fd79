import Foundation
import KordantAudio

/// A recording prepared for voice analysis: 16 kHz mono samples, plus what only the original
/// samples can tell (clipping is judged before resampling, which would round off flat tops).
public struct VoiceInput: Sendable {
    public var samples: [Float]
    public var sampleRate: Int { EngineAudio.sampleRate }
    public var source: AudioFormatInfo
    /// Levels of the original (mono downmix, native rate).
    public var original: AudioStatistics
    /// Longest run of consecutive full-scale samples (|x| ≥ 32767/32768) in the original.
    public var longestFullScaleRun: Int
    public var duration: Double { Double(samples.count) / Double(sampleRate) }

    /// Magnitude at or above which a sample is at 16-bit full scale.
    public static let fullScale: Float = 32767 / 32768

    /// Decodes any format in one pass: native-rate statistics and full-scale runs, and libsoxr
    /// conversion to 16 kHz.
    public static func load(path: String, options: AudioReadOptions = .init()) throws -> VoiceInput {
        let decoder = try MonoDecoder(path: path, outputRate: nil, options: options)
        let rate = decoder.outputRate
        let resampler = rate == EngineAudio.sampleRate ? nil
            : try Resampler(inputRate: Double(rate), outputRate: Double(EngineAudio.sampleRate), maxInputBlock: 1 << 16)
        var stats = StatisticsAccumulator(sampleRate: rate)
        var samples: [Float] = []
        // Room for what the header promises, up to two minutes (a header can claim anything):
        // growing by doubling copied each clip about twice.
        let expected = Double(max(0, decoder.source.frames)) * Double(EngineAudio.sampleRate) / Double(max(1, rate))
        samples.reserveCapacity(Int(min(expected, Double(120 * EngineAudio.sampleRate))) + 1024)
        var run = 0, longest = 0
        try decoder.run { block in
            stats.add(block)
            fullScaleRuns(block, run: &run, longest: &longest)
            if let resampler { try resampler.process(block) { samples.append(contentsOf: $0) } } else { samples.append(contentsOf: block) }
        }
        try resampler?.flush { samples.append(contentsOf: $0) }
        return VoiceInput(samples: samples, source: decoder.source, original: stats.statistics, longestFullScaleRun: longest)
    }

    /// Continues the count of consecutive full-scale samples over `x`. Eight samples at a time
    /// while no run is open and none of the eight is at full scale (almost always), one at a time
    /// otherwise: a per-sample branch over every decoded sample was a visible share of loading.
    @inline(__always)
    static func fullScaleRuns(_ x: UnsafeBufferPointer<Float>, run: inout Int, longest: inout Int) {
        guard let base = x.baseAddress else { return }
        let raw = UnsafeRawPointer(base)
        let n = x.count
        let limit = SIMD8<Float>(repeating: fullScale)
        var i = 0
        while i < n {
            if run == 0 && i &+ 8 <= n {
                let v = raw.loadUnaligned(fromByteOffset: i &* 4, as: SIMD8<Float>.self)
                let magnitude = unsafeBitCast(unsafeBitCast(v, to: SIMD8<UInt32>.self) & 0x7FFF_FFFF, to: SIMD8<Float>.self)
                if !any(magnitude .>= limit) {
                    i &+= 8
                    continue
                }
            }
            if abs(base[i]) >= fullScale {
                run &+= 1
                longest = max(longest, run)
            } else {
                run = 0
            }
            i &+= 1
        }
    }
}

/// Every threshold of the enrollment quality check, in one value callers can override.
public struct QualityPolicy: Sendable, Hashable, Codable {
    /// Seconds of recording at least.
    public var minimumDuration = 5.0
    /// Seconds of detected speech at least.
    public var minimumSpeech = 3.0
    /// RMS dBFS of speech frames at least.
    public var minimumSpeechLevelDB = -40.0
    /// Fraction of samples with |x| ≥ 0.999 below this.
    public var maximumClippedFraction = 0.001
    /// A run of this many consecutive full-scale samples is clipping.
    public var fullScaleRun = 3
    /// SNR in dB at least.
    public var minimumSNRDB = 15.0
    /// Below-100 Hz hum or rumble at or above this level (dBFS)…
    public var humWarningLevelDB = -55.0
    /// …and this far above the speech-band noise is a `hum` warning (a steady broadband noise is
    /// not hum).
    public var humAboveNoiseDB = 10.0
    /// Hum within this many dB of the speech level masks the voice: `too_noisy`.
    public var humMaskingMarginDB = 10.0
    /// A mean sample value at or above this magnitude (≈ -46 dBFS) is a `dc_offset` warning. On the
    /// real speech set the largest is 0.001.
    public var dcOffsetWarning = 0.005

    public init() {}
}

/// Something worth fixing that does not stop the recording from being used. Raw values are stable
/// API (JSON `quality_warnings[].code`).
public enum QualityWarningCode: String, Sendable, Codable, CaseIterable {
    /// Mains hum or rumble below 100 Hz (removed before the SNR and the VAD).
    case hum
    /// The samples are not centred on zero (removed before the SNR and the VAD).
    case dcOffset = "dc_offset"
}

/// A warning with its measured level.
public struct QualityWarning: Sendable, Equatable, Codable {
    public var code: QualityWarningCode
    /// dBFS: the hum's RMS level, or the offset as 20·log10|mean|.
    public var levelDB: Double
    public var message: String
}

/// Why a sample fails. Raw values are stable API (JSON `reasons`).
public enum QualityReason: String, Sendable, Codable, CaseIterable {
    case tooShort = "too_short"
    case insufficientSpeech = "insufficient_speech"
    case noSpeech = "no_speech"
    case tooQuiet = "too_quiet"
    case clipping
    case tooNoisy = "too_noisy"
}

/// The verdict on one enrollment sample and every measurement behind it.
public struct QualityReport: Sendable, Equatable {
    public var pass: Bool { reasons.isEmpty }
    public var reasons: [QualityReason]
    /// One sentence per reason, for the app to show.
    public var messages: [QualityReason: String]
    public var durationSeconds: Double
    public var speechSeconds: Double
    public var speechRatio: Double
    public var speechLevelDB: Double?
    public var peakDB: Double
    public var clippedFraction: Double
    public var longestFullScaleRun: Int
    public var snrDB: Double?
    public var segments: [SpeechSegment]
    public var source: AudioFormatInfo
    public var policy: QualityPolicy
    /// `hum` and `dc_offset` when present (they do not fail the check unless hum masks speech).
    public var warnings: [QualityWarning] = []
    /// RMS dBFS below 100 Hz away from speech (see ``VoiceActivity/humLevelDB``).
    public var humLevelDB: Double = Decibels.floor
    /// Mean sample value.
    public var dcOffset: Double = 0
}

/// One streaming pass over a recording for the voice checks: what the quality check and the
/// enrollment need, without holding the audio.
public struct SampleAnalysis: Sendable {
    public var source: AudioFormatInfo
    /// Levels of the original (mono downmix, native rate).
    public var original: AudioStatistics
    /// Longest run of consecutive full-scale samples (|x| ≥ 32767/32768) in the original.
    public var longestFullScaleRun: Int
    /// Samples after conversion to 16 kHz.
    public var samples: Int
    public var activity: VoiceActivity
    public var duration: Double { Double(samples) / Double(EngineAudio.sampleRate) }

    /// Decodes `path` block by block: native-rate statistics and full-scale runs, libsoxr to
    /// 16 kHz, voice activity (``VoiceActivityStream``), and MFCCs into `mfcc` when one is given
    /// (reset here). Memory stays flat as files grow: a few hundred KB of blocks plus the VAD's
    /// per-frame summaries (and the MFCC rows). The results equal those of ``VoiceInput/load(path:options:)``
    /// followed by ``QualityCheck/check(_:policy:vad:)`` and MFCCs of the samples.
    public static func run(path: String, options: AudioReadOptions = .init(), vad: VADOptions = .init(),
                           activityStream: VoiceActivityStream? = nil, mfcc: MFCCStream? = nil) throws -> SampleAnalysis {
        let decoder = try MonoDecoder(path: path, outputRate: nil, options: options)
        let rate = decoder.outputRate
        let resampler = rate == EngineAudio.sampleRate ? nil
            : try Resampler(inputRate: Double(rate), outputRate: Double(EngineAudio.sampleRate), maxInputBlock: 1 << 16)
        let expected = Int(min(Double(max(0, decoder.source.frames)) * Double(EngineAudio.sampleRate) / Double(max(1, rate)), 1e12))
        let vadStream = activityStream.flatMap { $0.options == vad && $0.sampleRate == EngineAudio.sampleRate ? $0 : nil }
            ?? VoiceActivityStream(sampleRate: EngineAudio.sampleRate, options: vad, expectedSamples: expected)
        vadStream.reset(expectedSamples: expected)
        mfcc?.reset(expectedSamples: expected)
        var stats = StatisticsAccumulator(sampleRate: rate)
        var run = 0, longest = 0, count = 0
        func deliver(_ block: UnsafeBufferPointer<Float>) {
            count += block.count
            vadStream.add(block)
            mfcc?.add(block)
        }
        try decoder.run { block in
            stats.add(block)
            VoiceInput.fullScaleRuns(block, run: &run, longest: &longest)
            if let resampler { try resampler.process(block, deliver) } else { deliver(block) }
        }
        try resampler?.flush(deliver)
        return SampleAnalysis(source: decoder.source, original: stats.statistics, longestFullScaleRun: longest,
                             samples: count, activity: vadStream.finish())
    }
}

public enum QualityCheck {
    /// Decodes `path` (any format) and checks it, streaming (see ``SampleAnalysis``).
    public static func check(path: String, policy: QualityPolicy = .init(), vad: VADOptions = .init()) throws -> QualityReport {
        check(try SampleAnalysis.run(path: path, vad: vad), policy: policy)
    }

    /// Checks decoded input; also returns the voice activity so callers (enrollment) reuse it.
    public static func check(_ input: VoiceInput, policy p: QualityPolicy = .init(), vad options: VADOptions = .init())
        -> (report: QualityReport, activity: VoiceActivity)
    {
        let activity = VoiceActivityDetector.analyse(input.samples, sampleRate: input.sampleRate, options: options)
        let analysis = SampleAnalysis(source: input.source, original: input.original, longestFullScaleRun: input.longestFullScaleRun,
                                     samples: input.samples.count, activity: activity)
        return (check(analysis, policy: p), activity)
    }

    /// The verdict on a streamed analysis.
    public static func check(_ input: SampleAnalysis, policy p: QualityPolicy = .init()) -> QualityReport {
        let activity = input.activity
        var reasons: [QualityReason] = []
        var messages: [QualityReason: String] = [:]
        func fail(_ r: QualityReason, _ message: String) {
            reasons.append(r)
            messages[r] = message
        }
        let duration = input.duration
        if duration < p.minimumDuration {
            fail(.tooShort, String(format: "The recording is %.1f s long; record at least %.0f s.", duration, p.minimumDuration))
        }
        if activity.segments.isEmpty {
            fail(.noSpeech, "No speech was detected. Check the microphone and speak clearly.")
        } else {
            if activity.speechSeconds < p.minimumSpeech {
                fail(.insufficientSpeech, String(format: "Only %.1f s of speech was detected; speak for at least %.0f s.",
                                                 activity.speechSeconds, p.minimumSpeech))
            }
            if let level = activity.speechLevelDB, level < p.minimumSpeechLevelDB {
                fail(.tooQuiet, String(format: "Speech is too quiet (%.1f dBFS); move closer to the microphone.", level))
            }
        }
        let clipped = input.original.clippedFraction >= p.maximumClippedFraction || input.longestFullScaleRun >= p.fullScaleRun
        if clipped {
            fail(.clipping, String(format: "The recording is clipped (%.2f %% of samples at full scale); speak softer or move back.",
                                   input.original.clippedFraction * 100))
        }
        let hum = activity.humLevelDB
        if let snr = activity.snrDB, !activity.segments.isEmpty, snr < p.minimumSNRDB {
            fail(.tooNoisy, String(format: "Background noise is too loud (SNR %.1f dB); record somewhere quieter.", snr))
        } else if let level = activity.speechLevelDB, !activity.segments.isEmpty, hum > level - p.humMaskingMarginDB {
            fail(.tooNoisy, String(format: "Low-frequency hum (%.1f dBFS) is nearly as loud as the speech (%.1f dBFS); "
                                   + "move away from mains-powered equipment or fans.", hum, level))
        }
        var warnings: [QualityWarning] = []
        if hum >= p.humWarningLevelDB && hum >= activity.noiseLevelDB + p.humAboveNoiseDB {
            warnings.append(QualityWarning(code: .hum, levelDB: hum, message: String(
                format: "Hum or rumble below 100 Hz at %.1f dBFS (removed before the checks); mains-powered equipment, fans or handling noise.", hum)))
        }
        if abs(activity.dcOffset) >= p.dcOffsetWarning {
            let level = Decibels.amplitude(abs(activity.dcOffset))
            warnings.append(QualityWarning(code: .dcOffset, levelDB: level, message: String(
                format: "The signal has a DC offset of %.4f (%.1f dBFS; removed before the checks); the microphone input may be faulty.",
                activity.dcOffset, level)))
        }
        var report = QualityReport(
            reasons: reasons, messages: messages, durationSeconds: duration, speechSeconds: activity.speechSeconds,
            speechRatio: duration > 0 ? activity.speechSeconds / duration : 0, speechLevelDB: activity.speechLevelDB,
            peakDB: input.original.peakPower, clippedFraction: input.original.clippedFraction,
            longestFullScaleRun: input.longestFullScaleRun, snrDB: activity.snrDB, segments: activity.segments,
            source: input.source, policy: p)
        report.warnings = warnings
        report.humLevelDB = hum
        report.dcOffset = activity.dcOffset
        return report
    }
}
