// libFuzzer itself comes from -sanitize=fuzzer; here only what every target shares.
#include "fuzz_driver.h"
#include <stdio.h>
#include <unistd.h>

const char *kordant_fuzz_file(const char *tag, const char *suffix, const uint8_t *data, size_t size) {
    static char path[256];
    snprintf(path, sizeof path, "/dev/shm/kordant-fuzz-%s-%d%s", tag, (int)getpid(), suffix);
    FILE *f = fopen(path, "wb");
    if (!f) return NULL;
    size_t written = fwrite(data, 1, size, f);
    return fclose(f) == 0 && written == size ? path : NULL;
}
