extension FieldExtractor {
    /// Letters print and copy so alike that OCR reads one for the other: the pairs (either way round).
    static let lookAlikeLetters: Set<String> = ["ce", "eo", "lt", "il", "l1", "o0", "oq", "nm", "ao", "un", "ft", "bh", "gq", "vy"]

    /// Prefixes of request and case references in common use ("REQ-204817", "CASE-…", "DSAR-…").
    static let referencePrefixes = ["REQ", "REF", "CASE", "OPT", "PR", "TKT", "TICKET", "DSR", "DSAR", "CCPA", "SR", "RQ", "ID", "INC"]

    /// Letters read as two or three ("m" as "rn", "ni", "in", "nn", "ny" or "iii"; "d" as "cl";
    /// "w" as "vv"; "h" as "li"), or two read as one: the printed letter, by how it may be read.
    static let lookAlikeSplits: [Character: [String]] = ["m": ["rn", "ni", "in", "nn", "ny", "iii"], "d": ["cl"], "w": ["vv"], "h": ["li"]]

    /// How far `read` is from `printed` as OCR misreads: an edit costs 1, a letter read as its
    /// look-alike (``lookAlikeLetters``) or as the letters it splits into (``lookAlikeSplits``),
    /// either way round, costs ½. Compared in lower case. ("exaniple.net" is ½ from "example.net",
    /// "cxample.nel" 1, "exarnple.net" ½; plain edit distance puts them 2 away.)
    static func lookAlikeCost(_ read: String, _ printed: String) -> Double {
        let a = Array(read.lowercased()), b = Array(printed.lowercased())
        var d = [[Double]](repeating: [Double](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { d[i][0] = Double(i) }
        for j in 0...b.count { d[0][j] = Double(j) }
        guard !a.isEmpty, !b.isEmpty else { return d[a.count][b.count] }
        func alike(_ x: Character, _ y: Character) -> Bool { lookAlikeLetters.contains("\(x)\(y)") || lookAlikeLetters.contains("\(y)\(x)") }
        // The lengths of the readings of the one letter `one` that end at `end` in `long`.
        func splits(_ long: [Character], _ end: Int, _ one: Character) -> [Int] {
            (lookAlikeSplits[one] ?? []).filter { end >= $0.count && String(long[(end - $0.count)..<end]) == $0 }.map(\.count)
        }
        for i in 1...a.count {
            for j in 1...b.count {
                var c = min(d[i - 1][j] + 1, d[i][j - 1] + 1,
                            d[i - 1][j - 1] + (a[i - 1] == b[j - 1] ? 0 : alike(a[i - 1], b[j - 1]) ? 0.5 : 1))
                for n in splits(a, i, b[j - 1]) { c = min(c, d[i - n][j - 1] + 0.5) }
                for n in splits(b, j, a[i - 1]) { c = min(c, d[i - 1][j - n] + 0.5) }
                d[i][j] = c
            }
        }
        return d[a.count][b.count]
    }
}
