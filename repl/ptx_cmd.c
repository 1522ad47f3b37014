/* ptx_cmd.c — `tritium ptx`: compile a kernel for a launch and print its PTX
 * (or, with --llvm, the optimized LLVM IR). Needs only LLVM, no GPU. */
#include "repl_gpu.h"
#include "tritium/diag.h"

int repl_cmd_ptx(int argc, char *const *argv)
{
    if (repl_wants_help(argc, argv)) {
        repl_gpu_print_usage(stdout, "ptx");
        return REPL_EXIT_OK;
    }
    /* ptx's settings outside the launch spec: --arch, --mma, --persistent, --llvm */
    tt_settings cs;
    tt_settings_copy(&cs, tt_settings_env());
    int ac;
    char **av;
    if (!repl_settings_take(argc, argv, TT_CMD_PTX, false, &cs, &ac, &av)) {
        tt_settings_free(&cs);
        return REPL_EXIT_INPUT;
    }
    repl_target t;
    repl_resolve_opts ro = { .types_only = true, .settings = &cs };
    int rc = repl_target_open(&t, ac, av, REPL_OPT_LAUNCH | REPL_OPT_CMD(TT_CMD_PTX), &ro);
    free(av);
    tt_settings_free(&cs);
    if (rc) { repl_target_close(&t); return rc; }
    const tt_settings *s = &t.spec.set;
    double tf = now_seconds(), cf = cpu_seconds();
    ir_func *fn = repl_target_compile(&t);
    if (fn && s->gpu_time)     /* developer knob (bench/compile_time.py) */
        fprintf(stderr, "gpu time: front %.2f ms; cpu %.2f ms\n", (now_seconds() - tf) * 1e3, (cpu_seconds() - cf) * 1e3);
    if (!fn) {
        rc = REPL_EXIT_INPUT;
        goto out;
    }
    gpu_options o;
    gpu_options_default(&o);
    o.set = *s;
    if (!o.set.arch) o.set.arch = "sm_90";        /* no device needed: a fixed default target (sm_90a with wgmma) */
    o.set.num_warps = t.launch.num_warps > 0 ? t.launch.num_warps : 4;
    if (s->llvm) {
        o.dump_llvm = stdout;
        o.no_cache = true;                    /* the IR is only printed when LLVM runs */
    }
    /* the specialization gpu_launch would use: tensors are 16-byte aligned,
     * integers divisible by 16 are marked */
    gpu_spec spec = gpu_spec_of_launch(fn, &t.launch);
    gpu_kernel k;
    char err[2048];
    if (gpu_compile(fn, &o, &spec, &k, err, sizeof err)) {
        diag_error(REPL_NOPOS, "%s", err);
        rc = REPL_EXIT_INPUT;
    } else {
        if (!s->llvm) fputs(k.ptx, stdout);
        fflush(stdout);
        gpu_kernel_free(&k);
    }
    ir_func_free(fn);
out:
    repl_target_close(&t);
    return rc;
}
