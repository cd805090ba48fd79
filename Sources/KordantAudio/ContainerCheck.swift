import Foundation

/// What a WAV or AIFF header declares, read independently of libsndfile.
///
/// libsndfile quietly clamps a data chunk that claims more bytes than the file holds and refuses
/// a zero sample rate with a generic "SF_INFO struct incomplete". Walking the chunks ourselves
/// lets us name the actual problem. Only the chunk headers are read (a few bytes each, bounded
/// count), so a hostile file cannot make this allocate or loop.
struct ContainerFacts {
    var container: String
    var channels: Int?
    var sampleRate: Double?
    /// Bytes of audio data the header claims.
    var declaredDataBytes: UInt64?
    /// Bytes actually present after the data chunk's start.
    var availableDataBytes: UInt64?
    /// The data chunk's size is 0xFFFFFFFF, the "length unknown" mark of an encoder writing to a
    /// pipe: the audio runs to the end of the file.
    var dataSizeUnknown = false
    /// The form type of a RIFF file that is not WAVE (`AVI `, `RMID`, `CDXA` …).
    var riffForm: String?
    /// The `fmt ` chunk's format tag (WAVE only), and for WAVE_FORMAT_EXTENSIBLE the first two
    /// bytes of its sub-format GUID, which are the format tag of the actual encoding.
    var formatTag: UInt16?
    var subFormatTag: UInt16?
    /// Chunks seen before the walk ended (the `fmt ` and `data` ids are what matter).
    var sawFormatChunk = false
    var sawDataChunk = false
    /// The walk reached the end of the file cleanly (no chunk header cut short, no chunk limit).
    var walkedToEnd = false
    /// Where the data chunk's body starts and ends (the end as declared, so past the file's end
    /// when it is truncated); nil when the walk met no data chunk.
    var dataStart: UInt64?
    var dataEnd: UInt64?
    /// A LIST entry that would send libsndfile's header parser round forever (see
    /// ``ListGuard``): where the LIST starts, the entry's id and its declared size.
    var endlessList: (offset: UInt64, entry: String, size: UInt32)?

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
            var facts = walk(container: "WAV", fileSize: fileSize, bigEndian: false, source: source) { id, body, facts in
                guard id == "fmt " else { return }
                facts.sawFormatChunk = true
                if let b = body(16) {
                    facts.formatTag = le16(b, 0)
                    facts.channels = Int(le16(b, 2))
                    facts.sampleRate = Double(le32(b, 4))
                }
                // WAVE_FORMAT_EXTENSIBLE: cbSize 22, then valid bits, channel mask, sub-format GUID.
                if facts.formatTag == 0xFFFE, let b = body(26) { facts.subFormatTag = le16(b, 24) }
            }
            facts.endlessList = ListGuard.check(source, bigEndian: false, data: facts.dataRange)
            return facts
        case ("RIFX", "WAVE"), ("RF64", "WAVE"):
            // Only the LIST check, which libsndfile parses the same way in these WAV variants (an
            // RF64's sizes are in its ds64 chunk, so the walk's other facts do not apply).
            let bigEndian = magic == "RIFX"
            let chunks = walk(container: magic, fileSize: fileSize, bigEndian: bigEndian, source: source) { _, _, _ in }
            var facts = ContainerFacts(container: magic)
            facts.endlessList = ListGuard.check(source, bigEndian: bigEndian, data: chunks.dataRange)
            return facts
        case ("RIFF", _):
            var facts = ContainerFacts(container: "RIFF")
            facts.riffForm = form
            return facts
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
            guard let h = source.read(offset, 8) else {
                facts.walkedToEnd = offset >= fileSize
                break
            }
            let id = String(decoding: h[0..<4], as: UTF8.self)
            let size = UInt64(bigEndian ? be32(h, 4) : le32(h, 4))
            let bodyStart = offset + 8
            onChunk(id, { source.read(bodyStart, $0) }, &facts)
            if id == "data" || id == "SSND" {
                facts.sawDataChunk = true
                facts.dataStart = bodyStart
                facts.dataEnd = size == 0xFFFF_FFFF ? nil : bodyStart + size + (size & 1)
                // AIFF's SSND body starts with 8 bytes of offset/block size before the samples.
                let skip: UInt64 = id == "SSND" ? 8 : 0
                // 0xFFFFFFFF marks a stream whose length was unknown when it was written.
                if size != 0xFFFF_FFFF {
                    facts.declaredDataBytes = size >= skip ? size - skip : 0
                    facts.availableDataBytes = fileSize > bodyStart + skip ? fileSize - bodyStart - skip : 0
                } else {
                    facts.dataSizeUnknown = true
                }
                break
            }
            offset = bodyStart + size + (size & 1)
        }
        return facts
    }

    /// The audio data's bytes, which the LIST check does not search (an RF64's or a streamed
    /// file's data runs to the end of the file).
    var dataRange: Range<UInt64>? {
        guard let start = dataStart else { return nil }
        return start..<Swift.max(start, dataEnd ?? UInt64.max)
    }

    /// A description of what is wrong, or nil if the declared facts are consistent.
    var problem: (AudioError.Kind, String)? {
        if let list = endlessList {
            return (.invalidHeader, "malformed LIST chunk at byte \(list.offset): its '\(printable(list.entry))' entry declares "
                    + "\(list.size) bytes, more than the chunk holds (libsndfile's parser would jump back into the header and may never finish)")
        }
        if let c = channels, c == 0 { return (.invalidHeader, "\(container) header declares 0 channels") }
        if let r = sampleRate, !(r >= 1) { return (.invalidHeader, "\(container) header declares a sample rate of \(formatRate(r)) Hz") }
        if let declared = declaredDataBytes, let available = availableDataBytes, declared > available {
            return (.truncated, "truncated: the header claims \(declared) bytes of audio data, the file holds \(available)")
        }
        return nil
    }

    /// Why libsndfile refused the file, when the chunk walk can tell more precisely than its
    /// generic text ("Format not recognised", "Malformed 'fmt ' chunk"). Only consulted after
    /// libsndfile failed, so a file it reads is never refused on our say-so.
    var openFailure: (AudioError.Kind, String)? {
        if let form = riffForm {
            return (.notWave, "RIFF file of type '\(printable(form))', not WAVE")
        }
        guard container == "WAV" else { return nil }
        if !sawFormatChunk {
            let before = sawDataChunk ? " before its 'data' chunk" : ""
            return (.malformed, "malformed WAV: no 'fmt ' chunk\(before) (the chunk that declares the encoding, channels and sample rate)")
        }
        if let tag = formatTag {
            if tag == 0xFFFE, let sub = subFormatTag, !Self.decodableTags.contains(sub) {
                return (.unsupportedEncoding,
                        "unsupported WAV format tag 0xFFFE (WAVE_FORMAT_EXTENSIBLE) with sub-format \(hex(sub)) (\(Self.describe(sub)))")
            }
            if !Self.decodableTags.contains(tag) && tag != 0xFFFE {
                return (.unsupportedEncoding, "unsupported WAV format tag \(hex(tag)) (\(Self.describe(tag)))")
            }
        }
        if !sawDataChunk && walkedToEnd { return (.malformed, "malformed WAV: no 'data' chunk (the file holds no audio)") }
        return nil
    }

    /// WAV format tags libsndfile decodes (wav.c): PCM, MS ADPCM, IEEE float, A-law, µ-law,
    /// IMA ADPCM, GSM 6.10, G.721 ADPCM, MPEG Layer III.
    static let decodableTags: Set<UInt16> = [0x0001, 0x0002, 0x0003, 0x0006, 0x0007, 0x0011, 0x0031, 0x0040, 0x0055]

    /// Registered names (mmreg.h / RFC 2361) of encodings people actually meet in WAV files.
    private static let tagNames: [UInt16: String] = [
        0x0022: "DSP Group TrueSpeech", 0x0050: "MPEG-1 Layer I/II", 0x0092: "Dolby AC-3 over S/PDIF",
        0x00FF: "AAC", 0x0160: "Windows Media Audio 1", 0x0161: "Windows Media Audio 2",
        0x0162: "Windows Media Audio Professional", 0x0163: "Windows Media Audio Lossless",
        0x1610: "MPEG-4 HE-AAC", 0x2000: "Dolby AC-3", 0x2001: "DTS", 0x674F: "Ogg Vorbis",
        0x6750: "Ogg Vorbis", 0x6751: "Ogg Vorbis", 0xF1AC: "FLAC",
    ]

    private static func describe(_ tag: UInt16) -> String {
        if let name = tagNames[tag] { return "\(name), which libsndfile does not decode in WAV" }
        return "not an encoding libsndfile decodes; it reads PCM, IEEE float, A-law, µ-law, IMA and MS ADPCM, GSM 6.10, G.721 and MPEG Layer III"
    }
}

/// libsndfile 1.2's LIST parser (`wavlike_subchunk_parse`) counts the bytes it has read in 32
/// bits. An entry whose size wraps that count past zero passes its "fits in the chunk" test, and
/// the parser then jumps by that size, back into the header, and reads the same chunks for ever:
/// a 128-byte WAV found by FuzzWAV hung `sf_open`. This replays the parser's arithmetic on every
/// LIST or INFO chunk its header walk could meet (any such id outside the audio data, since its
/// walk resynchronises on odd bytes where ours would not), so the file is refused before
/// libsndfile sees it. Entries of a size that does not wrap are left to libsndfile, which reads
/// past them.
private enum ListGuard {
    /// Bytes searched before and after the audio data; headers are a few KB.
    static let searchLimit = 1 << 20
    /// Entries followed in all, and LIST ids followed, in one file: bounds the work (two small
    /// reads an entry) whatever the file holds.
    static let maxEntries = 8192
    static let maxLists = 256

    static func check(_ source: ByteSource, bigEndian: Bool, data: Range<UInt64>?) -> (offset: UInt64, entry: String, size: UInt32)? {
        let size = source.fileSize
        var regions = [UInt64(12)..<Swift.min(data?.lowerBound ?? size, 12 + UInt64(searchLimit))]
        if let data, data.upperBound < size { regions.append(data.upperBound..<Swift.min(size, data.upperBound + UInt64(searchLimit))) }
        var lists = 0, entries = maxEntries
        for region in regions where region.count >= 8 {
            guard let bytes = source.read(region.lowerBound, Int(region.count)) else { continue }
            var i = 0
            while i + 8 <= bytes.count, lists < maxLists {
                defer { i += 1 }
                let id = (bytes[i], bytes[i + 1], bytes[i + 2], bytes[i + 3])
                guard id == (0x4C, 0x49, 0x53, 0x54) || id == (0x49, 0x4E, 0x46, 0x4F) else { continue }  // "LIST", "INFO"
                lists += 1
                let offset = region.lowerBound + UInt64(i)
                if let hit = replay(source, at: offset, length: word(bytes, i + 4, bigEndian), bigEndian: bigEndian, budget: &entries) {
                    return (offset, hit.entry, hit.size)
                }
            }
        }
        return nil
    }

    /// Replays the parse of the LIST at `offset` whose header declares `length` bytes; returns
    /// the entry that would wrap the parser's count.
    private static func replay(_ source: ByteSource, at offset: UInt64, length declared: UInt32, bigEndian: Bool,
                               budget: inout Int) -> (entry: String, size: UInt32)? {
        let bodyStart = offset + 8
        guard declared > 8, bodyStart < source.fileSize else { return nil }  // libsndfile's "weird length" path reads no entries
        // The parser clips the length to the file, as here.
        let length = UInt32(Swift.min(UInt64(declared), source.fileSize - bodyStart))
        var read: UInt32 = 0
        var position = bodyStart
        while budget > 0 {
            budget -= 1
            guard read < length, let head = source.read(position, 4) else { return nil }
            let id = String(decoding: head, as: UTF8.self)
            read &+= 4
            position += 4
            if id == "INFO" || id == "adtl" { continue }           // markers without a size
            if id == "exif" || id == "data" || head == [0, 0, 0, 0] { return nil }  // parsed elsewhere or the parser stops
            guard let sizeBytes = source.read(position, 4) else { return nil }
            let size = word(sizeBytes, 0, bigEndian)
            read &+= 4
            position += 4
            let padded = size &+ (size & 1)
            if textEntries.contains(id) || id == "labl" || id == "DISP" || id == "ltxt" || id == "note" {
                // Bounded by the parser's 2 KB buffer and the chunk; it stops at anything else.
                guard id != "DISP" && id != "ltxt" && id != "note" else { return nil }
                let body = id == "labl" ? padded &- 4 : padded
                guard body >= 1 || id != "labl", body < 2048, body < length else { return nil }
                read &+= id == "labl" ? body &+ 4 : body
                position += UInt64(id == "labl" ? body + 4 : body)
                continue
            }
            let sum = UInt64(read) + UInt64(padded)
            if sum > UInt64(UInt32.max) && UInt32(truncatingIfNeeded: sum) <= length { return (id, size) }
            if sum > UInt64(length) || padded >= length { return nil }  // the parser skips to the chunk's end
            read &+= padded
            position += UInt64(padded)
        }
        return nil
    }

    /// The INFO entries the parser copies as text.
    private static let textEntries: Set<String> = ["ISFT", "ICOP", "IARL", "IART", "ICMT", "ICRD", "IENG", "IGNR", "INAM",
                                                   "IPRD", "ISBJ", "ISRC", "IAUT", "ITRK"]

    private static func word(_ b: [UInt8], _ o: Int, _ bigEndian: Bool) -> UInt32 { bigEndian ? be32(b, o) : le32(b, o) }
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

private func hex(_ tag: UInt16) -> String { "0x" + String(format: "%04X", tag) }
/// Chunk ids are four bytes of anything; show them as ASCII with escapes for the rest.
private func printable(_ id: String) -> String {
    String(id.unicodeScalars.map { $0.isASCII && $0.value >= 0x20 && $0.value < 0x7F ? Character($0) : "?" })
}
/// A declared rate as people write it: whole numbers without ".0", and anything beyond Int's range
/// (an AIFF's 80-bit rate can be −1e30) in Double's own notation rather than a trapping conversion.
private func formatRate(_ r: Double) -> String { r.isFinite && r == r.rounded() && abs(r) < 1e15 ? String(Int(r)) : String(r) }
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
