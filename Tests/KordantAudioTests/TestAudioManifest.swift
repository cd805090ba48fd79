import CSndfile
import Foundation
import KordantAudio
import KordantTestSupport

/// TestAudio/manifest.json, written by scripts/make-test-audio with the known properties of
/// every file.
struct TestAudioEntry: Decodable, Sendable, CustomStringConvertible {
    let file: String
    let kind: String
    let sample_rate: Int?
    let channels: Int?
    let frames: Int?
    let format: String?
    let rms_db: Double?
    let peak_db: Double?
    let reference: String?
    let reference_gain: Double?
    let expect_error: String?

    var path: String { TestAudio.directory + "/" + file }
    var description: String { file }
}


enum TestAudio {
    static let directory: String = {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("TestAudio").path
    }()

    static let entries: [TestAudioEntry] = {
        struct Manifest: Decodable { let files: [TestAudioEntry] }
        let data = try! Data(contentsOf: URL(fileURLWithPath: directory + "/manifest.json"))
        return try! JSONDecoder().decode(Manifest.self, from: data).files
    }()

    static func entries(kind: String) -> [TestAudioEntry] { entries.filter { $0.kind == kind } }

    static func path(_ file: String) -> String { directory + "/" + file }

    /// Reads a 16-bit mono file with libsndfile's short API, independently of the engine's
    /// reader, as Double in [-1, 1).
    static func readInt16(_ path: String) -> [Double] {
        var info = SF_INFO()
        guard let h = sf_open(path, Int32(SFM_READ), &info) else { fatalError("cannot open \(path)") }
        defer { sf_close(h) }
        precondition(info.channels == 1)
        var shorts = [Int16](repeating: 0, count: Int(info.frames))
        let n = sf_read_short(h, &shorts, info.frames)
        precondition(n == info.frames)
        return shorts.map { Double($0) / 32768 }
    }
}

/// 10·log10(Σ ref² / Σ (x − ref)²) over the common length.
func agreementDB(_ x: [Float], _ ref: [Double]) -> Double {
    let n = min(x.count, ref.count)
    var signal = 0.0, error = 0.0
    for i in 0..<n {
        signal += ref[i] * ref[i]
        let d = Double(x[i]) - ref[i]
        error += d * d
    }
    return 10 * log10(signal / max(error, 1e-30))
}

func temporaryPath(_ name: String) -> String {
    let dir = TestScratch.directory.appendingPathComponent("kordant-tests-\(getpid())")
    try? FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    return dir.appendingPathComponent(name).path
}
