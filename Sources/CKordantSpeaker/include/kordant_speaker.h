#ifndef KORDANT_SPEAKER_H
#define KORDANT_SPEAKER_H

/// One LSTM step for `partials` rows (torch's gate order i, f, g, o): for each row p,
/// z = gates[p] + bias; c = σ(z_f)·c + σ(z_i)·tanh(z_g); h = σ(z_o)·tanh(c).
/// gates: partials × 4·hidden, cell and out: partials × hidden. `hidden` must be a multiple of 8.
void kordant_lstm_cell(const float *gates, const float *bias, float *cell, float *out, int partials, int hidden);

/// One recurrent step's product added to the gates: gates[p][j] += Σₖ h[p][k] · W[j][k], for
/// `partials` rows, k < hidden, j < width, with W (width × hidden) packed once by the caller in
/// column blocks of 16: wt[(j / 16) · hidden · 16 + k · 16 + j % 16] = W[j][k]. No call repacks
/// it (OpenBLAS packs its operand on every call, which for a few rows costs about as much as the
/// product). `width` must be a multiple of 16.
void kordant_recurrent_step(float *gates, const float *h, const float *wt, int partials, int hidden, int width);

#endif
