import Foundation
import KordantAudio
import KordantVoice

/// Tests/Fixtures/mfcc: matrices produced by the reference libraries (scripts/make-mfcc-fixtures).
struct MFCCFixture: Decodable, Sendable, CustomStringConvertible {
    let file: String
    let clip: String
    let profile: String
    let set: String
    let frames: Int
    let coefficients: Int
    let reference: String
    var description: String { file }
}

enum Fixtures {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let mfccDirectory = root.appendingPathComponent("Tests/Fixtures/mfcc").path

    static let mfcc: [MFCCFixture] = {
        struct Manifest: Decodable { let fixtures: [MFCCFixture] }
        let data = try! Data(contentsOf: URL(fileURLWithPath: mfccDirectory + "/manifest.json"))
        return try! JSONDecoder().decode(Manifest.self, from: data).fixtures
    }()

    static func audio(_ clip: String) -> [Float] {
        try! AudioDecoder.load(path: root.appendingPathComponent("TestAudio/\(clip)").path).samples
    }

    static func testAudio(_ file: String) -> String { root.appendingPathComponent("TestAudio/\(file)").path }

    /// Reads a little-endian float32 2-D .npy (C order), as numpy.save writes it.
    static func npy(_ file: String) -> (rows: Int, cols: Int, values: [Float]) {
        let data = try! Data(contentsOf: URL(fileURLWithPath: mfccDirectory + "/" + file))
        let headerLength = Int(data[8]) | Int(data[9]) << 8
        let header = String(decoding: data[10..<(10 + headerLength)], as: UTF8.self)
        precondition(header.contains("'descr': '<f4'") && header.contains("'fortran_order': False"), header)
        let shape = header.split(separator: "(")[1].split(separator: ")")[0].split(separator: ",")
            .compactMap { Int($0.trimmingCharacters(in: .whitespaces)) }
        let body = data[(10 + headerLength)...]
        let values = body.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
        return (shape[0], shape.count > 1 ? shape[1] : 1, values)
    }

    /// The engine options matching a fixture's profile and parameter set (the same values
    /// scripts/mfcc_fixtures.py passes to the reference library).
    static func options(profile: String, set: String) -> MFCCOptions {
        switch (profile, set) {
        case ("kaldi", "A"): return .kaldi()
        case ("kaldi", "B"): return .kaldi(numBins: 40, numCeps: 20, lowFreq: 60, highFreq: -400, window: .hamming, useEnergy: false)
        case ("librosa", "A"):
            return .librosa(nMFCC: 13, nFFT: 512, hopLength: 160, winLength: 400, nMels: 40, fmin: 20, fmax: 7600, htk: true, lifter: 22)
        case ("librosa", "B"): return .librosa()
        case ("psf", "A"): return .psf()
        case ("psf", "B"): return .psf(numcep: 20, nfilt: 40, lowfreq: 100, highfreq: 7000, preemph: 0.95, appendEnergy: false)
        default: fatalError("unknown fixture set \(profile) \(set)")
        }
    }
}
