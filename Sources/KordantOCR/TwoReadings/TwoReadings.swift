/// Two readings of one page, made differently (a fax at its own size and at twice it, a
/// photocopy under two median filters; a poor reading and the page as loaded), as one: their
/// errors fall in different places, so a field one of them missed or could only read doubtfully
/// the other often read cleanly.
enum TwoReadings {
    /// `first` (text, words, boxes, MRZ: everything but the fields) with the fields of both.
    /// A page the first reading could not tell the kind of takes the second's reading whole when
    /// that one could, its fields in review (read by the second only); readings of two different
    /// kinds are not mixed (`first` is kept). Of two readings of one kind, the second is the
    /// page's when it read clearly more words clearly (1.5× and 3 more), the roles of the two
    /// swapped for the fields. (A searchable PDF keeps the first reading's words.)
    static func combined(_ first: PageResult, _ second: PageResult) -> PageResult {
        if first.kind == .unknown, second.kind != .unknown {
            var result = second
            result.fields = fields([:], second.fields)
            return result
        }
        guard first.kind == second.kind else { return first }
        // A second reading with clearly more words read clearly (a photocopied card's labels that
        // the first reading's median rubbed out, its kind then told by its values alone) gives the
        // page's text, words and boxes, and its fields come first; the first's alone go to review.
        let clear = { (r: PageResult) in r.words.filter(OCRWorker.isClear).count }
        if clear(second) > clear(first) * 3 / 2 + 3 {
            var result = second
            result.fields = fields(second.fields, first.fields)
            return result
        }
        var result = first
        result.fields = fields(first.fields, second.fields)
        return result
    }

    /// Field by field:
    /// - read by the first reading only: as it judged it;
    /// - read by the second only: in review (on dev seed 40 the three values the second alone
    ///   read wrongly, "Fosilon Data Privacy Jeam" among them, looked as sure as the right ones);
    /// - read alike by both: the first's, in review only if both readings put it there (sure by
    ///   the second alone, at the second's confidence);
    /// - read differently: the value of the one not in review (else the first's, or the listing
    ///   that spells the requester's name), in review, for two readings of the same print that
    ///   disagree are not sure of either (on the dev faxes of seeds 18–21 this flagged wrong values
    ///   the first reading alone was sure of).
    static func fields(_ first: [String: Field], _ second: [String: Field]) -> [String: Field] {
        var out = first
        for (name, other) in second {
            guard var mine = first[name] else {
                var other = other
                other.needsReview = true
                out[name] = other
                continue
            }
            if mine.value == other.value {
                // (Sure by the second reading alone: that reading's confidence.)
                if mine.needsReview && !other.needsReview { mine.confidence = other.confidence }
                mine.needsReview = mine.needsReview && other.needsReview
            } else {
                if mine.needsReview && !other.needsReview {
                    mine = other
                } else if mine.needsReview == other.needsReview, name == "listing_url",
                          spellsName(other, first["full_name"] ?? second["full_name"]), !spellsName(mine, first["full_name"] ?? second["full_name"]) {
                    mine = other
                }
                mine.needsReview = true
            }
            out[name] = mine
        }
        zipChosen(&out, among: [first["zip"], second["zip"]])
        return out
    }

    /// Of ZIPs read differently, the one the state and city of `fields` agree with: the kept one's
    /// digits were misread ("17/07" mended to 17707 beside Albany, NY's 12207). Still in review.
    static func zipChosen(_ fields: inout [String: Field], among candidates: [Field?]) {
        guard let kept = fields["zip"], !zipAgrees(kept, fields),
              let other = candidates.compactMap({ $0 }).first(where: { $0.value != kept.value && zipAgrees($0, fields) }) else { return }
        fields["zip"] = other
        fields["zip"]?.needsReview = true
    }

    /// Whether `zip` agrees with the state and the city of `fields` (as far as they are known).
    static func zipAgrees(_ zip: Field, _ fields: [String: Field]) -> Bool {
        guard let z = zip.value.string else { return false }
        let state = fields["state"]?.value.string
        if let state, !FieldExtractor.zip(z, agreesWith: state) { return false }
        if let state, let city = fields["city"]?.value.string, USPlaces.zipAgrees(city: city, state: state, zip: z) == false { return false }
        return true
    }

    /// Whether a listing's path spells the requester's name as a slug ("…/maria-de-los-angeles-pena/…"):
    /// of two listings read differently and both in doubt, that one is the likelier copy.
    static func spellsName(_ listing: Field, _ name: Field?) -> Bool {
        guard let url = listing.value.string?.lowercased(), let printed = name?.value.string else { return false }
        let slug = FieldExtractor.listingSlug(printed)
        return slug.count >= 4 && url.contains("/" + slug + "/")
    }

    /// `first` with the fields only `other` read, in review, and those the two read differently in
    /// review: for a reading that is worse as a whole (the page as loaded, beside the page
    /// preprocessed: 3037 against 4059 fields exact on seven dev corpora), which fills gaps but
    /// never overrules. Its agreement takes nothing out of review either: two readings of the one
    /// print share their misreadings ("CEUVRAY" for "ŒUVRAY" in both). Kinds are not mixed.
    /// `readings`: the readings `first` was combined from (a fax at its own size and at twice
    /// it); where `other` reads a field as one of them did, that value is kept (two of three),
    /// still in review.
    static func filled(_ first: PageResult, from other: PageResult, readings: [PageResult] = []) -> PageResult {
        guard first.kind == other.kind else { return first }
        var result = first
        for (name, theirs) in other.fields {
            guard let mine = first.fields[name] else {
                var theirs = theirs
                theirs.needsReview = true
                result.fields[name] = theirs
                continue
            }
            guard mine.value != theirs.value else { continue }
            result.fields[name]?.needsReview = true
            // Three readings, two of them alike: the value two read, still in review.
            if let sided = readings.first(where: { $0.kind == first.kind && $0.fields[name]?.value == theirs.value })?.fields[name] {
                var voted = sided
                voted.needsReview = true
                result.fields[name] = voted
            }
        }
        zipChosen(&result.fields, among: [other.fields["zip"]] + readings.map { $0.fields["zip"] })
        return result
    }
}
