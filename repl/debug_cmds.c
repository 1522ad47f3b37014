/* debug_cmds.c — the command table of `tritium debug` and its dispatcher.
 *
 * Names follow gdb (and cuda-gdb where Triton's programs play the part of
 * CUDA blocks): a command is found by its name, one of its aliases (b, c, n,
 * s, p, bt, i, ...) or a unique prefix of its name; `info`, `set` and `show`
 * take subcommands found the same way. `help` and `help CMD` print from the
 * same table. A blank line repeats the last `next`, `step`, `stepi`,
 * `continue`, `until` or `list`. */
#include "debug_repl.h"
#include "tritium/limits.h"

#include <ctype.h>
#include <errno.h>
#include <string.h>

enum { F_REPEAT = 1 };

typedef struct dcmd dcmd;
struct dcmd {
    const char *name;
    const char *aliases;           /* space separated */
    int (*dfn)(dbg_session *d, const char *args);
    int (*rfn)(repl_dbg *r, const char *args);
    const dcmd *sub;
    unsigned flags;
    repl_args_kind args;
    const char *cls;               /* help class */
    const char *usage;
    const char *summary;
    const char *help;              /* more text, or NULL */
};

/* ---- REPL-side commands ----------------------------------------------------- */

/* gdb's detach: the launch goes on to its end without the debugger (no more
 * stops), and the debugger leaves; under python -m tritium --mode debug the
 * program's later launches run undebugged. */
static int r_detach(repl_dbg *r, const char *args)
{
    (void)args;
    if (dbg_get_state(r->d) == DBG_STOPPED) {
        dbg_cmd_delete(r->d, "");
        dbg_cmd_set_stop_on_fault(r->d, "off");
        dbg_cmd_continue(r->d, "");
    }
    printf("Detached.\n");
    r->detached = true;
    r->quit = true;
    return 0;
}

static int r_quit(repl_dbg *r, const char *args)
{
    const char *s = args;
    while (isspace((unsigned char)*s)) s++;
    if (*s) {
        char *end;
        errno = 0;
        long v = strtol(s, &end, 0);
        while (isspace((unsigned char)*end)) end++;
        if (end == s || *end) {
            fflush(stdout);
            fprintf(stderr, "usage: quit [EXIT-STATUS]\n");
            return -1;
        }
        if (errno || v < 0 || v > 255) {   /* exit() keeps 8 bits: 256 would read as success */
            fflush(stdout);
            fprintf(stderr, "quit: the exit status must be between 0 and 255\n");
            return -1;
        }
        r->quit_status = (int)v;
    } else {
        r->quit_status = -1;       /* the default status */
    }
    r->quit = true;
    return 0;
}

static int r_echo(repl_dbg *r, const char *args)
{
    (void)r;
    for (const char *p = args; *p; p++) {
        if (*p == '\\' && p[1]) {
            p++;
            switch (*p) {
            case 'n': putchar('\n'); break;
            case 't': putchar('\t'); break;
            case '\\': putchar('\\'); break;
            case '"': putchar('"'); break;
            case '\n': break;
            default: putchar(*p); break;
            }
        } else if (*p == '\\') {
            break;                 /* trailing backslash: no newline */
        } else {
            putchar(*p);
        }
    }
    fflush(stdout);
    return 0;
}

static int r_source(repl_dbg *r, const char *args)
{
    const char *s = args;
    while (isspace((unsigned char)*s)) s++;
    if (!*s) {
        fflush(stdout);
        fprintf(stderr, "source command requires file name of file to source.\n");
        return -1;
    }
    return repl_dbg_source(r, s);
}

static int r_help(repl_dbg *r, const char *args);

static int r_delete(repl_dbg *r, const char *args)
{
    const char *s = args;
    while (isspace((unsigned char)*s)) s++;
    if (!strncmp(s, "display", 7) && (!s[7] || isspace((unsigned char)s[7]))) return dbg_cmd_undisplay(r->d, s + 7);
    return dbg_cmd_delete(r->d, s);
}

static int r_set_arg(repl_dbg *r, const char *a) { return repl_dbg_set_launch_word(r, "--arg", a); }
static int r_set_grid(repl_dbg *r, const char *a) { return repl_dbg_set_launch_word(r, "--grid", a); }
static int r_set_const(repl_dbg *r, const char *a) { return repl_dbg_set_launch_word(r, "--const", a); }
static int r_set_warps(repl_dbg *r, const char *a) { return repl_dbg_set_launch_word(r, "--num-warps", a); }
static int r_set_seed(repl_dbg *r, const char *a) { return repl_dbg_set_launch_word(r, "--seed", a); }

static bool parse_onoff(const char *args, bool *v)
{
    const char *s = args;
    while (isspace((unsigned char)*s)) s++;
    if (!*s || !strcmp(s, "on") || !strcmp(s, "1")) { *v = true; return true; }
    if (!strcmp(s, "off") || !strcmp(s, "0")) { *v = false; return true; }
    fflush(stdout);
    fprintf(stderr, "\"on\" or \"off\" expected.\n");
    return false;
}

static int r_set_trace(repl_dbg *r, const char *a) { return parse_onoff(a, &r->trace) ? 0 : -1; }
static int r_set_var(repl_dbg *r, const char *a)
{
    (void)r;
    (void)a;
    fflush(stdout);
    fprintf(stderr, "set var is not supported: tiles are immutable SSA values.\n");
    return -1;
}
static int r_set_confirm(repl_dbg *r, const char *a)
{
    (void)r;
    bool v;
    return parse_onoff(a, &v) ? 0 : -1;    /* the debugger never asks */
}

static int r_show_trace(repl_dbg *r, const char *a)
{
    (void)a;
    printf("State of GDB-style command tracing is %s.\n", r->trace ? "on" : "off");
    return 0;
}
static int r_show_version(repl_dbg *r, const char *a)
{
    (void)r;
    (void)a;
#ifdef TRITIUM_VERSION
    printf("tritium %s\n", TRITIUM_VERSION);
#else
    printf("tritium\n");
#endif
    return 0;
}
static int r_show_all(repl_dbg *r, const char *a)
{
    dbg_cmd_show_settings(r->d, a);
    return r_show_trace(r, a);
}
static int r_show_elements(repl_dbg *r, const char *a)
{
    (void)a;
    return dbg_cmd_show_settings(r->d, "");
}

/* ---- tables -------------------------------------------------------------------- */

#define D(fn) fn, NULL
#define R(fn) NULL, fn

static const dcmd set_print_cmds[] = {
    { "elements", "", D(dbg_cmd_set_print_elements), NULL, 0, ARGS_NONE, "", "set print elements N|unlimited",
      "Elements of a tile printed before eliding with \"...\" (default 1000, as numpy).", NULL },
    { NULL },
};

static const dcmd show_print_cmds[] = {
    { "elements", "", R(r_show_elements), NULL, 0, ARGS_NONE, "", "show print elements", "Show the print settings.", NULL },
    { NULL },
};

static const dcmd info_cmds[] = {
    { "args", "", D(dbg_cmd_info_args), NULL, 0, ARGS_NONE, "", "info args",
      "Kernel arguments and constexprs of the selected frame.", NULL },
    { "breakpoints", "b break", D(dbg_cmd_info_breakpoints), NULL, 0, ARGS_NONE, "", "info breakpoints [N]",
      "Breakpoints and watchpoints, with conditions and hit counts.", NULL },
    { "buffers", "", D(dbg_cmd_info_buffers), NULL, 0, ARGS_NONE, "", "info buffers",
      "Every tensor of the launch: name, dtype, shape, virtual address range.", NULL },
    { "display", "", D(dbg_cmd_info_display), NULL, 0, ARGS_NONE, "", "info display", "Auto-display expressions.", NULL },
    { "frame", "f", D(dbg_cmd_info_frame), NULL, 0, ARGS_NONE, "", "info frame", "The selected frame in detail.", NULL },
    { "launch", "", R(repl_dbg_cmd_info_launch), NULL, 0, ARGS_NONE, "", "info launch",
      "The kernel, grid, arguments and constexprs of the launch.", NULL },
    { "line", "", D(dbg_cmd_info_line), NULL, 0, ARGS_LOCATION, "", "info line [LOCATION]",
      "How many IR ops a source line has.", NULL },
    { "locals", "", D(dbg_cmd_info_locals), NULL, 0, ARGS_NONE, "", "info locals",
      "Variables of the selected frame: name, dtype and shape, a short preview.", NULL },
    { "programs", "", D(dbg_cmd_info_programs), NULL, 0, ARGS_NONE, "", "info programs",
      "Which programs finished, which is stopped, which are pending (ranges coalesced), and the schedule.", NULL },
    { "source", "", D(dbg_cmd_info_source), NULL, 0, ARGS_NONE, "", "info source", "The current source file.", NULL },
    { "watchpoints", "", D(dbg_cmd_info_watchpoints), NULL, 0, ARGS_NONE, "", "info watchpoints", "Watchpoints only.", NULL },
    { NULL },
};

static const dcmd set_cmds[] = {
    { "arg", "args", R(r_set_arg), NULL, 0, ARGS_EXPR, "", "set arg NAME=SPEC",
      "Change one kernel argument, as --arg NAME=SPEC does (randn:f32[1024], FILE.npy, 42, numel(x)).",
      "The kernel file is read again and the launch resolved again; a running launch is killed.\n"
      "Breakpoints stay. When the new launch does not resolve, the old one stays." },
    { "confirm", "", R(r_set_confirm), NULL, 0, ARGS_NONE, "", "set confirm on|off",
      "Accepted for gdb scripts; the debugger never asks for confirmation.", NULL },
    { "const", "", R(r_set_const), NULL, 0, ARGS_EXPR, "", "set const NAME=VALUE", "Change a tl.constexpr parameter.", NULL },
    { "grid", "", R(r_set_grid), NULL, 0, ARGS_EXPR, "", "set grid G", "Change the grid: 4, '4,8', 'cdiv(n, BLOCK)'.", NULL },
    { "launch", "", R(repl_dbg_cmd_set_launch), NULL, 0, ARGS_NONE, "", "set launch [launch spec words]",
      "Change several options at once: set launch --grid 8 --arg x=randn:f32[4096].", NULL },
    { "num-warps", "", R(r_set_warps), NULL, 0, ARGS_NONE, "", "set num-warps N", "Change num_warps.", NULL },
    { "print", "p", NULL, NULL, set_print_cmds, 0, ARGS_SUB, "", "set print elements N", "Print settings.", NULL },
    { "schedule", "", D(dbg_cmd_schedule), NULL, 0, ARGS_NONE, "", "set schedule auto|in-order|reverse|random SEED",
      "Same as `schedule`.", NULL },
    { "seed", "", R(r_set_seed), NULL, 0, ARGS_NONE, "", "set seed S", "Change the seed of the tensor generators.", NULL },
    { "stop-on-fault", "", D(dbg_cmd_set_stop_on_fault), NULL, 0, ARGS_NONE, "", "set stop-on-fault on|off",
      "Stop when a program faults, races or reads uninitialized memory (default on).", NULL },
    { "trace-commands", "", R(r_set_trace), NULL, 0, ARGS_NONE, "", "set trace-commands on|off",
      "Echo each command with a '+' before running it (useful in -batch transcripts).", NULL },
    { "variable", "var", R(r_set_var), NULL, 0, ARGS_NONE, "", "set var", "Not supported.", NULL },
    { NULL },
};

static const dcmd show_cmds[] = {
    { "args", "", R(repl_dbg_cmd_info_launch), NULL, 0, ARGS_NONE, "", "show args", "Same as `info launch`.", NULL },
    { "launch", "", R(repl_dbg_cmd_info_launch), NULL, 0, ARGS_NONE, "", "show launch", "Same as `info launch`.", NULL },
    { "print", "p", NULL, NULL, show_print_cmds, 0, ARGS_SUB, "", "show print elements", "Print settings.", NULL },
    { "settings", "", R(r_show_all), NULL, 0, ARGS_NONE, "", "show settings", "All settings.", NULL },
    { "stop-on-fault", "", R(r_show_elements), NULL, 0, ARGS_NONE, "", "show stop-on-fault", "Show the setting.", NULL },
    { "trace-commands", "", R(r_show_trace), NULL, 0, ARGS_NONE, "", "show trace-commands", "Show the setting.", NULL },
    { "version", "", R(r_show_version), NULL, 0, ARGS_NONE, "", "show version", "The version of tritium.", NULL },
    { NULL },
};

static const char C_RUN[] = "running", C_BRK[] = "breakpoints", C_STK[] = "stack", C_DATA[] = "data",
                  C_PROG[] = "programs", C_LNCH[] = "launch", C_SUP[] = "support";

static const dcmd top_cmds[] = {
    /* running */
    { "run", "r", D(dbg_cmd_run), NULL, 0, ARGS_NONE, C_RUN, "run",
      "Start the launch from fresh inputs (restarting a running one).",
      "Programs run one at a time under the schedule (see `schedule`); the launch stops at\n"
      "breakpoints, watchpoints, steps, faults and Ctrl-C." },
    { "start", "", D(dbg_cmd_start), NULL, 0, ARGS_NONE, C_RUN, "start",
      "Start the launch and stop at the first line of the first program.", NULL },
    { "continue", "c cont fg", D(dbg_cmd_continue), NULL, F_REPEAT, ARGS_NONE, C_RUN, "continue [N]",
      "Continue the launch; with N, ignore the current breakpoint N-1 more times.", NULL },
    { "next", "n", D(dbg_cmd_next), NULL, F_REPEAT, ARGS_NONE, C_RUN, "next [N]",
      "Run to the next source line, stepping over helper calls.",
      "At the end of a program, stops at the first line of the next program." },
    { "step", "s", D(dbg_cmd_step), NULL, F_REPEAT, ARGS_NONE, C_RUN, "step [N]",
      "Run to the next source line, entering inlined helper calls.", NULL },
    { "stepi", "si nexti ni", D(dbg_cmd_stepi), NULL, F_REPEAT, ARGS_NONE, C_RUN, "stepi [N]",
      "Run one IR op (see `ir`).", NULL },
    { "finish", "fin", D(dbg_cmd_finish), NULL, 0, ARGS_NONE, C_RUN, "finish",
      "Run until the selected helper frame returns.", NULL },
    { "until", "u", D(dbg_cmd_until), NULL, F_REPEAT, ARGS_LOCATION, C_RUN, "until [LOCATION]",
      "Run to a line after the current one in this frame (leaves loops), or to LOCATION.", NULL },
    { "advance", "", D(dbg_cmd_advance), NULL, 0, ARGS_LOCATION, C_RUN, "advance LOCATION",
      "Run to LOCATION in the current program.", NULL },
    { "kill", "k", D(dbg_cmd_kill), NULL, 0, ARGS_NONE, C_RUN, "kill", "Abort the running launch.", NULL },
    { "detach", "", R(r_detach), NULL, 0, ARGS_NONE, C_RUN, "detach",
      "Run the launch to its end without stopping and leave the debugger.",
      "Under python -m tritium --mode debug the program goes on with the launch's results and\n"
      "its later launches are not debugged." },
    /* breakpoints */
    { "break", "b br bre brea", D(dbg_cmd_break), NULL, 0, ARGS_LOCATION, C_BRK,
      "break [LOCATION] [pid (x[,y[,z]])] [if COND] | break pid (x[,y[,z]]) [if COND]",
      "Set a breakpoint.",
      "LOCATION is LINE, FILE:LINE or FUNCTION (a @triton.jit helper: every inlined call; the kernel:\n"
      "each program's start). `break pid (3)` stops when program (3,0,0) starts; '*' matches any\n"
      "index: `break pid (*,2)`. `pid (...)` after a location limits it to those programs. COND is a\n"
      "Triton expression in the stopped program (a tile condition holds when any element is nonzero).\n"
      "With the default schedule (auto), programs named by pid breakpoints run first." },
    { "tbreak", "tb", D(dbg_cmd_tbreak), NULL, 0, ARGS_LOCATION, C_BRK, "tbreak LOCATION [pid (...)] [if COND]",
      "Set a temporary breakpoint (deleted when hit).", NULL },
    { "condition", "cond", D(dbg_cmd_condition), NULL, 0, ARGS_EXPR, C_BRK, "condition N [COND]",
      "Make breakpoint N conditional on COND (no COND: unconditional).", NULL },
    { "ignore", "", D(dbg_cmd_ignore), NULL, 0, ARGS_NONE, C_BRK, "ignore N COUNT",
      "Do not stop at breakpoint N the next COUNT times it is reached.", NULL },
    { "delete", "d", R(r_delete), NULL, 0, ARGS_NONE, C_BRK, "delete [N...] | delete display [N...]",
      "Delete breakpoints (all when no number is given).", NULL },
    { "disable", "dis disa", D(dbg_cmd_disable), NULL, 0, ARGS_NONE, C_BRK, "disable [N...]", "Disable breakpoints.", NULL },
    { "enable", "en", D(dbg_cmd_enable), NULL, 0, ARGS_NONE, C_BRK, "enable [once|delete] [N...]", "Enable breakpoints.", NULL },
    { "watch", "", D(dbg_cmd_watch), NULL, 0, ARGS_EXPR, C_BRK, "watch BUFFER[INDEX] | watch BUFFER[LO:HI]",
      "Stop when any program writes these elements; shows old and new values and the writer.", NULL },
    { "rwatch", "", D(dbg_cmd_rwatch), NULL, 0, ARGS_EXPR, C_BRK, "rwatch BUFFER[INDEX]",
      "Stop when any program reads these elements.", NULL },
    { "awatch", "", D(dbg_cmd_awatch), NULL, 0, ARGS_EXPR, C_BRK, "awatch BUFFER[INDEX]",
      "Stop when any program reads or writes these elements.", NULL },
    /* stack */
    { "backtrace", "bt where", D(dbg_cmd_backtrace), NULL, 0, ARGS_NONE, C_STK, "backtrace [N]",
      "Frames of the stopped program: inlined helper calls, innermost first.", NULL },
    { "frame", "f", D(dbg_cmd_frame), NULL, 0, ARGS_NONE, C_STK, "frame [N]", "Select and show a frame.", NULL },
    { "up", "", D(dbg_cmd_up), NULL, 0, ARGS_NONE, C_STK, "up [N]", "Select the caller's frame.", NULL },
    { "down", "do", D(dbg_cmd_down), NULL, 0, ARGS_NONE, C_STK, "down [N]", "Select the callee's frame.", NULL },
    { "list", "l", D(dbg_cmd_list), NULL, F_REPEAT, ARGS_LOCATION, C_STK, "list [LINE|FUNCTION|FILE:LINE|A,B|-]",
      "List source lines (around the current line first, then onwards).", NULL },
    { "ir", "", D(dbg_cmd_ir), NULL, 0, ARGS_NONE, C_STK, "ir [region|all]",
      "The IR of the current line, the op about to run marked with =>.", NULL },
    /* data */
    { "print", "p inspect", D(dbg_cmd_print), NULL, 0, ARGS_EXPR, C_DATA, "print[/FMT] EXPR",
      "Evaluate a Triton expression in the stopped program and print it (numpy style).",
      "EXPR sees the selected frame's variables, the kernel's arguments and constexprs:\n"
      "`print acc[:, None] * 2`, `print tl.max(x, 0)`, `print offs < n`. BUFFER[I] or BUFFER[A:B]\n"
      "reads a launch tensor (`print out[17:33]`). $, $N, $$, $$N name earlier values.\n"
      "FMT: x hex (raw bits), d, u, o, t binary, c, f." },
    { "output", "", D(dbg_cmd_output), NULL, 0, ARGS_EXPR, C_DATA, "output EXPR",
      "Print a value without \"$N = \" and without a newline.", NULL },
    { "whatis", "ptype", D(dbg_cmd_whatis), NULL, 0, ARGS_EXPR, C_DATA, "whatis EXPR", "The dtype and shape of EXPR.", NULL },
    { "display", "disp", D(dbg_cmd_display), NULL, 0, ARGS_EXPR, C_DATA, "display[/FMT] [EXPR]",
      "Print EXPR at every stop.", NULL },
    { "undisplay", "", D(dbg_cmd_undisplay), NULL, 0, ARGS_NONE, C_DATA, "undisplay [N...]", "Cancel displays.", NULL },
    { "x", "", D(dbg_cmd_x), NULL, 0, ARGS_EXPR, C_DATA, "x[/NFMT] BUFFER[INDEX] | x[/NFMT] EXPR",
      "Examine buffer memory: N elements from BUFFER[INDEX], or what pointers point at.", NULL },
    { "info", "i inf", NULL, NULL, info_cmds, 0, ARGS_SUB, C_DATA, "info SUBCOMMAND",
      "Show things about the launch: info breakpoints|programs|locals|args|buffers|display|frame|launch.", NULL },
    /* programs */
    { "program", "prog", D(dbg_cmd_program), NULL, 0, ARGS_NONE, C_PROG, "program [(x[,y[,z]])]",
      "Show the current program, or run program (x,y,z) next and stop when it starts.", NULL },
    { "schedule", "", D(dbg_cmd_schedule), NULL, 0, ARGS_NONE, C_PROG, "schedule [auto|in-order|reverse|random SEED]",
      "The order programs run in.",
      "auto (default): programs named by pid breakpoints first, then in order, so that\n"
      "`break pid (N)` stops without interpreting the programs before N." },
    /* launch */
    { "load", "file", R(repl_dbg_cmd_load), NULL, 0, ARGS_FILE, C_LNCH, "load FILE.py[:KERNEL] [launch spec]",
      "Debug another kernel (breakpoints stay).", NULL },
#ifdef TRITIUM_HAVE_GPU
    { "diff", "", R(repl_dbg_cmd_diff), NULL, 0, ARGS_NONE, C_LNCH,
      "diff [--rtol R] [--atol A] [--ulp N] [--numerics ieee|fast] [--show N] [--arch sm_NN] [--mma wgmma|sync]\n"
      "     [--persistent] [--against SCHEDULE]",
      "Run the loaded launch from fresh inputs in the interpreter and on the GPU and report every\n"
      "element that disagrees, with the program and line that wrote it (as `tritium diff`).\n"
      "--against SCHEDULE compares with a second interpreter run instead (no GPU needed).", NULL },
#endif
    { "set", "", NULL, NULL, set_cmds, 0, ARGS_SUB, C_LNCH, "set SUBCOMMAND",
      "Change the launch (set arg/grid/const/launch) or a setting.", NULL },
    { "show", "", NULL, NULL, show_cmds, 0, ARGS_SUB, C_LNCH, "show SUBCOMMAND", "Show a setting or the launch.", NULL },
    /* support */
    { "help", "h", R(r_help), NULL, 0, ARGS_COMMAND, C_SUP, "help [COMMAND]", "List commands, or explain one.", NULL },
    { "echo", "", R(r_echo), NULL, 0, ARGS_NONE, C_SUP, "echo TEXT", "Print TEXT (\\n for a newline).", NULL },
    { "source", "", R(r_source), NULL, 0, ARGS_FILE, C_SUP, "source FILE", "Run the commands in FILE.", NULL },
    { "quit", "q exit", R(r_quit), NULL, 0, ARGS_NONE, C_SUP, "quit [STATUS]", "Leave the debugger.", NULL },
    { NULL },
};

/* ---- lookup ------------------------------------------------------------------- */

static bool has_alias(const dcmd *c, const char *w, size_t n)
{
    const char *a = c->aliases;
    while (a && *a) {
        size_t l = strcspn(a, " ");
        if (l == n && !strncmp(a, w, n)) return true;
        a += l;
        while (*a == ' ') a++;
    }
    return false;
}

/* Whether w (length n) is a prefix of one of c's aliases. */
static bool alias_prefix(const dcmd *c, const char *w, size_t n)
{
    const char *a = c->aliases;
    while (a && *a) {
        size_t l = strcspn(a, " ");
        if (l > n && !strncmp(a, w, n)) return true;
        a += l;
        while (*a == ' ') a++;
    }
    return false;
}

/* Find word w (length n) in table: an exact name or alias, else a unique
 * prefix of names and aliases. `what` names the table in messages ("" or
 * "info "). Prints an error and returns NULL. */
static const dcmd *lookup(const dcmd *table, const char *w, size_t n, const char *what)
{
    for (const dcmd *c = table; c->name; c++)
        if ((strlen(c->name) == n && !strncmp(c->name, w, n)) || has_alias(c, w, n)) return c;
    const dcmd *found = NULL;
    int count = 0;
    for (const dcmd *c = table; c->name; c++)
        if (!strncmp(c->name, w, n) || alias_prefix(c, w, n)) {
            found = c;
            count++;
        }
    if (count == 1) return found;
    fflush(stdout);
    char sub[64];
    snprintf(sub, sizeof sub, "%.*s", *what ? (int)strlen(what) - 1 : 0, what);
    if (count == 0) {
        fprintf(stderr, "Undefined %scommand: \"%.*s\".  Try \"help%s%s\".\n", what, (int)n, w, *sub ? " " : "", sub);
        return NULL;
    }
    fprintf(stderr, "Ambiguous %scommand \"%.*s\":", what, (int)n, w);
    const char *sep = " ";
    for (const dcmd *c = table; c->name; c++)
        if (!strncmp(c->name, w, n) || alias_prefix(c, w, n)) {
            fprintf(stderr, "%s%s", sep, c->name);
            sep = ", ";
        }
    fprintf(stderr, ".\n");
    return NULL;
}

static size_t word_len(const char *s)
{
    size_t n = 0;
    while (isalnum((unsigned char)s[n]) || s[n] == '_' || s[n] == '-') n++;
    return n;
}

static void list_subcommands(const dcmd *tab, const char *prefix)
{
    printf("List of \"%s\" subcommands:\n\n", prefix);
    for (const dcmd *c = tab; c->name; c++) printf("%-28s -- %s\n", c->usage, c->summary);
}

/* Resolve a command line to its table entry; *args receives the rest. */
static const dcmd *resolve(const char *line, const char **args, bool *failed)
{
    *failed = false;
    const char *s = line;
    while (isspace((unsigned char)*s)) s++;
    size_t n = word_len(s);
    if (!n) {
        fflush(stdout);
        fprintf(stderr, "Undefined command: \"%.*s\".  Try \"help\".\n", (int)strcspn(s, " \t"), s);
        *failed = true;
        return NULL;
    }
    const dcmd *c = lookup(top_cmds, s, n, "");
    char prefix[64] = "";
    while (c) {
        s += n;
        while (isspace((unsigned char)*s)) s++;
        if (!c->sub) break;
        snprintf(prefix + strlen(prefix), sizeof prefix - strlen(prefix), "%s%s", *prefix ? " " : "", c->name);
        n = word_len(s);
        if (!n) {
            if (!strcmp(prefix, "show")) {
                *args = s;
                return &show_cmds[3];          /* show: all settings */
            }
            if (*s) {
                fflush(stdout);
                fprintf(stderr, "Undefined %s command: \"%s\".  Try \"help %s\".\n", prefix, s, prefix);
                *failed = true;
                return NULL;
            }
            fflush(stdout);
            fprintf(stderr, "\"%s\" must be followed by the name of a subcommand.\n", prefix);
            list_subcommands(c->sub, prefix);
            *failed = true;
            return NULL;
        }
        char pfx[72];
        snprintf(pfx, sizeof pfx, "%s ", prefix);
        c = lookup(c->sub, s, n, pfx);
    }
    if (!c) {
        *failed = true;
        return NULL;
    }
    *args = s;
    return c;
}

/* ---- help --------------------------------------------------------------------- */

static void print_aliases(const dcmd *c)
{
    if (c->aliases && *c->aliases) printf("Aliases: %s\n", c->aliases);
}

static int r_help(repl_dbg *r, const char *args)
{
    (void)r;
    const char *s = args;
    while (isspace((unsigned char)*s)) s++;
    if (!*s) {
        printf("tritium debug: a gdb-like debugger for Triton kernels, run in the checked interpreter.\n");
        static const char *classes[] = { C_RUN, C_BRK, C_STK, C_DATA, C_PROG, C_LNCH, C_SUP };
        for (size_t k = 0; k < TT_COUNTOF(classes); k++) {
            printf("\n%c%s:\n", toupper((unsigned char)classes[k][0]), classes[k] + 1);
            for (const dcmd *c = top_cmds; c->name; c++)
                if (c->cls == classes[k]) printf("  %-12s -- %s\n", c->name, c->summary);
        }
        printf("\nType \"help\" followed by a command name for its full description.\n"
               "Commands may be abbreviated to a unique prefix; a blank line repeats next/step/continue.\n");
        return 0;
    }
    bool failed;
    const char *rest;
    /* help for a prefix command itself ("help info") */
    size_t n = word_len(s);
    const dcmd *top = n ? lookup(top_cmds, s, n, "") : NULL;
    if (!top) return -1;
    const char *after = s + n;
    while (isspace((unsigned char)*after)) after++;
    if (top->sub && !*after) {
        printf("%s -- %s\n", top->usage, top->summary);
        print_aliases(top);
        printf("\n");
        list_subcommands(top->sub, top->name);
        return 0;
    }
    const dcmd *c = resolve(s, &rest, &failed);
    if (!c) return -1;
    printf("Usage: %s\n%s\n", c->usage, c->summary);
    if (c->help) printf("%s\n", c->help);
    print_aliases(c);
    return 0;
}

/* ---- execution -------------------------------------------------------------------- */

int repl_dbg_execute(repl_dbg *r, const char *line, bool from_tty)
{
    const char *s = line;
    while (isspace((unsigned char)*s)) s++;
    if (!*s) {
        if (from_tty && r->repeat) {
            char *rep = xstrdup(r->repeat);
            int rc = repl_dbg_execute(r, rep, false);
            free(rep);
            return rc;
        }
        return 0;
    }
    if (*s == '#') return 0;
    if (r->trace) {
        printf("+%s\n", s);
        fflush(stdout);
    }
    const char *args = "";
    bool failed;
    const dcmd *c = resolve(s, &args, &failed);
    if (!c) {
        r->failed++;
        return -1;
    }
    free(r->repeat);
    r->repeat = NULL;
    if (c->flags & F_REPEAT) r->repeat = xstrdup(c->dfn == dbg_cmd_list ? "list" : s);
    /* the outermost command (not one of a sourced file) is what Ctrl-C stops */
    bool outer = r->exec_depth++ == 0;
    if (outer) dbg_command_begin(r->d);
    int rc = c->dfn ? c->dfn(r->d, args) : c->rfn(r, args);
    if (outer && dbg_command_end(r->d) && !rc) rc = -1;   /* stopped by Ctrl-C */
    r->exec_depth--;
    fflush(stdout);
    fflush(stderr);
    if (rc) r->failed++;
    return rc ? -1 : 0;
}

int repl_dbg_source(repl_dbg *r, const char *path)
{
    if (r->source_depth > 16) {
        fflush(stdout);
        fprintf(stderr, "source: nested too deeply\n");
        r->failed++;
        return -1;
    }
    /* read whole, bounded (limits.h): /dev/zero or a directory is an error, not a hang */
    size_t len;
    char *text = tt_read_file_limited(path, TT_LIM_SCRIPT_BYTES, &len);
    if (!text) {
        char *why = errno == EFBIG ? tt_limit_exceeded(TT_LIM_SCRIPT_BYTES) : xstrdup(strerror(errno));
        fflush(stdout);
        fprintf(stderr, "%s: %s.\n", path, why);
        free(why);
        r->failed++;
        return -1;
    }
    r->source_depth++;
    int rc = 0;
    for (char *line = text, *next; line && line < text + len && !r->quit; line = next) {
        next = memchr(line, '\n', (size_t)(text + len - line));
        if (next) *next++ = 0;
        size_t n = strlen(line);
        while (n > 0 && line[n - 1] == '\r') line[--n] = 0;
        if (repl_dbg_execute(r, line, false)) {
            rc = -1;
            break;                 /* gdb stops a sourced file at its first error */
        }
    }
    free(text);
    r->source_depth--;
    return rc;
}

/* ---- names for completion ------------------------------------------------------------ */

const char *const *repl_dbg_command_names(const char *sub)
{
    static const char *names[4][96];
    const dcmd *tab = top_cmds;
    int k = 0;
    if (sub && !strcmp(sub, "info")) { tab = info_cmds; k = 1; }
    else if (sub && !strcmp(sub, "set")) { tab = set_cmds; k = 2; }
    else if (sub && !strcmp(sub, "show")) { tab = show_cmds; k = 3; }
    if (!names[k][0]) {
        int n = 0;
        for (const dcmd *c = tab; c->name && n < 95; c++) names[k][n++] = c->name;
        names[k][n] = NULL;
    }
    return names[k];
}

repl_args_kind repl_dbg_args_kind(const char *cmdword, const char **sub)
{
    *sub = NULL;
    size_t n = word_len(cmdword);
    if (!n) return ARGS_NONE;
    /* quiet lookup */
    const dcmd *found = NULL;
    int count = 0;
    for (const dcmd *c = top_cmds; c->name; c++) {
        if ((strlen(c->name) == n && !strncmp(c->name, cmdword, n)) || has_alias(c, cmdword, n)) {
            found = c;
            count = 1;
            break;
        }
        if (!strncmp(c->name, cmdword, n)) {
            found = c;
            count++;
        }
    }
    if (count != 1) return ARGS_NONE;
    if (found->sub) *sub = found->name;
    return found->args;
}
