/* test_verify.c — the verifier: every planted mistake is reported once,
 * with the op's name and its source position. */
#include <stdio.h>
#include <string.h>
#include "tir.h"

typedef struct kfix {
    ir_func *f;
    ir_builder b;
    ir_value x_ptr, n, flag, l;    /* !tt.ptr<f32>, i32, i1, i64 */
    ir_type t64, f64t, b64, p64;
    bool no_return;
} kfix;

static int src_file;

static void kstart(kfix *k)
{
    if (!src_file) src_file = diag_add_source("bad.py", "");
    memset(k, 0, sizeof *k);
    k->f = ir_func_new("bad");
    k->x_ptr = ir_add_arg(k->f, "x_ptr", ir_ptr(F32), TT_F32, true);
    k->n = ir_add_arg(k->f, "n", I32, TT_I32, false);
    k->flag = ir_add_arg(k->f, "flag", I1, TT_BOOL, false);
    k->l = ir_add_arg(k->f, "l", I64, TT_I64, false);
    k->b = (ir_builder){ k->f, IR_BODY, ir_add_loc(k->f, src_file, 1, 1, -1, NULL) };
    k->t64 = tensor1(I32, 64);
    k->f64t = tensor1(F32, 64);
    k->b64 = tensor1(I1, 64);
    k->p64 = tensor1(ir_ptr(F32), 64);
}

/* Mark the next op as the planted one: it gets line 42, column 7. */
static void here(kfix *k) { k->b.loc = ir_add_loc(k->f, src_file, 42, 7, -1, NULL); }
static void away(kfix *k) { k->b.loc = ir_add_loc(k->f, src_file, 1, 1, -1, NULL); }

static ir_value range64(kfix *k)
{
    ir_value r = op1(&k->b, IR_MAKE_RANGE, k->t64, 0);
    set_attr(k->f, r, 1, 64);
    return r;
}

static ir_value fvec(kfix *k) { return ir_const_float(&k->b, k->f64t, 1.0); }
static ir_value ptrs(kfix *k)
{
    ir_value s = op1(&k->b, IR_SPLAT, k->p64, 1, k->x_ptr);
    return op1(&k->b, IR_ADDPTR, k->p64, 2, s, range64(k));
}

/* ---- planted mistakes ---- */

static void p_int_op_on_float(kfix *k) { ir_value v = fvec(k); here(k); op1(&k->b, IR_ADDI, k->f64t, 2, v, v); }
static void p_float_op_on_int(kfix *k) { here(k); op1(&k->b, IR_MULF, I32, 2, k->n, k->n); }
static void p_use_before_def(kfix *k)
{
    here(k);
    ir_value a = op1(&k->b, IR_ADDI, I32, 2, k->n, k->n);
    away(k);
    ir_value later = op1(&k->b, IR_MULI, I32, 2, k->n, k->n);
    ir_value_set_name(k->f, later, "later");
    ir_def(k->f, a)->opnd[1] = later;
}
static void p_shape_mismatch(kfix *k)
{
    ir_value a = fvec(k), b = ir_const_float(&k->b, tensor1(F32, 32), 2.0);
    here(k);
    op1(&k->b, IR_ADDF, k->f64t, 2, a, b);
}
static void p_load_mask(kfix *k)
{
    ir_value p = ptrs(k), m = range64(k);
    here(k);
    op1(&k->b, IR_LOAD, k->f64t, 2, p, m);
}
static void p_load_result(kfix *k)
{
    ir_value p = ptrs(k);
    here(k);
    op1(&k->b, IR_LOAD, tensor1(F16, 64), 1, p);
}
static void p_load_other(kfix *k)
{
    ir_value p = ptrs(k), m = op1(&k->b, IR_CMPI, k->b64, 2, range64(k), range64(k));
    ir_value o = ir_const_float(&k->b, F32, 0.0);
    here(k);
    op1(&k->b, IR_LOAD, k->f64t, 3, p, m, o);
}
static void p_load_desc_base(kfix *k)
{
    ir_value p = ptrs(k), m = op1(&k->b, IR_CMPI, k->b64, 2, range64(k), range64(k));
    ir_value o = ir_const_float(&k->b, k->f64t, 0.0), base = ir_const_int(&k->b, I32, 0), off = ir_const_int(&k->b, I32, 0);
    ir_value sh = ir_const_int(&k->b, I64, 64), st = ir_const_int(&k->b, I64, 1);
    here(k);
    op1(&k->b, IR_LOAD, k->f64t, 7, p, m, o, base, off, sh, st);
}
/* a descriptor's shape is i64 (ops.def, tt.load "desc") */
static void p_load_desc_shape(kfix *k)
{
    ir_value p = ptrs(k), m = op1(&k->b, IR_CMPI, k->b64, 2, range64(k), range64(k));
    ir_value o = ir_const_float(&k->b, k->f64t, 0.0), off = ir_const_int(&k->b, I32, 0);
    ir_value st = ir_const_int(&k->b, I64, 1);
    here(k);
    op1(&k->b, IR_LOAD, k->f64t, 7, p, m, o, k->x_ptr, off, off, st);
}
/* base and offsets without the shape and strides */
static void p_load_desc_count(kfix *k)
{
    ir_value p = ptrs(k), m = op1(&k->b, IR_CMPI, k->b64, 2, range64(k), range64(k));
    ir_value o = ir_const_float(&k->b, k->f64t, 0.0), off = ir_const_int(&k->b, I32, 0);
    here(k);
    op1(&k->b, IR_LOAD, k->f64t, 5, p, m, o, k->x_ptr, off);
}
static void p_store_value(kfix *k)
{
    ir_value p = ptrs(k), v = ir_const_float(&k->b, tensor1(F16, 64), 1.0);
    here(k);
    op0(&k->b, IR_STORE, 2, p, v);
}
static void p_range_pow2(kfix *k)
{
    here(k);
    ir_value r = op1(&k->b, IR_MAKE_RANGE, tensor1(I32, 48), 0);
    set_attr(k->f, r, 1, 48);
}
static void p_range_numel(kfix *k)
{
    here(k);
    ir_value r = op1(&k->b, IR_MAKE_RANGE, tensor1(I32, 64), 0);
    set_attr(k->f, r, 1, 32);
}
static void p_dot_inner(kfix *k)
{
    ir_value a = ir_const_float(&k->b, tensor2(F16, 16, 32), 1.0);
    ir_value b = ir_const_float(&k->b, tensor2(F16, 16, 16), 1.0);
    ir_value c = ir_const_float(&k->b, tensor2(F32, 16, 16), 0.0);
    here(k);
    op1(&k->b, IR_DOT, tensor2(F32, 16, 16), 3, a, b, c);
}
static void p_dot_int_acc(kfix *k)
{
    ir_value a = ir_const_int(&k->b, tensor2(I8, 16, 16), 1);
    ir_value c = ir_const_float(&k->b, tensor2(F32, 16, 16), 0.0);
    here(k);
    op1(&k->b, IR_DOT, tensor2(F32, 16, 16), 3, a, a, c);
}
static void p_reduce_axis(kfix *k)
{
    ir_value v = fvec(k);
    here(k);
    ir_value r = op1(&k->b, IR_REDUCE, F32, 1, v);
    set_attr(k->f, r, 0, 1);
}
static void p_reduce_result(kfix *k)
{
    ir_value v = fvec(k);
    here(k);
    ir_value r = op1(&k->b, IR_REDUCE, F32, 1, v);
    set_attr(k->f, r, 1, RED_ARGMAX);
}
static void p_reduce_xor_float(kfix *k)
{
    ir_value v = fvec(k);
    here(k);
    ir_value r = op1(&k->b, IR_REDUCE, F32, 1, v);
    set_attr(k->f, r, 1, RED_XOR);
}
static void p_trans_perm(kfix *k)
{
    ir_value v = ir_const_float(&k->b, tensor2(F32, 4, 8), 1.0);
    here(k);
    ir_value t = op1(&k->b, IR_TRANS, tensor2(F32, 8, 4), 1, v);
    set_attr(k->f, t, 0, ir_attr_array(k->f, 2, (int64_t[]){ 0, 0 }));
}
static void p_trans_shape(kfix *k)
{
    ir_value v = ir_const_float(&k->b, tensor2(F32, 4, 8), 1.0);
    here(k);
    ir_value t = op1(&k->b, IR_TRANS, tensor2(F32, 4, 8), 1, v);
    set_attr(k->f, t, 0, ir_attr_array(k->f, 2, (int64_t[]){ 1, 0 }));
}
static void p_extsi_narrow(kfix *k) { here(k); op1(&k->b, IR_EXTSI, I32, 1, k->l); }
static void p_truncf_widen(kfix *k)
{
    ir_value h = ir_const_float(&k->b, F16, 1.0);
    here(k);
    op1(&k->b, IR_TRUNCF, F32, 1, h);
}
static void p_extf_same_width(kfix *k)
{
    ir_value h = ir_const_float(&k->b, F16, 1.0);
    here(k);
    op1(&k->b, IR_EXTF, BF16, 1, h);
}
static void p_sitofp_from_float(kfix *k)
{
    ir_value h = ir_const_float(&k->b, F32, 1.0);
    here(k);
    op1(&k->b, IR_SITOFP, F32, 1, h);
}
static void p_cmpi_result(kfix *k) { here(k); ir_value c = op1(&k->b, IR_CMPI, I32, 2, k->n, k->n); (void)c; }
static void p_cmpf_on_int(kfix *k) { here(k); op1(&k->b, IR_CMPF, I1, 2, k->n, k->n); }
static void p_splat_tensor(kfix *k)
{
    ir_value r = range64(k);
    here(k);
    op1(&k->b, IR_SPLAT, tensor2(I32, 64, 2), 1, r);
}
static void p_splat_elem(kfix *k) { here(k); op1(&k->b, IR_SPLAT, tensor1(I64, 8), 1, k->n); }
static void p_broadcast(kfix *k)
{
    ir_value v = ir_const_int(&k->b, tensor2(I32, 64, 2), 0);
    here(k);
    op1(&k->b, IR_BROADCAST, tensor2(I32, 64, 32), 1, v);
}
static void p_expand_axis(kfix *k)
{
    ir_value r = range64(k);
    here(k);
    ir_value e = op1(&k->b, IR_EXPAND_DIMS, tensor2(I32, 64, 1), 1, r);
    set_attr(k->f, e, 0, 3);
}
static void p_reshape_numel(kfix *k)
{
    ir_value r = range64(k);
    here(k);
    op1(&k->b, IR_RESHAPE, tensor2(I32, 8, 4), 1, r);
}
static void p_select_cond(kfix *k) { here(k); op1(&k->b, IR_SELECT, I32, 3, k->n, k->n, k->n); }
static void p_addptr_float(kfix *k)
{
    ir_value v = ir_const_float(&k->b, F32, 1.0);
    here(k);
    op1(&k->b, IR_ADDPTR, ir_ptr(F32), 2, k->x_ptr, v);
}
static void p_const_range(kfix *k) { here(k); ir_const_int(&k->b, I8, 300); }
static void p_pid_axis(kfix *k)
{
    here(k);
    ir_value p = op1(&k->b, IR_GET_PID, I32, 0);
    set_attr(k->f, p, 0, 3);
}
static void p_pid_type(kfix *k) { here(k); op1(&k->b, IR_GET_PID, I64, 0); }
static void p_exp_f16(kfix *k)
{
    ir_value h = ir_const_float(&k->b, F16, 1.0);
    here(k);
    op1(&k->b, IR_EXP, F16, 1, h);
}
static void p_operand_count(kfix *k) { here(k); op1(&k->b, IR_ADDI, I32, 3, k->n, k->n, k->n); }
static void p_enum_range(kfix *k)
{
    here(k);
    ir_value c = op1(&k->b, IR_CMPI, I1, 2, k->n, k->n);
    set_attr(k->f, c, 0, 42);
}
static void p_atomic_fadd_int(kfix *k)
{
    ir_value p = op1(&k->b, IR_SPLAT, tensor1(ir_ptr(I32), 64), 1,
                     ir_add_arg(k->f, "ip", ir_ptr(I32), TT_I32, true));
    here(k);
    ir_value a = op1(&k->b, IR_ATOMIC_RMW, k->t64, 2, p, range64(k));
    set_attr(k->f, a, 0, RMW_FADD);
}
static void p_int_to_ptr_i32(kfix *k) { here(k); op1(&k->b, IR_INT_TO_PTR, ir_ptr(F32), 1, k->n); }
static void p_bitcast_width(kfix *k) { here(k); op1(&k->b, IR_BITCAST, F64, 1, k->n); }

/* scf.for with `n` carried i32 values; the body is left open for the caller. */
static int for_loop(kfix *k, int nres, ir_type *res, int32_t *body, int nbody, ir_type *btypes)
{
    ir_value ops[5] = { k->n, k->n, k->n, k->n, k->n };
    int idx = ir_emit(&k->b, IR_FOR, nres, res, 3 + nres, ops);
    *body = ir_new_region(k->f, nbody, btypes);
    ir_op_add_region(k->f, k->b.region, idx, *body);
    return idx;
}
static void p_for_missing_yield(kfix *k)
{
    int32_t body;
    here(k);
    for_loop(k, 0, NULL, &body, 1, &I32);
    ir_builder bb = { k->f, body, k->b.loc };
    op1(&bb, IR_ADDI, I32, 2, k->n, k->n);
}
static void p_for_yield_type(kfix *k)
{
    int32_t body;
    here(k);
    for_loop(k, 1, &I32, &body, 2, (ir_type[]){ I32, I32 });
    ir_builder bb = { k->f, body, k->b.loc };
    op0(&bb, IR_YIELD, 1, k->l);
}
static void p_for_body_args(kfix *k)
{
    int32_t body;
    here(k);
    for_loop(k, 1, &I32, &body, 1, &I32);
    ir_builder bb = { k->f, body, k->b.loc };
    op0(&bb, IR_YIELD, 1, k->n);
}
static void p_for_results(kfix *k)
{
    int32_t body;
    here(k);
    ir_value ops[4] = { k->n, k->n, k->n, k->n };
    int idx = ir_emit(&k->b, IR_FOR, 1, &I64, 4, ops);
    body = ir_new_region(k->f, 2, (ir_type[]){ I32, I32 });
    ir_op_add_region(k->f, IR_BODY, idx, body);
    ir_builder bb = { k->f, body, k->b.loc };
    op0(&bb, IR_YIELD, 1, k->n);
}
static void p_for_bounds(kfix *k)
{
    int32_t body;
    here(k);
    ir_value ops[3] = { k->n, k->l, k->n };
    int idx = ir_emit(&k->b, IR_FOR, 0, NULL, 3, ops);
    body = ir_new_region(k->f, 1, &I32);
    ir_op_add_region(k->f, IR_BODY, idx, body);
    ir_builder bb = { k->f, body, k->b.loc };
    op0(&bb, IR_YIELD, 0);
}
static void p_terminator_middle(kfix *k)
{
    int32_t body;
    for_loop(k, 0, NULL, &body, 1, &I32);
    ir_builder bb = { k->f, body, k->b.loc };
    here(k);
    bb.loc = k->b.loc;
    op0(&bb, IR_YIELD, 0);
    away(k);
    bb.loc = k->b.loc;
    op1(&bb, IR_ADDI, I32, 2, k->n, k->n);
    op0(&bb, IR_YIELD, 0);
}
static void p_return_in_loop(kfix *k)
{
    int32_t body;
    for_loop(k, 0, NULL, &body, 1, &I32);
    here(k);
    ir_builder bb = { k->f, body, k->b.loc };
    op0(&bb, IR_RETURN, 0);
    away(k);
}
static void p_yield_in_body(kfix *k) { here(k); op0(&k->b, IR_YIELD, 0); k->no_return = true; }
static void p_missing_return(kfix *k) { here(k); op1(&k->b, IR_ADDI, I32, 2, k->n, k->n); k->no_return = true; }

static int if_op(kfix *k, ir_value cond, int nres, ir_type *res, int32_t *then, int32_t *els)
{
    int idx = ir_emit(&k->b, IR_IF, nres, res, 1, &cond);
    *then = ir_new_region(k->f, 0, NULL);
    *els = ir_new_region(k->f, 0, NULL);
    ir_op_add_region(k->f, k->b.region, idx, *then);
    ir_op_add_region(k->f, k->b.region, idx, *els);
    return idx;
}
static void p_if_cond(kfix *k)
{
    int32_t t, e;
    here(k);
    if_op(k, k->n, 0, NULL, &t, &e);
    op0(&(ir_builder){ k->f, t, k->b.loc }, IR_YIELD, 0);
    op0(&(ir_builder){ k->f, e, k->b.loc }, IR_YIELD, 0);
}
static void p_if_else_yield(kfix *k)
{
    int32_t t, e;
    here(k);
    if_op(k, k->flag, 1, &I32, &t, &e);
    op0(&(ir_builder){ k->f, t, k->b.loc }, IR_YIELD, 1, k->n);
    op0(&(ir_builder){ k->f, e, k->b.loc }, IR_YIELD, 0);
}
static void p_if_sibling_value(kfix *k)
{
    int32_t t, e;
    away(k);
    if_op(k, k->flag, 1, &I32, &t, &e);
    ir_builder bt = { k->f, t, k->b.loc };
    ir_value v = op1(&bt, IR_ADDI, I32, 2, k->n, k->n);
    ir_value_set_name(k->f, v, "inner");
    op0(&bt, IR_YIELD, 1, v);
    here(k);
    op0(&(ir_builder){ k->f, e, k->b.loc }, IR_YIELD, 1, v);
}
static void p_if_own_result(kfix *k)
{
    int32_t t, e;
    away(k);
    int idx = if_op(k, k->flag, 1, &I32, &t, &e);
    ir_value r = ir_op_at(k->f, IR_BODY, idx)->res;
    op0(&(ir_builder){ k->f, t, k->b.loc }, IR_YIELD, 1, k->n);
    here(k);
    op0(&(ir_builder){ k->f, e, k->b.loc }, IR_YIELD, 1, r);
}
static void p_while_mismatch(kfix *k)
{
    here(k);
    int idx = ir_emit(&k->b, IR_WHILE, 1, &I64, 1, &k->n);
    int32_t before = ir_new_region(k->f, 1, &I32), after = ir_new_region(k->f, 1, &I64);
    ir_op_add_region(k->f, IR_BODY, idx, before);
    ir_op_add_region(k->f, IR_BODY, idx, after);
    ir_value x = k->f->regions.v[before].args[0];
    op0(&(ir_builder){ k->f, before, k->b.loc }, IR_CONDITION, 2, k->flag, x);   /* forwards i32, results say i64 */
    op0(&(ir_builder){ k->f, after, k->b.loc }, IR_YIELD, 1, k->n);
}
static void p_while_cond_type(kfix *k)
{
    here(k);
    int idx = ir_emit(&k->b, IR_WHILE, 0, NULL, 0, NULL);
    int32_t before = ir_new_region(k->f, 0, NULL), after = ir_new_region(k->f, 0, NULL);
    ir_op_add_region(k->f, IR_BODY, idx, before);
    ir_op_add_region(k->f, IR_BODY, idx, after);
    op0(&(ir_builder){ k->f, before, k->b.loc }, IR_CONDITION, 1, k->n);
    op0(&(ir_builder){ k->f, after, k->b.loc }, IR_YIELD, 0);
}
static void p_condition_outside_while(kfix *k)
{
    int32_t body;
    for_loop(k, 0, NULL, &body, 1, &I32);
    here(k);
    op0(&(ir_builder){ k->f, body, k->b.loc }, IR_CONDITION, 1, k->flag);
    away(k);
}

static const struct plant {
    const char *name;
    void (*fn)(kfix *);
    const char *want;              /* message after "bad.py:42:7: error: " */
} plants[] = {
    { "int op on float", p_int_op_on_float, "arith.addi: operands and result must be one integer type, got tensor<64xf32>" },
    { "float op on int", p_float_op_on_int, "arith.mulf: operands and result must be one float type" },
    { "use before def", p_use_before_def, "arith.addi: operand 1 ('later') is used before its definition" },
    { "shape mismatch", p_shape_mismatch, "arith.addf: operand 1 has type tensor<32xf32>, expected the shape of tensor<64xf32>" },
    { "load mask", p_load_mask, "tt.load: mask must be tensor<64xi1>, got tensor<64xi32>" },
    { "load result", p_load_result, "tt.load: result must be tensor<64xf32>, got tensor<64xf16>" },
    { "load other", p_load_other, "tt.load: other must be tensor<64xf32>, got f32" },
    { "load desc base", p_load_desc_base, "tt.load: the descriptor's base must be a scalar !tt.ptr<f32>, got i32" },
    { "load desc shape", p_load_desc_shape, "tt.load: descriptor shape 0 must be i64, got i32" },
    { "load desc count", p_load_desc_count,
      "tt.load: a descriptor load takes a base, 1 offsets, 1 shapes and 1 strides, got 2 operands" },
    { "store value", p_store_value, "tt.store: stored value must be tensor<64xf32>, got tensor<64xf16>" },
    { "range pow2", p_range_pow2, "tt.make_range: range size 48 is not a power of two" },
    { "range numel", p_range_numel, "tt.make_range: end - start = 32 but the result has 64 elements" },
    { "dot inner", p_dot_inner, "tt.dot: inner dimensions differ" },
    { "dot int acc", p_dot_int_acc, "tt.dot: accumulator of an integer dot must be i32" },
    { "reduce axis", p_reduce_axis, "tt.reduce: axis 1 out of range for tensor<64xf32>" },
    { "reduce argmax", p_reduce_result, "tt.reduce: result must be i32, got f32" },
    { "reduce xor", p_reduce_xor_float, "tt.reduce: this reduction needs integers" },
    { "trans perm", p_trans_perm, "tt.trans: order is not a permutation of 0..1" },
    { "trans shape", p_trans_shape, "tt.trans: result tensor<4x8xf32> is not tensor<4x8xf32> transposed" },
    { "extsi narrow", p_extsi_narrow, "arith.extsi: must widen: i64 -> i32" },
    { "truncf widen", p_truncf_widen, "arith.truncf: must narrow: f16 -> f32" },
    { "extf f16->bf16", p_extf_same_width, "arith.extf: must widen: f16 -> bf16" },
    { "sitofp float", p_sitofp_from_float, "arith.sitofp: must convert an integer to a float" },
    { "cmpi result", p_cmpi_result, "arith.cmpi: result must be i1, got i32" },
    { "cmpf int", p_cmpf_on_int, "arith.cmpf: operands must be floats of one type" },
    { "splat tensor", p_splat_tensor, "tt.splat: operand must be a scalar" },
    { "splat elem", p_splat_elem, "tt.splat: result tensor<8xi64> is not a tensor of i32" },
    { "broadcast", p_broadcast, "tt.broadcast: cannot broadcast tensor<64x2xi32> to tensor<64x32xi32> (dimension 1)" },
    { "expand axis", p_expand_axis, "tt.expand_dims: axis 3 out of range for tensor<64xi32>" },
    { "reshape numel", p_reshape_numel, "tt.reshape: cannot reshape tensor<64xi32> (64 elements) to tensor<8x4xi32>" },
    { "select cond", p_select_cond, "arith.select: condition must be i1, got i32" },
    { "addptr float", p_addptr_float, "tt.addptr: offset must be an integer, got f32" },
    { "const range", p_const_range, "arith.constant: value 300 does not fit i8" },
    { "pid axis", p_pid_axis, "tt.get_program_id: axis must be 0, 1 or 2, got 3" },
    { "pid type", p_pid_type, "tt.get_program_id: result must be i32, got i64" },
    { "exp f16", p_exp_f16, "math.exp: operand and result types match no variant: expected (f32) -> f32 or (f64) -> f64" },
    { "operand count", p_operand_count, "arith.addi: has 3 operands, expected 2..2" },
    { "enum range", p_enum_range, "arith.cmpi: attribute 'predicate' = 42 is not a valid cmpi value" },
    { "atomic fadd int", p_atomic_fadd_int, "tt.atomic_rmw: fadd needs a float pointee, got tensor<64xi32>" },
    { "int_to_ptr i32", p_int_to_ptr_i32, "tt.int_to_ptr: operand must be i64, got i32" },
    { "bitcast width", p_bitcast_width, "tt.bitcast: bit widths differ: i32 vs f64" },
    { "for missing yield", p_for_missing_yield, "scf.for: the loop body must end with scf.yield" },
    { "for yield type", p_for_yield_type, "scf.for: the loop body: scf.yield value 0 has type i64, expected i32" },
    { "for body args", p_for_body_args, "scf.for: the loop body has 1 argument, expected 2" },
    { "for results", p_for_results, "scf.for: result 0 has type i64, expected i32" },
    { "for bounds", p_for_bounds, "scf.for: lower bound, upper bound and step must have one type" },
    { "terminator middle", p_terminator_middle, "scf.yield: a terminator must be the last op of its region" },
    { "return in loop", p_return_in_loop, "tt.return: tt.return is only allowed at the end of the function body" },
    { "yield in body", p_yield_in_body, "scf.yield: scf.yield must end a region of scf.for, scf.if or scf.while" },
    { "missing return", p_missing_return, "arith.addi: the function body must end with tt.return" },
    { "if cond", p_if_cond, "scf.if: condition must be an i1 scalar, got i32" },
    { "if else yield", p_if_else_yield, "scf.if: the else region: scf.yield passes 0 values, expected 1" },
    { "if sibling value", p_if_sibling_value, "scf.yield: operand 0 ('inner') is defined in a region that does not enclose this use" },
    { "if own result", p_if_own_result, "scf.yield: operand 0 (value " },
    { "while mismatch", p_while_mismatch, "scf.while: the before region: scf.condition value 0 has type i32, expected i64" },
    { "while cond type", p_while_cond_type, "scf.while: scf.condition's condition must be an i1 scalar, got i32" },
    { "condition outside while", p_condition_outside_while, "scf.condition: scf.condition must end the first region of scf.while" },
};

START_TEST(planted_mistakes)
{
    strbuf fails = { 0 };
    for (size_t i = 0; i < TT_COUNTOF(plants); i++) {
        kfix k;
        kstart(&k);
        plants[i].fn(&k);
        away(&k);
        if (!k.no_return) op0(&k.b, IR_RETURN, 0);
        capture_begin();
        int errs = ir_verify(k.f);
        char *msgs = capture_end();
        char *want = xasprintf("bad.py:42:7: error: %s", plants[i].want);
        if (errs < 1) sb_printf(&fails, "%s: not caught\n", plants[i].name);
        else if (!strstr(msgs, want)) sb_printf(&fails, "%s: got\n%swant %s\n", plants[i].name, msgs, want);
        free(want);
        free(msgs);
        ir_func_free(k.f);
    }
    char *out = sb_take(&fails);
    ck_assert_msg(out[0] == 0, "%s", out);
    free(out);
}
END_TEST

/* The same fixture without a planted mistake verifies clean, so every
 * error above comes from the plant. */
START_TEST(clean_fixture)
{
    kfix k;
    kstart(&k);
    ir_value p = ptrs(&k);
    ir_value m = op1(&k.b, IR_CMPI, k.b64, 2, range64(&k), range64(&k));
    ir_value v = op1(&k.b, IR_LOAD, k.f64t, 3, p, m, fvec(&k));
    op0(&k.b, IR_STORE, 3, p, v, m);
    int32_t t, e;
    if_op(&k, k.flag, 1, &I32, &t, &e);
    op0(&(ir_builder){ k.f, t, k.b.loc }, IR_YIELD, 1, k.n);
    op0(&(ir_builder){ k.f, e, k.b.loc }, IR_YIELD, 1, k.n);
    op0(&k.b, IR_RETURN, 0);
    capture_begin();
    int errs = ir_verify(k.f);
    char *msgs = capture_end();
    ck_assert_msg(errs == 0, "%s", msgs);
    ck_assert_str_eq(msgs, "");
    free(msgs);
    ir_func_free(k.f);
}
END_TEST

/* Broken structure built by hand: bad operand ids, unattached regions,
 * a location outside the table, a region shared by two ops. */
START_TEST(broken_structure)
{
    kfix k;
    kstart(&k);
    ir_value a = op1(&k.b, IR_ADDI, I32, 2, k.n, k.n);
    ir_def(k.f, a)->opnd[0] = 12345;
    ir_def(k.f, a)->loc = 999;
    ir_new_region(k.f, 0, NULL);                       /* dangling */
    op0(&k.b, IR_RETURN, 0);
    capture_begin();
    int errs = ir_verify(k.f);
    char *msgs = capture_end();
    ck_assert_int_ge(errs, 1);
    ck_assert_ptr_nonnull(strstr(msgs, "in @bad: function: region 1 is not attached to any op"));
    free(msgs);
    ir_func_free(k.f);

    kstart(&k);
    a = op1(&k.b, IR_ADDI, I32, 2, k.n, k.n);
    ir_def(k.f, a)->opnd[0] = 12345;
    ir_def(k.f, a)->loc = 999;
    op0(&k.b, IR_RETURN, 0);
    capture_begin();
    errs = ir_verify(k.f);
    msgs = capture_end();
    ck_assert_int_eq(errs, 2);
    ck_assert_ptr_nonnull(strstr(msgs, "location id 999 out of range"));
    ck_assert_ptr_nonnull(strstr(msgs, "operand 0 refers to no value (12345)"));
    free(msgs);
    ir_func_free(k.f);
}
END_TEST

TCase *verify_tcase(void)
{
    TCase *tc = tcase_create("verify");
    tcase_add_test(tc, planted_mistakes);
    tcase_add_test(tc, clean_fixture);
    tcase_add_test(tc, broken_structure);
    return tc;
}
