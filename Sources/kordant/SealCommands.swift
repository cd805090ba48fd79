import ArgumentParser
import Foundation
import KordantAPI
import KordantClient

/// Exit codes of `provision` and `seal` (see README).
extension ExitCodes {
    /// No device keys: run `kordant provision`.
    static let notProvisioned: Int32 = 70
    /// The key file can be read or written by group or others.
    static let unsafeKeyFile: Int32 = 71
    /// The key file is unreadable or malformed.
    static let badKeyFile: Int32 = 72
    /// `provision` without `--force` on a provisioned device.
    static let alreadyProvisioned: Int32 = 73
    /// `seal verify`: the server holds no verified seal for this exact content.
    static let notSealed: Int32 = 74

    static func code(for error: SealError) -> (Int32, String) {
        switch error {
        case .notProvisioned: (notProvisioned, "not_provisioned")
        case .unsafeKeyFile: (unsafeKeyFile, "unsafe_key_file")
        case .damagedKeyFile: (badKeyFile, "bad_key_file")
        case .alreadyProvisioned: (alreadyProvisioned, "already_provisioned")
        case .fileNotFound: (10, "not_found")
        case .fileUnreadable: (11, "unreadable")
        }
    }
}

/// A seal error as one line on stderr (and an error object with `--json`) and its exit code.
func failSeal(_ error: SealError, json: Bool) -> Never {
    let (exit, code) = ExitCodes.code(for: error)
    fail(code: code, file: error.path, message: error.reason, exit: exit, json: json)
}

struct Provision: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Register this device with the backend for sealing: key tables, master keys, signing key.",
        discussion: """
            Makes a P-256 signing key and a device fingerprint here, sends the public key and the \
            fingerprint's SHA-256 to seal.provision, and stores the answer with both secrets in \
            $KORDANT_HOME/device-keys.json (mode 0600). Exit 73 when already provisioned (--force replaces the keys).
            """)
    @Flag(name: .long, help: "Replace existing device keys (bundles sealed with the old keys still verify).")
    var force = false
    @OptionGroup var client: ClientOptions
    @OptionGroup var common: CommonOptions

    func run() async throws {
        common.bootstrapLogging()
        let home = client.home
        let path = DeviceKeys.path(home: home)
        if !force, FileManager.default.fileExists(atPath: path) { failSeal(.alreadyProvisioned(path: path), json: common.json) }
        try await reportingClientErrors {
            let api = try client.makeClient()
            let keys: DeviceKeys
            do { keys = try await api.provisionDevice() } catch { try? await api.shutdown(); throw error }
            try await api.shutdown()
            do { try keys.save(path: path, replace: force) } catch let e as SealError { failSeal(e, json: common.json) }
            if common.json {
                Output.printJSON(["device_id": JSONValue.string(keys.deviceId), "tables": .array(keys.tableIds.map { .number(Double($0)) }),
                                  "key_file": .string(path)])
            } else {
                print("provisioned device \(keys.deviceId) (key tables \(keys.tableIds.map(String.init).joined(separator: ", "))); keys in \(path)")
            }
        }
    }
}

struct SealCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "seal",
        abstract: "Seal files (Birthmark bundles) and check sealed files against the backend.",
        subcommands: [SealFiles.self, SealVerify.self], defaultSubcommand: SealFiles.self)
}

struct SealFiles: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "files",
        abstract: "Build a Birthmark bundle for each file (`kordant seal FILE…`); --submit sends them to /api/v1/submit.",
        discussion: """
            The bundle holds the file's SHA-256, the device fingerprint encrypted with AES-GCM under an \
            HKDF-SHA256 key of one of the device's tables, the table references and key indices, the time, \
            and an ECDSA P-256 signature of all of it (format in README). Only the hash leaves the device. \
            Exit 70 not provisioned, 71 key file readable by others, 72 key file damaged, 10/11 a file missing or unreadable.
            """)
    @Argument(help: "Files to seal.") var files: [String]
    @OptionGroup var submission: SubmitOptions
    @OptionGroup var common: CommonOptions

    struct Line: Encodable {
        let file: String
        let sha256: String
        let bundle_digest: String
        let bundle: SealBundle
    }

    func validate() throws {
        guard !files.isEmpty else { throw ValidationError("give at least one file") }
        if submission.queueOnly && !submission.submit { throw ValidationError("--queue-only goes with --submit") }
    }

    func run() async throws {
        common.bootstrapLogging()
        let sealer: Sealer
        do { sealer = Sealer(keys: try DeviceKeys.load(path: DeviceKeys.path(home: submission.client.home))) } catch {
            failSeal(error, json: common.json)
        }
        var firstFailure: Int32?
        var toSubmit: [(OutboxPayload, [OutboxFile])] = []
        for file in files {
            do {
                let bundle = try sealer.seal(fileAt: file)
                toSubmit.append((.seal(bundle), []))
                if common.json {
                    Output.printJSON(Line(file: file, sha256: bundle.imageHash, bundle_digest: bundle.digest, bundle: bundle))
                } else {
                    print("\(file): sealed, sha256 \(bundle.imageHash)")
                }
            } catch let error as SealError {
                let (exit, code) = ExitCodes.code(for: error)
                if common.json { Output.printJSON(ErrorLine(file: file, error: .init(code: code, file: file, message: error.reason))) }
                FileHandle.standardError.write(Data("kordant: error: \(file): \(error.reason) [\(code)]\n".utf8))
                firstFailure = firstFailure ?? exit
            }
        }
        if submission.submit, !toSubmit.isEmpty {
            try await submission.send(toSubmit)
        }
        if let firstFailure { throw ExitCode(firstFailure) }
    }
}

struct SealVerify: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify",
        abstract: "Ask the backend whether this exact file was sealed: when, by which device.",
        discussion: "Exit 0 only when a verified seal names the file's SHA-256; 74 when none does (changed since sealing, or never sealed); 10/11 file missing or unreadable; 51/53 no token or no answer.")
    @Argument(help: "The file to check.") var file: String
    @OptionGroup var client: ClientOptions
    @OptionGroup var common: CommonOptions

    func run() async throws {
        common.bootstrapLogging()
        let sha: String
        do { sha = Digest.hex(try Digest.sha256(fileAt: file).digest) } catch {
            failSeal(error.isNotFound ? .fileNotFound(path: file) : .fileUnreadable(path: file, reason: String(cString: strerror(error.errno))),
                     json: common.json)
        }
        var sealed = false
        try await reportingClientErrors {
            let api = try client.makeClient()
            let result: SealLookupResult
            do { result = try await api.lookupSeal(sha256: sha) } catch { try? await api.shutdown(); throw error }
            try await api.shutdown()
            sealed = result.sealed
            if common.json {
                Output.printJSON(["file": JSONValue.string(file), "result": JSONValue(encoding: result)!])
            } else if let first = result.seals.first {
                print("\(file): sealed, sha256 \(sha): sealed at \(first.sealedAt) by device \(first.deviceId) (received \(first.receivedAt))"
                      + (result.seals.count > 1 ? "; \(result.seals.count) seals in all" : ""))
            }
        }
        if !sealed {
            if !common.json {
                FileHandle.standardError.write(Data("kordant: \(file): not sealed: the server holds no verified seal for this content (sha256 \(sha)); it changed since sealing, or was never sealed [not_sealed]\n".utf8))
            }
            throw ExitCode(ExitCodes.notSealed)
        }
    }
}
