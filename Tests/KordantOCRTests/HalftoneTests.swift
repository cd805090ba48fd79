@preconcurrency import CTesseract
import Foundation
@testable import KordantOCR
import Testing

/// A faxed photo's dither painted out before a bilevel page is read (`Preprocessor.paintHalftones`).
@Suite struct HalftoneTests {
    static let fixtures = DegradedScanTests.root + "/Tests/Fixtures/ocr-fallback/"

    /// The fixture `name` as grey, its painted copy and the one region painted.
    static func paintedPhoto(_ name: String) throws -> (gray: LeptImage, painted: LeptImage, photo: BoundingBox) {
        let page = try #require(ImageLoader.load(path: Self.fixtures + name).first)
        let gray = try LeptImage.make(pixConvertTo8(page.pix, 0), "gray")
        let (painted, regions) = try #require(try Preprocessor.paintHalftones(gray))
        #expect(regions.count == 1, "\(regions)")
        return (gray, painted, try #require(regions.first))
    }

    /// A generated fax of a passport page (1-bit) whose photo came out dark: the dither beside the
    /// column of labels and values is found and painted, the column is not, and the values come back.
    @Test func aFaxedPhotoIsPaintedOutAndItsColumnRead() throws {
        let (gray, painted, photo) = try Self.paintedPhoto("s25-dev-033-id-passport-page-fax.png")
        // The photo is about x 73–354, y 247–639; the labels and values start at x 372.
        #expect(photo.x <= 75 && photo.y <= 250 && photo.x + photo.width >= 350 && photo.y + photo.height >= 635, "\(photo)")
        #expect(photo.x + photo.width < 372, "\(photo)")
        // The copy is painted; the image given is not.
        #expect(Self.ink(painted, in: photo) == 0)
        #expect(Self.ink(gray, in: photo) > photo.width * photo.height / 10)

        let result = try OCRWorker().process(path: Self.fixtures + "s25-dev-033-id-passport-page-fax.png").pages[0]
        #expect(result.preprocessing.steps.starts(with: ["halftone", "smooth"]), "\(result.preprocessing.steps)")
        // The generator's truth. Before, with the dither read as text, not one field was found.
        #expect(result.kind == .id)
        #expect(result.fields["document_number"]?.value == .text("668184359"), "\(result.fields)")
        #expect(result.fields["date_of_birth"]?.value == .text("1999-07-06"), "\(result.fields)")
        #expect(result.fields["expiry_date"]?.value == .text("2031-05-10"), "\(result.fields)")
    }

    /// A generated fax whose photo dithered lighter (a fifth of it ink): the opening keeps pieces
    /// of it only, and the pieces are joined and grown to the whole photo (about x 103–383,
    /// y 277–672), short of the column of bold values 25 pixels to its right. Painting it in part
    /// left a frame of dots that Tesseract read worse than the page as it was.
    @Test func aLightDitherIsPaintedWhole() throws {
        let (_, _, photo) = try Self.paintedPhoto("s23-dev-036-id-passport-page-fax.png")
        #expect(photo.x <= 105 && photo.y <= 280 && photo.x + photo.width >= 380 && photo.y + photo.height >= 668, "\(photo)")
        #expect(photo.x + photo.width < 405, "\(photo)")
    }

    /// A generated fax of a residence permit whose photo dithered pale (about 7 % of it ink,
    /// x 75–265, y 170–410): its dots lie too far apart to close under the 5×5 square, and it is
    /// found by its specks instead and painted, short of the labels 24 pixels to its right. Read
    /// before, its dots were eleven words of noise beside the fields (`oe it, » 8rntd& JUN 1999`).
    @Test func aPaleDitherIsFoundByItsSpecks() throws {
        let name = "dev-102-id-residence-permit-fax.png"
        let (gray, painted, photo) = try Self.paintedPhoto(name)
        #expect(photo.x <= 80 && photo.y <= 176 && photo.x + photo.width >= 262 && photo.y + photo.height >= 405, "\(photo)")
        #expect(photo.x + photo.width < 289, "\(photo)")
        #expect(Self.ink(painted, in: photo) == 0)
        #expect(Self.ink(gray, in: photo) > photo.width * photo.height / 25)

        let result = try OCRWorker().process(path: Self.fixtures + name).pages[0]
        #expect(result.preprocessing.steps.first == "halftone", "\(result.preprocessing.steps)")
        // Left of the labels only the title is read (boxes in the page as given).
        let beside = result.words.filter { $0.box.x < 280 && $0.box.y > 150 }
        #expect(beside.isEmpty, "\(beside.map(\.text))")
        // The generator's truth.
        #expect(result.kind == .id)
        #expect(result.fields["given_names"]?.value == .text("MAKEDA"), "\(result.fields)")
        #expect(result.fields["nationality"]?.value == .text("CAN"), "\(result.fields)")
    }

    /// A faxed page whose photo dithered light, and pages of text and bold headings cut to black
    /// and white, have nothing painted.
    @Test func textAndLightPhotosAreLeftAlone() throws {
        let fax = try #require(ImageLoader.load(path: Self.fixtures + "s18-dev-027-id-passport-page-fax.png").first)
        #expect(try Preprocessor.paintHalftones(LeptImage.make(pixConvertTo8(fax.pix, 0), "gray")) == nil)
        for name in ["deed_warranty.clean.png", "optout_form.clean.png", "idcard_td1.clean.png"] {
            let page = try #require(ImageLoader.load(path: DegradedScanTests.root + "/TestDocuments/" + name).first)
            let gray = try LeptImage.make(pixConvertTo8(page.pix, 0), "gray")
            let bilevel = try LeptImage.make(pixConvertTo1(gray.pix, 150), "bilevel")
            #expect(try Preprocessor.paintHalftones(LeptImage.make(pixConvert1To8(nil, bilevel.pix, 255, 0), "gray")) == nil, "\(name)")
        }
    }

    /// Dark pixels (under 128) of an 8-bit image inside `box`.
    static func ink(_ image: LeptImage, in box: BoundingBox) -> Int {
        var count = 0
        for y in box.y..<(box.y + box.height) {
            for x in box.x..<(box.x + box.width) {
                var v: UInt32 = 0
                pixGetPixel(image.pix, Int32(x), Int32(y), &v)
                if v < 128 { count += 1 }
            }
        }
        return count
    }
}
