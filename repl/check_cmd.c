/* check_cmd.c — `tritium check FILE.py[:KERNEL] [launch spec] [--for-all
 * NAME=LO:HI]... [--no-run] [--json]`: proof mode (interp/prove.c). Proves
 * every memory access of the launch in bounds for all programs of the grid
 * (and every value of the --for-all arguments), prints a counterexample with
 * a `tritium debug` command that replays it, and runs the launch in the
 * interpreter for the accesses the proof leaves open. */
#include "repl.h"
#include "repl_html.h"
#include "tritium/diag.h"
#include "tritium/prove.h"

#include <inttypes.h>
#include <jansson.h>
#include <string.h>

static const char check_usage[] =
    "usage: tritium check FILE.py[:KERNEL] [launch spec] [options]\n"
    "\n"
    "Prove, without running the programs, that every masked-in lane of every\n"
    "load, store and atomic of the launch is in bounds for all programs of the\n"
    "grid; print a counterexample (program, lane, index, buffer) and the\n"
    "`tritium debug` command that replays it; run the launch in the interpreter\n"
    "for what the proof cannot decide.\n"
    "\n"
    "options:\n";

typedef struct forall_opt {
    char *name;
    int64_t lo, hi;
} forall_opt;

typedef struct checker {
    repl_target *t;
    forall_opt fa[PROVE_MAX_FORALL];
    int nfa;
    prove_input in;
} checker;

static bool parse_forall(const char *text, forall_opt *o)
{
    const char *eq = strchr(text, '=');
    const char *colon = eq ? strchr(eq, ':') : NULL;
    if (!eq || !colon || eq == text) {
        diag_error(REPL_NOPOS, "--for-all '%s': expected NAME=LO:HI", text);
        return false;
    }
    char *lo = xstrndup(eq + 1, (size_t)(colon - eq - 1));
    bool u1, u2;
    bool ok = repl_parse_int(lo, &o->lo, &u1) && repl_parse_int(colon + 1, &o->hi, &u2) && !u1 && !u2;
    free(lo);
    if (!ok) {
        diag_error(REPL_NOPOS, "--for-all '%s': LO and HI must be integers", text);
        return false;
    }
    if (o->lo > o->hi) {
        diag_error(REPL_NOPOS, "--for-all '%s': LO is greater than HI", text);
        return false;
    }
    o->name = xstrndup(text, (size_t)(eq - text));
    return true;
}

/* Resolve the target's spec with the for-all arguments at vals, tensors
 * without data. */
static bool resolve_at(checker *c, const int64_t *vals, launch *out)
{
    repl_target *t = c->t;
    for (int j = 0; j < c->nfa; j++) {
        /* the value is the command line's `--arg NAME=LO`: rewrite its text */
        for (int i = 0; i < t->spec.nvals; i++) {
            repl_value *v = &t->spec.vals[i];
            if (strcmp(v->name, c->fa[j].name) || v->kind != VAL_EXPR) continue;
            free(v->text);
            v->text = xasprintf("%" PRId64, vals[j]);
        }
    }
    repl_resolve_opts ro = { .kernel = t->kernel, .need_grid = true, .no_data = true };
    return repl_resolve(&t->spec, t->params, t->nparams, &ro, out);
}

static bool grid_at(void *user, const int64_t *vals, int64_t grid[3])
{
    checker *c = user;
    launch l;
    if (!resolve_at(c, vals, &l)) return false;
    memcpy(grid, l.grid, sizeof l.grid);
    launch_free(&l);
    return true;
}

static int find_arg(const launch *l, const char *name)
{
    for (int i = 0; i < l->nargs; i++)
        if (!strcmp(l->args[i].name, name)) return i;
    return -1;
}

/* Extents and grid of the for-all arguments: affine extents are fitted at
 * LO and LO+1 and checked at the middle and HI; the grid is taken at its
 * largest sample (grids grow with sizes) and checked for counterexamples. */
static bool setup_forall(checker *c)
{
    const launch *l = &c->t->launch;
    prove_input *in = &c->in;
    int64_t base[PROVE_MAX_FORALL];
    for (int j = 0; j < c->nfa; j++) base[j] = c->fa[j].lo;
    for (int j = 0; j < c->nfa; j++) {
        forall_opt *o = &c->fa[j];
        int a = find_arg(l, o->name);
        if (a < 0 || l->args[a].kind != ARG_INT) {
            diag_error(REPL_NOPOS, "--for-all %s: not an integer argument of %s", o->name, c->t->kernel);
            return false;
        }
        bool wide_lo = o->lo < INT32_MIN || o->lo > INT32_MAX, wide_hi = o->hi < INT32_MIN || o->hi > INT32_MAX;
        if (wide_lo != wide_hi) {
            diag_error(REPL_NOPOS, "--for-all %s: Triton passes values up to 2^31-1 as int32 and larger ones as "
                       "int64, which compiles another kernel: split the range at 2147483647", o->name);
            return false;
        }
        in->fa[j].arg = a;
        in->fa[j].lo = o->lo;
        in->fa[j].hi = o->hi;
        in->fa[j].ext = xcalloc((size_t)l->nargs + 1, sizeof(int64_t));
        int64_t pts[3] = { o->lo + 1, o->lo + (o->hi - o->lo) / 2, o->hi };
        for (int p = 0; p < 3; p++) {
            if (pts[p] > o->hi || (p && pts[p] == pts[p - 1])) continue;
            int64_t vals[PROVE_MAX_FORALL];
            memcpy(vals, base, sizeof vals);
            vals[j] = pts[p];
            launch lp;
            if (!resolve_at(c, vals, &lp)) return false;
            for (int a2 = 0; a2 < l->nargs; a2++) {
                if (l->args[a2].kind != ARG_TENSOR) continue;
                int64_t d = tt_tensor_numel(lp.args[a2].tensor) - tt_tensor_numel(l->args[a2].tensor);
                if (p == 0) in->fa[j].ext[a2] = d;
                else if (d != in->fa[j].ext[a2] * (pts[p] - o->lo)) {
                    diag_error(REPL_NOPOS, "--for-all %s: the number of elements of %s is not affine in %s "
                               "(proof mode needs extents of the form a + b*%s)", o->name, l->args[a2].name,
                               o->name, o->name);
                    launch_free(&lp);
                    return false;
                }
            }
            for (int d = 0; d < 3; d++) {
                int64_t g = lp.grid[d] > l->grid[d] ? lp.grid[d] : l->grid[d];
                if (g > in->grid_max[d]) in->grid_max[d] = g;
                if (lp.grid[d] != l->grid[d]) in->grid_at = grid_at;
            }
            launch_free(&lp);
        }
    }
    in->nforall = c->nfa;
    in->user = c;
    /* the spec back at LO for the replay and the interpreter run */
    launch dummy;
    if (!resolve_at(c, base, &dummy)) return false;
    launch_free(&dummy);
    return true;
}

static void quote_word(strbuf *b, const char *w)
{
    bool plain = *w != 0;
    for (const char *p = w; *p; p++)
        if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-+=.,:/@%", *p)) plain = false;
    if (plain) { sb_puts(b, w); return; }
    sb_putc(b, '\'');
    for (const char *p = w; *p; p++) {
        if (*p == '\'') sb_puts(b, "'\\''");
        else sb_putc(b, *p);
    }
    sb_putc(b, '\'');
}

/* The `tritium debug` command that stops in the counterexample's program and
 * runs it to the fault. */
static char *replay_cmd(const checker *c, int argc, char *const *argv, const prove_access *a)
{
    strbuf b = { 0 };
    sb_printf(&b, "tritium debug -ex 'break pid (%" PRId64 ", %" PRId64 ", %" PRId64 ")' -ex run -ex continue",
              a->pid[0], a->pid[1], a->pid[2]);
    for (int i = 0; i < argc; i++) {
        sb_putc(&b, ' ');
        quote_word(&b, argv[i]);
    }
    for (int j = 0; j < c->nfa; j++) {
        char *w = xasprintf("%s=%" PRId64, c->fa[j].name, a->forall_val[j]);
        sb_puts(&b, " --arg ");
        quote_word(&b, w);
        free(w);
    }
    return sb_take(&b);
}

static const char *status_name(prove_status s)
{
    return s == PROVE_PROVED ? "proved" : s == PROVE_REFUTED ? "refuted" : "open";
}

/* Run the launch in the interpreter (tensors generated), into the page of
 * --html when there is one (quiet: its reports are not printed). Returns the
 * number of fault sites, or -1 when it could not run. */
static int64_t run_fallback(int argc, char *const *argv, double *secs, repl_html *h, bool quiet)
{
    repl_target t;
    repl_resolve_opts ro = { .need_grid = true };
    int64_t faults = -1;
    if (repl_target_open(&t, argc, argv, REPL_OPT_LAUNCH | REPL_OPT_CMD(TT_CMD_CHECK), &ro) == REPL_EXIT_OK) {
        ir_func *fn = repl_target_compile(&t);
        interp_options io;
        interp_options_default(&io);
        char *held = NULL;
        size_t hlen = 0;
        if (quiet) io.report = open_memstream(&held, &hlen);
        interp_session *s = fn ? interp_session_new(fn, &t.launch, &io) : NULL;
        if (s) {
            repl_html_begin(h, "check", t.file, fn, &t.launch, s, io.sched, io.numerics);
            double t0 = now_seconds();
            interp_run_launch(s);
            *secs = now_seconds() - t0;
            repl_html_end(h, s);
            interp_stats st;
            interp_get_stats(s, &st);
            faults = st.faults;
            interp_session_free(s);
        }
        if (quiet) {
            fclose(io.report);
            free(held);
        }
        if (fn) ir_func_free(fn);
    }
    repl_target_close(&t);
    return faults;
}

static const char *loc_file(const ir_func *f, int32_t loc, int *line, int *col)
{
    *line = *col = 0;
    if (loc < 0 || loc >= f->locs.n) return "?";
    *line = f->locs.v[loc].line;
    *col = f->locs.v[loc].col;
    return diag_file_name(f->locs.v[loc].file);
}

int repl_cmd_check(int argc, char *const *argv)
{
    if (repl_wants_help(argc, argv)) {
        fputs(check_usage, stdout);
        tt_settings_print_usage(stdout, TT_CMD_CHECK, ~(1u << TT_SCOPE_LAUNCH));   /* settings.def's */
        fputc('\n', stdout);
        repl_print_spec_help(stdout);
        return REPL_EXIT_OK;
    }
    checker c = { 0 };
    char *owned[PROVE_MAX_FORALL] = { 0 };
    /* check's settings outside the launch spec (--for-all, --no-run) */
    tt_settings cs;
    tt_settings_copy(&cs, tt_settings_env());
    int user_ac = 0, ac = 0, rc = REPL_EXIT_INPUT;
    char **uv = NULL;
    char **av = xcalloc((size_t)argc + 2 * PROVE_MAX_FORALL + 1, sizeof *av);
    if (!repl_settings_take(argc, argv, TT_CMD_CHECK, false, &cs, &user_ac, &uv)) goto out0;
    if (cs.for_all.n > PROVE_MAX_FORALL) {
        diag_error(REPL_NOPOS, "at most %d --for-all arguments", PROVE_MAX_FORALL);
        goto out0;
    }
    for (; c.nfa < cs.for_all.n; c.nfa++)
        if (!parse_forall(cs.for_all.v[c.nfa], &c.fa[c.nfa])) goto out0;
    for (ac = 0; ac < user_ac; ac++) av[ac] = uv[ac];                 /* the words for the replay */
    for (int j = 0; j < c.nfa; j++) {
        av[ac++] = "--arg";
        av[ac++] = owned[j] = xasprintf("%s=%" PRId64, c.fa[j].name, c.fa[j].lo);
    }
    bool no_run = cs.no_run;
    repl_target t;
    c.t = &t;
    repl_resolve_opts ro = { .need_grid = true, .no_data = true, .settings = &cs };
    rc = repl_target_open(&t, ac, av, REPL_OPT_LAUNCH | REPL_OPT_CMD(TT_CMD_CHECK), &ro);
    if (rc) { repl_target_close(&t); goto out0; }
    rc = REPL_EXIT_INPUT;
    ir_func *fn = repl_target_compile(&t);
    prove_result res = { 0 };
    if (!fn) goto out;
    c.in.f = fn;
    c.in.l = &t.launch;
    if (c.nfa && !setup_forall(&c)) goto out;
    if (!prove_launch(&c.in, &res)) goto out;
    rc = res.refuted ? REPL_EXIT_KERNEL : REPL_EXIT_OK;

    /* reports (stderr, as the interpreter's) */
    char **replay = xcalloc((size_t)res.nacc + 1, sizeof *replay);
    for (int i = 0; i < res.nacc; i++) {
        if (res.acc[i].status == PROVE_REFUTED) replay[i] = replay_cmd(&c, user_ac, av, &res.acc[i]);
        prove_print_access(stderr, &c.in, &res.acc[i], replay[i]);
    }
    int64_t fb_faults = -2;
    double fb_secs = 0;
    repl_html html;                        /* --html FILE: the page of the launch's interpreter run */
    repl_html_init(&html, cs.html);
    if (res.open && !no_run) {
        fflush(stdout);
        fb_faults = run_fallback(ac, av, &fb_secs, &html, false);
        if (fb_faults != 0) rc = REPL_EXIT_KERNEL;
        if (fb_faults < 0) rc = REPL_EXIT_INPUT;
    } else if (html.path && !no_run) {     /* proved or refuted: the launch runs for the page alone */
        double secs;
        run_fallback(ac, av, &secs, &html, true);
    }
    if (!repl_html_write(&html) && rc == REPL_EXIT_OK) rc = REPL_EXIT_INPUT;
    repl_html_free(&html);
    const launch *l = &t.launch;
    int64_t programs = l->grid[0] * l->grid[1] * l->grid[2];
    if (t.spec.set.json) {
        json_t *o = json_object();
        json_object_set_new(o, "kernel", json_string(t.kernel));
        json_object_set_new(o, "file", json_string(t.file));
        json_object_set_new(o, "grid", json_pack("[III]", (json_int_t)l->grid[0], (json_int_t)l->grid[1],
                                                  (json_int_t)l->grid[2]));
        json_t *fa = json_array();
        for (int j = 0; j < c.nfa; j++)
            json_array_append_new(fa, json_pack("{s:s,s:I,s:I}", "name", c.fa[j].name, "lo", (json_int_t)c.fa[j].lo,
                                                "hi", (json_int_t)c.fa[j].hi));
        json_object_set_new(o, "for_all", fa);
        json_t *arr = json_array();
        for (int i = 0; i < res.nacc; i++) {
            const prove_access *a = &res.acc[i];
            int line, col;
            const char *file = loc_file(fn, a->loc, &line, &col);
            json_t *e = json_pack("{s:s,s:s,s:i,s:i,s:s,s:s}", "op", a->opname, "file", file, "line", line, "col", col,
                                  "status", status_name(a->status), "why", a->why);
            json_object_set_new(e, "buffer", a->arg >= 0 ? json_string(l->args[a->arg].name) : json_null());
            if (a->status == PROVE_REFUTED) {
                json_t *ce = json_pack("{s:[III],s:I,s:I,s:I,s:I,s:s}", "program", (json_int_t)a->pid[0],
                                       (json_int_t)a->pid[1], (json_int_t)a->pid[2], "lane", (json_int_t)a->lane,
                                       "element", (json_int_t)a->elem, "extent", (json_int_t)a->extent, "lanes",
                                       (json_int_t)a->lanes, "replay", replay[i]);
                json_t *fv = json_object();
                for (int j = 0; j < c.nfa; j++)
                    json_object_set_new(fv, c.fa[j].name, json_integer(a->forall_val[j]));
                json_object_set_new(ce, "for_all", fv);
                json_object_set_new(e, "counterexample", ce);
            }
            json_array_append_new(arr, e);
        }
        json_object_set_new(o, "accesses", arr);
        json_object_set_new(o, "proved", json_integer(res.proved));
        json_object_set_new(o, "refuted", json_integer(res.refuted));
        json_object_set_new(o, "open", json_integer(res.open));
        json_object_set_new(o, "seconds", json_real(res.seconds));
        if (fb_faults != -2)
            json_object_set_new(o, "interpreter", json_pack("{s:I,s:f}", "faults", (json_int_t)fb_faults, "seconds", fb_secs));
        json_object_set_new(o, "status", json_integer(rc));
        char *txt = json_dumps(o, JSON_INDENT(2));
        puts(txt);
        free(txt);
        json_decref(o);
    } else {
        printf("kernel   %s (%s)\n", t.kernel, t.file);
        printf("grid     (%" PRId64 ", %" PRId64 ", %" PRId64 "): %" PRId64 " program%s", l->grid[0], l->grid[1],
               l->grid[2], programs, programs == 1 ? "" : "s");
        for (int j = 0; j < c.nfa; j++)
            printf("%s%s in [%" PRId64 ", %" PRId64 "]", j ? ", " : "; for all ", c.fa[j].name, c.fa[j].lo, c.fa[j].hi);
        if (c.in.grid_at)
            printf(" (grid up to (%" PRId64 ", %" PRId64 ", %" PRId64 "))", c.in.grid_max[0], c.in.grid_max[1],
                   c.in.grid_max[2]);
        putchar('\n');
        for (int i = 0; i < res.nacc; i++) {
            const prove_access *a = &res.acc[i];
            int line, col;
            const char *file = loc_file(fn, a->loc, &line, &col);
            printf("%-8s %-11s %-12s %s:%d:%d", status_name(a->status), a->opname,
                   a->arg >= 0 ? l->args[a->arg].name : "?", file, line, col);
            if (a->status == PROVE_PROVED && a->why[0]) printf("  (%s)", a->why);
            if (a->status == PROVE_REFUTED)
                printf("  program (%" PRId64 ", %" PRId64 ", %" PRId64 ") lane %" PRId64 " element %" PRId64,
                       a->pid[0], a->pid[1], a->pid[2], a->lane, a->elem);
            putchar('\n');
        }
        printf("summary: %d access%s: %d proved, %d refuted, %d open; proof took %.3f ms\n", res.nacc,
               res.nacc == 1 ? "" : "es", res.proved, res.refuted, res.open, res.seconds * 1e3);
        if (fb_faults >= 0)
            printf("interpreter: ran the launch for the open accesses in %.3f ms: %" PRId64 " fault%s%s\n",
                   fb_secs * 1e3, fb_faults, fb_faults == 1 ? "" : "s",
                   c.nfa ? " (this launch only, not every value of the --for-all range)" : " (this launch)");
    }
    for (int i = 0; i < res.nacc; i++) free(replay[i]);
    free(replay);
out:
    prove_result_free(&res);
    if (fn) ir_func_free(fn);
    repl_target_close(&t);
out0:
    for (int j = 0; j < c.nfa; j++) {
        free(c.fa[j].name);
        free(c.in.fa[j].ext);
    }
    for (int j = 0; j < PROVE_MAX_FORALL; j++) free(owned[j]);
    free(av);
    free(uv);
    tt_settings_free(&cs);
    return rc;
}
