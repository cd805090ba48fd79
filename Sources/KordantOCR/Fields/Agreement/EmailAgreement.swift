import Foundation

/// The requester's e-mail address checked against the requester's printed name.
///
/// A personal mailbox spells its owner's name ("eleni79", "akonstantinopoulosvlachos",
/// "signe.hægeland"): where a run of its letters is a few letters off the name's words, the
/// letters are the name's, and a digit read as its look-alike letter beside the number
/// ("elenis3", "harutol7", "max3l") is that digit again. Only the part before the "@" is touched
/// (a host has no printed copy to check it by), and every change goes to review.
extension FieldExtractor {
    /// Letters a digit is read as, and the digit.
    static let digitLookAlikes: [Character: Character] = ["l": "1", "I": "1", "i": "1", "o": "0", "O": "0", "s": "5", "S": "5", "z": "2", "Z": "2"]

    /// `address` with its mailbox's letters spelled as `name` spells them, or nil when they
    /// already agree or are not the name's.
    static func agreedEmail(_ address: String, name: String) -> String? {
        guard let at = address.firstIndex(of: "@") else { return nil }
        let candidates = mailboxSpellings(name)
        guard !candidates.isEmpty else { return nil }
        // Words with a marked letter or a pair read for one letter, as addresses spell them: a
        // mailbox that differs there is likelier right than the name (see ``nameDoubtful(_:name:)``).
        let words = name.lowercased().split(whereSeparator: { $0 == " " || $0 == "-" })
        let marked = words.filter { w in w.contains { String($0).decomposedStringWithCanonicalMapping.unicodeScalars.count > 1 } }
            .map { listingSlug(String($0)).filter(\.isLetter) }
        let paired = words.map { listingSlug(String($0)).filter(\.isLetter) }.compactMap { w -> (String, String)? in
            readForOne.first { w.contains($0) }.map { (w, $0) }
        }
        var out = ""
        var segment = ""
        func flush() {
            // A pair read for one letter is doubt only where the mailbox spells that stretch otherwise.
            let doubtful = marked + paired.filter { !segment.lowercased().contains($0.1) }.map(\.0)
            out += agreedMailboxSegment(segment, candidates: candidates, marked: doubtful) ?? segment
            segment = ""
        }
        for ch in address[..<at] {
            if ".-_+".contains(ch) { flush(); out.append(ch) } else { segment.append(ch) }
        }
        flush()
        let agreed = out + address[at...]
        return agreed == address ? nil : agreed
    }

    /// How a mailbox may spell a name: its words as addresses spell them (accents dropped,
    /// apostrophes out), one or several running together, or an initial before them.
    static func mailboxSpellings(_ name: String) -> [String] {
        let words = listingSlug(name).split(separator: "-").map { String($0.filter(\.isLetter)) }.filter { !$0.isEmpty }
        guard words.count <= 8 else { return [] }
        var found: Set<String> = []
        for i in words.indices {
            var run = ""
            for k in i..<words.count {
                run += words[k]
                found.insert(run)
                for j in 0..<i { found.insert(String(words[j].prefix(1)) + run) }
            }
        }
        return found.filter { slugSkeleton($0).count >= 2 }.sorted()
    }

    /// One part of a mailbox between its dots, mended from the name; nil when unchanged.
    static func agreedMailboxSegment(_ segment: String, candidates: [String], marked: [String] = []) -> String? {
        let letters = String(segment.prefix { !$0.isNumber })
        var number = String(segment.dropFirst(letters.count))
        guard slugSkeleton(letters).count >= 2 else { return nil }
        // A number's digit read as a letter: inside the number, or just before it.
        if number.contains(where: \.isNumber), number.allSatisfy({ $0.isNumber || digitLookAlikes[$0] != nil }) {
            number = String(number.map { digitLookAlikes[$0] ?? $0 })
        }
        var kept = letters
        var best = closest(letters, candidates)
        if let b = best, b.distance > 0, marked.contains(where: { b.spelling.contains($0) }) { best = nil }
        if !number.isEmpty, best?.distance != 0 {
            for k in 1...2 where letters.count - k >= 2 && letters.suffix(k).allSatisfy({ digitLookAlikes[$0] != nil }) {
                if let c = closest(String(letters.dropLast(k)), candidates), c.distance == 0 {
                    kept = String(letters.dropLast(k))
                    best = c
                    number = String(letters.suffix(k).map { digitLookAlikes[$0] ?? $0 }) + number
                    break
                }
            }
        }
        // A letter more than the name before the number may be one of its digits misread ("chiamakab4"):
        // not dropped.
        if let b = best, b.distance > 0, !number.isEmpty, slugSkeleton(letters).count > slugSkeleton(b.spelling).count { best = nil }
        // The same letters as the name ("liv.thorsson" for "Liv Þorsson") are right as read.
        let mended = (best.map { $0.distance == 0 ? kept : $0.spelling } ?? letters) + number
        return mended == segment ? nil : mended
    }

    /// The one spelling nearest `letters` once accents and marks are set aside (at most one
    /// letter in five off, two in all, none in a spelling under four letters; one more for each
    /// letter written as two, "þ" read as "p"), or nil when none is that near or two are equally near.
    private static func closest(_ letters: String, _ candidates: [String]) -> (spelling: String, distance: Int)? {
        let read = slugSkeleton(letters)
        var best: (spelling: String, distance: Int)?
        var tied = false
        for c in candidates {
            let target = slugSkeleton(c)
            let limit = target.count < 4 ? 0 : min(2, max(1, target.count / 5)) + c.filter({ "þæœß".contains($0) }).count
            let d = PageLayout.editDistance(read, target, limit: limit)
            guard d <= limit else { continue }
            if let b = best, b.distance == d, b.spelling != c { tied = true } else if best == nil || d < best!.distance { best = (c, d); tied = false }
        }
        return tied ? nil : best
    }
}
