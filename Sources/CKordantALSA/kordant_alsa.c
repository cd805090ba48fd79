#include "kordant_alsa.h"

#include <stdarg.h>
#include <stdio.h>

static __thread char last_message[512];

// ALSA's handler is variadic, which Swift cannot implement; this C one formats into the buffer.
static void kordant_alsa_handler(const char *file, int line, const char *function, int err, const char *fmt, ...) {
    (void)file;
    (void)line;
    (void)function;
    (void)err;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(last_message, sizeof last_message, fmt, ap);
    va_end(ap);
}

void kordant_alsa_silence(void) { snd_lib_error_set_handler(kordant_alsa_handler); }

const char *kordant_alsa_last_message(void) {
    static __thread char copy[512];
    snprintf(copy, sizeof copy, "%s", last_message);
    last_message[0] = 0;
    return copy;
}
