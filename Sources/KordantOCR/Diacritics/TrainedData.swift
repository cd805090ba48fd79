import Foundation

/// A Tesseract `.traineddata` container: a count of entries, one 64-bit offset per entry (-1 for
/// an absent one), then the entries back to back.
enum TrainedData {
    /// The entry of the LSTM's word list (`TESSDATA_LSTM_SYSTEM_DAWG`).
    static let lstmWordList = 19

    /// The container at `path` without the entries in `dropping`, or nil when it cannot be read.
    /// Tesseract reads a whole container into memory before it looks at it: the Latin script's
    /// word list of all Latin-script languages is 88.8 of its 89.4 MB (0.65 s and 280 MB to load
    /// where English takes 0.11 s), and names are no dictionary words anyway.
    static func load(path: String, dropping: Set<Int>) -> Data? {
        guard let file = try? Data(contentsOf: URL(fileURLWithPath: path), options: .alwaysMapped), file.count >= 4 else { return nil }
        let count = Int(file.withUnsafeBytes { $0.loadUnaligned(as: Int32.self) }.littleEndian)
        let header = 4 + 8 * count
        guard (1...64).contains(count), file.count >= header else { return nil }
        let offsets = (0..<count).map { i in Int(file.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: 4 + 8 * i, as: Int64.self) }.littleEndian) }
        // Each entry runs to the next present one, the last to the end of the file.
        var entries: [Data?] = []
        for (i, start) in offsets.enumerated() {
            guard start >= 0 else { entries.append(nil); continue }
            let end = offsets[(i + 1)...].first { $0 >= 0 } ?? file.count
            guard start >= header, end >= start, end <= file.count else { return nil }
            entries.append(dropping.contains(i) ? nil : file.subdata(in: start..<end))
        }
        var out = Data()
        out.reserveCapacity(header + entries.reduce(0) { $0 + ($1?.count ?? 0) })
        withUnsafeBytes(of: Int32(count).littleEndian) { out.append(contentsOf: $0) }
        var next = Int64(header)
        for e in entries {
            withUnsafeBytes(of: (e == nil ? Int64(-1) : next).littleEndian) { out.append(contentsOf: $0) }
            next += Int64(e?.count ?? 0)
        }
        for e in entries { if let e { out.append(e) } }
        return out
    }
}
