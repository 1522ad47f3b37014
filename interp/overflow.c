/* overflow.c — signed integer overflow of arith.addi/subi/muli, as Triton's
 * `sanitize_overflow` defines it (Triton 3.6, language/semantic.py,
 * binary_op_sanitize_overflow_impl): for operands narrower than 64 bits,
 * the result computed in int64 must lie in the operands' type's range.
 *
 * Which ops are checked is decided once per session (a per-op flag, so the
 * evaluator's hot path pays one predictable branch when no op is flagged):
 * with INTERP_OVF_ADDRESS (the default) the ops whose result flows into the
 * offset of a tt.addptr or an int-to-pointer cast, with INTERP_OVF_ALL every
 * such op. The IR is signless, so unsigned arithmetic (tl.rand's Philox
 * rounds) counts as signed under INTERP_OVF_ALL. A report names the op, the
 * program, the first lane, both operands and the wrapped result, at the op's
 * line: before any memory op uses the value. */
#include "internal.h"

#include <inttypes.h>
#include <stdio.h>

static bool checked_opc(int opc) { return opc == IR_ADDI || opc == IR_SUBI || opc == IR_MULI; }

/* Ops that pass an integer value on unchanged in kind: an address computed
 * from their result is computed from their operands. */
static bool propagates(int opc)
{
    switch (opc) {
    case IR_ADDI: case IR_SUBI: case IR_MULI: case IR_DIVSI: case IR_DIVUI: case IR_REMSI: case IR_REMUI:
    case IR_ANDI: case IR_ORI: case IR_XORI: case IR_SHLI: case IR_SHRSI: case IR_SHRUI:
    case IR_MAXSI: case IR_MINSI: case IR_MAXUI: case IR_MINUI: case IR_ABSI:
    case IR_SPLAT: case IR_BROADCAST: case IR_EXPAND_DIMS: case IR_RESHAPE: case IR_TRANS:
    case IR_EXTSI: case IR_EXTUI: case IR_TRUNCI: case IR_SELECT:
        return true;
    }
    return false;
}

static bool mark(uint8_t *m, ir_value v)
{
    if (v < 0 || m[v]) return false;
    m[v] = 1;
    return true;
}

/* Backward slice of the address offsets, through structured control flow
 * (loop-carried values, if and while results), to a fixpoint. */
static void address_slice(const ir_func *f, uint8_t *m)
{
    for (bool changed = true; changed;) {
        changed = false;
        for (int r = 0; r < f->regions.n; r++) {
            const ir_region *reg = &f->regions.v[r];
            for (int i = 0; i < reg->nops; i++) {
                const ir_op *op = &reg->ops[i];
                if (op->opc == IR_ADDPTR) changed |= mark(m, op->opnd[1]);
                else if (op->opc == IR_INT_TO_PTR) changed |= mark(m, op->opnd[0]);
                else if (op->nres && propagates(op->opc) && m[op->res])
                    for (int k = op->opc == IR_SELECT ? 1 : 0; k < op->nopnd; k++) changed |= mark(m, op->opnd[k]);
                if (op->opc == IR_FOR) {
                    const ir_region *b = &f->regions.v[op->region[0]];
                    const ir_op *y = b->nops ? &b->ops[b->nops - 1] : NULL;
                    for (int j = 0; j + 3 < op->nopnd && j + 1 < b->nargs; j++) {
                        bool on = m[b->args[j + 1]] || (j < op->nres && m[op->res + j]);
                        if (!on) continue;
                        changed |= mark(m, op->opnd[3 + j]) | mark(m, b->args[j + 1]);
                        if (y && y->opc == IR_YIELD && j < y->nopnd) changed |= mark(m, y->opnd[j]);
                    }
                    if (m[b->args[0]]) changed |= mark(m, op->opnd[0]) | mark(m, op->opnd[1]) | mark(m, op->opnd[2]);
                } else if (op->opc == IR_IF) {
                    for (int br = 0; br < 2; br++) {
                        if (op->region[br] < 0) continue;
                        const ir_region *b = &f->regions.v[op->region[br]];
                        const ir_op *y = b->nops ? &b->ops[b->nops - 1] : NULL;
                        for (int j = 0; j < op->nres && y && y->opc == IR_YIELD && j < y->nopnd; j++)
                            if (m[op->res + j]) changed |= mark(m, y->opnd[j]);
                    }
                } else if (op->opc == IR_WHILE) {
                    const ir_region *bf = &f->regions.v[op->region[0]], *af = &f->regions.v[op->region[1]];
                    const ir_op *c = bf->nops ? &bf->ops[bf->nops - 1] : NULL;
                    const ir_op *y = af->nops ? &af->ops[af->nops - 1] : NULL;
                    for (int j = 0; j < bf->nargs; j++) {
                        if (!m[bf->args[j]]) continue;
                        if (j < op->nopnd) changed |= mark(m, op->opnd[j]);
                        if (y && y->opc == IR_YIELD && j < y->nopnd) changed |= mark(m, y->opnd[j]);
                    }
                    for (int j = 0; c && c->opc == IR_CONDITION && j + 1 < c->nopnd; j++) {
                        bool on = (j < af->nargs && m[af->args[j]]) || (j < op->nres && m[op->res + j]);
                        if (on) changed |= mark(m, c->opnd[j + 1]);
                    }
                }
            }
        }
    }
}

void interp_overflow_plan(interp_session *s)
{
    const ir_func *f = s->f;
    s->ovf = xcalloc((size_t)s->nops_total + 1, 1);
    s->ovf_any = false;
    if (s->o.check_overflow == INTERP_OVF_OFF) return;
    uint8_t *m = xcalloc((size_t)s->nvals + 1, 1);
    if (s->o.check_overflow == INTERP_OVF_ADDRESS) address_slice(f, m);
    for (int r = 0; r < f->regions.n; r++) {
        const ir_region *reg = &f->regions.v[r];
        for (int i = 0; i < reg->nops; i++) {
            const ir_op *op = &reg->ops[i];
            if (!checked_opc(op->opc)) continue;
            int bits = ir_type_bits(ir_value_type(f, op->res));
            if (bits <= 1 || bits >= 64) continue;
            uint8_t flag = s->o.check_overflow == INTERP_OVF_ALL ? (m[op->res] ? 2 : 1) : (m[op->res] ? 2 : 0);
            s->ovf[s->opbase[r] + i] = flag;
            s->ovf_any |= flag != 0;
        }
    }
    free(m);
}

static int64_t get_int(const void *d, int esize, int64_t i)
{
    switch (esize) {
    case 1: return ((const int8_t *)d)[i];
    case 2: return ((const int16_t *)d)[i];
    default: return ((const int32_t *)d)[i];
    }
}

static int64_t exact(int opc, int64_t a, int64_t b)
{
    return opc == IR_ADDI ? a + b : opc == IR_SUBI ? a - b : a * b;
}

void interp_overflow_check(interp_prog *p, const ir_op *op, int flag)
{
    interp_session *s = p->s;
    const ival_info *vi = &s->vi[op->res];
    int es = vi->esize;
    int64_t n = vi->numel;
    const void *a = p->vals[op->opnd[0]], *b = p->vals[op->opnd[1]];
    if (!a || !b || !p->vals[op->res]) return;
    if (op->opc == IR_ADDI && (p->contig[op->res] & CT_EXACT)) return;   /* proved per row (eval_arith.c) */
    int64_t sa = s->vi[op->opnd[0]].numel == 1 ? 0 : 1, sb = s->vi[op->opnd[1]].numel == 1 ? 0 : 1;
    int64_t max = (int64_t)((1ull << (8 * es - 1)) - 1), min = -max - 1;
    const void *res = p->vals[op->res];
    int bad = 0;
    /* first pass: branch-free on the wrapped result r (add: x and y of one
     * sign, r of the other; sub: x and y of different signs, r not x's; mul:
     * the int64 product differs from r), one loop per op, width and operand
     * shape so that it vectorizes */
#define PASS(T, SA, SB)                                                                            \
    do {                                                                                           \
        const T *x = a, *y = b, *w = res;                                                          \
        if (op->opc == IR_ADDI)                                                                    \
            for (int64_t i = 0; i < n; i++) bad |= ((x[i * SA] ^ w[i]) & (y[i * SB] ^ w[i])) < 0;  \
        else if (op->opc == IR_SUBI)                                                               \
            for (int64_t i = 0; i < n; i++) bad |= ((x[i * SA] ^ y[i * SB]) & (x[i * SA] ^ w[i])) < 0; \
        else                                                                                       \
            for (int64_t i = 0; i < n; i++) bad |= (int64_t)x[i * SA] * y[i * SB] != (int64_t)w[i]; \
    } while (0)
#define SHAPES(T)                                                                                  \
    do {                                                                                           \
        if (sa && sb) PASS(T, 1, 1);                                                               \
        else if (sb) PASS(T, 0, 1);                                                                \
        else if (sa) PASS(T, 1, 0);                                                                \
        else PASS(T, 0, 0);                                                                        \
    } while (0)
    if (es == 1) SHAPES(int8_t);
    else if (es == 2) SHAPES(int16_t);
    else SHAPES(int32_t);
#undef SHAPES
#undef PASS
    if (!bad) return;
    int64_t first = -1, count = 0;
    for (int64_t i = 0; i < n; i++) {
        int64_t r = exact(op->opc, get_int(a, es, i * sa), get_int(b, es, i * sb));
        if (r < min || r > max) {
            if (!count++) first = i;
        }
    }
    pthread_mutex_lock(&s->rep_lock);
    bool firstrep, print;
    interp_site_count(p, FK_OVERFLOW, count, &firstrep, &print);
    if (firstrep) s->st.overflows++;
    s->st.overflow_lanes += count;
    if (print) {
        FILE *out = s->out;
        const char *sym = op->opc == IR_ADDI ? "+" : op->opc == IR_SUBI ? "-" : "*";
        const char *name = op->opc == IR_ADDI ? "add" : op->opc == IR_SUBI ? "sub" : "mul";
        int64_t x = get_int(a, es, first * sa), y = get_int(b, es, first * sb);
        int64_t w = get_int(p->vals[op->res], es, first);
        fprintf(out, "error: int%d overflow in %s in program (%" PRId64 ", %" PRId64 ", %" PRId64 ")\n", 8 * es, name,
                p->pid[0], p->pid[1], p->pid[2]);
        interp_quote_loc(s->f, op->loc, out);
        char lb[96];
        interp_describe_lane(ir_value_type(s->f, op->res), first, lb, sizeof lb);
        fprintf(out, "  %s: %" PRId64 " %s %" PRId64 " = %" PRId64 " does not fit int%d; it wraps to %" PRId64, lb, x,
                sym, y, exact(op->opc, x, y), 8 * es, w);
        if (count > 1) fprintf(out, "; %" PRId64 " lanes of this op overflowed in this program", count);
        fputc('\n', out);
        if (flag == 2)
            fprintf(out, "  the value is used to form an address: the access lands on another element, in another "
                         "buffer or nowhere (compute the offset in int64: `.to(tl.int64)`)\n");
        fflush(out);
    }
    pthread_mutex_unlock(&s->rep_lock);
}
