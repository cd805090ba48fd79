import Crypto
import Foundation
import KordantAPI

/// One unit of batch work: one enrollment (a group of samples) or one document.
public struct BatchItem: Sendable, Equatable {
    /// Stable identity, used for sharding and shown in results: the group id, or the path as
    /// written in the manifest / relative to the input folder (never an absolute path of this
    /// machine, so that every machine of a sharded run computes the same partition).
    public var id: String
    /// Files to read, resolved.
    public var paths: [String]
    /// Enrollment label (manifest `label`).
    public var label: String?
    /// The enrollment file a recording is checked against (`batch verify`), resolved, and as the
    /// manifest wrote it.
    public var enrollment: String?
    public var enrollmentAsWritten: String?
    /// Document kind override (manifest `kind`).
    public var kind: String?

    public init(id: String, paths: [String], label: String? = nil, kind: String? = nil, enrollment: String? = nil,
                enrollmentAsWritten: String? = nil) {
        self.id = id; self.paths = paths; self.label = label; self.kind = kind
        self.enrollment = enrollment; self.enrollmentAsWritten = enrollmentAsWritten
    }

    /// Resume key: SHA-256 over the id and each file's content digest (a file that cannot be read
    /// contributes its path and "unreadable"). Changed content means new work.
    public func key() -> String {
        var h = SHA256()
        h.update(data: Data(id.utf8))
        // A verification is new work when the enrollment changes too.
        for p in paths + (enrollment.map { [$0] } ?? []) {
            h.update(data: Data([0x1F]))
            if let digest = Digest.sha256Hex(fileAt: p) {
                h.update(data: Data(digest.utf8))
            } else {
                h.update(data: Data("\(p) unreadable".utf8))
            }
        }
        return Digest.hex(h.finalize().prefix(16))
    }
}

/// Why a batch cannot start (the input itself is wrong, not one of its files).
public struct BatchInputError: Error, Sendable, CustomStringConvertible {
    public var path: String
    public var message: String
    public var description: String { "\(path): \(message)" }
}

/// Reads a batch's work list from a folder or a JSON Lines manifest.
public enum BatchInput {
    public static let audioExtensions: Set<String> = ["wav", "wave", "flac", "ogg", "oga", "opus", "mp3", "aif", "aiff", "aifc", "au", "snd",
                                                      "caf", "w64", "rf64", "voc", "sd2"]
    public static let imageExtensions: Set<String> = ["png", "jpg", "jpeg", "tif", "tiff", "bmp", "pnm", "pgm", "ppm", "pbm", "webp", "gif", "pdf"]

    /// Enrollments. A folder: each audio file directly in it is an enrollment of one sample, and
    /// each subfolder (with everything under it) is one enrollment whose id is the subfolder's
    /// path. A manifest (`.jsonl`): `{"path": …, "group": …, "label": …}` per line; lines with one
    /// group form one enrollment, in order of first appearance; paths are relative to the manifest.
    public static func enrollments(from source: String) throws -> [BatchItem] {
        if isDirectory(source) {
            let files = try listFiles(source, extensions: audioExtensions)
            var order: [String] = []
            var groups: [String: [String]] = [:]
            for rel in files {
                let parts = rel.split(separator: "/")
                let group = parts.count > 1 ? parts.dropLast().joined(separator: "/") : rel
                if groups[group] == nil { order.append(group) }
                groups[group, default: []].append(join(source, rel))
            }
            return order.map { BatchItem(id: $0, paths: groups[$0]!) }
        }
        let lines = try manifest(source)
        var order: [String] = []
        var items: [String: BatchItem] = [:]
        for (n, line) in lines {
            let path = try field(line, "path", n, source)
            let group = line["group"]?.stringValue ?? path
            if items[group] == nil {
                order.append(group)
                items[group] = BatchItem(id: group, paths: [], label: line["label"]?.stringValue)
            }
            items[group]!.paths.append(resolve(path, relativeTo: source))
        }
        return order.map { items[$0]! }
    }

    /// Verifications: a manifest (`.jsonl`) of `{"enrollment": "E.json", "file": "x.wav"}` per
    /// line (paths relative to the manifest), with an optional `enrollment_id` (the backend's id of
    /// the enrollment, kept in `label`, for submitting); the item id is the enrollment and file as written.
    public static func verifications(from source: String) throws -> [BatchItem] {
        guard !isDirectory(source) else { throw BatchInputError(path: source, message: "batch verify takes a manifest of {\"enrollment\", \"file\"} lines, not a folder") }
        return try manifest(source).map { n, line in
            let enrollment = try field(line, "enrollment", n, source)
            let file = try field(line, "file", n, source)
            return BatchItem(id: enrollment + "\u{1F}" + file, paths: [resolve(file, relativeTo: source)],
                             label: line["enrollment_id"]?.stringValue, enrollment: resolve(enrollment, relativeTo: source),
                             enrollmentAsWritten: enrollment)
        }
    }

    /// Documents. A folder: every image under it (recursively, sorted). A manifest:
    /// `{"path": …, "kind": "deed"|"id"|"optout"}` per line (kind optional).
    public static func documents(from source: String) throws -> [BatchItem] {
        if isDirectory(source) {
            return try listFiles(source, extensions: imageExtensions).map { BatchItem(id: $0, paths: [join(source, $0)]) }
        }
        return try manifest(source).map { n, line in
            let path = try field(line, "path", n, source)
            return BatchItem(id: path, paths: [resolve(path, relativeTo: source)], kind: line["kind"]?.stringValue)
        }
    }

    static func isDirectory(_ path: String) -> Bool {
        var isDir: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDir) && isDir.boolValue
    }

    static func join(_ dir: String, _ rel: String) -> String {
        dir.hasSuffix("/") ? dir + rel : dir + "/" + rel
    }

    static func resolve(_ path: String, relativeTo manifest: String) -> String {
        path.hasPrefix("/") ? path : join((manifest as NSString).deletingLastPathComponent.isEmpty ? "." : (manifest as NSString).deletingLastPathComponent, path)
    }

    /// Relative paths of matching files under `dir`, sorted (hidden files and folders skipped).
    static func listFiles(_ dir: String, extensions: Set<String>) throws -> [String] {
        guard let e = FileManager.default.enumerator(atPath: dir) else {
            throw BatchInputError(path: dir, message: "cannot list the folder")
        }
        var out: [String] = []
        while let rel = e.nextObject() as? String {
            let name = (rel as NSString).lastPathComponent
            if name.hasPrefix(".") { if isDirectory(join(dir, rel)) { e.skipDescendants() }; continue }
            if extensions.contains((name as NSString).pathExtension.lowercased()), !isDirectory(join(dir, rel)) { out.append(rel) }
        }
        return out.sorted()
    }

    /// The manifest's non-empty lines, numbered from 1. A line that is not a JSON object stops the batch.
    static func manifest(_ path: String) throws -> [(Int, JSONValue)] {
        guard FileManager.default.fileExists(atPath: path) else { throw BatchInputError(path: path, message: "no such file or folder") }
        // An empty manifest is an empty batch; not read, as FoundationEssentials leaks a 4 KB buffer reading a 0-byte file.
        var st = stat()
        if stat(path, &st) == 0, st.st_size == 0 { return [] }  // (stat follows a symbolic link to the file)
        guard let data = FileManager.default.contents(atPath: path) else { throw BatchInputError(path: path, message: "cannot read the manifest") }
        var out: [(Int, JSONValue)] = []
        for (i, raw) in data.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).enumerated() {
            let text = String(decoding: raw, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            if text.isEmpty { continue }
            guard let v = JSONValue(json: Data(text.utf8)), case .object = v else {
                throw BatchInputError(path: path, message: "line \(i + 1) is not a JSON object")
            }
            out.append((i + 1, v))
        }
        return out
    }

    static func field(_ line: JSONValue, _ name: String, _ n: Int, _ source: String) throws -> String {
        guard let v = line[name]?.stringValue, !v.isEmpty else {
            throw BatchInputError(path: source, message: "line \(n) has no \"\(name)\" string")
        }
        return v
    }
}

/// A stable hash partition of a batch: `K/N` takes the items whose id hashes to K modulo N
/// (0 ≤ K < N), so N machines split the work with no overlap and no coordination.
public struct Shard: Sendable, Equatable, CustomStringConvertible {
    public var index: Int
    public var count: Int

    public init(index: Int, count: Int) { self.index = index; self.count = count }

    /// Parses `K/N`.
    public init?(_ text: String) {
        let parts = text.split(separator: "/")
        guard parts.count == 2, let k = Int(parts[0]), let n = Int(parts[1]), n >= 1, (0..<n).contains(k) else { return nil }
        index = k; count = n
    }

    public func contains(_ item: BatchItem) -> Bool {
        guard count > 1 else { return true }
        let digest = Array(SHA256.hash(data: Data(item.id.utf8)))
        let value = digest.prefix(8).reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        return value % UInt64(count) == UInt64(index)
    }

    public var description: String { "\(index)/\(count)" }
}
