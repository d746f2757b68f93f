#ifndef CLIBFUZZER_H
#define CLIBFUZZER_H
#include <stddef.h>
#include <stdint.h>

/// libFuzzer's driver (compiler-rt, libclang_rt.fuzzer_no_main): parses the libFuzzer options in
/// argv and calls `callback` with each input. Our own main calls it, because SwiftPM gives every
/// executable a `main` of its own, which libFuzzer's usual main would clash with.
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));

#endif
