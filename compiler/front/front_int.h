/* front_int.h — the front end's internal interfaces: the module (parsed
 * file) and the semantic analyser that turns a jit function into IR. */
#ifndef FRONT_INT_H
#define FRONT_INT_H

#include <setjmp.h>
#include "tritium/front.h"
#include "ast.h"

typedef struct global {
    const char *name;
    node *value;             /* expression */
    bool is_constexpr;       /* NAME = tl.constexpr(...) */
    bool annotated;          /* NAME: tl.constexpr = ...: not constexpr, as in Triton 3.6 */
    src_pos pos;
    int unit;                /* the Python module it belongs to */
} global;

/* One imported name: `import M [as NAME]` (attr NULL) or
 * `from M import ATTR [as NAME]`; relative imports are made absolute when
 * scanned (module NULL: a relative import outside any package). */
typedef struct alias {
    const char *name;        /* local name */
    const char *module;      /* absolute dotted module name */
    const char *attr;
    int unit;
    int try_id, branch;      /* a module-level try (0: none) and which of its branches */
    src_pos pos;
} alias;

/* A Python module whose kernel code the front end has read: unit 0 is the
 * kernel file, unit 1 the prelude, then imported files in load order. */
typedef struct unit {
    const char *name;        /* dotted module name ("pkg.ops.utils"; the kernel file's may be "") */
    const char *path;        /* NULL for texts */
    bool is_pkg;             /* an __init__.py */
    int file;
    lexed lx;
    const void *live;        /* live modules (live.c): the JSON object of its names, else NULL */
} unit;

/* A named tuple class: a module-level `class P(NamedTuple)` (typing) or
 * `P = namedtuple("P", ...)` (collections), or the class of a named tuple
 * kernel argument (fields only). Triton 3.6 keeps the field names in the
 * value's tuple_type.fields (language/core.py) and builds one by calling the
 * class in a kernel (code_generator.py call_Function, _apply_to_tuple_values). */
struct sval;
typedef struct ntclass {
    const char *name;        /* the name bound in the module (NULL for an argument's class) */
    const char *tname;       /* the class's __name__ */
    int n;
    const char **fields;
    node **defaults;         /* per field; NULL: none (NULL array: no defaults) */
    int unit;
    src_pos pos;
    /* A @triton.aggregate class (Triton 3.8+ language/core.py _aggregate):
     * an immutable value with named fields, kept as a tuple of its fields
     * in the order of the class's annotations (the bases' first), built by
     * the generated __init__ (fields by position or keyword, defaults),
     * copied by tl.aggregate_replace, with @triton.jit methods that take the
     * instance as `self` (sema_expr.c). */
    bool aggregate;
    char *ann;               /* aggregates: per field, the annotation the generated __init__ checks:
                              * 't' tl.tensor, 'c' tl.constexpr, 'u' tl.tuple, 0 anything else */
    const void *live;        /* live modules: the class's JSON entry (live.c; defaults are read from it) */
    int nm;                  /* methods (inherited ones too) */
    const char **mnames;
    int *mfuncs;             /* function index; -1: not a @triton.jit method (mwhy says what it is) */
    const char **mwhy;
    const char *init_why;    /* a user-defined __init__ tritium does not run: why (NULL: none, or one it runs) */
    int init_fi;             /* a user-defined __init__ tritium runs: 1 + its function index (0: none) */
} ntclass;

/* A top-level def without @triton.jit, kept for `kernel = triton.jit(fn)`. */
typedef struct plaindef { const char *name; int tok, unit; } plaindef;

/* A name bound under a module-level `if` whose condition is not a literal
 * (module.c if_stmt): invisible to kernels, named when a kernel uses it. */
typedef struct condname {
    const char *name;
    int unit;
    src_pos at;              /* the `if` */
    struct condname *next;
} condname;

struct front_module {
    arena mem;
    int file;
    lexed lx;
    VEC(funcdef) funcs;      /* the file's jit functions, the prelude's, then imported ones */
    int nuser;               /* how many of funcs are the file's */
    VEC(global) globals;
    VEC(alias) aliases;
    VEC(unit) units;
    VEC(plaindef) plain;
    VEC(ntclass *) classes;  /* named tuple classes of every unit (arena) */
    VEC(char *) paths;       /* --path directories */
    VEC(char *) search;      /* the module search path, built on first use */
    bool search_built, syspath_read;
    int ntry;
    condname *conds;         /* arena, newest first; at most MODULE_MAX_CONDS */
    int nconds;
    VEC(front_param *) params;   /* per function, built lazily */
    VEC(int) nparams;
    /* a live module (live.c): its JSON (owned), where its functions and
     * Python modules start in funcs and units, and its function count */
    void *live_root;
    int live_func0, live_mod0, live_nfuncs;
};

/* module.c: the Python module `name` (absolute, dotted) as a unit index,
 * loading its file on first use; -1 when it is not found (*why says where
 * it was looked for, arena) or its kernel code does not parse. */
int module_unit(front_module *m, const char *name, const char **why);
/* The Python file at `path` as a unit (its dotted name from the packages
 * around it), loading it on first use; -1 with *why set when it cannot be
 * read or does not parse. */
int module_unit_file(front_module *m, const char *path, const char **why);
/* The jit function "NAME" (its last definition) or "NAME@LINE" (the first
 * def of that name at or after LINE) of unit `unit`; -1 when none. */
int module_find_in(const front_module *m, int unit, const char *spec);
/* Parse the jit function whose `def` is at P->i (f->tok) without printing
 * diagnostics; one that does not parse is kept as `bad` (named, located,
 * skipped) and diagnosed when it is called, as Triton parses a function
 * when a launch reaches it (runtime/jit.py). */
void module_parse_helper(front_module *m, parser *P, funcdef *f);
/* An aggregate field's annotation kind (ntclass.ann) from the annotation's
 * name, dotted or not ("tl.tensor", "constexpr"): 't', 'c', 'u' or 0. */
char module_ann_kind(const char *name);
/* Re-parse a helper that did not parse quietly, printing its diagnostics. */
void module_reparse(front_module *m, int fi);
/* Add a unit for `text` (lexed; display: the file's name in diagnostics);
 * returns its index. */
int module_add_unit(front_module *m, const char *name, const char *display, const char *path, bool is_pkg, const char *text);
/* Add the prelude as unit 1 (after the kernel's unit 0). */
void module_add_prelude(front_module *m);
/* live.c: the live module's free JSON (no-op for file modules). */
void live_free(front_module *m);

/* prelude.c: triton.language's functions written in Triton (random.py) */
extern const char front_prelude_name[];
extern const char front_prelude_text[];

/* ---- values ---- */

typedef enum {
    V_NONE, V_INT, V_FLOAT, V_BOOL, V_STR, V_DTYPE, V_FUNC, V_MODULE, V_BUILTIN,
    V_METHOD, V_TUPLE, V_TENSOR,
    V_CLASS,                 /* a named tuple or aggregate class (nt), callable to build one */
    V_BLOCKPTR,              /* tl.make_block_ptr: i = rank; items = base, shape[i] (i64), strides[i] (i64),
                              * offsets[i] (i32) as tensors, then block_shape[i] as V_INT */
    V_TDESC,                 /* tl.make_tensor_descriptor: laid out as a block pointer at offset 0;
                              * s = the padding option ("zero" or "nan"); n = 1: a host
                              * TensorDescriptor(round_f32_to_tf32=True), whose loads round to tf32 */
} vkind;

typedef struct sval sval;
struct sval {
    vkind k;
    tt_dtype dt;             /* TENSOR: element dtype (TT_PTR: pointer); DTYPE: the dtype */
    tt_dtype pt;             /* pointee when dt == TT_PTR */
    ir_value v;              /* TENSOR */
    int64_t i;               /* INT, BOOL; FUNC: function index; MODULE: module id; BUILTIN/METHOD: builtin id */
    double f;
    const char *s;           /* STR */
    int n;                   /* TUPLE */
    sval *items;
    const ntclass *nt;       /* TUPLE: a named tuple's or aggregate's class (NULL: a plain tuple); CLASS: the class */
    sval *self;              /* METHOD: the receiver */
};

typedef struct binding { const char *name; sval val; bool constexpr_decl; } binding;
typedef struct scope { binding *v; int n, cap; } scope;

/* Helper calls are inlined; this many may be nested (each level costs C stack). */
#define SEMA_MAX_INLINE 64

typedef struct sema {
    front_module *m;
    arena *a;                /* compile arena */
    ir_func *fn;
    ir_builder b;
    scope *sc;
    int32_t caller_loc;
    const char *func_name;
    int depth;               /* inline depth, at most SEMA_MAX_INLINE */
    int inlining[SEMA_MAX_INLINE];        /* the function index being inlined at each depth */
    int runtime_cf;          /* > 0 inside runtime if/for/while */
    bool returned;
    sval ret;
    node_list *tail;         /* the block in tail position: its end ends the function (early returns) */
    int loops;               /* loops of the current function around this point (return is an error) */
    int dup;                 /* statements duplicated into early-return continuations */
    bool plain_globals;      /* evaluating a default: any global may be read */
    const node *unused_call; /* the call an expression statement is made of: its result is dropped */
    int ctor_depth;          /* inside an aggregate's user-defined __init__ at this inline depth */
    const char *ctor_self;   /* ... whose first parameter (self) takes `self.f = v` */
    bool debug;              /* Triton's options.debug: device_assert is compiled */
    int unit;                /* the module whose globals and imports are visible */
    jmp_buf fail;
} sema;

_Noreturn void sema_error(sema *S, src_pos p, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* module.c: the error for a name unit S->unit does not define, at p; it
 * says when the name is bound under a module-level `if` tritium cannot
 * evaluate. */
_Noreturn void module_undefined_name(sema *S, src_pos p, const char *name);
/* The reason `name` is not visible in unit `unit` when a module-level `if`
 * binds it (malloc'd), else NULL. */
char *module_conditional_name(const front_module *m, int unit, const char *name);
void sema_setloc(sema *S, src_pos p);
/* v itself, or an error at p when v is a tile of more than
 * TT_MAX_TENSOR_NUMEL elements (limits.h; Triton 3.6 checks it in
 * language/core.py, block_type.__init__). sema_expr checks every value it
 * makes, so each op that makes a tile (broadcasts, binary ops, dot, join,
 * expand/reshape, loads of block pointers, ...) is covered where its shape
 * becomes known. */
sval sema_check_tile(sema *S, src_pos p, sval v);

/* Python scalar arithmetic (pyarith.c): kind 'i' int, 'f' float, 'b' bool. */
typedef struct pynum { char kind; int64_t i; double f; } pynum;
/* Apply Python binary operator `op`; NULL on success, else the error message. */
const char *py_binop(const char *op, pynum a, pynum b, pynum *out);

/* constructors and queries */
sval sv_int(int64_t i);
sval sv_float(double f);
sval sv_bool(bool b);
sval sv_none(void);
sval sv_dtype(tt_dtype d, tt_dtype pointee);
sval sv_tensor(ir_value v, tt_dtype dt, tt_dtype pt);
bool sv_is_const(const sval *v);         /* INT, FLOAT, BOOL (Python numbers) */
bool sv_is_aggregate(const sval *v);     /* an instance of a @triton.aggregate class */
bool sv_truthy(sema *S, src_pos p, const sval *v);
const ir_type_info *sv_shape(sema *S, const sval *v);
ir_type sema_type(tt_dtype dt, tt_dtype pt, int rank, const int64_t *shape);
const char *sv_describe(sema *S, const sval *v);   /* "int32[64, 64]", "constexpr 3" (arena) */
const char *sema_shape_str(sema *S, int rank, const int64_t *shape);   /* "[16, 32]", as Triton prints shapes (arena) */

/* conversions */
tt_dtype sema_literal_dtype(sema *S, src_pos p, const sval *v);
/* A Python number as a 0-d tensor of dtype dt, range-checked. */
sval sema_const_as(sema *S, src_pos p, sval v, tt_dtype dt);
sval sema_to_tensor(sema *S, src_pos p, sval v);  /* Python numbers -> 0-d tensors; tensors unchanged */
sval sema_cast(sema *S, src_pos p, sval v, tt_dtype to, tt_dtype to_pt, bool bitcast);
/* sema_cast with fp_downcast_rounding: -1 (not given), ROUND_RTNE or
 * ROUND_RTZ (semantic.py cast; fp8 rules in sema_value.c). */
sval sema_cast_rounded(sema *S, src_pos p, sval v, tt_dtype to, tt_dtype to_pt, bool bitcast, int rounding);
sval sema_broadcast_to(sema *S, src_pos p, sval v, int rank, const int64_t *shape);
void sema_broadcast_pair(sema *S, src_pos p, sval *a, sval *b);
sval sema_expand_dims(sema *S, src_pos p, sval v, int axis);
sval sema_const_tensor(sema *S, src_pos p, double f, int64_t i, tt_dtype dt, int rank, const int64_t *shape);

/* operators: op is the Python operator text ("+", "//", "<", "and", "not", "-u", "~") */
sval sema_binop(sema *S, src_pos p, const char *op, sval a, sval b);
sval sema_unop(sema *S, src_pos p, const char *op, sval a);
/* The dtype a + b would compute in (computation_type_impl). */
tt_dtype sema_promote(sema *S, src_pos p, sval a, sval b);
/* tl.fma's operand typing, by the followed release (sema_value.c) */
sval sema_fma(sema *S, src_pos p, sval x, sval y, sval z);
sval sema_minmax(sema *S, src_pos p, bool is_max, sval a, sval b);
/* Same; floats propagate NaN when nan_all (tl.PropagateNan.ALL:
 * arith.maximumf / minimumf instead of maxnumf / minnumf). */
sval sema_minmax_nan(sema *S, src_pos p, bool is_max, sval a, sval b, bool nan_all);

/* expressions, statements, calls */
sval sema_expr(sema *S, node *e);
sval sema_ternary(sema *S, node *e, sval c);
void sema_block(sema *S, node_list *stmts);
sval sema_call_jit(sema *S, node *call, int fn, sval *args, int nargs, const char **kwn, sval *kwv, int nkw);
/* A field of an aggregate that its user-defined __init__ has not set yet
 * (sema_expr.c): reading it is an error. */
bool sema_field_unset(const sval *v);
/* v must fit aggregate k's field f's annotation (tl.tensor, tl.constexpr,
 * tl.tuple), else Triton's TypeError at p (sema_expr.c). */
void sema_aggregate_check(sema *S, src_pos p, const ntclass *k, int f, const sval *v);
/* The positional arguments of a call, `*t` expanded into t's items
 * (code_generator.py visit_Call: a starred argument must be a tuple);
 * returns their count, *out in the compile arena. */
int sema_call_args(sema *S, node *call, sval **out);
bool sema_lookup(sema *S, const char *name, sval *out);
void sema_bind(sema *S, const char *name, sval v);
/* sema_stmt.c: `name := v` (e an E_NAMEDEXPR): v sanitized as an assignment does, bound, returned. */
sval sema_named_expr(sema *S, node *e, sval v);

/* A launch's constexpr value (launch.h) as a compile-time value; a
 * CONST_FUNC is looked up (an error at p when it names no jit function),
 * a CONST_TUPLE header alone is None. */
sval sema_const_value(sema *S, src_pos p, const launch_const *c);

/* block pointers (sema_blockptr.c) */
int sema_bp_tensors(const sval *bp);                 /* how many tensor components: 3*rank + 1 (descriptors 2*rank + 1) */
sval sema_bp_with(sema *S, sval bp, int k, sval t);  /* a copy with tensor component k replaced */
sval sema_bp_load(sema *S, src_pos p, sval bp, sval boundary_check, sval padding);
void sema_bp_store(sema *S, src_pos p, sval bp, sval value, sval boundary_check);
sval sema_make_block_ptr(sema *S, src_pos p, sval base, sval shape, sval strides, sval offsets, sval block, sval order);
sval sema_advance(sema *S, src_pos p, sval bp, sval deltas);
/* v as an integer scalar tensor of dtype dt; errors name `fn` and `what`. */
sval sema_int_scalar(sema *S, src_pos p, sval v, tt_dtype dt, const char *fn, const char *what);
/* tl.arange(0, n) */
sval sema_arange(sema *S, src_pos p, int64_t n);
/* The element indices of bp's block, idx[d] = offsets[d] + arange(block[d])
 * shaped along dimension d (i32, broadcastable to the block). */
void sema_bp_indices(sema *S, src_pos p, sval bp, sval *idx);
/* The pointer tile base + sum_d i64(idx[d]) * strides[d] of bp (block
 * pointer or descriptor layout), broadcast to shape[0..rank); *mask is the
 * AND of 0 <= idx[d] < shapes[d] over the dims d in `checked` (bits), or
 * None when no dim is checked. */
sval sema_bp_address(sema *S, src_pos p, sval bp, const sval *idx, unsigned checked, int rank,
                     const int64_t *shape, sval *mask);
/* tt.load of ptr under mask (None: unmasked) with other = 0, or NaN when
 * padding is the string "nan", and (masked loads only) the ndesc operands
 * desc: the descriptor operands of the load (sema_bp_desc); tt.store
 * of value (of ptr's shape and pointee type) under mask. */
sval sema_masked_load(sema *S, src_pos p, sval ptr, sval mask, sval padding, const ir_value *desc, int ndesc);
/* The "desc" operands of a tt.load (ops.def) of block pointer or descriptor
 * bp: base, offsets, shape, strides into desc[1 + 3 * rank]; their count. */
int sema_bp_desc(const sval *bp, ir_value *desc);
void sema_masked_store(sema *S, src_pos p, sval ptr, sval mask, sval value);

/* tensor descriptors (sema_tdesc.c; Triton 3.6 semantic.py make_tensor_descriptor,
 * descriptor_load/store/atomic_* /gather/scatter), lowered to pointer tiles
 * whose every dimension is bounds-checked: out-of-bounds lanes read the
 * padding and drop stores, as TMA does. */
sval sema_make_tensor_desc(sema *S, src_pos p, sval base, sval shape, sval strides, sval block, sval padding);
/* A tt.assert, always compiled, that a device-side descriptor's base is
 * 16-byte aligned and its strides but the last multiples of 16 bytes (TMA's
 * rule; Triton 3.6's interpreter asserts it in TensorDescHandle.validate). */
void sema_desc_check_alignment(sema *S, src_pos p, sval desc);
sval sema_desc_load(sema *S, src_pos p, sval desc, sval offsets);
void sema_desc_store(sema *S, src_pos p, sval desc, sval offsets, sval value);
/* desc.atomic_{add,min,max,and,or,xor}: op is the name without "atomic_" */
void sema_desc_atomic(sema *S, src_pos p, const char *op, sval desc, sval offsets, sval value);
sval sema_desc_gather(sema *S, src_pos p, sval desc, sval x_offsets, sval y_offset);
void sema_desc_scatter(sema *S, src_pos p, sval desc, sval value, sval x_offsets, sval y_offset);

/* tl.device_assert(cond, msg, mask) / `assert cond, msg` (sema_print.c):
 * a tt.assert when S->debug, else nothing (semantic.device_assert). */
sval sema_device_assert(sema *S, src_pos p, sval cond, sval msg, sval mask);
/* Python's str() (repr when `repr`) of a compile-time value, appended to b;
 * tensors as Triton's tensor.__str__ (sema_print.c). */
void sema_py_str(sema *S, strbuf *b, const sval *v, bool repr);
/* TRITON_DEBUG's value turns debug on ("1", "true", "on"; knobs.py
 * env_bool through getenv_bool). */
bool sema_debug_enabled(const char *env);
/* @triton.jit(debug=True) on jit function fi (module.c) */
bool front_jit_debug(const front_module *m, int fi);
/* builtins: resolve a module attribute / tensor method / Python builtin */
enum { MOD_TRITON, MOD_TL, MOD_MATH, MOD_LIBDEVICE, MOD_EXTRA, MOD_CUDA, MOD_PROPAGATE_NAN /* tl.PropagateNan */,
       MOD_RANDOM /* tl.random: the prelude's random.py */,
       MOD_USER = 1000 /* + unit */ };
bool sema_module_attr(sema *S, int mod, const char *name, sval *out);
bool sema_tensor_attr(sema *S, src_pos p, sval self, const char *name, sval *out);
/* Attribute `name` of any value (modules, tensors, dtypes, descriptors) as
 * `v.name` resolves it (sema_expr.c); false when there is none. */
bool sema_attr(sema *S, src_pos p, sval base, const char *name, sval *out);
bool sema_python_builtin(const char *name, sval *out);
/* sema_version.c: tl.NAME that the followed Triton version lacks is an error
 * at p; sema_version_call also refuses builtins the version removed and
 * load/store keywords 3.9 dropped (kwn: the call's keyword names). */
void sema_version_attr(sema *S, src_pos p, const char *name);
void sema_version_call(sema *S, src_pos p, const char *name, const char **kwn, int nkw);
/* A @triton.aggregate class used under a Triton that has no public
 * triton.aggregate (before 3.8): an error at p. */
void sema_version_aggregate(sema *S, src_pos p, const ntclass *k);
/* tl.dot_scaled: the groups of K one uint8 scale may cover (bit 16, bit 32)
 * under the followed release. */
unsigned sema_version_mx_groups(void);
/* Calling named tuple or aggregate class k (sema_expr.c): fields by position
 * and keyword, the rest from the class's defaults; an aggregate's fields are
 * checked against their annotations as its generated __init__ does. */
sval sema_construct(sema *S, src_pos p, const ntclass *k, sval *args, int n, const char **kwn, sval *kwv, int nk);
/* tl.aggregate_replace(instance, **changes) (Triton 3.8+ core.py). */
sval sema_aggregate_replace(sema *S, src_pos p, sval *args, int n, const char **kwn, sval *kwv, int nk);
/* The module with absolute dotted name `name` (Triton's, or a file found on
 * the search path); false with *why (arena) when there is none. */
bool sema_module_by_name(sema *S, const char *name, sval *out, const char **why);
/* live.c: `name` in the names table of live unit `unit` (the value Python
 * resolved); false when the unit has no such entry. Errors (a name Triton
 * refuses, a value tritium cannot represent) are sema errors at p. */
bool live_name(sema *S, src_pos p, int unit, const char *name, sval *out);
/* live.c: field f's default of live class k, as Python evaluated it; false
 * when the class has none for it. */
bool live_class_default(sema *S, src_pos p, const ntclass *k, int f, sval *out);
/* Does Triton 3.6 define `name` in module `mod` (MOD_TL, MOD_LIBDEVICE; tl.math: no name tritium lacks)? (triton_names.c) */
bool sema_triton_defines(int mod, const char *name);
sval sema_call_builtin(sema *S, node *call, int id, sval *self, sval *args, int nargs,
                       const char **kwn, sval *kwv, int nkw);
const char *sema_builtin_name(int id);
const char *sema_builtin_params(int id);   /* "input,axis,keep_dims" */

#endif
