/* test_text.c — the IR text form: golden output for a small kernel,
 * print -> parse -> print identity over a function using every op,
 * structural equality after parsing, diagnostics for malformed input, and
 * robustness against truncated and mutated text. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "tir.h"
#include "tritium/limits.h"

/* ---- vector add, the golden kernel ---- */

static ir_func *build_vector_add(void)
{
    int file = diag_add_source("examples/vector_add.py", "");
    ir_func *f = ir_func_new("add_kernel");
    ir_type pf = ir_ptr(F32);
    ir_value x = ir_add_arg(f, "x_ptr", pf, TT_F32, true);
    ir_value y = ir_add_arg(f, "y_ptr", pf, TT_F32, true);
    ir_value o = ir_add_arg(f, "output_ptr", pf, TT_F32, true);
    ir_value n = ir_add_arg(f, "n_elements", I32, TT_U32, false);
    int32_t lpid = ir_add_loc(f, file, 6, 10, -1, "add_kernel");
    int32_t lbs = ir_add_loc(f, file, 7, 18, -1, "add_kernel");
    int32_t lcall = ir_add_loc(f, file, 8, 14, -1, "add_kernel");
    int32_t lrange = ir_add_loc(f, file, 2, 11, lcall, "offsets_for");
    int32_t lmask = ir_add_loc(f, file, 9, 11, -1, "add_kernel");
    int32_t lx = ir_add_loc(f, file, 10, 8, -1, "add_kernel");
    int32_t lout = ir_add_loc(f, file, 11, 13, -1, "add_kernel");
    int32_t lret = ir_add_loc(f, file, 12, 4, -1, NULL);
    ir_type ti = tensor1(I32, 1024), tb = tensor1(I1, 1024), tf = tensor1(F32, 1024);
    ir_type tp = tensor1(pf, 1024);

    ir_builder b = { f, IR_BODY, lpid };
    ir_value pid = op1(&b, IR_GET_PID, I32, 0);
    ir_value_set_name(f, pid, "pid");
    b.loc = lbs;
    ir_value c = ir_const_int(&b, I32, 1024);
    ir_value bs = op1(&b, IR_MULI, I32, 2, pid, c);
    ir_value_set_name(f, bs, "block_start");
    b.loc = lrange;
    ir_value r = op1(&b, IR_MAKE_RANGE, ti, 0);
    set_attr(f, r, 0, 0);
    set_attr(f, r, 1, 1024);
    ir_value sp = op1(&b, IR_SPLAT, ti, 1, bs);
    ir_value offs = op1(&b, IR_ADDI, ti, 2, sp, r);
    ir_value_set_name(f, offs, "offsets");
    b.loc = lmask;
    ir_value ns = op1(&b, IR_SPLAT, ti, 1, n);
    ir_value mask = op1(&b, IR_CMPI, tb, 2, offs, ns);
    set_attr(f, mask, 0, CMPI_SLT);
    ir_value_set_name(f, mask, "mask");
    b.loc = lx;
    ir_value xs = op1(&b, IR_SPLAT, tp, 1, x);
    ir_value xp = op1(&b, IR_ADDPTR, tp, 2, xs, offs);
    ir_value xv = op1(&b, IR_LOAD, tf, 2, xp, mask);
    ir_value_set_name(f, xv, "x");
    ir_value ys = op1(&b, IR_SPLAT, tp, 1, y);
    ir_value yp = op1(&b, IR_ADDPTR, tp, 2, ys, offs);
    ir_value yv = op1(&b, IR_LOAD, tf, 2, yp, mask);
    ir_value_set_name(f, yv, "y");
    b.loc = lout;
    ir_value out = op1(&b, IR_ADDF, tf, 2, xv, yv);
    ir_value_set_name(f, out, "output");
    ir_value os = op1(&b, IR_SPLAT, tp, 1, o);
    ir_value opp = op1(&b, IR_ADDPTR, tp, 2, os, offs);
    op0(&b, IR_STORE, 3, opp, out, mask);
    b.loc = lret;
    op0(&b, IR_RETURN, 0);
    return f;
}

static const char golden[] =
    "module {\n"
    "  tt.func public @add_kernel(%x_ptr.0: !tt.ptr<f32>, %y_ptr.1: !tt.ptr<f32>, %output_ptr.2: !tt.ptr<f32>, "
    "%n_elements.3: i32 {tt.dtype = \"u32\"}) {\n"
    "    %pid.4 = tt.get_program_id {axis = 0} : i32 loc(#loc0)\n"
    "    %5 = arith.constant {value = 1024} : i32 loc(#loc1)\n"
    "    %block_start.6 = arith.muli %pid.4, %5 : i32 loc(#loc1)\n"
    "    %7 = tt.make_range {start = 0, end = 1024} : tensor<1024xi32> loc(#loc3)\n"
    "    %8 = tt.splat %block_start.6 : tensor<1024xi32> loc(#loc3)\n"
    "    %offsets.9 = arith.addi %8, %7 : tensor<1024xi32> loc(#loc3)\n"
    "    %10 = tt.splat %n_elements.3 : tensor<1024xi32> loc(#loc4)\n"
    "    %mask.11 = arith.cmpi %offsets.9, %10 {predicate = slt} : tensor<1024xi1> loc(#loc4)\n"
    "    %12 = tt.splat %x_ptr.0 : tensor<1024x!tt.ptr<f32>> loc(#loc5)\n"
    "    %13 = tt.addptr %12, %offsets.9 : tensor<1024x!tt.ptr<f32>> loc(#loc5)\n"
    "    %x.14 = tt.load %13, %mask.11 : tensor<1024xf32> loc(#loc5)\n"
    "    %15 = tt.splat %y_ptr.1 : tensor<1024x!tt.ptr<f32>> loc(#loc5)\n"
    "    %16 = tt.addptr %15, %offsets.9 : tensor<1024x!tt.ptr<f32>> loc(#loc5)\n"
    "    %y.17 = tt.load %16, %mask.11 : tensor<1024xf32> loc(#loc5)\n"
    "    %output.18 = arith.addf %x.14, %y.17 : tensor<1024xf32> loc(#loc6)\n"
    "    %19 = tt.splat %output_ptr.2 : tensor<1024x!tt.ptr<f32>> loc(#loc6)\n"
    "    %20 = tt.addptr %19, %offsets.9 : tensor<1024x!tt.ptr<f32>> loc(#loc6)\n"
    "    tt.store %20, %output.18, %mask.11 loc(#loc6)\n"
    "    tt.return loc(#loc7)\n"
    "  }\n"
    "}\n"
    "#loc0 = loc(\"add_kernel\"(\"examples/vector_add.py\":6:10))\n"
    "#loc1 = loc(\"add_kernel\"(\"examples/vector_add.py\":7:18))\n"
    "#loc2 = loc(\"add_kernel\"(\"examples/vector_add.py\":8:14))\n"
    "#loc3 = loc(callsite(\"offsets_for\"(\"examples/vector_add.py\":2:11) at #loc2))\n"
    "#loc4 = loc(\"add_kernel\"(\"examples/vector_add.py\":9:11))\n"
    "#loc5 = loc(\"add_kernel\"(\"examples/vector_add.py\":10:8))\n"
    "#loc6 = loc(\"add_kernel\"(\"examples/vector_add.py\":11:13))\n"
    "#loc7 = loc(\"examples/vector_add.py\":12:4)\n";

START_TEST(golden_vector_add)
{
    ir_func *f = build_vector_add();
    ck_assert_int_eq(ir_verify(f), 0);
    char *s = print_str(f);
    ck_assert_str_eq(s, golden);
    /* parse the hand-written golden text back: same function */
    ir_func *g = ir_parse("golden.ttir", golden);
    ck_assert_ptr_nonnull(g);
    ck_assert_int_eq(ir_verify(g), 0);
    char *s2 = print_str(g);
    ck_assert_str_eq(s2, golden);
    ck_assert_str_eq(g->name, "add_kernel");
    ck_assert_int_eq(g->nargs, 4);
    ck_assert_int_eq(g->arg_dtype[3], TT_U32);
    ck_assert(!g->arg_is_ptr[3] && g->arg_is_ptr[0]);
    ck_assert_int_eq(g->locs.n, 8);
    ck_assert_int_eq(g->locs.v[3].caller, 2);
    ck_assert_str_eq(g->locs.v[3].func, "offsets_for");
    ck_assert_str_eq(diag_file_name(g->locs.v[3].file), "examples/vector_add.py");
    ck_assert_int_eq(g->locs.v[3].file, f->locs.v[3].file);    /* the registered source is reused */
    ck_assert_ptr_null(g->locs.v[7].func);
    ck_assert_int_eq(g->locs.v[7].line, 12);
    ck_assert_int_eq(g->locs.v[7].col, 4);
    /* the cmpi's attribute and the load's operands came back */
    const ir_op *cmp = ir_op_at(g, IR_BODY, 7);
    ck_assert_int_eq(cmp->opc, IR_CMPI);
    ck_assert_int_eq(cmp->attr[0], CMPI_SLT);
    ck_assert_str_eq(g->values.v[cmp->res].name, "mask");
    const ir_op *mr = ir_op_at(g, IR_BODY, 3);
    ck_assert_int_eq(mr->attr[1], 1024);
    ck_assert_int_eq(mr->loc, 3);
    free(s);
    free(s2);
    ir_func_free(f);
    ir_func_free(g);
}
END_TEST

/* ---- a function using every op ---- */

static ir_value cst_f(ir_builder *b, ir_type t, double v) { return ir_const_float(b, t, v); }
static ir_value cst_i(ir_builder *b, ir_type t, int64_t v) { return ir_const_int(b, t, v); }

/* Build: for (iv = 0; iv < n; iv++) { acc, cnt = if (...) {...} } etc. */
static ir_func *build_sink(void)
{
    int file = diag_add_source("tests/sink.py", "");
    int file2 = diag_add_source("tests/we\"ird\\name.py", "");
    ir_func *f = ir_func_new("sink");
    ir_type pf = ir_ptr(F32), pi = ir_ptr(I32), pb = ir_ptr(I8), ph = ir_ptr(F16);
    ir_value xp = ir_add_arg(f, "x_ptr", pf, TT_F32, true);
    ir_value n = ir_add_arg(f, "n", I32, TT_U32, false);
    ir_value bytes = ir_add_arg(f, "bytes", pb, TT_U8, true);
    ir_value hp = ir_add_arg(f, NULL, ph, TT_F16, true);
    ir_value ip = ir_add_arg(f, "idx.ptr", pi, TT_I32, true);
    ir_value seed = ir_add_arg(f, "seed", I64, TT_U64, false);
    ir_value odd = ir_add_arg(f, "odd", I32, TT_I32, true);   /* is_ptr differs from the type */
    (void)bytes;
    (void)hp;
    int32_t l0 = ir_add_loc(f, file, 10, 0, -1, NULL);
    int32_t l1 = ir_add_loc(f, file, 12, 8, -1, "sink");
    int32_t l2 = ir_add_loc(f, file, 3, 4, l1, "helper");
    int32_t l3 = ir_add_loc(f, file2, 1, 1, l2, "inner");
    int32_t l4 = ir_add_loc(f, -1, 0, 0, -1, NULL);
    ir_type t64 = tensor1(I32, 64), f64t = tensor1(F32, 64), b64 = tensor1(I1, 64), p64 = tensor1(pf, 64);

    ir_builder b = { f, IR_BODY, l0 };
    ir_value pid = op1(&b, IR_GET_PID, I32, 0);
    ir_value np = op1(&b, IR_GET_NPROG, I32, 0);
    set_attr(f, np, 0, 2);
    b.loc = l1;
    ir_value c1 = cst_i(&b, I32, 1);
    cst_f(&b, F32, 1.5);
    cst_f(&b, F32, NAN);
    cst_f(&b, F16, -INFINITY);
    cst_f(&b, F64, -0.0);
    cst_f(&b, F64, 0.1);
    cst_f(&b, F64, 1e300);
    cst_f(&b, F64, 5e-324);
    cst_f(&b, F32, 3.0);
    ir_value ctrue = cst_i(&b, I1, 1);
    cst_i(&b, I64, INT64_MIN);
    cst_i(&b, I64, -1);
    ir_value zero = cst_f(&b, f64t, 0.0);
    b.loc = l2;
    ir_value r = op1(&b, IR_MAKE_RANGE, t64, 0);
    set_attr(f, r, 0, 64);
    set_attr(f, r, 1, 128);
    ir_value s = op1(&b, IR_SPLAT, t64, 1, pid);
    ir_value_set_name(f, s, "x.1");
    ir_value a = op1(&b, IR_ADDI, t64, 2, s, r);
    ir_value_set_name(f, a, "a");
    for (int opc = IR_SUBI; opc <= IR_MULHIUI; opc++) a = op1(&b, opc, t64, 2, a, r);
    ir_value sn = op1(&b, IR_SPLAT, t64, 1, n);
    ir_value cmp = op1(&b, IR_CMPI, b64, 2, a, sn);
    set_attr(f, cmp, 0, CMPI_UGE);
    b.loc = l3;
    ir_value ed = op1(&b, IR_EXPAND_DIMS, tensor2(I32, 64, 1), 1, a);
    set_attr(f, ed, 0, 1);
    ir_value bc = op1(&b, IR_BROADCAST, tensor2(I32, 64, 32), 1, ed);
    op1(&b, IR_RESHAPE, tensor1(I32, 2048), 1, bc);
    ir_value tr = op1(&b, IR_TRANS, tensor2(I32, 32, 64), 1, bc);
    set_attr(f, tr, 0, ir_attr_array(f, 2, (int64_t[]){ 1, 0 }));
    /* join -> split (two results), cat, gather along axis 0, masked histogram */
    int64_t js[2] = { 64, 2 };
    ir_value jn = op1(&b, IR_JOIN, tensor2(I32, js[0], js[1]), 2, a, r);
    ir_type halves[2] = { t64, t64 };
    int si = ir_emit(&b, IR_SPLIT, 2, halves, 1, &jn);
    ir_value sp = ir_op_at(f, IR_BODY, si)->res;
    ir_value_set_name(f, sp + 1, "hi");
    op1(&b, IR_CAT, tensor1(I32, 128), 2, sp, sp + 1);
    ir_value ga = op1(&b, IR_GATHER, t64, 2, sp, r);
    set_attr(f, ga, 0, 0);
    op1(&b, IR_HISTOGRAM, tensor1(I32, 16), 2, ga, cmp);
    op1(&b, IR_HISTOGRAM, tensor1(I32, 8), 1, ga);
    /* map_elementwise with pack 2: two i32 operands, one i32 result */
    int mi = ir_emit(&b, IR_MAP_ELEMWISE, 1, &t64, 2, (ir_value[]){ ga, r });
    ir_attr_set(ir_op_at(f, IR_BODY, mi), "pack", 2);
    ir_type i4[4] = { I32, I32, I32, I32 };
    int32_t mreg = ir_new_region(f, 4, i4);
    ir_op_add_region(f, IR_BODY, mi, mreg);
    ir_builder bm = { f, mreg, l3 };
    ir_value *ma = f->regions.v[mreg].args;
    ir_value m0 = op1(&bm, IR_ADDI, I32, 2, ma[0], ma[2]);
    ir_value m1 = op1(&bm, IR_SUBI, I32, 2, ma[1], ma[3]);
    op0(&bm, IR_MAP_RETURN, 2, m0, m1);
    b.loc = l4;
    ir_value ps = op1(&b, IR_SPLAT, p64, 1, xp);
    ir_value p = op1(&b, IR_ADDPTR, p64, 2, ps, a);
    ir_value ld = op1(&b, IR_LOAD, f64t, 3, p, cmp, zero);
    ir_value ld1 = op1(&b, IR_LOAD, f64t, 1, p);
    op0(&b, IR_STORE, 3, p, ld, cmp);
    op0(&b, IR_STORE, 2, p, ld1);
    b.loc = -1;
    ir_value at = op1(&b, IR_ATOMIC_RMW, f64t, 3, p, ld, cmp);
    set_attr(f, at, 0, RMW_FADD);
    set_attr(f, at, 1, SEM_RELAXED);
    set_attr(f, at, 2, SCOPE_SYS);
    b.loc = l0;
    ir_value ips = op1(&b, IR_SPLAT, tensor1(pi, 64), 1, ip);
    ir_value ip2 = op1(&b, IR_ADDPTR, tensor1(pi, 64), 2, ips, a);
    ir_value cas = op1(&b, IR_ATOMIC_CAS, t64, 3, ip2, a, a);
    set_attr(f, cas, 1, SCOPE_CTA);
    ir_value xchg = op1(&b, IR_ATOMIC_RMW, t64, 2, ip2, cas);
    set_attr(f, xchg, 0, RMW_XCHG);
    ir_value poll = op1(&b, IR_ATOMIC_POLL, b64, 3, ip2, cas, seed);
    set_attr(f, poll, 0, SEM_RELAXED);
    ir_value seeds = op1(&b, IR_SPLAT, tensor1(I64, 64), 1, seed);
    op1(&b, IR_INT_TO_PTR, p64, 1, seeds);
    op1(&b, IR_PTR_TO_INT, tensor1(I64, 64), 1, p);
    op1(&b, IR_BITCAST, t64, 1, ld);
    ir_value fx = ld;
    for (int opc = IR_ADDF; opc <= IR_MINIMUMF; opc++) fx = op1(&b, opc, f64t, 2, fx, ld1);
    ir_value fc = op1(&b, IR_CMPF, b64, 2, fx, ld);
    set_attr(f, fc, 0, CMPF_UNO);
    ir_value sel = op1(&b, IR_SELECT, f64t, 3, fc, fx, ld);
    op1(&b, IR_SELECT, f64t, 3, ctrue, fx, ld);
    op1(&b, IR_EXTSI, tensor1(I64, 64), 1, a);
    op1(&b, IR_EXTUI, t64, 1, cmp);
    op1(&b, IR_TRUNCI, tensor1(I16, 64), 1, a);
    op1(&b, IR_SITOFP, f64t, 1, a);
    op1(&b, IR_UITOFP, tensor1(BF16, 64), 1, a);
    op1(&b, IR_FPTOSI, t64, 1, ld);
    op1(&b, IR_FPTOUI, tensor1(I8, 64), 1, ld);
    ir_value h = op1(&b, IR_TRUNCF, tensor1(F16, 64), 1, ld);
    op1(&b, IR_EXTF, tensor1(F64, 64), 1, h);
    op1(&b, IR_FP_TO_FP, tensor1(ir_scalar(TT_F8E4NV), 64), 1, h);   /* rounding = rtne */
    ir_value m = sel;
    for (int opc = IR_EXP; opc <= IR_CEIL; opc++) m = op1(&b, opc, f64t, 1, m);
    /* every variant of every ops_math.def row, on constants of its types */
    for (int opc = 0; opc < IR_OP_COUNT; opc++) {
        const ir_mathfn *mf = &ir_mathfns[opc];
        for (int k = 0; mf->arity && k < 2; k++) {
            const ir_mathvar *v = &mf->var[k];
            if (!*v->gpu) continue;
            ir_value x[4];
            for (int i = 0; i < mf->arity; i++) {
                ir_type t = ir_tensor(ir_scalar(v->opnd[i]), 1, (int64_t[]){ 64 });
                x[i] = tt_dtype_is_float(v->opnd[i]) ? cst_f(&b, t, 1.5) : cst_i(&b, t, 3);
            }
            ir_emit1(&b, opc, ir_tensor(ir_scalar(v->res), 1, (int64_t[]){ 64 }), mf->arity, x);
        }
    }
    op1(&b, IR_ABSF, tensor1(F16, 64), 1, h);
    op1(&b, IR_ABSI, t64, 1, a);
    op1(&b, IR_FMA, f64t, 3, m, m, ld);
    ir_value A = cst_f(&b, tensor2(F16, 16, 32), 1.0);
    ir_value B = cst_f(&b, tensor2(F16, 32, 16), 2.0);
    ir_value C = cst_f(&b, tensor2(F32, 16, 16), 0.0);
    ir_value d = op1(&b, IR_DOT, tensor2(F32, 16, 16), 3, A, B, C);
    set_attr(f, d, 0, PREC_IEEE);
    ir_value red = op1(&b, IR_REDUCE, F32, 1, ld);
    set_attr(f, red, 1, RED_ADD);
    ir_value am = op1(&b, IR_REDUCE, tensor1(I32, 16), 1, d);
    set_attr(f, am, 0, 1);
    set_attr(f, am, 1, RED_ARGMAX);
    op0(&b, IR_ASSUME, 1, ctrue);
    op0(&b, IR_BARRIER, 0);

    /* combine regions: a sum along axis 0 and a reverse max-scan along axis 1 */
    int rr = ir_emit(&b, IR_REDUCE_REGION, 1, (ir_type[]){ tensor1(F32, 16) }, 1, &d);
    int32_t cr = ir_new_region(f, 2, (ir_type[]){ F32, F32 });
    ir_op_add_region(f, IR_BODY, rr, cr);
    ir_builder brc = { f, cr, l1 };
    ir_value csum = op1(&brc, IR_ADDF, F32, 2, f->regions.v[cr].args[0], f->regions.v[cr].args[1]);
    op0(&brc, IR_REDUCE_RETURN, 1, csum);
    int sc = ir_emit(&b, IR_SCAN, 1, (ir_type[]){ tensor2(F32, 16, 16) }, 1, &d);
    ir_op_at(f, IR_BODY, sc)->attr[0] = 1;
    ir_op_at(f, IR_BODY, sc)->attr[1] = 1;
    int32_t sr = ir_new_region(f, 2, (ir_type[]){ F32, F32 });
    ir_op_add_region(f, IR_BODY, sc, sr);
    ir_builder bs = { f, sr, l1 };
    ir_value smax = op1(&bs, IR_MAXNUMF, F32, 2, f->regions.v[sr].args[0], f->regions.v[sr].args[1]);
    op0(&bs, IR_SCAN_RETURN, 1, smax);

    /* acc, cnt = for iv in range(0, n, 1): ... */
    ir_value c0 = cst_i(&b, I32, 0);
    int fi = ir_emit(&b, IR_FOR, 2, (ir_type[]){ f64t, I32 }, 5, (ir_value[]){ c0, n, c1, ld, c0 });
    int32_t body = ir_new_region(f, 3, (ir_type[]){ I32, f64t, I32 });
    ir_op_add_region(f, IR_BODY, fi, body);
    ir_value iv = f->regions.v[body].args[0], acc = f->regions.v[body].args[1], cnt = f->regions.v[body].args[2];
    ir_value_set_name(f, iv, "iv");
    ir_value_set_name(f, acc, "acc");
    ir_builder bb = { f, body, l2 };
    ir_value cond = op1(&bb, IR_CMPI, I1, 2, iv, cnt);
    set_attr(f, cond, 0, CMPI_SLT);
    int ii = ir_emit(&bb, IR_IF, 1, &f64t, 1, &cond);
    int32_t then = ir_new_region(f, 0, NULL), els = ir_new_region(f, 0, NULL);
    ir_op_add_region(f, body, ii, then);
    ir_op_add_region(f, body, ii, els);
    ir_builder bt = { f, then, l3 }, be = { f, els, l3 };
    ir_value sum = op1(&bt, IR_ADDF, f64t, 2, acc, ld);   /* ld from two levels up */
    op0(&bt, IR_YIELD, 1, sum);
    op0(&be, IR_YIELD, 1, acc);
    ir_value ifres = ir_op_at(f, body, ii)->res;
    ir_value_set_name(f, ifres, "picked");
    ir_value cnt1 = op1(&bb, IR_ADDI, I32, 2, cnt, c1);
    op0(&bb, IR_YIELD, 2, ifres, cnt1);
    ir_value fr = ir_op_at(f, IR_BODY, fi)->res;
    ir_value_set_name(f, fr, "acc");
    ir_value_set_name(f, fr + 1, "i");

    /* while (x < n) x = x + 1 */
    int wi = ir_emit(&b, IR_WHILE, 1, &I32, 1, &c0);
    int32_t before = ir_new_region(f, 1, &I32), after = ir_new_region(f, 1, &I32);
    ir_op_add_region(f, IR_BODY, wi, before);
    ir_op_add_region(f, IR_BODY, wi, after);
    ir_builder bw = { f, before, l1 }, ba = { f, after, l1 };
    ir_value wx = f->regions.v[before].args[0];
    ir_value wc = op1(&bw, IR_CMPI, I1, 2, wx, n);
    set_attr(f, wc, 0, CMPI_ULT);
    op0(&bw, IR_CONDITION, 2, wc, wx);
    ir_value wy = f->regions.v[after].args[0];
    ir_value_set_name(f, wy, "y");
    ir_value wy1 = op1(&ba, IR_ADDI, I32, 2, wy, c1);
    op0(&ba, IR_YIELD, 1, wy1);
    ir_value wres = ir_op_at(f, IR_BODY, wi)->res;

    /* if (while result == 0) store ... (no results; empty else) */
    ir_value wz = op1(&b, IR_CMPI, I1, 2, wres, c0);
    int i2 = ir_emit(&b, IR_IF, 0, NULL, 1, &wz);
    int32_t t2 = ir_new_region(f, 0, NULL), e2 = ir_new_region(f, 0, NULL);
    ir_op_add_region(f, IR_BODY, i2, t2);
    ir_op_add_region(f, IR_BODY, i2, e2);
    ir_builder b2 = { f, t2, l0 }, b3 = { f, e2, l0 };
    op0(&b2, IR_STORE, 2, p, fr);
    op0(&b2, IR_YIELD, 0);
    op0(&b3, IR_YIELD, 0);
    (void)odd;
    /* debugging and inline asm: string attributes with escapes */
    op0(&b, IR_PRINT, 2, wres, zero);
    int pi_ = f->regions.v[IR_BODY].nops - 1;
    ir_attr_set_str(f, ir_op_at(f, IR_BODY, pi_), "prefix", " w \"q\"\\: \n");
    ir_attr_set(ir_op_at(f, IR_BODY, pi_), "hex", 1);
    ir_attr_set(ir_op_at(f, IR_BODY, pi_), "signed", 1);
    op0(&b, IR_ASSERT, 1, wz);
    int ai = f->regions.v[IR_BODY].nops - 1;
    ir_attr_set_str(f, ir_op_at(f, IR_BODY, ai), "message", "w == 0");
    ir_type two[2] = { f64t, t64 };
    int xi = ir_emit(&b, IR_INLINE_ASM, 2, two, 1, &zero);
    ir_attr_set_str(f, ir_op_at(f, IR_BODY, xi), "asm_string", "mov.b32 $0, $2; mov.b32 $1, $2;");
    ir_attr_set_str(f, ir_op_at(f, IR_BODY, xi), "constraints", "=r,=r,r");
    ir_attr_set(ir_op_at(f, IR_BODY, xi), "pure", 1);
    ir_attr_set(ir_op_at(f, IR_BODY, xi), "packed_element", 1);
    op0(&b, IR_RETURN, 0);
    return f;
}

/* Collect the opcodes used anywhere in f. */
static void opcodes_used(const ir_func *f, bool *used)
{
    for (int r = 0; r < f->regions.n; r++)
        for (int i = 0; i < f->regions.v[r].nops; i++) used[f->regions.v[r].ops[i].opc] = true;
}

/* Walk two functions in print order and compare everything that round-trips. */
static void same_region(const ir_func *a, int ra, const ir_func *b, int rb)
{
    const ir_region *x = &a->regions.v[ra], *y = &b->regions.v[rb];
    ck_assert_int_eq(x->nargs, y->nargs);
    ck_assert_int_eq(x->nops, y->nops);
    for (int i = 0; i < x->nargs; i++) {
        ck_assert_int_eq(ir_value_type(a, x->args[i]), ir_value_type(b, y->args[i]));
        const char *na = a->values.v[x->args[i]].name, *nb = b->values.v[y->args[i]].name;
        ck_assert((na == NULL) == (nb == NULL));
        if (na) ck_assert_str_eq(na, nb);
    }
    for (int i = 0; i < x->nops; i++) {
        const ir_op *p = &x->ops[i], *q = &y->ops[i];
        ck_assert_int_eq(p->opc, q->opc);
        ck_assert_int_eq(p->nres, q->nres);
        ck_assert_int_eq(p->nopnd, q->nopnd);
        ck_assert_int_eq(p->nregions, q->nregions);
        ck_assert_int_eq(p->loc, q->loc);
        for (int k = 0; k < 4; k++) ck_assert_int_eq(p->attr[k], q->attr[k]);
        ck_assert_int_eq(p->ival, q->ival);
        ck_assert(memcmp(&p->fval, &q->fval, sizeof p->fval) == 0 || (isnan(p->fval) && isnan(q->fval)));
        for (int k = 0; k < p->nres; k++) {
            ck_assert_int_eq(ir_value_type(a, p->res + k), ir_value_type(b, q->res + k));
            const char *na = a->values.v[p->res + k].name, *nb = b->values.v[q->res + k].name;
            ck_assert((na == NULL) == (nb == NULL));
            if (na) ck_assert_str_eq(na, nb);
        }
        for (int k = 0; k < p->nopnd; k++)
            ck_assert_int_eq(ir_value_type(a, p->opnd[k]), ir_value_type(b, q->opnd[k]));
        for (int k = 0; k < p->nregions; k++) same_region(a, p->region[k], b, q->region[k]);
    }
}

START_TEST(roundtrip_every_op)
{
    ir_func *f = build_sink();
    capture_begin();
    int errs = ir_verify(f);
    char *msgs = capture_end();
    ck_assert_msg(errs == 0, "sink does not verify:\n%s", msgs);
    free(msgs);
    bool used[IR_OP_COUNT] = { false };
    opcodes_used(f, used);
    for (int i = 0; i < IR_OP_COUNT; i++) ck_assert_msg(used[i], "op %s not covered", ir_ops[i].name);

    char *s1 = print_str(f);
    if (getenv("TIR_DUMP")) { FILE *d = fopen(getenv("TIR_DUMP"), "w"); fputs(s1, d); fclose(d); }
    capture_begin();
    ir_func *g = ir_parse("sink.ttir", s1);
    msgs = capture_end();
    ck_assert_msg(g != NULL, "parse failed:\n%s\n%s", msgs, s1);
    free(msgs);
    char *s2 = print_str(g);
    ck_assert_str_eq(s1, s2);
    ck_assert_int_eq(ir_verify(g), 0);
    same_region(f, IR_BODY, g, IR_BODY);
    ck_assert_int_eq(g->nargs, f->nargs);
    for (int i = 0; i < f->nargs; i++) {
        ck_assert_int_eq(g->arg_dtype[i], f->arg_dtype[i]);
        ck_assert_int_eq(g->arg_is_ptr[i], f->arg_is_ptr[i]);
    }
    ck_assert_int_eq(g->locs.n, f->locs.n);
    for (int i = 0; i < f->locs.n; i++) {
        const ir_loc *x = &f->locs.v[i], *y = &g->locs.v[i];
        ck_assert_int_eq(x->file, y->file);
        ck_assert_int_eq(x->line, y->line);
        ck_assert_int_eq(x->col, y->col);
        ck_assert_int_eq(x->caller, y->caller);
        ck_assert((x->func == NULL) == (y->func == NULL));
        if (x->func) ck_assert_str_eq(x->func, y->func);
    }
    /* spot checks of the spelling */
    ck_assert_ptr_nonnull(strstr(s1, "{value = nan} : f32"));
    ck_assert_ptr_nonnull(strstr(s1, "{value = -inf} : f16"));
    ck_assert_ptr_nonnull(strstr(s1, "{value = -0.0} : f64"));
    ck_assert_ptr_nonnull(strstr(s1, "{value = 0.1} : f64"));
    ck_assert_ptr_nonnull(strstr(s1, "{value = 5e-324} : f64"));
    ck_assert_ptr_nonnull(strstr(s1, "{value = 3.0} : f32"));
    ck_assert_ptr_nonnull(strstr(s1, "{value = -9223372036854775808} : i64"));
    ck_assert_ptr_nonnull(strstr(s1, "{order = [1, 0]}"));
    ck_assert_ptr_nonnull(strstr(s1, "{rmw = fadd, sem = relaxed, scope = sys}"));
    ck_assert(strstr(s1, "%acc.") && strstr(s1, ", %i."));
    ck_assert_ptr_nonnull(strstr(s1, "%x.1."));
    ck_assert_ptr_nonnull(strstr(s1, "%idx.ptr."));
    ck_assert_ptr_nonnull(strstr(s1, "%bytes.2: !tt.ptr<i8> {tt.dtype = \"u8\"}"));
    ck_assert_ptr_nonnull(strstr(s1, "%odd.6: i32 {tt.is_ptr = true}"));
    ck_assert_ptr_nonnull(strstr(s1, "%seed.5: i64 {tt.dtype = \"u64\"}"));
    ck_assert_ptr_nonnull(strstr(s1, "\"tests/we\\\"ird\\\\name.py\":1:1"));
    ck_assert_ptr_nonnull(strstr(s1, "loc(\"\":0:0)"));
    ck_assert_ptr_nonnull(strstr(s1, "loc(unknown)"));
    ck_assert_ptr_nonnull(strstr(s1, "^bb0(%iv."));
    ck_assert_ptr_nonnull(strstr(s1, "^bb0:\n"));
    free(s1);
    free(s2);
    ir_func_free(f);
    ir_func_free(g);
}
END_TEST

/* f printed holds `want`, parses back and prints the same text again. */
static void print_parse_print(ir_func *f, const char *want)
{
    char *s = print_str(f);
    ck_assert_msg(strstr(s, want), "'%s' not in:\n%s", want, s);
    ir_func *g = ir_parse("again.ttir", s);
    ck_assert_ptr_nonnull(g);
    char *s2 = print_str(g);
    ck_assert_str_eq(s, s2);
    free(s);
    free(s2);
    ir_func_free(g);
}

START_TEST(print_op_and_names)
{
    ir_func *f = build_vector_add();
    char *buf;
    size_t len;
    FILE *m = open_memstream(&buf, &len);
    ir_print_op(m, f, IR_BODY, 7, 2);
    ir_print_op(m, f, IR_BODY, 99, 0);
    fclose(m);
    ck_assert_str_eq(buf, "  %mask.11 = arith.cmpi %offsets.9, %10 {predicate = slt} : tensor<1024xi1> loc(#loc4)\n"
                          "<no op at region 0 index 99>\n");
    free(buf);
    /* names with characters outside [A-Za-z0-9_.$-] print sanitized, and
     * that text is a fixed point of print -> parse -> print */
    ir_value_set_name(f, ir_op_at(f, IR_BODY, 0)->res, "p id#");
    print_parse_print(f, "%p_id_.4 = tt.get_program_id");
    ir_func_free(f);
}
END_TEST

/* Hand-written text: MLIR-style %x:2 groups with %x#1 uses, no locations,
 * comments, hand names without numbers, private functions. */
START_TEST(parse_hand_written)
{
    static const char text[] =
        "// a comment\n"
        "tt.func private @k(%n: i32) {\n"
        "  %c0 = arith.constant {value = 0} : i32\n"
        "  %one = arith.constant {value = true} : i1   // bool constant\n"
        "  %r:2 = scf.for %c0, %n, %n, %c0, %c0 : i32, i32 {\n"
        "  ^loop(%iv: i32, %a: i32, %b: i32):\n"
        "    %s = arith.addi %a, %iv : i32\n"
        "    scf.yield %s, %b\n"
        "  }\n"
        "  %t = arith.addi %r#1, %r : i32\n"
        "  tt.return\n"
        "}\n";
    capture_begin();
    ir_func *f = ir_parse("hand.ttir", text);
    char *msgs = capture_end();
    ck_assert_msg(f != NULL, "%s", msgs);
    free(msgs);
    ck_assert_int_eq(ir_verify(f), 0);
    const ir_op *add = ir_op_at(f, IR_BODY, 3);
    const ir_op *loop = ir_op_at(f, IR_BODY, 2);
    ck_assert_int_eq(add->opnd[0], loop->res + 1);
    ck_assert_int_eq(add->opnd[1], loop->res);
    ck_assert_int_eq(ir_op_at(f, IR_BODY, 1)->ival, 1);
    ck_assert_int_eq(add->loc, -1);
    ck_assert_str_eq(f->values.v[add->res].name, "t");
    /* %b rides along unchanged (its init is %c0); %a and the induction
     * variable do not; a kernel argument is no loop value */
    const ir_region *body = &f->regions.v[loop->region[0]];
    ck_assert_int_eq(ir_carried_init(f, body->args[2]), loop->opnd[4]);
    ck_assert_int_eq(ir_carried_init(f, body->args[1]), -1);
    ck_assert_int_eq(ir_carried_init(f, body->args[0]), -1);
    ck_assert_int_eq(ir_carried_init(f, f->regions.v[IR_BODY].args[0]), -1);
    /* ir_for_arg: %a's init %c0 and its yield %s; the counter has neither */
    ir_value init, next;
    ck_assert_ptr_eq(ir_for_arg(f, body->args[1], &init, &next), loop);
    ck_assert_int_eq(init, loop->opnd[3]);
    ck_assert_int_eq(next, body->ops[0].res);
    ck_assert_ptr_eq(ir_for_arg(f, body->args[0], &init, &next), loop);
    ck_assert_int_eq(init, -1);
    ck_assert_int_eq(next, -1);
    ck_assert_ptr_null(ir_for_arg(f, f->regions.v[IR_BODY].args[0], &init, &next));
    print_parse_print(f, "    %t.9 = arith.addi %4, %3 : i32 loc(unknown)\n");
    ir_func_free(f);
}
END_TEST

/* Tensors of rank up to IR_MAX_RANK and tt.trans orders of that length:
 * they round-trip, equal orders share one array of the function's table,
 * and the elements read back as written. */
START_TEST(high_rank_and_array_attrs)
{
    static const char text[] =
        "tt.func @k() {\n"
        "  %r = tt.make_range {start = 0, end = 256} : tensor<256xi32>\n"
        "  %x = tt.reshape %r : tensor<2x2x2x2x2x2x2x2xi32>\n"
        "  %a = tt.trans %x {order = [7, 6, 5, 4, 3, 2, 1, 0]} : tensor<2x2x2x2x2x2x2x2xi32>\n"
        "  %b = tt.trans %a {order = [7, 6, 5, 4, 3, 2, 1, 0]} : tensor<2x2x2x2x2x2x2x2xi32>\n"
        "  %c = tt.trans %b {order = [1, 0, 2, 3, 4, 5, 6, 7]} : tensor<2x2x2x2x2x2x2x2xi32>\n"
        "  %y = tt.reshape %c : tensor<1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x256xi32>\n"
        "  tt.return\n"
        "}\n";
    capture_begin();
    ir_func *f = ir_parse("rank.ttir", text);
    char *msgs = capture_end();
    ck_assert_msg(f != NULL, "%s", msgs);
    free(msgs);
    ck_assert_int_eq(ir_verify(f), 0);
    const ir_op *a = ir_op_at(f, IR_BODY, 2), *b = ir_op_at(f, IR_BODY, 3), *c = ir_op_at(f, IR_BODY, 4);
    ck_assert_int_eq(a->attr[0], b->attr[0]);
    ck_assert_int_ne(a->attr[0], c->attr[0]);
    int64_t e[IR_ATTR_ARRAY_MAX];
    ck_assert_int_eq(ir_attr_array_get(f, c->attr[0], e), 8);
    ck_assert(e[0] == 1 && e[1] == 0 && e[7] == 7);
    ck_assert_int_eq(ir_attr_array_get(f, -1, e), -1);
    ck_assert_int_eq(ir_attr_array_get(f, f->arrs.n, e), -1);
    ck_assert_int_eq(ir_type_rank(ir_value_type(f, ir_op_at(f, IR_BODY, 5)->res)), IR_MAX_RANK);
    print_parse_print(f, "{order = [1, 0, 2, 3, 4, 5, 6, 7]}");
    ir_func_free(f);
}
END_TEST

/* ---- malformed input: each gives one diagnostic at the right place ---- */

static const char head[] = "tt.func @k(%n.0: i32) {\n";   /* line 1; the body starts on line 2 */

static const struct bad {
    const char *body;              /* appended to head; "" bodies are complete texts when full */
    bool full;
    const char *want;              /* "LINE:COL: error: message part" */
} bad[] = {
    { "  %1 = arith.addi %n.0, %zz : i32\n  tt.return\n}\n", false, "2:25: error: use of undefined value %zz" },
    { "  %1 = arith.nope %n.0 : i32\n}\n", false, "2:8: error: unknown operation 'arith.nope'" },
    { "  %1 = arith.addi %n.0 : i32\n}\n", false, "2:8: error: 'arith.addi' takes 2 operands, got 1" },
    { "  tt.store %n.0, %n.0, %n.0, %n.0\n}\n", false, "2:3: error: 'tt.store' takes 2 to 3 operands, got 4" },
    { "  %1 = scf.for %n.0, %n.0 : i32 {\n  }\n}\n", false, "'scf.for' takes at least 3 operands, got 2" },
    { "  %1 = arith.addi %n.0, %n.0 : i33\n}\n", false, "2:32: error: expected a scalar type" },
    { "  %1 = arith.addi %n.0, %n.0 : tensor<0xi32>\n}\n", false, "2:39: error: tensor dimensions must be positive" },
    { "  %1 = arith.addi %n.0, %n.0 : tensor<" "1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x2xi32>\n}\n", false,
      "tensors of rank > 32" },
    { "  %1 = arith.addi %n.0, %n.0 : tensor<65536x65536xi32>\n}\n", false, "more than 2^31 elements" },
    { "  %1 = arith.addi %n.0, %n.0 : tensor<64xi32\n}\n", false, "expected '>' to close tensor<" },
    { "  %1 = arith.addi %n.0, %n.0 : !tt.ptr<!tt.ptr<f32>>\n}\n", false, "expected a scalar type" },
    { "  %1 = arith.addi %n.0, %n.0\n}\n", false, "2:8: error: 1 result named but 0 result types given" },
    { "  %1, %2 = arith.addi %n.0, %n.0 : i32, i32\n}\n", false, "'arith.addi' has 1 result, got 2" },
    { "  %1 = arith.cmpi %n.0, %n.0 {predicate = sometimes} : i1\n}\n", false, "2:43: error: unknown cmpi value 'sometimes'" },
    { "  %1 = arith.cmpi %n.0, %n.0 {pred = slt} : i1\n}\n", false, "2:31: error: 'arith.cmpi' has no attribute 'pred'" },
    { "  %1 = arith.cmpi %n.0, %n.0 : i1\n}\n", false, "'arith.cmpi' needs attribute 'predicate'" },
    { "  %1 = tt.make_range {start = 0, start = 4} : tensor<4xi32>\n}\n", false, "duplicate attribute 'start'" },
    { "  %1 = tt.make_range {start = 0, end = 99999999999999999999} : tensor<4xi32>\n}\n", false, "integer out of range" },
    { "  %1 = tt.trans %n.0 {order = [1, 0, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, "
      "24, 25, 26, 27, 28, 29, 30, 31, 32]} : i32\n}\n", false, "at most 32 elements" },
    { "  %1 = tt.trans %n.0 {order = [1, 0} : i32\n}\n", false, "expected ']' to close the array" },
    { "  %1 = arith.constant {value = 1.5} : i32\n}\n", false, "2:32: error: expected an integer constant, found '1.5'" },
    { "  %1 = arith.constant {value = 1.5x} : f32\n}\n", false, "2:32: error: expected a float constant, found '1.5x'" },
    { "  arith.constant {value = 3} loc(#loc0)\n}\n#loc0 = loc(\"a\":1:1)\n", false, "2:3: error: 'arith.constant' has 1 result, got 0" },
    { "  %n.0 = arith.constant {value = 3} : i32\n}\n", false, "2:3: error: redefinition of value %n.0" },
    { "  scf.if %n.0 {\n  ^bb0:\n    %3 = arith.constant {value = 1} : i32\n    scf.yield\n  } {\n  ^bb0:\n"
      "    scf.yield %3\n  }\n}\n", false, "8:15: error: use of undefined value %3" },
    { "  %1 = scf.for %n.0, %n.0, %n.0 : i32 {\n  ^bb0(%i.2: i32):\n    scf.yield %1\n  }\n}\n", false,
      "4:15: error: use of undefined value %1" },
    { "  scf.if %n.0 {\n    scf.yield\n  }\n}\n", false, "'scf.if' needs 2 regions" },
    { "  scf.if %n.0 {\n    scf.yield\n  } {\n", false, "4:5: error: region is not closed" },
    { "  tt.return loc(#loc5)\n}\n#loc0 = loc(\"a.py\":1:2)\n", false, "2:17: error: location #loc5 is not defined" },
    { "  tt.return loc(#loc0)\n}\n#loc0 = loc(\"a.py\":1:2)\n#loc0 = loc(\"a.py\":1:2)\n", false,
      "5:1: error: location #loc0 defined twice" },
    { "  tt.return loc(#loc1)\n}\n#loc1 = loc(\"a.py\":1:2)\n", false, "location #loc0 is missing" },
    { "  tt.return loc(#loc0)\n}\n#loc0 = loc(callsite(\"a.py\":1:2 at #loc1))\n#loc1 = loc(callsite(\"b\"(\"a.py\":3:4) at #loc0))\n",
      false, "cyclic call-site chain" },
    { "  tt.return loc(#loc0)\n}\n#loc0 = loc(\"a.py\":1)\n", false, "4:21: error: expected ':' after the line, found ')'" },
    { "  tt.return loc(#loc0)\n}\n#loc0 = loc(\"a.py:1:2)\n", false, "unterminated string" },
    { "  tt.return loc(#loc0)\n}\n#loc0 = loc(\"a\\q\":1:2)\n", false, "bad escape in string" },
    { "  tt.return loc(#loc0)\n}\n#loc0 = loc(\"a\":1:2)\ngarbage\n", false, "5:1: error: expected a location alias" },
    { "  tt.return loc(foo)\n}\n", false, "expected #locN or unknown" },
    { "  tt.return\n", false, "1:23: error: function body is not closed" },
    { "  %1 = \n}\n", false, "3:1: error: expected an operation name" },
    { "  % = arith.constant {value = 1} : i32\n}\n", false, "2:3: error: expected a value name after '%'" },
    { "tt.func @k(%a: i32 {tt.dtype = \"u33\"}) {\n}\n", true, "1:32: error: unknown dtype \"u33\"" },
    { "tt.func @k(%a: i32 {tt.color = 1}) {\n}\n", true, "unknown argument attribute" },
    { "module {\n  tt.func @a() {\n  }\n  tt.func @b() {\n  }\n}\n", true, "only one function per module" },
    { "func.func @k() {\n}\n", true, "1:1: error: expected tt.func" },
    { "", true, "1:1: error: expected tt.func, found end of input" },
    { "tt.func @k(%a: i32, %a: i32) {\n}\n", true, "redefinition of value %a" },
};

START_TEST(malformed_inputs)
{
    strbuf fails = { 0 };
    for (size_t i = 0; i < TT_COUNTOF(bad); i++) {
        char *text = bad[i].full ? xstrdup(bad[i].body) : xasprintf("%s%s", head, bad[i].body);
        capture_begin();
        ir_func *f = ir_parse("bad.ttir", text);
        char *msgs = capture_end();
        char *want = xasprintf("bad.ttir:%s", bad[i].want);
        bool positioned = bad[i].want[0] >= '0' && bad[i].want[0] <= '9';
        if (f)
            sb_printf(&fails, "case %zu accepted:\n%s\n", i, text);
        else if (!strstr(msgs, positioned ? want : bad[i].want))
            sb_printf(&fails, "case %zu: got\n%swant %s\n", i, msgs, bad[i].want);
        else if (strstr(msgs, "bad.ttir:") != msgs)
            sb_printf(&fails, "case %zu: no position: %s\n", i, msgs);
        else if (strstr(strstr(msgs, "error:") + 1, "error:"))
            sb_printf(&fails, "case %zu: several errors: %s\n", i, msgs);
        free(want);
        free(msgs);
        free(text);
        ir_func_free(f);
    }
    char *out = sb_take(&fails);
    ck_assert_msg(out[0] == 0, "%s", out);
    free(out);
}
END_TEST

/* Truncations and single-character mutations of a valid text: never a
 * crash (ASan/UBSan builds check memory), and whatever parses verifies or
 * reports errors without crashing and prints. */
START_TEST(fuzz_mutations)
{
    ir_func *f = build_sink();
    char *text = print_str(f);
    ir_func_free(f);
    size_t len = strlen(text);
    FILE *null = fopen("/dev/null", "w");
    diag_set_stream(null);
    static const char subs[] = { '%', '{', '}', '(', ')', ':', ',', '9', '#', '"', 'x', '\n', '<', '-', 0 };
    int parsed = 0, runs = 0;
    for (size_t i = 0; i < len; i += 3 + i % 7) {
        for (size_t k = 0; k < sizeof subs; k++) {
            if ((i + k) % 5) continue;
            char *m = xstrdup(text);
            m[i] = subs[k];
            ir_func *g = ir_parse("fuzz.ttir", m);
            runs++;
            if (g) {
                parsed++;
                ir_verify(g);
                char *s;
                size_t sl;
                FILE *o = open_memstream(&s, &sl);
                ir_print(o, g);
                fclose(o);
                free(s);
                ir_func_free(g);
            }
            free(m);
        }
    }
    diag_set_stream(NULL);
    fclose(null);
    ck_assert_int_gt(runs, 1000);
    ck_assert_int_gt(parsed, 0);   /* e.g. renamed values still parse */
    free(text);
}
END_TEST

/* Every dtype with an IR name (the dtype table's ir column) is a scalar type
 * the parser reads and the printer writes back. */
START_TEST(scalar_types_roundtrip)
{
    int n = 0;
    for (int i = 0; i < TT_DTYPE_COUNT; i++) {
        const char *name = tt_dtype_ir_name((tt_dtype)i);
        if (!name) continue;
        char buf[64];
        ck_assert_str_eq(ir_type_str(ir_scalar((tt_dtype)i), buf, sizeof buf), name);
        char *text = xasprintf("tt.func @k(%%a: %s, %%p: !tt.ptr<%s>) {\n  tt.return\n}\n", name, name);
        capture_begin();
        ir_func *f = ir_parse("scalar.ttir", text);
        char *msgs = capture_end();
        ck_assert_msg(f != NULL, "%s: %s", name, msgs);
        free(msgs);
        ck_assert_int_eq(ir_type_get(f->values.v[f->regions.v[IR_BODY].args[0]].type)->elem, i);
        char *printed = print_str(f);
        char *want = xasprintf(": %s, %%p.1: !tt.ptr<%s>)", name, name);   /* printed names carry their number */
        ck_assert_msg(strstr(printed, want), "%s", printed);
        free(want);
        free(printed);
        ir_func_free(f);
        free(text);
        n++;
    }
    ck_assert_int_eq(n, TT_DTYPE_COUNT - 5);       /* all but u8..u64 and ptr */
}
END_TEST

/* n scf.if nested in each other's then-region (regions at levels 1..n). */
static void nested_if(strbuf *b, int n, int ind)
{
    if (!n) return;
    sb_printf(b, "%*sscf.if %%c {\n", ind, "");
    nested_if(b, n - 1, ind + 2);
    sb_printf(b, "%*sscf.yield\n%*s} {\n%*sscf.yield\n%*s}\n", ind + 2, "", ind, "", ind + 2, "", ind, "");
}

static char *nested_ifs(int n)
{
    strbuf b = { 0 };
    sb_puts(&b, "tt.func @k(%c: i1) {\n");
    nested_if(&b, n, 2);
    sb_puts(&b, "  tt.return\n}\n");
    return sb_take(&b);
}

/* The region depth limit (limits.h TT_MAX_REGION_DEPTH) is the parser's and
 * the printer's: IR nested at the limit prints and parses back to the same
 * text; one level more is refused by the parser, and the printer prints an
 * error in place of the deepest region (which the parser refuses again). */
START_TEST(deep_nesting)
{
    char *text = nested_ifs(TT_MAX_REGION_DEPTH);
    capture_begin();
    ir_func *f = ir_parse("deep.ttir", text);
    char *msgs = capture_end();
    ck_assert_msg(f != NULL, "%s", msgs);
    free(msgs);
    ck_assert_int_eq(ir_verify(f), 0);
    char *p1 = print_str(f);
    ck_assert_ptr_null(strstr(p1, "<error"));
    capture_begin();
    ir_func *g = ir_parse("deep2.ttir", p1);
    msgs = capture_end();
    ck_assert_msg(g != NULL, "%s", msgs);
    free(msgs);
    char *p2 = print_str(g);
    ck_assert_str_eq(p1, p2);
    free(p1);
    free(p2);
    ir_func_free(g);
    free(text);

    /* one past: the parser refuses it, naming the limit */
    text = nested_ifs(TT_MAX_REGION_DEPTH + 1);
    capture_begin();
    ck_assert_ptr_null(ir_parse("deep.ttir", text));
    msgs = capture_end();
    ck_assert_msg(strstr(msgs, "the nesting of the IR's regions exceeds the limit of 64 levels"), "%s", msgs);
    ck_assert_ptr_nonnull(strstr(msgs, "deep.ttir:"));
    free(msgs);
    free(text);

    /* one past, built in memory: the printer says so where the region would be */
    ir_value c = f->regions.v[IR_BODY].args[0];
    int32_t r = IR_BODY;
    for (int lvl = 0; lvl < TT_MAX_REGION_DEPTH; lvl++) r = f->regions.v[r].ops[0].region[0];
    ir_builder b = { f, r, -1 };
    ir_region *deepest = &f->regions.v[r];
    int yield = deepest->nops - 1;
    ck_assert_int_eq(deepest->ops[yield].opc, IR_YIELD);
    deepest->nops--;                                  /* the if goes before the yield */
    int idx = ir_emit(&b, IR_IF, 0, NULL, 1, &c);
    for (int k = 0; k < 2; k++) {                     /* then and else, each a yield */
        int32_t inner = ir_new_region(f, 0, NULL);
        ir_op_add_region(f, r, idx, inner);
        ir_builder bi = { f, inner, -1 };
        ir_emit(&bi, IR_YIELD, 0, NULL, 0, NULL);
    }
    ir_emit(&b, IR_YIELD, 0, NULL, 0, NULL);
    ck_assert_int_eq(ir_verify(f), 0);
    char *p3 = print_str(f);
    ck_assert_msg(strstr(p3, "<error: the nesting of the IR's regions exceeds the limit of 64 levels"), "%s", p3);
    capture_begin();
    ck_assert_ptr_null(ir_parse("deep3.ttir", p3));
    msgs = capture_end();
    ck_assert_msg(strstr(msgs, "exceeds the limit of 64 levels"), "%s", msgs);
    free(msgs);
    free(p3);
    ir_func_free(f);

    /* far past (100 levels, unclosed): still one clean diagnostic */
    strbuf sb = { 0 };
    sb_puts(&sb, "tt.func @k(%c: i1) {\n");
    for (int i = 0; i < 100; i++) sb_puts(&sb, "scf.if %c {\n");
    text = sb_take(&sb);
    capture_begin();
    ck_assert_ptr_null(ir_parse("deep.ttir", text));
    msgs = capture_end();
    ck_assert_ptr_nonnull(strstr(msgs, "exceeds the limit of 64 levels"));
    free(msgs);
    free(text);
}
END_TEST

/* 100k location aliases naming distinct files: the file lookup was a
 * linear search (in the parser and in the source registry), quadratic in
 * the number of files; the fuzzer stopped on it after 13 s. The case's
 * 15 s limit fails a quadratic parser. */
START_TEST(many_location_files)
{
    strbuf b = { 0 };
    sb_puts(&b, "tt.func private @k() {\n  tt.return loc(#loc99999)\n}\n");
    for (int i = 0; i < 100000; i++) sb_printf(&b, "#loc%d = loc(\"many/f%d.py\":%d:1)\n", i, i, i + 1);
    capture_begin();
    ir_func *f = ir_parse("manylocs.ttir", b.s);
    char *msgs = capture_end();
    ck_assert_msg(f != NULL, "%s", msgs);
    free(msgs);
    const ir_op *ret = ir_op_at(f, IR_BODY, 0);
    ck_assert_str_eq(diag_file_name(f->locs.v[ret->loc].file), "many/f99999.py");
    ck_assert_int_eq(f->locs.v[ret->loc].line, 100000);
    ck_assert_int_eq(diag_find_source("many/f12345.py"), f->locs.v[12345].file);
    ir_func_free(f);
    sb_free(&b);
}
END_TEST

TCase *text_tcase(void)
{
    TCase *tc = tcase_create("text");
    tcase_add_test(tc, golden_vector_add);
    tcase_add_test(tc, roundtrip_every_op);
    tcase_add_test(tc, high_rank_and_array_attrs);
    tcase_add_test(tc, print_op_and_names);
    tcase_add_test(tc, parse_hand_written);
    tcase_add_test(tc, scalar_types_roundtrip);
    tcase_add_test(tc, malformed_inputs);
    tcase_add_test(tc, fuzz_mutations);
    tcase_add_test(tc, deep_nesting);
    tcase_set_timeout(tc, 120);
    return tc;
}

TCase *text_limits_tcase(void)
{
    TCase *tc = tcase_create("text-limits");
    tcase_add_test(tc, many_location_files);
    tcase_set_timeout(tc, 15);
    return tc;
}
