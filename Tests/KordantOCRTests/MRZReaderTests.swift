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

    /// The glyph reader alone: a reading that verifies has every check-digit-protected character
    /// right (its O/0, O/C and M/N slips land where the check digits or the country and sex checks
    /// catch them; names carry no check digit, so a Q read as O there is possible), and it reads
    /// most pages exactly. The pipeline weighs it against Tesseract's reading and the printed zone
    /// (OCRCLITests: every page valid and exact).
    @Test func neverFalselyValidAndMostlyExact() throws {
        var exact = 0
        for file in Self.idImages where !file.contains("rot180") {
            let image = try ImageLoader.load(path: Self.root + "/TestDocuments/" + file)[0]
            let (prepared, _, _) = try Preprocessor.run(image, options: PreprocessOptions())
            guard let (format, lines) = MRZReader.read(prepared), let mrz = MRZParser.parse(lines, format: format) else { continue }
            let truth = try Self.truth(String(file.split(separator: ".")[0]))
            if mrz.valid {
                // Check digits cover everything but the names: that part must be exact.
                let covered = format == .td1 ? Array(mrz.lines.prefix(2)) : [String(mrz.lines[0].prefix(5)), mrz.lines[1]]
                let expected = format == .td1 ? Array(truth.prefix(2)) : [String(truth[0].prefix(5)), truth[1]]
                #expect(covered == expected, "\(file): falsely valid \(mrz.lines)")
                if mrz.lines == truth { exact += 1 }
            }
        }
        #expect(exact >= 3, "\(exact) of 8 read exactly")
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
