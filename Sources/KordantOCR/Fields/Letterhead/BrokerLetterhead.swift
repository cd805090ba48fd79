import Foundation

/// The data broker of an opt-out page, named by the page's own web addresses, and the lines of
/// the broker's letterhead and footer, which hold the broker's address and phone, never the
/// requester's.
///
/// A listing URL (`www.spokeo.com/people/…`) or a privacy mailbox (`privacy@spokeo.com`) is on
/// the broker's site, so a word on the page that spells its domain ("Spokeo", "Epsilon Data",
/// "(MyLife)") is the broker's name whatever the title's wording. The name is taken as printed;
/// the domain only says which printed words it is.
extension FieldExtractor {
    /// Mailboxes that belong to an organisation, not to a person.
    static let roleMailboxes: Set<String> = ["privacy", "info", "support", "dpo", "legal", "optout", "help", "requests",
                                             "privacyrequests", "compliance", "contact", "removal", "removals", "dsar", "gdpr",
                                             "ccpa", "dataprotection", "unsubscribe"]

    /// Domain names (letters and digits of the label before the top-level domain) of the page's
    /// web addresses and organisation mailboxes; a person's mailbox names no broker.
    private static let webAddress = try? NSRegularExpression(pattern: #"(?:https?:/+|\bwww\.?)([a-z0-9-]{3,40})\.(?:com|net|org|io|co|us|info)\b"#)
    private static let mailbox = try? NSRegularExpression(pattern: #"([a-z0-9._-]+)@([a-z0-9-]{3,40})\.(?:com|net|org|io|co|us|info)\b"#)

    static func brokerDomains(_ lines: [TextLine]) -> Set<String> {
        var keys: Set<String> = []
        let web = webAddress, mail = mailbox
        for line in lines {
            let t = line.text.lowercased()
            let ns = t as NSString
            // A web address as a copy or a fax garbles it ("https:/Awww.", "www, beenverified,com",
            // "www_mylife.com", "ww.intelius.com") is read as mended, too.
            var readings = [t]
            if let start = t.range(of: #"h\s?[tl1]{1,2}\s?ps?\s?[:;.]|w{2,3}[._,]"#, options: .regularExpression)?.lowerBound {
                let address = t[start...].replacingOccurrences(of: "www_", with: "www.")
                readings.append((urlMended(address) ?? address).lowercased())
            }
            for r in readings {
                let rs = r as NSString
                for m in web?.matches(in: r, range: NSRange(location: 0, length: rs.length)) ?? [] {
                    keys.insert(PageLayout.key(rs.substring(with: m.range(at: 1))))
                }
            }
            for m in mail?.matches(in: t, range: NSRange(location: 0, length: ns.length)) ?? [] where roleMailboxes.contains(ns.substring(with: m.range(at: 1))) {
                keys.insert(PageLayout.key(ns.substring(with: m.range(at: 2))))
            }
        }
        // Placeholder domains of documentation and tests name nobody.
        return keys.subtracting(["example", "test", "invalid", "localhost"]).filter { $0.count >= 3 }
    }

    /// How far a printed name is from a domain: 0 spelled alike, 1 one letter off (either may be
    /// misread, long names only), nil otherwise.
    static func domainDistance(_ key: String, _ domains: Set<String>) -> Int? {
        if domains.contains(key) { return 0 }
        guard key.count >= 6 else { return nil }
        return domains.contains { abs($0.count - key.count) <= 1 && PageLayout.editDistance(key, $0, limit: 1) <= 1 } ? 1 : nil
    }

    /// The broker's name as printed: one to three words on a line that spell one of `domains`
    /// (not the address itself). Spelled exactly beats one letter off, then the most often
    /// printed, then the first. One letter off goes to review.
    static func brokerByDomain(_ lines: [TextLine], domains: Set<String>) -> Field? {
        guard !domains.isEmpty else { return nil }
        var found: [(text: String, words: [Word], cost: Int)] = []
        let marks = CharacterSet(charactersIn: "()[]{}\"“”'‘’,.:;—–-|·")
        for line in lines {
            let words = line.words
            for start in words.indices {
                for n in 1...3 where start + n <= words.count {
                    let run = Array(words[start..<(start + n)])
                    // Not the web address or the mailbox itself.
                    guard !run.contains(where: { w in w.text.contains("@") || w.text.contains("/") || w.text.lowercased().contains("www")
                        || w.text.lowercased().range(of: #"\.(com|net|org)"#, options: .regularExpression) != nil }) else { break }
                    let text = run.map(\.text).joined(separator: " ").trimmingCharacters(in: marks)
                    guard let cost = domainDistance(PageLayout.key(text), domains), case .text(let name)? = company(text) else { continue }
                    found.append((name, run, cost))
                }
            }
        }
        guard !found.isEmpty else { return nil }
        let counts = Dictionary(grouping: found, by: { PageLayout.key($0.text) }).mapValues(\.count)
        let best = found.enumerated().min { a, b in
            (a.element.cost, -(counts[PageLayout.key(a.element.text)] ?? 0), a.offset) < (b.element.cost, -(counts[PageLayout.key(b.element.text)] ?? 0), b.offset)
        }!.element
        var f = field(.text(best.text), best.words)
        f.needsReview = f.needsReview || best.cost > 0
        return f
    }

    /// The broker named by a title's or a salutation's wording ("OPT-OUT REQUEST FORM — X",
    /// "X Privacy Request", "Dear X Privacy Team"), when no printed word spells the page's web
    /// domain. A section heading ("Section B — Request") is no company; a name that spells none
    /// of the page's domains while there are some goes to review.
    static func brokerByTitle(_ rows: [TextLine], domains: Set<String>) -> Field? {
        let company: Validator = { s in
            let first = s.split(separator: " ").first.map { $0.lowercased() } ?? ""
            // (Nor a possessive: "Your Privacy Request" is the page's, not a broker's, name.)
            guard !["section", "part", "step", "page", "schedule", "appendix", "form", "request", "your", "my", "our", "this"].contains(first)
            else { return nil }
            return Self.company(s)
        }
        guard var f = find(rows, #"^.*?(?:REQUEST|FORM)\s+[—–-]+\s+(.+)$"#, transform: company)
            ?? find(rows, #"^(.+?)\s+[—–-]+\s+.*(?:Request|Form)$"#, transform: company)
            ?? find(rows, #"^(.+?)\s+Privacy Request$"#, transform: company)
            // A title in capitals with the broker in brackets ("PRIVACY REQUEST (FastPeopleSearch)";
            // not an option's "Access request (copy of my information)").
            ?? find(rows, #"^[A-Z ]*(?:REQUEST|FORM)\s*\(([A-Z][^()\s]*(?: [A-Z][^()\s]*){0,3})\)$"#, sensitive: true, transform: company)
            ?? find(rows, #"Request to\s+(.+)$"#, transform: company)
            ?? find(rows, #"^Dear\s+(.+?)\s+Privacy"#, transform: company)
            ?? find(Array(rows.prefix(3)), #"^(.+?),?\s+(?:Inc|LLC|Corp|Corporation)\.?$"#, transform: company)
            // "Acxiom: Opt-Out" heading the page.
            ?? find(Array(rows.prefix(3)), #"^(.+?)\s*:\s*Opt[- ]?Out(?:\s+(?:Request|Form))?$"#, transform: company)
            ?? brandTitle(rows, domains: domains, company: company) else { return nil }
        if !domains.isEmpty, domainDistance(PageLayout.key(f.value.string ?? ""), domains) == nil { f.needsReview = true }
        return f
    }

    /// A name shaped as a brand (a capital inside its word: "ThatsThem", "ClustrMaps") or
    /// spelling one of the page's domains, heading a title of a kind of request ("ThatsThem Data
    /// Removal Form") or alone on one of the page's first two lines (a letterhead whose address
    /// lines were lost), for review: "Consumer Data Removal Form" names no company, and a word
    /// alone at the top may be something else.
    static func brandTitle(_ rows: [TextLine], domains: Set<String>, company: Validator) -> Field? {
        func brand(_ s: String) -> FieldValue? {
            guard let v = company(s), let t = v.string else { return nil }
            let inner = t.split(separator: " ").contains { w in w.dropFirst().contains(where: \.isUppercase) && w.contains(where: \.isLowercase) }
            return inner || (!domains.isEmpty && domainDistance(PageLayout.key(t), domains) != nil) ? v : nil
        }
        var f = find(rows, #"^(.+?)\s+(?:Data\s+)?(?:Removal|Opt[- ]?Out|Suppression|Deletion)\s+(?:Request|Form)$"#, transform: brand)
            ?? find(Array(rows.prefix(2)), #"^(\S+)$"#, transform: brand)
        f?.needsReview = true
        return f
    }

    /// Indices of the lines of the broker's letterhead (a line that is the broker's name alone,
    /// then the address, phone, mailbox and web lines right under it) and of any footer line that
    /// names the broker beside an address or a phone number.
    static func letterheadLines(_ lines: [TextLine], brokerKey: String, domains: Set<String>) -> Set<Int> {
        guard !brokerKey.isEmpty else { return [] }
        var out: Set<Int> = []
        // The lines top to bottom: Tesseract may read a letterhead's contact line before the
        // name set above it (a shadowed page's "4718 Mill Creek Street · Spokane, WA 99201" first).
        func top(_ l: TextLine) -> Int { l.words.map(\.box.y).min() ?? 0 }
        let order = lines.indices.sorted { (top(lines[$0]), $0) < (top(lines[$1]), $1) }
        for (i, line) in lines.enumerated() {
            let key = PageLayout.key(line.text)
            // The name alone, "Spokeo, Inc." or "Spokeo LLC" as much as "Spokeo".
            if company(line.text)?.string.map(PageLayout.key) == brokerKey {
                out.insert(i)
                guard let at = order.firstIndex(of: i) else { continue }
                var (j, last) = (at + 1, i)
                while j < order.count, j <= at + 6 {
                    let next = lines[order[j]]
                    if isContactLine(next.text, brokerKey: brokerKey, domains: domains), close(below: lines[last], next) {
                        out.insert(order[j])
                        last = order[j]
                    } else if overlapsAcross(next, line) {
                        break
                    }
                    // (Another line beside the letterhead, not under it, is passed over: a "RECEIVED"
                    // stamp at the page's edge, read between the street and the city.)
                    j += 1
                }
            } else if key.contains(brokerKey), key.count > brokerKey.count + 6,
                      // (Not the digits of a web address: "… a profile about me at www.radaris.com/person/ana-lima/92771.")
                      line.text.replacingOccurrences(of: #"\S*(?:www|http|/)\S*"#, with: " ", options: .regularExpression)
                          .range(of: #"\b[0-9]{5}\b|[0-9]{3}[).\s-]+[0-9]{3}[.\s-][0-9]{4}"#, options: .regularExpression) != nil,
                      !line.text.contains(":") {
                // "Spokeo · 5078 Chestnut Road · Pittsburgh, PA 15222": the broker's footer.
                out.insert(i)
            }
        }
        return out
    }

    /// Whether two lines share some of their width on the page.
    private static func overlapsAcross(_ a: TextLine, _ b: TextLine) -> Bool {
        guard let la = a.words.map(\.box.x).min(), let ra = a.words.map({ $0.box.x + $0.box.width }).max(),
              let lb = b.words.map(\.box.x).min(), let rb = b.words.map({ $0.box.x + $0.box.width }).max() else { return true }
        return la < rb && lb < ra
    }

    /// The next line follows on within a line and a half (a letterhead's lines are set close).
    private static func close(below a: TextLine, _ b: TextLine) -> Bool {
        guard let ta = a.words.map(\.box.y).min(), let ba = a.words.map({ $0.box.y + $0.box.height }).max(),
              let tb = b.words.map(\.box.y).min(), let bb = b.words.map({ $0.box.y + $0.box.height }).max() else { return false }
        let h = max(ba - ta, bb - tb, 1)
        return tb >= ta && tb - ba < h * 3 / 2
    }

    /// An address, phone, mailbox or web line of a letterhead. A mailbox or web address counts
    /// only when it is the organisation's: a person's e-mail under a title is the requester's.
    static func isContactLine(_ text: String, brokerKey: String, domains: Set<String>) -> Bool {
        // (Less a separator read before it: "· Tel. 1-800-719-7621" read as "- Tel. …".)
        let t = text.trimmingCharacters(in: CharacterSet(charactersIn: "-–—·•|*").union(.whitespaces))
        let lower = t.lowercased()
        if lower.contains("@") || lower.contains("www") || lower.contains("http") {
            return domains.contains { lower.replacingOccurrences(of: ".", with: "").contains($0) } || lower.contains(brokerKey)
        }
        if case .text? = street(t) { return true }
        if t.range(of: #"^(?i:suite|ste\.?|floor|p\.?\s?o\.?\s+box)\b"#, options: .regularExpression) != nil { return true }
        // "Pittsburgh, PA 15222", "Salt Lake City, Utah 84111", or its ZIP misread ("85/701"), or
        // its state code ("Nashville, [(N 37203" on a fax)
        if t.range(of: #"^[\p{L} .'-]+,\s*(?:[\p{L} .]+|\S{1,4})\s+[0-9][0-9/|IlOS -]{3,9}[0-9]$"#, options: .regularExpression) != nil { return true }
        // "Tel. (412) 555-0100", "Phone: 947.944.4016", "947.944.4016", "Fax 412 555 0101"
        let number = t.replacingOccurrences(of: #"(?i)^(tel|phone|telephone|fax|t|f|toll[- ]free)\.?:?\s*"#, with: "", options: .regularExpression)
        return phone(number) != nil
    }
}
