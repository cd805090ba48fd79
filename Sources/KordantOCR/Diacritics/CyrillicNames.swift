import Foundation

/// A name with a word in Cyrillic ("Ян Kowalska-Kwiatkowska"). English has no Cyrillic letters
/// and reads such a word as Latin ones of a similar shape, poorly ("AH" at 59 on a fax); read
/// again alone with English and the Cyrillic script together, Tesseract takes it in the script it
/// reads best ("Ян" at 95). (Read with the rest of its name, at the fax's doubled scale, it stays
/// "AH" at 89: English's reading of the line carries the word.)
enum CyrillicNames {
    /// A name word read at less than this by English may be in another script: it is read again
    /// with Cyrillic. (On dev seed 130, "Ян" read as Latin letters at 59 to 83; a Latin word read
    /// again stays Latin, Tesseract reading it better so.)
    static let doubtful = 90.0
    /// A Cyrillic word is taken when read at least this well …
    static let clear = 75.0
    /// … and the Latin model reads the word under this (dev seed 150: Latin words English and
    /// Cyrillic together read as Cyrillic at 77–94 the Latin model read at 60–92; "Ян" at 0).
    static let readAsLatin = 50.0

    /// Cyrillic capitals with a Latin twin of the same shape (А В Е К М Н О Р С Т У Х, І Ј Ѕ): a
    /// word of these only, in capitals, may be Latin letters read as Cyrillic ("НОМЕ" for HOME, "ме"
    /// for a faxed "Wei").
    static let latinTwins: Set<Character> = Set("АВЕКМНОРСТУХІЈЅ")

    /// The Unicode block of Cyrillic letters.
    static let block: ClosedRange<UInt32> = 0x0400...0x04FF

    /// Whether `word` is written in Cyrillic letters, one at least (as a capital) with no Latin twin.
    static func isCyrillic(_ word: String) -> Bool {
        !word.isEmpty && word.unicodeScalars.allSatisfy { block.contains($0.value) }
            && word.uppercased().contains { !latinTwins.contains($0) }
    }

    /// Whether `text` has a Cyrillic letter in it.
    static func hasCyrillic(_ text: String) -> Bool { text.unicodeScalars.contains { block.contains($0.value) } }

    /// `read` (one word read alone by English and Cyrillic together, at `confidence`) without the
    /// marks around it, when it is a Cyrillic word read clearly; nil otherwise.
    static func clearWord(_ read: String, confidence: Double) -> String? {
        let text = read.trimmingCharacters(in: CharacterSet(charactersIn: ".,;:"))
        return isCyrillic(text) && confidence >= clear ? text : nil
    }

    /// `english` (a name as read) with each word whose reading alone by English and Cyrillic
    /// together (`rereads`, by the word's place in the name) is a Cyrillic word read clearly, in
    /// its place, written in the name's case (all capitals, or a capital first). Only a word of
    /// letters is replaced. Nil when none is.
    static func mended(_ english: String, rereads: [Int: (text: String, confidence: Double)]) -> String? {
        var words = english.split(separator: " ").map(String.init)
        let capitals = !english.contains(where: \.isLowercase)
        var replaced = false
        for (i, m) in rereads where words.indices.contains(i) {
            guard let text = clearWord(m.text, confidence: m.confidence), words[i].allSatisfy(\.isLetter) else { continue }
            words[i] = capitals ? text.uppercased() : text.prefix(1).uppercased() + text.dropFirst().lowercased()
            replaced = true
        }
        return replaced ? words.joined(separator: " ") : nil
    }
}

extension OCRWorker {
    /// English and the Cyrillic script (`Cyrillic.traineddata` from Debian's
    /// tesseract-ocr-script-cyrl) from the directory English was loaded from; nil when it is not
    /// installed.
    static func cyrillicHandle(datapath: String) -> TesseractHandle? {
        let dir = URL(fileURLWithPath: datapath)
        for language in ["Cyrillic", "script/Cyrillic"]
        where FileManager.default.fileExists(atPath: dir.appendingPathComponent(language + ".traineddata").path) {
            return try? TesseractHandle(datapath: datapath, language: "eng+" + language)
        }
        return nil
    }
}
