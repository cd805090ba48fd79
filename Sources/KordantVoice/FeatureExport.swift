import Foundation

extension FeatureMatrix {
    /// NumPy .npy (format 1.0): little-endian float32, C order, shape (frames, coefficients);
    /// `numpy.load` reads it directly.
    public func npy() -> Data {
        var header = "{'descr': '<f4', 'fortran_order': False, 'shape': (\(frames), \(coefficients)), }"
        // Magic (6) + version (2) + length (2) + header + newline, padded to a multiple of 64.
        let unpadded = 10 + header.utf8.count + 1
        header += String(repeating: " ", count: (64 - unpadded % 64) % 64) + "\n"
        var data = Data([0x93] + Array("NUMPY".utf8) + [1, 0])
        let length = UInt16(header.utf8.count)
        data.append(contentsOf: [UInt8(length & 0xFF), UInt8(length >> 8)])
        data.append(contentsOf: Array(header.utf8))
        values.withUnsafeBufferPointer { buffer in
            for v in buffer { withUnsafeBytes(of: v.bitPattern.littleEndian) { data.append(contentsOf: $0) } }
        }
        return data
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
