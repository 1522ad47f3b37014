/* debug_main.c — `tritium debug [options] [FILE.py[:KERNEL] [launch spec]]`.
 *
 * gdb's options: -batch (run the -ex/-x commands, then exit; exit status 1
 * when any command failed), -ex CMD (repeatable, in order with -x), -x FILE
 * (commands from a file; its first failing command ends that file),
 * -q/-quiet/-silent, -nx (accepted). Everything else is the kernel file and
 * its launch spec, parsed as `tritium run` parses them. */
#include "debug_repl.h"
#include "tritium/diag.h"

#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static const char usage[] =
    "usage: tritium debug [-batch] [-ex CMD]... [-x FILE]... [-q] [FILE.py[:KERNEL] [launch spec]]\n"
    "\n"
    "Debug a kernel in the checked interpreter with gdb's commands: break (also\n"
    "`break pid (x,y,z)`), run, next, step, finish, print EXPR (Triton expressions),\n"
    "watch BUFFER[INDEX], info programs|locals|buffers, backtrace, ir, help.\n"
    "\n"
    "options:\n"
    "  -batch        run the -ex and -x commands, then exit (status 1 if one failed)\n"
    "  -ex CMD       run CMD (repeatable; in order with -x)\n"
    "  -x FILE       run the commands in FILE\n"
    "  -q            do not print the banner\n"
    "\n";

enum { SCRIPT_EX, SCRIPT_FILE };
typedef struct script { int kind; const char *text; } script;

static bool opt_is(const char *a, const char *name)
{
    /* -name or --name */
    if (a[0] != '-') return false;
    a++;
    if (*a == '-') a++;
    return !strcmp(a, name);
}

static bool opt_with_eq(const char *a, const char *name, const char **val)
{
    if (a[0] != '-') return false;
    a++;
    if (*a == '-') a++;
    size_t n = strlen(name);
    if (strncmp(a, name, n) || a[n] != '=') return false;
    *val = a + n + 1;
    return true;
}

/* gdb's options of argv into r and scripts; the other words into rest.
 * Returns -1 after an error, 1 after --help (printed), else 0. */
typedef VEC(script) script_vec;
typedef VEC(char *) word_vec;
static int parse_args(repl_dbg *r, int argc, char *const *argv, bool *quiet, script_vec *scripts, word_vec *rest)
{
    const char *v;
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        if (opt_is(a, "help") || !strcmp(a, "-h")) {
            fputs(usage, stdout);
            fputs("launch options:\n", stdout);
            tt_settings_print_usage(stdout, TT_CMD_DEBUG, ~(1u << TT_SCOPE_LAUNCH));   /* settings.def's */
            fputc('\n', stdout);
            repl_print_spec_help(stdout);
            return 1;
        }
        if (opt_is(a, "batch")) { r->batch = true; *quiet = true; continue; }
        if (opt_is(a, "q") || opt_is(a, "quiet") || opt_is(a, "silent")) { *quiet = true; continue; }
        if (opt_is(a, "nx") || opt_is(a, "n") || opt_is(a, "nh")) continue;
        if (opt_is(a, "ex") || opt_is(a, "eval-command") || opt_is(a, "x") || opt_is(a, "command")) {
            if (i + 1 >= argc) {
                diag_error(REPL_NOPOS, "option '%s' requires an argument", a);
                return -1;
            }
            script s = { opt_is(a, "ex") || opt_is(a, "eval-command") ? SCRIPT_EX : SCRIPT_FILE, argv[++i] };
            vec_push(scripts, s);
            continue;
        }
        if (opt_with_eq(a, "eval-command", &v) || opt_with_eq(a, "ex", &v)) {
            script s = { SCRIPT_EX, v };
            vec_push(scripts, s);
            continue;
        }
        if (opt_with_eq(a, "command", &v)) {
            script s = { SCRIPT_FILE, v };
            vec_push(scripts, s);
            continue;
        }
        vec_push(rest, (char *)a);
    }
    return 0;
}

/* The -ex/-x scripts, then the prompt (unless -batch). */
static void session_loop(repl_dbg *r, const script_vec *scripts)
{
    repl_input_init(r);
    for (int i = 0; i < scripts->n && !r->quit; i++) {
        if (scripts->v[i].kind == SCRIPT_EX) repl_dbg_execute(r, scripts->v[i].text, false);
        else repl_dbg_source(r, scripts->v[i].text);
    }
    if (!r->batch) {
        while (!r->quit) {
            char *line = repl_input_line(r, "(tritium) ");
            if (!line) {
                if (r->interactive) printf("quit\n");
                break;
            }
            repl_dbg_execute(r, line, true);   /* stdin: a blank line repeats, as in gdb */
            free(line);
        }
    }
    repl_input_done(r);
}

int repl_cmd_debug(int argc, char *const *argv)
{
    repl_dbg r = { 0 };
    bool quiet = false;
    script_vec scripts = { 0 };
    word_vec rest = { 0 };
    int pr = parse_args(&r, argc, argv, &quiet, &scripts, &rest);
    if (pr) {
        vec_free(&scripts);
        vec_free(&rest);
        return pr > 0 ? REPL_EXIT_OK : REPL_EXIT_INPUT;
    }
    setvbuf(stdout, NULL, _IOLBF, 0);
    r.d = dbg_new(stdout, stderr);
    r.interactive = !r.batch && isatty(STDIN_FILENO);
    int status = REPL_EXIT_OK;
    if (rest.n) {
        /* the kernel file is the first word that is not an option value */
        int target = -1;
        for (int i = 0; i < rest.n && target < 0; i++) {
            if (rest.v[i][0] != '-') target = i;
            else if (!strchr(rest.v[i], '=') && i + 1 < rest.n &&
                     (!repl_spec_option(rest.v[i]) || repl_spec_option(rest.v[i])->takes_value)) i++;
        }
        if (target < 0) {
            diag_error(REPL_NOPOS, "missing kernel file (FILE.py[:KERNEL])");
            status = REPL_EXIT_INPUT;
            goto out;
        }
        char **words = xcalloc((size_t)rest.n, sizeof *words);
        int nw = 0;
        for (int i = 0; i < rest.n; i++) if (i != target) words[nw++] = rest.v[i];
        r.target = xstrdup(rest.v[target]);
        bool ok = repl_dbg_open(&r, r.target, nw, words);
        if (ok) repl_dbg_add_words(&r, nw, words);   /* kept for `set`, which replaces them by name */
        free(words);
        if (!ok) {
            status = REPL_EXIT_INPUT;
            goto out;
        }
    }
    if (!quiet && !r.batch) {
        printf("tritium debug: a gdb-like debugger for Triton kernels. Type \"help\" for commands.\n");
        if (r.have_target)
            printf("Kernel %s from %s, grid (%lld,%lld,%lld).\n", r.t.kernel, r.t.file, (long long)r.t.launch.grid[0],
                   (long long)r.t.launch.grid[1], (long long)r.t.launch.grid[2]);
    }
    session_loop(&r, &scripts);
    if (r.quit && r.quit_status >= 0) status = r.quit_status;
    else status = r.failed && r.batch ? 1 : REPL_EXIT_OK;
out:
    dbg_free(r.d);
    r.d = NULL;
    repl_dbg_close(&r);
    free(r.repeat);
    vec_free(&scripts);
    vec_free(&rest);
    fflush(stdout);
    return status;
}

/* Copy the finished launch's tensors into l's (the same layout: dbg_load
 * deep-copied l). */
static void copy_results(const launch *fin, launch *l)
{
    for (int i = 0; i < l->nargs && i < fin->nargs; i++) {
        const launch_arg *a = &l->args[i];
        if (a->kind != ARG_TENSOR || a->shared || !a->tensor || !fin->args[i].tensor) continue;
        if (fin->args[i].tensor->nbytes != a->tensor->nbytes) continue;
        if (a->tensor->nbytes) memcpy(a->tensor->data, fin->args[i].tensor->data, a->tensor->nbytes);
    }
}

int repl_debug_launch(front_module *m, const char *kernel, launch *l, tt_numerics numerics, int argc,
                      char *const *argv, bool *finished, bool *detached, bool *quit, int *quit_status)
{
    *finished = *detached = *quit = false;
    *quit_status = -1;
    repl_dbg r = { 0 };
    bool quiet = false;
    script_vec scripts = { 0 };
    word_vec rest = { 0 };
    int status = REPL_EXIT_OK;
    int pr = parse_args(&r, argc, argv, &quiet, &scripts, &rest);
    if (pr || rest.n) {
        if (rest.n) diag_error(REPL_NOPOS, "debug: unexpected argument '%s' (the launch comes from Python)", rest.v[0]);
        vec_free(&scripts);
        vec_free(&rest);
        return REPL_EXIT_INPUT;
    }
    fflush(stdout);
    struct sigaction host_sigint;            /* the host's (Python's) Ctrl-C handler, given back at the end */
    sigaction(SIGINT, NULL, &host_sigint);
    r.embedded = true;
    r.d = dbg_new(stdout, stderr);
    r.interactive = !r.batch && isatty(STDIN_FILENO);
    interp_options io;
    interp_options_default(&io);
    io.numerics = numerics;
    dbg_set_interp_options(r.d, &io);
    if (!dbg_load(r.d, m, kernel, l)) {
        status = REPL_EXIT_INPUT;
        goto out;
    }
    /* the target, for `info launch` and `diff` (the module stays the caller's) */
    r.t.file = xstrdup(diag_file_name(front_file(m)));
    r.t.kernel = xstrdup(kernel);
    r.t.mod = m;
    r.t.nparams = front_params(m, kernel, &r.t.params);
    launch_copy(&r.t.launch, l);
    r.t.have_launch = true;
    r.have_target = true;
    session_loop(&r, &scripts);
    if (r.quit && !r.detached) {
        *quit = true;
        *quit_status = r.quit_status;
        goto out;
    }
    /* input ended (or detach) before the launch finished: finish it without stops */
    if (!dbg_finished_launch(r.d)) {
        dbg_cmd_delete(r.d, "");
        dbg_cmd_set_stop_on_fault(r.d, "off");
        if (dbg_get_state(r.d) == DBG_STOPPED) dbg_cmd_continue(r.d, "");
        else dbg_cmd_run(r.d, "");
    }
    const launch *fin = dbg_finished_launch(r.d);
    if (fin) {
        copy_results(fin, l);
        *finished = true;
    }
    *detached = r.detached;
out:
    dbg_free(r.d);
    r.d = NULL;
    r.t.mod = NULL;                /* the caller's */
    repl_dbg_close(&r);
    free(r.repeat);
    vec_free(&scripts);
    vec_free(&rest);
    fflush(stdout);
    sigaction(SIGINT, &host_sigint, NULL);
    return status;
}
