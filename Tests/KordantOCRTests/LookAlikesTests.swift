@testable import KordantOCR
import Testing

/// Letters OCR reads for their look-alikes ("m" as "rn" or "ni", "e" as "c", "t" as "l") in mail
/// domains and web addresses, and specks read as full stops in names and company names.
@Suite struct LookAlikesTests {
    @Test func aLookAlikeCostsHalfAnEdit() {
        #expect(FieldExtractor.lookAlikeCost("example.net", "example.net") == 0)
        #expect(FieldExtractor.lookAlikeCost("exaniple.net", "example.net") == 0.5)
        #expect(FieldExtractor.lookAlikeCost("exarnple.net", "example.net") == 0.5)
        #expect(FieldExtractor.lookAlikeCost("cxample.nel", "example.net") == 1)
        #expect(FieldExtractor.lookAlikeCost("oxample.con", "example.com") == 1)
        // Either way round: "m" read for a printed "rn".
        #expect(FieldExtractor.lookAlikeCost("comell.edu", "cornell.edu") == 0.5)
        // Letters that look nothing alike cost a whole edit each.
        #expect(FieldExtractor.lookAlikeCost("exazple.net", "example.net") == 1)
        #expect(FieldExtractor.lookAlikeCost("", "abc") == 3)
        #expect(FieldExtractor.lookAlikeCost("EXAMPLE.NET", "example.net") == 0)
    }

    @Test func aMailDomainTwoLookAlikesOffIsMended() {
        #expect(FieldExtractor.mailDomainMended("makeda.wanjiru@inbox.exaniple.net") == "makeda.wanjiru@inbox.example.net")
        #expect(FieldExtractor.mailDomainMended("siobhan.osullivan@inbox.cxample.nel") == "siobhan.osullivan@inbox.example.net")
        #expect(FieldExtractor.mailDomainMended("ana.lima@rnail.com") == "ana.lima@mail.com")
        #expect(FieldExtractor.mailDomainMended("ana.lima@gmaii.com") == "ana.lima@gmail.com")
        // Near two domains ("email.com": mail.com and gmail.com), or near none: kept as read.
        #expect(FieldExtractor.mailDomainMended("ana@email.com") == nil)
        #expect(FieldExtractor.mailDomainMended("ana@examzxe.net") == nil)
        #expect(FieldExtractor.mailDomainMended("ana@lima-costa.pt") == nil)
    }

    @Test func aTopLevelDomainsMReadAsNyBeforeItsSlashIsMended() {
        #expect(FieldExtractor.urlGlyphsMended("https://www.clustrmaps.cony/profile/makeda-wanjiru/32876")
            == "https://www.clustrmaps.com/profile/makeda-wanjiru/32876")
        #expect(FieldExtractor.urlGlyphsMended("https://www.whitepages.corn/people/ana-lima/76252")
            == "https://www.whitepages.com/people/ana-lima/76252")
        #expect(FieldExtractor.urlGlyphsMended("www.spokeo.cony") == "www.spokeo.com")
        // Still the path word glued on ("conyp/"), and a real top-level domain left as it is.
        #expect(FieldExtractor.urlGlyphsMended("https://www.checkpeople.conyp/ana-lima/1") == "https://www.checkpeople.com/p/ana-lima/1")
        #expect(FieldExtractor.urlGlyphsMended("https://www.spokeo.co/p/ana-lima/1") == nil)
        #expect(FieldExtractor.urlGlyphsMended("https://www.spokeo.com/p/ana-lima/1") == nil)
        // A record number's 7 read as "7/", three digits before it.
        #expect(FieldExtractor.urlGlyphsMended("https://www.checkpeople.com/p/seo-yeon-takahashi/487/79")
            == "https://www.checkpeople.com/p/seo-yeon-takahashi/48779")
        #expect(FieldExtractor.urlGlyphsMended("https://www.checkpeople.com/p/ana-lima/12/34") == nil)
        // A record number's 5 read as an S; a step of letters is a word.
        #expect(FieldExtractor.urlGlyphsMended("https://www.fastpeoplesearch.com/p/xiaoming-zhang/S6968")
            == "https://www.fastpeoplesearch.com/p/xiaoming-zhang/56968")
        #expect(FieldExtractor.urlGlyphsMended("https://www.fastpeoplesearch.com/p/xiaoming-zhang/ST968") == nil)
        #expect(FieldExtractor.urlGlyphsMended("https://www.spokeo.com/Sales") == nil)
        #expect(FieldExtractor.urlGlyphsMended("https://www.checkpeople.com/p/ana-lima/2024/12345") == nil)
    }

    @Test func aCompanyWordReadApartBeforeItsCapitalIsJoined() {
        #expect(FieldExtractor.companyWordsMended("Peop leLooker") == "PeopleLooker")
        #expect(FieldExtractor.companyWordsMended("People Looker") == nil)
        #expect(FieldExtractor.companyWordsMended("Friends of Data") == nil)
    }

    /// Through the opt-out extractor: the name mended, and for review.
    @Test func aSpeckReadAsAFullStopInANameIsDropped() {
        let dotted = FieldExtractor.optout(WordPage(["REMOVAL REQUEST — Spokeo", "Full Name: Abdul Aziz. Al-Hashimi"]).lines)
        #expect(value(dotted, "full_name") == "Abdul Aziz Al-Hashimi" && dotted["full_name"]?.needsReview == true)
        let joined = FieldExtractor.optout(WordPage(["REMOVAL REQUEST — Spokeo", "Full Name: Fatima Zahra Abu Bakr.Al Siddiq"]).lines)
        #expect(value(joined, "full_name") == "Fatima Zahra Abu Bakr Al Siddiq" && joined["full_name"]?.needsReview == true)
        // An old abbreviation of a given name keeps its full stop, and an initial its own.
        let abbreviated = FieldExtractor.optout(WordPage(["REMOVAL REQUEST — Spokeo", "Full Name: Chas. Dickens"]).lines)
        #expect(value(abbreviated, "full_name") == "Chas. Dickens" && abbreviated["full_name"]?.needsReview != true)
        let initials = FieldExtractor.optout(WordPage(["REMOVAL REQUEST — Spokeo", "Full Name: J.R. Hartley"]).lines)
        #expect(value(initials, "full_name") == "J.R. Hartley" && initials["full_name"]?.needsReview != true)
    }

    /// A mailbox's dot read as a space or a comma: its first part joined back, for review; a word
    /// of prose or a label before it is left out.
    @Test func aMailboxsFirstPartReadApartIsJoined() {
        let comma = FieldExtractor.optout(WordPage(["REMOVAL REQUEST — Spokeo", "Full Name: Aikaterini Vlachos",
                                                    "Contact Email: aikaterini, vlachos@inbox.example.net"]).lines)
        #expect(value(comma, "email") == "aikaterini.vlachos@inbox.example.net" && comma["email"]?.needsReview == true)
        let spaced = FieldExtractor.optout(WordPage(["REMOVAL REQUEST — Spokeo", "Full Name: Njeri Kiplagat", "Email", "njeri kiplagat@mail.example.org"]).lines)
        #expect(value(spaced, "email") == "njeri.kiplagat@mail.example.org" && spaced["email"]?.needsReview == true, "\(String(describing: spaced["email"]))")
        let prose = FieldExtractor.optout(WordPage(["REMOVAL REQUEST — Spokeo", "Full Name: Njeri Kiplagat",
                                                    "Please write to me at kiplagat@mail.example.org"]).lines)
        #expect(value(prose, "email") == "kiplagat@mail.example.org")
        let labelled = FieldExtractor.optout(WordPage(["REMOVAL REQUEST — Spokeo", "Full Name: Njeri Kiplagat", "email: kiplagat@mail.example.org"]).lines)
        #expect(value(labelled, "email") == "kiplagat@mail.example.org" && labelled["email"]?.needsReview != true)
    }

    /// A reference for review whose prefix of capitals is a look-alike or an edit off one in common
    /// use: that prefix, still for review; one read surely, or with a digit, is left as read. A
    /// hyphen after the number is cut.
    @Test func aReferencesPrefixMisreadIsTheOneItIsNearest() {
        func id(_ line: String, confidence: Double = 92) -> Field? {
            var page = WordPage(["REMOVAL REQUEST — Spokeo", "Full Name: Ana Lima"])
            page.line(line, y: 150, confidence: confidence)
            return FieldExtractor.optout(page.lines)["request_id"]
        }
        // (Read poorly: for review.)
        let q = id("Reference: REO-791671", confidence: 40)
        #expect(q?.value == .text("REQ-791671") && q?.needsReview == true, "\(String(describing: q))")
        let k = id("Reference: CASK-900009", confidence: 40)
        #expect(k?.value == .text("CASE-900009") && k?.needsReview == true, "\(String(describing: k))")
        // A digit in the prefix: which letter it is, is not known (`ReadingSlipTests`).
        let t = id("Reference: OP1-154324")
        #expect(t?.value == .text("OP1-154324") && t?.needsReview == true, "\(String(describing: t))")
        let trailing = id("Reference: CASE-479771-")
        #expect(trailing?.value == .text("CASE-479771") && trailing?.needsReview == true, "\(String(describing: trailing))")
        // A prefix of its own, read surely, is the page's.
        let own = id("Reference: ZQX-204817")
        #expect(own?.value == .text("ZQX-204817"), "\(String(describing: own))")
        #expect(FieldExtractor.lookAlikeCost("REO", "REQ") == 0.5 && FieldExtractor.lookAlikeCost("RLQ", "RQ") == 1)
    }
}
