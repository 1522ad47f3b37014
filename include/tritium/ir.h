/* ir.h — tritium's kernel IR: typed SSA with structured control flow,
 * modelled on Triton's TTIR (see docs/design.md, "The IR", and
 * include/tritium/ops.def).
 *
 * Memory layout follows QBE's habits: a function owns arrays of values,
 * regions and locations; each region holds its ops in one contiguous array;
 * values and regions are small integer ids. Refer to ops by (region, index):
 * op arrays grow while building, so ir_op pointers are only valid until the
 * next op is added to that region.
 *
 * Types are interned process-wide: equal types have equal ids. The IR is
 * signless like TTIR (u32 is i32; signedness lives on ops such as arith.divui). */
#ifndef TRITIUM_IR_H
#define TRITIUM_IR_H

#include <stdio.h>
#include "tritium/support.h"
#include "tritium/dtype.h"
#include "tritium/diag.h"
#include "tritium/limits.h"

/* Tiles have the rank limit of host tensors (limits.h TT_MAX_RANK says why 32). */
#define IR_MAX_RANK TT_MAX_RANK
/* The shape a tt.load's descriptor gives a dim that is read without bounds
 * (a block pointer's dim outside boundary_check; ops.def). */
#define IR_DESC_UNBOUNDED INT32_MAX

/* ---- types ------------------------------------------------------------- */

typedef uint32_t ir_type;          /* 0 is "no type" */

typedef struct ir_type_info {
    tt_dtype elem;                 /* TT_BOOL (i1), TT_I8..TT_I64, TT_F16..TT_F64 or TT_PTR */
    ir_type pointee;               /* TT_PTR only: the scalar pointee type */
    int rank;                      /* 0 for scalars */
    int64_t shape[IR_MAX_RANK];
} ir_type_info;

/* Scalar type of a dtype; unsigned dtypes map to the signless int of their
 * width (TT_U32 -> i32). */
ir_type ir_scalar(tt_dtype d);
/* !tt.ptr<pointee>; pointee must be a scalar type. */
ir_type ir_ptr(ir_type pointee);
/* tensor<shape x elem>; elem must be scalar or pointer; rank 0 returns elem. */
ir_type ir_tensor(ir_type elem, int rank, const int64_t *shape);
const ir_type_info *ir_type_get(ir_type t);
ir_type ir_type_elem(ir_type t);            /* element type (itself for scalars) */
ir_type ir_type_with_elem(ir_type shape_of, ir_type elem); /* same shape, new element */
int ir_type_rank(ir_type t);
int64_t ir_type_numel(ir_type t);           /* 1 for scalars */
bool ir_type_is_float(ir_type t);           /* element is f16/bf16/f32/f64 or an fp8 */
bool ir_type_is_int(ir_type t);             /* element is i1..i64 */
bool ir_type_is_ptr(ir_type t);             /* element is a pointer */
/* Bit width of the element (pointer: 64). */
int ir_type_bits(ir_type t);
/* Print "i32", "!tt.ptr<f16>", "tensor<64x64xf16>" into buf (>= 96 bytes). */
char *ir_type_str(ir_type t, char *buf, size_t n);

/* ---- ops --------------------------------------------------------------- */

enum {
#define X(e, name, mino, maxo, nres, nreg, attrs, props, fam, sig, roles) IR_##e,
#include "tritium/ops.def"
#undef X
    IR_OP_COUNT
};

/* Properties. P_COSTLY: too expensive to recompute in another layout. */
enum { P_PURE = 1, P_ELEMWISE = 2, P_MEM = 4, P_TERMINATOR = 8, P_COSTLY = 16 };

/* Families: which evaluator of the interpreter and which lowering of the
 * GPU path handle an op. */
enum {
    F_SOURCE,                      /* constants, program ids, ranges */
    F_SHAPE,                       /* splat, broadcast, expand_dims, reshape, trans, bitcast */
    F_PTR,                         /* addptr, int <-> ptr */
    F_MEM,                         /* load, store, atomics */
    F_DOT,
    F_REDUCE,
    F_ARITH,                       /* integer and float arithmetic, comparisons, select */
    F_CAST,
    F_MATH,                        /* ops_math.def functions, absf, absi, fma */
    F_HINT,                        /* assume, barrier */
    F_DEBUG,                       /* tt.print, tt.assert */
    F_ASM,                         /* tt.elementwise_inline_asm (GPU only) */
    F_SCF,                         /* scf.for / scf.if / scf.while */
    F_MAP,                         /* tt.map_elementwise: a region run per element */
    F_TERM,                        /* terminators, handled by the parent op */
    F_COUNT
};

/* Type signatures the verifier checks (compiler/ir/verify.c, one checker per
 * signature). S_NONE: no rule, the verifier rejects the op. */
enum {
    S_NONE,
    S_CUSTOM,                      /* a rule of the op's own */
    S_INT_BINARY,                  /* (iN, iN) -> iN */
    S_FLOAT_BINARY,                /* (fN, fN) -> fN */
    S_INT_CMP,                     /* (iN, iN) -> i1 */
    S_FLOAT_CMP,                   /* (fN, fN) -> i1 */
    S_FP32_UNARY,                  /* f32 -> f32 or f64 -> f64 (math.py _check_dtype) */
    S_FLOAT_UNARY,                 /* fN -> fN */
    S_INT_UNARY,                   /* iN -> iN */
    S_FLOAT_TERNARY,               /* (fN, fN, fN) -> fN */
    S_INT_WIDEN, S_INT_NARROW,     /* iN -> iM, M > N (ext*) or M < N (trunci) */
    S_FLOAT_WIDEN, S_FLOAT_NARROW, /* fN -> fM likewise (extf, truncf) */
    S_INT_TO_FLOAT,
    S_FLOAT_TO_INT,
    S_MATHFN,                      /* one of the row's variants (ops_math.def, ir_mathfn) */
    S_COUNT
};

typedef struct ir_opdesc {
    const char *name;
    int min_opnd, max_opnd;        /* max -1: variadic */
    int nres;                      /* -1: variadic */
    int nregions;
    const char *attrs;             /* "name:kind,..." */
    unsigned props;
    int family;                    /* F_* */
    int sig;                       /* S_* */
    const char *roles;             /* "ptr,mask?,other?" */
} ir_opdesc;

extern const ir_opdesc ir_ops[IR_OP_COUNT];
/* Look up an op by its text name; -1 when unknown. */
int ir_op_lookup(const char *name, size_t len);

/* The math functions of ops_math.def (libdevice's, one row each): what the
 * verifier, the front end, the GPU lowering and the diff engine need to know
 * of a row. Types are Triton dtypes (signedness included); an absent operand
 * or variant has TT_DTYPE_COUNT. ir_mathfns[opc].arity is 0 for other ops. */
typedef struct ir_mathvar {
    tt_dtype res, opnd[4];         /* res TT_DTYPE_COUNT: no such variant */
    const char *gpu;               /* "__nv_expf", "llvm.sqrt", ... (ops_math.def) */
    int64_t ulp;                   /* interpreter vs GPU distance allowed */
} ir_mathvar;
typedef struct ir_mathfn {
    const char *lib;               /* libdevice name: "exp", "add_rd", "mulhi" */
    int arity;                     /* 1..4 */
    const char *fast;              /* variant 0's form in fast numerics; "" none */
    ir_mathvar var[2];
} ir_mathfn;
extern const ir_mathfn ir_mathfns[IR_OP_COUNT];
/* The variant of math function opc whose signless operand and result types
 * are those given (n operands), -1 when none matches. */
int ir_mathfn_variant(int opc, const ir_type *opnd, int n, ir_type res);

/* Enum attribute values. Orders follow MLIR's arith dialect and TTIR's. */
enum { CMPI_EQ, CMPI_NE, CMPI_SLT, CMPI_SLE, CMPI_SGT, CMPI_SGE,
       CMPI_ULT, CMPI_ULE, CMPI_UGT, CMPI_UGE };
enum { CMPF_FALSE, CMPF_OEQ, CMPF_OGT, CMPF_OGE, CMPF_OLT, CMPF_OLE, CMPF_ONE,
       CMPF_ORD, CMPF_UEQ, CMPF_UGT, CMPF_UGE, CMPF_ULT, CMPF_ULE, CMPF_UNE,
       CMPF_UNO, CMPF_TRUE };
/* Reduction combiners; float vs int follows the element type; max/min on
 * floats ignore NaN (propagate_nan=NONE); arg* break ties to the left. */
enum { RED_ADD, RED_MAX, RED_UMAX, RED_MIN, RED_UMIN, RED_ARGMAX, RED_UARGMAX,
       RED_ARGMIN, RED_UARGMIN, RED_XOR, RED_OR, RED_AND };
enum { RMW_ADD, RMW_FADD, RMW_MAX, RMW_UMAX, RMW_MIN, RMW_UMIN, RMW_AND,
       RMW_OR, RMW_XOR, RMW_XCHG };
enum { SEM_ACQ_REL, SEM_ACQUIRE, SEM_RELEASE, SEM_RELAXED };
enum { SCOPE_GPU, SCOPE_CTA, SCOPE_SYS };
enum { PREC_TF32, PREC_TF32X3, PREC_IEEE, PREC_BF16X3, PREC_BF16X6 };
/* tt.fp_to_fp rounding (TTIR RoundingMode; an upcast carries rtne, unused) */
enum { ROUND_RTNE, ROUND_RTZ };

/* Integer-array attributes (kind 'a', e.g. tt.trans's order: one entry per
 * dim, so up to IR_MAX_RANK) live in the function's array table
 * (ir_func.arrs: each array is its count followed by its elements); the
 * attribute slot holds the array's offset there. ir_attr_array interns v
 * (equal arrays share an offset) and dies when n is out of 0..IR_ATTR_ARRAY_MAX;
 * ir_attr_array_get writes the elements and returns the count, or -1 when
 * the offset is not one of f's arrays (the verifier rejects those). */
#define IR_ATTR_ARRAY_MAX IR_MAX_RANK
struct ir_func;
int64_t ir_attr_array(struct ir_func *f, int n, const int64_t *v);
int ir_attr_array_get(const struct ir_func *f, int64_t a, int64_t out[IR_ATTR_ARRAY_MAX]);

/* Names of the values of an enum attribute kind ("cmpi", "red", ...);
 * NULL-terminated; NULL for an unknown kind. */
const char *const *ir_enum_names(const char *kind, size_t len);

typedef int32_t ir_value;          /* index into ir_func.values; -1: none */

typedef struct ir_op {
    uint16_t opc;
    uint8_t nres;
    uint8_t nregions;
    int32_t nopnd;
    ir_value res;                  /* results are res .. res+nres-1 */
    ir_value *opnd;                /* nopnd operands, owned by the function's arena */
    int32_t region[2];             /* region ids, -1 when unused */
    int64_t attr[4];               /* attributes in ops.def order */
    int64_t ival;                  /* arith.constant: integer value */
    double fval;                   /* arith.constant: float value */
    int32_t loc;                   /* index into ir_func.locs, -1: unknown */
} ir_op;

/* Attributes by name (ops.def order): the slot of attribute `name` of op
 * code opc; dies when the op has no such attribute. For builders and
 * printers, not for the executors' hot loops (a string compare per call). */
int ir_attr_index(int opc, const char *name);
void ir_attr_set(ir_op *op, const char *name, int64_t v);
int64_t ir_attr_get(const ir_op *op, const char *name);
/* String attributes (kind 's': tt.print's prefix, tt.assert's message,
 * inline asm text) live in the function's string table (ir_func.strs); the
 * attribute slot holds the index. ir_str_intern copies s into the function's
 * arena; ir_attr_str returns "" for an index out of range (the verifier
 * rejects those). */
struct ir_func;
int64_t ir_str_intern(struct ir_func *f, const char *s);
void ir_attr_set_str(struct ir_func *f, ir_op *op, const char *name, const char *s);
const char *ir_attr_str(const struct ir_func *f, const ir_op *op, const char *name);
const char *ir_str_at(const struct ir_func *f, int64_t idx);

enum { IR_DEF_ARG, IR_DEF_OP, IR_DEF_REGION_ARG };

typedef struct ir_value_info {
    ir_type type;
    uint8_t def_kind;              /* IR_DEF_* */
    int32_t region;                /* region holding the def (or the arg's region) */
    int32_t index;                 /* op index in region, or argument index */
    const char *name;              /* source variable name or NULL (arena-owned) */
} ir_value_info;

typedef struct ir_region {
    ir_op *ops;                    /* malloc'd, grows */
    int nops, cap;
    ir_value *args;                /* block arguments (arena) */
    int nargs;
    int32_t parent_region, parent_op; /* the op owning this region; -1 for the body */
} ir_region;

/* A source location. Inlined code points at its call site through `caller`,
 * which is itself a location (in the caller's function), so a backtrace is
 * the chain loc -> caller -> caller. `func` names the function the code was
 * written in. */
typedef struct ir_loc {
    int file, line, col;
    int32_t caller;                /* -1 at the kernel's top level */
    const char *func;              /* arena-owned */
} ir_loc;

/* One kernel, helpers inlined. Region 0 is the body; its args are the
 * kernel's runtime parameters in order. */
typedef struct ir_func {
    char *name;
    arena mem;                     /* operands, names, strings */
    VEC(ir_value_info) values;
    VEC(ir_region) regions;
    VEC(ir_loc) locs;
    VEC(const char *) strs;        /* string attributes (kind 's'), arena-owned */
    VEC(int64_t) arrs;             /* array attributes (kind 'a'): count, elements; ... */
    /* Per runtime parameter: the Triton dtype (signedness kept) of a scalar
     * argument, or of a pointer argument's pointee; and whether it is a pointer. */
    tt_dtype *arg_dtype;
    bool *arg_is_ptr;
    int nargs;
    uint64_t serial;               /* unique in the process (ir_func_new): a cheap
                                    * identity for memos that outlive the function */
} ir_func;

ir_func *ir_func_new(const char *name);
void ir_func_free(ir_func *f);

static inline ir_op *ir_op_at(ir_func *f, int region, int index) { return &f->regions.v[region].ops[index]; }
static inline ir_type ir_value_type(const ir_func *f, ir_value v) { return f->values.v[v].type; }
/* The op defining v, or NULL for arguments. */
ir_op *ir_def(const ir_func *f, ir_value v);
/* The scf.for whose body has region arg v, or NULL: for its counter (arg
 * 0) *init = *next = -1; for a carried value, the loop's init operand and
 * the value the body yields for it. */
const ir_op *ir_for_arg(const ir_func *f, ir_value v, ir_value *init, ir_value *next);
/* The init operand that an scf.for carries into its region arg v
 * unchanged (its body yields v itself: a block pointer's base, shape and
 * strides ride along with its offsets), or -1. */
ir_value ir_carried_init(const ir_func *f, ir_value v);
/* The region id of the body (0). */
#define IR_BODY 0

/* Add a kernel parameter (a body argument). */
ir_value ir_add_arg(ir_func *f, const char *name, ir_type t, tt_dtype dt, bool is_ptr);
/* Create a region with block arguments of the given types; returns its id. */
int32_t ir_new_region(ir_func *f, int nargs, const ir_type *types);
/* Intern a location; returns its id. */
int32_t ir_add_loc(ir_func *f, int file, int line, int col, int32_t caller, const char *func);

/* Builder: appends ops at the end of `region`, tagging them with `loc`. */
typedef struct ir_builder {
    ir_func *fn;
    int32_t region;
    int32_t loc;
} ir_builder;

/* Append an op with nres results of the given types (types may be NULL when
 * nres == 0). Returns the op's index in the builder's region; results are
 * ir_op_at(...)->res + i. Operands are copied. */
int ir_emit(ir_builder *b, int opc, int nres, const ir_type *types, int nopnd, const ir_value *opnd);
/* Shorthand for one-result ops: returns the result value. */
ir_value ir_emit1(ir_builder *b, int opc, ir_type t, int nopnd, const ir_value *opnd);
ir_value ir_const_int(ir_builder *b, ir_type t, int64_t v);   /* t scalar or tensor (splat) */
ir_value ir_const_float(ir_builder *b, ir_type t, double v);
/* Attach a region to an op (in order). */
void ir_op_add_region(ir_func *f, int region, int op, int32_t child);
void ir_value_set_name(ir_func *f, ir_value v, const char *name);

/* ---- text form --------------------------------------------------------- */

/* Print the function in the MLIR-like text form (locations as #locN aliases
 * at the end). print -> parse -> print is the identity. */
void ir_print(FILE *out, const ir_func *f);
/* Print one op (and its regions) at the given indent, without loc aliases. */
void ir_print_op(FILE *out, const ir_func *f, int region, int index, int indent);
/* Parse the text form. On error prints "name:line:col: error: ..." through
 * diag.h and returns NULL. */
ir_func *ir_parse(const char *name, const char *text);

/* Check the invariants: operand counts and types per op, terminators,
 * defined-before-use, region arguments. Prints diagnostics (with the op's
 * location when known) and returns the number of errors. */
int ir_verify(const ir_func *f);

#endif
