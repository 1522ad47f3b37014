/* limits.c — the table of resource limits (limits.h) and the bounded file
 * reader that enforces the file-size rows. */
#include "tritium/limits.h"
#include "tritium/support.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

static const tt_limit_info g_limits[TT_LIM_COUNT] = {
    [TT_LIM_TILE_NUMEL] = { "a tile", NULL, TT_MAX_TENSOR_NUMEL, "elements" },
    [TT_LIM_SOURCE_BYTES] = { "a kernel source file", "TRITIUM_MAX_SOURCE_BYTES", (int64_t)8 << 20, "bytes" },
    [TT_LIM_SCRIPT_BYTES] = { "a debugger command file or line", "TRITIUM_MAX_SCRIPT_BYTES", (int64_t)8 << 20, "bytes" },
    [TT_LIM_NPY_BYTES] = { "an .npy file", "TRITIUM_MAX_NPY_BYTES", (int64_t)4 << 30, "bytes" },
    [TT_LIM_LAUNCH_BYTES] = { "the memory of a launch's tensors", "TRITIUM_MAX_LAUNCH_BYTES", (int64_t)8 << 30, "bytes" },
    [TT_LIM_REGION_DEPTH] = { "the nesting of the IR's regions", NULL, TT_MAX_REGION_DEPTH, "levels" },
};

const tt_limit_info *tt_limit_info_of(tt_limit_id id) { return &g_limits[id]; }

int64_t tt_limit(tt_limit_id id)
{
    const tt_limit_info *l = &g_limits[id];
    const char *e = l->env ? getenv(l->env) : NULL;
    if (!e || !*e) return l->def;
    const char *p = e;
    int64_t v;
    if (!tt_parse_digits(&p, &v) || v <= 0) return l->def;
    int shift = *p == 'K' || *p == 'k' ? 10 : *p == 'M' || *p == 'm' ? 20 : *p == 'G' || *p == 'g' ? 30 : 0;
    if (shift) p++;
    if (*p) return l->def;              /* a malformed value keeps the default */
    return v > (INT64_MAX >> shift) ? INT64_MAX : v << shift;
}

static void human(int64_t v, const char *unit, char *buf, size_t n)
{
    if (!strcmp(unit, "bytes") && v >= 1024 && v % 1024 == 0) {
        const char *u[] = { "KiB", "MiB", "GiB", "TiB" };
        int k = 0;
        v /= 1024;
        while (k < 3 && v >= 1024 && v % 1024 == 0) { v /= 1024; k++; }
        snprintf(buf, n, "%lld %s", (long long)v, u[k]);
    } else {
        snprintf(buf, n, "%lld %s", (long long)v, unit);
    }
}

char *tt_limit_exceeded(tt_limit_id id)
{
    const tt_limit_info *l = &g_limits[id];
    char v[64];
    human(tt_limit(id), l->unit, v, sizeof v);
    if (!l->env) return xasprintf("%s exceeds the limit of %s", l->what, v);
    return xasprintf("%s exceeds the limit of %s (set %s to raise it)", l->what, v, l->env);
}

char *tt_read_file_limited(const char *path, tt_limit_id id, size_t *len)
{
    int64_t max = tt_limit(id);
    return read_file_max(path, (uint64_t)max > SIZE_MAX ? SIZE_MAX : (size_t)max, len);
}

int64_t tt_sat_add(int64_t a, int64_t b)
{
    int64_t r;
    if (!__builtin_add_overflow(a, b, &r)) return r;
    return b > 0 ? INT64_MAX : INT64_MIN;
}

int64_t tt_sat_mul(int64_t a, int64_t b)
{
    int64_t r;
    if (!__builtin_mul_overflow(a, b, &r)) return r;
    return (a < 0) != (b < 0) ? INT64_MIN : INT64_MAX;
}

bool tt_parse_digits(const char **s, int64_t *v)
{
    const char *p = *s;
    if (!isdigit((unsigned char)*p)) return false;
    int64_t x = 0;
    while (isdigit((unsigned char)*p)) {
        if (__builtin_mul_overflow(x, 10, &x) || __builtin_add_overflow(x, *p - '0', &x)) return false;
        p++;
    }
    *v = x;
    *s = p;
    return true;
}
