/* gpu_util.h — helpers for the gpu test suite: launches built in C, kernels
 * compiled from Triton source text with the front end, PTX checked by ptxas. */
#ifndef GPU_UTIL_H
#define GPU_UTIL_H

#include "tritium/front.h"
#include "tritium/gpu.h"
#include "tritium/launch.h"

/* A launch under construction. Tensor data is deterministic pseudo-random
 * (uniform in [-1, 1) for floats, [-50, 50] for ints) from a fixed seed. */
void lb_init(launch *l, int64_t gx, int64_t gy, int64_t gz);
tt_tensor *lb_tensor(launch *l, const char *name, tt_dtype d, int rank, const int64_t *shape);
tt_tensor *lb_tensor1(launch *l, const char *name, tt_dtype d, int64_t n);
tt_tensor *lb_tensor2(launch *l, const char *name, tt_dtype d, int64_t m, int64_t n);
void lb_int(launch *l, const char *name, int64_t v);
void lb_float(launch *l, const char *name, double v);
void lb_const(launch *l, const char *name, int64_t v);
void lb_const_str(launch *l, const char *name, const char *s);
void lb_fill_random(tt_tensor *t, uint64_t seed);
/* The arguments of tests/gpu/kernels.py's 2-D matmuls on a 2 x 2 grid:
 * a_ptr [M, K] and b_ptr [K, N] of dt, c_ptr [M, N] f16, the ints M, N, K,
 * and the constexprs BM, BN, BK. */
void lb_mm(launch *l, tt_dtype dt, int64_t M, int64_t N, int64_t K, int64_t bm, int64_t bn, int64_t bk);

/* The text of file rel (a path in the repository) under $TRITIUM_SRCDIR,
 * else the working directory; NULL after a message on stderr. Caller frees. */
char *src_of(const char *rel);

/* Compile kernel `kernel` of Triton source `src` for launch l; NULL after
 * printing diagnostics. The module is kept alive in a static list. */
ir_func *compile_py(const char *src, const char *kernel, const launch *l);

/* ptxas -arch=ARCH on the text: 1 ok, 0 rejected (log on stderr), -1 no
 * ptxas found ($PTXAS, the CUDA installs, PATH). */
int ptxas_check(const char *ptx, const char *arch);
/* Number of occurrences of `needle` in `hay`. */
int count_substr(const char *hay, const char *needle);

/* true when libcuda.so.1 can be opened */
bool have_driver(void);

#endif
