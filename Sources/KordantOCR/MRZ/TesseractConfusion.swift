import Foundation

/// How Tesseract's `eng` model reads OCR-B in MRZ cells: P(reading | printed character),
/// measured (``TesseractConfusionCounts``, made by `scripts/make-mrz-confusion` from the dev split
/// of the generated corpus and the real specimens) and smoothed towards a prior.
///
/// A reading is a character with a confidence bin (≥ 90 or below). The measured table is what
/// makes Tesseract's vote worth what it is: it reads OCR-B's `<` as K about one time in five, a 5
/// as S one time in six and a flat-topped 3 as S one time in eleven, so an S says "5 or S, maybe
/// 3", not "S or 5, never 3".
enum TesseractConfusion {
    /// Confidence at or above which a reading counts as sure (the upper bin).
    static let sureConfidence = 90.0
    /// Pseudo-counts of the prior per printed character: rare characters (Q, X) lean on it,
    /// common ones (`<`, 0) on what was measured.
    static let priorWeight = 10.0

    /// log P(reading | printed) for every printed character (index = ``MRZAlphabet``); nil for a
    /// character outside the MRZ alphabet.
    static func logLikelihoods(read: Character, confidence: Double) -> [Double]? {
        guard let r = MRZAlphabet.index(read) else { return nil }
        return table[outcome(r, sure: confidence >= sureConfidence)]
    }

    /// How often Tesseract reads `printed` as `read`, at any confidence.
    static func probability(read: Character, printed: Int) -> Double? {
        guard let r = MRZAlphabet.index(read) else { return nil }
        return exp(table[outcome(r, sure: true)][printed]) + exp(table[outcome(r, sure: false)][printed])
    }

    static func outcome(_ read: Int, sure: Bool) -> Int { read * 2 + (sure ? 1 : 0) }

    /// The prior before any measurement: the character itself mostly, its OCR-B look-alikes
    /// (``MRZDecoder/lookAlikeClasses``) sometimes, anything else rarely; mostly read sure.
    static func prior(read r: Int, sure: Bool, printed c: Int) -> Double {
        let bin = sure ? 0.85 : 0.15
        let n = MRZAlphabet.count
        let cls = MRZDecoder.lookAlikeClasses.first { $0.contains(MRZAlphabet.characters[c]) }
            .map { Set($0.compactMap(MRZAlphabet.index)) }?.subtracting([c]) ?? []
        let same = cls.isEmpty ? 0.95 : 0.75, alike = cls.isEmpty ? 0.0 : 0.2
        let other = 1 - same - alike
        let p: Double
        if r == c { p = same } else if cls.contains(r) { p = alike / Double(cls.count) } else { p = other / Double(n - 1 - cls.count) }
        return p * bin
    }

    /// Outcome (``outcome(_:sure:)``) × printed character → log-probability.
    static let table: [[Double]] = {
        let n = MRZAlphabet.count
        var counts = [[Double]](repeating: [Double](repeating: 0, count: n), count: 2 * n)   // [outcome][printed]
        var totals = [Double](repeating: 0, count: n)
        for (printed, row) in TesseractConfusionCounts.counts {
            guard let c = MRZAlphabet.index(printed) else { continue }
            for (key, count) in row {
                guard let first = key.first, let r = MRZAlphabet.index(first) else { continue }
                counts[outcome(r, sure: key.hasSuffix("+"))][c] += Double(count)
                totals[c] += Double(count)
            }
        }
        var out = counts
        for o in 0..<(2 * n) {
            for c in 0..<n {
                let p = (counts[o][c] + priorWeight * prior(read: o / 2, sure: o % 2 == 1, printed: c)) / (totals[c] + priorWeight)
                out[o][c] = log(p)
            }
        }
        return out
    }()
}
