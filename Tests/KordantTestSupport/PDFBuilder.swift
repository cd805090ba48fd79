import Foundation

/// Small PDFs made at run time: a page with text is a few hundred bytes of PDF syntax, written
/// here with a correct cross-reference table, so no PDF is committed.
public enum PDFBuilder {
    /// One page: `text` in 36 pt Helvetica near the top, or (nil) a black bar and no text at all.
    public struct Page: Sendable {
        public var text: String?
        public var width = 612, height = 792
        /// The page's `/MediaBox` as written, instead of `0 0 width height` (hostile sizes).
        public var mediaBox: String?
        /// More text: each string in Helvetica of `size` points with its baseline at (`x`, `y`)
        /// points from the page's bottom left (a form's labels and values).
        public var placed: [(x: Int, y: Int, size: Int, text: String)] = []
        public init(text: String?, width: Int = 612, height: Int = 792, mediaBox: String? = nil,
                    placed: [(x: Int, y: Int, size: Int, text: String)] = []) {
            self.text = text; self.width = width; self.height = height; self.mediaBox = mediaBox; self.placed = placed
        }
    }

    public static func pdf(_ pages: [Page]) -> Data {
        var objects: [String] = []
        let pageIds = pages.indices.map { 4 + 2 * $0 }
        objects.append("<< /Type /Catalog /Pages 2 0 R >>")
        objects.append("<< /Type /Pages /Kids [\(pageIds.map { "\($0) 0 R" }.joined(separator: " "))] /Count \(pages.count) >>")
        objects.append("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>")
        for (i, p) in pages.enumerated() {
            let content = (p.text.map { "BT /F1 36 Tf 72 \(p.height - 120) Td (\(literal($0))) Tj ET" } ?? "0 0 0 rg 72 600 300 40 re f")
                + p.placed.map { " BT /F1 \($0.size) Tf \($0.x) \($0.y) Td (\(literal($0.text))) Tj ET" }.joined()
            objects.append("<< /Type /Page /Parent 2 0 R /MediaBox [\(p.mediaBox ?? "0 0 \(p.width) \(p.height)")] /Resources << /Font << /F1 3 0 R >> >> /Contents \(pageIds[i] + 1) 0 R >>")
            objects.append("<< /Length \(content.utf8.count) >>\nstream\n\(content)\nendstream")
        }
        var out = "%PDF-1.4\n"
        var offsets: [Int] = []
        for (i, o) in objects.enumerated() {
            offsets.append(out.utf8.count)
            out += "\(i + 1) 0 obj\n\(o)\nendobj\n"
        }
        let xref = out.utf8.count
        out += "xref\n0 \(objects.count + 1)\n0000000000 65535 f \n"
        for o in offsets { out += String(format: "%010d 00000 n \n", o) }
        out += "trailer\n<< /Size \(objects.count + 1) /Root 1 0 R >>\nstartxref\n\(xref)\n%%EOF\n"
        return Data(out.utf8)
    }

    /// A string's characters in WinAnsi (Latin-1 from 0xA0), those past ASCII as octal escapes
    /// ("Müller" → `M\374ller`); ASCII text is written as it is.
    static func literal(_ s: String) -> String {
        s.unicodeScalars.map { c in c.value < 0x80 ? String(c) : c.value <= 0xFF ? "\\" + String(c.value, radix: 8) : "?" }.joined()
    }

}
