/* limits.h — the product's resource limits as one policy, and checked
 * arithmetic for numbers that come from a user.
 *
 * Every limit is a row of one table (limits.c): a name, a default, the
 * environment variable that raises it (none for language rules), and the
 * unit. Callers ask tt_limit() for the value and tt_limit_exceeded() for the
 * message, so the error always names the limit and how to raise it.
 * docs/limits.md lists the same rows. */
#ifndef TRITIUM_LIMITS_H
#define TRITIUM_LIMITS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Triton 3.6 language/core.py: TRITON_MAX_TENSOR_NUMEL = 1048576, checked by
 * semantic.py (arange, full) and core.py (block_type.__init__) for every tile. */
#define TT_MAX_TENSOR_NUMEL ((int64_t)1 << 20)

/* The deepest nesting of regions in a function's IR: a region of an op in
 * the body is at level 1, a region of an op in that region at level 2, and
 * so on (an scf.for in an scf.if, a reduce's combine region in a loop). The
 * IR's text parser (ir/parse.c) refuses deeper text and its printer
 * (ir/print.c) prints an error in place of a deeper region, so that every IR
 * the printer writes parses back: one limit for both (TT_LIM_REGION_DEPTH). */
#define TT_MAX_REGION_DEPTH 64

/* The most dims a host tensor or a tile (ir.h IR_MAX_RANK) may have. Triton
 * 3.6 sets no rank limit on tiles (only TRITON_MAX_TENSOR_NUMEL = 2^20
 * elements, python/triton/_utils.py) and allows tensor descriptors of rank
 * 1..5 (semantic.py make_tensor_descriptor). Its standard.py views a tile as
 * the hypercube [2] * log2(numel) (sort, flip), up to 20 dims, and its tests
 * reshape to rank 9 (test_core.py test_reshape). 32 covers both and numpy
 * 1.x's NPY_MAXDIMS, so any array numpy hands over fits. */
#define TT_MAX_RANK 32
/* The most dims of a tensor descriptor, host or device side (TMA's; Triton
 * 3.6 semantic.py make_tensor_descriptor, tools/tensor_descriptor.py
 * TensorDescriptor.__post_init__). */
#define TT_MAX_DESC_RANK 5

typedef enum tt_limit_id {
    TT_LIM_TILE_NUMEL,    /* elements of one tile (a Triton rule, fixed) */
    TT_LIM_SOURCE_BYTES,  /* bytes of one kernel source file (and each import) */
    TT_LIM_SCRIPT_BYTES,  /* bytes of a debugger command file (-x, source) or one command line */
    TT_LIM_NPY_BYTES,     /* bytes of one .npy file (--arg X=@FILE, load) */
    TT_LIM_LAUNCH_BYTES,  /* bytes of all the tensors of one launch together */
    TT_LIM_REGION_DEPTH,  /* nesting of the IR's regions (a rule of its text form, fixed) */
    TT_LIM_COUNT
} tt_limit_id;

typedef struct tt_limit_info {
    const char *what;     /* "kernel source file", for messages */
    const char *env;      /* variable that sets it, NULL when fixed */
    int64_t def;          /* default value */
    const char *unit;     /* "bytes" or "elements" */
} tt_limit_info;

const tt_limit_info *tt_limit_info_of(tt_limit_id id);

/* The limit's value: the environment variable when set to a positive number
 * (a K, M or G suffix multiplies by 2^10, 2^20, 2^30), else the default. */
int64_t tt_limit(tt_limit_id id);

/* "the kernel source file exceeds the limit of 8 MiB (set TRITIUM_MAX_SOURCE_BYTES
 * to raise it)"; malloc'd, caller frees. */
char *tt_limit_exceeded(tt_limit_id id);

/* Read the whole file at path (NUL-terminated, malloc'd) when it has at most
 * tt_limit(id) bytes. NULL with errno set otherwise: EFBIG past the limit
 * (also for endless files such as /dev/zero), EISDIR for a directory, or
 * the error of open/read. *len may be NULL. */
char *tt_read_file_limited(const char *path, tt_limit_id id, size_t *len);

/* Checked arithmetic (true when the result overflowed; *r then holds the
 * wrapped value and must not be used). */
static inline bool tt_add_overflow(int64_t a, int64_t b, int64_t *r) { return __builtin_add_overflow(a, b, r); }
static inline bool tt_sub_overflow(int64_t a, int64_t b, int64_t *r) { return __builtin_sub_overflow(a, b, r); }
static inline bool tt_mul_overflow(int64_t a, int64_t b, int64_t *r) { return __builtin_mul_overflow(a, b, r); }

/* Saturating arithmetic: the result clamped to [INT64_MIN, INT64_MAX]. */
int64_t tt_sat_add(int64_t a, int64_t b);
int64_t tt_sat_mul(int64_t a, int64_t b);

/* Parse the decimal digits at *s (at least one) into *v. False, with *s
 * unchanged, when there is no digit or the number exceeds INT64_MAX; the
 * caller reports "number too large". */
bool tt_parse_digits(const char **s, int64_t *v);

#endif
