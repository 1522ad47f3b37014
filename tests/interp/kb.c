/* kb.c — the kernel builder used by the interp suite (tinterp.h). */
#include "tinterp.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void kb_init(kb *k, const char *name)
{
    memset(k, 0, sizeof *k);
    k->f = ir_func_new(name);
    k->b.fn = k->f;
    k->b.region = IR_BODY;
    k->b.loc = -1;
    k->file = -1;
    k->l.grid[0] = k->l.grid[1] = k->l.grid[2] = 1;
    k->l.num_warps = 4;
}

void kb_source(kb *k, const char *name, const char *text) { k->file = diag_add_source(name, text); }

void kb_at(kb *k, int line, int col) { k->b.loc = ir_add_loc(k->f, k->file, line, col, -1, k->f->name); }

void kb_free(kb *k)
{
    launch_free(&k->l);
    ir_func_free(k->f);
}

static launch_arg *new_arg(kb *k, const char *name)
{
    k->l.args = realloc(k->l.args, sizeof *k->l.args * (size_t)(k->l.nargs + 1));
    launch_arg *a = &k->l.args[k->l.nargs++];
    memset(a, 0, sizeof *a);
    a->name = strdup(name);
    return a;
}

ir_value kb_tensor_arg(kb *k, const char *name, tt_tensor *t)
{
    launch_arg *a = new_arg(k, name);
    a->kind = ARG_TENSOR;
    a->tensor = t;
    a->dtype = t->dtype;
    return ir_add_arg(k->f, name, ir_ptr(ir_scalar(t->dtype)), t->dtype, true);
}

ir_value kb_int_arg(kb *k, const char *name, tt_dtype irdt, int64_t v)
{
    launch_arg *a = new_arg(k, name);
    a->kind = ARG_INT;
    a->dtype = irdt == TT_I64 ? TT_I64 : TT_I32;
    a->i = v;
    return ir_add_arg(k->f, name, ir_scalar(irdt), irdt, false);
}

ir_value kb_float_arg(kb *k, const char *name, double v)
{
    launch_arg *a = new_arg(k, name);
    a->kind = ARG_FLOAT;
    a->dtype = TT_F32;
    a->f = v;
    return ir_add_arg(k->f, name, ir_scalar(TT_F32), TT_F32, false);
}

tt_tensor *kb_tensor(kb *k, int arg) { return k->l.args[arg].tensor; }

ir_type ty(tt_dtype d) { return ir_scalar(d); }

ir_type tyt_arr(tt_dtype d, int rank, const int64_t *shape) { return ir_tensor(ir_scalar(d), rank, shape); }

ir_type typ(tt_dtype pointee) { return ir_ptr(ir_scalar(pointee)); }

ir_type typt_arr(tt_dtype pointee, int rank, const int64_t *shape)
{
    return ir_tensor(ir_ptr(ir_scalar(pointee)), rank, shape);
}

ir_type ty_shape(ir_type shape_of, ir_type elem) { return ir_type_with_elem(shape_of, elem); }

static ir_value emit_va(kb *k, int opc, ir_type t, int n, va_list ap)
{
    ir_value v[16];
    for (int i = 0; i < n; i++) v[i] = va_arg(ap, ir_value);
    return ir_emit1(&k->b, opc, t, n, v);
}

ir_value op(kb *k, int opc, ir_type t, int n, ...)
{
    va_list ap;
    va_start(ap, n);
    ir_value r = emit_va(k, opc, t, n, ap);
    va_end(ap);
    return r;
}

ir_value opa(kb *k, int opc, ir_type t, int64_t a0, int64_t a1, int n, ...)
{
    va_list ap;
    va_start(ap, n);
    ir_value r = emit_va(k, opc, t, n, ap);
    va_end(ap);
    ir_def(k->f, r)->attr[0] = a0;
    ir_def(k->f, r)->attr[1] = a1;
    return r;
}

void op0(kb *k, int opc, int n, ...)
{
    ir_value v[16];
    va_list ap;
    va_start(ap, n);
    for (int i = 0; i < n; i++) v[i] = va_arg(ap, ir_value);
    va_end(ap);
    ir_emit(&k->b, opc, 0, NULL, n, v);
}

ir_value cint(kb *k, ir_type t, int64_t v) { return ir_const_int(&k->b, t, v); }
ir_value cflt(kb *k, ir_type t, double v) { return ir_const_float(&k->b, t, v); }

ir_value range(kb *k, int64_t start, int64_t end)
{
    return opa(k, IR_MAKE_RANGE, TYT(TT_I32, end - start), start, end, 0);
}

ir_value pid(kb *k, int axis) { return opa(k, IR_GET_PID, ty(TT_I32), axis, 0, 0); }

ir_value splat(kb *k, ir_value v, ir_type t) { return op(k, IR_SPLAT, t, 1, v); }

ir_value ptrs(kb *k, ir_value base, ir_value offs)
{
    ir_type pt = ir_value_type(k->f, base);
    ir_type ot = ir_value_type(k->f, offs);
    if (ir_type_rank(ot) == 0) return op(k, IR_ADDPTR, pt, 2, base, offs);
    ir_type t = ty_shape(ot, pt);
    return op(k, IR_ADDPTR, t, 2, splat(k, base, t), offs);
}

ir_value load(kb *k, ir_value p, ir_value mask, ir_value other)
{
    ir_type pt = ir_value_type(k->f, p);
    ir_type elem = ir_type_get(ir_type_elem(pt))->pointee;
    ir_type t = ty_shape(pt, elem);
    if (other >= 0) return op(k, IR_LOAD, t, 3, p, mask, other);
    if (mask >= 0) return op(k, IR_LOAD, t, 2, p, mask);
    return op(k, IR_LOAD, t, 1, p);
}

void store(kb *k, ir_value p, ir_value v, ir_value mask)
{
    if (mask >= 0) op0(k, IR_STORE, 3, p, v, mask);
    else op0(k, IR_STORE, 2, p, v);
}

void ret(kb *k) { op0(k, IR_RETURN, 0); }

static FILE *report_stream(char **buf, size_t *len)
{
    FILE *f = open_memstream(buf, len);
    ck_assert_ptr_nonnull(f);
    return f;
}

int kb_run(kb *k, const interp_options *o, interp_stats *st, char **report)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *rf = report_stream(&buf, &len);
    interp_options opts;
    if (o) opts = *o;
    else interp_options_default(&opts);
    opts.report = rf;
    interp_session *s = interp_session_new(k->f, &k->l, &opts);
    ck_assert_ptr_nonnull(s);
    int rc = interp_run_launch(s);
    if (st) interp_get_stats(s, st);
    interp_session_free(s);
    fclose(rf);
    if (report) *report = buf;
    else free(buf);
    return rc;
}

interp_session *kb_session(kb *k, const interp_options *o)
{
    interp_options opts;
    if (o) opts = *o;
    else interp_options_default(&opts);
    interp_session *s = interp_session_new(k->f, &k->l, &opts);
    ck_assert_ptr_nonnull(s);
    return s;
}

float h2f(uint16_t h) { return tt_f16_to_f32(h); }
uint16_t f2h(float f) { return tt_f32_to_f16(f); }

void ew_run(int opc, int64_t attr, tt_dtype din, tt_dtype dout, int nin, int64_t n, const void *const *in, void *out,
            const interp_options *o)
{
    kb k;
    kb_init(&k, "elementwise");
    ir_value args[4];
    static const char *const names[] = { "a", "b", "c" };
    for (int i = 0; i < nin; i++) {
        tt_tensor *t = tt_tensor_new(names[i], din, 1, &n);
        memcpy(t->data, in[i], (size_t)n * tt_dtype_size(din));
        args[i] = kb_tensor_arg(&k, names[i], t);
    }
    ir_value po = kb_tensor_arg(&k, "out", tt_tensor_new("out", dout, 1, &n));
    /* ranges are powers of two (the verifier's rule): pad and mask */
    int64_t p2 = 1;
    while (p2 < n) p2 *= 2;
    ir_value r = range(&k, 0, p2);
    ir_value mask = opa(&k, IR_CMPI, TYT(TT_BOOL, p2), CMPI_SLT, 0, 2, r, cint(&k, TYT(TT_I32, p2), n));
    ir_value x[3] = { -1, -1, -1 };
    for (int i = 0; i < nin; i++) x[i] = load(&k, ptrs(&k, args[i], r), mask, -1);
    ir_type t = TYT(dout, p2);
    ir_value z = nin == 1 ? opa(&k, opc, t, attr, 0, 1, x[0])
               : nin == 2 ? opa(&k, opc, t, attr, 0, 2, x[0], x[1])
                          : opa(&k, opc, t, attr, 0, 3, x[0], x[1], x[2]);
    store(&k, ptrs(&k, po, r), z, mask);
    ret(&k);
    ck_assert_int_eq(ir_verify(k.f), 0);
    interp_stats st;
    ck_assert_int_eq(kb_run(&k, o, &st, NULL), 0);
    ck_assert_int_eq(st.faults, 0);
    ck_assert_int_eq(st.programs, 1);
    memcpy(out, kb_tensor(&k, nin)->data, (size_t)n * tt_dtype_size(dout));
    kb_free(&k);
}

ir_value offs2d(kb *k, int64_t M, int64_t N, int64_t stride)
{
    ir_value rm = range(k, 0, M), rn = range(k, 0, N);
    ir_value em = opa(k, IR_EXPAND_DIMS, TYT(TT_I32, M, 1), 1, 0, 1, rm);
    ir_value en = opa(k, IR_EXPAND_DIMS, TYT(TT_I32, 1, N), 0, 0, 1, rn);
    ir_value sm = op(k, IR_MULI, TYT(TT_I32, M, 1), 2, em, splat(k, cint(k, ty(TT_I32), stride), TYT(TT_I32, M, 1)));
    ir_value bm = op(k, IR_BROADCAST, TYT(TT_I32, M, N), 1, sm);
    ir_value bn = op(k, IR_BROADCAST, TYT(TT_I32, M, N), 1, en);
    return op(k, IR_ADDI, TYT(TT_I32, M, N), 2, bm, bn);
}

/* Source of the vector-add kernel, for reports. */
static const char vadd_src[] =
    "@triton.jit\n"
    "def add_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):\n"
    "    pid = tl.program_id(axis=0)\n"
    "    offsets = pid * BLOCK + tl.arange(0, BLOCK)\n"
    "    mask = offsets < n\n"
    "    x = tl.load(x_ptr + offsets, mask=mask)\n"
    "    y = tl.load(y_ptr + offsets, mask=mask)\n"
    "    tl.store(out_ptr + offsets, x + y, mask=mask)\n";

void build_vadd(kb *k, int64_t n, int64_t out_n, int64_t block, bool masked)
{
    kb_init(k, "add_kernel");
    kb_source(k, "vadd.py", vadd_src);
    tt_tensor *tx = tt_tensor_new("x", TT_F32, 1, &n), *ty_ = tt_tensor_new("y", TT_F32, 1, &n);
    for (int64_t i = 0; i < n; i++) {
        ((float *)tx->data)[i] = (float)i * 0.5f;
        ((float *)ty_->data)[i] = (float)(i % 97) - 40.0f;
    }
    ir_value px = kb_tensor_arg(k, "x_ptr", tx), py = kb_tensor_arg(k, "y_ptr", ty_);
    ir_value po = kb_tensor_arg(k, "out_ptr", tt_tensor_new("out", TT_F32, 1, &out_n));
    ir_value pn = kb_int_arg(k, "n", TT_I32, n);
    ir_type ti = TYT(TT_I32, block);
    kb_at(k, 3, 11);
    ir_value p = pid(k, 0);
    kb_at(k, 4, 21);
    ir_value base = op(k, IR_MULI, ty(TT_I32), 2, p, cint(k, ty(TT_I32), block));
    ir_value offs = op(k, IR_ADDI, ti, 2, splat(k, base, ti), range(k, 0, block));
    kb_at(k, 5, 22);
    ir_value mask = opa(k, IR_CMPI, TYT(TT_BOOL, block), CMPI_SLT, 0, 2, offs, splat(k, pn, ti));
    kb_at(k, 6, 9);
    ir_value x = load(k, ptrs(k, px, offs), masked ? mask : -1, -1);
    kb_at(k, 7, 9);
    ir_value y = load(k, ptrs(k, py, offs), masked ? mask : -1, -1);
    kb_at(k, 8, 36);
    ir_value s = op(k, IR_ADDF, TYT(TT_F32, block), 2, x, y);
    kb_at(k, 8, 5);
    store(k, ptrs(k, po, offs), s, masked ? mask : -1);
    ret(k);
    k->l.grid[0] = (n + block - 1) / block;
}
