/* resolve.c — repl_spec + a kernel's parameters -> launch (see repl.h).
 *
 * Every parameter is resolved on demand: before a value's expressions are
 * evaluated, the parameters they name are resolved first, so arguments may
 * be given in any order; a parameter met again while it is being resolved is
 * a cycle. Literals are read here; everything else goes to front_eval_host. */
#include "repl.h"
#include "tritium/limits.h"
#include "tritium/diag.h"

#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <string.h>

typedef enum { ST_TODO, ST_BUSY, ST_DONE, ST_FAILED } rstate;

typedef struct resolver {
    const repl_spec *s;
    const front_param *params;     /* the kernel's, then one per --tensor */
    int np;                        /* all of them */
    int nkernel;                   /* the kernel's */
    int64_t (*dshape)[TT_MAX_RANK];   /* per parameter: a descriptor's shape and strides */
    int64_t (*dstrides)[TT_MAX_RANK];
    const repl_resolve_opts *o;
    const char *kernel;
    const repl_value **given;      /* per parameter: its spec entry or NULL */
    rstate *st;
    hostval *hv;                   /* per parameter, once ST_DONE */
    launch_arg *args;              /* per parameter (runtime ones) */
    launch_const *consts;          /* per parameter (constexpr ones) */
    bool *has_const;               /* consts[i] was given (not a default) */
    int *stack; int depth;         /* parameters being resolved, for cycle messages */
    int64_t bytes;                 /* of the launch's tensors so far (limits.h, TT_LIM_LAUNCH_BYTES) */
} resolver;


static bool rerr(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static bool rerr(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    diag_vat(DIAG_ERROR, REPL_NOPOS, fmt, ap);
    va_end(ap);
    return false;
}

/* Count a tensor of numel elements of dt against the launch's memory budget;
 * false (and the error) when the launch's tensors would exceed it. */
static bool budget(resolver *r, const char *name, int64_t numel, tt_dtype dt)
{
    int64_t b;
    if (tt_mul_overflow(numel, tt_dtype_size(dt), &b) || tt_add_overflow(r->bytes, b, &b) ||
        b > tt_limit(TT_LIM_LAUNCH_BYTES)) {
        char *why = tt_limit_exceeded(TT_LIM_LAUNCH_BYTES);
        rerr("--arg %s: %lld more bytes: %s", name, (long long)(numel * (int64_t)tt_dtype_size(dt)), why);
        free(why);
        return false;
    }
    r->bytes = b;
    return true;
}

static const char *opt_of(const repl_value *v) { return v->is_const ? "--const" : v->extra ? "--tensor" : "--arg"; }

static int find_param(const resolver *r, const char *name, size_t n)
{
    for (int i = 0; i < r->np; i++)
        if (strlen(r->params[i].name) == n && !strncmp(r->params[i].name, name, n)) return i;
    return -1;
}

static bool is_ident(const char *s)
{
    if (!(isalpha((unsigned char)*s) || *s == '_')) return false;
    for (s++; *s; s++)
        if (!(isalnum((unsigned char)*s) || *s == '_')) return false;
    return true;
}

static bool resolve_param(resolver *r, int i);

/* Resolve the parameters named in an expression before evaluating it.
 * Names after '.' (attributes) and inside string literals are skipped. */
static bool resolve_deps(resolver *r, const char *text)
{
    const char *p = text;
    char prev = 0;                 /* last non-space character before a name */
    while (*p) {
        if (*p == '\'' || *p == '"') {
            char q = *p++;
            while (*p && *p != q) { if (*p == '\\' && p[1]) p++; p++; }
            if (*p) p++;
            prev = q;
        } else if (isdigit((unsigned char)*p)) {
            while (isalnum((unsigned char)*p) || *p == '_' || *p == '.') p++;
            prev = '0';
        } else if (isalpha((unsigned char)*p) || *p == '_') {
            const char *b = p;
            while (isalnum((unsigned char)*p) || *p == '_') p++;
            int k = prev == '.' ? -1 : find_param(r, b, (size_t)(p - b));
            if (k >= 0 && !resolve_param(r, k)) return false;
            prev = 'a';
        } else {
            if (!isspace((unsigned char)*p)) prev = *p;
            p++;
        }
    }
    return true;
}

static bool lookup(void *user, const char *name, hostval *out)
{
    resolver *r = user;
    int k = find_param(r, name, strlen(name));
    if (k < 0 || r->st[k] != ST_DONE) return false;
    *out = r->hv[k];
    return true;
}

/* Evaluate text with front_eval_host after resolving what it names. */
static bool eval(resolver *r, const char *origin, const char *text, hostval *out)
{
    int64_t iv;
    bool u64;
    double fv;
    if (repl_parse_int(text, &iv, &u64) && !u64) {
        *out = (hostval){ .kind = HV_INT, .i = iv };
        return true;
    }
    if (repl_parse_float(text, &fv) && !repl_parse_int(text, &iv, &u64)) {
        *out = (hostval){ .kind = HV_FLOAT, .f = fv };
        return true;
    }
    if (!strcmp(text, "True") || !strcmp(text, "False")) {
        *out = (hostval){ .kind = HV_BOOL, .i = text[0] == 'T' };
        return true;
    }
    int k = is_ident(text) ? find_param(r, text, strlen(text)) : -1;
    if (k >= 0) {                  /* a bare parameter name needs no front end */
        if (!resolve_param(r, k)) return false;
        *out = r->hv[k];
        return true;
    }
    if (!resolve_deps(r, text)) return false;
    int before = diag_error_count();
    memset(out, 0, sizeof *out);
    if (front_eval_host(origin, text, lookup, r, out)) return true;
    if (diag_error_count() == before) rerr("%s: cannot evaluate '%s'", origin, text);
    return false;
}

static const char *hv_kind_name(const hostval *v)
{
    switch (v->kind) {
    case HV_INT: return "an int";
    case HV_FLOAT: return "a float";
    case HV_BOOL: return "a bool";
    case HV_STR: return "a string";
    case HV_NONE: return "None";
    case HV_TENSOR: return "a tensor";
    case HV_TUPLE: return "a tuple";
    }
    return "a value";
}

/* Triton's specialize.cc: i32 if the value fits int32, else i64 (u64 for
 * literals above INT64_MAX, handled by the caller). */
static tt_dtype int_dtype(int64_t v)
{
    return v >= INT32_MIN && v <= INT32_MAX ? TT_I32 : TT_I64;
}

static bool int_fits(int64_t v, bool is_u64, tt_dtype d)
{
    if (is_u64) return d == TT_U64;
    int bits = tt_dtype_bits(d);
    if (d == TT_BOOL) return v == 0 || v == 1;
    if (tt_dtype_is_signed(d)) return bits == 64 || (v >= -(INT64_C(1) << (bits - 1)) && v < (INT64_C(1) << (bits - 1)));
    return v >= 0 && (bits == 64 || v < (INT64_C(1) << bits));
}

/* A scalar runtime argument from a number. */
static bool set_scalar(resolver *r, int i, const repl_value *v, const hostval *h, bool is_u64)
{
    const front_param *p = &r->params[i];
    launch_arg *a = &r->args[i];
    a->name = xstrdup(p->name);
    bool annot = p->annotated_dtype && p->annot != TT_PTR;
    if (h->kind == HV_FLOAT || (annot && tt_dtype_is_float(p->annot))) {
        if (annot && !tt_dtype_is_float(p->annot))
            return rerr("--arg %s: parameter '%s' is declared %s but the value is a float",
                        p->name, p->name, tt_dtype_triton_name(p->annot));
        a->kind = ARG_FLOAT;
        a->dtype = annot ? p->annot : TT_F32;
        a->f = h->kind == HV_FLOAT ? h->f : is_u64 ? (double)(uint64_t)h->i : (double)h->i;
        return true;
    }
    a->kind = ARG_INT;
    a->i = h->i;
    if (annot) {
        if (!int_fits(h->i, is_u64, p->annot))
            return rerr("--arg %s: value %s does not fit the declared type %s of '%s'", p->name, v->text,
                        tt_dtype_triton_name(p->annot), p->name);
        a->dtype = p->annot;
    } else if (h->kind == HV_BOOL) {
        a->dtype = TT_BOOL;
    } else {
        a->dtype = is_u64 ? TT_U64 : int_dtype(h->i);
    }
    return true;
}

static bool eval_int(resolver *r, const char *origin, const char *text, int64_t *out)
{
    hostval h;
    if (!eval(r, origin, text, &h)) return false;
    if (h.kind != HV_INT && h.kind != HV_BOOL)
        return rerr("%s: expected an integer, '%s' is %s", origin, text, hv_kind_name(&h));
    *out = h.i;
    return true;
}

static bool make_generated(resolver *r, int i, const repl_value *v)
{
    int64_t shape[TT_MAX_RANK];
    int64_t numel = 1;
    bool overflow = false;
    for (int d = 0; d < v->rank; d++) {
        char *origin = xasprintf("--arg %s (shape)", v->name);
        bool ok = eval_int(r, origin, v->dims[d], &shape[d]);
        free(origin);
        if (!ok) return false;
        if (shape[d] < 0)
            return rerr("--arg %s: dimension %d of the shape is %lld; dimensions must be >= 0",
                        v->name, d, (long long)shape[d]);
        if (shape[d] && numel > INT64_MAX / shape[d]) overflow = true;
        else numel *= shape[d];
    }
    if (overflow || (r->o->max_numel > 0 && numel > r->o->max_numel))
        return rerr("--arg %s: tensor %s is too large", v->name, v->text);
    if (!r->o->no_data && !budget(r, v->name, numel, v->dtype)) return false;
    double fill = 0;
    if (v->fill) {
        hostval h;
        char *origin = xasprintf("--arg %s (fill value)", v->name);
        bool ok = repl_parse_float(v->fill, &fill) || eval(r, origin, v->fill, &h);
        free(origin);
        if (!ok) return false;
        if (!repl_parse_float(v->fill, &fill)) {
            if (h.kind == HV_FLOAT) fill = h.f;
            else if (h.kind == HV_INT || h.kind == HV_BOOL) fill = (double)h.i;
            else return rerr("--arg %s: the fill value '%s' is %s, not a number", v->name, v->fill, hv_kind_name(&h));
        }
    }
    tt_tensor *t = r->o->no_data ? tt_tensor_new_meta(v->name, v->dtype, v->rank, shape)
                                 : tt_tensor_new(v->name, v->dtype, v->rank, shape);
    if (!t) return rerr("--arg %s: tensor %s is too large", v->name, v->text);
    if (!r->o->types_only && !r->o->no_data) {
        char err[256] = "";
        uint64_t seed = r->s->set.seed;
        if (!tt_tensor_generate(t, v->gen, fill, seed, (uint64_t)i, err, sizeof err)) {
            tt_tensor_free(t);
            return rerr("--arg %s: %s", v->name, err);
        }
    }
    r->args[i].tensor = t;
    return true;
}

static void set_tensor_name(tt_tensor *t, const char *name)
{
    free(t->name);
    t->name = xstrdup(name);
}

/* A runtime parameter given None: Triton's specialize_impl makes it the
 * constexpr None (runtime/jit.py create_function_from_signature), so it
 * travels as a launch_const and the kernel's signature drops it. */
static void set_none(resolver *r, int i)
{
    r->consts[i] = (launch_const){ .name = xstrdup(r->params[i].name), .kind = CONST_NONE };
    r->has_const[i] = true;
    r->hv[i] = (hostval){ .kind = HV_NONE };
}

/* `jit:NAME` (or jit:NAME@LINE, or jit:#K in a live module): a @triton.jit
 * function of the kernel's file as a value, a constexpr wherever it is given (Triton 3.6's
 * specialize.cc handle_jit_callable); the front end looks it up. */
static bool set_func(resolver *r, int i, const char *opt, const char *ref)
{
    const char *at = strchr(ref, '@');
    size_t n = at ? (size_t)(at - ref) : strlen(ref);
    char *name = xstrndup(ref, n);
    bool ok = is_ident(name) && (!at || (at[1] >= '1' && at[1] <= '9' && strspn(at + 1, "0123456789") == strlen(at + 1)));
    /* jit:#K: function K of a live module (kernel.json of a recorded launch) */
    ok = ok || (ref[0] == '#' && ref[1] && strspn(ref + 1, "0123456789") == strlen(ref + 1) && strlen(ref) < 12);
    free(name);
    if (!ok) return rerr("%s %s: 'jit:%s' must name a @triton.jit function of the kernel's file (jit:NAME or jit:NAME@LINE)",
                         opt, r->params[i].name, ref);
    free(r->consts[i].name);
    free(r->consts[i].s);
    r->consts[i] = (launch_const){ .name = xstrdup(r->params[i].name), .kind = CONST_FUNC, .s = xstrdup(ref) };
    r->has_const[i] = true;
    r->hv[i] = (hostval){ .kind = HV_STR, .s = r->consts[i].s };
    return true;
}

/* A runtime parameter left at its literal default (`bias=None`, `eps=1e-5`). */
static bool runtime_default(resolver *r, int i)
{
    const front_param *p = &r->params[i];
    const launch_const *d = &p->def;
    hostval h;
    switch (d->kind) {
    case CONST_NONE: set_none(r, i); return true;
    case CONST_INT: h = (hostval){ .kind = HV_INT, .i = d->i }; break;
    case CONST_BOOL: h = (hostval){ .kind = HV_BOOL, .i = d->i }; break;
    case CONST_FLOAT: h = (hostval){ .kind = HV_FLOAT, .f = d->f }; break;
    default: return rerr("kernel '%s': the default of runtime parameter '%s' is not a number or None; pass --arg %s=...",
                         r->kernel, p->name, p->name);
    }
    repl_value v = { .name = (char *)p->name, .text = (char *)"(default)" };
    if (!set_scalar(r, i, &v, &h, false)) return false;
    const launch_arg *a = &r->args[i];
    if (a->kind == ARG_FLOAT) r->hv[i] = (hostval){ .kind = HV_FLOAT, .f = a->f };
    else r->hv[i] = (hostval){ .kind = a->dtype == TT_BOOL ? HV_BOOL : HV_INT, .i = a->i };
    return true;
}

/* The tensor parameter named `name` (for desc() and ptrs()), resolved; -1
 * after an error. */
static int tensor_param(resolver *r, const repl_value *v, const char *name)
{
    int k = find_param(r, name, strlen(name));
    if (k < 0) {
        rerr("%s %s: '%s' names no parameter of kernel '%s' and no --tensor", opt_of(v), v->name, name, r->kernel);
        return -1;
    }
    if (!resolve_param(r, k)) return -1;
    if (r->params[k].is_constexpr || r->args[k].kind != ARG_TENSOR || r->args[k].desc_rank || r->args[k].ptr_n) {
        rerr("%s %s: '%s' is not a tensor", opt_of(v), v->name, name);
        return -1;
    }
    return k;
}

/* desc(X, block=[...], ...): a host TensorDescriptor over tensor X, checked as
 * Triton 3.6's TensorDescriptor.__post_init__ checks it
 * (triton/tools/tensor_descriptor.py). */
static bool resolve_desc(resolver *r, int i, const repl_value *v)
{
    const char *o = opt_of(v);
    int k = tensor_param(r, v, v->items[0]);
    if (k < 0) return false;
    const launch_arg *x = &r->args[k];
    const tt_tensor *t = x->tensor;
    int rank = v->rank;
    launch_arg *a = &r->args[i];
    a->name = xstrdup(r->params[i].name);
    a->kind = ARG_TENSOR;
    a->tensor = x->tensor;
    a->shared = true;
    a->offset = x->offset;
    a->desc_rank = rank;
    a->desc_nan = v->pad_nan;
    a->desc_tf32 = v->tf32;
    r->hv[i] = (hostval){ .kind = HV_TENSOR, .t = t };
    if (v->nshape && v->nshape != rank) return rerr("%s %s: shape= has %d dimensions, block= %d", o, v->name, v->nshape, rank);
    if (v->nstrides && v->nstrides != rank)
        return rerr("%s %s: strides= has %d dimensions, block= %d", o, v->name, v->nstrides, rank);
    if (!v->nshape && t->rank != rank)
        return rerr("%s %s: '%s' has rank %d, the block rank %d (give shape= and strides= to view it otherwise)", o,
                    v->name, v->items[0], t->rank, rank);
    int64_t *sh = r->dshape[i], *st = r->dstrides[i], numel = 1;
    for (int d = 0; d < rank; d++) {
        char *origin = xasprintf("%s %s (block)", o, v->name);
        bool ok = eval_int(r, origin, v->dims[d], &a->desc_block[d]);
        free(origin);
        if (!ok) return false;
        int64_t b = a->desc_block[d];
        if (b <= 0 || (b & (b - 1)) || b > TT_MAX_TENSOR_NUMEL || (numel *= b) > TT_MAX_TENSOR_NUMEL)
            return rerr("%s %s: block dimension %d is %lld; Triton needs powers of two, %lld elements at most in all",
                        o, v->name, d, (long long)b, (long long)TT_MAX_TENSOR_NUMEL);
        if (v->nshape) {
            origin = xasprintf("%s %s (shape)", o, v->name);
            ok = eval_int(r, origin, v->dshape[d], &sh[d]);
            free(origin);
            if (!ok) return false;
        } else {
            sh[d] = t->shape[d];
        }
    }
    for (int d = rank - 1; d >= 0; d--) {
        if (v->nstrides) {
            char *origin = xasprintf("%s %s (strides)", o, v->name);
            bool ok = eval_int(r, origin, v->dstrides[d], &st[d]);
            free(origin);
            if (!ok) return false;
        } else {
            st[d] = d == rank - 1 ? 1 : st[d + 1] * sh[d + 1];
        }
    }
    int esize = tt_dtype_size(t->dtype);
    for (int d = 0; d < rank; d++) {
        if (sh[d] <= 0 || sh[d] > INT32_MAX)
            return rerr("%s %s: shape dimension %d is %lld; it must be from 1 to 2^31-1 (the kernel sees it as an i32)",
                        o, v->name, d, (long long)sh[d]);
        if (d < rank - 1 && (st[d] <= 0 || (st[d] * esize) % 16))
            return rerr("%s %s: stride %d is %lld elements; Triton's TensorDescriptor needs positive strides of "
                        "a multiple of 16 bytes", o, v->name, d, (long long)st[d]);
    }
    if (st[rank - 1] != 1) return rerr("%s %s: the last stride must be 1", o, v->name);
    if (((x->offset * esize) % 16) != 0)
        return rerr("%s %s: the base of a TensorDescriptor must be 16-byte aligned", o, v->name);
    if (v->pad_nan && !tt_dtype_is_float(t->dtype))
        return rerr("%s %s: padding=\"nan\" needs a floating-point tensor", o, v->name);
    if (v->tf32 && t->dtype != TT_F32)      /* tools/tensor_descriptor.py __post_init__ (Triton 3.7+) */
        return rerr("%s %s: round_f32_to_tf32 is only supported for float32 tensors", o, v->name);
    return true;
}

/* ptrs(A, B, ...): an i64 tensor of the addresses of tensors A, B, ...
 * (filled in by each executor). */
static bool resolve_ptrs(resolver *r, int i, const repl_value *v)
{
    launch_arg *a = &r->args[i];
    a->name = xstrdup(r->params[i].name);
    a->kind = ARG_TENSOR;
    a->ptr_n = v->nitems;
    a->ptr_to = xcalloc((size_t)v->nitems, sizeof *a->ptr_to);
    a->ptr_off = xcalloc((size_t)v->nitems, sizeof *a->ptr_off);
    int64_t n = v->nitems;
    a->tensor = r->o->no_data ? tt_tensor_new_meta(a->name, TT_I64, 1, &n) : tt_tensor_new(a->name, TT_I64, 1, &n);
    for (int k = 0; k < v->nitems; k++) {
        int j = tensor_param(r, v, v->items[k]);
        if (j < 0) return false;
        a->ptr_to[k] = j;                 /* a resolver index until repl_resolve renumbers it */
        a->ptr_off[k] = r->args[j].offset * tt_dtype_size(r->args[j].tensor->dtype);
    }
    r->hv[i] = (hostval){ .kind = HV_TENSOR, .t = a->tensor };
    return true;
}

static bool resolve_runtime(resolver *r, int i, const repl_value *v)
{
    const front_param *p = &r->params[i];
    launch_arg *a = &r->args[i];
    if (v->kind == VAL_DESC) return resolve_desc(r, i, v);
    if (v->kind == VAL_PTRS) return resolve_ptrs(r, i, v);
    if (v->extra && v->kind != VAL_GEN && v->kind != VAL_NPY)
        return rerr("--tensor %s: expected a tensor generator or a .npy file, got '%s'", v->name, v->text);
    if (v->kind == VAL_GEN) {
        a->name = xstrdup(p->name);
        a->kind = ARG_TENSOR;
        a->uninit = !strcmp(v->gen, "empty");       /* reads before a write are reported */
        if (!make_generated(r, i, v)) return false;
    } else if (v->kind == VAL_NPY) {
        a->name = xstrdup(p->name);
        a->kind = ARG_TENSOR;
        if (r->o->no_files) return rerr("--arg %s: .npy files cannot be used here", p->name);
        char err[256] = "";
        a->tensor = npy_read_as(v->path, v->dtype, err, sizeof err);
        if (!a->tensor) return rerr("--arg %s: cannot read '%s': %s", p->name, v->path, err);
        if (v->dtype != TT_DTYPE_COUNT && a->tensor->dtype != v->dtype) {
            char b[160];
            rerr("--arg %s: '%s' holds %s, not %s", p->name, v->path, tt_tensor_describe(a->tensor, b, sizeof b),
                 tt_dtype_name(v->dtype));
            tt_tensor_free(a->tensor);
            a->tensor = NULL;
            return false;
        }
        set_tensor_name(a->tensor, p->name);
        if (!budget(r, p->name, tt_tensor_numel(a->tensor), a->tensor->dtype)) return false;
    } else {
        int64_t iv;
        bool u64 = false;
        hostval h;
        char *origin = xasprintf("--arg %s", p->name);
        bool ok;
        int k = is_ident(v->text) ? find_param(r, v->text, strlen(v->text)) : -1;
        if (repl_parse_int(v->text, &iv, &u64)) {
            h = (hostval){ .kind = HV_INT, .i = iv };
            ok = true;
        } else if (!strcmp(v->text, "None")) {
            free(origin);
            set_none(r, i);
            return true;
        } else if (!strncmp(v->text, "jit:", 4)) {
            free(origin);
            return set_func(r, i, "--arg", v->text + 4);
        } else if (k >= 0) {
            /* another parameter by name: no front end needed */
            ok = resolve_param(r, k);
            if (ok) h = r->hv[k];
            if (ok && h.kind != HV_TENSOR && h.kind != HV_INT && h.kind != HV_FLOAT && h.kind != HV_BOOL && h.kind != HV_NONE) {
                free(origin);
                return rerr("--arg %s: '%s' is %s; parameter '%s' needs a tensor or a number", p->name,
                            v->text, hv_kind_name(&h), p->name);
            }
        } else {
            ok = eval(r, origin, v->text, &h);
        }
        free(origin);
        if (!ok) return false;
        if (h.kind == HV_TENSOR) {
            a->name = xstrdup(p->name);
            a->kind = ARG_TENSOR;
            a->tensor = tt_tensor_clone(h.t);
            set_tensor_name(a->tensor, p->name);
        } else if (h.kind == HV_INT || h.kind == HV_FLOAT || h.kind == HV_BOOL) {
            if (!set_scalar(r, i, v, &h, u64)) return false;
        } else if (h.kind == HV_NONE) {
            set_none(r, i);
            return true;
        } else {
            return rerr("--arg %s: '%s' is %s; parameter '%s' needs a tensor or a number", p->name,
                        v->text, hv_kind_name(&h), p->name);
        }
    }
    const launch_arg *x = a;
    if (x->kind == ARG_TENSOR) r->hv[i] = (hostval){ .kind = HV_TENSOR, .t = x->tensor };
    else if (x->kind == ARG_FLOAT) r->hv[i] = (hostval){ .kind = HV_FLOAT, .f = x->f };
    else if (x->dtype == TT_BOOL) r->hv[i] = (hostval){ .kind = HV_BOOL, .i = x->i };
    else r->hv[i] = (hostval){ .kind = HV_INT, .i = x->i };
    return true;
}

static hostval const_hostval(const launch_const *c)
{
    switch (c->kind) {
    case CONST_INT: return (hostval){ .kind = HV_INT, .i = c->i };
    case CONST_BOOL: return (hostval){ .kind = HV_BOOL, .i = c->i };
    case CONST_FLOAT: return (hostval){ .kind = HV_FLOAT, .f = c->f };
    case CONST_STR: return (hostval){ .kind = HV_STR, .s = c->s };
    case CONST_DTYPE: return (hostval){ .kind = HV_STR, .s = tt_dtype_triton_name((tt_dtype)c->i) };
    case CONST_FUNC: return (hostval){ .kind = HV_STR, .s = c->s };
    case CONST_TUPLE: case CONST_NONE: break;
    }
    return (hostval){ .kind = HV_NONE };
}

/* constexpr value := True | False | None | int | float | 'str' | "str"
 *                  | tl.DTYPE | DTYPE | jit:NAME | bare word (a string) | expression */
static bool resolve_const(resolver *r, int i, const repl_value *v)
{
    const front_param *p = &r->params[i];
    launch_const *c = &r->consts[i];
    const char *t = v->text;
    size_t n = strlen(t);
    int64_t iv;
    bool u64;
    double fv;
    tt_dtype dt;
    c->name = xstrdup(p->name);
    r->has_const[i] = true;
    if (!strcmp(t, "True") || !strcmp(t, "False")) {
        c->kind = CONST_BOOL;
        c->i = t[0] == 'T';
    } else if (!strcmp(t, "None")) {
        c->kind = CONST_NONE;
    } else if (!strncmp(t, "jit:", 4)) {
        return set_func(r, i, opt_of(v), t + 4);
    } else if (repl_parse_int(t, &iv, &u64)) {
        if (u64) return rerr("%s %s: %s is too large for a constexpr (at most 2**63-1)", opt_of(v), p->name, t);
        c->kind = CONST_INT;
        c->i = iv;
    } else if (repl_parse_float(t, &fv)) {
        c->kind = CONST_FLOAT;
        c->f = fv;
    } else if (n >= 2 && (t[0] == '\'' || t[0] == '"') && t[n - 1] == t[0] && !memchr(t + 1, t[0], n - 2)) {
        c->kind = CONST_STR;
        c->s = xstrndup(t + 1, n - 2);
    } else if (!strncmp(t, "tl.", 3) || !strncmp(t, "triton.language.", 16)) {
        const char *d = t + (t[1] == 'l' ? 3 : 16);
        if (!tt_dtype_parse(d, &dt) || dt == TT_PTR)
            return rerr("%s %s: unknown dtype '%s' (expected one of tl.float16, tl.bfloat16, tl.float32, "
                        "tl.float64, tl.int8, ..., tl.uint64, tl.int1)", opt_of(v), p->name, t);
        c->kind = CONST_DTYPE;
        c->i = dt;
    } else if (is_ident(t) && find_param(r, t, n) >= 0) {
        int k = find_param(r, t, n);
        if (!resolve_param(r, k)) return false;
        if (r->params[k].is_constexpr) {
            const launch_const *src = r->has_const[k] ? &r->consts[k] : &r->params[k].def;
            c->kind = src->kind;
            c->i = src->i;
            c->f = src->f;
            c->s = src->s ? xstrdup(src->s) : NULL;
        } else {
            const hostval *h = &r->hv[k];
            if (h->kind == HV_TENSOR)
                return rerr("%s %s: '%s' is a tensor; a constexpr needs a number, bool, string or dtype",
                            opt_of(v), p->name, t);
            c->kind = h->kind == HV_FLOAT ? CONST_FLOAT : h->kind == HV_BOOL ? CONST_BOOL : CONST_INT;
            c->i = h->i;
            c->f = h->f;
        }
    } else if (is_ident(t)) {
        if (tt_dtype_parse(t, &dt) && dt != TT_PTR) {
            c->kind = CONST_DTYPE;
            c->i = dt;
        } else {
            c->kind = CONST_STR;    /* a bare word, as the shell leaves "relu" */
            c->s = xstrdup(t);
        }
    } else {
        hostval h;
        char *origin = xasprintf("%s %s", opt_of(v), p->name);
        bool ok = eval(r, origin, t, &h);
        free(origin);
        if (!ok) return false;
        switch (h.kind) {
        case HV_INT: c->kind = CONST_INT; c->i = h.i; break;
        case HV_BOOL: c->kind = CONST_BOOL; c->i = h.i; break;
        case HV_FLOAT: c->kind = CONST_FLOAT; c->f = h.f; break;
        case HV_STR: c->kind = CONST_STR; c->s = xstrdup(h.s ? h.s : ""); break;
        case HV_NONE: c->kind = CONST_NONE; break;
        default:
            return rerr("%s %s: '%s' is %s; a constexpr needs a number, bool, string or dtype",
                        opt_of(v), p->name, t, hv_kind_name(&h));
        }
    }
    r->hv[i] = const_hostval(c);
    return true;
}

static bool resolve_param(resolver *r, int i)
{
    if (r->st[i] == ST_DONE) return true;
    if (r->st[i] == ST_FAILED) return false;
    if (r->st[i] == ST_BUSY) {
        strbuf b = { 0 };
        int from = 0;
        while (from < r->depth && r->stack[from] != i) from++;
        for (int k = from; k < r->depth; k++) sb_printf(&b, "%s -> ", r->params[r->stack[k]].name);
        sb_puts(&b, r->params[i].name);
        rerr("%s %s: circular dependency: %s", opt_of(r->given[r->stack[from]]),
             r->params[r->stack[from]].name, b.s);
        sb_free(&b);
        return false;
    }
    const front_param *p = &r->params[i];
    const repl_value *v = r->given[i];
    r->st[i] = ST_BUSY;
    r->stack[r->depth++] = i;
    bool ok;
    if (!v) {
        /* a constexpr left at its default (missing values were reported before) */
        ok = p->has_default;
        if (ok && !p->is_constexpr) ok = runtime_default(r, i);
        else if (ok) r->hv[i] = const_hostval(&p->def);   /* consts[i] stays empty */
    } else if (p->is_constexpr) {
        ok = resolve_const(r, i, v);
    } else {
        ok = resolve_runtime(r, i, v);
    }
    r->depth--;
    r->st[i] = ok ? ST_DONE : ST_FAILED;
    return ok;
}

/* grid := dim | dim ',' dim [',' dim] | '(' ... ')' | '[' ... ']' | expr giving a tuple */
static bool resolve_grid(resolver *r, launch *out)
{
    out->grid[0] = out->grid[1] = out->grid[2] = 1;
    const char *g = r->s->grid;
    if (!g) {
        if (r->o->need_grid)
            return rerr("no grid given: add --grid (or a '# tritium: --grid ...' line to the kernel file)");
        return true;
    }
    /* strip one pair of enclosing brackets when they match each other */
    char *text = xstrdup(g);
    size_t n = strlen(text);
    while (n && isspace((unsigned char)text[n - 1])) text[--n] = 0;
    char *body = text;
    while (isspace((unsigned char)*body)) body++;
    n = strlen(body);
    if (n >= 2 && ((body[0] == '(' && body[n - 1] == ')') || (body[0] == '[' && body[n - 1] == ']'))) {
        int depth = 0;
        size_t k = 0;
        for (; k < n; k++) {
            if (body[k] == '(' || body[k] == '[') depth++;
            else if ((body[k] == ')' || body[k] == ']') && --depth == 0) break;
        }
        if (k == n - 1) { body[n - 1] = 0; body++; }
    }
    char **parts;
    int np = repl_split_commas(body, &parts);
    bool ok = true;
    int nd = 0;
    int64_t dims[3];
    if (np > 3) ok = rerr("--grid: expected 1 to 3 dimensions, got %d", np);
    for (int k = 0; k < np && ok; k++) {
        if (!parts[k][0]) { ok = rerr("--grid: empty dimension in '%s'", g); break; }
        hostval h;
        ok = eval(r, "--grid", parts[k], &h);
        if (!ok) break;
        if (h.kind == HV_TUPLE && np == 1) {
            if (h.n < 1 || h.n > 3) ok = rerr("--grid: expected 1 to 3 dimensions, got %d", h.n);
            for (int j = 0; j < h.n && ok; j++) dims[nd++] = h.tup[j];
        } else if (h.kind == HV_INT || h.kind == HV_BOOL) {
            dims[nd++] = h.i;
        } else {
            ok = rerr("--grid: '%s' is %s, expected an integer", parts[k], hv_kind_name(&h));
        }
    }
    /* CUDA's limits (cudaDeviceProp::maxGridSize on every sm_50+ device) */
    static const int64_t maxdim[3] = { INT32_MAX, 65535, 65535 };
    for (int k = 0; k < nd && ok; k++) {
        if (dims[k] < 0) ok = rerr("--grid: dimension %d is %lld; grid sizes must be >= 0", k, (long long)dims[k]);
        else if (dims[k] > maxdim[k])
            ok = rerr("--grid: dimension %d is %lld; CUDA allows at most %lld", k, (long long)dims[k],
                      (long long)maxdim[k]);
        else out->grid[k] = dims[k];
    }
    repl_free_parts(np, parts);
    free(text);
    return ok;
}

/* Unknown names, --const on runtime parameters, missing values. */
static bool check_names(resolver *r)
{
    bool ok = true;
    const repl_spec *s = r->s;
    const char **names = xmalloc((size_t)(r->np + 1) * sizeof *names);
    strbuf list = { 0 };
    for (int i = 0; i < r->nkernel; i++) {
        names[i] = r->params[i].name;
        sb_printf(&list, "%s%s", i ? ", " : "", r->params[i].name);
    }
    for (int k = 0; k < s->nvals; k++) {
        const repl_value *v = &s->vals[k];
        int i = find_param(r, v->name, strlen(v->name));
        if (v->extra) {
            if (i < r->nkernel)
                ok = rerr("--tensor %s: '%s' is a parameter of kernel '%s'; give it with --arg", v->name, v->name, r->kernel);
            else
                r->given[i] = v;
            continue;
        }
        if (i >= r->nkernel) i = -1;
        if (i < 0) {
            const char *sug = repl_suggest(v->name, names, r->nkernel);
            if (sug) rerr("%s %s: kernel '%s' has no parameter '%s' (did you mean '%s'?)", opt_of(v), v->name,
                          r->kernel, v->name, sug);
            else rerr("%s %s: kernel '%s' has no parameter '%s' (its parameters: %s)", opt_of(v), v->name,
                      r->kernel, v->name, r->nkernel ? list.s : "none");
            ok = false;
        } else if (v->is_const && !r->params[i].is_constexpr) {
            ok = rerr("--const %s: '%s' is a runtime parameter of kernel '%s', not a tl.constexpr; use --arg %s=...",
                      v->name, v->name, r->kernel, v->name);
        } else if (r->params[i].is_constexpr && v->kind != VAL_EXPR) {
            ok = rerr("--arg %s: '%s' is a tl.constexpr parameter and cannot be a tensor", v->name, v->name);
        } else {
            r->given[i] = v;
        }
    }
    if (ok) {
        for (int i = 0; i < r->np; i++) {
            const front_param *p = &r->params[i];
            if (r->given[i] || p->has_default || i >= r->nkernel) continue;
            if (p->is_constexpr) rerr("kernel '%s': no value for constexpr parameter '%s' (add --const %s=VALUE)",
                                      r->kernel, p->name, p->name);
            else rerr("kernel '%s': no value for parameter '%s' (add --arg %s=SPEC)", r->kernel, p->name, p->name);
            ok = false;
        }
    }
    /* --save / --expect must name tensor parameters */
    for (int pass = 0; pass < 2 && ok; pass++) {
        const repl_check *c = pass ? s->expects : s->saves;
        int n = pass ? s->nexpects : s->nsaves;
        for (int k = 0; k < n; k++) {
            int i = find_param(r, c[k].name, strlen(c[k].name));
            if (i < 0 || r->params[i].is_constexpr)
                ok = rerr("%s %s: kernel '%s' has no tensor parameter '%s'", pass ? "--expect" : "--save",
                          c[k].name, r->kernel, c[k].name);
        }
    }
    free(names);
    sb_free(&list);
    return ok;
}

/* Tuple parameters: a runtime parameter T given as `--arg T='(x, y)'` has
 * spec values T[0], T[1] (spec.c); each becomes a parameter of its own
 * here, in place of T, so that the launch holds one value per element (the
 * front end builds the tuple from them). Returns a malloc'd array. */
static front_param *expand_tuples(const repl_spec *s, const front_param *params, int nparams, int *n)
{
    front_param *out = xmalloc(sizeof *out * (size_t)(nparams + s->nvals + 1));
    int k = 0;
    for (int i = 0; i < nparams; i++) {
        const front_param *p = &params[i];
        size_t len = strlen(p->name);
        int before = k;
        if (!p->is_constexpr && !repl_spec_value(s, p->name))
            for (int j = 0; j < s->nvals; j++)
                if (!strncmp(s->vals[j].name, p->name, len) && s->vals[j].name[len] == '[') {
                    out[k] = *p;
                    out[k].name = s->vals[j].name;
                    out[k].has_default = false;
                    k++;
                }
        if (k == before) out[k++] = *p;
    }
    *n = k;
    return out;
}

static bool resolve_expanded(const repl_spec *s, const front_param *params, int nparams,
                             const repl_resolve_opts *o, launch *out);

/* Append resolver parameter i's argument to out (a descriptor: its base,
 * then its shape (i32) and strides (i64) as integer arguments). */
static void push_arg(resolver *r, int i, launch *out)
{
    launch_arg *a = &r->args[i];
    int extra = a->desc_rank ? 2 * a->desc_rank : 0;
    out->args = xrealloc(out->args, (size_t)(out->nargs + 1 + extra) * sizeof *out->args);
    out->args[out->nargs++] = *a;
    for (int d = 0; d < extra; d++) {
        int rank = a->desc_rank;
        launch_arg x = { .kind = ARG_INT, .dtype = d < rank ? TT_I32 : TT_I64 };
        x.name = xasprintf("%s.%s[%d]", a->name, d < rank ? "shape" : "strides", d % rank);
        x.i = d < rank ? r->dshape[i][d] : r->dstrides[i][d - rank];
        out->args[out->nargs++] = x;
    }
}

bool repl_resolve(const repl_spec *s, const front_param *params, int nparams,
                  const repl_resolve_opts *o, launch *out)
{
    int n;
    front_param *ex = expand_tuples(s, params, nparams, &n);
    bool ok = resolve_expanded(s, ex, n, o, out);
    free(ex);
    return ok;
}

static bool resolve_expanded(const repl_spec *s, const front_param *params, int nparams,
                             const repl_resolve_opts *o, launch *out)
{
    memset(out, 0, sizeof *out);
    resolver r = { 0 };
    /* --tensor values become pseudo-parameters after the kernel's */
    int nx = 0;
    for (int k = 0; k < s->nvals; k++) nx += s->vals[k].extra;
    front_param *all = xcalloc((size_t)(nparams + nx + 1), sizeof *all);
    if (nparams) memcpy(all, params, sizeof *all * (size_t)nparams);
    for (int k = 0, j = nparams; k < s->nvals; k++)
        if (s->vals[k].extra) all[j++] = (front_param){ .name = s->vals[k].name };
    r.s = s;
    r.params = all;
    r.np = nparams + nx;
    r.nkernel = nparams;
    r.o = o;
    r.kernel = o->kernel ? o->kernel : "?";
    size_t n = (size_t)(r.np > 0 ? r.np : 1);
    r.given = xcalloc(n, sizeof *r.given);
    r.st = xcalloc(n, sizeof *r.st);
    r.hv = xcalloc(n, sizeof *r.hv);
    r.args = xcalloc(n, sizeof *r.args);
    r.consts = xcalloc(n, sizeof *r.consts);
    r.has_const = xcalloc(n, sizeof *r.has_const);
    r.stack = xcalloc(n, sizeof *r.stack);
    r.dshape = xcalloc(n, sizeof *r.dshape);
    r.dstrides = xcalloc(n, sizeof *r.dstrides);

    bool ok = check_names(&r);
    for (int i = 0; i < r.np && ok; i++) ok = resolve_param(&r, i);
    if (ok) ok = resolve_grid(&r, out);
    /* checked after the values so that a bad value is reported first */
    for (int k = 0; k < s->nsaves + s->nexpects && ok; k++) {
        const repl_check *c = k < s->nsaves ? &s->saves[k] : &s->expects[k - s->nsaves];
        int i = find_param(&r, c->name, strlen(c->name));
        if (r.has_const[i] || r.args[i].kind != ARG_TENSOR)
            ok = rerr("%s %s: '%s' is a scalar, not a tensor", k < s->nsaves ? "--save" : "--expect", c->name, c->name);
    }

    /* move the results into the launch (kernel arguments, then the extra
     * tensors), or free them */
    int *final = xcalloc(n, sizeof *final);
    for (int pass = 0; pass < 2 && ok; pass++)
        for (int i = pass ? nparams : 0; i < (pass ? r.np : nparams); i++) {
            final[i] = -1;
            if (i >= nparams || !params[i].is_constexpr) {
                if (r.has_const[i]) continue;
                final[i] = out->nargs;
                push_arg(&r, i, out);
                if (pass) out->nextra++;
            }
        }
    for (int i = 0; i < r.np; i++) {
        if (ok && r.has_const[i]) {
            out->consts = xrealloc(out->consts, (size_t)(out->nconsts + 1) * sizeof *out->consts);
            out->consts[out->nconsts++] = r.consts[i];
        } else if (!ok) {
            free(r.args[i].name);
            if (r.args[i].tensor && !r.args[i].shared) tt_tensor_free(r.args[i].tensor);
            free(r.args[i].ptr_to);
            free(r.args[i].ptr_off);
            free(r.consts[i].name);
            free(r.consts[i].s);
        }
    }
    if (ok) {
        out->nargs -= out->nextra;
        for (int i = 0; i < out->nargs + out->nextra; i++)
            for (int k = 0; k < out->args[i].ptr_n; k++) out->args[i].ptr_to[k] = final[out->args[i].ptr_to[k]];
    }
    free(final);
    out->num_warps = (int)s->set.num_warps;
    out->seed = s->set.seed;
    free(r.given);
    free(r.st);
    free(r.hv);
    free(r.args);
    free(r.consts);
    free(r.has_const);
    free(r.stack);
    free(r.dshape);
    free(r.dstrides);
    free(all);
    if (!ok) {
        launch_free(out);
        memset(out, 0, sizeof *out);
    }
    return ok;
}
