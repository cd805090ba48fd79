import Foundation

/// An identity value read with a glyph too many or too few: Tesseract's line reader now and then
/// reads one glyph as two ("C68G682377" for C68G82377, "X15G691565" for X15G91565: a G before a
/// digit read "G6"; "1775C87559" for L75C87559: an L read "17"; "OQUEDRAOGO" for OUEDRAOGO),
/// however the word is cropped or scaled, or loses one ("5544627" for N5544627). The printed
/// glyphs stand apart, so their count is in the ink: columns of ink between columns of paper. Each
/// read alone, as one character, they spell the value again; when that spelling is the first
/// reading with one of its characters dropped (or two of them read as the one glyph there) or one
/// put back, and the rest of the two agrees glyph for glyph, the count of ink and the glyphs' own
/// readings together say which glyph was read twice or lost.
enum GlyphCount {
    /// Characters a document number's glyph may be read as, alone.
    static let numberAlphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
    /// Characters a glyph of a name in capitals may be read as, alone (a letter with a mark reads
    /// as its letter: "Ç" as C, "Ł" as L, which is how the name is compared and searched).
    static let nameAlphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ-'"
    /// The name fields of an identity page, printed in capitals.
    static let nameFields = ["surname", "given_names"]

    /// The columns (x0, x1 exclusive) of the glyphs in `gray` (a crop around one word): runs of
    /// columns holding ink (darker than Otsu's threshold of the crop) between columns of none.
    /// A run with less ink than a third of the crop's height is a speck, not a glyph. Nil when
    /// the crop has no two levels.
    static func glyphs(_ gray: GrayImage) -> [(x0: Int, x1: Int)]? {
        guard gray.width > 0, gray.height > 0, let (threshold, _, _) = PageOutline.otsu(gray.pixels) else { return nil }
        var ink = [Int](repeating: 0, count: gray.width)
        for y in 0..<gray.height {
            let row = y * gray.width
            for x in 0..<gray.width where gray.pixels[row + x] <= threshold { ink[x] += 1 }
        }
        var out: [(x0: Int, x1: Int)] = []
        var x = 0
        while x < gray.width {
            guard ink[x] > 0 else { x += 1; continue }
            let start = x
            var total = 0
            while x < gray.width, ink[x] > 0 { total += ink[x]; x += 1 }
            if 3 * total >= gray.height { out.append((start, x)) }
        }
        return out
    }

    /// Whether `glyphs` look like single glyphs: at least `least`, and none so wide beside the
    /// others' median that it could be two touching (a pair of digits is about twice one; a
    /// capital M or W is under 1.7 times the median capital).
    static func apart(_ glyphs: [(x0: Int, x1: Int)], least: Int = 6) -> Bool {
        guard glyphs.count >= least else { return false }
        let widths = glyphs.map { $0.x1 - $0.x0 }
        return widths.max()! * 10 <= PageLayout.median(widths) * 17
    }

    /// `value` as its glyphs read one by one (`glyphs`, one character each) spell it, when they
    /// are one fewer than its characters and agree with it everywhere but at one place, where the
    /// first reading has two characters (one of them a glyph read twice, or one glyph read as
    /// two) and the glyphs one. Nil otherwise.
    static func mended(_ value: String, glyphs: String, least: Int = 6) -> String? {
        let v = Array(value), g = Array(glyphs)
        guard g.count >= least, v.count == g.count + 1 else { return nil }
        // What is left of the first reading past the agreeing start and end is the pair.
        let (start, end) = agreeing(v, g)
        // Either the whole glyphs agree (a character dropped), or one glyph is left for a pair.
        guard start + end >= g.count - 1 else { return nil }
        // Not at either end: a first or last glyph missing from the count is likelier lost to the
        // ink (faint on a shadowed page: "755045218" read glyph by glyph "55045218") than read
        // twice, which happens between glyphs ("G6").
        guard start > 0, start < g.count - 1 else { return nil }
        // A narrow glyph ("I", "1") may touch its neighbour with no paper between them and not
        // widen it much: one dropped for being read alongside it is more likely lost to the ink
        // than read twice ("CELIK" read glyph by glyph "CELK").
        let dropped: Character? = g[start] == v[start + 1] ? v[start] : g[start] == v[start] ? v[start + 1] : nil
        if let dropped, narrow.contains(dropped) { return nil }
        return glyphs
    }

    /// `value` as its glyphs read one by one spell it, when they are one more than its characters
    /// and agree with it everywhere but for one glyph between (a glyph the first reading lost:
    /// "5544627" for N5544627, read surely). Not a narrow one, which a speck or a rule's end can
    /// be. Nil otherwise.
    static func lost(_ value: String, glyphs: String, least: Int = 6) -> String? {
        let v = Array(value), g = Array(glyphs)
        guard g.count >= least, g.count == v.count + 1 else { return nil }
        let (start, end) = agreeing(v, g)
        guard start + end == v.count, !narrow.contains(g[start]) else { return nil }
        return glyphs
    }

    /// How many characters `a` and `b` agree on from the start, and then from the end (within
    /// the shorter).
    static func agreeing(_ a: [Character], _ b: [Character]) -> (start: Int, end: Int) {
        let shorter = min(a.count, b.count)
        var start = 0
        while start < shorter, a[start] == b[start] { start += 1 }
        var end = 0
        while end < shorter - start, a[a.count - 1 - end] == b[b.count - 1 - end] { end += 1 }
        return (start, end)
    }

    /// Glyphs narrow enough to touch a neighbour unseen.
    static let narrow: Set<Character> = ["I", "1", "l", "i", "J", "j", "'", "-", ".", ",", ":", ";", "|", "!"]

    /// `mended` (``mended(_:glyphs:least:)`` of `value` without its spaces) with `value`'s spaces
    /// put back between the same glyphs. The pair of characters read for one glyph starts where the
    /// two first disagree; its second character is the one dropped (the last, when they agree to
    /// the end).
    static func spaced(_ value: String, mended: String) -> String {
        let letters = Array(value.filter { $0 != " " }), m = Array(mended)
        guard letters.count == m.count + 1 else { return mended }
        let start = agreeing(letters, m).start
        let dropped = start < m.count ? start + 1 : start
        var out = "", i = 0
        for c in value {
            if c == " " {
                if !out.isEmpty, out.last != " " { out.append(" ") }
                continue
            }
            defer { i += 1 }
            guard i != dropped else { continue }
            out.append(m[i < dropped ? i : i - 1])
        }
        return out.trimmingCharacters(in: .whitespaces)
    }
}

extension OCRWorker {
    /// An identity value read again glyph by glyph (on `image`, where its box is): one for review
    /// whose characters are one more than its glyphs, mended by
    /// ``GlyphCount/mended(_:glyphs:least:)``, its spaces kept (a name in capitals,
    /// ``GlyphCount/nameAlphabet``, four glyphs at least; a document number, `alphabet`
    /// ``GlyphCount/numberAlphabet``, six); and a document number (`number`), read surely or not,
    /// whose characters are one fewer than its glyphs, mended by ``GlyphCount/lost(_:glyphs:least:)``.
    /// A value changed goes to review. Nil when nothing changes, the glyphs cannot be told apart, or
    /// `valid` refuses the mended value.
    func glyphCountRead(_ field: Field, alphabet: String = GlyphCount.numberAlphabet, least: Int = 6, number: Bool = true,
                        image: LeptImage, resolution: Int, valid: (String) -> FieldValue? = FieldExtractor.documentNumber) throws(OCRError) -> Field? {
        guard let value = field.value.string, let box = field.box, box.height >= 8 else { return nil }
        let letters = value.filter { $0 != " " }
        guard letters.count >= least - 1 else { return nil }
        // Paper above and below; beside it, a pixel only: a label's last letter set close before
        // the value ("DL 371274211") is no glyph of it.
        let pad = max(2, box.height / 8)
        let region = LabelledPage.within(BoundingBox(x: box.x - 1, y: box.y - pad, width: box.width + 2, height: box.height + 2 * pad),
                                         width: image.width, height: image.height)
        guard region.width > 0, region.height > 0, let clip = image.clipped(to: region), let gray = TickBoxReader.gray(clip),
              let glyphs = GlyphCount.glyphs(gray),
              // (A reading sure of itself is not taken to have read a glyph twice.)
              (field.needsReview && glyphs.count + 1 == letters.count) || (number && glyphs.count == letters.count + 1 && !letters.contains(" ")),
              GlyphCount.apart(glyphs, least: least) else { return nil }
        let width = PageLayout.median(glyphs.map { $0.x1 - $0.x0 })
        var read = ""
        for (i, glyph) in glyphs.enumerated() {
            // Each glyph with the paper halfway to its neighbours.
            let left = i == 0 ? 0 : (glyphs[i - 1].x1 + glyph.x0) / 2
            let right = i == glyphs.count - 1 ? region.width : (glyph.x1 + glyphs[i + 1].x0 + 1) / 2
            // (A glyph Tesseract finds nothing in, cropped close, is given more paper above and below.)
            var t = ""
            for margin in [0, box.height / 3] where t.count != 1 {
                let cell = LabelledPage.within(BoundingBox(x: region.x + left, y: region.y - margin, width: right - left, height: region.height + 2 * margin),
                                               width: image.width, height: image.height)
                t = try text.recognize(image, resolution: resolution, mode: .singleCharacter, rectangle: cell, whitelist: alphabet)
                    .words.map(\.text).joined()
            }
            guard t.count == 1 else { return nil }
            read += t
        }
        if glyphs.count > letters.count {
            guard let found = GlyphCount.lost(letters, glyphs: read, least: least) else { return nil }
            // A glyph put back at either end is one of the value's only as close to the next as
            // its glyphs are to each other: a word's space away, it is a label's end ("DL").
            let at = zip(letters, found).prefix { $0 == $1 }.count
            let gaps = zip(glyphs, glyphs.dropFirst()).map { $1.x0 - $0.x1 }
            let usual = PageLayout.median(gaps)
            if at == 0, gaps[0] > 2 * usual + 1 { return nil }
            if at == glyphs.count - 1, gaps[gaps.count - 1] > 2 * usual + 1 { return nil }
            // Nor is one under half the median glyph's width (no wide letter or digit is): a
            // colon, a sliver of a neighbour's stroke.
            if (glyphs[at].x1 - glyphs[at].x0) * 2 < width { return nil }
            guard let checked = valid(found) else { return nil }
            var f = field
            f.value = checked
            f.needsReview = true
            return f
        }
        guard let mended = GlyphCount.mended(letters, glyphs: read, least: least) else { return nil }
        // The glyph read as two is no wider than most (two touching, a kerned "TY", would be).
        let at = zip(letters, mended).prefix { $0 == $1 }.count
        if at < glyphs.count, (glyphs[at].x1 - glyphs[at].x0) * 10 > width * 14 { return nil }
        guard let checked = valid(GlyphCount.spaced(value, mended: mended)) else { return nil }
        var f = field
        f.value = checked
        f.needsReview = true
        return f
    }
}
