/* sema_libdevice.c — calls of libdevice functions (triton.language.extra.
 * libdevice / extra.cuda.libdevice): the rows of include/tritium/ops_math.def
 * by libdevice name, with Triton 3.6's overload rule (core.py
 * extern_elementwise and dispatch): every argument becomes a tensor
 * (Python ints int32, floats fp32), the tuple of argument dtypes must be one
 * of the function's overloads exactly (no promotion), and the arguments are
 * broadcast to one shape. */
#include "sema_builtin.h"

#include <string.h>

/* The first ops_math.def row answering to libdevice name `name`, -1 none. */
static int first_row(const char *name)
{
    for (int opc = 0; opc < IR_OP_COUNT; opc++)
        if (ir_mathfns[opc].arity && !strcmp(ir_mathfns[opc].lib, name)) return opc;
    return -1;
}

bool sema_libdevice_attr(const char *name, sval *out)
{
    int opc = first_row(name);
    if (opc < 0) return false;
    /* the name rides in .s; eval_call hands a builtin with a name to
     * sema_call_builtin as `self` */
    *out = (sval){ .k = V_BUILTIN, .i = B_LIBDEVICE_FN, .v = -1, .s = ir_mathfns[opc].lib };
    return true;
}

/* "(fp32) or (fp64)": the overloads of `name`, for messages. */
static const char *overloads(sema *S, const char *name)
{
    char buf[512] = "";
    for (int opc = 0; opc < IR_OP_COUNT; opc++) {
        const ir_mathfn *m = &ir_mathfns[opc];
        if (!m->arity || strcmp(m->lib, name)) continue;
        for (int k = 0; k < 2; k++) {
            if (!*m->var[k].gpu) continue;
            size_t l = strlen(buf);
            snprintf(buf + l, sizeof buf - l, "%s(", l ? " or " : "");
            for (int i = 0; i < m->arity; i++) {
                l = strlen(buf);
                snprintf(buf + l, sizeof buf - l, "%s%s", i ? ", " : "", tt_dtype_triton_name(m->var[k].opnd[i]));
            }
            l = strlen(buf);
            snprintf(buf + l, sizeof buf - l, ")");
        }
    }
    return arena_strdup(S->a, buf);
}

sval sema_mathfn_emit(sema *S, src_pos p, int opc, int k, sval *x)
{
    const ir_mathfn *m = &ir_mathfns[opc];
    int n = m->arity;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            if (i != j) sema_broadcast_pair(S, p, &x[i], &x[j]);
    const ir_type_info *t = sv_shape(S, &x[0]);
    tt_dtype rd = m->var[k].res;
    ir_value ops[4];
    for (int i = 0; i < n; i++) ops[i] = x[i].v;
    sema_setloc(S, p);
    return sema_emit(S, opc, sema_type(rd, 0, t->rank, t->shape), n, ops, rd, 0);
}

sval sema_libdevice_call(sema *S, src_pos p, const char *name, sval *args, int nargs, const char **kwn, sval *kwv, int nkw)
{
    int opc0 = first_row(name);
    if (opc0 < 0) sema_error(S, p, "libdevice.%s: no such function", name);
    int arity = ir_mathfns[opc0].arity;
    /* libdevice.py's parameters are arg0, arg1, ... */
    sval x[4];
    bool has[4] = { false, false, false, false };
    if (nargs > arity) sema_error(S, p, "libdevice.%s takes %d argument%s, got %d", name, arity, arity == 1 ? "" : "s", nargs);
    for (int i = 0; i < nargs; i++) x[i] = args[i], has[i] = true;
    for (int i = 0; i < nkw; i++) {
        int a = !strncmp(kwn[i], "arg", 3) && kwn[i][3] >= '0' && kwn[i][3] < '0' + arity && !kwn[i][4] ? kwn[i][3] - '0' : -1;
        if (a < 0) sema_error(S, p, "libdevice.%s() got an unexpected keyword argument '%s'", name, kwn[i]);
        if (has[a]) sema_error(S, p, "libdevice.%s() got multiple values for argument '%s'", name, kwn[i]);
        x[a] = kwv[i], has[a] = true;
    }
    for (int i = 0; i < arity; i++) {
        if (!has[i]) sema_error(S, p, "libdevice.%s() missing argument 'arg%d'", name, i);
        x[i] = sema_want_tensor(S, p, x[i], "a libdevice argument");
        if (x[i].dt == TT_PTR) sema_error(S, p, "libdevice.%s: argument %d is a pointer", name, i);
    }
    for (int opc = opc0; opc < IR_OP_COUNT; opc++) {
        const ir_mathfn *m = &ir_mathfns[opc];
        if (!m->arity || strcmp(m->lib, name)) continue;
        for (int k = 0; k < 2; k++) {
            if (!*m->var[k].gpu) continue;
            int i = 0;
            while (i < arity && x[i].dt == m->var[k].opnd[i]) i++;
            if (i == arity) return sema_mathfn_emit(S, p, opc, k, x);
        }
    }
    char got[128] = "";
    for (int i = 0; i < arity; i++) {
        size_t l = strlen(got);
        snprintf(got + l, sizeof got - l, "%s%s", i ? ", " : "", tt_dtype_triton_name(x[i].dt));
    }
    sema_error(S, p, "libdevice.%s has no overload for (%s): it takes %s (cast the arguments; Triton does not promote them)",
               name, got, overloads(S, name));
}
