/* test_control.c — control flow (docs/reference/triton-semantics.md §2.1): static if on
 * constexprs, runtime if -> scf.if with results, runtime for -> scf.for with
 * loop-carried values, tl.static_range unrolling, while -> scf.while, and the
 * constructs Triton rejects. */
#include "tfront.h"

static const char static_if_src[] = PRELUDE
    "def k(X, Z, FLAG: tl.constexpr, ACT: tl.constexpr, BIAS: tl.constexpr):\n"
    "    offs = tl.arange(0, 16)\n"
    "    x = tl.load(X + offs)\n"
    "    if FLAG:\n"
    "        z = x * 2.0\n"
    "    else:\n"
    "        z = x + 3.0\n"
    "    if ACT == 'relu':\n"
    "        z = tl.maximum(z, 0.0)\n"
    "    elif ACT == 'exp':\n"
    "        z = tl.exp(z)\n"
    "    if BIAS is not None:\n"
    "        z = z - 1.0\n"
    "    tl.store(Z + offs, z)\n";

/* Only the taken branch is compiled: no scf.if, the other branch's ops absent. */
START_TEST(static_if_compiles_taken_branch)
{
    ir_func *f = compile_ok(static_if_src, "k", "X:*f32[16] Z:*f32[16] FLAG=True ACT='relu' BIAS=None");
    ck_assert_int_eq(count_ops(f, IR_IF), 0);
    ck_assert_int_eq(count_ops(f, IR_MULF), 1);
    ck_assert_int_eq(count_ops(f, IR_ADDF), 0);
    ck_assert_int_eq(count_ops(f, IR_MAXNUMF), 1);
    ck_assert_int_eq(count_ops(f, IR_EXP), 0);
    ck_assert_int_eq(count_ops(f, IR_SUBF), 0);
    ck_assert_int_eq(f->regions.n, 1);
    ir_func_free(f);

    f = compile_ok(static_if_src, "k", "X:*f32[16] Z:*f32[16] FLAG=False ACT='exp' BIAS=2");
    ck_assert_int_eq(count_ops(f, IR_IF), 0);
    ck_assert_int_eq(count_ops(f, IR_MULF), 0);
    ck_assert_int_eq(count_ops(f, IR_ADDF), 1);
    ck_assert_int_eq(count_ops(f, IR_MAXNUMF), 0);
    ck_assert_int_eq(count_ops(f, IR_EXP), 1);
    ck_assert_int_eq(count_ops(f, IR_SUBF), 1);
    ir_func_free(f);
}
END_TEST

/* The untaken branch is not even type-checked (it would be an error). */
START_TEST(static_if_skips_invalid_branch)
{
    static const char src[] = PRELUDE
        "def k(X, N: tl.constexpr):\n"
        "    if N > 100:\n"
        "        r = tl.arange(0, 3)\n"
        "    else:\n"
        "        r = tl.arange(0, 4)\n"
        "    tl.store(X + r, 1.0)\n";
    ir_func *f = compile_ok(src, "k", "X:*f32[16] N=8");
    ck_assert_int_eq(find_op(f, IR_MAKE_RANGE, 0)->attr[1], 4);
    ir_func_free(f);
}
END_TEST

/* Runtime if -> scf.if yielding the variables assigned in the branches. */
START_TEST(runtime_if_results)
{
    static const char src[] = PRELUDE
        "def k(X, Z, s):\n"
        "    offs = tl.arange(0, 16)\n"
        "    x = tl.load(X + offs)\n"
        "    w = x\n"
        "    if s > 0:\n"
        "        z = x * 2.0\n"
        "        w = x - 1.0\n"
        "    else:\n"
        "        z = x + 3.0\n"
        "    tl.store(Z + offs, z + w)\n";
    ir_func *f = compile_ok(src, "k", "X:*f32[16] Z:*f32[16] s:i32=3");
    int reg, idx;
    ir_op *ifop = find_op_at(f, IR_IF, 0, &reg, &idx);
    ck_assert_ptr_nonnull(ifop);
    ck_assert_int_eq(reg, IR_BODY);
    ck_assert_int_eq(ifop->nres, 2);                      /* z (both branches) and w (live-in) */
    ck_assert_str_eq(vtype(f, ifop->res), "tensor<16xf32>");
    ck_assert_str_eq(vtype(f, ifop->res + 1), "tensor<16xf32>");
    ck_assert_str_eq(vtype(f, ifop->opnd[0]), "i1");
    int rt = ifop->region[0], re = ifop->region[1];
    ck_assert_int_eq(count_ops_in(f, rt, IR_MULF), 1);
    ck_assert_int_eq(count_ops_in(f, rt, IR_ADDF), 0);
    ck_assert_int_eq(count_ops_in(f, re, IR_ADDF), 1);
    ck_assert_int_eq(count_ops_in(f, re, IR_MULF), 0);
    ir_op *yt = last_op(f, rt), *ye = last_op(f, re);
    ck_assert_int_eq(yt->opc, IR_YIELD);
    ck_assert_int_eq(ye->opc, IR_YIELD);
    ck_assert_int_eq(yt->nopnd, 2);
    ck_assert_int_eq(ye->nopnd, 2);
    /* the else branch yields w unchanged: the value loaded before the if */
    int wi = def_opc(f, yt->opnd[0]) == IR_SUBF ? 0 : 1;
    ck_assert_int_eq(def_opc(f, yt->opnd[wi]), IR_SUBF);
    ck_assert_int_eq(def_opc(f, ye->opnd[wi]), IR_LOAD);
    /* the store after the if uses the if's results */
    ir_op *add = ir_def(f, find_op(f, IR_STORE, 0)->opnd[1]);
    ck_assert_int_eq(add->opc, IR_ADDF);
    ck_assert_int_ge(add->opnd[0], ifop->res);
    ck_assert_int_le(add->opnd[0], ifop->res + 1);
    ir_func_free(f);
}
END_TEST

/* A variable defined in only one branch is not visible after the if. */
START_TEST(runtime_if_one_branch_name_invisible)
{
    static const char src[] = PRELUDE
        "def k(X, s):\n"
        "    x = tl.load(X)\n"
        "    if s > 0:\n"
        "        t = x * 2.0\n"
        "    tl.store(X, t)\n";
    const char *d = compile_err(src, "k", "X:*f32[16] s:i32=3");
    ck_assert_msg(strstr(d, "k.py:8:") && strstr(d, "'t'"), "%s", d);
}
END_TEST

/* Both branches must give a live-in variable the same type. */
START_TEST(runtime_if_type_mismatch)
{
    static const char src[] = PRELUDE
        "def k(X, s):\n"
        "    x = tl.load(X)\n"
        "    z = x\n"
        "    if s > 0:\n"
        "        z = x * 2.0\n"
        "    else:\n"
        "        z = 1\n"
        "    tl.store(X, z)\n";
    const char *d = compile_err(src, "k", "X:*f32[16] s:i32=3");
    ck_assert_msg(strstr(d, "z"), "%s", d);
}
END_TEST

static const char for_src[] = PRELUDE
    "def k(X, Z, n):\n"
    "    offs = tl.arange(0, 16)\n"
    "    acc = tl.zeros([16], tl.float32)\n"
    "    for i in range(0, n):\n"
    "        acc += tl.load(X + i * 16 + offs)\n"
    "    tl.store(Z + offs, acc)\n";

/* Runtime for -> scf.for lb, ub, step, inits; body args (iv, carried). */
START_TEST(runtime_for_carried)
{
    ir_func *f = compile_ok(for_src, "k", "X:*f32[1024] Z:*f32[16] n:i32=4");
    int reg;
    ir_op *fo = find_op_at(f, IR_FOR, 0, &reg, NULL);
    ck_assert_ptr_nonnull(fo);
    ck_assert_int_eq(reg, IR_BODY);
    ck_assert_int_eq(fo->nopnd, 4);
    ck_assert_int_eq(fo->nres, 1);
    ck_assert_str_eq(vtype(f, fo->res), "tensor<16xf32>");
    for (int i = 0; i < 3; i++) ck_assert_str_eq(vtype(f, fo->opnd[i]), "i32");
    double c;
    ck_assert(const_of(f, fo->opnd[0], &c) && c == 0);              /* lb 0 */
    ck_assert_int_eq(fo->opnd[1], f->regions.v[IR_BODY].args[2]);   /* ub n */
    ck_assert(const_of(f, fo->opnd[2], &c) && c == 1);              /* step 1 */
    ck_assert_int_eq(def_opc(f, fo->opnd[3]), IR_CONSTANT);         /* acc init: zeros */
    ir_region *body = &f->regions.v[fo->region[0]];
    ck_assert_int_eq(body->nargs, 2);
    ck_assert_str_eq(vtype(f, body->args[0]), "i32");
    ck_assert_str_eq(vtype(f, body->args[1]), "tensor<16xf32>");
    ir_op *y = last_op(f, fo->region[0]);
    ck_assert_int_eq(y->opc, IR_YIELD);
    ck_assert_int_eq(y->nopnd, 1);
    ir_op *add = ir_def(f, y->opnd[0]);
    ck_assert_int_eq(add->opc, IR_ADDF);
    ck_assert(add->opnd[0] == body->args[1] || add->opnd[1] == body->args[1]);
    /* the store after the loop stores the loop's result */
    ck_assert_int_eq(find_op(f, IR_STORE, 0)->opnd[1], fo->res);
    ir_func_free(f);
}
END_TEST

/* The induction variable is int64 when a bound is int64. */
START_TEST(for_iv_type_follows_bounds)
{
    ir_func *f = compile_ok(for_src, "k", "X:*f32[1024] Z:*f32[16] n:i64=4");
    ir_op *fo = find_op(f, IR_FOR, 0);
    ck_assert_str_eq(vtype(f, f->regions.v[fo->region[0]].args[0]), "i64");
    ir_func_free(f);
}
END_TEST

START_TEST(for_carried_type_change_is_error)
{
    static const char src[] = PRELUDE
        "def k(X, n):\n"
        "    acc = 0\n"
        "    for i in range(n):\n"
        "        acc = acc + 1.5\n"
        "    tl.store(X, acc)\n";
    const char *d = compile_err(src, "k", "X:*f32[16] n:i32=4");
    ck_assert_msg(strstr(d, "acc"), "error must name the variable:\n%s", d);

    static const char src2[] = PRELUDE
        "def k(X, n):\n"
        "    offs = tl.arange(0, 16)\n"
        "    acc = tl.zeros([16], tl.float16)\n"
        "    for i in range(n):\n"
        "        acc += tl.load(X + offs)\n"
        "    tl.store(X + offs, acc)\n";
    d = compile_err(src2, "k", "X:*f32[16] n:i32=4");
    ck_assert_msg(strstr(d, "acc"), "error must name the variable:\n%s", d);

    static const char shape[] = PRELUDE
        "def k(X, n):\n"
        "    v = tl.zeros([16], tl.float32)\n"
        "    for i in range(n):\n"
        "        v = tl.zeros([32], tl.float32)\n"
        "    tl.store(X + tl.arange(0, 16), v)\n";
    d = compile_err(shape, "k", "X:*f32[16] n:i32=4");
    ck_assert_msg(strstr(d, "v"), "error must name the variable:\n%s", d);
}
END_TEST

/* A name first defined in a loop body is not visible after the loop. */
START_TEST(loop_local_name_invisible_after)
{
    static const char src[] = PRELUDE
        "def k(X, n):\n"
        "    x = tl.load(X)\n"
        "    for i in range(n):\n"
        "        t = x + 1.0\n"
        "    tl.store(X, t)\n";
    const char *d = compile_err(src, "k", "X:*f32[16] n:i32=4");
    ck_assert_msg(strstr(d, "k.py:8:") && strstr(d, "'t'") && !strstr(d, "internal error"), "%s", d);
}
END_TEST

START_TEST(static_range_unrolls)
{
    static const char src[] = PRELUDE
        "def k(X, Z):\n"
        "    offs = tl.arange(0, 16)\n"
        "    acc = tl.zeros([16], tl.float32)\n"
        "    for i in tl.static_range(4):\n"
        "        acc += tl.load(X + i * 16 + offs)\n"
        "    for j in tl.static_range(1, 8, 3):\n"
        "        acc = acc * j\n"
        "    for j in tl.static_range(6, 0, -2):\n"
        "        acc = acc - j\n"
        "    tl.store(Z + offs, acc)\n";
    ir_func *f = compile_ok(src, "k", "X:*f32[64] Z:*f32[16]");
    ck_assert_int_eq(count_ops(f, IR_FOR), 0);
    ck_assert_int_eq(f->regions.n, 1);
    ck_assert_int_eq(count_ops(f, IR_LOAD), 4);
    ck_assert_int_eq(count_ops(f, IR_ADDF), 4);
    ck_assert_int_eq(count_ops(f, IR_MULF), 3);          /* j = 1, 4, 7 */
    ck_assert_int_eq(count_ops(f, IR_SUBF), 3);          /* j = 6, 4, 2 */
    /* the loop variable is a constexpr: the multipliers are constants 1, 4, 7 */
    double want[3] = { 1, 4, 7 };
    for (int i = 0; i < 3; i++) {
        ir_op *m = find_op(f, IR_MULF, i);
        double c = -1;
        ck_assert_msg(const_of(f, m->opnd[1], &c) && c == want[i], "multiplier %d is %g", i, c);
    }
    ir_func_free(f);
}
END_TEST

START_TEST(while_loop)
{
    static const char src[] = PRELUDE
        "def k(X, n):\n"
        "    i = 0\n"
        "    s = 0.0\n"
        "    while i < n:\n"
        "        s += tl.load(X + i)\n"
        "        i += 1\n"
        "    tl.store(X, s)\n";
    ir_func *f = compile_ok(src, "k", "X:*f32[16] n:i32=4");
    ck_assert_int_eq(count_ops(f, IR_FOR), 0);
    int reg;
    ir_op *w = find_op_at(f, IR_WHILE, 0, &reg, NULL);
    ck_assert_ptr_nonnull(w);
    ck_assert_int_eq(reg, IR_BODY);
    ck_assert_int_eq(w->nres, 2);
    ck_assert_int_eq(w->nopnd, 2);
    ck_assert_int_eq(w->nregions, 2);
    ir_op *cond = last_op(f, w->region[0]);
    ck_assert_int_eq(cond->opc, IR_CONDITION);
    ck_assert_str_eq(vtype(f, cond->opnd[0]), "i1");
    ck_assert_int_eq(def_opc(f, cond->opnd[0]), IR_CMPI);
    ck_assert_int_eq(ir_def(f, cond->opnd[0])->attr[0], CMPI_SLT);
    ck_assert_int_eq(last_op(f, w->region[1])->opc, IR_YIELD);
    ck_assert_int_eq(last_op(f, w->region[1])->nopnd, 2);
    char t[2][32];
    snprintf(t[0], 32, "%s", vtype(f, w->res));
    snprintf(t[1], 32, "%s", vtype(f, w->res + 1));
    ck_assert(( !strcmp(t[0], "i32") && !strcmp(t[1], "f32")) || (!strcmp(t[0], "f32") && !strcmp(t[1], "i32")));
    ir_func_free(f);
}
END_TEST

static void loop_reject(const char *stmt, const char *loop, int line, const char *substr)
{
    char src[512];
    snprintf(src, sizeof src, PRELUDE
             "def k(X, n):\n"
             "    i = 0\n"
             "    %s\n"
             "        i += 1\n"
             "        %s\n"
             "    tl.store(X, i)\n", loop, stmt);
    const char *d = compile_err(src, "k", "X:*i32[16] n:i32=4");
    char where[32];
    snprintf(where, sizeof where, "k.py:%d:", line);
    ck_assert_msg(strstr(d, where), "'%s' in '%s': expected an error on line %d:\n%s", stmt, loop, line, d);
    if (substr) ck_assert_msg(strstr(d, substr), "'%s': message lacks '%s':\n%s", stmt, substr, d);
}

START_TEST(break_continue_return_in_loops)
{
    loop_reject("break", "for j in range(n):", 8, "break");
    loop_reject("continue", "for j in range(n):", 8, "continue");
    loop_reject("break", "while i < n:", 8, "break");
    loop_reject("continue", "while i < n:", 8, "continue");
    loop_reject("return", "for j in range(n):", 8, "return");
    loop_reject("return", "while i < n:", 8, "return");
    loop_reject("pass", "for j in range(n, else_=1):", 6, NULL);   /* unknown keyword to range */
    /* else on a loop */
    static const char els[] = PRELUDE
        "def k(X, n):\n"
        "    for j in range(n):\n"
        "        pass\n"
        "    else:\n"
        "        pass\n";
    const char *d = compile_err(els, "k", "X:*i32[16] n:i32=4");
    ck_assert_msg(strstr(d, "k.py:7:"), "%s", d);
}
END_TEST

/* A negative constexpr step is rewritten so that Python range semantics
 * hold; it still compiles to one scf.for. */
START_TEST(negative_constexpr_step)
{
    static const char src[] = PRELUDE
        "def k(X, N: tl.constexpr):\n"
        "    acc = 0\n"
        "    for i in range(N - 1, -1, -1):\n"
        "        acc += tl.load(X + i)\n"
        "    for j in range(10, 0, -3):\n"
        "        acc += j\n"
        "    tl.store(X, acc)\n";
    ir_func *f = compile_ok(src, "k", "X:*i32[16] N=8");
    ck_assert_int_eq(count_ops(f, IR_FOR), 2);
    ir_func_free(f);
}
END_TEST

/* range() is always a runtime scf.for, even with constexpr bounds (§2.1). */
START_TEST(range_with_constexpr_bounds_is_runtime)
{
    static const char src[] = PRELUDE
        "def k(X, N: tl.constexpr):\n"
        "    acc = 0.0\n"
        "    for i in range(0, N):\n"
        "        acc += tl.load(X + i)\n"
        "    tl.store(X, acc)\n";
    ir_func *f = compile_ok(src, "k", "X:*f32[16] N=4");
    ck_assert_int_eq(count_ops(f, IR_FOR), 1);
    ck_assert_int_eq(count_ops(f, IR_LOAD), 1);
    double c;
    ck_assert(const_of(f, find_op(f, IR_FOR, 0)->opnd[1], &c) && c == 4);
    ir_func_free(f);
}
END_TEST

START_TEST(loop_variants)
{
    static const char src[] = PRELUDE
        "def k(X, n, m):\n"
        "    p = X\n"
        "    acc = 0.0\n"
        "    for i in tl.range(0, n, 2, num_stages=3, loop_unroll_factor=2):\n"
        "        for j in range(m):\n"
        "            acc += tl.load(p + j)\n"
        "        p += m\n"
        "    tl.store(X, acc)\n";
    ir_func *f = compile_ok(src, "k", "X:*f32[64] n:i32=4 m:i32=4");
    ck_assert_int_eq(count_ops(f, IR_FOR), 2);
    ir_op *outer = find_op(f, IR_FOR, 0);
    int oreg;
    find_op_at(f, IR_FOR, 0, &oreg, NULL);
    ck_assert_int_eq(oreg, IR_BODY);
    ck_assert_int_eq(outer->nres, 2);                    /* p and acc */
    double c;
    ck_assert(const_of(f, outer->opnd[2], &c) && c == 2);
    bool has_ptr = false;
    for (int i = 0; i < outer->nres; i++) has_ptr |= !strcmp(vtype(f, outer->res + i), "!tt.ptr<f32>");
    ck_assert_msg(has_ptr, "the pointer p must be loop-carried");
    ir_func_free(f);
}
END_TEST


/* ---- known bugs ---- */

/* code_generator.visit_then_else_blocks: a live-in variable redefined in a
 * branch must keep its live-in type, even when both branches agree. */
START_TEST(if_livein_type_change)
{
    static const char src[] = PRELUDE
        "def k(X, s):\n"
        "    z = 0\n"
        "    if s > 0:\n"
        "        z = 1.0\n"
        "    else:\n"
        "        z = 2.0\n"
        "    tl.store(X, z)\n";
    const char *d = compile_err(src, "k", "X:*f32[16] s:i32=3");
    ck_assert_msg(strstr(d, "z"), "%s", d);
}
END_TEST

/* visit_then_else_blocks: a name defined in both branches (not live-in) with
 * different types is an error even when unused afterwards. */
START_TEST(if_branch_types_differ_unused)
{
    static const char src[] = PRELUDE
        "def k(X, s):\n"
        "    x = tl.load(X)\n"
        "    if s > 0:\n"
        "        z = x\n"
        "    else:\n"
        "        z = 1\n"
        "    tl.store(X, x)\n";
    const char *d = compile_err(src, "k", "X:*f32[16] s:i32=3");
    ck_assert_msg(strstr(d, "z"), "%s", d);
}
END_TEST

/* code_generator.visit_IfExp: a ternary with a tensor condition is an
 * scf.if (only the taken side runs: here a load that may be out of bounds),
 * and both sides must have the same type (§2.1 "If"). */
START_TEST(runtime_ternary_is_scf_if)
{
    static const char src[] = PRELUDE
        "def k(X, s):\n"
        "    z = tl.load(X + 100) if s > 0 else 0.0\n"
        "    tl.store(X, z)\n";
    ir_func *f = compile_ok(src, "k", "X:*f32[16] s:i32=0");
    ck_assert_int_eq(count_ops(f, IR_IF), 1);
    ck_assert_msg(count_ops_in(f, IR_BODY, IR_LOAD) == 0, "the load must run only when s > 0");
    ir_func_free(f);
    static const char mismatch[] = PRELUDE
        "def k(X, s):\n"
        "    z = tl.load(X) if s > 0 else 1\n"
        "    tl.store(X, z)\n";
    compile_err(mismatch, "k", "X:*f32[16] s:i32=0");
}
END_TEST

/* §2.1: "A runtime if containing return is allowed only at top level,
 * outside loops" (visit_if_top_level): the common `if pid >= n: return`. */
START_TEST(early_return_in_runtime_if)
{
    static const char src[] = PRELUDE
        "def k(X, n):\n"
        "    pid = tl.program_id(0)\n"
        "    if pid >= n:\n"
        "        return\n"
        "    tl.store(X + pid, 1.0)\n";
    ir_func *f = compile_ok(src, "k", "X:*f32[16] n:i32=4");
    ck_assert_msg(count_ops_in(f, IR_BODY, IR_STORE) == 0, "the store must be skipped when pid >= n");
    ck_assert_int_eq(count_ops(f, IR_STORE), 1);
    ir_func_free(f);
}
END_TEST

/* Tuples are triton values: a tuple reassigned in a runtime if is an scf.if
 * result (visit_then_else_blocks flattens it). The update must not be
 * dropped silently (an error would at least be honest). */
START_TEST(tuple_updated_in_runtime_if)
{
    static const char src[] = PRELUDE
        "def k(X, s):\n"
        "    x = tl.load(X)\n"
        "    y = tl.load(X + 1)\n"
        "    t = (x, y)\n"
        "    if s > 0:\n"
        "        t = (y, x)\n"
        "    tl.store(X, t[0])\n";
    const char *d;
    ir_func *f = compile_src(src, "k", "X:*f32[16] s:i32=3", &d);
    if (f) {
        ir_op *st = find_op(f, IR_STORE, 0);
        ck_assert_msg(def_opc(f, st->opnd[1]) == IR_IF, "t[0] after the if must be the if's result, not x");
        ir_func_free(f);
    }
}
END_TEST

void add_control_known_bugs(TCase *tc);
void add_control_known_bugs(TCase *tc)
{
    (void)tc;
}

TCase *tc_control(void)
{
    TCase *tc = tcase_create("control");
    tcase_add_test(tc, static_if_compiles_taken_branch);
    tcase_add_test(tc, static_if_skips_invalid_branch);
    tcase_add_test(tc, runtime_if_results);
    tcase_add_test(tc, runtime_if_one_branch_name_invisible);
    tcase_add_test(tc, runtime_if_type_mismatch);
    tcase_add_test(tc, runtime_for_carried);
    tcase_add_test(tc, for_iv_type_follows_bounds);
    tcase_add_test(tc, for_carried_type_change_is_error);
    tcase_add_test(tc, loop_local_name_invisible_after);
    tcase_add_test(tc, static_range_unrolls);
    tcase_add_test(tc, while_loop);
    tcase_add_test(tc, break_continue_return_in_loops);
    tcase_add_test(tc, negative_constexpr_step);
    tcase_add_test(tc, range_with_constexpr_bounds_is_runtime);
    tcase_add_test(tc, loop_variants);
    tcase_add_test(tc, runtime_ternary_is_scf_if);
    tcase_add_test(tc, early_return_in_runtime_if);
    tcase_add_test(tc, tuple_updated_in_runtime_if);
    tcase_add_test(tc, if_livein_type_change);
    tcase_add_test(tc, if_branch_types_differ_unused);
    return tc;
}
