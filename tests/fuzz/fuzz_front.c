/* fuzz_front.c — libFuzzer harness for the front end: front_load_text on
 * arbitrary text, then, when a module loads, its first jit function compiled
 * for a small launch (fuzz_compile.h). Diagnostics are discarded. */
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
    if (size > 8192) return 0;
    int mark = diag_source_mark();   /* the registry would grow by every input */
    char *text = xstrndup((const char *)data, size);
    front_module *m = front_load_text("fuzz.py", text);
    if (m) {
        (void)front_launch_comment(m);
        fuzz_compile_first(m);
        front_module_free(m);
    }
    free(text);
    diag_source_release(mark);
    return 0;
}
