/* memory.c — the interpreter's virtual address space and shadow state.
 *
 * Every tensor argument of the launch becomes a buffer at a virtual 64-bit
 * address (docs/design.md, "Memory model"): the first at 0x100_0000_0000, each
 * 4096-byte aligned, with a guard gap of max(1 MiB, the buffer's size)
 * before the next, so an overrun by up to a whole buffer lands in no buffer
 * and is reported instead of silently reading a neighbour. Buffers are kept
 * in ascending address order; lookups are binary searches.
 *
 * Shadow state per element is allocated on first need, as layers of 32-bit
 * words (shadow.c): the last writer and its op (always, for
 * interp_last_writer and diff), a reader and whether more than one read
 * it (check_races), and the initialized flag (buffers marked with
 * interp_mark_uninitialized). */
#include "internal.h"

#include <stdio.h>

#define VA_BASE 0x10000000000ull
#define VA_ALIGN 4096ull
#define VA_GAP_MIN (1ull << 20)

static uint64_t align_up(uint64_t x, uint64_t a) { return (x + a - 1) & ~(a - 1); }

static uint64_t buf_base_of(void *user, int j)
{
    return interp_buffer_base(user, j);
}

bool interp_buffers_new(interp_session *s)
{
    launch *l = s->l;
    int n = l->nargs + l->nextra;
    s->arg_buf = xmalloc(sizeof *s->arg_buf * (size_t)(n ? n : 1));
    s->bufs = xcalloc((size_t)(n ? n : 1), sizeof *s->bufs);
    uint64_t next = VA_BASE;
    for (int i = 0; i < n; i++) {
        s->arg_buf[i] = -1;
        const launch_arg *a = &l->args[i];
        if (a->kind != ARG_TENSOR) continue;
        const tt_tensor *t = a->tensor;
        if (!t) {
            fprintf(stderr, "tritium: error: tensor argument '%s' has no tensor\n", a->name ? a->name : "?");
            return false;
        }
        if (launch_owner(l, i) != i) continue;      /* a view of another argument's storage: below */
        interp_buf *b = &s->bufs[s->nbufs];
        b->arg = i;
        b->t = t;
        b->dt = t->dtype;
        b->esize = tt_dtype_size(t->dtype);
        b->eshift = __builtin_ctz((unsigned)b->esize);
        b->numel = 1;
        for (int d = 0; d < t->rank; d++) b->numel *= t->shape[d];
        uint64_t nbytes = (uint64_t)b->numel * (uint64_t)b->esize;
        if (nbytes > t->nbytes) {
            fprintf(stderr, "tritium: error: tensor argument '%s' holds %zu bytes, its shape needs %llu\n",
                    a->name ? a->name : "?", t->nbytes, (unsigned long long)nbytes);
            return false;
        }
        b->host = t->data;
        b->name = a->name ? a->name : (t->name ? t->name : "?");
        b->base = next;
        b->end = next + nbytes;
        next = align_up(b->end + (nbytes > VA_GAP_MIN ? nbytes : VA_GAP_MIN), VA_ALIGN);
        s->arg_buf[i] = s->nbufs++;
    }
    for (int i = 0; i < n; i++) {
        int o = launch_owner(l, i);
        if (o >= 0 && o != i) s->arg_buf[i] = s->arg_buf[o];
    }
    launch_fill_ptr_tables(l, buf_base_of, s);
    return true;
}

void interp_buffers_free(interp_session *s)
{
    for (int i = 0; i < s->nbufs; i++) {
        interp_buf *b = &s->bufs[i];
        sh_free(b->writer);
        sh_free(b->wloc);
        sh_free(b->reader);
        sh_free(b->init);
        free(b->bnd);
        free(b->bsrc);
    }
    free(s->bufs);
    free(s->arg_buf);
}

int interp_find_buf(const interp_session *s, uint64_t addr)
{
    int lo = 0, hi = s->nbufs - 1, found = -1;
    while (lo <= hi) {                     /* last buffer with base <= addr */
        int mid = (lo + hi) / 2;
        if (s->bufs[mid].base <= addr) {
            found = mid;
            lo = mid + 1;
        } else {
            hi = mid - 1;
        }
    }
    if (found >= 0 && addr < s->bufs[found].end) return found;
    return -1;
}

void interp_shadow_writer(interp_session *s, interp_buf *b)
{
    pthread_mutex_lock(&s->shadow_lock);
    if (!__atomic_load_n(&b->writer, __ATOMIC_ACQUIRE)) {
        b->wloc = sh_new(b->numel);
        __atomic_store_n(&b->writer, sh_new(b->numel), __ATOMIC_RELEASE);
    }
    pthread_mutex_unlock(&s->shadow_lock);
}

void interp_shadow_reader(interp_session *s, interp_buf *b)
{
    pthread_mutex_lock(&s->shadow_lock);
    if (!__atomic_load_n(&b->reader, __ATOMIC_ACQUIRE))
        __atomic_store_n(&b->reader, sh_new(b->numel), __ATOMIC_RELEASE);
    pthread_mutex_unlock(&s->shadow_lock);
}

/* Forget who read and wrote what (a new launch starts); initialized bytes
 * describe the memory and stay. */
void interp_shadow_clear(interp_session *s)
{
    for (int i = 0; i < s->nbufs; i++) {
        interp_buf *b = &s->bufs[i];
        if (b->writer) sh_clear(b->writer);
        if (b->wloc) sh_clear(b->wloc);
        if (b->reader) sh_clear(b->reader);
    }
}

/* ---- public queries ---- */

bool interp_resolve(const interp_session *s, uint64_t addr, int *arg, int64_t *elem)
{
    int i = interp_find_buf(s, addr);
    if (i < 0) return false;
    const interp_buf *b = &s->bufs[i];
    if (arg) *arg = b->arg;
    if (elem) *elem = (int64_t)((addr - b->base) >> b->eshift);
    return true;
}

uint64_t interp_buffer_base(const interp_session *s, int arg)
{
    if (arg < 0 || arg >= s->l->nargs + s->l->nextra || s->arg_buf[arg] < 0) return 0;
    return s->bufs[s->arg_buf[arg]].base;
}

bool interp_last_writer(const interp_session *s, int arg, int64_t elem, int64_t *program, int32_t *loc)
{
    if (arg < 0 || arg >= s->l->nargs + s->l->nextra || s->arg_buf[arg] < 0) return false;
    const interp_buf *b = &s->bufs[s->arg_buf[arg]];
    const sh_layer *w = __atomic_load_n(&b->writer, __ATOMIC_ACQUIRE);
    if (!w || elem < 0 || elem >= b->numel) return false;
    uint32_t x = sh_get(w, elem);
    if (!(x & SH_PROG)) return false;
    if (program) *program = (int64_t)(x & SH_PROG) - 1;
    if (loc) *loc = (int32_t)sh_get(b->wloc, elem);
    return true;
}

void interp_mark_uninitialized(interp_session *s, int arg)
{
    if (arg < 0 || arg >= s->l->nargs + s->l->nextra || s->arg_buf[arg] < 0) return;
    interp_buf *b = &s->bufs[s->arg_buf[arg]];
    b->uninit = true;
    if (!b->init) b->init = sh_new(b->numel);
    else sh_clear(b->init);
}
