import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import KordantAudio
import Testing

@Suite struct WaveformTests {
    /// Min/max per pixel against a direct computation over int16 samples, in audiowaveform's JSON.
    @Test(arguments: [16, 8])
    func minMaxPairsMatchSamples(bits: Int) throws {
        let reference = TestAudio.readInt16(TestAudio.path("speech_scot_male.wav")).map { Int32(($0 * 32768).rounded()) }
        let decoder = try MonoDecoder(path: TestAudio.path("speech_scot_male.wav"), outputRate: nil)
        var b = Waveform.Builder(sampleRate: decoder.outputRate, pixelsPerSecond: 100, bits: bits)
        try decoder.run { b.add($0) }
        let w = b.finish()
        #expect(w.samplesPerPixel == 160)
        #expect(w.length == (reference.count + 159) / 160)
        for p in 0..<w.length {
            let chunk = reference[(p * 160)..<min(reference.count, (p + 1) * 160)]
            let lo = chunk.min()!, hi = chunk.max()!
            #expect(w.data[2 * p] == (bits == 16 ? lo : lo >> 8) && w.data[2 * p + 1] == (bits == 16 ? hi : hi >> 8), "pixel \(p)")
        }
        let json = try JSONSerialization.jsonObject(with: Data(w.audiowaveformJSON().utf8)) as! [String: Any]
        #expect(json["version"] as? Int == 2)
        #expect(json["channels"] as? Int == 1)
        #expect(json["sample_rate"] as? Int == 16_000)
        #expect(json["samples_per_pixel"] as? Int == 160)
        #expect(json["bits"] as? Int == bits)
        #expect(json["length"] as? Int == w.length)
        #expect((json["data"] as? [Int])?.count == 2 * w.length)
    }

    @Test func svgIsWellFormedXML() throws {
        var b = Waveform.Builder(sampleRate: 16_000, samplesPerPixel: 400)
        let x = (0..<32_000).map { Float(sin(Double($0) / 20)) * 0.5 }
        x.withUnsafeBufferPointer { b.add($0) }
        let svg = b.finish().svg(height: 120, title: "tone <test> & co")
        let doc = try XMLDocument(xmlString: svg)
        #expect(doc.rootElement()?.name == "svg")
        #expect(doc.rootElement()?.children?.isEmpty == false)
        #expect(svg.contains("width=\"80\""))
        #expect(svg.contains("&lt;test&gt; &amp; co"))
        #expect(svg.contains("1s"))
    }
}
