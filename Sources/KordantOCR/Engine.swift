@preconcurrency import CTesseract
import Foundation

/// A pixel rectangle (origin top-left).
public struct BoundingBox: Sendable, Equatable, Codable {
    public var x: Int
    public var y: Int
    public var width: Int
    public var height: Int

    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    /// Whether the two boxes share any pixel.
    public func intersects(_ o: BoundingBox) -> Bool {
        x < o.x + o.width && o.x < x + width && y < o.y + o.height && o.y < y + height
    }

    /// Whether the point lies inside the box.
    public func contains(x px: Int, y py: Int) -> Bool {
        px >= x && px < x + width && py >= y && py < y + height
    }

    /// The smallest box holding both.
    /// The box with `pad` pixels more on every side (not kept within any image).
    func padded(_ pad: Int) -> BoundingBox {
        BoundingBox(x: x - pad, y: y - pad, width: width + 2 * pad, height: height + 2 * pad)
    }

    public func union(_ o: BoundingBox) -> BoundingBox {
        let x0 = min(x, o.x), y0 = min(y, o.y)
        return BoundingBox(x: x0, y: y0, width: max(x + width, o.x + o.width) - x0, height: max(y + height, o.y + o.height) - y0)
    }
}

/// One recognised word with its place in Tesseract's layout.
public struct Word: Sendable, Equatable, Codable {
    public var text: String
    public var confidence: Double
    public var box: BoundingBox
    public var block: Int
    public var paragraph: Int
    public var line: Int
    public var word: Int
}

/// Page segmentation modes the engine uses.
public enum PageSegmentation: Int32, Sendable, Codable {
    case auto = 3
    case singleBlock = 6
    case singleLine = 7
    case singleCharacter = 10
    case sparse = 11
}

/// OCR of one page.
public struct PageText: Sendable, Equatable {
    public var text: String
    public var meanConfidence: Double
    public var words: [Word]
    public var width: Int
    public var height: Int
    public var hocr: String?
    public var tsv: String?
    /// The page as an ALTO `<Page>` element (Tesseract's ALTO renderer, pixel units).
    public var alto: String?
}

/// A Tesseract handle. Owns its `TessBaseAPI*`; initialised once, reused page after page
/// (SetImage → Recognize → read → Clear). Not thread-safe: one per worker thread.
final class TesseractHandle {
    private let api: OpaquePointer
    let language: String

    convenience init(language: String = "eng") throws(OCRError) {
        // nil datapath: Tesseract's compiled-in tessdata directory, or TESSDATA_PREFIX.
        try self.init(language: language, load: { TessBaseAPIInit3($0, nil, language) },
                      failure: "cannot load language data '\(language)' (install tesseract-ocr-\(language == "osd" ? "osd" : language) or set TESSDATA_PREFIX)")
    }

    /// A handle on `language` (several joined by "+") from the directory `datapath`, for LSTM
    /// recognition only.
    convenience init(datapath: String, language: String) throws(OCRError) {
        try self.init(language: language, load: { TessBaseAPIInit2($0, datapath, language, OEM_LSTM_ONLY) },
                      failure: "cannot load language data '\(language)' from \(datapath)")
    }

    /// A handle on traineddata held in memory (`TrainedData`), for LSTM recognition only.
    convenience init(data: Data, language: String) throws(OCRError) {
        try self.init(language: language, load: { api in
            data.withUnsafeBytes { raw in
                TessBaseAPIInit5(api, raw.baseAddress?.assumingMemoryBound(to: CChar.self), Int32(raw.count), language, OEM_LSTM_ONLY, nil, 0, nil, nil, 0, 0)
            }
        }, failure: "cannot load language data '\(language)' from memory")
    }

    private init(language: String, load: (OpaquePointer) -> Int32, failure: String) throws(OCRError) {
        guard let api = TessBaseAPICreate() else { throw OCRError(.engineFailed, path: "tesseract", "cannot create a handle") }
        // tprintf goes to stderr by default; the libraries never print.
        TessBaseAPISetVariable(api, "debug_file", "/dev/null")
        guard load(api) == 0 else {
            TessBaseAPIDelete(api)
            throw OCRError(.engineFailed, path: "tesseract", failure)
        }
        // Tesseract re-reads every line it reads with a mean confidence under 0.7 a second time,
        // inverted, in case it is light text on a dark band. On scans and photos that is mostly
        // a poorly printed dark-on-light line, read twice for nothing: 10–25 % of the recognition
        // time of a degraded page (see benchmarks/README.md, issue 19, for what it cost and kept).
        TessBaseAPISetVariable(api, "tessedit_do_invert", "0")
        self.api = api
        self.language = language
    }

    deinit {
        TessBaseAPIEnd(api)
        TessBaseAPIDelete(api)
    }

    /// OSD: the page's rotation in degrees (0/90/180/270) and Tesseract's confidence.
    func orientation(of image: LeptImage, resolution: Int) -> (Int, Float)? {
        TessBaseAPISetPageSegMode(api, PSM_OSD_ONLY)
        TessBaseAPISetImage2(api, image.pix)
        TessBaseAPISetSourceResolution(api, Int32(resolution))
        defer { TessBaseAPIClear(api) }
        var degrees: Int32 = 0, confidence: Float = 0, scriptConfidence: Float = 0
        var script: UnsafePointer<CChar>?
        guard TessBaseAPIDetectOrientationScript(api, &degrees, &confidence, &script, &scriptConfidence) != 0 else { return nil }
        return (Int(degrees), confidence)
    }

    /// One recognised character with Tesseract's confidence (0–100) and its box.
    struct Symbol {
        var text: String
        var confidence: Double
        var box: BoundingBox
    }

    /// Character-level reading of `image` as one block, restricted to `whitelist` (the MRZ
    /// alphabet), for the MRZ reader's second opinion.
    func recognizeSymbols(_ image: LeptImage, whitelist: String) -> [Symbol] {
        TessBaseAPISetPageSegMode(api, PSM_SINGLE_BLOCK)
        TessBaseAPISetVariable(api, "tessedit_char_whitelist", whitelist)
        TessBaseAPISetImage2(api, image.pix)
        TessBaseAPISetSourceResolution(api, 300)
        defer {
            TessBaseAPIClear(api)
            TessBaseAPISetVariable(api, "tessedit_char_whitelist", "")
        }
        guard TessBaseAPIRecognize(api, nil) == 0, let iterator = TessBaseAPIGetIterator(api) else { return [] }
        defer { TessResultIteratorDelete(iterator) }
        let page = TessResultIteratorGetPageIterator(iterator)
        var symbols: [Symbol] = []
        repeat {
            guard let cText = TessResultIteratorGetUTF8Text(iterator, RIL_SYMBOL) else { continue }
            let text = String(cString: cText)
            TessDeleteText(cText)
            var l: Int32 = 0, t: Int32 = 0, r: Int32 = 0, b: Int32 = 0
            TessPageIteratorBoundingBox(page, RIL_SYMBOL, &l, &t, &r, &b)
            symbols.append(Symbol(text: text, confidence: Double(TessResultIteratorConfidence(iterator, RIL_SYMBOL)),
                                  box: BoundingBox(x: Int(l), y: Int(t), width: Int(r - l), height: Int(b - t))))
        } while TessPageIteratorNext(page, RIL_SYMBOL) != 0
        return symbols
    }

    /// The tessdata directory the handle loaded its language from (where `pdf.ttf` is).
    var datapath: String { TessBaseAPIGetDatapath(api).map { String(cString: $0) } ?? "" }

    /// Adds the page recognised last (kept with `keep: true`) to `pdf`, then clears it. When
    /// `shown` is given (same size as the image read) the PDF shows it instead: the page as
    /// given, in colour, with the text layer in the same coordinates.
    func addLastPage(to pdf: SearchablePDF, shown: LeptImage? = nil) throws(OCRError) {
        defer { TessBaseAPIClear(api) }
        // SetInputImage takes ownership of what it is given: a clone (one more reference) keeps ours.
        if let shown { TessBaseAPISetInputImage(api, pixClone(shown.pix)) }
        try pdf.add(api)
    }

    /// Drops the results kept by `recognize(…, keep: true)`.
    func clear() { TessBaseAPIClear(api) }

    /// Reads `image`. `keep`: leave the results in the handle (for ``addLastPage(to:shown:)``)
    /// instead of clearing them. `whitelist`: the only characters it may read (this call only).
    /// `invert`: poorly read lines are read again inverted (light print on a dark band), which
    /// the handle does not do otherwise (this call only).
    func recognize(_ image: LeptImage, resolution: Int, mode: PageSegmentation, rectangle: BoundingBox? = nil,
                   hocr: Bool = false, tsv: Bool = false, alto: Bool = false, pageNumber: Int = 0, keep: Bool = false,
                   whitelist: String? = nil, invert: Bool = false) throws(OCRError) -> PageText {
        TessBaseAPISetPageSegMode(api, TessPageSegMode(rawValue: UInt32(mode.rawValue)))
        if let whitelist { TessBaseAPISetVariable(api, "tessedit_char_whitelist", whitelist) }
        defer { if whitelist != nil { TessBaseAPISetVariable(api, "tessedit_char_whitelist", "") } }
        if invert { TessBaseAPISetVariable(api, "tessedit_do_invert", "1") }
        defer { if invert { TessBaseAPISetVariable(api, "tessedit_do_invert", "0") } }
        TessBaseAPISetImage2(api, image.pix)
        TessBaseAPISetSourceResolution(api, Int32(resolution))
        if let r = rectangle { TessBaseAPISetRectangle(api, Int32(r.x), Int32(r.y), Int32(r.width), Int32(r.height)) }
        defer { if !keep { TessBaseAPIClear(api) } }
        guard TessBaseAPIRecognize(api, nil) == 0 else { throw OCRError(.engineFailed, path: "tesseract", "recognition failed") }
        var words: [Word] = []
        var block = 0, paragraph = 0, line = 0, wordIndex = 0
        // Each block's text and the box of its words, for `ReadingOrder`.
        var blockTexts: [String] = [], blockBoxes: [BoundingBox?] = []
        // The word being read and its characters (walked one by one for `PhantomSymbols`, in a
        // word read under the review line only: a value read from it stays in review), and the
        // words it changed: (block, as read, as kept).
        var current: Word?, symbols: [Symbol] = [], mended: [(block: Int, read: String, kept: String)] = []
        func finish() {
            guard var word = current else { return }
            // (`symbols` holds the word's characters only when it was read under the review line.)
            if let kept = PhantomSymbols.kept(symbols) {
                mended.append((word.block, word.text, kept))
                word.text = kept
            }
            words.append(word)
            current = nil
        }
        if let iterator = TessBaseAPIGetIterator(api) {
            defer { TessResultIteratorDelete(iterator) }
            let page = TessResultIteratorGetPageIterator(iterator)
            repeat {
                // (The word before is finished before a new line resets the count of its words.)
                let wordStarts = TessPageIteratorIsAtBeginningOf(page, RIL_WORD) != 0
                if wordStarts { finish() }
                if TessPageIteratorIsAtBeginningOf(page, RIL_BLOCK) != 0 {
                    block += 1; paragraph = 0
                    var blockText = ""
                    if let t = TessResultIteratorGetUTF8Text(iterator, RIL_BLOCK) {
                        blockText = String(cString: t)
                        TessDeleteText(t)
                    }
                    blockTexts.append(blockText)
                    blockBoxes.append(nil)
                }
                if TessPageIteratorIsAtBeginningOf(page, RIL_PARA) != 0 { paragraph += 1; line = 0 }
                if TessPageIteratorIsAtBeginningOf(page, RIL_TEXTLINE) != 0 { line += 1; wordIndex = 0 }
                var l: Int32 = 0, t: Int32 = 0, r: Int32 = 0, b: Int32 = 0
                if wordStarts {
                    symbols.removeAll(keepingCapacity: true)
                    guard let cText = TessResultIteratorGetUTF8Text(iterator, RIL_WORD) else { continue }
                    let text = String(cString: cText)
                    TessDeleteText(cText)
                    if text.trimmingCharacters(in: .whitespaces).isEmpty { continue }
                    wordIndex += 1
                    TessPageIteratorBoundingBox(page, RIL_WORD, &l, &t, &r, &b)
                    let box = BoundingBox(x: Int(l), y: Int(t), width: Int(r - l), height: Int(b - t))
                    current = Word(text: text, confidence: Double(TessResultIteratorConfidence(iterator, RIL_WORD)),
                                   box: box, block: block, paragraph: paragraph, line: line, word: wordIndex)
                    if block > 0 { blockBoxes[block - 1] = blockBoxes[block - 1].map { $0.union(box) } ?? box }
                }
                guard let word = current, word.confidence < FieldExtractor.reviewConfidence,
                      let cSymbol = TessResultIteratorGetUTF8Text(iterator, RIL_SYMBOL) else { continue }
                let symbol = String(cString: cSymbol)
                TessDeleteText(cSymbol)
                TessPageIteratorBoundingBox(page, RIL_SYMBOL, &l, &t, &r, &b)
                symbols.append(Symbol(text: symbol, confidence: Double(TessResultIteratorConfidence(iterator, RIL_SYMBOL)),
                                      box: BoundingBox(x: Int(l), y: Int(t), width: Int(r - l), height: Int(b - t))))
            } while TessPageIteratorNext(page, RIL_SYMBOL) != 0
            finish()
        }
        var text = ""
        if let t = TessBaseAPIGetUTF8Text(api) {
            text = String(cString: t)
            TessDeleteText(t)
        }
        // The blocks in the order printed (see `ReadingOrder`), when that is not Tesseract's and
        // its blocks' texts make up its page text (they do, but for blocks of blanks, which the
        // page text leaves out and so does this: the check is a safeguard). A block with a word
        // `PhantomSymbols` mended is given the word as kept.
        let shown = blockBoxes.indices.filter { blockBoxes[$0] != nil && blockTexts[$0].contains { !$0.isWhitespace } }
        let order = ReadingOrder.order(shown.map { blockBoxes[$0]! }).map { shown[$0] }
        if order != shown || !mended.isEmpty, shown.map({ blockTexts[$0] }).joined() == text {
            for m in mended where m.block > 0 { blockTexts[m.block - 1] = PhantomSymbols.replaced(m.read, by: m.kept, in: blockTexts[m.block - 1]) }
            text = order.map { blockTexts[$0] }.joined()
        }
        /// A rendering Tesseract allocated, as a String (freed).
        func take(_ wanted: Bool, _ make: (OpaquePointer?, Int32) -> UnsafeMutablePointer<CChar>?) -> String? {
            guard wanted, let p = make(api, Int32(pageNumber)) else { return nil }
            defer { TessDeleteText(p) }
            return String(cString: p)
        }
        let mean = words.isEmpty ? 0 : words.reduce(0) { $0 + $1.confidence } / Double(words.count)
        return PageText(text: text, meanConfidence: mean, words: words, width: image.width, height: image.height,
                        hocr: take(hocr, TessBaseAPIGetHOCRText), tsv: take(tsv, TessBaseAPIGetTsvText), alto: take(alto, TessBaseAPIGetAltoText))
    }
}
