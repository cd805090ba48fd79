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

    /// What English makes of an "ß", a letter it does not have: one or two of these ("Weil",
    /// "Weif&", "WeifS", "Strau&", "wei8"), or nothing at the end of a word ("Wei"). The Latin
    /// model reads it plainly (dev seeds 130, 133–136: "Weiß", "Groß-Öztürk" on crops English
    /// read "Weif&", "Grof-Oztiirk").
    static let sharpS: Set<Character> = ["f", "l", "i", "I", "8", "&", "S", "s", "B", "R"]

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
                } else if l[j] == "ß", (i < e.count && Self.sharpS.contains(e[i]) && reach[i + 1][j + 1])
                            || (i + 1 < e.count && Self.sharpS.contains(e[i]) && Self.sharpS.contains(e[i + 1]) && reach[i + 2][j + 1])
                            || ((j + 1 == l.count || !l[j + 1].isLetter) && reach[i][j + 1]) {
                    // An ß, which English has no letter for, read as one or two marks of its shape,
                    // or lost at the end of its word ("Wei").
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
    /// (``NameDiacritics/addressMended(_:latin:name:)``). A name's word read by English under
    /// ``CyrillicNames/doubtful`` (one of `words`, the page's) is read again alone by English and
    /// Cyrillic together (``CyrillicNames/mended(_:rereads:)``), and an address whose owner's name
    /// has Cyrillic letters is read again so too. Without a model installed its step is skipped.
    func withDiacritics(_ fields: [String: Field], words: [Word], image: LeptImage, resolution: Int) throws(OCRError) -> [String: Field] {
        var out = fields
        func region(_ box: BoundingBox) -> BoundingBox { Self.nameRegion(box, in: image) }
        // Names first: an address takes only marks its owner's name has.
        let order = fields.keys.filter(NameDiacritics.fields.contains).sorted() + fields.keys.filter(NameDiacritics.addressFields.contains).sorted()
        for name in order {
            guard let field = fields[name], let value = field.value.string, let box = field.box else { continue }
            if NameDiacritics.addressFields.contains(name), let owner = out["full_name"]?.value.string,
               CyrillicNames.hasCyrillic(owner), let cyrillic {
                // The owner's name has a word in Cyrillic, which English read as Latin letters here too.
                let read = try cyrillic.recognize(image, resolution: resolution, mode: .singleBlock, rectangle: region(box))
                if read.words.allSatisfy({ $0.confidence >= 60 }),
                   let mended = NameDiacritics.addressMended(value, latin: read.words.map(\.text).joined(), name: owner) {
                    out[name]?.value = .text(mended)
                    out[name]?.needsReview = true
                    continue
                }
            }
            if let latin {
                let read = try latin.recognize(image, resolution: resolution, mode: .singleBlock, rectangle: region(box))
                var mended = Self.latinMended(value, latin: read.words, name: name, owner: out["full_name"]?.value.string)
                // Read unclearly with its margin, a name is read again within its own box: the margin
                // can hold a mark the Latin model makes a letter of ("ÆŒUVRAY" at 36 with it,
                // "ŒUVRAY" at 72 without).
                if mended == nil, read.words.contains(where: { $0.confidence < 60 }),
                   case let tight = LabelledPage.within(box.padded(2), width: image.width, height: image.height), tight.width > 0, tight.height > 0 {
                    let again = try latin.recognize(image, resolution: resolution, mode: .singleLine, rectangle: tight)
                    mended = Self.latinMended(value, latin: again.words, name: name, owner: out["full_name"]?.value.string)
                }
                if let mended { out[name]?.value = .text(mended) }
            }
            // A name word English read poorly may be in Cyrillic: read again alone.
            if NameDiacritics.fields.contains(name), let current = out[name]?.value.string,
               case let inside = words.filter({ box.contains(x: $0.box.x + $0.box.width / 2, y: $0.box.y + $0.box.height / 2) }),
               inside.count == current.split(separator: " ").count, inside.contains(where: { $0.confidence < CyrillicNames.doubtful }),
               let cyrillic {
                var rereads: [Int: (text: String, confidence: Double)] = [:]
                for (i, w) in inside.enumerated() where w.confidence < CyrillicNames.doubtful && w.text.allSatisfy({ $0.isLetter || $0.isNumber }) {
                    let read = try cyrillic.recognize(image, resolution: resolution, mode: .singleLine, rectangle: region(w.box))
                    guard read.words.count == 1, case let m = read.words[0], CyrillicNames.clearWord(m.text, confidence: m.confidence) != nil
                    else { continue }
                    // A Latin word the Latin model reads is Latin ("LIAM" at 60 on a fax, which English
                    // and Cyrillic together read "ПАМ" at 94; "Ørjan" at 92, "Әгјап" at 77): only a
                    // word it cannot read ("Ян": "AH" at 0) is taken in Cyrillic.
                    if let latin, let l = try latin.recognize(image, resolution: resolution, mode: .singleLine, rectangle: region(w.box)).words.first,
                       l.confidence >= CyrillicNames.readAsLatin { continue }
                    rereads[i] = (m.text, m.confidence)
                }
                if let mended = CyrillicNames.mended(current, rereads: rereads) {
                    out[name]?.value = .text(mended)
                    out[name]?.needsReview = true
                }
            }
        }
        return out
    }

    /// A name's box with a margin a quarter of its height (4 to 15 pixels), inside `image`: where
    /// its words are read again.
    static func nameRegion(_ box: BoundingBox, in image: LeptImage) -> BoundingBox {
        LabelledPage.within(box.padded(max(4, min(box.height, 60) / 4)), width: image.width, height: image.height)
    }

    /// `value` of field `name` as the Latin model's reading (`latin`) of its box mends it
    /// (``NameDiacritics/mended(_:latin:)``, ``NameDiacritics/wordwise(_:latin:)``; an address
    /// by ``NameDiacritics/addressMended(_:latin:name:)`` beside its `owner`'s name); nil when it
    /// changes nothing.
    static func latinMended(_ value: String, latin read: [Word], name: String, owner: String?) -> String? {
        // A mark read at low confidence is a guess: a word is taken only when read clearly.
        let clear = read.map { $0.confidence >= 60 }
        guard clear.contains(true) else { return nil }
        if NameDiacritics.addressFields.contains(name) {
            // One token: all of it read clearly, or none of it taken.
            guard !clear.contains(false), let owner else { return nil }
            return NameDiacritics.addressMended(value, latin: read.map(\.text).joined(), name: owner)
        }
        if !clear.contains(false), var text = FieldExtractor.name(read.map(\.text).joined(separator: " "))?.string {
            if !value.contains(where: \.isLowercase) { text = text.uppercased() }
            if let mended = NameDiacritics.mended(value, latin: text) { return mended }
        }
        return NameDiacritics.wordwise(value, latin: read.map { ($0.text, $0.confidence) })
    }

    /// Names whose label was found but whose words failed the name's validator because English
    /// read a capital it has no letter for as a small one ("Olga tukaszewicz" for Łukaszewicz: no
    /// name word starts with a small letter but a particle's), read again in their box with the
    /// Latin-script model. Its reading is taken, for review, when every word of it is read
    /// clearly, the field's validator takes it, and it is English's reading with letters with
    /// diacritics for plain ones (``NameDiacritics/mended(_:latin:)``). Empty without the Latin
    /// model or such a name.
    func rejectedNamesWithDiacritics(_ page: PageText, kind: DocumentKind, fields: [String: Field], image: LeptImage,
                                     resolution: Int) throws(OCRError) -> [String: Field] {
        let missing = FieldExtractor.specs(for: kind).filter { NameDiacritics.fields.contains($0.field) && fields[$0.field] == nil }
        guard let latin, !missing.isEmpty else { return [:] }
        let rejected = RejectedValues.words(on: page, kind: kind).rejected
        var found: [String: Field] = [:]
        for spec in missing {
            // (Found on the page as read: the levelled words' boxes are turned.)
            guard let words = rejected[spec.field], let range = RejectedValues.range(of: words, in: page) else { continue }
            let read = Array(page.words[range])
            let english = read.map(\.text).joined(separator: " ")
            guard english.contains(where: \.isLowercase) else { continue }
            let box = Segment(read).box
            let region = Self.nameRegion(box, in: image)
            guard region.width > 0, region.height > 0 else { continue }
            let again = try latin.recognize(image, resolution: resolution, mode: .singleBlock, rectangle: region)
            guard !again.words.isEmpty, again.words.allSatisfy({ $0.confidence >= 60 }),
                  let value = spec.validate(again.words.map(\.text).joined(separator: " "))?.string,
                  NameDiacritics.mended(english, latin: value) != nil else {
                // Not read so: a last word read small after capitalised ones is the name's own
                // capital read small ("Thi Minh Khai tran"), for review.
                if let capitalised = FieldExtractor.lastWordCapitalised(english), let value = spec.validate(capitalised)?.string {
                    let confidence = read.map(\.confidence).reduce(0, +) / Double(read.count)
                    found[spec.field] = Field(value: .text(value), confidence: (confidence * 10).rounded() / 10, box: box, needsReview: true)
                }
                continue
            }
            // (The Latin reading's confidence: the requester's addresses are checked against a name read well.)
            let confidence = again.words.map(\.confidence).reduce(0, +) / Double(again.words.count)
            found[spec.field] = Field(value: .text(value), confidence: (confidence * 10).rounded() / 10, box: box, needsReview: true)
        }
        return found
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
