import CFuzzDriver
import Foundation
import KordantClient

/// libFuzzer target: arbitrary bytes as `$KORDANT_HOME/config.json` (mode 0600) through
/// `ClientConfigFile.load`, `Credentials.load` and `ClientConfiguration.defaultServer`. Any outcome but a
/// configuration or a ``ClientError`` is a finding; a loaded token is never empty.
///
/// Built only by `scripts/fuzz` (see FuzzWAV).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzConfig(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data else { return 0 }
    let dir = "/dev/shm/kordant-fuzz-config-\(getpid())"
    mkdir(dir, 0o700)
    let home = KordantHome(url: URL(fileURLWithPath: dir, isDirectory: true))
    let path = home.configFile.path
    let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    guard fd >= 0 else { return 0 }
    _ = write(fd, data, size)
    close(fd)
    do {
        _ = try ClientConfigFile.load(path: path)
        let credentials = try Credentials.load(home: home, environment: [:])
        if credentials.source != path { fatalError("credentials from \(credentials.source)") }
    } catch is ClientError {
        // The expected way to refuse a configuration.
    } catch {
        fatalError("not a ClientError: \(error)")
    }
    _ = ClientConfiguration.defaultServer(home: home, environment: [:])
    return 0
}

@_cdecl("FuzzConfig_main")
public func fuzzConfigMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    var argc = argc
    var argv = argv
    return LLVMFuzzerRunDriver(&argc, &argv) { data, size in fuzzConfig(data, size) }
}
