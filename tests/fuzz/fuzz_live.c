/* fuzz_live.c — libFuzzer harness for live modules (compiler/front/live.c):
 * front_load_live on arbitrary bytes (JSON as python/tritium/_resolve.py
 * writes it, or a user's kernel.json), then, when a module loads, the
 * kernel compiled for a small launch (fuzz_compile.h), as fuzz_front.c does
 * for source files. Diagnostics are discarded. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include "tritium/front.h"
#include "tritium/diag.h"
#include "fuzz_compile.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static FILE *devnull;
    if (!devnull) devnull = fopen("/dev/null", "w");
    diag_set_stream(devnull);
    if (size > 16384) return 0;
    int mark = diag_source_mark();
    char *text = xstrndup((const char *)data, size);
    front_module *m = front_load_live("fuzz.json", text);
    fuzz_compile_first(m);
    front_module_free(m);
    free(text);
    diag_source_release(mark);
    return 0;
}
