/* sema_mem.c — tl.load, tl.store and the atomics: pointer tensors with
 * mask and `other`, block pointers, sem/scope strings (Triton 3.6
 * semantic.py load, store, atomic_*). */
#include "sema_builtin.h"

#include <string.h>

/* tl.load (semantic.py load): pointer tensors with mask/other, or block pointers */
sval sema_builtin_load(sema *S, src_pos p, const bargs *B)
{
    sval ptr = sema_arg_req(S, p, B, "pointer");
    if (ptr.k == V_BLOCKPTR) {
        if (sema_arg_has(B, "mask") || sema_arg_has(B, "other")) sema_error(S, p, "load: `mask` and `other` cannot be used with a block pointer; use boundary_check");
        return sema_bp_load(S, p, ptr, sema_arg(B, "boundary_check"), sema_arg(B, "padding_option"));
    }
    if (ptr.k != V_TENSOR || ptr.dt != TT_PTR) sema_error(S, p, "load: the pointer argument must be a pointer, got %s", sv_describe(S, &ptr));
    if (sema_arg_has(B, "boundary_check") || sema_arg_has(B, "padding_option")) sema_error(S, p, "load: boundary_check and padding_option apply only to block pointers, which are not supported yet");
    static const char *const strs[] = { "cache_modifier", "eviction_policy" };
    for (int i = 0; i < 2; i++)
        if (sema_arg_has(B, strs[i]) && sema_arg(B, strs[i]).k != V_STR)
            sema_error(S, p, "load: %s must be a string", strs[i]);
    sval mask = {0}, other = {0};
    if (sema_arg_has(B, "other") && !sema_arg_has(B, "mask")) sema_error(S, p, "load: `other` cannot be provided without `mask`");
    if (sema_arg_has(B, "mask")) {
        mask = sema_want_tensor(S, p, sema_arg(B, "mask"), "mask");
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
    if (sema_arg_has(B, "mask")) ops[n++] = mask.v;
    if (sema_arg_has(B, "other")) {
        other = sema_cast(S, p, sema_arg(B, "other"), ptr.pt, 0, false);
        other = sema_broadcast_to(S, p, other, rank, shape);
        ops[n++] = other.v;
    }
    sema_setloc(S, p);
    return sema_emit(S, IR_LOAD, sema_type(ptr.pt, 0, rank, shape), n, ops, ptr.pt, 0);
}

/* tl.store (semantic.py store) */
void sema_builtin_store(sema *S, src_pos p, const bargs *B)
{
    sval ptr = sema_arg_req(S, p, B, "pointer");
    if (ptr.k == V_BLOCKPTR) {
        if (sema_arg_has(B, "mask")) sema_error(S, p, "store: `mask` cannot be used with a block pointer; use boundary_check");
        sema_bp_store(S, p, ptr, sema_arg_req(S, p, B, "value"), sema_arg(B, "boundary_check"));
        return;
    }
    if (ptr.k != V_TENSOR || ptr.dt != TT_PTR) sema_error(S, p, "store: the pointer argument must be a pointer, got %s", sv_describe(S, &ptr));
    if (sema_arg_has(B, "boundary_check")) sema_error(S, p, "store: boundary_check applies only to block pointers, which are not supported yet");
    sval val = sema_arg_req(S, p, B, "value");
    sval mask = {0};
    if (sema_arg_has(B, "mask")) {
        mask = sema_want_tensor(S, p, sema_arg(B, "mask"), "mask");
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
    ir_value ops[3] = { ptr.v, val.v, sema_arg_has(B, "mask") ? mask.v : -1 };
    sema_setloc(S, p);
    ir_emit(&S->b, IR_STORE, 0, NULL, sema_arg_has(B, "mask") ? 3 : 2, ops);
    return;
}

/* tl.atomic_* (semantic.py atomic_*, atom_red_typechecking_impl) */
/* One tt.atomic_rmw of kind on ptr, val (already of ptr's shape and
 * pointee type), mask (-1: none). */
static sval emit_rmw(sema *S, int kind, sval ptr, sval val, ir_value mask, int64_t sem, int64_t scope)
{
    ir_value ops[3] = { ptr.v, val.v, mask };
    sval r = sema_emit(S, IR_ATOMIC_RMW, ir_value_type(S->fn, val.v), mask >= 0 ? 3 : 2, ops, val.dt, 0);
    ir_op *op = ir_def(S->fn, r.v);
    ir_attr_set(op, "rmw", kind);
    ir_attr_set(op, "sem", sem);
    ir_attr_set(op, "scope", scope);
    return r;
}

/* Float atomic_max/min as Triton lowers them (semantic.py atomic_max /
 * atomic_min): the value's bits as an integer, a signed max (min) where the
 * value is non-negative, an unsigned min (max) where its sign bit is set. */
static sval float_minmax(sema *S, src_pos p, bool is_max, sval ptr, sval val, sval mask, int64_t sem, int64_t scope)
{
    tt_dtype ft = ptr.pt, it = ft == TT_F32 ? TT_I32 : TT_I64, ut = ft == TT_F32 ? TT_U32 : TT_U64;
    const ir_type_info *pti = sv_shape(S, &ptr);
    int rank = pti->rank;
    int64_t shape[IR_MAX_RANK];
    memcpy(shape, pti->shape, sizeof shape);
    val = sema_broadcast_to(S, p, sema_cast(S, p, val, ft, 0, false), rank, shape);
    if (mask.k != V_NONE) {
        mask = sema_want_tensor(S, p, mask, "mask");
        if (mask.dt != TT_BOOL) sema_error(S, p, "mask must be a boolean tensor, got %s", sv_describe(S, &mask));
        mask = sema_broadcast_to(S, p, mask, rank, shape);
    }
    sval ival = sema_cast(S, p, val, it, 0, true), uval = sema_cast(S, p, val, ut, 0, true);
    sval iptr = sema_cast(S, p, ptr, TT_PTR, it, false), uptr = sema_cast(S, p, ptr, TT_PTR, ut, false);
    sval neg = sema_binop(S, p, "<", ival, sv_int(0));
    sval pos = sema_unop(S, p, "not", neg);
    sval mpos = mask.k == V_NONE ? pos : sema_binop(S, p, "&", mask, pos);
    sval mneg = mask.k == V_NONE ? neg : sema_binop(S, p, "&", mask, neg);
    sema_setloc(S, p);
    sval rpos = emit_rmw(S, is_max ? RMW_MAX : RMW_MIN, iptr, ival, mpos.v, sem, scope);
    sval rneg = emit_rmw(S, is_max ? RMW_UMIN : RMW_UMAX, uptr, uval, mneg.v, sem, scope);
    rneg = sema_cast(S, p, rneg, it, 0, true);
    ir_value sel[3] = { pos.v, rpos.v, rneg.v };
    sval r = sema_emit(S, IR_SELECT, ir_value_type(S->fn, rpos.v), 3, sel, it, 0);
    return sema_cast(S, p, r, ft, 0, true);
}

/* String argument `arg` (sem or scope) of B as its index among the IR's
 * names of that enum (ir_enum_names: SEM_*, SCOPE_*); dflt when it is
 * absent, or None where none_dflt; -1 for a string that names none. */
static int64_t enum_arg(sema *S, src_pos p, const bargs *B, const char *arg, int64_t dflt, bool none_dflt)
{
    if (!sema_arg_has(B, arg) || (none_dflt && sema_arg(B, arg).k == V_NONE)) return dflt;
    sval s = sema_arg(B, arg);
    if (s.k != V_STR) sema_error(S, p, "%s must be a string", arg);
    const char *const *names = ir_enum_names(arg, strlen(arg));
    for (int64_t i = 0; names[i]; i++)
        if (!strcmp(names[i], s.s)) return i;
    return -1;
}

sval sema_builtin_atomic(sema *S, src_pos p, int id, const bargs *B)
{
    sval ptr = sema_arg_req(S, p, B, "pointer");
    if (ptr.k != V_TENSOR || ptr.dt != TT_PTR) sema_error(S, p, "%s: the first argument must be a pointer", sema_builtin_name(id));
    bool cas = id == B_ATOMIC_CAS;
    sval val = sema_arg_req(S, p, B, "val");
    tt_dtype et = ptr.pt;
    int64_t sem = enum_arg(S, p, B, "sem", SEM_ACQ_REL, false);
    if (sem < 0) sema_error(S, p, "unknown sem '%s' (acq_rel, acquire, release, relaxed)", sema_arg(B, "sem").s);
    int64_t scope = enum_arg(S, p, B, "scope", SCOPE_GPU, false);
    if (scope < 0) sema_error(S, p, "unknown scope '%s' (gpu, cta, sys)", sema_arg(B, "scope").s);
    const ir_type_info *pti = sv_shape(S, &ptr);
    int rank = pti->rank;
    int64_t shape[IR_MAX_RANK];
    memcpy(shape, pti->shape, sizeof shape);
    val = sema_broadcast_to(S, p, sema_cast(S, p, val, et, 0, false), rank, shape);
    ir_type rt = sema_type(et, 0, rank, shape);
    sema_setloc(S, p);
    if (cas) {
        sval cmp = sema_broadcast_to(S, p, sema_cast(S, p, sema_arg_req(S, p, B, "cmp"), et, 0, false), rank, shape);
        ir_value ops[3] = { ptr.v, cmp.v, val.v };
        sval r = sema_emit(S, IR_ATOMIC_CAS, rt, 3, ops, et, 0);
        ir_attr_set(ir_def(S->fn, r.v), "sem", sem);
        ir_attr_set(ir_def(S->fn, r.v), "scope", scope);
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
    if (fl && (kind == RMW_MAX || kind == RMW_MIN)) {
        if (et != TT_F32 && et != TT_F64) sema_error(S, p, "%s not supported for dtype %s", sema_builtin_name(id), tt_dtype_triton_name(et));
        return float_minmax(S, p, kind == RMW_MAX, ptr, val, sema_arg_has(B, "mask") ? sema_arg(B, "mask") : sv_none(), sem, scope);
    }
    if (fl && kind != RMW_FADD && kind != RMW_XCHG)
        sema_error(S, p, "%s is not supported on floating-point pointers", sema_builtin_name(id));
    /* only add takes 16-bit floats; everything else needs 32 or 64 bits (semantic.py atom_red_typechecking_impl) */
    if (tt_dtype_bits(et) < 32 && !(kind == RMW_FADD && (et == TT_F16 || et == TT_BF16)))
        sema_error(S, p, "%s does not support %s pointers (32- or 64-bit elements only)", sema_builtin_name(id), tt_dtype_triton_name(et));
    ir_value ops[3] = { ptr.v, val.v, -1 };
    int n = 2;
    if (sema_arg_has(B, "mask")) {
        sval mask = sema_want_tensor(S, p, sema_arg(B, "mask"), "mask");
        if (mask.dt != TT_BOOL) sema_error(S, p, "mask must be a boolean tensor, got %s", sv_describe(S, &mask));
        ops[n++] = sema_broadcast_to(S, p, mask, rank, shape).v;
    }
    sema_setloc(S, p);
    sval r = sema_emit(S, IR_ATOMIC_RMW, rt, n, ops, et, 0);
    ir_op *op = ir_def(S->fn, r.v);
    ir_attr_set(op, "rmw", kind);
    ir_attr_set(op, "sem", sem);
    ir_attr_set(op, "scope", scope);
    return r;
}

/* The sem and scope arguments of Triton 3.9's atomic_load, atomic_store
 * and atomic_poll (semantic.py _str_to_sem, _str_to_scope; None takes
 * dflt and "gpu"); each allows only dflt and relaxed. */
static void sem_scope(sema *S, src_pos p, const bargs *B, const char *name, int64_t dflt, int64_t *sem, int64_t *scope)
{
    *sem = enum_arg(S, p, B, "sem", dflt, true);
    if (*sem < 0) sema_error(S, p, "Memory semantic %s not supported", sema_arg(B, "sem").s);
    if (*sem != dflt && *sem != SEM_RELAXED)
        sema_error(S, p, "%s only supports %s and relaxed semantics", name, ir_enum_names("sem", 3)[dflt]);
    *scope = enum_arg(S, p, B, "scope", SCOPE_GPU, true);
    if (*scope < 0) sema_error(S, p, "Memory scope %s not supported", sema_arg(B, "scope").s);
}

/* Triton 3.9's tl.atomic_load / tl.atomic_store (semantic.py atomic_load,
 * atomic_store): any integer or float element (int1 as int8); sem acquire
 * (load, default) or relaxed, release (store, default) or relaxed; scope
 * gpu, cta or sys; masked lanes are not performed (a masked load's value
 * is unspecified). Lowered to atomic RMWs on the element's bits, so every
 * back end has them: a load is an atomic or with 0 (it writes back what it
 * read), a store an atomic exchange whose result is dropped. */
sval sema_builtin_atomic_load_store(sema *S, src_pos p, int id, const bargs *B)
{
    bool load = id == B_ATOMIC_LOAD;
    const char *name = load ? "atomic_load" : "atomic_store";
    sval ptr = sema_arg_req(S, p, B, "pointer");
    if (ptr.k != V_TENSOR || ptr.dt != TT_PTR) sema_error(S, p, "Unsupported ptr type %s in `tl.%s`", sv_describe(S, &ptr), name);
    tt_dtype et = ptr.pt;
    if (!tt_dtype_is_int(et) && !tt_dtype_is_float(et))
        sema_error(S, p, "%s only supports integer and floating-point elements", name);
    int64_t sem, scope;
    sem_scope(S, p, B, name, load ? SEM_ACQUIRE : SEM_RELEASE, &sem, &scope);
    const ir_type_info *pti = sv_shape(S, &ptr);
    int rank = pti->rank;
    int64_t shape[IR_MAX_RANK];
    memcpy(shape, pti->shape, sizeof shape);
    tt_dtype st = et == TT_BOOL ? TT_I8 : et;       /* int1 is stored as int8 */
    int bits = tt_dtype_bits(st);
    tt_dtype it = bits == 8 ? TT_I8 : bits == 16 ? TT_I16 : bits == 32 ? TT_I32 : TT_I64;
    sval iptr = it == et ? ptr : sema_cast(S, p, ptr, TT_PTR, it, false);
    ir_value mask = -1;
    if (sema_arg_has(B, "mask") && sema_arg(B, "mask").k != V_NONE) {
        sval m = sema_to_tensor(S, p, sema_arg(B, "mask"));
        if (m.dt != TT_BOOL) sema_error(S, p, "mask must be a boolean tensor, got %s", sv_describe(S, &m));
        if (rank == 0 && sv_shape(S, &m)->rank > 0)
            sema_error(S, p, "Mask argument cannot be block type if pointer argument is not a block");
        mask = sema_broadcast_to(S, p, m, rank, shape).v;
    }
    sval v;
    if (load) {
        v = sema_const_tensor(S, p, 0, 0, it, rank, shape);
    } else {
        v = sema_to_tensor(S, p, sema_arg_req(S, p, B, "val"));
        if (rank == 0 && sv_shape(S, &v)->rank > 0)
            sema_error(S, p, "Value argument cannot be block type if pointer argument is not a block");
        v = sema_broadcast_to(S, p, sema_cast(S, p, v, st, 0, false), rank, shape);
        if (it != st) v = sema_cast(S, p, v, it, 0, true);
    }
    sema_setloc(S, p);
    sval r = emit_rmw(S, load ? RMW_OR : RMW_XCHG, iptr, v, mask, sem, scope);
    if (!load) return sv_none();
    if (et == TT_BOOL) return sema_cast(S, p, r, TT_BOOL, 0, false);
    return it == et ? r : sema_cast(S, p, r, et, 0, true);
}

/* Triton 3.9's tl.atomic_poll(pointer, expected_value, sem, scope,
 * timeout_ns) (semantic.py atomic_poll): 16-, 32- or 64-bit integer
 * elements; expected is cast to the element type and broadcast to the
 * pointer's shape; sem acquire (default) or relaxed; timeout_ns a
 * non-negative scalar integer or None (wait forever). The result is an
 * int1 tile of the pointer's shape: true where the value was seen. */
sval sema_builtin_atomic_poll(sema *S, src_pos p, const bargs *B)
{
    sval ptr = sema_arg_req(S, p, B, "pointer");
    if (ptr.k != V_TENSOR || ptr.dt != TT_PTR)
        sema_error(S, p, "Unsupported ptr type %s in `tl.atomic_poll`", sv_describe(S, &ptr));
    tt_dtype et = ptr.pt;
    int bits = tt_dtype_bits(et);
    if (!tt_dtype_is_int(et) || et == TT_BOOL || (bits != 16 && bits != 32 && bits != 64))
        sema_error(S, p, "atomic_poll only supports integer elements with width {16, 32, 64}");
    int64_t sem, scope;
    sem_scope(S, p, B, "atomic_poll", SEM_ACQUIRE, &sem, &scope);
    const ir_type_info *pti = sv_shape(S, &ptr);
    int rank = pti->rank;
    int64_t shape[IR_MAX_RANK];
    memcpy(shape, pti->shape, sizeof shape);
    sval ex = sema_to_tensor(S, p, sema_arg_req(S, p, B, "expected_value"));
    if (rank == 0 && sv_shape(S, &ex)->rank > 0)
        sema_error(S, p, "Value argument cannot be block type if pointer argument is not a block");
    ex = sema_broadcast_to(S, p, sema_cast(S, p, ex, et, 0, false), rank, shape);
    ir_value ops[3] = { ptr.v, ex.v, -1 };
    int n = 2;
    if (sema_arg_has(B, "timeout_ns") && sema_arg(B, "timeout_ns").k != V_NONE) {
        sval t = sema_arg(B, "timeout_ns");
        if (t.k == V_INT && t.i < 0) sema_error(S, p, "atomic_poll timeout_ns must be non-negative");
        t = sema_to_tensor(S, p, t);
        if (sv_shape(S, &t)->rank > 0 || !tt_dtype_is_int(t.dt) || t.dt == TT_BOOL)
            sema_error(S, p, "atomic_poll timeout_ns must be a scalar integer");
        ops[n++] = sema_cast(S, p, t, TT_I64, 0, false).v;   /* Triton casts to uint64: same bits */
    }
    sema_setloc(S, p);
    sval r = sema_emit(S, IR_ATOMIC_POLL, sema_type(TT_BOOL, 0, rank, shape), n, ops, TT_BOOL, 0);
    ir_attr_set(ir_def(S->fn, r.v), "sem", sem);
    ir_attr_set(ir_def(S->fn, r.v), "scope", scope);
    return r;
}
