import Foundation

/// The visual zone as a third reader of the MRZ's names. Names carry no check digit, and on a
/// photocopy or a fax the zone's small OCR-B letters lose strokes (C read as Y, O as Q, P as F)
/// where the same name, printed larger in the visual zone, reads cleanly.
///
/// A name component of the zone (a run of letters between fillers) whose reading is in doubt
/// takes the visual zone's spelling only when that spelling is certain to be the same word: one
/// page word (transliterated as ICAO 9303 says: Ä → AE, Ø → OE, ß → SS…) of the same length,
/// differing from the reading in at most one letter in four and only in letters the readers were
/// unsure of or found plausible (posterior ≥ 0.01), and no other such word and no word spelled
/// exactly as read. Each letter taken is reported as a review reason, so a zone mended this way is
/// never `valid`. (Visual-zone letters outside A–Z, such as Ł, are where Tesseract itself errs:
/// it read one as E for an L: a letter the zone's readers were sure of gives way only to one they
/// found plausible themselves.)
enum MRZVisualNames {
    /// Letters below this posterior count as in doubt: the reader's own line for a sure character.
    static let doubtful = MRZScanOptions().confidentCharacter

    /// `mrz` with doubtful name letters taken from `words` (the page's words) where a visual-zone
    /// word singles out the spelling (those letters' confidence set to 0: the zone's readers did
    /// not read them); unchanged without per-character confidences (a zone parsed from text) or
    /// without such a word.
    static func reconcile(_ mrz: MRZ, words: [Word]) -> MRZ {
        guard let confidence = mrz.characterConfidence, confidence.count == mrz.lines.count else { return mrz }
        // Words of the zone itself, as the page reading saw them, are the same glyphs again, not
        // the visual zone: any word with a filler, or as long as a zone line, is left out.
        let visual = Set(words.filter { !$0.text.contains("<") && $0.text.count < 20 }.flatMap { tokens($0.text) }.filter { $0.count >= 3 })
        guard !visual.isEmpty else { return mrz }
        var lines = mrz.lines.map { Array($0) }
        var taken: [String] = [], changed: [(Int, Int)] = [], disagreeing: [String] = []
        for span in MRZDecoder.layout(mrz.format) where span.kind == .name && span.line < lines.count {
            let line = span.line
            guard span.range.upperBound <= lines[line].count, span.range.upperBound <= confidence[line].count else { continue }
            for run in letterRuns(lines[line], span.range) where run.count >= 3 {
                let read = run.map { lines[line][$0] }
                let unsure = Set(run.indices.filter { confidence[line][run[$0]] < doubtful })
                // Where the readers were sure, the visual zone may still name a letter they found
                // plausible (a fax's O read as Q with an O close behind).
                func open(_ i: Int, _ letter: Character) -> Bool {
                    unsure.contains(i) || (mrz.characterAlternatives.map { line < $0.count && run[i] < $0[line].count && $0[line][run[i]].contains(letter) } ?? false)
                }
                guard !visual.contains(String(read)) else { continue }
                // A component that fills the field to its end may be cut short: compare prefixes.
                let cut = run.last == span.range.upperBound - 1
                let limit = max(1, read.count / 4)
                var close: Set<String> = [], found: Set<String> = []
                var printed = false
                for word in visual where word.count == read.count || (cut && word.count > read.count) {
                    let w = Array(word.prefix(read.count))
                    let differ = read.indices.filter { read[$0] != w[$0] }
                    if differ.isEmpty { printed = true; break }   // the reading itself is there
                    guard differ.count <= limit else { continue }
                    close.insert(String(w))
                    if differ.allSatisfy({ open($0, w[$0]) }) { found.insert(String(w)) }
                }
                if printed || close.isEmpty { continue }
                guard close.count == 1, found.count == 1, let spelling = found.first.map(Array.init) else {
                    // The visual zone spells the name otherwise where the readers were sure (a
                    // fax's O read as Q by both, or the visual zone's own misreading): not
                    // changed, but not valid either.
                    disagreeing.append("line \(line + 1) col \(run[0] + 1)")
                    continue
                }
                for i in read.indices where read[i] != spelling[i] {
                    lines[line][run[i]] = spelling[i]
                    changed.append((line, run[i]))
                    taken.append("line \(line + 1) col \(run[i] + 1): \(read[i])→\(spelling[i])")
                }
            }
        }
        var out = mrz
        if !disagreeing.isEmpty {
            out.reviewReasons.append("visual zone spells a name otherwise (from " + disagreeing.joined(separator: ", ") + ")")
        }
        guard !taken.isEmpty, let rebuilt = MRZParser.build(format: mrz.format, lines: lines.map { String($0) }, repairs: mrz.repairs) else {
            return out
        }
        for change in changed { out.characterConfidence?[change.0][change.1] = 0 }
        out.lines = rebuilt.lines
        out.surname = rebuilt.surname
        out.givenNames = rebuilt.givenNames
        for (i, reading) in out.fieldReadings.enumerated() {
            guard let span = MRZDecoder.layout(mrz.format).first(where: { $0.field == reading.name && $0.kind == .name }) else { continue }
            out.fieldReadings[i].value = String(lines[span.line][span.range])
        }
        out.reviewReasons.append("name letters from the visual zone: " + taken.joined(separator: ", "))
        return out
    }

    /// Runs of letters (no filler) in `range` of `line`, as cell indices.
    static func letterRuns(_ line: [Character], _ range: Range<Int>) -> [[Int]] {
        var runs: [[Int]] = [], current: [Int] = []
        for c in range {
            if line[c] != "<" { current.append(c) } else if !current.isEmpty { runs.append(current); current = [] }
        }
        if !current.isEmpty { runs.append(current) }
        return runs
    }

    /// A page word as MRZ name components: upper case, transliterated as ICAO 9303 part 3 says,
    /// apostrophes dropped, split at anything that is not a letter.
    static func tokens(_ word: String) -> [String] {
        var out = "", parts: [String] = []
        for ch in word.uppercased() {
            if ch == "'" || ch == "’" { continue }
            if let t = transliteration[ch] { out += t; continue }
            let plain = String(ch).folding(options: .diacriticInsensitive, locale: nil)
            if plain.count == 1, let a = plain.first, a.isASCII, a.isLetter { out.append(a) } else {
                if !out.isEmpty { parts.append(out) }
                out = ""
            }
        }
        if !out.isEmpty { parts.append(out) }
        return parts
    }

    /// ICAO 9303-3 6.A: the letters transliterated to more than their base letter.
    static let transliteration: [Character: String] = [
        "Ä": "AE", "Å": "AA", "Æ": "AE", "Ĳ": "IJ", "Ö": "OE", "Ø": "OE", "Œ": "OE", "Ü": "UE", "ß": "SS", "Þ": "TH", "Ð": "D",
    ]
}
