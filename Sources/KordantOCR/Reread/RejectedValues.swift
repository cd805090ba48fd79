import Foundation

/// Values of a strict shape whose label was found and whose words beside it failed the field's
/// validator ("ZIP Code: 7870}", "Phone: (7/8) 573 8808", "Parcel: 9 1 =? 5 2A 8"): read again
/// on their own as one line, Tesseract often reads them whole ("78701", "(778) 573 8808"). The
/// page's other words stay as read; the field is taken from the page with the value's words
/// replaced, only when it was missing, and always for review (it is a second reading of a value
/// the first could not read). So are the words of a value that passed only once mended ("17/07"
/// taken for 17707): a second reading that passes unmended ("12207") replaces that guess.
enum RejectedValues {
    /// The fields read again: those whose value has a strict shape that tells a reading that
    /// fits it from one that does not. (Reading every field's rejected value again, names,
    /// addresses, mailboxes and links too, gained nothing more on two dev sets.)
    static let fields: Set<String> = [
        "zip", "phone", "date", "date_of_birth", "recording_date", "expiry_date", "request_id",
        "parcel_number", "instrument_number", "document_number", "sex", "nationality",
    ]
    /// Every word of a reading taken is read at least this well …
    static let least = 50.0
    /// … and keeps this confidence at most: a value made of it goes to review.
    static let cap = 59.0

    /// The words of each field of a page of `kind` whose label was found and whose value beside it
    /// failed the field's validator (`rejected`) or passed it only once mended (`mended`), found on
    /// the page levelled as the layout rules read it (so their boxes are turned: ``range(of:in:)``
    /// finds them on the page as read).
    static func words(on page: PageText, kind: DocumentKind) -> (rejected: [String: [Word]], mended: [String: [Word]]) {
        let lines = TextLine.group(page.words)
        return FieldExtractor.rejectedValues(LevelledLines(lines, width: page.width, height: page.height)?.lines ?? lines, kind: kind)
    }

    /// The range of `words` in `page.words` (the same words, one after another, known by their
    /// place in Tesseract's layout), nil when they are not found so.
    static func range(of words: [Word], in page: PageText) -> Range<Int>? {
        guard let first = words.first else { return nil }
        func same(_ a: Word, _ b: Word) -> Bool {
            (a.block, a.paragraph, a.line, a.word) == (b.block, b.paragraph, b.line, b.word) && a.text == b.text
        }
        guard let start = page.words.firstIndex(where: { same($0, first) }), start + words.count <= page.words.count,
              zip(page.words[start...], words).allSatisfy(same) else { return nil }
        return start..<(start + words.count)
    }
}

extension OCRWorker {
    /// The fields missing from `fields` (of a page of `kind` read from `page`, on `image`) that
    /// its ``RejectedValues`` give when their words are read again, and those of `fields` taken
    /// only once mended that a second reading gives unmended, each for review; nil when the page
    /// has no such value to read again.
    func rejectedValuesReread(_ page: PageText, kind: DocumentKind, fields: [String: Field], image: LeptImage, resolution: Int,
                              options: OCROptions, report: PreprocessReport, index: Int) throws(OCRError) -> [String: Field]? {
        let found = RejectedValues.words(on: page, kind: kind)
        let rejected = found.rejected.filter { RejectedValues.fields.contains($0.key) && fields[$0.key] == nil }
        // A value taken only once mended is a guess ("17/07" taken for 17707): read again on its
        // own, a reading that needs no mending replaces it ("12207"), still for review.
        let mended = found.mended.filter { RejectedValues.fields.contains($0.key) && fields[$0.key]?.needsReview == true }
        guard !rejected.isEmpty || !mended.isEmpty else { return nil }
        var out = page
        let nextBlock = (page.words.map(\.block).max() ?? 0) + 1
        for (_, words) in rejected.merging(mended, uniquingKeysWith: { a, _ in a }).sorted(by: { $0.key < $1.key }) {
            // Found on the page as read (the levelled words' boxes are turned).
            guard let range = RejectedValues.range(of: words, in: out) else { continue }
            let box = Segment(Array(out.words[range])).box
            let region = LabelledPage.within(box.padded(max(2, box.height / 4)), width: page.width, height: page.height)
            guard region.width > 0, region.height > 0 else { continue }
            let read = try text.recognize(image, resolution: resolution, mode: .singleLine, rectangle: region)
            guard read.words.map(\.text) != out.words[range].map(\.text),
                  let mended = TallWords.replaced(out, range: range, by: read.words, nextBlock: nextBlock,
                                                  least: RejectedValues.least, cap: RejectedValues.cap, guarding: true) else { continue }
            out = mended
        }
        guard out != page else { return [:] }
        var known = options
        known.kind = kind
        let again = finish(out, source: .ocr, index: index, report: report, scanned: nil, image: image, options: known)
        let mendedAgain = mended.isEmpty ? [:] : RejectedValues.words(on: out, kind: kind).mended
        var taken: [String: Field] = [:]
        for name in Set(rejected.keys).union(mended.keys) {
            guard var f = again.fields[name] else { continue }
            // (Not a second guess for the first.)
            if mended[name] != nil, mendedAgain[name] != nil || f.value == fields[name]?.value { continue }
            f.needsReview = true
            taken[name] = f
        }
        return taken
    }
}
