import Foundation

extension FieldExtractor {
    /// A deed prints a party's name more than once: beside its label or in the recital, and again
    /// over its signature line ("PIMCHANOK BUNNAG, Grantor"). Read two ways a letter or two apart
    /// ("Grantor: PMCHANOK BUNNAG", its I lost; "Grantor: (AGRI SAHIN", its Ç read as a bracket),
    /// the name is not sure: the reading read more surely is kept, for review. (Readings further
    /// apart are other people: each of two grantors signs on a line of their own.)
    /// `text`: the page's paragraphs; `name`: the pattern of a party's name (capture group 1).
    static func partiesAgreed(_ f: inout [String: Field], text: [TextLine], name: String) {
        for (field, role) in [("grantor", "Grantor"), ("grantee", "Grantee")] {
            guard let found = f[field], let value = found.value.string else { continue }
            let key = PageLayout.key(value)
            let others = findAll(text, name + #",\s+(?i:"# + role + #")\b"#, sensitive: true, transform: fullName)
            for other in others {
                guard let read = other.value.string, case let otherKey = PageLayout.key(read), otherKey != key,
                      case let limit = max(1, min(key.count, otherKey.count) / 6),
                      PageLayout.editDistance(otherKey, key, limit: limit) <= limit else { continue }
                var kept = other.confidence > found.confidence ? other : found
                kept.needsReview = true
                f[field] = kept
                break
            }
        }
    }
}
