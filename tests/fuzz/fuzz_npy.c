/* fuzz_npy.c — libFuzzer harness for the .npy reader (npy_parse): any
 * bytes must give a tensor or a one-line reason, never a crash. */
#include <stdint.h>
#include <string.h>
#include "tritium/tensor.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char err[256];
    err[0] = 0;
    tt_tensor *t = npy_parse(data, size, err, sizeof err);
    if (t) {
        /* every element must be readable */
        int64_t n = tt_tensor_numel(t);
        volatile double sum = 0;
        for (int64_t i = 0; i < n; i++) sum += tt_load_f64(t->data, t->dtype, i);
        if ((size_t)n * (size_t)tt_dtype_size(t->dtype) > t->nbytes) __builtin_trap();
        tt_tensor_free(t);
    } else if (!err[0] || !memchr(err, 0, sizeof err)) {
        __builtin_trap();          /* a failure must say why */
    }
    return 0;
}
