#ifndef KORDANT_FUZZ_DRIVER_H
#define KORDANT_FUZZ_DRIVER_H
#include <stddef.h>
#include <stdint.h>

/// libFuzzer's driver (compiler-rt), for executables whose `main` SwiftPM generates.
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));

/// Writes one input to /dev/shm/kordant-fuzz-TAG-PID + SUFFIX for the readers that take a path,
/// and returns that path (a buffer of the process: a target runs one input at a time), or NULL.
const char *kordant_fuzz_file(const char *tag, const char *suffix, const uint8_t *data, size_t size);

#endif
