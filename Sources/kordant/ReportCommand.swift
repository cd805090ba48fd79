import ArgumentParser
import Foundation
import KordantBatch

/// `kordant report`: the review page. Parsing and writing only; the page is `ReviewReport`'s.
struct ReportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract: "One self-contained HTML review page from the JSON lines of batch ocr, batch enroll and verify --json.",
        discussion: """
            Needs-review and failed items first, a summary (counts, failures by reason, throughput when the \
            batch's --json summary line is among the inputs) and a filter by reason. Page images and \
            recordings named in the results are embedded when readable beside their path (relative to \
            the results file, then to the working directory). Exit 10 when an input is missing, 62 when \
            it is not such results, 20 when --out cannot be written.
            """)

    @Argument(help: "Results files (JSON lines).")
    var results: [String]
    @Option(name: .shortAndLong, help: "The HTML file to write.")
    var out: String
    @Option(name: .long, help: "Page title.")
    var title: String = "Kordant review"
    @Flag(name: .long, help: "Do not embed page images or recordings (boxes and figures only).")
    var noMedia = false
    @OptionGroup var common: CommonOptions

    func validate() throws {
        guard !results.isEmpty else { throw ValidationError("give at least one results file") }
    }

    func run() throws {
        common.bootstrapLogging()
        var options = ReviewReport.Options()
        options.title = title
        options.embedImages = !noMedia
        options.embedAudio = !noMedia
        let html: String
        do { html = try ReviewReport.html(results: results, options: options) } catch {
            fail(code: error.kind.rawValue, file: error.path, message: error.detail,
                 exit: error.kind == .notFound ? 10 : ExitCodes.reportInput, json: common.json)
        }
        do { try Data(html.utf8).write(to: URL(fileURLWithPath: out), options: .atomic) } catch {
            fail(code: "write_failed", file: out, message: "cannot write the report: \((error as NSError).localizedDescription)",
                 exit: 20, json: common.json)
        }
    }
}

extension ExitCodes {
    /// `report`: an input is not JSON lines of batch ocr, batch enroll or verify --json.
    static let reportInput: Int32 = 62
}
