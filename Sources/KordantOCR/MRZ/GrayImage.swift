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
        let out = [UInt8](unsafeUninitializedCapacity: w * h) { dst, count in
            for y in 0..<h {
                // Leptonica stores bytes big-endian within 32-bit words: byte x sits at x ^ 3, so
                // whole words are copied byte-swapped and the row's tail byte by byte.
                let words = data + y * wpl
                let row = UnsafeRawPointer(words).assumingMemoryBound(to: UInt8.self)
                let target = UnsafeMutableRawPointer(dst.baseAddress! + y * w)
                let whole = w / 4
                for i in 0..<whole { target.storeBytes(of: words[i].byteSwapped, toByteOffset: 4 * i, as: UInt32.self) }
                for x in (4 * whole)..<w { dst[y * w + x] = row[x ^ 3] }
            }
            count = w * h
        }
        self.init(width: w, height: h, pixels: out)
    }

    /// The brightest of the three channels of a 32-bpp RGB image, as a new 8-bit Leptonica image
    /// and as a ``GrayImage``, in one pass: what `pixConvertRGBToGrayMinMax(pix, L_CHOOSE_MAX)`
    /// gives, without its function call per pixel. Nil for any other depth.
    static func brightestChannel(of pix: UnsafeMutablePointer<Pix>) -> (LeptImage, GrayImage)? {
        guard pixGetDepth(pix) == 32, let source = pixGetData(pix) else { return nil }
        let w = Int(pixGetWidth(pix)), h = Int(pixGetHeight(pix)), wpl = Int(pixGetWpl(pix))
        guard w > 0, h > 0, let out = pixCreate(Int32(w), Int32(h), 8), let target = pixGetData(out) else { return nil }
        let image = LeptImage(out)
        pixCopyResolution(out, pix)
        let twpl = Int(pixGetWpl(out))
        let pixels = [UInt8](unsafeUninitializedCapacity: w * h) { dst, count in
            for y in 0..<h {
                // A 32-bpp pixel is one word: red in the top byte, then green, then blue.
                let row = source + y * wpl
                let line = dst.baseAddress! + y * w
                for x in 0..<w {
                    let v = row[x]
                    line[x] = UInt8(truncatingIfNeeded: max(v >> 24, max((v >> 16) & 0xff, (v >> 8) & 0xff)))
                }
                let words = target + y * twpl
                let whole = w / 4
                let bytes = UnsafeMutableRawPointer(words).assumingMemoryBound(to: UInt8.self)
                for i in 0..<whole { words[i] = UnsafeRawPointer(line + 4 * i).loadUnaligned(as: UInt32.self).byteSwapped }
                for x in (4 * whole)..<w { bytes[x ^ 3] = line[x] }
            }
            count = w * h
        }
        return (image, GrayImage(width: w, height: h, pixels: pixels))
    }

    /// Whether every pixel is black or white (a fax, or a page thresholded before it came here),
    /// whatever depth it was loaded at. Stops at the first grey.
    var isBilevel: Bool {
        pixels.withUnsafeBufferPointer { p in !p.contains { $0 != 0 && $0 != 255 } }
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
