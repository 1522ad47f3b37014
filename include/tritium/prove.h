/* prove.h — proof mode: bounds of every memory access of a launch, for all
 * programs of the grid at once (`tritium check`).
 *
 * An abstract interpretation of the kernel's IR. Integer values are per-lane
 * affine forms over a few symbols (the program id of each grid axis, one per
 * enclosing scf.for iteration, one per `--for-all` argument, and fresh ones
 * for scalar results that are not affine, such as `pid // n`), plus an
 * interval term for what is not affine lane by lane (`offs % M`). Masks are
 * per-lane conjunctions of linear constraints (`offs < n`, and-ed masks,
 * broadcast 2-D masks). Each masked-in lane of a tt.load, tt.store,
 * tt.atomic_rmw and tt.atomic_cas is proved in bounds by bounding its offset
 * over the symbols' box tightened by the mask and by linear combinations of
 * the mask's constraints with the offset (one Fourier-Motzkin step per
 * symbol), so the cost does not depend on the number of programs. An access
 * that fails with only exact terms involved is refuted with a concrete
 * counterexample; anything else is left open (the caller runs the
 * interpreter for it). int32/int64 arithmetic that may wrap makes the value
 * unknown (the access stays open and says why). */
#ifndef TRITIUM_PROVE_H
#define TRITIUM_PROVE_H

#include "tritium/ir.h"
#include "tritium/launch.h"

#define PROVE_MAX_FORALL 2

typedef enum { PROVE_PROVED, PROVE_REFUTED, PROVE_OPEN } prove_status;

/* `--for-all NAME=LO:HI`: integer argument `arg` takes every value in
 * [lo, hi]. Tensor extents may follow it: numel of launch argument a is
 * launch numel + ext[a] * (value - the launch's value of NAME). */
typedef struct prove_forall {
    int arg;
    int64_t lo, hi;
    int64_t *ext;                  /* per launch argument (nargs), caller-owned */
} prove_forall;

typedef struct prove_input {
    const ir_func *f;
    const launch *l;               /* shapes, scalar values, grid (tensor data unused) */
    int64_t grid_max[3];           /* program ids range over [0, grid_max); 0: l->grid */
    prove_forall fa[PROVE_MAX_FORALL];
    int nforall;
    /* With for-all arguments whose values change the grid: the grid for the
     * given values (a counterexample's program must lie in it). NULL: l->grid. */
    bool (*grid_at)(void *user, const int64_t *forall_vals, int64_t grid[3]);
    void *user;
} prove_input;

/* The verdict on one memory op. */
typedef struct prove_access {
    int32_t region, op;            /* the op in f */
    int32_t loc;                   /* its location (ir_loc index), -1: none */
    const char *opname;            /* "load", "store", "atomic_add", "atomic_cas", ... */
    int acc;                       /* 0 load, 1 store, 2 atomic */
    int arg;                       /* the buffer's launch argument, -1: unknown */
    prove_status status;
    bool reached;                  /* some program can execute it */
    char why[160];                 /* PROVED: what it rests on; OPEN: why not decided */
    /* REFUTED: a counterexample (all exact) */
    int64_t pid[3];
    int64_t lane;                  /* flat lane index in `tile` */
    ir_type tile;                  /* the pointer operand's type */
    int64_t elem;                  /* element index (flat) of that lane */
    int64_t extent;                /* the buffer's numel for that counterexample */
    int64_t lanes;                 /* faulting lanes of the op in that program and iteration */
    int64_t forall_val[PROVE_MAX_FORALL];
} prove_access;

typedef struct prove_result {
    prove_access *acc; int nacc;   /* malloc'd, in program order */
    int proved, refuted, open;
    double seconds;
} prove_result;

/* Analyse f for the launch. Returns false (with a message on stderr) only
 * when the input is malformed (a launch that does not match f); the result
 * is then empty. Free with prove_result_free. */
bool prove_launch(const prove_input *in, prove_result *out);
void prove_result_free(prove_result *r);

/* Print a refuted or open access in the interpreter's fault-report format
 * (program, source line with a caret, lane, buffer, element, extent, lanes),
 * then `replay` (a command line) when not NULL. Proved accesses print
 * nothing. */
void prove_print_access(FILE *out, const prove_input *in, const prove_access *a, const char *replay);

#endif
