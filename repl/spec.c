/* spec.c — launch-spec options (argv words) -> repl_spec. Pure text work:
 * no kernel, no files, no front end (see repl.h). */
#include "repl.h"
#include "tritium/diag.h"

#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <string.h>

enum opt_id { O_GRID, O_ARG, O_CONST, O_SAVE, O_EXPECT, O_KERNEL, O_PATH, O_TENSOR, O_SETTING };

_Static_assert(SCHED_IN_ORDER == 0 && SCHED_REVERSE == 1 && SCHED_RANDOM == 2 && SCHED_PARALLEL == 3,
               "settings.def: schedule is in-order|reverse|random|parallel");

/* The launch's syntax: the table that `run`, `debug`, `diff`, `ir`, `ptx`,
 * the debugger's `set`/`load` commands and repl_settings_take consult, with
 * the settings of the launch spec (settings_opts). */
static const repl_option opts[] = {
    { "--grid", O_GRID, true, REPL_KEY_OPTION, -1 },
    { "--arg", O_ARG, true, REPL_KEY_PARAM, -1 },
    { "--const", O_CONST, true, REPL_KEY_PARAM, -1 },
    { "--tensor", O_TENSOR, true, REPL_KEY_PARAM, -1 },
    { "--save", O_SAVE, true, REPL_KEY_OPTION_PARAM, -1 },
    { "--expect", O_EXPECT, true, REPL_KEY_OPTION_PARAM, -1 },
    { "--kernel", O_KERNEL, true, REPL_KEY_OPTION, -1 },
    { "--path", O_PATH, true, REPL_KEY_OPTION, -1 },
};

/* Every settings row as an option; the launch spec's are those a "# tritium:"
 * line may carry (TT_CMD_COMMENT). */
static const repl_option settings_opts[TT_SET_COUNT] = {
#define TT_SETTING(ID, field, TYPE, flag, ...) \
    [TT_SET_##ID] = { flag, O_SETTING, TT_SET_T_##TYPE != TT_SET_T_BOOL, REPL_KEY_OPTION, TT_SET_##ID },
#include "tritium/settings.def"
#undef TT_SETTING
};

const repl_option *repl_spec_option(const char *word)
{
    const char *eq = strchr(word, '=');
    size_t n = eq ? (size_t)(eq - word) : strlen(word);
    for (size_t k = 0; k < TT_COUNTOF(opts); k++)
        if (strlen(opts[k].name) == n && !strncmp(opts[k].name, word, n)) return &opts[k];
    int id = tt_setting_by_flag(word, TT_CMD_COMMENT, NULL);
    return id >= 0 ? &settings_opts[id] : NULL;
}

/* Whether a parse with `allowed` takes settings row id. */
static bool setting_allowed(int id, unsigned allowed)
{
    const tt_setting_info *r = tt_setting_row((tt_setting_id)id);
    if (!(r->commands & TT_CMD_COMMENT)) return false;         /* a command's own: repl_settings_take */
    if (r->scope == TT_SCOPE_LAUNCH) return allowed & REPL_OPT_LAUNCH;
    return (allowed & REPL_OPT_RUN) || (r->commands & (allowed >> 8));
}

uint64_t repl_sched_seed(const tt_settings *s, uint64_t launch_seed)
{
    if (s->schedule.has_n) return s->schedule.n;
    return tt_settings_given(s, TT_SET_SCHEDULE_SEED) ? s->schedule_seed : launch_seed;
}

static const char *const gen_kinds[] = { "randn", "rand", "zeros", "ones", "empty", "arange", "full" };

#define DTYPE_LIST "f16, bf16, f32, f64, i8, i16, i32, i64, u8, u16, u32, u64, bool, f8e4nv, f8e5, f8e4b15, f8e4b8, f8e5b16"

/* Parse state for one repl_spec_parse call. */
typedef struct pstate {
    repl_spec *s;
    bool from_comment;
    const char *base_dir;
} pstate;

static bool perr(const pstate *ps, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static bool perr(const pstate *ps, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *msg;
    if (vasprintf(&msg, fmt, ap) < 0) die("out of memory");
    va_end(ap);
    diag_at(DIAG_ERROR, REPL_NOPOS, "%s%s", msg,
            ps->from_comment ? " (in the file's '# tritium:' line)" : "");
    free(msg);
    return false;
}

void repl_spec_init(repl_spec *s)
{
    memset(s, 0, sizeof *s);
    tt_settings_copy(&s->set, tt_settings_env());
}

const repl_value *repl_spec_value(const repl_spec *s, const char *name)
{
    for (int i = 0; i < s->nvals; i++)
        if (!strcmp(s->vals[i].name, name)) return &s->vals[i];
    return NULL;
}

static void value_free(repl_value *v)
{
    free(v->name);
    free(v->text);
    free(v->gen);
    free(v->fill);
    for (int i = 0; i < TT_MAX_RANK; i++) {
        free(v->dims[i]);
        free(v->dshape[i]);
        free(v->dstrides[i]);
    }
    free(v->path);
    repl_free_parts(v->nitems, v->items);
    memset(v, 0, sizeof *v);
}

static void check_free(repl_check *c)
{
    free(c->name);
    free(c->path);
    memset(c, 0, sizeof *c);
}

void repl_spec_free(repl_spec *s)
{
    free(s->kernel);
    free(s->grid);
    for (int i = 0; i < s->nvals; i++) value_free(&s->vals[i]);
    free(s->vals);
    for (int i = 0; i < s->nsaves; i++) check_free(&s->saves[i]);
    free(s->saves);
    for (int i = 0; i < s->nexpects; i++) check_free(&s->expects[i]);
    free(s->expects);
    for (int i = 0; i < s->npositional; i++) free(s->positional[i]);
    free(s->positional);
    for (int i = 0; i < s->npaths; i++) free(s->paths[i]);
    free(s->paths);
    tt_settings_free(&s->set);
    for (int i = 0; i < s->nowned; i++) free(s->owned[i]);
    free(s->owned);
    repl_spec_init(s);
}

static bool is_ident(const char *b, size_t n)
{
    if (n == 0 || !(isalpha((unsigned char)b[0]) || b[0] == '_')) return false;
    for (size_t i = 1; i < n; i++)
        if (!(isalnum((unsigned char)b[i]) || b[i] == '_')) return false;
    return true;
}

static bool ends_with_npy(const char *s)
{
    size_t n = strlen(s);
    return n > 4 && !strcmp(s + n - 4, ".npy");
}

static char *join_path(const pstate *ps, const char *path)
{
    if (!ps->base_dir || !*ps->base_dir || path[0] == '/' || !strcmp(ps->base_dir, "."))
        return xstrdup(path);
    return xasprintf("%s/%s", ps->base_dir, path);
}

/* Split "NAME=REST" for option `opt`; *name is malloc'd, *rest points into w. */
static bool split_name(const pstate *ps, const char *opt, const char *w, const char *what,
                       char **name, const char **rest)
{
    const char *eq = strchr(w, '=');
    if (!eq) return perr(ps, "%s '%s': expected NAME=%s", opt, w, what);
    size_t n = (size_t)(eq - w);
    while (n > 0 && isspace((unsigned char)w[n - 1])) n--;
    if (!is_ident(w, n)) return perr(ps, "%s '%s': '%.*s' is not a parameter name", opt, w, (int)n, w);
    *name = xstrndup(w, n);
    *rest = eq + 1;
    while (isspace((unsigned char)**rest)) (*rest)++;
    return true;
}

/* gen := KIND ['(' V ')'] ':' DTYPE '[' [dim (',' dim)* [',']] ']'
 * Called when the text starts with an identifier followed by ':' or '('. */
static bool parse_generator(const pstate *ps, const char *opt, repl_value *v, const char *t)
{
    const char *p = t;
    while (isalnum((unsigned char)*p) || *p == '_') p++;
    size_t kn = (size_t)(p - t);
    char kind[32];
    snprintf(kind, sizeof kind, "%.*s", (int)(kn < 31 ? kn : 31), t);
    int k = -1;
    for (int i = 0; i < (int)TT_COUNTOF(gen_kinds); i++)
        if (strlen(gen_kinds[i]) == kn && !strncmp(gen_kinds[i], t, kn)) k = i;
    if (k < 0) {
        const char *sug = repl_suggest(kind, gen_kinds, (int)TT_COUNTOF(gen_kinds));
        if (sug)
            return perr(ps, "%s %s: unknown tensor generator '%s' (did you mean '%s'?)", opt, v->name, kind, sug);
        return perr(ps, "%s %s: unknown tensor generator '%s' (expected one of randn, rand, zeros, ones, "
                    "empty, arange, full(V))", opt, v->name, kind);
    }
    v->gen = xstrdup(gen_kinds[k]);
    if (*p == '(') {
        if (strcmp(v->gen, "full"))
            return perr(ps, "%s %s: '%s' takes no value in parentheses", opt, v->name, v->gen);
        int depth = 0;
        const char *b = p + 1;
        for (; *p; p++) {
            if (*p == '(') depth++;
            else if (*p == ')' && --depth == 0) break;
        }
        if (*p != ')') return perr(ps, "%s %s: missing ')' after full(", opt, v->name);
        char **parts;
        char *inner = xstrndup(b, (size_t)(p - b));
        int np = repl_split_commas(inner, &parts);
        free(inner);
        bool ok = np == 1 && parts[0][0];
        if (ok) v->fill = xstrdup(parts[0]);
        repl_free_parts(np, parts);
        if (!ok) return perr(ps, "%s %s: full() takes one fill value, as in full(2.5)", opt, v->name);
        p++;
    } else if (!strcmp(v->gen, "full")) {
        return perr(ps, "%s %s: 'full' needs a fill value, as in full(2.5):f32[64]", opt, v->name);
    }
    if (*p != ':') return perr(ps, "%s %s: expected ':' and a dtype after '%s'", opt, v->name, v->gen);
    p++;
    const char *db = p;
    while (*p && *p != '[' && !isspace((unsigned char)*p)) p++;
    char *dname = xstrndup(db, (size_t)(p - db));
    bool dok = tt_dtype_parse(dname, &v->dtype) && v->dtype != TT_PTR;
    if (!dok) {
        if (!*dname) perr(ps, "%s %s: missing dtype after '%s:' (expected one of " DTYPE_LIST ")", opt, v->name, v->gen);
        else perr(ps, "%s %s: unknown dtype '%s' (expected one of " DTYPE_LIST ")", opt, v->name, dname);
        free(dname);
        return false;
    }
    free(dname);
    while (isspace((unsigned char)*p)) p++;
    if (*p != '[')
        return perr(ps, "%s %s: expected a shape in brackets after the dtype, as in %s:%s[1024]",
                    opt, v->name, v->gen, tt_dtype_name(v->dtype));
    /* the shape runs to the matching ']' */
    const char *sb = p + 1;
    int depth = 0;
    char quote = 0;
    for (; *p; p++) {
        if (quote) { if (*p == quote) quote = 0; continue; }
        if (*p == '\'' || *p == '"') quote = *p;
        else if (*p == '[' || *p == '(') depth++;
        else if ((*p == ']' || *p == ')') && --depth == 0) break;
    }
    if (*p != ']') return perr(ps, "%s %s: missing ']' at the end of the shape", opt, v->name);
    const char *se = p++;
    while (isspace((unsigned char)*p)) p++;
    if (*p) return perr(ps, "%s %s: unexpected text '%s' after the shape", opt, v->name, p);
    char *inner = xstrndup(sb, (size_t)(se - sb));
    char **parts;
    int np = repl_split_commas(inner, &parts);
    free(inner);
    bool ok = true;
    if (np == 1 && !parts[0][0]) {
        v->rank = 0;                /* "[]": a 0-d tensor */
    } else if (np > TT_MAX_RANK) {
        ok = perr(ps, "%s %s: shape has %d dimensions, at most %d are supported", opt, v->name, np, TT_MAX_RANK);
    } else {
        for (int i = 0; i < np && ok; i++)
            if (!parts[i][0]) ok = perr(ps, "%s %s: empty dimension %d in the shape", opt, v->name, i);
        if (ok) {
            v->rank = np;
            for (int i = 0; i < np; i++) { v->dims[i] = parts[i]; parts[i] = NULL; }
        }
    }
    repl_free_parts(np, parts);
    return ok;
}

/* '[' e (',' e)* ']' -> up to TT_MAX_RANK malloc'd expression texts */
static bool parse_list(const pstate *ps, const char *opt, const repl_value *v, const char *key, const char *text,
                       char **out, int *n)
{
    size_t len = strlen(text);
    if (len < 2 || (text[0] != '[' && text[0] != '(') || (text[len - 1] != ']' && text[len - 1] != ')'))
        return perr(ps, "%s %s: %s= takes a list such as [64, 64], got '%s'", opt, v->name, key, text);
    char *inner = xstrndup(text + 1, len - 2);
    char **parts;
    int np = repl_split_commas(inner, &parts);
    free(inner);
    bool ok = np >= 1 && np <= TT_MAX_RANK && parts[0][0];
    for (int i = 0; ok && i < np; i++) ok = parts[i][0] != 0;
    if (!ok) {
        repl_free_parts(np, parts);
        return perr(ps, "%s %s: %s= needs 1 to %d non-empty dimensions, got '%s'", opt, v->name, key, TT_MAX_RANK, text);
    }
    for (int i = 0; i < np; i++) { out[i] = parts[i]; parts[i] = NULL; }
    *n = np;
    repl_free_parts(np, parts);
    return true;
}

/* desc := 'desc(' NAME ',' 'block=' LIST [',' 'shape=' LIST] [',' 'strides=' LIST]
 *         [',' 'padding=' ("zero"|"nan")] [',' 'round_f32_to_tf32=' ("True"|"False"|1|0)] ')'
 * ptrs := 'ptrs(' NAME (',' NAME)* ')'        (p points at the '(') */
static bool parse_desc_ptrs(const pstate *ps, const char *opt, repl_value *v, const char *t, const char *p)
{
    bool is_desc = t[0] == 'd';
    size_t len = strlen(p);
    if (p[len - 1] != ')') return perr(ps, "%s %s: missing ')' at the end of '%s'", opt, v->name, t);
    char *inner = xstrndup(p + 1, len - 2);
    char **parts;
    int np = repl_split_commas(inner, &parts);
    free(inner);
    bool ok = true;
    v->kind = is_desc ? VAL_DESC : VAL_PTRS;
    if (np < 1 || !parts[0][0]) ok = perr(ps, "%s %s: %s() needs a tensor name", opt, v->name, is_desc ? "desc" : "ptrs");
    int nb = 0;
    for (int i = 0; ok && i < np; i++) {
        char *eq = strchr(parts[i], '=');
        if (!is_desc || i == 0) {
            if (eq || !is_ident(parts[i], strlen(parts[i])))
                ok = perr(ps, "%s %s: '%s' is not a tensor name (as in %s)", opt, v->name, parts[i],
                          is_desc ? "desc(q, block=[64, 64])" : "ptrs(a0, a1, a2)");
            else {
                v->items = xrealloc(v->items, sizeof *v->items * (size_t)(v->nitems + 1));
                v->items[v->nitems++] = xstrdup(parts[i]);
            }
            continue;
        }
        if (!eq) { ok = perr(ps, "%s %s: expected KEY=VALUE, got '%s'", opt, v->name, parts[i]); break; }
        *eq = 0;
        char *key = parts[i], *val = eq + 1;
        size_t kl = strlen(key);
        while (kl && isspace((unsigned char)key[kl - 1])) key[--kl] = 0;
        while (isspace((unsigned char)*val)) val++;
        if (!strcmp(key, "block") || !strcmp(key, "block_shape")) {
            ok = parse_list(ps, opt, v, "block", val, v->dims, &nb);
        } else if (!strcmp(key, "shape")) {
            ok = parse_list(ps, opt, v, key, val, v->dshape, &v->nshape);
        } else if (!strcmp(key, "strides")) {
            ok = parse_list(ps, opt, v, key, val, v->dstrides, &v->nstrides);
        } else if (!strcmp(key, "padding")) {
            size_t vl = strlen(val);
            if (vl >= 2 && (val[0] == '"' || val[0] == '\'') && val[vl - 1] == val[0]) { val[vl - 1] = 0; val++; }
            if (!strcmp(val, "nan")) v->pad_nan = true;
            else if (strcmp(val, "zero")) ok = perr(ps, "%s %s: padding must be \"zero\" or \"nan\", got '%s'", opt, v->name, val);
        } else if (!strcmp(key, "round_f32_to_tf32")) {
            if (!strcmp(val, "True") || !strcmp(val, "true") || !strcmp(val, "1")) v->tf32 = true;
            else if (!strcmp(val, "False") || !strcmp(val, "false") || !strcmp(val, "0")) v->tf32 = false;
            else ok = perr(ps, "%s %s: round_f32_to_tf32 must be True or False, got '%s'", opt, v->name, val);
        } else {
            ok = perr(ps, "%s %s: desc() has no setting '%s' (expected block=, shape=, strides=, padding=, "
                      "round_f32_to_tf32=)", opt, v->name, key);
        }
    }
    if (ok && is_desc && !nb) ok = perr(ps, "%s %s: desc() needs a block shape, as in desc(%s, block=[64, 64])", opt, v->name,
                                        v->nitems ? v->items[0] : "x");
    v->rank = nb;
    repl_free_parts(np, parts);
    return ok;
}

/* FILE.npy:DTYPE: the dtype of a file whose descriptor does not name it
 * (ml_dtypes' float8 types save as '<V1'). Returns the length of the path
 * part and sets *dt, or 0 when t has no such suffix. */
static size_t npy_with_dtype(const char *t, tt_dtype *dt)
{
    const char *c = strrchr(t, ':');
    if (!c || c - t <= 4 || strncmp(c - 4, ".npy", 4)) return 0;
    if (!tt_dtype_parse(c + 1, dt) || *dt == TT_PTR) return 0;
    return (size_t)(c - t);
}

/* value := '@' PATH | PATH ending in '.npy' [':' DTYPE] | generator | desc(...) | ptrs(...) | jit:NAME
 *        | expression */
static bool classify(const pstate *ps, const char *opt, repl_value *v)
{
    const char *t = v->text;
    if (!*t) return perr(ps, "%s %s: empty value", opt, v->name);
    if (!strncmp(t, "jit:", 4)) return true;   /* a jit function: resolve.c (set_func) checks it */
    const char *p = t;
    while (isalnum((unsigned char)*p) || *p == '_') p++;
    bool gen_like = p > t && isalpha((unsigned char)t[0]) && (*p == ':' || *p == '(');
    /* an expression like "max(a, b)" also has '(' — only a ':' after the
     * closing parenthesis makes it a generator */
    if (gen_like && *p == '(') {
        int depth = 0;
        const char *q = p;
        for (; *q; q++) {
            if (*q == '(') depth++;
            else if (*q == ')' && --depth == 0) break;
        }
        gen_like = *q == ')' && q[1] == ':';
    }
    tt_dtype ndt = TT_DTYPE_COUNT;
    size_t nlen = npy_with_dtype(t, &ndt);
    if (t[0] == '@' || ends_with_npy(t) || nlen) {
        const char *path = t[0] == '@' ? t + 1 : t;
        if (!*path) return perr(ps, "%s %s: missing file name after '@'", opt, v->name);
        if (v->is_const) return perr(ps, "%s %s: a constexpr value cannot be a tensor", opt, v->name);
        v->kind = VAL_NPY;
        v->dtype = TT_DTYPE_COUNT;
        if (nlen && t[0] != '@') {
            char *p = xstrndup(path, nlen);
            v->path = join_path(ps, p);
            free(p);
            v->dtype = ndt;
        } else {
            v->path = join_path(ps, path);
        }
        return true;
    }
    size_t head = (size_t)(p - t);
    if (*p == '(' && ((head == 4 && !strncmp(t, "desc", 4)) || (head == 4 && !strncmp(t, "ptrs", 4)))) {
        if (v->is_const) return perr(ps, "%s %s: a constexpr value cannot be a tensor", opt, v->name);
        if (v->extra) return perr(ps, "%s %s: %.4s() makes a kernel argument; give it with --arg", opt, v->name, t);
        return parse_desc_ptrs(ps, opt, v, t, p);
    }
    if (gen_like) {
        if (v->is_const) return perr(ps, "%s %s: a constexpr value cannot be a tensor", opt, v->name);
        v->kind = VAL_GEN;
        return parse_generator(ps, opt, v, t);
    }
    v->kind = VAL_EXPR;
    return true;
}

/* Is `x` NAME itself or an element NAME[...] of tuple NAME? */
static bool same_param(const char *x, const char *name)
{
    size_t n = strlen(name);
    return !strncmp(x, name, n) && (!x[n] || x[n] == '[');
}

/* The parts of a tuple spec "(a, b, ...)" (a trailing comma makes "(a,)" a
 * one-tuple; "(a)" is not a tuple); -1 when text is not a tuple. */
static int tuple_parts(const char *text, char ***parts)
{
    size_t n = strlen(text);
    if (n < 2 || text[0] != '(' || text[n - 1] != ')') return -1;
    int depth = 0;
    bool comma = false;
    for (size_t i = 1; i + 1 < n; i++) {
        char c = text[i];
        if (c == '(' || c == '[' || c == '{') depth++;
        else if (c == ')' || c == ']' || c == '}') {
            if (--depth < 0) return -1;          /* "(a) + (b)": not one parenthesized group */
        } else if (c == ',' && depth == 0) comma = true;
    }
    if (!comma) return -1;
    char *inner = xstrndup(text + 1, n - 2);
    int np = repl_split_commas(inner, parts);
    free(inner);
    return np;
}

/* Append value v for `name`, replacing the other source's (comment vs command
 * line) value of the same parameter, tuple elements included. */
static bool add_value(const pstate *ps, const char *opt, repl_value v)
{
    repl_spec *s = ps->s;
    const char *base_end = strchr(v.name, '[');
    char *base = base_end ? xstrndup(v.name, (size_t)(base_end - v.name)) : xstrdup(v.name);
    int w = 0;
    for (int i = 0; i < s->nvals; i++) {
        repl_value *o = &s->vals[i];
        if (same_param(o->name, base) && o->from_comment != ps->from_comment) {
            value_free(o);                        /* the command line replaces the comment's value */
            continue;
        }
        if (!strcmp(o->name, v.name)) {
            perr(ps, "%s %s: a value for '%s' was already given", opt, v.name, v.name);
            free(base);
            value_free(&v);
            for (int j = i; j < s->nvals; j++) s->vals[w++] = s->vals[j];
            s->nvals = w;
            return false;
        }
        s->vals[w++] = *o;
    }
    s->nvals = w;
    free(base);
    s->vals = xrealloc(s->vals, (size_t)(s->nvals + 1) * sizeof *s->vals);
    s->vals[s->nvals++] = v;
    return true;
}

/* `--arg T='(SPEC, SPEC, ...)'`: a tuple parameter (Triton 3.6 specializes
 * tuples element by element): element k becomes the value `T[k]`, nested
 * tuples `T[k][j]`. */
static bool parse_tuple(const pstate *ps, const char *opt, const char *name, int np, char **parts, int depth)
{
    if (depth > 8) return perr(ps, "%s %s: tuples nested too deeply", opt, name);
    if (np == 0 || (np == 1 && !*parts[0])) return perr(ps, "%s %s: an empty tuple cannot be passed", opt, name);
    for (int k = 0; k < np; k++) {
        char *en = xasprintf("%s[%d]", name, k);
        char **sub;
        int ns = tuple_parts(parts[k], &sub);
        bool ok;
        if (ns >= 0) {
            ok = parse_tuple(ps, opt, en, ns, sub, depth + 1);
            repl_free_parts(ns, sub);
            free(en);
        } else {
            repl_value v = { 0 };
            v.name = en;
            v.from_comment = ps->from_comment;
            v.text = xstrdup(parts[k]);
            ok = classify(ps, opt, &v);
            if (ok) ok = add_value(ps, opt, v);
            else value_free(&v);
        }
        if (!ok) return false;
    }
    return true;
}

static bool parse_value(const pstate *ps, const char *opt, const char *w, bool is_const, bool extra)
{
    repl_spec *s = ps->s;
    char *name;
    const char *rest;
    if (!split_name(ps, opt, w, is_const ? "VALUE" : "SPEC", &name, &rest)) return false;
    char **tparts;
    int ntp = is_const || extra ? -1 : tuple_parts(rest, &tparts);
    if (ntp >= 0) {
        /* drop the other source's value of the parameter first, so that a
         * tuple given on the command line replaces the comment's wholly */
        int w2 = 0;
        for (int i = 0; i < s->nvals; i++) {
            if (same_param(s->vals[i].name, name) && s->vals[i].from_comment != ps->from_comment) value_free(&s->vals[i]);
            else s->vals[w2++] = s->vals[i];
        }
        s->nvals = w2;
        bool ok = parse_tuple(ps, opt, name, ntp, tparts, 0);
        repl_free_parts(ntp, tparts);
        free(name);
        return ok;
    }
    for (int i = 0; i < s->nvals;)             /* a tuple given for it before goes */
        if (strcmp(s->vals[i].name, name) && same_param(s->vals[i].name, name) && s->vals[i].from_comment != ps->from_comment) {
            value_free(&s->vals[i]);
            memmove(&s->vals[i], &s->vals[i + 1], sizeof *s->vals * (size_t)(s->nvals - i - 1));
            s->nvals--;
        } else {
            i++;
        }
    repl_value v = { 0 };
    v.name = name;
    v.is_const = is_const;
    v.extra = extra;
    v.from_comment = ps->from_comment;
    v.text = xstrdup(rest);
    size_t tl = strlen(v.text);
    while (tl > 0 && isspace((unsigned char)v.text[tl - 1])) v.text[--tl] = 0;
    if (!classify(ps, opt, &v)) { value_free(&v); return false; }
    for (int i = 0; i < s->nvals; i++) {
        if (strcmp(s->vals[i].name, name)) continue;
        if (s->vals[i].from_comment == ps->from_comment) {
            perr(ps, "%s %s: a value for '%s' was already given", opt, name, name);
            value_free(&v);
            return false;
        }
        value_free(&s->vals[i]);
        s->vals[i] = v;             /* override in place */
        return true;
    }
    s->vals = xrealloc(s->vals, (size_t)(s->nvals + 1) * sizeof *s->vals);
    s->vals[s->nvals++] = v;
    return true;
}

static bool parse_tol(const pstate *ps, const char *name, const char *key, const char *val, double *out)
{
    double d;
    if (!repl_parse_float(val, &d) || !(d >= 0) || d == INFINITY)
        return perr(ps, "--expect %s: %s: expected a non-negative number, got '%s'", name, key, val);
    *out = d;
    return true;
}

/* check := NAME '=' PATH [',' ('rtol'|'atol') '=' NUMBER]*   (tolerances for --expect only) */
static bool parse_check(const pstate *ps, const char *w, bool expect)
{
    const char *opt = expect ? "--expect" : "--save";
    repl_spec *s = ps->s;
    char *name;
    const char *rest;
    if (!split_name(ps, opt, w, "FILE.npy", &name, &rest)) return false;
    repl_check c = { 0 };
    c.name = name;
    c.from_comment = ps->from_comment;
    const char *tol = NULL;
    if (expect) {
        const char *r = strstr(rest, ",rtol="), *a = strstr(rest, ",atol=");
        tol = r && (!a || r < a) ? r : a;
    }
    char *path = tol ? xstrndup(rest, (size_t)(tol - rest)) : xstrdup(rest);
    bool ok = true;
    if (!*path) ok = perr(ps, "%s %s: missing file name", opt, name);
    if (ok && tol) {
        char **parts;
        int np = repl_split_commas(tol + 1, &parts);
        for (int i = 0; i < np && ok; i++) {
            char *eq = strchr(parts[i], '=');
            if (eq) *eq = 0;
            if (eq && !strcmp(parts[i], "rtol")) {
                ok = parse_tol(ps, name, "rtol", eq + 1, &c.rtol);
                c.has_rtol = true;
            } else if (eq && !strcmp(parts[i], "atol")) {
                ok = parse_tol(ps, name, "atol", eq + 1, &c.atol);
                c.has_atol = true;
            } else {
                ok = perr(ps, "--expect %s: unknown setting '%s' (expected rtol=R or atol=A)", name, parts[i]);
            }
        }
        repl_free_parts(np, parts);
    }
    if (ok) c.path = join_path(ps, path);
    free(path);
    if (!ok) { check_free(&c); return false; }
    repl_check **arr = expect ? &s->expects : &s->saves;
    int *n = expect ? &s->nexpects : &s->nsaves;
    for (int i = 0; i < *n; i++) {
        if (strcmp((*arr)[i].name, name)) continue;
        if ((*arr)[i].from_comment == ps->from_comment) {
            perr(ps, "%s %s: '%s' was already given", opt, name, name);
            check_free(&c);
            return false;
        }
        check_free(&(*arr)[i]);
        (*arr)[i] = c;
        return true;
    }
    *arr = xrealloc(*arr, (size_t)(*n + 1) * sizeof **arr);
    (*arr)[(*n)++] = c;
    return true;
}

static bool apply(pstate *ps, const repl_option *o, const char *val)
{
    repl_spec *s = ps->s;
    switch (o->id) {
    case O_GRID:
        if (s->grid && s->grid_from_comment == ps->from_comment)
            return perr(ps, "--grid was given twice");
        if (!*val) return perr(ps, "--grid: empty grid");
        free(s->grid);
        s->grid = xstrdup(val);
        s->grid_from_comment = ps->from_comment;
        return true;
    case O_ARG: return parse_value(ps, "--arg", val, false, false);
    case O_CONST: return parse_value(ps, "--const", val, true, false);
    case O_TENSOR: return parse_value(ps, "--tensor", val, false, true);
    case O_SAVE: return parse_check(ps, val, false);
    case O_EXPECT: return parse_check(ps, val, true);
    case O_KERNEL:
        if (!is_ident(val, strlen(val))) return perr(ps, "--kernel: '%s' is not a function name", val);
        if (s->kernel && s->kernel_from_comment == ps->from_comment)
            return perr(ps, "--kernel was given twice");
        free(s->kernel);
        s->kernel = xstrdup(val);
        s->kernel_from_comment = ps->from_comment;
        return true;
    case O_PATH:
        if (!*val) return perr(ps, "--path: empty directory");
        s->paths = xrealloc(s->paths, sizeof *s->paths * (size_t)(s->npaths + 1));
        s->paths[s->npaths++] = join_path(ps, val);
        return true;
    case O_SETTING: {
        char err[256];
        const char *v = NULL;
        if (val) {                             /* the settings' strings point to a copy */
            s->owned = xrealloc(s->owned, sizeof *s->owned * (size_t)(s->nowned + 1));
            v = s->owned[s->nowned++] = xstrdup(val);
        }
        if (!tt_settings_set(&s->set, (tt_setting_id)o->setting, v, ps->from_comment ? TT_SRC_COMMENT : TT_SRC_ARGV,
                             err, sizeof err))
            return perr(ps, "%s %s: %s", o->name, val ? val : "", err);
        return true;
    }
    }
    return false;
}

bool repl_spec_parse(repl_spec *s, int argc, char *const *argv, unsigned allowed,
                     bool from_comment, const char *base_dir)
{
    pstate ps = { s, from_comment, base_dir };
    for (int i = 0; i < argc; i++) {
        const char *w = argv[i];
        if (w[0] != '-' || !w[1]) {
            if (!(allowed & REPL_OPT_POSITIONAL)) return perr(&ps, "unexpected argument '%s'", w);
            s->positional = xrealloc(s->positional, (size_t)(s->npositional + 1) * sizeof *s->positional);
            s->positional[s->npositional++] = xstrdup(w);
            continue;
        }
        const char *eq = strchr(w, '=');
        size_t n = eq ? (size_t)(eq - w) : strlen(w);
        const repl_option *o = repl_spec_option(w);
        if (!o) {
            /* suggestions: the launch syntax and the settings the command takes */
            const char *names[TT_COUNTOF(opts) + TT_SET_COUNT];
            int nn = 0;
            for (size_t k = 0; k < TT_COUNTOF(opts) && (allowed & REPL_OPT_LAUNCH); k++) names[nn++] = opts[k].name;
            for (int k = 0; k < TT_SET_COUNT; k++) {
                const tt_setting_info *r = tt_setting_row((tt_setting_id)k);
                if (r->flag && r->flag[0] == '-' && !strchr(r->flag, '|') && strlen(r->flag) != n &&
                    (setting_allowed(k, allowed) || (r->commands & (allowed >> 8))))
                    names[nn++] = r->flag;
            }
            char *word = xstrndup(w, n);
            const char *sug = repl_suggest(word, names, nn);
            if (sug) perr(&ps, "unknown option '%s' (did you mean '%s'?)", word, sug);
            else perr(&ps, "unknown option '%s'", word);
            free(word);
            return false;
        }
        if (o->setting < 0 ? !(allowed & REPL_OPT_LAUNCH) : !setting_allowed(o->setting, allowed))
            return perr(&ps, "option '%s' cannot be used here", o->name);
        const char *val = NULL;
        if (o->takes_value) {
            if (eq) val = eq + 1;
            else if (i + 1 < argc) val = argv[++i];
            else return perr(&ps, "option '%s' needs a value", o->name);
        } else if (eq) {
            return perr(&ps, "option '%s' takes no value", o->name);
        }
        if (!apply(&ps, o, val)) return false;
    }
    return true;
}
