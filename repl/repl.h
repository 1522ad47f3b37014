/* repl.h — the `tritium` command-line program, shared between its files,
 * its tests (tests/repl) and its fuzz harnesses (tests/fuzz).
 *
 * A launch spec is handled in two steps:
 *
 *   1. repl_spec_parse: argv-style words -> repl_spec. Pure text work: no
 *      kernel, no file system, no front end. Values are classified here
 *      (tensor generator, .npy path, scalar/expression) and generator specs
 *      are checked (kind, dtype, shape syntax), so most typos are found
 *      before anything is loaded.
 *   2. repl_resolve: repl_spec + the kernel's parameter list -> launch.
 *      Values are resolved in dependency order (an expression may name any
 *      other parameter), expressions go through front_eval_host, tensors are
 *      generated or read from .npy files.
 *
 * Errors are printed through diag.h ("tritium: error: --arg x: ...", or with
 * a caret for errors inside an expression) and reported as false; nothing
 * here aborts on bad input. */
#ifndef TRITIUM_REPL_H
#define TRITIUM_REPL_H

#include <stdio.h>
#include "tritium/front.h"
#include "tritium/interp.h"
#include "tritium/launch.h"
#include "tritium/settings.h"

/* "No source position": diagnostics print as "tritium: error: ...". */
#define REPL_NOPOS ((src_pos){ -1, 0, 0 })

/* Exit statuses of every sub-command (docs/design.md, "The command line"). */
enum { REPL_EXIT_OK = 0, REPL_EXIT_KERNEL = 1, REPL_EXIT_INPUT = 2, REPL_EXIT_INTERRUPTED = 130 };   /* 130: 128 + SIGINT, as shells report it */

/* ---- step 1: parsing ----------------------------------------------------- */

typedef enum { VAL_EXPR, VAL_GEN, VAL_NPY, VAL_DESC, VAL_PTRS } repl_val_kind;

/* One `--arg NAME=SPEC`, `--const NAME=VALUE` or `--tensor NAME=SPEC`. */
typedef struct repl_value {
    char *name;
    char *text;                    /* SPEC as written */
    bool is_const;                 /* given with --const */
    bool extra;                    /* given with --tensor: a tensor that is no kernel
                                    * parameter, reached through desc() or ptrs() */
    bool from_comment;             /* from the file's "# tritium:" line */
    repl_val_kind kind;
    /* VAL_GEN: KIND:DTYPE[D0, D1, ...] */
    char *gen;                     /* randn rand zeros ones empty arange full */
    char *fill;                    /* full(V): V as written */
    tt_dtype dtype;
    int rank;                      /* 0..TT_MAX_RANK */
    char *dims[TT_MAX_RANK];       /* each an integer expression */
    /* VAL_NPY: path (joined to the kernel file's directory for comment
     * entries with relative paths); dtype is FILE.npy:DTYPE's DTYPE or
     * TT_DTYPE_COUNT */
    char *path;
    /* VAL_DESC: desc(X, block=[B0, ...][, shape=[...]][, strides=[...]]
     * [, padding="nan"][, round_f32_to_tf32=True]): items[0] = X, the block in rank/dims (constant
     * expressions), shape and strides (expressions, nd each; 0: X's shape,
     * row-major). VAL_PTRS: ptrs(A, B, ...): items = the tensor names. */
    char **items; int nitems;
    char *dshape[TT_MAX_RANK], *dstrides[TT_MAX_RANK];
    int nshape, nstrides;
    bool pad_nan;
    bool tf32;                     /* round_f32_to_tf32=True (Triton 3.7+) */
} repl_value;

/* One `--save NAME=FILE.npy` or `--expect NAME=FILE.npy[,rtol=R][,atol=A]`. */
typedef struct repl_check {
    char *name;
    char *path;
    bool from_comment;
    bool has_rtol, has_atol;
    double rtol, atol;
} repl_check;

/* Which options a parse accepts. The launch spec is the launch's syntax
 * (spec.c's table) and the settings a "# tritium:" line may carry
 * (settings.def rows with TT_CMD_COMMENT); a command's other settings are
 * taken out of argv first (repl_settings_take). */
enum {
    REPL_OPT_LAUNCH = 1,           /* --grid --arg --const --tensor --save --expect --kernel --path, and
                                    * the settings of scope launch (--num-warps --seed) */
    REPL_OPT_RUN = 2,              /* every other setting of the launch spec (--json --schedule
                                    * --schedule-seed --threads --numerics) */
    REPL_OPT_POSITIONAL = 4,       /* words not starting with '-' are collected */
};
/* The launch-spec settings that sub-command `cmd` (a TT_CMD_* bit) accepts. */
#define REPL_OPT_CMD(cmd) ((unsigned)(cmd) << 8)

/* One launch-spec option (spec.c's table). `key` says what a later
 * occurrence replaces (a "# tritium:" line vs the command line, the
 * debugger's `set` commands): the option itself, the parameter named before
 * '=' (--arg x and --const x are one name), or option and parameter
 * (--save x, --expect x). */
typedef enum { REPL_KEY_OPTION, REPL_KEY_PARAM, REPL_KEY_OPTION_PARAM } repl_key;
typedef struct repl_option {
    const char *name;              /* "--grid" */
    int id;                        /* spec.c's own */
    bool takes_value;
    repl_key key;
    int setting;                   /* its settings.def row; -1: launch syntax */
} repl_option;
/* The launch-spec option of a word "--opt" or "--opt=VALUE", or NULL. */
const repl_option *repl_spec_option(const char *word);

typedef struct repl_spec {
    char *kernel;                  /* --kernel NAME, or NULL */
    bool kernel_from_comment;
    char *grid;                    /* --grid text, or NULL */
    bool grid_from_comment;
    repl_value *vals; int nvals;   /* in the order given (comment first) */
    repl_check *saves; int nsaves;
    repl_check *expects; int nexpects;
    /* the settings (settings.def): the command's (repl_resolve_opts.settings)
     * or the environment's, then the "# tritium:" line's, then the command
     * line's launch-spec settings (num_warps, seed, json, schedule, ...) */
    tt_settings set;
    char **owned; int nowned;      /* copies of the words set's strings point to */
    char **positional; int npositional;
    char **paths; int npaths;      /* --path DIR (repeatable): module search directories */
} repl_spec;

void repl_spec_init(repl_spec *s);
/* The --arg/--const entry for `name`, or NULL. */
const repl_value *repl_spec_value(const repl_spec *s, const char *name);
void repl_spec_free(repl_spec *s);

/* Parse argv[0..argc) (options only; no program or sub-command name) into s.
 * Options already in s are replaced per name (--arg x, --const x, --save x,
 * --expect x, --grid, --seed, ...) so that parsing the "# tritium:" line
 * first and the command line second gives command-line precedence; giving
 * the same name twice in one call is an error. `from_comment` marks the
 * entries and tailors messages; `base_dir` (may be NULL) is joined to
 * relative .npy paths. Both "--opt VALUE" and "--opt=VALUE" are accepted.
 * Returns false after printing an error (unknown options get a "did you
 * mean" suggestion). */
bool repl_spec_parse(repl_spec *s, int argc, char *const *argv, unsigned allowed,
                     bool from_comment, const char *base_dir);

/* Split text into words like a POSIX shell would (whitespace separates;
 * '...' literal; "..." with \" \\ \$ \` escapes; \ escapes outside quotes;
 * no expansions). On success *argv is a NULL-terminated malloc'd array of
 * malloc'd strings (free with repl_words_free). Returns false with a reason
 * in err for an unterminated quote or trailing backslash. */
bool repl_split_words(const char *text, int *argc, char ***argv, char *err, size_t errlen);
void repl_words_free(int argc, char **argv);

/* Levenshtein distance of two strings, capped at 100 (suggestions). */
int repl_edit_distance(const char *a, const char *b);

/* The closest of `n` candidates to `word` within a distance worth
 * suggesting (about a third of the word, and less than all of it), or
 * NULL. */
const char *repl_suggest(const char *word, const char *const *cands, int n);

/* ---- step 2: resolving --------------------------------------------------- */

typedef struct repl_resolve_opts {
    const char *kernel;            /* for messages */
    bool no_files;                 /* refuse .npy arguments (fuzzing) */
    bool types_only;               /* tensors get shape and dtype but stay zero
                                    * (tritium ir) */
    bool no_data;                  /* generated tensors get only shape and dtype,
                                    * data NULL (tritium check --for-all) */
    bool need_grid;                /* a missing --grid is an error */
    int64_t max_numel;             /* per generated tensor; 0: no limit but
                                    * tt_tensor_new's */
    const tt_settings *settings;   /* repl_target_open: the command's settings that the
                                    * spec's start from; NULL: the environment's */
} repl_resolve_opts;

/* Bind every parameter of the kernel: runtime parameters become launch
 * args (kernel order; tensors owned by the launch), constexpr parameters
 * with a given value become launch consts, grid / num_warps / seed are set.
 * Int scalars are typed as Triton's specialize.cc does: i32 when the value
 * fits int32, else i64, else u64 (docs/reference/triton-semantics.md §2.14);
 * floats are f32, bools i1; an annotated parameter (`n: tl.int64`) forces
 * its type. Generated tensors draw from Philox stream = parameter index,
 * keyed by the spec's --seed (default 0). Missing and unknown names, cycles
 * between expressions and type mismatches are errors naming the parameter.
 * On failure out is left empty (launch_free'd). */
bool repl_resolve(const repl_spec *s, const front_param *params, int nparams,
                  const repl_resolve_opts *o, launch *out);

/* Parse an integer literal the way Python reads one: decimal, 0x, 0o, 0b,
 * underscores between digits, optional sign. Values up to 2^64-1 are
 * accepted; *is_u64 is set when the value is above INT64_MAX (then *v holds
 * its bits). Returns false when the text is not such a literal or out of
 * range. */
bool repl_parse_int(const char *s, int64_t *v, bool *is_u64);
/* A float literal (Python syntax plus inf / nan, optional sign); integer
 * literals in decimal are accepted too. */
bool repl_parse_float(const char *s, double *v);

/* Split s at commas outside (), [], {} and quotes, trimming each part; a
 * final trailing comma adds no empty part, but "" gives one empty part.
 * Returns the count; free with repl_free_parts. */
int repl_split_commas(const char *s, char ***parts);
void repl_free_parts(int n, char **parts);

/* ---- checks after a run (--expect) -------------------------------------- */

typedef struct repl_expect_result {
    char *name;
    int64_t numel;
    int64_t mismatches;
    double max_abs, max_rel;       /* over all elements (finite pairs only) */
    double rtol, atol;
    bool ok;
} repl_expect_result;

/* Compare got with expected by numpy.allclose's rule |a-b| <= atol +
 * rtol*|b| (b = expected; NaN equals NaN; equal infinities equal). Integer
 * tensors compare exactly unless a tolerance was given. Shapes must match
 * (the caller checks). Prints the per-element report of the first `show`
 * mismatches to f when f is not NULL. */
void repl_compare(const tt_tensor *got, const tt_tensor *expected, bool has_rtol, double rtol,
                  bool has_atol, double atol, int show, FILE *f, repl_expect_result *res);

/* ---- sub-commands --------------------------------------------------------- */

/* A kernel file opened for a launch: module, kernel, merged spec, launch. */
typedef struct repl_target {
    char *file;
    char *kernel;
    front_module *mod;
    const front_param *params; int nparams;
    repl_spec spec;                /* comment line merged with the command line */
    launch launch;
    bool have_launch;
} repl_target;

/* Parse `FILE.py[:KERNEL] [options]`, load the file, pick the kernel, merge
 * the "# tritium:" line with argv and resolve the launch. Returns
 * REPL_EXIT_OK or REPL_EXIT_INPUT (after printing why). */
int repl_target_open(repl_target *t, int argc, char *const *argv, unsigned allowed,
                     const repl_resolve_opts *o);
void repl_target_close(repl_target *t);
/* Compile the target's kernel for its launch; NULL after a diagnostic. */
ir_func *repl_target_compile(repl_target *t);

/* `tritium run ...` and `tritium ir ...`: argv starts after the sub-command
 * name. Return the process exit status. */
int repl_cmd_run(int argc, char *const *argv);
int repl_cmd_ir(int argc, char *const *argv);
/* `--check WHAT` of `tritium run` (check_opts.c). */
typedef struct repl_checks {
    int determinism;               /* runs under different schedules; 0: off */
    interp_ovf overflow;           /* int overflow checks (default: values reaching an address) */
} repl_checks;
/* The checks of the settings' --check words (check_opts.c). False after an
 * error message. */
bool repl_checks_parse(const tt_settings *s, repl_checks *c);

/* Take the words of sub-command `cmd`'s settings (rows of settings.def
 * accepted by cmd, a TT_CMD_* bit) out of argv[0..argc) and parse them into
 * s, which the caller initialized (tt_settings_copy of tt_settings_env()).
 * The launch spec's settings stay in argv unless spec_rows (a command with
 * no launch spec, the debugger's diff); so does the value of a launch-spec
 * option (--kernel --llvm). *rargv: a malloc'd array (free it; its words
 * are argv's) of the *rargc other words. False after an error message
 * ("--numerics fast2: expected one of ieee, fast, gpu"), with *rargv NULL. */
bool repl_settings_take(int argc, char *const *argv, unsigned cmd, bool spec_rows, tt_settings *s, int *rargc,
                        char ***rargv);
/* The seed of --schedule random: random:N's, else --schedule-seed's, else
 * the launch's seed. */
uint64_t repl_sched_seed(const tt_settings *s, uint64_t launch_seed);

/* Run the launch of argv again from fresh inputs under `runs - 1` other
 * schedules (in-order, reverse, random:0, random:1, ... skipping the first
 * run's base_sched/base_seed) until one gives different
 * final bits in some tensor; report up to `show` differing elements per
 * tensor to out with their value and writer (program, line) in both runs.
 * base/base_s/base_fn: the first run. Returns the number
 * of differing elements, or -1 when a run could not be made (after a
 * message). */
int64_t repl_determinism(const repl_target *base, interp_session *base_s, const ir_func *base_fn, int argc,
                         char *const *argv, int runs, interp_sched base_sched, uint64_t base_seed, int show, FILE *out);

/* `tritium check ...`: proof mode (check_cmd.c). */
int repl_cmd_check(int argc, char *const *argv);

/* Usage texts: command NULL for the program, "run" or "ir". */
void repl_print_usage(FILE *f, const char *command);
/* The launch-spec part of the usage text. */
void repl_print_spec_help(FILE *f);
/* Whether argv holds --help or -h. */
bool repl_wants_help(int argc, char *const *argv);

#endif
