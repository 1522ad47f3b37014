/* diff.h — the diff engine: run one launch on identical inputs in the CPU
 * interpreter and on the GPU and compare, element by element, every tensor
 * the kernel writes (docs/design.md, "The debugger and the REPL": `diff`).
 *
 * No terminal I/O: dbg_diff_run fills a report, dbg_diff_print writes it to
 * a FILE*, dbg_diff_json_fill adds it to a JSON object. The engine is
 * debugger/diff.c and debugger/diff_json.c (built when the GPU compiler is:
 * TRITIUM_HAVE_GPU); its users are `tritium diff` (repl/diff_cmd.c), the
 * debugger's `diff` command (repl/cmd_diff.c) and the C API's tritium_check
 * (api/check.c), which reaches it through this header alone.
 *
 * What is compared. A tensor argument counts as written when its contents
 * changed on either side, or when the interpreter's shadow state has a last
 * writer for any of its elements (a kernel that stores the values that were
 * already there). Read-only tensors are not compared. The interpreter's
 * result is the reference: relative errors are |gpu - interp| / |interp|.
 *
 * Acceptance of one element (numpy.isclose's rule, plus ULPs):
 *   equal values (NaN == NaN, +0 == -0, equal infinities), or
 *   |gpu - interp| <= atol + rtol * |interp|   (finite values), or
 *   ulp_distance(gpu, interp) <= ulp           (when ulp >= 0).
 * Without --ulp, a float tensor's ulp is the bound of the kernel's math
 * functions (dbg_diff_math_ulp), when it has one.
 * Integer and bool tensors compare exactly unless a tolerance or --ulp is
 * given (for integers the "ULP distance" is |gpu - interp|). Default
 * tolerances per dtype: dbg_diff_default_tol.
 *
 * In fast numerics, against the GPU and without --rtol/--atol/--ulp, the
 * interpreter carries per-element bounds instead (interp_elem_bound,
 * docs/bounds.md): an element agrees when the other side lies within its
 * bound; an element no inexact op reached must be equal (or both below the
 * smallest normal: the GPU may flush subnormals). */
#ifndef TRITIUM_DIFF_H
#define TRITIUM_DIFF_H

#include <stdio.h>
#include "tritium/gpu.h"
#include "tritium/interp.h"
#include "tritium/launch.h"

/* How many mismatching elements a report keeps per tensor, at most. */
#define DBG_DIFF_MAX_SHOW 10

struct dbg_diff_report;

typedef struct dbg_diff_options {
    tt_numerics numerics;          /* the same mode for the interpreter and the GPU
                                    * (NUMERICS_IEEE or NUMERICS_FAST) */
    bool has_rtol, has_atol;       /* override the per-dtype defaults */
    double rtol, atol;
    int64_t ulp;                   /* < 0: no ULP acceptance (default -1) */
    int max_show;                  /* mismatches kept per tensor, 1..DBG_DIFF_MAX_SHOW; 0: 10 */
    int num_warps;                 /* 0: the launch's (l->num_warps, else 4) */
    const char *arch;              /* NULL: the device's */
    int mma_sync;                  /* gpu_options.mma_sync: 0 or 1; -1 (default): $TRITIUM_WGMMA's */
    bool persistent;               /* gpu_options.persistent; false: $TRITIUM_PERSISTENT's */
    interp_sched sched;            /* interpreter schedule (default in order) */
    uint64_t sched_seed;
    int threads;
    FILE *interp_report;           /* the interpreter's fault/race reports; NULL: stderr */
    int max_interp_reports;        /* 0: the interpreter's default */
    /* Instead of the GPU, compare with a second interpreter run under
     * other_sched (no GPU needed): finds results that depend on program
     * order, and tests the engine on machines without a GPU. */
    bool against_interp;
    interp_sched other_sched;
    uint64_t other_seed;
    /* Watching the interpreter's side (tritium's HTML page, page.h; NULL:
     * none): on_session gets its session (on launch l, the interpreter's
     * copy) before the launch runs; on_done, once both sides ran and were
     * compared, before the copies are freed, the inputs (in), the
     * interpreter's results (ref) and session (s), the other side's results
     * (got; NULL when it did not run) and the report. */
    void (*on_session)(void *user, interp_session *s, const launch *l);
    void (*on_done)(void *user, const launch *in, const launch *ref, interp_session *s, const launch *got,
                    const struct dbg_diff_report *r);
    void *watch_user;
} dbg_diff_options;

/* Defaults: ieee, per-dtype tolerances, no ULPs, 10 mismatches, in order. */
void dbg_diff_options_default(dbg_diff_options *o);

/* The default tolerances for a dtype (documented in docs/diff-and-check.md,
 * "When two elements agree"):
 *   bool, integers        exact (rtol 0, atol 0)
 *   f16, bf16             rtol 1e-2, atol 1e-2 (both modes)
 *   f32                   ieee: rtol 1e-5, atol 1e-6;  fast: rtol 1e-4, atol 1e-5
 *   f64                   ieee: rtol 1e-12, atol 1e-14; fast: rtol 1e-10, atol 1e-12
 *   f8e4nv, e4b15, e4b8   rtol 0.125, atol 1e-2 (one fp8 step)
 *   f8e5, f8e5b16         rtol 0.25, atol 1e-2
 * Why not exact in ieee mode: transcendental functions (libdevice vs the C
 * library) and the order of float reductions and dot products differ. */
void dbg_diff_default_tol(tt_dtype d, tt_numerics n, double *rtol, double *atol);

/* The ULP bound of the math functions kernel f calls (ops_math.def's `ulp`
 * of each call's variant, ir_mathfns[].var[].ulp), in ULPs of float dtype d:
 * the largest over the kernel's calls, converted by dbg_diff_ulp_in; 0 when
 * f calls none with a bound or d is not a float. The diff engine accepts
 * a float tensor's elements this many ULPs apart when no --ulp is given: a
 * launch-wide rule that covers errors carried to the output by operations
 * that do not amplify relative error (stores, casts, products); a
 * cancellation after the call (exp(x) - 1) can amplify them beyond it. */
int64_t dbg_diff_math_ulp(const ir_func *f, tt_dtype d);

/* n ULPs of float dtype `from` as ULPs of float dtype `to`: n * 2^(p_to -
 * p_from) when `to` is at least as precise (p: fraction bits), else
 * ceil(n / 2^(p_from - p_to)) + 1 (the two values each round by up to half
 * an ULP of `to`). 0 for n <= 0 or a non-float dtype; saturates at 2^62. */
int64_t dbg_diff_ulp_in(int64_t n, tt_dtype from, tt_dtype to);

/* Distance in units in the last place between two values of float dtype d
 * given as raw bits (f16/bf16: low 16 bits, f32: low 32, fp8: low 8); 0 for equal
 * values (+0/-0, NaN/NaN), UINT64_MAX when exactly one is NaN. For integer
 * dtypes: |a - b| of the values. */
uint64_t dbg_diff_ulp(tt_dtype d, uint64_t a_bits, uint64_t b_bits);

/* One mismatching element. */
typedef struct dbg_diff_elem {
    int64_t elem;                  /* linear (row-major) index */
    int64_t index[TT_MAX_RANK];    /* the same as a multi-dimensional index */
    uint64_t ref_bits, got_bits;   /* raw element bits: interpreter, GPU */
    double ref, got;               /* the values as doubles */
    double abs_err;                /* |got - ref| (NaN/inf aware: inf when not finite) */
    uint64_t ulp;                  /* dbg_diff_ulp */
    bool has_writer;               /* the interpreter wrote this element */
    int64_t program;               /* linear program id of the last interpreter writer */
    int64_t pid[3];                /* the same as (x, y, z) */
    int32_t loc;                   /* ir_loc of the writing op, -1 unknown */
    int file, line, col;           /* that location (file -1: unknown); innermost */
    char func[64];                 /* function the writing op was written in ("" unknown) */
    bool has_bound;                /* compared by its bound (dbg_diff_tensor.bounds): */
    double bdn, bup;               /* the other side may be in [ref - bdn, ref + bup] */
    char why[160];                 /* the op that dominated it: "tt.dot at f.py:12, tf32, K=64" */
} dbg_diff_elem;

/* One written tensor. */
typedef struct dbg_diff_tensor {
    int arg;                       /* launch argument index */
    char *name;
    tt_dtype dtype;
    int rank;
    int64_t shape[TT_MAX_RANK];
    int64_t numel;
    bool written_interp, written_gpu;   /* contents changed on that side (or shadow) */
    double rtol, atol;             /* the tolerances applied */
    int64_t ulp;                   /* the ULP acceptance applied (-1: none) */
    int64_t math_ulp;              /* dbg_diff_math_ulp for this dtype when no --ulp
                                    * was given (then ulp = math_ulp if > 0), else 0 */
    bool exact;                    /* compared bit for bit (integers without tolerance) */
    bool bounds;                   /* compared by the numerics' per-element bounds (fast numerics,
                                    * no --rtol/--atol/--ulp; docs/bounds.md): an element agrees when
                                    * the other side is within its bound, exact elements bit for bit */
    int64_t inexact;               /* elements with a bound (the rest had to be exact) */
    int64_t unmodeled;             /* elements an op the bounds do not model reached: not compared */
    int64_t within;                /* differing elements their bounds accepted */
    double max_bound;              /* the largest finite bound (max of dn, up) ... */
    char max_bound_why[160];       /* ... and the op that dominated it ("" none) */
    int64_t mismatches;
    uint8_t *bad;                  /* bit i (byte i / 8, bit i % 8): element i is a mismatch by the
                                    * rule applied (NULL: none is); the page's error map reads it */
    double max_abs, max_rel;       /* over finite pairs */
    uint64_t max_ulp;              /* over all pairs (UINT64_MAX: NaN against a number) */
    int64_t max_abs_at, max_rel_at, max_ulp_at;   /* linear index, -1 none */
    dbg_diff_elem *first; int nfirst;             /* the first mismatches in index order */
    bool ok;
} dbg_diff_tensor;

typedef struct dbg_diff_report {
    char *kernel;
    int status;                    /* 0 all agree; 1 a mismatch, a GPU fault or an
                                    * interpreter fault; 2 could not run (no driver,
                                    * GPU compile error, launch does not match) */
    char message[1024];            /* status 2, or the GPU fault: one line */
    bool gpu_failed;               /* the kernel failed on the device */
    bool gpu_ran, interp_ran;      /* gpu_ran: the other side ran (the GPU, or the
                                    * second interpreter run with against_interp) */
    bool against_interp;           /* the other side was the interpreter */
    char other_label[32];          /* "" or the other side's name, when its results came
                                    * from elsewhere (dbg_diff_compare's caller: "triton") */
    char ref_label[32];            /* "" (the interpreter) or the compared side's name when
                                    * it is not the interpreter ("tritium-gpu": no writers) */
    interp_sched other_sched;
    tt_numerics numerics;
    int64_t grid[3];
    int num_warps;
    interp_stats interp;
    gpu_stats gpu;
    dbg_diff_tensor *tensors; int ntensors;   /* written tensors, in argument order */
    char **unwritten; int nunwritten;         /* names of tensors neither side wrote */
    int64_t mismatches;            /* over all tensors */
} dbg_diff_report;

/* Whether the interpreter's side should carry bounds (interp_options.bounds):
 * fast numerics, the GPU as the other side, no --rtol/--atol/--ulp. */
bool dbg_diff_wants_bounds(const dbg_diff_options *o);

/* Run launch l (not modified: both sides get deep copies of its tensors, so
 * they start from identical inputs) with kernel f — GPU first, so that a
 * missing driver is found before the interpreter runs — and compare. f must
 * be compiled for l (front_compile). Returns r->status. After a fault on the
 * device the CUDA context is reset so that later launches work. Free r with
 * dbg_diff_report_free. */
int dbg_diff_run(const ir_func *f, const launch *l, const dbg_diff_options *o, dbg_diff_report *r);

/* The comparison step of dbg_diff_run, on its own: `in` holds the inputs,
 * `ref` and `got` the tensors after two runs that started from copies of
 * them (same argument order, shapes and dtypes); s (may be NULL) is the
 * interpreter session that produced `ref`, for last writers and written-ness.
 * Appends the written tensors to r (r zeroed or from dbg_diff_run) and adds
 * their mismatches to r->mismatches; does not set r->status. Arguments that
 * view an earlier argument's storage (launch_arg.shared) are compared once. Lets the
 * comparison run without a GPU, e.g. two interpreter schedules. */
void dbg_diff_compare(const ir_func *f, const launch *in, const launch *ref, interp_session *s, const launch *got,
                      const dbg_diff_options *o, dbg_diff_report *r);

/* Print the report as text: one block per written tensor with max abs/rel/ULP
 * errors, the mismatch count, and a table of the first mismatches (index,
 * interpreter value, GPU value, error, ULPs, the program that wrote the
 * element and file:line), then the quoted source line of each writing op. */
void dbg_diff_print(FILE *out, const dbg_diff_report *r);

/* Format element bits of dtype d as text ("1.25", "-3", "nan", "True"). */
void dbg_diff_format(tt_dtype d, uint64_t bits, char *buf, size_t n);

void dbg_diff_report_free(dbg_diff_report *r);

/* The report's fields as `tritium diff --json` prints them (status, grid,
 * gpu, interp, tensors with their first mismatches and writers, unwritten),
 * added to JSON object o (jansson's json_t; diff_json.c). Also the "check"
 * object of the C API's check report. */
struct json_t;
void dbg_diff_json_fill(struct json_t *o, const dbg_diff_report *r);

#endif
