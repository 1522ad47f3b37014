/* front.h — the front end: finds @triton.jit functions and module-level
 * constexpr globals in an ordinary .py file, and compiles one kernel,
 * specialized for a launch, into IR (helpers inlined, constexprs folded).
 *
 * Semantics follow Triton 3.6 (docs/reference/triton-semantics.md). Everything
 * unsupported is a diagnostic "file:line:col: error: ..." naming the construct;
 * nothing is silently miscompiled. */
#ifndef TRITIUM_FRONT_H
#define TRITIUM_FRONT_H

#include "tritium/ir.h"
#include "tritium/launch.h"

typedef struct front_module front_module;

/* Parse a file (or a text registered under `name`). Only jit functions and
 * constexpr globals are parsed as kernel code; the rest of the file is
 * skipped line by line. Returns NULL after printing diagnostics. */
front_module *front_load(const char *path);
front_module *front_load_text(const char *name, const char *text);
/* A live module (compiler/front/live.c): the kernel and the jit functions it
 * reaches with the values Python resolved for their names, as JSON
 * (python/tritium/_resolve.py writes it; `name` is used in diagnostics).
 * front_load takes a path ending in ".json" as one. NULL after diagnostics. */
front_module *front_load_live(const char *name, const char *json);
void front_module_free(front_module *m);
/* Add a directory to the module search path (--path DIR), searched after the
 * kernel file's package root and directory, before PYTHONPATH and the
 * sys.path of the python3 on PATH. Imports are resolved when a kernel uses
 * an imported name, so this may follow front_load. */
void front_add_path(front_module *m, const char *dir);

/* The jit functions in source order. */
int front_function_count(const front_module *m);
const char *front_function_name(const front_module *m, int i);
/* The file's "# tritium: ..." launch lines joined with spaces ("" if none). */
const char *front_launch_comment(const front_module *m);
/* Source file id (diag.h) of the module. */
int front_file(const front_module *m);
/* Whether `name` ("triton.language.math") is a module of Triton that
 * kernels may use, by its full name (sema_expr.c's table). */
bool front_triton_module(const char *name);

/* A kernel parameter as declared. */
typedef struct front_param {
    const char *name;
    bool is_constexpr;             /* annotated tl.constexpr */
    bool has_default;              /* the default is a literal (number, bool, string, None) */
    launch_const def;              /* that default */
    bool annotated_dtype;          /* e.g. `x: tl.int64`: forces the runtime type */
    tt_dtype annot;
    bool no_specialize;            /* named in @triton.jit(do_not_specialize=[...]) */
} front_param;

/* The index of jit function `kernel`: "NAME" is the last definition of that
 * name (as Python's module namespace keeps it); "NAME@LINE" the first one of
 * the kernel file whose `def` is on line LINE or after it (LINE: the def's
 * line or its first decorator's, as a Python code object's co_firstlineno
 * gives it; several kernels of one name, nested kernels). With user_only, functions of imported files are not searched.
 * -1 when there is none. */
int front_find_function(const front_module *m, const char *kernel, bool user_only);

/* Parameters of jit function `kernel` (NAME or NAME@LINE); returns the count or -1 when there is
 * no such function. The array stays valid while m lives. */
int front_params(const front_module *m, const char *kernel, const front_param **out);

/* Compile `kernel` for launch l: runtime parameters take their types from
 * l->args (tensor -> pointer to its dtype, ARG_INT -> its dtype, ARG_FLOAT ->
 * f32), constexpr parameters their values from l->consts or their defaults.
 * The result is verified. Returns NULL after printing diagnostics. */
ir_func *front_compile(front_module *m, const char *kernel, const launch *l);
/* The Triton release whose language the front end follows, as its minor
 * version (Triton 3.N: N, 6..9): settings.def TRITON_VERSION
 * (TRITIUM_TRITON_VERSION, default 3.9) unless front_set_triton_version
 * gave one (-1: back to the setting). sema_version.c lists what differs. */
int front_triton_version(void);
void front_set_triton_version(int minor);

/* ---- debugger expressions ----------------------------------------------
 * `print acc[:, None] * 2` in a stopped program: the expression is compiled
 * by the front end against the program's visible variables and run by the
 * interpreter as a one-program launch. */

/* A variable visible at the stop point. Tensor values are passed to the
 * expression kernel as a pointer to a dense row-major copy of the tile
 * (pointers as u64 addresses); constexprs as values. */
typedef struct front_var {
    const char *name;
    bool is_const;                 /* a constexpr (kernel constexpr parameter, ...) */
    launch_const cval;             /* is_const */
    tt_dtype dt, pt;               /* tensors: element dtype (TT_PTR: pointer to pt) */
    int rank;
    int64_t shape[IR_MAX_RANK];
} front_var;

/* Compile EXPR (Triton expression syntax: names, tl.* calls, operators,
 * x[:, None]) into a kernel "__expr" whose runtime parameters are, in order:
 * one pointer `NAME` per tensor variable the expression uses (dtype `dt`, or
 * TT_U64 for pointer tiles), then `__out`, a pointer to the result's dtype.
 * The kernel loads each used tile whole, evaluates EXPR and stores the result
 * (shape *rank/shape) densely to __out. *used receives the indices (into
 * vars) of the tensor variables used, in parameter order (malloc'd, caller
 * frees); *out_dt the result's dtype (TT_U64 for pointers). `origin` names the
 * text in diagnostics. An expression whose value is a tuple of constexprs
 * (`a.shape`, `(1, 2)`) has no kernel: NULL is returned with *tuple set to
 * Python's text of it, "(64, 32)" (malloc'd; tuple may be NULL, and *tuple
 * is NULL otherwise). Returns NULL after a diagnostic. */
ir_func *front_compile_expr(front_module *m, const char *origin, const char *text,
                            const front_var *vars, int nvars,
                            int **used, int *nused, tt_dtype *out_dt, int *rank, int64_t *shape, char **tuple);

/* ---- host expressions (launch specs: --grid, --arg n=numel(x)) --------- */

typedef enum { HV_INT, HV_FLOAT, HV_BOOL, HV_STR, HV_NONE, HV_TENSOR, HV_TUPLE } hostval_kind;
typedef struct hostval {
    hostval_kind kind;
    int64_t i;                     /* INT, BOOL */
    double f;
    const char *s;                 /* STR: static or owned by the caller */
    const tt_tensor *t;            /* TENSOR */
    int n; int64_t tup[3];         /* TUPLE of ints (grids) */
} hostval;

/* Resolve a name; return false when unknown. */
typedef bool (*front_lookup_fn)(void *user, const char *name, hostval *out);

/* Evaluate a Python expression with Python semantics (floor //, %, **):
 * literals, names, arithmetic, comparisons, tuples of ints, and the calls
 * cdiv(a, b) (also triton.cdiv), min, max, int, float, len,
 * next_power_of_2, numel(t) / t.numel(), t.shape[i], t.stride(i).
 * `origin` names the input in diagnostics ("--grid"). Returns false after
 * printing a diagnostic with a caret under the offending token. */
bool front_eval_host(const char *origin, const char *text, front_lookup_fn lookup, void *user, hostval *out);

#endif
