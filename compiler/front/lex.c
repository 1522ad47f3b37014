/* lex.c — a tolerant tokenizer for Python source: indentation, brackets,
 * line joins, numbers, strings (with prefixes and triple quotes), comments.
 * Kernel code is a small subset of Python, but the whole file is tokenized
 * so the module scanner can skip host code reliably. */
#include "lex.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

typedef struct lexer {
    arena *a;
    const char *src, *p;
    int line;
    const char *line_start;
    VEC(token) toks;
    int indents[128];
    int altindents[128];     /* the same with tabs one column wide (Python's TabError check) */
    int nindent;
    int depth;
    strbuf comment;
} lexer;

static token *push(lexer *L, tok_kind k, const char *start, int len)
{
    token t = {0};
    t.kind = k;
    t.line = L->line;
    t.col = (int)(start - L->line_start) + 1;
    t.depth = L->depth;
    t.start = start;
    t.len = len;
    vec_push(&L->toks, t);
    return &L->toks.v[L->toks.n - 1];
}

static const char *const ops3[] = { "**=", "//=", ">>=", "<<=", "...", NULL };
static const char *const ops2[] = { "**", "//", ">>", "<<", "<=", ">=", "==", "!=", "->", "+=", "-=",
                                    "*=", "/=", "%=", "&=", "|=", "^=", "@=", ":=", NULL };
static const char ops1[] = "+-*/%@&|^~<>()[]{},:.;=";

static void lex_number(lexer *L)
{
    const char *s = L->p;
    char buf[128];
    int n = 0;
    bool is_float = false;
    int base = 10;
    bool bad = false;
    if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X' || s[1] == 'o' || s[1] == 'O' || s[1] == 'b' || s[1] == 'B')) {
        base = (s[1] == 'x' || s[1] == 'X') ? 16 : (s[1] == 'o' || s[1] == 'O') ? 8 : 2;
        L->p += 2;
        while (isxdigit((unsigned char)*L->p) || *L->p == '_') {
            char c = *L->p;
            int d = isdigit((unsigned char)c) ? c - '0' : c == '_' ? 0 : 10 + (tolower((unsigned char)c) - 'a');
            if (d >= base) bad = true;
            if (c != '_' && n < 120) buf[n++] = c;
            L->p++;
        }
        if (!n || L->p[-1] == '_') bad = true;
    } else {
        while (isdigit((unsigned char)*L->p) || *L->p == '_') {
            if (*L->p != '_' && n < 120) buf[n++] = *L->p;
            L->p++;
        }
        if (*L->p == '.' && L->p[1] != '.') {
            is_float = true;
            if (n < 120) buf[n++] = *L->p;
            L->p++;
            while (isdigit((unsigned char)*L->p) || *L->p == '_') {
                if (*L->p != '_' && n < 120) buf[n++] = *L->p;
                L->p++;
            }
        }
        if ((*L->p == 'e' || *L->p == 'E') &&
            (isdigit((unsigned char)L->p[1]) || ((L->p[1] == '+' || L->p[1] == '-') && isdigit((unsigned char)L->p[2])))) {
            is_float = true;
            if (n < 120) buf[n++] = *L->p;
            L->p++;
            if (*L->p == '+' || *L->p == '-') {
                if (n < 120) buf[n++] = *L->p;
                L->p++;
            }
            while (isdigit((unsigned char)*L->p)) {
                if (n < 120) buf[n++] = *L->p;
                L->p++;
            }
        }
    }
    buf[n] = 0;
    if (L->p[-1] == '_') bad = true;
    /* Python rejects leading zeros in decimal integers: 09, 007 */
    if (base == 10 && !is_float && n > 1 && buf[0] == '0' && strspn(buf, "0") != (size_t)n) bad = true;
    token *t = push(L, is_float ? TK_FLOAT : TK_INT, s, (int)(L->p - s));
    if (bad) {
        t->kind = TK_ERROR;
        t->sval = "invalid number literal";
        return;
    }
    if (is_float) {
        t->fval = strtod(buf, NULL);
    } else {
        errno = 0;
        unsigned long long v = strtoull(n ? buf : "0", NULL, base);
        if (errno == ERANGE || v > (unsigned long long)INT64_MAX) {
            t->big = true;
            t->ival = INT64_MAX;
            if (errno != ERANGE) t->ival = (int64_t)v; /* fits u64: keep the bits, flagged big */
        } else {
            t->ival = (int64_t)v;
        }
    }
    /* a trailing j (complex) or letters make it an error token */
    if (isalpha((unsigned char)*L->p) || *L->p == '_') {
        while (isalnum((unsigned char)*L->p) || *L->p == '_') L->p++;
        t->kind = TK_ERROR;
        t->len = (int)(L->p - s);
    }
}

static void lex_string(lexer *L, const char *start, bool raw, bool fstr)
{
    char q = *L->p;
    bool triple = L->p[1] == q && L->p[2] == q;
    bool closed = false;
    L->p += triple ? 3 : 1;
    int line0 = L->line;
    const char *ls0 = L->line_start;
    strbuf b = {0};
    for (;;) {
        char c = *L->p;
        if (!c) break;
        if (!triple && c == '\n') break;
        if (c == q && (!triple || (L->p[1] == q && L->p[2] == q))) {
            L->p += triple ? 3 : 1;
            closed = true;
            break;
        }
        if (c == '\\' && L->p[1]) {
            char e = L->p[1];
            if (raw) {
                sb_putc(&b, c);
                sb_putc(&b, e);
            } else {
                switch (e) {
                case 'n': sb_putc(&b, '\n'); break;
                case 't': sb_putc(&b, '\t'); break;
                case '\\': sb_putc(&b, '\\'); break;
                case '\'': sb_putc(&b, '\''); break;
                case '"': sb_putc(&b, '"'); break;
                case '\n': break;
                default: sb_putc(&b, '\\'); sb_putc(&b, e); break;
                }
            }
            if (e == '\n') { L->line++; L->line_start = L->p + 2; }
            L->p += 2;
            continue;
        }
        if (c == '\n') { L->line++; L->line_start = L->p + 1; }
        sb_putc(&b, c);
        L->p++;
    }
    /* the token's position is where it started */
    int line1 = L->line;
    const char *ls1 = L->line_start;
    L->line = line0;
    L->line_start = ls0;
    token *t = push(L, TK_STRING, start, (int)(L->p - start));
    L->line = line1;
    L->line_start = ls1;
    t->sval = arena_strdup(L->a, b.s ? b.s : "");
    t->fstring = fstr;
    if (!closed) {
        t->kind = TK_ERROR;
        t->sval = "unterminated string literal";
        t->len = 1;
    }
    sb_free(&b);
}

static bool string_prefix(const char *p, int *len, bool *raw, bool *fstr)
{
    int n = 0;
    *raw = *fstr = false;
    while (n < 2 && p[n] && strchr("rRbBfFuU", p[n])) {
        if (p[n] == 'r' || p[n] == 'R') *raw = true;
        if (p[n] == 'f' || p[n] == 'F') *fstr = true;
        n++;
    }
    if (p[n] == '\'' || p[n] == '"') {
        *len = n;
        return true;
    }
    return false;
}

/* Handle the start of a logical line: measure indentation, emit INDENT/DEDENT.
 * Returns false when the line is blank or a comment. */
static bool line_start(lexer *L)
{
    int col = 0, altcol = 0;
    const char *p = L->p;
    while (*p == ' ' || *p == '\t' || *p == '\f') {
        if (*p == '\t') col = (col / 8 + 1) * 8, altcol++;
        else if (*p == ' ') col++, altcol++;
        else col = altcol = 0;           /* form feed resets, as in CPython */
        p++;
    }
    if (*p == '\n' || *p == '#' || *p == '\r' || !*p) {
        L->p = p;
        return false;
    }
    L->p = p;
    /* CPython's tokenizer (tok_get): the indentation must compare the same
     * way with tabs of 8 columns and of 1, else TabError */
    const char *taberr = "inconsistent use of tabs and spaces in indentation (TabError)";
    int top = L->nindent - 1;
    if (col == L->indents[top]) {
        if (altcol != L->altindents[top]) push(L, TK_ERROR, p, 0)->sval = taberr;
    } else if (col > L->indents[top]) {
        if (altcol <= L->altindents[top]) {
            push(L, TK_ERROR, p, 0)->sval = taberr;
        } else if (L->nindent >= 100) {  /* CPython's MAXINDENT */
            push(L, TK_ERROR, p, 0)->sval = "too many levels of indentation";
        } else {
            L->indents[L->nindent] = col;
            L->altindents[L->nindent++] = altcol;
            push(L, TK_INDENT, p, 0);
        }
    } else {
        while (L->nindent > 1 && col < L->indents[L->nindent - 1]) {
            L->nindent--;
            push(L, TK_DEDENT, p, 0);
        }
        if (col != L->indents[L->nindent - 1]) {
            token *t = push(L, TK_ERROR, p, 0);
            t->sval = "unindent does not match any outer indentation level";
        } else if (altcol != L->altindents[L->nindent - 1]) {
            push(L, TK_ERROR, p, 0)->sval = taberr;
        }
    }
    return true;
}

/* The first byte of text that is not valid UTF-8 (overlong forms,
 * surrogates and code points past U+10FFFF included), or NULL. */
static const char *bad_utf8(const char *text)
{
    const unsigned char *p = (const unsigned char *)text;
    while (*p) {
        unsigned c = *p;
        int n = c < 0x80 ? 0 : c >= 0xc2 && c <= 0xdf ? 1 : c >= 0xe0 && c <= 0xef ? 2 : c >= 0xf0 && c <= 0xf4 ? 3 : -1;
        if (n < 0) return (const char *)p;
        unsigned cp = n == 0 ? c : c & (0x3f >> n);
        for (int k = 1; k <= n; k++) {
            if ((p[k] & 0xc0) != 0x80) return (const char *)p;
            cp = cp << 6 | (p[k] & 0x3f);
        }
        if ((n == 2 && (cp < 0x800 || (cp >= 0xd800 && cp <= 0xdfff))) || (n == 3 && (cp < 0x10000 || cp > 0x10ffff)))
            return (const char *)p;
        p += n + 1;
    }
    return NULL;
}

void lex_file(arena *a, const char *text, lexed *out)
{
    /* Python decodes the whole file first: a bad byte anywhere is the one error */
    const char *bad = bad_utf8(text);
    if (bad) {
        lexer E = { .a = a, .src = text, .p = text, .line = 1, .line_start = text };
        for (const char *q = text; q < bad; q++)
            if (*q == '\n') E.line++, E.line_start = q + 1;
        char *msg = arena_alloc(a, 96);
        snprintf(msg, 96, "the file is not valid UTF-8 (byte 0x%02x); Python reads source as UTF-8",
                 (unsigned char)*bad);
        push(&E, TK_ERROR, bad, 0)->sval = msg;
        push(&E, TK_EOF, bad, 0);
        out->toks = arena_alloc(a, sizeof(token) * (size_t)E.toks.n);
        memcpy(out->toks, E.toks.v, sizeof(token) * (size_t)E.toks.n);
        out->ntoks = E.toks.n;
        out->launch_comment = arena_strdup(a, "");
        vec_free(&E.toks);
        return;
    }
    lexer L = { .a = a, .src = text, .p = text, .line = 1, .line_start = text };
    L.indents[0] = L.altindents[0] = 0;
    L.nindent = 1;
    bool at_bol = true;
    while (*L.p) {
        if (at_bol && L.depth == 0) {
            if (!line_start(&L)) {
                /* blank or comment line */
                if (*L.p == '#') goto comment;
                if (*L.p == '\r') L.p++;
                if (*L.p == '\n') { L.p++; L.line++; L.line_start = L.p; }
                continue;
            }
            at_bol = false;
        }
        char c = *L.p;
        if (c == ' ' || c == '\t' || c == '\f' || c == '\r') { L.p++; continue; }
        if (c == '#') {
        comment:;
            const char *s = L.p;
            while (*L.p && *L.p != '\n') L.p++;
            const char *body = s + 1;
            while (*body == ' ') body++;
            if (!strncmp(body, "tritium:", 8)) {
                if (L.comment.len) sb_putc(&L.comment, ' ');
                const char *e = L.p;
                while (e > body && (e[-1] == '\r' || e[-1] == ' ')) e--;
                char *piece = xstrndup(body + 8, (size_t)(e - body - 8));
                sb_puts(&L.comment, piece);
                free(piece);
            }
            continue;
        }
        if (c == '\\' && (L.p[1] == '\n' || (L.p[1] == '\r' && L.p[2] == '\n'))) {
            L.p += L.p[1] == '\r' ? 3 : 2;
            L.line++;
            L.line_start = L.p;
            continue;
        }
        if (c == '\n') {
            if (L.depth == 0) {
                push(&L, TK_NEWLINE, L.p, 0);
                at_bol = true;
            }
            L.p++;
            L.line++;
            L.line_start = L.p;
            continue;
        }
        int plen;
        bool raw, fstr;
        if ((isalpha((unsigned char)c) || c == '_') && string_prefix(L.p, &plen, &raw, &fstr)) {
            const char *s = L.p;
            L.p += plen;
            lex_string(&L, s, raw, fstr);
            continue;
        }
        if (c == '\'' || c == '"') {
            lex_string(&L, L.p, false, false);
            continue;
        }
        if (isalpha((unsigned char)c) || c == '_' || (unsigned char)c >= 0x80) {
            const char *s = L.p;
            while (isalnum((unsigned char)*L.p) || *L.p == '_' || (unsigned char)*L.p >= 0x80) L.p++;
            push(&L, TK_NAME, s, (int)(L.p - s));
            continue;
        }
        if (isdigit((unsigned char)c) || (c == '.' && isdigit((unsigned char)L.p[1]))) {
            lex_number(&L);
            continue;
        }
        const char *op = NULL;
        for (int i = 0; ops3[i] && !op; i++)
            if (!strncmp(L.p, ops3[i], 3)) op = ops3[i];
        for (int i = 0; ops2[i] && !op; i++)
            if (!strncmp(L.p, ops2[i], 2)) op = ops2[i];
        if (op || strchr(ops1, c)) {
            int n = op ? (int)strlen(op) : 1;
            if (c == ')' || c == ']' || c == '}') {
                if (L.depth > 0) L.depth--;
            }
            token *t = push(&L, TK_OP, L.p, n);
            memcpy(t->op, L.p, (size_t)n);
            if (c == '(' || c == '[' || c == '{') L.depth++;
            L.p += n;
            continue;
        }
        push(&L, TK_ERROR, L.p, 1);
        L.p++;
    }
    if (!at_bol) push(&L, TK_NEWLINE, L.p, 0);
    while (L.nindent > 1) {
        L.nindent--;
        push(&L, TK_DEDENT, L.p, 0);
    }
    push(&L, TK_EOF, L.p, 0);
    out->toks = arena_alloc(a, sizeof(token) * (size_t)L.toks.n);
    memcpy(out->toks, L.toks.v, sizeof(token) * (size_t)L.toks.n);
    out->ntoks = L.toks.n;
    out->launch_comment = arena_strdup(a, L.comment.s ? L.comment.s : "");
    vec_free(&L.toks);
    sb_free(&L.comment);
}

bool tok_is_op(const token *t, const char *op) { return t->kind == TK_OP && !strcmp(t->op, op); }

bool tok_is_name(const token *t, const char *name)
{
    return t->kind == TK_NAME && (int)strlen(name) == t->len && !memcmp(t->start, name, (size_t)t->len);
}
