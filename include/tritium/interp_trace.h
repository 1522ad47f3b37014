/* interp_trace.h — watching a launch's memory accesses and its problems
 * lane by lane, for tools that draw them (tritium's HTML page of a launch,
 * page/; docs/html.md).
 *
 * A tracer set on a session is called by the interpreter:
 *   access   before every execution of a tt.load, tt.store, tt.atomic_rmw
 *            or tt.atomic_cas, with the op's pointer lanes and mask (the
 *            lanes it is about to resolve; the interpreter then checks and
 *            performs them as usual);
 *   problem  for every lane that faults (out of bounds, misaligned, of
 *            another element size), races with another program, or reads an
 *            uninitialized element: the lanes the interpreter's reports
 *            count (interp_sites gives the per-op summary).
 * Under --schedule parallel the calls come from every program thread at
 * once: the tracer synchronizes itself. Without a tracer the interpreter
 * pays one predictable branch per memory op executed (and nothing per
 * lane): `tritium run` without --html is as fast as before. */
#ifndef TRITIUM_INTERP_TRACE_H
#define TRITIUM_INTERP_TRACE_H

#include "tritium/interp.h"

enum { INTERP_ACC_LOAD, INTERP_ACC_STORE, INTERP_ACC_ATOMIC };

typedef struct interp_access {
    int64_t program;               /* linear program id */
    int kind;                      /* INTERP_ACC_* */
    int32_t loc;                   /* ir_loc of the op, -1 unknown */
    int64_t n;                     /* lanes */
    const uint64_t *addr;          /* n virtual addresses (interp_resolve, interp_buffer_base) */
    const uint8_t *mask;           /* n bytes, nonzero: active; NULL: every lane is */
    int esize;                     /* bytes per accessed element */
} interp_access;

typedef struct interp_problem {
    int64_t program;               /* linear program id */
    const char *kind;              /* interp_site_info.kind's names: "out-of-bounds", "misaligned",
                                    * "type-mismatched", "write-write-race", "read-after-write-race",
                                    * "write-after-read-race", "uninitialized-read" */
    bool fault, race;
    int32_t loc;                   /* ir_loc of the op */
    uint64_t addr;                 /* the lane's virtual address */
    int64_t other;                 /* a race's other program (linear), -1 unknown */
    int32_t other_loc;             /* its op's ir_loc, -1 unknown */
} interp_problem;

typedef struct interp_tracer {
    void (*access)(void *user, const interp_access *a);      /* may be NULL */
    void (*problem)(void *user, const interp_problem *p);    /* may be NULL */
    void *user;
} interp_tracer;

/* Set (t copied) or clear (t NULL) the session's tracer; not while a
 * launch runs. */
void interp_set_tracer(interp_session *s, const interp_tracer *t);

#endif
