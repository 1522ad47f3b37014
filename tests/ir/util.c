/* util.c — helpers of the ir suite. */
#include <stdarg.h>
#include <stdio.h>
#include "tir.h"

ir_type I1, I8, I16, I32, I64, F16, BF16, F32, F64;

void tir_types(void)
{
    I1 = ir_scalar(TT_BOOL); I8 = ir_scalar(TT_I8); I16 = ir_scalar(TT_I16);
    I32 = ir_scalar(TT_I32); I64 = ir_scalar(TT_I64); F16 = ir_scalar(TT_F16);
    BF16 = ir_scalar(TT_BF16); F32 = ir_scalar(TT_F32); F64 = ir_scalar(TT_F64);
}

ir_type tensor1(ir_type elem, int64_t n) { return ir_tensor(elem, 1, &n); }
ir_type tensor2(ir_type elem, int64_t m, int64_t n) { return ir_tensor(elem, 2, (int64_t[]){ m, n }); }

ir_value op1(ir_builder *b, int opc, ir_type t, int n, ...)
{
    ir_value v[8];
    va_list ap;
    va_start(ap, n);
    for (int i = 0; i < n; i++) v[i] = va_arg(ap, ir_value);
    va_end(ap);
    return ir_emit1(b, opc, t, n, v);
}

void op0(ir_builder *b, int opc, int n, ...)
{
    ir_value v[8];
    va_list ap;
    va_start(ap, n);
    for (int i = 0; i < n; i++) v[i] = va_arg(ap, ir_value);
    va_end(ap);
    ir_emit(b, opc, 0, NULL, n, v);
}

void set_attr(ir_func *f, ir_value v, int i, int64_t a) { ir_def(f, v)->attr[i] = a; }

static char *cap_buf;
static size_t cap_len;
static FILE *cap_f;

void capture_begin(void)
{
    cap_f = open_memstream(&cap_buf, &cap_len);
    diag_set_stream(cap_f);
}

char *capture_end(void)
{
    diag_set_stream(NULL);
    fclose(cap_f);
    return cap_buf;
}

char *print_str(const ir_func *f)
{
    char *buf;
    size_t len;
    FILE *m = open_memstream(&buf, &len);
    ir_print(m, f);
    fclose(m);
    return buf;
}
