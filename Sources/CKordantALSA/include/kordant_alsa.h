#ifndef KORDANT_ALSA_H
#define KORDANT_ALSA_H

#include <alsa/asoundlib.h>

/// Routes ALSA's library error messages away from stderr into a per-thread buffer, so the
/// engine can put ALSA's reason into its own one-line error. Idempotent.
void kordant_alsa_silence(void);

/// The last message ALSA's library reported on this thread ("" if none), and clears it.
const char *kordant_alsa_last_message(void);

#endif
