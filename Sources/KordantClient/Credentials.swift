import Foundation

/// Where the client keeps its state: `KORDANT_HOME` (default `~/.kordant`) holds the outbox
/// database, the query cache and the optional `config.json`.
public struct KordantHome: Sendable, Equatable {
    public var url: URL

    public init(url: URL) { self.url = url }

    /// `KORDANT_HOME`, else `~/.kordant`.
    public static func fromEnvironment(_ env: [String: String] = ProcessInfo.processInfo.environment) -> KordantHome {
        if let path = env["KORDANT_HOME"], !path.isEmpty { return KordantHome(url: URL(fileURLWithPath: path, isDirectory: true)) }
        let home = env["HOME"].map { URL(fileURLWithPath: $0, isDirectory: true) } ?? FileManager.default.homeDirectoryForCurrentUser
        return KordantHome(url: home.appendingPathComponent(".kordant", isDirectory: true))
    }

    /// Creates the directory (mode 0700: it holds personal data) if it is missing.
    public func prepare() throws {
        if !FileManager.default.fileExists(atPath: url.path) {
            do {
                try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            } catch {
                throw ClientError.local("\(url.path): cannot create the Kordant home directory: \(error.localizedDescription)")
            }
        }
    }

    public var outboxDatabase: URL { url.appendingPathComponent("outbox.sqlite") }
    public var blobs: URL { url.appendingPathComponent("outbox-files", isDirectory: true) }
    public var cacheDatabase: URL { url.appendingPathComponent("cache.sqlite") }
    public var configFile: URL { url.appendingPathComponent("config.json") }
}

/// The bearer token. Its description is redacted so that it cannot reach a log line or an
/// error message by accident.
public struct Credentials: Sendable, CustomStringConvertible, CustomDebugStringConvertible {
    let token: String
    /// Where it came from (`KORDANT_TOKEN` or the config file's path), for messages.
    public let source: String

    public init(token: String, source: String) { self.token = token; self.source = source }

    public var description: String { "Credentials(from \(source), token redacted)" }
    public var debugDescription: String { description }

    /// What to tell a user whose token is missing or refused.
    public static let setupHint = "Set a token: export KORDANT_TOKEN=…, or put {\"token\": \"…\"} in $KORDANT_HOME/config.json with mode 0600 (`kordant token` prints one for the development server)"

    /// `KORDANT_TOKEN`, else `token` in the config file. The config file must not be readable
    /// or writable by group or others (like ssh keys): a token in a world-readable file is refused.
    public static func load(home: KordantHome, environment env: [String: String] = ProcessInfo.processInfo.environment) throws -> Credentials {
        if let t = env["KORDANT_TOKEN"]?.trimmingCharacters(in: .whitespacesAndNewlines), !t.isEmpty {
            return Credentials(token: t, source: "KORDANT_TOKEN")
        }
        let path = home.configFile.path
        guard let config = try ClientConfigFile.load(path: path), let token = config.token, !token.isEmpty else {
            throw ClientError.credentials("no token. " + setupHint)
        }
        return Credentials(token: token, source: path)
    }
}

/// `$KORDANT_HOME/config.json`: `{"token": "…", "server": "http://…"}`, both optional.
public struct ClientConfigFile: Codable, Sendable {
    public var token: String?
    public var server: String?

    /// Nil when the file does not exist; an error when it is unsafe or unreadable.
    public static func load(path: String) throws -> ClientConfigFile? {
        var st = stat()
        guard stat(path, &st) == 0 else { return nil }
        guard st.st_mode & 0o077 == 0 else {
            throw ClientError.credentials(String(format: "%@: mode %o lets other users read it; run chmod 600 %@", path, st.st_mode & 0o777, path))
        }
        // Said before reading: FoundationEssentials leaks a 4 KB buffer reading a 0-byte file (found by FuzzConfig).
        guard st.st_size > 0 else { throw ClientError.credentials("\(path): empty; expected a JSON object with optional \"token\" and \"server\" strings") }
        guard let data = FileManager.default.contents(atPath: path) else { throw ClientError.credentials("\(path): cannot read") }
        do { return try JSONDecoder().decode(ClientConfigFile.self, from: data) } catch {
            throw ClientError.credentials("\(path): not a JSON object with optional \"token\" and \"server\" strings")
        }
    }
}
