@preconcurrency import CTesseract
import Foundation

/// A red rubber stamp ("RECORDED", "RECEIVED") over a page's text. Converted to grey by
/// luminance, its ink (about 135 where laid over paper) is as dark as print to Tesseract's
/// threshold: where it crosses a line, the line's words break up or drop out ("Recorded on: 10
/// January 20" for "… 2017", "for and in considbratian@RDEDP"). As a scanner's red drop-out
/// does, the ink is taken out: a red pixel's green and blue say what lies under the ink (bare
/// paper, or print, which is dark in every channel), so the stamp fades to paper and the print
/// under it stays as dark as it was.
extension Preprocessor {
    /// A pixel is red ink when its red channel exceeds both others by this much (a stamp's ink
    /// over paper or over print: 110 or more; paper, grey and black print, blue ink: about 0).
    static let redExcess: UInt32 = 70
    /// The share of a page's pixels that a stamp's red ink covers (dev pages: 0.04–0.2 %). Past
    /// this much red is no stamp (a photo taken on a red cloth or table), and it is left alone.
    static let stampShare: ClosedRange<Double> = 0.0002...0.03
    /// A stamp's red ink (its border, or its letters run together) spans at least this share of
    /// the page's shorter side both ways (dev stamps: 7 % or more; red field numbers on a card: 3 %).
    static let stampSize = 0.05
    /// A stamp's ink is light: over paper its green and blue stay at least this high (dev stamps:
    /// 105–130 at the median). Red print is solid: a licence's red field numbers, which label its
    /// values, and a maroon title band measure 59–88, and are left as they are (so is a stamp
    /// under a shadow, 61–77).
    static let lightInk = 95

    /// Lightens `gray` (the 8-bit conversion of `color`, the same size) where `color` has red
    /// ink: to what lies under the ink, and beside it to the red channel; never darker. False,
    /// and `gray` untouched, when the page has no stamp's share of red ink.
    static func dropRedInk(_ color: LeptImage, into gray: LeptImage) -> Bool {
        guard pixGetDepth(color.pix) == 32, pixGetDepth(gray.pix) == 8, pixGetColormap(gray.pix) == nil,
              color.width == gray.width, color.height == gray.height,
              let source = pixGetData(color.pix), let target = pixGetData(gray.pix) else { return false }
        let w = color.width, h = color.height
        let sourceWords = Int(pixGetWpl(color.pix)), targetWords = Int(pixGetWpl(gray.pix))
        // Leptonica packs a pixel as red, green, blue, alpha from the high byte down.
        @inline(__always) func red(_ p: UInt32) -> UInt32? {
            let r = p >> 24, g = (p >> 16) & 0xff, b = (p >> 8) & 0xff
            return r >= max(g, b) + redExcess ? r : nil
        }
        guard let mask = pixCreate(Int32(w), Int32(h), 1).map(LeptImage.init), let bits = pixGetData(mask.pix) else { return false }
        let maskWords = Int(pixGetWpl(mask.pix))
        var count = 0
        // How light the ink's green and blue are over bare paper: most of a stamp is.
        var levels = [Int](repeating: 0, count: 256)
        for y in 0..<h {
            let row = source + y * sourceWords, marks = bits + y * maskWords
            // (A 1-bit row's pixels run from each 32-bit word's high bit down.)
            for x in 0..<w where red(row[x]) != nil {
                marks[x >> 5] |= 0x8000_0000 >> UInt32(x & 31)
                count += 1
                levels[Int((((row[x] >> 16) & 0xff) + ((row[x] >> 8) & 0xff)) / 2)] += 1
            }
        }
        guard stampShare.contains(Double(count) / Double(max(1, w * h))) else { return false }
        var seen = 0
        let overPaper = max(1, levels.firstIndex { seen += $0; return seen * 2 >= count } ?? 255)
        guard overPaper >= lightInk else { return false }
        // Only ink of a stamp's size (its letters and border run together into one blob): a
        // card's field numbers printed in red ("1", "4d") are print. And the ink's edge too: a
        // JPEG keeps colour at half the resolution of lightness, so a stamp's outermost pixels
        // are dark with half their red, and left so they would be specks. Near red ink every
        // pixel takes its red channel where that is lighter (print is as dark in red as in
        // lightness, so it stays).
        let least = Int32(max(8, Double(min(w, h)) * stampSize))
        guard let blobs = pixDilateBrick(nil, mask.pix, 21, 21).map(LeptImage.init),
              let stamps = pixSelectBySize(blobs.pix, least, least, 8, Int32(L_SELECT_IF_BOTH), Int32(L_SELECT_IF_GTE), nil).map(LeptImage.init),
              let grown = pixDilateBrick(nil, mask.pix, 5, 5).map(LeptImage.init), pixAnd(grown.pix, grown.pix, stamps.pix) != nil
        else { return false }
        var empty: Int32 = 1
        guard pixZero(grown.pix, &empty) == 0, empty == 0, let near = pixGetData(grown.pix) else { return false }
        for y in 0..<h {
            let row = source + y * sourceWords, marks = near + y * maskWords
            // Bytes of an 8-bit row are in big-endian order within each 32-bit word (hence `x ^ 3`).
            let out = UnsafeMutableRawPointer(target + y * targetWords).assumingMemoryBound(to: UInt8.self)
            for x in 0..<w where marks[x >> 5] & (0x8000_0000 >> UInt32(x & 31)) != 0 {
                let p = row[x]
                // Red ink: what lies under it, from its green and blue, scaled so that ink over bare
                // paper is paper (the ink over print stays as dark as the print). Beside it: red.
                let lighter = red(p) == nil ? UInt8(p >> 24)
                    : UInt8(min(255, Int((((p >> 16) & 0xff) + ((p >> 8) & 0xff)) / 2) * 255 / overPaper))
                if lighter > out[x ^ 3] { out[x ^ 3] = lighter }
            }
        }
        return true
    }
}
