/* sema_print.c — tl.device_print (and Python print), tl.device_assert (and
 * Python assert), tl.inline_asm_elementwise and tl.tuple, as Triton 3.6
 * has them (python/triton/language/core.py and semantic.py: device_print,
 * device_assert, inline_asm_elementwise). */
#include "sema_builtin.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* Python's string.printable */
static bool printable_ascii(const char *s)
{
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (!((c >= 0x20 && c < 0x7f) || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f')) return false;
    }
    return true;
}

/* tl.device_print(prefix, *args, hex=False); Python print(...) is the same
 * call. The prefix is adjusted as semantic.device_print does: it ends in
 * ": " when there are values, and a prefix longer than 2 starts with " ". */
static sval device_print(sema *S, src_pos p, const bargs *B)
{
    sval pre = sema_arg_req(S, p, B, "prefix");
    if (pre.k != V_STR) sema_error(S, p, "device_print: the prefix must be a string literal, got %s", sv_describe(S, &pre));
    if (!printable_ascii(pre.s)) sema_error(S, p, "device_print: the prefix \"%s\" is not an ascii string", pre.s);
    sval args = sema_arg(B, "args");
    int n = args.k == V_TUPLE ? args.n : 0;
    if (n > 64) sema_error(S, p, "device_print: tritium prints at most 64 values in one call, got %d", n);
    size_t len = strlen(pre.s);
    char *prefix = arena_alloc(S->a, len + 4);
    memcpy(prefix, pre.s, len + 1);
    if (n) {
        if (!len || prefix[len - 1] != ' ') { prefix[len++] = ' '; prefix[len] = 0; }
        if (len < 2 || strcmp(prefix + len - 2, ": ")) { prefix[len - 1] = ':'; prefix[len++] = ' '; prefix[len] = 0; }
    }
    if (len > 2 && prefix[0] != ' ') {
        memmove(prefix + 1, prefix, len + 1);
        prefix[0] = ' ';
    }
    ir_value *ops = arena_alloc(S->a, sizeof(ir_value) * (size_t)(n + 1));
    uint64_t sgn = 0;
    for (int i = 0; i < n; i++) {
        sval v = args.items[i];
        if (v.k != V_TENSOR && !sv_is_const(&v))
            sema_error(S, p, "device_print: value %d is %s; values must be tensors or numbers", i + 1, sv_describe(S, &v));
        v = sema_to_tensor(S, p, v);
        ops[i] = v.v;
        if (v.dt != TT_PTR && !tt_dtype_is_float(v.dt) && v.dt != TT_BOOL && tt_dtype_is_signed(v.dt)) sgn |= (uint64_t)1 << i;
    }
    sema_setloc(S, p);
    int at = ir_emit(&S->b, IR_PRINT, 0, NULL, n, ops);
    ir_op *op = ir_op_at(S->fn, S->b.region, at);
    ir_attr_set_str(S->fn, op, "prefix", prefix);
    ir_attr_set(op, "hex", sema_arg_bool(S, p, B, "hex", false));
    ir_attr_set(op, "signed", (int64_t)sgn);
    return sv_none();
}

sval sema_device_assert(sema *S, src_pos p, sval cond, sval msg, sval mask)
{
    if (!S->debug) return sv_none();   /* semantic.device_assert: only with debug */
    if (cond.k != V_TENSOR && !sv_is_const(&cond))
        sema_error(S, p, "device_assert: the condition is %s, not a tensor or a number", sv_describe(S, &cond));
    cond = sema_to_tensor(S, p, cond);
    if (cond.dt != TT_BOOL) cond = sema_binop(S, p, "!=", cond, sv_int(0));
    if (mask.k != V_NONE) {
        /* cond | ~mask: masked-off lanes pass */
        mask = sema_to_tensor(S, p, mask);
        if (mask.dt != TT_BOOL) mask = sema_binop(S, p, "!=", mask, sv_int(0));
        cond = sema_binop(S, p, "|", cond, sema_unop(S, p, "~", mask));
    }
    const char *text = msg.k == V_STR ? msg.s : msg.k == V_NONE ? "" : sv_describe(S, &msg);
    sema_setloc(S, p);
    int at = ir_emit(&S->b, IR_ASSERT, 0, NULL, 1, &cond.v);
    ir_attr_set_str(S->fn, ir_op_at(S->fn, S->b.region, at), "message", text);
    return sv_none();
}

/* tl.inline_asm_elementwise(asm, constraints, args, dtype, is_pure, pack):
 * the arguments are broadcast to one shape (without type promotion), one
 * result per dtype; a tuple of dtypes gives a tuple of tensors. */
static sval inline_asm(sema *S, src_pos p, const bargs *B)
{
    sval asm_ = sema_arg_req(S, p, B, "asm"), cons = sema_arg_req(S, p, B, "constraints");
    if (asm_.k != V_STR) sema_error(S, p, "inline_asm_elementwise: asm must be a string literal, got %s", sv_describe(S, &asm_));
    if (cons.k != V_STR)
        sema_error(S, p, "inline_asm_elementwise: constraints must be a string literal, got %s", sv_describe(S, &cons));
    sval args = sema_arg_req(S, p, B, "args");
    if (args.k != V_TUPLE) args = (sval){ .k = V_TUPLE, .n = 1, .items = &args, .v = -1 };
    sval dts = sema_arg_req(S, p, B, "dtype");
    bool multi = dts.k == V_TUPLE;
    int nres = multi ? dts.n : 1;
    if (nres < 1) sema_error(S, p, "inline_asm_elementwise: dtype must name at least one result type");
    if (nres > 64 || args.n > 64) sema_error(S, p, "inline_asm_elementwise: at most 64 arguments and 64 results");
    int64_t pack = sema_want_int(S, p, sema_arg_req(S, p, B, "pack"), "pack");
    if (pack < 1 || pack > 16 || (pack & (pack - 1)))
        sema_error(S, p, "inline_asm_elementwise: pack must be 1, 2, 4, 8 or 16, got %lld", (long long)pack);
    bool pure = sema_arg_bool(S, p, B, "is_pure", false);
    sval *xs = arena_alloc(S->a, sizeof(sval) * (size_t)(args.n + 1));
    for (int i = 0; i < args.n; i++) {
        if (args.items[i].k != V_TENSOR && !sv_is_const(&args.items[i]))
            sema_error(S, p, "inline_asm_elementwise: argument %d is %s, not a tensor", i, sv_describe(S, &args.items[i]));
        xs[i] = sema_to_tensor(S, p, args.items[i]);
    }
    for (int i = 1; i < args.n; i++) sema_broadcast_pair(S, p, &xs[0], &xs[i]);
    for (int i = 1; i < args.n; i++) sema_broadcast_pair(S, p, &xs[i], &xs[0]);
    int rank = 0;
    int64_t shape[IR_MAX_RANK];
    if (args.n) {
        const ir_type_info *ti = sv_shape(S, &xs[0]);
        rank = ti->rank;
        memcpy(shape, ti->shape, sizeof(int64_t) * (size_t)rank);
    }
    ir_type *types = arena_alloc(S->a, sizeof(ir_type) * (size_t)nres);
    tt_dtype *rdt = arena_alloc(S->a, sizeof(tt_dtype) * (size_t)nres);
    for (int i = 0; i < nres; i++) {
        rdt[i] = sema_want_dtype(S, p, multi ? dts.items[i] : dts, NULL);
        if (rdt[i] == TT_PTR) sema_error(S, p, "inline_asm_elementwise: results cannot be pointers");
        types[i] = sema_type(rdt[i], 0, rank, shape);
    }
    ir_value *ops = arena_alloc(S->a, sizeof(ir_value) * (size_t)(args.n + 1));
    for (int i = 0; i < args.n; i++) ops[i] = xs[i].v;
    sema_setloc(S, p);
    int at = ir_emit(&S->b, IR_INLINE_ASM, nres, types, args.n, ops);
    ir_op *op = ir_op_at(S->fn, S->b.region, at);
    ir_attr_set_str(S->fn, op, "asm_string", asm_.s);
    op = ir_op_at(S->fn, S->b.region, at);
    ir_attr_set_str(S->fn, op, "constraints", cons.s);
    ir_attr_set(op, "pure", pure);
    ir_attr_set(op, "packed_element", pack);
    ir_value res = op->res;
    if (!multi) return sv_tensor(res, rdt[0], 0);
    sval t = { .k = V_TUPLE, .n = nres, .v = -1 };
    t.items = arena_alloc(S->a, sizeof(sval) * (size_t)nres);
    for (int i = 0; i < nres; i++) t.items[i] = sv_tensor(res + i, rdt[i], 0);
    return t;
}

sval sema_builtin_debug(sema *S, src_pos p, int id, const bargs *B)
{
    switch (id) {
    case B_DEVICE_PRINT:
    case B_PY_PRINT:
        return device_print(S, p, B);
    case B_DEVICE_ASSERT:
        return sema_device_assert(S, p, sema_arg_req(S, p, B, "cond"), sema_arg(B, "msg"), sema_arg(B, "mask"));
    case B_INLINE_ASM:
        return inline_asm(S, p, B);
    case B_TUPLE: {
        /* tl.tuple(iterable): the values of a tuple or list as a tuple */
        sval v = sema_arg(B, "args");
        if (v.k == V_NONE) return (sval){ .k = V_TUPLE, .n = 0, .v = -1 };
        if (v.k != V_TUPLE) sema_error(S, p, "tl.tuple: expected a tuple or list, got %s", sv_describe(S, &v));
        return v;
    }
    default:
        die("sema_builtin_debug: builtin %d", id);
    }
}

bool sema_debug_enabled(const char *env)
{
    return env && (!strcmp(env, "1") || !strcasecmp(env, "true") || !strcasecmp(env, "on"));
}

/* Python's str() of a compile-time value, as print shows it; tensors as
 * Triton's tensor.__str__ ("fp32[constexpr[16], constexpr[32]]"). */
void sema_py_str(sema *S, strbuf *b, const sval *v, bool repr)
{
    switch (v->k) {
    case V_INT: sb_printf(b, "%lld", (long long)v->i); return;
    case V_BOOL: sb_printf(b, "%s", v->i ? "True" : "False"); return;
    case V_NONE: sb_printf(b, "None"); return;
    case V_STR: sb_printf(b, repr ? "'%s'" : "%s", v->s); return;
    case V_FLOAT: {
        double f = v->f;
        if (f != f) { sb_printf(b, "nan"); return; }
        if (f == INFINITY || f == -INFINITY) { sb_printf(b, "%sinf", f < 0 ? "-" : ""); return; }
        char buf[40];
        for (int prec = 1; prec <= 17; prec++) {   /* repr: the shortest text that reads back */
            snprintf(buf, sizeof buf, "%.*g", prec, f);
            if (strtod(buf, NULL) == f) break;
        }
        sb_printf(b, "%s%s", buf, strpbrk(buf, ".en") ? "" : ".0");
        return;
    }
    case V_DTYPE:
        if (v->dt == TT_PTR) sb_printf(b, "pointer<%s>", tt_dtype_triton_name(v->pt));
        else sb_printf(b, "%s", tt_dtype_triton_name(v->dt));
        return;
    case V_TUPLE:
        sb_printf(b, "(");
        for (int i = 0; i < v->n; i++) {
            if (i) sb_printf(b, ", ");
            sema_py_str(S, b, &v->items[i], true);
        }
        sb_printf(b, v->n == 1 ? ",)" : ")");
        return;
    case V_TENSOR: {
        const ir_type_info *t = sv_shape(S, v);
        if (v->dt == TT_PTR) sb_printf(b, "pointer<%s>[", tt_dtype_triton_name(v->pt));
        else sb_printf(b, "%s[", tt_dtype_triton_name(v->dt));
        for (int i = 0; i < t->rank; i++) sb_printf(b, "%sconstexpr[%lld]", i ? ", " : "", (long long)t->shape[i]);
        sb_printf(b, "]");
        return;
    }
    default:
        sb_printf(b, "%s", sv_describe(S, v));
        return;
    }
}

void sema_static_print(sema *S, src_pos p, const bargs *B)
{
    sval t = sema_arg(B, "values"), sep = sema_arg(B, "sep"), end = sema_arg(B, "end");
    if (sep.k != V_NONE && sep.k != V_STR) sema_error(S, p, "static_print: sep must be None or a string");
    if (end.k != V_NONE && end.k != V_STR) sema_error(S, p, "static_print: end must be None or a string");
    strbuf b = { 0 };
    for (int i = 0; t.k == V_TUPLE && i < t.n; i++) {
        if (i) sb_printf(&b, "%s", sep.k == V_STR ? sep.s : " ");
        sema_py_str(S, &b, &t.items[i], false);
    }
    sb_printf(&b, "%s", end.k == V_STR ? end.s : "\n");
    fputs(b.s, stdout);
    fflush(stdout);
    sb_free(&b);
}
