import Foundation
@testable import KordantOCR
import Testing

/// Tick boxes decided by their ink (``TickBoxReader``), and how that decision and the text's
/// combine (``FieldExtractor/requestOptions(_:tick:)``).
@Suite struct TickBoxTests {
    /// A strip 4 letter heights wide (the reader's search strip), paper `paper`, with `draw`
    /// inking pixels in `ink`.
    static func strip(height h: Int, paper: UInt8 = 230, ink: UInt8 = 40, _ draw: (inout [[Bool]]) -> Void) -> GrayImage {
        let (w, rows) = (4 * h, h + 2 * (h / 3))
        var mask = [[Bool]](repeating: [Bool](repeating: false, count: w), count: rows)
        draw(&mask)
        return GrayImage(width: w, height: rows, pixels: mask.flatMap { $0.map { $0 ? ink : paper } })
    }

    /// A square frame `size` wide at (x, y), its strokes `stroke` thick, crossed when `crossed`.
    static func box(_ m: inout [[Bool]], x: Int, y: Int, size: Int, stroke: Int, crossed: Bool) {
        for yy in y..<(y + size) {
            for xx in x..<(x + size) {
                let edge = xx - x < stroke || x + size - 1 - xx < stroke || yy - y < stroke || y + size - 1 - yy < stroke
                let (dx, dy) = (xx - x, yy - y)
                let diagonal = crossed && (abs(dx - dy) <= stroke / 2 + 1 || abs(dx + dy - (size - 1)) <= stroke / 2 + 1)
                if edge || diagonal { m[yy][xx] = true }
            }
        }
    }

    @Test func aDrawnBoxIsEmptyOrCrossedByItsMiddle() {
        let h = 30
        for crossed in [false, true] {
            let gray = Self.strip(height: h) { Self.box(&$0, x: 3 * h - 2 - 26, y: h / 3 + 2, size: 26, stroke: 3, crossed: crossed) }
            #expect(TickBoxReader.mark(in: gray, height: h) == (crossed ? .ticked : .empty), "crossed \(crossed)")
        }
        // Faint, as a photocopy's prepared page is (ink 120 on paper 195), it reads the same.
        let faint = Self.strip(height: h, paper: 195, ink: 120) { Self.box(&$0, x: 40, y: h / 3 + 2, size: 26, stroke: 3, crossed: true) }
        #expect(TickBoxReader.mark(in: faint, height: h) == .ticked)
    }

    @Test func bracketsWithASpaceOrAnXBetween() {
        let h = 30
        func brackets(_ m: inout [[Bool]], x: Int) {
            // "[" and "]" a letter and a half apart, hooks at top and bottom.
            for (left, hook) in [(x, 1), (x + 44, -1)] {
                for yy in 6..<(6 + 40) { m[yy][left] = true; m[yy][left + 1] = true }
                for dx in 0..<6 { m[6][left + hook * dx + (hook < 0 ? 1 : 0)] = true; m[45][left + hook * dx + (hook < 0 ? 1 : 0)] = true }
            }
        }
        let empty = Self.strip(height: h) { brackets(&$0, x: 50) }
        #expect(TickBoxReader.mark(in: empty, height: h) == .empty)
        let crossed = Self.strip(height: h) { m in
            brackets(&m, x: 50)
            for i in 0..<22 {
                for t in 0..<3 { m[14 + i][62 + i + t] = true; m[14 + i][83 - i + t] = true }
            }
        }
        #expect(TickBoxReader.mark(in: crossed, height: h) == .ticked)
    }

    @Test func noMarkOrAMarkOfNoBoxShapeSaysNothing() {
        let h = 30
        #expect(TickBoxReader.mark(in: Self.strip(height: h) { _ in }, height: h) == nil)
        // A rule under the line, and a speck: nothing a letter high.
        let rule = Self.strip(height: h) { m in
            for x in 10..<100 { m[m.count - 3][x] = true }
            m[20][30] = true
        }
        #expect(TickBoxReader.mark(in: rule, height: h) == nil)
        // A letter of the option cut by the strip's right edge is not the mark.
        let cut = Self.strip(height: h) { m in for y in 12..<42 { for x in (m[0].count - 3)..<m[0].count { m[y][x] = true } } }
        #expect(TickBoxReader.mark(in: cut, height: h) == nil)
    }

    /// A box read into the option's first word ("MDoNotSell"): the word's start is searched for a
    /// drawn frame, ticked (its check poking out over the top), crossed or empty, followed
    /// closely by the option's first letter. Bold letters alone, which have two upright sides or
    /// a top and a bottom but not both, are no frame; nor is a bold serif "D", all but square,
    /// whose stem is a third of its width.
    @Test func aBoxReadIntoTheOptionsFirstWord() {
        let h = 30
        let (w, rows) = (2 * h + h / 4, h + 2 * (h / 2))
        func strip(_ draw: (inout [[Bool]]) -> Void) -> [Bool] {
            var mask = [[Bool]](repeating: [Bool](repeating: false, count: w), count: rows)
            draw(&mask)
            return mask.flatMap { $0 }
        }
        func fill(_ m: inout [[Bool]], _ xs: Range<Int>, _ ys: Range<Int>) { for y in ys { for x in xs { m[y][x] = true } } }
        // An "N", bold: two stems and the diagonal between them.
        func letterN(_ m: inout [[Bool]], x: Int) {
            fill(&m, x..<(x + 5), 17..<43)
            fill(&m, (x + 17)..<(x + 22), 17..<43)
            for i in 0..<26 { fill(&m, (x + i * 17 / 26)..<(x + i * 17 / 26 + 5), (17 + i)..<(18 + i)) }
        }
        for state in ["empty", "crossed", "checked"] {
            let ink = strip { m in
                Self.box(&m, x: 9, y: 16, size: 27, stroke: 3, crossed: state == "crossed")
                if state == "checked" {
                    // A check from inside the box's lower left out over its top right corner.
                    for i in 0..<12 { fill(&m, (14 + i / 2)..<(17 + i / 2), (26 + i)..<(27 + i)) }
                    for i in 0..<26 { fill(&m, (20 + i)..<(23 + i), (37 - i * 3 / 2)..<(38 - i * 3 / 2)) }
                }
                letterN(&m, x: 41)
            }
            #expect(TickBoxReader.frameMark(ink, width: w, height: rows, letterHeight: h) == (state == "empty" ? .empty : .ticked), "\(state)")
        }
        // On a copy, the frame's outer left column stops four rows short of the bottom corner:
        // the side's next column, as tall as the frame, is taken for the side, and the bottom found.
        let worn = strip { m in
            Self.box(&m, x: 9, y: 16, size: 27, stroke: 3, crossed: false)
            for y in 39..<43 { m[y][9] = false }
            for i in 0..<12 { fill(&m, (14 + i / 2)..<(17 + i / 2), (26 + i)..<(27 + i)) }
            for i in 0..<26 { fill(&m, (20 + i)..<(23 + i), (37 - i * 3 / 2)..<(38 - i * 3 / 2)) }
            letterN(&m, x: 41)
        }
        #expect(TickBoxReader.frameMark(worn, width: w, height: rows, letterHeight: h) == .ticked)
        let letters: [(String, (inout [[Bool]]) -> Void)] = [
            ("N", { letterN(&$0, x: 9) }),
            ("H", { m in fill(&m, 9..<14, 17..<43); fill(&m, 27..<32, 17..<43); fill(&m, 9..<32, 28..<32) }),
            ("E", { m in fill(&m, 9..<14, 17..<43); for y in [17, 28, 38] { fill(&m, 9..<30, y..<(y + 5)) } }),
            ("D", { m in
                // A stem, bars to the bowl, and the bowl: a half ring 5 px thick.
                fill(&m, 9..<14, 17..<43); fill(&m, 9..<18, 17..<22); fill(&m, 9..<18, 38..<43)
                for y in 17..<43 {
                    for x in 18..<34 {
                        let (dx, dy) = (Double(x - 18), Double(y) - 29.5)
                        let outer = (dx / 15) * (dx / 15) + (dy / 13) * (dy / 13), inner = (dx / 10) * (dx / 10) + (dy / 8) * (dy / 8)
                        if outer <= 1, inner > 1 { m[y][x] = true }
                    }
                }
            }),
            // A light "O": a thin ring, a frame from neither of its first two columns.
            ("O", { m in
                for y in 17..<43 {
                    for x in 9..<32 {
                        let (dx, dy) = (Double(x) - 20, Double(y) - 29.5)
                        let outer = (dx / 11.5) * (dx / 11.5) + (dy / 13) * (dy / 13), inner = (dx / 9) * (dx / 9) + (dy / 10.5) * (dy / 10.5)
                        if outer <= 1, inner > 1 { m[y][x] = true }
                    }
                }
            }),
            // A bold serif "D" as a fax prints it: all but square, with a thick stem and bowl.
            ("bold D", { m in fill(&m, 9..<18, 17..<43); fill(&m, 9..<30, 17..<20); fill(&m, 9..<30, 40..<43); fill(&m, 26..<36, 19..<41) }),
        ]
        for (name, draw) in letters {
            let ink = strip { m in draw(&m); letterN(&m, x: 41) }
            #expect(TickBoxReader.frameMark(ink, width: w, height: rows, letterHeight: h) == nil, "\(name)")
        }
        // An upright stroke too near the strip's end for a frame to fit after it (a word at the
        // image's right edge): nothing, and no range to search.
        let edge = strip { m in fill(&m, (w - 8)..<(w - 4), 17..<43) }
        #expect(TickBoxReader.frameMark(edge, width: w, height: rows, letterHeight: h) == nil)
    }

    /// Words of one option row, its box read as `mark` (nil: not read at all).
    static func row(_ mark: String?, _ label: String, y: Int) -> [Word] {
        var words: [Word] = []
        var x = 100
        for text in (mark.map { [$0] } ?? []) + label.split(separator: " ").map(String.init) {
            words.append(Word(text: text, confidence: 90, box: BoundingBox(x: x, y: y, width: 18 * text.count, height: 30),
                              block: 1, paragraph: 1, line: y, word: words.count + 1))
            x += 18 * text.count + 15
        }
        return words
    }

    @Test func theInkOverrulesTheTextAndADisagreementIsReviewed() throws {
        let rows = [
            TextLine(words: Self.row("&", "Delete my personal information", y: 100)),
            TextLine(words: Self.row("(1", "Do not sell or share my personal information", y: 150)),
            TextLine(words: Self.row(nil, "Send me a copy of my data", y: 200)),
            TextLine(words: Self.row("O", "Opt me out of marketing lists", y: 250)),
        ]
        // The text alone: "&" ticked (for review, it is no X), "(1" and "O" empty, the third no option.
        let byText = try #require(FieldExtractor.requestOptions(rows))
        #expect(byText.value == .text("delete") && byText.needsReview)
        // The ink of the boxes: the first three crossed, the last empty.
        var asked: [Int] = []
        let ink: (BoundingBox, Int) -> TickMark? = { label, height in
            asked.append(label.y)
            #expect(height == 30)
            return label.y < 250 ? .ticked : .empty
        }
        let byInk = try #require(FieldExtractor.requestOptions(rows, tick: ink))
        #expect(byInk.value == .text("access,delete,do_not_sell"))
        // "(1" read as an empty box, its ink crossed: the two disagree, so a person looks.
        #expect(byInk.needsReview)
        #expect(asked == [100, 150, 200, 250])
        // Where the ink and the text agree, or the text saw no box, nothing is left to doubt.
        let agreeing = try #require(FieldExtractor.requestOptions(Array(rows[2...]), tick: ink))
        #expect(agreeing.value == .text("access") && !agreeing.needsReview)
        // Where the ink says nothing, the text decides, as without pixels.
        let silent = try #require(FieldExtractor.requestOptions(rows, tick: { _, _ in nil }))
        #expect(silent.value == byText.value && silent.needsReview)
    }

    /// Real Tesseract on a photocopied form's options (a generated page, cropped): the ticked box
    /// before "No marketing" is read into the word "No", whose box spans both. The box is found
    /// at the word's start, and the options are the two ticked (for review, as the words of the
    /// ticked options are read at a mean confidence of 77).
    @Test func aBoxReadIntoTheWordNoOnACopy() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path
        let page = try #require(try OCRWorker().process(path: root + "/Tests/Fixtures/ocr-fallback/s164-dev-135-options-photocopy.png").pages.first)
        #expect(page.words.contains { $0.text == "No" && $0.box.width > 2 * $0.box.height }, "\(page.words.map(\.text))")
        let options = try #require(page.fields["request_options"])
        #expect(options.value == .text("access,opt_out_marketing") && options.needsReview)
    }

    /// Real Tesseract on a flatbed form's options, two to a row (a generated page, cropped): the
    /// check marks make the row's letters look tall, so the layout takes "☑ Marketing opt-out ☑
    /// Access" for one cell and the box before "Access" reads "hA". Parted at the gap, all three
    /// ticked options are found (for review: the boxes were read as letters).
    @Test func optionsSideBySideACheckMarkApart() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path
        let page = try #require(try OCRWorker().process(path: root + "/Tests/Fixtures/ocr-fallback/s241-dev-137-options-side-by-side-flatbed.png").pages.first)
        #expect(page.words.contains { $0.text == "Access" }, "\(page.words.map(\.text))")
        let options = try #require(page.fields["request_options"])
        #expect(options.value == .text("access,do_not_sell,opt_out_marketing") && options.needsReview)
    }

    /// Options side by side: parted where the gap is wide for the letters (one and a half
    /// letters), a box read as small letters before its option ("hA Access") counting as a box;
    /// a row of one option, or of prose, is not parted.
    @Test func optionLinesPartedAtAGapForTheLetters() {
        func words(_ items: [(String, Int)], height: Int = 40) -> [Word] {
            items.enumerated().map { i, item in
                Word(text: item.0, confidence: 90, box: BoundingBox(x: item.1, y: 100, width: 18 * item.0.count, height: item.0.count <= 2 ? 50 : height),
                     block: 1, paragraph: 1, line: 1, word: i + 1)
            }
        }
        // Gaps of 80 pixels: under two letters of 50 (the boxes' height), over one and a half of 40.
        let row = words([("\\A", 100), ("Marketing", 160), ("opt-out", 340), ("hA", 546), ("Access", 600)])
        let lines = FieldExtractor.optionLines(PageLayout(lines: [TextLine(words: row)]))
        #expect(lines.map(\.text) == ["\\A Marketing opt-out", "hA Access"], "\(lines.map(\.text))")
        let prose = words([("Please", 100), ("delete", 300), ("my", 500), ("data", 600)])
        #expect(FieldExtractor.optionLines(PageLayout(lines: [TextLine(words: prose)])).count == 1)
        // A cell opening in small letters is a neighbour's rest, still.
        let rest = words([("Delete", 100), ("my", 260), ("data", 320), ("you", 500), ("hold", 570), ("about", 660)])
        #expect(FieldExtractor.optionLines(PageLayout(lines: [TextLine(words: rest)])).count == 1)
    }

    /// A box read into its option's first word, "(Do not sell/share": the pixels at the word's
    /// start decide, not the word's letters (whose "Do" would read as an empty box's "D" and "o").
    @Test func aBracketReadIntoItsOptionsFirstWord() throws {
        let rows = [
            TextLine(words: Self.row("[X]", "Delete my data", y: 100)),
            TextLine(words: Self.row(nil, "(Do not sell/share", y: 150)),
            TextLine(words: Self.row("[]", "Access", y: 200)),
        ]
        var asked: [String] = []
        let read = try #require(FieldExtractor.requestOptions(rows, tick: { label, _ in
            let word = rows.flatMap(\.words).first { $0.box == label }?.text ?? "?"
            asked.append(word)
            return word == "Access" ? .empty : .ticked
        }))
        #expect(read.value == .text("delete,do_not_sell"))
        #expect(asked.contains("(Do"), "\(asked)")
        // Without pixels, the word's letters say nothing of the box: not an option read.
        let byText = try #require(FieldExtractor.requestOptions(rows))
        #expect(byText.value == .text("delete"))
        #expect(FieldExtractor.optionKey("Remove mi listing") == "delete" && FieldExtractor.optionKey("Remove all filters") == nil)
    }

    /// An option's key word misread a letter or two off on a fax ("markcting", "Dclete") still
    /// names the option; a word that is another word ("Delegate") names none.
    @Test func optionsReadALetterOrTwoOff() throws {
        let rows = [
            TextLine(words: Self.row("[X]", "Dclete my personal information", y: 100)),
            TextLine(words: Self.row("[]", "Delegate an authorized agent", y: 150)),
            TextLine(words: Self.row("[X]", "Opt me oul of markcting lists", y: 200)),
            TextLine(words: Self.row("[]", "Send me a copy of my data", y: 250)),
        ]
        let read = try #require(FieldExtractor.requestOptions(rows))
        #expect(read.value == .text("delete,opt_out_marketing"))
        #expect(FieldExtractor.optionKey("Getetion") == "delete" && FieldExtractor.optionKey("No markeLing") == "opt_out_marketing")
        #expect(FieldExtractor.optionKey("Delegate an authorized agent") == nil && FieldExtractor.optionKey("Market research") == nil)
    }

    @Test func theOptionStartsAtItsFirstCapitalisedWord() {
        func start(_ texts: [String]) -> Int? {
            FieldExtractor.optionStart(texts.enumerated().map { i, t in
                Word(text: t, confidence: 90, box: BoundingBox(x: 20 * i, y: 0, width: 15, height: 20), block: 1, paragraph: 1, line: 1, word: i + 1)
            })
        }
        #expect(start(["[X]", "Delete", "my", "data"]) == 1)
        #expect(start(["fF]", "Do", "not", "sell"]) == 1)
        #expect(start(["of", "].", "Remove", "my", "listing"]) == 2)
        #expect(start(["Xx", "Send", "me", "a", "copy"]) == 1)
        #expect(start(["LJ", "Opt", "me", "out"]) == 1)
        #expect(start(["Stop", "selling", "my", "data"]) == 0)
        #expect(start(["delete", "my", "data"]) == nil)
    }

    /// A strip right of an option (as ``TickBoxReader/mark(after:height:width:back:)`` samples it):
    /// a table's borders cross it from top to bottom and are passed over; the first mark after
    /// them is read as a box left of an option is.
    @Test func aMarkInAColumnRightOfTheOption() throws {
        let h = 30
        func strip(_ draw: (inout [[Bool]]) -> Void) -> GrayImage {
            let (w, rows) = (20 * h, h + 2 * (h / 3))
            var mask = [[Bool]](repeating: [Bool](repeating: false, count: w), count: rows)
            for x in [2 * h, 16 * h] { for y in 0..<rows { mask[y][x] = true; mask[y][x + 1] = true } }
            draw(&mask)
            return GrayImage(width: w, height: rows, pixels: mask.flatMap { $0.map { $0 ? 40 : 230 } })
        }
        for crossed in [false, true] {
            let gray = strip { Self.box(&$0, x: 10 * h, y: h / 3 + 2, size: 26, stroke: 3, crossed: crossed) }
            let found = try #require(TickBoxReader.firstMark(in: gray, height: h))
            #expect(found.0 == (crossed ? .ticked : .empty) && abs(found.x - (10 * h + 13)) <= 1)
        }
        // Nothing but the borders: no mark. A letter-like stroke first: not a box, so nothing.
        #expect(TickBoxReader.firstMark(in: strip { _ in }, height: h) == nil)
        let letter = strip { m in
            for y in 8..<40 { m[y][6 * h] = true; m[y][6 * h + 1] = true }
            Self.box(&m, x: 10 * h, y: h / 3 + 2, size: 26, stroke: 3, crossed: true)
        }
        #expect(TickBoxReader.firstMark(in: letter, height: h) == nil)
    }

    /// A photocopy's table column (the levelled strip of a slanted page): its rule starts two
    /// rows in, speckle is darker than anything printed, and the box is drawn in thin grey lines
    /// that break up at halfway between the darkest ink and the paper. The rule is passed over and
    /// the box read at a third of the way.
    @Test func aPaleBoxAmongDarkSpeckle() throws {
        let h = 26
        let (w, rows) = (20 * h, h + 2 * (h / 3))
        func strip(crossed: Bool) -> GrayImage {
            var px = [UInt8](repeating: 205, count: w * rows)
            for y in 2..<rows { px[y * w + 8 * h] = 90; px[y * w + 8 * h + 1] = 90 }
            for (x, y) in [(40, 5), (200, 30), (333, 12), (470, 20), (500, 3)] { px[y * w + x] = 25 }
            let (bx, by, size) = (11 * h, 6, 24)
            for i in 0..<size {
                for (x, y) in [(bx + i, by), (bx + i, by + size - 1), (bx, by + i), (bx + size - 1, by + i)] { px[y * w + x] = 150 }
                if crossed { px[(by + i) * w + bx + i] = 140; px[(by + i) * w + bx + size - 1 - i] = 140 }
            }
            return GrayImage(width: w, height: rows, pixels: px)
        }
        for crossed in [false, true] {
            let found = try #require(TickBoxReader.firstMark(in: strip(crossed: crossed), height: h))
            #expect(found.0 == (crossed ? .ticked : .empty) && abs(found.x - (11 * h + 12)) <= 1)
        }
    }

    /// Marks right of the options count where they stand in one column; a mark far off that
    /// column is not read as the option's box, and the list goes to review.
    @Test func marksInAColumnRightOfTheOptions() throws {
        let rows = [
            TextLine(words: Self.row(nil, "Remove my profile and all associated records", y: 100)),
            TextLine(words: Self.row(nil, "Do not sell or share my personal information", y: 150)),
            TextLine(words: Self.row(nil, "No marketing e-mails, calls or mail", y: 200)),
            TextLine(words: Self.row(nil, "Right to know: send me my data", y: 250)),
        ]
        let column: (BoundingBox, Int) -> (mark: TickMark?, x: Int)? = { last, _ in
            last.y == 200 ? (.empty, 2000) : (.ticked, 2002)
        }
        let read = try #require(FieldExtractor.requestOptions(rows, tick: { _, _ in nil }, after: column))
        #expect(read.value == .text("access,delete,do_not_sell") && !read.needsReview)
        // One mark far right of the others' column: that row is not decided, so a person looks.
        let astray: (BoundingBox, Int) -> (mark: TickMark?, x: Int)? = { last, _ in
            last.y == 250 ? (.ticked, 2600) : last.y == 200 ? (.empty, 2000) : (.ticked, 2002)
        }
        let partly = try #require(FieldExtractor.requestOptions(rows, tick: { _, _ in nil }, after: astray))
        #expect(partly.value == .text("delete,do_not_sell") && partly.needsReview)
        // "No" opening an option is its first word, not a box read as text.
        let none = FieldExtractor.requestOptions(rows, tick: { _, _ in nil })
        #expect(none == nil)
        // The column of boxes read as one tall word glued to an option ("Oo;0O/0;8", as high as
        // the four rows): no option is beside another for it, and each is read from its own last
        // word (nor from a speck after it, "- -").
        var junk = rows
        junk[1] = TextLine(words: junk[1].words + [Word(text: "Oo;0O/0;8", confidence: 30, box: BoundingBox(x: 2000, y: 95, width: 40, height: 190),
                                                         block: 1, paragraph: 1, line: 150, word: 20)])
        junk[2] = TextLine(words: junk[2].words + [Word(text: "-", confidence: 30, box: BoundingBox(x: 800, y: 212, width: 3, height: 3),
                                                         block: 1, paragraph: 1, line: 200, word: 21)])
        let byRow: (BoundingBox, Int) -> (mark: TickMark?, x: Int)? = { last, _ in
            guard last.height == 30 else { return nil }
            return last.y == 200 ? (.empty, 2000) : (.ticked, 2002)
        }
        let glued = try #require(FieldExtractor.requestOptions(junk, tick: { _, _ in nil }, after: byRow))
        #expect(glued.value == .text("access,delete,do_not_sell") && !glued.needsReview)
    }
}
