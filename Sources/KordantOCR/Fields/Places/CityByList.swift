import Foundation

extension FieldExtractor {
    /// A requester's city whose label was misread past knowing (a fax's stacked form: "Madison"
    /// under a label read as nothing), or whose value was ("City: | fartford"), found by the place
    /// list: the one cell of the page that is a city or town of the requester's state (known, or
    /// the one its ZIP is of) whose ZIP codes start as the requester's ZIP does (``USPlaces``), as
    /// printed or a letter or two off one ("fartford" → Hartford) when six letters or more; also
    /// the city words of a line that ends in that state's code and that ZIP ("Baton Rouge LA 70801"
    /// under misread labels), and the value the city's label gave that its validator refused
    /// (`rejected`). None when two places qualify. For review: nothing but the list names it.
    ///
    /// With no ZIP read either (every label of a stacked fax misread), the page's ZIPs alone in
    /// their cells are tried, and a ZIP, a city and a state printed alone in its cell (its code
    /// or its name) that agree, one such three on the page, give all three, for review. A state
    /// not read beside a known ZIP is taken from such a cell too.
    static func cityByList(_ f: inout [String: Field], layout: PageLayout, rejected: (text: String, words: [Word])? = nil) {
        guard f["city"] == nil else { return }
        let knownZip = f["zip"]?.value.string, knownState = f["state"]?.value.string
        let taken = f.values.compactMap(\.box)
        // Words no field was read from.
        func free(_ words: [Word]) -> Bool { !words.contains { w in taken.contains { $0.intersects(w.box) } } }
        let cells = layout.rows.flatMap(\.segments).filter { free($0.words) }
        // Each state's places, read once for every cell checked against them.
        var placesOf: [String: [(entry: USCounties.Entry, prefixes: [Substring])]] = [:]
        let zips: [(zip: String, words: [Word])] = knownZip.map { [($0, [])] }
            ?? cells.compactMap { c in zipCode(c.text)?.string.map { ($0, c.words) } }
        // The cell printing a state alone: its code, or its name.
        func stateCell(_ code: String) -> [Word]? {
            let name = Self.states.first { $0.value == code }?.key
            return cells.first { c in
                let t = c.text.trimmingCharacters(in: CharacterSet(charactersIn: " ,.;:|"))
                return t == code || t.uppercased() == name
            }?.words
        }
        var found: [(name: String, state: String, zip: String, words: [Word], zipWords: [Word])] = []
        for z in zips where z.zip.count >= 5 {
            let states = knownState.map { [$0] } ?? zipPrefixes.keys.filter { Self.zip(z.zip, agreesWith: $0) }.sorted()
            func consider(_ text: String, _ words: [Word]) {
                let t = text.trimmingCharacters(in: CharacterSet(charactersIn: " ,.;:|[]'’"))
                let parts = t.split(separator: " ")
                guard (1...4).contains(parts.count), parts.allSatisfy({ $0.first?.isLetter == true }), t.first?.isUppercase == true || t.count >= 6,
                      t.allSatisfy({ $0.isLetter || " .'-".contains($0) }), t.filter(\.isLetter).count >= 3 else { return }
                for st in states {
                    if placesOf[st] == nil { placesOf[st] = USPlaces.places(st) ?? [] }
                    guard let places = placesOf[st], !places.isEmpty, case let v = USPlaces.verdict(t, places: places, zip: z.zip),
                          v.zipAgrees == true else { continue }
                    switch v.place {
                    case .listed: found.append((t, st, z.zip, words, z.words))
                    case .near(let name) where t.filter(\.isLetter).count >= 6: found.append((name, st, z.zip, words, z.words))
                    default: break
                    }
                }
            }
            for c in cells { consider(c.text, c.words) }
            for coded in codedPlaces(layout) where coded.zip.text == z.zip && !coded.city.isEmpty && states.contains(coded.code.text)
                && free(coded.city) {
                consider(coded.city.map(\.text).joined(separator: " "), coded.city)
            }
            if knownZip != nil, let rejected { consider(rejected.text, rejected.words) }
        }
        // Without a ZIP read, only a three printed alone each: the state's cell must be there.
        if knownZip == nil { found = found.filter { stateCell($0.state) != nil } }
        guard let one = found.first, Set(found.map { $0.name + "|" + $0.state + "|" + $0.zip }).count == 1 else { return }
        func taking(_ value: String, _ words: [Word]) -> Field {
            var read = field(.text(value), words)
            read.needsReview = true
            return read
        }
        f["city"] = taking(one.name, one.words)
        if knownZip == nil { f["zip"] = taking(one.zip, one.zipWords) }
        if knownState == nil, let words = stateCell(one.state) { f["state"] = taking(one.state, words) }
    }
}
