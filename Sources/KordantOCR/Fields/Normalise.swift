import Foundation

/// Validators and normalisers: each takes a value as read and returns its normal form, or nil
/// when the text is not a value of that type (then the field is left out: never guessed).
extension FieldExtractor {
    static let states: [String: String] = [
        "ALABAMA": "AL", "ALASKA": "AK", "ARIZONA": "AZ", "ARKANSAS": "AR", "CALIFORNIA": "CA", "COLORADO": "CO",
        "CONNECTICUT": "CT", "DELAWARE": "DE", "FLORIDA": "FL", "GEORGIA": "GA", "HAWAII": "HI", "IDAHO": "ID",
        "ILLINOIS": "IL", "INDIANA": "IN", "IOWA": "IA", "KANSAS": "KS", "KENTUCKY": "KY", "LOUISIANA": "LA", "MAINE": "ME",
        "MARYLAND": "MD", "MASSACHUSETTS": "MA", "MICHIGAN": "MI", "MINNESOTA": "MN", "MISSISSIPPI": "MS", "MISSOURI": "MO",
        "MONTANA": "MT", "NEBRASKA": "NE", "NEVADA": "NV", "NEW HAMPSHIRE": "NH", "NEW JERSEY": "NJ", "NEW MEXICO": "NM",
        "NEW YORK": "NY", "NORTH CAROLINA": "NC", "NORTH DAKOTA": "ND", "OHIO": "OH", "OKLAHOMA": "OK", "OREGON": "OR",
        "PENNSYLVANIA": "PA", "RHODE ISLAND": "RI", "SOUTH CAROLINA": "SC", "SOUTH DAKOTA": "SD", "TENNESSEE": "TN",
        "TEXAS": "TX", "UTAH": "UT", "VERMONT": "VT", "VIRGINIA": "VA", "WASHINGTON": "WA", "WEST VIRGINIA": "WV",
        "WISCONSIN": "WI", "WYOMING": "WY", "DISTRICT OF COLUMBIA": "DC",
    ]

    /// The USPS ranges of the first three ZIP digits of each state (a ZIP outside its state's
    /// ranges means one of the two was misread or belongs to another address).
    static let zipPrefixes: [String: [ClosedRange<Int>]] = [
        "AL": [350...369], "AK": [995...999], "AZ": [850...865], "AR": [716...729], "CA": [900...961], "CO": [800...816],
        "CT": [60...69], "DE": [197...199], "DC": [200...205], "FL": [320...349], "GA": [300...319, 398...399],
        "HI": [967...968], "ID": [832...838], "IL": [600...629], "IN": [460...479], "IA": [500...528], "KS": [660...679],
        "KY": [400...427], "LA": [700...714], "ME": [39...49], "MD": [206...219], "MA": [10...27], "MI": [480...499],
        "MN": [550...567], "MS": [386...397], "MO": [630...658], "MT": [590...599], "NE": [680...693], "NV": [889...898],
        "NH": [30...38], "NJ": [70...89], "NM": [870...884], "NY": [5...5, 100...149], "NC": [270...289], "ND": [580...588],
        "OH": [430...459], "OK": [730...749], "OR": [970...979], "PA": [150...196], "RI": [28...29], "SC": [290...299],
        "SD": [570...577], "TN": [370...385], "TX": [750...799, 885...885], "UT": [840...847], "VT": [50...59],
        "VA": [201...201, 220...246], "WA": [980...994], "WV": [247...268], "WI": [530...549], "WY": [820...831],
    ]

    /// Whether `zip` lies in `state`'s ranges (true when either is unknown: nothing to compare).
    static func zip(_ zip: String, agreesWith state: String) -> Bool {
        guard let ranges = zipPrefixes[state], let p = Int(zip.prefix(3)), zip.prefix(5).allSatisfy(\.isNumber) else { return true }
        return ranges.contains { $0.contains(p) }
    }

    /// "Texas", "TX", "Tx." → "TX".
    static func state(_ s: String) -> FieldValue? {
        // A bracket or bar beside a code is speckle or a cell's rule ("[MI").
        let u = s.uppercased().trimmingCharacters(in: ruleGlyphs.union(CharacterSet(charactersIn: " .")))
        if u.count == 2, states.values.contains(u) { return .text(u) }
        return states[u].map { .text($0) }
    }

    static let months = ["JANUARY", "FEBRUARY", "MARCH", "APRIL", "MAY", "JUNE", "JULY", "AUGUST", "SEPTEMBER",
                         "OCTOBER", "NOVEMBER", "DECEMBER"]

    /// The number of the month `p` (in capitals) names: its name, or its first three letters or
    /// more ("SEP", "SEPT"); nil otherwise.
    static func monthNumber(_ p: String) -> Int? {
        guard p.count >= 3, p.allSatisfy(\.isLetter) else { return nil }
        return months.firstIndex { $0.hasPrefix(p.prefix(3)) && ($0.hasPrefix(p) || p.count == 3 || p.hasSuffix(".")) }.map { $0 + 1 }
    }

    /// "March 14, 2023", "14 March 2023", "14 MAR 2023", "Mar 14, 2023", "03/14/2023", "03.14.2023",
    /// "2023-03-14" → "2023-03-14". Month/day order is the US one for numeric dates.
    static func isoDate(_ s: String) -> FieldValue? {
        // An e-mail header's date: its weekday before and its time (and zone) after the date.
        let t = ruleTrimmed(s).uppercased()
            .replacingOccurrences(of: #"^(?:MON|TUE|WED|THU|FRI|SAT|SUN)[A-Z]*\.?,?\s+(?=[0-9A-Z])"#, with: "", options: .regularExpression)
            // (A weekday misread, "‘IC, 27 MAR 2023": up to four marks or letters and a comma before a day and a month's name.)
            .replacingOccurrences(of: #"^[^0-9\s,]{1,4},\s*(?=[0-9]{1,2}\s+[A-Z]{3})"#, with: "", options: .regularExpression)
            .replacingOccurrences(of: #"\s+[0-9]{1,2}:[0-9]{2}(?::[0-9]{2})?(?:\s*[AP]M)?(?:\s*(?:[+-][0-9]{4}|[A-Z]{2,4}))?$"#, with: "",
                                  options: .regularExpression)
            .replacingOccurrences(of: ",", with: " ")
            // (A comma read as a semicolon: "November 5; 1988".)
            .replacingOccurrences(of: #"(?<=[0-9]);(?=\s)"#, with: " ", options: .regularExpression)
        // A slash closing a day before the month's name ("2/ February 2024") parts nothing: a 7
        // with its bar lost (see `FieldExtractor.mended(_:field:)`), not a day of its own.
        if matches(t, #"[0-9]/\s+[A-Z]"#) { return nil }
        func make(_ y: Int, _ m: Int, _ d: Int) -> FieldValue? {
            let days = [31, (y % 4 == 0 && (y % 100 != 0 || y % 400 == 0)) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
            guard (1...12).contains(m), (1...days[m - 1]).contains(d), (1800...2200).contains(y) else { return nil }
            return .text(String(format: "%04d-%02d-%02d", y, m, d))
        }
        let parts = t.split(whereSeparator: { $0 == " " || $0 == "/" || $0 == "-" || $0 == "." }).map(String.init)
        guard parts.count == 3 else { return nil }
        let day = Int(parts[1].replacingOccurrences(of: "TH", with: "").replacingOccurrences(of: "ST", with: ""))
        if let y = Int(parts[0]), parts[0].count == 4, let m = Int(parts[1]), let d = Int(parts[2]) { return make(y, m, d) }
        if let m = Int(parts[0]), let d = Int(parts[1]), let y = Int(parts[2]), parts[2].count == 4 {
            // Month first, as US forms print it; a first number over 12 can only be a day ("26.11.2016").
            // An order both readings allow is checked against the page (``FieldExtractor/dayOrderChecked``).
            return make(y, m, d) ?? (m > 12 ? make(y, d, m) : nil)
        }
        if let m = monthNumber(parts[0]), let d = day, let y = Int(parts[2]), parts[2].count == 4 { return make(y, m, d) }
        if let d = Int(parts[0]), let m = monthNumber(parts[1]), let y = Int(parts[2]), parts[2].count == 4 { return make(y, m, d) }
        return nil
    }

    /// "$385,000.00" → 385000 (the first dollar amount in the text).
    static func amount(_ text: String) -> FieldValue? {
        // "$2,020, 500.00", "$1 ,533,000.00": a space beside a thousands comma is a reading split,
        // not two numbers.
        var text = text
        // "$1.350.000.00", "$1.040,000,00": thousands marks and the cents' point read as full stops
        // or commas; with cents last, only one reading (`mixedAmount`).
        if let r = text.range(of: mixedAmount + #"(?![0-9.,])"#, options: .regularExpression) {
            let amount = text[r]
            text.replaceSubrange(r, with: amount.dropLast(3).replacingOccurrences(of: ".", with: ",") + "." + amount.suffix(2))
        }
        let s = text.replacingOccurrences(of: #"([0-9])\s*,\s+([0-9]{3})|([0-9])\s+,([0-9]{3})"#, with: "$1$3,$2$4", options: .regularExpression)
            // "$1,224,500 00": two digits after a grouped amount are its cents, the point lost.
            .replacingOccurrences(of: #"([0-9]{1,3}(?:,[0-9]{3})+) ([0-9]{2})\b"#, with: "$1.$2", options: .regularExpression)
        // The whole token must be a well-formed amount ("$2,409,000.00"): "$2,409.000.00" or
        // "$2 409,000.00" or "$1,399,000 00" misread from a copy gives nothing rather than $2,409,
        // $2 or $1,399,000: no digit may follow after a space.
        guard let r = s.range(of: #"\$\s?[0-9]{1,3}(,[0-9]{3})*(\.[0-9]{2})?(?![0-9.,])(?!\s[.,]?[0-9])|\$\s?[0-9]+(\.[0-9]{2})?(?![0-9.,])(?!\s[.,]?[0-9])"#, options: .regularExpression)
                ?? s.range(of: #"^[0-9]{1,3}(,[0-9]{3})*\.[0-9]{2}$"#, options: .regularExpression) else { return nil }
        return Double(s[r].replacingOccurrences(of: ",", with: "").replacingOccurrences(of: "$", with: "")
            .trimmingCharacters(in: .whitespaces)).map { .number($0) }
    }

    static func matches(_ s: String, _ pattern: String) -> Bool {
        s.range(of: pattern, options: .regularExpression) != nil
    }

    static func trimmed(_ s: String) -> String {
        s.trimmingCharacters(in: .whitespaces.union(CharacterSet(charactersIn: ",;:|")))
    }

    /// A value without the brackets and bars a cell's rule or a speck beside it is read as
    /// ("[December 16, 1972", "{89501"): for values that never begin or end with one.
    static func ruleTrimmed(_ s: String) -> String {
        s.trimmingCharacters(in: .whitespaces.union(ruleGlyphs))
    }

    static let ruleGlyphs = CharacterSet(charactersIn: ",;:|[]{}()")

    /// A person's or company's name: letters (any script), spaces, and . ' ’ - &, at least two
    /// letters, no digits, at most ten words a party ("X and Y": up to four parties). Quotes,
    /// brackets and trailing role words go.
    static func name(_ s: String) -> FieldValue? {
        // A hyphen read with a space beside it ("MIN- JUN", "OKONKWO - EZE") joins a double name.
        let joined = s.replacingOccurrences(of: #"(?<=\p{L})\s*-\s+(?=\p{L})|(?<=\p{L})\s+-\s*(?=\p{L})"#, with: "-", options: .regularExpression)
        // A word's capital I before a capital is read as "l" ("lJzerman"); no name word starts "l" so.
        // So is one among capitals ("SAl", "VlNCENT"): a word of capitals has no small letter.
        let capitalI = joined.replacingOccurrences(of: #"(?<![\p{L}'’])l(?=\p{Lu})|(?<=\p{Lu}{2})l(?![\p{Ll}'’])|(?<=\p{Lu})l(?=\p{Lu})"#,
                                                   with: "I", options: .regularExpression)
        // The Dutch particle 't read with an opening quote or a backtick ("van ‘t Hof"): the
        // apostrophe it is (no other word of a name is one such mark and a t).
        let particle = capitalI.replacingOccurrences(of: #"(?<=^|\s)[‘`´](?=[tT](\s|$))"#, with: "'", options: .regularExpression)
        var t = trimmed(okina(particle)).trimmingCharacters(in: CharacterSet(charactersIn: "\"“”'()[] ,."))
        for suffix in [", Grantor", ", Grantee", " Grantor", " Grantee"] where t.hasSuffix(suffix) { t = String(t.dropLast(suffix.count)) }
        t = trimmed(t)
        if t.hasSuffix(" and") || t.hasSuffix(" AND") { return nil }
        let words = t.split(separator: " ")
        // Up to ten words a party: two parties ("Pádraig Liam O'Brien-Ó Súilleabháin and Abdul
        // Aziz Abu Bakr Al Siddiq") may run past ten together.
        let parties = t.components(separatedBy: " and ").flatMap { $0.components(separatedBy: " AND ") }.flatMap { $0.components(separatedBy: " & ") }
        guard !words.isEmpty, parties.count <= 4, parties.allSatisfy({ (1...10).contains($0.split(separator: " ").count) }),
              t.filter(\.isLetter).count >= 2, !t.contains(where: \.isNumber),
              t.allSatisfy({ $0.isLetter || " .'’-&,ʻ".contains($0) }) else { return nil }
        if t.hasPrefix(".") || t.hasPrefix("-") || t.hasSuffix("-") { return nil }
        // Two marks in a row ("L..", "O''Neil") are a speck read beside a mark: not as printed.
        if Swift.zip(t, t.dropFirst()).contains(where: { !$0.0.isLetter && $0.0 != " " && !$0.1.isLetter && $0.1 != " " }) { return nil }
        // Lower-case words in a name are particles ("van der", "de la", "bin"); anything else
        // ("the real property", "mn" read from speckle) means this is not (only) a name.
        for w in words {
            let lw = w.lowercased().trimmingCharacters(in: CharacterSet(charactersIn: ",."))
            if roleWords.contains(lw) { return nil }
            if let first = w.first, first.isLowercase, !particles.contains(lw) { return nil }
        }
        return .text(t)
    }

    /// A Hawaiian okina ("Keʻalohilani") is read as an opening quote, a backtick, or apart from
    /// its word ("Ke ‘alohilani"): between a letter and three small letters or more it is the
    /// okina (an apostrophe, "O'Brien", "van 't Hof", is left as it is). In capitals
    /// ("KE‘ALOHILANI" on a card) only after two letters: "D‘ANGELO" is an apostrophe misread.
    static func okina(_ s: String) -> String {
        s.replacingOccurrences(of: #"(?<=\p{L}) ?[‘`ʻ] ?(?=\p{Ll}{3})|(?<=\p{Lu}\p{Lu}) ?[‘`ʻ] ?(?=\p{Lu}{3})"#, with: "ʻ",
                               options: .regularExpression)
    }

    static let particles: Set<String> = ["van", "der", "den", "de", "la", "le", "du", "dos", "da", "das", "del", "di", "ter", "ten",
                                         "bin", "bint", "ben", "al", "el", "von", "zu", "y", "e", "'t", "and", "&", "mac", "ní", "ni",
                                         "nic", "ó", "o", "st.", "st", "los", "las", "della", "delle", "degli", "dei", "do",
                                         "af", "av", "op", "het", "vom", "zum", "zur", "ibn", "ap"]
    static let roleWords: Set<String> = ["grantor", "grantee", "grantors", "grantees", "seller", "buyer", "hereinafter", "the",
                                         "transferor", "transferee", "property", "county", "state"]

    /// A data broker's name: the company without "Privacy Team", "Inc." and the like.
    static func company(_ s: String) -> FieldValue? {
        var t = trimmed(s)
        let tails = [" Privacy Team", " Privacy Department", " Privacy Office", " Privacy", " Team", ", Inc.", ", Inc", " Inc.", " Inc",
                     ", LLC", " LLC", " Corp.", " Corporation"]
        var changed = true
        while changed {
            changed = false
            for tail in tails where t.lowercased().hasSuffix(tail.lowercased()) {
                t = trimmed(String(t.dropLast(tail.count)))
                changed = true
            }
        }
        let words = t.split(separator: " ")
        guard (1...4).contains(words.count), t.filter(\.isLetter).count >= 3, t.first?.isUppercase == true,
              t.allSatisfy({ $0.isLetter || $0.isNumber || " .'&-".contains($0) }) else { return nil }
        return .text(t)
    }

    /// Parcel numbers: digits with dashes or dots (at least five digits).
    static func parcel(_ s: String) -> FieldValue? {
        // Groups parted by dashes and a space ("29 3402-115-86"): the space is a dash a fax lost or
        // a group read apart, not the number's (see `FieldExtractor.mended`).
        if trimmed(s).range(of: #"[0-9] +[0-9]"#, options: .regularExpression) != nil, s.contains("-") { return nil }
        let t = trimmed(s).replacingOccurrences(of: " ", with: "")
        guard matches(t, #"^[0-9][0-9A-Z.-]{4,24}$"#), t.filter(\.isNumber).count >= 5 else { return nil }
        return .text(t)
    }

    /// Instrument / document numbers, optionally with a "DOC" prefix as some counties print them.
    static func instrument(_ s: String) -> FieldValue? {
        let t = trimmed(s)
        guard matches(t, #"^(DOC\s+)?[0-9][0-9-]{4,20}$"#) else { return nil }
        return .text(t)
    }

    static func zipCode(_ s: String) -> FieldValue? {
        let t = ruleTrimmed(s)
        return matches(t, #"^[0-9]{5}(-[0-9]{4})?$"#) ? .text(t) : nil
    }

    static func email(_ s: String) -> FieldValue? {
        let t = okina(trimmed(s).replacingOccurrences(of: " ", with: ""))
        // A mailbox may spell its owner's name in letters beyond ASCII (RFC 6531); a host here may not.
        return matches(t, #"^[\p{L}0-9._%+ʻ-]+@[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}$"#) ? .text(t) : nil
    }

    /// Top-level domains an address on a form plausibly ends in: the generic ones in wide use,
    /// the reserved names of examples and documentation, and any two-letter country code.
    static let genericTLDs: Set<String> = [
        "com", "net", "org", "edu", "gov", "mil", "int", "info", "biz", "name", "pro", "mobi", "app", "dev", "io", "ai",
        "xyz", "online", "site", "store", "shop", "tech", "email", "cloud", "page", "blog", "news", "live", "life", "world",
        "example", "test", "invalid", "localhost",
    ]

    static func plausibleDomain(_ host: String) -> Bool {
        let labels = host.split(separator: ".", omittingEmptySubsequences: false)
        // (A label never starts or ends with a hyphen: "www-.spokeo.com" is a speck read as one.)
        guard labels.count >= 2, labels.allSatisfy({ !$0.isEmpty && $0.first != "-" && $0.last != "-" }), let tld = labels.last else { return false }
        // Printed addresses are one case: a capital after small letters is a misread (netChee).
        let letters = host.filter(\.isLetter)
        guard letters.allSatisfy(\.isLowercase) || letters.allSatisfy(\.isUppercase) else { return false }
        let t = tld.lowercased()
        return genericTLDs.contains(t) || (t.count == 2 && t.allSatisfy { $0.isLetter && $0.isASCII })
    }

    /// Whether an e-mail address looks as printed, not as misread: one case in each part, a
    /// domain that ends in a known top-level domain.
    static func plausibleEmail(_ s: String) -> Bool {
        let parts = s.split(separator: "@")
        guard parts.count == 2 else { return false }
        let local = parts[0].filter(\.isLetter)
        guard local.allSatisfy(\.isLowercase) || local.allSatisfy(\.isUppercase) else { return false }
        return plausibleDomain(String(parts[1]))
    }

    /// An e-mail or web address whose host lost its dots on a copy or a fax ("inbox example net",
    /// "inbox.examplenet", "www.mylifecom"): spaces between the host's letters become dots, and a
    /// last label that is no top-level domain but ends in one of com, net, org or edu (with
    /// letters before it) is cut before it; one that starts with one of them and runs on by one
    /// to three letters ("example.orgay": a speck read after it) is cut after it. Nil when nothing
    /// changes or the host is still not plausible. A guess: the caller marks the value for review.
    static func hostMended(_ address: String) -> String? {
        let t = trimmed(address)
        let hostStart: String.Index
        if let at = t.firstIndex(of: "@") {
            hostStart = t.index(after: at)
        } else if let r = t.range(of: "://") {
            hostStart = r.upperBound
        } else {
            hostStart = t.startIndex
        }
        let hostEnd = t[hostStart...].firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? t.endIndex
        var host = String(t[hostStart..<hostEnd]).replacingOccurrences(of: #"(?<=[A-Za-z0-9])\s+(?=[A-Za-z0-9])"#, with: ".", options: .regularExpression)
            .replacingOccurrences(of: ",", with: ".")
        // (A label's hyphen at its end is a speck: "www-.spokeo.com".)
        var labels = host.split(separator: ".", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: CharacterSet(charactersIn: "-")) }
        host = labels.joined(separator: ".")
        if let last = labels.last, !genericTLDs.contains(last.lowercased()),
           let tld = ["com", "net", "org", "edu"].first(where: { last.lowercased().hasSuffix($0) && last.count > $0.count + 1 }) {
            labels[labels.count - 1] = String(last.dropLast(tld.count))
            labels.append(String(last.suffix(tld.count)))
            host = labels.joined(separator: ".")
        } else if labels.count >= 2, let last = labels.last, !genericTLDs.contains(last.lowercased()),
                  let tld = ["com", "net", "org", "edu"].first(where: { last.lowercased().hasPrefix($0) && (1...3).contains(last.count - $0.count) }) {
            // A speck read onto the end as letters ("example.org ay", joined "example.orgay"): cut at the domain.
            labels[labels.count - 1] = String(last.prefix(tld.count))
            host = labels.joined(separator: ".")
        }
        let mended = String(t[..<hostStart]) + host + String(t[hostEnd...])
        return mended != t && plausibleDomain(host) ? mended : nil
    }

    /// Mail domains most people's addresses are at, and the names RFC 2606 reserves for examples.
    static let mailDomains = ["gmail.com", "googlemail.com", "yahoo.com", "outlook.com", "hotmail.com", "live.com", "msn.com",
                              "icloud.com", "aol.com", "protonmail.com", "proton.me", "gmx.com", "gmx.net", "gmx.de", "web.de",
                              "mail.com", "yandex.ru", "zoho.com", "comcast.net", "verizon.net", "sbcglobal.net",
                              "example.com", "example.net", "example.org"]

    /// An e-mail address whose domain (its last two labels) is one letter off a common mail
    /// domain ("inbox.exampie.net", "gmaii.com", "example.nct"), or two look-alikes off it
    /// ("inbox.cxample.nel", "exaniple.net", "rnail.com"; see ``lookAlikeCost(_:_:)``): that
    /// domain, for review. Nil when it is one, or is near none or more than one.
    static func mailDomainMended(_ address: String) -> String? {
        guard let at = address.lastIndex(of: "@") else { return nil }
        let labels = address[address.index(after: at)...].split(separator: ".", omittingEmptySubsequences: false)
        guard labels.count >= 2 else { return nil }
        let domain = labels.suffix(2).joined(separator: ".").lowercased()
        guard domain.count >= 7, !mailDomains.contains(domain) else { return nil }
        let near = mailDomains.filter { lookAlikeCost(domain, $0) <= 1 }
        guard near.count == 1 else { return nil }
        return String(address[...at]) + (labels.dropLast(2) + [Substring(near[0])]).joined(separator: ".")
    }

    /// Whether a web address looks as printed: its host plausible (see ``plausibleDomain(_:)``)
    /// and no empty step in its path (a listing's "…/zsofia-kovacs//6079" is a 7 read as a slash).
    static func plausibleURL(_ s: String) -> Bool {
        var rest = Substring(s)
        if let r = rest.range(of: "://") { rest = rest[r.upperBound...] }
        let host = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        return plausibleDomain(String(host)) && !rest.dropFirst(host.count).contains("//")
    }

    /// US phone numbers as printed ("(512) 555-0147", "512.555.0147"): ten digits, or eleven with a leading 1.
    static func phone(_ s: String) -> FieldValue? {
        let t = trimmed(s)
        let digits = t.filter(\.isNumber)
        guard matches(t, #"^[+0-9().\s-]+$"#), digits.count == 10 || (digits.count == 11 && digits.first == "1") else { return nil }
        return .text(t)
    }

    static func url(_ s: String) -> FieldValue? {
        // A space in a web address is a word read in two or a dot lost: no value as read, but
        // one for ``FieldExtractor/urlMended(_:)`` to mend, for review.
        let t = okina(trimmed(s))
        guard !t.contains(" ") else { return nil }
        guard matches(t, #"^(https?://|www\.)[A-Za-z0-9.-]+\.[A-Za-z]{2,}(/\S*)?$"#) else { return nil }
        return .text(t.trimmingCharacters(in: CharacterSet(charactersIn: ".,")))
    }

    /// Request / reference numbers: one token of capitals, digits and dashes holding a digit.
    static func reference(_ s: String) -> FieldValue? {
        // A hyphen read with a space beside it ("REQ- 411082", "CASE - 725273") joins a letter
        // prefix to its number.
        let joined = s.replacingOccurrences(of: #"\b([A-Z]{2,6})\s*-\s*([0-9]{3,})\b"#, with: "$1-$2", options: .regularExpression)
        let tokens = trimmed(joined).split(separator: " ")
        guard let first = tokens.first.map(String.init)?.uppercased(),
              matches(first, #"^[A-Z0-9][A-Z0-9-]{3,}$"#), first.contains(where: \.isNumber), !first.contains("--") else { return nil }
        // "PR-24039 7": a digit or two read apart from a number may be its end; the number alone
        // is not known to be whole (see `FieldExtractor.referenceMended`).
        // So may three or four closing the value ("OPT-941 466").
        if first.last?.isNumber == true, tokens.count > 1,
           matches(String(tokens[1]), #"^[0-9]{1,2}$"#) || (tokens.count == 2 && matches(String(tokens[1]), #"^[0-9]{3,4}$"#)) { return nil }
        return .text(first)
    }

    /// A street line: a house number (or PO Box) then words.
    static func street(_ s: String) -> FieldValue? {
        let t = trimmed(s)
        guard matches(t, #"^([0-9]+[A-Z]?\s+\S+|P\.?\s?O\.?\s+Box\s+[0-9]+)"#), t.filter(\.isLetter).count >= 3,
              // A mark inside a word is a letter misread ("Mil! Creek"; see `streetMended`).
              !matches(t, Self.markInWord),
              // Street words are capitalised; a short lower-case tail is speckle read as letters.
              !t.split(separator: " ").dropFirst().contains(where: { $0.count <= 3 && $0.allSatisfy(\.isLowercase) && !["of", "st", "rd"].contains($0) })
        else { return nil }
        return .text(t)
    }

    /// `!` touching a letter, or `|` or `]` between two: an l or an i misread (a `|` closing a
    /// word is a cell's rule).
    static let markInWord = #"(?<=\p{L})!|!(?=\p{L})|(?<=\p{L})[|\]](?=\p{L})"#

    /// A small l after a capital, ending its word or before another capital: a name in capitals'
    /// I misread ("Ll" for LI).
    static let capitalIReadAsL = #"(?<=\p{Lu})l(?!\p{Ll})"#

    static func place(_ s: String) -> FieldValue? {
        // (A speck after the name read as a quote: "Anchorage’"; a cell's rule before it as a
        // bracket: "(Billings".)
        let t = ruleTrimmed(s).trimmingCharacters(in: CharacterSet(charactersIn: "'’‘`\"”"))
        let words = t.split(separator: " ")
        guard (1...4).contains(words.count), t.first?.isUppercase == true,
              t.allSatisfy({ $0.isLetter || " .'-".contains($0) }),
              // Lower-case words are particles ("de la"), or a particle glued on ("Coeur d'Alene").
              words.allSatisfy({ $0.first?.isUppercase == true || ["de", "la", "of", "du", "le"].contains($0)
                  || $0.range(of: #"^[dl]['’]\p{Lu}"#, options: .regularExpression) != nil }) else { return nil }
        return .text(t)
    }

    static func county(_ s: String) -> FieldValue? {
        var t = trimmed(s)
        // "County of Wake. Slate of …": a comma read as a full stop ends the name (as "St." and "Ste." do not).
        if let r = t.range(of: #"^.*?\p{L}{3,}(?<![Ss]te)(?=\.\s)"#, options: .regularExpression) { t = String(t[r]) }
        if t.hasSuffix(" County") { t = String(t.dropLast(7)) }
        return place(t)
    }

    /// "1427 Juniper Hollow Lane, Austin, TX 78745" (the state may be spelled out) → its normal form.
    static func fullAddress(_ s: String) -> FieldValue? {
        var s = s
        // Speckle or a stamp read after the ZIP ("… KS 67202, — ew ED |"): an address ends at its
        // ZIP, and marks and short scraps (no digit, no word of four letters) are no part of it.
        if splitAddress(s) == nil, let r = s.range(of: #"^.*\b[A-Z]{2},?\s+[0-9]{5}(?:-[0-9]{4})?(?=[\s,;]+[^0-9]*$)"#, options: .regularExpression),
           !s[r.upperBound...].split(separator: " ").contains(where: { $0.filter(\.isLetter).count >= 4 }) {
            s = String(s[r])
        }
        guard let parts = splitAddress(s) else { return nil }
        return .text("\(parts.street), \(parts.city), \(parts.state) \(parts.zip)")
    }

    /// Street, city, state code and ZIP of a one-line address.
    static func splitAddress(_ s: String) -> (street: String, city: String, state: String, zip: String)? {
        let t = trimmed(s).trimmingCharacters(in: CharacterSet(charactersIn: "."))
        guard let re = try? NSRegularExpression(pattern: #"^(.+),\s*([\p{L} .'-]+?),?\s+([A-Za-z][A-Za-z .]*?)\.?,?\s+([0-9]{5}(?:-[0-9]{4})?)$"#),
              let m = re.firstMatch(in: t, range: NSRange(t.startIndex..., in: t)) else { return nil }
        let g = (1...4).map { String(t[Range(m.range(at: $0), in: t)!]) }
        guard case .text(let st1)? = Self.street(g[0]), case .text(var city)? = Self.place(g[1]), case .text(let st)? = Self.state(g[2]) else { return nil }
        // A full stop before the comma after a whole word ("Spokane., WA") is a speck or the
        // comma read twice; one after an abbreviation ("St. Paul", "Ft.") is printed.
        if city.hasSuffix("."), (city.split(separator: " ").last?.filter(\.isLetter).count ?? 0) >= 4 { city.removeLast() }
        return (st1, city, st, g[3])
    }

    /// City, state code and ZIP of a "City, ST ZIP" line (parsed as ``splitAddress(_:)`` parses one
    /// after its street, so that the two take the same lines).
    static func placeLine(_ s: String) -> (city: String, state: String, zip: String)? {
        splitAddress("1 Main Street, " + s).map { ($0.city, $0.state, $0.zip) }
    }

    static func sex(_ s: String) -> FieldValue? {
        switch trimmed(s).uppercased() {
        case "M", "MALE": .text("M")
        case "F", "FEMALE": .text("F")
        case "X": .text("X")
        default: nil
        }
    }

    static func nationality(_ s: String) -> FieldValue? {
        let t = trimmed(s).uppercased()
        return t.count == 3 && t.allSatisfy({ $0.isASCII && $0.isLetter }) ? .text(t) : nil
    }

    /// A document's number: 5–12 letters and digits, at least one digit. Groups joined by dashes
    /// ("J173-2739-2236", as some licences print it) are one number when a letter shows it is no
    /// date or phone number.
    static func documentNumber(_ s: String) -> FieldValue? {
        // A licence's field number before a name ("1 BLOGGS", the line under the number's) is no
        // document number.
        if matches(s, #"^\s*[0-9]{1,2}\s*[A-Za-z][A-Za-z'-]{2,}\s*$"#) { return nil }
        var t = trimmed(s).uppercased().replacingOccurrences(of: " ", with: "")
        if t.contains("-"), t.contains(where: \.isLetter), t.range(of: #"^[A-Z0-9]+(-[A-Z0-9]+)+$"#, options: .regularExpression) != nil {
            t = t.replacingOccurrences(of: "-", with: "")
        }
        guard (5...12).contains(t.count), t.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }), t.contains(where: \.isNumber)
        else { return nil }
        return .text(t)
    }

    /// A name on an identity document, in capitals. "OF" is no part of one: it is a label's
    /// ("DATE OF BIRTH" misread as "LATE OF BERTH").
    static func upperName(_ s: String) -> FieldValue? {
        // A bracket against a name in capitals is its I ("[YER"): mended elsewhere, for review.
        if s.range(of: #"(?:^|\s)\[\p{Lu}"#, options: .regularExpression) != nil { return nil }
        // So is a small l after a capital ending its word or before another ("Ll" for LI).
        if s.range(of: capitalIReadAsL, options: .regularExpression) != nil { return nil }
        guard let v = name(s.uppercased()), let t = v.string, !t.split(separator: " ").contains("OF") else { return nil }
        return v
    }

    /// A person's full name: a name of at least two words starting with a capital.
    static func fullName(_ s: String) -> FieldValue? {
        guard let v = name(s), let t = v.string, t.split(separator: " ").count >= 2, t.first?.isUppercase == true,
              t.filter(\.isLetter).count >= 4 else { return nil }
        return v
    }
}
