import Foundation

/// A `multipart/form-data` body split into its parts (RFC 7578). Bounded by the caller's body limit.
struct MultipartForm {
    struct Part {
        var name: String
        var filename: String?
        var contentType: String?
        var body: Data
    }
    var parts: [Part]

    subscript(name: String) -> Part? { parts.first { $0.name == name } }

    /// The boundary parameter of a `multipart/form-data` content type; nil for any other type.
    static func boundary(contentType: String) -> String? {
        let items = contentType.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
        guard items.first?.lowercased() == "multipart/form-data" else { return nil }
        for item in items.dropFirst() where item.lowercased().hasPrefix("boundary=") {
            var b = String(item.dropFirst("boundary=".count))
            if b.hasPrefix("\""), b.hasSuffix("\""), b.count >= 2 { b = String(b.dropFirst().dropLast()) }
            return b.isEmpty || b.count > 70 ? nil : b
        }
        return nil
    }

    enum ParseError: Error, CustomStringConvertible {
        case malformed(String)
        var description: String { if case .malformed(let m) = self { m } else { "" } }
    }

    /// More parts than any upload needs (the client sends three): a body of many tiny parts
    /// would otherwise cost far more memory and time than its bytes.
    static let maxParts = 16
    /// Part headers beyond this are refused before being decoded as text.
    static let maxHeaderBytes = 8 << 10

    init(body: Data, boundary: String) throws {
        let delimiter = Data("--\(boundary)".utf8)
        let crlf = Data("\r\n".utf8)
        parts = []
        guard var cursor = body.firstRange(of: delimiter)?.upperBound else { throw ParseError.malformed("no multipart boundary in the body") }
        while true {
            // After a delimiter: "--" ends the body, CRLF starts a part.
            if body[cursor...].starts(with: Data("--".utf8)) { return }
            guard body[cursor...].starts(with: crlf) else { throw ParseError.malformed("malformed multipart delimiter") }
            cursor += 2
            guard parts.count < Self.maxParts else { throw ParseError.malformed("more than \(Self.maxParts) multipart parts") }
            // Only the first maxHeaderBytes are searched: a part's headers cannot be larger.
            let window = body[cursor..<min(body.endIndex, cursor + Self.maxHeaderBytes + 4)]
            guard let headerEnd = window.firstRange(of: Data("\r\n\r\n".utf8)) else {
                throw ParseError.malformed(window.count > Self.maxHeaderBytes
                    ? "multipart part headers longer than \(Self.maxHeaderBytes) bytes" : "multipart part without headers")
            }
            let headerText = String(decoding: body[cursor..<headerEnd.lowerBound], as: UTF8.self)
            let contentStart = headerEnd.upperBound
            guard let next = body[contentStart...].firstRange(of: crlf + delimiter) else {
                throw ParseError.malformed("multipart body ends without its closing boundary")
            }
            var name: String?, filename: String?, contentType: String?
            for line in headerText.components(separatedBy: "\r\n") {
                let pair = line.split(separator: ":", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
                guard pair.count == 2 else { continue }
                switch pair[0].lowercased() {
                case "content-disposition":
                    for param in pair[1].split(separator: ";").map({ $0.trimmingCharacters(in: .whitespaces) }) {
                        if param.hasPrefix("name=") { name = Self.unquote(param.dropFirst(5)) }
                        if param.hasPrefix("filename=") { filename = Self.unquote(param.dropFirst(9)) }
                    }
                case "content-type": contentType = pair[1]
                default: break
                }
            }
            guard let name else { throw ParseError.malformed("multipart part without a name") }
            parts.append(Part(name: name, filename: filename, contentType: contentType, body: Data(body[contentStart..<next.lowerBound])))
            cursor = next.upperBound
        }
    }

    private static func unquote(_ s: Substring) -> String {
        var v = String(s)
        if v.hasPrefix("\""), v.hasSuffix("\""), v.count >= 2 { v = String(v.dropFirst().dropLast()) }
        return v
    }
}
