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
    static let byState: [String: [Entry]] = {
        var out: [String: [Entry]] = [:]
        for line in table.split(separator: "\n") {
            let parts = line.split(separator: "|", maxSplits: 1)
            guard parts.count == 2 else { continue }
            out[String(parts[0])] = parts[1].split(separator: ";").map { (String($0), key(String($0))) }
        }
        return out
    }()

    /// Every name once, for a county whose state is not known.
    static let all: [Entry] = Set(byState.values.joined().map(\.name)).sorted().map { ($0, key($0)) }

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
