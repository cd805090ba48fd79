import Foundation

/// Hand-built RIFF files for the container cases libsndfile only describes generically (the tests
/// write them at run time, so TestAudio stays small).
public enum RIFFBuilder {
    public static func chunk(_ id: String, _ body: [UInt8], size: UInt32? = nil) -> [UInt8] {
        var out = Array(id.utf8)
        out += le32(size ?? UInt32(body.count)) + body
        if body.count % 2 == 1 { out.append(0) }
        return out
    }

    public static func riff(_ form: String, _ chunks: [[UInt8]], size: UInt32? = nil) -> [UInt8] {
        let body = Array(form.utf8) + chunks.flatMap { $0 }
        return Array("RIFF".utf8) + le32(size ?? UInt32(body.count)) + body
    }

    public static func fmt(tag: UInt16 = 1, channels: UInt16 = 1, rate: UInt32 = 16_000, bits: UInt16 = 16) -> [UInt8] {
        let align = channels * bits / 8
        return chunk("fmt ", le16(tag) + le16(channels) + le32(rate) + le32(rate * UInt32(align)) + le16(align) + le16(bits))
    }

    /// `frames` of a 440 Hz tone at 16 kHz as 16-bit PCM.
    public static func tone(frames: Int) -> [UInt8] {
        (0..<frames).flatMap { i in le16(UInt16(bitPattern: Int16(8000 * sin(2 * Double.pi * 440 * Double(i) / 16_000)))) }
    }

    /// 1 s at 16 kHz whose RIFF and data sizes are both 0xFFFFFFFF, as an encoder writing to a pipe leaves them.
    public static var unknownSize: [UInt8] {
        riff("WAVE", [fmt(), chunk("data", tone(frames: 16_000), size: 0xFFFF_FFFF)], size: 0xFFFF_FFFF)
    }

    /// Each container problem with its error code and the start of its message.
    public static let problems: [(name: String, bytes: [UInt8], code: String, message: String)] = [
        ("tag1234.wav", riff("WAVE", [fmt(tag: 0x1234), chunk("data", tone(frames: 800))]),
         "unsupported_encoding", "unsupported WAV format tag 0x1234 ("),
        ("wma.wav", riff("WAVE", [fmt(tag: 0x0161), chunk("data", tone(frames: 800))]),
         "unsupported_encoding", "unsupported WAV format tag 0x0161 (Windows Media Audio 2"),
        ("no-fmt.wav", riff("WAVE", [chunk("data", tone(frames: 800))]), "malformed", "malformed WAV: no 'fmt ' chunk"),
        ("no-data.wav", riff("WAVE", [fmt(), chunk("LIST", Array("INFO".utf8))]), "malformed", "malformed WAV: no 'data' chunk"),
        ("movie.avi", riff("AVI ", [chunk("LIST", Array("hdrl".utf8))]), "not_wave", "RIFF file of type 'AVI ', not WAVE"),
        // A LIST entry whose size wraps libsndfile's 32-bit count (its parser could loop for ever).
        ("list-wrap.wav", riff("WAVE", [fmt(), chunk("LIST", Array("INFO".utf8) + Array("abcd".utf8) + le32(0xFFFF_FFF3) + [UInt8](repeating: 0, count: 24)),
                                        chunk("data", tone(frames: 800))]),
         "invalid_header", "malformed LIST chunk at byte 36: its 'abcd' entry declares 4294967283 bytes"),
    ]

    public static func le16(_ v: UInt16) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8)] }
    public static func le32(_ v: UInt32) -> [UInt8] { le16(UInt16(v & 0xFFFF)) + le16(UInt16(v >> 16)) }
}
