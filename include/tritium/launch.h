/* launch.h — a resolved launch: kernel arguments bound to host tensors and
 * scalars, constexpr values, grid and options. Produced by the launch-spec
 * parser (repl/), consumed by the interpreter, the GPU runtime and the
 * debugger. Plain data; no behaviour here but freeing. */
#ifndef TRITIUM_LAUNCH_H
#define TRITIUM_LAUNCH_H

#include "tritium/tensor.h"

/* The numerics mode of a launch, one enum for both executors (docs/design.md,
 * "Numerics"). NUMERICS_IEEE: every op correctly rounded, no contraction.
 * NUMERICS_FAST: the GPU code makes Triton 3.6's choices (fma contraction,
 * div.full.f32, ex2.approx, libdevice with ftz) and the interpreter mimics
 * the compiled path (fma where it fuses, tf32 truncation in tl.dot). Spelled
 * `fast` on the command line; `gpu` is accepted as an alias. */
typedef enum { NUMERICS_IEEE, NUMERICS_FAST } tt_numerics;

/* "ieee", or "fast" / "gpu" (alias) -> *out; false for anything else. */
bool tt_numerics_parse(const char *s, tt_numerics *out);
/* "ieee" or "fast". */
const char *tt_numerics_name(tt_numerics n);

typedef enum { ARG_TENSOR, ARG_INT, ARG_FLOAT } launch_arg_kind;

/* One runtime kernel parameter's value. */
typedef struct launch_arg {
    char *name;
    launch_arg_kind kind;
    tt_tensor *tensor;             /* ARG_TENSOR: owned by the launch */
    bool shared;                   /* ARG_TENSOR: tensor is an earlier argument's
                                    * (a view of the same storage: one buffer) */
    int64_t offset;                /* ARG_TENSOR: the pointer's offset into tensor,
                                    * in elements (a view's storage offset) */
    bool view;                     /* ARG_TENSOR: view_* give the view the kernel's
                                    * pointer comes from (set by the C API; false:
                                    * the argument is its whole tensor) */
    int view_rank;
    int64_t view_shape[TT_MAX_RANK], view_strides[TT_MAX_RANK];   /* elements */
    bool uninit;                   /* ARG_TENSOR: made with the `empty` generator (or
                                    * storage never written): every interpreter session
                                    * of the launch counts its elements uninitialized
                                    * until a program writes them */
    tt_dtype dtype;                /* ARG_INT: TT_I32/TT_I64/TT_U64 by value as Triton
                                    * specializes (specialize.cc); ARG_FLOAT: TT_F32 */
    int64_t i;
    double f;
    /* ARG_TENSOR, desc_rank > 0: the base of a host TensorDescriptor
     * parameter (Triton 3.6 triton/tools/tensor_descriptor.py). The next
     * desc_rank ARG_INT arguments are its shape (i32), the desc_rank after
     * them its strides (i64, elements; the last is 1); the kernel sees one
     * tensor descriptor whose block shape and padding ("nan" when desc_nan,
     * else "zero") are specialized. Triton 3.6 expands a host descriptor into
     * base, shape and strides the same way (make_tensordesc_arg,
     * third_party/nvidia/backend/driver.py). desc_tf32: an fp32
     * descriptor made with round_f32_to_tf32=True (Triton 3.7+): its loads
     * and gathers round to tf32 (specialized too). */
    int desc_rank;
    int64_t desc_block[TT_MAX_RANK];
    bool desc_nan;
    bool desc_tf32;
    /* ARG_TENSOR, ptr_n > 0: a pointer table (Triton's tutorial 08): an i64
     * tensor of ptr_n elements whose element k each executor sets, before it
     * runs, to the address of byte ptr_off[k] of tensor ptr_to[k] (an index
     * into launch.args, kernel arguments and extra tensors alike) in its own
     * address space (the interpreter's checked one, or the device's).
     * ptr_to and ptr_off are owned by the launch. */
    int ptr_n;
    int *ptr_to;
    int64_t *ptr_off;
} launch_arg;

/* A constexpr parameter's value.
 * CONST_TUPLE is a tuple argument T itself: i is its length and s NULL (a
 * plain tuple) or "CLASS FIELD FIELD..." (a named tuple: its class's name,
 * then its field names; "CLASS" alone names a named tuple class of the
 * kernel's file, whose fields the front end reads). Its elements are the
 * values named T[0], T[1], ...; without a CONST_TUPLE the elements given
 * say the length, so it is needed only for empty and named tuples.
 * CONST_FUNC is a @triton.jit function, which Triton 3.6 always
 * specializes as a constexpr (specialize.cc handle_jit_callable): s is
 * "NAME" or "NAME@LINE" in the kernel's file (LINE as front_find_function
 * reads it), or "PATH:NAME@LINE" for a function at the top level of the
 * Python file PATH. */
typedef enum { CONST_INT, CONST_FLOAT, CONST_BOOL, CONST_STR, CONST_NONE, CONST_DTYPE, CONST_TUPLE, CONST_FUNC } const_kind;
typedef struct launch_const {
    char *name;
    const_kind kind;
    int64_t i;                     /* INT, BOOL; DTYPE: a tt_dtype; TUPLE: the length */
    double f;
    char *s;                       /* STR; TUPLE: the named tuple's class and fields; FUNC: the function */
} launch_const;

/* launch.debug: not given (the @triton.jit(debug=) decorator's or
 * TRITON_DEBUG decides), or given as debug=False / debug=True (runtime/jit.py
 * JITFunction.run: kwargs["debug"] = kwargs.get("debug", self.debug) or
 * knobs.runtime.debug). */
enum { LAUNCH_DEBUG_DEFAULT, LAUNCH_DEBUG_OFF, LAUNCH_DEBUG_ON };

typedef struct launch {
    launch_arg *args; int nargs;   /* runtime parameters, in kernel order */
    int nextra;                    /* then args[nargs .. nargs+nextra): tensors that are
                                    * no kernel parameter, reached only through a
                                    * descriptor or a pointer table (ARG_TENSOR) */
    launch_const *consts; int nconsts;
    int64_t grid[3];               /* missing dims are 1 */
    int num_warps;                 /* default 4 */
    int debug;                     /* Triton's `debug` launch option: LAUNCH_DEBUG_* */
    uint64_t seed;
} launch;

void launch_free(launch *l);       /* frees contents, not l itself */
/* Deep copy (tensors cloned; arguments viewing one storage keep sharing it). */
void launch_copy(launch *dst, const launch *src);
/* The argument (kernel argument or extra tensor) that owns the storage
 * argument i views: i itself unless it is `shared`; -1 when none does. */
int launch_owner(const launch *l, int i);
/* The address of argument i's first element given its owner's storage
 * address `base` (base + offset * element size). */
uint64_t launch_arg_addr(const launch *l, int i, uint64_t base);
/* Fill every pointer table of l (launch_arg.ptr_n) with addresses: the
 * address of argument j's storage is base_of(user, j) (0: none; the table
 * entry is then 0, and a load through it faults). */
void launch_fill_ptr_tables(launch *l, uint64_t (*base_of)(void *user, int j), void *user);

#endif
