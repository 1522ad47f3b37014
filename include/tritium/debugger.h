/* debugger.h — the debugging engine behind `tritium debug` (docs/design.md,
 * "The debugger and the REPL"). No terminal I/O: the engine prints to the two
 * streams it is given and is driven through one function per gdb-like
 * command, so that the REPL (repl/debug_*.c) and the tests call the same code.
 *
 * A debug session owns one launch: a kernel compiled by the front end, a
 * pristine copy of its inputs (every `run` starts from a fresh copy) and an
 * interpreter session. The launch runs on a worker thread that the engine
 * schedules program by program; the interpreter's per-op hook
 * (interp_set_hook / interp_set_trap) decides where to stop and then blocks
 * until the next execution command. Exactly one of the two threads runs at a
 * time, so inspection commands read the stopped program's values directly.
 *
 * The trap flag stays off for a program that cannot stop: pid breakpoints are
 * matched when the program starts, line and function breakpoints turn the
 * trap on only for programs their pid filter matches, and the hook tests a
 * per-op bitmap before doing anything else.
 *
 * Command functions take the text after the command name (never NULL; may be
 * ""), print results to `out` and messages to `err`, and return 0, or -1
 * after printing an error (the session stays usable). */
#ifndef TRITIUM_DEBUGGER_H
#define TRITIUM_DEBUGGER_H

#include <stdio.h>
#include "tritium/front.h"
#include "tritium/interp.h"
#include "tritium/launch.h"

typedef struct dbg_session dbg_session;

/* New engine printing to out (results) and err (errors, fault reports).
 * Nothing is loaded yet. */
dbg_session *dbg_new(FILE *out, FILE *err);
void dbg_free(dbg_session *d);

/* Interpreter options used for every run (schedule fields are ignored: the
 * engine schedules programs itself; see dbg_cmd_schedule). */
void dbg_set_interp_options(dbg_session *d, const interp_options *o);

/* Load `kernel` of module m (borrowed: it must stay alive until the next
 * dbg_load or dbg_free) for launch l (deep-copied). Kills a running launch,
 * compiles, and re-resolves every breakpoint against the new code. Returns
 * false after printing diagnostics; the previous kernel stays loaded then. */
bool dbg_load(dbg_session *d, front_module *m, const char *kernel, const launch *l);

/* ---- state -------------------------------------------------------------- */

typedef enum {
    DBG_IDLE,                      /* no launch running (never run, finished or killed) */
    DBG_STOPPED,                   /* a launch is running and is stopped */
} dbg_state;

typedef enum {
    DBG_STOP_NONE,
    DBG_STOP_BREAKPOINT,           /* bp = breakpoint number */
    DBG_STOP_STEP,                 /* step, next, stepi, finish, until, advance */
    DBG_STOP_WATCH,                /* bp = watchpoint number */
    DBG_STOP_INTERRUPT,            /* dbg_interrupt (Ctrl-C) */
    DBG_STOP_FAULT,                /* the program faulted, raced or read uninitialized memory */
    DBG_STOP_PROGRAM,              /* a program chosen with `program` started */
} dbg_stop_reason;

typedef struct dbg_stop_info {
    dbg_stop_reason reason;
    int bp;                        /* breakpoint or watchpoint number, else 0 */
    bool in_program;               /* false: stopped after a program finished */
    int64_t pid[3];                /* the stopped (or just finished) program */
    const char *file;              /* source of the current op; NULL when unknown */
    int line;                      /* logical (statement) line, 0 when unknown */
    const char *func;              /* function of the innermost frame */
    int depth;                     /* frames - 1 (inlined helper calls) */
    int32_t region, op;            /* the op about to run */
} dbg_stop_info;

dbg_state dbg_get_state(const dbg_session *d);
/* The last stop; reason DBG_STOP_NONE when not stopped. */
void dbg_get_stop(const dbg_session *d, dbg_stop_info *out);
/* Exit status a launch would give: 1 when the last run faulted, raced or
 * read uninitialized memory, else 0. */
int dbg_launch_status(const dbg_session *d);
/* The launch the last run worked on, whose tensors hold its results, when
 * that run went to its end; NULL when it never ran, is stopped or was killed
 * (libtritium copies the results back into the caller's tensors). */
const launch *dbg_finished_launch(const dbg_session *d);

/* Async-signal-safe (Ctrl-C): a running launch stops at its next op; a
 * command between dbg_command_begin and dbg_command_end (a huge `x/N`, a
 * `print` of a big tile, a long `info`) gives up at its next check, printing
 * "Quit" to err and failing, as gdb's QUIT does. Returns false when neither
 * is going on (the caller is at its prompt). */
bool dbg_interrupt(dbg_session *d);
/* Bracket one command line: the REPL calls these around every command so
 * that dbg_interrupt can reach it. dbg_command_end returns whether Ctrl-C
 * came during the command. Not needed by callers that never interrupt. */
void dbg_command_begin(dbg_session *d);
bool dbg_command_end(dbg_session *d);
/* Whether the worker is running right now (for the SIGINT handler). */
bool dbg_running(const dbg_session *d);

/* ---- values ------------------------------------------------------------- */

/* A value printed by `print`: a dense row-major tile (scalars: rank 0). */
typedef struct dbg_value {
    tt_dtype dt;                   /* element dtype; pointers are TT_U64 with is_ptr */
    bool is_ptr;
    tt_dtype pt;                   /* is_ptr: the pointee's dtype, TT_DTYPE_COUNT when unknown */
    int rank;
    int64_t shape[IR_MAX_RANK];
    int64_t numel;
    void *data;                    /* numel * tt_dtype_size(dt) bytes, malloc'd */
    char *text;                    /* instead of data: a tuple of constexprs (a.shape) as Python prints it */
} dbg_value;

void dbg_value_free(dbg_value *v);
/* Evaluate a Triton expression in the selected frame of the stopped program
 * (or over constexprs and value history when nothing is stopped); the result
 * is not entered in the value history. Returns false after printing an error. */
bool dbg_eval(dbg_session *d, const char *expr, dbg_value *out);

/* Print formats (`print/x`): 0 natural, 'x' hex, 'd' signed, 'u' unsigned,
 * 't' binary, 'o' octal, 'c' char, 'f' float. */
/* Format v like numpy: brackets per dimension, at most `limit` elements
 * before eliding with "..." (numpy's threshold/edgeitems = 3), lines wrapped
 * at 80 columns; `indent` is the column where the text starts. Returns a
 * malloc'd string. */
char *dbg_format_value(const dbg_value *v, int fmt, int limit, int indent);
/* One line: "[1 2 3 ... 7 8 9]" (first and last 3 elements, flat), or the
 * scalar. Malloc'd. */
char *dbg_preview(const dbg_value *v, int fmt);
/* The type as shown by `whatis`: "f32[64, 64]", "i32", "ptr<f32>[128]". */
char *dbg_format_type(const dbg_value *v);

/* ---- completion (REPL) --------------------------------------------------- */

typedef enum { DBG_NAMES_VARS, DBG_NAMES_BUFFERS, DBG_NAMES_FUNCS, DBG_NAMES_FILES } dbg_names_kind;
/* Names of a kind visible now (variables: the selected frame's scope plus
 * constexprs), as a malloc'd NULL-terminated array of malloc'd strings. */
char **dbg_names(dbg_session *d, dbg_names_kind kind);
void dbg_names_free(char **names);

/* ---- commands ----------------------------------------------------------- */
/* Execution. Each returns once the launch stops again or finishes. */
int dbg_cmd_run(dbg_session *d, const char *args);        /* restart from fresh inputs */
int dbg_cmd_start(dbg_session *d, const char *args);      /* run, stop when the first program starts */
int dbg_cmd_continue(dbg_session *d, const char *args);   /* [N]: ignore this breakpoint N-1 more times */
int dbg_cmd_step(dbg_session *d, const char *args);       /* [N] next source line, into helpers */
int dbg_cmd_next(dbg_session *d, const char *args);       /* [N] next source line, over helper calls */
int dbg_cmd_stepi(dbg_session *d, const char *args);      /* [N] next IR op */
int dbg_cmd_finish(dbg_session *d, const char *args);     /* out of the selected helper frame */
int dbg_cmd_until(dbg_session *d, const char *args);      /* [LOCATION] */
int dbg_cmd_advance(dbg_session *d, const char *args);    /* LOCATION */
int dbg_cmd_kill(dbg_session *d, const char *args);

/* Breakpoints and watchpoints (one numbering). */
int dbg_cmd_break(dbg_session *d, const char *args);      /* LOCATION [pid (x,y,z)] [if COND] */
int dbg_cmd_tbreak(dbg_session *d, const char *args);
int dbg_cmd_condition(dbg_session *d, const char *args);  /* N [COND] */
int dbg_cmd_ignore(dbg_session *d, const char *args);     /* N COUNT */
int dbg_cmd_delete(dbg_session *d, const char *args);     /* [N...] */
int dbg_cmd_disable(dbg_session *d, const char *args);    /* [N...] */
int dbg_cmd_enable(dbg_session *d, const char *args);     /* [once|delete] [N...] */
int dbg_cmd_watch(dbg_session *d, const char *args);      /* BUFFER[INDEX] or BUFFER[LO:HI] */
int dbg_cmd_rwatch(dbg_session *d, const char *args);
int dbg_cmd_awatch(dbg_session *d, const char *args);
int dbg_cmd_info_breakpoints(dbg_session *d, const char *args);
int dbg_cmd_info_watchpoints(dbg_session *d, const char *args);

/* Programs and the schedule. */
int dbg_cmd_info_programs(dbg_session *d, const char *args);
int dbg_cmd_program(dbg_session *d, const char *args);    /* [(x,y,z)] */
int dbg_cmd_schedule(dbg_session *d, const char *args);   /* auto|in-order|reverse|random SEED */

/* Frames and source. */
int dbg_cmd_backtrace(dbg_session *d, const char *args);
int dbg_cmd_frame(dbg_session *d, const char *args);      /* [N] */
int dbg_cmd_up(dbg_session *d, const char *args);         /* [N] */
int dbg_cmd_down(dbg_session *d, const char *args);       /* [N] */
int dbg_cmd_list(dbg_session *d, const char *args);       /* [LINE|FUNC|FILE:LINE|A,B|-] */
int dbg_cmd_ir(dbg_session *d, const char *args);        /* [all] */
int dbg_cmd_info_frame(dbg_session *d, const char *args);
int dbg_cmd_info_line(dbg_session *d, const char *args);
int dbg_cmd_info_source(dbg_session *d, const char *args);

/* Values. */
int dbg_cmd_print(dbg_session *d, const char *args);      /* [/FMT] EXPR */
int dbg_cmd_output(dbg_session *d, const char *args);     /* like print, no history, no newline */
int dbg_cmd_whatis(dbg_session *d, const char *args);
int dbg_cmd_display(dbg_session *d, const char *args);    /* [/FMT] [EXPR] */
int dbg_cmd_undisplay(dbg_session *d, const char *args);  /* [N...] */
int dbg_cmd_info_display(dbg_session *d, const char *args);
int dbg_cmd_x(dbg_session *d, const char *args);          /* [/NFMT] BUFFER[INDEX] | EXPR */
int dbg_cmd_info_locals(dbg_session *d, const char *args);
int dbg_cmd_info_args(dbg_session *d, const char *args);
int dbg_cmd_info_buffers(dbg_session *d, const char *args);

/* Settings the engine owns: `set print elements N`, `set stop-on-fault on|off`. */
int dbg_cmd_set_print_elements(dbg_session *d, const char *args);
int dbg_cmd_set_stop_on_fault(dbg_session *d, const char *args);
int dbg_cmd_show_settings(dbg_session *d, const char *args);

#endif
