/* tir.h — shared helpers of the ir suite. */
#ifndef TIR_H
#define TIR_H
#include <check.h>
#include "tritium/ir.h"

TCase *text_tcase(void);
TCase *text_limits_tcase(void);
TCase *verify_tcase(void);

/* Common types, set up by tir_types(). */
extern ir_type I1, I8, I16, I32, I64, F16, BF16, F32, F64;
void tir_types(void);
ir_type tensor1(ir_type elem, int64_t n);
ir_type tensor2(ir_type elem, int64_t m, int64_t n);

/* Emit an op with one result and n operands given as varargs. */
ir_value op1(ir_builder *b, int opc, ir_type t, int n, ...);
/* Emit an op without results. */
void op0(ir_builder *b, int opc, int n, ...);
/* Set attribute slot i of the op that defines v. */
void set_attr(ir_func *f, ir_value v, int i, int64_t a);

/* Capture diagnostics: begin redirects diag output into memory, end
 * restores it and returns what was written (caller frees). */
void capture_begin(void);
char *capture_end(void);

/* ir_print into a malloc'd string. */
char *print_str(const ir_func *f);
#endif
