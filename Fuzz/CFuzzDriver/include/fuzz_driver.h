#ifndef KORDANT_FUZZ_DRIVER_H
#define KORDANT_FUZZ_DRIVER_H
#include <stddef.h>
#include <stdint.h>

/// libFuzzer's driver (compiler-rt), for executables whose `main` SwiftPM generates.
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));

#endif
