/* launch.c — libtritium: the launch builder (tensors over borrowed storage,
 * scalars, constexprs, grid), its assembly into a launch in the kernel's
 * parameter order, and compilation through the module's cache of
 * specializations. */
#include "api.h"
#include "tritium/diag.h"
#include "tritium/limits.h"

#include <stdio.h>
#include <ctype.h>
#include <string.h>

_Static_assert((int)TRITIUM_F64 == (int)TT_F64 && (int)TRITIUM_F8E5B16 == (int)TT_F8E5B16,
               "tritium.h's dtype codes are dtype.h's");

tritium_launch *tritium_launch_new(tritium_module *m, const char *kernel)
{
    api_clear_error();
    if (!m || !kernel) { api_fail("tritium_launch_new: no module or kernel"); return NULL; }
    const front_param *params;
    int n = front_params(m->fm, kernel, &params);
    if (n < 0) {
        strbuf names = {0};
        for (int i = 0; i < front_function_count(m->fm); i++)
            sb_printf(&names, "%s%s", i ? ", " : "", front_function_name(m->fm, i));
        api_fail("tritium: error: no @triton.jit function named '%s' in %s (it has: %s)", kernel,
                 diag_file_name(front_file(m->fm)), names.s ? names.s : "none");
        sb_free(&names);
        return NULL;
    }
    tritium_launch *L = xcalloc(1, sizeof *L);
    L->m = m;
    L->kernel = xstrdup(kernel);
    L->params = params;
    L->nparams = n;
    L->grid[0] = L->grid[1] = L->grid[2] = 1;
    L->num_warps = 4;
    return L;
}

static void assembled_free(tritium_launch *L)
{
    if (!L->assembled) return;
    for (int i = 0; i < L->l.nargs + L->l.nextra; i++) {
        launch_arg *a = &L->l.args[i];
        if (a->kind == ARG_INT && strchr(a->name, '.')) free(a->name);   /* a descriptor's shape or stride */
        if (a->ptr_n) {
            free(a->ptr_to);
            free(a->ptr_off);
        }
    }
    free(L->l.args);                         /* other names and tensors are the values' */
    free(L->l.consts);
    memset(&L->l, 0, sizeof L->l);
    L->assembled = false;
    L->fn = NULL;
}

void tritium_launch_free(tritium_launch *L)
{
    if (!L) return;
    assembled_free(L);
    for (int i = 0; i < L->vals.n; i++) {
        api_value *v = &L->vals.v[i];
        if (!v->is_const && v->arg.kind == ARG_TENSOR && !v->arg.shared) tt_tensor_free(v->arg.tensor);
        if (v->is_const) free(v->c.s);
        free(v->arg.ptr_to);
        free(v->arg.ptr_off);
        free(v->ptr_addr);
        free(v->name);
    }
    vec_free(&L->vals);
    free(L->kernel);
    free(L);
}

/* Does value name `v` belong to parameter `p`: p itself, or an element
 * p[K] (p[K][J]...) of a tuple parameter (front_compile builds the tuple)? */
static bool of_param(const char *v, const char *p)
{
    size_t n = strlen(p);
    return !strncmp(v, p, n) && (!v[n] || v[n] == '[');
}

/* A new value for parameter `name` (replacing an earlier one), or NULL
 * when the kernel has no such parameter. */
static api_value *add_value(tritium_launch *L, const char *name, bool is_const, bool extra)
{
    api_clear_error();
    if (!L || !name) { api_fail("tritium: no launch or parameter name"); return NULL; }
    int p = -1;
    for (int i = 0; i < L->nparams; i++)
        if (of_param(name, L->params[i].name) && (!strchr(name, '[') || !L->params[i].is_constexpr || is_const)) p = i;
    if (extra && p >= 0) {
        api_fail("tritium: error: extra tensor '%s' has the name of a parameter of '%s'", name, L->kernel);
        return NULL;
    }
    if (p < 0 && !extra) {
        api_fail("tritium: error: kernel '%s' has no parameter '%s'", L->kernel, name);
        return NULL;
    }
    for (int i = 0; i < L->vals.n; i++)
        if (!strcmp(L->vals.v[i].name, name)) {
            api_fail("tritium: error: parameter '%s' of '%s' is given twice", name, L->kernel);
            return NULL;
        }
    assembled_free(L);
    api_value v = { .name = xstrdup(name), .is_const = is_const, .extra = extra };
    vec_push(&L->vals, v);
    return &L->vals.v[L->vals.n - 1];
}

/* Check a tensor's data pointer against its storage; the element size. */
static int check_storage(const char *name, int dtype, void *data, void *storage, int64_t storage_bytes)
{
    if (dtype < TRITIUM_BOOL || dtype > TRITIUM_F8E5B16) {
        api_fail("tritium: error: tensor '%s': unknown dtype code %d", name ? name : "?", dtype);
        return -1;
    }
    int esize = tt_dtype_size((tt_dtype)dtype);
    char *d = data, *st = storage;
    if (!st || storage_bytes < 0 || storage_bytes > ((int64_t)1 << 46) || d < st ||
        (storage_bytes > 0 && d > st + storage_bytes) || (d - st) % esize) {
        api_fail("tritium: error: tensor '%s': its data pointer is not an element of its storage "
                 "(%lld bytes)", name ? name : "?", (long long)storage_bytes);
        return -1;
    }
    return esize;
}

/* v->arg becomes a tensor over [storage, storage + storage_bytes): a view
 * of storage already given (one buffer), or a new borrowed tensor. */
static void bind_storage(tritium_launch *L, api_value *v, int dtype, void *data, void *storage, int64_t storage_bytes)
{
    int esize = tt_dtype_size((tt_dtype)dtype);
    v->arg.kind = ARG_TENSOR;
    v->arg.offset = ((char *)data - (char *)storage) / esize;
    for (int i = 0; i < L->vals.n - 1; i++) {
        api_value *o = &L->vals.v[i];
        if (o->is_const || o->arg.kind != ARG_TENSOR || o->arg.shared || o->arg.ptr_n) continue;
        tt_tensor *t = o->arg.tensor;
        if (t->data == storage && t->dtype == (tt_dtype)dtype && (int64_t)t->nbytes == storage_bytes) {
            v->arg.tensor = t;
            v->arg.shared = true;
            return;
        }
    }
    tt_tensor *t = xcalloc(1, sizeof *t);
    t->name = xstrdup(v->name);
    t->dtype = (tt_dtype)dtype;
    t->rank = 1;
    t->shape[0] = storage_bytes / esize;
    t->strides[0] = 1;
    t->data = storage;
    t->nbytes = (size_t)(t->shape[0] * esize);
    t->borrowed = true;
    v->arg.tensor = t;
}

static int add_tensor(tritium_launch *L, const char *name, int dtype, void *data, int rank, const int64_t *shape,
                      const int64_t *strides, void *storage, int64_t storage_bytes, int uninit, bool extra)
{
    if (check_storage(name, dtype, data, storage, storage_bytes) < 0) return -1;
    if (rank < 0 || rank > TT_MAX_RANK || (rank && (!shape || !strides))) {
        api_fail("tritium: error: tensor '%s': rank %d (0..%d, with shape and strides)", name ? name : "?", rank, TT_MAX_RANK);
        return -1;
    }
    for (int i = 0; i < rank; i++)
        if (shape[i] < 0) {
            api_fail("tritium: error: tensor '%s': negative dimension", name ? name : "?");
            return -1;
        }
    api_value *v = add_value(L, name, false, extra);
    if (!v) return -1;
    v->arg.uninit = uninit != 0;
    v->arg.view = true;                                 /* its span, for view-bounds warnings */
    v->arg.view_rank = rank;
    for (int i = 0; i < rank; i++) {
        v->arg.view_shape[i] = shape[i];
        v->arg.view_strides[i] = strides[i];
    }
    bind_storage(L, v, dtype, data, storage, storage_bytes);
    return 0;
}

int tritium_launch_tensor(tritium_launch *L, const char *name, int dtype, void *data,
                          int rank, const int64_t *shape, const int64_t *strides,
                          void *storage, int64_t storage_bytes, int uninit)
{
    return add_tensor(L, name, dtype, data, rank, shape, strides, storage, storage_bytes, uninit, false);
}

int tritium_launch_extra(tritium_launch *L, const char *name, int dtype, void *data,
                         int rank, const int64_t *shape, const int64_t *strides,
                         void *storage, int64_t storage_bytes)
{
    return add_tensor(L, name, dtype, data, rank, shape, strides, storage, storage_bytes, 0, true);
}

int tritium_launch_desc(tritium_launch *L, const char *name, int dtype, void *data, void *storage,
                        int64_t storage_bytes, int rank, const int64_t *shape, const int64_t *strides,
                        const int64_t *block_shape, int flags)
{
    int esize = check_storage(name, dtype, data, storage, storage_bytes);
    if (esize < 0) return -1;
    const char *nm = name ? name : "?";
    if (rank < 1 || rank > TT_MAX_RANK || !shape || !strides || !block_shape) {
        api_fail("tritium: error: tensor descriptor '%s': rank %d (1..%d, with shape, strides and block shape)", nm,
                 rank, TT_MAX_RANK);
        return -1;
    }
    int64_t numel = 1;
    for (int d = 0; d < rank; d++) {
        int64_t b = block_shape[d];
        if (b >= 1 && b <= TT_MAX_TENSOR_NUMEL) numel *= b;
        if (shape[d] < 1 || shape[d] > INT32_MAX || b < 1 || (b & (b - 1)) || numel > TT_MAX_TENSOR_NUMEL ||
            (d < rank - 1 && (strides[d] < 1 || (strides[d] * esize) % 16)) || (d == rank - 1 && strides[d] != 1)) {
            api_fail("tritium: error: tensor descriptor '%s': dimension %d (shape %lld, stride %lld, block %lld): "
                     "shapes must be 1..2^31-1, strides multiples of 16 bytes with the last 1, blocks powers of two "
                     "of at most 2^20 elements together (Triton's TensorDescriptor)", nm, d, (long long)shape[d], (long long)strides[d],
                     (long long)b);
            return -1;
        }
    }
    if (flags & ~(TRITIUM_DESC_PADDING_NAN | TRITIUM_DESC_ROUND_TF32)) {
        api_fail("tritium: error: tensor descriptor '%s': unknown flags 0x%x", nm, (unsigned)flags);
        return -1;
    }
    if ((flags & TRITIUM_DESC_PADDING_NAN) && !tt_dtype_is_float((tt_dtype)dtype)) {
        api_fail("tritium: error: tensor descriptor '%s': padding=\"nan\" needs a floating-point tensor", nm);
        return -1;
    }
    /* tools/tensor_descriptor.py __post_init__ (Triton 3.7+) */
    if ((flags & TRITIUM_DESC_ROUND_TF32) && dtype != TRITIUM_F32) {
        api_fail("tritium: error: tensor descriptor '%s': round_f32_to_tf32 is only supported for float32 tensors, "
                 "not %s", nm, tt_dtype_triton_name((tt_dtype)dtype));
        return -1;
    }
    api_value *v = add_value(L, name, false, false);
    if (!v) return -1;
    v->arg.desc_rank = rank;
    v->arg.desc_nan = (flags & TRITIUM_DESC_PADDING_NAN) != 0;
    v->arg.desc_tf32 = (flags & TRITIUM_DESC_ROUND_TF32) != 0;
    for (int d = 0; d < rank; d++) {
        v->arg.desc_block[d] = block_shape[d];
        v->dshape[d] = shape[d];
        v->dstrides[d] = strides[d];
    }
    bind_storage(L, v, dtype, data, storage, storage_bytes);
    return 0;
}

int tritium_launch_ptr_table(tritium_launch *L, const char *name, int n, const int64_t *addrs)
{
    if (n < 1 || n > (1 << 24) || !addrs) {
        api_fail("tritium: error: pointer table '%s': %d entries (1..2^24)", name ? name : "?", n);
        return -1;
    }
    api_value *v = add_value(L, name, false, false);
    if (!v) return -1;
    int64_t shape = n;
    v->arg.kind = ARG_TENSOR;
    v->arg.tensor = tt_tensor_new(name, TT_I64, 1, &shape);
    v->arg.ptr_n = n;
    v->ptr_addr = xmalloc(sizeof(int64_t) * (size_t)n);
    memcpy(v->ptr_addr, addrs, sizeof(int64_t) * (size_t)n);
    return 0;
}

static int add_int(tritium_launch *L, const char *name, int64_t v, tt_dtype dt)
{
    api_value *a = add_value(L, name, false, false);
    if (!a) return -1;
    a->arg.kind = ARG_INT;
    a->arg.i = v;
    a->arg.dtype = dt;
    return 0;
}

int tritium_launch_int(tritium_launch *L, const char *name, int64_t v)
{
    return add_int(L, name, v, v >= INT32_MIN && v <= INT32_MAX ? TT_I32 : TT_I64);
}

int tritium_launch_uint(tritium_launch *L, const char *name, uint64_t v)
{
    if (v <= INT64_MAX) return tritium_launch_int(L, name, (int64_t)v);
    return add_int(L, name, (int64_t)v, TT_U64);
}

int tritium_launch_bool(tritium_launch *L, const char *name, int v) { return add_int(L, name, v != 0, TT_BOOL); }

int tritium_launch_float(tritium_launch *L, const char *name, double v)
{
    api_value *a = add_value(L, name, false, false);
    if (!a) return -1;
    a->arg.kind = ARG_FLOAT;
    a->arg.f = v;
    a->arg.dtype = TT_F32;
    return 0;
}

static launch_const *add_const(tritium_launch *L, const char *name, const_kind k)
{
    api_value *a = add_value(L, name, true, false);
    if (!a) return NULL;
    a->c.kind = k;
    return &a->c;
}

int tritium_launch_const_int(tritium_launch *L, const char *name, int64_t v)
{
    launch_const *c = add_const(L, name, CONST_INT);
    if (!c) return -1;
    c->i = v;
    return 0;
}

int tritium_launch_const_float(tritium_launch *L, const char *name, double v)
{
    launch_const *c = add_const(L, name, CONST_FLOAT);
    if (!c) return -1;
    c->f = v;
    return 0;
}

int tritium_launch_const_bool(tritium_launch *L, const char *name, int v)
{
    launch_const *c = add_const(L, name, CONST_BOOL);
    if (!c) return -1;
    c->i = v != 0;
    return 0;
}

int tritium_launch_const_str(tritium_launch *L, const char *name, const char *s)
{
    launch_const *c = add_const(L, name, CONST_STR);
    if (!c) return -1;
    c->s = xstrdup(s ? s : "");
    return 0;
}

int tritium_launch_const_none(tritium_launch *L, const char *name) { return add_const(L, name, CONST_NONE) ? 0 : -1; }

int tritium_launch_const_dtype(tritium_launch *L, const char *name, int dtype)
{
    if (dtype < TRITIUM_BOOL || dtype > TRITIUM_F8E5B16) {
        api_fail("tritium: error: constexpr '%s': unknown dtype code %d", name ? name : "?", dtype);
        return -1;
    }
    launch_const *c = add_const(L, name, CONST_DTYPE);
    if (!c) return -1;
    c->i = dtype;
    return 0;
}

/* Is s a run of Python identifiers separated by single spaces, `words`
 * of them? */
static bool ident_words(const char *s, int words)
{
    int n = 0;
    for (const char *p = s; *p;) {
        if (!(isalpha((unsigned char)*p) || *p == '_')) return false;
        while (isalnum((unsigned char)*p) || *p == '_') p++;
        n++;
        if (*p == ' ' && p[1]) p++;
        else if (*p) return false;
    }
    return n == words;
}

int tritium_launch_tuple(tritium_launch *L, const char *name, int n, const char *named)
{
    if (n < 0 || n > 4096) {
        api_fail("tritium: error: tuple '%s': %d elements (0..4096)", name ? name : "?", n);
        return -1;
    }
    if (named && !ident_words(named, 1) && !ident_words(named, n + 1)) {
        api_fail("tritium: error: tuple '%s': named tuple '%s' must be a class name and then %d field names, "
                 "separated by spaces", name ? name : "?", named, n);
        return -1;
    }
    launch_const *c = add_const(L, name, CONST_TUPLE);
    if (!c) return -1;
    c->i = n;
    c->s = named ? xstrdup(named) : NULL;
    return 0;
}

int tritium_launch_const_func(tritium_launch *L, const char *name, const char *ref)
{
    if (!ref || !*ref) {
        api_fail("tritium: error: jit function argument '%s': no function named", name ? name : "?");
        return -1;
    }
    launch_const *c = add_const(L, name, CONST_FUNC);
    if (!c) return -1;
    c->s = xstrdup(ref);
    return 0;
}

int tritium_launch_grid(tritium_launch *L, int64_t x, int64_t y, int64_t z)
{
    api_clear_error();
    if (!L) return -1;
    if (x < 1 || y < 1 || z < 1 || x > INT32_MAX || y > 65535 || z > 65535) {
        api_fail("tritium: error: grid (%lld, %lld, %lld): each dimension must be at least 1, "
                 "x at most 2^31-1, y and z at most 65535", (long long)x, (long long)y, (long long)z);
        return -1;
    }
    L->grid[0] = x;
    L->grid[1] = y;
    L->grid[2] = z;
    return 0;
}

int tritium_launch_num_warps(tritium_launch *L, int w)
{
    api_clear_error();
    if (!L) return -1;
    if (w < 1 || w > 32 || (w & (w - 1))) {
        api_fail("tritium: error: num_warps %d: must be a power of two from 1 to 32", w);
        return -1;
    }
    L->num_warps = w;
    return 0;
}

int tritium_launch_debug(tritium_launch *L, int on)
{
    api_clear_error();
    if (!L) return -1;
    assembled_free(L);
    L->debug = on ? LAUNCH_DEBUG_ON : LAUNCH_DEBUG_OFF;
    return 0;
}

/* The specialization key: kernel, each runtime argument's kind and dtype,
 * each constexpr's value (Triton's cache key, jit.py: specialization and
 * constexprs; runtime integer values are not part of it). */
static char *spec_key(const tritium_launch *L)
{
    strbuf b = {0};
    sb_printf(&b, "%s|debug=%d", L->kernel, L->debug);
    for (int i = 0; i < L->l.nargs; i++) {
        const launch_arg *a = &L->l.args[i];
        sb_printf(&b, "|%s:%c%d", a->name, a->kind == ARG_TENSOR ? 't' : a->kind == ARG_INT ? 'i' : 'f',
                  a->kind == ARG_TENSOR ? (int)a->tensor->dtype : (int)a->dtype);
        if (a->kind == ARG_INT && a->i == 1) sb_puts(&b, "=1");   /* the front end may specialize it */
        if (a->desc_rank) {                              /* a descriptor's block, padding and rounding */
            sb_printf(&b, "desc%s%s", a->desc_nan ? "nan" : "", a->desc_tf32 ? "tf32" : "");
            for (int d = 0; d < a->desc_rank; d++) sb_printf(&b, ",%lld", (long long)a->desc_block[d]);
        }
    }
    for (int i = 0; i < L->l.nconsts; i++) {
        const launch_const *c = &L->l.consts[i];
        sb_printf(&b, "|%s=%d:", c->name, (int)c->kind);
        switch (c->kind) {
        case CONST_INT: case CONST_BOOL: case CONST_DTYPE: sb_printf(&b, "%lld", (long long)c->i); break;
        case CONST_FLOAT: sb_printf(&b, "%a", c->f); break;
        case CONST_STR: case CONST_FUNC: sb_printf(&b, "%zu:%s", strlen(c->s), c->s); break;
        case CONST_TUPLE: sb_printf(&b, "%lld:%s", (long long)c->i, c->s ? c->s : ""); break;
        case CONST_NONE: break;
        }
    }
    return sb_take(&b);
}

static void push_arg(launch *l, api_value *v, int *final, int i)
{
    final[i] = l->nargs;
    l->args[l->nargs] = v->arg;
    l->args[l->nargs++].name = v->name;
    int rank = v->arg.desc_rank;
    for (int d = 0; d < 2 * rank; d++) {       /* a descriptor's shape (i32) and strides (i64) */
        launch_arg x = { .kind = ARG_INT, .dtype = d < rank ? TT_I32 : TT_I64 };
        x.name = xasprintf("%s.%s[%d]", v->name, d < rank ? "shape" : "strides", d % rank);
        x.i = d < rank ? v->dshape[d] : v->dstrides[d - rank];
        l->args[l->nargs++] = x;
    }
}

/* A pointer table's host addresses -> (value, byte offset) of the storage
 * each lies in; the tensor values' indices become launch argument indices. */
static int resolve_table(tritium_launch *L, launch_arg *a, const api_value *v, const int *final)
{
    free(a->ptr_to);
    free(a->ptr_off);
    a->ptr_to = xmalloc(sizeof(int) * (size_t)a->ptr_n);
    a->ptr_off = xmalloc(sizeof(int64_t) * (size_t)a->ptr_n);
    for (int k = 0; k < a->ptr_n; k++) {
        uint64_t p = (uint64_t)v->ptr_addr[k];
        a->ptr_to[k] = -1;
        for (int i = 0; i < L->vals.n && a->ptr_to[k] < 0; i++) {
            const api_value *o = &L->vals.v[i];
            if (o->is_const || o->arg.kind != ARG_TENSOR || o->arg.shared || o->arg.ptr_n || final[i] < 0) continue;
            uint64_t lo = (uint64_t)(uintptr_t)o->arg.tensor->data;
            if (p >= lo && p < lo + o->arg.tensor->nbytes) {
                a->ptr_to[k] = final[i];
                a->ptr_off[k] = (int64_t)(p - lo);
            }
        }
        if (a->ptr_to[k] < 0 && p) {
            api_fail("tritium: error: pointer table '%s': entry %d (0x%llx) lies in no tensor of the launch "
                     "(pass the tensors it points to as extra tensors)", v->name, k, (unsigned long long)p);
            return TRITIUM_INPUT_ERROR;
        }
        if (!p) a->ptr_off[k] = 0;
    }
    return TRITIUM_OK;
}

static int assemble(tritium_launch *L)
{
    if (L->assembled) return TRITIUM_OK;
    launch *l = &L->l;
    memset(l, 0, sizeof *l);
    int cap = 1;
    for (int i = 0; i < L->vals.n; i++) cap += 1 + 2 * L->vals.v[i].arg.desc_rank;
    l->args = xcalloc((size_t)cap, sizeof *l->args);
    l->consts = xcalloc((size_t)L->vals.n + 1, sizeof *l->consts);
    int *final = xcalloc((size_t)L->vals.n + 1, sizeof *final);
    for (int i = 0; i < L->vals.n; i++) final[i] = -1;
    for (int p = 0; p < L->nparams; p++)
        for (int i = 0; i < L->vals.n; i++) {
            api_value *v = &L->vals.v[i];
            if (v->extra || !of_param(v->name, L->params[p].name)) continue;
            if (v->is_const) {
                l->consts[l->nconsts] = v->c;
                l->consts[l->nconsts++].name = v->name;
            } else {
                push_arg(l, v, final, i);
            }
        }
    int nk = l->nargs;
    for (int i = 0; i < L->vals.n; i++)
        if (L->vals.v[i].extra) push_arg(l, &L->vals.v[i], final, i);
    l->nextra = l->nargs - nk;
    l->nargs = nk;
    memcpy(l->grid, L->grid, sizeof l->grid);
    l->num_warps = L->num_warps;
    l->debug = L->debug;
    L->assembled = true;
    int rc = TRITIUM_OK;
    for (int i = 0; i < L->vals.n && rc == TRITIUM_OK; i++)
        if (final[i] >= 0 && L->vals.v[i].arg.ptr_n) rc = resolve_table(L, &l->args[final[i]], &L->vals.v[i], final);
    free(final);
    if (rc) assembled_free(L);
    return rc;
}

int api_prepare(tritium_launch *L)
{
    api_clear_error();
    if (!L) { api_fail("tritium: no launch"); return TRITIUM_INPUT_ERROR; }
    if (assemble(L)) return TRITIUM_INPUT_ERROR;
    L->compiled_now = false;
    if (L->fn) return TRITIUM_OK;
    char *key = spec_key(L);
    tritium_module *m = L->m;
    for (int i = 0; i < m->cache.n; i++)
        if (!strcmp(m->cache.v[i].key, key)) {
            L->fn = m->cache.v[i].fn;
            free(key);
            return TRITIUM_OK;
        }
    api_capture_begin();
    ir_func *fn = front_compile(m->fm, L->kernel, &L->l);
    api_capture_end(!fn);
    if (!fn) {
        free(key);
        return TRITIUM_INPUT_ERROR;
    }
    api_compiled c = { key, fn };
    vec_push(&m->cache, c);
    L->fn = fn;
    L->compiled_now = true;
    return TRITIUM_OK;
}

int tritium_launch_compile(tritium_launch *L) { return api_prepare(L); }
