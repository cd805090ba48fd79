import Foundation

/// Bytes to a file or to standard output through one fixed buffer, written with `write(2)` in
/// large blocks: an output path never grows a `Data` or `String` per element.
///
/// A file is written beside its final path and renamed into place by ``commit()``, so a failed or
/// abandoned write (the sink deallocated without a commit) leaves nothing behind.
public final class ByteSink {
    /// The path errors name (the final path, or `-` for standard output).
    public let path: String
    private let fd: Int32
    private let temp: String?
    private let buffer: UnsafeMutableRawBufferPointer
    private var used = 0
    private var finished = false

    /// Creates `.NAME.PID.partial` beside `path`; ``commit()`` renames it to `path`.
    public init(path: String, bufferSize: Int = 1 << 20) throws {
        let url = URL(fileURLWithPath: path)
        let temp = url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).\(getpid()).partial").path
        let fd = open(temp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw AudioError(.writeFailed, path: path, "cannot write: \(String(cString: strerror(errno)))") }
        self.path = path
        self.fd = fd
        self.temp = temp
        buffer = .allocate(byteCount: max(4096, bufferSize), alignment: 16)
    }

    /// Writes to an open descriptor (standard output by default), which the sink does not close.
    public init(fileDescriptor: Int32 = STDOUT_FILENO, bufferSize: Int = 1 << 20) {
        path = "-"
        fd = fileDescriptor
        temp = nil
        buffer = .allocate(byteCount: max(4096, bufferSize), alignment: 16)
    }

    deinit {
        if let temp, !finished {
            close(fd)
            unlink(temp)
        }
        buffer.deallocate()
    }

    /// Appends raw bytes; large runs go straight to the descriptor without a copy.
    public func write(_ bytes: UnsafeRawBufferPointer) throws {
        guard bytes.count > 0 else { return }
        if used + bytes.count <= buffer.count {
            (buffer.baseAddress! + used).copyMemory(from: bytes.baseAddress!, byteCount: bytes.count)
            used += bytes.count
            return
        }
        try flush()
        if bytes.count >= buffer.count / 2 {
            try writeAll(bytes)
        } else {
            buffer.baseAddress!.copyMemory(from: bytes.baseAddress!, byteCount: bytes.count)
            used = bytes.count
        }
    }

    /// Appends one byte (an ASCII separator).
    @inline(__always)
    public func write(byte: UInt8) throws {
        if used == buffer.count { try flush() }
        buffer[used] = byte
        used &+= 1
    }

    /// Appends a string's UTF-8 bytes.
    public func write(_ text: String) throws {
        var s = text
        try s.withUTF8 { try write(UnsafeRawBufferPointer($0)) }
    }

    /// Appends Swift's shortest round-trip decimal of `value` (`String(value)`), without a heap
    /// allocation: the text fits a small string. With `dropPointZero`, "2.0" is written "2" (as
    /// JSONEncoder writes whole floats).
    @inline(__always)
    public func write(_ value: Float, dropPointZero: Bool = false) throws {
        // The longest Float text ("-1.17549435e-38") is 15 bytes.
        if used + 32 > buffer.count { try flush() }
        var s = value.description
        s.withUTF8 { u in
            var n = u.count
            if dropPointZero && n >= 2 && u[n - 2] == UInt8(ascii: ".") && u[n - 1] == UInt8(ascii: "0") { n -= 2 }
            (buffer.baseAddress! + used).copyMemory(from: u.baseAddress!, byteCount: n)
            used += n
        }
    }

    /// Appends Swift's shortest round-trip decimal of `value` (`String(value)`, e.g. "-9.01", "-6.0").
    @inline(__always)
    public func write(_ value: Double) throws {
        // The longest Double text ("-2.2250738585072014e-308") is 24 bytes.
        if used + 32 > buffer.count { try flush() }
        var s = value.description
        s.withUTF8 { u in
            (buffer.baseAddress! + used).copyMemory(from: u.baseAddress!, byteCount: u.count)
            used += u.count
        }
    }

    /// Appends an integer in decimal.
    @inline(__always)
    public func write(_ value: Int) throws {
        if used + 24 > buffer.count { try flush() }
        let out = buffer.baseAddress!.assumingMemoryBound(to: UInt8.self) + used
        var magnitude = value.magnitude
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)   // 24 bytes of scratch, filled from the end
        let n = withUnsafeMutableBytes(of: &digits) { d -> Int in
            var i = d.count
            repeat {
                i -= 1
                d[i] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
            } while magnitude > 0
            var k = 0
            if value < 0 { out[0] = UInt8(ascii: "-"); k = 1 }
            for j in i..<d.count { out[k] = d[j]; k += 1 }
            return k
        }
        used += n
    }

    /// Hands everything buffered to the descriptor.
    public func flush() throws {
        guard used > 0 else { return }
        let n = used
        used = 0
        try writeAll(UnsafeRawBufferPointer(rebasing: buffer[0..<n]))
    }

    /// Flushes; for a file, closes it and renames it into place.
    public func commit() throws {
        try flush()
        guard let temp, !finished else { return }
        finished = true
        if close(fd) != 0 {
            unlink(temp)
            throw AudioError(.writeFailed, path: path, "cannot write: \(String(cString: strerror(errno)))")
        }
        guard rename(temp, path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temp)
            throw AudioError(.writeFailed, path: path, "cannot move the finished file into place: \(reason)")
        }
    }

    private func writeAll(_ bytes: UnsafeRawBufferPointer) throws {
        var offset = 0
        while offset < bytes.count {
            let n = Foundation.write(fd, bytes.baseAddress! + offset, bytes.count - offset)
            if n < 0 {
                if errno == EINTR { continue }
                throw AudioError(.writeFailed, path: path, "cannot write: \(String(cString: strerror(errno)))")
            }
            offset += n
        }
    }
}
