/* page_int.h — the internals of tritium's HTML page (include/tritium/page.h),
 * shared by its files:
 *   collect.c   the tracer: per map cell the last writer and reader and the
 *               problems, per program the cells it touched; the maps'
 *               geometry; the diff/check error maps; sealing a launch into
 *               its JSON
 *   write.c     the page: HTML around the sealed launches, the styles and
 *               the script (page.css and page.js, embedded at build time by
 *               embed.py into page_assets.c)
 *   blob.c      binary arrays for the page: deflated (zlib, when built with
 *               it) and base64-encoded, with their element type */
#ifndef TRITIUM_PAGE_INT_H
#define TRITIUM_PAGE_INT_H

#include <jansson.h>
#include <pthread.h>

#include "tritium/page.h"
#include "tritium/interp_trace.h"

/* Overhang: cell rows drawn before the first and after the last row of a
 * map, where out-of-bounds lanes land. */
#define PG_OVER 8

/* Cell state bits (page.js reads the same). */
enum {
    PG_READ = 1, PG_WRITE = 2, PG_ATOMIC = 4, PG_MANYR = 8, PG_MANYW = 16,
    PG_RACE = 32, PG_UNINIT = 64, PG_FAULT = 128,
};
/* Kinds of per-program runs: INTERP_ACC_* of interp_trace.h, then faults. */
enum { PG_RUN_LOAD, PG_RUN_STORE, PG_RUN_ATOMIC, PG_RUN_FAULT };

/* One tensor argument's map (an owner of its storage; views of the same
 * storage share it). Element e sits at row floor(e / cols), column
 * e mod cols of the folded grid; cells are bh x bw elements; the cell
 * arrays cover crows + 2 * PG_OVER rows of ccols cells (the overhang above
 * first). */
typedef struct pg_map {
    int arg;
    char *name;
    tt_dtype dt;
    int rank;
    int64_t shape[TT_MAX_RANK];
    int64_t numel;
    const tt_tensor *t;
    uint64_t base, end;            /* virtual addresses of the session */
    int esize, eshift;
    bool linear;                   /* rank <= 1 (or a storage without a matching view): wrapped rows */
    int64_t cols, bh, bw, crows, ccols;
    int64_t ncells;                /* (crows + 2 * PG_OVER) * ccols */
    uint8_t *st;
    int32_t *wp, *rp, *xp;         /* last writer, last reader, a race's other program; -1 none */
    uint16_t *wl, *rl;             /* their ops: index in the launch's loc table + 1; 0 none */
    uint32_t *off;                 /* the cell's worst element: (row in block) * bw + column */
    uint8_t *pri;                  /* its rank: 0 none, 1 uninitialized read, 2 race, 3 fault */
    int64_t far;                   /* out-of-bounds lanes beyond the overhang */
    bool read, written;
    /* diff/check */
    bool cmp;
    uint8_t *dst;                  /* 1 bits differ, 2 mismatch (the diff engine's verdict) */
    float *err;                    /* the cell's largest error (ULPs, or absolute for integers) */
    double *ref, *got;             /* values at the cell's worst element */
    uint32_t *doff;
    int64_t mismatches;
    page_rule rule;
} pg_map;

typedef struct pg_run {
    uint32_t prog;
    uint16_t map;
    uint8_t kind;
    uint32_t start, len;
} pg_run;

struct page_launch {
    page_doc *doc;
    const ir_func *f;
    const launch *l;
    interp_session *s;
    pthread_mutex_t lock;          /* tracer calls of a parallel launch */
    pg_map *maps; int nmaps;
    int *arg_map;                  /* per launch argument: its map, -1 none */
    /* op locations of the memory ops, compacted: locs[k] is ir_loc index,
     * loc_index[ir_loc] is k + 1 */
    int32_t *locs; int nlocs;
    uint16_t *loc_index;
    uint8_t *loc_kind;             /* per compact loc: INTERP_ACC_* of its op */
    pg_run *runs; int64_t nruns, capruns;
    bool runs_cut;                 /* PAGE_MAX_RUNS reached: later programs were not recorded */
    int64_t cut_prog;              /* the first program not recorded (sequential schedules) */
    int64_t far_oob;               /* out-of-bounds lanes near no buffer */
    bool parallel;
    int64_t nprograms;
    /* the summary */
    char *label, *file, *schedule, *numerics;
    uint64_t seed;
    char *ref_label, *other_label;
    int64_t mismatches;
    bool compared;
    /* sealed (page_launch_end): the launch as JSON text (NULL once dropped),
     * its summary alone, its rank for ordering */
    char *json, *summary;
    int badness;                   /* 4 fault, 3 race, 2 mismatch, 1 uninitialized read, 0 ok */
    int order;
    bool reduced;
};

struct page_doc {
    char *title;
    page_launch **v; int n, cap;
    int added;                     /* launches given to the page */
    int dropped;                   /* launches whose maps were dropped (PAGE_MAX_LAUNCHES) */
    pthread_mutex_t lock;
};

/* Free a launch (sealed or not; its session is not touched). */
void pg_launch_free(page_launch *pl);

/* blob.c: a JSON object {"t": type, "z": deflated, "n": elements, "d": base64}. */
json_t *pg_blob(const void *data, size_t n, size_t esize, const char *type);

/* page_assets.c (generated from page.css and page.js) */
extern const char pg_css[];
extern const char pg_js[];

#endif
