/* dbg_int.h — shared declarations of the debugging engine's files.
 *
 *   session.c   loading, the worker thread and the stop/resume handshake
 *   parse.c     shared helpers: printing, errors, integer and pid tokens
 *   location.c  breakpoint locations: parsing and resolving LINE/FILE:LINE/FUNC
 *   sched.c     which program runs next (schedules, `program`), info programs
 *   hook.c      the interpreter hook: every stop decision
 *   exec.c      execution commands (run, continue, step, ...) and stop reports
 *   bpt.c       breakpoints: break, delete, enable, condition, info breakpoints
 *   watch.c     watchpoints on buffer elements
 *   lines.c     statement lines of a source file, per-op line table, list
 *   frames.c    frames from the inline call chain, backtrace, visible variables
 *   eval.c      expressions (front_compile_expr run in a fresh interpreter
 *               session), print, display, value history, x, info locals/args
 *   format.c    numpy-style value formatting
 *   buffers.c   buffer references (out[17], out[3:9]) and info buffers
 *   irview.c    the `ir` command
 *
 * Threads: the launch runs on a worker thread; the main thread waits while it
 * runs, and the worker waits while the main thread handles commands at a
 * stop. Only one of them touches the session at a time (d->mu hands over). */
#ifndef TRITIUM_DEBUGGER_INT_H
#define TRITIUM_DEBUGGER_INT_H

#include <pthread.h>
#include <signal.h>
#include <string.h>

#include "tritium/debugger.h"
#include "tritium/diag.h"

/* The session's flags that signal handlers and other threads touch:
 * atomics (lock-free, so async-signal-safe; ThreadSanitizer sees no race). */
#define FLAG_GET(x) __atomic_load_n(&(x), __ATOMIC_SEQ_CST)
#define FLAG_SET(x, v) __atomic_store_n(&(x), (v), __ATOMIC_SEQ_CST)

#define DBG_MAX_FRAMES 64

/* ---- per-op static information ---------------------------------------- */

enum { OPF_BPLINE = 1, OPF_FUNC = 2, OPF_MEM = 4, OPF_ENTRY = 8 };
enum { OK_OTHER, OK_TERM, OK_LOAD, OK_STORE, OK_ATOMIC };

typedef struct dbg_opinfo {
    int32_t loc;                   /* ir_loc id or -1 */
    int32_t file;                  /* diag file id, -1 unknown */
    int32_t line;                  /* statement line, 0 unknown (and for terminators) */
    int32_t inst;                  /* innermost inline instance: the call-site loc, -1 top */
    int32_t pos;                   /* index of its position at level 0 in d->pos, -1: none */
    int16_t depth;                 /* inlined calls around the op (its level) */
    uint8_t kind;                  /* OK_* */
    uint8_t flags;                 /* OPF_* */
} dbg_opinfo;

/* Where an op is as seen from each frame: level 0 is the kernel, level
 * `depth` the op's own frame. Below the op's own level the line is the line
 * of the call being executed in that frame. */
typedef struct dbg_pos {
    int32_t file, line;            /* statement line */
    int32_t inst;                  /* the frame's instance (call-site loc, -1 kernel) */
    const char *func;              /* the frame's function */
} dbg_pos;

/* ---- statement lines of a source file ---------------------------------- */

typedef struct dbg_lines {
    int file;
    int nlines;
    int *stmt;                     /* [1..nlines]: first line of the statement holding the line */
    bool *code;                    /* [1..nlines]: some op of the kernel is on this statement line */
} dbg_lines;

/* ---- breakpoints --------------------------------------------------------- */

enum { BP_LINE, BP_FUNC, BP_PID, BP_WATCH, BP_RWATCH, BP_AWATCH };
enum { DISP_KEEP, DISP_DEL, DISP_DIS };

typedef struct dbg_bp {
    int num;
    int kind;
    int disp;                      /* DISP_*: tbreak deletes, `enable once` disables */
    bool enabled;
    char *what;                    /* the location as typed */
    /* BP_LINE */
    char *file;                    /* file name as typed, NULL: the kernel's file */
    int line;                      /* requested */
    int rfile, rline;              /* resolved (diag file id, statement line); rline 0: pending */
    /* BP_FUNC */
    char *func;
    bool func_is_kernel;
    int nlocs;                     /* ops (line) or instances (func) found */
    /* pid filter (BP_PID: the program itself); -1 matches any */
    bool has_pid;
    int64_t pidf[3];
    int64_t cursor;                /* schedule: next candidate in the pid box */
    char *cond;
    int64_t hits, ignore;
    /* watchpoints */
    int warg;                      /* launch argument */
    int64_t wlo, whi;              /* elements [wlo, whi) */
    char *wname;
} dbg_bp;

/* ---- displays and history ----------------------------------------------- */

typedef struct dbg_display {
    int num;
    char *expr;
    int fmt;
    bool enabled;
} dbg_display;

/* ---- expression cache --------------------------------------------------- */

/* A variable visible in a frame. */
enum { VAR_LOCAL, VAR_ARG, VAR_CONST, VAR_HIST, VAR_TEMP };
typedef struct dbg_var {
    const char *name;
    int kind;
    ir_value v;                    /* LOCAL, ARG */
    launch_const cval;             /* CONST */
    int hist;                      /* HIST: index into history */
    const dbg_value *val;          /* TEMP: a part of the expression evaluated first (x[0:4], *p) */
} dbg_var;
typedef VEC(dbg_var) dbg_var_vec;


typedef struct dbg_expr {
    char *text;
    int32_t g;                     /* global op the scope was taken at (-1: no program) */
    int frame;
    ir_func *fn;                   /* NULL: compile failed (not cached) */
    int *used; int nused;
    dbg_var *uvars;                /* the used variables (names owned) */
    tt_dtype dt;
    int rank;
    int64_t shape[IR_MAX_RANK];
    bool is_ptr;
    tt_dtype pt;
    char *tuple;                   /* a tuple of constexprs: Python's text of it (no fn) */
    launch l;                      /* inputs and __out, reused at each evaluation */
    bool have_l;
    interp_session *es;
} dbg_expr;


/* ---- the session --------------------------------------------------------- */

enum { W_NONE, W_RUNNING, W_STOPPED, W_DONE };
enum { R_NONE, R_GO, R_ABORT };
enum { STEP_NONE, STEP_INTO, STEP_OVER, STEP_INSN, STEP_FINISH, STEP_UNTIL, STEP_TO };
enum { SCHED_MODE_AUTO, SCHED_MODE_IN_ORDER, SCHED_MODE_REVERSE, SCHED_MODE_RANDOM };

typedef struct dbg_step {
    int kind;                      /* STEP_* */
    int64_t count;                 /* stops still to make */
    int64_t prog;                  /* linear id of the program the step started in */
    int fdepth;                    /* outer index of the frame (0: kernel) */
    int32_t finst;                 /* its instance */
    int file, line;                /* line it started at (until) */
    int tfile, tline;              /* STEP_TO / STEP_UNTIL target, tline 0: none */
    bool newprog;                  /* the program ended: stop in the next one */
} dbg_step;

typedef struct dbg_wpend {
    bool active;
    int bp;
    int nhit;
    int64_t elem[8];               /* elements written (first 8) */
    int64_t total;
    unsigned char old[8][8];       /* their old values */
    int32_t g;                     /* the writing op */
} dbg_wpend;

struct dbg_session {
    FILE *out, *err;
    interp_options iopt;

    /* the loaded kernel */
    front_module *mod;
    char *kernel;
    int kfile;                     /* the module's file id */
    const front_param *params; int nparams;
    launch pristine;
    bool loaded;
    ir_func *fn;
    int *opbase;                   /* per region: global index of op 0 */
    int nops;
    dbg_opinfo *ops;
    int32_t *gregion;              /* per global op: its region */
    dbg_pos *pos;                  /* positions per level of every op with a line */
    VEC(dbg_lines) lines;

    /* the running (or last) launch */
    launch live;
    bool have_live;
    interp_session *s;
    pthread_t th;
    bool th_alive;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    int wstate;                    /* W_* */
    int resume;                    /* R_* */
    /* running, interrupt, busy, quit: written by the worker, by SIGINT
     * handlers (on any thread) and by other threads: only through
     * FLAG_GET/FLAG_SET */
    volatile sig_atomic_t running;
    volatile sig_atomic_t interrupt;
    volatile sig_atomic_t busy;    /* a command is executing (dbg_command_begin) */
    volatile sig_atomic_t quit;    /* Ctrl-C during a command: give up at the next dbg_quit */
    bool quit_said;                /* "Quit" was printed for this command */
    bool finished;                 /* the last launch ran to its end */

    /* programs */
    int64_t grid[3], nprog;
    uint8_t *done;                 /* bitmap of programs started */
    int64_t ndone;
    int64_t cur;                   /* linear id of the current (or last) program, -1 */
    bool in_prog;                  /* cur is stopped inside (not finished) */
    int64_t base_cursor;
    int sched_mode;
    uint64_t sched_seed;
    int64_t next_req;              /* `program`: run this one next, -1 */
    bool next_req_hit;             /* the program starting now was chosen with `program` */
    interp_order order;            /* the base order (not `auto`'s pid layer) */

    /* hook state (worker) */
    bool pstart;                   /* the next hook call is the program's first op */
    dbg_pos pp[DBG_MAX_FRAMES];    /* position of the previous op with a line, per level */
    int pp_n;                      /* levels of pp whose line still counts (loops reset) */
    int pi_n;                      /* levels of pp whose instance still counts */
    int pp_depth;                  /* levels in pp - 1, -1: none */
    int32_t prev_g;                /* previous op seen in this program, -1 */
    int32_t cur_region, cur_op;
    interp_stats last_stats;
    bool need_trap;                /* this program needs the trap */

    dbg_step step;
    dbg_wpend wpend;

    /* the stop */
    dbg_stop_info stop;
    strbuf stop_msg;               /* printed before the location (watch values, faults) */
    int sel_frame;
    int vlevel;                    /* level of the innermost frame shown at the stop */
    int stop_file;                 /* diag file id of the stop's line, -1 */
    bool in_cond;                  /* the hook is evaluating a condition at d->stop */
    int hidden;                    /* inlined frames below it not shown yet (`step` enters them) */
    int64_t prev_stop_prog;        /* to print "[Switching to program ...]" */
    int32_t prev_stop_inst;
    const char *prev_stop_func;
    int launch_status;

    bool stop_on_fault;
    int print_elements;

    /* breakpoints */
    VEC(dbg_bp *) bps;
    int next_bp;
    int nwatch;                    /* enabled watchpoints */
    bool any_unfiltered_code_bp;   /* enabled line/func bp without a pid filter */

    VEC(dbg_display) displays;
    int next_display;
    VEC(dbg_value) history;

    /* list */
    int list_file, list_first, list_last;

    VEC(dbg_expr) exprs;           /* compiled expressions (cleared on load) */
    arena names;                   /* names made up for scopes (call results) */
};

/* ---- helpers shared between files (parse.c) -------------------------------- */

int dbg_error(dbg_session *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void dbg_printf(dbg_session *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Ctrl-C came during this command: true (after printing "Quit" once). Long
 * loops check it and return -1; dbg_printf prints nothing after it. */
bool dbg_quit(dbg_session *d);
/* Write a long text to out line by line, giving up on Ctrl-C. */
void dbg_puts_lines(dbg_session *d, const char *s);

/* Skip spaces; parse tokens. */
const char *dbg_skip(const char *s);
/* Parse an integer (decimal or 0x) at *s; advances. */
bool dbg_parse_int(const char **s, int64_t *v);
/* Whether the rest of s is blank. */
bool dbg_blank(const char *s);

/* pid <-> linear: interp_pid_of / interp_lin_of on d->grid */
/* Parse "(x[,y[,z]])" or "x" with '*' wildcards (-1) when allow_wild. */
bool dbg_parse_pid(const char **s, int64_t pid[3], bool allow_wild);
char *dbg_pid_str(const int64_t pid[3], char *buf, size_t n);

/* session.c */
bool dbg_live_new(dbg_session *d);            /* fresh inputs + interpreter session */
void dbg_live_free(dbg_session *d);
/* Start the worker; returns after the first stop or the end. */
void dbg_launch_start(dbg_session *d);
/* Resume the stopped worker with R_GO / R_ABORT; returns after the next stop
 * or the end (printing the end of the launch). */
void dbg_resume(dbg_session *d, int how);
/* Worker side: wait at a stop; returns R_GO or R_ABORT. */
int dbg_worker_wait(dbg_session *d);
void dbg_launch_end_report(dbg_session *d);

/* sched.c */
void dbg_sched_reset(dbg_session *d);
int64_t dbg_sched_next(dbg_session *d);
bool dbg_done(const dbg_session *d, int64_t lin);
void dbg_set_done(dbg_session *d, int64_t lin);
const char *dbg_sched_name(const dbg_session *d, char *buf, size_t n);

/* hook.c */
interp_hook_action dbg_hook(void *user, interp_session *s, const interp_frame *fr);
/* Whether program lin needs the trap from its start. */
bool dbg_prog_needs_trap(dbg_session *d, int64_t lin);
bool dbg_pid_match(const int64_t f[3], const int64_t pid[3]);
/* A program is stopped (or a condition is being evaluated in the hook) and
 * frames and values of its current op can be read. */
bool dbg_have_frame(const dbg_session *d);
/* Evaluate a breakpoint condition in the stopped program; true also when
 * the evaluation failed (after printing why), like gdb. */
bool dbg_cond_true(dbg_session *d, dbg_bp *b);

/* bpt.c */
void dbg_bp_resolve_all(dbg_session *d);      /* after a load or a change */
void dbg_bp_flags(dbg_session *d);            /* recompute OPF_BPLINE / OPF_FUNC */
dbg_bp *dbg_bp_find(dbg_session *d, int num);
void dbg_bp_delete(dbg_session *d, dbg_bp *b);
void dbg_bp_free_all(dbg_session *d);

/* location.c */
/* Parse a location "[FILE:]LINE | FUNCTION"; resolves against the kernel. */
enum { LOC_LINE = 1, LOC_FUNC = 2 };
typedef struct dbg_loc { int kind; char *file; int line; char *func; int rfile, rline; } dbg_loc;
bool dbg_parse_location(dbg_session *d, const char **s, dbg_loc *loc);
void dbg_loc_free(dbg_loc *l);
/* The statement line of (file, line) that has code: line itself or the
 * next one with code; 0 when none. */
int dbg_resolve_line(dbg_session *d, int file, int line);
int dbg_find_file(dbg_session *d, const char *name);
/* Inlined instances (calls) of jit function `name` in the kernel. */
int dbg_count_instances(dbg_session *d, const char *name);

/* watch.c */
void dbg_watch_check(dbg_session *d, int32_t g, int *reason, int *bpn);
void dbg_watch_finish(dbg_session *d, int *reason, int *bpn);
bool dbg_parse_bufref(dbg_session *d, const char *text, int *arg, int rank_max, int64_t *lo, int64_t *hi, bool *is_slice, const char **end);

/* lines.c */
dbg_lines *dbg_lines_get(dbg_session *d, int file);
int dbg_stmt_line(dbg_session *d, int file, int line);
void dbg_ops_build(dbg_session *d);
void dbg_ops_free(dbg_session *d);
/* Line text of a physical line ("" past the end). */
const char *dbg_src_line(int file, int line);
/* The `def NAME(` line of a function in file, 0 if not found. */
int dbg_def_line(int file, const char *name);
void dbg_print_src_line(dbg_session *d, int file, int line);

/* frames.c */
typedef struct dbg_frameinfo {
    int32_t inst;                  /* the frame's instance (call-site loc, -1 top) */
    int file, line;                /* statement line */
    const char *func;
} dbg_frameinfo;
/* Frames of the stopped op (innermost first); returns the count (0 when
 * nothing is stopped). */
int dbg_frames(dbg_session *d, dbg_frameinfo *fr, int max);
/* Outer-index chain of a location: inst[0] = -1 (kernel), inst[k] = call site
 * of the k-th inlined call; returns depth+1. */
int dbg_loc_chain(const ir_func *f, int32_t loc, int32_t *inst, int max);
/* Variables visible in frame `frame` (0: innermost) of the stopped program. */
void dbg_scope(dbg_session *d, int frame, dbg_var_vec *out, bool with_consts);
void dbg_print_frame_line(dbg_session *d, int frame, bool with_program);

/* eval.c */
bool dbg_eval_in(dbg_session *d, const char *text, int frame, dbg_value *out);
void dbg_show_displays(dbg_session *d);
void dbg_expr_cache_clear(dbg_session *d);
void dbg_history_clear(dbg_session *d);
/* Value of a variable as dbg_value (copy). */
bool dbg_var_value(dbg_session *d, const dbg_var *v, dbg_value *out);

/* `watch *(PTR)`: the elements the pointer expression after '*' reaches, as
 * one run [*lo, *hi) of buffer *arg; false after an error. */
bool dbg_deref_run(dbg_session *d, const char *text, int *arg, int64_t *lo, int64_t *hi);

/* buffers.c */
int dbg_buf_arg(dbg_session *d, const char *name, size_t len);
/* Element e of tensor argument arg as a scalar dbg_value. */
void dbg_buf_elem(dbg_session *d, int arg, int64_t e, dbg_value *out);
char *dbg_elem_str(dbg_session *d, int arg, int64_t e);
/* "out[3, 4]" for element e (multi-dimensional when rank > 1). */
char *dbg_elem_name(dbg_session *d, int arg, int64_t e);
tt_tensor *dbg_buf_tensor(dbg_session *d, int arg);
/* Try to read `text` as a buffer slice (print out[17:33]); true when it was
 * one (out filled, or *failed set after an error). */
bool dbg_buf_read_expr(dbg_session *d, const char *text, dbg_value *out, bool *failed);
/* `BUFFER`, `(BUFFER + K)` with K a host expression: the buffer's element K
 * (the kernel's pointer before any program changed it). 1 when text is one,
 * 0 when not, -1 after an error. */
int dbg_buf_flat_ref(dbg_session *d, const char *text, int *arg, int64_t *elem);

/* index.c: numpy basic indexing (integers, slices with steps, None, one
 * ellipsis) of a value of shape sshape[srank]. */
typedef struct dbg_index {
    int srank;                     /* of the indexed value */
    int64_t start[TT_MAX_RANK];    /* per indexed dimension: first index, */
    int64_t step[TT_MAX_RANK];     /* step (negative: backwards) */
    int64_t count[TT_MAX_RANK];    /* and how many */
    bool kept[TT_MAX_RANK];        /* a slice (kept) or an integer (dropped) */
    int rank;                      /* of the result (None adds dimensions) */
    int64_t shape[TT_MAX_RANK];
    int64_t numel;
} dbg_index;
/* Evaluate one integer index expression [s, e); *empty when it is blank. */
typedef bool (*dbg_index_eval_fn)(dbg_session *d, void *user, const char *s, const char *e, bool *empty, int64_t *v);
/* Whether the subscript text [s, e) is one the front end compiles (only ':' and None). */
bool dbg_index_is_native(const char *s, const char *e);
/* Parse the subscript text [s, e) (without the brackets) against the shape;
 * false after printing numpy's error. */
bool dbg_index_parse(dbg_session *d, const char *s, const char *e, int srank, const int64_t *sshape,
                     dbg_index_eval_fn eval, void *user, dbg_index *out);
/* Row-major flat offset in the source of the i-th selected element. */
int64_t dbg_index_elem(const dbg_index *ix, const int64_t *sshape, int64_t i);
void dbg_index_apply(const dbg_value *v, const dbg_index *ix, dbg_value *out);

/* format.c */
char *dbg_elem_format(const dbg_value *v, int64_t i, int fmt);
/* dbg_format_value that stops early (returning what it has) once *stop is set. */
char *dbg_format_value_until(const dbg_value *v, int fmt, int limit, int indent, const volatile sig_atomic_t *stop);

#endif
