import Foundation

/// Why a results file cannot make a review page.
public struct ReportError: Error, Sendable, CustomStringConvertible {
    public enum Kind: String, Sendable {
        case notFound = "not_found"
        /// Not JSON lines, or lines that are none of `batch ocr`, `batch enroll`, `verify --json`.
        case notResults = "not_results"
    }
    public let kind: Kind
    public let path: String
    public let detail: String
    public var description: String { "\(path): \(detail)" }
}

/// One line of the results, understood: what it is, and what about it needs a person's look.
struct ReviewItem {
    enum Kind: String { case document, enrollment, verification }
    let kind: Kind
    /// The line, parsed.
    let object: [String: Any]
    /// The results file it came from (paths in it are resolved beside it, then from here).
    let source: String
    /// Reason codes a reviewer filters by; empty when nothing needs review.
    let reasons: [String]
    /// The item could not be processed at all (an error line).
    let failed: Bool

    var title: String {
        (object["id"] as? String) ?? (object["group"] as? String) ?? (object["file"] as? String) ?? "item"
    }
}

/// The batch summary (`batch … --json` on stdout), when it is among the inputs: throughput.
struct BatchSummaryLine {
    let object: [String: Any]
}

enum ReviewParser {
    static let audioExtensions: Set<String> = ["wav", "flac", "ogg", "oga", "mp3", "aif", "aiff", "aifc", "caf", "au", "w64", "rf64", "opus"]

    /// Every line of every file, in order, sorted into items and summaries.
    static func read(_ paths: [String]) throws(ReportError) -> (items: [ReviewItem], summaries: [BatchSummaryLine]) {
        var items: [ReviewItem] = []
        var summaries: [BatchSummaryLine] = []
        for path in paths {
            guard FileManager.default.fileExists(atPath: path) else { throw ReportError(kind: .notFound, path: path, detail: "no such file") }
            guard let data = FileManager.default.contents(atPath: path) else {
                throw ReportError(kind: .notResults, path: path, detail: "cannot be read (a directory, or no permission)")
            }
            var lineNumber = 0
            var found = 0
            for line in data.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
                lineNumber += 1
                if line.allSatisfy({ $0 == 32 || $0 == 9 || $0 == 13 }) { continue }
                guard let object = (try? JSONSerialization.jsonObject(with: Data(line))) as? [String: Any] else {
                    throw ReportError(kind: .notResults, path: path, detail: "line \(lineNumber) is not a JSON object")
                }
                if object["items_per_second"] != nil {
                    summaries.append(BatchSummaryLine(object: object))
                } else if let item = item(object, source: path) {
                    items.append(item)
                } else {
                    throw ReportError(kind: .notResults, path: path,
                                      detail: "line \(lineNumber) is not a result of batch ocr, batch enroll or verify --json")
                }
                found += 1
            }
            if found == 0 { throw ReportError(kind: .notResults, path: path, detail: "no results in it (empty)") }
        }
        return (items, summaries)
    }

    static func item(_ o: [String: Any], source: String) -> ReviewItem? {
        if let error = o["error"] as? [String: Any] {
            let code = (error["code"] as? String) ?? "error"
            let file = (o["file"] as? String) ?? (error["file"] as? String) ?? ""
            let kind: ReviewItem.Kind = o["group"] != nil ? .enrollment
                : audioExtensions.contains(URL(fileURLWithPath: file).pathExtension.lowercased()) ? .verification : .document
            return ReviewItem(kind: kind, object: o, source: source, reasons: ["error: \(code)"], failed: true)
        }
        if let pages = o["pages"] as? [[String: Any]] {
            return ReviewItem(kind: .document, object: o, source: source, reasons: documentReasons(pages), failed: false)
        }
        if let samples = o["samples"] as? [[String: Any]] {
            var reasons: [String] = []
            for s in samples {
                for r in ((s["quality"] as? [String: Any])?["reasons"] as? [String]) ?? [] where !reasons.contains(r) { reasons.append(r) }
            }
            if (o["pass"] as? Bool) == false && reasons.isEmpty { reasons.append("enrollment_failed") }
            return ReviewItem(kind: .enrollment, object: o, source: source, reasons: reasons, failed: false)
        }
        if let verdict = o["verdict"] as? String {
            var reasons = verdict == "match" ? [] : ["verdict: \(verdict)"]
            reasons += (o["reasons"] as? [String]) ?? []
            return ReviewItem(kind: .verification, object: o, source: source, reasons: reasons, failed: false)
        }
        return nil
    }

    /// What on a document's pages needs a look: doubtful fields, an MRZ that is not valid or is
    /// up for review, a poor reading, a kind that could not be told.
    static func documentReasons(_ pages: [[String: Any]]) -> [String] {
        var reasons: [String] = []
        func add(_ r: String) { if !reasons.contains(r) { reasons.append(r) } }
        for p in pages {
            for (_, f) in (p["fields"] as? [String: [String: Any]]) ?? [:] where (f["needs_review"] as? Bool) == true {
                add("field needs review")
            }
            if let mrz = p["mrz"] as? [String: Any] {
                if (mrz["valid"] as? Bool) == false { add("MRZ not valid") }
                if (mrz["needs_review"] as? Bool) == true { add("MRZ needs review") }
            }
            if let c = p["mean_confidence"] as? Double, c < 70, (p["text"] as? String)?.isEmpty == false { add("low confidence") }
            if (p["kind"] as? String) == "unknown" { add("kind unknown") }
        }
        return reasons
    }
}
