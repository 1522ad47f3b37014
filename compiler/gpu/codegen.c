/* codegen.c — LLVM module -> PTX: NVPTX target machine, libdevice linking,
 * verification, the O3 pipeline and assembly emission
 * (docs/reference/gpu-path.md §1). */
#include "gpu_int.h"

#include <llvm-c/Analysis.h>
#include <llvm-c/Support.h>
#include <llvm-c/BitReader.h>
#include <llvm-c/Linker.h>
#include <llvm-c/Target.h>
#include <llvm-c/TargetMachine.h>
#include <llvm-c/Transforms/PassBuilder.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static pthread_once_t once = PTHREAD_ONCE_INIT;

static char llvm_extra[512];          /* $TRITIUM_LLVM_ARG as applied at init */
static bool llvm_ready;               /* init_llvm ran */

static void init_llvm(void)
{
    LLVMInitializeNVPTXTargetInfo();
    LLVMInitializeNVPTXTarget();
    LLVMInitializeNVPTXTargetMC();
    LLVMInitializeNVPTXAsmPrinter();
    /* 32-bit shared-memory pointers, as Triton sets them */
    const char *args[8] = { "tritium", "-nvptx-short-ptr" };
    int n = 2;
    const char *extra = tt_settings_env()->llvm_arg;     /* one extra LLVM option (developer knob) */
    if (extra && *extra) {
        snprintf(llvm_extra, sizeof llvm_extra, "%s", extra);
        args[n++] = llvm_extra;
    }
    LLVMParseCommandLineOptions(n, args, NULL);
    __atomic_store_n(&llvm_ready, true, __ATOMIC_RELEASE);
}

void gpu_llvm_init(void) { pthread_once(&once, init_llvm); }

bool gpu_llvm_used(void) { return __atomic_load_n(&llvm_ready, __ATOMIC_ACQUIRE); }

/* The cache key needs it on every compile, cached ones too, which must not
 * initialize LLVM: before init, the value init would apply. */
const char *gpu_llvm_extra_arg(void)
{
    if (!__atomic_load_n(&llvm_ready, __ATOMIC_ACQUIRE)) {
        const char *e = tt_settings_env()->llvm_arg;
        return e ? e : "";
    }
    return llvm_extra;
}

static bool exists(const char *p)
{
    struct stat st;
    return p && stat(p, &st) == 0 && S_ISREG(st.st_mode);
}

/* libdevice.10.bc: option, $TRITIUM_LIBDEVICE, $CUDA_HOME / $CUDA_PATH,
 * the usual toolkit installs, next to Triton's wheel is not searched. */
static char *find_libdevice(const gpu_options *o)
{
    if (o->set.libdevice) return exists(o->set.libdevice) ? xstrdup(o->set.libdevice) : NULL;
    const char *homes[] = { getenv("CUDA_HOME"), getenv("CUDA_PATH"), "/usr/local/cuda", "/usr/local/cuda-13.0",
                            "/usr/local/cuda-12.9", "/usr/local/cuda-12.8", "/usr/local/cuda-12.6", "/usr/local/cuda-12.4",
                            "/opt/cuda", "/usr/lib/cuda", "/usr/lib/nvidia-cuda-toolkit" };
    for (size_t i = 0; i < TT_COUNTOF(homes); i++) {
        if (!homes[i] || !*homes[i]) continue;
        char *p = xasprintf("%s/nvvm/libdevice/libdevice.10.bc", homes[i]);
        if (exists(p)) return p;
        free(p);
    }
    /* next to the executable: share/libdevice.10.bc */
    char self[4096];
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    if (n > 0) {
        self[n] = 0;
        char *slash = strrchr(self, '/');
        if (slash) {
            *slash = 0;
            char *p = xasprintf("%s/libdevice.10.bc", self);
            if (exists(p)) return p;
            free(p);
        }
    }
    return NULL;
}

/* Link only the libdevice functions the kernel calls (and what they call):
 * every libdevice function becomes linkonce_odr, which the IR linker only
 * pulls in when referenced; linked-in definitions are then internalized so
 * O3 drops or inlines them. Lazy bitcode loading keeps this at ~2 ms. */
static int link_libdevice(gctx *g, LLVMTargetMachineRef tm)
{
    char *path = find_libdevice(g->o);
    if (!path) {
        snprintf(g->err, g->errlen, "gpu: libdevice.10.bc not found (set TRITIUM_LIBDEVICE or CUDA_HOME); "
                                    "the kernel uses math functions that need it");
        return -1;
    }
    LLVMMemoryBufferRef buf;
    char *msg = NULL;
    if (LLVMCreateMemoryBufferWithContentsOfFile(path, &buf, &msg)) {
        snprintf(g->err, g->errlen, "gpu: cannot read %s: %s", path, msg ? msg : "?");
        LLVMDisposeMessage(msg);
        free(path);
        return -1;
    }
    LLVMModuleRef lib;
    if (LLVMGetBitcodeModuleInContext2(g->C, buf, &lib)) {
        snprintf(g->err, g->errlen, "gpu: %s is not valid bitcode", path);
        LLVMDisposeMemoryBuffer(buf);
        free(path);
        return -1;
    }
    free(path);
    LLVMSetTarget(lib, "nvptx64-nvidia-cuda");
    LLVMTargetDataRef td = LLVMCreateTargetDataLayout(tm);
    char *dl = LLVMCopyStringRepOfTargetData(td);
    LLVMSetDataLayout(lib, dl);
    LLVMDisposeMessage(dl);
    LLVMDisposeTargetData(td);
    for (LLVMValueRef fn = LLVMGetFirstFunction(lib); fn; fn = LLVMGetNextFunction(fn))
        if (LLVMGetLinkage(fn) == LLVMExternalLinkage) LLVMSetLinkage(fn, LLVMLinkOnceODRLinkage);
    /* names the kernel declares */
    if (LLVMLinkModules2(g->M, lib)) {
        snprintf(g->err, g->errlen, "gpu: linking libdevice failed");
        return -1;
    }
    for (LLVMValueRef fn = LLVMGetFirstFunction(g->M); fn; fn = LLVMGetNextFunction(fn)) {
        if (fn == g->fn || LLVMIsDeclaration(fn)) continue;
        LLVMSetLinkage(fn, LLVMInternalLinkage);
    }
    return 0;
}

/* The LLVM pass pipeline: LLVM 19's default<O3> for NVPTX (as
 * `opt -passes='default<O3>' -print-pipeline-passes` prints it) less the
 * passes that do nothing for the code the lowering emits: each one removed
 * left the PTX of every kernel of bench/compile_time.py and of
 * tests/gpu/launches.txt (44 kernels) byte for byte the same. The SLP
 * vectorizer went too: it only reordered one kernel's adds and loads
 * (_layer_norm_bwd_dwdb) but cost up to 58 ms (_layer_norm_bwd_dx). The
 * optimizer's time falls by 1.5-8x; $TRITIUM_GPU_PASSES still chooses any
 * pipeline (default<O3> included). An LLVM that cannot parse it gets
 * default<O3>. Pruned again (called-value-propagation, both loop unswitches,
 * sccp, the last licm, annotation-remarks, the closing verify): the PTX of
 * those kernels stayed byte for byte the same. */
static const char tritium_passes[] =
    "function(nvvm-reflect,nvvm-intr-range),"
    "function<eager-inv>(simplifycfg<bonus-inst-threshold=1;no-forward-switch-cond;no-switch-range-to-icmp;no-switch-to-lookup;keep-loops;no-hoist-common-insts;no-sink-common-insts;speculate-blocks;simplify-cond-branch;no-speculate-unpredictables>,"
    "early-cse<>),ipsccp,"
    "function<eager-inv>(instcombine<max-iterations=1;no-use-loop-info;no-verify-fixpoint>),"
    "always-inline,function(invalidate<aa>),"
    "cgscc(devirt<4>(function<eager-inv;no-rerun>(early-cse<memssa>,"
    "speculative-execution<only-if-divergent-target>,"
    "instcombine<max-iterations=1;no-use-loop-info;no-verify-fixpoint>,reassociate,"
    "loop-mssa(licm<no-allowspeculation>,loop-rotate<header-duplication;no-prepare-for-lto>),"
    "simplifycfg<bonus-inst-threshold=1;no-forward-switch-cond;switch-range-to-icmp;no-switch-to-lookup;keep-loops;no-hoist-common-insts;no-sink-common-insts;speculate-blocks;simplify-cond-branch;no-speculate-unpredictables>,"
    "instcombine<max-iterations=1;no-use-loop-info;no-verify-fixpoint>,loop(indvars,loop-unroll-full),"
    "gvn<>,loop-mssa(licm<allowspeculation>)),function(require<should-not-run-function-passes>))),"
    "globalopt,function<eager-inv>(loop(loop-deletion),"
    "simplifycfg<bonus-inst-threshold=1;forward-switch-cond;switch-range-to-icmp;switch-to-lookup;no-keep-loops;hoist-common-insts;sink-common-insts;speculate-blocks;simplify-cond-branch;no-speculate-unpredictables>,"
    "loop-unroll<O3>,infer-alignment,instcombine<max-iterations=1;no-use-loop-info;no-verify-fixpoint>,"
    "div-rem-pairs)";

const char *gpu_default_passes(void) { return "tritium-lean-o3-2"; }

/* One target machine per compile, for the module's data layout and for PTX
 * emission (creating it costs ~1.6M instructions). Level 3 by default: level
 * 2 only swaps the codegen's two GVN passes for EarlyCSE (~5-8 % of a
 * compile) but loses facts GVN proves, e.g. the parity of a loop's remainder
 * iteration (tests/gpu/kernels.py `loops`). */
int gpu_target_machine(gctx *g, const char *arch)
{
    char *msg = NULL;
    LLVMTargetRef T;
    if (LLVMGetTargetFromTriple("nvptx64-nvidia-cuda", &T, &msg)) {
        snprintf(g->err, g->errlen, "gpu: NVPTX target unavailable: %s", msg ? msg : "?");
        LLVMDisposeMessage(msg);
        return -1;
    }
    const char *feat = !strcmp(arch, "sm_90a") ? "+ptx80" : "";
    int lvl = g->o->set.gpu_cg_level >= 0 && g->o->set.gpu_cg_level <= 3 ? (int)g->o->set.gpu_cg_level : 3;
    g->tm = LLVMCreateTargetMachine(T, "nvptx64-nvidia-cuda", arch, feat, (LLVMCodeGenOptLevel)lvl,
                                    LLVMRelocDefault, LLVMCodeModelDefault);
    if (!g->tm) {
        snprintf(g->err, g->errlen, "gpu: cannot create the NVPTX target machine for %s", arch);
        return -1;
    }
    return 0;
}

int gpu_codegen(gctx *g, char **ptx, size_t *len)
{
    LLVMTargetMachineRef tm = g->tm;
    char *msg = NULL;
    int rc = -1;
    double t_prep = now_seconds();
    LLVMValueRef flag = LLVMConstInt(g->t_i32, g->fast ? 1 : 0, 0);
    LLVMAddModuleFlag(g->M, LLVMModuleFlagBehaviorOverride, "nvvm-reflect-ftz", 16, LLVMValueAsMetadata(flag));
    if (g->uses_libdevice && link_libdevice(g, tm)) goto out;
    if (LLVMVerifyModule(g->M, LLVMReturnStatusAction, &msg)) {
        snprintf(g->err, g->errlen, "gpu: internal error: invalid LLVM IR: %.400s", msg ? msg : "?");
        if (g->o->set.gpu_debug) {
            fprintf(stderr, "%s\n", msg);
            LLVMDumpModule(g->M);
        }
        LLVMDisposeMessage(msg);
        goto out;
    }
    LLVMDisposeMessage(msg);
    msg = NULL;
    if (g->o->set.gpu_dump_pre) LLVMDumpModule(g->M);
    g->t_prep = now_seconds() - t_prep;
    double t_opt = now_seconds(), c_opt = cpu_seconds();
    LLVMPassBuilderOptionsRef po = LLVMCreatePassBuilderOptions();
    const char *passes = g->o->set.gpu_passes ? g->o->set.gpu_passes : tritium_passes;
    LLVMErrorRef e = LLVMRunPasses(g->M, passes, tm, po);
    if (e && !g->o->set.gpu_passes) {          /* another LLVM's pass names: its own O3 */
        char *m = LLVMGetErrorMessage(e);
        LLVMDisposeErrorMessage(m);
        e = LLVMRunPasses(g->M, "default<O3>", tm, po);
    }
    t_opt = now_seconds() - t_opt;
    g->c_opt = cpu_seconds() - c_opt;
    LLVMDisposePassBuilderOptions(po);
    if (e) {
        char *m = LLVMGetErrorMessage(e);
        snprintf(g->err, g->errlen, "gpu: LLVM passes failed: %s", m);
        LLVMDisposeErrorMessage(m);
        goto out;
    }
    g_wgmma_waits_first(g);
    if (g->o->dump_llvm) {
        char *s = LLVMPrintModuleToString(g->M);
        fputs(s, g->o->dump_llvm);
        LLVMDisposeMessage(s);
    }
    LLVMMemoryBufferRef buf;
    double t_cg = now_seconds(), c_cg = cpu_seconds();
    if (LLVMTargetMachineEmitToMemoryBuffer(tm, g->M, LLVMAssemblyFile, &msg, &buf)) {
        snprintf(g->err, g->errlen, "gpu: PTX emission failed: %s", msg ? msg : "?");
        LLVMDisposeMessage(msg);
        goto out;
    }
    g->t_opt = t_opt;
    g->t_cg = now_seconds() - t_cg;
    g->c_cg = cpu_seconds() - c_cg;
    size_t n = LLVMGetBufferSize(buf);
    *ptx = xmalloc(n + 1);
    memcpy(*ptx, LLVMGetBufferStart(buf), n);
    (*ptx)[n] = 0;
    *len = strlen(*ptx);
    LLVMDisposeMemoryBuffer(buf);
    rc = 0;
out:
    return rc;
}
