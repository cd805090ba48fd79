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

    /// `city` checked against the places of `state` (a two-letter code), and with `zip` whether
    /// that ZIP is one of the place's (by its first three digits; the place a letter off when
    /// the city is near one), from one reading of the state's names; `zipAgrees` is nil when
    /// there is no such place or the ZIP is no five digits. Nil when the state is not known, or
    /// not on the list (no place is guessed among the whole country's 40 000).
    static func verdict(_ city: String, state: String?, zip: String? = nil) -> (place: USCounties.Check, zipAgrees: Bool?)? {
        state.flatMap(places).map { verdict(city, places: $0, zip: zip) }
    }

    /// ``verdict(_:state:zip:)`` against a state's places already read (``places(_:)``), for a
    /// caller that checks many cells against one state.
    static func verdict(_ city: String, places: [(entry: USCounties.Entry, prefixes: [Substring])], zip: String? = nil)
        -> (place: USCounties.Check, zipAgrees: Bool?) {
        let key = USCounties.key(city)
        let place = places.contains { $0.entry.key == key } ? .listed : USCounties.check(city, against: places.map(\.entry))
        let named: String?
        switch place {
        case .listed: named = key
        case .near(let name): named = USCounties.key(name)
        case .unlisted: named = nil
        }
        guard let zip, zip.count >= 5, zip.prefix(5).allSatisfy(\.isNumber), let named else { return (place, nil) }
        let known = places.filter { $0.entry.key == named }.flatMap(\.prefixes)
        return (place, known.isEmpty ? nil : known.contains(zip.prefix(3)))
    }

    /// Checks `city` against the places of `state` (see ``verdict(_:state:zip:)``).
    static func check(_ city: String, state: String?) -> USCounties.Check? {
        verdict(city, state: state)?.place
    }

    /// Whether `zip` is one of the place `city`'s of `state` (see ``verdict(_:state:zip:)``).
    static func zipAgrees(city: String, state: String, zip: String) -> Bool? {
        verdict(city, state: state, zip: zip)?.zipAgrees ?? nil
    }
}
