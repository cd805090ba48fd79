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

    /// Names by state code.
    static let byState: [String: [String]] = {
        var out: [String: [String]] = [:]
        for line in table.split(separator: "\n") {
            let parts = line.split(separator: "|", maxSplits: 1)
            guard parts.count == 2 else { continue }
            out[String(parts[0])] = parts[1].split(separator: ";").map(String.init)
        }
        return out
    }()

    /// Every name once, for a county whose state is not known.
    static let all: [String] = Array(Set(byState.values.joined())).sorted()

    /// Lower-case letters only, without marks ("St. Mary's" → stmarys, "Doña Ana" → donaana).
    static func key(_ s: String) -> String {
        String(s.folding(options: [.diacriticInsensitive, .caseInsensitive], locale: nil).lowercased().filter { $0.isLetter && $0.isASCII })
    }

    /// Checks `county` against the counties of `state` (a two-letter code), or of every state
    /// when the state is unknown or not on the list.
    static func check(_ county: String, state: String?) -> Check {
        let names = state.flatMap { byState[$0] } ?? all
        let k = key(county)
        guard !k.isEmpty else { return .unlisted }
        if names.contains(where: { key($0) == k }) { return .listed }
        // Short names lie a letter from many others (Polk, Pike, Pope): not mended.
        let limit = k.count < 5 ? 0 : k.count <= 8 ? 1 : 2
        guard limit > 0 else { return .unlisted }
        var best: (distance: Int, name: String)?, tied = false
        for name in names {
            let d = PageLayout.editDistance(k, key(name), limit: limit)
            guard d <= limit else { continue }
            if let b = best, d >= b.distance {
                if d == b.distance { tied = true }
                continue
            }
            best = (d, name)
            tied = false
        }
        guard let best, !tied else { return .unlisted }
        return .near(best.name)
    }
}
