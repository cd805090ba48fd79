import CSndfile
import Foundation

/// Sample encoding of a written WAV file.
public enum WAVEncoding: String, Sendable, Codable, CaseIterable {
    /// 16-bit signed PCM (the engine's canonical output).
    case pcm16
    /// 32-bit IEEE float.
    case float32
}

/// A streaming mono WAV writer (libsndfile). The header can be brought up to date at any moment
/// with ``updateHeader()``, so a file cut off mid-write is still a valid WAV up to that point.
///
/// Float input is converted to 16-bit by ``SampleKernels/toInt16(_:into:)`` (×32768, round to
/// nearest, saturate) rather than by libsndfile, whose ×32767 write scale does not invert its
/// ÷32768 read scale: with ours, reading a 16-bit file and writing it back is lossless.
public final class WAVWriter {
    public let path: String
    public let sampleRate: Int
    public let encoding: WAVEncoding
    public private(set) var framesWritten = 0
    private var handle: OpaquePointer?
    private let scratch: UnsafeMutableBufferPointer<Int16>

    public init(path: String, sampleRate: Int = EngineAudio.sampleRate, encoding: WAVEncoding = .pcm16) throws(AudioError) {
        var info = SF_INFO()
        info.samplerate = Int32(sampleRate)
        info.channels = 1
        info.format = Int32(SF_FORMAT_WAV) | Int32(encoding == .pcm16 ? SF_FORMAT_PCM_16 : SF_FORMAT_FLOAT)
        guard let h = sf_open(path, Int32(SFM_WRITE), &info) else {
            throw AudioError(.writeFailed, path: path, "cannot create: \(String(cString: sf_strerror(nil)))")
        }
        handle = h
        self.path = path
        self.sampleRate = sampleRate
        self.encoding = encoding
        scratch = .allocate(capacity: 8192)
    }

    deinit {
        if let handle { sf_close(handle) }
        scratch.deallocate()
    }

    /// Appends float samples in [-1, 1).
    public func write(_ samples: UnsafeBufferPointer<Float>) throws(AudioError) {
        guard let handle else { throw AudioError(.writeFailed, path: path, "writer is closed") }
        if encoding == .float32 {
            try check(sf_write_float(handle, samples.baseAddress, sf_count_t(samples.count)), samples.count)
            return
        }
        var offset = 0
        while offset < samples.count {
            let n = Swift.min(scratch.count, samples.count - offset)
            SampleKernels.toInt16(UnsafeBufferPointer(rebasing: samples[offset..<(offset + n)]), into: scratch)
            try check(sf_write_short(handle, scratch.baseAddress, sf_count_t(n)), n)
            offset += n
        }
    }

    /// Appends 16-bit samples exactly as given (the capture path uses this: no float round trip).
    public func write(_ samples: UnsafeBufferPointer<Int16>) throws(AudioError) {
        guard let handle else { throw AudioError(.writeFailed, path: path, "writer is closed") }
        try check(sf_write_short(handle, samples.baseAddress, sf_count_t(samples.count)), samples.count)
    }

    /// Rewrites the RIFF and data sizes for what has been written so far and flushes to the OS.
    public func updateHeader() {
        guard let handle else { return }
        sf_command(handle, Int32(SFC_UPDATE_HEADER_NOW), nil, 0)
        sf_write_sync(handle)
    }

    /// Finalises the header and closes the file. Further writes fail.
    public func close() throws(AudioError) {
        guard let h = handle else { return }
        handle = nil
        let rc = sf_close(h)
        if rc != 0 { throw AudioError(.writeFailed, path: path, "closing failed: \(String(cString: sf_error_number(rc)))") }
    }

    private func check(_ written: sf_count_t, _ expected: Int) throws(AudioError) {
        if Int(written) != expected {
            throw AudioError(.writeFailed, path: path, "write failed after \(framesWritten) frames: \(String(cString: sf_strerror(handle)))")
        }
        framesWritten += expected
    }
}

/// Converts any readable audio file to a mono WAV at 16 kHz (or another rate).
public enum AudioConverter {
    /// Converts `input` to `output`, streaming. The output is written to a temporary file in the
    /// same directory and renamed into place only when complete, so a failure leaves no partial file.
    @discardableResult
    public static func convert(
        input: String, output: String, sampleRate: Int = EngineAudio.sampleRate,
        encoding: WAVEncoding = .pcm16, options: AudioReadOptions = .init()
    ) throws -> DecodeSummary {
        let outURL = URL(fileURLWithPath: output)
        let temp = outURL.deletingLastPathComponent()
            .appendingPathComponent(".\(outURL.lastPathComponent).\(getpid()).partial").path
        do {
            let writer = try WAVWriter(path: temp, sampleRate: sampleRate, encoding: encoding)
            let summary = try AudioDecoder.stream(path: input, outputRate: sampleRate, options: options) { block in
                try writer.write(block)
            }
            try writer.close()
            guard rename(temp, output) == 0 else {
                throw AudioError(.writeFailed, path: output, "cannot move the finished file into place: \(String(cString: strerror(errno)))")
            }
            return summary
        } catch let error as AudioError where error.path == temp {
            unlink(temp)
            throw AudioError(error.kind, path: output, error.detail)
        } catch {
            unlink(temp)
            throw error
        }
    }
}
