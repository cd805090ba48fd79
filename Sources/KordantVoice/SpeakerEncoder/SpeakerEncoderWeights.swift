import Foundation

/// Why the speaker encoder cannot be used.
public struct SpeakerEncoderError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Kind: String, Sendable, Codable {
        /// No weights file at the path.
        case weightsMissing = "encoder_weights_missing"
        /// The file is there but is not a complete, valid weights file.
        case weightsCorrupt = "encoder_weights_corrupt"
    }

    public let kind: Kind
    /// The weights file concerned.
    public let path: String
    public let detail: String

    public init(_ kind: Kind, path: String, _ detail: String) {
        self.kind = kind
        self.path = path
        self.detail = detail
    }

    public var description: String { detail }
}

/// The GE2E encoder's parameters as loaded from the engine's weights file.
///
/// File format (little-endian; written by `scripts/voice_encoder_weights.py` from Resemblyzer's
/// `pretrained.pt`): the 8-byte magic `KVGE2E\0\0`, a `u32` format version (1), a `u32` tensor
/// count, then per tensor a `u32` name length, the UTF-8 name, a `u32` rank, `rank` × `u32`
/// dimensions and the float32 values in row-major order; the file ends with `END!`.
struct SpeakerEncoderWeights: Sendable {
    static let magic: [UInt8] = Array("KVGE2E".utf8) + [0, 0]
    static let layers = 3
    static let hidden = 256
    static let inputSize = 40
    static let embeddingSize = 256

    /// Per layer: W_ih (4H × in), W_hh (4H × H), b_ih + b_hh (4H), gates in torch's order i, f, g, o.
    let inputWeights: [[Float]]
    let recurrentWeights: [[Float]]
    let biases: [[Float]]
    let linearWeight: [Float]
    let linearBias: [Float]

    /// Where the engine looks for the weights when no path is given: `$KORDANT_VOICE_ENCODER`,
    /// else `models/voice-encoder-ge2e.bin` in the working directory or in a folder above the
    /// executable (a checkout's `.build/<config>/kordant` finds the checkout's `models/`).
    static func defaultPath() -> String {
        if let env = ProcessInfo.processInfo.environment["KORDANT_VOICE_ENCODER"], !env.isEmpty { return env }
        let relative = "models/voice-encoder-ge2e.bin"
        let fm = FileManager.default
        if fm.fileExists(atPath: relative) { return relative }
        var dir = URL(fileURLWithPath: CommandLine.arguments.first ?? ".").resolvingSymlinksInPath().deletingLastPathComponent()
        for _ in 0..<6 {
            let candidate = dir.appendingPathComponent(relative).path
            if fm.fileExists(atPath: candidate) { return candidate }
            dir.deleteLastPathComponent()
        }
        return relative
    }

    static func load(path: String) throws(SpeakerEncoderError) -> SpeakerEncoderWeights {
        let fix = "run scripts/setup (or scripts/get-voice-encoder) to fetch and convert it, or set KORDANT_VOICE_ENCODER"
        guard FileManager.default.fileExists(atPath: path) else {
            throw SpeakerEncoderError(.weightsMissing, path: path, "speaker encoder weights not found at \(path); \(fix)")
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw SpeakerEncoderError(.weightsMissing, path: path, "cannot read speaker encoder weights at \(path); \(fix)")
        }
        do {
            return try parse(data)
        } catch let problem as FormatProblem {
            throw SpeakerEncoderError(.weightsCorrupt, path: path, "speaker encoder weights at \(path) are invalid (\(problem.what)); \(fix)")
        } catch {
            throw SpeakerEncoderError(.weightsCorrupt, path: path, "speaker encoder weights at \(path) are invalid; \(fix)")
        }
    }

    struct FormatProblem: Error { let what: String }

    /// Bounds-checked reader over the file's bytes.
    private struct Reader {
        let bytes: [UInt8]
        var at = 0

        mutating func take(_ n: Int) throws -> ArraySlice<UInt8> {
            guard n >= 0, n <= bytes.count - at else { throw FormatProblem(what: "truncated at byte \(at)") }
            defer { at += n }
            return bytes[at..<(at + n)]
        }

        mutating func u32() throws -> Int {
            let b = try take(4)
            return b.reversed().reduce(0) { $0 << 8 | Int($1) }
        }

        mutating func floats(_ count: Int) throws -> [Float] {
            guard count <= (bytes.count - at) / 4 else { throw FormatProblem(what: "truncated tensor data at byte \(at)") }
            let slice = try take(4 * count)
            var out = [Float](repeating: 0, count: count)
            out.withUnsafeMutableBytes { dst in
                slice.withUnsafeBytes { src in dst.copyMemory(from: src) }
            }
            #if _endian(big)
            out = out.map { Float(bitPattern: $0.bitPattern.byteSwapped) }
            #endif
            return out
        }
    }

    static func parse(_ data: Data) throws -> SpeakerEncoderWeights {
        var r = Reader(bytes: [UInt8](data))
        guard Array(try r.take(8)) == magic else { throw FormatProblem(what: "not a KVGE2E file") }
        let version = try r.u32()
        guard version == 1 else { throw FormatProblem(what: "format version \(version), this engine reads 1") }
        let count = try r.u32()
        guard count <= 64 else { throw FormatProblem(what: "\(count) tensors") }
        var tensors: [String: (shape: [Int], values: [Float])] = [:]
        for _ in 0..<count {
            let nameLength = try r.u32()
            guard nameLength <= 256 else { throw FormatProblem(what: "tensor name of \(nameLength) bytes") }
            let name = String(decoding: try r.take(nameLength), as: UTF8.self)
            let rank = try r.u32()
            guard (1...4).contains(rank) else { throw FormatProblem(what: "\(name) has rank \(rank)") }
            var shape: [Int] = []
            for _ in 0..<rank { shape.append(try r.u32()) }
            let n = shape.reduce(1) { $0.multipliedReportingOverflow(by: $1).partialValue }
            guard shape.allSatisfy({ $0 > 0 && $0 <= 1 << 20 }), n <= 1 << 24 else { throw FormatProblem(what: "\(name) has shape \(shape)") }
            let values = try r.floats(n)
            guard values.allSatisfy(\.isFinite) else { throw FormatProblem(what: "\(name) holds non-finite values") }
            tensors[name] = (shape, values)
        }
        guard Array(try r.take(4)) == Array("END!".utf8), r.at == r.bytes.count else { throw FormatProblem(what: "missing end marker") }

        func tensor(_ name: String, _ shape: [Int]) throws -> [Float] {
            guard let t = tensors[name] else { throw FormatProblem(what: "no tensor \(name)") }
            guard t.shape == shape else { throw FormatProblem(what: "\(name) has shape \(t.shape), expected \(shape)") }
            return t.values
        }
        let h = hidden, g = 4 * hidden
        var wih: [[Float]] = [], whh: [[Float]] = [], bias: [[Float]] = []
        for layer in 0..<layers {
            wih.append(try tensor("lstm.weight_ih_l\(layer)", [g, layer == 0 ? inputSize : h]))
            whh.append(try tensor("lstm.weight_hh_l\(layer)", [g, h]))
            let bi = try tensor("lstm.bias_ih_l\(layer)", [g]), bh = try tensor("lstm.bias_hh_l\(layer)", [g])
            bias.append(zip(bi, bh).map { $0 + $1 })
        }
        return SpeakerEncoderWeights(
            inputWeights: wih, recurrentWeights: whh, biases: bias,
            linearWeight: try tensor("linear.weight", [embeddingSize, h]),
            linearBias: try tensor("linear.bias", [embeddingSize]))
    }
}
