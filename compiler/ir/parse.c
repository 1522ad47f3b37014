/* parse.c — reader of the IR's text form (the format print.c writes; see the
 * comment at the top of print.c). Hand-written recursive descent over the
 * raw characters; the first error is reported as name:line:col through
 * diag.h and parsing stops. Nesting depth, counts and numbers are capped so
 * that any input — truncated, garbled, fuzzed — yields a diagnostic and NULL,
 * never a crash.
 *
 * The parser checks syntax, names (every value defined once and used only
 * where it is in scope), operand/result/region counts and attribute names
 * against ops.def, and types; ir_verify checks the rest. */
#include "tritium/ir.h"
#include "tritium/limits.h"
#include "attrspec.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <string.h>

#define MAX_LOCS (1 << 22)
#define MAX_RESULTS 255            /* ir_op.nres is a uint8_t */
#define MAX_OPERANDS (1 << 20)
#define MAX_NUMEL ((int64_t)1 << 31)
#define NBUCKETS 4096

typedef struct sym {
    const char *tok;               /* points into the text (or the arena for group names) */
    size_t len;
    ir_value v;
    int next;                      /* next entry in the bucket chain, -1 at the end */
} sym;

typedef struct locref { int32_t id; const char *pos; } locref;

typedef struct parser {
    const char *text, *p;
    int file;
    ir_func *f;
    bool failed;
    int depth;
    VEC(sym) syms;
    int buckets[NBUCKETS];
    VEC(locref) locrefs;           /* #locN uses, checked once the aliases are read */
} parser;

/* ---- diagnostics ---- */

static src_pos pos_of(parser *P, const char *at)
{
    src_pos s = { P->file, 1, 1 };
    for (const char *c = P->text; c < at && *c; c++) {
        if (*c == '\n') { s.line++; s.col = 1; }
        else s.col++;
    }
    return s;
}

static bool err_at(parser *P, const char *at, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static bool err_at(parser *P, const char *at, const char *fmt, ...)
{
    if (P->failed) return false;
    P->failed = true;
    va_list ap;
    va_start(ap, fmt);
    diag_vat(DIAG_ERROR, pos_of(P, at), fmt, ap);
    va_end(ap);
    return false;
}

/* What the cursor points at, for "expected X, found Y" messages. */
static const char *found(parser *P)
{
    static char buf[32];
    const char *p = P->p;
    if (!*p) return "end of input";
    if (*p == '\n') return "end of line";
    size_t n = 0;
    while (p[n] && !isspace((unsigned char)p[n]) && n < 16) n++;
    snprintf(buf, sizeof buf, "'%.*s'", (int)n, p);
    return buf;
}

/* ---- lexical helpers ---- */

/* Skip spaces, tabs and, when `lines`, newlines and // comments. */
static void skip(parser *P, bool lines)
{
    for (;;) {
        char c = *P->p;
        if (c == ' ' || c == '\t' || c == '\r') P->p++;
        else if (lines && c == '\n') P->p++;
        else if (lines && c == '/' && P->p[1] == '/') {
            while (*P->p && *P->p != '\n') P->p++;
        } else break;
    }
}

static void ws(parser *P) { skip(P, true); }

/* The next character on this line (after spaces), 0 at end of line/input. */
static char peek_inline(parser *P)
{
    skip(P, false);
    return *P->p == '\n' || (*P->p == '/' && P->p[1] == '/') ? 0 : *P->p;
}

static bool accept(parser *P, char c)
{
    ws(P);
    if (*P->p != c) return false;
    P->p++;
    return true;
}

static bool expect(parser *P, char c, const char *what)
{
    if (accept(P, c)) return true;
    return err_at(P, P->p, "expected '%c' %s, found %s", c, what, found(P));
}

static bool ident_start(char c) { return isalpha((unsigned char)c) || c == '_'; }
static bool ident_char(char c) { return isalnum((unsigned char)c) || c == '_' || c == '.' || c == '$'; }
static bool value_char(char c) { return isalnum((unsigned char)c) || c == '_' || c == '.' || c == '$' || c == '-'; }

/* IDENT := [A-Za-z_][A-Za-z0-9_.$]* ; returns its length (0: none). */
static size_t ident(parser *P, const char **start)
{
    ws(P);
    *start = P->p;
    if (!ident_start(*P->p)) return 0;
    while (ident_char(*P->p)) P->p++;
    return (size_t)(P->p - *start);
}

/* Accept the exact word `w` (not followed by an identifier character). */
static bool accept_word(parser *P, const char *w)
{
    ws(P);
    size_t n = strlen(w);
    if (strncmp(P->p, w, n) || ident_char(P->p[n])) return false;
    P->p += n;
    return true;
}

/* INT := ['-'] digits, as int64 (or up to UINT64_MAX when `wrap`). */
static bool parse_int(parser *P, int64_t *out, bool wrap)
{
    ws(P);
    const char *at = P->p;
    bool neg = *P->p == '-';
    if (neg) P->p++;
    if (!isdigit((unsigned char)*P->p)) return err_at(P, at, "expected an integer, found %s", found(P));
    uint64_t v = 0;
    while (isdigit((unsigned char)*P->p)) {
        unsigned d = (unsigned)(*P->p++ - '0');
        if (v > (UINT64_MAX - d) / 10) return err_at(P, at, "integer out of range");
        v = v * 10 + d;
    }
    if (ident_char(*P->p)) return err_at(P, at, "malformed integer");
    if (neg ? v > (uint64_t)INT64_MAX + 1 : (!wrap && v > (uint64_t)INT64_MAX))
        return err_at(P, at, "integer out of range");
    *out = neg ? (int64_t)(0 - v) : (int64_t)v;
    return true;
}

/* STRING := '"' (char | '\\' (["\\] | hex hex))* '"' ; result in the arena. */
static bool parse_string(parser *P, const char **out)
{
    ws(P);
    const char *at = P->p;
    if (*P->p != '"') return err_at(P, at, "expected a string, found %s", found(P));
    P->p++;
    strbuf b = {0};
    while (*P->p != '"') {
        char c = *P->p;
        if (!c || c == '\n') {
            sb_free(&b);
            return err_at(P, at, "unterminated string");
        }
        if (c == '\\') {
            char e = P->p[1];
            if (e == '"' || e == '\\') {
                sb_putc(&b, e);
                P->p += 2;
            } else if (isxdigit((unsigned char)e) && isxdigit((unsigned char)P->p[2])) {
                char hex[3] = { e, P->p[2], 0 };
                char v = (char)strtol(hex, NULL, 16);
                if (!v) {
                    sb_free(&b);
                    return err_at(P, P->p, "NUL character in string");
                }
                sb_putc(&b, v);
                P->p += 3;
            } else {
                sb_free(&b);
                return err_at(P, P->p, "bad escape in string");
            }
        } else {
            sb_putc(&b, c);
            P->p++;
        }
    }
    P->p++;
    char *s = sb_take(&b);
    *out = arena_strdup(&P->f->mem, s);
    free(s);
    return true;
}

/* ---- symbol table: visible value names, scoped by region ---- */

static unsigned hash(const char *s, size_t n)
{
    unsigned h = 2166136261u;
    for (size_t i = 0; i < n; i++) h = (h ^ (unsigned char)s[i]) * 16777619u;
    return h % NBUCKETS;
}

static int lookup(parser *P, const char *tok, size_t len)
{
    for (int i = P->buckets[hash(tok, len)]; i >= 0; i = P->syms.v[i].next)
        if (P->syms.v[i].len == len && !memcmp(P->syms.v[i].tok, tok, len)) return P->syms.v[i].v;
    return -1;
}

static void bind(parser *P, const char *tok, size_t len, ir_value v)
{
    unsigned h = hash(tok, len);
    sym s = { tok, len, v, P->buckets[h] };
    vec_push(&P->syms, s);
    P->buckets[h] = P->syms.n - 1;
}

/* Drop the names bound since `mark` (LIFO, so each is its bucket's head). */
static void unbind_to(parser *P, int mark)
{
    while (P->syms.n > mark) {
        sym *s = &P->syms.v[--P->syms.n];
        P->buckets[hash(s->tok, s->len)] = s->next;
    }
}

/* VALUE-TOKEN := '%' [A-Za-z0-9_.$-]+ */
static bool value_token(parser *P, const char **tok, size_t *len)
{
    ws(P);
    if (*P->p != '%') return err_at(P, P->p, "expected a value (%%name), found %s", found(P));
    const char *s = ++P->p;
    while (value_char(*P->p)) P->p++;
    if (P->p == s) return err_at(P, s - 1, "expected a value name after '%%'");
    *tok = s;
    *len = (size_t)(P->p - s);
    return true;
}

/* The source name carried by a token: "x.12" -> "x", "12" -> none,
 * "x" -> "x" (hand-written text). */
static void set_name(parser *P, ir_value v, const char *tok, size_t len)
{
    size_t n = len;
    const char *dot = NULL;
    for (size_t i = 0; i < len; i++)
        if (tok[i] == '.') dot = tok + i;
    if (dot && dot + 1 < tok + len) {
        bool digits = true;
        for (const char *c = dot + 1; c < tok + len; c++) digits &= isdigit((unsigned char)*c) != 0;
        if (digits) n = (size_t)(dot - tok);
    }
    bool all_digits = true;
    for (size_t i = 0; i < n; i++) all_digits &= isdigit((unsigned char)tok[i]) != 0;
    if (n == 0 || all_digits) return;
    char *name = xstrndup(tok, n);
    ir_value_set_name(P->f, v, name);
    free(name);
}

/* Define a value name (no shadowing, as in MLIR). */
static bool define(parser *P, const char *tok, size_t len, ir_value v, bool named)
{
    if (lookup(P, tok, len) >= 0) return err_at(P, tok - 1, "redefinition of value %%%.*s", (int)len, tok);
    bind(P, tok, len, v);
    if (named) set_name(P, v, tok, len);
    return true;
}

/* USE := VALUE-TOKEN ['#' digits] */
static bool parse_use(parser *P, ir_value *out)
{
    const char *tok;
    size_t len;
    if (!value_token(P, &tok, &len)) return false;
    if (*P->p == '#' && isdigit((unsigned char)P->p[1])) {
        P->p++;
        while (isdigit((unsigned char)*P->p)) P->p++;
        len = (size_t)(P->p - tok);
    }
    ir_value v = lookup(P, tok, len);
    if (v < 0) return err_at(P, tok - 1, "use of undefined value %%%.*s", (int)len, tok);
    *out = v;
    return true;
}

/* ---- types ---- */

/* SCALAR := i1 | i8 | i16 | i32 | i64 | f16 | bf16 | f32 | f64 | f8E4M3FN | f8E5M2
 *         | f8E4M3B15 | f8E4M3FNUZ | f8E5M2FNUZ   (the dtype table's ir column) */
static bool parse_scalar(parser *P, ir_type *out)
{
    const char *s;
    size_t n = ident(P, &s);
    tt_dtype d;
    if (!n || !tt_dtype_from_ir(s, n, &d)) {
        P->p = s;
        return err_at(P, s, "expected a scalar type (i1..i64, f16, bf16, f32, f64, f8E4M3FN, ...), found %s", found(P));
    }
    *out = ir_scalar(d);
    return true;
}

/* PTR := '!tt.ptr' '<' SCALAR [',' INT] '>' */
static bool parse_ptr(parser *P, ir_type *out)
{
    ws(P);
    if (strncmp(P->p, "!tt.ptr", 7) || ident_char(P->p[7])) return err_at(P, P->p, "expected a type, found %s", found(P));
    P->p += 7;
    ir_type pointee;
    if (!expect(P, '<', "after !tt.ptr") || !parse_scalar(P, &pointee)) return false;
    if (accept(P, ',')) {
        int64_t as;
        if (!parse_int(P, &as, false)) return false;
    }
    if (!expect(P, '>', "to close !tt.ptr<")) return false;
    *out = ir_ptr(pointee);
    return true;
}

/* TYPE := SCALAR | PTR | 'tensor' '<' (INT 'x')* (SCALAR | PTR) '>' */
static bool parse_type(parser *P, ir_type *out)
{
    ws(P);
    if (*P->p == '!') return parse_ptr(P, out);
    if (!accept_word(P, "tensor")) return parse_scalar(P, out);
    const char *at = P->p;
    if (!expect(P, '<', "after tensor")) return false;
    int rank = 0;
    int64_t shape[IR_MAX_RANK], numel = 1;
    ws(P);
    while (isdigit((unsigned char)*P->p)) {
        const char *d = P->p;
        int64_t v = 0;
        while (isdigit((unsigned char)*P->p)) {
            v = v * 10 + (*P->p++ - '0');
            if (v > MAX_NUMEL) return err_at(P, d, "tensor dimension too large");
        }
        if (*P->p != 'x') return err_at(P, P->p, "expected 'x' after a tensor dimension, found %s", found(P));
        P->p++;
        if (v < 1) return err_at(P, d, "tensor dimensions must be positive");
        if (rank == IR_MAX_RANK) return err_at(P, d, "tensors of rank > %d are not supported", IR_MAX_RANK);
        numel *= v;
        if (numel > MAX_NUMEL) return err_at(P, d, "tensor has more than 2^31 elements");
        shape[rank++] = v;
    }
    ir_type elem;
    if (*P->p == '!' ? !parse_ptr(P, &elem) : !parse_scalar(P, &elem)) return false;
    if (!expect(P, '>', "to close tensor<")) return false;
    (void)at;
    *out = rank ? ir_tensor(elem, rank, shape) : elem;
    return true;
}

/* ---- attributes ---- */

typedef struct attrvals {
    int64_t v[4];
    bool seen[4];
    const char *value_at, *value_end; /* the text of a kind-v attribute, typed later */
} attrvals;

/* ATTR-DICT := '{' [IDENT '=' ATTR-VALUE (',' IDENT '=' ATTR-VALUE)*] '}'
 * ATTR-VALUE := INT | STRING | '[' [INT (',' INT)*] ']' | ENUM-NAME | constant text */
static bool parse_attrs(parser *P, int opc, attrvals *av)
{
    const ir_opdesc *d = &ir_ops[opc];
    ir_attrspec spec[4];
    int n = ir_attrspec_split(d->attrs, spec);
    if (!expect(P, '{', "to open the attributes")) return false;
    if (accept(P, '}')) return true;
    do {
        const char *name;
        size_t len = ident(P, &name);
        if (!len) return err_at(P, P->p, "expected an attribute name, found %s", found(P));
        int k = -1;
        for (int i = 0; i < n; i++)
            if (spec[i].name_len == len && !memcmp(spec[i].name, name, len)) k = i;
        if (k < 0) return err_at(P, name, "'%s' has no attribute '%.*s'", d->name, (int)len, name);
        if (av->seen[k]) return err_at(P, name, "duplicate attribute '%.*s'", (int)len, name);
        av->seen[k] = true;
        if (!expect(P, '=', "after the attribute name")) return false;
        ws(P);
        const ir_attrspec *s = &spec[k];
        if (ir_attrspec_kind_is(s, "i")) {
            if (!parse_int(P, &av->v[k], false)) return false;
        } else if (ir_attrspec_kind_is(s, "s")) {
            const char *str;
            if (!parse_string(P, &str)) return false;
            av->v[k] = ir_str_intern(P->f, str);
        } else if (ir_attrspec_kind_is(s, "v")) {
            /* the constant's text: typed once the result type is known */
            av->value_at = P->p;
            while (*P->p && !strchr(",} \t\r\n", *P->p)) P->p++;
            if (P->p == av->value_at) return err_at(P, P->p, "expected a constant value, found %s", found(P));
            av->value_end = P->p;
        } else if (ir_attrspec_kind_is(s, "a")) {
            int64_t e[IR_ATTR_ARRAY_MAX];
            int cnt = 0;
            if (!expect(P, '[', "to open the array")) return false;
            if (!accept(P, ']')) {
                do {
                    const char *at = P->p;
                    if (cnt == IR_ATTR_ARRAY_MAX) return err_at(P, at, "array attributes hold at most %d elements", IR_ATTR_ARRAY_MAX);
                    if (!parse_int(P, &e[cnt], false)) return false;
                    cnt++;
                } while (accept(P, ','));
                if (!expect(P, ']', "to close the array")) return false;
            }
            av->v[k] = ir_attr_array(P->f, cnt, e);
        } else {
            const char *const *names = ir_enum_names(s->kind, s->kind_len);
            if (*P->p == '-' || isdigit((unsigned char)*P->p)) {
                if (!parse_int(P, &av->v[k], false)) return false;
            } else {
                const char *w;
                size_t wl = ident(P, &w);
                int idx = -1;
                for (int i = 0; names && names[i]; i++)
                    if (strlen(names[i]) == wl && !memcmp(names[i], w, wl)) idx = i;
                if (idx < 0) {
                    P->p = w;
                    if (!wl) return err_at(P, w, "expected a %.*s value, found %s", (int)s->kind_len, s->kind, found(P));
                    return err_at(P, w, "unknown %.*s value '%.*s'", (int)s->kind_len, s->kind, (int)wl, w);
                }
                av->v[k] = idx;
            }
        }
    } while (accept(P, ','));
    if (!expect(P, '}', "to close the attributes")) return false;
    return true;
}

/* A constant's value, read per the result type: an integer (or true/false)
 * for integer types, a float literal (inf, -inf, nan, -nan too) for floats. */
static bool typed_value(parser *P, const char *at, const char *end, ir_type t, ir_op *op)
{
    const char *save = P->p;
    P->p = at;
    if (ir_type_is_float(t)) {
        char *e;
        double v = strtod(at, &e);
        if (e != end) return err_at(P, at, "expected a float constant, found '%.*s'", (int)(end - at), at);
        op->fval = v;
        op->ival = 0;
    } else {
        int64_t v;
        const char *c = at + (*at == '-');
        while (c < end && isdigit((unsigned char)*c)) c++;
        bool word = (end - at == 4 && !memcmp(at, "true", 4)) || (end - at == 5 && !memcmp(at, "false", 5));
        if (!word && (c != end || c == at + (*at == '-')))
            return err_at(P, at, "expected an integer constant, found '%.*s'", (int)(end - at), at);
        if (accept_word(P, "true")) v = 1;
        else if (accept_word(P, "false")) v = 0;
        else if (!parse_int(P, &v, true)) return false;
        op->ival = v;
        op->fval = (double)v;
    }
    P->p = save;
    return true;
}

/* ---- locations ---- */

/* LOC-REF := 'loc' '(' ('#loc' INT | 'unknown') ')' ; -1 for unknown */
static bool parse_loc_ref(parser *P, int32_t *out)
{
    if (!accept_word(P, "loc") || !expect(P, '(', "after loc")) return false;
    ws(P);
    if (accept_word(P, "unknown")) {
        *out = -1;
    } else {
        const char *at = P->p;
        if (strncmp(P->p, "#loc", 4) || !isdigit((unsigned char)P->p[4]))
            return err_at(P, at, "expected #locN or unknown, found %s", found(P));
        P->p += 4;
        int64_t id;
        if (!parse_int(P, &id, false)) return false;
        if (id >= MAX_LOCS) return err_at(P, at, "location id too large");
        *out = (int32_t)id;
        locref r = { (int32_t)id, at };
        vec_push(&P->locrefs, r);
    }
    return expect(P, ')', "to close loc(");
}

/* ---- ops and regions ---- */

static bool parse_region(parser *P, int32_t parent, int opidx);

/* OP := [RESULTS '='] OPNAME [USE (',' USE)*] [ATTR-DICT] [':' TYPE (',' TYPE)*]
 *       REGION* [LOC-REF]
 * RESULTS := VALUE-TOKEN[':' INT] (',' VALUE-TOKEN)*
 * Optional parts must start on the op's line. */
static bool parse_op(parser *P, int32_t region)
{
    ws(P);
    const char *op_at = P->p;
    struct restok { const char *tok; size_t len; int group; } *res = NULL;
    int nres = 0, cap = 0;
    ir_value *opnd = NULL;
    int nopnd = 0, ocap = 0;
    ir_type *types = NULL;
    int ntypes = 0, tcap = 0;
    bool ok = false;

    if (*P->p == '%') {
        do {
            const char *tok;
            size_t len;
            if (!value_token(P, &tok, &len)) goto out;
            int group = 0;
            if (*P->p == ':' && isdigit((unsigned char)P->p[1])) {
                P->p++;
                int64_t g;
                if (!parse_int(P, &g, false)) goto out;
                if (g < 1 || g > MAX_RESULTS) {
                    err_at(P, tok, "bad result count %lld", (long long)g);
                    goto out;
                }
                group = (int)g;
            }
            if (nres == cap) {
                cap = cap ? cap * 2 : 4;
                res = xrealloc(res, sizeof *res * (size_t)cap);
            }
            res[nres++] = (struct restok){ tok, len, group };
        } while (accept(P, ','));
        if (!expect(P, '=', "after the results")) goto out;
    }
    int nvals = 0;                 /* result values the LHS names */
    for (int i = 0; i < nres; i++) nvals += res[i].group ? res[i].group : 1;
    if (nvals > MAX_RESULTS) {
        err_at(P, op_at, "too many results");
        goto out;
    }

    const char *name_at;
    size_t nlen = ident(P, &name_at);
    if (!nlen) {
        err_at(P, P->p, "expected an operation name, found %s", found(P));
        goto out;
    }
    int opc = ir_op_lookup(name_at, nlen);
    if (opc < 0) {
        err_at(P, name_at, "unknown operation '%.*s'", (int)nlen, name_at);
        goto out;
    }
    const ir_opdesc *d = &ir_ops[opc];

    if (peek_inline(P) == '%') {
        do {
            ir_value v = -1;
            if (nopnd == MAX_OPERANDS) {
                err_at(P, P->p, "too many operands");
                goto out;
            }
            if (!parse_use(P, &v)) goto out;
            if (nopnd == ocap) {
                ocap = ocap ? ocap * 2 : 4;
                opnd = xrealloc(opnd, sizeof *opnd * (size_t)ocap);
            }
            opnd[nopnd++] = v;
        } while (accept(P, ','));
    }
    if (nopnd < d->min_opnd || (d->max_opnd >= 0 && nopnd > d->max_opnd)) {
        if (d->max_opnd < 0)
            err_at(P, name_at, "'%s' takes at least %d operands, got %d", d->name, d->min_opnd, nopnd);
        else if (d->min_opnd == d->max_opnd)
            err_at(P, name_at, "'%s' takes %d operand%s, got %d", d->name, d->min_opnd, d->min_opnd == 1 ? "" : "s", nopnd);
        else
            err_at(P, name_at, "'%s' takes %d to %d operands, got %d", d->name, d->min_opnd, d->max_opnd, nopnd);
        goto out;
    }

    attrvals av = { .value_at = NULL };
    ir_attrspec spec[4];
    int nattrs = ir_attrspec_split(d->attrs, spec);
    if (nattrs && peek_inline(P) == '{' && !parse_attrs(P, opc, &av)) goto out;
    for (int i = 0; i < nattrs; i++)
        if (!av.seen[i]) {
            err_at(P, name_at, "'%s' needs attribute '%.*s'", d->name, (int)spec[i].name_len, spec[i].name);
            goto out;
        }

    const char *types_at = P->p;
    if (peek_inline(P) == ':') {
        P->p++;
        types_at = P->p;
        do {
            if (ntypes == MAX_RESULTS) {
                err_at(P, P->p, "too many result types");
                goto out;
            }
            if (ntypes == tcap) {
                tcap = tcap ? tcap * 2 : 4;
                types = xrealloc(types, sizeof *types * (size_t)tcap);
            }
            if (!parse_type(P, &types[ntypes])) goto out;
            ntypes++;
        } while (accept(P, ','));
    }
    if (ntypes != nvals) {
        err_at(P, ntypes ? types_at : name_at, "%d result%s named but %d result type%s given", nvals,
               nvals == 1 ? "" : "s", ntypes, ntypes == 1 ? "" : "s");
        goto out;
    }
    if (d->nres >= 0 && nvals != d->nres) {
        err_at(P, name_at, "'%s' has %d result%s, got %d", d->name, d->nres, d->nres == 1 ? "" : "s", nvals);
        goto out;
    }

    ir_builder b = { P->f, region, -1 };
    int idx = ir_emit(&b, opc, nvals, types, nopnd, opnd);
    ir_op *op = ir_op_at(P->f, region, idx);
    for (int i = 0; i < nattrs; i++) op->attr[i] = av.v[i];
    if (av.value_at) {
        if (nvals < 1) {
            err_at(P, av.value_at, "a constant needs a result type");
            goto out;
        }
        if (!typed_value(P, av.value_at, av.value_end, types[0], op)) goto out;
    }

    for (int i = 0; i < d->nregions; i++) {
        if (peek_inline(P) != '{') {
            err_at(P, P->p, "'%s' needs %d region%s, found %s", d->name, d->nregions, d->nregions == 1 ? "" : "s",
                   found(P));
            goto out;
        }
        if (!parse_region(P, region, idx)) goto out;
    }

    int32_t loc = -1;
    skip(P, false);
    if (!strncmp(P->p, "loc", 3) && !ident_char(P->p[3]) && !parse_loc_ref(P, &loc)) goto out;
    ir_op_at(P->f, region, idx)->loc = loc;

    /* results become visible after the op (not inside its own regions) */
    ir_value first = ir_op_at(P->f, region, idx)->res;
    int k = 0;
    for (int i = 0; i < nres; i++) {
        if (!res[i].group) {
            if (!define(P, res[i].tok, res[i].len, first + k++, true)) goto out;
            continue;
        }
        /* MLIR's %name:N: uses are %name#i (and %name for #0) */
        if (!define(P, res[i].tok, res[i].len, first + k, false)) goto out;
        for (int g = 0; g < res[i].group; g++, k++) {
            char *key = xasprintf("%.*s#%d", (int)res[i].len, res[i].tok, g);
            const char *kk = arena_strdup(&P->f->mem, key);
            size_t kl = strlen(key);
            free(key);
            if (!define(P, kk, kl, first + k, false)) goto out;
        }
    }
    ok = true;
out:
    free(res);
    free(opnd);
    free(types);
    return ok;
}

/* REGION := '{' [LABEL] OP* '}'
 * LABEL := '^' IDENT ['(' [VALUE-TOKEN ':' TYPE (',' VALUE-TOKEN ':' TYPE)*] ')'] ':' */
static bool parse_region(parser *P, int32_t parent, int opidx)
{
    ws(P);
    const char *open = P->p;
    if (!expect(P, '{', "to open a region")) return false;
    if (P->depth >= TT_MAX_REGION_DEPTH) {                 /* this region would be at level depth + 1 */
        char *why = tt_limit_exceeded(TT_LIM_REGION_DEPTH);
        bool r = err_at(P, open, "%s (regions nested deeper than %d)", why, TT_MAX_REGION_DEPTH);
        free(why);
        return r;
    }
    P->depth++;
    int mark = P->syms.n;
    struct argtok { const char *tok; size_t len; } *args = NULL;
    ir_type *types = NULL;
    int nargs = 0, cap = 0;
    bool ok = false;
    ws(P);
    if (*P->p == '^') {
        P->p++;
        const char *l;
        if (!ident(P, &l) && !isdigit((unsigned char)*P->p)) {
            err_at(P, P->p, "expected a block label after '^'");
            goto out;
        }
        while (ident_char(*P->p)) P->p++;
        if (accept(P, '(') && !accept(P, ')')) {
            do {
                if (nargs == MAX_RESULTS * 4) {
                    err_at(P, P->p, "too many block arguments");
                    goto out;
                }
                if (nargs == cap) {
                    cap = cap ? cap * 2 : 4;
                    args = xrealloc(args, sizeof *args * (size_t)cap);
                    types = xrealloc(types, sizeof *types * (size_t)cap);
                }
                if (!value_token(P, &args[nargs].tok, &args[nargs].len)) goto out;
                if (!expect(P, ':', "after a block argument") || !parse_type(P, &types[nargs])) goto out;
                nargs++;
            } while (accept(P, ','));
            if (!expect(P, ')', "to close the block arguments")) goto out;
        }
        if (!expect(P, ':', "after the block label")) goto out;
    }
    int32_t r = ir_new_region(P->f, nargs, types);
    ir_op_add_region(P->f, parent, opidx, r);
    for (int i = 0; i < nargs; i++)
        if (!define(P, args[i].tok, args[i].len, P->f->regions.v[r].args[i], true)) goto out;
    for (;;) {
        if (accept(P, '}')) break;
        if (!*P->p) {
            err_at(P, open, "region is not closed (missing '}')");
            goto out;
        }
        if (!parse_op(P, r)) goto out;
    }
    ok = true;
out:
    unbind_to(P, mark);
    P->depth--;
    free(args);
    free(types);
    return ok;
}

/* ---- function and module ---- */

/* ARG := VALUE-TOKEN ':' TYPE ['{' ('tt.dtype' '=' STRING | 'tt.is_ptr' '=' BOOL)
 *        (',' ...)* '}'] */
static bool parse_arg(parser *P)
{
    const char *tok;
    size_t len;
    ir_type t;
    if (!value_token(P, &tok, &len)) return false;
    if (!expect(P, ':', "after an argument name") || !parse_type(P, &t)) return false;
    const ir_type_info *ti = ir_type_get(t);
    tt_dtype dt = ti->elem == TT_PTR ? ir_type_get(ti->pointee)->elem : ti->elem;
    bool is_ptr = ti->elem == TT_PTR;
    if (peek_inline(P) == '{') {
        P->p++;
        do {
            const char *k;
            size_t kl = ident(P, &k);
            if (kl == 8 && !memcmp(k, "tt.dtype", 8)) {
                const char *s;
                if (!expect(P, '=', "after tt.dtype")) return false;
                ws(P);
                const char *at = P->p;
                if (!parse_string(P, &s)) return false;
                if (!tt_dtype_parse(s, &dt) || dt == TT_PTR) return err_at(P, at, "unknown dtype \"%s\"", s);
            } else if (kl == 9 && !memcmp(k, "tt.is_ptr", 9)) {
                if (!expect(P, '=', "after tt.is_ptr")) return false;
                if (accept_word(P, "true")) is_ptr = true;
                else if (accept_word(P, "false")) is_ptr = false;
                else return err_at(P, P->p, "expected true or false, found %s", found(P));
            } else {
                return err_at(P, k, "unknown argument attribute (expected tt.dtype or tt.is_ptr)");
            }
        } while (accept(P, ','));
        if (!expect(P, '}', "to close the argument attributes")) return false;
    }
    ir_value v = ir_add_arg(P->f, NULL, t, dt, is_ptr);
    return define(P, tok, len, v, true);
}

/* LOC-DEF := '#loc' INT '=' 'loc' '(' (LOC | 'callsite' '(' LOC 'at' '#loc' INT ')') ')'
 * LOC := [STRING '('] STRING ':' INT ':' INT [')']   (the first string: function name) */
static bool parse_loc_def(parser *P, ir_loc *out, int32_t *id, const char **id_at)
{
    ws(P);
    *id_at = P->p;
    if (strncmp(P->p, "#loc", 4) || !isdigit((unsigned char)P->p[4]))
        return err_at(P, P->p, "expected a location alias (#locN = loc(...)), found %s", found(P));
    P->p += 4;
    int64_t n;
    if (!parse_int(P, &n, false)) return false;
    if (n >= MAX_LOCS) return err_at(P, *id_at, "location id too large");
    *id = (int32_t)n;
    if (!expect(P, '=', "after the location alias") || !accept_word(P, "loc"))
        return P->failed ? false : err_at(P, P->p, "expected loc(...), found %s", found(P));
    if (!expect(P, '(', "after loc")) return false;
    bool callsite = accept_word(P, "callsite");
    if (callsite && !expect(P, '(', "after callsite")) return false;
    const char *s1, *file;
    if (!parse_string(P, &s1)) return false;
    const char *func = NULL;
    if (accept(P, '(')) {
        func = s1;
        if (!parse_string(P, &file)) return false;
    } else {
        file = s1;
    }
    int64_t line, col;
    if (!expect(P, ':', "after the file name") || !parse_int(P, &line, false) ||
        !expect(P, ':', "after the line") || !parse_int(P, &col, false))
        return false;
    if (line < 0 || line > INT32_MAX || col < 0 || col > INT32_MAX) return err_at(P, *id_at, "line or column out of range");
    if (func && !expect(P, ')', "to close the named location")) return false;
    int64_t caller = -1;
    if (callsite) {
        if (!accept_word(P, "at")) return err_at(P, P->p, "expected 'at' in callsite, found %s", found(P));
        ws(P);
        const char *at = P->p;
        if (strncmp(P->p, "#loc", 4) || !isdigit((unsigned char)P->p[4]))
            return err_at(P, at, "expected #locN after 'at', found %s", found(P));
        P->p += 4;
        if (!parse_int(P, &caller, false)) return false;
        if (caller >= MAX_LOCS) return err_at(P, at, "location id too large");
        locref r = { (int32_t)caller, at };
        vec_push(&P->locrefs, r);
        if (!expect(P, ')', "to close callsite(")) return false;
    }
    if (!expect(P, ')', "to close loc(")) return false;
    int fid = -1;
    if (*file) {                   /* diag_find_source hashes: no per-parse cache needed */
        fid = diag_find_source(file);
        if (fid < 0) fid = diag_add_source(file, "");
    }
    *out = (ir_loc){ fid, (int)line, (int)col, (int32_t)caller, func };
    return true;
}

/* Read the location aliases up to the end of the input and install them
 * as ir_func.locs with the same ids. */
static bool parse_locs(parser *P)
{
    VEC(ir_loc) locs = {0};
    VEC(const char *) def_at = {0};
    bool ok = false;
    for (;;) {
        ws(P);
        if (!*P->p) break;
        ir_loc l;
        int32_t id = 0;
        const char *at;
        if (!parse_loc_def(P, &l, &id, &at)) goto out;
        if (id >= locs.n) {
            ir_loc none = { -2, 0, 0, -1, NULL };
            while (locs.n <= id) {
                vec_push(&locs, none);
                vec_push(&def_at, NULL);
            }
        }
        if (locs.v[id].file != -2) {
            err_at(P, at, "location #loc%d defined twice", id);
            goto out;
        }
        locs.v[id] = l;
        def_at.v[id] = at;
    }
    for (int i = 0; i < P->locrefs.n; i++) {
        locref *r = &P->locrefs.v[i];
        if (r->id >= locs.n || locs.v[r->id].file == -2) {
            err_at(P, r->pos, "location #loc%d is not defined", r->id);
            goto out;
        }
    }
    for (int i = 0; i < locs.n; i++) {
        if (locs.v[i].file == -2) {
            err_at(P, P->p, "location #loc%d is missing (ids must be 0..%d)", i, locs.n - 1);
            goto out;
        }
    }
    /* caller chains must end: follow each for at most locs.n steps */
    for (int i = 0; i < locs.n; i++) {
        int32_t c = locs.v[i].caller;
        for (int steps = 0; c >= 0; steps++) {
            if (steps > locs.n) {
                err_at(P, def_at.v[i], "location #loc%d has a cyclic call-site chain", i);
                goto out;
            }
            c = locs.v[c].caller;
        }
    }
    for (int i = 0; i < locs.n; i++) vec_push(&P->f->locs, locs.v[i]);
    ok = true;
out:
    vec_free(&locs);
    vec_free(&def_at);
    return ok;
}

/* MODULE := ['module' '{'] FUNC ['}'] LOC-DEF*
 * FUNC := 'tt.func' ['public' | 'private'] '@' (IDENT | STRING)
 *         '(' [ARG (',' ARG)*] ')' '{' OP* '}' [LOC-REF] */
static bool parse_module(parser *P)
{
    ws(P);
    bool module = accept_word(P, "module");
    if (module && !expect(P, '{', "after module")) return false;
    if (!accept_word(P, "tt.func")) return err_at(P, P->p, "expected tt.func, found %s", found(P));
    if (!accept_word(P, "public")) accept_word(P, "private");
    if (!expect(P, '@', "before the function name")) return false;
    const char *name;
    if (*P->p == '"') {
        if (!parse_string(P, &name)) return false;
    } else {
        const char *s = P->p;
        while (ident_char(*P->p)) P->p++;
        if (P->p == s) return err_at(P, s, "expected a function name after '@'");
        name = arena_strndup(&P->f->mem, s, (size_t)(P->p - s));
    }
    free(P->f->name);
    P->f->name = xstrdup(name);
    if (!expect(P, '(', "to open the argument list")) return false;
    if (!accept(P, ')')) {
        do {
            if (!parse_arg(P)) return false;
        } while (accept(P, ','));
        if (!expect(P, ')', "to close the argument list")) return false;
    }
    ws(P);
    const char *open = P->p;
    if (!expect(P, '{', "to open the function body")) return false;
    for (;;) {
        if (accept(P, '}')) break;
        if (!*P->p) return err_at(P, open, "function body is not closed (missing '}')");
        if (!parse_op(P, IR_BODY)) return false;
    }
    skip(P, false);
    int32_t floc;
    if (!strncmp(P->p, "loc", 3) && !ident_char(P->p[3]) && !parse_loc_ref(P, &floc)) return false;
    if (module) {
        if (accept_word(P, "tt.func")) return err_at(P, P->p - 7, "only one function per module is supported");
        if (!expect(P, '}', "to close the module")) return false;
    }
    return parse_locs(P);
}

ir_func *ir_parse(const char *name, const char *text)
{
    parser P = { .text = text, .p = text };
    P.file = diag_add_source(name, text);
    P.f = ir_func_new("");
    for (int i = 0; i < NBUCKETS; i++) P.buckets[i] = -1;
    bool ok = parse_module(&P);
    vec_free(&P.syms);
    vec_free(&P.locrefs);
    if (!ok) {
        ir_func_free(P.f);
        return NULL;
    }
    return P.f;
}
