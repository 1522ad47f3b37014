/* tinterp.h — helpers shared by the interp suite: a small kernel builder on
 * top of ir.h's builder that also assembles the launch, and the test cases.
 *
 * Every test builds its IR by hand, runs it, and compares the buffers with
 * a plain C loop written independently of the interpreter. */
#ifndef TINTERP_H
#define TINTERP_H

#include <check.h>
#include <stdarg.h>

#include "tritium/interp.h"
#include "tritium/ir.h"
#include "tritium/launch.h"
#include "tritium/tensor.h"

/* A kernel under construction and its launch. */
typedef struct kb {
    ir_func *f;
    ir_builder b;
    launch l;
    int file;                      /* diag source id, -1 when none */
} kb;

void kb_init(kb *k, const char *name);
/* Register a source text so reports quote it; later ops get line `line`. */
void kb_source(kb *k, const char *name, const char *text);
void kb_at(kb *k, int line, int col);
void kb_free(kb *k);

/* Kernel parameters (IR argument + launch argument). The tensor is owned
 * by the launch afterwards. */
ir_value kb_tensor_arg(kb *k, const char *name, tt_tensor *t);
ir_value kb_int_arg(kb *k, const char *name, tt_dtype irdt, int64_t v);
ir_value kb_float_arg(kb *k, const char *name, double v);
tt_tensor *kb_tensor(kb *k, int arg);

/* Types. */
ir_type ty(tt_dtype d);                                   /* scalar */
ir_type tyt_arr(tt_dtype d, int rank, const int64_t *shape);
ir_type typ(tt_dtype pointee);                            /* !tt.ptr<d> */
ir_type typt_arr(tt_dtype pointee, int rank, const int64_t *shape);
/* TYT(f32, 64, 32): tensor<64x32xf32>; TYPT: tensor of !tt.ptr<...> */
#define SHAPE_N(...) ((int)(sizeof((int64_t[]){ __VA_ARGS__ }) / sizeof(int64_t)))
#define TYT(d, ...) tyt_arr((d), SHAPE_N(__VA_ARGS__), (int64_t[]){ __VA_ARGS__ })
#define TYPT(d, ...) typt_arr((d), SHAPE_N(__VA_ARGS__), (int64_t[]){ __VA_ARGS__ })
ir_type ty_shape(ir_type shape_of, ir_type elem);

/* Ops: op(k, opc, result type, n operands...). */
ir_value op(kb *k, int opc, ir_type t, int n, ...);
/* Same, with attributes a0, a1. */
ir_value opa(kb *k, int opc, ir_type t, int64_t a0, int64_t a1, int n, ...);
void op0(kb *k, int opc, int n, ...);                     /* no result */
ir_value cint(kb *k, ir_type t, int64_t v);
ir_value cflt(kb *k, ir_type t, double v);
ir_value range(kb *k, int64_t start, int64_t end);        /* tensor<Nxi32> */
ir_value pid(kb *k, int axis);
ir_value splat(kb *k, ir_value v, ir_type t);
/* ptr + offs for a tensor of pointers shaped like offs. */
ir_value ptrs(kb *k, ir_value base, ir_value offs);
ir_value load(kb *k, ir_value p, ir_value mask, ir_value other);   /* mask/other -1: none */
void store(kb *k, ir_value p, ir_value v, ir_value mask);
void ret(kb *k);

/* Run the launch. `report` (may be NULL) receives the report text
 * (malloc'd). Returns interp_run_launch's result. */
int kb_run(kb *k, const interp_options *o, interp_stats *st, char **report);
/* Session for tests that drive it themselves (report to a memstream). */
interp_session *kb_session(kb *k, const interp_options *o);

/* out[i] = OP(in0[i], in1[i], ...) over n lanes of one program: nin input
 * tensors of dtype din, output dout, attribute attr (predicate). */
void ew_run(int opc, int64_t attr, tt_dtype din, tt_dtype dout, int nin, int64_t n, const void *const *in, void *out,
            const interp_options *o);

/* [M,N] i32 offsets i*stride + j (exercises expand_dims and broadcast). */
ir_value offs2d(kb *k, int64_t M, int64_t N, int64_t stride);
/* The vector-add kernel over n f32 elements (x[i] = i/2, y[i] = i%97 - 40)
 * writing an out buffer of out_n elements, BLOCK = block, grid cdiv(n,
 * block); masked or not. Source "vadd.py" is registered: the loads are on
 * lines 6 and 7, the store on line 8 (column 5). Arguments: 0 x_ptr, 1
 * y_ptr, 2 out_ptr, 3 n. */
void build_vadd(kb *k, int64_t n, int64_t out_n, int64_t block, bool masked);

/* f16 helpers through dtype.c (independent of the interpreter's own). */
float h2f(uint16_t h);
uint16_t f2h(float f);

TCase *arith_tcase(void);
TCase *cast_tcase(void);
TCase *shape_tcase(void);
TCase *mem_tcase(void);
TCase *report_tcase(void);
TCase *reduce_tcase(void);
TCase *dot_tcase(void);
TCase *scf_tcase(void);
TCase *sched_tcase(void);
TCase *hook_tcase(void);
TCase *heads_tcase(void);

#endif
