import Foundation
@testable import KordantOCR
import Testing

/// The MRZ reader (locate, rectify, read twice, decode) on TestDocuments' cards and passports and
/// on pages without an MRZ, with real Tesseract and Leptonica.
@Suite struct MRZReaderTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path

    static func truth(_ document: String) throws -> [String] {
        struct Truth: Decodable { struct F: Decodable { let mrz: [String] }; let fields: F }
        let data = try Data(contentsOf: URL(fileURLWithPath: root + "/TestDocuments/\(document).truth.json"))
        return try JSONDecoder().decode(Truth.self, from: data).fields.mrz
    }

    static let idImages = ["passport_td3", "idcard_td1"].flatMap { d in
        ["clean.png", "noisy.jpg", "lowres.png", "rot180.png", "skewp2.5.png"].map { "\(d).\($0)" }
    }

    /// Every page read exactly, the format named, the direction found; valid only when exact.
    @Test(arguments: idImages) func readsEveryTestDocumentMRZ(_ file: String) throws {
        let tesseract = try TesseractHandle()
        let image = try ImageLoader.load(path: Self.root + "/TestDocuments/" + file)[0]
        let mrz = try #require(MRZScanner.scan(image, tesseract: tesseract), "\(file): no MRZ found")
        let truth = try Self.truth(String(file.split(separator: ".")[0]))
        #expect(mrz.lines == truth, "\(file): \(mrz.lines) \(mrz.reviewReasons)")
        #expect(mrz.format == (file.hasPrefix("passport") ? .td3 : .td1))
        #expect(mrz.rotation == (file.contains("rot180") ? 180 : 0))
        if mrz.valid { #expect(mrz.lines == truth, "\(file): falsely valid") }
    }

    @Test func templatesCoverTheMRZAlphabet() {
        let chars = Set(OCRBTemplates.glyphs.map(\.0))
        #expect(chars == Set("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ<"))
        #expect(OCRBTemplates.glyphs.allSatisfy { $0.3.count == OCRBTemplates.gridWidth * OCRBTemplates.gridHeight })
    }

    @Test(arguments: ["deed_warranty.clean.png", "optout_letter.clean.png", "optout_form.noisy.jpg", "deed_quitclaim.rot90.png"])
    func pagesWithoutAnMRZGiveNothing(_ file: String) throws {
        let image = try ImageLoader.load(path: Self.root + "/TestDocuments/" + file)[0]
        #expect(MRZScanner.scan(image, tesseract: try TesseractHandle()) == nil)
    }
}
