@preconcurrency import CTesseract
import Foundation

/// Leptonica's `pixSauvolaBinarize(pix, whsize, factor, addborder: 1, …)`, bit for bit, at a
/// fraction of its cost.
///
/// Leptonica builds two whole-image summed-area tables (one of doubles, 8 bytes a pixel) on a
/// mirrored copy of the image, and the MRZ locator runs it twice on every page: in a C timing of
/// the locator's Leptonica steps on a 2000-px page, the two calls took longer than scaling,
/// contrast stretching and both component passes together. Here the window sums come from running column sums
/// over the same mirrored border, one row at a time, in integers (exact, as Leptonica's doubles
/// are for sums below 2⁵³); the mean, mean square, standard deviation and threshold are then
/// rounded exactly as Leptonica rounds them (tested against the library on photos and scans).
enum Sauvola {
    /// sqrtf of every possible variance, as Leptonica tabulates it.
    static let roots = (0..<65536).map { Float($0).squareRoot() }

    /// The window mean for every possible window sum, through the same Float product Leptonica
    /// truncates (a table: Float-to-Int conversions with their range checks were the loop's cost).
    static func means(span: Int) -> [UInt8] {
        let norm = 1 / (Float(span) * Float(span))
        return (0...(span * span * 255)).map { UInt8(truncatingIfNeeded: Int(norm * Float($0))) }
    }

    /// ``means(span:)`` for the locator's window (whsize 12), made once.
    static let means25 = means(span: 25)

    /// A 1-bpp image with a pixel set where the grey level is below its local Sauvola threshold,
    /// or nil when the image is too small for the window (as Leptonica refuses it).
    static func binarize(_ pix8: UnsafeMutablePointer<Pix>, whsize: Int = 12, factor: Float = 0.34) -> UnsafeMutablePointer<Pix>? {
        guard pixGetDepth(pix8) == 8, pixGetColormap(pix8) == nil, whsize >= 2, factor >= 0,
              let gray = GrayImage(pix8: pix8) else { return nil }
        let w = gray.width, h = gray.height
        guard w >= 2 * whsize + 3, h >= 2 * whsize + 3, let out = pixCreate(Int32(w), Int32(h), 1), let bits = pixGetData(out) else { return nil }
        pixCopyResolution(out, pix8)
        let wpl = Int(pixGetWpl(out))
        let border = whsize + 1, span = 2 * whsize + 1
        // Mirrored border as pixAddMirroredBorder makes it: the edge pixel repeated (…c b a | a b c…).
        func mirror(_ v: Int, _ n: Int) -> Int { v < border ? border - 1 - v : v < border + n ? v - border : 2 * n + border - 1 - v }
        let pw = w + 2 * border, ph = h + 2 * border
        // The bordered copy, once (each output row then reads two of its rows). Wrapping
        // arithmetic below: the sums are exact in 32 bits (625 × 255² < 2³²), and without overflow
        // traps the column updates vectorise.
        var padded = [UInt8](repeating: 0, count: pw * ph)
        gray.pixels.withUnsafeBufferPointer { px in
            padded.withUnsafeMutableBufferPointer { pad in
                for y in 0..<ph {
                    let source = px.baseAddress! + mirror(y, h) * w, target = pad.baseAddress! + y * pw
                    (target + border).update(from: source, count: w)
                    for x in 0..<border {
                        target[x] = source[border - 1 - x]
                        target[border + w + x] = source[w - 1 - x]
                    }
                }
            }
        }
        let normSquare = 1 / (Double(span) * Double(span))
        let k = Double(factor)
        let means = span == 25 ? Self.means25 : Self.means(span: span)
        var sums = [UInt32](repeating: 0, count: pw), squares = [UInt32](repeating: 0, count: pw)
        gray.pixels.withUnsafeBufferPointer { px in
            padded.withUnsafeBufferPointer { pad in
                sums.withUnsafeMutableBufferPointer { sums in
                    squares.withUnsafeMutableBufferPointer { squares in
                        Self.roots.withUnsafeBufferPointer { roots in
                          means.withUnsafeBufferPointer { means in
                            let means = means.baseAddress!
                            let pad = pad.baseAddress!, sums = sums.baseAddress!, squares = squares.baseAddress!
                            // Output row i covers padded rows i + 1 ... i + span (Leptonica's window offsets).
                            for r in 1...span {
                                let row = pad + r * pw
                                for x in 0..<pw {
                                    let v = UInt32(row[x])
                                    sums[x] &+= v
                                    squares[x] &+= v &* v
                                }
                            }
                            for i in 0..<h {
                                if i > 0 {
                                    let leaving = pad + i * pw, entering = pad + (i + span) * pw
                                    for x in 0..<pw {
                                        let a = UInt32(leaving[x]), b = UInt32(entering[x])
                                        sums[x] = sums[x] &- a &+ b
                                        squares[x] = squares[x] &- a &* a &+ b &* b
                                    }
                                }
                                var s: UInt32 = 0, q: UInt32 = 0
                                for x in 1...span { s &+= sums[x]; q &+= squares[x] }
                                let line = UnsafeMutableRawPointer(bits + i * wpl).assumingMemoryBound(to: UInt32.self)
                                let source = px.baseAddress! + i * w
                                var word: UInt32 = 0
                                for j in 0..<w {
                                    if j > 0 {
                                        s = s &- sums[j] &+ sums[j &+ span]
                                        q = q &- squares[j] &+ squares[j &+ span]
                                    }
                                    let mean = Int32(means[Int(s)]), v = Int32(source[j])
                                    // The threshold never exceeds the mean: 8-bit values deviate by at
                                    // most 127.5, and by 128.5 with the mean truncated, which lifts
                                    // t = m(1 − k(1 − sd/128)) by under 0.2 before it is truncated. A
                                    // pixel at or above the mean is paper whatever the deviation.
                                    if v < mean {
                                        let meanSquare = Int(normSquare * Double(q) + 0.5)
                                        let sd = roots[min(65535, max(0, meanSquare - Int(mean) * Int(mean)))]
                                        let threshold = Int(Double(mean) * (1.0 - k * (1.0 - Double(sd) / 128.0)))
                                        // 1 bpp words are big-endian: pixel 0 is the word's top bit.
                                        if Int(v) < threshold { word |= 0x8000_0000 >> UInt32(j & 31) }
                                    }
                                    if j & 31 == 31 || j == w - 1 {
                                        line[j >> 5] = word
                                        word = 0
                                    }
                                }
                            }
                          }
                        }
                    }
                }
            }
        }
        return out
    }
}
