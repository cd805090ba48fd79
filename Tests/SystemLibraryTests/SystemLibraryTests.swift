import CALSA
import CFFTW
import CSndfile
import CSoxr
import CTesseract
@testable import KordantVoice
import Testing

/// Every system-library target links and answers a real call into its library.
@Suite struct SystemLibraryTests {
    @Test func libsndfile() {
        #expect(String(cString: sf_version_string()).hasPrefix("libsndfile-1."))
    }

    /// FFTW's planner is not thread-safe, and every test target runs in one process with the
    /// suites in parallel: the plan comes from the engine's own planner (``FFTPlans``, which holds
    /// the one lock around planning). Planned here directly, beside that lock, it is the likely
    /// cause of a CI crash inside FFTW's planner while voice tests ran (2026-11-28).
    @Test func fftwSinglePrecisionPlansAndRuns() {
        let n = 8
        let input = fftwf_alloc_real(n)!
        let output = fftwf_alloc_complex(n / 2 + 1)!
        defer { fftwf_free(input); fftwf_free(output) }
        let plan = FFTPlans.shared.realForward(n)
        for i in 0..<n { input[i] = 1 }
        fftwf_execute_dft_r2c(plan, input, output)
        // A constant signal has all its energy in the DC bin.
        #expect(output[0].0 == 8 && output[1].0 == 0 && output[1].1 == 0)
    }

    @Test func alsa() {
        #expect(String(cString: snd_asoundlib_version()).hasPrefix("1."))
    }

    @Test func soxr() {
        #expect(String(cString: soxr_version()).hasPrefix("libsoxr-0."))
    }

    @Test func tesseractAndLeptonica() {
        #expect(String(cString: TessVersion()).hasPrefix("5."))
        let lept = getLeptonicaVersion()!
        defer { free(lept) }
        #expect(String(cString: lept).hasPrefix("leptonica-1."))
        // Leptonica's Pix is the same type Tesseract's API takes: one module, one type.
        var pix: UnsafeMutablePointer<Pix>? = pixCreate(10, 10, 8)
        #expect(pix != nil)
        pixDestroy(&pix)
    }
}
