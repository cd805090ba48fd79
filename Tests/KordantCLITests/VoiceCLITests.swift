import Foundation
import Testing

@Suite struct VoiceCLITests {
    func json(_ text: String) throws -> [String: Any] {
        try JSONSerialization.jsonObject(with: Data(text.utf8)) as! [String: Any]
    }

    @Test func qualityVerdictsAndExitCodes() throws {
        let pass = try CLI.run(["quality", "--json", "TestAudio/speech_gb_female.wav"])
        #expect(pass.status == 0)
        let p = try json(pass.stdout)
        #expect(p["pass"] as? Bool == true && (p["reasons"] as? [String])?.isEmpty == true)
        for key in ["duration_s", "speech_s", "speech_ratio", "speech_level_db", "peak_db", "clipped_fraction", "snr_db", "format"] {
            #expect(p[key] != nil, "missing \(key)")
        }
        let fail = try CLI.run(["quality", "--json", "TestAudio/clipped_speech.wav"])
        #expect(fail.status == 30)
        let f = try json(fail.stdout)
        #expect((f["reasons"] as? [String])?.contains("clipping") == true)
        #expect(((f["messages"] as? [[String: String]])?.first?["message"]?.isEmpty) == false)
        // Thresholds are flags.
        #expect(try CLI.run(["quality", "TestAudio/noisy_white_snr10.wav"]).status == 30)
        #expect(try CLI.run(["quality", "TestAudio/noisy_white_snr10.wav", "--min-snr", "5"]).status == 0)
        // Unreadable input is an error, not a verdict.
        #expect(try CLI.run(["quality", "TestAudio/bad_nan.wav"]).status == 15)
    }

    @Test func enrollJSONCarriesWhatTheBackendStores() throws {
        let r = try CLI.run(["enroll", "--json", "TestAudio/enroll_scot_male_1.wav", "TestAudio/enroll_scot_male_2.wav",
                             "TestAudio/enroll_scot_male_3.wav"])
        #expect(r.status == 0, "\(r.stderr)")
        let j = try json(r.stdout)
        #expect(j["pass"] as? Bool == true)
        // The voiceprint is the mean GE2E speaker embedding: 256 values of unit length.
        let voiceprint = try #require(j["voiceprint"] as? [Double])
        #expect(voiceprint.count == 256 && abs(voiceprint.reduce(0) { $0 + $1 * $1 } - 1) < 1e-4)
        #expect(j["model"] as? String == "resemblyzer-ge2e-0.1.4")
        let samples = j["samples"] as! [[String: Any]]
        #expect(samples.count == 3)
        let features = samples[0]["features"] as! [String: Any]
        #expect(features["profile"] as? String == "kaldi" && features["nMfcc"] as? Int == 13)
        #expect((features["mean"] as? [Double])?.count == 13 && (features["std"] as? [Double])?.count == 13)
        let consistency = j["consistency"] as! [String: Any]
        #expect(consistency["consistent"] as? Bool == true)

        // TestAudio's voices all come from espeak-ng, which the speaker encoder hears as close
        // relatives: the threshold calibrated on real speech (0.725) is raised between them here.
        let mixed = try CLI.run(["enroll", "--json", "--consistency-threshold", "0.85", "TestAudio/enroll_us_male_1.wav",
                                 "TestAudio/enroll_us_male_3.wav", "TestAudio/speech_us_female.wav"])
        #expect(mixed.status == 30)
        let m = try json(mixed.stdout)
        #expect((m["consistency"] as! [String: Any])["inconsistent"] as? [String] == ["TestAudio/speech_us_female.wav"])
        let third = (m["samples"] as! [[String: Any]])[2]["quality"] as! [String: Any]
        #expect(third["reasons"] as? [String] == ["inconsistent_speaker"])
    }

    @Test(arguments: ["kaldi", "librosa", "psf"])
    func featureFormats(profile: String) throws {
        let j = try CLI.run(["features", "TestAudio/speech_us_male.wav", "--profile", profile])
        #expect(j.status == 0, "\(j.stderr)")
        let m = try json(j.stdout)
        let data = m["data"] as! [[Double]]
        #expect(data.count == m["frames"] as? Int && data[0].count == m["coefficients"] as? Int)
        let npy = CLI.temporary("f-\(profile).npy")
        #expect(try CLI.run(["features", "TestAudio/speech_us_male.wav", "--profile", profile, "--deltas", "--cmvn",
                             "--format", "npy", "--out", npy]).status == 0)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: npy))
        #expect(bytes.prefix(6) == Data([0x93] + Array("NUMPY".utf8)))
        let header = String(decoding: bytes[10..<(10 + Int(bytes[8]))], as: UTF8.self)
        let width = (m["coefficients"] as! Int) * 3
        #expect(header.contains("'shape': (\(data.count), \(width))"), "\(header)")
        #expect(bytes.count == 10 + Int(bytes[8]) + data.count * width * 4)
        let csv = try CLI.run(["features", "TestAudio/speech_us_male.wav", "--profile", profile, "--format", "csv"])
        #expect(csv.stdout.split(separator: "\n").count == data.count + 1)
    }

    @Test func recordCheckPrintsTheVerdict() throws {
        let raw = CLI.temporary("check.raw")
        let x = RecordCLITests.samples(CLI.repository.appendingPathComponent("TestAudio/speech_gb_female.wav").path)
        try ((x + [Int16](repeating: 0, count: 16_000)).withUnsafeBytes { Data($0) }).write(to: URL(fileURLWithPath: raw))
        let ok = try CLI.run(["record", CLI.temporary("ok.wav"), "--device", "capfile:\(raw)", "--duration", "9", "--check", "--json"],
                             environment: CLI.alsaEnvironment)
        #expect(ok.status == 0)
        let summary = try json(String(ok.stdout.split(separator: "\n").last!))["summary"] as! [String: Any]
        #expect((summary["quality"] as? [String: Any])?["pass"] as? Bool == true)
        let short = try CLI.run(["record", CLI.temporary("short.wav"), "--device", "capfile:\(raw)", "--duration", "3", "--check"],
                                environment: CLI.alsaEnvironment)
        #expect(short.status == 30)
        #expect(short.stdout.contains("too_short"))
    }
}
