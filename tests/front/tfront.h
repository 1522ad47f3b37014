/* tfront.h — shared helpers of the front-end test suite (suite 'front').
 *
 * Kernels are given as strings, compiled with front_load_text + front_compile
 * for a launch built from a compact spec, and the resulting IR is inspected
 * through ir.h (ops by opcode, result types, attributes). Every expected value
 * comes from docs/reference/triton-semantics.md (Triton 3.6), not from what the
 * front end happens to do. */
#ifndef TFRONT_H
#define TFRONT_H

#include <check.h>
#include <stdio.h>
#include <string.h>
#include "tritium/front.h"
#include "tritium/ir.h"
#include "tritium/launch.h"
#include "tritium/tensor.h"
#include "tritium/diag.h"

/* Test prelude: two imports then "@triton.jit" on line 3, so that `def` is
 * line 4 and the first body line is line 5. */
#define PRELUDE "import triton\nimport triton.language as tl\n@triton.jit\n"

/* ---- diagnostics capture ---- */
void cap_start(void);
/* Stop capturing; returns everything printed since cap_start (valid until
 * the next cap_start). */
const char *cap_end(void);
/* Number of occurrences of `needle` in `hay`. */
int count_str(const char *hay, const char *needle);

/* ---- launches ----
 * spec: space-separated items
 *   NAME:*DT[d0,d1]  tensor argument of dtype DT (tt_dtype_parse names:
 *                    f16, bf16, f32, f64, i8, i16, i32, i64, u8, u32, bool),
 *                    shape optional (default [1024])
 *   NAME:DT[=V]      scalar argument: integer dtypes give ARG_INT with that
 *                    dtype, f32 gives ARG_FLOAT; V defaults to 1
 *   NAME=V           constexpr: an integer, a float (has '.' or 'e'),
 *                    True/False, None, 'string', or tl.DTYPE
 * The launch owns its memory; free it with launch_free. */
void mk_launch(launch *l, const char *spec);

/* ---- compiling ----
 * compile_src: load `src` (registered as "k.py") and compile `kernel`.
 * Returns the function or NULL; the diagnostics printed by both steps are
 * returned in *diag (may be NULL). */
ir_func *compile_src(const char *src, const char *kernel, const char *spec, const char **diag);
/* Compile; fail the test (showing the diagnostics) unless it succeeds. */
ir_func *compile_ok(const char *src, const char *kernel, const char *spec);
/* Compile; fail the test unless it fails with at least one error. Returns
 * the diagnostics text. */
const char *compile_err(const char *src, const char *kernel, const char *spec);

/* ---- IR queries ---- */
/* Ops with opcode opc in every region / in one region. */
int count_ops(const ir_func *f, int opc);
int count_ops_in(const ir_func *f, int region, int opc);
/* All ops in all regions. */
int total_ops(const ir_func *f);
/* The nth (0-based) op with opcode opc, scanning regions in id order; NULL
 * when there are fewer. *region / *index receive its position when non-NULL. */
ir_op *find_op(ir_func *f, int opc, int nth);
ir_op *find_op_at(ir_func *f, int opc, int nth, int *region, int *index);
/* Type of a value / of an op's first result as text ("tensor<16xf32>").
 * Strings rotate through 8 static buffers. */
const char *vtype(const ir_func *f, ir_value v);
const char *rtype(const ir_func *f, const ir_op *op);
/* The last value named `name` (source variable name), or -1. */
ir_value find_named(const ir_func *f, const char *name);
/* Follow tt.splat / tt.broadcast back to an arith.constant; returns true and
 * its value (integer constants converted) when v is such a constant. */
bool const_of(ir_func *f, ir_value v, double *out);
/* Opcode of the op defining v, or -1 for arguments. */
int def_opc(ir_func *f, ir_value v);
/* The op's region (last op of a region is its terminator). */
ir_op *last_op(ir_func *f, int region);

/* ---- suites ---- */
TCase *tc_promote(void);
TCase *tc_assign(void);
TCase *tc_control(void);
TCase *tc_helpers(void);
TCase *tc_builtins(void);
TCase *tc_module(void);
TCase *tc_diag(void);
TCase *tc_host(void);
TCase *tc_expr(void);
TCase *tc_golden(void);
TCase *tc_random(void);
TCase *tc_blockptr(void);
TCase *tc_tdesc(void);
TCase *tc_limits(void);
TCase *tc_fp8(void);
TCase *tc_tuple(void);
TCase *tc_deadcode(void);
TCase *tc_live(void);
TCase *tc_lang39(void);
/* Expectations the front end does not meet yet (front-end bugs); run only
 * with TRITIUM_FRONT_KNOWN_BUGS=1. */
TCase *tc_known_bugs(void);

#endif
