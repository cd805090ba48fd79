import Crypto
import Foundation

/// Content digests and the stable identifiers derived from them.
public enum Digest {
    /// Lower-case hex SHA-256 of `data`.
    public static func sha256Hex(_ data: some DataProtocol) -> String {
        hex(SHA256.hash(data: data))
    }

    /// Lower-case hex SHA-256 of the file at `path`, read in 64 KiB blocks (memory stays flat
    /// whatever the file's size; a batch digests every input for its resume key). Nil when the
    /// file cannot be opened or read.
    public static func sha256Hex(fileAt path: String) -> String? {
        (try? sha256(fileAt: path)).map { hex($0.digest) }
    }

    /// Why a file could not be digested: the path and the `errno` of the failed call.
    public struct FileError: Error, Sendable, CustomStringConvertible {
        public let path: String
        public let errno: Int32
        public var isNotFound: Bool { errno == ENOENT }
        public var description: String { "\(path): \(String(cString: strerror(errno)))" }
    }

    /// SHA-256 (32 raw bytes) and size of the file at `path`, streamed once in 64 KiB blocks.
    public static func sha256(fileAt path: String) throws(FileError) -> (digest: Data, bytes: Int) {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw FileError(path: path, errno: errno) }
        defer { close(fd) }
        var st = stat()
        if fstat(fd, &st) == 0, (st.st_mode & S_IFMT) == S_IFDIR { throw FileError(path: path, errno: EISDIR) }
        let size = 1 << 16
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: size, alignment: 64)
        defer { buffer.deallocate() }
        var h = SHA256()
        var total = 0
        while true {
            let n = read(fd, buffer.baseAddress, size)
            if n == 0 { break }
            if n < 0 {
                if errno == EINTR { continue }
                throw FileError(path: path, errno: errno)
            }
            h.update(bufferPointer: UnsafeRawBufferPointer(rebasing: buffer[0..<n]))
            total += n
        }
        return (Data(h.finalize()), total)
    }

    /// A UUID-formatted identifier derived from `parts` (SHA-256, version nibble 8: RFC 9562
    /// custom). The same logical submission always gets the same id, so a repeated run of the
    /// same command is recognised by the server instead of recorded twice.
    public static func stableID(_ parts: [String]) -> String {
        var bytes = Array(SHA256.hash(data: Data(parts.joined(separator: "\u{1F}").utf8)).prefix(16))
        bytes[6] = (bytes[6] & 0x0F) | 0x80
        bytes[8] = (bytes[8] & 0x3F) | 0x80
        let c = Array(hex(bytes))
        return [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { String(c[$0]) }.joined(separator: "-")
    }

    /// Lower-case hex of `bytes` (String(format:) per byte boxes every argument: this runs per
    /// batch item, for its resume key).
    public static func hex(_ bytes: some Sequence<UInt8>) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(64)
        for b in bytes {
            out.append(digits[Int(b >> 4)])
            out.append(digits[Int(b & 15)])
        }
        return String(decoding: out, as: UTF8.self)
    }
}
