/* repl_html.h — `--html FILE` of `tritium run`, `diff` and `check`: the
 * page of the launch (include/tritium/page.h, docs/html.md). The option is
 * the html row of settings.def. */
#ifndef TRITIUM_REPL_HTML_H
#define TRITIUM_REPL_HTML_H

#include "tritium/page.h"

typedef struct repl_html {
    const char *path;              /* NULL: no --html */
    page_doc *doc;
    page_launch *pl;               /* the launch being collected */
    double seal_seconds;           /* page_launch_end: the launches' data made (and compressed) */
    /* diff and check (repl_html_watch_diff): what begin needs */
    const char *cmd, *file, *label;
    const ir_func *f;
    interp_sched sched;
    tt_numerics numerics;
} repl_html;

/* No page yet; path: the command's --html setting (settings.def's html
 * row; NULL: none). */
void repl_html_init(repl_html *h, const char *path);
/* Collect launch l run by session s (not yet run) under a page titled
 * "tritium CMD FILE"; nothing without --html. */
void repl_html_begin(repl_html *h, const char *cmd, const char *file, const ir_func *f, const launch *l,
                     interp_session *s, interp_sched sched, tt_numerics numerics);
/* The same with a label for the launch ("trial 2", NULL: none). */
void repl_html_begin_labeled(repl_html *h, const char *cmd, const char *file, const char *label, const ir_func *f,
                             const launch *l, interp_session *s, interp_sched sched, tt_numerics numerics);
/* After the run (s still alive). */
void repl_html_end(repl_html *h, interp_session *s);
/* diff: collect the interpreter's side of dbg_diff_run (o's on_session
 * and on_done) with its error maps; label names the run in the page
 * ("trial 2", may be NULL). Nothing without --html. */
struct dbg_diff_options;
void repl_html_watch_diff(repl_html *h, const char *cmd, const char *file, const char *label, const ir_func *f,
                          struct dbg_diff_options *o);

/* Write the page, saying where on stderr; false after an error message. */
bool repl_html_write(repl_html *h);
void repl_html_free(repl_html *h);

#endif
