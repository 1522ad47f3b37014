/* settings.c — the settings table (settings.def), the parser of its values,
 * the process's environment read once, and the rows' part of the compile
 * cache key. */
#include "tritium/settings.h"
#include "tritium/launch.h"
#include "tritium/support.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <string.h>

_Static_assert(NUMERICS_IEEE == 0 && NUMERICS_FAST == 1, "settings.def: numerics is ieee|fast");

static const tt_setting_info rows[TT_SET_COUNT] = {
#define TT_SETTING(ID, field, TYPE, flag, env, py, domain, def, SCOPE, cmds, code, meta, help) \
    [TT_SET_##ID] = { TT_SET_##ID, #field, TT_SET_T_##TYPE, flag, env, py, domain, def, TT_SCOPE_##SCOPE, \
                      (cmds) & ~(unsigned)TT_ENV_PY, code, ((cmds) & TT_ENV_PY) != 0, meta, help, \
                      offsetof(tt_settings, field) },
#include "tritium/settings.def"
#undef TT_SETTING
};

const tt_setting_info *tt_setting_row(tt_setting_id id) { return &rows[id]; }

const char *tt_setting_scope_name(tt_setting_scope s)
{
    static const char *const n[TT_SCOPE_COUNT] = { "launch", "run", "gpu", "check", "debugger", "developer" };
    return n[s];
}

const char *tt_setting_command_name(unsigned cmd_bit)
{
    static const char *const n[TT_CMD_COUNT] = { "run", "ir", "check", "debug", "ptx", "diff", "debugger diff",
                                                 "'# tritium:' lines", "python" };
    for (int i = 0; i < TT_CMD_COUNT; i++)
        if (cmd_bit == 1u << i) return n[i];
    return NULL;
}

const char *tt_setting_type_name(tt_setting_type t)
{
    static const char *const n[] = { "bool", "int", "int", "float", "enum", "enum", "string", "path", "list" };
    return n[t];
}

/* ---- lookup ---------------------------------------------------------------- */

/* Whether `flags` ("--verbose|-v") has the spelling w[0..n). */
static bool flag_has(const char *flags, const char *w, size_t n)
{
    while (flags && *flags) {
        const char *bar = strchr(flags, '|');
        size_t k = bar ? (size_t)(bar - flags) : strlen(flags);
        if (k == n && !strncmp(flags, w, n)) return true;
        flags = bar ? bar + 1 : NULL;
    }
    return false;
}

int tt_setting_by_flag(const char *word, unsigned commands, const char **value)
{
    const char *eq = strchr(word, '=');
    size_t n = eq ? (size_t)(eq - word) : strlen(word);
    if (value) *value = eq ? eq + 1 : NULL;
    for (int i = 0; i < TT_SET_COUNT; i++)
        if ((rows[i].commands & commands) && flag_has(rows[i].flag, word, n)) return i;
    return -1;
}

int tt_setting_by_name(const char *name)
{
    for (int i = 0; i < TT_SET_COUNT; i++)
        if (!strcmp(rows[i].name, name) || (rows[i].env && !strcmp(rows[i].env, name))) return i;
    return -1;
}

/* ---- values ---------------------------------------------------------------- */

static void *field(tt_settings *s, tt_setting_id id) { return (char *)s + rows[id].offset; }
static const void *cfield(const tt_settings *s, tt_setting_id id) { return (const char *)s + rows[id].offset; }

static bool fail(char *err, size_t n, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static bool fail(char *err, size_t n, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, n, fmt, ap);
    va_end(ap);
    return false;
}

/* An integer as Python writes one: optional sign, decimal, 0x, 0o or 0b,
 * underscores between digits. *mag is the magnitude. */
static bool parse_integer(const char *s, bool *neg, uint64_t *mag)
{
    *neg = *s == '-';
    if (*s == '-' || *s == '+') s++;
    int base = 10;
    if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) base = 16, s += 2;
    else if (s[0] == '0' && (s[1] == 'o' || s[1] == 'O')) base = 8, s += 2;
    else if (s[0] == '0' && (s[1] == 'b' || s[1] == 'B')) base = 2, s += 2;
    uint64_t v = 0;
    int digits = 0;
    for (; *s; s++) {
        if (*s == '_' && digits && s[1] && s[1] != '_') continue;
        int d = isdigit((unsigned char)*s) ? *s - '0' : isxdigit((unsigned char)*s) ? tolower((unsigned char)*s) - 'a' + 10 : 99;
        if (d >= base) return false;
        if (__builtin_mul_overflow(v, (uint64_t)base, &v) || __builtin_add_overflow(v, (uint64_t)d, &v)) return false;
        digits++;
    }
    *mag = v;
    return digits > 0;
}

/* The bounds of an INT/UINT "LO..HI" domain ("max": the type's largest). */
static void int_bounds(const tt_setting_info *r, int64_t *lo, uint64_t *hi, bool *lo_neg)
{
    const char *d = r->domain, *dots = strstr(d, "..");
    bool neg;
    uint64_t m = 0;
    char *l = xstrndup(d, (size_t)(dots - d));
    if (!parse_integer(l, &neg, &m)) die("settings.def: %s: bad domain '%s'", r->name, d);
    free(l);
    *lo_neg = neg && m;
    *lo = neg ? -(int64_t)m : (int64_t)m;
    if (!strcmp(dots + 2, "max")) *hi = r->type == TT_SET_T_UINT ? UINT64_MAX : (uint64_t)INT64_MAX;
    else if (!parse_integer(dots + 2, &neg, hi) || neg) die("settings.def: %s: bad domain '%s'", r->name, d);
}

/* The message for a value outside an integer domain. */
static bool int_expected(const tt_setting_info *r, char *err, size_t n)
{
    if (!strstr(r->domain, "..")) {
        char list[128];
        size_t k = 0;
        for (const char *p = r->domain; *p && k + 3 < sizeof list; p++)
            k += (size_t)snprintf(list + k, sizeof list - k, *p == '|' ? ", " : "%c", *p);
        return fail(err, n, "expected one of %s", list);
    }
    int64_t lo;
    uint64_t hi;
    bool lo_neg;
    int_bounds(r, &lo, &hi, &lo_neg);
    if (!strcmp(strstr(r->domain, "..") + 2, "max"))
        return lo == 0 ? fail(err, n, "expected a non-negative integer") : fail(err, n, "expected an integer >= %lld", (long long)lo);
    return fail(err, n, "expected an integer from %lld to %llu", (long long)lo, (unsigned long long)hi);
}

static bool parse_int(const tt_setting_info *r, const char *v, void *out, char *err, size_t n)
{
    bool neg;
    uint64_t m;
    if (!parse_integer(v, &neg, &m)) return int_expected(r, err, n);
    if (!strstr(r->domain, "..")) {                      /* "A|B|C" */
        for (const char *p = r->domain; p; p = strchr(p, '|') ? strchr(p, '|') + 1 : NULL) {
            bool dn;
            uint64_t dm;
            char *item = xstrndup(p, strcspn(p, "|"));
            bool ok = parse_integer(item, &dn, &dm) && dn == neg && dm == m;
            free(item);
            if (ok) {
                *(int64_t *)out = neg ? -(int64_t)m : (int64_t)m;
                return true;
            }
        }
        return int_expected(r, err, n);
    }
    int64_t lo;
    uint64_t hi;
    bool lo_neg;
    int_bounds(r, &lo, &hi, &lo_neg);
    if (r->type == TT_SET_T_UINT) {
        if ((neg && m) || m < (uint64_t)lo || m > hi) return int_expected(r, err, n);
        *(uint64_t *)out = m;
        return true;
    }
    if (neg ? m > (uint64_t)INT64_MAX + 1 : m > (uint64_t)INT64_MAX) return int_expected(r, err, n);
    int64_t x = neg ? (int64_t)(0 - m) : (int64_t)m;
    if (x < lo || (x >= 0 && (uint64_t)x > hi)) return int_expected(r, err, n);
    *(int64_t *)out = x;
    return true;
}

static bool parse_float(const tt_setting_info *r, const char *v, double *out, char *err, size_t n)
{
    const char *d = r->domain, *dots = strstr(d, "..");
    double lo = strtod(d, NULL), hi = strcmp(dots + 2, "inf") ? strtod(dots + 2, NULL) : INFINITY;
    char *end;
    errno = 0;
    double x = strtod(v, &end);
    if (!*v || *end || isnan(x) || isinf(x) || x < lo || x > hi) {
        if (isinf(hi)) return lo == 0 ? fail(err, n, "expected a non-negative number") : fail(err, n, "expected a number >= %g", lo);
        return fail(err, n, "expected a number from %g to %g", lo, hi);
    }
    *out = x;
    return true;
}

/* ENUM and SEEDED: "A|B|C=B", values written "NAME:" take an optional ":N". */
static bool enum_expected(const tt_setting_info *r, char *err, size_t n)
{
    strbuf b = { 0 };
    for (const char *p = r->domain; p; p = strchr(p, '|') ? strchr(p, '|') + 1 : NULL) {
        size_t k = strcspn(p, "|=:");
        sb_printf(&b, "%s%.*s%s", b.len ? ", " : "", (int)k, p, p[k] == ':' ? "[:SEED]" : "");
    }
    char *l = sb_take(&b);
    fail(err, n, "expected one of %s", l);
    free(l);
    return false;
}

/* The index of value `name` (n bytes) among the domain's values, aliases
 * resolved; -1 when none. *seeded: the value takes ":N". */
static int enum_index(const char *domain, const char *name, size_t n, bool *seeded)
{
    int idx = 0;
    for (const char *p = domain; p; p = strchr(p, '|') ? strchr(p, '|') + 1 : NULL) {
        size_t k = strcspn(p, "|=:");
        if (p[k] == '=') {                                   /* ALIAS=TARGET */
            if (k == n && !strncmp(p, name, n)) return enum_index(domain, p + k + 1, strcspn(p + k + 1, "|"), seeded);
            continue;
        }
        if (k == n && !strncmp(p, name, n)) {
            *seeded = p[k] == ':';
            return idx;
        }
        idx++;
    }
    return -1;
}

static bool parse_enum(const tt_setting_info *r, const char *v, void *out, char *err, size_t n)
{
    const char *colon = r->type == TT_SET_T_SEEDED ? strchr(v, ':') : NULL;
    bool seeded = false;
    int idx = enum_index(r->domain, v, colon ? (size_t)(colon - v) : strlen(v), &seeded);
    if (idx < 0 || (colon && !seeded)) return enum_expected(r, err, n);
    if (r->type == TT_SET_T_ENUM) {
        *(int *)out = idx;
        return true;
    }
    tt_seeded sv = { idx, false, 0 };
    if (colon) {
        bool neg;
        if (!parse_integer(colon + 1, &neg, &sv.n) || neg)
            return fail(err, n, "expected %.*s:SEED with a non-negative integer SEED", (int)(colon - v), v);
        sv.has_n = true;
    }
    *(tt_seeded *)out = sv;
    return true;
}

/* STR domains: a named check. */
static bool check_arch(const char *v, char *err, size_t n)
{
    int sm = 0, used = 0;
    if (sscanf(v, "sm_%d%n", &sm, &used) == 1 && sm >= 50 && (!v[used] || (!strcmp(v + used, "a") && sm == 90)) &&
        isdigit((unsigned char)v[3]))
        return true;
    return fail(err, n, "expected sm_NN with NN >= 50, or sm_90a (e.g. sm_80)");
}

static bool parse_str(const tt_setting_info *r, const char *v, char *err, size_t n)
{
    if (r->type == TT_SET_T_PATH && !*v) return fail(err, n, "expected a path");
    if (r->domain && !strcmp(r->domain, "arch")) return check_arch(v, err, n);
    if (r->domain) die("settings.def: %s: unknown string check '%s'", r->name, r->domain);
    return true;
}

bool tt_settings_set(tt_settings *s, tt_setting_id id, const char *value, tt_setting_src src, char *err,
                     size_t errlen)
{
    const tt_setting_info *r = &rows[id];
    void *f = field(s, id);
    if (r->type == TT_SET_T_BOOL) {
        bool def = r->def && !strcmp(r->def, "1");
        if (!value) *(bool *)f = !def;
        else if (!strcmp(value, "1")) *(bool *)f = true;
        else if (!strcmp(value, "0")) *(bool *)f = false;
        else return fail(err, errlen, "expected 0 or 1");
    } else if (!value) {
        return fail(err, errlen, "needs a value");
    } else {
        switch (r->type) {
        case TT_SET_T_INT: case TT_SET_T_UINT:
            if (!parse_int(r, value, f, err, errlen)) return false;
            break;
        case TT_SET_T_FLOAT:
            if (!parse_float(r, value, f, err, errlen)) return false;
            break;
        case TT_SET_T_ENUM: case TT_SET_T_SEEDED:
            if (!parse_enum(r, value, f, err, errlen)) return false;
            break;
        case TT_SET_T_STR: case TT_SET_T_PATH:
            if (!parse_str(r, value, err, errlen)) return false;
            *(const char **)f = value;
            break;
        case TT_SET_T_LIST: {
            tt_strlist *l = f;
            l->v = xrealloc(l->v, sizeof *l->v * (size_t)(l->n + 1));
            l->v[l->n++] = value;
            break;
        }
        case TT_SET_T_BOOL: break;
        }
    }
    s->src[id] = (uint8_t)src;
    return true;
}

bool tt_settings_given(const tt_settings *s, tt_setting_id id) { return s->src[id] != TT_SRC_DEFAULT; }

void tt_settings_copy(tt_settings *dst, const tt_settings *src)
{
    *dst = *src;
    for (int i = 0; i < TT_SET_COUNT; i++)
        if (rows[i].type == TT_SET_T_LIST) {
            tt_strlist *l = field(dst, (tt_setting_id)i);
            const char **v = l->n ? xmalloc(sizeof *v * (size_t)l->n) : NULL;
            if (l->n) memcpy(v, l->v, sizeof *v * (size_t)l->n);
            l->v = v;
        }
}

void tt_settings_free(tt_settings *s)
{
    for (int i = 0; i < TT_SET_COUNT; i++)
        if (rows[i].type == TT_SET_T_LIST) {
            tt_strlist *l = field(s, (tt_setting_id)i);
            free(l->v);
            l->v = NULL;
            l->n = 0;
        }
}

void tt_settings_keep(tt_settings *s)
{
    for (int i = 0; i < TT_SET_COUNT; i++) {
        void *f = field(s, (tt_setting_id)i);
        if (rows[i].type == TT_SET_T_LIST) *(tt_strlist *)f = (tt_strlist){ NULL, 0 };
        else if ((rows[i].type == TT_SET_T_STR || rows[i].type == TT_SET_T_PATH) && *(const char **)f)
            *(const char **)f = xstrdup(*(const char **)f);
    }
}

/* ---- defaults and the environment ------------------------------------------ */

static tt_settings g_defaults, g_env;
static pthread_once_t defaults_once = PTHREAD_ONCE_INIT, env_once = PTHREAD_ONCE_INIT;

static void init_defaults(void)
{
    memset(&g_defaults, 0, sizeof g_defaults);
    char err[256];
    for (int i = 0; i < TT_SET_COUNT; i++)
        if (rows[i].def && !tt_settings_set(&g_defaults, (tt_setting_id)i, rows[i].def, TT_SRC_DEFAULT, err, sizeof err))
            die("settings.def: %s: default '%s': %s", rows[i].name, rows[i].def, err);
}

void tt_settings_init(tt_settings *s)
{
    pthread_once(&defaults_once, init_defaults);
    *s = g_defaults;
}

/* The library's copies of the environment's values: they stay valid for the
 * process (a setenv must not pull a string from under a compile). */
static VEC(char *) env_copies;
static int env_reads;

static void read_env(void)
{
    env_reads++;
    tt_settings_init(&g_env);
    for (int i = 0; i < TT_SET_COUNT; i++) {
        const tt_setting_info *r = &rows[i];
        const char *e = r->env && !r->env_by_python ? getenv(r->env) : NULL;
        if (!e || !*e) continue;
        char *copy = xstrdup(e), err[256];
        vec_push(&env_copies, copy);
        if (!tt_settings_set(&g_env, (tt_setting_id)i, copy, TT_SRC_ENV, err, sizeof err))
            fprintf(stderr, "tritium: warning: %s=%s ignored: %s\n", r->env, e, err);
    }
}

const tt_settings *tt_settings_env(void)
{
    pthread_once(&env_once, read_env);
    return &g_env;
}

void tt_settings_reload(void)
{
    int before = env_reads;
    pthread_once(&env_once, read_env);
    if (env_reads == before) read_env();
}

/* ---- text and the cache key ------------------------------------------------ */

/* The name of value index idx of an ENUM/SEEDED domain (aliases skipped). */
static void enum_name(const char *domain, int idx, strbuf *b)
{
    int k = 0;
    for (const char *p = domain; p; p = strchr(p, '|') ? strchr(p, '|') + 1 : NULL) {
        size_t len = strcspn(p, "|=:");
        if (p[len] == '=') continue;
        if (k++ == idx) {
            sb_printf(b, "%.*s", (int)len, p);
            return;
        }
    }
}

char *tt_settings_value_text(const tt_settings *s, tt_setting_id id)
{
    const tt_setting_info *r = &rows[id];
    const void *f = cfield(s, id);
    strbuf b = { 0 };
    switch (r->type) {
    case TT_SET_T_BOOL: sb_puts(&b, *(const bool *)f ? "1" : "0"); break;
    case TT_SET_T_INT: sb_printf(&b, "%lld", (long long)*(const int64_t *)f); break;
    case TT_SET_T_UINT: sb_printf(&b, "%llu", (unsigned long long)*(const uint64_t *)f); break;
    case TT_SET_T_FLOAT: sb_printf(&b, "%.17g", *(const double *)f); break;
    case TT_SET_T_ENUM: enum_name(r->domain, *(const int *)f, &b); break;
    case TT_SET_T_SEEDED: {
        const tt_seeded *sv = f;
        enum_name(r->domain, sv->v, &b);
        if (sv->has_n) sb_printf(&b, ":%llu", (unsigned long long)sv->n);
        break;
    }
    case TT_SET_T_STR: case TT_SET_T_PATH: sb_puts(&b, *(const char *const *)f ? *(const char *const *)f : ""); break;
    case TT_SET_T_LIST: {
        const tt_strlist *l = f;
        for (int i = 0; i < l->n; i++) sb_printf(&b, "%s%s", i ? ", " : "", l->v[i]);
        break;
    }
    }
    bool number = r->type == TT_SET_T_INT || r->type == TT_SET_T_UINT || r->type == TT_SET_T_FLOAT;
    if (number && !tt_settings_given(s, id) && !r->def) sb_free(&b);   /* no value: "" */
    return sb_take(&b);
}

void tt_settings_key(const tt_settings *s, FILE *out)
{
    for (int i = 0; i < TT_SET_COUNT; i++) {
        if (!rows[i].code) continue;
        char *v = tt_settings_value_text(s, (tt_setting_id)i);
        fprintf(out, "%s=%s\n", rows[i].name, v);
        free(v);
    }
}

bool tt_settings_same_code(const tt_settings *a, const tt_settings *b)
{
    for (int i = 0; i < TT_SET_COUNT; i++) {
        if (!rows[i].code) continue;
        const void *x = cfield(a, (tt_setting_id)i), *y = cfield(b, (tt_setting_id)i);
        switch (rows[i].type) {
        case TT_SET_T_BOOL: if (*(const bool *)x != *(const bool *)y) return false; break;
        case TT_SET_T_INT: case TT_SET_T_UINT: if (*(const int64_t *)x != *(const int64_t *)y) return false; break;
        case TT_SET_T_FLOAT: if (*(const double *)x != *(const double *)y) return false; break;
        case TT_SET_T_ENUM: if (*(const int *)x != *(const int *)y) return false; break;
        case TT_SET_T_SEEDED: {
            const tt_seeded *p = x, *q = y;
            if (p->v != q->v || p->has_n != q->has_n || p->n != q->n) return false;
            break;
        }
        case TT_SET_T_STR: case TT_SET_T_PATH: {
            const char *p = *(const char *const *)x, *q = *(const char *const *)y;
            if (p != q && (!p || !q || strcmp(p, q))) return false;
            break;
        }
        case TT_SET_T_LIST: die("settings.def: %s: a list cannot change code", rows[i].name);
        }
    }
    return true;
}
