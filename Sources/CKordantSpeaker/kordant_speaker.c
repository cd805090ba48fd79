// The speaker encoder's LSTM cell: elementwise gates between the BLAS products. In C rather than
// Swift so it stays fast in debug builds (tests run there; Swift's generic SIMD types do not
// inline without optimisation) and is vectorised with AVX2 + FMA where the CPU has them.
#include "kordant_speaker.h"

#include <stdint.h>
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
