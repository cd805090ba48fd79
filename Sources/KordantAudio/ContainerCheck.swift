import Foundation

/// What a WAV or AIFF header declares, read independently of libsndfile.
///
/// libsndfile quietly clamps a data chunk that claims more bytes than the file holds and refuses
/// a zero sample rate with a generic "SF_INFO struct incomplete". Walking the chunks ourselves
/// lets us name the actual problem. Only the chunk headers are read (a few bytes each, bounded
/// count), so a hostile file cannot make this allocate or loop.
struct ContainerFacts: Equatable {
    var container: String
    var channels: Int?
    var sampleRate: Double?
    /// Bytes of audio data the header claims.
    var declaredDataBytes: UInt64?
    /// Bytes actually present after the data chunk's start.
    var availableDataBytes: UInt64?

    /// Chunks walked at most; real files have a handful.
    static let maxChunks = 512

    static func inspect(path: String) -> ContainerFacts? {
        guard let source = ByteSource(path: path), source.fileSize >= 12 else { return nil }
        guard let head = source.read(0, 12) else { return nil }
        let fileSize = source.fileSize
        let magic = String(decoding: head[0..<4], as: UTF8.self)
        let form = String(decoding: head[8..<12], as: UTF8.self)
        switch (magic, form) {
        case ("RIFF", "WAVE"):
            return walk(container: "WAV", fileSize: fileSize, bigEndian: false, source: source) { id, body, facts in
                if id == "fmt ", let b = body(16) {
                    facts.channels = Int(le16(b, 2))
                    facts.sampleRate = Double(le32(b, 4))
                }
            }
        case ("FORM", "AIFF"), ("FORM", "AIFC"):
            return walk(container: "AIFF", fileSize: fileSize, bigEndian: true, source: source) { id, body, facts in
                if id == "COMM", let b = body(18) {
                    facts.channels = Int(be16(b, 0))
                    facts.sampleRate = extended80(Array(b[8..<18]))
                }
            }
        default:
            return nil
        }
    }

    private static func walk(
        container: String, fileSize: UInt64, bigEndian: Bool, source: ByteSource,
        onChunk: (String, (Int) -> [UInt8]?, inout ContainerFacts) -> Void
    ) -> ContainerFacts {
        var facts = ContainerFacts(container: container)
        var offset: UInt64 = 12
        for _ in 0..<maxChunks {
            guard let h = source.read(offset, 8) else { break }
            let id = String(decoding: h[0..<4], as: UTF8.self)
            let size = UInt64(bigEndian ? be32(h, 4) : le32(h, 4))
            let bodyStart = offset + 8
            onChunk(id, { source.read(bodyStart, $0) }, &facts)
            if id == "data" || id == "SSND" {
                // AIFF's SSND body starts with 8 bytes of offset/block size before the samples.
                let skip: UInt64 = id == "SSND" ? 8 : 0
                // 0xFFFFFFFF marks a stream whose length was unknown when it was written.
                if size != 0xFFFF_FFFF {
                    facts.declaredDataBytes = size >= skip ? size - skip : 0
                    facts.availableDataBytes = fileSize > bodyStart + skip ? fileSize - bodyStart - skip : 0
                }
                break
            }
            offset = bodyStart + size + (size & 1)
        }
        return facts
    }

    /// A description of what is wrong, or nil if the declared facts are consistent.
    var problem: (AudioError.Kind, String)? {
        if let c = channels, c == 0 { return (.invalidHeader, "\(container) header declares 0 channels") }
        if let r = sampleRate, !(r >= 1) { return (.invalidHeader, "\(container) header declares a sample rate of \(formatRate(r)) Hz") }
        if let declared = declaredDataBytes, let available = availableDataBytes, declared > available {
            return (.truncated, "truncated: the header claims \(declared) bytes of audio data, the file holds \(available)")
        }
        return nil
    }
}

/// Bounded reads from a file; closes it on deinit.
private final class ByteSource {
    let handle: FileHandle
    let fileSize: UInt64

    init?(path: String) {
        guard let h = FileHandle(forReadingAtPath: path), let size = try? h.seekToEnd() else { return nil }
        handle = h
        fileSize = size
    }

    deinit { try? handle.close() }

    func read(_ offset: UInt64, _ count: Int) -> [UInt8]? {
        guard offset + UInt64(count) <= fileSize else { return nil }
        do {
            try handle.seek(toOffset: offset)
            guard let d = try handle.read(upToCount: count), d.count == count else { return nil }
            return [UInt8](d)
        } catch { return nil }
    }
}

private func formatRate(_ r: Double) -> String { r.isFinite && r == r.rounded() ? String(Int(r)) : String(r) }
private func le16(_ b: [UInt8], _ o: Int) -> UInt16 { UInt16(b[o]) | UInt16(b[o + 1]) << 8 }
private func le32(_ b: [UInt8], _ o: Int) -> UInt32 { UInt32(le16(b, o)) | UInt32(le16(b, o + 2)) << 16 }
private func be16(_ b: [UInt8], _ o: Int) -> UInt16 { UInt16(b[o]) << 8 | UInt16(b[o + 1]) }
private func be32(_ b: [UInt8], _ o: Int) -> UInt32 { UInt32(be16(b, o)) << 16 | UInt32(be16(b, o + 2)) }

/// AIFF stores its sample rate as an 80-bit IEEE extended float.
private func extended80(_ b: [UInt8]) -> Double {
    let exponent = Int(be16(b, 0) & 0x7FFF)
    var mantissa: UInt64 = 0
    for i in 2..<10 { mantissa = mantissa << 8 | UInt64(b[i]) }
    if exponent == 0 && mantissa == 0 { return 0 }
    let value = Double(mantissa) * pow(2.0, Double(exponent - 16383 - 63))
    return b[0] & 0x80 != 0 ? -value : value
}
