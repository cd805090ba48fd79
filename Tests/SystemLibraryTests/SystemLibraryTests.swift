import CALSA
import CFFTW
import CSndfile
import CSoxr
import CTesseract
import Testing

/// Every system-library target links and answers a real call into its library.
@Suite struct SystemLibraryTests {
    @Test func libsndfile() {
        #expect(String(cString: sf_version_string()).hasPrefix("libsndfile-1."))
    }

    @Test func fftwSinglePrecisionPlansAndRuns() {
        let n: Int32 = 8
        let input = fftwf_alloc_real(Int(n))!
        let output = fftwf_alloc_complex(Int(n / 2 + 1))!
        defer { fftwf_free(input); fftwf_free(output) }
        let plan = fftwf_plan_dft_r2c_1d(n, input, output, UInt32(FFTW_ESTIMATE))
        defer { fftwf_destroy_plan(plan) }
        for i in 0..<Int(n) { input[i] = 1 }
        fftwf_execute(plan)
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
