/* fuzz_live.c — libFuzzer harness for live modules (compiler/front/live.c):
 * front_load_live on arbitrary bytes (JSON as python/tritium/_resolve.py
 * writes it, or a user's kernel.json), then, when a module loads, the
 * kernel compiled for a small launch (tensors f32[16], constexprs 16), as
 * fuzz_front.c does for source files. Diagnostics are discarded. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include "tritium/front.h"
#include "tritium/diag.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static FILE *devnull;
    if (!devnull) devnull = fopen("/dev/null", "w");
    diag_set_stream(devnull);
    if (size > 16384) return 0;
    int mark = diag_source_mark();
    char *text = xstrndup((const char *)data, size);
    front_module *m = front_load_live("fuzz.json", text);
    if (m && front_function_count(m) > 0) {
        const char *k = front_function_name(m, 0);
        const front_param *p;
        int np = front_params(m, k, &p);
        if (np >= 0 && np <= 16) {
            launch l = { 0 };
            l.grid[0] = l.grid[1] = l.grid[2] = 1;
            l.num_warps = 4;
            l.args = xcalloc(16, sizeof *l.args);
            l.consts = xcalloc(16, sizeof *l.consts);
            int64_t shape[1] = { 16 };
            for (int i = 0; i < np; i++) {
                if (p[i].is_constexpr) {
                    launch_const *c = &l.consts[l.nconsts++];
                    c->name = xstrdup(p[i].name);
                    c->kind = CONST_INT;
                    c->i = 16;
                } else {
                    launch_arg *a = &l.args[l.nargs++];
                    a->name = xstrdup(p[i].name);
                    a->kind = ARG_TENSOR;
                    a->tensor = tt_tensor_new(p[i].name, TT_F32, 1, shape);
                }
            }
            ir_func *f = front_compile(m, k, &l);
            if (f) ir_func_free(f);
            launch_free(&l);
        }
    }
    front_module_free(m);
    free(text);
    diag_source_release(mark);
    return 0;
}
