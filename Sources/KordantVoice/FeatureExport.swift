import Foundation
import KordantAudio

extension FeatureMatrix {
    /// The .npy header (format 1.0) for little-endian float32, C order, shape (frames, coefficients),
    /// padded so the data starts at a multiple of 64 bytes.
    public func npyHeader() -> [UInt8] {
        var header = "{'descr': '<f4', 'fortran_order': False, 'shape': (\(frames), \(coefficients)), }"
        // Magic (6) + version (2) + length (2) + header + newline, padded to a multiple of 64.
        let unpadded = 10 + header.utf8.count + 1
        header += String(repeating: " ", count: (64 - unpadded % 64) % 64) + "\n"
        let length = UInt16(header.utf8.count)
        return [0x93] + Array("NUMPY".utf8) + [1, 0, UInt8(length & 0xFF), UInt8(length >> 8)] + Array(header.utf8)
    }

    /// NumPy .npy (format 1.0): little-endian float32, C order, shape (frames, coefficients);
    /// `numpy.load` reads it directly.
    public func npy() -> Data {
        var data = Data(npyHeader())
        data.reserveCapacity(data.count + values.count * 4)
        values.withUnsafeBufferPointer { appendLittleEndian($0, to: &data) }
        return data
    }

    /// Writes the .npy to `sink`: the header, then the values' bytes in large blocks (on a
    /// little-endian machine, straight from the matrix without a copy).
    public func writeNPY(to sink: ByteSink) throws {
        try npyHeader().withUnsafeBytes { try sink.write($0) }
        try values.withUnsafeBufferPointer { buffer in
            if 1.littleEndian == 1 {
                try sink.write(UnsafeRawBufferPointer(buffer))
            } else {
                var block = [UInt32](repeating: 0, count: 16_384)
                var i = 0
                while i < buffer.count {
                    let n = min(block.count, buffer.count - i)
                    for j in 0..<n { block[j] = buffer[i + j].bitPattern.littleEndian }
                    try block.withUnsafeBytes { try sink.write(UnsafeRawBufferPointer(rebasing: $0[0..<(n * 4)])) }
                    i += n
                }
            }
        }
    }

    /// CSV with a header row `c0,c1,…` and one row per frame (shortest round-trip decimal).
    public func csv(columnPrefix: String = "c") -> String {
        var out = (0..<coefficients).map { "\(columnPrefix)\($0)" }.joined(separator: ",") + "\n"
        out.reserveCapacity(frames * coefficients * 10)
        for t in 0..<frames {
            out += row(t).map { String($0) }.joined(separator: ",")
            out += "\n"
        }
        return out
    }

    /// Writes the same CSV as ``csv(columnPrefix:)`` to `sink`, formatting each value in place.
    public func writeCSV(to sink: ByteSink, columnPrefix: String = "c") throws {
        try sink.write((0..<coefficients).map { "\(columnPrefix)\($0)" }.joined(separator: ",") + "\n")
        try values.withUnsafeBufferPointer { v in
            var i = 0
            for _ in 0..<frames {
                for c in 0..<coefficients {
                    if c > 0 { try sink.write(byte: UInt8(ascii: ",")) }
                    try sink.write(v[i])
                    i += 1
                }
                try sink.write(byte: UInt8(ascii: "\n"))
            }
        }
    }

    /// Writes the rows as a JSON array of arrays (`[[c0,c1,…],…]`), numbers as JSONEncoder
    /// writes Floats (the shortest round-trip decimal, "2" for 2.0).
    public func writeJSONRows(to sink: ByteSink) throws {
        try values.withUnsafeBufferPointer { v in
            if let bad = v.firstIndex(where: { !$0.isFinite }) {
                throw VoiceError(.invalidOptions, "value \(v[bad]) at frame \(bad / max(1, coefficients)) cannot be written as JSON")
            }
            try sink.write(byte: UInt8(ascii: "["))
            var i = 0
            for t in 0..<frames {
                try sink.write(t == 0 ? "[" : ",[")
                for c in 0..<coefficients {
                    if c > 0 { try sink.write(byte: UInt8(ascii: ",")) }
                    try sink.write(v[i], dropPointZero: true)
                    i += 1
                }
                try sink.write(byte: UInt8(ascii: "]"))
            }
            try sink.write(byte: UInt8(ascii: "]"))
        }
    }

    /// Frames side by side: [self | other] (same frame count).
    public func appending(columnsOf other: FeatureMatrix) -> FeatureMatrix {
        precondition(frames == other.frames)
        var values: [Float] = []
        values.reserveCapacity(frames * (coefficients + other.coefficients))
        for t in 0..<frames {
            values += row(t)
            values += other.row(t)
        }
        return FeatureMatrix(frames: frames, coefficients: coefficients + other.coefficients, values: values)
    }
}

private func appendLittleEndian(_ buffer: UnsafeBufferPointer<Float>, to data: inout Data) {
    if 1.littleEndian == 1 {
        data.append(UnsafeBufferPointer(start: UnsafeRawPointer(buffer.baseAddress)?.assumingMemoryBound(to: UInt8.self),
                                        count: buffer.count * 4))
    } else {
        for v in buffer { withUnsafeBytes(of: v.bitPattern.littleEndian) { data.append(contentsOf: $0) } }
    }
}
