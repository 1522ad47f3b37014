/* debug_repl.h — `tritium debug`: the gdb-like REPL over the debugging engine
 * (include/tritium/debugger.h). Shared between the REPL's files and its tests.
 *
 *   debug_main.c   the sub-command: gdb's -batch / -ex / -x / -q, the loop
 *   debug_cmds.c   the command table: names, gdb aliases, unique prefixes,
 *                  subcommands (info, set, show), help, blank-line repeat
 *   debug_input.c  GNU readline (history file, completion, Ctrl-C), plain
 *                  line input when stdin is not a terminal
 *   cmd_launch.c   launch commands: set arg/grid/const/launch, load, info launch
 */
#ifndef TRITIUM_DEBUG_REPL_H
#define TRITIUM_DEBUG_REPL_H

#include "repl.h"
#include "tritium/debugger.h"

typedef struct repl_dbg {
    dbg_session *d;
    repl_target t;                 /* the open kernel file and launch */
    bool have_target;
    char *target;                  /* FILE.py[:KERNEL] as given */
    VEC(char *) words;             /* launch-spec words, replaced per name by `set` */
    bool batch;                    /* -batch */
    bool interactive;              /* stdin is a terminal (and not -batch) */
    bool trace;                    /* set trace-commands on: echo "+CMD" */
    bool quit;
    int quit_status;
    int failed;                    /* commands that failed */
    char *repeat;                  /* what a blank line repeats, or NULL */
    int source_depth;
    int exec_depth;                /* repl_dbg_execute calls in progress (source nests them) */
    bool embedded;                 /* the launch came from a Python program (repl_debug_launch) */
    bool detached;                 /* `detach`: the launch ran to its end, stop debugging */
} repl_dbg;

/* `tritium debug ...`: argv starts after the sub-command name. */
int repl_cmd_debug(int argc, char *const *argv);

/* The debugger on one launch handed over through the C API (tritium_debug,
 * debug_api.c: python -m tritium --mode debug): kernel `kernel` of module m (borrowed),
 * launch l, whose tensors receive the results when the launch runs to its
 * end (copied back into l's storage). argc/argv: the debugger's options
 * (-batch, -ex CMD, -x FILE, -q); the commands run first, then the prompt
 * when stdin is a terminal (and not -batch). When input ends with the
 * launch not finished, it runs to its end without stopping. `quit` leaves
 * without results. Returns REPL_EXIT_INPUT for bad options or a launch the
 * debugger cannot load, else REPL_EXIT_OK; *finished, *detached, *quit and
 * *quit_status (-1: none given) say how the session ended. */
int repl_debug_launch(front_module *m, const char *kernel, launch *l, tt_numerics numerics, int argc,
                      char *const *argv, bool *finished, bool *detached, bool *quit, int *quit_status);

/* Execute one command line (no trailing newline). Returns 0, or -1 when the
 * command failed (the message is printed). Blank lines repeat the last
 * repeatable command when `from_tty`. */
int repl_dbg_execute(repl_dbg *r, const char *line, bool from_tty);
/* Execute the commands of a file; stops at the first failing one (as gdb's
 * `source` and -x do). Returns 0 or -1. */
int repl_dbg_source(repl_dbg *r, const char *path);

/* Command names (and aliases) for completion: a NULL-terminated static
 * list; sub: "info", "set", "show" or NULL for the top level. */
const char *const *repl_dbg_command_names(const char *sub);
/* What the arguments of a command are, for completion. */
typedef enum { ARGS_NONE, ARGS_LOCATION, ARGS_EXPR, ARGS_COMMAND, ARGS_FILE, ARGS_SUB } repl_args_kind;
repl_args_kind repl_dbg_args_kind(const char *cmdword, const char **sub);

/* Launch commands (cmd_launch.c). */
bool repl_dbg_open(repl_dbg *r, const char *target, int nwords, char *const *words);
/* Append launch-spec words (argv style; --opt=value is split), replacing
 * earlier words of the same option and name. */
void repl_dbg_add_words(repl_dbg *r, int n, char *const *words);
int repl_dbg_set_launch_word(repl_dbg *r, const char *opt, const char *value);
int repl_dbg_cmd_load(repl_dbg *r, const char *args);
int repl_dbg_cmd_set_launch(repl_dbg *r, const char *args);
/* `diff [options]`: the loaded launch on the CPU and the GPU (cmd_diff.c). */
int repl_dbg_cmd_diff(repl_dbg *r, const char *args);
int repl_dbg_cmd_info_launch(repl_dbg *r, const char *args);
void repl_dbg_close(repl_dbg *r);

/* Input (debug_input.c). */
void repl_input_init(repl_dbg *r);
void repl_input_done(repl_dbg *r);
/* A line without its newline (malloc'd), or NULL at end of input. */
char *repl_input_line(repl_dbg *r, const char *prompt);
/* The history file path (malloc'd), NULL when none can be made. */
char *repl_history_path(void);

#endif
