import CWebRTCVAD
import Foundation

/// Resemblyzer 0.1.4's audio preprocessing (`resemblyzer/audio.py`), step for step: volume
/// normalisation to -30 dBFS (increase only) and `trim_long_silences` with WebRTC's VAD
/// (aggressiveness 3, 30 ms windows), an 8-window moving average and a dilation by 6 windows.
public enum SpeakerPreprocessing {
    public static let targetDBFS = -30.0
    static let vadWindow = 480  // 30 ms at 16 kHz
    static let movingAverageWidth = 8
    static let maxSilenceWindows = 6

    /// The waveform the encoder embeds: volume-normalised, long silences removed.
    /// `samples` are 16 kHz mono in [-1, 1).
    public static func preprocess(_ samples: [Float]) -> [Float] {
        let normalised = normaliseVolume(samples)
        return trimLongSilences(normalised)
    }

    /// `normalize_volume(wav, -30, increase_only=True)`: the RMS brought up to -30 dBFS, never down.
    static func normaliseVolume(_ wav: [Float]) -> [Float] {
        guard !wav.isEmpty else { return wav }
        var sum = 0.0
        for x in wav { sum += Double(x) * Double(x) }
        let rms = (sum / Double(wav.count)).squareRoot()
        // Digital silence: the reference would multiply by infinity (NaN); leave it silent.
        guard rms > 0 else { return wav }
        let change = targetDBFS - 20 * log10(rms)
        guard change > 0 else { return wav }
        let gain = Float(pow(10, change / 20))
        return wav.map { $0 * gain }
    }

    /// `trim_long_silences`: keeps the 30 ms windows within 6 windows of smoothed voice activity.
    static func trimLongSilences(_ wav: [Float]) -> [Float] {
        let windows = wav.count / vadWindow
        guard windows > 0 else { return [] }
        let flags = WebRTCVAD.decisions(wav, windows: windows, windowLength: vadWindow, mode: 3)
        // Moving average over flags[j-3 … j+4] (zeros outside), rounded half to even: ≥ 5 of 8.
        var smoothed = [Bool](repeating: false, count: windows)
        var count = 0
        let before = (movingAverageWidth - 1) / 2, after = movingAverageWidth / 2
        for j in 0..<min(after, windows) where flags[j] { count += 1 }
        for j in 0..<windows {
            if j + after < windows, flags[j + after] { count += 1 }
            if j - before - 1 >= 0, flags[j - before - 1] { count -= 1 }
            smoothed[j] = 2 * count > movingAverageWidth
        }
        // Binary dilation with a structure of 7 ones centred on the window.
        var keep = [Bool](repeating: false, count: windows)
        let r = maxSilenceWindows / 2
        for j in 0..<windows where smoothed[j] {
            for k in max(0, j - r)...min(windows - 1, j + r) { keep[k] = true }
        }
        var out: [Float] = []
        out.reserveCapacity(windows * vadWindow)
        wav.withUnsafeBufferPointer { w in
            for j in 0..<windows where keep[j] {
                out.append(contentsOf: UnsafeBufferPointer(rebasing: w[(j * vadWindow)..<((j + 1) * vadWindow)]))
            }
        }
        return out
    }
}

/// One WebRTC VAD instance (owns and frees the C handle).
final class WebRTCVAD {
    private let handle: OpaquePointer

    init?(mode: Int32) {
        guard let h = WebRtcVad_Create() else { return nil }
        guard WebRtcVad_Init(h) == 0, WebRtcVad_set_mode(h, mode) == 0 else {
            WebRtcVad_Free(h)
            return nil
        }
        handle = h
    }

    deinit { WebRtcVad_Free(handle) }

    /// One decision per window of `windowLength` 16 kHz samples, on the samples as the reference
    /// converts them: round(x·32767), half to even, wrapped to 16 bits as numpy's astype does.
    static func decisions(_ wav: [Float], windows: Int, windowLength: Int, mode: Int32) -> [Bool] {
        guard let vad = WebRTCVAD(mode: mode) else { return [Bool](repeating: true, count: windows) }
        var pcm = [Int16](repeating: 0, count: windowLength)
        var flags = [Bool](repeating: false, count: windows)
        wav.withUnsafeBufferPointer { w in
            for j in 0..<windows {
                let base = j * windowLength
                for i in 0..<windowLength {
                    let v = (w[base + i] * 32767).rounded(.toNearestOrEven)
                    pcm[i] = Int16(truncatingIfNeeded: Int32(max(-2.1e9, min(2.1e9, v))))
                }
                flags[j] = pcm.withUnsafeBufferPointer { WebRtcVad_Process(vad.handle, 16000, $0.baseAddress, windowLength) } == 1
            }
        }
        return flags
    }
}
