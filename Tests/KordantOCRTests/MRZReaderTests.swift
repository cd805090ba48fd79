import Foundation
@testable import KordantOCR
import Testing

/// The OCR-B glyph reader on TestDocuments' cards and passports (Leptonica only, no Tesseract).
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

    /// The glyph reader alone: whatever it returns verifies only when it is exactly the printed MRZ
    /// (its O/0, O/C and M/N slips land in fields that the check digits or the country and sex
    /// checks catch), and it reads most pages exactly. The pipeline combines it with Tesseract's
    /// reading (OCRCLITests: every page valid).
    @Test func neverFalselyValidAndMostlyExact() throws {
        var exact = 0
        for file in Self.idImages where !file.contains("rot180") {
            let image = try ImageLoader.load(path: Self.root + "/TestDocuments/" + file)[0]
            let (prepared, _) = try Preprocessor.run(image, options: PreprocessOptions())
            guard let (format, lines) = MRZReader.read(prepared), let mrz = MRZParser.parse(lines, format: format) else { continue }
            let truth = try Self.truth(String(file.split(separator: ".")[0]))
            if mrz.valid {
                #expect(mrz.lines == truth, "\(file): falsely valid \(mrz.lines)")
                exact += 1
            }
        }
        #expect(exact >= 4, "\(exact) of 8 read exactly")
    }

    @Test func templatesCoverTheMRZAlphabet() {
        let chars = Set(OCRBTemplates.glyphs.map(\.0))
        #expect(chars == Set("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ<"))
        #expect(OCRBTemplates.glyphs.allSatisfy { $0.3.count == OCRBTemplates.gridWidth * OCRBTemplates.gridHeight })
    }

    @Test func pagesWithoutAnMRZGiveNothing() throws {
        let image = try ImageLoader.load(path: Self.root + "/TestDocuments/deed_warranty.clean.png")[0]
        #expect(MRZReader.read(image) == nil)
    }
}
