/* launcher.c — gpu_launcher: a compiled, loaded kernel with its parameter
 * buffer's layout, memoized per (function, specialization, options), so
 * that a warm launch is one cuLaunchKernel with a pre-packed buffer: no IR
 * printing or hashing, no cache file read, no module load, no allocation
 * (Triton 3.6 does the same with its CompiledKernel cache, runtime/jit.py
 * JITFunction.run, and the launcher it generates once per signature,
 * third_party/nvidia/backend/driver.py make_launcher). */
#include "gpu_int.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

/* What makes two compiles equal, without printing the IR: the function's
 * serial number (ir_func_new), the specialization and every setting that
 * changes the PTX (settings.def's code column, tt_settings_same_code). */
typedef struct memo_key {
    uint64_t serial;
    gpu_spec spec;
    tt_settings set;                         /* strings owned by the memo */
} memo_key;

typedef struct memo_entry {
    memo_key key;
    unsigned generation;                     /* cuda_context_generation at load */
    gpu_launcher *l;
} memo_entry;

static struct {
    pthread_mutex_t mu;
    VEC(memo_entry) v;
} memo = { .mu = PTHREAD_MUTEX_INITIALIZER };

static bool key_eq(const memo_key *a, const memo_key *b)
{
    return a->serial == b->serial && a->spec.div16 == b->spec.div16 && a->spec.eq1 == b->spec.eq1 &&
           tt_settings_same_code(&a->set, &b->set);
}

/* The parameter as gpu_lower declares it (lower.c gpu_lower: i1, i8, i16 as
 * i32; f16 and bf16 as i16 bit patterns; pointers as 64-bit addresses). */
static int param_kind(const ir_func *f, int k, gpu_param_kind *kind)
{
    ir_type t = f->values.v[f->regions.v[IR_BODY].args[k]].type;
    switch (ir_type_get(t)->elem) {
    case TT_PTR: *kind = GPU_P_PTR; return 8;
    case TT_BOOL: *kind = GPU_P_BOOL; return 4;
    case TT_I8: case TT_I16: case TT_I32: *kind = GPU_P_I32; return 4;
    case TT_I64: *kind = GPU_P_I64; return 8;
    case TT_F16: *kind = GPU_P_F16; return 2;
    case TT_BF16: *kind = GPU_P_BF16; return 2;
    case TT_F32: *kind = GPU_P_F32; return 4;
    case TT_F64: *kind = GPU_P_F64; return 8;
    default: return -1;
    }
}

int gpu_param_layout(const ir_func *f, gpu_param **params, size_t *size, char *err, size_t errlen)
{
    int n = f->regions.v[IR_BODY].nargs;
    gpu_param *p = xcalloc((size_t)n + 1, sizeof *p);
    size_t off = 0;
    for (int k = 0; k < n; k++) {
        int sz = param_kind(f, k, &p[k].kind);
        if (sz < 0) {
            const char *nm = f->values.v[f->regions.v[IR_BODY].args[k]].name;
            snprintf(err, errlen, "kernel parameter %s: unsupported scalar type", nm ? nm : "?");
            free(p);
            return -1;
        }
        off = (off + (size_t)sz - 1) & ~(size_t)(sz - 1);      /* the CUDA ABI: aligned to its size */
        p[k].offset = (int)off;
        off += (size_t)sz;
    }
    *params = p;
    /* the end of the last parameter, with no tail padding: the driver refuses a
     * CU_LAUNCH_PARAM_BUFFER_SIZE other than the kernel's parameter space
     * (CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES on an H100, driver 580, for 32 bytes
     * against add_kernel's 28) */
    *size = off;
    return 0;
}

int gpu_param_store(gpu_param_kind kind, const launch_arg *a, uint64_t dev, void *dst, char *err, size_t errlen)
{
    const char *nm = a->name ? a->name : "?";
    if (kind == GPU_P_PTR) {
        if (a->kind != ARG_TENSOR) {
            snprintf(err, errlen, "argument %s: the kernel expects a tensor", nm);
            return -1;
        }
        memcpy(dst, &dev, 8);
        return 0;
    }
    if (a->kind == ARG_TENSOR) {
        snprintf(err, errlen, "argument %s: the kernel expects a scalar, got a tensor", nm);
        return -1;
    }
    double fv = a->kind == ARG_FLOAT ? a->f : (double)a->i;
    int64_t iv = a->kind == ARG_INT ? a->i : (int64_t)a->f;
    switch (kind) {
    case GPU_P_BOOL: { int32_t v = iv != 0; memcpy(dst, &v, 4); break; }
    case GPU_P_I32: { int32_t v = (int32_t)iv; memcpy(dst, &v, 4); break; }
    case GPU_P_I64: memcpy(dst, &iv, 8); break;
    /* floats rounded once, as the interpreter stores them (tt_store_f64) */
    case GPU_P_F16: tt_store_f64(dst, TT_F16, 0, fv); break;
    case GPU_P_BF16: tt_store_f64(dst, TT_BF16, 0, fv); break;
    case GPU_P_F32: tt_store_f64(dst, TT_F32, 0, fv); break;
    case GPU_P_F64: tt_store_f64(dst, TT_F64, 0, fv); break;
    case GPU_P_PTR: break;
    }
    return 0;
}

int gpu_launcher_pack(const gpu_launcher *L, const launch *l, const uint64_t *addr, void *buf, char *err,
                      size_t errlen)
{
    if (l->nargs != L->nparams) {
        snprintf(err, errlen, "kernel %s takes %d runtime arguments, the launch gives %d", L->k.name, L->nparams,
                 l->nargs);
        return -1;
    }
    memset(buf, 0, L->size);
    for (int i = 0; i < L->nparams; i++)
        if (gpu_param_store(L->params[i].kind, &l->args[i], addr[i], (char *)buf + L->params[i].offset, err, errlen))
            return -1;
    return 0;
}

/* Load gk's module: the driver's whole-program JIT of the PTX
 * (cuda_module_load_ptx; its compute cache keeps the result). */
static int load_module(const gpu_kernel *gk, const gpu_options *o, cuda_module **mod, char *err, size_t errlen)
{
    double t0 = now_seconds(), c0 = cpu_seconds();
    if (cuda_module_load_ptx(gk->ptx, mod)) {
        snprintf(err, errlen, "%s", cuda_error());
        return -1;
    }
    if (o->set.gpu_time)     /* developer knob: the driver's PTX -> SASS (bench/compile_time.py --jit) */
        fprintf(stderr, "gpu time: jit %.2f ms; cpu: jit %.2f ms\n", (now_seconds() - t0) * 1e3,
                (cpu_seconds() - c0) * 1e3);
    return 0;
}

/* The parameters after the IR's: a persistent kernel's grid (i32 x3, the C
 * rule) and how many CTAs it launches at most; the tensor maps
 * (gpu_kernel.tmaps; their programs from gpu_tma_maps), where the loaded
 * kernel has them (ptxas aligns them in the constant bank, so their offsets
 * come from the driver). */
static int tail_layout(gpu_launcher *L, const ir_func *f, const gpu_options *o, const gpu_spec *spec, uint64_t tmaps,
                       char *err, size_t errlen)
{
    int first_map = L->nparams;
    if (o->set.persistent) {
        cuda_device_info di;
        int per_sm = 0;
        if (cuda_device_info_get(&di) || cuda_kernel_occupancy(&L->k, L->block, L->smem, &per_sm)) {
            snprintf(err, errlen, "%s", cuda_error());
            return -1;
        }
        L->persistent_ctas = (per_sm > 0 ? per_sm : 1) * (di.sm_count > 0 ? di.sm_count : 1);
        L->grid_off = (int)((L->size + 3) & ~(size_t)3);
        L->size = (size_t)L->grid_off + 12;
        first_map += 3;
    }
    L->nmaps = tmaps ? gpu_tma_maps(f, spec, L->tmap, GPU_MAX_TMAPS) : 0;
    if (L->nmaps != __builtin_popcountll(tmaps)) {
        snprintf(err, errlen, "kernel %s takes %d tensor maps, the IR has %d", L->k.name, __builtin_popcountll(tmaps),
                 L->nmaps);
        return -1;
    }
    for (int j = 0; j < L->nmaps; j++) {
        size_t off, sz;
        if (cuda_kernel_param(&L->k, first_map + j, &off, &sz)) {
            snprintf(err, errlen, "%s", cuda_error());
            return -1;
        }
        if (sz != 128 || off % 16 || off + sz > 4096) {
            snprintf(err, errlen, "kernel %s: tensor map parameter at %zu, %zu bytes (expected 128)", L->k.name, off, sz);
            return -1;
        }
        L->tmap[j].off = (int)off;
        L->size = off + sz;
    }
    return 0;
}

/* Compile, load and lay out a launcher (the memo's miss path). */
static gpu_launcher *build(const ir_func *f, const gpu_options *o, const gpu_spec *spec, unsigned gen,
                           gpu_stats *st, char *err, size_t errlen)
{
    gpu_kernel gk;
    if (gpu_compile(f, o, spec, &gk, err, errlen)) return NULL;
    st->compile_ms = gk.compile_ms;
    st->ptx_cached = gk.from_cache;
    gpu_launcher *L = xcalloc(1, sizeof *L);
    memcpy(L->key, gk.key, sizeof L->key);
    snprintf(L->arch, sizeof L->arch, "%s", gk.arch);
    L->block = 32 * gk.num_warps;
    L->smem = gk.smem_bytes;
    if (gpu_param_layout(f, &L->params, &L->size, err, errlen)) goto fail;
    L->nparams = f->regions.v[IR_BODY].nargs;
    L->tma_used = gk.tma_used;
    /* the same PTX loaded already (another function with the same text) */
    for (int i = 0; i < memo.v.n; i++)
        if (memo.v.v[i].generation == gen && !strcmp(memo.v.v[i].l->key, gk.key)) {
            L->k = memo.v.v[i].l->k;
            L->mod = NULL;                                /* the other launcher's */
            if (tail_layout(L, f, o, spec, gk.tmaps, err, errlen)) goto fail;
            gpu_kernel_free(&gk);
            return L;
        }
    double t0 = now_seconds();
    if (load_module(&gk, o, &L->mod, err, errlen)) goto fail;
    if (cuda_kernel_get(L->mod, gk.name, gk.smem_bytes, &L->k)) {
        snprintf(err, errlen, "%s", cuda_error());
        goto fail;
    }
    st->load_ms = (now_seconds() - t0) * 1e3;
    if (tail_layout(L, f, o, spec, gk.tmaps, err, errlen)) goto fail;
    gpu_kernel_free(&gk);
    return L;
fail:
    if (L->mod) cuda_module_unload(L->mod);
    free(L->params);
    free(L);
    gpu_kernel_free(&gk);
    return NULL;
}

int gpu_launcher_get(const ir_func *f, const gpu_options *o, const gpu_spec *spec, const gpu_launcher **out,
                     gpu_stats *st, char *err, size_t errlen)
{
    gpu_stats dummy;
    if (!st) st = &dummy;
    if (cuda_init()) {
        snprintf(err, errlen, "%s", cuda_error());
        return -1;
    }
    memo_key k;
    memset(&k, 0, sizeof k);
    k.serial = f->serial;
    if (spec) k.spec = *spec;
    k.set = o->set;
    if (!k.set.arch) k.set.arch = "sm_90";
    if (!k.set.num_warps) k.set.num_warps = 4;
    unsigned gen = cuda_context_generation();
    pthread_mutex_lock(&memo.mu);
    for (int i = 0; i < memo.v.n; i++)
        if (memo.v.v[i].generation == gen && key_eq(&memo.v.v[i].key, &k)) {
            *out = memo.v.v[i].l;
            pthread_mutex_unlock(&memo.mu);
            return 0;
        }
    gpu_launcher *L = build(f, o, spec, gen, st, err, errlen);
    if (L) {
        tt_settings_keep(&k.set);              /* the memo owns the strings it compares */
        memo_entry e = { k, gen, L };
        vec_push(&memo.v, e);
    }
    pthread_mutex_unlock(&memo.mu);
    *out = L;
    return L ? 0 : -1;
}

int gpu_launcher_launch(const gpu_launcher *L, const int64_t grid[3], void *stream, const void *buf)
{
    if (!L->tma_used && !L->persistent_ctas) return cuda_launch_packed(&L->k, grid, L->block, L->smem, stream, buf, L->size);
    /* the grid and the maps go into a copy of the caller's buffer */
    _Alignas(64) unsigned char b[4096];
    if (L->size > sizeof b) return cuda_fail("kernel %s: %zu bytes of parameters (at most 4096)", L->k.name, L->size);
    memcpy(b, buf, L->size);
    if (L->tma_used && gpu_tma_fill(L, b)) return -1;
    if (!L->persistent_ctas) return cuda_launch_packed(&L->k, grid, L->block, L->smem, stream, b, L->size);
    int64_t programs = grid[0] * grid[1] * grid[2];  /* each checked against CUDA's limits by the callers */
    if (programs > INT32_MAX)
        return cuda_fail("persistent kernel %s: %lld programs (at most 2^31-1)", L->k.name, (long long)programs);
    int32_t g32[3] = { (int32_t)grid[0], (int32_t)grid[1], (int32_t)grid[2] };
    memcpy(b + L->grid_off, g32, sizeof g32);
    const int64_t ctas[3] = { programs < L->persistent_ctas ? programs : L->persistent_ctas, 1, 1 };
    return cuda_launch_packed(&L->k, ctas, L->block, L->smem, stream, b, L->size);
}
