import CSndfile
import Foundation

/// What an audio file is, as declared by its header and confirmed by libsndfile.
public struct AudioFormatInfo: Sendable, Equatable, Codable {
    /// The file's path as given.
    public var path: String
    /// Container, e.g. `WAV`, `FLAC`, `OGG`, `AIFF` (libsndfile's major format, short name).
    public var container: String
    /// Sample encoding, e.g. `PCM_16`, `FLOAT`, `ULAW`, `VORBIS`.
    public var encoding: String
    /// libsndfile's full description of both, e.g. "WAV (Microsoft), Signed 16 bit PCM".
    public var formatDescription: String
    public var sampleRate: Int
    public var channels: Int
    /// Frames the header declares (libsndfile's count, after its own clamping).
    public var frames: Int
    /// What the reader did about a questionable but readable header, one sentence each (for
    /// example a data size of 0xFFFFFFFF read to the end of the file). Every command shows them.
    public var warnings: [String] = []
    public var duration: Double { sampleRate > 0 ? Double(frames) / Double(sampleRate) : 0 }

    enum CodingKeys: String, CodingKey {
        case path, container, encoding, formatDescription = "format_description", sampleRate = "sample_rate"
        case channels, frames, warnings
    }

    public init(path: String, container: String, encoding: String, formatDescription: String,
                sampleRate: Int, channels: Int, frames: Int, warnings: [String] = []) {
        self.path = path
        self.container = container
        self.encoding = encoding
        self.formatDescription = formatDescription
        self.sampleRate = sampleRate
        self.channels = channels
        self.frames = frames
        self.warnings = warnings
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(path: try c.decode(String.self, forKey: .path), container: try c.decode(String.self, forKey: .container),
                  encoding: try c.decode(String.self, forKey: .encoding),
                  formatDescription: try c.decode(String.self, forKey: .formatDescription),
                  sampleRate: try c.decode(Int.self, forKey: .sampleRate), channels: try c.decode(Int.self, forKey: .channels),
                  frames: try c.decode(Int.self, forKey: .frames),
                  warnings: try c.decodeIfPresent([String].self, forKey: .warnings) ?? [])
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(path, forKey: .path)
        try c.encode(container, forKey: .container)
        try c.encode(encoding, forKey: .encoding)
        try c.encode(formatDescription, forKey: .formatDescription)
        try c.encode(sampleRate, forKey: .sampleRate)
        try c.encode(channels, forKey: .channels)
        try c.encode(frames, forKey: .frames)
        if !warnings.isEmpty { try c.encode(warnings, forKey: .warnings) }
    }
}

extension DecodeSummary {
    /// The source's warnings (see ``AudioFormatInfo/warnings``).
    public var warnings: [String] { source.warnings }
}

extension MonoAudio {
    /// The source's warnings (see ``AudioFormatInfo/warnings``).
    public var warnings: [String] { summary.source.warnings }
}

/// Limits that keep hostile headers from driving allocation or work.
public struct AudioReadOptions: Sendable {
    /// Keep the readable part of a file whose header claims more data than it holds, instead of
    /// failing with ``AudioError/Kind/truncated``.
    public var allowTruncated = false
    /// Channel counts above this are refused as implausible (libsndfile itself allows 1024).
    public var maxChannels = 256
    /// Sample rates above this are refused as implausible.
    public var maxSampleRate = 768_000

    public init(allowTruncated: Bool = false) { self.allowTruncated = allowTruncated }
}

/// A libsndfile reader. Owns its `SNDFILE*` and closes it on deinit.
///
/// Reads interleaved Float32 blocks; integer formats come back normalised to [-1, 1) (16-bit
/// values are divided by 32768). Buffers are sized from ``blockFrames``, never from the header.
public final class AudioFileReader {
    public let info: AudioFormatInfo
    /// Frames per ``read(into:)`` call; keeps a block around 64 K samples whatever the channel count.
    public let blockFrames: Int
    private let handle: OpaquePointer
    private let facts: ContainerFacts?
    private let isFloat: Bool
    private let options: AudioReadOptions
    private var framesRead = 0

    public init(path: String, options: AudioReadOptions = .init()) throws(AudioError) {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw AudioError(.notFound, path: path, "no such file")
        }
        if isDirectory.boolValue { throw AudioError(.unreadable, path: path, "is a directory, not an audio file") }
        guard FileManager.default.isReadableFile(atPath: path) else {
            throw AudioError(.unreadable, path: path, "permission denied")
        }
        let facts = ContainerFacts.inspect(path: path)
        if let (kind, detail) = facts?.problem, kind == .invalidHeader {
            throw AudioError(kind, path: path, detail)
        }
        var sfinfo = SF_INFO()
        guard let h = sf_open(path, Int32(SFM_READ), &sfinfo) else {
            let reason = String(cString: sf_strerror(nil))
            var st = stat()
            if stat(path, &st) == 0, st.st_size == 0 {  // (stat follows a symbolic link to the file)
                throw AudioError(.unreadable, path: path, "empty file (0 bytes)")
            }
            if let (kind, detail) = facts?.openFailure { throw AudioError(kind, path: path, detail) }
            throw AudioError(.unreadable, path: path, "not a readable audio file (libsndfile: \(reason))")
        }
        handle = h
        self.facts = facts
        self.options = options
        let subtype = sfinfo.format & Int32(SF_FORMAT_SUBMASK)
        isFloat = subtype == Int32(SF_FORMAT_FLOAT) || subtype == Int32(SF_FORMAT_DOUBLE)
        let frames = sfinfo.frames == Int64.max ? 0 : Int(sfinfo.frames)
        info = AudioFormatInfo(
            path: path,
            container: Self.formatName(major: sfinfo.format & Int32(SF_FORMAT_TYPEMASK), handle: h, short: true),
            encoding: Self.formatName(subtype: subtype, handle: h),
            formatDescription: Self.formatName(major: sfinfo.format & Int32(SF_FORMAT_TYPEMASK), handle: h, short: false)
                + ", " + Self.formatName(subtype: subtype, handle: h, short: false),
            sampleRate: Int(sfinfo.samplerate), channels: Int(sfinfo.channels),
            frames: frames,
            // libsndfile clamps the size to what the file holds; say so rather than read silently.
            warnings: facts?.dataSizeUnknown == true ? ["data size unknown (0xFFFFFFFF): read to end of file, \(frames) frames"] : [])
        blockFrames = Swift.max(64, 65_536 / Swift.max(1, Int(sfinfo.channels)))
        // From here on, `deinit` closes the handle on every throw.
        if info.channels < 1 || info.channels > options.maxChannels {
            throw AudioError(.invalidHeader, path: path, "implausible channel count \(info.channels)")
        }
        if info.sampleRate < 1 || info.sampleRate > options.maxSampleRate {
            throw AudioError(.invalidHeader, path: path, "implausible sample rate \(info.sampleRate) Hz")
        }
        if let (kind, detail) = facts?.problem, kind == .truncated, !options.allowTruncated {
            throw AudioError(.truncated, path: path, detail)
        }
        if info.frames == 0 && sfinfo.frames != Int64.max {
            throw AudioError(.emptyAudio, path: path, "no audio frames (a valid header with an empty data chunk)")
        }
    }

    deinit { sf_close(handle) }

    /// True when the header claimed more data than the file holds (only possible with
    /// ``AudioReadOptions/allowTruncated``), or when decoding ended before the declared frames.
    public private(set) var truncated = false

    /// Reads the next block of interleaved frames into `buffer` (capacity ≥ blockFrames × channels).
    /// Returns the frames read; 0 at the end of the file.
    public func read(into buffer: UnsafeMutableBufferPointer<Float>) throws(AudioError) -> Int {
        let frames = Swift.min(blockFrames, buffer.count / info.channels)
        let got = Int(sf_readf_float(handle, buffer.baseAddress, sf_count_t(frames)))
        if got > 0 {
            if isFloat, let bad = SampleKernels.firstNonFinite(UnsafeBufferPointer(rebasing: buffer[0..<(got * info.channels)])) {
                let frame = framesRead + bad / info.channels
                throw AudioError(.nonFiniteSamples, path: info.path,
                                 "sample \(bad % info.channels) of frame \(frame) (\(String(format: "%.3f", Double(frame) / Double(info.sampleRate))) s) is not a finite number")
            }
            framesRead += got
            return got
        }
        let code = sf_error(handle)
        if code != 0 {
            throw AudioError(.decodeFailed, path: info.path,
                             "decoding failed after \(framesRead) frames: \(String(cString: sf_strerror(handle)))")
        }
        if framesRead == 0 {
            throw AudioError(.emptyAudio, path: info.path, "no audio frames could be decoded")
        }
        if let (kind, _) = facts?.problem, kind == .truncated { truncated = true }
        if info.frames > 0 && framesRead < info.frames {
            if !options.allowTruncated {
                throw AudioError(.truncated, path: info.path,
                                 "truncated: the header declares \(info.frames) frames, only \(framesRead) could be decoded")
            }
            truncated = true
        }
        return 0
    }

    /// Frames delivered so far.
    public var framesDecoded: Int { framesRead }

    private static let shortContainers: [Int32: String] = table([
        (SF_FORMAT_WAV, "WAV"),
        (SF_FORMAT_WAVEX, "WAV"),
        (SF_FORMAT_AIFF, "AIFF"),
        (SF_FORMAT_FLAC, "FLAC"),
        (SF_FORMAT_OGG, "OGG"),
        (SF_FORMAT_AU, "AU"),
        (SF_FORMAT_CAF, "CAF"),
        (SF_FORMAT_W64, "W64"),
        (SF_FORMAT_RF64, "RF64"),
        (SF_FORMAT_MPEG, "MPEG"),
    ])
    private static let shortEncodings: [Int32: String] = table([
        (SF_FORMAT_PCM_S8, "PCM_S8"),
        (SF_FORMAT_PCM_U8, "PCM_U8"),
        (SF_FORMAT_PCM_16, "PCM_16"),
        (SF_FORMAT_PCM_24, "PCM_24"),
        (SF_FORMAT_PCM_32, "PCM_32"),
        (SF_FORMAT_FLOAT, "FLOAT"),
        (SF_FORMAT_DOUBLE, "DOUBLE"),
        (SF_FORMAT_ULAW, "ULAW"),
        (SF_FORMAT_ALAW, "ALAW"),
        (SF_FORMAT_VORBIS, "VORBIS"),
        (SF_FORMAT_OPUS, "OPUS"),
        (SF_FORMAT_MPEG_LAYER_III, "MP3"),
        (SF_FORMAT_IMA_ADPCM, "IMA_ADPCM"),
        (SF_FORMAT_MS_ADPCM, "MS_ADPCM"),
        (SF_FORMAT_GSM610, "GSM610"),
    ])

    private static func table(_ pairs: [(Int, String)]) -> [Int32: String] {
        Dictionary(uniqueKeysWithValues: pairs.map { (Int32($0.0), $0.1) })
    }

    private static func formatName(major: Int32, handle: OpaquePointer, short: Bool) -> String {
        if short, let s = shortContainers[major] { return s }
        var fi = SF_FORMAT_INFO(format: major, name: nil, extension: nil)
        guard sf_command(handle, Int32(SFC_GET_FORMAT_INFO), &fi, Int32(MemoryLayout<SF_FORMAT_INFO>.size)) == 0,
              let name = fi.name else { return String(format: "0x%x", major) }
        return String(cString: name)
    }

    private static func formatName(subtype: Int32, handle: OpaquePointer, short: Bool = true) -> String {
        if short, let s = shortEncodings[subtype] { return s }
        var fi = SF_FORMAT_INFO(format: subtype, name: nil, extension: nil)
        guard sf_command(handle, Int32(SFC_GET_FORMAT_INFO), &fi, Int32(MemoryLayout<SF_FORMAT_INFO>.size)) == 0,
              let name = fi.name else { return String(format: "0x%x", subtype) }
        return String(cString: name)
    }
}
