/* fake_cuda.h — what the stand-in driver (fake_cuda.c) records, as tests
 * read it back through fake_cuda_state() (tests/gpu/test_launcher.c; the
 * ctypes copy in tests/python/test_gpu_mode.py follows this layout). */
#ifndef TRITIUM_TESTS_FAKE_CUDA_H
#define TRITIUM_TESTS_FAKE_CUDA_H

#include <stddef.h>

typedef struct fake_cuda {
    long launches, module_loads, allocs, syncs;
    unsigned grid[3], block, smem;
    void *stream;
    int used_extra;                /* the last launch passed CU_LAUNCH_PARAM_BUFFER_POINTER */
    size_t param_size;
    unsigned char params[4096];    /* the last launch's parameter buffer */
} fake_cuda;

#endif
