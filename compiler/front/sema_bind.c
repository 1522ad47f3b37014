/* sema_bind.c — binding a builtin call's arguments to its parameters (by
 * position and keyword, as Python does), named accessors for them, and the
 * small argument checks the builtin files share. */
#include "sema_builtin.h"
#include "tritium/limits.h"

#include <string.h>

void sema_bind_args(sema *S, src_pos p, int id, sval *self, sval *args, int nargs, const char **kwn, sval *kwv,
                    int nkw, bargs *B)
{
    memset(B, 0, sizeof *B);
    B->id = id;
    char spec[256];
    snprintf(spec, sizeof spec, "%s", sema_builtin_params(id));
    int star = -1;
    for (char *tok = strtok(spec, ","); tok; tok = strtok(NULL, ",")) {
        if (tok[0] == '*') { star = B->n; tok++; }
        B->names[B->n++] = arena_strdup(S->a, tok);
    }
    VEC(sval) pos = {0};
    if (self) vec_push(&pos, *self);
    for (int i = 0; i < nargs; i++) vec_push(&pos, args[i]);
    int k = 0;
    for (int i = 0; i < pos.n; i++) {
        if (k == star) {
            int rest = pos.n - i;
            sval tup = { .k = V_TUPLE, .n = rest, .v = -1 };
            tup.items = arena_alloc(S->a, sizeof(sval) * (size_t)(rest + 1));
            memcpy(tup.items, pos.v + i, sizeof(sval) * (size_t)rest);
            B->a[k] = tup;
            B->has[k] = rest > 0;
            k++;
            break;
        }
        if (k >= B->n) {
            vec_free(&pos);
            sema_error(S, p, "%s() takes at most %d positional arguments", sema_builtin_name(id), B->n);
        }
        B->a[k] = pos.v[i];
        B->has[k] = true;
        k++;
    }
    vec_free(&pos);
    for (int i = 0; i < nkw; i++) {
        /* Python code that Triton's code generator runs (an aggregate's
         * __init__ and methods) passes its builder to builtins */
        if (!strcmp(kwn[i], "_semantic") || !strcmp(kwn[i], "_generator")) continue;
        int j = 0;
        while (j < B->n && strcmp(B->names[j], kwn[i])) j++;
        if (j == B->n) sema_error(S, p, "%s() got an unexpected keyword argument '%s'", sema_builtin_name(id), kwn[i]);
        if (B->has[j]) sema_error(S, p, "%s() got multiple values for argument '%s'", sema_builtin_name(id), kwn[i]);
        B->a[j] = kwv[i];
        B->has[j] = true;
    }
    /* None means "not given" for optional tl arguments */
    for (int i = 0; i < B->n; i++)
        if (B->has[i] && B->a[i].k == V_NONE) B->has[i] = false;
}

static int arg_index(const bargs *B, const char *name)
{
    for (int i = 0; i < B->n; i++)
        if (!strcmp(B->names[i], name)) return i;
    die("builtin %s has no parameter '%s'", sema_builtin_name(B->id), name);
}

bool sema_arg_has(const bargs *B, const char *name) { return B->has[arg_index(B, name)]; }

sval sema_arg(const bargs *B, const char *name)
{
    int i = arg_index(B, name);
    return B->has[i] ? B->a[i] : sv_none();
}

sval sema_arg_req(sema *S, src_pos p, const bargs *B, const char *name)
{
    int i = arg_index(B, name);
    if (!B->has[i]) sema_error(S, p, "%s() missing required argument '%s'", sema_builtin_name(B->id), name);
    return B->a[i];
}

bool sema_arg_bool(sema *S, src_pos p, const bargs *B, const char *name, bool def)
{
    int i = arg_index(B, name);
    if (!B->has[i]) return def;
    return sv_truthy(S, p, &B->a[i]);
}

int64_t sema_want_int(sema *S, src_pos p, sval v, const char *what)
{
    if (v.k == V_INT || v.k == V_BOOL) return v.i;
    sema_error(S, p, "%s must be a constexpr integer, got %s", what, sv_describe(S, &v));
}

tt_dtype sema_want_dtype(sema *S, src_pos p, sval v, tt_dtype *pt)
{
    if (v.k != V_DTYPE) sema_error(S, p, "expected a dtype such as tl.float32, got %s", sv_describe(S, &v));
    if (pt) *pt = v.pt;
    return v.dt;
}

sval sema_want_tensor(sema *S, src_pos p, sval v, const char *what)
{
    if (v.k == V_TENSOR) return v;
    if (sv_is_const(&v)) return sema_to_tensor(S, p, v);
    sema_error(S, p, "%s must be a tensor, got %s", what, sv_describe(S, &v));
}

bool sema_is_pow2(int64_t x) { return x > 0 && (x & (x - 1)) == 0; }

/* a shape: an int or a tuple/list of constexpr ints, each a power of two */
int sema_want_shape(sema *S, src_pos p, sval v, int64_t *shape, bool check_pow2)
{
    int rank;
    if (v.k == V_TUPLE) {
        if (v.n == 1 && v.items[0].k == V_TUPLE) v = v.items[0];
        rank = v.n;
        if (rank > IR_MAX_RANK) sema_error(S, p, "tensors of rank above %d are not supported", IR_MAX_RANK);
        for (int i = 0; i < rank; i++) shape[i] = sema_want_int(S, p, v.items[i], "a shape dimension");
    } else {
        rank = 1;
        shape[0] = sema_want_int(S, p, v, "a shape");
    }
    int64_t numel = 1;
    for (int i = 0; i < rank; i++) {
        if (shape[i] <= 0 || (check_pow2 && !sema_is_pow2(shape[i])))   /* _utils.py validate_block_shape */
            sema_error(S, p, "Shape element %d must be a power of 2, got %lld", i, (long long)shape[i]);
        if (shape[i] > TT_MAX_TENSOR_NUMEL / numel)     /* before multiplying: no int64 overflow */
            sema_error(S, p, "numel exceeds triton maximum tensor numel (%lld, TRITON_MAX_TENSOR_NUMEL)",
                       (long long)TT_MAX_TENSOR_NUMEL);
        numel *= shape[i];
    }
    return rank;
}

sval sema_emit(sema *S, int opc, ir_type t, int n, const ir_value *ops, tt_dtype dt, tt_dtype pt)
{
    return sv_tensor(ir_emit1(&S->b, opc, t, n, ops), dt, pt);
}

void sema_check_fp(sema *S, src_pos p, sval x, const char *fn)
{
    if (x.dt != TT_F32 && x.dt != TT_F64)
        sema_error(S, p, "%s: expected dtype ['fp32', 'fp64'] but got %s", fn, x.dt == TT_PTR ? "pointer" : tt_dtype_triton_name(x.dt));
}

sval sema_reshape(sema *S, src_pos p, sval x, int rank, const int64_t *shape)
{
    x = sema_want_tensor(S, p, x, "the input");
    const ir_type_info *t = sv_shape(S, &x);
    int64_t n = 1;
    for (int i = 0; i < rank; i++) n *= shape[i];
    if (n != ir_type_numel(ir_value_type(S->fn, x.v)))
        sema_error(S, p, "reshape: cannot reshape %s to %lld elements", sv_describe(S, &x), (long long)n);
    if (t->rank == rank && !memcmp(t->shape, shape, sizeof(int64_t) * (size_t)rank)) return x;
    sema_setloc(S, p);
    ir_type nt = sema_type(x.dt, x.pt, rank, shape);
    if (t->rank == 0) return sema_emit(S, IR_SPLAT, nt, 1, &x.v, x.dt, x.pt);
    return sema_emit(S, IR_RESHAPE, nt, 1, &x.v, x.dt, x.pt);
}
