import Foundation

/// Field extraction from word boxes. Labels are paired with values by geometry (to the right on
/// the same line, across several pairs per line, in the next table cell, or below the label),
/// then each value must pass its field's validator; narrative phrasing ("by and between X
/// (hereinafter "Grantor")") fills what no label gave. A field is reported only when found and
/// valid: missing fields are absent, never guessed; doubtful ones are marked `needsReview`.
enum FieldExtractor {
    /// Below this mean word confidence a value is reported for review only. (On three dev seeds
    /// of the document corpus, raised from 70: 1.9 % more of the right values go to review, and
    /// 14 of the 41 wrong values that were reported as read.)
    static let reviewConfidence = 80.0

    // MARK: Kind

    /// Identity documents' titles, as printed (capitals) on a line of their own.
    static let titles: Set<String> = ["PASSPORT", "IDENTITY CARD", "DRIVER LICENSE", "DRIVER'S LICENSE", "DRIVER LICENCE", "RESIDENCE PERMIT",
                                      "OPERATOR LICENSE", "OPERATOR'S LICENSE", "IDENTIFICATION CARD"]

    /// Whether a date read as `iso` from `printed` may be `other`: printed in digits only, with
    /// day and month both 12 or under, it reads either way round ("08/03/1979").
    static func eitherWayRound(_ iso: String, printed: String, is other: String) -> Bool {
        if iso == other { return true }
        let parts = iso.split(separator: "-")
        guard !printed.isEmpty, !printed.contains(where: \.isLetter), parts.count == 3,
              let a = Int(parts[1]), let b = Int(parts[2]), a <= 12, b <= 12 else { return false }
        return "\(parts[0])-\(parts[2])-\(parts[1])" == other
    }

    /// A date as a card's visual zone prints it: a day, a month's name or its first three letters
    /// ("13 FEB 1966", "4 March 2004"), a year; or dotted, day first ("24.12.2030").
    private static let visualZoneDate = try? NSRegularExpression(
        pattern: #"\b[0-3]?[0-9] (?:JAN|FEB|MAR|APR|MAY|JUN|JUL|AUG|SEP|OCT|NOV|DEC)[A-Z]*\.? (?:19|20)[0-9]{2}\b|\b[0-3][0-9]\.[01][0-9]\.(?:19|20)[0-9]{2}\b"#,
        options: .caseInsensitive)

    static func detectKind(_ text: String) -> DocumentKind {
        let t = text.uppercased()
        func score(_ words: [String]) -> Int {
            words.filter { t.range(of: "\\b" + NSRegularExpression.escapedPattern(for: $0) + "\\b", options: .regularExpression) != nil }.count
        }
        // A card's labels are printed small, and a photocopy or fax reads them a letter off
        // ("Date de naissence"): a label of three words or more counts when as many read words
        // spell it within a letter per eight.
        let lines = t.split(separator: "\n").map { $0.split(whereSeparator: { $0 == " " || $0 == "/" }).map(String.init) }
        let printed = text.split(separator: "\n")
        func nearly(_ phrases: [String]) -> Int {
            phrases.filter { phrase in
                let n = phrase.split(separator: " ").count, limit = phrase.count / 8
                guard n >= 3, t.range(of: phrase) == nil else { return false }
                return lines.contains { words in
                    words.count >= n && (0...(words.count - n)).contains { i in
                        PageLayout.editDistance(words[i..<(i + n)].joined(separator: " "), phrase, limit: limit) <= limit
                    }
                }
            }.count
        }
        let deed = score(["DEED", "GRANTOR", "GRANTEE", "PARCEL", "APN", "RECORDED", "CONVEY", "CONVEYS", "LEGAL DESCRIPTION",
                          "CONSIDERATION", "PLAT", "QUITCLAIM"])
        let id = score(["PASSPORT", "IDENTITY", "IDENTITY CARD", "DATE OF BIRTH", "DATE OF EXPIRY", "NATIONALITY", "GIVEN NAMES", "SURNAME",
                        "DRIVER LICENSE", "DRIVER'S LICENSE", "DRIVER LICENCE", "DOB", "EXP", "SEX", "RESIDENCE PERMIT", "GENDER",
                        "FORENAMES", "FAMILY NAME", "CITIZENSHIP", "EXPIRY DATE", "VALID UNTIL", "OPERATOR LICENSE", "IDENTIFICATION CARD",
                        "DLN", "HGT", "EYES", "DATE DE NAISSANCE", "NATIONALITÉ", "PRÉNOMS", "CARTE D'IDENTITÉ", "DATE OF ISSUE",
                        "PLACE OF BIRTH", "LIEU DE NAISSANCE"]) + (t.contains("<<<") ? 1 : 0)
            + nearly(["DATE OF BIRTH", "DATE OF EXPIRY", "DATE DE NAISSANCE", "DATE OF ISSUE", "PLACE OF BIRTH", "LIEU DE NAISSANCE"])
            // An AAMVA card's lettered field numbers ("4d DLN", "4b EXP"; see `FieldNumbers`).
            + (t.split(whereSeparator: { !$0.isLetter && !$0.isNumber }).filter { ["4A", "4B", "4C", "4D", "9A"].contains($0) }.count >= 2 ? 1 : 0)
            // A document's title on a line of its own, in capitals: on a fax or photocopy the
            // small labels may be unreadable, but the title is printed large (quotes or dots
            // read around it do not count), and it says what the document is (two points). A
            // long title may be read a letter or two off ("RESIDENCRF PERMIT": one per eight).
            + (printed.contains { line in
                let read = line.trimmingCharacters(in: .letters.inverted)
                return titles.contains { PageLayout.editDistance(read, $0, limit: $0.count / 8) <= $0.count / 8 }
            } ? 2 : 0)
            // A card's values when a fax lost every label: a sex beside a country code on a line
            // of their own ("F SEN", or "F Civ" with the code read partly small), and dates as
            // the visual zone prints them, the day before the month's name ("13 FEB 1966", "4 March
            // 2004") or dotted day first ("24.12.2030"), two or more.
            + (printed.contains { line in
                let parts = line.split(separator: " ")
                return parts.count == 2 && ["M", "F", "X"].contains(parts[0]) && parts[1].first?.isUppercase == true
                    && CountryCodes.all.contains(parts[1].uppercased())
            } ? 1 : 0)
            // (Or each on a line of its own, as a card whose values are stacked prints them.)
            + (printed.contains { ["M", "F", "X"].contains($0.trimmingCharacters(in: .whitespaces)) }
               && printed.contains { line in
                   let v = line.trimmingCharacters(in: .whitespaces)
                   return v.count == 3 && v.allSatisfy { $0.isUppercase } && CountryCodes.all.contains(v)
               } ? 1 : 0)
            + ((visualZoneDate?.numberOfMatches(in: text, range: NSRange(text.startIndex..., in: text)) ?? 0) >= 2 ? 1 : 0)
        let optout = score(["OPT-OUT", "OPT OUT", "REMOVAL", "REMOVE MY", "DELETE MY", "PRIVACY", "PERSONAL INFORMATION", "REQUEST",
                            "DELETION", "DO NOT SELL", "DATA BROKER", "MY LISTING", "MY DATA", "SUPPRESSION", "LISTING", "DELETE", "ERASE"])
            // Options read with their spaces lost ("[X]DoNotSell").
            + (t.replacingOccurrences(of: " ", with: "").contains("DONOTSELL") && !t.contains("DO NOT SELL") ? 1 : 0)
        let best = max(deed, id, optout)
        guard best >= 2 else { return .unknown }
        return best == id ? .id : best == deed ? .deed : .optout
    }

    // MARK: Kinds

    typealias Validator = @Sendable (String) -> FieldValue?
    /// Field name, validator, and whether a label without a colon at the start of a phrase may
    /// give it (only for values with a strict shape: numbers, dates, codes).
    typealias Spec = (field: String, validate: Validator, structured: Bool)

    static let deedSpecs: [Spec] = [
        ("grantor", fullName, false), ("grantee", fullName, false), ("parcel_number", parcel, true), ("recording_date", isoDate, true),
        ("instrument_number", instrument, true), ("consideration", amount, true), ("property_address", fullAddress, false),
        ("county", county, false), ("state", state, true),
    ]
    static let optoutSpecs: [Spec] = [
        ("data_broker", company, false), ("full_name", fullName, false), ("email", email, true), ("phone", phone, true),
        ("street_address", street, false), ("city", place, false), ("state", state, true), ("zip", zipCode, true),
        ("date_of_birth", isoDate, true), ("listing_url", url, true), ("request_id", reference, true), ("date", isoDate, true),
    ]
    static let idSpecs: [Spec] = [
        ("surname", upperName, true), ("given_names", upperName, true), ("date_of_birth", isoDate, true), ("sex", sex, true),
        ("nationality", nationality, true), ("document_number", documentNumber, true), ("expiry_date", isoDate, true),
    ]

    static func deed(_ lines: [TextLine]) -> [String: Field] {
        let page = LabelledPage(lines: lines, kind: .deed)
        var f = page.labelled(deedSpecs)
        let labelledOnly = f
        let text = page.layout.paragraphs
        let name = #"([A-Z][\p{L}.'’ʻ-]*(?: (?:[\p{L}.'’ʻ-]+|&))*?)"#
        // Not the last of several parties whose first could not be read as a name ("EVAR bOR B@
        // and SIONE FA'ALOGO (hereinafter "Grantor")"): that one alone is not the party. (After
        // a role's bracket, "and" starts the other party's clause.)
        let lastParty = #"(?<![\p{L}.'’ʻ-])(?<![^)"”'’] [Aa][Nn][Dd] )(?<![^)"”'’] & )"#
        // Quotes as read: a closing double quote is often read as a single one ("Grantee’)"), now
        // and then as a trade mark ("Grantee™)").
        let role = #"\s*,?\s*\(\s*(?:(?i:hereinafter)\s*(?:(?i:called|referred to as)\s*)?)?["“”'‘’]*\s*(?i:the\s+)?"#
        // A party's name with a letter read as a mark or digit ("TH! MINH KHAI TRAN (hereinafter
        // "Grantee")"): the name above would start after it. Mended, for review.
        let marked = #"([A-Z][\p{L}.'’ʻ!|\]1-]*(?: (?:[\p{L}.'’ʻ!|\]1-]+|&))*?)"#
        let markedName: (String) -> FieldValue? = { raw in
            raw.contains(where: { "!|]1".contains($0) }) ? lettersMended(raw).flatMap(fullName) : nil
        }
        if f["grantor"] == nil {
            f["grantor"] = forReview(find(text, #"(?i:by[.,]?\s+and\s+between)\s+"# + marked + role + #"(?i:Grantor)"#, sensitive: true, transform: markedName))
                ?? find(text, #"(?i:by[.,]?\s+and\s+between)\s+"# + name + role + #"(?i:Grantor)"#, sensitive: true, transform: fullName)
                // A first name read in small letters ("between ifigo Garcia Marquez (hereinafter"):
                // the rest is the party's name without its start, for review.
                ?? forReview(find(text, #"(?i:by[.,]?\s+and\s+between)\s+\p{Ll}\S*\s+"# + name + role + #"(?i:Grantor)"#, sensitive: true, transform: fullName))
                ?? find(text, lastParty + name + role + #"(?i:Grantor)["”'’™]*\s*\)"#, sensitive: true, transform: fullName)
                // A first name's capital I read as a small l ("lsolde Bloggs and …, Grantor,"): not
                // the party without it; mended, for review.
                ?? forReview(find(text, #"(?<![\p{L}.'’ʻ-])l(\p{Ll}{2,} [A-Z][\p{L}.'’ʻ-]*(?: (?:[\p{L}.'’ʻ-]+|&))*?),\s+(?i:Grantor)\s*,"#,
                                  sensitive: true, transform: { fullName("I" + $0) }))
                ?? find(text, lastParty + name + #",\s+(?i:Grantor)\s*,"#, sensitive: true, transform: fullName)
                ?? signature(find(text, name + #",\s+(?i:Grantor)\b"#, sensitive: true, transform: fullName))
        }
        if f["grantee"] == nil {
            f["grantee"] = forReview(find(text, lastParty + marked + role + #"(?i:Grantee)["”'’™]*\s*\)"#, sensitive: true, transform: markedName))
                ?? find(text, lastParty + name + role + #"(?i:Grantee)["”'’™]*\s*\)"#, sensitive: true, transform: fullName)
                // A first name read in small letters after "and" ("and kittisak Suwannakittiwong
                // (hereinafter "Grantee")"): capitalised, for review.
                ?? forReview(find(text, #"(?<![\p{L}.'’ʻ-])(?i:and)\s+(\p{Ll}{4,} [A-Z][\p{L}.'’ʻ-]*(?: (?:[\p{L}.'’ʻ-]+|&))*?)"# + role
                                    + #"(?i:Grantee)["”'’™]*\s*\)"#, sensitive: true, transform: { fullName($0.prefix(1).uppercased() + $0.dropFirst()) }))
                ?? find(text, #"(?i:conveys? and warrants?|grants?|conveys?|quitclaims?|convey)\s+(?i:un)?(?i:to)\s+"# + name + #",\s+(?i:Grantee)\b"#,
                        sensitive: true, transform: fullName)
                // A first name read in small letters ("grants to ifigo Garcia Marquez, Grantee"):
                // the rest is the party's name without its start, for review.
                ?? forReview(find(text, #"(?i:conveys? and warrants?|grants?|conveys?|quitclaims?|convey)\s+(?i:un)?(?i:to)\s+\p{Ll}\S*\s+"#
                                    + name + #",\s+(?i:Grantee)\b"#, sensitive: true, transform: fullName))
                ?? find(text, lastParty + name + #",\s+(?i:Grantee)\s*,"#, sensitive: true, transform: fullName)
                ?? signature(find(text, name + #",\s+(?i:Grantee)\b"#, sensitive: true, transform: fullName))
                ?? find(text, #"(?i:conveys? and warrants?|grants?|conveys?|quitclaims?)\s+(?i:un)?(?i:to)\s+"# + name + #"(?=\s*\(|,)"#,
                        sensitive: true, transform: fullName)
        }
        f["county"] = f["county"] ?? find(text, #"(?i:County of)\s+([A-Z][\p{L}.'-]+(?: [A-Z][\p{L}.'-]+){0,2})"#, sensitive: true, transform: county)
            ?? find(text, #"([A-Z][\p{L}.'-]+(?: [A-Z][\p{L}.'-]+){0,2}) County\b"#, sensitive: true, transform: county)
        f["state"] = f["state"] ?? find(text, #"(?i:State of)\s+([A-Z][a-z]+(?: [A-Z][a-z]+)?)"#, sensitive: true, transform: state)
        f["consideration"] = f["consideration"]
            ?? find(text, #"(?:consideration|sum|price)\D{0,60}?(\$\s?[0-9][0-9,]*(?:[. ][0-9]{2}\b)?)"# + wholeAmount, transform: amount)
            ?? find(text, #"\bfor\s+(\$\s?[0-9][0-9,]*(?:[. ][0-9]{2}\b)?)"# + wholeAmount, transform: amount)
            // Its commas and cents' point read as one another ("$2.258,000.00"): one reading.
            ?? find(text, #"(?:consideration|sum|price|\bfor)\D{0,60}?("# + mixedAmount + ")" + wholeAmount, transform: amount)
            // Its groups read apart beside a comma ("$1, 923,500.00"): joined, for review.
            ?? forReview(find(text, #"(?:consideration|sum|price)\D{0,60}?(\$\s?[0-9]{1,3}(?:\s?,\s?[0-9]{3})+\.[0-9]{2})"# + wholeAmount, transform: amount))
            ?? onlyAmount(text)
        let address = oneLineAddress
        f["property_address"] = f["property_address"]
            ?? find(text, #"(?:commonly known as|located at|known as|property address\s*:?)\s+"# + address, transform: fullAddress)
        if f["state"] == nil, let a = f["property_address"]?.value.string, let parts = splitAddress(a) {
            f["state"] = Field(value: .text(parts.state), confidence: f["property_address"]!.confidence, box: f["property_address"]!.box)
        }
        if let legal = legalDescription(lines) { f["legal_description"] = legal }
        // A consideration read without its dollar sign ("42,374,000 00" for $2,374,000.00 on a
        // fax: the sign read as a 4) may hold the sign as a digit: for review.
        if let box = f["consideration"]?.box,
           !lines.contains(where: { l in l.words.contains { $0.box.intersects(box) && $0.text.contains("$") } }) {
            f["consideration"]?.needsReview = true
        }
        partiesAgreed(&f, text: text, name: name)
        dayOrderChecked(&f, lines: lines)
        return review(doubtful(f, labelled: labelledOnly, page: page))
    }

    /// An opt-out request's lines read for labels, without the broker's letterhead and footer:
    /// they hold its own address and phone, not the requester's. With the broker's domains and
    /// the broker found by them.
    static func requesterPage(_ lines: [TextLine]) -> (page: LabelledPage, domains: Set<String>, byDomain: Field?) {
        let domains = brokerDomains(lines)
        let byDomain = brokerByDomain(lines, domains: domains)
        let letterhead = byDomain.map { letterheadLines(lines, brokerKey: PageLayout.key($0.value.string ?? ""), domains: domains) } ?? []
        return (LabelledPage(lines: lines.enumerated().filter { !letterhead.contains($0.offset) }.map(\.element), kind: .optout), domains, byDomain)
    }

    /// The words beside each field's label whose value failed the field's validator, and those
    /// of each strictly shaped value taken only once mended, as the kind's extraction finds them
    /// (see ``LabelledPage/rejectedValues`` and ``LabelledPage/mendedValues``): words of `lines`.
    static func rejectedValues(_ lines: [TextLine], kind: DocumentKind) -> (rejected: [String: [Word]], mended: [String: [Word]]) {
        guard kind != .unknown else { return ([:], [:]) }
        let page = kind == .optout ? requesterPage(lines).page : LabelledPage(lines: lines, kind: kind)
        _ = page.labelled(specs(for: kind))
        return (page.rejectedValues.mapValues(\.words), page.mendedValues)
    }

    /// The labelled fields of a page of `kind`, with their validators (none for `unknown`).
    static func specs(for kind: DocumentKind) -> [Spec] {
        switch kind {
        case .deed: deedSpecs
        case .optout: optoutSpecs
        case .id: idSpecs
        case .unknown: []
        }
    }

    /// Fields of an opt-out request. `tick`, `after`: see ``requestOptions(_:tick:after:)``.
    static func optout(_ lines: [TextLine], tick: ((_ label: BoundingBox, _ height: Int) -> TickMark?)? = nil,
                       after: ((_ last: BoundingBox, _ height: Int) -> (mark: TickMark?, x: Int)?)? = nil) -> [String: Field] {
        let (page, domains, byDomain) = requesterPage(lines)
        var f = page.labelled(optoutSpecs)
        let labelledOnly = f
        let rows = page.layout.rows.map { TextLine(words: $0.segments.flatMap(\.words)) }
        // "Address: 31 Larkin Street, Apt 5, San Francisco, CA 94102": one label, four fields.
        if let s = f["street_address"], let raw = s.value.string, let parts = splitAddress(raw) {
            f["street_address"] = Field(value: .text(parts.street), confidence: s.confidence, box: s.box, needsReview: s.needsReview)
            for (k, v) in [("city", parts.city), ("state", parts.state), ("zip", parts.zip)] where f[k] == nil {
                f[k] = Field(value: .text(v), confidence: s.confidence, box: s.box, needsReview: s.needsReview)
            }
        }
        // A labelled broker that spells none of the page's web domains ("I ask you to: Deletion")
        // gives way to one that does, or goes to review.
        if let labelled = f["data_broker"], !domains.isEmpty, case let distance = domainDistance(PageLayout.key(labelled.value.string ?? ""), domains),
           distance != 0 {
            // One letter off a domain ("To: Instant Checkmale" beside "instantcheckmate.com"), it gives
            // way to a line that spells the domain exactly ("Dear Instant Checkmate Privacy Team").
            if let byDomain, distance == nil || domains.contains(PageLayout.key(byDomain.value.string ?? "")) {
                f["data_broker"] = byDomain
            } else if distance == nil {
                f["data_broker"]?.needsReview = true
            }
        }
        f["data_broker"] = f["data_broker"] ?? byDomain ?? brokerByTitle(rows, domains: domains)
        if f["request_id"] == nil, var found = find(rows, #"(?:request|ref(?:erence)?|case)\s*(?:#|no\.?|number|id)?\s*:?\s*([A-Z]{2,6}(?:-|\s?[~–—:;]{1,2}-?\s?(?=[0-9]{4}))[A-Z0-9/-]{3,}(?: [0-9]{1,2}\b)?)"#,
                                                     transform: { reference($0) ?? referenceMended($0).flatMap(reference) }) {
            // Digits read apart and joined: for review.
            if let id = found.value.string, !rows.contains(where: { $0.text.uppercased().contains(id) }) { found.needsReview = true }
            f["request_id"] = found
        }
        // Its hyphen lost on a fax ("Re: Opt-out request OPT 119808"): a prefix in capitals and
        // five digits or more, joined as references are, for review.
        if f["request_id"] == nil, var found = find(rows, #"(?:request|ref(?:erence)?|case)\s*(?:#|no\.?|number|id)?\s*:?\s*((?-i:[A-Z]{2,6}) [0-9][0-9/]{4,})\b"#,
                                                     transform: { referenceMended($0).flatMap(reference) }) {
            found.needsReview = true
            f["request_id"] = found
        }
        // A letter's date: a line that is nothing but a date, above the salutation and the labelled details.
        let top = rows.firstIndex { $0.text.hasPrefix("To:") || $0.text.hasPrefix("Dear") || $0.text.contains(":") } ?? rows.count
        // Not a date under a line of capitals without a digit: that is a stacked form's label read
        // too poorly to be known ("DATF OF BIRIH" on a fax), and the date is its value.
        let underLabel = Set(rows.indices.dropFirst().filter { i in
            let above = rows[i - 1].text
            return !above.contains(where: \.isNumber) && !above.contains(where: \.isLowercase) && above.split(separator: " ").count <= 5
        })
        let heading = rows.prefix(top).enumerated().filter { !underLabel.contains($0.offset) }.map(\.element)
        f["date"] = f["date"] ?? find(heading, #"^(.{6,20})$"#, transform: isoDate)
        // (Or with a digit misread, mended as a labelled date is: for review.)
        if f["date"] == nil, var mended = find(heading, #"^(.{6,20})$"#, transform: { mended($0, field: "date").flatMap(isoDate) }) {
            mended.needsReview = true
            f["date"] = mended
        }
        let broker = f["data_broker"]?.value.string.map { PageLayout.key($0) } ?? "\u{0}"
        func requesters(_ s: String) -> FieldValue? {
            let local = s.split(separator: "@").first.map { $0.lowercased().trimmingCharacters(in: .whitespaces) } ?? ""
            let domain = PageLayout.key(String(s.split(separator: "@").last ?? ""))
            // The broker's own address (privacy@broker.com) is never the requester's.
            guard !["privacy", "info", "support", "dpo", "legal", "optout", "help"].contains(local), !domain.contains(broker) else { return nil }
            return email(s)
        }
        f["email"] = f["email"] ?? find(rows, #"([A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,})"#, transform: requesters)
        // An address read with a space beside its "@" ("Ibrahim Dogan <idogan @inbox.example.net>"):
        // joined, for review.
        if f["email"] == nil, var spaced = find(rows, #"(?<![^\s<(])([A-Za-z0-9._%+-]+ ?@ ?[A-Za-z0-9.-]+\.[A-Za-z]{2,})(?![^\s>),.;])"#,
                                                transform: requesters) {
            spaced.needsReview = true
            f["email"] = spaced
        }
        // A host whose dots a fax lost to spaces ("yzhang@mailexample org", "erikaBl@mail example
        // org"), ending in a top-level domain: joined by dots, for review. Only an address that
        // opens its line, or follows a bracket, a label's closing mark ("Frnt Adelie. erikaBl@…";
        // a dot only before a space: one inside "ana.lima@" is the mailbox's) or a mail label
        // however read ("Emaihk namrani@…"): after another word ("ayse gul@…") its mailbox may
        // have lost a dot too, and the address would be cut.
        if f["email"] == nil,
           var dotted = find(rows, #"(?:^|[<(]|[:;]\s?|\.\s|[Mm]ai\S{0,4}\s)([A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:[. ][A-Za-z0-9-]+){0,2} (?:com|net|org|edu|gov|info|io|co|us))(?![A-Za-z0-9])"#,
                             transform: { requesters($0.replacingOccurrences(of: " ", with: ".")) }) {
            dotted.needsReview = true
            f["email"] = dotted
        }
        // A web address whose scheme was garbled against its "www" ("htutps://www.…", "hUps:/www.…")
        // and whose path may be read in pieces to its line's end ("…/profile/ze simoes/59153"):
        // the scheme put back and the pieces joined (`urlMended`), for review. Before the plain
        // search, which takes the address from its "www" to its first space.
        if f["listing_url"] == nil,
           var garbled = find(rows, #"(?:^|\s)([hHlI|\\(][^\s/]{1,7}/{1,2}www[.,_]\S+(?:\s+[\p{L}0-9._~'/-]+){0,4})\s*$"#,
                              transform: { schemeMended($0).flatMap(url) }) {
            garbled.needsReview = true
            f["listing_url"] = garbled
        }
        f["listing_url"] = f["listing_url"] ?? find(rows, #"((?:https?://|www\.)\S+)"#, transform: url)
        // One whose scheme was garbled ("https:/Avww.acxiom.com/…") or whose last digits were read
        // apart ("…/gisela-kohler/1 1727."): mended, for review.
        if f["listing_url"] == nil,
           var garbled = find(rows, #"(h\s?[tl1I]{1,2}\s?ps?\s?[:;.]{1,3}/{1,2}\s?[A-Za-z]\S+(?:\s[0-9]{1,5}(?=[.,;]?(?:\s|$)))?)"#,
                              transform: { urlMended($0).flatMap(url) }) {
            garbled.needsReview = true
            f["listing_url"] = garbled
        }
        listingURLContinued(&f, layout: page.layout)
        mailboxStartMended(&f, rows: rows)
        // A reference alone in its cell under a label read past knowing ("RCP." over "REQ-372452"
        // on a fax), or closing its cell after one: taken by its shape when it is the page's only
        // one, for review. So is one with the slips `referenceMended` mends ("REQ 619332" with its
        // hyphen lost, "PR 51/084" with a 7's bar lost).
        if f["request_id"] == nil {
            func shaped(_ t: String) -> Bool { t.range(of: #"^[A-Z]{2,6}-[0-9]{5,8}$"#, options: .regularExpression) != nil }
            let alone: [(value: String, words: [Word])] = page.layout.rows.flatMap(\.segments).compactMap { cell in
                // Or closing its cell after a label's colon or "#" read past knowing ("Se ID: CASE-611622").
                if cell.words.count > 1, let last = cell.words.last, case let read = last.text.trimmingCharacters(in: CharacterSet(charactersIn: ".,;")),
                   shaped(read), let before = cell.words.dropLast().last?.text, before.hasSuffix(":") || before.hasSuffix("#") {
                    return (read, [last])
                }
                guard cell.words.count <= 3 else { return nil }
                let read = cell.words.map(\.text).joined(separator: " ")
                if cell.words.count == 1, shaped(read) { return (read, cell.words) }
                return referenceMended(read).flatMap { shaped($0) ? ($0, cell.words) : nil }
            }
            if case let values = Set(alone.map(\.value)), values.count == 1, let cell = alone.first {
                f["request_id"] = field(.text(cell.value), cell.words)
                f["request_id"]?.needsReview = true
            }
        }
        proseDetails(&f, paragraphs: page.layout.paragraphs)
        if f["street_address"] == nil, let name = f["full_name"]?.value.string {
            // A letter's sender block: the requester's name, then the street, then "City, ST ZIP".
            // (The name as the block spells it may differ from the labelled one by a letter misread
            // in either: "…Al Siddiq" over the street, "Full Name: …Al Siddig".)
            let nameKey = PageLayout.key(name), slack = nameKey.count >= 12 ? 1 : 0
            for (i, row) in rows.enumerated() where i + 2 < rows.count
                && PageLayout.editDistance(PageLayout.key(row.text), nameKey, limit: slack) <= slack {
                guard let st = street(rows[i + 1].text) else { continue }
                if let (reading, parts) = placeReadings(rows[i + 2].text).enumerated().lazy
                    .compactMap({ n, r in splitAddress(rows[i + 1].text + ", " + r).map { (n, $0) } }).first {
                    f["street_address"] = field(st, rows[i + 1].words)
                    for (k, v) in [("city", parts.city), ("state", parts.state), ("zip", parts.zip)] where f[k] == nil {
                        f[k] = field(.text(v), rows[i + 2].words)
                        if reading > 0 { f[k]?.needsReview = true }
                    }
                } else {
                    // The "City, ST ZIP" line lost under a shadow ("Titer ROC, = AR Wi 2:2 0El"):
                    // the street under the name is still the street, for review.
                    var alone = field(st, rows[i + 1].words)
                    alone.needsReview = true
                    f["street_address"] = alone
                }
                break
            }
        }
        if f["street_address"] == nil {
            // A letter's sender block at the top (a person's name, the street, "City, ST ZIP"), above
            // the salutation; a company's letterhead (one line, or "X, Inc.") is not one.
            let end = rows.firstIndex { $0.text.hasPrefix("To:") || $0.text.hasPrefix("Dear") || $0.text.hasPrefix("Re:") } ?? 0
            for i in 0..<max(0, min(end, rows.count) - 2) {
                let who = rows[i].text
                // (A long name, "Aisha Bint Khalid Abu Bakr Al Siddiq", only when it reads as one.)
                let count = who.split(separator: " ").count
                guard (2...6).contains(count) || ((7...10).contains(count) && fullName(who) != nil),
                      !PageLayout.key(who).contains(broker), !who.contains("Inc") else { continue }
                // (The place line as read or mended: ``placeReadings(_:)``.)
                let readings = placeReadings(rows[i + 2].text)
                guard let st = street(rows[i + 1].text) else {
                    // The street misread past knowing ("15? Sunset Boulevard") under a person's
                    // name: the place under it is still the sender's, for review.
                    guard fullName(who) != nil, rows[i + 1].text.first?.isNumber == true,
                          let parts = readings.lazy.compactMap(placeLine).first else { continue }
                    for (k, v) in [("city", parts.city), ("state", parts.state), ("zip", parts.zip)] where f[k] == nil {
                        f[k] = field(.text(v), rows[i + 2].words)
                        f[k]?.needsReview = true
                    }
                    break
                }
                guard let (reading, parts) = readings.enumerated().lazy
                    .compactMap({ n, r in splitAddress(rows[i + 1].text + ", " + r).map { (n, $0) } }).first else { continue }
                f["street_address"] = field(st, rows[i + 1].words)
                for (k, v) in [("city", parts.city), ("state", parts.state), ("zip", parts.zip)] where f[k] == nil {
                    f[k] = field(.text(v), rows[i + 2].words)
                    if reading > 0 { f[k]?.needsReview = true }
                }
                break
            }
        }
        if let options = requestOptions(optionLines(page.layout), tick: tick, after: after) { f["request_options"] = options }
        // (Or as Tesseract read it, before a stray mark was cut off: "|X" for TX, the T's bar lost.)
        if f["state"] == nil, let read = page.rejectedValues["state"], let zipCode = f["zip"]?.value.string,
           let code = stateNearZip(read.text, zipCode, city: f["city"]?.value.string) ?? read.words.first.flatMap({ cut in
               read.words.count == 1 ? lines.lazy.flatMap(\.words).first { $0.box.intersects(cut.box) && $0.text != cut.text && $0.text.hasSuffix(cut.text) } : nil
           }).flatMap({ stateNearZip($0.text, zipCode) }) {
            // Set by its ZIP and its remains: not a reading, so for review.
            f["state"] = field(.text(code), read.words)
            f["state"]?.needsReview = true
        }
        // (`rows` are the layout's rows, one for one.)
        let others = othersRows(rows.map(\.text), broker: broker)
        phoneByShape(&f, rows: rows, others: others)
        streetByShape(&f, layout: page.layout, others: others)
        placeByShape(&f, layout: page.layout)
        cityByList(&f, layout: page.layout, rejected: page.rejectedValues["city"])
        datesByAge(&f, rows: rows)
        dayOrderChecked(&f, lines: lines)
        var reviewed = review(doubtful(f, labelled: labelledOnly, page: page))
        listingURLAgreed(&reviewed, lines: lines)
        return reviewed
    }

    /// A request's date of birth or date whose label was read past knowing ("Name of Requester
    /// Birthdate" on a fax, over "Anna Maria Specimen 09/09/1965"; a light face's "BIRIHDAGL" and
    /// "REMEDIATE" over "15 October 1995" and "8 December 2024"), told apart by the years between
    /// them: a requester is born at least 13 years before asking. With the request's date read,
    /// the page's one date at least 13 years before it is the birth; with the birth read, its one
    /// date at least 13 years after is the request's; with neither, two dates that far apart and
    /// no other are the birth and the request, or the one date before 2000 is the birth (and
    /// the one 13 years after it, if any, the request). For review. (Nothing with more dates that fit.)
    static func datesByAge(_ f: inout [String: Field], rows: [TextLine]) {
        guard f["date_of_birth"] == nil || f["date"] == nil else { return }
        func year(_ d: String?) -> Int? { d.flatMap { Int($0.prefix(4)) } }
        let pattern = #"(?<![0-9A-Za-z])([0-9]{1,2}[/.-][0-9]{1,2}[/.-][0-9]{4}|[0-9]{4}-[0-9]{2}-[0-9]{2}|[0-9]{1,2} [A-Za-z]{3,9}\.? [0-9]{4}|[A-Za-z]{3,9}\.? [0-9]{1,2},? [0-9]{4})(?![0-9])"#
        let dates = findAll(rows, pattern, transform: { s in isoDate(s).flatMap { d in year(d.string).map { (1900...2100).contains($0) } == true ? d : nil } })
        /// The one date (by value) among `dates` that `fits`, nil when none or several.
        func one(_ fits: (Int) -> Bool) -> Field? {
            let found = dates.filter { year($0.value.string).map(fits) == true }
            guard let first = found.first, Set(found.compactMap(\.value.string)).count == 1 else { return nil }
            var taken = first
            taken.needsReview = true
            return taken
        }
        if let request = year(f["date"]?.value.string) {
            f["date_of_birth"] = one { $0 <= request - 13 }
        } else if let birth = year(f["date_of_birth"]?.value.string) {
            f["date"] = one { $0 >= birth + 13 }
        } else {
            let values = Set(dates.compactMap(\.value.string)).sorted()
            if values.count == 2, let early = year(values.first), let late = year(values.last), late - early >= 13 {
                f["date_of_birth"] = one { $0 == early }
                f["date"] = one { $0 == late }
            } else if let birth = one({ $0 < earliestRequestYear }) {
                // A date of the last century is no request's (people-search sites took opt-outs
                // from the 2000s on): the page's only one is the birth; its one date 13 years
                // after, if any, the request's.
                f["date_of_birth"] = birth
                if let born = year(birth.value.string) { f["date"] = one { $0 >= born + 13 } }
            }
        }
    }

    /// The year before which a date on an opt-out request is no request's date.
    static let earliestRequestYear = 2000

    /// A ZIP or a state whose label was not read (a fax's "AP CODE", "SIAL" over "Washington"),
    /// alone in its cell or closing a "City ST ZIP" cell: taken by its shape when it agrees with
    /// the other (the ZIP's first digits are the state's) and is the only such value on the page,
    /// for review. Neither is taken without the other to agree with.
    static func placeByShape(_ f: inout [String: Field], layout: PageLayout) {
        guard f["zip"] == nil || f["state"] == nil else { return }
        let cells = layout.rows.flatMap(\.segments)
        // (code, words) of the states spelled whole in a cell of their own.
        let stateCells: [(code: String, words: [Word])] = cells.compactMap { c in
            guard c.text.count > 2, let code = state(c.text)?.string else { return nil }
            return (code, c.words)
        }
        // (ZIP, state code printed before it or nil, words) of the ZIPs alone or after a city and state.
        let zipCells: [(zip: String, state: String?, words: [Word])] = cells.compactMap { c in
            if let alone = zipCode(c.text)?.string { return (alone, nil, c.words) }
            guard c.words.count >= 3, let last = c.words.last, let closing = zipCode(last.text)?.string,
                  c.words[c.words.count - 2].text.count == 2, let code = state(c.words[c.words.count - 2].text)?.string else { return nil }
            return (closing, code, [last])
        }
        func taken(_ value: String, _ words: [Word]) -> Field {
            var found = field(.text(value), words)
            found.needsReview = true
            return found
        }
        if let known = f["state"]?.value.string {
            let agreeing = zipCells.filter { ($0.state == nil || $0.state == known) && zip($0.zip, agreesWith: known) }
            if let one = agreeing.first, Set(agreeing.map(\.zip)).count == 1 { f["zip"] = taken(one.zip, one.words) }
        } else if let known = f["zip"]?.value.string {
            let agreeing = stateCells.filter { zipPrefixes[$0.code] != nil && zip(known, agreesWith: $0.code) }
            if let one = agreeing.first, Set(agreeing.map(\.code)).count == 1 {
                f["state"] = taken(one.code, one.words)
            } else if case let coded = codedPlaces(layout).filter({ $0.zip.text == known }), let one = coded.first,
                      Set(coded.map(\.code.text)).count == 1 {
                f["state"] = taken(one.code.text, [one.code])
            }
        } else {
            let pairs = zipCells.flatMap { z in
                stateCells.filter { s in zipPrefixes[s.code] != nil && (z.state == nil || z.state == s.code) && zip(z.zip, agreesWith: s.code) }
                    .map { (z, $0) }
            }
            if let (z, s) = pairs.first, Set(pairs.map(\.0.zip)).count == 1, Set(pairs.map(\.1.code)).count == 1 {
                f["zip"] = taken(z.zip, z.words)
                f["state"] = taken(s.code, s.words)
            } else if pairs.isEmpty, case let coded = codedPlaces(layout), let one = coded.first,
                      Set(coded.map { $0.zip.text + $0.code.text }).count == 1 {
                // A place's line whose labels above were misread past knowing ("C ity  Stee  AIP
                // Cade" over "Pittsbureh  PA  15222" on a fax): its state and ZIP, which agree,
                // for review; its city too when it reads as a place's name.
                f["zip"] = taken(one.zip.text, [one.zip])
                f["state"] = taken(one.code.text, [one.code])
                if f["city"] == nil, !one.city.isEmpty, let city = place(one.city.map(\.text).joined(separator: " ")) {
                    f["city"] = taken(city.string ?? "", one.city)
                }
            }
        }
    }

    /// Every line that ends in a state's code and a ZIP of that state ("Pittsbureh PA 15222",
    /// across the cells of a table's row too): the ZIP's word, the code's, and up to three
    /// capitalised words of letters before them when they are all the line holds besides (the
    /// city, as read). A mark after the ZIP (a cell's rule, "-") is passed over, and a ZIP read
    /// with a digit twice ("440507" beside KY) is the one ZIP of the state a digit less gives.
    static func codedPlaces(_ layout: PageLayout) -> [(zip: Word, code: Word, city: [Word])] {
        layout.rows.compactMap { row in
            var words = row.segments.flatMap(\.words)
            while let last = words.last, PageLayout.key(last.text).isEmpty { words.removeLast() }
            guard words.count >= 2, var last = words.last, (5...6).contains(last.text.count) else { return nil }
            // A ZIP's 7 read as a slash ("Tucson AZ 85/01"): no ZIP holds one (the state must still agree).
            if last.text.count == 5, last.text.filter({ $0 == "/" }).count == 1, last.text.filter(\.isNumber).count == 4 {
                last.text = numberMended(last.text) ?? last.text
            }
            guard last.text.allSatisfy(\.isNumber) else { return nil }
            let code = words[words.count - 2]
            guard code.text.count == 2, code.text.allSatisfy(\.isUppercase), states.values.contains(code.text),
                  zipPrefixes[code.text] != nil else { return nil }
            if last.text.count == 6 {
                let digits = Array(last.text)
                let agreeing = Set(digits.indices.map { i in String(digits[..<i] + digits[(i + 1)...]) }.filter { zip($0, agreesWith: code.text) })
                guard agreeing.count == 1, let one = agreeing.first else { return nil }
                last.text = one
            }
            guard zip(last.text, agreesWith: code.text) else { return nil }
            let before = words.dropLast(2).suffix(3)
            let city = Array(before.reversed().prefix { $0.text.first?.isUppercase == true && $0.text.allSatisfy { $0.isLetter || ".'-".contains($0) } }.reversed())
            return (last, code, city.count == words.count - 2 ? city : [])
        }
    }

    /// Visual-zone fields of an ID, from labels beside or above their values.
    static func idVisual(_ lines: [TextLine]) -> [String: Field] {
        let page = LabelledPage(lines: lines, kind: .id)
        let labelled = namesByFieldNumber(page.layout, filling: page.labelled(idSpecs))
        var f = namesAboveAddress(page.layout, filling: namesByPlace(page.layout, filling: byValueShape(page.layout, filling: labelled)))
        // A licence's small "LN" or "FN" read as a lone N before the name it labels ("N KÖHLER"):
        // no one's name is a lone N. The name after it, for review.
        for name in ["surname", "given_names"] {
            guard let v = f[name]?.value.string, v.hasPrefix("N "), case let rest = String(v.dropFirst(2)),
                  rest.filter(\.isLetter).count >= 2, upperName(rest) != nil else { continue }
            f[name]?.value = .text(rest)
            f[name]?.needsReview = true
        }
        dayOrderChecked(&f, lines: lines)
        return review(f)
    }

    /// Every label → value pair on the page (labels of every kind the engine knows, and any
    /// `Label:` followed by a value).
    static func pairs(_ lines: [TextLine], kind: DocumentKind) -> [FieldPair] {
        LabelledPage(lines: lines, kind: kind).pairs()
    }

    // MARK: Checkboxes

    /// The ticked request options ("[X] Delete my personal information"), canonical and sorted.
    /// `tick`, when the page's pixels are at hand, says what the box left of an option's first
    /// word holds (``TickBoxReader``); its answer is taken over the text's, and where the two
    /// disagree the field goes to review. `after` finds the first mark right of an option's text
    /// (its answer and its x): where the left says nothing, marks found at one x on two rows or
    /// more are the list's column of boxes.
    static func requestOptions(_ rows: [TextLine], tick: ((_ label: BoundingBox, _ height: Int) -> TickMark?)? = nil,
                               after: ((_ last: BoundingBox, _ height: Int) -> (mark: TickMark?, x: Int)?)? = nil) -> Field? {
        var ticked: [String] = [], words: [Word] = [], found = 0, doubtful = false
        var decidedRows: [Int] = [], undecidedRows: [Int] = []
        var right: [(index: Int, key: String, words: [Word], mark: TickMark?, byText: TickMark?, x: Int, height: Int)] = []
        let keys = rows.map { optionKey($0.text) }
        for (index, row) in rows.enumerated() {
            // One word is an option only after a box its pixels show ("☐ Access" side by side).
            guard let key = keys[index], row.words.count >= (tick == nil ? 2 : 1), row.words.count <= 12 else { continue }
            let start = optionStart(row.words)
            let mark = row.words[0].text
            let inner = mark.filter { !Self.boxBrackets.contains($0) }
            // (A short word opening the option is no box: "No marketing e-mails", "Do not sell".)
            let isWord = (start == 0 && Self.shortOpeningWords.contains(mark)) || (inner.count >= 3 && inner.allSatisfy(\.isLetter))
            let readAsMark = mark.hasPrefix("[") || mark.hasPrefix("(") || mark.hasPrefix("|") || (!isWord && inner.count <= 3)
            // An empty box reads as nothing or as box-like letters ("O", "LJ", "[]", "(1", "C1]":
            // on the three dev seeds "1" came only from empty boxes, 8 times); a crossed one as
            // "X", or, drawn and copied, as "&", "2d", "KI": ticked, but for review.
            // A lone bar is as likely a table's rule as a box's side: it says nothing.
            let rule = mark.allSatisfy { $0 == "|" }
            // A box read into its option's first word ("(Do not sell/share", "[Delete"): the
            // letters after the bracket are the option's, and only the pixels say what the box
            // holds (the word's box opens with it).
            let glued = start == nil && mark.first.map { "[({|".contains($0) } == true
                && mark.dropFirst().range(of: #"^\p{Lu}\p{Ll}+$"#, options: .regularExpression) != nil
            let byText: TickMark? = readAsMark && !rule && !glued ? (inner.allSatisfy { Self.emptyBoxReadings.contains($0) } ? .empty : .ticked) : nil
            var byPixels: TickMark?
            if let tick, let first = start ?? (glued ? 0 : nil) {
                let h = PageLayout.median(row.words[first...].map(\.box.height))
                byPixels = tick(row.words[first].box, h)
            }
            // A box read as nothing is an option only when its pixels show one.
            guard let decided = byPixels ?? byText else {
                // Nothing left of the option: the first mark right of its text may be the box,
                // unless another option stands beside it (options side by side have their boxes
                // on their left: the next option's box is not this one's).
                let beside = rows.indices.contains { $0 != index && keys[$0] != nil && Self.sameLine(rows[$0], row) }
                if let after, let start, !beside {
                    let trailing = trailingMark(row.words, from: start)
                    let text = Array(row.words[start..<trailing.end])
                    let h = PageLayout.median(text.map(\.box.height))
                    // (From its last word, not a speck read after it, "lists - -", nor the column
                    // of boxes read as one tall word, "Oo;0O/0;8".)
                    let last = text.last { !PageLayout.key($0.text).isEmpty && $0.box.height <= 2 * h } ?? text[text.count - 1]
                    if let seen = after(last.box, h) {
                        right.append((index, key, text, seen.mark, trailing.byText, seen.x, h))
                        continue
                    }
                }
                undecidedRows.append(index)
                continue
            }
            found += 1
            decidedRows.append(index)
            if decided == .ticked {
                ticked.append(key)
                words += row.words
            }
            if let byPixels {
                if let byText, byText != byPixels { doubtful = true }
            } else if decided == .ticked, !inner.contains(where: { Self.crossReadings.contains($0) }) {
                doubtful = true
            }
        }
        // Marks right of the options count as a column: two rows or more, their centres within a
        // letter and a half of each other's median (not a word or a stamp beside one option).
        if right.count >= 2 {
            let xs = right.map(\.x).sorted(), mid = xs[xs.count / 2]
            for r in right {
                guard 2 * abs(r.x - mid) <= 3 * r.height, let mark = r.mark else {
                    undecidedRows.append(r.index)
                    continue
                }
                found += 1
                decidedRows.append(r.index)
                if mark == .ticked {
                    ticked.append(r.key)
                    words += r.words
                }
                if let byText = r.byText, byText != mark { doubtful = true }
            }
        } else {
            undecidedRows += right.map(\.index)
        }
        decidedRows.sort()
        guard found >= 2, !ticked.isEmpty else { return nil }
        // An option in the list whose box says nothing (a mark in a far column, a glyph neither
        // blank nor crossed) may be ticked: the list is incomplete, not a smaller request.
        // So is a box whose option's words were not read as one ("[ PRO data" under a stamp)
        // beside the options read or among their rows.
        if let first = decidedRows.first, let last = decidedRows.last {
            let among = (first - 1)...(last + 1)
            if undecidedRows.contains(where: among.contains) || rows.indices.contains(where: { i in
                keys[i] == nil && rows[i].words.count >= 2 && opensWithBox(rows[i].words[0].text)
                    && (among.contains(i) || decidedRows.contains { sameLine(rows[$0], rows[i]) })
            }) { doubtful = true }
        }
        var f = field(.text(Array(Set(ticked)).sorted().joined(separator: ",")), words)
        f.needsReview = doubtful || f.needsReview
        return f
    }

    /// A word that is a box read as text: a bracket opening at most one more character ("[",
    /// "[X]", "(1"), not a parenthesis opening words ("(Please").
    static func opensWithBox(_ text: String) -> Bool {
        guard let first = text.first, "[({".contains(first) else { return false }
        return text.filter { !boxBrackets.contains($0) }.count <= 1
    }

    /// A box's sides as Tesseract reads them, around what is in it.
    static let boxBrackets = "[]()|{}_"
    /// What an empty box's inside reads as ("O", "LJ", "C1"); and a crossed one's, for sure.
    static let emptyBoxReadings = "Oo0CDULJIl|1", crossReadings = "XxKk✓✔×"

    /// Two-letter words an option may open with, which a box read as text is not.
    static let shortOpeningWords: Set<String> = ["No", "Do", "My", "To", "Me", "Re"]

    /// Two lines side by side: their boxes' vertical extents overlap by half the lower one's height.
    /// (Of words up to twice a line's usual height: a column of boxes beside the options read as
    /// one tall word spans them all.)
    static func sameLine(_ a: TextLine, _ b: TextLine) -> Bool {
        func extent(_ l: TextLine) -> BoundingBox? {
            let h = PageLayout.median(l.words.map(\.box.height))
            let words = l.words.filter { $0.box.height <= 2 * h }
            guard let first = words.first?.box else { return nil }
            return words.dropFirst().reduce(first) { $0.union($1.box) }
        }
        guard let ab = extent(a), let bb = extent(b) else { return false }
        let overlap = min(ab.y + ab.height, bb.y + bb.height) - max(ab.y, bb.y)
        return 2 * overlap >= min(ab.height, bb.height)
    }

    /// Where an option's text ends (`end`: exclusive, from `start`) and what a mark read after
    /// it says: a last word or two past a wide gap, short and with at most two letters ("[X]",
    /// "[ ]", "X"), is its box read as text, not its words (`byText`: nil when none was read, or it
    /// reads as neither).
    static func trailingMark(_ words: [Word], from start: Int) -> (end: Int, byText: TickMark?) {
        var end = words.count
        while end - 1 > start {
            let w = words[end - 1], before = words[end - 2]
            let h = max(before.box.height, 1)
            let letters = w.text.filter(\.isLetter)
            guard w.text.count <= 4, letters.count <= 2, w.box.x - (before.box.x + before.box.width) > 2 * h else { break }
            end -= 1
        }
        let mark = words[end...].map(\.text).joined()
        let inner = mark.filter { !boxBrackets.contains($0) }
        let byText: TickMark? = mark.isEmpty ? nil : inner.allSatisfy({ emptyBoxReadings.contains($0) }) ? .empty
            : inner.contains(where: { crossReadings.contains($0) }) ? .ticked : nil
        return (end, byText)
    }

    /// The request option a line names, canonical. Sale before marketing before deletion before
    /// access: "Remove me from marketing lists" is marketing, "Delete all data you hold about me" a
    /// deletion, "Send me a copy of the data you hold" access.
    static func optionKey(_ text: String) -> String? {
        let lower = text.lowercased()
        func any(_ words: [String]) -> Bool { words.contains { lower.contains($0) } }
        return any(["sell", "sale of", "share", "sharing"]) ? "do_not_sell"
            : lower.contains("marketing") ? "opt_out_marketing"
            : any(["delet", "erase", "remove my", "remove me"])
                // ("Remove mi listing": the word between misread.)
                || lower.range(of: #"\bremove\b.{0,6}\b(?:listing|profile|record|data|information)"#, options: .regularExpression) != nil ? "delete"
            : any(["copy of", "what you hold", "you hold", "access", "right to know"])
                || lower.range(of: #"copy\b"#, options: .regularExpression) != nil ? "access" : misreadOptionKey(lower)
    }

    /// An option's long key word misread a letter or two off ("markcting", "markeLing",
    /// "Dclete", "Getetion" on faxes and copies): one letter off "delete", two off "deletion" or
    /// "marketing" ("Delegate" is two off "delete", nothing of an option). A row counts as an
    /// option only with a box before it, which ``requestOptions(_:tick:after:)`` requires.
    static func misreadOptionKey(_ lower: String) -> String? {
        let keys = [("marketing", "opt_out_marketing"), ("deletion", "delete"), ("delete", "delete")]
        for word in lower.split(whereSeparator: { !$0.isLetter }) where word.count >= 5 {
            let read = String(word)
            for (spelled, key) in keys {
                let limit = spelled.count >= 8 ? 2 : 1
                if PageLayout.editDistance(read, spelled, limit: limit) <= limit { return key }
            }
        }
        return nil
    }

    /// Lines to read request options from: a row whose cells name two options or more ("[X] Delete
    /// [ ] Do Not Sell [X] Access" side by side) gives one line per cell; any other row, itself.
    static func optionLines(_ layout: PageLayout) -> [TextLine] {
        // (A cell whose words open in small letters is the rest of its neighbour read apart,
        // "Delete all personal data" and "you hold about me": no option of its own. Its box read
        // as letters before them, "hA Access", does not count.)
        func options(_ cells: [TextLine]) -> Bool {
            cells.count { c in
                guard optionKey(c.text) != nil else { return false }
                if c.words.first?.text.first?.isLowercase != true { return true }
                guard let start = optionStart(c.words) else { return false }
                return c.words[..<start].allSatisfy { $0.text.count <= 3 }
            } >= 2
        }
        return layout.rows.flatMap { row -> [TextLine] in
            let cells = row.segments.map { TextLine(words: $0.words) }
            if options(cells) { return cells }
            // Options side by side a little closer than the layout parts cells: a ticked box's
            // ink, check mark and all, is taller than the letters and raises the row's height by
            // which gaps are judged ("☑ Marketing opt-out   ☑ Access" read as one cell). Parted
            // at gaps of one and a half letters (the option's words are a third of a letter
            // apart), when that gives two options or more.
            let words = row.segments.flatMap(\.words)
            let h = PageLayout.median(words.filter { $0.text.filter(\.isLetter).count >= 3 }.map(\.box.height))
            var parted: [[Word]] = []
            for w in words {
                if let last = parted.last?.last, h == 0 || 2 * (w.box.x - (last.box.x + last.box.width)) <= 3 * h {
                    parted[parted.count - 1].append(w)
                } else {
                    parted.append([w])
                }
            }
            let narrower = parted.map { TextLine(words: $0) }
            return options(narrower) ? narrower : [TextLine(words: words)]
        }
    }

    /// Index of an option's first word after its tick box: a capitalised word of two letters or
    /// more, with no bracket and little else than letters ("Delete", "Do"; not "[X]", "fF]",
    /// "LJ", "Xx", or "of" and "eat" misread from a box).
    static func optionStart(_ words: [Word]) -> Int? {
        words.firstIndex { w in
            let letters = w.text.filter(\.isLetter)
            return w.text.first?.isUppercase == true && letters.count >= 2 && letters.contains(where: \.isLowercase)
                && !w.text.contains(where: { "[](){}|".contains($0) }) && 5 * letters.count >= 4 * w.text.count
                && !letters.allSatisfy({ "Xx".contains($0) })
        }
    }

    // MARK: Helpers

    /// First match of `pattern` (capture group 1) in any line, as a field. `sensitive`: names must
    /// start with a capital, so the pattern is case-sensitive except where it says `(?i:…)`.
    static func find(_ lines: [TextLine], _ pattern: String, sensitive: Bool = false, transform: (String) -> FieldValue? = { .text($0) }) -> Field? {
        findAll(lines, pattern, sensitive: sensitive, first: true, transform: transform).first
    }

    /// Every match of `pattern` (capture group 1) whose text `transform` accepts, as fields in
    /// reading order; only the first when `first`.
    static func findAll(_ lines: [TextLine], _ pattern: String, sensitive: Bool = false, first: Bool = false,
                        transform: (String) -> FieldValue? = { .text($0) }) -> [Field] {
        guard let regex = try? NSRegularExpression(pattern: pattern, options: sensitive ? [] : [.caseInsensitive]) else { return [] }
        var found: [Field] = []
        for line in lines {
            let ns = line.text as NSString
            for m in regex.matches(in: line.text, range: NSRange(location: 0, length: ns.length)) where m.range(at: 1).location != NSNotFound {
                let r = m.range(at: 1)
                let raw = ns.substring(with: r).trimmingCharacters(in: .whitespacesAndNewlines.union(CharacterSet(charactersIn: ",;")))
                guard !raw.isEmpty, let value = transform(raw) else { continue }
                let start = line.text.distance(from: line.text.startIndex, to: Range(r, in: line.text)!.lowerBound)
                found.append(field(value, line.words(in: start..<(start + raw.count))))
                if first { return found }
            }
        }
        return found
    }

    /// Fields whose values are dates.
    static let dateFields: Set<String> = ["date_of_birth", "expiry_date", "recording_date", "date"]

    /// Capitals read for the digits they look like, in a number ("PR-G25035", "…/S6968").
    static let capitalDigitLookAlikes = ["O": "0", "D": "0", "Q": "0", "I": "1", "L": "1", "Z": "2", "S": "5", "G": "6", "B": "8"]

    /// Fields whose values are people's names.
    static let nameFields: Set<String> = ["full_name", "grantor", "grantee", "surname", "given_names"]

    /// `text` with marks and digits that look like letters made letters inside words of letters:
    /// `]`, `|`, `!` and `1` after a letter as `l` (as `I` in a name of capitals), `0` between
    /// letters or before them as `O` (after small letters as `o`), `6` between small letters as
    /// `o`, `8` opening a word or among capitals as `B`, `@` beside a letter as `Ø`, and `l`
    /// starting a word of small letters as `I`. Nil when nothing changes. Only for names, where no
    /// digit, bracket or `@` belongs and every word but a particle starts with a capital.
    static func lettersMended(_ given: String) -> String? {
        var text = given
        // A word of a name in capitals whose capitals shaped as their small letters were read small
        // beside one read whole ("oGuz GUNES" for OĞUZ GÜNEŞ: the breve made the G stand taller):
        // in capitals.
        let words = given.split(separator: " ")
        if words.count >= 2, words.contains(where: { $0.filter(\.isLetter).count >= 2 && !$0.contains(where: \.isLowercase) }) {
            text = words.map { w in
                let small = w.filter(\.isLowercase)
                return !small.isEmpty && w.contains(where: \.isUppercase) && small.allSatisfy({ "cosuvwxz".contains($0) }) ? w.uppercased() : String(w)
            }.joined(separator: " ")
        }
        // A name printed in capitals has `I` where one in mixed case has `l`.
        let capitals = !text.contains(where: \.isLowercase)
        // A first name whose capital was read small before the name's capitalised rest ("ibrahim
        // Sahin": a dotted İ; "kittisak Suwannakittiwong"): capitalised. (Not a particle: "van Dijk".)
        // (A small l opening it is a capital I, mended below: "loannis".)
        if !capitals, let r = text.range(of: #"^\p{Ll}{4,}(?= \p{Lu})"#, options: .regularExpression), text.first != "l",
           !particles.contains(String(text[r])) {
            text.replaceSubrange(r, with: text[r].prefix(1).uppercased() + text[r].dropFirst())
        }
        return tokensMapped(text, { token in
            // A speck read as a degree sign inside a name ("Ka‘°ahumanu"): no name holds one.
            let chars = Array(token.filter(\.isLetter).count >= 3 ? token.replacingOccurrences(of: "°", with: "") : String(token))
            guard chars.contains(where: \.isLetter) else { return String(token) }
            // A capital I read as a small l starts a word of small letters ("loannis"); particles
            // ("la", "los") are shorter.
            if !capitals, chars.count >= 4, chars[0] == "l", chars.dropFirst().allSatisfy(\.isLowercase) {
                return "I" + String(chars.dropFirst())
            }
            return String(chars.indices.map { i -> Character in
                let c = chars[i]
                let before = i > 0 && chars[i - 1].isLetter, after = i + 1 < chars.count && chars[i + 1].isLetter
                if "]|!1".contains(c), before { return capitals ? "I" : "l" }
                // (And a capital I opening a name in capitals read as a bracket: "[YER".)
                if c == "[", i == 0, capitals, i + 1 < chars.count, chars[i + 1].isUppercase { return "I" }
                // A small o among small letters ("Ba0"), an accented one read as a 6 ("Zs6fia"),
                // and a capital B read as an 8 ("8ao", "RO8ERT").
                let small = (before && chars[i - 1].isLowercase) && (!after || chars[i + 1].isLowercase)
                if c == "0", small, !capitals { return "o" }
                if c == "6", small, after, !capitals { return "o" }
                if c == "8", (i == 0 && after) || (capitals && (before || after)) { return "B" }
                // A Z whose foot a fax lost reads as a 7 ("7denék Dvorak"): one opening a word of
                // small letters (no name spells a digit there).
                if c == "7", i == 0, !capitals, chars.count >= 4, chars.dropFirst().allSatisfy(\.isLowercase) { return "Z" }
                if c == "0", after || (before && capitals) { return "O" }
                // Tesseract's English model has no `Ø`: it reads one as `@` ("B@", "@RJAN").
                if c == "@", before || after { return capitals || !before ? "Ø" : "ø" }
                return c
            })
        }) ?? (text == given ? nil : text)
    }

    /// A name whose last word, after capitalised ones, was read small ("Thi Minh Khai tran": a
    /// fax's T read as t), that word capitalised; nil when it is not such a name. Letters only, no
    /// particle ("Ludwig van"), and not a small l, a capital I (``lettersMended(_:)``: "Ravi
    /// lyer"). Only once the Latin model has not read the name: an Ł is read as t too
    /// ("Anna tukaszewicz", ``OCRWorker/rejectedNamesWithDiacritics``).
    static func lastWordCapitalised(_ name: String) -> String? {
        let parts = name.split(separator: " ")
        guard (2...5).contains(parts.count), let last = parts.last, last.count >= 3, last.allSatisfy({ $0.isLowercase && $0.isLetter }),
              last.first != "l", !particles.contains(String(last)),
              parts.dropLast().allSatisfy({ $0.first?.isUppercase == true && $0.count >= 2 && $0.dropFirst().allSatisfy(\.isLowercase) })
        else { return nil }
        return parts.dropLast().joined(separator: " ") + " " + last.prefix(1).uppercased() + last.dropFirst()
    }

    /// `text` with letters that look like digits (`O`, `o`, `Q`, `D`, `@` for 0; `I`, `l`, `|` for
    /// 1) made digits inside tokens that hold a digit already; nil when nothing changes. Tokens of
    /// letters only ("SEP", "June") are left alone.
    static func digitsMended(_ text: String) -> String? {
        let zero: Set<Character> = ["O", "o", "Q", "D", "@"], one: Set<Character> = ["I", "l", "|"]
        return tokensMapped(text) { token in
            guard token.contains(where: \.isNumber) else { return String(token) }
            var chars = Array(token.map { zero.contains($0) ? "0" : one.contains($0) ? "1" : $0 })
            // A fax's 1 read as "!" and 2 as "?" (a light face's foot lost: "2! April 1997",
            // "2002 12 1?"), after a digit: no date writes either there.
            for i in chars.indices.dropFirst() where chars[i - 1].isNumber && (i + 1 == chars.count || chars[i + 1].isNumber) {
                if chars[i] == "!" { chars[i] = "1" } else if chars[i] == "?" { chars[i] = "2" }
            }
            // Left to right: of "0//13", the first slash is the 7 and the second a separator.
            for i in chars.indices where chars[i] == "/" && slashIsSeven(chars, at: i) { chars[i] = "7" }
            return String(chars)
        }
    }

    /// A fax's 98 rows per inch lose a light face's thin horizontal strokes: a 7 keeps only its
    /// stem and reads as `/` ("/0801", "2026-0/-18", "(299) /13-8410"). A slash is taken for a 7
    /// only where it cannot be a date's separator: first in a number, last after a digit, or
    /// beside a dash, a full stop or another slash.
    static func slashIsSeven(_ chars: [Character], at i: Int) -> Bool {
        let before = i > 0 ? chars[i - 1] : nil, after = i + 1 < chars.count ? chars[i + 1] : nil
        let separators: Set<Character> = ["-", ".", "/"]
        if before == nil { return after?.isNumber == true }
        if after == nil { return before?.isNumber == true }
        return (before!.isNumber || separators.contains(before!)) && (after!.isNumber || separators.contains(after!))
            && (separators.contains(before!) || separators.contains(after!))
    }

    /// `text` mended for `field` (a date's digits, a name's letters, a state code's letters), or
    /// nil when nothing changes.
    static func mended(_ text: String, field: String) -> String? {
        if field == "state" { return stateMended(text) }
        // A card's name in capitals with an I read as a small l ("Ll" for LI): the I, for review.
        if ["surname", "given_names"].contains(field), case let i = text.replacingOccurrences(of: capitalIReadAsL, with: "I", options: .regularExpression),
           i != text, i.filter(\.isLetter).allSatisfy(\.isUppercase) {
            return i
        }
        // A double name's hyphen read as two dashes or a long one ("ABD AL—-RAHMAN",
        // "KOWALSKA-—KWIATKOWSKA"): one hyphen; no name has two. (Then whatever else the name needs.)
        if nameFields.contains(field), case let one = text.replacingOccurrences(of: #"(?<=\p{L})(?:[-–—]{2,3}|[–—])(?=\p{L})"#, with: "-", options: .regularExpression),
           one != text {
            return lettersMended(one) ?? one
        }
        if field == "request_id" { return referenceMended(text) }
        // One sex letter read twice ("Xx": Tesseract reads an X's crossing strokes as two letters).
        if field == "sex" {
            let t = text.trimmingCharacters(in: .whitespaces).uppercased()
            return t.count == 2 && t.first == t.last && "MFX".contains(t.first!) ? String(t.first!) : nil
        }
        if field == "email" {
            // An i read as "!" in the mailbox ("elen!.papadopoulou@"): no address spells one.
            let box = text.replacingOccurrences(of: #"(?<=\p{L})!(?=[\p{L}0-9._-]*@)"#, with: "i", options: .regularExpression)
            return hostMended(box) ?? (box == text ? nil : box)
        }
        if field == "listing_url" { return urlMended(text) }
        // An amount whose commas and point were all read as spaces ("$2 011 000 00"): one reading only.
        if field == "consideration", let r = text.range(of: #"^\s*\$\s?[0-9]{1,3}(?: [0-9]{3})+ [0-9]{2}\s*$"#, options: .regularExpression) {
            var groups = text[r].trimmingCharacters(in: .whitespaces).dropFirst().split(separator: " ").map(String.init)
            let cents = groups.removeLast()
            return "$" + groups.joined(separator: ",") + "." + cents
        }
        if field == "street_address" { return streetMended(text) }
        if field == "property_address" { return addressMended(text) }
        // An instrument number's digits read apart after its dash ("2004-31 7036"; not a parcel's,
        // whose groups a space may part where its dash was lost, nor "2014 22395", a dash lost).
        if field == "instrument_number", let r = text.range(of: #"^\s*[0-9]+-[0-9]{1,4} [0-9]+\s*$"#, options: .regularExpression) {
            let joined = text[r].replacingOccurrences(of: " ", with: "")
            return numberMended(joined) ?? joined
        }
        // A space among a parcel number's groups parted by dashes is a dash a fax lost ("29
        // 3402-115-86" for 29-3402-115-86) or a group read apart ("34-931 2-923-62"): which, the
        // page does not say. Joined as read, for review.
        if field == "parcel_number", text.contains("-"), text.range(of: #"[0-9] +[0-9]"#, options: .regularExpression) != nil {
            let joined = text.trimmingCharacters(in: .whitespaces).replacingOccurrences(of: #"(?<=[0-9]) +(?=[0-9])"#, with: "", options: .regularExpression)
            return numberMended(joined) ?? joined
        }
        // An instrument number with a space beside its hyphen ("1995 -389161"), its year's hyphen
        // lost on a fax ("2000 191315"), or its last digits read apart ("200487896 12"): one
        // number, for review.
        if field == "instrument_number" {
            let t = text.trimmingCharacters(in: .whitespaces)
            // (Its 7 read as a slash first: "2005 /02325".)
            let joined = (numberMended(t) ?? t).replacingOccurrences(of: #"^([0-9]{4,}) ?- ?([0-9]{4,})$"#, with: "$1-$2", options: .regularExpression)
                .replacingOccurrences(of: #"^((?:19|20)[0-9]{2}) ([0-9]{5,7})$"#, with: "$1-$2", options: .regularExpression)
                .replacingOccurrences(of: #"^([0-9]{6,}) ([0-9]{1,2})$"#, with: "$1$2", options: .regularExpression)
            if joined != t { return numberMended(joined) ?? joined }
        }
        if ["instrument_number", "parcel_number"].contains(field) { return numberMended(text) }
        // A licence number's S read as "§" or "$" ("DL §8685732"), a Y with its bars as a yen sign
        // ("¥6340197"): no document number holds either.
        if field == "document_number" {
            // (Its groups may be hyphenated: "$881-5415-8130".) A C read twice, the first time as a
            // euro sign ("€C5953921"), is one C; a euro sign alone before the digits is the C.
            let t = text.replacingOccurrences(of: #"(?<![A-Za-z0-9])[§$](?=[A-Za-z0-9]{3})"#, with: "S", options: .regularExpression)
                .replacingOccurrences(of: #"(?<![A-Za-z0-9])¥(?=[A-Za-z0-9]{3})"#, with: "Y", options: .regularExpression)
                .replacingOccurrences(of: #"(?<![A-Za-z0-9])€(?=C[0-9]{4})"#, with: "", options: .regularExpression)
                .replacingOccurrences(of: #"(?<![A-Za-z0-9])€(?=[0-9]{4})"#, with: "C", options: .regularExpression)
            return t == text ? nil : t
        }
        if dateFields.contains(field) {
            // A day's two digits read apart before the month's name ("1 1 August 1990").
            let joined = text.trimmingCharacters(in: .whitespaces)
                .replacingOccurrences(of: #"^([0-9]) ([0-9])(?= \p{L}{3})"#, with: "$1$2", options: .regularExpression)
            // Or its 7 read as a slash ("2/ February 2024", the bar of the 7 a fax lost).
                .replacingOccurrences(of: #"(?<=^[0-9])/\s+(?=\p{L}{3})"#, with: "7 ", options: .regularExpression)
            var digits = digitsMended(joined) ?? joined
            // A year's 7 read as a slash inside it ("June 17, 19/1", "19/8 04 09": the year leads):
            // where the year stands alone, a slash in it parts nothing.
            if digits.range(of: #"\p{L}{3}"#, options: .regularExpression) != nil || digits.range(of: #"^(?:1[89]|20)[0-9/]{2} "#, options: .regularExpression) != nil {
                while let r = digits.range(of: #"(?<![0-9/])(?:1[89]|20)(?:/[0-9]|[0-9]/)(?![0-9/])"#, options: .regularExpression) {
                    digits.replaceSubrange(r, with: digits[r].replacingOccurrences(of: "/", with: "7"))
                }
            }
            let month = monthMended(digits) ?? digits
            // A day's or month's 0 read as a 9 ("93/14/2002" on a photo of a card; before a month's
            // name, "93 FEB 1942": no day is in the nineties): the one way of taking it back that
            // gives a date.
            let t = month.trimmingCharacters(in: .whitespaces)
            let numeric = t.range(of: #"^[0-9]{2}[/.-][0-9]{2}[/.-][0-9]{4}$"#, options: .regularExpression) != nil
            if isoDate(month) == nil, numeric || t.range(of: #"^[0-9]{2}[ .-]\p{L}{3}"#, options: .regularExpression) != nil {
                let nines = (numeric ? [0, 3] : [0]).filter { Array(t)[$0] == "9" }
                let valid = (1..<(1 << nines.count)).map { mask -> String in
                    var chars = Array(t)
                    for (bit, i) in nines.enumerated() where mask & (1 << bit) != 0 { chars[i] = "0" }
                    return String(chars)
                }.filter { isoDate($0) != nil }
                if let first = valid.first, Set(valid.compactMap { isoDate($0)?.string }).count == 1 { return first }
            }
            // A card's field number or a label's last letters read as digits glued before the day
            // ("20806/12/2004"): the day's two digits are the last of the group. (Not a group of
            // four: a year opens that date.)
            let lead = t.prefix(while: \.isNumber)
            if isoDate(month) == nil, lead.count == 3 || (5...6).contains(lead.count),
               case let rest = String(lead.suffix(2)) + t.dropFirst(lead.count), isoDate(rest) != nil {
                return rest
            }
            return month == text.trimmingCharacters(in: .whitespaces) ? nil : month
        }
        // A ZIP's 7 read twice, as "7/" or "/7" ("837/02" for 83702): six characters with the
        // slash beside a 7 are five digits.
        if field == "zip", text.range(of: #"^\s*[0-9]*(?:7/|/7)[0-9]*\s*$"#, options: .regularExpression) != nil,
           text.trimmingCharacters(in: .whitespaces).count == 6 {
            return text.replacingOccurrences(of: "/", with: "")
        }
        // Neither a ZIP nor a phone number holds a slash: one beside a digit is a 7 ("6/0.275.9076").
        return ["zip", "phone"].contains(field) ? numberMended(text) : nameFields.contains(field) ? lettersMended(text) : nil
    }

    /// A recording's number, which holds no slash: every slash beside a digit is a 7 whose bar a
    /// fax lost ("2000520/108"), as are letters that look like digits (see ``digitsMended(_:)``).
    /// Nil when nothing changes.
    static func numberMended(_ text: String) -> String? {
        let digits = digitsMended(text) ?? text
        let chars = Array(digits)
        let mended = String(chars.indices.map { i in
            chars[i] == "/" && ((i > 0 && chars[i - 1].isNumber) || (i + 1 < chars.count && chars[i + 1].isNumber)) ? "7" : chars[i]
        })
        return mended == text ? nil : mended
    }

    /// A month's name read a letter off ("18 Pebruary 1977": a fax lost the F's bar): the one
    /// month within one edit, names of five letters or more only. Nil when nothing changes.
    static func monthMended(_ text: String) -> String? {
        tokensMapped(text) { token in
            let word = token.uppercased().trimmingCharacters(in: CharacterSet(charactersIn: ".,"))
            // (A month's l read as "!" or "|": "Apri! 2024".)
            guard word.count >= 5, word.dropLast().allSatisfy(\.isLetter), word.last!.isLetter || "!|".contains(word.last!),
                  !months.contains(word) else { return String(token) }
            // (Or its m read as "rn", "Decernber": the one month two look-alikes or one edit off.)
            guard let month = onlyOneEditFrom(word, among: months, minLength: 5)
                    ?? Optional(months.filter { $0.count >= 5 && lookAlikeCost(word, $0) <= 1 }).flatMap({ $0.count == 1 ? $0[0] : nil })
            else { return String(token) }
            return month.prefix(1) + month.dropFirst().lowercased() + (token.hasSuffix(",") ? "," : "")
        }
    }

    /// A web address read with its scheme garbled against its "www" ("htutps://www.",
    /// "hUps:/www.", "https.//www."), the scheme put back (https where an s, or a 5 or $ for
    /// one, was read in it) and its path's pieces joined by ``urlMended(_:)``. Nil when the
    /// pieces after the address's first space do not end as a listing's path does (a digit or a
    /// slash last: words of a sentence after it are not its path), or when nothing changes.
    static func schemeMended(_ text: String) -> String? {
        guard let www = text.range(of: #"/www[.,_]"#, options: .regularExpression) else { return nil }
        let scheme = text[..<www.lowerBound]
        let rest = text[text.index(after: www.lowerBound)...]
        if rest.contains(" ") ? rest.last.map({ $0.isNumber || $0 == "/" }) != true
            : text.hasPrefix("https://") || text.hasPrefix("http://") { return nil }
        let secure = scheme.dropFirst().contains { "sS5$".contains($0) }
        let put = (secure ? "https://" : "http://") + rest
        return urlMended(put) ?? put
    }

    /// A web address as a copy or a fax garbles it: its scheme's slash or letter lost ("https:/www",
    /// "htlps://"), a comma for a dot in its host ("epsilondata,com"), a word read in two
    /// ("www. fastpeop lesearch.com", "/peop le/"). In the host spaces go when that leaves a
    /// plausible host, else they are lost dots (``hostMended(_:)``: "www.mylife com"); in the path
    /// one between letters is a lost hyphen, any other goes. Nil when nothing changes. A guess:
    /// the caller marks the value for review.
    static func urlMended(_ text: String) -> String? {
        let t = trimmed(text).replacingOccurrences(of: #"^h\s?[tl1I]{1,2}\s?p\s?(s?)[\s:;.]{0,3}/{1,2}\s?"#, with: "http$1://",
                                                    options: [.regularExpression, .caseInsensitive])
        let hostStart = t.range(of: "://")?.upperBound ?? t.startIndex
        let pathStart = t[hostStart...].firstIndex(of: "/") ?? t.endIndex
        var host = t[hostStart..<pathStart].replacingOccurrences(of: ",", with: ".")
            .replacingOccurrences(of: #"\s*\.\s*"#, with: ".", options: .regularExpression).trimmingCharacters(in: .whitespaces)
        host = wwwMended(host) ?? host
        let joined = host.replacingOccurrences(of: " ", with: "")
        if plausibleDomain(joined) { host = joined }
        // A space between letters of a path is a hyphen a fax lost (a thin level stroke, under
        // its 98 lines an inch): "/ze simoes/" for "/ze-simoes/". On the saved readings of the
        // tuned opt-out sets, 84 such spaces stood for a hyphen and 13 for nothing (a word read
        // in two at a narrow letter, "peop le"); a listing's path word read in two is joined.
        // Any other space is a word read in two.
        var path = String(t[pathStart...])
        for word in listingPathWords where word.count > 2 {
            path = path.replacingOccurrences(of: #"(?<=/)"# + word.map(String.init).joined(separator: " ?") + "(?=/)", with: word,
                                             options: [.regularExpression, .caseInsensitive])
        }
        path = path.replacingOccurrences(of: #"(?<=\p{L}) +(?=\p{L})"#, with: "-", options: .regularExpression)
            .replacingOccurrences(of: " ", with: "")
        // A path's hyphen read as "=" ("/jurgen= schafer/"): a path without a query holds none.
        if !path.contains("?") { path = path.replacingOccurrences(of: "=", with: "-") }
        let glued = String(t[..<hostStart]) + host + path
        let mended = hostMended(glued) ?? glued
        return mended == trimmed(text) ? nil : mended
    }

    /// A host whose first label is "www" misread, before a domain and its top level: a stray
    /// mark before it (the scheme's second slash: "https:/Awww.", "https:/Avww."), a w read as v
    /// or m ("vww.", "wmw."), or a w lost ("ww."). No web host's first label is any of these.
    /// Nil when the host starts otherwise.
    static func wwwMended(_ host: String) -> String? {
        let labels = host.split(separator: ".", omittingEmptySubsequences: false)
        guard labels.count >= 3, let first = labels.first, first != "www",
              first.range(of: #"^(?:[A-Za-z|/\\]?[wv]{3}|[vm]ww|w[vm]w|ww[vm]|ww)$"#, options: .regularExpression) != nil
        else { return nil }
        return "www" + host.dropFirst(first.count)
    }

    /// A web address with what OCR makes of its hyphens and its "www": a dash in a path ("oguz—-dogan",
    /// "dimitrios-—papadopoulou") is a hyphen read long or twice, and "wwwepsilondata.com" lost the dot
    /// after its "www" (put back only when the host is then plausible), and "checkpeople.conyp/"
    /// lost the slash after its ".com". Nil when nothing changes. A guess: the caller marks the
    /// value for review.
    static func urlGlyphsMended(_ url: String) -> String? {
        let hostStart = url.range(of: "://")?.upperBound ?? url.startIndex
        let pathStart = url[hostStart...].firstIndex(of: "/") ?? url.endIndex
        var host = String(url[hostStart..<pathStart])
        if let mended = wwwMended(host), plausibleDomain(mended) { host = mended }
        if host.hasPrefix("www"), let fourth = host.dropFirst(3).first, fourth.isLetter,
           plausibleDomain("www." + host.dropFirst(3)) {
            host = "www." + host.dropFirst(3)
        }
        var path = url[pathStart...].replacingOccurrences(of: "[-\u{2013}\u{2014}]*[\u{2013}\u{2014}][-\u{2013}\u{2014}]*", with: "-",
                                                          options: .regularExpression)
        // A ".com/" whose "m/" was read as "ny", "nv" or "mil" before a listing's path word
        // ("checkpeople.conyp/", "truthfinder.convp/", "nuwber.comillisting/"), or whose "m"
        // was read so before its slash ("clustrmaps.cony/profile"): no top-level domain is
        // spelled so.
        if let dot = host.lastIndex(of: "."), case let top = host[host.index(after: dot)...].lowercased(),
           let r = top.range(of: #"^co(?:n[yv]|m[il1]{0,2}|rn)(?=(?:p|"# + listingPathWords.joined(separator: "|") + ")?$)", options: .regularExpression) {
            let rest = top[r.upperBound...]
            if !rest.isEmpty { path = "/" + rest + path }
            host = String(host[...dot]) + "com"
        }
        // A listing's record number with a 7 read as a slash ("…/al-hashimi/5/565", "…/li-na-li//1270")
        // or as "7/" ("…/takahashi/487/79"): after the last path word, up to three digits (or nothing) then
        // digits is one number, when one part has three digits or more. (Not "/2024/12345": a
        // number of four digits before the slash is a number of its own.)
        var steps = path.split(separator: "/", omittingEmptySubsequences: false)
        if let word = steps.lastIndex(where: { $0.contains(where: \.isLetter) }), case let tail = steps[(word + 1)...], tail.count >= 2,
           let last = tail.last, last.count >= 2, last.allSatisfy(\.isNumber), tail.contains(where: { $0.count >= 3 }),
           tail.dropLast().allSatisfy({ $0.count <= 3 && $0.allSatisfy(\.isNumber) }), (4...8).contains(tail.joined().count + tail.count - 1) {
            // (A slash after a 7 is that 7's stroke read twice: "…/487/79" for 48779.)
            let joined = tail.dropFirst().reduce(String(tail[tail.startIndex])) { $0 + ($0.hasSuffix("7") ? "" : "7") + $1 }
            steps.replaceSubrange((word + 1)..., with: [Substring(joined)])
            path = steps.joined(separator: "/")
        }
        // A listing's record number with one letter among its digits, a look-alike of one
        // ("…/xiaoming-zhang/S6968"): the digit. (A step with two letters or more is a word.)
        steps = path.split(separator: "/", omittingEmptySubsequences: false)
        if steps.count >= 2, let last = steps.last, last.count >= 4, last.filter(\.isLetter).count == 1, last.allSatisfy({ $0.isLetter || $0.isNumber }),
           steps[steps.count - 2].contains(where: \.isLetter), let i = last.firstIndex(where: \.isLetter),
           // (A small l is a 1 there; a capital L, kept: URLs are lower case, and "L" no misread of one.)
           let digit = last[i] == "l" ? "1" : last[i] == "L" ? nil : capitalDigitLookAlikes[String(last[i])] {
            steps[steps.count - 1] = last[..<i] + digit + last[last.index(after: i)...]
            path = steps.joined(separator: "/")
        }
        let mended = String(url[..<hostStart]) + host + path
        return mended == url ? nil : mended
    }

    /// A reference whose last digits were read apart ("PR-24039 7"), or whose capital prefix
    /// was ("OP T-365965", a wide T parted from the P): joined.
    static func referenceMended(_ text: String) -> String? {
        // (Three or four digits only when they end the value: "Confirmation number: OPT-941 466".)
        var joined = text.replacingOccurrences(of: #"^(\s*[A-Za-z0-9-]*[0-9]) ([0-9]{1,2}\b|[0-9]{3,4}(?=\s*$))"#, with: "$1$2",
                                               options: .regularExpression)
        // A 7 whose bar was lost reads as a slash ("CASE-/34565"): a reference's number holds none.
        // (So after a space for its hyphen, "CASE 1164/7", and twice, "OPT-3/0/09".)
            .replacingOccurrences(of: #"(?<=[A-Z](?:\s?-\s?|\s)[0-9/]{0,8})/(?=[0-9/]{0,8}[0-9])"#, with: "7", options: .regularExpression)
        // A 2 whose foot was lost reads as "?" and a 1 as "!" ("OPT-71274?"), after its digits.
            .replacingOccurrences(of: #"(?<=[A-Z]-[0-9]{1,8})\?(?=[0-9]{0,8}\s*$)"#, with: "2", options: .regularExpression)
            .replacingOccurrences(of: #"(?<=[A-Z]-[0-9]{1,8})!(?=[0-9]{0,8}\s*$)"#, with: "1", options: .regularExpression)
        // A prefix and its number with the hyphen between lost (a fax's thin stroke: "OPT 259973",
        // "CASE 233343"): joined by one, as the page's references are.
        joined = joined.replacingOccurrences(of: #"^(\s*[A-Z]{2,6}) ([0-9]{4,})(?=\s*$)"#, with: "$1-$2", options: .regularExpression)
        // Its hyphen read as a tilde or a colon, or twice ("REQ~-459195", "OPT: 718028",
        // "REQ--165875"): one hyphen.
            .replacingOccurrences(of: #"^(\s*[A-Z]{2,6})(?:\s?[~–—:;]{1,2}-?\s?|-{2,3})([0-9]{4,})\b"#, with: "$1-$2", options: .regularExpression)
        // A prefix's last letter, a T, I or L whose bar a fax lost, read as a mark ("OP !-452750",
        // "OP '-973827", "OP'1-784554"): the one prefix in common use that letter completes. (A
        // digit alone, "OP1-", may be the page's own prefix: kept as read, `ReadingSlipTests`.)
        if let r = joined.range(of: #"^\s*[A-Z]{1,5} ?['’!|]{1,2}1? ?-\s?(?=[0-9]{4,})"#, options: .regularExpression) {
            let letters = joined[r].filter { $0.isLetter && $0.isUppercase }
            let completed = referencePrefixes.filter { $0.count == letters.count + 1 && $0.hasPrefix(letters) && "TIL".contains($0.last!) }
            if completed.count == 1 { joined.replaceSubrange(r, with: completed[0] + "-") }
        }
        if let r = joined.range(of: #"^\s*([A-Z]{1,4}) ([A-Z]{1,4}-[0-9]{3,})\b"#, options: .regularExpression) {
            let parts = joined[r].split(separator: " ")
            if parts.count == 2, parts[0].count + parts[1].prefix(while: { $0 != "-" }).count <= 6 {
                joined.replaceSubrange(r, with: parts[0] + parts[1])
            }
        }
        return joined == text ? nil : joined
    }

    /// A nationality code no state has, one character a look-alike of the printed one ("JRL" for
    /// IRL): the one ICAO code a single look-alike gives, or nil when none or several do ("BRA"
    /// and "FRA" are both codes, and never mended).
    static func nationalityMended(_ text: String) -> String? {
        let t = Array(text.trimmingCharacters(in: CharacterSet(charactersIn: " .,;:")).uppercased())
        guard t.count == 3, t.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }) else { return nil }
        return onlyLookAlike(t) { code in code.allSatisfy(\.isLetter) && CountryCodes.all.contains(code) }
    }

    /// The one string that `chars` with one character changed for a look-alike gives and
    /// `accept` takes, or nil when none or several do.
    static func onlyLookAlike(_ chars: [Character], accept: (String) -> Bool) -> String? {
        var found: Set<String> = []
        for i in chars.indices {
            for other in lookAlikes[chars[i]] ?? [] {
                var c = chars
                c[i] = other
                if accept(String(c)) { found.insert(String(c)) }
            }
        }
        return found.count == 1 ? found.first : nil
    }

    /// Characters Tesseract reads for one another in capitals.
    static let lookAlikes: [Character: [Character]] = [
        "0": ["O", "D", "Q"], "1": ["I", "L", "T"], "2": ["Z"], "4": ["A"], "5": ["S"], "6": ["G"], "7": ["T"], "8": ["B"],
        "I": ["J", "L", "T"], "J": ["I"], "L": ["I"], "T": ["I"], "O": ["D", "Q", "C", "G"], "D": ["O"], "Q": ["O"],
        "C": ["O", "G"], "G": ["C", "O"], "E": ["F"], "F": ["E"], "B": ["R", "E"], "R": ["B", "P"], "P": ["R"],
        "U": ["V"], "V": ["U"], "M": ["N"], "N": ["M", "H"], "H": ["N"], "K": ["X"], "X": ["K"],
    ]

    /// A letter's "City, ST ZIP" line as read, then mended (each mended reading is for review): a
    /// digit read as its look-alike (``digitsMended(_:)``; a ZIP's last 1 read as a bracket, "Santa
    /// Fe, NM 8750]", but not after a day, "1] March", where the bracket is a speck), then its
    /// state code or ZIP (``placeMended(_:)``).
    static func placeReadings(_ place: String) -> [String] {
        let bracket = place.replacingOccurrences(of: #"(?<= [0-9]{4})\](?=$|-)"#, with: "1", options: .regularExpression)
        let mended = digitsMended(bracket) ?? (bracket == place ? nil : bracket)
        return [place, mended, placeMended(mended ?? place), mended == nil ? nil : placeMended(place)].compactMap { $0 }
    }

    /// A "City, ST ZIP" line whose state code was misread where its ZIP says which ("Madison, Wl
    /// 53703": the I read as l; "Providence, RE 02904", the city one of the state's places; see
    /// ``stateNearZip(_:_:city:)`` and ``stateMended(_:)``), run into its ZIP ("Providence,
    /// RI02903": a fax lost the space), or whose ZIP has a slash read in it ("87/501": a 5's bar
    /// apart) or for its 7 ("53/03"): the line with the state and ZIP that agree, or nil when it
    /// reads as no such line or no one state and ZIP agree.
    static func placeMended(_ line: String) -> String? {
        let t = line.trimmingCharacters(in: CharacterSet(charactersIn: " .,;"))
        guard let re = try? NSRegularExpression(pattern: #"^(.+?),?\s+(\S{1,2})\s*([0-9/]{5,7}(?:-[0-9]{4})?)$"#),
              let m = re.firstMatch(in: t, range: NSRange(t.startIndex..., in: t)) else { return nil }
        let g = (1...3).map { String(t[Range(m.range(at: $0), in: t)!]) }
        let (city, read) = (g[0], g[1])
        // The ZIP as read, or its slashes each a 7 or nothing: the readings of five digits.
        let zips = Set(g[2].contains("/") ? [g[2].replacingOccurrences(of: "/", with: "7"), g[2].replacingOccurrences(of: "/", with: "")] : [g[2]])
            .filter { $0.range(of: #"^[0-9]{5}(?:-[0-9]{4})?$"#, options: .regularExpression) != nil }
        func agreeing(_ code: String?, _ zipCode: String) -> String? {
            code.flatMap { zipPrefixes[$0] != nil && zip(zipCode, agreesWith: $0) ? $0 : nil }
        }
        let found = zips.compactMap { zipCode -> (code: String, zip: String)? in
            if read.count == 2, let asRead = agreeing(state(read)?.string, zipCode) {
                // As read: only where something else was mended (a space or a slash).
                return t.contains(read + g[2]) || g[2] != zipCode ? (asRead, zipCode) : nil
            }
            guard let near = stateNearZip(read, zipCode, city: city) ?? agreeing(stateMended(read), zipCode) else { return nil }
            return (near, zipCode)
        }
        guard found.count == 1, let one = found.first else { return nil }
        return "\(city), \(one.code) \(one.zip)"
    }

    /// A two-letter state code read with a digit for a letter ("1X" for TX): the one code its
    /// digits' look-alike letters spell, or nil when they spell none or several ("M0": MO or MD).
    static func stateMended(_ text: String) -> String? {
        let t = text.trimmingCharacters(in: CharacterSet(charactersIn: " .,;")).uppercased()
        if t.count > 2 { return stateNameMended(t) }
        guard t.count == 2, t.contains(where: \.isNumber), t.allSatisfy({ $0.isNumber || ("A"..."Z").contains($0) }) else { return nil }
        let options = t.map { $0.isNumber ? lookAlikes[$0] ?? [] : [$0] }
        let codes = options[0].flatMap { a in options[1].map { b in String([a, b]) } }.filter(states.values.contains)
        return codes.count == 1 ? codes[0] : nil
    }

    /// A state code that its ZIP does not agree with, one letter a look-alike of the printed one
    /// ("IN" beside 37203: a fax lost the T's bar): the one code a single look-alike gives that
    /// the ZIP agrees with, or nil when none or several do.
    static func stateForZip(_ state: String, _ zipCode: String) -> String? {
        guard state.count == 2 else { return nil }
        return onlyLookAlike(Array(state)) { code in zipPrefixes[code] != nil && zip(zipCode, agreesWith: code) }
    }

    /// A state's value that is no state ("Cl", "lowa": a fax or a shadow lost the T's bar, an I
    /// read as l) beside a ZIP whose first digits belong to one state only: that state's code,
    /// when the value read is its code with a letter a look-alike (thin strokes read for one
    /// another: I, L, T, J, 1), one letter of its code whose other letter is such a stroke (lost),
    /// or its name one letter off (two for names of eight letters or more; thin strokes, I, L, 1
    /// and rules, counted as one another: "||/inois" for Illinois). With `city`, also a code one
    /// of whose letters is as printed ("FE" for FL under a skewed scan's speck) where the city
    /// is one of that state's places and the ZIP one of the city's. Nil otherwise: a ZIP alone
    /// never names a state the page does not show.
    static func stateNearZip(_ read: String, _ zipCode: String, city: String? = nil) -> String? {
        guard zipCode.count >= 5, zipCode.prefix(5).allSatisfy(\.isNumber), let p = Int(zipCode.prefix(3)) else { return nil }
        let owners = zipPrefixes.filter { $0.value.contains { $0.contains(p) } }.map(\.key)
        guard owners.count == 1, let code = owners.first else { return nil }
        // (A code whose thin first letter was read as a rule, "|X" for TX, "|A" for IA, is two
        // characters still: only a rule beside a letter or two is trimmed.)
        let spaced = read.uppercased().trimmingCharacters(in: CharacterSet(charactersIn: " .,:;"))
        let t = spaced.count == 2 ? spaced : read.uppercased().trimmingCharacters(in: ruleGlyphs.union(CharacterSet(charactersIn: " .,:;")))
        let thin: Set<Character> = ["I", "L", "T", "J", "1", "!", "|"]
        if t.count == 2 {
            let pairs = Array(Swift.zip(t, code))
            let near = pairs.allSatisfy { r, c in
                r == c || lookAlikes[r]?.contains(c) == true || lookAlikes[c]?.contains(r) == true || (thin.contains(r) && thin.contains(c))
            }
            let oneAsPrinted = pairs.contains { $0 == $1 }
            if near && oneAsPrinted { return code }
            // (Three readings agree where the letters do not: the one printed, the city's
            // state and the ZIP's.)
            guard oneAsPrinted, let city, let verdict = USPlaces.verdict(city, state: code, zip: zipCode),
                  case .listed = verdict.place, verdict.zipAgrees == true else { return nil }
            return code
        }
        // One letter of the code, the other a thin stroke lost ("W" beside 53703 for WI).
        if t.count == 1, let letter = t.first, letter.isLetter, code.contains(letter),
           code.allSatisfy({ $0 == letter || thin.contains($0) }) {
            return code
        }
        // (Thin strokes as one: "||/INOIS" and "ILLINOIS" are both "IIIINOIS".)
        let strokes: Set<Character> = ["I", "L", "1", "!", "|", "/"]
        func canonical(_ s: String) -> String { String(s.uppercased().compactMap { strokes.contains($0) ? "I" : $0.isLetter ? $0 : nil }) }
        let letters = canonical(read)
        guard letters.count >= 4, let name = states.first(where: { $0.value == code })?.key else { return nil }
        let bare = canonical(name)
        let limit = bare.count >= 8 ? 2 : 1
        return PageLayout.editDistance(letters, bare, limit: limit) <= limit ? code : nil
    }

    /// A company's name with a misread "Privacy Team" or "Privacy" after it ("FastPeopleSearch
    /// Pnvacy", "Epsilon Data Privacy Jeam"): without it. Nil when its last words are none such.
    static func companyTailMended(_ company: String) -> String? {
        var words = company.split(separator: " ").map(String.init)
        let before = words.count
        if words.count >= 2, let last = words.last, PageLayout.editDistance(last.lowercased(), "team", limit: 1) <= 1 { words.removeLast() }
        if words.count >= 2, let last = words.last, PageLayout.editDistance(last.lowercased(), "privacy", limit: 2) <= 2 { words.removeLast() }
        return words.count < before ? words.joined(separator: " ") : nil
    }

    /// A street's word with an l or an i read as a mark (`!`, `|`, `]`): an l at the word's end
    /// or before a single l ("Mil!" → "Mill", "Ho!ly" → "Holly"), else an i ("H!ll" → "Hill",
    /// "Ma!n" → "Main"); its house number with a slash for a 7. Nil when nothing changes. A
    /// guess: the field goes to review (`labelled` marks every mended value).
    static func streetMended(_ text: String) -> String? {
        // A house number's 7 read as a slash ("9/16 Washington Way", "3//0 Elm Way"; a fax lost the
        // bar): a house number holds none, but for a half after it ("12 1/2 Main Street").
        let original = text
        // A unit's C read as a cent sign, or read twice, once as one ("Unit 1¢C"): no address
        // holds one.
        var text = text.replacingOccurrences(of: #"¢(?=C)|(?<=C)¢"#, with: "", options: .regularExpression)
            .replacingOccurrences(of: "¢", with: "C")
        // (And its 2 read as "?", its 1 as "!": "356? Harbor Drive".)
        if let r = text.range(of: #"^\s*[0-9/?!]{3,6}(?=\s)"#, options: .regularExpression), text[r].contains(where: { "/?!".contains($0) }),
           text[r].filter(\.isNumber).count >= 2, text[r].range(of: #"^\s*[0-9]/[0-9]$"#, options: .regularExpression) == nil {
            text.replaceSubrange(r, with: numberMended(String(text[r])) ?? String(text[r]))
        }
        guard text.range(of: markInWord, options: .regularExpression) != nil else { return text == original ? nil : text }
        let chars = Array(text)
        let mended = String(chars.indices.map { i -> Character in
            let before = i > 0 && chars[i - 1].isLetter, after = i + 1 < chars.count && chars[i + 1].isLetter
            guard chars[i] == "!" ? before || after : "|]".contains(chars[i]) && before && after else { return chars[i] }
            let next = i + 1 < chars.count ? chars[i + 1] : " ", afterNext = i + 2 < chars.count ? chars[i + 2] : " "
            if !next.isLetter { return "l" }
            return next == "l" && afterNext != "l" ? "l" : "i"
        })
        return mended
    }

    /// A one-line address whose shape says what a fax misread: its ZIP's 7 read as a slash (the
    /// bar lost: "Albany, NY 1220/", "LA /0801", "TX 78/01") or a 0 or 1 as a letter of its shape,
    /// its state code's letters as look-alikes of the one code its ZIP belongs to ("1A 50309",
    /// "LX 78701", "[X 78701"), its house number's digits as letters of their shape ("SO86",
    /// "68/5"). Nil when nothing changes or it is still no address. A guess: for review.
    static func addressMended(_ text: String) -> String? {
        var tokens = text.split(separator: " ").map(String.init)
        guard tokens.count >= 4 else { return nil }
        // The ZIP, last: a ZIP is never a date, so any slash in it is a 7.
        let zipRead = tokens[tokens.count - 1].trimmingCharacters(in: CharacterSet(charactersIn: ".,;"))
        let zipCode = (digitsMended(zipRead) ?? zipRead).replacingOccurrences(of: "/", with: "7")
        guard zipCode.range(of: #"^[0-9]{5}$"#, options: .regularExpression) != nil else { return nil }
        tokens[tokens.count - 1] = zipCode
        // The state code before it, when it is none.
        let stateIndex = tokens.count - 2
        let stateRead = tokens[stateIndex].trimmingCharacters(in: CharacterSet(charactersIn: ",."))
        if !(stateRead.count == 2 && states.values.contains(stateRead)), stateRead.count <= 3 {
            guard let code = stateNearZip(stateRead, zipCode) else { return nil }
            tokens[stateIndex] = code
        }
        // The house number, first: digits and letters of their shape, at least one digit read,
        // ending in a digit (a letter after the number is its own: "12B").
        let number = tokens[0]
        let shapes: [Character: Character] = ["S": "5", "s": "5", "O": "0", "o": "0", "Q": "0", "D": "0", "I": "1", "l": "1", "|": "1",
                                              "B": "8", "Z": "2", "/": "7", "?": "2", "!": "1"]
        if number.contains(where: \.isNumber), number.count >= 2, number.last?.isNumber == true, number.contains(where: { !$0.isNumber }),
           number.allSatisfy({ $0.isNumber || shapes[$0] != nil }) {
            tokens[0] = String(number.map { shapes[$0] ?? $0 })
        }
        let mended = tokens.joined(separator: " ")
        return mended != text && splitAddress(mended) != nil ? mended : nil
    }

    /// A company's name read apart inside a word: a word of small letters after another is its
    /// end ("CheckPeop le"; not "of", "and", "the", "for"), as is one of small letters then a
    /// capitalised part ("Peop leLooker"), and a full stop between small letters is
    /// a capital misread ("Peoplel.ooker" for "PeopleLooker"; not a web address's "Spokeo.com").
    /// Nil when nothing changes. The letters are the name's; where the word broke is a guess.
    static func companyWordsMended(_ company: String) -> String? {
        let joined = company.replacingOccurrences(of: #"(?<=\p{L}) (?!(?:of|and|the|for|de|du|la|com|net|org)\b)(?=\p{Ll}+(?:\p{Lu}\p{Ll}+)?\b)"#, with: "",
                                                  options: .regularExpression)
            .replacingOccurrences(of: #"(?<=\p{Ll})\.(?=\p{Ll})(?!(?:com|net|org|info|io|co|us)\b)"#, with: "", options: .regularExpression)
        return joined == company ? nil : joined
    }

    /// A state's name with one letter lost or misread ("| ouisiana": a fax drops the L's foot;
    /// "Cregon"): the one state within one edit of the letters read, names of six letters or
    /// more only (shorter ones are one letter from each other: Iowa, Ohio, Utah). Nil when none
    /// or several are that close.
    static func stateNameMended(_ text: String) -> String? {
        let letters = text.uppercased().split(whereSeparator: { !$0.isLetter }).joined(separator: " ")
        guard letters.count >= 5 else { return nil }
        return onlyOneEditFrom(letters, among: Array(states.keys), minLength: 6).flatMap { states[$0] }
    }

    /// The one of `candidates` of `minLength` characters or more that is one edit from `word`
    /// (compared as given); nil when none or several are.
    static func onlyOneEditFrom(_ word: String, among candidates: [String], minLength: Int) -> String? {
        let close = candidates.filter { $0.count >= minLength && PageLayout.editDistance(word, $0, limit: 1) <= 1 }
        return close.count == 1 ? close[0] : nil
    }

    /// Street types, in full: a street line ends in one (before its unit).
    static let streetTypes = ["Street", "Avenue", "Drive", "Lane", "Road", "Place", "Court", "Terrace", "Boulevard",
                              "Circle", "Parkway", "Trail", "Highway", "Square", "Crescent", "Way"]

    /// Whether a street line's last word before its unit is a street type, in full or short
    /// ("Street", "St."), or a direction or number after one ("Main Street NW", "Route 9").
    static func streetTyped(_ street: String) -> Bool {
        var words = street.split(separator: " ").map { $0.trimmingCharacters(in: CharacterSet(charactersIn: ".,")) }
        if let unit = words.firstIndex(where: { w in unitWords.contains { $0.caseInsensitiveCompare(w) == .orderedSame } || w.hasPrefix("#") }) {
            words = Array(words[..<unit])
        }
        while let last = words.last, words.count > 2, ["N", "S", "E", "W", "NE", "NW", "SE", "SW"].contains(last) { words.removeLast() }
        guard let last = words.last else { return false }
        if words.count <= 1 || streetTypes.contains(last) || last.allSatisfy(\.isNumber) { return true }
        return streetAbbreviations.contains(last.lowercased())
    }

    /// The words that open a street line's unit ("Apt 7", "Suite 200").
    static let unitWords = ["Apt", "Apartment", "Unit", "Suite", "Ste", "Floor", "Fl", "Room", "Rm"]

    static let streetAbbreviations: Set<String> = ["st", "ave", "av", "dr", "ln", "rd", "pl", "ct", "ter", "blvd", "cir", "pkwy", "trl",
                                                   "hwy", "sq", "cres", "alley", "aly", "row", "loop", "path", "pike", "walk", "run",
                                                   "pass", "point", "pt", "cove", "bend", "ridge", "hill", "green", "close", "mews"]

    /// A street line whose type lost a stroke ("1113 Oak lerrace": a fax drops the T's bar): the
    /// last word before the unit, when it is no street type and one edit from exactly one of
    /// five letters or more, becomes that type. Nil when nothing changes. A guess: for review.
    static func streetTypeMended(_ street: String) -> String? {
        let head = street.prefix { $0 != "," }
        guard let r = head.range(of: #"[^\s,]+$"#, options: .regularExpression) else { return nil }
        let word = String(head[r])
        guard word.count >= 4, word.allSatisfy(\.isLetter), !streetTypes.contains(word),
              head.split(separator: " ").count >= 3 else { return nil }
        let lower = streetTypes.map { $0.lowercased() }
        guard let i = onlyOneEditFrom(word.lowercased(), among: lower, minLength: 5).flatMap(lower.firstIndex(of:)) else { return nil }
        return String(head[..<r.lowerBound]) + streetTypes[i] + String(street[head.endIndex...])
    }

    /// `text` with each space-separated token mapped; nil when nothing changes.
    private static func tokensMapped(_ text: String, _ map: (Substring) -> String) -> String? {
        let mapped = text.split(separator: " ", omittingEmptySubsequences: false).map(map).joined(separator: " ")
        return mapped == text ? nil : mapped
    }

    static func field(_ value: FieldValue, _ words: [Word]) -> Field {
        let box = words.dropFirst().reduce(words.first?.box) { $0?.union($1.box) }
        let confidence = words.isEmpty ? 0 : words.reduce(0) { $0 + $1.confidence } / Double(words.count)
        return Field(value: value, confidence: (confidence * 10).rounded() / 10, box: box, needsReview: confidence < reviewConfidence)
    }

    /// The one dollar amount of a deed whose words around it were misread ("for and in cons dera i
    /// Ea $1,629,500.00"): a deed's price is the amount it states; with two or more (a fee, a
    /// tax) none is taken. For review: nothing but its being alone says what it is.
    static func onlyAmount(_ lines: [TextLine]) -> Field? {
        let found = findAll(lines, "(" + mixedAmount + #"|\$\s?[0-9][0-9,]*(?:[. ][0-9]{2}\b)?)"# + wholeAmount, transform: amount)
        guard var f = found.first, found.allSatisfy({ $0.value == f.value }) else { return nil }
        f.needsReview = true
        return f
    }

    /// An amount is taken only whole: "$2.258,000.00" (a comma read as a full stop) once gave
    /// $2.25, sure of itself (it is now read whole, ``mixedAmount``). No digit may follow, nor a
    /// mark and a digit, nor digits read apart with a space ("$1 ,533,000.00", "$1, 399,000.00",
    /// "$2 409,000.00"); cents whose point was lost ("$1,224,500 00") are part of the amount.
    static let wholeAmount = #"(?![.,]?\s?[.,]?[0-9])"#

    /// An amount of three-digit groups and cents, its marks read as full stops or commas, one a
    /// full stop at least ("$2.258,000.00", "$1.040,000,00"): one reading (see `amount`). Commas
    /// alone are not: "$1,365,00" is "$1,365,000.00" cut short by the page's edge.
    static let mixedAmount = #"\$\s?(?=[0-9,]*\.)[0-9]{1,3}(?:[.,][0-9]{3})+[.,][0-9]{2}"#

    /// "X, Grantor" on a line of its own is a signature line: one of the parties, maybe not all.
    static func signature(_ f: Field?) -> Field? { forReview(f) }

    /// `f` marked for review.
    static func forReview(_ f: Field?) -> Field? {
        guard var f else { return nil }
        f.needsReview = true
        return f
    }

    /// A field whose label was found with a value that failed its check, then filled from
    /// elsewhere on the page (a signature line, a sender block): the two disagree, so review it.
    static func doubtful(_ fields: [String: Field], labelled: [String: Field], page: LabelledPage) -> [String: Field] {
        var f = fields
        for name in page.rejected where labelled[name] == nil && f[name] != nil { f[name]?.needsReview = true }
        return f
    }

    /// Words printed in capitals inside a name in small letters: numerals, suffixes, a company's form.
    static let capitalsInNames: Set<String> = ["II", "III", "IV", "JR", "SR", "LLC", "LLP", "LP", "INC", "LTD", "PLC", "CO", "NA", "USA", "DBA", "TR", "FBO"]

    /// `city` as the one place a letter or two off it that `place` (its check against its
    /// state's places, ``USPlaces``) names, in capitals when it was read in capitals, or as read
    /// when no place is that near; nil when it is on the list.
    static func placeChecked(_ city: String, _ place: USCounties.Check) -> String? {
        switch place {
        case .listed: return nil
        case .near(let name): return city.contains(where: \.isLowercase) ? name : name.uppercased()
        case .unlisted: return city
        }
    }

    /// Cross-field checks: a ZIP outside its state's ranges puts both up for review; so does a
    /// city on no list of its state's places (``placeChecked(_:_:)``), or beside a ZIP none
    /// of its own; so do a name and an address that spell it one letter apart (``crossChecked(_:)``).
    static func review(_ fields: [String: Field]) -> [String: Field] {
        var f = fields
        /// Every name whose value `pattern` (given the field) matches, the matches replaced by
        /// `template`: mended, for review.
        func namesMended(with template: String, _ pattern: (String) -> String) {
            for name in nameFields {
                guard let v = f[name]?.value.string,
                      case let mended = v.replacingOccurrences(of: pattern(name), with: template, options: .regularExpression), mended != v
                else { continue }
                f[name]?.value = .text(mended)
                f[name]?.needsReview = true
            }
        }
        if let z = f["zip"]?.value.string, let s = f["state"]?.value.string, !zip(z, agreesWith: s) {
            if let code = stateForZip(s, z) { f["state"]?.value = .text(code) }
            f["zip"]?.needsReview = true
            f["state"]?.needsReview = true
        }
        if let a = f["property_address"]?.value.string, let parts = splitAddress(a), !zip(parts.zip, agreesWith: parts.state) {
            // The deed's state is the address's: mended with it, and for review with it.
            let sameState = f["state"]?.value.string == parts.state
            if let code = stateForZip(parts.state, parts.zip),
               let r = a.range(of: #"\b\#(parts.state)(?=\s+\#(parts.zip))"#, options: .regularExpression) {
                f["property_address"]?.value = .text(a.replacingCharacters(in: r, with: code))
                if sameState { f["state"]?.value = .text(code) }
            }
            f["property_address"]?.needsReview = true
            if sameState { f["state"]?.needsReview = true }
        }
        // A reference's number with one letter among its digits, a look-alike of one ("PR-G25035"):
        // the digit, for review. (Its letters are the prefix's; a code mixing them has two or more.)
        if let id = f["request_id"]?.value.string, case let parts = id.split(separator: "-", maxSplits: 1), parts.count == 2,
           parts[0].allSatisfy(\.isLetter), case let number = Array(parts[1]), number.count >= 5,
           number.filter(\.isLetter).count == 1, let i = number.firstIndex(where: \.isLetter),
           let digit = capitalDigitLookAlikes[String(number[i]).uppercased()] {
            f["request_id"]?.value = .text(parts[0] + "-" + String(number[..<i]) + digit + String(number[(i + 1)...]))
            f["request_id"]?.needsReview = true
        }
        // A street line ends in its type (before its unit): one without ("3379 Hillcrest") lost
        // its last word, or is one of the few named alone ("Broadway"). Not sure either way.
        if let st = f["street_address"]?.value.string, !streetTyped(st) { f["street_address"]?.needsReview = true }
        // A city on no list of its state's places is a misreading: taken for the one place a
        // letter or two off it, if any, for review ("Balon Rouge", "Sookane"). So is an address's.
        // A city whose ZIP starts as none of its ZIP codes do (Columbus, OH with 43715 for 43215):
        // one of the two is misread, which the page does not say. For review.
        if let c = f["city"]?.value.string, let verdict = USPlaces.verdict(c, state: f["state"]?.value.string, zip: f["zip"]?.value.string) {
            if let checked = placeChecked(c, verdict.place) {
                f["city"]?.value = .text(checked)
                f["city"]?.needsReview = true
            }
            if verdict.zipAgrees == false {
                f["city"]?.needsReview = true
                f["zip"]?.needsReview = true
            }
        }
        if let a = f["property_address"]?.value.string, let parts = splitAddress(a),
           let verdict = USPlaces.verdict(parts.city, state: parts.state, zip: parts.zip) {
            if let checked = placeChecked(parts.city, verdict.place) {
                if checked != parts.city, let r = a.range(of: parts.city, options: .backwards) {
                    f["property_address"]?.value = .text(a.replacingCharacters(in: r, with: checked))
                }
                f["property_address"]?.needsReview = true
            }
            if verdict.zipAgrees == false { f["property_address"]?.needsReview = true }
        }
        // A company's "Privacy Team" misread ("Pnvacy", "Jeam") is no part of its name.
        if let b = f["data_broker"]?.value.string, let mended = companyTailMended(b) {
            f["data_broker"]?.value = .text(mended)
            f["data_broker"]?.needsReview = true
        }
        if let b = f["data_broker"]?.value.string, let mended = companyWordsMended(b) {
            f["data_broker"]?.value = .text(mended)
            f["data_broker"]?.needsReview = true
        }
        // A word of a name ends in no apostrophe ("Fatima Zahra’ El Amrani": a speck or a comma
        // misread); one starts a particle ('t) or follows O.
        for name in nameFields {
            guard let v = f[name]?.value.string, v.range(of: #"\p{L}{2}['’](?=\s|$)"#, options: .regularExpression) != nil else { continue }
            f[name]?.value = .text(v.replacingOccurrences(of: #"(?<=\p{L}{2})['’](?=\s|$)"#, with: "", options: .regularExpression))
            f[name]?.needsReview = true
        }
        // A card prints its names without a comma: one inside ("FL, AMRANI" for EL AMRANI) is a
        // speck, and the letters beside it are suspect. Not sure.
        for name in ["surname", "given_names"] where f[name]?.value.string?.contains(",") == true { f[name]?.needsReview = true }
        // The Dutch particle 't with its apostrophe lost ("BRAM VAN T HOF"): a lone T after "van"
        // and before a name's word is no initial (one would have its full stop). Put back, not sure.
        for name in nameFields {
            guard let v = f[name]?.value.string,
                  let r = v.range(of: #"(?<![\p{L}'’])([Vv][Aa][Nn]) [Tt] (?=\p{Lu})"#, options: .regularExpression) else { continue }
            let upper = v[r].hasPrefix("VAN")
            f[name]?.value = .text(v.replacingCharacters(in: r, with: v[r].prefix(3) + (upper ? " 'T " : " 't ")))
            f[name]?.needsReview = true
        }
        // A name's word that starts with Q before a consonant ("QKONKWO-EZE") is most often an O
        // read with a speck under it: kept as read, not sure.
        for name in nameFields where f[name]?.value.string?.range(of: #"(?<![\p{L}'’])[Qq][b-df-hj-np-tv-zB-DF-HJ-NP-TV-Z]"#, options: .regularExpression) != nil {
            f[name]?.needsReview = true
        }
        // A whole name ends in no particle ("Marie-Ève Océane de La", its "Fontaine" wrapped onto a
        // line the reading lost): cut short, not sure. (A one-letter surname that is also a
        // particle, "Min-jun O", goes to review too.)
        for name in ["full_name", "grantor", "grantee"] {
            guard let words = f[name]?.value.string?.split(separator: " "), words.count > 1, let last = words.last?.lowercased() else { continue }
            if particles.contains(last), !["and", "&"].contains(last) { f[name]?.needsReview = true }
        }
        // An O before an apostrophe read as a Q ("Aoife Q'Sullivan", "Q'BRIEN-O SUILLEABHAIN"):
        // no name opens so. Mended, for review.
        namesMended(with: "O") { _ in #"(?<![\p{L}'’])Q(?=['’]\p{L})"# }
        // An Œ read as "CE" ("Anne Marie CEuvray"): no name's word opens with those two capitals
        // before small letters. Mended, for review.
        namesMended(with: "Œ") { _ in #"(?<![\p{L}'’])CE(?=\p{Ll}{2})"# }
        // A short word in capitals among a name's words in small letters ("Ayşe GUI Çelik", an l
        // read as a capital I and the ü without its dots): small letters read as capitals, or a
        // word set apart; not sure. (A surname in capitals, "Jean DUPONT", is longer.)
        for name in ["full_name", "grantor", "grantee"] {
            guard let words = f[name]?.value.string?.split(separator: " ").map(String.init),
                  words.contains(where: { w in w.first?.isUppercase == true && w.dropFirst().contains(where: \.isLowercase) }),
                  words.contains(where: { w in (2...4).contains(w.count) && w.allSatisfy(\.isUppercase) && !Self.capitalsInNames.contains(w) })
            else { continue }
            f[name]?.needsReview = true
        }
        // A speck read as a full stop after a word of a card's name ("BABAJIDE. OLUWATOBILOBA"):
        // a name in capitals has none but after an initial. Nor has a whole word of a name in
        // small letters ("Ibrahim. Yilmaz"; abbreviations, "Wm.", "Chas.", are shorter). Dropped,
        // not sure.
        namesMended(with: "") { ["surname", "given_names"].contains($0) ? #"(?<=\p{Lu}{2})\.(?= \p{Lu})"# : #"(?<=\p{Ll}{4})\.(?= \p{Lu})"# }
        // Nor after a word of a capital and three small letters ("Abdul Aziz. Al-Hashimi") but
        // the old abbreviations of given names ("Chas. Dickens", "Thos.", "Robt.", "Saml.", "Benj.").
        namesMended(with: "") { ["surname", "given_names"].contains($0) ? #"(?!)"# : #"(?<=(?<![\p{L}'’])\p{Lu}\p{Ll}{3})(?<!Chas|Thos|Robt|Saml|Benj)\.(?= \p{Lu})"# }
        // A speck read as a full stop in the space between two words of a name in small letters
        // ("Abu Bakr.Al Siddiq"): the space, not sure. (Initials, "J.R.", are capitals.)
        namesMended(with: " ") { ["surname", "given_names"].contains($0) ? #"(?!)"# : #"(?<=\p{Ll}{2})\.(?=\p{Lu}\p{Ll})"# }
        // One read for the space between two words of a card's name ("ABU.BAKR AL SIDDIQ"): the
        // space, not sure. (A card's names only: `(?!)` matches nothing.)
        namesMended(with: " ") { ["surname", "given_names"].contains($0) ? #"(?<=\p{Lu}{2})\.(?=\p{Lu}{2})"# : #"(?!)"# }
        // A mailbox's host ending in a top level reserved for examples after a label of its own
        // ("inbox.example", RFC 2606): its real top level (".net") lost under a signature's stroke
        // or past the cell's edge. No address in use ends so: not sure.
        if let e = f["email"]?.value.string,
           e.range(of: #"@[^@]+\.(?:example|test|invalid|localhost)$"#, options: [.regularExpression, .caseInsensitive]) != nil {
            f["email"]?.needsReview = true
        }
        // A card's name with a lone letter before another word ("S JOERD", "B AR") is a name
        // read apart, or an initial a card does not print: either way, not sure.
        for name in ["surname", "given_names"] {
            let words = f[name]?.value.string?.split(separator: " ") ?? []
            if words.dropLast().contains(where: { $0.count == 1 }) { f[name]?.needsReview = true }
        }
        // An apostrophe inside a place's name follows one letter (O'Fallon, Coeur d'Alene);
        // after two or more ("Sa't Lake City") it is an l or a speck misread.
        if let c = f["city"]?.value.string, c.range(of: #"\p{L}{2}['’]"#, options: .regularExpression) != nil {
            f["city"]?.needsReview = true
        }
        for name in ["street_address", "property_address"] {
            // An address prints commas, not semicolons ("2275 Riverside Lane; Apt 7"): a comma
            // misread, for review.
            if let a = f[name]?.value.string, a.contains(";") {
                f[name]?.value = .text(a.replacingOccurrences(of: #"\s*;\s*"#, with: ", ", options: .regularExpression))
                f[name]?.needsReview = true
            }
            // So is a full stop after a street type spelled out, before the unit ("Mill Creek
            // Avenue. Apt 37"; not after an abbreviation, "Main St. Apt 4").
            if let a = f[name]?.value.string,
               case let mended = a.replacingOccurrences(of: #"\b(\#(streetTypes.joined(separator: "|")))\.\s+(?=(?:\#(unitWords.joined(separator: "|")))\b|#)"#,
                                                        with: "$1, ", options: .regularExpression), mended != a {
                f[name]?.value = .text(mended)
                f[name]?.needsReview = true
            }
            // A unit's word a letter off before its number ("…, Unil 9A": a fax lost the t's bar).
            if let a = f[name]?.value.string, let r = a.range(of: #"(?<=, )[A-Z][a-z]{3,4}(?= #?[0-9][0-9A-Z]{0,4}\b)"#, options: .regularExpression),
               case let word = String(a[r]), !["Unit", "Suite"].contains(word),
               let unit = onlyOneEditFrom(word, among: ["Unit", "Suite"], minLength: 4) {
                f[name]?.value = .text(a.replacingCharacters(in: r, with: unit))
                f[name]?.needsReview = true
            }
            if let a = f[name]?.value.string, let mended = streetTypeMended(a) {
                f[name]?.value = .text(mended)
                f[name]?.needsReview = true
            } else if let a = f[name]?.value.string, let last = a.prefix(while: { $0 != "," }).split(separator: " ").last,
                      last.count >= 3, last.allSatisfy(\.isLetter), !streetTypes.contains(String(last)),
                      streetTypes.contains(where: { $0.count <= 4 && PageLayout.editDistance(last.lowercased(), $0.lowercased(), limit: 1) == 1 }) {
                // A short type a letter off ("333 Birch Roae"): which one is not sure.
                f[name]?.needsReview = true
            }
            // Street words are capitalised: one in small letters ("984 Oak tane") is a capital misread.
            // So is a unit's word after the comma ("…, unit 58" for "Unit 5B").
            if let a = f[name]?.value.string, a.prefix(while: { $0 != "," }).split(separator: " ").dropFirst()
                .contains(where: { $0.first?.isLowercase == true && !["of", "de", "la", "del", "the", "st", "rd"].contains($0) })
                || a.range(of: #",\s*(?:unit|apt|suite|ste|floor)\b"#, options: .regularExpression) != nil {
                f[name]?.needsReview = true
            }
        }
        // A reference's letter prefix with a digit among its capitals ("OP1-946791") is a letter
        // read as its look-alike; which letter is not known (1 is I, L or T), so it stays as read.
        // So is one whose number is a digit or two ("CASE-9": the rest lost), and one whose prefix
        // opens with a Q before a consonant ("QPT-592322": an O with a speck under it).
        if let r = f["request_id"]?.value.string,
           r.range(of: #"^(?=[A-Z0-9]{2,5}-)(?:[A-Z]+[0125689][A-Z]*|[0125689][A-Z]{2,})-|^[A-Z]{2,6}-[0-9]{1,2}$|^Q[B-DF-HJ-NP-TV-Z][A-Z]*-"#, options: .regularExpression) != nil {
            f["request_id"]?.needsReview = true
        }
        // A reference ends in no hyphen ("CASE-479771-": a speck or the cell's rule read after
        // it): cut, for review.
        if var r = f["request_id"]?.value.string, r.hasSuffix("-") {
            while r.hasSuffix("-") { r.removeLast() }
            if r.contains("-") {
                f["request_id"]?.value = .text(r)
                f["request_id"]?.needsReview = true
            }
        }
        // A prefix of capitals misread in a reference already for review ("CASL-983744",
        // "REO-791671"): the one prefix in common use it is nearest as OCR misreads (a look-alike
        // half an edit, see ``lookAlikeCost(_:_:)``), within one edit; still for review. (One
        // with a digit, "OP1-", stays as read: which letter the digit is, is not known.)
        if f["request_id"]?.needsReview == true, let r = f["request_id"]?.value.string, let dash = r.firstIndex(of: "-"),
           case let prefix = String(r[..<dash]), prefix.allSatisfy(\.isLetter), !Self.referencePrefixes.contains(prefix), prefix.count >= 2,
           case let costs = Self.referencePrefixes.map({ (p: $0, cost: Self.lookAlikeCost(prefix, $0)) }),
           let best = costs.min(by: { $0.cost < $1.cost }), best.cost <= 1, costs.count(where: { $0.cost == best.cost }) == 1 {
            f["request_id"]?.value = .text(best.p + r[dash...])
        }
        // A listing's record number of a digit or two ("…/jean-francois-du-pont/4"): the rest lost.
        if let u = f["listing_url"]?.value.string, u.range(of: #"/[0-9]{1,2}/?$"#, options: .regularExpression) != nil {
            f["listing_url"]?.needsReview = true
        }
        // One ending at its first path word ("…spokeo.com/listing"): the listing's name and number lost.
        if let u = f["listing_url"]?.value.string, let last = u.split(separator: "/").last.map({ String($0).lowercased() }),
           Self.listingPathWords.contains(last) || last == "p" {
            f["listing_url"]?.needsReview = true
        }
        // A request date equal to the birth date is the birth date's words taken twice (a garbled
        // "Date" label, "BIRTH DATE" near it): the same words are not the request date; other
        // words with the same date are possible but odd.
        if let d = f["date"], let b = f["date_of_birth"], d.value == b.value {
            if d.box == b.box { f["date"] = nil } else { f["date"]?.needsReview = true }
        }
        // An e-mail or web address has no check digit, and one misread letter makes another
        // working-looking address: what OCR typically makes of them (`.con`, `.cxamplenet`,
        // `netChee`, `chiamakaS54`) goes to review.
        // A host whose dots were lost ("inbox.examplenet") gets them back, still for review.
        if let e = f["email"]?.value.string, !plausibleEmail(e) {
            if let mended = hostMended(e), plausibleEmail(mended) { f["email"]?.value = .text(mended) }
            f["email"]?.needsReview = true
        }
        if let e = f["email"]?.value.string, let mended = mailDomainMended(e) {
            f["email"]?.value = .text(mended)
            f["email"]?.needsReview = true
        }
        if let u = f["listing_url"]?.value.string, !plausibleURL(u) {
            if let mended = hostMended(u), plausibleURL(mended) { f["listing_url"]?.value = .text(mended) }
            f["listing_url"]?.needsReview = true
        }
        if let u = f["listing_url"]?.value.string, let mended = urlGlyphsMended(u) {
            f["listing_url"]?.value = .text(mended)
            f["listing_url"]?.needsReview = true
        }
        // A nationality is a code from the ICAO list; three letters outside it are a misreading
        // (`JRL` for IRL), taken for the one code a look-alike gives, if any, for review.
        if let n = f["nationality"]?.value.string, !CountryCodes.all.contains(n) {
            if let code = nationalityMended(n) { f["nationality"]?.value = .text(code) }
            f["nationality"]?.needsReview = true
        }
        // A county on no list of the state's counties is a misreading: taken for the one county a
        // letter or two off it, if any, for review ("Sedqwick" for Sedgwick, "Cast Baton Rouge").
        if let c = f["county"]?.value.string {
            switch USCounties.check(c, state: f["state"]?.value.string) {
            case .listed: break
            case .near(let name):
                f["county"]?.value = .text(name)
                f["county"]?.needsReview = true
            case .unlisted: f["county"]?.needsReview = true
            }
        }
        return crossChecked(f)
    }

    /// Legal description: the labelled line and its continuation up to the sentence's end.
    static func legalDescription(_ lines: [TextLine]) -> Field? {
        for (i, line) in lines.enumerated() {
            guard let r = line.text.range(of: #"Legal(?:ly)?\s+descri(?:ption|bed as)\s*[:;]?\s*"#, options: [.regularExpression, .caseInsensitive]) else { continue }
            var text = String(line.text[r.upperBound...])
            var words = line.words(in: line.text.distance(from: line.text.startIndex, to: r.upperBound)..<line.text.count)
            var j = i + 1
            while !text.hasSuffix("."), j < lines.count, j <= i + 3 {
                text += " " + lines[j].text
                words += lines[j].words
                j += 1
            }
            text = text.trimmingCharacters(in: CharacterSet(charactersIn: ". "))
            return text.isEmpty ? nil : field(.text(text), words)
        }
        return nil
    }
}

/// A page with its labels found: pairs each label with its value by geometry.
struct LabelledPage {
    let layout: PageLayout
    let kind: DocumentKind
    /// Labels per row, per segment.
    let hits: [[[LabelHit]]]
    /// A form whose labels go without colons (see ``colonlessForm(_:layout:)``): a label that opens its
    /// cell vouches for the free text beside it, as a colon would.
    let colonless: Bool

    init(lines: [TextLine], kind: DocumentKind) {
        let page = PageLayout(lines: lines)
        layout = page
        self.kind = kind
        // Synonyms split into words once per page, not once per word tried; a label of several
        // words also as read run together ("Your fullname", "DATEOFBIRTH").
        let vocabulary = (kind == .unknown ? Vocabulary.deed + Vocabulary.optout + Vocabulary.id : Vocabulary.forKind(kind))
            .map { (field: $0.field, keys: $0.keys.flatMap { k -> [[String]] in
                let parts = k.split(separator: " ").map(String.init)
                return parts.count > 1 && PageLayout.gluedLabels.contains(parts.joined()) ? [parts, [parts.joined()]] : [parts]
            }) }
        func found(colonless: Bool) -> [[[LabelHit]]] {
            page.rows.indices.map { r in
                page.rows[r].segments.indices.map { s in
                    page.labels(row: r, segment: s, vocabulary: vocabulary, lenient: kind != .unknown, card: kind == .id, colonless: colonless)
                }
            }
        }
        let first = found(colonless: false)
        colonless = kind != .id && kind != .unknown && Self.colonlessForm(first, layout: page)
        hits = colonless ? found(colonless: true) : first
    }

    /// Whether the page is a form of `Label  value` rows with no colons ("Home Address  9799
    /// Birch Terrace", the labels in bold): three or more rows open with a label of a different
    /// field, read exactly, without a colon and with words after it, and such labels outnumber
    /// those with one. A letter or a deed's narrative opens a row with a label word now and then,
    /// not three fields' worth; a form with colons keeps needing them.
    static func colonlessForm(_ hits: [[[LabelHit]]], layout: PageLayout) -> Bool {
        var fields: [String] = []
        for (r, row) in hits.enumerated() {
            guard let hit = row.first?.first, hit.segment == 0, hit.start == 0, hit.exact, !hit.colon, let field = hit.field,
                  hit.end < layout.rows[r].segments[0].words.count else { continue }
            fields.append(field)
        }
        let withColon = hits.joined().joined().filter { $0.colon && $0.field != nil }.count
        return Set(fields).count >= 3 && fields.count > withColon
    }

    /// The value of a label and whether it came from beside the label (true) or from the next cell or below.
    func value(of hit: LabelHit) -> (words: [Word], inline: Bool)? { values(of: hit).first }

    /// Where a label's value may be, most likely first: beside it; else the next cell on its row
    /// (unless that is a label itself), then the words below it in its column. Both of the last
    /// two are given: on a card whose label row holds another label read too poorly to be known
    /// ("Date of binn"), the next cell is that label and the value is below.
    func values(of hit: LabelHit) -> [(words: [Word], inline: Bool)] {
        // A label's hint in brackets wrapped under it ("DOB" over "(MM/DD/YYYY)", its cell too
        // narrow) is no value: the value is the cell after the hint on its row.
        valueCandidates(of: hit).map { found in
            // (Read with the value after it in one phrase: "(MM/DD/YYYY) 08/07/1987".)
            if let close = found.words.prefix(3).firstIndex(where: { $0.text.hasSuffix(")") }), close + 1 < found.words.count,
               found.words.first?.text.hasPrefix("(") == true, !found.words[...close].contains(where: { $0.text.contains(where: \.isNumber) }) {
                return (Array(found.words[(close + 1)...]), found.inline)
            }
            guard let first = found.words.first, let last = found.words.last, first.text.hasPrefix("("), last.text.hasSuffix(")"),
                  !found.words.contains(where: { $0.text.contains(where: \.isNumber) }), found.words.count <= 3,
                  let r = layout.rows.firstIndex(where: { $0.segments.contains { $0.words.last == last } }),
                  let s = layout.rows[r].segments.firstIndex(where: { $0.words.last == last }),
                  s + 1 < layout.rows[r].segments.count, hits[r][s + 1].first?.start != 0 else { return found }
            return (layout.rows[r].segments[s + 1].words, false)
        }
    }

    func valueCandidates(of hit: LabelHit) -> [(words: [Word], inline: Bool)] {
        let segHits = hits[hit.row][hit.segment]
        let words = layout.rows[hit.row].segments[hit.segment].words
        var next = segHits.first { $0.start > hit.start }?.start ?? words.count
        // The value's last word read as its own field's label again, with no value of its own
        // ("Street Address | 3379 Hillcrest Street | City"): part of the value.
        if let again = segHits.first(where: { $0.start > hit.start }), again.field == hit.field, again.start > hit.end,
           again.end - again.start <= 2, case let after = segHits.first(where: { $0.start > again.start })?.start ?? words.count,
           after == again.end {
            next = after
        }
        var found: [(words: [Word], inline: Bool)] = []
        if hit.end < next {
            found.append((Array(words[hit.end..<next]), true))
            // Only a label at the end of its phrase may have its value elsewhere; what follows
            // it may be speckle read as letters (a photocopied form's "Full Name es i :").
            guard next == words.count, words[hit.end..<next].allSatisfy({ $0.confidence < 60 }) else { return found }
        }
        let row = layout.rows[hit.row]
        // Last of all, a label closing a line of running text ("… Telephone number:") whose
        // value the paragraph wrapped onto the start of the next.
        func wrapped() -> [(words: [Word], inline: Bool)] {
            guard next == words.count, hit.end == words.count, hit.colon, let w = wrappedLine(after: hit) else { return [] }
            return [(w, true)]
        }
        guard next == words.count else {
            // Another label follows at once ("Surname Date of birth" on a card's label row): the
            // value is below this one, left of the column of the next (cards only: elsewhere a
            // label run into another is a sentence or a heading).
            guard kind == .id, hit.end == next, let following = segHits.first(where: { $0.start == next }),
                  let (r, below) = self.below(row: hit.row, x: hit.box.x, maxX: following.box.x - row.height / 2,
                                              tolerance: 3 * max(row.height, 8)),
                  !startsWithLabel(row: r, below) else { return [] }
            return [(below, false)]
        }
        if hit.segment + 1 < row.segments.count {
            let cell = row.segments[hit.segment + 1]
            let cellHits = hits[hit.row][hit.segment + 1]
            // (A cell that opens with its rule, "| TRANSFEREE", is a label's all the same; so is a
            // heading closing with a label in brackets, "TO (GRANTEE)", whose hit starts the cell.)
            let opening = cell.words.prefix { PageLayout.isRuleMark($0.text) }.count
            if (cellHits.first?.start).map({ $0 > opening }) ?? true {
                found.append((Array(cell.words[..<(cellHits.first?.start ?? cell.words.count)]), false))
            }
            // A value spaced into two cells after a comma ("5872 Washington Place, Anchorage," ‖
            // "AK 99501"): the two as one, next.
            if cellHits.isEmpty, cell.words.last?.text.hasSuffix(",") == true, hit.segment + 2 < row.segments.count,
               hits[hit.row][hit.segment + 2].isEmpty {
                found.append((cell.words + row.segments[hit.segment + 2].words, false))
            }
        }
        // Below: the next row's words in this label's column.
        let maxX = hit.segment + 1 < row.segments.count ? row.segments[hit.segment + 1].box.x - row.height / 2 : Int.max
        var firstBelow: [Word]?
        if let (r, below) = self.below(row: hit.row, x: hit.box.x, maxX: maxX, tolerance: 3 * max(row.height, 8)), !startsWithLabel(row: r, below) {
            found.append((below, false))
            firstBelow = below
        }
        // A next cell that holds no label (a stamp read beside "GRANTEE(S)" as "— VED /") bounds
        // the column only for the first try: the value below may reach under it, up to the next
        // label along the row.
        if hit.segment + 1 < row.segments.count, hits[hit.row][hit.segment + 1].isEmpty {
            let nextLabel = ((hit.segment + 2)..<row.segments.count).first { !hits[hit.row][$0].isEmpty }
            let wider = nextLabel.map { row.segments[$0].box.x - row.height / 2 } ?? Int.max
            if let (r, below) = self.below(row: hit.row, x: hit.box.x, maxX: wider, tolerance: 3 * max(row.height, 8)),
               below != firstBelow, !startsWithLabel(row: r, below) {
                found.append((below, false))
            }
        }
        return found + wrapped()
    }

    /// Whether `words` of row `r` begin with a label that starts its phrase.
    func startsWithLabel(row r: Int, _ words: [Word]) -> Bool {
        hits[r].enumerated().contains { s, segHits in
            segHits.first?.start == 0 && layout.rows[r].segments[s].words.first == words.first
        }
    }

    /// The words of the first row below `row` (no further than about two and a half lines, or
    /// than that under a hint: ``isHint(_:letterHeight:)``) that sit in the column from `x` to
    /// `maxX`, when the first of them starts near `x`.
    func below(row: Int, x: Int, maxX: Int, tolerance: Int) -> (Int, [Word])? {
        var bottom = layout.rows[row].box.y + layout.rows[row].box.height
        var end = min(layout.rows.count, row + 3)
        var r = row
        while r + 1 < end {
            r += 1
            let candidate = layout.rows[r]
            // (A table's heading may stand a good two lines over its column: "TRANSFEROR" with
            // the party's name 2.2 lines below.)
            guard candidate.box.y - bottom < 5 * max(candidate.height, layout.rows[row].height) / 2 + 4 else { return nil }
            var words = candidate.segments.flatMap(\.words).filter {
                let c = $0.box.x + $0.box.width / 2
                return c >= x - tolerance && c < maxX
            }
            // A rule read as a mark at the label's start parts two columns' values run together
            // ("… SRINIVASA IYER | SOMCHAI PHANOMYONG" under "GRANTEE(S)"): the words before it are
            // the column on the left's.
            if let rule = words.lastIndex(where: { PageLayout.isRuleMark($0.text) && $0.box.x + $0.box.width / 2 <= x + candidate.height / 2 }),
               rule + 1 < words.count {
                words = Array(words[(rule + 1)...])
            }
            // A format hint under the label ("(MM/DD/YYYY)", "(OPTIONAL)"), or specks a fraction of
            // a letter high (a web form's field border read as "oe"), over the field's box: the
            // value is under it.
            if !words.isEmpty, Self.isHint(words, letterHeight: layout.rows[row].height) {
                bottom = candidate.box.y + candidate.box.height
                end = min(layout.rows.count, end + 1)
                continue
            }
            if !words.isEmpty {
                guard let near = words.firstIndex(where: { abs($0.box.x - x) <= tolerance }) else { return nil }
                // Only the phrase under the label: a stamp or another column further along the
                // row, past a wide gap, is not its value.
                var phrase = candidate.segments.first { $0.words.contains(words[near]) }?.words ?? words
                // A name's particle parted from the rest by a wide space ("VAN" ‖ "'T HOF", its
                // apostrophe set apart): the phrase goes on.
                while let last = phrase.last, case let key = last.text.lowercased(), key.count >= 2, key != "and",
                      FieldExtractor.particles.contains(key),
                      let next = candidate.segments.first(where: { $0.box.x > last.box.x + last.box.width }),
                      next.box.x - (last.box.x + last.box.width) <= 3 * candidate.height, next.box.x + next.box.width / 2 < maxX {
                    phrase += next.words
                }
                // Words before it of another phrase end the column on the left ("… GARCIA MARQUEZ ‖
                // oGuz GUNES" under "TO (GRANTEE)"); of the same phrase, the row runs on under the
                // label and is no value of it.
                guard !words[..<near].contains(where: { phrase.contains($0) }) else { return nil }
                return (r, words[near...].filter { phrase.contains($0) })
            }
        }
        return nil
    }

    /// Whether `words` (under a label) are a hint to the one filling the form in, no value: specks
    /// under a third of `letterHeight` high, and besides them (if anything) a date's format or
    /// "optional" or "required", in brackets or not.
    static func isHint(_ words: [Word], letterHeight: Int) -> Bool {
        let text = words.filter { 3 * $0.box.height >= letterHeight }.map(\.text).joined()
        return text.isEmpty
            || text.range(of: #"^\(?(?:(?:MM|DD|YYYY|YY)[/.-]?){2,3}\)?$|^\(?(?:optional|required)\)?$"#,
                          options: [.regularExpression, .caseInsensitive]) != nil
    }

    /// Fields whose label was found with a value that failed its validator (set by `labelled`).
    var rejected: Set<String> { rejectedBox.names }
    /// The first value found beside each field's label that failed its validator (also where
    /// the field was then filled otherwise, or is not in `rejected`), as read, and its words.
    var rejectedValues: [String: (text: String, words: [Word])] { rejectedBox.values }
    private let rejectedBox = Names()
    /// The words of each strictly shaped value taken only once mended (a look-alike read for a
    /// digit, a slash for a 7; set by `labelled`): a guess, worth reading again.
    var mendedValues: [String: [Word]] { rejectedBox.mended }
    final class Names {
        var names: Set<String> = []
        var values: [String: (text: String, words: [Word])] = [:]
        var mended: [String: [Word]] = [:]
    }

    /// The first valid value for each field, in reading order.
    func labelled(_ specs: [FieldExtractor.Spec]) -> [String: Field] {
        var out: [String: Field] = [:]
        defer {
            rejectedBox.names.subtract(out.keys)
            for k in out.keys { rejectedBox.values[k] = nil }
        }
        // A phone labelled without a colon above the form's labelled fields, with a phone labelled
        // with a colon among them, is a letterhead's ("Tel. 459-885-2455" under the broker's name,
        // over the form's "Phone Number: (431) 895-7605"), where the letterhead was not recognised
        // as one. (Not a colonless form's own phone among its fields, under its name.)
        let all = hits.joined().joined()
        let formStart = all.filter { $0.colon && ["full_name", "email", "street_address", "date_of_birth"].contains($0.field ?? "") }.map(\.row).min()
        let lastColonPhone = all.filter { $0.field == "phone" && $0.colon }.map(\.row).max()
        // A form whose labels print colons (three fields' labels or more read with theirs).
        let colonForm = Set(all.filter(\.colon).compactMap(\.field)).count >= 3
        for hit in all {
            guard let field = hit.field, out[field] == nil, let spec = specs.first(where: { $0.field == field }) else { continue }
            // "To:" names the recipient only opening its line or cell: not "I ask you to:".
            if field == "data_broker", hit.text.lowercased() == "to", !hit.opensCell { continue }
            if field == "phone", !hit.colon, let below = lastColonPhone, below > hit.row, let form = formStart, form > hit.row { continue }
            candidates: for (read, inline) in values(of: hit) {
                // Marks after the value, before the next label, are a rule or speck read as a
                // word ("DOB: 25 August 2001 = Gender: M"): not part of it.
                var end = read.count
                while end > 1, PageLayout.key(read[end - 1].text).isEmpty { end -= 1 }
                // So is a cell's rule before it ("Birthdate | 1984-08-15", the rule in the next cell).
                var begin = 0
                while begin < end - 1, PageLayout.isRuleMark(read[begin].text) { begin += 1 }
                let words = Array(read[begin..<end])
                // A label without a colon in front of a value: only for strictly shaped values (and on cards).
                // (On a form without colons, a label opening its cell: see `colonlessForm`.)
                // (Nor on an opt-out form whose labels print colons, a label of two words or more
                // opening its line, read whole, whose colon a fax lost, "Name of Requester Gisela
                // von Bulow": for review. One word is too weak: "Consumer Opt-Out Form" is a title.)
                let colonLost = inline && !hit.colon && kind == .optout && colonForm && hit.opensCellExactly && hit.segment == 0 && hit.start == 0
                    && hit.text.split(separator: " ").count >= 2
                if inline && !hit.colon && !spec.structured && kind != .id && !(colonless && hit.opensCellExactly) && !colonLost { continue }
                // A label read only in part vouches for a card's name printed as one, in capitals
                // ("Given mumes Sox" is two labels).
                if hit.approximate, ["surname", "given_names"].contains(field),
                   words.contains(where: { $0.text.contains(where: \.isLowercase) }) { continue }
                // A card prints its names in capitals: words in small letters beside a name's label
                // read a letter off ("Given nemes Sea", the sex's label misread) are another label.
                // Not so words whose small letters have their capital's shape ("Cox"; "Ll", its I read
                // as an l), a capital read small inside a name in capitals ("MUNOZ DEL Río"), nor a
                // name read in small letters after its label read whole ("First names: Loic").
                if kind == .id, !(hit.exact && hit.colon), ["surname", "given_names"].contains(field), case let named = words.filter({ $0.text.filter(\.isLetter).count >= 2 }),
                   !named.isEmpty, named.allSatisfy({ w in
                    let letters = w.text.filter(\.isLetter)
                    return letters.dropFirst().allSatisfy(\.isLowercase) && letters.dropFirst().contains { !"cosuvwxzl".contains($0) }
                }) { continue }
                var text = words.map(\.text).joined(separator: " ")
                var used = words
                // A table's rule read as "|" inside the value, the next cell's words after it
                // ("December 9, 1946 | Daytime", the rest of that label wrapped): the value ends
                // at the rule when what is before it is one.
                if spec.validate(text) == nil, let rule = words.indices.dropFirst().first(where: { words[$0].text.contains("|") && PageLayout.isRuleMark(words[$0].text) }),
                   case let before = Array(words[..<rule]), spec.validate(before.map(\.text).joined(separator: " ")) != nil {
                    text = before.map(\.text).joined(separator: " ")
                    used = before
                }
                // A date with a digit read as its look-alike letter ("@8 JAN 1954", "Q5/13/2029") or
                // a name with a mark or digit for a letter ("Fatima Zahra E] Amrani"): mended, but for review.
                var repaired = false
                if spec.validate(text) == nil, let mended = FieldExtractor.mended(text, field: field), spec.validate(mended) != nil {
                    text = mended
                    repaired = true
                }
                // A number the paragraph wrapped at its hyphen ("Phone (optional): 474-" over "390-9819")
                // or after its area code ("Telephone number: (647)" over "326-0848").
                if spec.validate(text) == nil, spec.structured, words.last == layout.rows[hit.row].segments.last?.words.last,
                   let rest = wrappedLine(after: hit) {
                    let areaCode = field == "phone" && text.range(of: #"^\(?[0-9]{3}\)?$"#, options: .regularExpression) != nil
                        && rest[0].text.range(of: #"^[0-9]{3}[-.][0-9]{4}$"#, options: .regularExpression) != nil
                    let joined = text.hasSuffix("-") ? text + rest[0].text : areaCode ? text + " " + rest[0].text : nil
                    if let joined, spec.validate(joined) != nil {
                        text = joined
                        used.append(rest[0])
                    } else if FieldExtractor.dateFields.contains(field), text.range(of: #"^[0-9]{1,2}\.?$|^\p{L}{3,9}\.?$|^[0-9]{1,2} \p{L}{3,9}\.?,?$|^\p{L}{3,9}\.? [0-9]{1,2},?$"#, options: .regularExpression) != nil {
                        // A date the paragraph wrapped after its day or month ("Date of birth: 20" over
                        // "October 1992 …"): the rest opens the next line, up to three words.
                        let tail = Array(rest.prefix { !PageLayout.key($0.text).isEmpty }.prefix(3))
                        for n in stride(from: tail.count, through: 1, by: -1) {
                            let joined = text + " " + tail[..<n].map(\.text).joined(separator: " ")
                            if spec.validate(joined) != nil {
                                text = joined
                                used += tail[..<n]
                                break
                            }
                        }
                    }
                }
                if spec.validate(text) == nil {
                    guard let (extended, more) = continuation(of: hit, words: words) else {
                        if !words.isEmpty, rejectedBox.values[field] == nil { rejectedBox.values[field] = (text, words) }
                        continue
                    }
                    // A name carries on onto the next line only as a second party: "LN O" over a
                    // misread "FN JIA HUI" is no name "O, RN JIA HUI". (Its value failed, as a
                    // joined one failing would have.)
                    guard !FieldExtractor.nameFields.contains(field) || [" and ", " & "].contains(where: extended.dropFirst(text.count).lowercased().hasPrefix) else {
                        if !words.isEmpty {
                            rejectedBox.names.insert(field)
                            if rejectedBox.values[field] == nil { rejectedBox.values[field] = (text, words) }
                        }
                        continue
                    }
                    text = extended
                    used += more
                    // (An address whose ZIP is on the next line is mended whole.)
                    if field == "property_address", spec.validate(text) == nil, let mended = FieldExtractor.addressMended(text),
                       spec.validate(mended) != nil {
                        text = mended
                        repaired = true
                    }
                }
                guard var value = spec.validate(text) else {
                    if !words.isEmpty {
                        rejectedBox.names.insert(field)
                        if rejectedBox.values[field] == nil { rejectedBox.values[field] = (text, words) }
                    }
                    continue
                }
                if readsAsLabel(text, for: field, structured: spec.structured) { continue }
                // A second party on the next line of the same cell: "JOHN SMITH" / "and MARY SMITH".
                if ["grantor", "grantee"].contains(field), used.count == words.count, let (extended, more) = continuation(of: hit, words: words),
                   extended.dropFirst(text.count).trimmingCharacters(in: .whitespaces).lowercased().hasPrefix("and ") {
                    if let joined = spec.validate(extended) {
                        value = joined
                        used += more
                        // (Its "and" misread, the line was read poorly: not sure.)
                        if let opening = more.first?.text.lowercased(), !["and", "&"].contains(opening) { repaired = true }
                    } else {
                        // A second party whose name was misread past making one ("and LIV @STERGARD"):
                        // the first alone is not the party, so not sure.
                        repaired = true
                    }
                }
                out[field] = FieldExtractor.field(value, used)
                if hit.approximate || repaired || (colonLost && !spec.structured) { out[field]?.needsReview = true }
                if repaired, spec.structured { rejectedBox.mended[field] = used }
                break candidates
            }
        }
        return out
    }

    /// The words opening the line after `hit`'s, up to its first label, when `hit`'s phrase
    /// closes its line after other words (running text, wrapped: not a table's heading over its
    /// column) and the next line starts where this one does.
    func wrappedLine(after hit: LabelHit) -> [Word]? {
        let row = layout.rows[hit.row]
        guard hit.segment == row.segments.count - 1, hit.row + 1 < layout.rows.count,
              hit.start > row.segments[hit.segment].words.prefix(while: { PageLayout.isRuleMark($0.text) }).count else { return nil }
        let h = max(row.height, 8), nextRow = layout.rows[hit.row + 1]
        guard nextRow.box.y - (row.box.y + row.box.height) < 2 * h + 4, let first = nextRow.segments.first,
              abs(first.box.x - row.box.x) <= 2 * h else { return nil }
        let words = Array(first.words[..<(hits[hit.row + 1][0].first?.start ?? first.words.count)])
        return words.isEmpty ? nil : words
    }

    /// A value that carries on onto the next line in its column: a second party ("and MARY
    /// SMITH") or the city line of an address.
    func continuation(of hit: LabelHit, words: [Word]) -> (String, [Word])? {
        guard let first = words.first,
              let row = layout.rows.firstIndex(where: { $0.segments.contains { $0.words.contains(first) } }) else { return nil }
        let h = max(layout.rows[row].height, 8)
        // The phrase (segment) starting under the value's first word, on the next line.
        guard row + 1 < layout.rows.count,
              layout.rows[row + 1].box.y - (layout.rows[row].box.y + layout.rows[row].box.height) < 2 * h + 4,
              let next = layout.rows[row + 1].segments.first(where: { abs($0.box.x - first.box.x) <= 2 * h })?.words,
              !hits[row + 1].joined().contains(where: { $0.start == 0 && next.first == layout.rows[row + 1].segments[$0.segment].words.first })
        else { return nil }
        let text = words.map(\.text).joined(separator: " ")
        var more = next.map(\.text).joined(separator: " ")
        // "and" as a fax or a copy reads it ("ancl ZDENEK SIMUNKOVA", "arid MARY"), opening a name.
        if let r = more.range(of: #"^(?:ancl|arid|amd|anid)(?= \p{Lu})"#, options: .regularExpression) { more.replaceSubrange(r, with: "and") }
        if more.lowercased().hasPrefix("and ") || more.hasPrefix("& ") { return (text + " " + more, next) }
        // A number its box wrapped at a hyphen ("613-260-" over "1805"): one number.
        if text.hasSuffix("-"), text.last(where: { $0 != "-" })?.isNumber == true, more.first?.isNumber == true { return (text + more, next) }
        return (text + ", " + more, next)
    }

    /// Whether `text`, found where `field`'s value was expected, is a label read there instead.
    /// A free-text value (or a card's name) made of another field's label words is one; so is
    /// the field's own label whole ("Surname / Nom" read with a speck between the two gives
    /// "Nom" as the value of "Surname"; marks aside: "PRÉNOMS" is the label "prenoms"), and a
    /// name that is another field's whole label however short (a card's "SEX" read beside
    /// "Given names" where the value is below).
    func readsAsLabel(_ text: String, for field: String, structured: Bool) -> Bool {
        let name = ["surname", "given_names"].contains(field)
        if !structured || name,
           text.split(separator: " ").contains(where: { labelWords(except: field).contains(Self.unmarkedKey(String($0))) }) { return true }
        let key = Self.unmarkedKey(text)
        if ownLabels(field).contains(key) { return true }
        let vocabulary = kind == .unknown ? [] : Vocabulary.forKind(kind)
        return name && key.count >= 3 && vocabulary.contains { $0.keys.contains { PageLayout.key($0) == key } }
    }

    /// `PageLayout.key` without marks, as the vocabulary spells labels ("Prénoms" → "prenoms").
    static func unmarkedKey(_ s: String) -> String {
        PageLayout.key(s.folding(options: .diacriticInsensitive, locale: nil))
    }

    /// The field's own label synonyms, as keys.
    func ownLabels(_ field: String) -> [String] {
        (kind == .unknown ? [] : Vocabulary.forKind(kind)).first { $0.field == field }?.keys ?? []
    }

    /// Words (four letters or more) of the other fields' labels.
    func labelWords(except field: String) -> Set<String> {
        let vocabulary = kind == .unknown ? [] : Vocabulary.forKind(kind)
        return Set(vocabulary.filter { $0.field != field }.flatMap { $0.keys.flatMap { $0.split(separator: " ").map(String.init) } }
            .filter { $0.count >= 4 })
    }

    func pairs() -> [FieldPair] {
        hits.joined().joined().compactMap { hit in
            // A label word without a colon in front of text is too weak for a pair on its own.
            guard let (words, inline) = value(of: hit), !words.isEmpty, hit.colon || !inline else { return nil }
            let f = FieldExtractor.field(.text(""), words)
            let text = words.map(\.text).joined(separator: " ")
            return FieldPair(label: hit.text, value: text, field: hit.field, confidence: f.confidence, labelBox: hit.box,
                             valueBox: f.box ?? hit.box)
        }
    }
}
