import Foundation

/// Any JSON value, for generic procedure calls and untyped parts of payloads.
public enum JSONValue: Sendable, Hashable, Codable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    public init(from decoder: Decoder) throws {
        let c = try decoder.singleValueContainer()
        if c.decodeNil() { self = .null }
        else if let b = try? c.decode(Bool.self) { self = .bool(b) }
        else if let n = try? c.decode(Double.self) { self = .number(n) }
        else if let s = try? c.decode(String.self) { self = .string(s) }
        else if let a = try? c.decode([JSONValue].self) { self = .array(a) }
        else { self = .object(try c.decode([String: JSONValue].self)) }
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.singleValueContainer()
        switch self {
        case .null: try c.encodeNil()
        case .bool(let b): try c.encode(b)
        case .number(let n):
            // Integers print without ".0" so ids and counts read naturally.
            if n.rounded() == n, abs(n) < 1e15 { try c.encode(Int64(n)) } else { try c.encode(n) }
        case .string(let s): try c.encode(s)
        case .array(let a): try c.encode(a)
        case .object(let o): try c.encode(o)
        }
    }

    /// Parses JSON bytes; nil when they are not JSON.
    public init?(json data: Data) {
        guard let v = try? JSONDecoder().decode(JSONValue.self, from: data) else { return nil }
        self = v
    }

    /// Any Encodable as a JSON value.
    public init?<T: Encodable>(encoding value: T) {
        guard let data = try? JSONCoding.encoder.encode(value), let v = JSONValue(json: data) else { return nil }
        self = v
    }

    /// Decodes this value as `T`; nil when it does not fit.
    public func decode<T: Decodable>(_ type: T.Type) -> T? {
        guard let data = try? JSONCoding.encoder.encode(self) else { return nil }
        return try? JSONDecoder().decode(T.self, from: data)
    }

    /// Compact JSON bytes with sorted keys (stable for hashing and storage).
    public var data: Data { (try? JSONCoding.encoder.encode(self)) ?? Data("null".utf8) }

    public subscript(key: String) -> JSONValue? {
        if case .object(let o) = self { return o[key] }
        return nil
    }

    public var stringValue: String? { if case .string(let s) = self { s } else { nil } }
    public var numberValue: Double? { if case .number(let n) = self { n } else { nil } }
}

/// The one JSON configuration both sides use.
public enum JSONCoding {
    public static var encoder: JSONEncoder {
        let e = JSONEncoder()
        e.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return e
    }
}
