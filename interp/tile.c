/* tile.c — tile memory: a stack allocator with mark/release.
 *
 * Each program instance allocates its tiles here and resets the stack when
 * it starts; loops take a mark before an iteration and release it after the
 * loop-carried values are copied out, so a long loop runs in a fixed
 * footprint. Chunks are never freed before ts_free, only reused (a chunk too
 * small for a request is replaced), so steady state does no malloc. */
#include "internal.h"

#define MIN_CHUNK ((size_t)256 << 10)
#define MAX_GROW ((size_t)64 << 20)

static tchunk *new_chunk(size_t size)
{
    tchunk *c = xmalloc(sizeof *c + size);
    c->next = NULL;
    c->size = size;
    return c;
}

void *ts_alloc_slow(tstack *t, size_t n)
{
    /* n is already rounded to 64 bytes by ts_alloc */
    tchunk **link = t->head ? &t->head->next : &t->first;
    tchunk *c = *link;
    if (c && c->size < n) {
        /* the next chunk is too small: drop it and everything after it is
         * still reusable, so unlink only this one */
        *link = c->next;
        t->reserved -= c->size;
        free(c);
        c = NULL;
    }
    if (!c) {
        size_t size = t->head ? t->head->size * 2 : MIN_CHUNK;
        if (size > MAX_GROW) size = MAX_GROW;
        if (size < MIN_CHUNK) size = MIN_CHUNK;
        if (size < n) size = n;
        c = new_chunk(size);
        c->next = *link;
        *link = c;
        t->reserved += size;
    }
    t->head = c;
    t->used = n;
    t->live += n;
    if (t->live > t->peak) t->peak = t->live;
    return c->data;
}

void ts_release(tstack *t, tmark m)
{
    t->head = m.head;
    t->used = m.used;
    t->live = m.live;
}

void ts_reset(tstack *t)
{
    t->head = NULL;
    t->used = 0;
    t->live = 0;
}

void ts_free(tstack *t)
{
    for (tchunk *c = t->first, *next; c; c = next) {
        next = c->next;
        free(c);
    }
    memset(t, 0, sizeof *t);
}

/* ---- tile contents: fills the evaluators, exec.c and session.c share ---- */

void interp_splat(void *out, const void *src, int esize, int64_t n)
{
    switch (esize) {
    case 1: memset(out, *(const uint8_t *)src, (size_t)n); break;
    case 2: { uint16_t v; memcpy(&v, src, 2); uint16_t *o = out; for (int64_t i = 0; i < n; i++) o[i] = v; break; }
    case 4: { uint32_t v; memcpy(&v, src, 4); uint32_t *o = out; for (int64_t i = 0; i < n; i++) o[i] = v; break; }
    case 8: { uint64_t v; memcpy(&v, src, 8); uint64_t *o = out; for (int64_t i = 0; i < n; i++) o[i] = v; break; }
    default: die("interp_splat: element size %d", esize);
    }
}

void *interp_operand_n(interp_prog *p, const ir_op *op, int k, int64_t n)
{
    ir_value v = op->opnd[k];
    const ival_info *vi = &p->s->vi[v];
    if (vi->numel != 1)
        die("interp: operand %d of %s has %lld elements, the op has %lld", k, ir_ops[op->opc].name,
            (long long)vi->numel, (long long)n);
    void *d = ts_alloc(&p->mem, (size_t)n * vi->esize);
    interp_splat(d, p->vals[v], vi->esize, n);
    return d;
}

void interp_const_fill(const ival_info *vi, const ir_op *op, void *out)
{
    union { uint8_t b[8]; uint16_t h; uint32_t u; float f; uint64_t q; double d; } v = { .q = 0 };
    if (op->opc == IR_MAKE_RANGE) {
        int64_t start = op->attr[0];
        for (int64_t i = 0; i < vi->numel; i++) {
            uint64_t x = (uint64_t)(start + i);
            memcpy((uint8_t *)out + i * vi->esize, &x, vi->esize);
        }
        return;
    }
    switch (vi->dt) {
    case TT_BOOL: v.b[0] = op->ival != 0; break;
    case TT_F16: v.h = interp_d2h(op->fval); break;
    case TT_BF16: v.h = interp_d2bf(op->fval); break;
    case TT_F32: v.f = (float)op->fval; break;
    case TT_F64: v.d = op->fval; break;
    case TT_F8E4NV: case TT_F8E5: case TT_F8E4B15: case TT_F8E4B8: case TT_F8E5B16:
        v.b[0] = tt_fp8_encode_f64(vi->dt, op->fval);
        break;
    default: v.q = (uint64_t)op->ival; break;        /* ints and pointers: low bytes */
    }
    interp_splat(out, &v, vi->esize, vi->numel);
}

void interp_heads_fill(interp_prog *p, ir_value v)
{
    const ival_info *vi = &p->s->vi[v];
    uint8_t f = p->contig[v];
    int64_t n = vi->numel, cols = vi->rank ? vi->shape[vi->rank - 1] : 1;
    /* step per lane: the pointee size for pointer runs, 1 for integer runs, 0 when uniform */
    uint64_t step = f & CT_RUN ? (vi->dt == TT_PTR ? vi->psize : 1) : 0;
    uint8_t *d = p->vals[v];
    for (int64_t r = 0; r < n; r += cols) {
        switch (vi->esize) {
        case 1: { uint8_t *x = (uint8_t *)d + r; for (int64_t c = 1; c < cols; c++) x[c] = (uint8_t)(x[0] + c * step); break; }
        case 2: { uint16_t *x = (uint16_t *)d + r; for (int64_t c = 1; c < cols; c++) x[c] = (uint16_t)(x[0] + c * step); break; }
        case 4: { uint32_t *x = (uint32_t *)d + r; for (int64_t c = 1; c < cols; c++) x[c] = (uint32_t)(x[0] + c * step); break; }
        default: { uint64_t *x = (uint64_t *)d + r; for (int64_t c = 1; c < cols; c++) x[c] = x[0] + (uint64_t)c * step; break; }
        }
    }
    p->contig[v] = (uint8_t)(f & ~CT_HEADS);
}
