/* internal.h — shared declarations of the interpreter's files (not public).
 *
 * Layout of the interpreter (docs/design.md, "The interpreter"):
 *   session.c     binding a function to a launch, value table, public queries
 *   exec.c        the region executor: one switch over ops.def families
 *   eval_*.c      one evaluator per op family (tight loops per dtype)
 *   tile.c        tile memory: a mark/release stack allocator per program,
 *                 and tile fills (splats, constants, the lanes of row heads)
 *   memory.c      the virtual address space, buffers and shadow state
 *   shadow.c      shadow layers: one word per element, kept per granule
 *   report.c      fault and race reports
 *   sched.c       the grid scheduler (in order, reverse, random, parallel)
 *   sigint.c      interrupting a launch (interp_interrupt, Ctrl-C)
 *
 * Calls go down this list's layers: session.c and sched.c run programs
 * through exec.c, which dispatches to the evaluators; an evaluator calls
 * back into exec.c only to run a region's body (eval_scf.c, eval_combine.c:
 * the language's own recursion). The inline helpers below call tile.c,
 * shadow.c and tile fills, never an evaluator. scripts/include_graph.py
 * checks both (the test include-graph).
 *
 * A value is a dense row-major tile of its IR type (scalars are 0-d, one
 * element); p->vals[v] points at it, NULL while not computed. Tiles are
 * immutable once computed, so shape ops that do not move data (reshape,
 * expand_dims, same-size bitcast) alias their operand. */
#ifndef TRITIUM_INTERP_INTERNAL_H
#define TRITIUM_INTERP_INTERNAL_H

#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <string.h>

#include "tritium/interp.h"

/* trap and interrupted are written by Ctrl-C handlers and by the debugger's
 * thread while programs run: relaxed atomics (plain loads on x86), so that
 * ThreadSanitizer sees no race and the compiler re-reads them. */
#define TRAP_GET(x) __atomic_load_n(&(x), __ATOMIC_RELAXED)
#define TRAP_SET(x, v) __atomic_store_n(&(x), (v), __ATOMIC_RELAXED)

/* Elementwise loops are compiled for generic x86-64 (SSE2, 4 f32 lanes)
 * and, when the CPU has it, for AVX2 (8 lanes), chosen once at load time
 * (GCC/Clang function multiversioning). The results are the same: IEEE
 * operations per lane, no FMA (AVX2 alone does not enable it). */
#if defined(__x86_64__) && defined(__has_attribute)
#if __has_attribute(target_clones) && !defined(__SANITIZE_THREAD__)
#define INTERP_SIMD __attribute__((target_clones("avx2", "default")))
#endif
#endif
#ifndef INTERP_SIMD
#define INTERP_SIMD
#endif

/* ---- static per-value information ----------------------------------- */

typedef struct ival_info {
    tt_dtype dt;                   /* TT_BOOL, TT_I8..TT_I64, TT_F16..TT_F64, an fp8, TT_PTR */
    tt_dtype pdt;                  /* TT_PTR: the pointee's element type */
    uint8_t esize;                 /* bytes per element in a tile (i1: 1) */
    uint8_t psize;                 /* TT_PTR: bytes per pointee element */
    uint8_t rank;
    int64_t numel;
    int64_t shape[IR_MAX_RANK];
} ival_info;

/* ---- tile memory (tile.c) ------------------------------------------- */

typedef struct tchunk {
    struct tchunk *next;
    size_t size;                   /* bytes in data */
    _Alignas(64) unsigned char data[];
} tchunk;
/* Stack allocator: chunks are kept after a release and reused, so a loop
 * that releases each iteration reaches a fixed footprint. Memory is 64-byte
 * aligned and NOT zeroed. */
typedef struct tstack {
    tchunk *first, *head;          /* head: chunk being filled (NULL: none yet) */
    size_t used;                   /* bytes used in head */
    size_t live;                   /* bytes handed out and not released */
    size_t peak;                   /* max of live, sampled when a chunk is entered */
    size_t reserved;               /* bytes held in chunks */
} tstack;
typedef struct tmark { tchunk *head; size_t used, live; } tmark;

void *ts_alloc_slow(tstack *t, size_t n);
static inline void *ts_alloc(tstack *t, size_t n)
{
    /* Tiles are often a multiple of 4 KiB; a skew of 5 cache lines keeps
     * consecutive tiles from sharing their low 12 address bits, which would
     * make the loads of one alias the stores of the next (4K aliasing). */
    n = ((n + 63) & ~(size_t)63) + (n >= 1024 ? 320 : 0);
    if (t->head && t->used + n <= t->head->size) {
        void *p = t->head->data + t->used;
        t->used += n;
        t->live += n;
        return p;
    }
    return ts_alloc_slow(t, n);
}
static inline tmark ts_mark(const tstack *t) { tmark m = { t->head, t->used, t->live }; return m; }
void ts_release(tstack *t, tmark m);
void ts_reset(tstack *t);
void ts_free(tstack *t);

/* ---- shadow layers (shadow.c) ----------------------------------------- */

/* One 32-bit word per element of a buffer, kept per granule of SH_GRAN
 * elements while all of a granule's elements hold the same word. */
#define SH_GSHIFT 5
#define SH_GRAN (1 << SH_GSHIFT)
typedef struct sh_layer {
    uint32_t *coarse;              /* per granule: the word of all its elements (unless on) */
    uint8_t *on;                   /* per granule: 1 when fine[] holds its words */
    uint32_t *fine;                /* per element; read only in granules that are on */
    int64_t n, ngran;              /* elements, granules */
    pthread_mutex_t lock;          /* splits and merges during a parallel launch */
} sh_layer;

/* A layer of n elements, every word 0; never NULL (dies when out of memory). */
sh_layer *sh_new(int64_t n);
void sh_free(sh_layer *L);
void sh_clear(sh_layer *L);        /* every word 0 */
/* Words [e0, e0 + len) = v; par: a parallel launch is running. */
void sh_fill(sh_layer *L, int64_t e0, int64_t len, uint32_t v, bool par);
void sh_set_slow(sh_layer *L, int64_t e, uint32_t v, bool par);
/* Reader words: the id of a program that read the element, with SH_MANY
 * once another program read it too. Program me's read of [e0, e0 + len):
 * unread words become me, words of one other reader gain SH_MANY, the rest
 * (me, or already many) are left alone, so data every program reads (a
 * matmul's operands) costs loads only, not stores that bounce a cache line
 * between the threads of a parallel launch. */
#define SH_MANY 0x80000000u
void sh_mark_read(sh_layer *L, int64_t e0, int64_t len, uint32_t me, bool par);

static inline uint32_t sh_get(const sh_layer *L, int64_t e)
{
    int64_t g = e >> SH_GSHIFT;
    if (__atomic_load_n(&L->on[g], __ATOMIC_ACQUIRE)) return __atomic_load_n(&L->fine[e], __ATOMIC_RELAXED);
    return __atomic_load_n(&L->coarse[g], __ATOMIC_RELAXED);
}

static inline void sh_set(sh_layer *L, int64_t e, uint32_t v, bool par)
{
    int64_t g = e >> SH_GSHIFT;
    if (__atomic_load_n(&L->on[g], __ATOMIC_ACQUIRE)) __atomic_store_n(&L->fine[e], v, __ATOMIC_RELAXED);
    else if (__atomic_load_n(&L->coarse[g], __ATOMIC_RELAXED) != v) sh_set_slow(L, e, v, par);
}

/* The piece of [e, end) that starts at e and stays in e's granule: its
 * length; *fine points at its words, or is NULL and *v is all of them. */
static inline int64_t sh_piece(const sh_layer *L, int64_t e, int64_t end, uint32_t *v, const uint32_t **fine)
{
    int64_t g = e >> SH_GSHIFT, stop = (g + 1) << SH_GSHIFT;
    if (__atomic_load_n(&L->on[g], __ATOMIC_ACQUIRE)) {
        *fine = L->fine + e;
    } else {
        *fine = NULL;
        *v = __atomic_load_n(&L->coarse[g], __ATOMIC_RELAXED);
    }
    return (stop < end ? stop : end) - e;
}

/* ---- buffers and shadow state (memory.c) ----------------------------- */

/* A per-element bound (bound.c): the GPU's value may be anywhere in
 * [v - dn, v + up]; both 0: exact; INFINITY: not modeled. */
typedef struct interp_bnd { float dn, up; } interp_bnd;


/* Shadow writer words: linear program id + 1, with flag bits. */
#define SH_ATOMIC 0x80000000u      /* written by an atomic */
#define SH_SYNC   0x40000000u      /* written by a program that took a lock */
#define SH_SAME   0x20000000u      /* every write so far stored the element's value of before the launch */
#define SH_PROG   0x1fffffffu

typedef struct interp_buf {
    uint64_t base, end;            /* virtual [base, end) */
    uint8_t *host;                 /* the tensor's data */
    int arg;                       /* launch argument index */
    int esize;
    int eshift;                    /* log2(esize) */
    tt_dtype dt;
    int64_t numel;
    const tt_tensor *t;
    const char *name;              /* the launch argument's name */
    /* shadow layers, allocated on first need (NULL before) */
    sh_layer *writer;              /* last writer program, SH_* flags */
    sh_layer *wloc;                /* location of the writing op (an int32) */
    sh_layer *reader;              /* a reader program + 1, SH_MANY (check_races) */
    sh_layer *init;                /* 1 when written (uninit-marked buffers) */
    bool uninit;                   /* created with `empty` */
    bool view_check;               /* views of it do not cover it: check lanes (view.c) */
    interp_bnd *bnd;               /* per element: its bound (bound.c; NULL until a bounded store) */
    int32_t *bsrc;                 /* per element: the op its bound came from, -1 none */
} interp_buf;

/* ---- program state (one per thread) --------------------------------- */

/* Row facts of a tile (rows: the last dimension; a 0-d or [..., 1] tile has
 * both). They let tt.addptr and the memory ops skip per-lane work; each is
 * exact, never a guess. Kept by constants and tt.make_range (exec.c), splat,
 * broadcast, expand_dims, reshape (eval_shape.c), arith.addi (eval_arith.c)
 * and tt.addptr (eval_mem.c). */
#define CT_RUN  1                  /* x[r, c] == x[r, 0] + c (ints, exactly: no wrap); pointers:
                                    * address + c * element size */
#define CT_UNIF 2                  /* x[r, c] == x[r, 0] */
#define CT_EXACT 4                 /* arith.addi: no lane overflowed its type (overflow.c skips) */
#define CT_HEADS 8                 /* only lane 0 of each row is written, the rest follows from
                                    * CT_RUN or CT_UNIF (interp_full writes it) */

/* Rows of one element (or a 0-d tile) are both runs and uniform. */
static inline uint8_t interp_ct_single(const ival_info *vi)
{
    return !vi->rank || vi->shape[vi->rank - 1] == 1 ? CT_RUN | CT_UNIF : 0;
}

typedef struct interp_prog {
    struct interp_session *s;
    void **vals;                   /* per ir_value */
    interp_bnd **bnd;              /* per ir_value: its bound tile, NULL exact (only with s->bounds) */
    int32_t *bsrc;                 /* per ir_value: the op (global index) its largest bound came from */
    uint8_t *bcontig;              /* the bound view's row facts (always 0) */
    uint8_t *contig;               /* per ir_value: CT_* facts about its tile's rows, set by the
                                    * ops that track them every time they run (0 for the others) */
    tstack mem;
    int64_t pid[3];
    int64_t lin;                   /* linear program id */
    uint32_t me;                   /* shadow id: (lin + 1) & SH_PROG */
    int32_t region, opi;           /* the op being executed */
    bool faulted;                  /* this program faulted at least once */
    bool raced;
    bool synced;                   /* took a lock (atomic cas/xchg) */
} interp_prog;

/* ---- reports (report.c) ---------------------------------------------- */

enum {
    FK_OOB,                        /* in no buffer */
    FK_MISALIGNED,
    FK_TYPE,                       /* element size differs from the buffer's */
    FK_LOOP,                       /* scf.for with step <= 0 */
    FK_ASSERT,                     /* tt.assert with a false element (eval_debug.c) */
    FK_RACE_WW,
    FK_RACE_RW,                    /* read of an element another program wrote */
    FK_RACE_WR,                    /* write of an element another program read */
    FK_UNINIT,
    FK_OVERFLOW,                   /* signed integer overflow (overflow.c) */
    FK_VIEW,                       /* inside the storage, outside every view (view.c) */
    FK_COUNT
};
#define FK_IS_FAULT(k) ((k) <= FK_ASSERT)
#define FK_IS_RACE(k) ((k) >= FK_RACE_WW && (k) <= FK_RACE_WR)

/* Access kinds for report wording. */
enum { ACC_LOAD, ACC_STORE, ACC_ATOMIC };

/* One kind of fault seen by one execution of one op. */
typedef struct interp_fault {
    int64_t count;                 /* faulting lanes in this execution */
    int64_t lane;                  /* first faulting lane */
    uint64_t addr;
    int buf;                       /* buffer index, -1 when none */
    int64_t other;                 /* race: the other program (linear) */
    int32_t other_loc;             /* race: the other op's location */
} interp_fault;

typedef struct interp_site {
    bool seen;
    bool printed;
    int64_t first_prog;            /* linear id of the first program */
    int64_t last_prog;
    int64_t programs, lanes;
    /* the first report's access (interp_report; buf -1 for the other callers) */
    int buf;
    uint64_t addr;
    int64_t other;                 /* race: the other program, else -1 */
} interp_site;

/* Counts `lanes` lanes of report kind `kind` at the current op of p on its
 * site (the first program, programs, lanes) and says whether this report is
 * the site's first (*first) and is to be printed (the return value: first
 * and under --max-reports; suppressed ones are counted). The caller holds
 * s->rep_lock. One accounting for faults, races, overflows and views. */
interp_site *interp_site_count(interp_prog *p, int kind, int64_t lanes, bool *first, bool *print);
/* Report faults of kind `kind` at the current op of p (p->region/p->opi).
 * acc: ACC_*; opname: "load", "store", "atomic_add", ...; esize/adt: the
 * accessed element; lanes: elements of the op's tile; tile_type: the pointer
 * operand's type (for multi-dimensional lane numbers). Thread-safe. */
void interp_report(interp_prog *p, int kind, int acc, const char *opname, tt_dtype adt,
                   int esize, ir_type tile_type, const interp_fault *f);
/* Pieces of a report, shared with proof mode (prove_report.c):
 * "f32[64,128]"; "x[3, 17]" for a flat element index (negative or past the
 * end too); "lane [3, 17] (of 64x64)"; the source line with a caret and the
 * inline chain of location loc, indented by two. */
void interp_describe_tensor(const tt_tensor *t, tt_dtype dt, char *buf, size_t n);
void interp_describe_elem(const tt_tensor *t, const char *name, int64_t e, char *buf, size_t n);
void interp_describe_lane(ir_type tile, int64_t lane, char *buf, size_t n);
void interp_quote_loc(const ir_func *f, int32_t loc, FILE *out);
/* The name of fault kind FK_* as interp_site_info.kind spells it
 * ("out-of-bounds", "write-write-race", ...; "?" out of range). */
const char *interp_site_kind(int kind);
/* The op of global index gop (s->opbase), NULL when out of range. */
const ir_op *interp_global_op(const interp_session *s, int gop);
/* Per-launch follow-up notes and the summary line. */
void interp_report_summary(interp_session *s);
void interp_report_reset(interp_session *s);

/* ---- the session ------------------------------------------------------ */

struct interp_access;                  /* interp_trace.h */
struct interp_problem;

struct interp_session {
    const ir_func *f;
    launch *l;
    interp_options o;
    FILE *out;                     /* reports */
    FILE *pout;                    /* tt.print output (options.output) */
    int nvals;
    ival_info *vi;
    void **argdata;                /* per body argument: its scalar tile */
    void **constdata;              /* per value: cached tile of a constant/make_range, or of a
                                    * splat of a kernel argument or constant (session.c) */
    int *opbase;                   /* per region: global number of its op 0 */
    int nops_total;
    uint8_t *fuse;                 /* NUMERICS_FAST: per global op, 1/2: lhs/rhs is a fusable mulf */
    uint8_t *addr_splat;           /* per value: a splat used only as tt.addptr's base, which
                                    * reads the scalar instead: not materialized unless trapping */
    uint8_t *heads_ok;             /* per value: a tt.addptr or arith.addi result read only by ops
                                    * whose row paths need only row heads (CT_HEADS, session.c) */
    arena perm;                    /* session-lifetime memory (constants, args) */

    interp_buf *bufs;              /* ascending virtual addresses */
    int nbufs;
    int *arg_buf;                  /* per launch argument: buffer index or -1 */
    pthread_mutex_t shadow_lock;   /* lazy shadow allocation */

    interp_prog main;              /* programs run by the calling thread */
    interp_prog *cur;              /* the program stopped in the hook */
    interp_hook_fn hook;
    void *hook_user;
    volatile bool trap;                  /* TRAP_GET/TRAP_SET: other threads and signal handlers write it */
    volatile bool abort;                 /* TRAP_GET/TRAP_SET: every program thread may set it */
    volatile sig_atomic_t interrupted;   /* interp_interrupt: abort at the next op */
    pthread_mutex_t hook_lock;
    bool parallel;                 /* a parallel launch is running */
    struct interp_pool *pool;      /* SCHED_PARALLEL's threads, kept between launches (sched.c) */

    int64_t grid[3], nprograms;

    pthread_mutex_t rep_lock;
    interp_site *sites;            /* nops_total * FK_COUNT */
    uint8_t *ovf;                  /* per global op: 1 check overflow, 2 and it forms an address */
    bool ovf_any;
    bool views_any;                /* some buffer has view_check */
    bool trace_on;                 /* interp_set_tracer (trace.c): a tracer is set; next to
                                    * views_any, which interp_eval_mem tests with it */
    int64_t printed, suppressed;
    int64_t fault_programs, race_programs;
    interp_stats st;
    bool bounds;                   /* per-element bounds are carried (bound.c) */
    bool bnd_bufs;                 /* some buffer has a bound layer (atomic: set by a program's store) */
    struct interp_session *bview;  /* the session seen by bound tiles: 8-byte elements */
    /* interp_set_tracer (trace.c, interp_trace.h) */
    void (*trace_access)(void *user, const struct interp_access *a);
    void (*trace_problem)(void *user, const struct interp_problem *pb);
    void *trace_user;
};

/* ---- execution (exec.c) ---------------------------------------------- */

enum { EXEC_OK = 0, EXEC_RETURN = 1, EXEC_ABORT = 2 };

/* Run region r; on a terminator (scf.yield / scf.condition) store it in
 * *term and return EXEC_OK. */
int interp_exec_region(interp_prog *p, int32_t r, const ir_op **term);
/* Run one program instance on p (resets p's memory first). */
int interp_prog_run(interp_prog *p, const int64_t pid[3]);
/* Per-thread state is kept INTERP_LINE-aligned: two cache lines, as the
 * adjacent-line prefetcher of x86 cores fetches lines in pairs. */
#define INTERP_LINE 128
void *interp_line_alloc(size_t n);
void interp_prog_init(interp_session *s, interp_prog *p);
void interp_prog_free(interp_prog *p);
/* Join the threads of a parallel launch and free their state (sched.c). */
typedef struct interp_pool interp_pool;
void interp_pool_free(interp_session *s);
/* interp_run_launch in an interp_sigint_begin scope of this thread: the
 * session is watched by the SIGINT handler (sigint.c); returns the slot to
 * give back to interp_sigint_unwatch, -1 when not watched. */
int interp_sigint_watch(interp_session *s);
void interp_sigint_unwatch(int slot);

/* Evaluators; each reads operands from p->vals and sets p->vals[res]. */
void interp_eval_arith(interp_prog *p, const ir_op *op);
void interp_eval_cast(interp_prog *p, const ir_op *op);
void interp_eval_math(interp_prog *p, const ir_op *op);
void interp_eval_shape(interp_prog *p, const ir_op *op);
void interp_eval_move(interp_prog *p, const ir_op *op);
int interp_eval_map(interp_prog *p, const ir_op *op);        /* eval_combine.c: tt.map_elementwise */   /* eval_move.c: join, split, cat, gather, histogram */
void interp_eval_mem(interp_prog *p, const ir_op *op);
void interp_eval_reduce(interp_prog *p, const ir_op *op);
/* tt.reduce_region / tt.scan (eval_combine.c): runs the combine region; EXEC_* */
int interp_eval_combine(interp_prog *p, const ir_op *op);
void interp_eval_dot(interp_prog *p, const ir_op *op);
int interp_eval_scf(interp_prog *p, const ir_op *op);
/* tt.print / tt.assert (eval_debug.c): EXEC_RETURN when an assert failed
 * (reported as a fault; the program stops) */
int interp_eval_debug(interp_prog *p, const ir_op *op);

/* Integer overflow (overflow.c): choose the ops to check (session
 * creation) and check one op's result (flag: its s->ovf entry). */
void interp_overflow_plan(interp_session *s);
void interp_overflow_check(interp_prog *p, const ir_op *op, int flag);

/* Bounds (bound.c): set s->bounds and its view (session creation); the
 * bounds of op's results after it ran (the executor, when s->bounds). */
void interp_bound_session(interp_session *s);
void interp_bound_session_free(interp_session *s);
void interp_bound_op(interp_prog *p, const ir_op *op);

/* Tracing (trace.c, interp_trace.h): the tracer's access call for one
 * memory op about to run, and its problem call for one lane. */
void interp_trace_access(interp_prog *p, const ir_op *op) __attribute__((cold));
void interp_trace_problem(interp_prog *p, int kind, uint64_t addr, int64_t other, int32_t other_loc)
    __attribute__((cold));

/* View bounds (view.c): mark buffers whose views do not cover them
 * (session creation); check one load/store/atomic's lanes. */
void interp_views_plan(interp_session *s);
void interp_view_check(interp_prog *p, const ir_op *op);

/* Fill a constant tile (session creation; tile.c). */
void interp_const_fill(const ival_info *vi, const ir_op *op, void *out);

/* Allocate the result tile of op (result i). */
static inline void *interp_result(interp_prog *p, const ir_op *op, int i)
{
    const ival_info *vi = &p->s->vi[op->res + i];
    void *d = ts_alloc(&p->mem, (size_t)vi->numel * vi->esize);
    p->vals[op->res + i] = d;
    return d;
}

/* Operand k of op as a tile of `n` elements: a 0-d operand of a larger op
 * is splatted into a temporary (tile.c). */
void *interp_operand_n(interp_prog *p, const ir_op *op, int k, int64_t n);
static inline void *interp_operand(interp_prog *p, const ir_op *op, int k, int64_t n)
{
    ir_value v = op->opnd[k];
    if (p->s->vi[v].numel == n) return p->vals[v];
    return interp_operand_n(p, op, k, n);
}

/* Write the lanes of value v that CT_HEADS left out (tile.c), so that v's
 * tile is dense; a no-op for other values. Every reader of a value that
 * may be heads-only calls it before reading lanes past the row heads. */
void interp_heads_fill(interp_prog *p, ir_value v);
static inline void interp_full(interp_prog *p, ir_value v)
{
    if (__builtin_expect(p->contig[v] & CT_HEADS, 0)) interp_heads_fill(p, v);
}
/* Whether op's result may be written as row heads only (with CT_HEADS):
 * its uses allow it and no debugger is stopping at ops. */
static inline bool interp_heads_only(const interp_prog *p, const ir_op *op)
{
    return p->s->heads_ok[op->res] && !TRAP_GET(p->s->trap);
}

/* Fill n elements of size esize at out with the element at src (tile.c). */
void interp_splat(void *out, const void *src, int esize, int64_t n);

/* Memory (memory.c). */
int interp_find_buf(const interp_session *s, uint64_t addr);  /* -1: none */
void interp_shadow_writer(interp_session *s, interp_buf *b);
void interp_shadow_reader(interp_session *s, interp_buf *b);
bool interp_buffers_new(interp_session *s);
void interp_buffers_free(interp_session *s);
void interp_shadow_clear(interp_session *s);

/* ---- scalar conversions used by the evaluators ----------------------- */

static inline float interp_h2f(uint16_t h)
{
    uint32_t sign = (uint32_t)(h & 0x8000) << 16;
    uint32_t em = h & 0x7fff;
    union { uint32_t u; float f; } o;
    o.u = em << 13;
    o.f *= 0x1p112f;               /* rebias; exact, handles subnormals */
    if (em >= 0x7c00) o.u |= 0x7f800000u;
    o.u |= sign;
    return o.f;
}

/* float -> f16 bits, round to nearest even; NaN stays a quiet NaN. */
static inline uint16_t interp_f2h(float f)
{
    union { float f; uint32_t u; } v = { f };
    uint32_t sign = (v.u >> 16) & 0x8000;
    uint32_t x = v.u & 0x7fffffffu;
    if (x >= 0x7f800000u)
        return (uint16_t)(sign | (x > 0x7f800000u ? 0x7e00 | ((x >> 13) & 0x3ff) : 0x7c00));
    if (x >= 0x477ff000u) return (uint16_t)(sign | 0x7c00);     /* rounds to inf */
    if (x < 0x38800000u) {                                       /* f16 subnormal or 0 */
        union { uint32_t u; float f; } a = { x };
        a.f += 0.5f;                                             /* quantum 2^-24 */
        return (uint16_t)(sign | (a.u - 0x3f000000u));
    }
    x += 0xc8000fffu + ((x >> 13) & 1);                          /* rebias + RTNE */
    return (uint16_t)(sign | (x >> 13));
}

static inline float interp_bf2f(uint16_t h)
{
    union { uint32_t u; float f; } o = { (uint32_t)h << 16 };
    return o.f;
}

static inline uint16_t interp_f2bf(float f)
{
    union { float f; uint32_t u; } v = { f };
    if ((v.u & 0x7fffffffu) > 0x7f800000u) return (uint16_t)((v.u >> 16) | 0x40);
    v.u += 0x7fffu + ((v.u >> 16) & 1);
    return (uint16_t)(v.u >> 16);
}

/* double -> f16/bf16 with a single rounding (round to odd into float, then
 * RTNE: float has more than 2*p+2 bits for both targets). */
static inline float interp_d2f_odd(double d)
{
    float f = (float)d;
    if ((double)f == d || f != f) return f;
    /* truncate toward zero, then set the sticky bit: round to odd */
    if (fabs((double)f) > fabs(d)) f = nextafterf(f, 0.0f);
    union { float f; uint32_t u; } v = { f };
    v.u |= 1;
    return v.f;
}
static inline uint16_t interp_d2h(double d) { return interp_f2h(interp_d2f_odd(d)); }
static inline uint16_t interp_d2bf(double d) { return interp_f2bf(interp_d2f_odd(d)); }

/* f32 as the tensor cores read it for a tf32 MMA: the low 13 mantissa bits
 * zeroed (inf and NaN kept). */
static inline float interp_tf32(float x)
{
    union { float f; uint32_t u; } v = { x };
    if ((v.u & 0x7f800000u) == 0x7f800000u) return x;
    v.u &= ~0x1fffu;
    return v.f;
}

/* Element e of a tile of dtype dt as double (ints signed unless `uns`). */
double interp_get_f64(const void *data, tt_dtype dt, int64_t e, bool uns);

#endif
