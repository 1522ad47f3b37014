/* page.h — tritium's HTML page of one or more launches (`--html FILE` of
 * `tritium run`, `diff`, `check` and `python -m tritium`; docs/html.md).
 *
 * One self-contained file: its styles, its script and its data inline, no
 * network, opens from file://. Per launch it shows the kernel's source with
 * the lines of every report marked, the reports (each linking to its
 * element), per tensor argument an access map (the elements as a 2-D grid,
 * coloured by the program that last wrote or read them; out-of-bounds lanes
 * drawn past the edge they crossed; races, uninitialized reads and faults
 * marked; a tooltip with index, value, programs and lines), a program
 * picker that highlights what one program loaded and stored, the launch's
 * summary, and for diff/check a map per compared output of its error
 * against the other side.
 *
 * Collecting: page_launch_begin sets an interp_tracer (interp_trace.h) on
 * the session, which records, per map cell, the last writer and reader
 * (program, op) and the problems, and per program the cells it loaded and
 * stored; page_launch_end reads the session's report sites and the
 * tensors' final values. A launch without a page is not traced.
 *
 * Size: a map has at most PAGE_MAX_CELLS cells (a launch's maps share
 * PAGE_LAUNCH_CELLS); a larger tensor is reduced to blocks of elements, each
 * keeping the worst state of its elements (fault, race, uninitialized read,
 * mismatch), and the page says so. The per-program access lists are capped
 * (PAGE_MAX_RUNS runs: later programs are not pickable). Binary arrays are
 * deflated when tritium is built with zlib. */
#ifndef TRITIUM_PAGE_H
#define TRITIUM_PAGE_H

#include <stdbool.h>
#include <stddef.h>
#include "tritium/interp.h"
#include "tritium/launch.h"

#define PAGE_MAX_CELLS 65536
#define PAGE_LAUNCH_CELLS 196608
#define PAGE_MAX_RUNS 1000000
/* Launches kept with their maps in one page (a program's); the others are
 * listed with their summary only (the worst ones are kept). */
#define PAGE_MAX_LAUNCHES 64

typedef struct page_doc page_doc;
typedef struct page_launch page_launch;

/* A page; title names it ("tritium run examples/oob_bug.py"). */
page_doc *page_doc_new(const char *title);
void page_doc_free(page_doc *d);

/* What the summary says about a launch (strings copied). */
typedef struct page_launch_info {
    const char *label;             /* "tritium run", "launch 3", ... (NULL: none) */
    const char *file;              /* the kernel's file as the user named it (NULL: from the IR) */
    const char *schedule;          /* "in-order", ... */
    const char *numerics;          /* "ieee", "fast" */
    uint64_t seed;
} page_launch_info;

/* Start collecting launch l run by session s (created on l, not yet run):
 * sets the session's tracer. f and l must live until page_launch_end. */
page_launch *page_launch_begin(page_doc *d, const ir_func *f, const launch *l, interp_session *s,
                               const page_launch_info *info);
/* After interp_run_launch (and the compare calls below): the sites, stats
 * and final values; clears the tracer and seals the launch into its JSON.
 * s may be freed afterwards. */
void page_launch_end(page_launch *pl, interp_session *s);

/* diff/check: the other side's name ("gpu", "triton", "reverse", ...) and,
 * per compared tensor argument `arg`, its values on both sides after the
 * launch (ref: the interpreter's or the checked side's, got: the other's;
 * same dtype and size as l's argument), the diff engine's verdicts (bad:
 * bit i set when element i is a mismatch, NULL when none is; a differing
 * element without its bit is within the rule) and, for the page's text,
 * the rule it applied (tritium/diff.h dbg_diff_tensor: bounds, or
 * |got - ref| <= atol + rtol * |ref| or at most ulp ULPs apart when
 * ulp >= 0, or exact). Call before page_launch_end, while the session
 * lives (the error map's hover names the last writer of each element from
 * its shadow). */
typedef struct page_rule {
    bool bounds, exact;
    double rtol, atol;
    int64_t ulp;
} page_rule;
void page_launch_other(page_launch *pl, const char *ref_label, const char *other_label, int64_t mismatches);
void page_launch_compare(page_launch *pl, int arg, const void *ref, const void *got, const uint8_t *bad,
                         page_rule rule, int64_t mismatches);

/* The same from a diff engine report (tritium/diff.h): the other side's
 * name and an error map per compared tensor; ref and got are the launches
 * whose tensors hold the two sides' results (NULL: names only). */
struct dbg_diff_report;
void page_launch_diff(page_launch *pl, const launch *ref, const launch *got, const struct dbg_diff_report *r);

/* Write the page (launches that faulted, raced or disagreed first). 0, or
 * -1 with a reason in err. *bytes (may be NULL): the file's size. */
int page_doc_write(page_doc *d, const char *path, size_t *bytes, char *err, size_t errlen);
/* Launches added so far. */
int page_doc_launches(const page_doc *d);

#endif
