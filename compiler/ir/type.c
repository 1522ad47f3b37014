/* type.c — interned IR types. Types are created rarely (at compile time) and
 * read often, so a linear table with a small hash index is enough. */
#include "tritium/ir.h"

#include <pthread.h>
#include <stdio.h>
#include <string.h>

/* Types live in fixed chunks that never move, so readers need no lock;
 * only interning (compile time) takes it. Id 0 is the "no type" sentinel. */
#define CHUNK 1024
static ir_type_info *chunks[1024];
static int ntypes;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static ir_type_info *slot(int i) { return &chunks[i / CHUNK][i % CHUNK]; }

static bool same(const ir_type_info *a, const ir_type_info *b)
{
    if (a->elem != b->elem || a->pointee != b->pointee || a->rank != b->rank) return false;
    for (int i = 0; i < a->rank; i++)
        if (a->shape[i] != b->shape[i]) return false;
    return true;
}

static ir_type intern(const ir_type_info *t)
{
    pthread_mutex_lock(&lock);
    if (ntypes == 0) {
        chunks[0] = xcalloc(CHUNK, sizeof(ir_type_info));
        chunks[0][0].elem = TT_DTYPE_COUNT;
        ntypes = 1;
    }
    for (int i = 1; i < ntypes; i++) {
        if (same(slot(i), t)) {
            pthread_mutex_unlock(&lock);
            return (ir_type)i;
        }
    }
    if (ntypes == CHUNK * (int)TT_COUNTOF(chunks)) die("too many IR types");
    if (ntypes % CHUNK == 0) chunks[ntypes / CHUNK] = xcalloc(CHUNK, sizeof(ir_type_info));
    *slot(ntypes) = *t;
    ir_type id = (ir_type)ntypes;
    __atomic_store_n(&ntypes, ntypes + 1, __ATOMIC_RELEASE);
    pthread_mutex_unlock(&lock);
    return id;
}

ir_type ir_scalar(tt_dtype d)
{
    switch (d) {
    case TT_U8:  d = TT_I8; break;
    case TT_U16: d = TT_I16; break;
    case TT_U32: d = TT_I32; break;
    case TT_U64: d = TT_I64; break;
    case TT_PTR: die("ir_scalar(TT_PTR)");
    default: break;
    }
    ir_type_info t = { .elem = d };
    return intern(&t);
}

ir_type ir_ptr(ir_type pointee)
{
    ir_type_info t = { .elem = TT_PTR, .pointee = pointee };
    return intern(&t);
}

ir_type ir_tensor(ir_type elem, int rank, const int64_t *shape)
{
    if (rank > IR_MAX_RANK) die("ir_tensor: rank %d", rank);
    ir_type_info t = *ir_type_get(ir_type_elem(elem));
    t.rank = rank;
    for (int i = 0; i < rank; i++) t.shape[i] = shape[i];
    return intern(&t);
}

const ir_type_info *ir_type_get(ir_type t)
{
    if (t == 0 || (int)t >= __atomic_load_n(&ntypes, __ATOMIC_ACQUIRE)) die("ir_type_get: bad type id %u", t);
    return slot((int)t);
}

ir_type ir_type_elem(ir_type t)
{
    const ir_type_info *i = ir_type_get(t);
    if (i->rank == 0) return t;
    ir_type_info e = *i;
    e.rank = 0;
    memset(e.shape, 0, sizeof e.shape);
    return intern(&e);
}

ir_type ir_type_with_elem(ir_type shape_of, ir_type elem)
{
    const ir_type_info *s = ir_type_get(shape_of);
    int rank = s->rank;
    int64_t shape[IR_MAX_RANK];
    memcpy(shape, s->shape, sizeof shape);
    return ir_tensor(elem, rank, shape);
}

int ir_type_rank(ir_type t) { return ir_type_get(t)->rank; }

int64_t ir_type_numel(ir_type t)
{
    const ir_type_info *i = ir_type_get(t);
    int64_t n = 1;
    for (int d = 0; d < i->rank; d++) n *= i->shape[d];
    return n;
}

bool ir_type_is_float(ir_type t) { return tt_dtype_is_float(ir_type_get(t)->elem); }
bool ir_type_is_int(ir_type t) { return tt_dtype_is_int(ir_type_get(t)->elem); }
bool ir_type_is_ptr(ir_type t) { return ir_type_get(t)->elem == TT_PTR; }
int ir_type_bits(ir_type t) { return tt_dtype_bits(ir_type_get(t)->elem); }

/* The IR's name of a scalar dtype (the dtype table's ir column). */
static const char *scalar_name(tt_dtype d)
{
    const char *n = tt_dtype_ir_name(d);
    return n ? n : "?";
}

char *ir_type_str(ir_type t, char *buf, size_t n)
{
    const ir_type_info *i = ir_type_get(t);
    char elem[64];
    if (i->elem == TT_PTR)
        snprintf(elem, sizeof elem, "!tt.ptr<%s>", scalar_name(ir_type_get(i->pointee)->elem));
    else
        snprintf(elem, sizeof elem, "%s", scalar_name(i->elem));
    if (i->rank == 0) {
        snprintf(buf, n, "%s", elem);
        return buf;
    }
    size_t len = (size_t)snprintf(buf, n, "tensor<");
    for (int d = 0; d < i->rank && len < n; d++)
        len += (size_t)snprintf(buf + len, n - len, "%lldx", (long long)i->shape[d]);
    if (len < n) snprintf(buf + len, n - len, "%s>", elem);
    return buf;
}
