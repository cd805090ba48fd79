import Foundation

/// The cities and towns of the United States by state code: the names the Postal Service gives
/// its ZIP codes' places and the other names it accepts for them, each with the first three
/// digits of its ZIP codes (``table``, made by `scripts/make-place-list`). A form's city beside
/// its state is one of them as printed, and its ZIP starts as one of that place's does; a city on
/// no list is a misreading ("Balon Rouge", "Sookane"), and so is one of a pair that disagree
/// (Columbus, OH with 43715 for 43215).
enum USPlaces {
    /// Each state's line of the table, unparsed: a page names one or two states, and parsing all
    /// 40 000 names on first use cost a quarter of a second in a debug build.
    static let lines: [Substring: Substring] = {
        var out: [Substring: Substring] = [:]
        for line in table.split(separator: "\n") {
            let parts = line.split(separator: "|", maxSplits: 1)
            if parts.count == 2 { out[parts[0]] = parts[1] }
        }
        return out
    }()

    /// The places of `state` (letters only, case and marks aside: ``USCounties/key(_:)``), each
    /// with its ZIP prefixes; nil for a state not on the list.
    static func places(_ state: String) -> [(entry: USCounties.Entry, prefixes: [Substring])]? {
        lines[Substring(state)].map { line in
            line.split(separator: ";").map { item in
                let nameAndZips = item.split(separator: "=", maxSplits: 1)
                let name = String(nameAndZips[0])
                return ((name, USCounties.key(name)), nameAndZips.count == 2 ? nameAndZips[1].split(separator: ",") : [])
            }
        }
    }

    /// Checks `city` against the places of `state` (a two-letter code); nil when the state is
    /// not known, or not on the list (no place is guessed among the whole country's 40 000).
    static func check(_ city: String, state: String?) -> USCounties.Check? {
        guard let places = state.flatMap(places) else { return nil }
        return USCounties.check(city, against: places.map(\.entry))
    }

    /// Whether `zip` is one of the listed place `city`'s of `state` (by its first three digits);
    /// nil when the place is not on the list or the ZIP is no five digits.
    static func zipAgrees(city: String, state: String, zip: String) -> Bool? {
        guard zip.count >= 5, zip.prefix(5).allSatisfy(\.isNumber), let places = places(state) else { return nil }
        let key = USCounties.key(city)
        let known = places.filter { $0.entry.key == key }.flatMap(\.prefixes)
        return known.isEmpty ? nil : known.contains(zip.prefix(3))
    }
}
