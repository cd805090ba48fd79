import Foundation

/// `resemblyzer.audio.wav_to_mel_spectrogram`: `librosa.feature.melspectrogram` with n_fft 400
/// (25 ms), hop 160 (10 ms), 40 Slaney mel bands with area normalisation, power 2, frames centred
/// with zero padding, periodic Hann window. Not a log-mel: the network takes the power values.
///
/// Owns its FFT buffers; not thread-safe (one per call or per thread).
final class SpeakerMel {
    static let fftSize = 400
    static let hop = 160
    static let bands = 40

    private let fft = RealFFT(size: fftSize)
    private let window: [Float]
    private let filters: MelFilterbank
    private var power = [Float](repeating: 0, count: fftSize / 2 + 1)

    init() {
        window = MFCCExtractor.window(.hann, length: Self.fftSize)
        filters = MelFilterbank(options: .librosa(nFFT: Self.fftSize, hopLength: Self.hop, nMels: Self.bands))
    }

    /// Frames of a centred STFT: 1 + n / hop.
    static func frameCount(samples n: Int) -> Int { 1 + n / hop }

    /// Writes the first `frames` rows of 40 mel powers into `out` (row-major).
    func compute(_ wav: UnsafeBufferPointer<Float>, frames: Int, into out: UnsafeMutablePointer<Float>) {
        let n = wav.count, half = Self.fftSize / 2
        let input = fft.input
        power.withUnsafeMutableBufferPointer { p in
            window.withUnsafeBufferPointer { w in
                for t in 0..<frames {
                    let start = t * Self.hop - half
                    for i in 0..<Self.fftSize {
                        let s = start + i
                        input[i] = s >= 0 && s < n ? wav[s] * w[i] : 0
                    }
                    fft.powerSpectrum(into: p.baseAddress!, scale: 1)
                    filters.apply(p.baseAddress!, into: out + t * Self.bands)
                }
            }
        }
    }
}
