/* fuzz_front.c — libFuzzer harness for the front end: front_load_text on
 * arbitrary text, then, when a module loads, front_params and front_compile
 * of its first jit function with a small launch (tensors f32[16], ints 16,
 * constexprs 16 unless they have a default). Diagnostics are discarded. */
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
    if (size > 8192) return 0;
    int mark = diag_source_mark();   /* the registry would grow by every input */
    char *text = xstrndup((const char *)data, size);
    front_module *m = front_load_text("fuzz.py", text);
    if (m) {
        (void)front_launch_comment(m);
        if (front_function_count(m) > 0) {
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
                        if (p[i].has_default) continue;
                        launch_const *c = &l.consts[l.nconsts++];
                        c->name = xstrdup(p[i].name);
                        c->kind = CONST_INT;
                        c->i = 16;
                    } else {
                        launch_arg *a = &l.args[l.nargs++];
                        a->name = xstrdup(p[i].name);
                        /* pointers by naming convention, as most kernels do */
                        if (strstr(p[i].name, "ptr") || strlen(p[i].name) == 1) {
                            a->kind = ARG_TENSOR;
                            a->tensor = tt_tensor_new(p[i].name, TT_F32, 1, shape);
                        } else {
                            a->kind = ARG_INT;
                            a->dtype = TT_I32;
                            a->i = 16;
                        }
                    }
                }
                ir_func *f = front_compile(m, k, &l);
                if (f) ir_func_free(f);
                launch_free(&l);
            }
        }
        front_module_free(m);
    }
    free(text);
    diag_source_release(mark);
    return 0;
}
