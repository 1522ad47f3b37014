/* cmd_launch.c — the launch inside `tritium debug`: opening the kernel file
 * (repl_target_open: the same launch-spec parser and resolver as `tritium
 * run`), `set arg NAME=SPEC`, `set grid G`, `set const NAME=V`,
 * `set launch WORDS...`, `load FILE.py[:KERNEL] [launch spec]`, `info launch`.
 *
 * The REPL keeps the launch-spec words given so far; `set` replaces the
 * words of the same option and name and the target is opened again (the
 * kernel file is re-read, so edits to it take effect). When the new launch
 * does not resolve, the old one stays. */
#include "debug_repl.h"
#include "tritium/diag.h"

#include <inttypes.h>
#include <string.h>

/* Whether `opt` (exactly, no "=VALUE") is a launch-spec option with a value. */
static bool takes_value(const char *opt)
{
    const repl_option *o = strchr(opt, '=') ? NULL : repl_spec_option(opt);
    return o && o->takes_value;
}

/* The key a pair replaces (repl_option.key): the option, "=NAME" for values
 * named NAME, or "--save=NAME". */
static char *pair_key(const char *opt, const char *value)
{
    const repl_option *o = repl_spec_option(opt);
    const char *eq = value ? strchr(value, '=') : NULL;
    if (!o || !eq || o->key == REPL_KEY_OPTION) return xstrdup(opt);
    if (o->key == REPL_KEY_PARAM) return xasprintf("=%.*s", (int)(eq - value), value);
    return xasprintf("%s=%.*s", opt, (int)(eq - value), value);
}

/* Replace-or-append one option in a word list. */
static void put_pair(repl_dbg *r, const char *opt, const char *value)
{
    char *key = pair_key(opt, value);
    for (int i = 0; i < r->words.n; ) {
        const char *w = r->words.v[i];
        bool hasv = w[0] == '-' && takes_value(w) && i + 1 < r->words.n;
        if (w[0] == '-') {
            char *k = pair_key(w, hasv ? r->words.v[i + 1] : NULL);
            bool same = !strcmp(k, key);
            free(k);
            if (same) {
                int n = hasv ? 2 : 1;
                for (int j = 0; j < n; j++) free(r->words.v[i + j]);
                memmove(&r->words.v[i], &r->words.v[i + n], sizeof(char *) * (size_t)(r->words.n - i - n));
                r->words.n -= n;
                continue;
            }
        }
        i += hasv ? 2 : 1;
    }
    free(key);
    vec_push(&r->words, xstrdup(opt));
    if (value) vec_push(&r->words, xstrdup(value));
}

/* Add argv-style words, normalizing --opt=value. */
void repl_dbg_add_words(repl_dbg *r, int n, char *const *w)
{
    for (int i = 0; i < n; i++) {
        const char *x = w[i];
        if (x[0] == '-' && x[1] == '-') {
            const char *eq = strchr(x, '=');
            if (eq) {
                char *opt = xstrndup(x, (size_t)(eq - x));
                if (takes_value(opt)) {
                    put_pair(r, opt, eq + 1);
                    free(opt);
                    continue;
                }
                free(opt);
            } else if (takes_value(x) && i + 1 < n) {
                put_pair(r, x, w[i + 1]);
                i++;
                continue;
            }
        }
        vec_push(&r->words, xstrdup(x));
    }
}

static void free_words(repl_dbg *r)
{
    for (int i = 0; i < r->words.n; i++) free(r->words.v[i]);
    r->words.n = 0;
}

bool repl_dbg_open(repl_dbg *r, const char *target, int nwords, char *const *words)
{
    int argc = nwords + 1;
    char **argv = xcalloc((size_t)argc + 1, sizeof *argv);
    argv[0] = (char *)target;
    for (int i = 0; i < nwords; i++) argv[i + 1] = words[i];
    repl_target nt;
    repl_resolve_opts ro = { .need_grid = false };
    fflush(stdout);
    int rc = repl_target_open(&nt, argc, argv, REPL_OPT_LAUNCH | REPL_OPT_CMD(TT_CMD_DEBUG), &ro);
    free(argv);
    if (rc != REPL_EXIT_OK) {
        repl_target_close(&nt);
        return false;
    }
    interp_options io;
    interp_options_default(&io);
    io.numerics = (tt_numerics)nt.spec.set.numerics;
    dbg_set_interp_options(r->d, &io);
    bool was_running = dbg_get_state(r->d) == DBG_STOPPED;
    if (!dbg_load(r->d, nt.mod, nt.kernel, &nt.launch)) {
        repl_target_close(&nt);
        return false;
    }
    if (r->have_target) repl_target_close(&r->t);
    r->t = nt;
    r->have_target = true;
    if (r->target != target) {
        free(r->target);
        r->target = xstrdup(target);
    }
    if (was_running) printf("[Launch killed: the launch changed]\n");
    if (tt_settings_given(&nt.spec.set, TT_SET_SCHEDULE)) {
        const repl_spec *sp = &r->t.spec;
        char cmd[64];
        if (sp->set.schedule.v == SCHED_PARALLEL) {
            fflush(stdout);
            fprintf(stderr, "warning: --schedule parallel: the debugger runs one program at a time; using in-order\n");
            dbg_cmd_schedule(r->d, "in-order");
        } else {
            if (sp->set.schedule.v == SCHED_RANDOM)
                snprintf(cmd, sizeof cmd, "random %" PRIu64, repl_sched_seed(&sp->set, r->t.launch.seed));
            else snprintf(cmd, sizeof cmd, "%s", sp->set.schedule.v == SCHED_REVERSE ? "reverse" : "in-order");
            dbg_cmd_schedule(r->d, cmd);
        }
    }
    return true;
}

void repl_dbg_close(repl_dbg *r)
{
    if (r->have_target) repl_target_close(&r->t);
    r->have_target = false;
    free_words(r);
    vec_free(&r->words);
    free(r->target);
    r->target = NULL;
}

/* Re-open the target with the current words; on failure restore `saved`. */
static int reopen(repl_dbg *r, char **saved, int nsaved)
{
    if (r->embedded) {
        for (int i = 0; i < nsaved; i++) free(saved[i]);
        free(saved);
        fflush(stdout);
        fprintf(stderr, "The launch comes from the Python program; it cannot be changed here.\n");
        return -1;
    }
    if (!r->target) {
        for (int i = 0; i < nsaved; i++) free(saved[i]);
        free(saved);
        fflush(stdout);
        fprintf(stderr, "No kernel file: use `load FILE.py[:KERNEL]` first.\n");
        return -1;
    }
    if (repl_dbg_open(r, r->target, r->words.n, r->words.v)) {
        for (int i = 0; i < nsaved; i++) free(saved[i]);
        free(saved);
        return 0;
    }
    free_words(r);
    for (int i = 0; i < nsaved; i++) vec_push(&r->words, saved[i]);
    free(saved);
    fflush(stdout);
    fprintf(stderr, "The launch is unchanged.\n");
    return -1;
}

static char **copy_words(repl_dbg *r)
{
    char **c = xcalloc((size_t)r->words.n + 1, sizeof *c);
    for (int i = 0; i < r->words.n; i++) c[i] = xstrdup(r->words.v[i]);
    return c;
}

/* Split a command's arguments like a shell; report a quoting error. */
static bool split_args(const char *args, int *wc, char ***w)
{
    char err[128];
    if (repl_split_words(args, wc, w, err, sizeof err)) return true;
    fflush(stdout);
    fprintf(stderr, "%s\n", err);
    return false;
}

int repl_dbg_set_launch_word(repl_dbg *r, const char *opt, const char *value)
{
    const char *v = value;
    while (*v == ' ' || *v == '\t') v++;
    if (!*v) {
        fflush(stdout);
        fprintf(stderr, "Argument required (%s value).\n", opt);
        return -1;
    }
    /* one shell-like word: quotes allowed */
    int wc;
    char **w;
    if (!split_args(v, &wc, &w)) return -1;
    if (wc != 1 && strcmp(opt, "--grid")) {
        repl_words_free(wc, w);
        fflush(stdout);
        fprintf(stderr, "expected one value for %s (quote it if it has spaces)\n", opt);
        return -1;
    }
    char *joined;
    if (wc == 1) joined = xstrdup(w[0]);
    else {
        strbuf b = { 0 };
        for (int i = 0; i < wc; i++) sb_printf(&b, "%s%s", i ? " " : "", w[i]);
        joined = sb_take(&b);
    }
    repl_words_free(wc, w);
    int nsaved = r->words.n;
    char **saved = copy_words(r);
    put_pair(r, opt, joined);
    free(joined);
    return reopen(r, saved, nsaved);
}

int repl_dbg_cmd_set_launch(repl_dbg *r, const char *args)
{
    int wc;
    char **w;
    if (!split_args(args, &wc, &w)) return -1;
    int nsaved = r->words.n;
    char **saved = copy_words(r);
    repl_dbg_add_words(r, wc, w);
    repl_words_free(wc, w);
    return reopen(r, saved, nsaved);
}

int repl_dbg_cmd_load(repl_dbg *r, const char *args)
{
    int wc;
    char **w;
    if (r->embedded) {
        fflush(stdout);
        fprintf(stderr, "The launch comes from the Python program; `load` is not available here.\n");
        return -1;
    }
    if (!split_args(args, &wc, &w)) return -1;
    if (wc == 0) {
        repl_words_free(wc, w);
        fflush(stdout);
        fprintf(stderr, "Argument required (FILE.py[:KERNEL] [launch spec]).\n");
        return -1;
    }
    repl_dbg tmp = { 0 };
    repl_dbg_add_words(&tmp, wc - 1, w + 1);
    if (!repl_dbg_open(r, w[0], tmp.words.n, tmp.words.v)) {
        for (int i = 0; i < tmp.words.n; i++) free(tmp.words.v[i]);
        vec_free(&tmp.words);
        repl_words_free(wc, w);
        return -1;
    }
    free_words(r);
    vec_free(&r->words);
    r->words.v = tmp.words.v;
    r->words.n = tmp.words.n;
    r->words.cap = tmp.words.cap;
    printf("Loaded %s from %s: grid (%" PRId64 ",%" PRId64 ",%" PRId64 ").\n", r->t.kernel, r->t.file,
           r->t.launch.grid[0], r->t.launch.grid[1], r->t.launch.grid[2]);
    repl_words_free(wc, w);
    return 0;
}

int repl_dbg_cmd_info_launch(repl_dbg *r, const char *args)
{
    (void)args;
    if (!r->have_target) {
        fflush(stdout);
        fprintf(stderr, "No kernel loaded.\n");
        return -1;
    }
    const launch *l = &r->t.launch;
    printf("Kernel     %s (%s)\n", r->t.kernel, r->t.file);
    printf("Grid       (%" PRId64 ",%" PRId64 ",%" PRId64 "), %" PRId64 " programs; num_warps %d; seed %" PRIu64 "\n",
           l->grid[0], l->grid[1], l->grid[2], l->grid[0] * l->grid[1] * l->grid[2], l->num_warps, l->seed);
    if (r->words.n) {
        printf("Options   ");
        for (int i = 0; i < r->words.n; i++) printf(" %s", r->words.v[i]);
        printf("\n");
    }
    int w = 4;
    for (int i = 0; i < l->nargs; i++) if ((int)strlen(l->args[i].name) > w) w = (int)strlen(l->args[i].name);
    for (int i = 0; i < l->nconsts; i++) if ((int)strlen(l->consts[i].name) > w) w = (int)strlen(l->consts[i].name);
    printf("Arguments\n");
    for (int i = 0; i < l->nargs; i++) {
        const launch_arg *a = &l->args[i];
        char buf[160];
        if (a->kind == ARG_TENSOR) printf("  %-*s  %s\n", w, a->name, tt_tensor_describe(a->tensor, buf, sizeof buf));
        else if (a->kind == ARG_INT) printf("  %-*s  %s %" PRId64 "\n", w, a->name, tt_dtype_name(a->dtype), a->i);
        else printf("  %-*s  %s %.9g\n", w, a->name, tt_dtype_name(a->dtype), a->f);
    }
    for (int i = 0; i < l->nconsts; i++) {
        const launch_const *c = &l->consts[i];
        switch (c->kind) {
        case CONST_INT: printf("  %-*s  constexpr %" PRId64 "\n", w, c->name, c->i); break;
        case CONST_BOOL: printf("  %-*s  constexpr %s\n", w, c->name, c->i ? "True" : "False"); break;
        case CONST_FLOAT: printf("  %-*s  constexpr %.9g\n", w, c->name, c->f); break;
        case CONST_STR: printf("  %-*s  constexpr '%s'\n", w, c->name, c->s ? c->s : ""); break;
        case CONST_DTYPE: printf("  %-*s  constexpr tl.%s\n", w, c->name, tt_dtype_triton_name((tt_dtype)c->i)); break;
        case CONST_NONE: printf("  %-*s  constexpr None\n", w, c->name); break;
        case CONST_TUPLE:
            if (c->s) printf("  %-*s  named tuple %s\n", w, c->name, c->s);
            else printf("  %-*s  tuple of %" PRId64 "\n", w, c->name, c->i);
            break;
        case CONST_FUNC: printf("  %-*s  constexpr jit function %s\n", w, c->name, c->s ? c->s : "?"); break;
        }
    }
    return 0;
}
