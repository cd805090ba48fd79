@testable import KordantOCR

extension GrayImage {
    /// `count` square dark dots of 1 to `maxSize` pixels at `level`, at places a linear
    /// congruential generator seeded with `seed` picks (the same page every run): a photocopy's
    /// speckle for the tests that make one.
    mutating func speckle(count: Int, maxSize: Int, seed: UInt64, level: UInt8 = 40) {
        var state = seed
        func next(_ n: Int) -> Int {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Int(state >> 33) % n
        }
        for _ in 0..<count {
            let x = next(width - maxSize - 1), y = next(height - maxSize - 1), size = 1 + next(maxSize)
            for dy in 0..<size { for dx in 0..<size { pixels[(y + dy) * width + x + dx] = level } }
        }
    }
}
