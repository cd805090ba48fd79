@preconcurrency import CTesseract
import Foundation
@testable import KordantOCR
import Testing

/// Boxes are reported in the coordinates of the image as given, whatever preprocessing turned,
/// scaled, levelled or flattened. The steps are checked against what Leptonica itself does to a
/// mark, and whole pages against the same page read untouched.
@Suite struct PageGeometryTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path

    /// A white 8-bit `width` × `height` image with a black 9 × 9 square whose top-left is at (x, y).
    static func marked(width: Int, height: Int, x: Int, y: Int) throws -> LeptImage {
        let pix = try #require(pixCreate(Int32(width), Int32(height), 8))
        pixSetAllArbitrary(pix, 255)
        for yy in y..<y + 9 { for xx in x..<x + 9 { pixSetPixel(pix, Int32(xx), Int32(yy), 0) } }
        return LeptImage(pix)
    }

    /// Centre of the image's dark pixels (continuous coordinates: pixel i spans i…i+1).
    static func mark(_ image: LeptImage) throws -> (x: Double, y: Double) {
        let pix = try #require(pixConvertTo8(image.pix, 0))
        var p: UnsafeMutablePointer<Pix>? = pix
        defer { pixDestroy(&p) }
        var (sx, sy, n) = (0.0, 0.0, 0.0)
        for y in 0..<image.height {
            for x in 0..<image.width {
                var v: UInt32 = 0
                pixGetPixel(pix, Int32(x), Int32(y), &v)
                let ink = Double(255 - Int(v)) / 255
                (sx, sy, n) = (sx + ink * (Double(x) + 0.5), sy + ink * (Double(y) + 0.5), n + ink)
            }
        }
        try #require(n > 10)
        return (sx / n, sy / n)
    }

    /// Each kind of step, and all of them in a row, done by Leptonica to an image with a mark: the
    /// mark found in the result maps back to where it was drawn.
    @Test func aMarkMovedByLeptonicaMapsBack() throws {
        let (w, h) = (600, 400)
        let original = try Self.marked(width: w, height: h, x: 450, y: 100)
        let truth = try Self.mark(original)
        var image = original
        var geometry = PageGeometry(width: w, height: h)
        func check(_ what: String) throws {
            let found = try Self.mark(image)
            let back = geometry.toInput(x: found.x, y: found.y)
            #expect(abs(back.x - truth.x) < 1.5 && abs(back.y - truth.y) < 1.5, "\(what): \(back) against \(truth)")
        }
        for quads in [1, 2, 3] {
            image = try Preprocessor.rotate(original, clockwise: quads * 90)
            geometry = PageGeometry(width: w, height: h)
            geometry.append(.turn(clockwise: quads * 90, width: Double(w), height: Double(h)))
            try check("turned \(quads * 90)°")
        }
        image = LeptImage(try #require(pixScale(original.pix, 1.7, 1.7)))
        geometry = PageGeometry(width: w, height: h)
        geometry.append(.scale(Double(image.width) / Double(w)))
        try check("scaled 1.7")
        for degrees in [-9.0, 4.0] {
            let radians = degrees * .pi / 180
            image = LeptImage(try #require(pixRotate(original.pix, Float(radians), Int32(L_ROTATE_AREA_MAP), Int32(L_BRING_IN_WHITE), 0, 0)))
            geometry = PageGeometry(width: w, height: h)
            geometry.append(.rotate(radians: radians, width: Double(w), height: Double(h)))
            try check("rotated \(degrees)°")
        }
        // A warp that takes a tilted quadrilateral of the image to a 500 × 300 page.
        let corners = [PagePoint(x: 60, y: 40), PagePoint(x: 560, y: 70), PagePoint(x: 540, y: 380), PagePoint(x: 30, y: 350)]
        let gray = try #require(GrayImage(pix8: original.pix))
        image = try #require(PageOutline(corners: corners).rectified(gray).leptImage())
        geometry = PageGeometry(width: w, height: h)
        geometry.append(.warp(map: PageOutline.unitSquareMap(to: corners), width: Double(image.width), height: Double(image.height)))
        try check("warped flat")
        // All in a row, as a page turned by its MRZ, flattened, rescaled, levelled and turned by OSD.
        geometry = PageGeometry(width: w, height: h)
        image = try Preprocessor.rotate(original, clockwise: 270)
        geometry.append(.turn(clockwise: 270, width: Double(w), height: Double(h)))
        var before = image
        image = LeptImage(try #require(pixScale(image.pix, 1.3, 1.3)))
        geometry.append(.scale(Double(image.width) / Double(before.width)))
        before = image
        image = LeptImage(try #require(pixRotate(image.pix, 0.07, Int32(L_ROTATE_AREA_MAP), Int32(L_BRING_IN_WHITE), 0, 0)))
        geometry.append(.rotate(radians: 0.07, width: Double(before.width), height: Double(before.height)))
        before = image
        image = try Preprocessor.rotate(image, clockwise: 90)
        geometry.append(.turn(clockwise: 90, width: Double(before.width), height: Double(before.height)))
        try check("turned, scaled, levelled and turned")
        // A box is cut to the image as given.
        let edge = geometry.toInput(BoundingBox(x: 0, y: 0, width: image.width, height: image.height))
        #expect(edge.x >= 0 && edge.y >= 0 && edge.x + edge.width <= w && edge.y + edge.height <= h)
    }

    /// The box of each field on a page read as printed, moved as `move` moves the page.
    static func expectSameFields(_ given: PageResult, _ clean: PageResult, width: Int, height: Int, _ what: String,
                                 move: (Double, Double) -> (Double, Double)) {
        #expect(given.width == width && given.height == height, "\(what): page \(given.width) × \(given.height)")
        var compared = 0
        for (name, field) in clean.fields {
            guard let box = field.box, let other = given.fields[name], other.value == field.value, let moved = other.box else { continue }
            let centre = move(Double(box.x) + Double(box.width) / 2, Double(box.y) + Double(box.height) / 2)
            let tolerance = max(12, 0.02 * Double(max(width, height)))
            let found = (Double(moved.x) + Double(moved.width) / 2, Double(moved.y) + Double(moved.height) / 2)
            #expect(abs(found.0 - centre.0) < tolerance && abs(found.1 - centre.1) < tolerance,
                    "\(what): \(name) at \(found), expected \(centre)")
            compared += 1
        }
        #expect(compared >= 3, "\(what): only \(compared) fields read alike")
        for word in given.words {
            #expect(word.box.x >= 0 && word.box.y >= 0 && word.box.x + word.box.width <= width && word.box.y + word.box.height <= height)
        }
    }

    /// TestDocuments' warranty deed given upside down, shrunk to a third (rescaled back up)
    /// and slanted 4° (levelled): its fields' boxes lie where those fields are in the image given,
    /// as the same page read untouched places them, moved the same way.
    @Test func fieldBoxesAreInTheImageAsGiven() throws {
        let clean = try ImageLoader.load(path: Self.root + "/TestDocuments/deed_warranty.clean.png")[0]
        let worker = try OCRWorker()
        let read = try worker.process(image: clean)
        let (w, h) = (Double(clean.width), Double(clean.height))
        #expect(read.kind == .deed && read.width == clean.width)

        // (Turned on its side, Tesseract reads the lines as vertical text, untouched: 180°.)
        let turned = try Preprocessor.rotate(clean, clockwise: 180)
        let turnedRead = try worker.process(image: turned)
        #expect(turnedRead.preprocessing.rotation == 180, "\(turnedRead.preprocessing.steps)")
        Self.expectSameFields(turnedRead, read, width: turned.width, height: turned.height, "upside down") { x, y in (w - x, h - y) }

        let small = LeptImage(try #require(pixScale(clean.pix, 0.34, 0.34)))
        let smallRead = try worker.process(image: small)
        #expect(smallRead.preprocessing.steps.contains("rescale"), "\(smallRead.preprocessing.steps)")
        let f = Double(small.width) / w
        Self.expectSameFields(smallRead, read, width: small.width, height: small.height, "shrunk") { x, y in (x * f, y * f) }

        let radians = 4 * Double.pi / 180
        let slanted = LeptImage(try #require(pixRotate(clean.pix, Float(radians), Int32(L_ROTATE_AREA_MAP), Int32(L_BRING_IN_WHITE), 0, 0)))
        let slantedRead = try worker.process(image: slanted)
        #expect(slantedRead.preprocessing.steps.contains("deskew"), "\(slantedRead.preprocessing.steps)")
        Self.expectSameFields(slantedRead, read, width: slanted.width, height: slanted.height, "slanted 4°") { x, y in
            let (dx, dy) = (x - w / 2, y - h / 2)
            return (w / 2 + cos(radians) * dx - sin(radians) * dy, h / 2 + sin(radians) * dx + cos(radians) * dy)
        }
    }
}
