import Foundation

/// Min/max waveform data in the layout of BBC audiowaveform's JSON (version 2, one channel), so
/// waveform-data.js and peaks.js read it directly.
public struct Waveform: Sendable, Equatable {
    public var sampleRate: Int
    public var samplesPerPixel: Int
    /// 8 or 16: the integer range of ``data`` (±128 or ±32768 full scale).
    public var bits: Int
    /// Interleaved min, max per pixel.
    public var data: [Int32]
    /// Pixels (min/max pairs).
    public var length: Int { data.count / 2 }

    /// Streaming builder: feed mono buffers of any size.
    public struct Builder: Sendable {
        public let sampleRate: Int
        public let samplesPerPixel: Int
        public let bits: Int
        private var data: [Int32] = []
        private var inPixel = 0
        private var lo: Float = .infinity
        private var hi: Float = -.infinity

        /// - Parameters:
        ///   - samplesPerPixel: samples summarised by one min/max pair (≥ 1).
        ///   - bits: 8 or 16, as audiowaveform's `--bits`.
        public init(sampleRate: Int, samplesPerPixel: Int, bits: Int = 16) {
            precondition(samplesPerPixel >= 1 && (bits == 8 || bits == 16))
            self.sampleRate = sampleRate
            self.samplesPerPixel = samplesPerPixel
            self.bits = bits
        }

        /// Convenience: samples per pixel from pixels per second (rounded, at least 1).
        public init(sampleRate: Int, pixelsPerSecond: Double, bits: Int = 16) {
            self.init(sampleRate: sampleRate,
                      samplesPerPixel: Swift.max(1, Int((Double(sampleRate) / pixelsPerSecond).rounded())), bits: bits)
        }

        /// Reserves room for the pixels of `samples` samples (a header's promise, bounded), so the
        /// data is not regrown while a long file streams through.
        public mutating func reserve(samples: Int) {
            data.reserveCapacity(2 * Swift.min(Swift.max(0, samples) / samplesPerPixel + 1, 1 << 22))
        }

        public mutating func add(_ samples: UnsafeBufferPointer<Float>) {
            var offset = 0
            while offset < samples.count {
                let take = Swift.min(samplesPerPixel - inPixel, samples.count - offset)
                let stats = SampleKernels.statistics(UnsafeBufferPointer(rebasing: samples[offset..<(offset + take)]),
                                                     clipThreshold: .infinity)
                lo = Swift.min(lo, stats.minimum)
                hi = Swift.max(hi, stats.maximum)
                inPixel += take
                offset += take
                if inPixel == samplesPerPixel { closePixel() }
            }
        }

        private mutating func closePixel() {
            data.append(quantise(lo))
            data.append(quantise(hi))
            inPixel = 0
            lo = .infinity
            hi = -.infinity
        }

        /// audiowaveform works on 16-bit samples and takes the top byte for 8-bit output.
        private func quantise(_ x: Float) -> Int32 {
            let v = Int32(Swift.min(Swift.max((x * 32768).rounded(), -32768), 32767))
            return bits == 16 ? v : v >> 8
        }

        /// Closes the last, partial pixel and returns the waveform.
        public mutating func finish() -> Waveform {
            if inPixel > 0 { closePixel() }
            return Waveform(sampleRate: sampleRate, samplesPerPixel: samplesPerPixel, bits: bits, data: data)
        }
    }

    /// The audiowaveform JSON document.
    public func audiowaveformJSON() -> String {
        var s = "{\"version\":2,\"channels\":1,\"sample_rate\":\(sampleRate),\"samples_per_pixel\":\(samplesPerPixel),"
        s += "\"bits\":\(bits),\"length\":\(length),\"data\":["
        s.reserveCapacity(s.utf8.count + data.count * 5)
        for (i, v) in data.enumerated() {
            if i > 0 { s += "," }
            s += String(v)
        }
        s += "]}\n"
        return s
    }

    /// Writes ``audiowaveformJSON()`` to `sink` without building the text in memory.
    public func writeAudiowaveformJSON(to sink: ByteSink) throws {
        try sink.write("{\"version\":2,\"channels\":1,\"sample_rate\":\(sampleRate),\"samples_per_pixel\":\(samplesPerPixel),")
        try sink.write("\"bits\":\(bits),\"length\":\(length),\"data\":[")
        for (i, v) in data.enumerated() {
            if i > 0 { try sink.write(byte: UInt8(ascii: ",")) }
            try sink.write(Int(v))
        }
        try sink.write("]}\n")
    }

    /// An SVG picture: the min/max envelope as one filled path, a centre line and second ticks.
    ///
    /// - Parameters:
    ///   - height: picture height in pixels; the width is one pixel per min/max pair.
    public func svg(height: Int = 160, title: String? = nil) -> String {
        let width = Swift.max(length, 1)
        let full = Double(bits == 16 ? 32768 : 128)
        let mid = Double(height) / 2
        let scale = (mid - 2) / full
        func y(_ v: Int32) -> String { String(format: "%.1f", mid - Double(v) * scale) }
        var path = "M0,\(y(length > 0 ? data[1] : 0))"
        for p in 0..<length { path += "L\(p),\(y(data[2 * p + 1]))L\(p + 1),\(y(data[2 * p + 1]))" }
        for p in stride(from: length - 1, through: 0, by: -1) { path += "L\(p + 1),\(y(data[2 * p]))L\(p),\(y(data[2 * p]))" }
        path += "Z"
        let pixelsPerSecond = Double(sampleRate) / Double(samplesPerPixel)
        var ticks = ""
        let seconds = Int(Double(length) / pixelsPerSecond)
        if seconds > 0 {
            let step = Swift.max(1, seconds / 20)
            for s in stride(from: 0, through: seconds, by: step) {
                let x = String(format: "%.1f", Double(s) * pixelsPerSecond)
                ticks += "<line x1=\"\(x)\" y1=\"\(height - 10)\" x2=\"\(x)\" y2=\"\(height)\" stroke=\"#888\"/>"
                ticks += "<text x=\"\(x)\" y=\"\(height - 12)\" font-size=\"10\" fill=\"#666\" font-family=\"sans-serif\">\(s)s</text>"
            }
        }
        let caption = title.map { "<title>\(escapeXML($0))</title>" } ?? ""
        return """
            <svg xmlns="http://www.w3.org/2000/svg" width="\(width)" height="\(height)" viewBox="0 0 \(width) \(height)">\
            \(caption)<rect width="100%" height="100%" fill="#fff"/>\
            <line x1="0" y1="\(mid)" x2="\(width)" y2="\(mid)" stroke="#ccc"/>\
            <path d="\(path)" fill="#2a6fdb" stroke="#2a6fdb" stroke-width="0.5"/>\(ticks)</svg>

            """
    }
}

private func escapeXML(_ s: String) -> String {
    s.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
        .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
}
