import Foundation
import Testing

/// `kordant features` with each reference's own parameters, spelled as its users spell them,
/// against that reference's output on the grid (Tests/Fixtures/mfcc-grid).
@Suite struct FeaturesCLITests {
    struct Entry: Decodable, Sendable, CustomStringConvertible {
        let file: String
        let cli: [String]
        var description: String { file }
    }

    static let directory = "Tests/Fixtures/mfcc-grid"
    static let entries: [Entry] = {
        struct Manifest: Decodable { let fixtures: [Entry] }
        let url = CLI.repository.appendingPathComponent(directory + "/manifest.json")
        return try! JSONDecoder().decode(Manifest.self, from: Data(contentsOf: url)).fixtures
    }()

    /// A float32 C-order .npy as (rows, columns, values).
    static func npy(_ path: String) throws -> (Int, Int, [Float]) {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        let headerLength = Int(data[8]) | Int(data[9]) << 8
        let header = String(decoding: data[10..<(10 + headerLength)], as: UTF8.self)
        let shape = header.split(separator: "(")[1].split(separator: ")")[0].split(separator: ",")
            .compactMap { Int($0.trimmingCharacters(in: .whitespaces)) }
        let values = data[(10 + headerLength)...].withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
        return (shape[0], shape.count > 1 ? shape[1] : 1, values)
    }

    @Test(arguments: entries)
    func flagsMatchTheReference(entry: Entry) throws {
        let out = CLI.temporary("grid-\(entry.file)")
        let r = try CLI.run(["features", "\(Self.directory)/clip.wav", "--format", "npy", "--out", out] + entry.cli)
        #expect(r.status == 0, "\(entry.cli): \(r.stderr)")
        let (rows, cols, ours) = try Self.npy(out)
        let (refRows, refCols, reference) = try Self.npy(CLI.repository.appendingPathComponent("\(Self.directory)/\(entry.file)").path)
        #expect(rows == refRows && cols == refCols, "\(entry.cli)")
        guard ours.count == reference.count else { return }
        let scale = reference.map(abs).max() ?? 1
        let worst = zip(ours, reference).map { abs($0 - $1) }.max() ?? 0
        #expect(worst <= 1e-4 * scale, "\(entry.file) \(entry.cli): relative error \(worst / scale)")
    }

    @Test func kaldiBooleansAndProfileChecks() throws {
        let clip = "\(Self.directory)/clip.wav"
        // Kaldi's bare boolean means true: the same as the default.
        let bare = try CLI.run(["features", clip, "--snip-edges", "--format", "csv"])
        let explicit = try CLI.run(["features", clip, "--snip-edges=true", "--format", "csv"])
        #expect(bare.status == 0 && bare.stdout == explicit.stdout && !bare.stdout.isEmpty)
        // snip-edges=false: round(n / shift) frames (24000 samples, 10 ms → 150).
        let reflect = try CLI.run(["features", clip, "--snip-edges", "false", "--format", "csv"])
        #expect(reflect.stdout.split(separator: "\n").count == 1 + 150)
        // One family's parameters with another's profile, or two families at once: usage errors.
        let mixed = try CLI.run(["features", clip, "--profile", "kaldi", "--n-mfcc", "13"])
        #expect(mixed.status == 64 && mixed.stderr.contains("--n-mfcc is a librosa option"), "\(mixed.stderr)")
        let both = try CLI.run(["features", clip, "--num-ceps", "13", "--nfilt", "40"])
        #expect(both.status == 64 && both.stderr.contains("several profiles"), "\(both.stderr)")
        let impossible = try CLI.run(["features", clip, "--num-ceps", "30"])
        #expect(impossible.status == 64 && impossible.stderr.contains("mel bands"), "\(impossible.stderr)")
        // The parameters choose the profile; the JSON says which.
        let librosa = try CLI.run(["features", clip, "--n-mfcc", "13"])
        let object = try JSONSerialization.jsonObject(with: Data(librosa.stdout.utf8)) as? [String: Any]
        #expect(object?["profile"] as? String == "librosa" && object?["coefficients"] as? Int == 13)
    }
}
