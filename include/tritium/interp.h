/* interp.h — the block-semantics CPU interpreter (docs/design.md, "The
 * interpreter").
 *
 * A session binds an ir_func to a launch: every tensor argument becomes a
 * buffer in a virtual 64-bit address space (guard gaps between buffers), every
 * pointer is a plain integer in that space, and every masked-in lane of a
 * load/store/atomic is resolved to (buffer, element) before it is touched.
 * A lane outside every buffer, or misaligned, is a fault: reported, counted,
 * and not performed. Programs run one at a time (interp_run_program) or as a
 * whole launch under a schedule (interp_run_launch).
 *
 * The host tensors of the launch are read and written in place. */
#ifndef TRITIUM_INTERP_H
#define TRITIUM_INTERP_H

#include <stdio.h>
#include "tritium/ir.h"
#include "tritium/launch.h"

typedef enum { SCHED_IN_ORDER, SCHED_REVERSE, SCHED_RANDOM, SCHED_PARALLEL } interp_sched;

/* Which integer additions, subtractions and multiplications are checked
 * for signed overflow (Triton's sanitize_overflow). */
typedef enum { INTERP_OVF_ADDRESS, INTERP_OVF_ALL, INTERP_OVF_OFF } interp_ovf;

typedef struct interp_options {
    interp_sched sched;
    uint64_t sched_seed;           /* SCHED_RANDOM */
    int threads;                   /* SCHED_PARALLEL; 0: all cores */
    tt_numerics numerics;
    bool check_races;              /* shadow: conflicting accesses between programs */
    bool check_uninit;             /* shadow: reads of never-written elements of
                                    * buffers created with `empty` */
    interp_ovf check_overflow;     /* default: values that flow into an address */
    int max_reports;               /* distinct fault reports printed; 0: 20 */
    FILE *report;                  /* where fault reports go; NULL: stderr */
    FILE *output;                  /* tl.device_print / print output; NULL: stdout */
    bool bounds;                   /* NUMERICS_FAST only: carry per-element bounds on how far
                                    * the GPU's results may be (interp_elem_bound, docs/bounds.md) */
} interp_options;

/* ---- the grid and the schedule: one source for run, debug and diff ------ */

/* Linear program id <-> (x, y, z): lin = x + gx*(y + gy*z), x fastest, the
 * order in which CUDA numbers the CTAs of a grid (and Triton's programs).
 * Grid dims <= 0 count as 1. */
static inline void interp_pid_of(const int64_t grid[3], int64_t lin, int64_t pid[3])
{
    int64_t gx = grid[0] > 0 ? grid[0] : 1, gy = grid[1] > 0 ? grid[1] : 1;
    pid[0] = lin % gx;
    pid[1] = (lin / gx) % gy;
    pid[2] = lin / gx / gy;
}

static inline int64_t interp_lin_of(const int64_t grid[3], const int64_t pid[3])
{
    int64_t gx = grid[0] > 0 ? grid[0] : 1, gy = grid[1] > 0 ? grid[1] : 1;
    return pid[0] + gx * (pid[1] + gy * pid[2]);
}

/* The order in which a schedule runs n programs, as a position -> linear id
 * map that needs no table (so a grid of 2^30 programs costs nothing):
 *   SCHED_IN_ORDER, SCHED_PARALLEL  i
 *   SCHED_REVERSE                   n - 1 - i
 *   SCHED_RANDOM                    a seeded permutation of [0, n): a
 *       4-round Feistel network on the smallest even power of two >= n with
 *       round keys from splitmix64(seed), cycle-walking values >= n back
 *       into [0, n). Same seed, same n: same order, in `tritium run
 *       --schedule random:SEED`, the debugger's `schedule random SEED` and
 *       `tritium diff --against random:SEED`. */
typedef struct interp_order {
    interp_sched kind;
    int64_t n;
    int half;                      /* SCHED_RANDOM: bits per Feistel half */
    uint64_t mask, key[4];
} interp_order;

void interp_order_init(interp_order *o, interp_sched kind, uint64_t seed, int64_t n);
/* The linear id of the i-th program to run, 0 <= i < n. */
int64_t interp_order_at(const interp_order *o, int64_t i);
/* The same without keeping an interp_order (initializes one per call). */
int64_t interp_sched_at(interp_sched kind, uint64_t seed, int64_t n, int64_t i);
/* The schedule's name as --schedule spells it ("in-order", "reverse",
 * "random", "parallel"); "?" for a value out of range. */
const char *interp_sched_name(interp_sched kind);

/* Default options: in order, ieee, checks on, 20 reports, stderr. */
void interp_options_default(interp_options *o);

typedef struct interp_session interp_session;

/* Bind f to the launch. l's tensors must stay alive for the session; they are
 * updated in place. Tensor arguments with launch_arg.uninit are marked as
 * interp_mark_uninitialized does. Returns NULL with a message on stderr when an argument
 * does not match the kernel's parameters. */
interp_session *interp_session_new(const ir_func *f, launch *l, const interp_options *o);
void interp_session_free(interp_session *s);

/* What the debug hook asks the interpreter to do next. */
typedef enum { HOOK_CONTINUE, HOOK_ABORT } interp_hook_action;

/* Where a program is stopped: the op about to run. */
typedef struct interp_frame {
    const ir_func *fn;
    int32_t region, op;            /* the op about to execute */
    int64_t pid[3];
} interp_frame;

/* Called before an op when the trap flag is set (interp_set_trap). The hook
 * may inspect values with interp_value_* and must return quickly or run its
 * own command loop (the debugger does). HOOK_ABORT unwinds the program and
 * the launch. */
typedef interp_hook_action (*interp_hook_fn)(void *user, interp_session *s, const interp_frame *fr);
void interp_set_hook(interp_session *s, interp_hook_fn fn, void *user);
/* When false the hook is never called; checking it is the only cost per op. */
void interp_set_trap(interp_session *s, bool on);

/* Run one program instance to completion. Returns 0, or -1 when aborted by
 * the hook. Faults are counted, not fatal. */
int interp_run_program(interp_session *s, const int64_t pid[3]);

typedef struct interp_stats {
    int64_t programs;              /* program instances run */
    int64_t faults;                /* distinct fault sites (op, kind) */
    int64_t fault_lanes;           /* lanes that faulted in total */
    int64_t races;                 /* conflicting accesses found */
    int64_t uninit_reads;
    int64_t overflows;             /* distinct integer-overflow sites (op) */
    int64_t overflow_lanes;
    int64_t view_lanes;            /* lanes inside a storage but outside its views */
    double seconds;
} interp_stats;

/* Run the whole grid under the session's schedule. Returns 0, or -1 when
 * aborted by the hook. */
int interp_run_launch(interp_session *s);
/* Stop the running launch at the next op of every program (Ctrl-C): the
 * launch returns -1, with the programs finished so far counted in the stats.
 * Async-signal-safe (it only sets flags); the session stays stopped. */
void interp_interrupt(interp_session *s);
bool interp_interrupted(const interp_session *s);
/* Ctrl-C during a library call (libtritium's tritium_run, tritium_check):
 * while a scope is open, a SIGINT handler (sigaction, SA_RESTART) is
 * installed that interrupts every launch (interp_run_launch) running in a
 * scope, on any thread; a launch that starts in a scope after a Ctrl-C came
 * in it stops before its first program. The handler found at the first
 * begin (the host's, e.g. Python's) is restored when the last scope ends;
 * when SIGINT was ignored, none is installed. One scope at a time per
 * thread. interp_sigint_end returns whether a Ctrl-C came during the scope. */
void interp_sigint_begin(void);
bool interp_sigint_end(void);
void interp_get_stats(const interp_session *s, interp_stats *st);

/* One report site of the session's runs (an op and a kind of problem; the
 * text report prints the same sites), as data for libtritium's report. */
typedef struct interp_site_info {
    const char *kind;              /* "out-of-bounds", "misaligned", "type-mismatched", "bad-loop-step",
                                    * "write-write-race", "read-after-write-race", "write-after-read-race",
                                    * "uninitialized-read", "overflow", "outside-view" (static) */
    bool fault, race;
    int64_t pid[3];                /* the first program it happened in */
    int64_t programs, lanes;       /* programs and lanes in all */
    int32_t loc;                   /* ir_loc of the op, -1 unknown */
    const char *op;                /* the op's TTIR name (static) */
    int arg;                       /* launch argument of the first access, -1 none
                                    * (out-of-bounds: the nearest buffer's, as reported) */
    int64_t elem;                  /* its element in that argument's storage (out of
                                    * bounds: negative, or at least the element count) */
    bool has_other;                /* race: the program of the other access */
    int64_t other_pid[3];
} interp_site_info;
/* Fill out[0..max) with the sites seen so far, in op order; returns how many
 * there are (which may exceed max). */
int64_t interp_sites(const interp_session *s, interp_site_info *out, int64_t max);

/* ---- inspection (for the debugger and diff) ---------------------------- */

/* The current value of SSA value v in the running program, or NULL when it
 * has not been computed yet. Data is dense row-major in the value's type
 * (pointers as u64 virtual addresses, i1 as one byte, f16/bf16 as u16 bits). */
const void *interp_value_data(interp_session *s, ir_value v);
/* The buffer holding virtual address addr: its launch argument index and the
 * element index; false when addr is in no buffer. */
bool interp_resolve(const interp_session *s, uint64_t addr, int *arg, int64_t *elem);
/* Mark tensor argument `arg` as created with the `empty` generator: its
 * elements count as uninitialized until a program of the session writes
 * them, and with options.check_uninit every load of such an element is
 * reported (a warning, counted in interp_stats.uninit_reads). Call before
 * running programs; arguments that are not tensors are ignored. */
void interp_mark_uninitialized(interp_session *s, int arg);
/* The virtual base address of tensor argument `arg`. */
uint64_t interp_buffer_base(const interp_session *s, int arg);
/* Program that last wrote element `elem` of tensor argument `arg` (linear
 * program id), and the location (ir_loc index) of the writing op; false when
 * never written. */
bool interp_last_writer(const interp_session *s, int arg, int64_t elem, int64_t *program, int32_t *loc);

/* How far the GPU's value of an element may legitimately be from the
 * interpreter's v: anywhere in [v - dn, v + up] (interp_options.bounds,
 * docs/bounds.md). An integer made by rounding a float has whole dn/up (the
 * set {v - dn, ..., v + up}); INFINITY: a value the bounds do not model. */
typedef struct interp_bound {
    double dn, up;
    const ir_op *op;               /* the op whose error dominated the bound (NULL: unknown) */
} interp_bound;
/* Element elem of launch argument arg after the launch: false when the
 * element is exact (no inexact operation reached it) or there are no
 * bounds (not asked for, or ieee numerics); else fills *out. */
bool interp_elem_bound(const interp_session *s, int arg, int64_t elem, interp_bound *out);
/* Whether session s carries bounds (interp_options.bounds in fast numerics). */
bool interp_has_bounds(const interp_session *s);

#endif
