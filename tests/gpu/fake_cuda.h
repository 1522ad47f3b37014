/* fake_cuda.h — what the stand-in driver (fake_cuda.c) records, as tests
 * read it back through fake_cuda_state() (tests/gpu/test_launcher.c; the
 * ctypes copy in tests/python/test_gpu_mode.py follows this layout). */
#ifndef TRITIUM_TESTS_FAKE_CUDA_H
#define TRITIUM_TESTS_FAKE_CUDA_H

#include <stddef.h>
#include <stdint.h>

/* What the stand-in cuTensorMapEncodeTiled writes into a CUtensorMap:
 * its arguments (ranks 1-4; dims, box innermost first; the outer strides
 * in bytes; swizzle as CUtensorMapSwizzle). */
typedef struct fake_tmap {
    int dtype, rank;
    uint64_t addr, dims[4], strides[3];
    uint32_t box[4];
    int swizzle;
} fake_tmap;

typedef struct fake_cuda {
    long launches, module_loads, allocs, syncs;
    unsigned grid[3], block, smem;
    void *stream;
    int used_extra;                /* the last launch passed CU_LAUNCH_PARAM_BUFFER_POINTER */
    size_t param_size;
    unsigned char params[4096];    /* the last launch's parameter buffer */
    long tmaps;                    /* cuTensorMapEncodeTiled calls */
} fake_cuda;

#endif
