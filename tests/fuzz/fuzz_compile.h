/* fuzz_compile.h — shared by the front-end harnesses (fuzz_front.c,
 * fuzz_live.c): compile a loaded module's first jit function for a small
 * launch (tensors f32[16] for pointer-named parameters, ints 16, constexprs
 * 16 unless they have a default), then free the IR. Header-only: each
 * harness is one translation unit. */
#ifndef FUZZ_COMPILE_H
#define FUZZ_COMPILE_H

#include <string.h>
#include "tritium/front.h"

static void fuzz_compile_first(front_module *m)
{
    if (!m || front_function_count(m) <= 0) return;
    const char *k = front_function_name(m, 0);
    const front_param *p;
    int np = front_params(m, k, &p);
    if (np < 0 || np > 16) return;
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

#endif
