/* cmd_diff.c — the debugger's `diff`: the loaded launch, from fresh inputs,
 * in the interpreter and on the GPU (or, with --against SCHEDULE, in a second
 * interpreter run), with the same engine and report as `tritium diff`. */
#include "debug_repl.h"
#include "repl_gpu.h"
#include "tritium/diff.h"
#include "tritium/cuda.h"

#include <stdio.h>

int repl_dbg_cmd_diff(repl_dbg *r, const char *args)
{
    if (!r->have_target) {
        fprintf(stderr, "No kernel loaded; use `load FILE.py[:KERNEL]`.\n");
        return -1;
    }
    int wc;
    char **w, err[128];
    if (!repl_split_words(args, &wc, &w, err, sizeof err)) {
        fprintf(stderr, "%s\n", err);
        return -1;
    }
    /* the launch's settings, then the command's words (settings with TT_CMD_DBG_DIFF) */
    tt_settings cs;
    tt_settings_copy(&cs, &r->t.spec.set);
    int rest;
    char **rv;
    bool ok = repl_settings_take(wc, w, TT_CMD_DBG_DIFF, true, &cs, &rest, &rv);
    if (ok && rest) {
        strbuf b = { 0 };
        for (int i = 0; i < TT_SET_COUNT; i++) {
            const tt_setting_info *row = tt_setting_row((tt_setting_id)i);
            if (row->flag && (row->commands & TT_CMD_DBG_DIFF))
                sb_printf(&b, "%s%s%s%s", b.len ? " " : "", row->flag, row->metavar[0] ? " " : "", row->metavar);
        }
        fprintf(stderr, "diff: unexpected '%s' (options: %s)\n", rv[0], b.s);
        sb_free(&b);
        ok = false;
    }
    if (ok && cs.against.v == TT_AGAINST_GPU && cuda_init()) {
        fprintf(stderr, "%s\n", cuda_error());
        ok = false;
    }
    ir_func *fn = ok ? front_compile(r->t.mod, r->t.kernel, &r->t.launch) : NULL;
    int rc = -1;
    if (fn) {
        dbg_diff_options o;
        repl_diff_options(&cs, r->t.launch.seed, &o);
        dbg_diff_report rep;
        fflush(stdout);
        dbg_diff_run(fn, &r->t.launch, &o, &rep);
        if (rep.status == 2) {
            fprintf(stderr, "%s\n", rep.message);
        } else {
            dbg_diff_print(stdout, &rep);
            rc = 0;   /* a mismatch is a finding, not a failed command */
        }
        dbg_diff_report_free(&rep);
        ir_func_free(fn);
    }
    free(rv);
    tt_settings_free(&cs);
    repl_words_free(wc, w);
    return rc;
}
