/* prove_dom.h — the abstract domain of proof mode (prove.c, prove_solve.c).
 *
 * An integer lane is an affine form over symbols plus an interval term:
 *     value = c + sum_k a[k] * sym[k] + e,   e in [elo, ehi]
 * exact when elo == ehi == 0. A mask lane is a conjunction of constraints
 * `form >= 0` (MASK_FALSE: the lane is off in every program). A tile keeps
 * one lane when all its lanes are equal (n == 1), else one per element. */
#ifndef TRITIUM_PROVE_DOM_H
#define TRITIUM_PROVE_DOM_H

#include "tritium/prove.h"

#define PV_NSYM 10                 /* symbols: 3 program ids, loops, for-all, derived */
#define PV_MAXC 6                  /* conjuncts kept per mask lane */
#define PV_FALSE 255               /* nc[] of a lane masked off everywhere */

typedef struct paff {
    int64_t c, elo, ehi;
    int64_t a[PV_NSYM];
} paff;

enum { PK_TOP, PK_INT, PK_PTR, PK_MASK };

typedef struct ptile {
    uint8_t kind;
    bool inexact;                  /* PK_MASK: some conjunct was dropped (over-approximated) */
    int buf;                       /* PK_PTR: the buffer's launch argument */
    int64_t n;                     /* lanes stored: 1 (uniform) or the type's numel */
    paff *v;                       /* PK_INT, PK_PTR (offset in elements of buf) */
    uint8_t cw;                    /* PK_MASK: room for conjuncts per lane (<= PV_MAXC) */
    uint8_t *nc;                   /* PK_MASK: conjuncts per lane */
    paff *cons;                    /* PK_MASK: n * cw */
    int32_t why_loc;               /* PK_TOP: where precision was lost */
    const char *why;
} ptile;

enum { SYM_PID, SYM_LOOP, SYM_FORALL, SYM_DERIVED };

typedef struct pbox { int64_t lo[PV_NSYM], hi[PV_NSYM]; } pbox;

/* Range of x over box b; false when it does not fit int64. */
bool pv_range(const paff *x, const pbox *b, int64_t *lo, int64_t *hi);
/* x evaluated at a point (noise must be 0): false on overflow. */
bool pv_eval(const paff *x, const int64_t *pt, int64_t *out);

/* Tighten b by constraints cons[0..n) (each form >= 0). Returns false when
 * no point of b satisfies them. */
bool pv_tighten(pbox *b, const paff *const *cons, int n);
/* Whether g >= 0 holds on every point of b satisfying cons (b already
 * tightened): bounds over the box, then positive combinations of g with the
 * constraints that eliminate symbols. */
bool pv_proves(const paff *g, const paff *const *cons, int n, const pbox *b);

#endif
