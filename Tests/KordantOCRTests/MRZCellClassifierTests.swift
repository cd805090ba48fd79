import Foundation
@testable import KordantOCR
import Testing

/// The learned MRZ cell reader (``MRZCellClassifier``) on TestDocuments' passports and ID cards,
/// which come from another generator than the pages it was trained on, with real Tesseract and
/// Leptonica locating and rectifying the zones.
@Suite struct MRZCellClassifierTests {
    @Test func committedModelLoads() throws {
        let model = try #require(MRZCellClassifier.shared, "MRZCellModelWeights does not decode")
        #expect(model.inputs == MRZCellFeatures.count)
        #expect(model.w1.count == model.hidden * model.inputs && model.w2.count == MRZAlphabet.count * model.hidden)
        #expect(model.w1.allSatisfy(\.isFinite) && model.w2.allSatisfy(\.isFinite))
    }

    /// Every rectified cell of the ten TestDocuments zones (clean, noisy JPEG, low resolution,
    /// turned, skewed) read on its own, no grammar or check digit: at least 99% right, and every
    /// 0 and O among them told apart (the look-alike the check digits do not reliably catch).
    @Test func readsTheCellsOfZonesItWasNotTrainedOn() throws {
        let model = try #require(MRZCellClassifier.shared)
        var options = MRZScanOptions()
        options.keepCellReadings = true
        var right = 0, total = 0, zeroOhWrong: [String] = []
        for file in MRZReaderTests.idImages {
            let image = try ImageLoader.load(path: MRZReaderTests.root + "/TestDocuments/" + file)[0]
            let mrz = try #require(MRZScanner.scan(image, tesseract: try TesseractHandle(), options: options), "\(file): no MRZ")
            let truth = try MRZReaderTests.truth(String(file.split(separator: ".")[0]))
            let cells = try #require(mrz.cellReadings)
            #expect(cells.count == truth.count)
            for (line, printed) in zip(cells, truth) {
                #expect(line.allSatisfy { $0.ink.count == MRZCellFeatures.width * MRZCellFeatures.height })
                let ink = line.flatMap { $0.ink.map { Float($0) / 255 } }
                let p = model.logProbabilities(ink: ink, cells: line.count), n = MRZAlphabet.count
                let read = (0..<line.count).map { c in
                    MRZAlphabet.characters[(0..<n).max { p[c * n + $0] < p[c * n + $1] }!]
                }
                for (r, t) in zip(read, printed) {
                    total += 1
                    if r == t { right += 1 }
                    if (t == "0" || t == "O") && r != t { zeroOhWrong.append("\(file): \(t) read \(r)") }
                }
            }
        }
        #expect(total > 800)
        #expect(Double(right) >= 0.99 * Double(total), "\(right) of \(total) cells")
        #expect(zeroOhWrong.isEmpty, "\(zeroOhWrong)")
    }

    /// The diagnostic `scripts/fit-mrz-fusion` fits the readers' weights on keeps each reader's
    /// own evidence per cell: the 37 template distances, the learned reader's log-probabilities
    /// (a distribution, and its reading of the cell's ink), Tesseract's log-likelihoods where it
    /// read the cell. Weighed as the engine weighs them, they read a clean passport's every cell.
    @Test func eachReadersEvidenceIsKeptPerCell() throws {
        var options = MRZScanOptions()
        options.keepCellReadings = true
        let image = try ImageLoader.load(path: MRZReaderTests.root + "/TestDocuments/passport_td3.clean.png")[0]
        let mrz = try #require(MRZScanner.scan(image, tesseract: try TesseractHandle(), options: options))
        let truth = try MRZReaderTests.truth("passport_td3")
        let cells = try #require(mrz.cellReadings), n = MRZAlphabet.count
        var withTesseract = 0
        for (line, printed) in zip(cells, truth) {
            for (cell, t) in zip(line, printed) {
                try #require(cell.templateDistances.count == n && cell.cellModel.count == n)
                #expect(cell.templateDistances.allSatisfy { $0 == -1 || $0 >= 0 })
                #expect(abs(cell.cellModel.reduce(0) { $0 + exp($1) } - 1) < 1e-6)
                #expect(cell.tesseractEvidence.isEmpty || (cell.tesseractEvidence.count == n && cell.tesseractEvidence.allSatisfy { $0 <= 0 }))
                if !cell.tesseractEvidence.isEmpty { withTesseract += 1 }
                let template = MRZScanner.templateEvidence(cell.templateDistances.map { $0 < 0 ? .infinity : $0 }, options: options)
                let fused = (0..<n).map { k in
                    template[k] + options.cellModelWeight * cell.cellModel[k]
                        + options.tesseractWeight * (cell.tesseractEvidence.isEmpty ? 0 : cell.tesseractEvidence[k])
                }
                #expect(MRZAlphabet.characters[fused.indices.max { fused[$0] < fused[$1] }!] == t)
            }
        }
        #expect(withTesseract > 80, "Tesseract read \(withTesseract) of 88 cells")
    }

    /// The reader's probabilities are a proper distribution per cell, and the weight switches it
    /// off: with weight 0 it does not run (no `mrz.cells` step) and the zone is read from templates
    /// and Tesseract alone, as before; by default it runs.
    @Test func probabilitiesAreNormalisedAndTheWeightSwitchesItOff() throws {
        let model = try #require(MRZCellClassifier.shared)
        let blank = [Float](repeating: 0, count: 3 * MRZCellFeatures.width * MRZCellFeatures.height)
        let p = model.logProbabilities(ink: blank, cells: 3), n = MRZAlphabet.count
        for c in 0..<3 {
            #expect(abs(p[c * n..<(c + 1) * n].reduce(0) { $0 + exp($1) } - 1) < 1e-6)
        }
        let image = try ImageLoader.load(path: MRZReaderTests.root + "/TestDocuments/passport_td3.clean.png")[0]
        var off = MRZScanOptions()
        off.cellModelWeight = 0
        for (options, runs) in [(off, false), (MRZScanOptions(), true)] {
            let zero: @Sendable () -> Double = { 0 }
            let clock = try #require(StepRecorder(clock: zero))
            let mrz = try #require(MRZScanner.scan(image, tesseract: try TesseractHandle(), options: options, clock: clock))
            #expect(mrz.lines == (try MRZReaderTests.truth("passport_td3")))
            #expect(clock.steps.contains { $0.step == "mrz.cells" } == runs, "\(clock.steps.map(\.step))")
        }
    }
}
