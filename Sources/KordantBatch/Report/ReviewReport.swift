import Foundation
import KordantAudio
import KordantOCR

/// `kordant report`: one self-contained HTML page (inline CSS, JS and SVG; page images and audio
/// as data URIs; nothing fetched) for a person checking the results of `batch ocr`,
/// `batch enroll` and `verify --json`. Items that need a look come first; a filter shows one
/// failing reason at a time.
///
/// Page images and recordings are embedded when the file named in the results is readable beside
/// its path (relative to the results file, then to the working directory) and a browser shows its
/// format. Each distinct page image is embedded once (a CSS class), so a batch of repeated
/// templates stays small and images decode only when on screen.
public enum ReviewReport {
    public struct Options: Sendable {
        /// Page images and audio larger than this are not embedded (the page still shows the boxes).
        public var maxEmbeddedBytes = 8 << 20
        public var embedImages = true
        public var embedAudio = true
        public var title = "Kordant review"
        public init() {}
    }

    /// The HTML page for the JSON lines in `paths`. Throws naming the file when one is missing,
    /// not JSON lines, or holds lines of another kind.
    public static func html(results paths: [String], options: Options = .init()) throws(ReportError) -> String {
        let (items, summaries) = try ReviewParser.read(paths)
        var page = Page(options: options)
        return page.render(items: items, summaries: summaries)
    }
}

/// The page being built: HTML text, the embedded images' CSS, and ids.
private struct Page {
    let options: ReviewReport.Options
    var imageClasses: [String: String] = [:]
    var imageCSS = ""
    /// Each distinct recording once (path → id), its data URI in `audioStore`.
    var audioIds: [String: String] = [:]
    var audioStore = ""
    var nextId = 0

    init(options: ReviewReport.Options) { self.options = options }

    mutating func id() -> String {
        nextId += 1
        return "k\(nextId)"
    }

    mutating func render(items: [ReviewItem], summaries: [BatchSummaryLine]) -> String {
        // Needs a look first (failures, then reviews), each group in input order.
        let ordered = items.filter(\.failed) + items.filter { !$0.failed && !$0.reasons.isEmpty } + items.filter { $0.reasons.isEmpty }
        var body = ""
        for (n, item) in ordered.enumerated() { body += article(item, number: n + 1) }
        let summary = summaryHTML(items, summaries)
        return """
            <!DOCTYPE html>
            <html lang="en"><head><meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>\(esc(options.title))</title>
            <style>\(Self.css)\(imageCSS)</style></head>
            <body><header><h1>\(esc(options.title))</h1></header>
            <main>
            \(summary)
            <section aria-labelledby="items-h"><h2 id="items-h">Items</h2>
            <p id="shown" aria-live="polite">\(ordered.count) items</p>
            <ol id="items" class="items">\(body)</ol></section>
            </main>
            \(audioStore)<script>\(Self.script)</script>
            </body></html>

            """
    }

    // MARK: summary

    func summaryHTML(_ items: [ReviewItem], _ summaries: [BatchSummaryLine]) -> String {
        var counts: [String: (all: Int, review: Int, failed: Int)] = [:]
        var reasons: [String: Int] = [:]
        for i in items {
            var c = counts[i.kind.rawValue] ?? (0, 0, 0)
            c.all += 1
            if i.failed { c.failed += 1 } else if !i.reasons.isEmpty { c.review += 1 }
            counts[i.kind.rawValue] = c
            for r in i.reasons { reasons[r, default: 0] += 1 }
        }
        var rows = ""
        for kind in ["document", "enrollment", "verification"] {
            guard let c = counts[kind] else { continue }
            rows += "<tr><th scope=\"row\">\(kind)s</th><td>\(c.all)</td><td>\(c.all - c.review - c.failed)</td><td>\(c.review)</td><td>\(c.failed)</td></tr>"
        }
        let needing = items.filter { !$0.reasons.isEmpty }.count
        var options = "<option value=\"\">all items (\(items.count))</option><option value=\"*\">needs review or failed (\(needing))</option>"
        var reasonRows = ""
        for (r, n) in reasons.sorted(by: { ($1.value, $0.key) < ($0.value, $1.key) }) {
            options += "<option value=\"\(esc(filterKey(r)))\">\(esc(r)) (\(n))</option>"
            reasonRows += "<tr><th scope=\"row\">\(esc(r))</th><td>\(n)</td></tr>"
        }
        var throughput = ""
        for s in summaries {
            let o = s.object
            let rate = (o["items_per_second"] as? Double).map { String(format: "%.2f", $0) } ?? "?"
            let elapsed = (o["elapsed_seconds"] as? Double).map { String(format: "%.2f", $0) } ?? "?"
            throughput += "<li>\(o["processed"] as? Int ?? 0) items in \(elapsed) s: <strong>\(rate) items/s</strong> on \(o["jobs"] as? Int ?? 0) jobs</li>"
        }
        if throughput.isEmpty {
            throughput = "<li>Not in these results (add the batch's <code>--json</code> summary line as an input to show it).</li>"
        }
        return """
            <section aria-labelledby="sum-h" class="summary"><h2 id="sum-h">Summary</h2>
            <div class="table"><table><caption>Items by kind</caption>
            <thead><tr><th scope="col">kind</th><th scope="col">items</th><th scope="col">ok</th><th scope="col">needs review</th><th scope="col">failed</th></tr></thead>
            <tbody>\(rows)</tbody></table></div>
            \(reasonRows.isEmpty ? "<p>Nothing needs review.</p>" : "<div class=\"table\"><table id=\"reasons\"><caption>Failures and reviews by reason</caption><thead><tr><th scope=\"col\">reason</th><th scope=\"col\">items</th></tr></thead><tbody>\(reasonRows)</tbody></table></div>")
            <h3>Throughput</h3><ul>\(throughput)</ul>
            <p class="filter"><label for="filter">Show</label>
            <select id="filter">\(options)</select></p>
            </section>
            """
    }

    // MARK: items

    mutating func article(_ item: ReviewItem, number: Int) -> String {
        let status = item.failed ? "failed" : item.reasons.isEmpty ? "ok" : "needs review"
        let badge = item.failed ? "bad" : item.reasons.isEmpty ? "good" : "warn"
        let reasons = item.reasons.isEmpty ? "" : "<ul class=\"reasons\">" + item.reasons.map { "<li>\(esc($0))</li>" }.joined() + "</ul>"
        let headingId = id()
        var content = ""
        if let error = item.object["error"] as? [String: Any] {
            content = "<p class=\"error\"><strong>\(esc(error["code"] as? String ?? "error"))</strong>: \(esc(error["message"] as? String ?? ""))</p>"
        } else {
            switch item.kind {
            case .document: content = document(item)
            case .enrollment: content = enrollment(item)
            case .verification: content = verification(item)
            }
        }
        let reasonsAttribute = item.reasons.map(filterKey).joined(separator: "|")
        return """
            <li class="item \(item.kind.rawValue)" data-reasons="\(esc(reasonsAttribute))" data-status="\(badge)">
            <article aria-labelledby="\(headingId)"><h3 id="\(headingId)"><span class="badge \(badge)">\(status)</span> \
            <span class="kind">\(item.kind.rawValue)</span> \(esc(item.title))</h3>\(reasons)\(content)</article></li>

            """
    }

    // MARK: documents

    mutating func document(_ item: ReviewItem) -> String {
        let file = item.object["file"] as? String ?? ""
        var html = ""
        let pages = item.object["pages"] as? [[String: Any]] ?? []
        if let pdf = item.object["pdf"] as? String { html += "<p>Searchable PDF: <code>\(esc(pdf))</code></p>" }
        for p in pages {
            let number = p["page"] as? Int ?? 1
            let conf = p["mean_confidence"] as? Double ?? 0
            html += "<section class=\"page\"><h4>Page \(number): \(esc(p["kind"] as? String ?? "?")), \(esc(p["source"] as? String ?? "ocr")), "
                + "mean word confidence \(String(format: "%.1f", conf))</h4>"
            html += pagePicture(p, file: file, source: item.source, pageCount: pages.count)
            html += fieldsTable(p)
            if let mrz = p["mrz"] as? [String: Any] { html += mrzHTML(mrz) }
            html += "</section>"
        }
        return html
    }

    /// The page image (when it can be shown) under word boxes coloured by confidence, the
    /// fields' boxes and the MRZ's, all in the coordinates of the image as given.
    mutating func pagePicture(_ p: [String: Any], file: String, source: String, pageCount: Int) -> String {
        guard let w = p["width"] as? Int, let h = p["height"] as? Int, w > 0, h > 0 else { return "" }
        var scan = ""
        var note = ""
        // Only a single-image page: a PDF or multi-page TIFF page is not an image a browser shows.
        if options.embedImages, pageCount == 1, let cls = imageClass(for: file, source: source) {
            scan = "<div class=\"scan \(cls)\" style=\"left:0%;top:0%;width:100%;height:100%\"></div>"
        } else {
            note = "<p class=\"note\">Page image not shown (not beside its path, too large, or a format browsers do not display): boxes only.</p>"
        }
        var rects = ""
        let words = p["words"] as? [[String: Any]] ?? []
        for word in words {
            guard let b = box(word["box"]) else { continue }
            let c = word["confidence"] as? Double ?? 0
            let cls = c >= 90 ? "hi" : c >= 70 ? "mid" : "lo"
            // No per-word title: the picture is one labelled image, and a title element per word
            // doubled the page's DOM (the words' text is in the page's fields and results).
            rects += "<rect class=\"w \(cls)\" x=\"\(b.0)\" y=\"\(b.1)\" width=\"\(b.2)\" height=\"\(b.3)\"/>"
        }
        let fields = (p["fields"] as? [String: [String: Any]]) ?? [:]
        for (name, f) in fields.sorted(by: { $0.key < $1.key }) {
            guard let b = box(f["box"]) else { continue }
            rects += "<rect class=\"f\" x=\"\(b.0)\" y=\"\(b.1)\" width=\"\(b.2)\" height=\"\(b.3)\"><title>\(esc(name))</title></rect>"
        }
        if let mrz = p["mrz"] as? [String: Any], let b = box(mrz["box"]) {
            rects += "<rect class=\"m\" x=\"\(b.0)\" y=\"\(b.1)\" width=\"\(b.2)\" height=\"\(b.3)\"><title>MRZ</title></rect>"
        }
        let label = "Page image with \(words.count) word boxes and \(fields.count) field boxes"
        let legend = words.isEmpty ? "<figcaption>Field boxes in blue\(p["mrz"] != nil ? ", the MRZ in purple" : ""). No word boxes in these results (run batch ocr with <code>--words</code>).</figcaption>"
            : "<figcaption>Words: <span class=\"key hi\">confidence ≥ 90</span> <span class=\"key mid\">70–90</span> <span class=\"key lo\">&lt; 70</span>; fields in blue.</figcaption>"
        return """
            <figure><div class="sheet" style="aspect-ratio:\(w) / \(h)" role="img" aria-label="\(label)">\(scan)\
            <svg viewBox="0 0 \(w) \(h)" preserveAspectRatio="none" aria-hidden="true">\(rects)</svg></div>\(legend)</figure>\(note)
            """
    }

    func fieldsTable(_ p: [String: Any]) -> String {
        let fields = (p["fields"] as? [String: [String: Any]]) ?? [:]
        guard !fields.isEmpty else { return "<p>No fields found.</p>" }
        var rows = ""
        for (name, f) in fields.sorted(by: { $0.key < $1.key }) {
            let review = (f["needs_review"] as? Bool) == true
            rows += "<tr\(review ? " class=\"review\"" : "")><th scope=\"row\">\(esc(name))</th><td>\(esc(value(f["value"])))</td>"
                + "<td>\(String(format: "%.1f", f["confidence"] as? Double ?? 0))</td><td>\(review ? "needs review" : "")</td></tr>"
        }
        return "<div class=\"table\"><table><caption>Fields</caption><thead><tr><th scope=\"col\">field</th><th scope=\"col\">value</th>"
            + "<th scope=\"col\">confidence</th><th scope=\"col\">review</th></tr></thead><tbody>\(rows)</tbody></table></div>"
    }

    func mrzHTML(_ m: [String: Any]) -> String {
        let lines = (m["lines"] as? [String] ?? []).map(esc).joined(separator: "\n")
        var rows = ""
        for c in m["checks"] as? [[String: Any]] ?? [] {
            let ok = (c["valid"] as? Bool) == true
            rows += "<tr class=\"\(ok ? "" : "review")\"><th scope=\"row\">\(esc(c["field"] as? String ?? ""))</th><td>\(esc(c["printed"] as? String ?? ""))</td>"
                + "<td>\(esc(c["computed"] as? String ?? ""))</td><td>\(ok ? "✓ passes" : "✗ fails")</td></tr>"
        }
        let reasons = (m["review_reasons"] as? [String] ?? []) + (m["problems"] as? [String] ?? [])
        return """
            <h5>MRZ (\(esc(m["layout"] as? String ?? "")), \((m["valid"] as? Bool) == true ? "valid" : "not valid")</h5>
            <pre class="mrz">\(lines)</pre>
            <div class="table"><table><caption>Check digits</caption><thead><tr><th scope="col">field</th><th scope="col">printed</th>\
            <th scope="col">computed</th><th scope="col">result</th></tr></thead><tbody>\(rows)</tbody></table></div>\
            \(reasons.isEmpty ? "" : "<ul>" + reasons.map { "<li>\(esc($0))</li>" }.joined() + "</ul>")
            """
    }

    // MARK: audio

    mutating func enrollment(_ item: ReviewItem) -> String {
        let o = item.object
        let pass = (o["pass"] as? Bool) == true
        var html = "<p>Verdict: <strong>\(pass ? "PASS" : "FAIL")</strong>"
        if let c = o["consistency"] as? [String: Any] {
            html += (c["consistent"] as? Bool) == true ? ", samples consistent" : ", inconsistent speaker"
        }
        html += "</p>"
        for s in o["samples"] as? [[String: Any]] ?? [] {
            let file = s["file"] as? String ?? ""
            let q = s["quality"] as? [String: Any] ?? [:]
            let duration = q["duration_s"] as? Double ?? 0
            html += "<section class=\"sample\"><h4>\(esc(file)): \((q["pass"] as? Bool) == true ? "passes" : "fails")</h4>"
            html += waveform(file, source: item.source, duration: duration, segments: q["segments"] as? [[Double]] ?? [])
            func num(_ key: String, _ unit: String) -> String {
                (q[key] as? Double).map { String(format: "%.1f", $0) + unit } ?? "n/a"
            }
            html += "<dl class=\"facts\"><div><dt>duration</dt><dd>\(num("duration_s", " s"))</dd></div><div><dt>speech</dt><dd>\(num("speech_s", " s"))</dd></div>"
                + "<div><dt>speech level</dt><dd>\(num("speech_level_db", " dB"))</dd></div><div><dt>SNR</dt><dd>\(num("snr_db", " dB"))</dd></div>"
                + "<div><dt>peak</dt><dd>\(num("peak_db", " dB"))</dd></div></dl>"
            let segments = (q["segments"] as? [[Double]] ?? []).map { String(format: "%.2f–%.2f s", $0.first ?? 0, $0.last ?? 0) }
            html += "<p>Speech segments: \(segments.isEmpty ? "none" : esc(segments.joined(separator: ", ")))</p>"
            let messages = q["messages"] as? [[String: Any]] ?? []
            if !messages.isEmpty {
                html += "<ul class=\"reasons\">" + messages.map { "<li><strong>\(esc($0["code"] as? String ?? ""))</strong>: \(esc($0["message"] as? String ?? ""))</li>" }.joined() + "</ul>"
            }
            html += audioElement(file, source: item.source)
            html += "</section>"
        }
        return html
    }

    mutating func verification(_ item: ReviewItem) -> String {
        let o = item.object
        let file = o["file"] as? String ?? ""
        func num(_ key: String) -> String { (o[key] as? Double).map { String(format: "%.3f", $0) } ?? "n/a" }
        return "<p>Verdict: <strong>\(esc(o["verdict"] as? String ?? ""))</strong></p><dl class=\"facts\"><div><dt>score</dt><dd>\(num("score"))</dd></div>"
            + "<div><dt>confidence</dt><dd>\(num("confidence"))</dd></div><div><dt>same-speaker probability</dt><dd>\(num("same_speaker_probability"))</dd></div>"
            + "<div><dt>voiced</dt><dd>\(num("voiced_s")) s</dd></div></dl>"
            + waveform(file, source: item.source, duration: nil, segments: []) + audioElement(file, source: item.source)
    }

    /// The engine's own waveform SVG of the recording, with its speech segments marked under it.
    func waveform(_ file: String, source: String, duration: Double?, segments: [[Double]]) -> String {
        guard let path = resolve(file, source: source), let decoder = try? MonoDecoder(path: path, outputRate: nil) else {
            return "<p class=\"note\">Recording not beside its path: no waveform.</p>"
        }
        let seconds = duration ?? decoder.source.duration
        var builder = Waveform.Builder(sampleRate: decoder.outputRate, pixelsPerSecond: 600 / max(seconds, 0.1))
        builder.reserve(samples: decoder.source.frames)
        guard (try? decoder.run({ builder.add($0) })) != nil else { return "<p class=\"note\">Recording unreadable: no waveform.</p>" }
        let wave = builder.finish()
        let pps = Double(wave.sampleRate) / Double(wave.samplesPerPixel)
        var marks = ""
        for s in segments where s.count == 2 {
            marks += "<rect x=\"\(String(format: "%.1f", s[0] * pps))\" y=\"0\" width=\"\(String(format: "%.1f", (s[1] - s[0]) * pps))\" height=\"10\"/>"
        }
        let svg = wave.svg(height: 80).replacingOccurrences(of: "<svg ", with: "<svg aria-hidden=\"true\" ")
        return """
            <figure class="wave" role="img" aria-label="Waveform of \(esc(file)), \(String(format: "%.1f", seconds)) s, \(segments.count) speech segments">\(svg)\
            <svg class="segments" aria-hidden="true" viewBox="0 0 \(max(wave.length, 1)) 10" preserveAspectRatio="none">\(marks)</svg>\
            <figcaption>Waveform; speech segments in green below it.</figcaption></figure>
            """
    }

    /// A player for the recording. Its data is stored once per file (a repeated sample costs one
    /// copy) and given to the player as it comes near the screen, so a long page loads fast.
    mutating func audioElement(_ file: String, source: String) -> String {
        guard options.embedAudio, let path = resolve(file, source: source) else { return "" }
        if audioIds[path] == nil {
            let ext = URL(fileURLWithPath: path).pathExtension.lowercased()
            let mime = ["wav": "audio/wav", "flac": "audio/flac", "ogg": "audio/ogg", "oga": "audio/ogg", "opus": "audio/ogg", "mp3": "audio/mpeg"][ext]
            guard let mime, let data = small(path) else {
                audioIds[path] = ""
                return ""
            }
            let id = "a\(audioIds.count)"
            audioIds[path] = id
            audioStore += "<script type=\"text/plain\" id=\"\(id)\">data:\(mime);base64,\(data.base64EncodedString())</script>\n"
        }
        guard let id = audioIds[path], !id.isEmpty else { return "" }
        return "<p><audio controls preload=\"none\" aria-label=\"Play \(esc(file))\" data-media=\"\(id)\"></audio></p>"
    }

    // MARK: files

    /// `file` as written in the results, found relative to the results file, then as given.
    func resolve(_ file: String, source: String) -> String? {
        guard !file.isEmpty else { return nil }
        if file.hasPrefix("/") { return FileManager.default.isReadableFile(atPath: file) ? file : nil }
        let beside = URL(fileURLWithPath: source).deletingLastPathComponent().appendingPathComponent(file).path
        if FileManager.default.isReadableFile(atPath: beside) { return beside }
        return FileManager.default.isReadableFile(atPath: file) ? file : nil
    }

    func fits(_ path: String) -> Bool {
        // stat follows a symbolic link: the size of the link itself would let any file in.
        var st = stat()
        return stat(path, &st) == 0 && Int(st.st_size) <= options.maxEmbeddedBytes
    }

    func small(_ path: String) -> Data? { fits(path) ? FileManager.default.contents(atPath: path) : nil }

    /// The CSS class holding `file` as a background image (embedded once), or nil when it cannot
    /// be shown (not found, too large, not an image the engine reads, several pages).
    mutating func imageClass(for file: String, source: String) -> String? {
        guard let path = resolve(file, source: source) else { return nil }
        if let known = imageClasses[path] { return known.isEmpty ? nil : known }
        // Shown at most ~1200 px wide: a JPEG of that size is a tenth of a 300 DPI scan's PNG.
        guard fits(path), let pages = try? ImageLoader.load(path: path), pages.count == 1,
              let jpeg = pages[0].jpeg(maxWidth: 1200) else {
            imageClasses[path] = ""
            return nil
        }
        let cls = "i\(imageClasses.count)"
        imageClasses[path] = cls
        imageCSS += ".\(cls){background-image:url(data:image/jpeg;base64,\(jpeg.base64EncodedString()))}\n"
        return cls
    }

    func box(_ any: Any?) -> (Int, Int, Int, Int)? {
        guard let b = any as? [String: Any], let x = b["x"] as? Int, let y = b["y"] as? Int, let w = b["width"] as? Int, let h = b["height"] as? Int else { return nil }
        return (x, y, w, h)
    }

    func value(_ any: Any?) -> String {
        switch any {
        case let s as String: s
        case let n as NSNumber: n.stringValue
        case let a as [Any]: a.map { value($0) }.joined(separator: ", ")
        case let o as [String: Any]: o.sorted { $0.key < $1.key }.map { "\($0.key): \(value($0.value))" }.joined(separator: ", ")
        default: ""
        }
    }

    // MARK: static parts

    // Colours: text and badges at WCAG AA contrast or better on white.
    static let css = """
        *{box-sizing:border-box}body{margin:0;font:16px/1.45 system-ui,sans-serif;color:#1a1a1a;background:#fff}
        header{background:#123;color:#fff;padding:.5rem 1rem}h1{font-size:1.3rem;margin:0}main{padding:0 1rem 2rem;max-width:70rem;margin:auto}
        h2{font-size:1.2rem;margin-top:1.2rem}h3,h4,code{overflow-wrap:anywhere}h3{font-size:1.05rem;margin:.2rem 0}h4{font-size:1rem;margin:.6rem 0 .3rem}h5{font-size:.95rem;margin:.5rem 0 .2rem}
        .table{overflow-x:auto}table{border-collapse:collapse;margin:.4rem 0}caption{text-align:left;font-weight:600}
        th,td{border:1px solid #999;padding:.2rem .45rem;text-align:left;vertical-align:top}tr.review{background:#fff3cd}
        .items{list-style:none;padding:0;margin:0}.item{border:1px solid #888;border-radius:6px;padding:.6rem;margin:.7rem 0;
        content-visibility:auto;contain-intrinsic-size:auto 900px}.item[hidden]{display:none}
        .badge{display:inline-block;border-radius:4px;padding:0 .4rem;font-size:.85rem;color:#fff}.badge.bad{background:#a4161a}
        .badge.warn{background:#8a4b00}.badge.good{background:#1b6e2e}.kind{color:#444;font-weight:400}
        .reasons{margin:.3rem 0;padding-left:1.2rem}.error{color:#a4161a}.note{color:#444;font-size:.9rem}
        figure{margin:.4rem 0}.sheet{position:relative;width:100%;max-width:40rem;border:1px solid #999;overflow:hidden;background:#fff}
        .scan{position:absolute;background-size:100% 100%;background-repeat:no-repeat}
        .sheet svg{position:absolute;inset:0;width:100%;height:100%}
        rect.w{fill:none;stroke-width:3}rect.hi{stroke:#1b6e2e}rect.mid{stroke:#b86e00}rect.lo{stroke:#c1121f;stroke-width:5}
        rect.f{fill:#1f5fbf;fill-opacity:.15;stroke:#1f5fbf;stroke-width:6}rect.m{fill:none;stroke:#6a1b9a;stroke-width:8}
        .key{padding:0 .3rem;border:3px solid}.key.hi{border-color:#1b6e2e}.key.mid{border-color:#b86e00}.key.lo{border-color:#c1121f}
        pre.mrz{font:14px/1.3 ui-monospace,monospace;background:#f3f3f3;padding:.4rem;overflow-x:auto}
        .wave svg{display:block;max-width:100%;height:auto}.wave svg.segments{width:100%;max-width:600px;height:10px;background:#eee}
        .segments rect{fill:#1b6e2e}.facts{display:flex;flex-wrap:wrap;gap:.2rem 1.2rem;margin:.3rem 0}.facts dt{font-size:.8rem;color:#444}.facts dd{margin:0;font-weight:600}
        select{font-size:1rem;padding:.3rem;max-width:100%}:focus-visible{outline:3px solid #1f5fbf;outline-offset:2px}
        @media (max-width:480px){main{padding:0 .5rem 1rem}th,td{padding:.15rem .3rem;font-size:.9rem}}

        """

    /// The filter: a reason chosen shows only the items with it (`*`: any reason); the count of
    /// items shown is announced.
    static let script = """
        (function(){var s=document.getElementById('filter'),items=document.querySelectorAll('#items>li'),out=document.getElementById('shown');
        function apply(){var v=s.value,n=0;items.forEach(function(li){var r=li.getAttribute('data-reasons'),show=v===''||(v==='*'?r!=='':r.split('|').indexOf(v)>=0);
        li.hidden=!show;if(show)n++;});out.textContent=n+' of '+items.length+' shown';}
        s.addEventListener('change',apply);apply();
        function media(a){if(!a.src){var d=document.getElementById(a.getAttribute('data-media'));if(d)a.src=d.textContent;}}
        var players=document.querySelectorAll('audio[data-media]');
        if('IntersectionObserver' in window){var io=new IntersectionObserver(function(es){es.forEach(function(e){if(e.isIntersecting){media(e.target);io.unobserve(e.target);}});},{rootMargin:'800px'});
        players.forEach(function(a){io.observe(a);});}else{players.forEach(media);}
        // When the page had loaded (ms after navigation start), for benchmarks/report-render.
        addEventListener('load',function(){document.documentElement.setAttribute('data-loaded-ms',Math.round(performance.now()));});
        })();
        """
}

/// A reason as the filter matches it (`|` separates an item's reasons).
private func filterKey(_ reason: String) -> String { reason.replacingOccurrences(of: "|", with: "/") }

/// Text for HTML (element content and attribute values).
private func esc(_ s: String) -> String {
    var out = ""
    out.reserveCapacity(s.utf8.count)
    for c in s {
        switch c {
        case "&": out += "&amp;"
        case "<": out += "&lt;"
        case ">": out += "&gt;"
        case "\"": out += "&quot;"
        case "'": out += "&#39;"
        default: out.append(c)
        }
    }
    return out
}
