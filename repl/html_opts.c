/* html_opts.c — `--html FILE` of `tritium run`, `diff` and `check`
 * (repl_html.h): the page of the command's launch. */
#include "repl.h"
#include "repl_html.h"
#include "tritium/diag.h"
#include "tritium/diff.h"                  /* the report's fields only: no GPU needed */

#include <string.h>

void repl_html_init(repl_html *h, const char *path)
{
    memset(h, 0, sizeof *h);
    h->path = path && *path ? path : NULL;
}

void repl_html_begin_labeled(repl_html *h, const char *cmd, const char *file, const char *label, const ir_func *f,
                             const launch *l, interp_session *s, interp_sched sched, tt_numerics numerics)
{
    if (!h->path || !s) return;
    if (!h->doc) {
        char *title = xasprintf("tritium %s %s", cmd, file ? file : f->name);
        h->doc = page_doc_new(title);
        free(title);
    }
    page_launch_info info = { .label = label, .file = file, .schedule = interp_sched_name(sched),
                              .numerics = tt_numerics_name(numerics), .seed = l->seed };
    h->pl = page_launch_begin(h->doc, f, l, s, &info);
}

void repl_html_begin(repl_html *h, const char *cmd, const char *file, const ir_func *f, const launch *l,
                     interp_session *s, interp_sched sched, tt_numerics numerics)
{
    repl_html_begin_labeled(h, cmd, file, NULL, f, l, s, sched, numerics);
}

static void diff_session(void *user, interp_session *s, const launch *l)
{
    repl_html *h = user;
    repl_html_begin_labeled(h, h->cmd, h->file, h->label, h->f, l, s, h->sched, h->numerics);
}

static void diff_done(void *user, const launch *in, const launch *ref, interp_session *s, const launch *got,
                      const struct dbg_diff_report *r)
{
    (void)in;
    repl_html *h = user;
    if (!h->pl) return;
    page_launch_diff(h->pl, ref, got, r);
    repl_html_end(h, s);
}

void repl_html_watch_diff(repl_html *h, const char *cmd, const char *file, const char *label, const ir_func *f,
                          struct dbg_diff_options *o)
{
    if (!h->path) return;
    h->cmd = cmd;
    h->file = file;
    h->label = label;
    h->f = f;
    h->sched = o->sched;
    h->numerics = o->numerics;
    o->on_session = diff_session;
    o->on_done = diff_done;
    o->watch_user = h;
}

void repl_html_end(repl_html *h, interp_session *s)
{
    if (!h->pl) return;
    double t0 = now_seconds();
    page_launch_end(h->pl, s);
    h->seal_seconds += now_seconds() - t0;
    h->pl = NULL;
}

bool repl_html_write(repl_html *h)
{
    if (!h->path || !h->doc) return true;
    char err[512] = "";
    size_t bytes = 0;
    double t0 = now_seconds();
    if (page_doc_write(h->doc, h->path, &bytes, err, sizeof err)) {
        diag_error(REPL_NOPOS, "--html: %s", err);
        return false;
    }
    fprintf(stderr, "tritium: wrote %s (%.1f KB; its data made in %.0f ms, the file written in %.0f ms)\n", h->path,
            (double)bytes / 1024, h->seal_seconds * 1e3, (now_seconds() - t0) * 1e3);
    return true;
}

void repl_html_free(repl_html *h)
{
    page_doc_free(h->doc);
    memset(h, 0, sizeof *h);
}
