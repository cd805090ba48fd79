@preconcurrency import CTesseract
import Foundation

/// An 8-bit grey raster held in a Swift array (row-major, 0 = black), for the MRZ code's own
/// sampling: rectifying a band means reading single pixels at fractional positions, which is
/// cheaper here than through Leptonica's word-packed rows.
struct GrayImage {
    let width: Int
    let height: Int
    var pixels: [UInt8]

    init(width: Int, height: Int, pixels: [UInt8]) {
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// A copy of an 8-bit image without a palette.
    init?(pix8 pix: UnsafeMutablePointer<Pix>) {
        guard pixGetDepth(pix) == 8, let data = pixGetData(pix) else { return nil }
        let w = Int(pixGetWidth(pix)), h = Int(pixGetHeight(pix)), wpl = Int(pixGetWpl(pix))
        guard w > 0, h > 0 else { return nil }
        var out = [UInt8](repeating: 0, count: w * h)
        out.withUnsafeMutableBufferPointer { dst in
            for y in 0..<h {
                // Leptonica stores bytes big-endian within 32-bit words: byte x sits at x ^ 3.
                let row = UnsafeRawPointer(data + y * wpl).assumingMemoryBound(to: UInt8.self)
                let base = y * w
                for x in 0..<w { dst[base + x] = row[x ^ 3] }
            }
        }
        self.init(width: w, height: h, pixels: out)
    }

    /// A new 8-bit Leptonica image with these pixels (caller owns it through `LeptImage`).
    func leptImage() -> LeptImage? {
        guard let pix = pixCreate(Int32(width), Int32(height), 8), let data = pixGetData(pix) else { return nil }
        let wpl = Int(pixGetWpl(pix))
        pixels.withUnsafeBufferPointer { src in
            for y in 0..<height {
                let row = UnsafeMutableRawPointer(data + y * wpl).assumingMemoryBound(to: UInt8.self)
                let base = y * width
                for x in 0..<width { row[x ^ 3] = src[base + x] }
            }
        }
        pixSetResolution(pix, 300, 300)
        return LeptImage(pix)
    }

    /// Bilinear sample at (x, y) in pixel-centre coordinates; outside the image reads as white
    /// paper (a band cut at the edge shows up as missing glyphs, never as ink).
    @inline(__always)
    func sample(_ x: Double, _ y: Double) -> Double {
        let fx = x - 0.5, fy = y - 0.5
        let x0 = Int(fx.rounded(.down)), y0 = Int(fy.rounded(.down))
        let ax = fx - Double(x0), ay = fy - Double(y0)
        @inline(__always) func at(_ x: Int, _ y: Int) -> Double {
            guard x >= 0, y >= 0, x < width, y < height else { return 255 }
            return Double(pixels[y * width + x])
        }
        let top = at(x0, y0) * (1 - ax) + at(x0 + 1, y0) * ax
        let bottom = at(x0, y0 + 1) * (1 - ax) + at(x0 + 1, y0 + 1) * ax
        return top * (1 - ay) + bottom * ay
    }
}
