/* What FFTW planning costs against what it buys, for the engine's 512-point r2c transform:
 * plan time and time per execution with FFTW_ESTIMATE and FFTW_MEASURE.
 *   cc -O2 benchmarks/fftw/plan-cost.c -o /tmp/plan-cost -lfftw3f && /tmp/plan-cost */
#include <fftw3.h>
#include <stdio.h>
#include <time.h>

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

int main(void) {
    const int n = 512, runs = 200000;
    float *in = fftwf_alloc_real(n);
    fftwf_complex *out = fftwf_alloc_complex(n / 2 + 1);
    const unsigned flags[2] = {FFTW_ESTIMATE, FFTW_MEASURE};
    for (int f = 0; f < 2; f++) {
        double t0 = now();
        fftwf_plan p = fftwf_plan_dft_r2c_1d(n, in, out, flags[f]);
        double t1 = now();
        for (int i = 0; i < n; i++) in[i] = (float)(i % 7);
        double t2 = now();
        for (int r = 0; r < runs; r++) fftwf_execute_dft_r2c(p, in, out);
        double t3 = now();
        printf("%-8s plan %6.1f ms, execute %6.1f ns\n", f ? "MEASURE" : "ESTIMATE", (t1 - t0) * 1e3, (t3 - t2) / runs * 1e9);
        fftwf_destroy_plan(p);
    }
    fftwf_free(in);
    fftwf_free(out);
    return 0;
}
