#ifndef KORDANT_SPEAKER_H
#define KORDANT_SPEAKER_H

/// One LSTM step for `partials` rows (torch's gate order i, f, g, o): for each row p,
/// z = gates[p] + bias; c = σ(z_f)·c + σ(z_i)·tanh(z_g); h = σ(z_o)·tanh(c).
/// gates: partials × 4·hidden, cell and out: partials × hidden. `hidden` must be a multiple of 8.
void kordant_lstm_cell(const float *gates, const float *bias, float *cell, float *out, int partials, int hidden);

#endif
