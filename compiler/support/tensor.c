/* tensor.c — host tensors: allocation, description, statistics and the
 * generators of the launch spec (randn, rand, zeros, ones, empty, arange,
 * full). Random numbers come from Random123's Philox4x32-10. */
#include "tritium/tensor.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include <Random123/philox.h>

#define MAX_BYTES ((uint64_t)1 << 40)

/* Byte pattern of `empty` tensors: recognisable in a hex dump, a large
 * negative number as f32 (-4.3e8) and as an int. */
#define EMPTY_BYTE 0xCD

/* Element count of a shape; false on a negative dimension or when
 * numel * elsize exceeds 2^40 bytes (which also rules out overflow). */
static bool shape_size(int rank, const int64_t *shape, int elsize, int64_t *numel)
{
    uint64_t n = 1;
    for (int i = 0; i < rank; i++) {
        if (shape[i] < 0) return false;
        if (shape[i] == 0) n = 0;
        else if (n && (uint64_t)shape[i] > MAX_BYTES / n) return false;
        else n *= (uint64_t)shape[i];
    }
    if (n > MAX_BYTES / (uint64_t)elsize) return false;
    /* an earlier zero dimension may have hidden a huge later one; keep
     * checking them so that e.g. [0, 2^62] is still rejected */
    for (int i = 0; i < rank; i++)
        if ((uint64_t)shape[i] > MAX_BYTES) return false;
    *numel = (int64_t)n;
    return true;
}

static tt_tensor *make(const char *name, tt_dtype d, int rank, const int64_t *shape, bool with_data)
{
    if ((int)d < 0 || d >= TT_PTR || rank < 0 || rank > TT_MAX_RANK) return NULL;
    int64_t numel;
    if (!shape_size(rank, shape, tt_dtype_size(d), &numel)) return NULL;
    size_t nbytes = (size_t)numel * (size_t)tt_dtype_size(d);
    size_t alloc = (nbytes + 63) & ~(size_t)63;
    if (alloc == 0) alloc = 64;
    void *data = NULL;
    if (with_data) {
        data = aligned_alloc(64, alloc);
        if (!data) return NULL;
        memset(data, 0, alloc);
    }
    tt_tensor *t = xcalloc(1, sizeof *t);
    t->name = xstrdup(name ? name : "");
    t->dtype = d;
    t->rank = rank;
    int64_t stride = 1;
    for (int i = rank - 1; i >= 0; i--) {
        t->shape[i] = shape[i];
        t->strides[i] = stride;
        stride *= shape[i] ? shape[i] : 1;
    }
    t->data = data;
    t->nbytes = nbytes;
    return t;
}

tt_tensor *tt_tensor_new(const char *name, tt_dtype d, int rank, const int64_t *shape)
{
    return make(name, d, rank, shape, true);
}

tt_tensor *tt_tensor_new_meta(const char *name, tt_dtype d, int rank, const int64_t *shape)
{
    return make(name, d, rank, shape, false);
}

tt_tensor *tt_tensor_clone(const tt_tensor *t)
{
    if (!t) return NULL;
    tt_tensor *c = tt_tensor_new(t->name, t->dtype, t->rank, t->shape);
    if (!c) die("tt_tensor_clone: cannot allocate %zu bytes", t->nbytes);
    if (t->data) memcpy(c->data, t->data, t->nbytes);
    memcpy(c->strides, t->strides, sizeof c->strides);
    return c;
}

void tt_tensor_free(tt_tensor *t)
{
    if (!t) return;
    free(t->name);
    if (!t->borrowed) free(t->data);
    free(t);
}

int64_t tt_tensor_numel(const tt_tensor *t)
{
    int64_t n = 1;
    for (int i = 0; i < t->rank; i++) n *= t->shape[i];
    return n;
}

char *tt_tensor_describe(const tt_tensor *t, char *buf, size_t n)
{
    if (!n) return buf;
    size_t len = (size_t)snprintf(buf, n, "%s[", tt_dtype_name(t->dtype));
    for (int i = 0; i < t->rank && len < n; i++)
        len += (size_t)snprintf(buf + len, n - len, i ? ",%lld" : "%lld", (long long)t->shape[i]);
    if (len < n) snprintf(buf + len, n - len, "]");
    return buf;
}

void tt_unravel(const int64_t *shape, int rank, int64_t flat, int64_t *idx)
{
    for (int d = rank - 1; d > 0; d--) {
        int64_t ext = shape[d] > 0 ? shape[d] : 1;
        int64_t q = flat / ext;
        if (flat % ext != 0 && flat < 0) q--;        /* floor */
        idx[d] = flat - q * ext;
        flat = q;
    }
    if (rank > 0) idx[0] = flat;
}

char *tt_index_str(const int64_t *shape, int rank, int64_t flat, char *buf, size_t n)
{
    if (!n) return buf;
    int64_t idx[TT_MAX_RANK] = { 0 };
    if (rank > TT_MAX_RANK) rank = TT_MAX_RANK;
    tt_unravel(shape, rank, flat, idx);
    size_t len = (size_t)snprintf(buf, n, "[");
    for (int d = 0; d < rank && len < n; d++)
        len += (size_t)snprintf(buf + len, n - len, "%s%lld", d ? ", " : "", (long long)idx[d]);
    if (len < n) snprintf(buf + len, n - len, "]");
    return buf;
}

void tt_tensor_stats(const tt_tensor *t, double *min, double *max, double *mean)
{
    int64_t n = tt_tensor_numel(t);
    double lo = NAN, hi = NAN, sum = 0;
    for (int64_t i = 0; i < n; i++) {
        double v = tt_load_f64(t->data, t->dtype, i);
        sum += v;
        if (isnan(v)) continue;
        if (isnan(lo) || v < lo) lo = v;
        if (isnan(hi) || v > hi) hi = v;
    }
    if (min) *min = lo;
    if (max) *max = hi;
    if (mean) *mean = n ? sum / (double)n : NAN;
}

/* ---- random numbers ---- */

/* Four 32-bit random words for block `blk` of stream `stream`. The stream
 * lives in the counter's upper half and the seed in the key, so distinct
 * (stream, block) pairs are distinct counters under one key: Philox is a
 * bijection on counters, so streams never overlap. */
static philox4x32_ctr_t philox_block(uint64_t seed, uint64_t stream, uint64_t blk)
{
    philox4x32_ctr_t c = { { (uint32_t)blk, (uint32_t)(blk >> 32), (uint32_t)stream, (uint32_t)(stream >> 32) } };
    philox4x32_key_t k = { { (uint32_t)seed, (uint32_t)(seed >> 32) } };
    return philox4x32(c, k);
}

/* Significand bits of the element type, so that every uniform value is
 * exactly representable and rounding can never produce 1.0. */
static int uniform_bits(tt_dtype d)
{
    switch (d) {
    case TT_F16:  return 11;
    case TT_BF16: return 8;
    case TT_F32:  return 24;
    case TT_F8E4NV: case TT_F8E4B15: case TT_F8E4B8: return 4;
    case TT_F8E5: case TT_F8E5B16: return 3;
    default:      return 53;
    }
}

/* Uniform in [0, 1) with `bits` bits of resolution from two words. */
static double uniform01(uint32_t hi, uint32_t lo, int bits)
{
    uint64_t x = ((uint64_t)hi << 32 | lo) >> (64 - bits);
    return ldexp((double)x, -bits);
}

static void gen_rand(tt_tensor *t, int64_t n, uint64_t seed, uint64_t stream)
{
    int bits = uniform_bits(t->dtype);
    for (int64_t blk = 0; blk * 2 < n; blk++) {
        philox4x32_ctr_t r = philox_block(seed, stream, (uint64_t)blk);
        for (int j = 0; j < 2 && blk * 2 + j < n; j++)
            tt_store_f64(t->data, t->dtype, blk * 2 + j, uniform01(r.v[2 * j], r.v[2 * j + 1], bits));
    }
}

/* Box-Muller: two independent N(0,1) from u1 in (0,1], u2 in [0,1). */
static void box_muller(uint32_t a, uint32_t b, double *z0, double *z1)
{
    double u1 = ((double)a + 1.0) * 0x1p-32;
    double u2 = (double)b * 0x1p-32;
    double r = sqrt(-2.0 * log(u1));
    double th = 2.0 * M_PI * u2;
    *z0 = r * cos(th);
    *z1 = r * sin(th);
}

static void gen_randn(tt_tensor *t, int64_t n, uint64_t seed, uint64_t stream)
{
    for (int64_t blk = 0; blk * 4 < n; blk++) {
        philox4x32_ctr_t r = philox_block(seed, stream, (uint64_t)blk);
        double z[4];
        box_muller(r.v[0], r.v[1], &z[0], &z[1]);
        box_muller(r.v[2], r.v[3], &z[2], &z[3]);
        for (int j = 0; j < 4 && blk * 4 + j < n; j++) tt_store_f64(t->data, t->dtype, blk * 4 + j, z[j]);
    }
}

bool tt_tensor_generate(tt_tensor *t, const char *kind, double value,
                        uint64_t seed, uint64_t stream, char *err, size_t errlen)
{
    int64_t n = tt_tensor_numel(t);
    if (!strcmp(kind, "randn")) {
        gen_randn(t, n, seed, stream);
    } else if (!strcmp(kind, "rand")) {
        gen_rand(t, n, seed, stream);
    } else if (!strcmp(kind, "zeros")) {
        memset(t->data, 0, t->nbytes);
    } else if (!strcmp(kind, "ones") || !strcmp(kind, "full")) {
        double v = !strcmp(kind, "ones") ? 1.0 : value;
        for (int64_t i = 0; i < n; i++) tt_store_f64(t->data, t->dtype, i, v);
    } else if (!strcmp(kind, "empty")) {
        memset(t->data, EMPTY_BYTE, t->nbytes);
    } else if (!strcmp(kind, "arange")) {
        for (int64_t i = 0; i < n; i++) {
            if (tt_dtype_is_int(t->dtype)) tt_store_i64(t->data, t->dtype, i, i);
            else tt_store_f64(t->data, t->dtype, i, (double)i);
        }
    } else {
        if (err && errlen)
            snprintf(err, errlen, "unknown tensor generator '%s' (expected randn, rand, zeros, ones, empty, arange or full)", kind);
        return false;
    }
    return true;
}
