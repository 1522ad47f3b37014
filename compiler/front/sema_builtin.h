/* sema_builtin.h — the builtin table and what the files that implement
 * builtins share (internal to compiler/front): argument binding with named
 * accessors (sema_bind.c), memory ops (sema_mem.c), reductions and scans
 * (sema_reduce.c); sema_builtin.c holds the table and the dispatcher.
 * Names and parameters follow Triton 3.6 (python/triton/language/
 * {core,semantic,standard,math}.py). */
#ifndef TRITIUM_SEMA_BUILTIN_H
#define TRITIUM_SEMA_BUILTIN_H

#include "front_int.h"

enum { IN_TL = 1, IN_MATH = 2, IN_PY = 4, IN_METHOD = 8, IN_TRITON = 16, IN_LIBDEVICE = 32, IN_TDESC = 64 };
/* IN_TDESC: methods of tensor descriptors (core.py tensor_descriptor_base) */

/* X(ID, "name", "params", visibility). A parameter "*name" collects the
 * remaining positional arguments into a tuple. */
#define BUILTINS(X) \
    X(PROGRAM_ID, "program_id", "axis", IN_TL) \
    X(NUM_PROGRAMS, "num_programs", "axis", IN_TL) \
    X(ARANGE, "arange", "start,end", IN_TL) \
    X(ZEROS, "zeros", "shape,dtype", IN_TL) \
    X(FULL, "full", "shape,value,dtype", IN_TL) \
    X(ZEROS_LIKE, "zeros_like", "input", IN_TL) \
    X(CDIV, "cdiv", "x,div", IN_TL | IN_TRITON | IN_METHOD) \
    X(NEXT_POW2, "next_power_of_2", "n", IN_TRITON) \
    X(WHERE, "where", "condition,x,y", IN_TL) \
    X(MINIMUM, "minimum", "x,y,propagate_nan", IN_TL) \
    X(MAXIMUM, "maximum", "x,y,propagate_nan", IN_TL) \
    X(CLAMP, "clamp", "x,min,max,propagate_nan", IN_TL) \
    X(LOAD, "load", "pointer,mask,other,boundary_check,padding_option,cache_modifier,eviction_policy,volatile", IN_TL) \
    X(STORE, "store", "pointer,value,mask,boundary_check,cache_modifier,eviction_policy", IN_TL | IN_METHOD) \
    X(SUM, "sum", "input,axis,keep_dims,dtype", IN_TL | IN_METHOD) \
    X(MAX, "max", "input,axis,return_indices,return_indices_tie_break_left,keep_dims", IN_TL | IN_METHOD) \
    X(MIN, "min", "input,axis,return_indices,return_indices_tie_break_left,keep_dims", IN_TL | IN_METHOD) \
    X(ARGMAX, "argmax", "input,axis,tie_break_left,keep_dims", IN_TL | IN_METHOD) \
    X(ARGMIN, "argmin", "input,axis,tie_break_left,keep_dims", IN_TL | IN_METHOD) \
    X(XOR_SUM, "xor_sum", "input,axis,keep_dims", IN_TL | IN_METHOD) \
    X(REDUCE, "reduce", "input,axis,combine_fn,keep_dims", IN_TL | IN_METHOD) \
    X(ASSOC_SCAN, "associative_scan", "input,axis,combine_fn,reverse", IN_TL | IN_METHOD) \
    X(CUMSUM, "cumsum", "input,axis,reverse,dtype", IN_TL | IN_METHOD) \
    X(CUMPROD, "cumprod", "input,axis,reverse,dtype", IN_TL | IN_METHOD) \
    X(EXP, "exp", "x", IN_TL | IN_MATH | IN_METHOD | IN_LIBDEVICE) \
    X(EXP2, "exp2", "x", IN_TL | IN_MATH | IN_METHOD | IN_LIBDEVICE) \
    X(LOG, "log", "x", IN_TL | IN_MATH | IN_METHOD | IN_LIBDEVICE) \
    X(LOG2, "log2", "x", IN_TL | IN_MATH | IN_METHOD | IN_LIBDEVICE) \
    X(SQRT, "sqrt", "x", IN_TL | IN_MATH | IN_METHOD | IN_LIBDEVICE) \
    X(RSQRT, "rsqrt", "x", IN_TL | IN_MATH | IN_METHOD | IN_LIBDEVICE) \
    X(SIN, "sin", "x", IN_TL | IN_MATH | IN_METHOD | IN_LIBDEVICE) \
    X(COS, "cos", "x", IN_TL | IN_MATH | IN_METHOD | IN_LIBDEVICE) \
    X(ERF, "erf", "x", IN_TL | IN_MATH | IN_METHOD | IN_LIBDEVICE) \
    X(FLOOR, "floor", "x", IN_TL | IN_MATH | IN_METHOD | IN_LIBDEVICE) \
    X(CEIL, "ceil", "x", IN_TL | IN_MATH | IN_METHOD | IN_LIBDEVICE) \
    X(ABS, "abs", "x", IN_TL | IN_MATH | IN_METHOD | IN_PY | IN_LIBDEVICE) \
    X(SIGMOID, "sigmoid", "x", IN_TL | IN_METHOD) \
    X(FMA, "fma", "x,y,z", IN_TL | IN_MATH | IN_LIBDEVICE) \
    X(DIV_RN, "div_rn", "x,y", IN_TL | IN_MATH) \
    X(FDIV, "fdiv", "x,y,ieee_rounding,approx", IN_TL | IN_MATH) \
    X(SQRT_RN, "sqrt_rn", "x", IN_TL | IN_MATH | IN_METHOD) \
    X(DOT, "dot", "input,other,acc,input_precision,allow_tf32,max_num_imprecise_acc,out_dtype", IN_TL) \
    X(DOT_SCALED, "dot_scaled", "lhs,lhs_scale,lhs_format,rhs,rhs_scale,rhs_format,acc,fast_math,lhs_k_pack,rhs_k_pack,out_dtype", IN_TL) \
    X(TRANS, "trans", "input,*dims", IN_TL | IN_METHOD) \
    X(PERMUTE, "permute", "input,*dims", IN_TL | IN_METHOD) \
    X(RESHAPE, "reshape", "input,*shape,can_reorder", IN_TL | IN_METHOD) \
    X(VIEW, "view", "input,*shape", IN_TL | IN_METHOD) \
    X(RAVEL, "ravel", "x,can_reorder", IN_TL | IN_METHOD) \
    X(ITEM, "item", "input", IN_METHOD) \
    X(BROADCAST_TO, "broadcast_to", "input,*shape", IN_TL | IN_METHOD) \
    X(EXPAND_DIMS, "expand_dims", "input,axis", IN_TL | IN_METHOD) \
    X(MULTIPLE_OF, "multiple_of", "input,values", IN_TL) \
    X(MAX_CONTIGUOUS, "max_contiguous", "input,values", IN_TL) \
    X(MAX_CONSTANCY, "max_constancy", "input,values", IN_TL) \
    X(ASSUME, "assume", "cond", IN_TL) \
    X(DEBUG_BARRIER, "debug_barrier", "", IN_TL) \
    X(STATIC_ASSERT, "static_assert", "cond,msg", IN_TL) \
    X(STATIC_PRINT, "static_print", "*values,sep,end,file,flush", IN_TL) \
    X(DEVICE_ASSERT, "device_assert", "cond,msg,mask", IN_TL) \
    X(DEVICE_PRINT, "device_print", "prefix,*args,hex", IN_TL) \
    X(INLINE_ASM, "inline_asm_elementwise", "asm,constraints,args,dtype,is_pure,pack", IN_TL) \
    X(TUPLE, "tuple", "args", IN_TL) \
    X(STATIC_RANGE, "static_range", "arg1,arg2,step", IN_TL) \
    X(RANGE, "range", "arg1,arg2,step,num_stages,loop_unroll_factor,disallow_acc_multi_buffer,flatten,warp_specialize,disable_licm", IN_TL | IN_PY) \
    X(CAST, "cast", "input,dtype,fp_downcast_rounding,bitcast", IN_TL | IN_METHOD) \
    X(TO, "to", "input,dtype,fp_downcast_rounding,bitcast", IN_METHOD) \
    X(CONSTEXPR, "constexpr", "value", IN_TL) \
    X(POINTER_TYPE, "pointer_type", "element_ty", IN_TL) \
    X(ATOMIC_ADD, "atomic_add", "pointer,val,mask,sem,scope", IN_TL | IN_METHOD) \
    X(ATOMIC_MAX, "atomic_max", "pointer,val,mask,sem,scope", IN_TL | IN_METHOD) \
    X(ATOMIC_MIN, "atomic_min", "pointer,val,mask,sem,scope", IN_TL | IN_METHOD) \
    X(ATOMIC_AND, "atomic_and", "pointer,val,mask,sem,scope", IN_TL | IN_METHOD) \
    X(ATOMIC_OR, "atomic_or", "pointer,val,mask,sem,scope", IN_TL | IN_METHOD) \
    X(ATOMIC_XOR, "atomic_xor", "pointer,val,mask,sem,scope", IN_TL | IN_METHOD) \
    X(ATOMIC_XCHG, "atomic_xchg", "pointer,val,mask,sem,scope", IN_TL | IN_METHOD) \
    X(ATOMIC_CAS, "atomic_cas", "pointer,cmp,val,sem,scope", IN_TL | IN_METHOD) \
    X(UMULHI, "umulhi", "x,y", IN_TL | IN_MATH) \
    X(TO_TENSOR, "to_tensor", "x", IN_TL) \
    X(MAKE_BLOCK_PTR, "make_block_ptr", "base,shape,strides,offsets,block_shape,order", IN_TL) \
    X(ADVANCE, "advance", "base,offsets", IN_TL) \
    X(MAKE_TENSOR_DESC, "make_tensor_descriptor", "base,shape,strides,block_shape,padding_option", IN_TL) \
    X(DESC_LOAD, "load_tensor_descriptor", "desc,offsets", IN_TL) \
    X(DESC_STORE, "store_tensor_descriptor", "desc,offsets,value", IN_TL) \
    X(DESC_ATOMIC_ADD, "atomic_add", "desc,offsets,value", IN_TDESC) \
    X(DESC_ATOMIC_MIN, "atomic_min", "desc,offsets,value", IN_TDESC) \
    X(DESC_ATOMIC_MAX, "atomic_max", "desc,offsets,value", IN_TDESC) \
    X(DESC_ATOMIC_AND, "atomic_and", "desc,offsets,value", IN_TDESC) \
    X(DESC_ATOMIC_OR, "atomic_or", "desc,offsets,value", IN_TDESC) \
    X(DESC_ATOMIC_XOR, "atomic_xor", "desc,offsets,value", IN_TDESC) \
    X(DESC_GATHER, "gather", "desc,x_offsets,y_offset", IN_TDESC) \
    X(DESC_SCATTER, "scatter", "desc,value,x_offsets,y_offset", IN_TDESC) \
    X(JOIN, "join", "a,b", IN_TL) \
    X(SPLIT, "split", "a", IN_TL | IN_METHOD) \
    X(CAT, "cat", "input,other,can_reorder,dim", IN_TL) \
    X(LOGICAL_AND, "logical_and", "input,other", IN_METHOD) \
    X(EXPECT_ZERO, "expect_zero", "x,mask", IN_TL) \
    X(AGGREGATE_REPLACE, "aggregate_replace", "instance", IN_TL)   /* core.py (3.8+): instance, **changes */ \
    X(ATOMIC_LOAD, "atomic_load", "pointer,mask,sem,scope", IN_TL | IN_METHOD) \
    X(ATOMIC_STORE, "atomic_store", "pointer,val,mask,sem,scope", IN_TL | IN_METHOD) \
    X(ATOMIC_POLL, "atomic_poll", "pointer,expected_value,sem,scope,timeout_ns", IN_TL | IN_METHOD) \
    X(LOGICAL_OR, "logical_or", "input,other", IN_METHOD) \
    X(GATHER, "gather", "src,index,axis", IN_TL | IN_METHOD) \
    X(HISTOGRAM, "histogram", "input,num_bins,mask", IN_TL | IN_METHOD) \
    X(BROADCAST, "broadcast", "input,other", IN_TL) \
    X(MAP_ELEMENTWISE, "map_elementwise", "scalar_fn,*args,pack", IN_TL) \
    X(LOG2_CONST, "__tl_log2", "i", IN_TL)   /* standard.py _log2, for prelude.c */ \
    X(TDESC_TYPE, "tensor_descriptor", "", IN_TL)        /* classes, for isinstance() */ \
    X(TENSOR_TYPE, "tensor", "", IN_TL) \
    X(CONSTEXPR_TYPE, "constexpr_type", "", IN_TL)   /* a value with self set: constexpr_type(v), a constexpr's .type */ \
    X(PY_MIN, "min", "*args", IN_PY) \
    X(PY_MAX, "max", "*args", IN_PY) \
    X(PY_LEN, "len", "obj", IN_PY) \
    X(PY_INT, "int", "x", IN_PY) \
    X(PY_FLOAT, "float", "x", IN_PY) \
    X(PY_BOOL, "bool", "x", IN_PY) \
    X(PY_PRINT, "print", "prefix,*args,hex", IN_PY) \
    X(PY_ISINSTANCE, "isinstance", "obj,cls", IN_PY) \
    X(PY_HASATTR, "hasattr", "obj,name", IN_PY) \
    X(PY_GETATTR, "getattr", "obj,name,default", IN_PY) \
    X(DTYPE_METHOD, "<dtype method>", "", 0)   /* sema_dtype.c; self->s names the method */ \
    X(LIBDEVICE_FN, "<libdevice>", "", 0)      /* sema_libdevice.c; self->s names the function */

enum {
#define X(id, name, params, vis) B_##id,
    BUILTINS(X)
#undef X
    B_COUNT
};
/* dtype attributes and methods (sema_dtype.c) */
bool sema_dtype_attr(sema *S, sval self, const char *name, sval *out);
sval sema_dtype_method(sema *S, src_pos p, const sval *self, int nargs);

/* ---- libdevice (sema_libdevice.c) ---- */

/* libdevice.NAME as a callable (a B_LIBDEVICE_FN builtin carrying NAME in
 * .s) when an ops_math.def row answers to NAME. */
bool sema_libdevice_attr(const char *name, sval *out);
/* A call of libdevice function `name` (Triton's extern_elementwise rule). */
sval sema_libdevice_call(sema *S, src_pos p, const char *name, sval *args, int nargs, const char **kwn, sval *kwv,
                         int nkw);
/* Emit variant k of ops_math.def row opc on x[0..arity) (broadcast here). */
sval sema_mathfn_emit(sema *S, src_pos p, int opc, int k, sval *x);

/* ---- argument binding (sema_bind.c) ---- */

#define SEMA_MAXP 12

/* The arguments of one call bound to the builtin's parameters by position
 * and keyword, as Python binds them; None counts as "not given". */
typedef struct bargs {
    int id;                        /* B_* */
    sval a[SEMA_MAXP];
    bool has[SEMA_MAXP];
    const char *names[SEMA_MAXP];
    int n;
} bargs;

/* Bind a call's arguments (self first for methods) to builtin `id`'s
 * parameters; errors as Python words them (unexpected keyword, multiple
 * values, too many positional arguments). */
void sema_bind_args(sema *S, src_pos p, int id, sval *self, sval *args, int nargs, const char **kwn, sval *kwv,
                    int nkw, bargs *B);
/* Named accessors. `name` must be one of the builtin's parameters (an
 * internal error otherwise). sema_arg returns None when not given. */
bool sema_arg_has(const bargs *B, const char *name);
/* sema_version.c: an argument of B that its builtin gained after the
 * followed Triton release is that release's TypeError at p. */
void sema_version_args(sema *S, src_pos p, const bargs *B);
sval sema_arg(const bargs *B, const char *name);
sval sema_arg_req(sema *S, src_pos p, const bargs *B, const char *name);   /* error when missing */
bool sema_arg_bool(sema *S, src_pos p, const bargs *B, const char *name, bool def);

/* Checks shared by the builtins; each reports a sema_error. */
int64_t sema_want_int(sema *S, src_pos p, sval v, const char *what);       /* constexpr int */
tt_dtype sema_want_dtype(sema *S, src_pos p, sval v, tt_dtype *pt);        /* tl.float32 & co. */
sval sema_want_tensor(sema *S, src_pos p, sval v, const char *what);       /* numbers -> 0-d tensors */
/* A shape: an int or a tuple of constexpr ints (powers of two when
 * check_pow2), at most 2^20 elements; returns the rank. */
int sema_want_shape(sema *S, src_pos p, sval v, int64_t *shape, bool check_pow2);
bool sema_is_pow2(int64_t x);
void sema_check_fp(sema *S, src_pos p, sval x, const char *fn);          /* math.py _check_dtype */
/* Emit a one-result op at the current location. */
sval sema_emit(sema *S, int opc, ir_type t, int n, const ir_value *ops, tt_dtype dt, tt_dtype pt);
/* x viewed with a new shape of the same element count (a splat for 0-d x). */
sval sema_reshape(sema *S, src_pos p, sval x, int rank, const int64_t *shape);
/* sema_shape.c: a and b (one dtype, one shape of rank >= 1) merged along
 * axis ax, which doubles: a's then b's (concatenation, core.py's
 * order-keeping cat) or, with interleave, a0 b0 a1 b1 ... (packed nibble
 * pairs): a join, a permute that moves the pair axis before or after ax,
 * and a reshape that merges the two. */
sval sema_join_along(sema *S, src_pos p, sval a, sval b, int ax, bool interleave);

/* ---- builtins by concern ---- */
sval sema_builtin_load(sema *S, src_pos p, const bargs *B);                /* sema_mem.c */
void sema_builtin_store(sema *S, src_pos p, const bargs *B);
sval sema_builtin_atomic(sema *S, src_pos p, int id, const bargs *B);
sval sema_builtin_atomic_load_store(sema *S, src_pos p, int id, const bargs *B);
sval sema_builtin_atomic_poll(sema *S, src_pos p, const bargs *B);
/* sema_reduce.c: reductions and scans; call is the call node (for inlining
 * a combine_fn; may be NULL for builtins that take none) */
sval sema_builtin_reduce(sema *S, src_pos p, node *call, int id, const bargs *B);
/* sema_shape.c: join, split, cat, gather, histogram, broadcast,
 * map_elementwise (call: the call node, for inlining scalar_fn) */
sval sema_builtin_shape(sema *S, src_pos p, node *call, int id, const bargs *B);
/* sema_print.c: device_print / print, device_assert, inline_asm_elementwise,
 * tl.tuple */
sval sema_builtin_debug(sema *S, src_pos p, int id, const bargs *B);
/* tl.static_print(*values, sep=" ", end="\n"): Python's print of the
 * unwrapped values at compile time, to stdout (code_generator's
 * static_executor(print)); tensors as Triton's tensor.__str__. */
void sema_static_print(sema *S, src_pos p, const bargs *B);
/* sema_dot_scaled.c: tl.dot_scaled as upcasts, scales and a tt.dot */
sval sema_builtin_dot_scaled(sema *S, src_pos p, const bargs *B);

#endif
