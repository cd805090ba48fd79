import Foundation

/// Letters with diacritics in names. Tesseract's English model has no `ø`, `ł`, `ő`, `ð`, `þ`
/// and reads `ü` as `ii` or `i`, `ñ` as `f`: "Anna-Lena Miller", "Signe Ba", "Pefa". The Latin
/// script's model (Debian's tesseract-ocr-script-latn) has them, but read over whole pages it
/// also adds marks that are not there ("ĄANNA", "İÎBRAHIM"). So only a name's own box is read
/// again with it, and its reading is taken only where it differs from the English one by
/// letters with diacritics standing for plain letters (or for another mark, English's guess), one
/// for one or, for a few pairs, one for two ("ii" → "ü", "AE" → "Æ"), and nowhere else.
enum NameDiacritics {
    /// The fields that hold a person's name.
    static let fields: Set<String> = ["full_name", "grantor", "grantee", "surname", "given_names"]

    /// Two plain letters English reads for one letter it does not have ("Miiller", "Pefia", "AEVAR"), and
    /// the letters they may stand for. No other two: "RE" for "É" would be a letter lost.
    static let twoForOne: [String: Set<Character>] = ["ii": ["ü", "ű", "ï", "í"], "fi": ["ñ"], "ae": ["æ"], "oe": ["œ"], "ce": ["œ"], "ss": ["ß"]]

    /// `latin` when it is `english` with some letters read as letters with diacritics and
    /// nothing else changed; nil otherwise (also when nothing changed). A letter English read
    /// plain, or with another mark ("Zséfia" for "Zsófia", "Erdés" for "Erdős": English's few
    /// marked letters are its guesses for the many it lacks), may take a mark, one for one or two
    /// for one from ``twoForOne``, also next to one another ("Jifi" for "Jiří", "Nufiez" for
    /// "Núñez"). No letter added, lost or changed for a plain one, and no mark taken away.
    static func mended(_ english: String, latin: String) -> String? {
        let e = Array(english), l = Array(latin)
        guard e != l else { return nil }
        func marked(_ c: Character) -> Bool { !c.isASCII && c.isLetter }
        // reach[i][j]: english[i...] and latin[j...] align under those rules (filled from the ends).
        var reach = [[Bool]](repeating: [Bool](repeating: false, count: l.count + 1), count: e.count + 1)
        reach[e.count][l.count] = true
        for i in stride(from: e.count, through: 0, by: -1) {
            for j in stride(from: l.count - 1, through: 0, by: -1) {
                if i < e.count, reach[i + 1][j + 1], e[i] == l[j] || (marked(l[j]) && e[i].isLetter) {
                    reach[i][j] = true
                } else if i + 1 < e.count, reach[i + 2][j + 1], marked(l[j]),
                          let marks = Self.twoForOne[String([e[i], e[i + 1]]).lowercased()], marks.contains(Character(l[j].lowercased())) {
                    reach[i][j] = true
                }
            }
        }
        return reach[0][0] ? latin : nil
    }
}

extension OCRWorker {
    /// `fields` with each name read once more in its box by the Latin-script model, and its
    /// letters with diacritics taken where ``NameDiacritics/mended(_:latin:)`` allows. Without
    /// the Latin model installed, `fields` as they are.
    func withDiacritics(_ fields: [String: Field], image: LeptImage, resolution: Int) throws(OCRError) -> [String: Field] {
        var out = fields
        for (name, field) in fields where NameDiacritics.fields.contains(name) {
            guard let value = field.value.string, let box = field.box, let latin else { continue }
            let pad = max(4, min(box.height, 60) / 4)
            let region = LabelledPage.within(BoundingBox(x: box.x - pad, y: box.y - pad, width: box.width + 2 * pad, height: box.height + 2 * pad),
                                             width: image.width, height: image.height)
            let read = try latin.recognize(image, resolution: resolution, mode: .singleBlock, rectangle: region)
            // Every word read clearly: a mark read at low confidence is a guess.
            guard !read.words.isEmpty, read.words.allSatisfy({ $0.confidence >= 60 }) else { continue }
            let joined = read.words.map(\.text).joined(separator: " ")
            guard var text = FieldExtractor.name(joined)?.string else { continue }
            if !value.contains(where: \.isLowercase) { text = text.uppercased() }
            if let mended = NameDiacritics.mended(value, latin: text) { out[name]?.value = .text(mended) }
        }
        return out
    }

    /// The Latin-script model without its word list (see `TrainedData`), from the directory
    /// English was loaded from; nil when it is not installed.
    static func latinHandle(datapath: String) -> TesseractHandle? {
        let dir = URL(fileURLWithPath: datapath)
        for path in [dir.appendingPathComponent("Latin.traineddata").path, dir.appendingPathComponent("script/Latin.traineddata").path]
        where FileManager.default.fileExists(atPath: path) {
            guard let data = TrainedData.load(path: path, dropping: [TrainedData.lstmWordList]) else { return nil }
            return try? TesseractHandle(data: data, language: "Latin")
        }
        return nil
    }
}
