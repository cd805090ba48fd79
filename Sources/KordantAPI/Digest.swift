import Crypto
import Foundation

/// Content digests and the stable identifiers derived from them.
public enum Digest {
    /// Lower-case hex SHA-256 of `data`.
    public static func sha256Hex(_ data: some DataProtocol) -> String {
        SHA256.hash(data: data).map { String(format: "%02x", $0) }.joined()
    }

    /// A UUID-formatted identifier derived from `parts` (SHA-256, version nibble 8: RFC 9562
    /// custom). The same logical submission always gets the same id, so a repeated run of the
    /// same command is recognised by the server instead of recorded twice.
    public static func stableID(_ parts: [String]) -> String {
        var bytes = Array(SHA256.hash(data: Data(parts.joined(separator: "\u{1F}").utf8)).prefix(16))
        bytes[6] = (bytes[6] & 0x0F) | 0x80
        bytes[8] = (bytes[8] & 0x3F) | 0x80
        let hex = bytes.map { String(format: "%02x", $0) }.joined()
        let c = Array(hex)
        return [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { String(c[$0]) }.joined(separator: "-")
    }
}
