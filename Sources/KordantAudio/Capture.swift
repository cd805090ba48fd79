import CALSA
import CKordantALSA
import Foundation

/// A capture-capable ALSA PCM, from ALSA's device hints.
public struct CaptureDeviceInfo: Sendable, Equatable, Codable {
    /// The PCM name to open, e.g. `default`, `sysdefault:CARD=USB`, `hw:1,0`.
    public var name: String
    /// ALSA's description (may span lines).
    public var description: String
}

/// Opens and reads an ALSA capture PCM, delivering 16 kHz mono 16-bit audio.
///
/// The device is asked for 16 kHz, mono, S16_LE, interleaved. When it settles on another rate
/// or channel count (a `hw:` device that only does 48 kHz stereo, say) the audio is converted
/// in-stream: mean downmix, libsoxr HQ resampling, ×32768 rounding, so callers always get the
/// engine's format. When the device delivers 16 kHz mono natively, samples pass through untouched.
///
/// Overruns (`-EPIPE`) and suspends (`-ESTRPIPE`) are recovered with `snd_pcm_recover`, counted
/// in ``overruns`` and ``suspends``, and never end a capture. Owns its `snd_pcm_t` and buffers.
public final class CaptureDevice {
    public let name: String
    /// What the device actually delivers.
    public let deviceRate: Int
    public let deviceChannels: Int
    /// Frames per read at the device rate.
    public let periodFrames: Int
    /// Output rate (16 kHz).
    public let sampleRate: Int
    public private(set) var overruns = 0
    public private(set) var suspends = 0

    private let pcm: OpaquePointer
    private let raw: UnsafeMutableBufferPointer<Int16>
    private let converter: Converter?

    /// Float path for devices that do not deliver 16 kHz mono.
    private final class Converter {
        let resampler: Resampler?
        let floats: UnsafeMutableBufferPointer<Float>
        let mono: UnsafeMutableBufferPointer<Float>
        let out: UnsafeMutableBufferPointer<Int16>
        init(rate: Int, channels: Int, periodFrames: Int, outputRate: Int) throws(AudioError) {
            resampler = rate == outputRate ? nil
                : try Resampler(inputRate: Double(rate), outputRate: Double(outputRate), maxInputBlock: periodFrames)
            floats = .allocate(capacity: periodFrames * channels)
            mono = .allocate(capacity: periodFrames)
            out = .allocate(capacity: Int((Double(periodFrames) * Double(outputRate) / Double(rate)).rounded(.up)) + 256)
        }
        deinit {
            floats.deallocate()
            mono.deallocate()
            out.deallocate()
        }
    }

    /// Opens `name` for capture.
    /// - Parameters:
    ///   - periodSeconds: how much audio one ``read(_:)`` returns (default 50 ms, one meter window).
    ///   - deviceRate, deviceChannels: ask the device for this format instead of 16 kHz mono
    ///     (for hardware that resamples poorly itself); the audio is converted in-stream.
    public init(
        name: String = "default", sampleRate: Int = EngineAudio.sampleRate, periodSeconds: Double = 0.05,
        deviceRate requestedRate: Int? = nil, deviceChannels requestedChannels: Int? = nil
    ) throws(AudioError) {
        kordant_alsa_silence()
        var handle: OpaquePointer?
        let rc = snd_pcm_open(&handle, name, SND_PCM_STREAM_CAPTURE, 0)
        guard rc >= 0, let handle else { throw Self.error(name, "cannot open capture device", rc) }
        var params: OpaquePointer?
        guard snd_pcm_hw_params_malloc(&params) >= 0, let params else {
            snd_pcm_close(handle)
            throw AudioError(.deviceFailed, path: name, "out of memory for ALSA parameters")
        }
        defer { snd_pcm_hw_params_free(params) }
        var channels = UInt32(requestedChannels ?? 1)
        var rate = UInt32(requestedRate ?? sampleRate)
        var dir: Int32 = 0
        var period = snd_pcm_uframes_t((Double(rate) * periodSeconds).rounded())
        var buffer = period * 8
        var step = "negotiate hardware parameters"
        var result = snd_pcm_hw_params_any(handle, params)
        if result >= 0 { step = "set interleaved access"; result = snd_pcm_hw_params_set_access(handle, params, SND_PCM_ACCESS_RW_INTERLEAVED) }
        if result >= 0 { step = "set 16-bit little-endian samples"; result = snd_pcm_hw_params_set_format(handle, params, SND_PCM_FORMAT_S16_LE) }
        if result >= 0 { step = "set channels"; result = snd_pcm_hw_params_set_channels_near(handle, params, &channels) }
        if result >= 0 { step = "set sample rate"; result = snd_pcm_hw_params_set_rate_near(handle, params, &rate, &dir) }
        if result >= 0 { step = "set period size"; result = snd_pcm_hw_params_set_period_size_near(handle, params, &period, &dir) }
        if result >= 0 { step = "set buffer size"; result = snd_pcm_hw_params_set_buffer_size_near(handle, params, &buffer) }
        if result >= 0 { step = "apply hardware parameters"; result = snd_pcm_hw_params(handle, params) }
        if result >= 0 { step = "read the negotiated period"; result = snd_pcm_hw_params_get_period_size(params, &period, &dir) }
        if result >= 0 { step = "prepare"; result = snd_pcm_prepare(handle) }
        guard result >= 0 else {
            snd_pcm_close(handle)
            throw Self.error(name, "cannot \(step)", result)
        }
        pcm = handle
        self.name = name
        self.sampleRate = sampleRate
        deviceRate = Int(rate)
        deviceChannels = Int(channels)
        periodFrames = max(1, Int(period))
        raw = .allocate(capacity: periodFrames * deviceChannels)
        do {
            converter = deviceRate == sampleRate && deviceChannels == 1 ? nil
                : try Converter(rate: deviceRate, channels: deviceChannels, periodFrames: periodFrames, outputRate: sampleRate)
        } catch {
            snd_pcm_close(handle)
            raw.deallocate()
            throw error
        }
    }

    deinit {
        snd_pcm_close(pcm)
        raw.deallocate()
    }

    /// Reads one period and hands the 16 kHz mono samples to `sink` (valid only during the call;
    /// may be empty while a resampler fills). Blocks until the device has a period.
    public func read(_ sink: (UnsafeBufferPointer<Int16>) throws -> Void) throws {
        var got = 0
        while got == 0 {
            let n = snd_pcm_readi(pcm, raw.baseAddress, snd_pcm_uframes_t(periodFrames))
            if n >= 0 { got = Int(n); if got == 0 { continue }; break }
            let err = Int32(n)
            if err == -EAGAIN || err == -EINTR { continue }
            if err == -EPIPE { overruns += 1 } else if err == -ESTRPIPE { suspends += 1 }
            let recovered = snd_pcm_recover(pcm, err, 1)
            if recovered < 0 { throw Self.error(name, "capture failed", recovered) }
        }
        guard let converter else {
            try sink(UnsafeBufferPointer(rebasing: raw[0..<got]))
            return
        }
        let samples = got * deviceChannels
        SampleKernels.fromInt16(UnsafeBufferPointer(rebasing: raw[0..<samples]), into: converter.floats)
        SampleKernels.downmix(UnsafeBufferPointer(rebasing: converter.floats[0..<samples]), channels: deviceChannels, into: converter.mono)
        let mono = UnsafeBufferPointer(rebasing: converter.mono[0..<got])
        func emit(_ block: UnsafeBufferPointer<Float>) throws {
            SampleKernels.toInt16(block, into: converter.out)
            try sink(UnsafeBufferPointer(rebasing: converter.out[0..<block.count]))
        }
        if let resampler = converter.resampler { try resampler.process(mono, emit) } else { try emit(mono) }
    }

    /// Live capture as an `AsyncSequence` of 16 kHz mono 16-bit buffers, for embedding apps.
    ///
    /// The device is opened and read on a dedicated thread (ALSA reads block); ending the
    /// iteration (or cancelling its task) stops the capture and closes the device. Open and
    /// capture errors arrive as ``AudioError`` thrown from the iteration. At most `buffered`
    /// buffers wait for the consumer; past that the capture thread waits, so a slow consumer
    /// shows up as counted device overruns, never as silently dropped buffers or unbounded memory.
    public static func stream(
        name: String = "default", periodSeconds: Double = 0.05, deviceRate: Int? = nil, deviceChannels: Int? = nil,
        buffered: Int = 200
    ) -> CaptureStream {
        let slots = BufferSlots(buffered)
        let base = AsyncThrowingStream<[Int16], any Error>(bufferingPolicy: .unbounded) { continuation in
            let stop = StopFlag()
            continuation.onTermination = { _ in
                stop.stop()
                slots.release()
            }
            let thread = Thread {
                do {
                    let device = try CaptureDevice(name: name, periodSeconds: periodSeconds,
                                                   deviceRate: deviceRate, deviceChannels: deviceChannels)
                    while !stop.isStopped {
                        try device.read { block in
                            guard block.count > 0 else { return }
                            while !slots.acquire(timeout: 0.1) {
                                if stop.isStopped { return }
                            }
                            continuation.yield(Array(block))
                        }
                    }
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            thread.name = "kordant.capture"
            thread.start()
        }
        return CaptureStream(base: base, slots: slots)
    }

    /// Capture-capable PCMs from ALSA's device hints (those whose IOID is absent or "Input").
    public static func list() -> [CaptureDeviceInfo] {
        kordant_alsa_silence()
        var hints: UnsafeMutablePointer<UnsafeMutableRawPointer?>?
        guard snd_device_name_hint(-1, "pcm", &hints) >= 0, let hints else { return [] }
        defer { snd_device_name_free_hint(hints) }
        func hint(_ h: UnsafeMutableRawPointer, _ key: String) -> String? {
            guard let p = snd_device_name_get_hint(h, key) else { return nil }
            defer { free(p) }
            return String(cString: p)
        }
        var result: [CaptureDeviceInfo] = []
        var i = 0
        while let h = hints[i] {
            i += 1
            guard let name = hint(h, "NAME") else { continue }
            let io = hint(h, "IOID")
            if io == nil || io == "Input" {
                result.append(CaptureDeviceInfo(name: name, description: hint(h, "DESC") ?? ""))
            }
        }
        return result
    }

    private static func error(_ name: String, _ what: String, _ code: Int32) -> AudioError {
        let alsa = String(cString: kordant_alsa_last_message())
        let reason = String(cString: snd_strerror(code))
        return AudioError(.deviceFailed, path: name, "\(what): \(reason)\(alsa.isEmpty ? "" : " (ALSA: \(alsa))")")
    }
}

/// Live capture buffers (16 kHz mono Int16), from ``CaptureDevice/stream(name:periodSeconds:deviceRate:deviceChannels:buffered:)``.
public struct CaptureStream: AsyncSequence, Sendable {
    public typealias Element = [Int16]
    let base: AsyncThrowingStream<[Int16], any Error>
    let slots: BufferSlots

    public struct AsyncIterator: AsyncIteratorProtocol {
        var inner: AsyncThrowingStream<[Int16], any Error>.AsyncIterator
        let slots: BufferSlots

        public mutating func next() async throws -> [Int16]? {
            let buffer = try await inner.next()
            // Each buffer taken frees a slot for the capture thread.
            if buffer != nil { slots.release() }
            return buffer
        }
    }

    public func makeAsyncIterator() -> AsyncIterator { AsyncIterator(inner: base.makeAsyncIterator(), slots: slots) }
}

/// A counting limit on buffers in flight between the capture thread and its consumer.
/// (DispatchSemaphore traps when released below its initial count, which a stopped stream does.)
final class BufferSlots: @unchecked Sendable {
    private let condition = NSCondition()
    private var free: Int

    init(_ count: Int) { free = count }

    /// Takes a slot, waiting at most `timeout` seconds; false if none came free.
    func acquire(timeout: Double) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        let deadline = Date(timeIntervalSinceNow: timeout)
        while free == 0 {
            if !condition.wait(until: deadline) { return false }
        }
        free -= 1
        return true
    }

    func release() {
        condition.lock()
        free += 1
        condition.signal()
        condition.unlock()
    }
}

/// A thread-safe stop request, set from a signal handler's queue or another task.
public final class StopFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var stopped = false

    public init() {}

    public func stop() { lock.withLock { stopped = true } }

    public var isStopped: Bool { lock.withLock { stopped } }
}
