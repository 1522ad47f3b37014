/* tensor.h — host tensors: the buffers a launch reads and writes, .npy I/O
 * and the tensor generators of the launch spec (randn, rand, zeros, ones,
 * empty, arange, full(V)). */
#ifndef TRITIUM_TENSOR_H
#define TRITIUM_TENSOR_H

#include "tritium/support.h"
#include "tritium/dtype.h"
#include "tritium/limits.h"

/* A dense C-order tensor. strides are in elements. Owned by whoever created
 * it; free with tt_tensor_free. */
typedef struct tt_tensor {
    char *name;                    /* the kernel argument's name (malloc'd) */
    tt_dtype dtype;                /* never TT_PTR */
    int rank;                      /* 0..TT_MAX_RANK */
    int64_t shape[TT_MAX_RANK];
    int64_t strides[TT_MAX_RANK];
    void *data;                    /* nbytes, 64-byte aligned, malloc'd */
    size_t nbytes;
    bool borrowed;                 /* data is the caller's (libtritium: a host
                                    * tensor's storage, any alignment): not freed */
} tt_tensor;

/* New zero-filled tensor. Returns NULL when the size overflows or exceeds
 * 2^40 bytes. */
tt_tensor *tt_tensor_new(const char *name, tt_dtype d, int rank, const int64_t *shape);
/* The same without data (data NULL, nbytes as if allocated): a shape for
 * analyses that never touch elements (tritium check --for-all). */
tt_tensor *tt_tensor_new_meta(const char *name, tt_dtype d, int rank, const int64_t *shape);
tt_tensor *tt_tensor_clone(const tt_tensor *t);
void tt_tensor_free(tt_tensor *t);
int64_t tt_tensor_numel(const tt_tensor *t);
/* "f32[64,128]" into buf. */
char *tt_tensor_describe(const tt_tensor *t, char *buf, size_t n);

/* The multi-dimensional index of flat (C-order) element `flat` of a tensor
 * of `rank` dims with extents `shape` into idx[0..rank). Extents <= 0 count
 * as 1; the first index takes what is left (floor division), so an
 * out-of-range flat index shows as an out-of-range (or negative) first
 * index. */
void tt_unravel(const int64_t *shape, int rank, int64_t flat, int64_t *idx);
/* "[3, 17]" for flat element `flat` (tt_unravel), "[4113]" for rank 1, "[]"
 * for rank 0, into buf (truncated to n; TT_INDEX_STR_LEN bytes always fit).
 * Returns buf. */
#define TT_INDEX_STR_LEN (TT_MAX_RANK * 22 + 3)
char *tt_index_str(const int64_t *shape, int rank, int64_t flat, char *buf, size_t n);

/* Generators. kind is one of randn, rand, zeros, ones, empty, arange, full;
 * `value` is full()'s fill value. randn/rand draw from Philox4x32-10
 * (Random123) keyed by (seed, stream) so that every argument gets its own
 * independent stream and a run is reproducible from --seed. Returns false
 * and writes a message to err for an unknown kind. */
bool tt_tensor_generate(tt_tensor *t, const char *kind, double value,
                        uint64_t seed, uint64_t stream, char *err, size_t errlen);

/* .npy I/O (format versions 1.0, 2.0, 3.0; little-endian; C order; the
 * dtypes of dtype.h). Types numpy lacks use the descriptors np.save writes
 * for ml_dtypes' arrays (tt_dtype_npy_descr): bf16 '<V2', fp8 '<V1'
 * (float8_e5m2 '<f1' is read too), fp8e4b15 '|u1'. '<V1' does not name its
 * float8 type, so the _as forms take the dtype the caller expects (`hint`,
 * TT_DTYPE_COUNT for none; an fp8 hint also reads '|u1' bytes; other
 * descriptors ignore it). On failure returns NULL/false with a
 * one-line reason in err; never crashes on a truncated or malformed file. */
tt_tensor *npy_read(const char *path, char *err, size_t errlen);
tt_tensor *npy_read_as(const char *path, tt_dtype hint, char *err, size_t errlen);
tt_tensor *npy_parse(const void *bytes, size_t len, char *err, size_t errlen);
tt_tensor *npy_parse_as(const void *bytes, size_t len, tt_dtype hint, char *err, size_t errlen);
bool npy_write(const char *path, const tt_tensor *t, char *err, size_t errlen);

/* Min, max and mean of all elements as doubles (NaNs skipped in min/max). */
void tt_tensor_stats(const tt_tensor *t, double *min, double *max, double *mean);

#endif
