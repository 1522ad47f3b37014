/* repl_gpu.h — the GPU side of the `tritium` program: `tritium ptx`,
 * `tritium run --device gpu [--bench N]` and `tritium diff` (docs/gpu.md,
 * docs/diff-and-check.md).
 * Built only when the GPU compiler is (TRITIUM_HAVE_GPU).
 *
 * The GPU options are not part of the launch spec: repl_gpu_take removes
 * them from argv before the rest goes to repl_target_open (spec.c), so the
 * launch spec keeps one parser. They are not read from '# tritium:' lines. */
#ifndef TRITIUM_REPL_GPU_H
#define TRITIUM_REPL_GPU_H

#include <jansson.h>
#include "repl.h"
#include "tritium/gpu.h"

/* Which options repl_gpu_take removes. */
enum {
    RG_DEVICE = 1,                 /* --device cpu|gpu */
    RG_BENCH = 2,                  /* --bench N */
    RG_ARCH = 4,                   /* --arch sm_NN, --mma wgmma|sync, --persistent */
    RG_NUMERICS = 8,               /* --numerics ieee|fast (gpu is accepted for fast) */
    RG_DIFF = 16,                  /* --rtol --atol --ulp --trials --sizes --show --against */
    RG_LLVM = 32,                  /* --llvm */
};

/* `--sizes NAME=LO:HI`: each trial redraws NAME's value. */
typedef struct repl_size {
    char *name;
    int64_t lo, hi;
} repl_size;

typedef struct repl_gpu_args {
    bool gpu;                      /* --device gpu */
    int bench;                     /* --bench N: 0 none */
    const char *arch;              /* --arch (points into argv) or NULL */
    int mma_sync;                  /* --mma: -1 not given ($TRITIUM_WGMMA decides), 0 wgmma, 1 sync */
    bool persistent;               /* --persistent (else $TRITIUM_PERSISTENT decides) */
    bool has_numerics;
    tt_numerics numerics;
    bool has_rtol, has_atol;
    double rtol, atol;
    int64_t ulp;                   /* --ulp N; -1 none */
    int trials;                    /* --trials N; default 1 */
    repl_size *sizes; int nsizes;
    int show;                      /* --show N mismatches per tensor (1..10); 0: 10 */
    bool llvm;                     /* --llvm */
    bool against_interp;           /* --against SCHEDULE (not gpu) */
    interp_sched other_sched;
    bool has_other_seed;
    uint64_t other_seed;
} repl_gpu_args;

/* Remove the options selected by `which` from argv[0..argc). On success
 * *rargv is a malloc'd array (free it; its strings point into argv) of the
 * *rargc remaining words, g holds the values, and true is returned; on a bad
 * value prints "tritium: error: ..." and returns false with *rargv NULL and
 * *rargc 0 (so a caller may free *rargv either way). Words that are the
 * value of a launch-spec option (--arg X) are never taken. */
bool repl_gpu_take(int argc, char *const *argv, unsigned which, repl_gpu_args *g, int *rargc, char ***rargv);

struct dbg_diff_options;
/* The diff engine's options from the GPU options (--numerics, --rtol, --atol,
 * --ulp, --show, --arch, --against) and the launch spec (schedule, threads). */
void repl_diff_options(const repl_gpu_args *g, const repl_spec *s, uint64_t seed, struct dbg_diff_options *o);
void repl_gpu_args_free(repl_gpu_args *g);

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
 * tensors); with g->bench > 0 then time g->bench more launches one by one
 * with CUDA events, flushing the L2 cache before each as
 * triton.testing.do_bench does, and report the median; and the host cost of
 * a launch. Returns 0, 1 (the kernel failed on the device) or 2 (no driver,
 * GPU compile error: message printed with diag.h). */
int repl_gpu_execute(const ir_func *f, launch *l, const repl_gpu_args *g, repl_gpu_result *res);

/* For `tritium run`: take --device (and, with --device gpu, --bench, --arch,
 * --numerics ieee|fast) out of argc and argv; argv then points to *keep
 * (free it after the launch spec is parsed; NULL when nothing was taken).
 * --bench and --arch without --device gpu are errors. Returns false after
 * printing an error. */
bool repl_gpu_take_run(int *argc, char *const **argv, repl_gpu_args *g, char ***keep);

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
