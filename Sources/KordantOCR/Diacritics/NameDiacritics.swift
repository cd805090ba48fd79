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
        // An i's dot read or lost ("Al-Hashımı", "İBRAHIM" in a faint print) is no letter English
        // lacks: its "i" stands.
        func dotOnly(_ a: Character, _ b: Character) -> Bool { (a == "i" && b == "ı") || (a == "I" && b == "İ") }
        // reach[i][j]: english[i...] and latin[j...] align under those rules (filled from the ends).
        var reach = [[Bool]](repeating: [Bool](repeating: false, count: l.count + 1), count: e.count + 1)
        reach[e.count][l.count] = true
        for i in stride(from: e.count, through: 0, by: -1) {
            for j in stride(from: l.count - 1, through: 0, by: -1) {
                if i < e.count, reach[i + 1][j + 1], e[i] == l[j] || (marked(l[j]) && e[i].isLetter && !dotOnly(e[i], l[j])) {
                    reach[i][j] = true
                } else if i + 1 < e.count, reach[i + 2][j + 1], marked(l[j]),
                          let marks = Self.twoForOne[String([e[i], e[i + 1]]).lowercased()], marks.contains(Character(l[j].lowercased())) {
                    reach[i][j] = true
                }
            }
        }
        return reach[0][0] ? latin : nil
    }

    /// The name `english` with each word the Latin model read clearly (confidence 60 or more)
    /// mended as ``mended(_:latin:)`` allows, word by word, where the two readings have as many
    /// words: a word read clearly ("Małgorzata" at 71) is not lost to another read at 57 ("Żak").
    /// Nil when nothing changes.
    static func wordwise(_ english: String, latin: [(text: String, confidence: Double)]) -> String? {
        let words = english.split(separator: " ").map(String.init)
        guard words.count == latin.count else { return nil }
        let nameLetters = CharacterSet.letters.union(CharacterSet(charactersIn: "'’ʻ-")).inverted
        var out = words
        for (i, w) in latin.enumerated() where w.confidence >= 60 {
            var text = w.text.trimmingCharacters(in: nameLetters)
            if !words[i].contains(where: \.isLowercase) { text = text.uppercased() }
            if let mended = mended(words[i], latin: text) { out[i] = mended }
        }
        return out == words ? nil : out.joined(separator: " ")
    }

    /// The fields whose values spell the requester's name inside an address.
    static let addressFields: Set<String> = ["email", "listing_url"]

    /// `latin` when it is the e-mail or web address `english` with letters of its mailbox or path
    /// (not its host) read as letters with diacritics, as ``mended(_:latin:)`` allows for names:
    /// "matgorzata.zak@" → "małgorzata.zak@", and an "ß" read as "8" or "&" ("strau8@"), a
    /// look-alike no name has. Only letters no accent comes off, which the requester's `name`
    /// (as read, its own marks mended) is spelled with. Nil otherwise.
    static func addressMended(_ english: String, latin: String, name: String) -> String? {
        func parts(_ s: String) -> (head: Substring, tail: Substring)? {
            if let at = s.firstIndex(of: "@") { return (s[at...], s[..<at]) }
            let schemeEnd = s.range(of: "://")?.upperBound ?? s.startIndex
            guard let slash = s[schemeEnd...].firstIndex(of: "/") else { return nil }
            return (s[..<slash], s[slash...])
        }
        guard let e = parts(english), let l = parts(latin), e.head == l.head else { return nil }
        var a = Array(e.tail)
        let b = Array(l.tail)
        // A digit or "&" English read for an "ß" is a letter to the rule (no other digit is a marked letter).
        for i in a.indices where (a[i] == "8" || a[i] == "&") && i < b.count && b[i] == "ß" { a[i] = "s" }
        // Addresses drop accents ("maria-de-los-angeles" for "María de los Ángeles") and keep the
        // letters no accent comes off ("ł", "ß", "ø", "æ", "þ"): only those are taken, and only
        // ones the requester's name is spelled with (a letter the Latin model made up is not).
        func kept(_ c: Character) -> Bool {
            c.isASCII || !c.isLetter
                || (String(c).decomposedStringWithCanonicalMapping.unicodeScalars.count == 1 && name.lowercased().contains(Character(c.lowercased())))
        }
        guard let tail = mended(String(a), latin: String(b)), tail.allSatisfy(kept) else { return nil }
        return english.contains("@") ? tail + String(e.head) : String(e.head) + tail
    }
}

extension OCRWorker {
    /// `fields` with each name read once more in its box by the Latin-script model, and its
    /// letters with diacritics taken where ``NameDiacritics/mended(_:latin:)`` allows; so too
    /// the requester's mailbox and listing address, which spell the name
    /// (``NameDiacritics/addressMended(_:latin:name:)``). Without the Latin model installed, `fields`
    /// as they are.
    func withDiacritics(_ fields: [String: Field], image: LeptImage, resolution: Int) throws(OCRError) -> [String: Field] {
        var out = fields
        // Names first: an address takes only marks its owner's name has.
        let order = fields.keys.filter(NameDiacritics.fields.contains).sorted() + fields.keys.filter(NameDiacritics.addressFields.contains).sorted()
        for name in order {
            guard let field = fields[name], let value = field.value.string, let box = field.box, let latin else { continue }
            let pad = max(4, min(box.height, 60) / 4)
            let region = LabelledPage.within(box.padded(pad),
                                             width: image.width, height: image.height)
            let read = try latin.recognize(image, resolution: resolution, mode: .singleBlock, rectangle: region)
            // A mark read at low confidence is a guess: a word is taken only when read clearly.
            let clear = read.words.map { $0.confidence >= 60 }
            guard clear.contains(true) else { continue }
            if NameDiacritics.addressFields.contains(name) {
                // One token: all of it read clearly, or none of it taken.
                guard !clear.contains(false), let owner = out["full_name"]?.value.string else { continue }
                let latinText = read.words.map(\.text).joined()
                if let mended = NameDiacritics.addressMended(value, latin: latinText, name: owner) { out[name]?.value = .text(mended) }
                continue
            }
            if !clear.contains(false), var text = FieldExtractor.name(read.words.map(\.text).joined(separator: " "))?.string {
                if !value.contains(where: \.isLowercase) { text = text.uppercased() }
                if let mended = NameDiacritics.mended(value, latin: text) {
                    out[name]?.value = .text(mended)
                    continue
                }
            }
            if let mended = NameDiacritics.wordwise(value, latin: read.words.map { ($0.text, $0.confidence) }) { out[name]?.value = .text(mended) }
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
