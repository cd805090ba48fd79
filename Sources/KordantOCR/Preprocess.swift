@preconcurrency import CTesseract
import Foundation

/// Which preprocessing steps run. Defaults are the steps that measurably lower character error on
/// TestDocuments (see README): Sauvola binarisation is available but off, because Tesseract's own
/// thresholding did as well on every variant.
public struct PreprocessOptions: Sendable, Hashable, Codable {
    public var grayscale = true
    public var orientation = true
    public var rescale = true
    public var deskew = true
    public var normalizeBackground = true
    public var binarize = false
    /// OSD confidence needed before a page is turned. Full pages score 10–22 here; small cards
    /// with little text score below 3 in either direction, so they are left to the upside-down retry.
    public var orientationConfidence: Float = 5
    /// Target height of capital letters in pixels (~10–12 pt text at 300 DPI).
    public var targetCapHeight = 30.0

    public init() {}

    /// Everything off: OCR of the image as loaded.
    public static var none: PreprocessOptions {
        var o = PreprocessOptions()
        o.grayscale = false
        o.orientation = false
        o.rescale = false
        o.deskew = false
        o.normalizeBackground = false
        o.binarize = false
        return o
    }
}

/// What preprocessing did to a page.
public struct PreprocessReport: Sendable, Equatable, Codable {
    public var steps: [String] = []
    /// Clockwise rotation applied to make the page upright (0, 90, 180, 270), by OSD or by the
    /// upside-down retry.
    public var rotation = 0
    public var orientationConfidence: Float?
    /// Skew found (degrees; the page was rotated by its opposite) and Leptonica's confidence.
    public var skewAngle: Float?
    public var skewConfidence: Float?
    public var scale: Double = 1
    /// Median capital-letter height found, in pixels, before rescaling.
    public var textHeight: Double?
    /// Resolution handed to Tesseract.
    public var resolution = 300
}

enum Preprocessor {
    /// Runs the enabled steps; `osd` detects orientation (nil: no orientation step).
    static func run(_ input: LeptImage, options o: PreprocessOptions, osd: TesseractHandle?) throws(OCRError) -> (LeptImage, PreprocessReport) {
        var report = PreprocessReport()
        var image = input
        let sourceResolution = input.resolution >= 70 && input.resolution <= 1200 ? input.resolution : 300
        report.resolution = sourceResolution
        if o.grayscale || o.deskew || o.normalizeBackground || o.rescale || o.binarize {
            if image.depth != 8 || pixGetColormap(image.pix) != nil {
                image = try LeptImage.make(pixConvertTo8(image.pix, 0), "grayscale conversion")
                report.steps.append("grayscale")
            }
        }
        if o.normalizeBackground {
            // Flattens uneven lighting (shadows, vignetting) to a uniform background.
            if let flat = pixBackgroundNormSimple(image.pix, nil, nil) {
                image = LeptImage(flat)
                report.steps.append("background")
            }
        }
        if o.rescale, let height = capHeight(image) {
            report.textHeight = height
            if height < o.targetCapHeight * 0.7 {
                let factor = min(4, o.targetCapHeight / height)
                image = try LeptImage.make(pixScale(image.pix, Float(factor), Float(factor)), "rescale")
                report.scale = factor
                report.resolution = Int((Double(sourceResolution) * factor).rounded())
                report.steps.append("rescale")
            }
        }
        if o.orientation, let osd {
            if let (degrees, confidence) = osd.orientation(of: image, resolution: report.resolution) {
                report.orientationConfidence = confidence
                if degrees != 0 && confidence >= o.orientationConfidence {
                    // Tesseract reports how far the text is turned counter-clockwise from upright
                    // (a page fed in turned 90° clockwise reads 90); turning it clockwise by the
                    // rest of the circle makes it upright.
                    let clockwise = (360 - degrees) % 360
                    image = try LeptImage.make(pixRotateOrth(image.pix, Int32(clockwise / 90)), "rotation")
                    report.rotation = clockwise
                    report.steps.append("orientation")
                }
            }
        }
        if o.deskew {
            if let binary = pixConvertTo1(image.pix, 160) {
                var b: UnsafeMutablePointer<Pix>? = binary
                var angle: Float = 0, conf: Float = 0
                // ±12° sweep: Leptonica's default ±7° reports zero confidence for pages at the edge of it.
                if pixFindSkewSweepAndSearch(binary, &angle, &conf, 4, 2, 12, 1, 0.01) == 0 {
                    report.skewAngle = angle
                    report.skewConfidence = conf
                    if conf >= 2.5 && abs(angle) >= 0.1 {
                        let rotated = pixRotate(image.pix, angle * .pi / 180, Int32(L_ROTATE_AREA_MAP),
                                                Int32(L_BRING_IN_WHITE), 0, 0)
                        image = try LeptImage.make(rotated, "deskew")
                        report.steps.append("deskew")
                    }
                }
                pixDestroy(&b)
            }
        }
        if o.binarize {
            var out: UnsafeMutablePointer<Pix>?
            if pixSauvolaBinarizeTiled(image.pix, 25, 0.35, 1, 1, nil, &out) == 0, let out {
                image = LeptImage(out)
                report.steps.append("binarize")
            }
        }
        return (image, report)
    }

    /// Median height of letter-sized connected components (a proxy for cap height), or nil.
    static func capHeight(_ image: LeptImage) -> Double? {
        guard let binary = pixConvertTo1(image.pix, 150) else { return nil }
        var b: UnsafeMutablePointer<Pix>? = binary
        defer { pixDestroy(&b) }
        guard let boxa = pixConnCompBB(binary, 8) else { return nil }
        var ba: UnsafeMutablePointer<Boxa>? = boxa
        defer { boxaDestroy(&ba) }
        var heights: [Int32] = []
        let n = boxaGetCount(boxa)
        for i in 0..<n {
            var x: Int32 = 0, y: Int32 = 0, w: Int32 = 0, h: Int32 = 0
            boxaGetBoxGeometry(boxa, i, &x, &y, &w, &h)
            // Letters: taller than specks, not lines or rules, roughly letter-shaped.
            if h >= 6 && h <= 300 && w >= 2 && w <= h * 3 { heights.append(h) }
        }
        guard heights.count >= 20 else { return nil }
        heights.sort()
        // Upper quartile: x-height letters are the majority; capitals and ascenders sit above them.
        return Double(heights[heights.count * 3 / 4])
    }
}
