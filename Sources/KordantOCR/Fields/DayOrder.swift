import Foundation

/// The order of day and month in a date printed in numbers only ("08.12.2032").
///
/// US forms print the month first ("08/12/2032" is August 12) and much of the world the day
/// first ("08.12.2032" is 8 December). A date whose first two numbers are both 12 or less reads
/// both ways, and the page decides: another date printed the same way whose first number is over
/// 12 ("26.11.2016") is day-first, one whose second is over 12 month-first. With no such date the
/// month-first reading stays, and where the numbers are set off by full stops (the separator of
/// day-first countries as much as of US forms) it goes to review: a reading the page cannot settle
/// is never passed off as certain. A page whose labels are in a language of day-first countries
/// ("Date de naissance", "Geburtsdatum") reads its undecided dates set off by full stops day
/// first, for review still (a bilingual page printing "12/05/1948" may follow US usage).
extension FieldExtractor {
    /// A date of numbers only: its two first numbers, the separator and the year.
    struct NumericDate {
        var first: Int
        var second: Int
        var separator: Character
        var year: Int
    }

    /// Compiled once: every page of every kind is scanned for these dates.
    private static let numericDatePattern = try? NSRegularExpression(pattern: #"(?<![0-9])([0-9]{1,2})([./-])([0-9]{1,2})\2([0-9]{4})(?![0-9])"#)

    static func numericDates(_ text: String) -> [NumericDate] {
        guard let re = numericDatePattern else { return [] }
        let ns = text as NSString
        return re.matches(in: text, range: NSRange(location: 0, length: ns.length)).compactMap { m in
            guard let a = Int(ns.substring(with: m.range(at: 1))), let b = Int(ns.substring(with: m.range(at: 3))),
                  let y = Int(ns.substring(with: m.range(at: 4))), let sep = ns.substring(with: m.range(at: 2)).first else { return nil }
            return NumericDate(first: a, second: b, separator: sep, year: y)
        }
    }

    /// Date fields read from a numbers-only date whose day and month could be either way round,
    /// re-read in the order the page's other dates show, or sent to review (see the type's note).
    static func dayOrderChecked(_ f: inout [String: Field], lines: [TextLine]) {
        // Only values whose day and month could be swapped; the page is read for them alone.
        let ambiguous = dateFields.compactMap { name -> (name: String, y: Int, m: Int, d: Int)? in
            guard let parts = f[name]?.value.string?.split(separator: "-").compactMap({ Int($0) }), parts.count == 3,
                  parts[1] != parts[2], parts[1] <= 12, parts[2] <= 12 else { return nil }
            return (name, parts[0], parts[1], parts[2])
        }
        guard !ambiguous.isEmpty else { return }
        let dates = lines.flatMap { numericDates($0.text) }
        for (name, y, m, d) in ambiguous {
            // The printed date this value was read from.
            guard let printed = dates.first(where: { $0.year == y && (($0.first == m && $0.second == d) || ($0.first == d && $0.second == m)) })
            else { continue }
            let same = dates.filter { $0.separator == printed.separator }
            let dayFirst = same.contains { $0.first > 12 && $0.first <= 31 && $0.second <= 12 }
            let monthFirst = same.contains { $0.second > 12 && $0.second <= 31 && $0.first <= 12 }
            if dayFirst && !monthFirst {
                f[name]?.value = .text(String(format: "%04d-%02d-%02d", y, printed.second, printed.first))
            } else if !dayFirst, !monthFirst, printed.separator == ".", dayFirstLanguage(lines) {
                f[name]?.value = .text(String(format: "%04d-%02d-%02d", y, printed.second, printed.first))
                f[name]?.needsReview = true
            } else if dayFirst == monthFirst, printed.separator == "." {
                f[name]?.needsReview = true
            }
        }
    }

    /// Label words of French, German, Spanish, Italian, Portuguese and Dutch documents, none an
    /// English word: countries writing these put the day first.
    static let dayFirstWords: Set<String> = [
        "naissance", "prénom", "prénoms", "nationalité", "délivrance", "délivré", "geburtsdatum", "geburtsort",
        "staatsangehörigkeit", "ausstellungsdatum", "gültig", "nacimiento", "expedición", "caducidad", "nacionalidad",
        "nascita", "rilascio", "scadenza", "cittadinanza", "nascimento", "validade", "nacionalidade", "geboortedatum",
        "nationaliteit", "geldig",
    ]

    /// Whether the page's labels are in a language of day-first countries (two such words, so
    /// that one misread word does not decide).
    static func dayFirstLanguage(_ lines: [TextLine]) -> Bool {
        var seen: Set<String> = []
        for line in lines {
            for w in line.words {
                let word = w.text.lowercased().trimmingCharacters(in: .punctuationCharacters)
                if dayFirstWords.contains(word) { seen.insert(word) }
                if seen.count >= 2 { return true }
            }
        }
        return false
    }
}
