import CKordantSpeaker
import Foundation
import KordantAudio
@testable import KordantVoice
import Testing
import KordantTestSupport

/// Tests/Fixtures/speaker/embeddings.json: Resemblyzer 0.1.4 on torch CPU (scripts/make-speaker-fixtures).
struct SpeakerFixture: Decodable, Sendable, CustomStringConvertible {
    let file: String
    let preprocessed_samples: Int
    let vad: String
    let embedding: [Float]
    let embedding_raw: [Float]
    let partials: [[Float]]
    let mel_head: [Float]
    var description: String { file }

    static let all: [SpeakerFixture] = {
        struct File: Decodable { let files: [SpeakerFixture] }
        let url = Fixtures.root.appendingPathComponent("Tests/Fixtures/speaker/embeddings.json")
        return try! JSONDecoder().decode(File.self, from: Data(contentsOf: url)).files
    }()
}

/// The encoder, or nil (with the reason printed) when the weights were not fetched: CI runs
/// scripts/setup, which fetches them, so there these tests always run.
enum SharedEncoder {
    static let loaded: Result<SpeakerEncoder, SpeakerEncoderError> = {
        do throws(SpeakerEncoderError) { return .success(try SpeakerEncoder(weightsPath: Fixtures.root.appendingPathComponent("models/voice-encoder-ge2e.bin").path)) }
        catch { return .failure(error) }
    }()
    static var encoder: SpeakerEncoder? { try? loaded.get() }
    static var available: Bool { encoder != nil }
    static var skipReason: Comment { "speaker encoder weights absent (run scripts/setup): \(String(describing: loaded))" }
}

@Suite struct SpeakerEncoderTests {
    /// Full pipeline (decode, volume normalisation, WebRTC-VAD trimming, mel, LSTM) against the
    /// reference's embedding of the same file: cosine ≥ 0.9999.
    @Test(.enabled(if: SharedEncoder.available, SharedEncoder.skipReason), arguments: SpeakerFixture.all)
    func fullPipelineMatchesResemblyzer(_ f: SpeakerFixture) throws {
        let encoder = try #require(SharedEncoder.encoder)
        let input = try VoiceInput.load(path: Fixtures.root.appendingPathComponent(f.file).path)
        let pre = SpeakerPreprocessing.preprocess(input.samples)
        #expect(pre.count == f.preprocessed_samples, "silence trimming kept \(pre.count) samples, the reference \(f.preprocessed_samples)")
        let e = encoder.embed(input.samples)
        let cos = SpeakerEncoder.cosine(e.vector, f.embedding)
        print("speaker fixture \(f.file): cosine \(cos)")
        #expect(cos >= 0.9999, "\(f.file): cosine \(cos)")
        #expect(e.model == SpeakerEncoder.modelName)
        #expect(abs(e.vector.reduce(0) { $0 + $1 * $1 } - 1) < 1e-5)
    }

    /// The recurrent kernel against the plain product, for every row count it splits differently
    /// (blocks of 4 and the 1–3 left), with the gates it adds to not starting at zero.
    @Test(arguments: 1...9)
    func recurrentKernelIsTheProduct(partials P: Int) {
        let H = 32, G = 64
        func value(_ i: Int, _ salt: Int) -> Float { sin(Float(i * 7 + salt) * 0.731) }
        let w = (0..<(G * H)).map { value($0, 1) }                    // W: G × H, row-major
        let h = (0..<(P * H)).map { value($0, 2) }
        let start = (0..<(P * G)).map { value($0, 3) }
        var packed = [Float](repeating: 0, count: G * H)
        for j in 0..<G { for k in 0..<H { packed[(j / 16) * H * 16 + k * 16 + j % 16] = w[j * H + k] } }
        var gates = start
        gates.withUnsafeMutableBufferPointer { g in
            kordant_recurrent_step(g.baseAddress, h, packed, Int32(P), Int32(H), Int32(G))
        }
        var worst: Float = 0
        for p in 0..<P {
            for j in 0..<G {
                var sum = start[p * G + j]
                for k in 0..<H { sum += h[p * H + k] * w[j * H + k] }
                worst = max(worst, abs(gates[p * G + j] - sum))
            }
        }
        #expect(worst < 1e-4, "largest difference \(worst)")
    }

    /// Mel and network alone (no preprocessing) against the reference's embed_utterance.
    @Test(.enabled(if: SharedEncoder.available, SharedEncoder.skipReason), arguments: SpeakerFixture.all)
    func networkMatchesResemblyzer(_ f: SpeakerFixture) throws {
        let encoder = try #require(SharedEncoder.encoder)
        let input = try VoiceInput.load(path: Fixtures.root.appendingPathComponent(f.file).path)
        let (embedding, _) = encoder.embedPreprocessed(input.samples)
        let cos = SpeakerEncoder.cosine(embedding, f.embedding_raw)
        #expect(cos >= 0.9999, "\(f.file): cosine \(cos)")
    }

    /// Partial embeddings one by one (where the fixture has them).
    @Test(.enabled(if: SharedEncoder.available, SharedEncoder.skipReason))
    func partialsMatchResemblyzer() throws {
        let encoder = try #require(SharedEncoder.encoder)
        let f = try #require(SpeakerFixture.all.first { !$0.partials.isEmpty })
        let input = try VoiceInput.load(path: Fixtures.root.appendingPathComponent(f.file).path)
        let (_, partials) = encoder.embedPreprocessed(SpeakerPreprocessing.preprocess(input.samples))
        #expect(partials.count == f.partials.count)
        for (mine, theirs) in zip(partials, f.partials) {
            #expect(SpeakerEncoder.cosine(mine, theirs) >= 0.9999)
        }
    }

    /// WebRTC's VAD (the C library the reference's webrtcvad wraps) gives the same 30 ms decisions.
    @Test(arguments: SpeakerFixture.all)
    func vadDecisionsMatchWebrtcvad(_ f: SpeakerFixture) throws {
        let input = try VoiceInput.load(path: Fixtures.root.appendingPathComponent(f.file).path)
        let normalised = SpeakerPreprocessing.normaliseVolume(input.samples)
        let flags = WebRTCVAD.decisions(normalised, windows: normalised.count / 480, windowLength: 480, mode: 3)
        let mine = String(flags.map { $0 ? "1" : "0" })
        let agree = zip(mine, f.vad).filter { $0 == $1 }.count
        #expect(mine.count == f.vad.count)
        #expect(agree == f.vad.count, "\(f.file): \(agree)/\(f.vad.count) windows agree")
    }

    /// librosa's mel power spectrogram (n_fft 400, hop 160, 40 Slaney bands), first frames.
    @Test(arguments: SpeakerFixture.all)
    func melMatchesLibrosa(_ f: SpeakerFixture) throws {
        let input = try VoiceInput.load(path: Fixtures.root.appendingPathComponent(f.file).path)
        let pre = SpeakerPreprocessing.preprocess(input.samples)
        var mel = [Float](repeating: 0, count: 3 * SpeakerMel.bands)
        pre.withUnsafeBufferPointer { w in mel.withUnsafeMutableBufferPointer { SpeakerMel().compute(w, frames: 3, into: $0.baseAddress!) } }
        let scale = f.mel_head.map(abs).max() ?? 1
        let worst = zip(mel, f.mel_head).map { abs($0 - $1) }.max() ?? 0
        #expect(worst <= 1e-4 * max(scale, 1e-6), "\(f.file): worst |Δ| \(worst) of max \(scale)")
    }

    /// compute_partial_slices, computed by hand from the reference's formula.
    @Test func partialSlices() {
        // 16 000 samples: ceil(16001/160) = 101 frames, step round(76.92) = 77, steps max(1, 101-160+78) = 19.
        #expect(SpeakerEncoder.partialSlices(samples: 16_000) == [0..<160])
        // 5 s: 501 frames → starts 0 … 385 (< 419); the last covers (80000 - 61600)/25600 = 0.72 < 0.75: dropped.
        #expect(SpeakerEncoder.partialSlices(samples: 80_000).map(\.lowerBound) == [0, 77, 154, 231, 308])
        // 3 s: 301 frames → starts 0, 77, 154 (< 219); the last covers (48000 - 24640)/25600 = 0.91.
        #expect(SpeakerEncoder.partialSlices(samples: 48_000).map(\.lowerBound) == [0, 77, 154])
        // 2.6 s: 261 frames → starts 0, 77, 154 (< 179); the last covers (41600 - 24640)/25600 = 0.66 < 0.75: dropped.
        #expect(SpeakerEncoder.partialSlices(samples: 41_600).map(\.lowerBound) == [0, 77])
        #expect(SpeakerEncoder.partialSlices(samples: 0) == [0..<160])
    }

    /// Missing and corrupt weights: one clear error naming the file and the fix.
    @Test func badWeightsFilesAreNamed() throws {
        let dir = TestScratch.directory.appendingPathComponent("kordant-weights-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let missing = dir.appendingPathComponent("none.bin").path
        #expect(throws: SpeakerEncoderError.self) { try SpeakerEncoder(weightsPath: missing) }
        do { _ = try SpeakerEncoder(weightsPath: missing) } catch {
            #expect(error.kind == .weightsMissing && error.path == missing && error.detail.contains("scripts/setup"))
        }
        let garbage = dir.appendingPathComponent("garbage.bin").path
        FileManager.default.createFile(atPath: garbage, contents: Data("not weights at all".utf8))
        do { _ = try SpeakerEncoder(weightsPath: garbage); Issue.record("garbage accepted") } catch {
            #expect(error.kind == .weightsCorrupt && error.detail.contains(garbage) && error.detail.contains("scripts/setup"))
        }
        // A real file cut short is refused, not read past its end.
        if let real = SharedEncoder.encoder?.weightsPath, let data = FileManager.default.contents(atPath: real) {
            let cut = dir.appendingPathComponent("cut.bin").path
            FileManager.default.createFile(atPath: cut, contents: data.prefix(data.count / 2))
            do { _ = try SpeakerEncoder(weightsPath: cut); Issue.record("truncated weights accepted") } catch {
                #expect(error.kind == .weightsCorrupt && error.detail.contains("truncated"))
            }
        }
    }
}
