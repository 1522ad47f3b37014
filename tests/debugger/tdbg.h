/* tdbg.h — helpers of the debugger suite (engine tests).
 *
 * A test opens a kernel file of tests/debugger/kernels (or examples/) with a
 * launch spec through the same path `tritium debug` uses (repl_target_open),
 * loads it into a dbg_session whose output goes to memory, runs commands and
 * checks the text and the structured stop information against values
 * computed here with plain C loops. */
#ifndef TDBG_H
#define TDBG_H

#include <check.h>
#include <stdio.h>
#include "repl.h"
#include "tritium/debugger.h"

typedef struct tk {
    repl_target t;
    dbg_session *d;
    char *obuf, *ebuf;
    size_t olen, elen, omark, emark;
    FILE *of, *ef;
    char *last_out, *last_err;
} tk;

/* Open FILE (relative to the source root) with a launch spec ("" for the
 * file's own "# tritium:" lines); fails the test when it does not load. */
void tk_open(tk *k, const char *file, const char *spec);
void tk_close(tk *k);
/* Run a command function; returns its status. Output since the previous
 * call is then in tk_out / tk_err. */
int tk_do(tk *k, int (*fn)(dbg_session *, const char *), const char *args);
const char *tk_out(tk *k);
const char *tk_err(tk *k);
/* The current stop (reason DBG_STOP_NONE when not stopped). */
dbg_stop_info tk_stop(tk *k);
/* Evaluate an expression; fails the test on error. */
void tk_eval(tk *k, const char *expr, dbg_value *v);
/* Element i of a value as double. */
double tk_at(const dbg_value *v, int64_t i);
/* Count occurrences of needle in hay. */
int count_of(const char *hay, const char *needle);

/* The reference result of tests/debugger/kernels/helpers.py for input x. */
float helpers_ref(float x);

TCase *break_tcase(void);
TCase *step_tcase(void);
TCase *values_tcase(void);
TCase *watch_tcase(void);
TCase *sched_tcase(void);
TCase *format_tcase(void);

#endif
