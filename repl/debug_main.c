/* debug_main.c — `tritium debug [options] [FILE.py[:KERNEL] [launch spec]]`.
 *
 * gdb's options: -batch (run the -ex/-x commands, then exit; exit status 1
 * when any command failed), -ex CMD (repeatable, in order with -x), -x FILE
 * (commands from a file; its first failing command ends that file),
 * -q/-quiet/-silent, -nx (accepted). Everything else is the kernel file and
 * its launch spec, parsed as `tritium run` parses them. */
#include "debug_repl.h"
#include "tritium/diag.h"

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

int repl_cmd_debug(int argc, char *const *argv)
{
    repl_dbg r = { 0 };
    bool quiet = false;
    VEC(script) scripts = { 0 };
    VEC(char *) rest = { 0 };
    const char *v;
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        if (opt_is(a, "help") || !strcmp(a, "-h")) {
            fputs(usage, stdout);
            repl_print_spec_help(stdout);
            vec_free(&scripts);
            vec_free(&rest);
            return REPL_EXIT_OK;
        }
        if (opt_is(a, "batch")) { r.batch = true; quiet = true; continue; }
        if (opt_is(a, "q") || opt_is(a, "quiet") || opt_is(a, "silent")) { quiet = true; continue; }
        if (opt_is(a, "nx") || opt_is(a, "n") || opt_is(a, "nh")) continue;
        if (opt_is(a, "ex") || opt_is(a, "eval-command") || opt_is(a, "x") || opt_is(a, "command")) {
            if (i + 1 >= argc) {
                diag_error(REPL_NOPOS, "option '%s' requires an argument", a);
                vec_free(&scripts);
                vec_free(&rest);
                return REPL_EXIT_INPUT;
            }
            script s = { opt_is(a, "ex") || opt_is(a, "eval-command") ? SCRIPT_EX : SCRIPT_FILE, argv[++i] };
            vec_push(&scripts, s);
            continue;
        }
        if (opt_with_eq(a, "eval-command", &v) || opt_with_eq(a, "ex", &v)) {
            script s = { SCRIPT_EX, v };
            vec_push(&scripts, s);
            continue;
        }
        if (opt_with_eq(a, "command", &v)) {
            script s = { SCRIPT_FILE, v };
            vec_push(&scripts, s);
            continue;
        }
        vec_push(&rest, (char *)a);
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
            else if (!strchr(rest.v[i], '=') && i + 1 < rest.n && strcmp(rest.v[i], "--json")) i++;
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
    repl_input_init(&r);
    for (int i = 0; i < scripts.n && !r.quit; i++) {
        if (scripts.v[i].kind == SCRIPT_EX) repl_dbg_execute(&r, scripts.v[i].text, false);
        else repl_dbg_source(&r, scripts.v[i].text);
    }
    if (!r.batch) {
        while (!r.quit) {
            char *line = repl_input_line(&r, "(tritium) ");
            if (!line) {
                if (r.interactive) printf("quit\n");
                break;
            }
            repl_dbg_execute(&r, line, true);   /* stdin: a blank line repeats, as in gdb */
            free(line);
        }
    }
    repl_input_done(&r);
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
