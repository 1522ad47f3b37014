/* fuzz_ir.c — libFuzzer harness for the IR text form: ir_parse on arbitrary
 * text, ir_verify on what parses, and for a function that verifies, the
 * round trip print -> parse -> print, which must be the identity (ir.h). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tritium/diag.h"
#include "tritium/ir.h"

static char *print_fn(const ir_func *f)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&buf, &len);
    ir_print(m, f);
    fclose(m);
    return buf;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static FILE *devnull;
    if (!devnull) devnull = fopen("/dev/null", "w");
    diag_set_stream(devnull);
    if (size > 16384) return 0;
    int mark = diag_source_mark();   /* the registry would grow by every input */
    char *text = xstrndup((const char *)data, size);
    ir_func *f = ir_parse("fuzz.ir", text);
    if (f && ir_verify(f) == 0) {
        char *a = print_fn(f);
        ir_func *g = ir_parse("fuzz2.ir", a);
        if (!g) {
            fprintf(stderr, "printed IR does not parse:\n%s\n", a);
            abort();
        }
        char *b = print_fn(g);
        if (strcmp(a, b)) {
            fprintf(stderr, "print -> parse -> print differs:\n%s\n---\n%s\n", a, b);
            abort();
        }
        free(a);
        free(b);
        ir_func_free(g);
    }
    if (f) ir_func_free(f);
    free(text);
    diag_source_release(mark);
    return 0;
}
