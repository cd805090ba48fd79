import Foundation

extension FieldExtractor {
    /// Words before a mailbox that are no part of it: how a sentence or a label leads up to one.
    static let wordsBeforeMailboxes: Set<String> = ["at", "to", "me", "or", "via", "and", "is", "use", "my", "from", "email", "e-mail",
                                                   "mail", "address", "contact", "write", "reply", "send", "cc", "bcc", "the", "your", "our"]

    /// A mailbox whose dot was read as a space, a comma or ". " ("aisha. bint@mail.example.org",
    /// "aikaterini, konstantinopoulosvlachos@…", "njeri kiplagat@…"): the address was taken from the
    /// word after it, or from both words run together ("njerikiplagat@…"). Its first part is the
    /// word before, on the same line and a space away, in small letters and digits as a mailbox
    /// is (not a label, "Email:", nor a word of prose, "me at"). Joined by a dot, for review: the
    /// mark may have been a dash or an underscore, or the word no part of the address at all.
    static func mailboxStartMended(_ f: inout [String: Field], rows: [TextLine]) {
        guard let value = f["email"]?.value.string, let at = value.firstIndex(of: "@"), let box = f["email"]?.box else { return }
        let local = value[..<at]
        for row in rows {
            guard let i = row.words.firstIndex(where: { $0.text.contains("@") && $0.box.intersects(box) }), i > 0 else { continue }
            let word = row.words[i], before = row.words[i - 1]
            let part = before.text.trimmingCharacters(in: CharacterSet(charactersIn: ".,"))
            // The mailbox was read from this word's start, alone or after the word before run on.
            let wordLocal = word.text.prefix { $0 != "@" }
            let runOn = local.dropLast(wordLocal.count)
            guard !wordLocal.isEmpty, local.hasSuffix(wordLocal), runOn.isEmpty || runOn == part,
                  before.text.range(of: #"^[a-z0-9][a-z0-9._%+-]*[.,]?$"#, options: .regularExpression) != nil, part.count >= 2,
                  !wordsBeforeMailboxes.contains(part), !part.hasSuffix("-") && !part.hasSuffix("_"),
                  // A space away on the same line: no wider than the line is tall.
                  case let gap = word.box.x - (before.box.x + before.box.width), gap >= 0, gap <= max(word.box.height, before.box.height),
                  before.box.y < word.box.y + word.box.height, word.box.y < before.box.y + before.box.height
            else { return }
            f["email"]?.value = .text(part + "." + value.dropFirst(runOn.count))
            f["email"]?.box = box.union(before.box)
            f["email"]?.needsReview = true
            return
        }
    }
}
