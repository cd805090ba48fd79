import Foundation

/// A listing URL checked against what the rest of its page says.
///
/// A people-search listing (`https://www.spokeo.com/people/jane-doe/12345`) repeats two things the
/// page prints elsewhere: the broker's domain (its privacy mailbox, other web addresses, its name)
/// and the requester's name (the slug). An address has no check digit, so a copy or a fax that
/// turns one letter into another makes another working-looking address ("checkpeopie.com",
/// "/pcople/", "benoit-letevre"); where the page's other words spell the part plainly, that
/// spelling is taken. Every change is a guess from context: the field goes to review.
extension FieldExtractor {
    /// First path words of people-search listings; one letter off is the word misread.
    static let listingPathWords = ["people", "profile", "person", "listing", "record", "search"]

    /// The listing URL's host and first path word as the page spells them (run on each reading).
    static func listingURLAgreed(_ f: inout [String: Field], lines: [TextLine]) {
        guard let url = f["listing_url"]?.value.string else { return }
        let broker = f["data_broker"]?.value.string
        let agreed = mendedURL(url) { host, segments in
            host = agreedHost(host, lines: lines, broker: broker) ?? host
            // segments[0] is the empty string before the path's first slash.
            if segments.count > 1, let word = agreedPathWord(segments[1]) { segments[1] = word }
        }
        guard agreed != url else { return }
        f["listing_url"]?.value = .text(agreed)
        f["listing_url"]?.needsReview = true
    }

    /// A listing URL the page wrapped onto the next line: a browser or a word processor breaks a
    /// long address after a hyphen or a slash ("…/person/juan-carlos-" over "alberto-garcia/24631"),
    /// so a value ending in one is cut short. The one word that opens the next line under the
    /// address (or at the line's left margin) and reads as the rest of a path is joined on, for
    /// review; with no such word the address is kept but goes to review, never passed off as whole.
    ///
    /// An address that ends in neither has its last step joined on when that was read apart after a
    /// space ("…/sjoerd-ter-horst /92771."), for review; followed further along its line by the end
    /// of a path ("…/malia-kal" then "i/11025": the letters between were lost), it goes to review.
    static func listingURLContinued(_ f: inout [String: Field], layout: PageLayout) {
        guard let u = f["listing_url"], let cut = u.value.string, let box = u.box else { return }
        let row = layout.rows.first { r in r.segments.contains { s in s.words.contains { $0.box.x == box.x && $0.box.y == box.y } } }
        guard cut.hasSuffix("-") || cut.hasSuffix("/") else {
            guard let row else { return }
            let h = max(row.height, 1)
            // Its last step read apart after a space ("…/sjoerd-ter-horst /92771."): joined, for review.
            if let next = row.segments.flatMap(\.words).filter({ $0.box.x > box.x + box.width / 2 && $0.box.x + $0.box.width > box.x + box.width })
                .min(by: { $0.box.x < $1.box.x }), next.box.x - (box.x + box.width) <= h,
               case let tail = next.text.trimmingCharacters(in: CharacterSet(charactersIn: ".,;)")),
               tail.range(of: #"^/[\p{L}0-9._~-]*[0-9][\p{L}0-9._~-]*$"#, options: .regularExpression) != nil,
               case .text(let joined)? = url(cut + tail) {
                f["listing_url"] = Field(value: .text(joined), confidence: min(u.confidence, next.confidence),
                                         box: box.union(next.box), needsReview: true)
                return
            }
            if row.segments.flatMap(\.words).contains(where: { w in
                w.box.x >= box.x + box.width - h && w.box.x <= box.x + box.width + 8 * h
                    && !w.text.contains("://")
                    && w.text.trimmingCharacters(in: CharacterSet(charactersIn: ".,;)")).range(of: #"^[\p{L}0-9._~-]*/[\p{L}0-9._~/-]*[0-9]$"#, options: .regularExpression) != nil
            }) {
                f["listing_url"]?.needsReview = true
            }
            return
        }
        f["listing_url"]?.needsReview = true
        // The rest read apart on the same line ("…/xiaoming-li/ 10521"): the next word, a
        // character's width or so after the address (or overlapping its end).
        if let row {
            let h = max(row.height, 1)
            if let next = row.segments.flatMap(\.words).filter({ $0.box.x > box.x + box.width / 2 && $0.box.x + $0.box.width >= box.x + box.width })
                .min(by: { $0.box.x < $1.box.x }),
               next.box.x - (box.x + box.width) <= h, case let tail = next.text.trimmingCharacters(in: CharacterSet(charactersIn: ".,;)")),
               tail.count >= 2, tail.allSatisfy({ $0.isLetter || $0.isNumber || "-_".contains($0) }), tail.contains(where: \.isNumber),
               case .text(let joined)? = url(cut + tail) {
                f["listing_url"] = Field(value: .text(joined), confidence: min(u.confidence, next.confidence),
                                         box: box.union(next.box), needsReview: true)
                return
            }
        }
        // (The line's foot, not the address's: a long address read on a slanted page has a box
        // far taller than its line, whose foot is past the next line's top.)
        let bottom = row.map { min(box.y + box.height, $0.box.y + 3 * $0.height / 2) } ?? box.y + box.height
        guard let row = layout.rows.first(where: { r in
            r.box.y >= bottom - r.height / 2 && r.box.y <= bottom + 2 * r.height
        }) else { return }
        let h = max(row.height, 1)
        let leftmost = row.segments.map(\.box.x).min() ?? 0
        // The word under the address's start, alone in its segment or not (a scan's specks
        // beside it, "__", join its segment); else a segment of one word at the line's margin.
        let under = row.segments.flatMap(\.words).filter { abs($0.box.x - box.x) <= 2 * h }
            .min { abs($0.box.x - box.x) < abs($1.box.x - box.x) }
        let margin = row.segments.first { $0.box.x == leftmost && $0.box.x <= box.x && $0.words.count == 1 }?.words[0]
        guard let word = under ?? margin else { return }
        let tail = word.text.trimmingCharacters(in: CharacterSet(charactersIn: ".,;)"))  // (a sentence's mark after it)
        guard tail.count >= 2, tail.contains(where: { $0.isNumber || $0 == "-" || $0 == "/" }),
              tail.allSatisfy({ $0.isLetter || $0.isNumber || "'._~%/=-".contains($0) }),
              case .text(let joined)? = url(cut + tail) else { return }
        f["listing_url"] = Field(value: .text(joined), confidence: min(u.confidence, word.confidence),
                                 box: box.union(word.box), needsReview: true)
    }

    /// The listing's slug and the requester's mailbox spelled as the requester's name is, once
    /// the page's readings are combined and the name's diacritics read (``DocumentOCR``): only
    /// where the name was read well (mean confidence 70 or more) and with more confidence than
    /// the address (a mailbox read more surely that disagrees is kept, in review; so is one that
    /// disagrees with a name read poorly), and not where
    /// the name is the doubtful copy (``nameDoubtful(_:name:)``: "Erdés" beside "gyula-erdos",
    /// the English model reads "ő" as "é" and the address spells it plainly).
    static func namesAgreed(_ f: inout [String: Field]) {
        guard let name = f["full_name"], let printed = name.value.string else { return }
        // A digit read for a letter of the name's ("7denek87@", "…/7denek-dvorak/": a fax's Z
        // without its foot) is that letter however well the name was read: no name has a digit.
        for key in ["email", "listing_url"] {
            if let v = f[key]?.value.string, let mended = digitsOfName(v, name: printed) {
                f[key]?.value = .text(mended)
                f[key]?.needsReview = true
            }
        }
        // A name read poorly ("Zséfia Szdke" at 55) is no better a copy than the address; but a
        // mailbox a letter or two off it ("cagn.gunes" beside "Cain Güneş") is one of two
        // readings that disagree: not sure either.
        guard name.confidence >= 70 else {
            if let address = f["email"]?.value.string, agreedEmail(address, name: printed) != nil { f["email"]?.needsReview = true }
            return
        }
        if let u = f["listing_url"], name.confidence > u.confidence, let url = u.value.string {
            let agreed = mendedURL(url) { _, segments in
                if segments.count > 2, let slug = agreedSlug(segments[2], name: printed) { segments[2] = slug }
            }
            if agreed != url {
                f["listing_url"]?.value = .text(agreed)
                f["listing_url"]?.needsReview = true
            }
        }
        if let e = f["email"], let address = e.value.string, let agreed = agreedEmail(address, name: printed) {
            // Read more surely than the name, the address is kept as read ("soll4", "sulel": a
            // 1 read as l beside or after the number); the two disagree, so it is not sure.
            if name.confidence > e.confidence { f["email"]?.value = .text(agreed) }
            f["email"]?.needsReview = true
        }
    }

    /// The small letters each digit is read for (a fax's Z without its foot is a 7).
    static let digitLetters: [Character: Set<Character>] = ["7": ["z", "t"], "0": ["o"], "1": ["l", "i"], "5": ["s"], "8": ["b"], "2": ["z"],
                                                             "6": ["b", "g"], "9": ["g", "q"], "4": ["a"]]

    /// `address` with each stretch that spells a word of `name` (five letters or more, as
    /// addresses spell it) but for digits read for its letters' look-alikes, at most one in four
    /// ("7denek" for zdenek), spelled as the name. The stretch stands whole: no letter just before
    /// or after it. The digits that run on after a word ("zdenek87") stay. Nil when nothing changes.
    static func digitsOfName(_ address: String, name: String) -> String? {
        var chars = Array(address)
        var changed = false
        for word in Set(foldedWords(name).filter { $0.count >= 5 && $0.allSatisfy { $0.isASCII && $0.isLetter } }) {
            let w = Array(word)
            guard chars.count >= w.count else { continue }
            for start in 0...(chars.count - w.count) {
                let stretch = chars[start..<(start + w.count)]
                // (Whole: not inside a longer run of letters.)
                if start > 0, chars[start - 1].isLetter { continue }
                if start + w.count < chars.count, chars[start + w.count].isLetter { continue }
                var digits = 0, ok = true
                for (c, l) in Swift.zip(stretch, w) {
                    if c.lowercased() == String(l) { continue }
                    if let alike = digitLetters[c], alike.contains(l) { digits += 1 } else { ok = false; break }
                }
                guard ok, digits >= 1, digits * 4 <= w.count else { continue }
                for (i, l) in w.enumerated() where chars[start + i].isNumber { chars[start + i] = l }
                changed = true
            }
        }
        return changed ? String(chars) : nil
    }

    /// `url` with its host and path segments passed through `change`.
    static func mendedURL(_ url: String, _ change: (inout String, inout [String]) -> Void) -> String {
        let schemeEnd = url.range(of: "://")?.upperBound ?? url.startIndex
        let hostEnd = url[schemeEnd...].firstIndex(of: "/") ?? url.endIndex
        var host = String(url[schemeEnd..<hostEnd])
        var segments = url[hostEnd...].split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        change(&host, &segments)
        return String(url[..<schemeEnd]) + host + segments.joined(separator: "/")
    }

    /// The host with its name (the label before the top-level domain) spelled as the page's
    /// other lines or the broker's name spell it: one or two letters off, and spelled by more
    /// lines than the host as read (the broker's name counts two). A top-level domain one letter
    /// off `com` ("corm", "cony") and a doubled dot are mended with it. Nil when nothing changes.
    static func agreedHost(_ host: String, lines: [TextLine], broker: String?) -> String? {
        var labels = host.split(separator: ".", omittingEmptySubsequences: true).map(String.init)
        guard labels.count >= 2 else { return nil }
        if let tld = labels.last?.lowercased(), !genericTLDs.contains(tld), tld.count <= 4, tld.hasPrefix("c"),
           PageLayout.editDistance(tld, "com", limit: 1) <= 1 {
            labels[labels.count - 1] = "com"
        }
        let nameAt = labels.count - 2
        let read = PageLayout.key(labels[nameAt])
        // How many lines spell each domain: the address's own line is one of them.
        var spelled: [String: Int] = [:]
        for line in lines {
            for d in brokerDomains([line]) { spelled[d, default: 0] += 1 }
        }
        if let broker { spelled[PageLayout.key(broker), default: 0] += 2 }
        if (spelled[read] ?? 0) < 2, read.count >= 5 {
            let limit = read.count >= 8 ? 2 : 1
            // Only a spelling more lines (or the broker's name) agree on than on the one read: a
            // mailbox misread as the address was ("trulhfinder") decides nothing.
            let near = spelled.keys.filter { key in
                key != read && key.count >= 5 && key.allSatisfy(\.isASCII) && (spelled[key] ?? 0) > (spelled[read] ?? 0)
                    && PageLayout.editDistance(read, key, limit: limit) <= limit
            }
            if near.count == 1 { labels[nameAt] = near[0] }
        }
        let mended = labels.joined(separator: ".")
        return mended == host ? nil : mended
    }

    /// A listing's first path word one letter off a listing word ("pcople", "proflle",
    /// "peopLle" with its stray capital): that word. Nil when it is one, or is not near one.
    static func agreedPathWord(_ segment: String) -> String? {
        let read = segment.lowercased().filter { $0.isLetter }
        guard read.count >= 4, !listingPathWords.contains(segment) else { return nil }
        let near = listingPathWords.filter { PageLayout.editDistance(read, $0, limit: 1) <= 1 }
        return near.count == 1 ? near[0] : nil
    }

    /// The requester's name as a listing slug: small letters, words joined by hyphens, accents
    /// dropped (letters that are not an accented Latin letter, "ø", "þ", "ß", stay as printed).
    static func listingSlug(_ name: String) -> String {
        let bare = String(String.UnicodeScalarView(name.lowercased().decomposedStringWithCanonicalMapping.unicodeScalars.filter {
            $0.properties.generalCategory != .nonspacingMark
        })).precomposedStringWithCanonicalMapping
        return bare.split(whereSeparator: { $0 == " " }).joined(separator: "-")
    }

    /// The slug spelled from the requester's name when the slug as read is that name misread:
    /// the two agree but for a few letters (at most one in five, three in all, and one more per
    /// "þ", "æ", "œ" or "ß") once hyphens, apostrophes and accents are set aside. Nil when they
    /// agree, are different names, or the name is the doubtful copy (``nameDoubtful(_:name:)``).
    static func agreedSlug(_ segment: String, name: String) -> String? {
        let fromName = listingSlug(name)
        guard !fromName.isEmpty, fromName != segment else { return nil }
        let a = slugSkeleton(segment), b = slugSkeleton(fromName)
        guard a.count >= 4, b.count >= 4 else { return nil }
        // The same letters: an address spelling "þ" as "th" or dropping an okina is right as read;
        // only hyphens it lost ("sakurapark") are the name's, and marks the name has nowhere, a
        // speck read as "~" or "^" ("malia~-ka'ahumanu").
        if a == b {
            let kept = segment.filter { $0 != "-" && ($0.isLetter || $0.isNumber || fromName.contains($0)) }
            return kept == fromName.filter { $0 != "-" } ? fromName : nil
        }
        // (Hyphens alone come from a doubtful name too: its letters are not taken.)
        guard !nameDoubtful(segment.split(separator: "-").map(String.init), name: name) else { return nil }
        // A letter written as two ("þ" as "th") read as one costs one more.
        let limit = min(3, max(1, b.count / 5)) + fromName.filter({ "þæœß".contains($0) }).count
        return PageLayout.editDistance(a, b, limit: limit) <= limit ? fromName : nil
    }

    /// Pairs of plain letters the English model reads for one letter it lacks ("Nuftez", "Pefia",
    /// "Simtinkova", "Heegeland", "Miiller"; ``NameDiacritics/twoForOne``).
    static let readForOne = ["fi", "ft", "ti", "ii", "ee", "ae", "oe", "ce"]

    /// Whether a word of the name is the doubtful copy: it has a marked letter ("é", "ñ", "ő";
    /// not "ø" or "þ", which have no mark to drop), a pair read for one letter that the address
    /// does not have, or the address has a letter beyond ASCII the name lacks ("hægeland" beside
    /// "Heegeland"). The address is then left as read. When the words do not pair up, any name
    /// word with a mark or such a pair is doubt enough.
    static func nameDoubtful(_ read: [String], name: String) -> Bool {
        let words = name.lowercased().split(whereSeparator: { $0 == " " || $0 == "-" }).map(String.init)
        func marked(_ w: String) -> Bool { w.contains { String($0).decomposedStringWithCanonicalMapping.unicodeScalars.count > 1 } }
        func doubtful(_ w: String, beside r: String?) -> Bool {
            if marked(w) { return slugSkeleton(w) != slugSkeleton(r ?? "") }
            let plain = slugSkeleton(w), other = r.map { slugSkeleton($0) } ?? ""
            if plain == other { return false }
            if readForOne.contains(where: { plain.contains($0) && !other.contains($0) }) { return true }
            return r?.contains { !$0.isASCII && $0.isLetter && !w.contains($0) } ?? false
        }
        guard words.count == read.count else { return words.contains { doubtful($0, beside: nil) } }
        return words.indices.contains { doubtful(words[$0], beside: read[$0]) }
    }

    /// ASCII letters and digits of a slug, with the letters NFKD leaves whole spelled out.
    static func slugSkeleton(_ s: String) -> String {
        // The letters no mark can be taken off, as ``crossChecked(_:)`` spells them.
        let spelled = s.lowercased().map { unmarked[$0] ?? String($0) }.joined()
        return String(spelled.decomposedStringWithCanonicalMapping.unicodeScalars.filter { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0)) }
            .map(Character.init))
    }
}
