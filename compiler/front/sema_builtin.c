/* sema_builtin.c — the tl.* functions, tensor methods and Python builtins
 * that kernels may call, with Triton 3.6's argument names and checks
 * (python/triton/language/{core,semantic,standard,math}.py). One table
 * names every builtin, its parameters and where it is visible. */
#include "front_int.h"

#include <math.h>
#include <string.h>

enum { IN_TL = 1, IN_MATH = 2, IN_PY = 4, IN_METHOD = 8, IN_TRITON = 16, IN_LIBDEVICE = 32 };

/* X(ID, "name", "params", visibility). A parameter "*name" collects the
 * remaining positional arguments into a tuple. */
#define BUILTINS(X) \
    X(PROGRAM_ID, "program_id", "axis", IN_TL) \
    X(NUM_PROGRAMS, "num_programs", "axis", IN_TL) \
    X(ARANGE, "arange", "start,end", IN_TL) \
    X(ZEROS, "zeros", "shape,dtype", IN_TL) \
    X(FULL, "full", "shape,value,dtype", IN_TL) \
    X(ZEROS_LIKE, "zeros_like", "input", IN_TL) \
    X(CDIV, "cdiv", "x,div", IN_TL | IN_TRITON | IN_METHOD) \
    X(WHERE, "where", "condition,x,y", IN_TL) \
    X(MINIMUM, "minimum", "x,y,propagate_nan", IN_TL | IN_MATH) \
    X(MAXIMUM, "maximum", "x,y,propagate_nan", IN_TL | IN_MATH) \
    X(CLAMP, "clamp", "x,min,max,propagate_nan", IN_TL | IN_MATH) \
    X(LOAD, "load", "pointer,mask,other,boundary_check,padding_option,cache_modifier,eviction_policy,volatile", IN_TL) \
    X(STORE, "store", "pointer,value,mask,boundary_check,cache_modifier,eviction_policy", IN_TL | IN_METHOD) \
    X(SUM, "sum", "input,axis,keep_dims,dtype", IN_TL | IN_METHOD) \
    X(MAX, "max", "input,axis,return_indices,return_indices_tie_break_left,keep_dims", IN_TL | IN_METHOD) \
    X(MIN, "min", "input,axis,return_indices,return_indices_tie_break_left,keep_dims", IN_TL | IN_METHOD) \
    X(ARGMAX, "argmax", "input,axis,tie_break_left,keep_dims", IN_TL | IN_METHOD) \
    X(ARGMIN, "argmin", "input,axis,tie_break_left,keep_dims", IN_TL | IN_METHOD) \
    X(XOR_SUM, "xor_sum", "input,axis,keep_dims", IN_TL | IN_METHOD) \
    X(EXP, "exp", "x", IN_TL | IN_MATH | IN_METHOD | IN_LIBDEVICE) \
    X(EXP2, "exp2", "x", IN_TL | IN_MATH | IN_METHOD | IN_LIBDEVICE) \
    X(LOG, "log", "x", IN_TL | IN_MATH | IN_METHOD | IN_LIBDEVICE) \
    X(LOG2, "log2", "x", IN_TL | IN_MATH | IN_METHOD | IN_LIBDEVICE) \
    X(SQRT, "sqrt", "x", IN_TL | IN_MATH | IN_METHOD | IN_LIBDEVICE) \
    X(RSQRT, "rsqrt", "x", IN_TL | IN_MATH | IN_METHOD | IN_LIBDEVICE) \
    X(SIN, "sin", "x", IN_TL | IN_MATH | IN_METHOD | IN_LIBDEVICE) \
    X(COS, "cos", "x", IN_TL | IN_MATH | IN_METHOD | IN_LIBDEVICE) \
    X(ERF, "erf", "x", IN_TL | IN_MATH | IN_METHOD | IN_LIBDEVICE) \
    X(FLOOR, "floor", "x", IN_TL | IN_MATH | IN_METHOD | IN_LIBDEVICE) \
    X(CEIL, "ceil", "x", IN_TL | IN_MATH | IN_METHOD | IN_LIBDEVICE) \
    X(ABS, "abs", "x", IN_TL | IN_MATH | IN_METHOD | IN_PY) \
    X(SIGMOID, "sigmoid", "x", IN_TL | IN_MATH | IN_METHOD) \
    X(FMA, "fma", "x,y,z", IN_TL | IN_MATH | IN_LIBDEVICE) \
    X(DOT, "dot", "input,other,acc,input_precision,allow_tf32,max_num_imprecise_acc,out_dtype", IN_TL) \
    X(TRANS, "trans", "input,*dims", IN_TL | IN_METHOD) \
    X(PERMUTE, "permute", "input,*dims", IN_TL | IN_METHOD) \
    X(RESHAPE, "reshape", "input,*shape,can_reorder", IN_TL | IN_METHOD) \
    X(VIEW, "view", "input,*shape", IN_TL | IN_METHOD) \
    X(RAVEL, "ravel", "x,can_reorder", IN_TL | IN_METHOD) \
    X(BROADCAST_TO, "broadcast_to", "input,*shape", IN_TL | IN_METHOD) \
    X(EXPAND_DIMS, "expand_dims", "input,axis", IN_TL | IN_METHOD) \
    X(MULTIPLE_OF, "multiple_of", "input,values", IN_TL) \
    X(MAX_CONTIGUOUS, "max_contiguous", "input,values", IN_TL) \
    X(MAX_CONSTANCY, "max_constancy", "input,values", IN_TL) \
    X(ASSUME, "assume", "cond", IN_TL) \
    X(DEBUG_BARRIER, "debug_barrier", "", IN_TL) \
    X(STATIC_ASSERT, "static_assert", "cond,msg", IN_TL) \
    X(STATIC_PRINT, "static_print", "*values", IN_TL) \
    X(DEVICE_ASSERT, "device_assert", "cond,msg,mask", IN_TL) \
    X(STATIC_RANGE, "static_range", "arg1,arg2,arg3", IN_TL) \
    X(RANGE, "range", "arg1,arg2,arg3,num_stages,loop_unroll_factor,disallow_acc_multi_buffer,flatten,warp_specialize,disable_licm", IN_TL | IN_PY) \
    X(CAST, "cast", "input,dtype,fp_downcast_rounding,bitcast", IN_TL | IN_METHOD) \
    X(TO, "to", "input,dtype,fp_downcast_rounding,bitcast", IN_METHOD) \
    X(CONSTEXPR, "constexpr", "value", IN_TL) \
    X(POINTER_TYPE, "pointer_type", "element_ty", IN_TL) \
    X(ATOMIC_ADD, "atomic_add", "pointer,val,mask,sem,scope", IN_TL | IN_METHOD) \
    X(ATOMIC_MAX, "atomic_max", "pointer,val,mask,sem,scope", IN_TL | IN_METHOD) \
    X(ATOMIC_MIN, "atomic_min", "pointer,val,mask,sem,scope", IN_TL | IN_METHOD) \
    X(ATOMIC_AND, "atomic_and", "pointer,val,mask,sem,scope", IN_TL | IN_METHOD) \
    X(ATOMIC_OR, "atomic_or", "pointer,val,mask,sem,scope", IN_TL | IN_METHOD) \
    X(ATOMIC_XOR, "atomic_xor", "pointer,val,mask,sem,scope", IN_TL | IN_METHOD) \
    X(ATOMIC_XCHG, "atomic_xchg", "pointer,val,mask,sem,scope", IN_TL | IN_METHOD) \
    X(ATOMIC_CAS, "atomic_cas", "pointer,cmp,val,sem,scope", IN_TL | IN_METHOD) \
    X(UMULHI, "umulhi", "x,y", IN_TL | IN_MATH) \
    X(TO_TENSOR, "to_tensor", "x", IN_TL) \
    X(MAKE_BLOCK_PTR, "make_block_ptr", "base,shape,strides,offsets,block_shape,order", IN_TL) \
    X(ADVANCE, "advance", "base,offsets", IN_TL) \
    X(MAKE_TENSOR_DESC, "make_tensor_descriptor", "base,shape,strides,block_shape,padding_option", IN_TL) \
    X(DESC_LOAD, "load_tensor_descriptor", "desc,offsets", IN_TL) \
    X(DESC_STORE, "store_tensor_descriptor", "desc,offsets,value", IN_TL) \
    X(PY_MIN, "min", "*args", IN_PY) \
    X(PY_MAX, "max", "*args", IN_PY) \
    X(PY_LEN, "len", "obj", IN_PY) \
    X(PY_INT, "int", "x", IN_PY) \
    X(PY_FLOAT, "float", "x", IN_PY) \
    X(PY_BOOL, "bool", "x", IN_PY) \
    X(PY_PRINT, "print", "*args", IN_PY) \
    X(PY_ISINSTANCE, "isinstance", "obj,cls", IN_PY)

enum {
#define X(id, name, params, vis) B_##id,
    BUILTINS(X)
#undef X
    B_COUNT
};

static const struct { const char *name, *params; unsigned vis; } btab[B_COUNT] = {
#define X(id, name, params, vis) [B_##id] = { name, params, vis },
    BUILTINS(X)
#undef X
};

const char *sema_builtin_name(int id) { return btab[id].name; }

static bool find(const char *name, unsigned vis, sval *out, vkind k)
{
    for (int i = 0; i < B_COUNT; i++) {
        if ((btab[i].vis & vis) && !strcmp(btab[i].name, name)) {
            *out = (sval){ .k = k, .i = i, .v = -1 };
            return true;
        }
    }
    return false;
}

bool sema_python_builtin(const char *name, sval *out) { return find(name, IN_PY, out, V_BUILTIN); }

static const struct { const char *name; tt_dtype d; } dtypes[] = {
    { "float16", TT_F16 }, { "bfloat16", TT_BF16 }, { "float32", TT_F32 }, { "float64", TT_F64 },
    { "int1", TT_BOOL }, { "int8", TT_I8 }, { "int16", TT_I16 }, { "int32", TT_I32 }, { "int64", TT_I64 },
    { "uint8", TT_U8 }, { "uint16", TT_U16 }, { "uint32", TT_U32 }, { "uint64", TT_U64 },
    { "float", TT_F32 }, { "half", TT_F16 }, { "double", TT_F64 }, { "bool", TT_BOOL },
};

/* tl.rand & co. are the prelude's __tl_ functions (prelude.c) */
static bool prelude_func(sema *S, const char *name, sval *out)
{
    static const char *const names[] = { "rand", "randint", "randn", "randint4x", "rand4x", "randn4x",
                                         "philox", "uint_to_uniform_float", "pair_uniform_to_normal", NULL };
    for (int k = 0; names[k]; k++) {
        if (strcmp(names[k], name)) continue;
        char full[64];
        snprintf(full, sizeof full, "__tl_%s", name);
        for (int i = S->m->nuser; i < S->m->funcs.n; i++) {
            if (!strcmp(S->m->funcs.v[i].name, full)) {
                *out = (sval){ .k = V_FUNC, .i = i, .v = -1 };
                return true;
            }
        }
    }
    return false;
}

bool sema_module_attr(sema *S, int mod, const char *name, sval *out)
{
    switch (mod) {
    case MOD_TL:
        for (size_t i = 0; i < TT_COUNTOF(dtypes); i++) {
            if (!strcmp(name, dtypes[i].name)) {
                *out = sv_dtype(dtypes[i].d, TT_BOOL);
                return true;
            }
        }
        if (!strcmp(name, "math")) { *out = (sval){ .k = V_MODULE, .i = MOD_MATH, .v = -1 }; return true; }
        if (!strcmp(name, "extra")) { *out = (sval){ .k = V_MODULE, .i = MOD_EXTRA, .v = -1 }; return true; }
        if (prelude_func(S, name, out)) return true;
        return find(name, IN_TL, out, V_BUILTIN);
    case MOD_MATH: return find(name, IN_MATH, out, V_BUILTIN);
    case MOD_LIBDEVICE: return find(name, IN_LIBDEVICE, out, V_BUILTIN);
    case MOD_EXTRA:
        if (!strcmp(name, "cuda")) { *out = (sval){ .k = V_MODULE, .i = MOD_CUDA, .v = -1 }; return true; }
        if (!strcmp(name, "libdevice")) { *out = (sval){ .k = V_MODULE, .i = MOD_LIBDEVICE, .v = -1 }; return true; }
        return false;
    case MOD_CUDA:
        if (!strcmp(name, "libdevice")) { *out = (sval){ .k = V_MODULE, .i = MOD_LIBDEVICE, .v = -1 }; return true; }
        return false;
    case MOD_TRITON:
        if (!strcmp(name, "language")) { *out = (sval){ .k = V_MODULE, .i = MOD_TL, .v = -1 }; return true; }
        return find(name, IN_TRITON, out, V_BUILTIN);
    }
    return false;
}

bool sema_tensor_attr(sema *S, src_pos p, sval self, const char *name, sval *out)
{
    if (self.k == V_DTYPE) {
        if (!strcmp(name, "element_ty") || !strcmp(name, "scalar")) {
            *out = self.dt == TT_PTR ? sv_dtype(self.pt, TT_BOOL) : self;
            return true;
        }
        if (!strcmp(name, "primitive_bitwidth")) {
            *out = sv_int(tt_dtype_bits(self.dt));
            return true;
        }
        return false;
    }
    if (self.k == V_TDESC && (!strcmp(name, "load") || !strcmp(name, "store"))) {
        *out = (sval){ .k = V_METHOD, .i = !strcmp(name, "load") ? B_DESC_LOAD : B_DESC_STORE, .v = -1 };
        out->self = arena_alloc(S->a, sizeof(sval));
        *out->self = self;
        return true;
    }
    if (self.k != V_TENSOR) return false;
    if (!strcmp(name, "dtype") || !strcmp(name, "type")) {
        *out = sv_dtype(self.dt, self.pt);
        return true;
    }
    if (!strcmp(name, "shape")) {
        const ir_type_info *t = sv_shape(S, &self);
        sval tup = { .k = V_TUPLE, .n = t->rank, .v = -1 };
        tup.items = arena_alloc(S->a, sizeof(sval) * (size_t)(t->rank + 1));
        for (int i = 0; i < t->rank; i++) tup.items[i] = sv_int(t->shape[i]);
        *out = tup;
        return true;
    }
    if (!strcmp(name, "T")) {
        sval args[1] = { self };
        *out = sema_call_builtin(S, NULL, B_TRANS, NULL, args, 1, NULL, NULL, 0);
        (void)p;
        return true;
    }
    if (find(name, IN_METHOD, out, V_METHOD)) {
        out->self = arena_alloc(S->a, sizeof(sval));
        *out->self = self;
        return true;
    }
    return false;
}

/* ---- argument binding ---- */

#define MAXP 12

typedef struct bargs {
    sval a[MAXP];
    bool has[MAXP];
    const char *names[MAXP];
    int n;
} bargs;

static void bind_args(sema *S, src_pos p, int id, sval *self, sval *args, int nargs, const char **kwn, sval *kwv, int nkw, bargs *B)
{
    memset(B, 0, sizeof *B);
    char spec[256];
    snprintf(spec, sizeof spec, "%s", btab[id].params);
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
            sema_error(S, p, "%s() takes at most %d positional arguments", btab[id].name, B->n);
        }
        B->a[k] = pos.v[i];
        B->has[k] = true;
        k++;
    }
    vec_free(&pos);
    for (int i = 0; i < nkw; i++) {
        int j = 0;
        while (j < B->n && strcmp(B->names[j], kwn[i])) j++;
        if (j == B->n) sema_error(S, p, "%s() got an unexpected keyword argument '%s'", btab[id].name, kwn[i]);
        if (B->has[j]) sema_error(S, p, "%s() got multiple values for argument '%s'", btab[id].name, kwn[i]);
        B->a[j] = kwv[i];
        B->has[j] = true;
    }
    /* None means "not given" for optional tl arguments */
    for (int i = 0; i < B->n; i++)
        if (B->has[i] && B->a[i].k == V_NONE) B->has[i] = false;
}

static sval req(sema *S, src_pos p, int id, bargs *B, int i)
{
    if (!B->has[i]) sema_error(S, p, "%s() missing required argument '%s'", btab[id].name, B->names[i]);
    return B->a[i];
}

static int64_t const_int(sema *S, src_pos p, sval v, const char *what)
{
    if (v.k == V_INT || v.k == V_BOOL) return v.i;
    sema_error(S, p, "%s must be a constexpr integer, got %s", what, sv_describe(S, &v));
}

static bool const_bool(sema *S, src_pos p, bargs *B, int i, bool def)
{
    if (!B->has[i]) return def;
    return sv_truthy(S, p, &B->a[i]);
}

static tt_dtype want_dtype(sema *S, src_pos p, sval v, tt_dtype *pt)
{
    if (v.k != V_DTYPE) sema_error(S, p, "expected a dtype such as tl.float32, got %s", sv_describe(S, &v));
    if (pt) *pt = v.pt;
    return v.dt;
}

static sval want_tensor(sema *S, src_pos p, sval v, const char *what)
{
    if (v.k == V_TENSOR) return v;
    if (sv_is_const(&v)) return sema_to_tensor(S, p, v);
    sema_error(S, p, "%s must be a tensor, got %s", what, sv_describe(S, &v));
}

static bool is_pow2(int64_t x) { return x > 0 && (x & (x - 1)) == 0; }

/* a shape: an int or a tuple/list of constexpr ints, each a power of two */
static int want_shape(sema *S, src_pos p, sval v, int64_t *shape, bool check_pow2)
{
    int rank;
    if (v.k == V_TUPLE) {
        if (v.n == 1 && v.items[0].k == V_TUPLE) v = v.items[0];
        rank = v.n;
        if (rank > IR_MAX_RANK) sema_error(S, p, "tensors of rank above %d are not supported", IR_MAX_RANK);
        for (int i = 0; i < rank; i++) shape[i] = const_int(S, p, v.items[i], "a shape dimension");
    } else {
        rank = 1;
        shape[0] = const_int(S, p, v, "a shape");
    }
    int64_t numel = 1;
    for (int i = 0; i < rank; i++) {
        if (shape[i] <= 0 || (check_pow2 && !is_pow2(shape[i])))
            sema_error(S, p, "shape dimensions must be powers of two, got %lld", (long long)shape[i]);
        numel *= shape[i];
        if (numel > (1 << 20)) sema_error(S, p, "tensor has more than 1048576 elements (TRITON_MAX_TENSOR_NUMEL)");
    }
    return rank;
}

static sval emit(sema *S, int opc, ir_type t, int n, const ir_value *ops, tt_dtype dt, tt_dtype pt)
{
    return sv_tensor(ir_emit1(&S->b, opc, t, n, ops), dt, pt);
}

static void check_fp(sema *S, src_pos p, sval x, const char *fn)
{
    if (x.dt != TT_F32 && x.dt != TT_F64)
        sema_error(S, p, "%s: expected dtype ['fp32', 'fp64'] but got %s", fn, x.dt == TT_PTR ? "pointer" : tt_dtype_triton_name(x.dt));
}

static sval unary_math(sema *S, src_pos p, int opc, sval x, const char *fn)
{
    x = want_tensor(S, p, x, "the argument");
    check_fp(S, p, x, fn);
    sema_setloc(S, p);
    return emit(S, opc, ir_value_type(S->fn, x.v), 1, &x.v, x.dt, 0);
}

static sval reshape(sema *S, src_pos p, sval x, int rank, const int64_t *shape)
{
    x = want_tensor(S, p, x, "the input");
    const ir_type_info *t = sv_shape(S, &x);
    int64_t n = 1;
    for (int i = 0; i < rank; i++) n *= shape[i];
    if (n != ir_type_numel(ir_value_type(S->fn, x.v)))
        sema_error(S, p, "reshape: cannot reshape %s to %lld elements", sv_describe(S, &x), (long long)n);
    if (t->rank == rank && !memcmp(t->shape, shape, sizeof(int64_t) * (size_t)rank)) return x;
    sema_setloc(S, p);
    ir_type nt = sema_type(x.dt, x.pt, rank, shape);
    if (t->rank == 0) return emit(S, IR_SPLAT, nt, 1, &x.v, x.dt, x.pt);
    return emit(S, IR_RESHAPE, nt, 1, &x.v, x.dt, x.pt);
}

/* Reduce x along axis (or all axes when !has_axis). kind: RED_*. */
static sval reduce(sema *S, src_pos p, sval x, bool has_axis, int64_t axis, bool keep, int kind, tt_dtype rdt)
{
    x = want_tensor(S, p, x, "the input");
    const ir_type_info *t = sv_shape(S, &x);
    int rank0 = t->rank;
    if (rank0 == 0) sema_error(S, p, "cannot reduce a scalar");
    if (!has_axis) {
        if (rank0 > 1) {
            int64_t n = ir_type_numel(ir_value_type(S->fn, x.v));
            x = reshape(S, p, x, 1, &n);
        }
        axis = 0;
    } else {
        if (axis < 0) axis += rank0;
        if (axis < 0 || axis >= rank0) sema_error(S, p, "reduction axis %lld out of range for rank %d", (long long)axis, rank0);
    }
    t = sv_shape(S, &x);
    int64_t shape[IR_MAX_RANK];
    int r = 0;
    for (int i = 0; i < t->rank; i++)
        if (i != axis) shape[r++] = t->shape[i];
    sema_setloc(S, p);
    sval res = emit(S, IR_REDUCE, sema_type(rdt, 0, r, shape), 1, &x.v, rdt, 0);
    ir_op *op = ir_def(S->fn, res.v);
    op->attr[0] = axis;
    op->attr[1] = kind;
    if (keep) {
        if (!has_axis) {
            int64_t ones[IR_MAX_RANK] = { 1, 1, 1, 1 };
            return reshape(S, p, res, rank0, ones);
        }
        return sema_expand_dims(S, p, res, (int)axis);
    }
    return res;
}

static sval reduce_minmax(sema *S, src_pos p, int id, bargs *B, bool is_max, bool arg_only)
{
    sval x = want_tensor(S, p, req(S, p, id, B, 0), "the input");
    bool has_axis = B->has[1];
    int64_t axis = has_axis ? const_int(S, p, B->a[1], "axis") : 0;
    bool keep = const_bool(S, p, B, arg_only ? 3 : 4, false);
    bool want_idx = arg_only || const_bool(S, p, B, 2, false);
    if (x.dt == TT_PTR) sema_error(S, p, "cannot reduce pointers");
    /* sub-32-bit floats go to fp32, small ints to (u)int32 (standard.py max/min) */
    /* with return_indices only bf16 is promoted; ints below 32 bits become int32 */
    if (want_idx ? x.dt == TT_BF16 : (tt_dtype_is_float(x.dt) && tt_dtype_bits(x.dt) < 32)) x = sema_cast(S, p, x, TT_F32, 0, false);
    else if (tt_dtype_is_int(x.dt) && tt_dtype_bits(x.dt) < 32) x = sema_cast(S, p, x, TT_I32, 0, false);
    bool u = tt_dtype_is_int(x.dt) && !tt_dtype_is_signed(x.dt);
    int vk = is_max ? (u ? RED_UMAX : RED_MAX) : (u ? RED_UMIN : RED_MIN);
    int ik = is_max ? (u ? RED_UARGMAX : RED_ARGMAX) : (u ? RED_UARGMIN : RED_ARGMIN);
    sval idx = {0};
    if (want_idx) idx = reduce(S, p, x, has_axis, axis, keep, ik, TT_I32);
    if (arg_only) return idx;
    sval val = reduce(S, p, x, has_axis, axis, keep, vk, x.dt);
    if (!want_idx) return val;
    sval tup = { .k = V_TUPLE, .n = 2, .v = -1 };
    tup.items = arena_alloc(S->a, sizeof(sval) * 2);
    tup.items[0] = val;
    tup.items[1] = idx;
    return tup;
}

static sval atomic(sema *S, src_pos p, int id, bargs *B)
{
    sval ptr = req(S, p, id, B, 0);
    if (ptr.k != V_TENSOR || ptr.dt != TT_PTR) sema_error(S, p, "%s: the first argument must be a pointer", btab[id].name);
    bool cas = id == B_ATOMIC_CAS;
    sval val = req(S, p, id, B, cas ? 2 : 1);
    tt_dtype et = ptr.pt;
    static const char *const sems[] = { "acq_rel", "acquire", "release", "relaxed" };
    static const char *const scopes[] = { "gpu", "cta", "sys" };
    int semi = cas ? 3 : 3, scopei = cas ? 4 : 4;
    int64_t sem = SEM_ACQ_REL, scope = SCOPE_GPU;
    if (B->has[semi]) {
        if (B->a[semi].k != V_STR) sema_error(S, p, "sem must be a string");
        for (sem = 0; sem < 4 && strcmp(sems[sem], B->a[semi].s); sem++) {}
        if (sem == 4) sema_error(S, p, "unknown sem '%s' (acq_rel, acquire, release, relaxed)", B->a[semi].s);
    }
    if (B->has[scopei]) {
        if (B->a[scopei].k != V_STR) sema_error(S, p, "scope must be a string");
        for (scope = 0; scope < 3 && strcmp(scopes[scope], B->a[scopei].s); scope++) {}
        if (scope == 3) sema_error(S, p, "unknown scope '%s' (gpu, cta, sys)", B->a[scopei].s);
    }
    const ir_type_info *pti = sv_shape(S, &ptr);
    int rank = pti->rank;
    int64_t shape[IR_MAX_RANK];
    memcpy(shape, pti->shape, sizeof shape);
    val = sema_broadcast_to(S, p, sema_cast(S, p, val, et, 0, false), rank, shape);
    ir_type rt = sema_type(et, 0, rank, shape);
    sema_setloc(S, p);
    if (cas) {
        sval cmp = sema_broadcast_to(S, p, sema_cast(S, p, req(S, p, id, B, 1), et, 0, false), rank, shape);
        ir_value ops[3] = { ptr.v, cmp.v, val.v };
        sval r = emit(S, IR_ATOMIC_CAS, rt, 3, ops, et, 0);
        ir_def(S->fn, r.v)->attr[0] = sem;
        ir_def(S->fn, r.v)->attr[1] = scope;
        return r;
    }
    int kind;
    bool fl = tt_dtype_is_float(et), u = !tt_dtype_is_signed(et);
    switch (id) {
    case B_ATOMIC_ADD: kind = fl ? RMW_FADD : RMW_ADD; break;
    case B_ATOMIC_MAX: kind = u && !fl ? RMW_UMAX : RMW_MAX; break;
    case B_ATOMIC_MIN: kind = u && !fl ? RMW_UMIN : RMW_MIN; break;
    case B_ATOMIC_AND: kind = RMW_AND; break;
    case B_ATOMIC_OR: kind = RMW_OR; break;
    case B_ATOMIC_XOR: kind = RMW_XOR; break;
    default: kind = RMW_XCHG; break;
    }
    if (fl && (kind == RMW_MAX || kind == RMW_MIN))
        sema_error(S, p, "%s on floating-point pointers is not supported yet", btab[id].name);
    if (fl && kind != RMW_FADD && kind != RMW_XCHG)
        sema_error(S, p, "%s is not supported on floating-point pointers", btab[id].name);
    /* only add takes 16-bit floats; everything else needs 32 or 64 bits (semantic.py atom_red_typechecking_impl) */
    if (tt_dtype_bits(et) < 32 && !(kind == RMW_FADD && (et == TT_F16 || et == TT_BF16)))
        sema_error(S, p, "%s does not support %s pointers (32- or 64-bit elements only)", btab[id].name, tt_dtype_triton_name(et));
    ir_value ops[3] = { ptr.v, val.v, -1 };
    int n = 2;
    if (B->has[2]) {
        sval mask = want_tensor(S, p, B->a[2], "mask");
        if (mask.dt != TT_BOOL) sema_error(S, p, "mask must be a boolean tensor, got %s", sv_describe(S, &mask));
        ops[n++] = sema_broadcast_to(S, p, mask, rank, shape).v;
    }
    sema_setloc(S, p);
    sval r = emit(S, IR_ATOMIC_RMW, rt, n, ops, et, 0);
    ir_op *op = ir_def(S->fn, r.v);
    op->attr[0] = kind;
    op->attr[1] = sem;
    op->attr[2] = scope;
    return r;
}

sval sema_call_builtin(sema *S, node *call, int id, sval *self, sval *args, int nargs,
                       const char **kwn, sval *kwv, int nkw)
{
    src_pos p = call ? call->pos : (src_pos){ -1, 0, 0 };
    if (!call && S->b.loc >= 0) {
        ir_loc *l = &S->fn->locs.v[S->b.loc];
        p = (src_pos){ l->file, l->line, l->col };
    }
    bargs B;
    bind_args(S, p, id, self, args, nargs, kwn, kwv, nkw, &B);
    sema_setloc(S, p);
    switch (id) {
    case B_PROGRAM_ID:
    case B_NUM_PROGRAMS: {
        int64_t axis = B.has[0] ? const_int(S, p, B.a[0], "axis") : 0;
        if (axis < 0 || axis > 2) sema_error(S, p, "%s: axis must be 0, 1 or 2", btab[id].name);
        sval r = emit(S, id == B_PROGRAM_ID ? IR_GET_PID : IR_GET_NPROG, ir_scalar(TT_I32), 0, NULL, TT_I32, 0);
        ir_def(S->fn, r.v)->attr[0] = axis;
        return r;
    }
    case B_ARANGE: {
        int64_t start = const_int(S, p, req(S, p, id, &B, 0), "arange's start");
        int64_t end;
        if (B.has[1]) end = const_int(S, p, B.a[1], "arange's end");
        else { end = start; start = 0; }
        if (start < INT32_MIN || end > INT32_MAX) sema_error(S, p, "arange's arguments must be within int32 range");
        if (end <= start) sema_error(S, p, "arange's end must be greater than start (got %lld, %lld)", (long long)start, (long long)end);
        if (!is_pow2(end - start)) sema_error(S, p, "arange's range must be a power of 2, got %lld", (long long)(end - start));
        if (end - start > (1 << 20)) sema_error(S, p, "arange: more than 1048576 elements");
        int64_t n = end - start;
        sval r = emit(S, IR_MAKE_RANGE, ir_tensor(ir_scalar(TT_I32), 1, &n), 0, NULL, TT_I32, 0);
        ir_def(S->fn, r.v)->attr[0] = start;
        ir_def(S->fn, r.v)->attr[1] = end;
        return r;
    }
    case B_ZEROS:
    case B_FULL: {
        int64_t shape[IR_MAX_RANK];
        int rank = want_shape(S, p, req(S, p, id, &B, 0), shape, true);
        tt_dtype pt;
        tt_dtype dt = want_dtype(S, p, req(S, p, id, &B, id == B_ZEROS ? 1 : 2), &pt);
        if (dt == TT_PTR) sema_error(S, p, "cannot create a tensor of pointers with %s", btab[id].name);
        if (id == B_ZEROS) return sema_const_tensor(S, p, 0, 0, dt, rank, shape);
        sval v = req(S, p, id, &B, 1);
        if (v.k == V_TENSOR) return sema_broadcast_to(S, p, sema_cast(S, p, v, dt, 0, false), rank, shape);
        if (!sv_is_const(&v)) sema_error(S, p, "full: value must be a number, got %s", sv_describe(S, &v));
        if (tt_dtype_is_float(dt)) return sema_const_tensor(S, p, v.k == V_FLOAT ? v.f : (double)v.i, 0, dt, rank, shape);
        if (v.k == V_FLOAT) {
            sval f = sema_const_tensor(S, p, v.f, 0, TT_F32, rank, shape);
            return sema_cast(S, p, f, dt, 0, false);
        }
        return sema_const_tensor(S, p, (double)v.i, v.i, dt, rank, shape);
    }
    case B_ZEROS_LIKE: {
        sval x = want_tensor(S, p, req(S, p, id, &B, 0), "the input");
        const ir_type_info *t = sv_shape(S, &x);
        return sema_const_tensor(S, p, 0, 0, x.dt, t->rank, t->shape);
    }
    case B_CDIV: {
        sval x = req(S, p, id, &B, 0), d = req(S, p, id, &B, 1);
        sval r = sema_binop(S, p, "+", x, d);
        r = sema_binop(S, p, "-", r, sv_int(1));
        return sema_binop(S, p, "//", r, d);
    }
    case B_WHERE: {
        sval c = want_tensor(S, p, req(S, p, id, &B, 0), "the condition");
        if (c.dt != TT_BOOL) c = sema_cast(S, p, c, TT_BOOL, 0, false);
        sval x = req(S, p, id, &B, 1), y = req(S, p, id, &B, 2);
        /* x and y are promoted together like a binary op (semantic.py where) */
        if (x.k != V_TENSOR || y.k != V_TENSOR || x.dt != y.dt || x.pt != y.pt) {
            if (x.dt == TT_PTR || y.dt == TT_PTR) {
                if (x.k != V_TENSOR || y.k != V_TENSOR || x.dt != y.dt || x.pt != y.pt)
                    sema_error(S, p, "where: incompatible pointer operands %s and %s", sv_describe(S, &x), sv_describe(S, &y));
            } else {
                tt_dtype ct = sema_promote(S, p, x, y);
                x = x.k == V_TENSOR ? sema_cast(S, p, x, ct, 0, false) : sema_const_as(S, p, x, ct);
                y = y.k == V_TENSOR ? sema_cast(S, p, y, ct, 0, false) : sema_const_as(S, p, y, ct);
            }
        }
        sema_broadcast_pair(S, p, &x, &y);
        sema_broadcast_pair(S, p, &c, &x);
        sema_broadcast_pair(S, p, &x, &y);
        sema_broadcast_pair(S, p, &c, &y);
        sema_setloc(S, p);
        ir_value ops[3] = { c.v, x.v, y.v };
        return emit(S, IR_SELECT, ir_value_type(S->fn, x.v), 3, ops, x.dt, x.pt);
    }
    case B_MINIMUM:
    case B_MAXIMUM:
        return sema_minmax(S, p, id == B_MAXIMUM, req(S, p, id, &B, 0), req(S, p, id, &B, 1));
    case B_CLAMP: {
        sval x = req(S, p, id, &B, 0);
        x = sema_minmax(S, p, true, x, req(S, p, id, &B, 1));
        return sema_minmax(S, p, false, x, req(S, p, id, &B, 2));
    }
    case B_LOAD: {
        sval ptr = req(S, p, id, &B, 0);
        if (ptr.k == V_BLOCKPTR) {
            if (B.has[1] || B.has[2]) sema_error(S, p, "load: `mask` and `other` cannot be used with a block pointer; use boundary_check");
            return sema_bp_load(S, p, ptr, B.has[3] ? B.a[3] : sv_none(), B.has[4] ? B.a[4] : sv_none());
        }
        if (ptr.k != V_TENSOR || ptr.dt != TT_PTR) sema_error(S, p, "load: the pointer argument must be a pointer, got %s", sv_describe(S, &ptr));
        if (B.has[3] || B.has[4]) sema_error(S, p, "load: boundary_check and padding_option apply only to block pointers, which are not supported yet");
        for (int i = 5; i <= 6; i++)
            if (B.has[i] && B.a[i].k != V_STR) sema_error(S, p, "load: %s must be a string", B.names[i]);
        sval mask = {0}, other = {0};
        if (B.has[2] && !B.has[1]) sema_error(S, p, "load: `other` cannot be provided without `mask`");
        if (B.has[1]) {
            mask = want_tensor(S, p, B.a[1], "mask");
            if (mask.dt != TT_BOOL) sema_error(S, p, "load: mask must be a boolean tensor, got %s", sv_describe(S, &mask));
            const ir_type_info *pt0 = sv_shape(S, &ptr);
            if (pt0->rank == 0 && sv_shape(S, &mask)->rank > 0)
                sema_error(S, p, "load: mask argument cannot be a block if the pointer argument is not a block");
            mask = sema_broadcast_to(S, p, mask, pt0->rank, pt0->shape);
        }
        const ir_type_info *pti = sv_shape(S, &ptr);
        int rank = pti->rank;
        int64_t shape[IR_MAX_RANK];
        memcpy(shape, pti->shape, sizeof shape);
        ir_value ops[3] = { ptr.v, -1, -1 };
        int n = 1;
        if (B.has[1]) ops[n++] = mask.v;
        if (B.has[2]) {
            other = sema_cast(S, p, B.a[2], ptr.pt, 0, false);
            other = sema_broadcast_to(S, p, other, rank, shape);
            ops[n++] = other.v;
        }
        sema_setloc(S, p);
        return emit(S, IR_LOAD, sema_type(ptr.pt, 0, rank, shape), n, ops, ptr.pt, 0);
    }
    case B_STORE: {
        sval ptr = req(S, p, id, &B, 0);
        if (ptr.k == V_BLOCKPTR) {
            if (B.has[2]) sema_error(S, p, "store: `mask` cannot be used with a block pointer; use boundary_check");
            sema_bp_store(S, p, ptr, req(S, p, id, &B, 1), B.has[3] ? B.a[3] : sv_none());
            return sv_none();
        }
        if (ptr.k != V_TENSOR || ptr.dt != TT_PTR) sema_error(S, p, "store: the pointer argument must be a pointer, got %s", sv_describe(S, &ptr));
        if (B.has[3]) sema_error(S, p, "store: boundary_check applies only to block pointers, which are not supported yet");
        sval val = req(S, p, id, &B, 1);
        sval mask = {0};
        if (B.has[2]) {
            mask = want_tensor(S, p, B.a[2], "mask");
            if (mask.dt != TT_BOOL) sema_error(S, p, "store: mask must be a boolean tensor, got %s", sv_describe(S, &mask));
            const ir_type_info *pt0 = sv_shape(S, &ptr);
            if (pt0->rank == 0 && sv_shape(S, &mask)->rank > 0)
                sema_error(S, p, "store: mask argument cannot be a block if the pointer argument is not a block");
            mask = sema_broadcast_to(S, p, mask, pt0->rank, pt0->shape);
        }
        const ir_type_info *pti = sv_shape(S, &ptr);
        int rank = pti->rank;
        int64_t shape[IR_MAX_RANK];
        memcpy(shape, pti->shape, sizeof shape);
        /* *i1 is stored as int8 (semantic.py store): 0.5 -> 0 -> False */
        if (ptr.pt == TT_BOOL && val.k == V_TENSOR && val.dt != TT_BOOL) val = sema_cast(S, p, val, TT_I8, 0, false);
        val = sema_cast(S, p, val, ptr.pt, 0, false);
        if (sv_shape(S, &val)->rank > rank) sema_error(S, p, "store: value %s has a higher rank than the pointer %s", sv_describe(S, &val), sv_describe(S, &ptr));
        val = sema_broadcast_to(S, p, val, rank, shape);
        ir_value ops[3] = { ptr.v, val.v, B.has[2] ? mask.v : -1 };
        sema_setloc(S, p);
        ir_emit(&S->b, IR_STORE, 0, NULL, B.has[2] ? 3 : 2, ops);
        return sv_none();
    }
    case B_SUM:
    case B_XOR_SUM: {
        sval x = want_tensor(S, p, req(S, p, id, &B, 0), "the input");
        if (x.dt == TT_PTR) sema_error(S, p, "cannot reduce pointers");
        if (id == B_SUM && B.has[3]) x = sema_cast(S, p, x, want_dtype(S, p, B.a[3], NULL), 0, false);
        else if (tt_dtype_is_int(x.dt) && tt_dtype_bits(x.dt) < 32)
            x = sema_cast(S, p, x, tt_dtype_is_signed(x.dt) ? TT_I32 : TT_U32, 0, false);
        if (id == B_XOR_SUM && !tt_dtype_is_int(x.dt)) sema_error(S, p, "xor_sum requires integers");
        bool has_axis = B.has[1];
        int64_t axis = has_axis ? const_int(S, p, B.a[1], "axis") : 0;
        return reduce(S, p, x, has_axis, axis, const_bool(S, p, &B, 2, false), id == B_SUM ? RED_ADD : RED_XOR, x.dt);
    }
    case B_MAX: return reduce_minmax(S, p, id, &B, true, false);
    case B_MIN: return reduce_minmax(S, p, id, &B, false, false);
    case B_ARGMAX: return reduce_minmax(S, p, id, &B, true, true);
    case B_ARGMIN: return reduce_minmax(S, p, id, &B, false, true);
    case B_EXP: return unary_math(S, p, IR_EXP, req(S, p, id, &B, 0), "exp");
    case B_EXP2: return unary_math(S, p, IR_EXP2, req(S, p, id, &B, 0), "exp2");
    case B_LOG: return unary_math(S, p, IR_LOG, req(S, p, id, &B, 0), "log");
    case B_LOG2: return unary_math(S, p, IR_LOG2, req(S, p, id, &B, 0), "log2");
    case B_SQRT: return unary_math(S, p, IR_SQRT, req(S, p, id, &B, 0), "sqrt");
    case B_RSQRT: return unary_math(S, p, IR_RSQRT, req(S, p, id, &B, 0), "rsqrt");
    case B_SIN: return unary_math(S, p, IR_SIN, req(S, p, id, &B, 0), "sin");
    case B_COS: return unary_math(S, p, IR_COS, req(S, p, id, &B, 0), "cos");
    case B_ERF: return unary_math(S, p, IR_ERF, req(S, p, id, &B, 0), "erf");
    case B_FLOOR: return unary_math(S, p, IR_FLOOR, req(S, p, id, &B, 0), "floor");
    case B_CEIL: return unary_math(S, p, IR_CEIL, req(S, p, id, &B, 0), "ceil");
    case B_ABS: {
        sval x = req(S, p, id, &B, 0);
        if (sv_is_const(&x)) return x.k == V_FLOAT ? sv_float(fabs(x.f)) : x.i == INT64_MIN ? x : sv_int(x.i < 0 ? -x.i : x.i);
        x = want_tensor(S, p, x, "the argument");
        if (x.dt == TT_PTR) sema_error(S, p, "abs of a pointer");
        if (tt_dtype_is_int(x.dt) && !tt_dtype_is_signed(x.dt)) return x;
        return emit(S, tt_dtype_is_float(x.dt) ? IR_ABSF : IR_ABSI, ir_value_type(S->fn, x.v), 1, &x.v, x.dt, 0);
    }
    case B_SIGMOID: {
        sval x = want_tensor(S, p, req(S, p, id, &B, 0), "the argument");
        check_fp(S, p, x, "sigmoid");
        sval e = unary_math(S, p, IR_EXP, sema_unop(S, p, "-", x), "exp");
        return sema_binop(S, p, "/", sv_float(1.0), sema_binop(S, p, "+", sv_float(1.0), e));
    }
    case B_FMA: {
        sval x = want_tensor(S, p, req(S, p, id, &B, 0), "x");
        sval y = want_tensor(S, p, req(S, p, id, &B, 1), "y");
        sval z = want_tensor(S, p, req(S, p, id, &B, 2), "z");
        check_fp(S, p, x, "fma");
        y = sema_cast(S, p, y, x.dt, 0, false);
        z = sema_cast(S, p, z, x.dt, 0, false);
        sema_broadcast_pair(S, p, &x, &y);
        sema_broadcast_pair(S, p, &x, &z);
        sema_broadcast_pair(S, p, &y, &z);
        sema_setloc(S, p);
        ir_value ops[3] = { x.v, y.v, z.v };
        return emit(S, IR_FMA, ir_value_type(S->fn, x.v), 3, ops, x.dt, 0);
    }
    case B_UMULHI: {
        sval x = want_tensor(S, p, req(S, p, id, &B, 0), "x");
        sval y = want_tensor(S, p, req(S, p, id, &B, 1), "y");
        if (!tt_dtype_is_int(x.dt) || tt_dtype_is_signed(x.dt) || tt_dtype_bits(x.dt) != 32 || y.dt != x.dt)
            sema_error(S, p, "umulhi requires two uint32 tensors");
        sema_broadcast_pair(S, p, &x, &y);
        ir_value ops[2] = { x.v, y.v };
        return emit(S, IR_MULHIUI, ir_value_type(S->fn, x.v), 2, ops, x.dt, 0);
    }
    case B_DOT: {
        sval a = want_tensor(S, p, req(S, p, id, &B, 0), "input");
        sval b = want_tensor(S, p, req(S, p, id, &B, 1), "other");
        const ir_type_info *ta = sv_shape(S, &a), *tb = sv_shape(S, &b);
        if (a.dt != b.dt) sema_error(S, p, "dot: both operands must have the same dtype, got %s and %s", sv_describe(S, &a), sv_describe(S, &b));
        if (ta->rank != tb->rank || (ta->rank != 2 && ta->rank != 3))
            sema_error(S, p, "dot: operands must be 2-D (or 3-D batched), got %s and %s", sv_describe(S, &a), sv_describe(S, &b));
        int r = ta->rank;
        int64_t M = ta->shape[r - 2], K = ta->shape[r - 1], K2 = tb->shape[r - 2], N = tb->shape[r - 1];
        if (K != K2) sema_error(S, p, "dot: inner dimensions differ: %s @ %s", sv_describe(S, &a), sv_describe(S, &b));
        if (r == 3 && ta->shape[0] != tb->shape[0]) sema_error(S, p, "dot: batch dimensions differ");
        if (K < 16 || (tt_dtype_bits(a.dt) == 8 && K < 32))
            sema_error(S, p, "dot: K must be >= %d for %s operands on NVIDIA GPUs (got %lld)",
                       tt_dtype_bits(a.dt) == 8 ? 32 : 16, tt_dtype_triton_name(a.dt), (long long)K);
        tt_dtype out;
        switch (a.dt) {
        case TT_I8: out = TT_I32; break;
        case TT_U8: out = TT_I32; break;
        case TT_F16: out = B.has[6] ? want_dtype(S, p, B.a[6], NULL) : TT_F32; break;
        case TT_BF16: case TT_F32: out = TT_F32; break;
        case TT_F64: out = TT_F64; break;
        default: sema_error(S, p, "dot: unsupported operand dtype %s", tt_dtype_triton_name(a.dt));
        }
        if (out != TT_F32 && out != TT_F16 && out != TT_I32 && out != TT_F64)
            sema_error(S, p, "dot: out_dtype must be float32 or float16");
        int64_t prec = PREC_TF32;
        if (B.has[4] && !sv_truthy(S, p, &B.a[4])) prec = PREC_IEEE;
        if (B.has[3]) {
            static const char *const names[] = { "tf32", "tf32x3", "ieee", "bf16x3", "bf16x6" };
            if (B.a[3].k != V_STR) sema_error(S, p, "dot: input_precision must be a string");
            for (prec = 0; prec < 5 && strcmp(names[prec], B.a[3].s); prec++) {}
            if (prec == 5) sema_error(S, p, "dot: unknown input_precision '%s' (tf32, tf32x3, ieee, bf16x3, bf16x6)", B.a[3].s);
        }
        int64_t shape[3];
        if (r == 3) shape[0] = ta->shape[0];
        shape[r - 2] = M;
        shape[r - 1] = N;
        ir_type rt = sema_type(out, 0, r, shape);
        sval acc;
        if (B.has[2]) {
            acc = want_tensor(S, p, B.a[2], "acc");
            if (ir_value_type(S->fn, acc.v) != rt || acc.dt != out)
                sema_error(S, p, "dot: acc must be %s, got %s", tt_dtype_triton_name(out), sv_describe(S, &acc));
        } else {
            acc = sema_const_tensor(S, p, 0, 0, out, r, shape);
        }
        sema_setloc(S, p);
        ir_value ops[3] = { a.v, b.v, acc.v };
        sval res = emit(S, IR_DOT, rt, 3, ops, out, 0);
        ir_def(S->fn, res.v)->attr[0] = prec;
        return res;
    }
    case B_TRANS:
    case B_PERMUTE: {
        sval x = want_tensor(S, p, req(S, p, id, &B, 0), "input");
        const ir_type_info *t = sv_shape(S, &x);
        int rank = t->rank;
        int64_t order[IR_MAX_RANK];
        if (B.has[1]) {
            int r = want_shape(S, p, B.a[1], order, false);
            if (r != rank) sema_error(S, p, "%s: expected %d dims, got %d", btab[id].name, rank, r);
        } else {
            if (id == B_PERMUTE || rank != 2) sema_error(S, p, "%s: give the dims for a rank-%d tensor", btab[id].name, rank);
            order[0] = 1, order[1] = 0;
        }
        int64_t shape[IR_MAX_RANK];
        unsigned seen = 0;
        for (int i = 0; i < rank; i++) {
            if (order[i] < 0 || order[i] >= rank || (seen & (1u << order[i])))
                sema_error(S, p, "%s: dims must be a permutation of 0..%d", btab[id].name, rank - 1);
            seen |= 1u << order[i];
            shape[i] = t->shape[order[i]];
        }
        sema_setloc(S, p);
        sval r = emit(S, IR_TRANS, sema_type(x.dt, x.pt, rank, shape), 1, &x.v, x.dt, x.pt);
        ir_def(S->fn, r.v)->attr[0] = ir_attr_array(rank, order);
        return r;
    }
    case B_RESHAPE:
    case B_VIEW:
    case B_BROADCAST_TO: {
        int64_t shape[IR_MAX_RANK];
        int rank = want_shape(S, p, req(S, p, id, &B, 1), shape, true);
        if (id == B_BROADCAST_TO) return sema_broadcast_to(S, p, req(S, p, id, &B, 0), rank, shape);
        return reshape(S, p, req(S, p, id, &B, 0), rank, shape);
    }
    case B_RAVEL: {
        sval x = want_tensor(S, p, req(S, p, id, &B, 0), "x");
        int64_t n = ir_type_numel(ir_value_type(S->fn, x.v));
        return reshape(S, p, x, 1, &n);
    }
    case B_EXPAND_DIMS: {
        sval x = req(S, p, id, &B, 0), ax = req(S, p, id, &B, 1);
        if (ax.k == V_TUPLE) {
            for (int i = 0; i < ax.n; i++) x = sema_expand_dims(S, p, x, (int)const_int(S, p, ax.items[i], "axis"));
            return x;
        }
        return sema_expand_dims(S, p, x, (int)const_int(S, p, ax, "axis"));
    }
    case B_MULTIPLE_OF:
    case B_MAX_CONTIGUOUS:
    case B_MAX_CONSTANCY: {
        sval x = req(S, p, id, &B, 0), v = req(S, p, id, &B, 1);
        if (v.k == V_TUPLE) for (int i = 0; i < v.n; i++) const_int(S, p, v.items[i], "a hint value");
        else const_int(S, p, v, "a hint value");
        return x;   /* pure hints: no semantic effect (§2.14) */
    }
    case B_ASSUME: {
        sval c = req(S, p, id, &B, 0);
        if (c.k != V_TENSOR) return sv_none();
        if (c.dt != TT_BOOL) sema_error(S, p, "assume: condition must be a boolean");
        ir_emit(&S->b, IR_ASSUME, 0, NULL, 1, &c.v);
        return sv_none();
    }
    case B_DEBUG_BARRIER:
        ir_emit(&S->b, IR_BARRIER, 0, NULL, 0, NULL);
        return sv_none();
    case B_STATIC_ASSERT: {
        sval c = req(S, p, id, &B, 0);
        if (c.k == V_TENSOR) sema_error(S, p, "static_assert: the condition must be a constexpr");
        if (!sv_truthy(S, p, &c))
            sema_error(S, p, "static_assert failed%s%s", B.has[1] && B.a[1].k == V_STR ? ": " : "",
                       B.has[1] && B.a[1].k == V_STR ? B.a[1].s : "");
        return sv_none();
    }
    case B_STATIC_PRINT: {
        sval t = B.a[0];
        for (int i = 0; i < t.n; i++) {
            sval v = t.items[i];
            fprintf(stderr, "%s%s", i ? " " : "", v.k == V_STR ? v.s : sv_describe(S, &v));
        }
        fputc('\n', stderr);
        return sv_none();
    }
    case B_DEVICE_ASSERT:
        return sv_none();   /* emitted only with debug=True in Triton; tritium runs without */
    case B_STATIC_RANGE:
    case B_RANGE:
        sema_error(S, p, "%s() can only be used as the iterable of a for loop", btab[id].name);
    case B_CAST:
    case B_TO: {
        sval x = req(S, p, id, &B, 0);
        tt_dtype pt;
        tt_dtype dt = want_dtype(S, p, req(S, p, id, &B, 1), &pt);
        if (B.has[2]) {
            if (B.a[2].k != V_STR || (strcmp(B.a[2].s, "rtne") && strcmp(B.a[2].s, "rtz")))
                sema_error(S, p, "fp_downcast_rounding must be 'rtne' or 'rtz'");
            if (!strcmp(B.a[2].s, "rtz")) sema_error(S, p, "fp_downcast_rounding='rtz' is not supported yet");
        }
        return sema_cast(S, p, x, dt, pt, const_bool(S, p, &B, 3, false));
    }
    case B_CONSTEXPR:
        return req(S, p, id, &B, 0);
    case B_MAKE_BLOCK_PTR: {
        sval order = B.has[5] ? B.a[5] : sv_none();
        return sema_make_block_ptr(S, p, req(S, p, id, &B, 0), req(S, p, id, &B, 1), req(S, p, id, &B, 2),
                                   req(S, p, id, &B, 3), req(S, p, id, &B, 4), order);
    }
    case B_ADVANCE:
        return sema_advance(S, p, req(S, p, id, &B, 0), req(S, p, id, &B, 1));
    case B_MAKE_TENSOR_DESC:
        return sema_make_tensor_desc(S, p, req(S, p, id, &B, 0), req(S, p, id, &B, 1), req(S, p, id, &B, 2),
                                     req(S, p, id, &B, 3), B.has[4] ? B.a[4] : sv_none());
    case B_DESC_LOAD:
    case B_DESC_STORE: {
        sval d = req(S, p, id, &B, 0);
        if (d.k != V_TDESC) sema_error(S, p, "%s: expected a tensor descriptor, got %s", btab[id].name, sv_describe(S, &d));
        if (id == B_DESC_LOAD) return sema_desc_load(S, p, d, req(S, p, id, &B, 1));
        sema_desc_store(S, p, d, req(S, p, id, &B, 1), req(S, p, id, &B, 2));
        return sv_none();
    }
    case B_TO_TENSOR:
        return want_tensor(S, p, req(S, p, id, &B, 0), "the argument");
    case B_POINTER_TYPE: {
        tt_dtype pt;
        tt_dtype dt = want_dtype(S, p, req(S, p, id, &B, 0), &pt);
        if (dt == TT_PTR) sema_error(S, p, "pointers to pointers are not supported");
        return sv_dtype(TT_PTR, dt);
    }
    case B_ATOMIC_ADD: case B_ATOMIC_MAX: case B_ATOMIC_MIN: case B_ATOMIC_AND:
    case B_ATOMIC_OR: case B_ATOMIC_XOR: case B_ATOMIC_XCHG: case B_ATOMIC_CAS:
        return atomic(S, p, id, &B);
    case B_PY_MIN:
    case B_PY_MAX: {
        sval t = B.a[0];
        if (t.n == 1 && t.items[0].k == V_TUPLE) t = t.items[0];
        if (t.n == 0) sema_error(S, p, "%s expected at least 1 argument", btab[id].name);
        sval r = t.items[0];
        for (int i = 1; i < t.n; i++) r = sema_minmax(S, p, id == B_PY_MAX, r, t.items[i]);
        return r;
    }
    case B_PY_LEN: {
        sval x = req(S, p, id, &B, 0);
        if (x.k == V_TUPLE) return sv_int(x.n);
        if (x.k == V_STR) return sv_int((int64_t)strlen(x.s));
        if (x.k == V_TENSOR && sv_shape(S, &x)->rank) return sv_int(sv_shape(S, &x)->shape[0]);
        sema_error(S, p, "len() of %s", sv_describe(S, &x));
    }
    case B_PY_INT: {
        sval x = req(S, p, id, &B, 0);
        if (x.k == V_INT || x.k == V_BOOL) return sv_int(x.i);
        if (x.k == V_FLOAT && isfinite(x.f) && fabs(x.f) < 9.2e18) return sv_int((int64_t)x.f);
        if (x.k == V_TENSOR) return sema_cast(S, p, x, TT_I32, 0, false);
        sema_error(S, p, "int() of %s", sv_describe(S, &x));
    }
    case B_PY_FLOAT: {
        sval x = req(S, p, id, &B, 0);
        if (x.k == V_INT || x.k == V_BOOL) return sv_float((double)x.i);
        if (x.k == V_FLOAT) return x;
        if (x.k == V_STR) {
            const char *s = x.s;
            if (!strcmp(s, "inf") || !strcmp(s, "+inf") || !strcmp(s, "infinity")) return sv_float(INFINITY);
            if (!strcmp(s, "-inf") || !strcmp(s, "-infinity")) return sv_float(-INFINITY);
            if (!strcmp(s, "nan")) return sv_float(NAN);
            char *end;
            double d = strtod(s, &end);
            if (*s && !*end) return sv_float(d);
        }
        if (x.k == V_TENSOR) return sema_cast(S, p, x, TT_F32, 0, false);
        sema_error(S, p, "float() of %s", sv_describe(S, &x));
    }
    case B_PY_BOOL: {
        sval x = req(S, p, id, &B, 0);
        if (x.k == V_TENSOR) return sema_cast(S, p, x, TT_BOOL, 0, false);
        return sv_bool(sv_truthy(S, p, &x));
    }
    case B_PY_PRINT:
        sema_error(S, p, "print()/tl.device_print in kernels is not supported yet; use the debugger's print or display");
    case B_PY_ISINSTANCE:
        sema_error(S, p, "isinstance() is not supported yet");
    }
    sema_error(S, p, "%s() is not supported", id >= 0 && id < B_COUNT ? btab[id].name : "this function");
}
