/* repl_gpu.h — the GPU side of the `tritium` program: `tritium ptx`,
 * `tritium run --device gpu [--bench N]` and `tritium diff` (docs/gpu.md,
 * docs/diff-and-check.md).
 * Built only when the GPU compiler is (TRITIUM_HAVE_GPU).
 *
 * The GPU options are settings (settings.def) outside the launch spec:
 * repl_settings_take removes them from argv before the rest goes to
 * repl_target_open (spec.c). They are not read from '# tritium:' lines. */
#ifndef TRITIUM_REPL_GPU_H
#define TRITIUM_REPL_GPU_H

#include <jansson.h>
#include "repl.h"
#include "tritium/gpu.h"

struct dbg_diff_options;
/* The diff engine's options from the settings s (numerics, rtol, atol, ulp,
 * show, arch, mma_sync, persistent, against, schedule, threads); seed: the
 * launch's (random schedules without a seed of their own). */
void repl_diff_options(const tt_settings *s, uint64_t seed, struct dbg_diff_options *o);

/* The result of a GPU run. */
typedef struct repl_gpu_result {
    gpu_stats st;
    double front_ms;               /* front_compile (filled by the caller) */
    int bench_iters;               /* 0: no benchmark */
    double bench_median_ms, bench_min_ms, bench_max_ms;   /* CUDA events, per launch */
    double launch_us;              /* host time of one cuLaunchKernel with the pre-packed
                                    * parameter buffer on the default stream: the median over
                                    * HOST_BATCHES batches of each batch's mean */
    double launch_stream_us;       /* the same on a non-blocking stream */
    tt_numerics numerics;
} repl_gpu_result;

/* Run launch l on the GPU (gpu_launch: copy in, launch, copy out into l's
 * tensors) with the settings s (numerics, arch, mma_sync, persistent, the
 * developer knobs); with s->bench > 0 then time s->bench more launches one
 * by one with CUDA events, flushing the L2 cache before each as
 * triton.testing.do_bench does, and report the median; and the host cost of
 * a launch. Returns 0, 1 (the kernel failed on the device) or 2 (no driver,
 * GPU compile error: message printed with diag.h). */
int repl_gpu_execute(const ir_func *f, launch *l, const tt_settings *s, repl_gpu_result *res);

/* The GPU lines of `tritium run --device gpu`'s summary (device, grid,
 * compile/load/copy/kernel times, benchmark), and the same as a JSON object
 * (new reference). */
void repl_gpu_print_text(FILE *f, const repl_gpu_result *r, const launch *l);
json_t *repl_gpu_json(const repl_gpu_result *r);

/* `tritium ptx` and `tritium diff`. */
int repl_cmd_ptx(int argc, char *const *argv);
int repl_cmd_diff(int argc, char *const *argv);
void repl_gpu_print_usage(FILE *f, const char *command);

#endif
