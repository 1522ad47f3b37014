/* launch.h — a resolved launch: kernel arguments bound to host tensors and
 * scalars, constexpr values, grid and options. Produced by the launch-spec
 * parser (repl/), consumed by the interpreter, the GPU runtime and the
 * debugger. Plain data; no behaviour here but freeing. */
#ifndef TRITIUM_LAUNCH_H
#define TRITIUM_LAUNCH_H

#include "tritium/tensor.h"

/* The numerics mode of a launch, one enum for both executors (DESIGN.md,
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
} launch_arg;

/* A constexpr parameter's value. */
typedef enum { CONST_INT, CONST_FLOAT, CONST_BOOL, CONST_STR, CONST_NONE, CONST_DTYPE } const_kind;
typedef struct launch_const {
    char *name;
    const_kind kind;
    int64_t i;                     /* INT, BOOL; DTYPE: a tt_dtype */
    double f;
    char *s;
} launch_const;

typedef struct launch {
    launch_arg *args; int nargs;   /* runtime parameters, in kernel order */
    launch_const *consts; int nconsts;
    int64_t grid[3];               /* missing dims are 1 */
    int num_warps;                 /* default 4 */
    uint64_t seed;
} launch;

void launch_free(launch *l);       /* frees contents, not l itself */
/* Deep copy (tensors cloned). */
void launch_copy(launch *dst, const launch *src);

#endif
