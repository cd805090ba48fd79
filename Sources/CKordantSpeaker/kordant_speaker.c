// The speaker encoder's LSTM cell: elementwise gates between the BLAS products. In C rather than
// Swift so it stays fast in debug builds (tests run there; Swift's generic SIMD types do not
// inline without optimisation) and is vectorised with AVX2 + FMA where the CPU has them.
#include "kordant_speaker.h"

#include <stdint.h>
#if defined(__x86_64__)
#include <immintrin.h>
#endif
#include <string.h>

// e^x to about 2 ulp: Cephes expf (range reduction by ln 2, degree-6 polynomial), branch-free so
// the loops below vectorise.
static inline float fast_exp(float x) {
    x = x < -87.3f ? -87.3f : (x > 88.3f ? 88.3f : x);
    float n = __builtin_rintf(x * 1.44269504f);
    float r = x - n * 0.693359375f + n * 2.12194440e-4f;
    float y = 1.9875691500e-4f;
    y = y * r + 1.3981999507e-3f;
    y = y * r + 8.3334519073e-3f;
    y = y * r + 4.1665795894e-2f;
    y = y * r + 1.6666665459e-1f;
    y = y * r + 5.0000001201e-1f;
    y = y * (r * r) + r + 1.0f;
    int32_t bits = ((int32_t)n + 127) << 23;
    float scale;
    memcpy(&scale, &bits, sizeof scale);
    return y * scale;
}

static inline float sigmoid(float x) { return 1.0f / (1.0f + fast_exp(-x)); }
static inline float tanh_(float x) { return 2.0f / (1.0f + fast_exp(-2.0f * x)) - 1.0f; }

#define CELL_BODY                                                                   \
    for (int p = 0; p < partials; p++) {                                            \
        const float *g = gates + (long)p * 4 * hidden;                              \
        float *c = cell + (long)p * hidden, *h = out + (long)p * hidden;            \
        for (int j = 0; j < hidden; j++) {                                          \
            float i_ = sigmoid(g[j] + bias[j]);                                     \
            float f_ = sigmoid(g[hidden + j] + bias[hidden + j]);                   \
            float g_ = tanh_(g[2 * hidden + j] + bias[2 * hidden + j]);             \
            float o_ = sigmoid(g[3 * hidden + j] + bias[3 * hidden + j]);           \
            float cn = f_ * c[j] + i_ * g_;                                         \
            c[j] = cn;                                                              \
            h[j] = o_ * tanh_(cn);                                                  \
        }                                                                           \
    }

#if defined(__x86_64__)
__attribute__((target("avx2,fma"))) static void lstm_cell_avx2(const float *gates, const float *bias, float *cell,
                                                               float *out, int partials, int hidden) {
    CELL_BODY
}
#endif

static void lstm_cell_generic(const float *gates, const float *bias, float *cell, float *out, int partials, int hidden) {
    CELL_BODY
}

void kordant_lstm_cell(const float *gates, const float *bias, float *cell, float *out, int partials, int hidden) {
#if defined(__x86_64__)
    // Reads the CPU features libgcc/compiler-rt recorded at load time: cheap, and no shared state.
    if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) {
        lstm_cell_avx2(gates, bias, cell, out, partials, hidden);
        return;
    }
#endif
    lstm_cell_generic(gates, bias, cell, out, partials, hidden);
}

// The recurrent product for a block of 4 rows against weights packed once: 4 rows × 16 columns
// per block (8 accumulators, enough chains to keep the FMA units busy); the weights stream in
// order, each read once per block of rows. Blocks of 1–3 rows use recurrent_rows_split below.
#if defined(__x86_64__)
__attribute__((target("avx2,fma"), always_inline)) static inline void recurrent_rows(float *gates, const float *h,
                                                                                     const float *wt, int rows, int hidden,
                                                                                     int width) {
    for (int j = 0; j < width; j += 16) {
        __m256 a[4], b[4];
        for (int r = 0; r < rows; r++) {
            a[r] = _mm256_loadu_ps(gates + (long)r * width + j);
            b[r] = _mm256_loadu_ps(gates + (long)r * width + j + 8);
        }
        const float *w = wt + (long)j * hidden;
        for (int k = 0; k < hidden; k++, w += 16) {
            __m256 wa = _mm256_loadu_ps(w), wb = _mm256_loadu_ps(w + 8);
            for (int r = 0; r < rows; r++) {
                __m256 x = _mm256_broadcast_ss(h + (long)r * hidden + k);
                a[r] = _mm256_fmadd_ps(x, wa, a[r]);
                b[r] = _mm256_fmadd_ps(x, wb, b[r]);
            }
        }
        for (int r = 0; r < rows; r++) {
            _mm256_storeu_ps(gates + (long)r * width + j, a[r]);
            _mm256_storeu_ps(gates + (long)r * width + j + 8, b[r]);
        }
    }
}

// 1–3 rows: accumulating every k into one register per row and half-block leaves only 2–6
// dependent FMA chains, fewer than the FMA latency × issue width (4 × 2) needs to stay busy, so
// even and odd k go to separate accumulators (4–12 chains), added at the end.
__attribute__((target("avx2,fma"), always_inline)) static inline void recurrent_rows_split(float *gates, const float *h,
                                                                                           const float *wt, int rows,
                                                                                           int hidden, int width) {
    for (int j = 0; j < width; j += 16) {
        __m256 a[3], b[3], c[3], d[3];
        for (int r = 0; r < rows; r++) {
            a[r] = _mm256_loadu_ps(gates + (long)r * width + j);
            b[r] = _mm256_loadu_ps(gates + (long)r * width + j + 8);
            c[r] = _mm256_setzero_ps();
            d[r] = _mm256_setzero_ps();
        }
        const float *w = wt + (long)j * hidden;
        int k = 0;
        for (; k + 2 <= hidden; k += 2, w += 32) {
            __m256 wa = _mm256_loadu_ps(w), wb = _mm256_loadu_ps(w + 8);
            for (int r = 0; r < rows; r++) {
                __m256 x = _mm256_broadcast_ss(h + (long)r * hidden + k);
                a[r] = _mm256_fmadd_ps(x, wa, a[r]);
                b[r] = _mm256_fmadd_ps(x, wb, b[r]);
            }
            wa = _mm256_loadu_ps(w + 16);
            wb = _mm256_loadu_ps(w + 24);
            for (int r = 0; r < rows; r++) {
                __m256 x = _mm256_broadcast_ss(h + (long)r * hidden + k + 1);
                c[r] = _mm256_fmadd_ps(x, wa, c[r]);
                d[r] = _mm256_fmadd_ps(x, wb, d[r]);
            }
        }
        if (k < hidden) {
            __m256 wa = _mm256_loadu_ps(w), wb = _mm256_loadu_ps(w + 8);
            for (int r = 0; r < rows; r++) {
                __m256 x = _mm256_broadcast_ss(h + (long)r * hidden + k);
                a[r] = _mm256_fmadd_ps(x, wa, a[r]);
                b[r] = _mm256_fmadd_ps(x, wb, b[r]);
            }
        }
        for (int r = 0; r < rows; r++) {
            _mm256_storeu_ps(gates + (long)r * width + j, _mm256_add_ps(a[r], c[r]));
            _mm256_storeu_ps(gates + (long)r * width + j + 8, _mm256_add_ps(b[r], d[r]));
        }
    }
}

__attribute__((target("avx2,fma"))) static void recurrent_avx2(float *gates, const float *h, const float *wt, int partials,
                                                               int hidden, int width) {
    // Rows go in blocks of 4 (8 chains) and 3 (split, 12 chains), which run at the same cost per
    // row (measured: 20 and 15 us per block here); a block of 2 costs 1.2x per row and a single
    // row, bound by streaming the weights, 2.3x. So the remainder of a division by 4 is made of
    // threes wherever the rows allow: 6 = 3 + 3, 9 = 3 + 3 + 3, 5 = 3 + 2.
    int threes = 0, rest = 0;
    switch (partials % 4) {
    case 3: threes = 1; break;
    case 2: if (partials >= 6) threes = 2; else rest = 2; break;
    case 1: if (partials >= 9) threes = 3; else if (partials == 5) { threes = 1; rest = 2; } else rest = 1; break;
    default: break;
    }
    int fours = (partials - 3 * threes - rest) / 4, p = 0;
    for (int b = 0; b < fours; b++, p += 4)
        recurrent_rows(gates + (long)p * width, h + (long)p * hidden, wt, 4, hidden, width);
    // A constant row count each, so the accumulators stay in registers.
    for (int b = 0; b < threes; b++, p += 3)
        recurrent_rows_split(gates + (long)p * width, h + (long)p * hidden, wt, 3, hidden, width);
    if (rest == 2) recurrent_rows_split(gates + (long)p * width, h + (long)p * hidden, wt, 2, hidden, width);
    if (rest == 1) recurrent_rows_split(gates + (long)p * width, h + (long)p * hidden, wt, 1, hidden, width);
}
#endif

static void recurrent_generic(float *gates, const float *h, const float *wt, int partials, int hidden, int width) {
    for (int p = 0; p < partials; p++) {
        const float *hp = h + (long)p * hidden;
        float *g = gates + (long)p * width;
        for (int j = 0; j < width; j += 16) {
            const float *w = wt + (long)j * hidden;
            for (int k = 0; k < hidden; k++, w += 16) {
                for (int jj = 0; jj < 16; jj++) g[j + jj] += hp[k] * w[jj];
            }
        }
    }
}

void kordant_recurrent_step(float *gates, const float *h, const float *wt, int partials, int hidden, int width) {
#if defined(__x86_64__)
    if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) {
        recurrent_avx2(gates, h, wt, partials, hidden, width);
        return;
    }
#endif
    recurrent_generic(gates, h, wt, partials, hidden, width);
}
