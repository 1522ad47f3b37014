/* compile.c — gpu_compile: cache lookup, then axis analysis, layout plan,
 * lowering and PTX emission in a fresh LLVM context. */
#include "gpu_int.h"

#include <llvm-c/Target.h>
#include <llvm-c/TargetMachine.h>
#include <string.h>

#include "gpu_rev.h"     /* GPU_SOURCE_HASH: this build's code generator (meson.build) */

#define GPU_COMPILER_REV "tritium-gpu-1"

const char *gpu_compiler_version(void)
{
    static char v[64];
    if (!v[0]) {
        unsigned maj = 0, min = 0, pat = 0;
        LLVMGetVersion(&maj, &min, &pat);
        snprintf(v, sizeof v, "%s-%s llvm-%u.%u.%u", GPU_COMPILER_REV, GPU_SOURCE_HASH, maj, min, pat);
    }
    return v;
}

void gpu_options_default(gpu_options *o)
{
    memset(o, 0, sizeof *o);
    o->set = *tt_settings_env();
}

void gpu_kernel_free(gpu_kernel *k)
{
    if (!k) return;
    free(k->name);
    free(k->ptx);
    memset(k, 0, sizeof *k);
}

/* FNV-1a, twice with different bases: a 128-bit key (not cryptographic). */
static void hash_hex(const char *s, size_t n, char out[33])
{
    uint64_t h1 = 0xcbf29ce484222325ULL, h2 = 0x84222325cbf29ce4ULL;
    for (size_t i = 0; i < n; i++) {
        h1 = (h1 ^ (unsigned char)s[i]) * 0x100000001b3ULL;
        h2 = (h2 ^ (unsigned char)s[i]) * 0x100000001b3ULL;
        h2 ^= h2 >> 29;
    }
    snprintf(out, 33, "%016llx%016llx", (unsigned long long)h1, (unsigned long long)h2);
}

static char *kernel_name(const char *n)
{
    char *s = xmalloc(strlen(n) + 2);
    size_t k = 0;
    if (n[0] >= '0' && n[0] <= '9') s[k++] = '_';
    for (; *n; n++) {
        char c = *n;
        bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
        s[k++] = ok ? c : '_';
    }
    s[k] = 0;
    if (!k) { free(s); return xstrdup("kernel"); }
    return s;
}

static char *cache_key_text(const ir_func *f, const gpu_options *o, const gpu_spec *spec, const char *arch)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&buf, &len);
    if (!m) die("open_memstream");
    fprintf(m, "%s\narch=%s\ndefault_passes=%s\n", gpu_compiler_version(), arch, gpu_default_passes());
    tt_settings_key(&o->set, m);           /* every row of settings.def that changes code */
    fputs("spec=", m);
    for (int k = 0; k < f->nargs && k < 64; k++)
        fputc(spec && (spec->div16 >> k & 1) ? 'D' : spec && (spec->eq1 >> k & 1) ? '1' : '-', m);
    fputc('\n', m);
    ir_print(m, f);
    fclose(m);
    return buf;
}

int gpu_compile(const ir_func *fc, const gpu_options *o0, const gpu_spec *spec,
                gpu_kernel *out, char *err, size_t errlen)
{
    double t0 = now_seconds(), c0 = cpu_seconds();
    gpu_options o;
    if (o0) o = *o0;
    else gpu_options_default(&o);
    ir_func *f = (ir_func *)fc;
    memset(out, 0, sizeof *out);
    o.set.llvm_arg = gpu_llvm_extra_arg();   /* process-wide: the value LLVM starts (or started) with */
    int nw = o.set.num_warps ? (int)o.set.num_warps : 4;
    if (nw < 1 || nw > 32 || (nw & (nw - 1))) {
        snprintf(err, errlen, "gpu: num_warps must be a power of two from 1 to 32 (got %d)", nw);
        return -1;
    }
    const char *arch = o.set.arch ? o.set.arch : "sm_90";
    int sm = 0, n = 0;
    if (sscanf(arch, "sm_%d%n", &sm, &n) != 1 || sm < 50 || (arch[n] && strcmp(arch + n, "a")) ||
        (arch[n] && sm != 90)) {
        snprintf(err, errlen, "gpu: unknown target '%s' (expected sm_NN, e.g. sm_80, or sm_90a)", arch);
        return -1;
    }
    /* wgmma needs the sm_90a target; Triton 3.6 targets sm_90a on capability 90 */
    if (!strcmp(arch, "sm_90") && !o.set.mma_sync) arch = "sm_90a";
    o.set.num_warps = nw;
    char *ktext = cache_key_text(f, &o, spec, arch);
    hash_hex(ktext, strlen(ktext), out->key);
    free(ktext);
    out->name = kernel_name(f->name);
    snprintf(out->arch, sizeof out->arch, "%s", arch);
    out->num_warps = nw;
    char *dir = o.no_cache ? NULL : gpu_cache_dir(&o);
    void *data;
    size_t dlen;
    if (dir && gpu_cache_read(dir, out->key, ".ptx", &data, &dlen)) {
        /* first line: "// tritium smem=N tmaps=HEX tma=HEX" */
        int smem = 0;
        unsigned long long tmaps = 0, used = 0;
        if (sscanf((char *)data, "// tritium smem=%d tmaps=%llx tma=%llx", &smem, &tmaps, &used) == 3) {
            out->ptx = data;
            out->ptx_len = dlen;
            out->smem_bytes = smem;
            out->tmaps = tmaps;
            out->tma_used = used;
            out->from_cache = true;
            out->compile_ms = (now_seconds() - t0) * 1e3;
            free(dir);
            return 0;
        }
        free(data);
    }

    gpu_llvm_init();
    gctx g;
    memset(&g, 0, sizeof g);
    g.f = f;
    g.o = &o;
    g.spec = spec;
    g.num_warps = nw;
    while ((1 << g.nwarp) < nw) g.nwarp++;
    g.fast = o.set.numerics == NUMERICS_FAST;
    g.sm = sm;
    g.err = err;
    g.errlen = errlen;
    g.C = LLVMContextCreate();
    g.M = LLVMModuleCreateWithNameInContext(out->name, g.C);
    g.B = LLVMCreateBuilderInContext(g.C);
    g.t_void = LLVMVoidTypeInContext(g.C);
    g.t_i1 = LLVMInt1TypeInContext(g.C);
    g.t_i8 = LLVMInt8TypeInContext(g.C);
    g.t_i16 = LLVMInt16TypeInContext(g.C);
    g.t_i32 = LLVMInt32TypeInContext(g.C);
    g.t_i64 = LLVMInt64TypeInContext(g.C);
    g.t_f16 = LLVMHalfTypeInContext(g.C);
    g.t_bf16 = LLVMBFloatTypeInContext(g.C);
    g.t_f32 = LLVMFloatTypeInContext(g.C);
    g.t_f64 = LLVMDoubleTypeInContext(g.C);
    g.t_gptr = LLVMPointerTypeInContext(g.C, 1);
    g.t_sptr = LLVMPointerTypeInContext(g.C, 3);
    int rc = -1;
    g.t_tm = now_seconds();
    if (gpu_target_machine(&g, arch)) goto out;
    g.t_tm = now_seconds() - g.t_tm;
    LLVMSetTarget(g.M, "nvptx64-nvidia-cuda");
    LLVMTargetDataRef td = LLVMCreateTargetDataLayout(g.tm);
    char *dl = LLVMCopyStringRepOfTargetData(td);
    LLVMSetDataLayout(g.M, dl);
    LLVMDisposeMessage(dl);
    LLVMDisposeTargetData(td);

    size_t nv = (size_t)f->values.n + 1;
    g.vlay = xcalloc(nv, sizeof(int));
    g.ax = xcalloc(nv, sizeof(gaxis));
    g.val = xcalloc(nv, sizeof(gv));
    g.vblock = xcalloc(nv, sizeof(LLVMBasicBlockRef));
    g.stile = xcalloc(nv, sizeof(gtile *));
    g.smem = LLVMAddGlobalInAddressSpace(g.M, LLVMArrayType(g.t_i8, 0), "tt_smem", 3);
    LLVMSetLinkage(g.smem, LLVMExternalLinkage);
    LLVMSetAlignment(g.smem, 16);
    if (o.set.gpu_ir) ir_print(stderr, f);
    gpu_axis_analyze(f, spec, g.ax);
    gpu_plan(&g);
    if (g.failed) goto out;
    if (o.set.gpu_debug) {
        for (int v = 0; v < f->values.n; v++) {
            if (ir_type_rank(f->values.v[v].type) == 0) continue;
            fprintf(stderr, "%%%d: ", v);
            gl_print(stderr, gl_get(&g, g.vlay[v]));
            const gaxis *a = &g.ax[v];
            fprintf(stderr, " contig=%lld div=%lld cnst=%lld/%lld\n", (long long)a->contig[ir_type_rank(f->values.v[v].type) - 1],
                    (long long)a->div[ir_type_rank(f->values.v[v].type) - 1], (long long)a->cnst[0], (long long)a->cnst[1]);
        }
    }
    double t_low = now_seconds();
    gpu_lower(&g, out->name);
    double t_lowered = now_seconds(), c_lowered = cpu_seconds();
    unsigned ninst = 0;
    if (!g.failed && o.set.gpu_time)
        for (LLVMBasicBlockRef b = LLVMGetFirstBasicBlock(g.fn); b; b = LLVMGetNextBasicBlock(b))
            for (LLVMValueRef i = LLVMGetFirstInstruction(b); i; i = LLVMGetNextInstruction(i)) ninst++;
    if (g.failed) goto out;
    if (gpu_codegen(&g, &out->ptx, &out->ptx_len)) goto out;
    if (o.set.gpu_time)     /* developer knob: where a cold compile goes (bench/compile_time.py) */
        fprintf(stderr, "gpu time: %s: analysis %.2f lower %.2f opt %.2f codegen %.2f total %.2f ms; "
                "cpu: lower %.2f opt %.2f codegen %.2f total %.2f ms; %u instructions; target machine %.2f, "
                "libdevice and verifier %.2f ms\n",
                out->name, (t_low - t0) * 1e3, (t_lowered - t_low) * 1e3, g.t_opt * 1e3, g.t_cg * 1e3,
                (now_seconds() - t0) * 1e3, (c_lowered - c0) * 1e3, g.c_opt * 1e3, g.c_cg * 1e3,
                (cpu_seconds() - c0) * 1e3, ninst, g.t_tm * 1e3, g.t_prep * 1e3);
    {
        /* prefix the shared-memory size and the tensor maps for the cache (a PTX comment) */
        char *full = xasprintf("// tritium smem=%d tmaps=%llx tma=%llx\n%s", g.smem_bytes, (unsigned long long)g.tmaps,
                               (unsigned long long)g.tma_used, out->ptx);
        free(out->ptx);
        out->ptx = full;
        out->ptx_len = strlen(full);
    }
    out->smem_bytes = g.smem_bytes;
    out->tmaps = g.tmaps;
    out->tma_used = g.tma_used;
    if (dir) gpu_cache_write(dir, out->key, ".ptx", out->ptx, out->ptx_len);
    rc = 0;
out:
    free(g.vlay);
    free(g.ax);
    free(g.val);
    free(g.vblock);
    free(g.stile);
    vec_free(&g.lays);
    vec_free(&g.remat);
    vec_free(&g.lw);
    arena_free(&g.mem);
    if (g.tm) LLVMDisposeTargetMachine(g.tm);
    LLVMDisposeBuilder(g.B);
    LLVMDisposeModule(g.M);
    LLVMContextDispose(g.C);
    free(dir);
    if (rc) {
        free(out->name);
        free(out->ptx);
        out->name = out->ptx = NULL;
    }
    out->compile_ms = (now_seconds() - t0) * 1e3;
    return rc;
}
