/// An audio input or output problem, naming the file and what is wrong with it.
///
/// ``kind`` is a stable, machine-readable code (the CLI maps each to its own exit code and
/// prints it in `--json` errors); ``detail`` is a sentence a person can act on.
public struct AudioError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Stable error codes. Their raw values appear in JSON output and never change meaning.
    public enum Kind: String, Sendable, Codable, CaseIterable {
        /// The path does not exist.
        case notFound = "not_found"
        /// Not an audio format libsndfile can read, a directory, or unreadable bytes.
        case unreadable
        /// The header contradicts itself or is implausible (0 channels, 0 Hz, 10,000 channels …).
        case invalidHeader = "invalid_header"
        /// A container the engine recognises whose encoding libsndfile cannot decode (for example a
        /// WAV format tag it does not know).
        case unsupportedEncoding = "unsupported_encoding"
        /// A container missing a required part (a WAV without a `fmt ` chunk).
        case malformed
        /// A RIFF file of another type (AVI, MIDI …), not WAVE audio.
        case notWave = "not_wave"
        /// The header claims more audio than the file holds.
        case truncated
        /// The decoder failed part-way through the audio data.
        case decodeFailed = "decode_failed"
        /// Float samples that are NaN or infinite.
        case nonFiniteSamples = "non_finite_samples"
        /// A well-formed file with no audio frames.
        case emptyAudio = "empty_audio"
        /// The output could not be created or written.
        case writeFailed = "write_failed"
        /// The resampler rejected the conversion (for example an unsupported ratio).
        case resampleFailed = "resample_failed"
        /// A capture device could not be opened or read.
        case deviceFailed = "device_failed"
    }

    public let kind: Kind
    /// The file (or device) the error is about.
    public let path: String
    /// What is wrong, in one sentence.
    public let detail: String

    public init(_ kind: Kind, path: String, _ detail: String) {
        self.kind = kind
        self.path = path
        self.detail = detail
    }

    public var description: String { "\(path): \(detail)" }
}
