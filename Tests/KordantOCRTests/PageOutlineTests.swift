@preconcurrency import CTesseract
import Foundation
@testable import KordantOCR
import Testing

/// A page photographed on a desk: turned by any angle, tilted in depth, on a darker mottled
/// surface. `PageOutline` finds its four corners and warps it flat; pages it cannot be sure of
/// (scans, pages cut off by the frame, paper on pale tables, shapes that are not four-sided) are
/// left alone. Photos are made here from TestDocuments pages and a known homography, so the true
/// corners are known; the end-to-end test reads them with real Leptonica and Tesseract.
@Suite struct PageOutlineTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path

    /// A mottled desk, 60–140 grey, deterministic.
    static func desk(_ x: Int, _ y: Int) -> Double {
        95 + 30 * sin(Double(x) / 37 + 2 * sin(Double(y) / 53)) * cos(Double(y) / 29) + Double((x &* 7919 ^ y &* 104_729) % 15)
    }

    /// `page` seen in a `width` × `height` photo with its top-left, top-right, bottom-right and
    /// bottom-left corners at `corners`, on `surface`.
    static func photograph(_ page: GrayImage, corners: [PagePoint], width: Int, height: Int,
                           surface: (Int, Int) -> Double = desk) -> GrayImage {
        // Invert the unit-square map (a 3×3 matrix) to go from photo pixels to page positions.
        let m = PageOutline.unitSquareMap(to: corners)
        let (a, b, c, d, e, f, g, h) = (m[0], m[1], m[2], m[3], m[4], m[5], m[6], m[7])
        let i0 = e - f * h, i1 = c * h - b, i2 = b * f - c * e
        let i3 = f * g - d, i4 = a - c * g, i5 = c * d - a * f
        let i6 = d * h - e * g, i7 = b * g - a * h, i8 = a * e - b * d
        var pixels = [UInt8](repeating: 0, count: width * height)
        for y in 0..<height {
            for x in 0..<width {
                let px = Double(x) + 0.5, py = Double(y) + 0.5
                let z = i6 * px + i7 * py + i8
                let u = (i0 * px + i1 * py + i2) / z, v = (i3 * px + i4 * py + i5) / z
                let value = (0...1).contains(u) && (0...1).contains(v)
                    ? page.sample(u * Double(page.width), v * Double(page.height)) : surface(x, y)
                pixels[y * width + x] = UInt8(max(0, min(255, value.rounded())))
            }
        }
        return GrayImage(width: width, height: height, pixels: pixels)
    }

    /// Corners of a `w` × `h` page turned by `degrees` about (cx, cy), its far (top) edge shrunk
    /// by `tilt` as a camera looking down at an angle sees it.
    static func pose(w: Double, h: Double, cx: Double, cy: Double, degrees: Double, tilt: Double) -> [PagePoint] {
        let flat = [(-w / 2 * (1 - tilt), -h / 2), (w / 2 * (1 - tilt), -h / 2), (w / 2, h / 2), (-w / 2, h / 2)]
        let r = degrees * .pi / 180
        return flat.map { PagePoint(x: cx + $0.0 * cos(r) - $0.1 * sin(r), y: cy + $0.0 * sin(r) + $0.1 * cos(r)) }
    }

    /// A plain page: white paper with dark text-like bars, 850 × 1100.
    static func barsPage() -> GrayImage {
        let w = 850, h = 1100
        var pixels = [UInt8](repeating: 246, count: w * h)
        for line in 0..<30 {
            let y0 = 90 + line * 30, length = 300 + (line * 137) % 400
            for y in y0..<(y0 + 12) {
                for x in 90..<(90 + length) where (x / 9) % 6 != 5 { pixels[y * w + x] = 30 }
            }
        }
        return GrayImage(width: w, height: h, pixels: pixels)
    }

    @Test(arguments: [0.0, 8, -14, 33, 60, 95, 180, 250])
    func cornersOfATurnedTiltedPage(degrees: Double) throws {
        let truth = Self.pose(w: 900, h: 1160, cx: 900, cy: 1000, degrees: degrees, tilt: 0.12)
        let photo = Self.photograph(Self.barsPage(), corners: truth, width: 1800, height: 2000)
        let outline = try #require(PageOutline.find(in: photo), "no outline at \(degrees)°")
        // The same corners, in the same clockwise order, starting wherever the page's top edge
        // now is: at most a quarter turn away from each true corner, within 1 % of the photo.
        let shift = try #require((0..<4).first { s in
            (0..<4).allSatisfy { i in
                let p = outline.corners[i], q = truth[(i + s) % 4]
                return abs(p.x - q.x) < 20 && abs(p.y - q.y) < 20
            }
        }, "\(outline.corners) against \(truth)")
        // The edge read as the top runs left to right (within 45°), so the page comes out upright
        // to the nearest quarter turn.
        let top = (outline.corners[1].x - outline.corners[0].x, outline.corners[1].y - outline.corners[0].y)
        #expect(top.0 > abs(top.1), "shift \(shift): top edge \(top)")
        let turns = Int(((degrees + 45).truncatingRemainder(dividingBy: 360) + 360).truncatingRemainder(dividingBy: 360) / 90)
        #expect(shift == (4 - turns) % 4, "\(degrees)°: shift \(shift)")
    }

    @Test func pagesWithoutAWholeOutlineOnADarkerSurroundAreLeftAlone() throws {
        let page = Self.barsPage()
        // A scan: the page fills the frame.
        #expect(PageOutline.find(in: page) == nil)
        // A page running off the frame.
        let cut = Self.pose(w: 900, h: 1160, cx: 500, cy: 700, degrees: 10, tilt: 0.05)
        #expect(PageOutline.find(in: Self.photograph(page, corners: cut, width: 1200, height: 1400)) == nil)
        // Paper on a pale table: too little contrast to trust an outline.
        let pale = Self.pose(w: 700, h: 900, cx: 600, cy: 700, degrees: 12, tilt: 0.1)
        #expect(PageOutline.find(in: Self.photograph(page, corners: pale, width: 1200, height: 1400) { _, _ in 238 }) == nil)
        // A round bright shape (a plate, a lamp's pool of light) is no page.
        var disc = [UInt8](repeating: 80, count: 1200 * 1200)
        for y in 0..<1200 {
            for x in 0..<1200 where (x - 600) * (x - 600) + (y - 600) * (y - 600) < 400 * 400 { disc[y * 1200 + x] = 240 }
        }
        #expect(PageOutline.find(in: GrayImage(width: 1200, height: 1200, pixels: disc)) == nil)
    }

    /// TestDocuments' warranty deed photographed turned 24° and tilted, on a desk: flattened, its
    /// fields read as on the scan; left as photographed (the step off), they do not.
    @Test func aPhotographedDeedReadsAsTheScan() throws {
        let loaded = try ImageLoader.load(path: Self.root + "/TestDocuments/deed_warranty.clean.png")[0]
        let gray = LeptImage(try #require(pixConvertTo8(loaded.pix, 0)))
        let page = try #require(GrayImage(pix8: gray.pix))
        let corners = Self.pose(w: 1600, h: 1600 * Double(page.height) / Double(page.width), cx: 1150, cy: 1250,
                                degrees: 24, tilt: 0.1)
        let photo = try #require(Self.photograph(page, corners: corners, width: 2300, height: 2500).leptImage())
        let worker = try OCRWorker(orientation: false)
        let flattened = try worker.process(image: photo)
        #expect(flattened.preprocessing.steps.contains("perspective"), "\(flattened.preprocessing.steps)")
        let outline = try #require(flattened.preprocessing.outline)
        for (p, q) in zip(outline, corners) { #expect(abs(p.x - q.x) < 25 && abs(p.y - q.y) < 25, "\(outline) against \(corners)") }
        #expect(flattened.kind == .deed)
        for (name, value) in [("grantor", "MARGARET L. HOLLOWAY"), ("parcel_number", "042-118-07"),
                              ("instrument_number", "2023-0045871"), ("recording_date", "2023-03-14")] {
            #expect(flattened.fields[name]?.value == .text(value), "\(name): \(String(describing: flattened.fields[name]))")
        }
        // Boxes are in the photo's pixels, not the flattened page's: every word inside the photo,
        // every field inside the page's outline in it.
        #expect(flattened.width == 2300 && flattened.height == 2500)
        for word in flattened.words {
            #expect(word.box.x >= 0 && word.box.y >= 0 && word.box.x + word.box.width <= 2300 && word.box.y + word.box.height <= 2500)
        }
        let xs = corners.map(\.x), ys = corners.map(\.y)
        for (name, field) in flattened.fields {
            let box = try #require(field.box, "\(name)")
            let (cx, cy) = (Double(box.x) + Double(box.width) / 2, Double(box.y) + Double(box.height) / 2)
            #expect(cx > xs.min()! && cx < xs.max()! && cy > ys.min()! && cy < ys.max()!, "\(name) at \(box)")
        }
        var off = OCROptions()
        off.preprocess.perspective = false
        let asTaken = try worker.process(image: photo, options: off)
        let right = ["grantor", "parcel_number", "instrument_number", "recording_date"].filter {
            asTaken.fields[$0]?.value == flattened.fields[$0]?.value
        }
        #expect(right.count < 4, "the photo read as well without flattening: \(right)")
    }

    /// A passport data page photographed on a cloth (generated dev page 70, committed in
    /// Tests/Fixtures/ocr-fallback). Flattened, it is found an identity page by its words; the
    /// automatic layout drops the column of labels and values beside the photo, so the page is
    /// read again sparsely for the fields still missing. The given names, printed in Cyrillic,
    /// are never reported as read without review.
    @Test func aPhotographedPassportPage() throws {
        let path = Self.root + "/Tests/Fixtures/ocr-fallback/dev-070-id-passport-page-phone.jpg"
        let image = try ImageLoader.load(path: path)[0]
        var options = OCROptions()
        // Any clock will do: only which steps ran is checked.
        options.stepClock = { 0 }
        let page = try OCRWorker(orientation: false).process(image: image, options: options)
        #expect(page.preprocessing.steps.contains("perspective"), "\(page.preprocessing.steps)")
        #expect(page.kind == .id)
        #expect(page.timings.map(\.step).contains("sparse"), "\(page.timings.map(\.step))")
        // The surname as printed, with its accent (the corpus's truth spells it "WOJCIK").
        let expected = ["surname": "WÓJCIK", "nationality": "USA", "date_of_birth": "1958-04-19", "sex": "F",
                        "document_number": "C14E28416", "expiry_date": "2027-06-27"]
        for (name, value) in expected {
            #expect(page.fields[name]?.value == .text(value), "\(name): \(String(describing: page.fields[name]))")
        }
        if let given = page.fields["given_names"], given.value != .text("ЯН") { #expect(given.needsReview) }
    }
}
