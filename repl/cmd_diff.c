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
    repl_gpu_args g;
    int rest;
    char **rv;
    bool ok = repl_gpu_take(wc, w, RG_ARCH | RG_NUMERICS | RG_DIFF, &g, &rest, &rv);
    if (ok && rest) {
        fprintf(stderr, "diff: unexpected '%s' (options: --rtol R --atol A --ulp N --numerics ieee|fast "
                        "--show N --arch sm_NN --mma wgmma|sync --persistent --against SCHEDULE)\n", rv[0]);
        ok = false;
    }
    if (ok && (g.trials > 1 || g.nsizes)) {
        fprintf(stderr, "diff: --trials and --sizes belong to `tritium diff` on the command line\n");
        ok = false;
    }
    if (ok && !g.against_interp && cuda_init()) {
        fprintf(stderr, "%s\n", cuda_error());
        ok = false;
    }
    ir_func *fn = ok ? front_compile(r->t.mod, r->t.kernel, &r->t.launch) : NULL;
    int rc = -1;
    if (fn) {
        const repl_spec *s = &r->t.spec;
        dbg_diff_options o;
        repl_diff_options(&g, s, r->t.launch.seed, &o);
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
    repl_gpu_args_free(&g);
    repl_words_free(wc, w);
    return rc;
}
