// Declarations only (include/fuzz_driver.h); libFuzzer itself comes from -sanitize=fuzzer.
#include "fuzz_driver.h"
