import Foundation

/// The counties of the United States (and the units that stand for them: Louisiana's parishes,
/// Alaska's boroughs and census areas, Virginia's independent cities), by state code, from the
/// Census Bureau's list (``table``, made by `scripts/make-county-list`). A deed names its county
/// as printed; a county that is on no list is a misreading ("Sedqwick", "Cast Baton Rouge").
enum USCounties {
    /// What a county read off a page is, against the list.
    enum Check: Equatable {
        /// On the list (letters, case and marks aside).
        case listed
        /// Off the list but a letter or two from one county and no other: that county.
        case near(String)
        /// On no list, nor near one county.
        case unlisted
    }

    /// A name as printed and its ``key(_:)``, folded once.
    typealias Entry = (name: String, key: String)

    /// Names by state code.
    static let byState: [String: [Entry]] = byState(table)

    /// A table of "ST|Name;Name;…" lines as names by state code.
    static func byState(_ table: String) -> [String: [Entry]] {
        var out: [String: [Entry]] = [:]
        for line in table.split(separator: "\n") {
            let parts = line.split(separator: "|", maxSplits: 1)
            guard parts.count == 2 else { continue }
            out[String(parts[0])] = parts[1].split(separator: ";").map { (String($0), key(String($0))) }
        }
        return out
    }

    /// Every name once, for a county whose state is not known.
    static let all: [Entry] = Set(byState.values.joined().map(\.name)).sorted().map { ($0, key($0)) }

    /// Lower-case letters only, without marks, a word's usual abbreviation spelt out ("St. Mary's"
    /// → saintmarys, "Doña Ana" → donaana, "Ft Worth" → fortworth): "St. Paul" is Saint Paul, not
    /// a letter from "W St Paul".
    static func key(_ s: String) -> String {
        let words = s.folding(options: [.diacriticInsensitive, .caseInsensitive], locale: nil).lowercased()
            .split(whereSeparator: { !$0.isLetter && $0 != "'" && $0 != "’" })
        return words.map { w in
            let letters = String(w.filter { $0.isLetter && $0.isASCII })
            return abbreviations[letters] ?? letters
        }.joined()
    }

    /// Words a place's name abbreviates, in full.
    static let abbreviations = ["st": "saint", "ste": "sainte", "ft": "fort", "mt": "mount", "pt": "point"]

    /// Checks `county` against the counties of `state` (a two-letter code), or of every state
    /// when the state is unknown or not on the list.
    static func check(_ county: String, state: String?) -> Check {
        check(county, against: state.flatMap { byState[$0] } ?? all)
    }

    /// Checks `name` against `names`: listed, the one name a letter or two off it, or neither.
    static func check(_ name: String, against names: [Entry]) -> Check {
        let k = key(name)
        guard !k.isEmpty else { return .unlisted }
        if names.contains(where: { $0.key == k }) { return .listed }
        // Short names lie a letter from many others (Polk, Pike, Pope): not mended.
        let limit = k.count < 5 ? 0 : k.count <= 8 ? 1 : 2
        guard limit > 0 else { return .unlisted }
        var best: (distance: Int, name: String)?, tied = false
        for entry in names {
            let d = PageLayout.editDistance(k, entry.key, limit: limit)
            guard d <= limit else { continue }
            if let b = best, d >= b.distance {
                if d == b.distance { tied = true }
                continue
            }
            best = (d, entry.name)
            tied = false
        }
        guard let best, !tied else { return .unlisted }
        return .near(best.name)
    }
}
