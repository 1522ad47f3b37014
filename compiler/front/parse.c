/* parse.c — recursive-descent parser for the Python subset that kernels use.
 * Every function carries its grammar rule; recursion depth is capped so that
 * hostile input cannot overflow the stack. */
#include "ast.h"

#include <string.h>

#define MAX_DEPTH 200
/* Left-assoc chains (a+b+c, a.b.c, f()()) build left-deep trees that later
 * passes walk recursively, so their length is capped too. */
#define MAX_CHAIN 1000

static token *peek(parser *P) { return &P->toks[P->i]; }
static token *peek2(parser *P) { return &P->toks[P->i + 1 < P->ntoks ? P->i + 1 : P->i]; }
static token *next(parser *P)
{
    token *t = &P->toks[P->i];
    if (t->kind != TK_EOF) P->i++;
    return t;
}
static src_pos tpos(parser *P, token *t) { return (src_pos){ P->file, t->line, t->col }; }

static void error_at(parser *P, token *t, const char *msg)
{
    if (P->errors++ == 0 || P->errors < 5) {
        if (t->kind == TK_EOF || t->kind == TK_NEWLINE)
            diag_error(tpos(P, t), "%s (at end of line)", msg);
        else if (t->kind == TK_ERROR && t->len == 0)    /* the lexer's own message */
            diag_error(tpos(P, t), "%s", msg);
        else
            diag_error(tpos(P, t), "%s (at '%.*s')", msg, t->len > 40 ? 40 : t->len, t->start);
    }
}

static bool accept_op(parser *P, const char *op)
{
    if (tok_is_op(peek(P), op)) {
        next(P);
        return true;
    }
    return false;
}

static bool expect_op(parser *P, const char *op)
{
    if (accept_op(P, op)) return true;
    char msg[64];
    snprintf(msg, sizeof msg, "expected '%s'", op);
    error_at(P, peek(P), msg);
    return false;
}

static bool is_kw(token *t, const char *kw) { return tok_is_name(t, kw); }

static node *mk(parser *P, node_kind k, token *t)
{
    node *n = arena_alloc(P->a, sizeof *n);
    n->kind = k;
    n->pos = tpos(P, t);
    return n;
}

/* Append to a list that only list_push has grown (from empty): its capacity
 * is the smallest power of two >= n, so it is copied only when n reaches a
 * power of two, and a block of N statements costs O(N) arena memory (a
 * copy per push made it quadratic: 1.7 GB for 20k statements). */
static void list_push(parser *P, node_list *l, node *n)
{
    if ((l->n & (l->n - 1)) == 0) {       /* 0, 1, 2, 4, ...: full */
        node **v = arena_alloc(P->a, sizeof *v * (size_t)(l->n ? 2 * l->n : 1));
        if (l->n) memcpy(v, l->v, sizeof *v * (size_t)l->n);
        l->v = v;
    }
    l->v[l->n++] = n;
}

static const char *tok_str(parser *P, token *t) { return arena_strndup(P->a, t->start, (size_t)t->len); }

static bool enter(parser *P)
{
    if (++P->depth > MAX_DEPTH) {
        error_at(P, peek(P), "expression nested too deeply");
        P->depth--;
        return false;
    }
    return true;
}

static node *parse_or(parser *P);
static node *parse_fstring(parser *P);

/* listcomp (after '[' elt): 'for' target 'in' or_test ('if' or_test)* ']'.
 * Triton unrolls one generator over a tuple (code_generator.py,
 * visit_ListComp); 3.9 assigns tuple targets and applies the `if` filters,
 * 3.6-3.8 take one name and ignore `if` (sema says which release). */
static node *parse_listcomp(parser *P, token *open, node *elt)
{
    node *n = mk(P, E_LISTCOMP, open);
    n->a = elt;
    next(P);   /* for */
    token *nt = peek(P);
    if (nt->kind == TK_NAME && is_kw(peek2(P), "in")) {
        next(P);
        next(P);
        n->name = tok_str(P, nt);
    } else {
        /* a tuple target `for a, b in ...` (Triton 3.9 assigns it; sema
         * refuses it for older releases) */
        node *tgt = mk(P, E_TUPLE, nt);
        for (;;) {
            token *u = peek(P);
            if (u->kind != TK_NAME) {
                error_at(P, u, "a comprehension's target must be a name or a tuple of names");
                return NULL;
            }
            next(P);
            node *nm = mk(P, E_NAME, u);
            nm->name = tok_str(P, u);
            list_push(P, &tgt->items, nm);
            if (!accept_op(P, ",")) break;
            if (is_kw(peek(P), "in")) break;
        }
        if (!is_kw(peek(P), "in")) {
            error_at(P, peek(P), "expected 'in' in a comprehension");
            return NULL;
        }
        next(P);
        n->b = tgt;
    }
    n->c = parse_or(P);
    if (!n->c) return NULL;
    /* `if` filters: Triton 3.9 applies them (constexpr conditions); 3.6-3.8
     * ignore them, which sema refuses rather than compute something else */
    while (is_kw(peek(P), "if")) {
        next(P);
        node *cond = parse_or(P);
        if (!cond) return NULL;
        list_push(P, &n->items, cond);
    }
    if (is_kw(peek(P), "for")) {
        error_at(P, peek(P), "nested comprehensions are not supported");
        return NULL;
    }
    if (!expect_op(P, "]")) return NULL;
    return n;
}

static void push_lit(parser *P, node *fs, token *t, strbuf *lit)
{
    if (!lit->s || !lit->len) return;
    node *piece = mk(P, E_STR, t);
    piece->name = arena_strdup(P->a, lit->s);
    list_push(P, &fs->items, piece);
    lit->len = 0;
    lit->s[0] = 0;
}

/* One replacement field's expression, lexed and parsed on its own; its
 * tokens are placed where the text sits in the source when the string
 * token is one line (otherwise at the token). */
static node *fstring_expr(parser *P, token *t, const char *text, size_t len, src_pos *at)
{
    while (len && (*text == ' ' || *text == '\t')) text++, len--;
    char *src = arena_strndup(P->a, text, len);
    lexed lx;
    lex_file(P->a, src, &lx);
    const char *raw = memchr(t->start, '\n', (size_t)t->len) ? NULL : strstr(t->start, src);
    int col0 = raw && raw < t->start + t->len ? t->col + (int)(raw - t->start) : -1;
    for (int k = 0; k < lx.ntoks; k++) {
        token *u = &lx.toks[k];
        u->col = col0 > 0 && u->line == 1 ? col0 + u->col - 1 : t->col;
        u->line = t->line;
    }
    *at = tpos(P, &lx.toks[0]);
    parser sub = { .a = P->a, .file = P->file, .toks = lx.toks, .ntoks = lx.ntoks, .depth = P->depth };
    node *e = lx.ntoks > 1 ? parse_expr(&sub) : NULL;
    if (!e && !sub.errors) error_at(P, t, "f-string: empty expression not allowed");
    else if (e && sub.toks[sub.i].kind != TK_NEWLINE && sub.toks[sub.i].kind != TK_EOF)
        error_at(&sub, &sub.toks[sub.i], "f-string: expected '}'"), e = NULL;
    P->errors += sub.errors;
    return e;
}

/* fstring: STRING+ where one is an f-string. Literal text and replacement
 * fields {expr[=][!conv][:spec]} become E_STR and E_FVALUE items. Triton
 * formats each field with "{}" or "{!conv}" and ignores the format spec
 * (code_generator.py, visit_JoinedStr), so the spec is skipped here too. */
static node *parse_fstring(parser *P)
{
    token *t0 = peek(P);
    node *fs = mk(P, E_FSTRING, t0);
    strbuf lit = {0};
    while (peek(P)->kind == TK_STRING) {
        token *t = next(P);
        const char *s = t->sval;
        if (!t->fstring) {
            sb_puts(&lit, s);
            continue;
        }
        for (size_t i = 0; s[i];) {
            if ((s[i] == '{' && s[i + 1] == '{') || (s[i] == '}' && s[i + 1] == '}')) {
                sb_putc(&lit, s[i]);
                i += 2;
                continue;
            }
            if (s[i] == '}') {
                error_at(P, t, "f-string: single '}' is not allowed");
                sb_free(&lit);
                return NULL;
            }
            if (s[i] != '{') {
                sb_putc(&lit, s[i++]);
                continue;
            }
            /* the field: up to '=', '!', ':' or '}' at bracket depth 0 outside quotes */
            size_t start = ++i, end = 0;
            int depth = 0;
            char q = 0;
            for (; s[i]; i++) {
                char c = s[i];
                if (q) { if (c == q) q = 0; continue; }
                if (c == '\'' || c == '"') q = c;
                else if (c == '(' || c == '[' || c == '{') depth++;
                else if ((c == ')' || c == ']' || c == '}') && depth) depth--;
                else if (!depth && (c == '}' || c == ':' || (c == '!' && s[i + 1] != '=') ||
                                    (c == '=' && s[i + 1] != '=' && !strchr("=!<>", s[i - 1])))) break;
            }
            end = i;
            bool self_doc = s[i] == '=';
            if (self_doc) i++;
            char conv = 0;
            if (s[i] == '!') {
                conv = s[i + 1];
                if (conv != 'r' && conv != 's' && conv != 'a') {
                    error_at(P, t, "f-string: invalid conversion character: expected 's', 'r', or 'a'");
                    sb_free(&lit);
                    return NULL;
                }
                i += 2;
            }
            if (s[i] == ':')
                for (int d = 0; s[i] && (s[i] != '}' || d); i++) d += s[i] == '{' ? 1 : s[i] == '}' && d ? -1 : 0;
            if (s[i] != '}') {
                error_at(P, t, "f-string: expecting '}'");
                sb_free(&lit);
                return NULL;
            }
            i++;
            src_pos at;
            node *e = fstring_expr(P, t, s + start, end - start, &at);
            if (!e) {
                sb_free(&lit);
                return NULL;
            }
            if (self_doc) {                     /* f"{x=}": the text, then repr unless converted */
                sb_printf(&lit, "%.*s=", (int)(end - start), s + start);
                if (!conv) conv = 'r';
            }
            push_lit(P, fs, t, &lit);
            node *fv = mk(P, E_FVALUE, t);
            fv->pos = at;
            fv->a = e;
            fv->ival = conv;
            list_push(P, &fs->items, fv);
        }
    }
    push_lit(P, fs, t0, &lit);
    sb_free(&lit);
    return fs;
}

/* atom: NAME | NUMBER | STRING+ | '(' [exprlist] ')' | '[' [exprlist] ']' | True | False | None */
static node *parse_atom(parser *P)
{
    token *t = peek(P);
    node *n;
    switch (t->kind) {
    case TK_NAME:
        next(P);
        if (is_kw(t, "True")) return mk(P, E_TRUE, t);
        if (is_kw(t, "False")) return mk(P, E_FALSE, t);
        if (is_kw(t, "None")) return mk(P, E_NONE, t);
        if (is_kw(t, "lambda") || is_kw(t, "yield") || is_kw(t, "await")) {
            error_at(P, t, "unsupported construct in a kernel");
            return NULL;
        }
        n = mk(P, E_NAME, t);
        n->name = tok_str(P, t);
        return n;
    case TK_INT:
        next(P);
        n = mk(P, E_INT, t);
        n->ival = t->ival;
        n->big = t->big;
        return n;
    case TK_FLOAT:
        next(P);
        n = mk(P, E_FLOAT, t);
        n->fval = t->fval;
        return n;
    case TK_STRING: {
        bool f = false;
        for (int k = P->i; P->toks[k].kind == TK_STRING; k++) f |= P->toks[k].fstring;
        if (f) return parse_fstring(P);
        next(P);
        n = mk(P, E_STR, t);
        strbuf b = {0};
        sb_puts(&b, t->sval);
        while (peek(P)->kind == TK_STRING) sb_puts(&b, next(P)->sval);
        n->name = arena_strdup(P->a, b.s ? b.s : "");
        sb_free(&b);
        return n;
    }
    case TK_OP:
        if (tok_is_op(t, "(")) {
            next(P);
            if (accept_op(P, ")")) return mk(P, E_TUPLE, t);
            node *e = parse_expr_list(P);
            if (e && (peek(P)->kind == TK_EOF || peek(P)->kind == TK_NEWLINE)) {   /* brackets hold no NEWLINE but the last */
                error_at(P, t, "'(' was never closed");
                return NULL;
            }
            if (!e || !expect_op(P, ")")) return NULL;
            return e;
        }
        if (tok_is_op(t, "{")) {
            /* dict: '{' [expr ':' expr (',' expr ':' expr)* [',']] '}' */
            next(P);
            n = mk(P, E_DICT, t);
            while (!tok_is_op(peek(P), "}")) {
                node *k = parse_expr(P);
                if (!k || !expect_op(P, ":")) return NULL;
                node *v = parse_expr(P);
                if (!v) return NULL;
                list_push(P, &n->items, k);
                list_push(P, &n->kwvals, v);
                if (!accept_op(P, ",")) break;
            }
            if (!expect_op(P, "}")) return NULL;
            return n;
        }
        if (tok_is_op(t, "[")) {
            next(P);
            n = mk(P, E_LIST, t);
            while (!tok_is_op(peek(P), "]")) {
                node *e = parse_expr(P);
                if (!e) return NULL;
                if (!n->items.n && is_kw(peek(P), "for")) return parse_listcomp(P, t, e);
                list_push(P, &n->items, e);
                if (!accept_op(P, ",")) break;
            }
            if (!expect_op(P, "]")) return NULL;
            return n;
        }
        break;
    default:
        break;
    }
    error_at(P, t, t->kind == TK_ERROR && t->sval ? t->sval : "expected an expression");
    return NULL;
}

/* call_args: [arg (',' arg)* [',']]  arg: expr | '*' expr | NAME '=' expr */
static bool parse_call_args(parser *P, node *call)
{
    while (!tok_is_op(peek(P), ")")) {
        if (tok_is_op(peek(P), "**")) {
            error_at(P, peek(P), "**kwargs are not supported in kernels");
            return false;
        }
        if (tok_is_op(peek(P), "*")) {          /* f(*t): t's items as positional arguments */
            node *st = mk(P, E_STARRED, next(P));
            st->a = parse_expr(P);
            if (!st->a) return false;
            list_push(P, &call->items, st);
        } else if (peek(P)->kind == TK_NAME && tok_is_op(peek2(P), "=")) {
            token *nt = next(P);
            next(P);
            node *k = mk(P, E_NAME, nt);
            k->name = tok_str(P, nt);
            node *v = parse_expr(P);
            if (!v) return false;
            list_push(P, &call->kwnames, k);
            list_push(P, &call->kwvals, v);
        } else {
            if (call->kwnames.n) {
                error_at(P, peek(P), "positional argument follows keyword argument");
                return false;
            }
            node *v = parse_expr(P);
            if (!v) return false;
            if (is_kw(peek(P), "for")) {      /* f(x for x in t): Triton 3.6-3.9 have no visit_GeneratorExp */
                error_at(P, peek(P), "unsupported AST node type: GeneratorExp (Triton compiles no generator "
                         "expressions; write a list comprehension over a tuple: tuple([x for x in t]))");
                return false;
            }
            list_push(P, &call->items, v);
        }
        if (!accept_op(P, ",")) break;
    }
    return expect_op(P, ")");
}

/* the rest of a slice after its start (NULL when omitted): ':' [stop] [':' [step]] */
static node *parse_slice(parser *P, token *colon, node *start)
{
    node *sl = mk(P, E_SLICE, colon);
    sl->a = start;
    for (int part = 0; part < 2; part++) {
        if (part && !accept_op(P, ":")) break;
        token *t = peek(P);
        if (tok_is_op(t, ",") || tok_is_op(t, "]") || tok_is_op(t, ":")) continue;
        node *v = parse_expr(P);
        if (!v) return NULL;
        if (part) sl->c = v; else sl->b = v;
    }
    return sl;
}

/* subscript: item (',' item)*   item: expr | [expr] ':' [expr] [':' [expr]] */
static bool parse_subscripts(parser *P, node *sub)
{
    for (;;) {
        token *t = peek(P);
        node *item = NULL;
        if (!tok_is_op(t, ":")) {
            item = parse_expr(P);
            if (!item) return false;
            t = peek(P);
        }
        if (tok_is_op(t, ":")) {
            next(P);
            item = parse_slice(P, t, item);
            if (!item) return false;
        }
        list_push(P, &sub->items, item);
        if (!accept_op(P, ",")) break;
        if (tok_is_op(peek(P), "]")) break;
    }
    return expect_op(P, "]");
}

/* primary: atom trailer*   trailer: '(' call_args ')' | '[' subscript ']' | '.' NAME */
static node *parse_primary(parser *P)
{
    node *n = parse_atom(P);
    for (int len = 0; n; len++) {
        if (len > MAX_CHAIN) {
            error_at(P, peek(P), "expression too long");
            return NULL;
        }
        token *t = peek(P);
        if (tok_is_op(t, "(")) {
            next(P);
            node *c = mk(P, E_CALL, t);
            c->pos = n->pos;
            c->a = n;
            if (!parse_call_args(P, c)) return NULL;
            n = c;
        } else if (tok_is_op(t, "[")) {
            next(P);
            node *s = mk(P, E_SUBSCRIPT, t);
            s->a = n;
            if (!parse_subscripts(P, s)) return NULL;
            n = s;
        } else if (tok_is_op(t, ".")) {
            next(P);
            token *nt = peek(P);
            if (nt->kind != TK_NAME) {
                error_at(P, nt, "expected an attribute name after '.'");
                return NULL;
            }
            next(P);
            node *a = mk(P, E_ATTR, nt);
            a->a = n;
            a->name = tok_str(P, nt);
            n = a;
        } else {
            break;
        }
    }
    return n;
}

/* factor: ('+'|'-'|'~') factor | power    power: primary ['**' factor] */
static node *parse_factor(parser *P)
{
    if (!enter(P)) return NULL;
    token *t = peek(P);
    node *n;
    if (tok_is_op(t, "+") || tok_is_op(t, "-") || tok_is_op(t, "~")) {
        next(P);
        n = mk(P, E_UNARY, t);
        n->op = t->op[0] == '+' ? "+" : t->op[0] == '-' ? "-" : "~";
        n->a = parse_factor(P);
        if (!n->a) n = NULL;
    } else {
        n = parse_primary(P);
        if (n && tok_is_op(peek(P), "**")) {
            token *o = next(P);
            node *b = mk(P, E_BINOP, o);
            b->op = "**";
            b->a = n;
            b->b = parse_factor(P);
            n = b->b ? b : NULL;
        }
    }
    P->depth--;
    return n;
}

static node *binary_level(parser *P, const char *const *ops, node *(*sub)(parser *))
{
    node *n = sub(P);
    for (int len = 0; n; len++) {
        if (len > MAX_CHAIN) {
            error_at(P, peek(P), "expression too long");
            return NULL;
        }
        token *t = peek(P);
        const char *op = NULL;
        for (int i = 0; ops[i]; i++)
            if (tok_is_op(t, ops[i])) op = ops[i];
        if (!op) break;
        next(P);
        node *b = mk(P, E_BINOP, t);
        b->op = op;
        b->a = n;
        b->b = sub(P);
        n = b->b ? b : NULL;
    }
    return n;
}

/* term: factor (('*'|'/'|'//'|'%'|'@') factor)* */
static node *parse_term(parser *P) { static const char *const o[] = { "*", "/", "//", "%", "@", NULL }; return binary_level(P, o, parse_factor); }
/* arith: term (('+'|'-') term)* */
static node *parse_arith(parser *P) { static const char *const o[] = { "+", "-", NULL }; return binary_level(P, o, parse_term); }
/* shift: arith (('<<'|'>>') arith)* */
static node *parse_shift(parser *P) { static const char *const o[] = { "<<", ">>", NULL }; return binary_level(P, o, parse_arith); }
/* band: shift ('&' shift)* */
static node *parse_band(parser *P) { static const char *const o[] = { "&", NULL }; return binary_level(P, o, parse_shift); }
/* bxor: band ('^' band)* */
static node *parse_bxor(parser *P) { static const char *const o[] = { "^", NULL }; return binary_level(P, o, parse_band); }
/* bor: bxor ('|' bxor)* */
static node *parse_bor(parser *P) { static const char *const o[] = { "|", NULL }; return binary_level(P, o, parse_bxor); }

/* comparison: bor [compop bor]; compop: < > == >= <= != in, not in, is, is not.
 * Chains (a < b < c) are rejected, as Triton does. */
static const char *comp_op(parser *P, bool consume)
{
    token *t = peek(P);
    static const char *const ops[] = { "<", ">", "==", ">=", "<=", "!=", NULL };
    const char *op = NULL;
    int n = 1;
    for (int i = 0; ops[i]; i++)
        if (tok_is_op(t, ops[i])) op = ops[i];
    if (!op && is_kw(t, "in")) op = "in";
    if (!op && is_kw(t, "not") && is_kw(peek2(P), "in")) op = "not in", n = 2;
    if (!op && is_kw(t, "is")) {
        op = "is";
        if (is_kw(peek2(P), "not")) op = "is not", n = 2;
    }
    if (op && consume)
        while (n--) next(P);
    return op;
}

static node *parse_comparison(parser *P)
{
    node *n = parse_bor(P);
    if (!n) return NULL;
    token *t = peek(P);
    const char *op = comp_op(P, true);
    if (!op) return n;
    node *cmp = mk(P, E_COMPARE, t);
    cmp->pos = n->pos;
    cmp->op = op;
    cmp->a = n;
    cmp->b = parse_bor(P);
    if (!cmp->b) return NULL;
    /* a chain (Triton 3.9's code_generator.py visit_Compare: a < b and b < c,
     * b evaluated once; sema refuses it for older releases) */
    for (node *prev = cmp;;) {
        token *u = peek(P);
        const char *op2 = comp_op(P, true);
        if (!op2) break;
        node *nx = mk(P, E_COMPARE, u);
        nx->op = op2;
        nx->b = parse_bor(P);
        if (!nx->b) return NULL;
        prev->c = nx;
        prev = nx;
    }
    return cmp;
}

/* not_test: 'not' not_test | comparison */
static node *parse_not(parser *P)
{
    if (!enter(P)) return NULL;
    node *n;
    token *t = peek(P);
    if (is_kw(t, "not")) {
        next(P);
        n = mk(P, E_UNARY, t);
        n->op = "not";
        n->a = parse_not(P);
        if (!n->a) n = NULL;
    } else {
        n = parse_comparison(P);
    }
    P->depth--;
    return n;
}

static node *boolop(parser *P, const char *kw, node *(*sub)(parser *))
{
    node *n = sub(P);
    for (int len = 0; n && is_kw(peek(P), kw); len++) {
        if (len > MAX_CHAIN) {
            error_at(P, peek(P), "expression too long");
            return NULL;
        }
        token *t = next(P);
        node *b = mk(P, E_BOOLOP, t);
        b->op = kw;
        b->a = n;
        b->b = sub(P);
        n = b->b ? b : NULL;
    }
    return n;
}

/* and_test: not_test ('and' not_test)* */
static node *parse_and(parser *P) { return boolop(P, "and", parse_not); }
/* or_test: and_test ('or' and_test)* */
static node *parse_or(parser *P) { return boolop(P, "or", parse_and); }

/* expr: or_test ['if' or_test 'else' expr] */
node *parse_expr(parser *P)
{
    if (!enter(P)) return NULL;
    node *n = parse_or(P);
    if (n && n->kind == E_NAME && tok_is_op(peek(P), ":=")) {   /* name := expr */
        token *t = next(P);
        node *w = mk(P, E_NAMEDEXPR, t);
        w->pos = n->pos;
        w->name = n->name;
        w->a = parse_expr(P);
        P->depth--;
        return w->a ? w : NULL;
    }
    if (n && is_kw(peek(P), "if")) {
        token *t = next(P);
        node *c = mk(P, E_IFEXP, t);
        c->pos = n->pos;
        c->a = n;
        c->b = parse_or(P);
        if (c->b && is_kw(peek(P), "else")) {
            next(P);
            c->c = parse_expr(P);
        } else if (c->b) {
            error_at(P, peek(P), "expected 'else' in conditional expression");
        }
        n = c->c ? c : NULL;
    }
    P->depth--;
    return n;
}

/* exprlist: expr (',' expr)* [','] */
node *parse_expr_list(parser *P)
{
    token *t = peek(P);
    node *n = parse_expr(P);
    if (!n || !tok_is_op(peek(P), ",")) return n;
    node *tup = mk(P, E_TUPLE, t);
    list_push(P, &tup->items, n);
    while (accept_op(P, ",")) {
        token *u = peek(P);
        if (u->kind == TK_NEWLINE || tok_is_op(u, ")") || tok_is_op(u, "=") || tok_is_op(u, "]") || tok_is_op(u, ":")) break;
        node *e = parse_expr(P);
        if (!e) return NULL;
        list_push(P, &tup->items, e);
    }
    return tup;
}

static bool parse_block(parser *P, node_list *out);

static bool end_of_simple(parser *P)
{
    if (accept_op(P, ";")) return true;
    if (peek(P)->kind == TK_NEWLINE) {
        next(P);
        return true;
    }
    if (peek(P)->kind == TK_EOF || peek(P)->kind == TK_DEDENT) return true;
    error_at(P, peek(P), "expected end of statement");
    return false;
}

/* simple_stmt: 'pass' | 'break' | 'continue' | 'return' [exprlist] | 'assert' expr [',' expr]
 *            | exprlist ('=' exprlist)+ | exprlist augop expr | NAME ':' expr ['=' expr] | exprlist */
node *parse_simple_statement(parser *P)
{
    token *t = peek(P);
    node *n;
    if (is_kw(t, "pass")) { next(P); n = mk(P, S_PASS, t); goto done; }
    if (is_kw(t, "break")) { next(P); n = mk(P, S_BREAK, t); goto done; }
    if (is_kw(t, "continue")) { next(P); n = mk(P, S_CONTINUE, t); goto done; }
    if (is_kw(t, "return")) {
        next(P);
        n = mk(P, S_RETURN, t);
        if (peek(P)->kind != TK_NEWLINE && !tok_is_op(peek(P), ";") && peek(P)->kind != TK_EOF) {
            n->a = parse_expr_list(P);
            if (!n->a) return NULL;
        }
        goto done;
    }
    if (is_kw(t, "assert")) {
        next(P);
        n = mk(P, S_ASSERT, t);
        n->a = parse_expr(P);
        if (!n->a) return NULL;
        if (accept_op(P, ",")) {
            n->b = parse_expr(P);
            if (!n->b) return NULL;
        }
        goto done;
    }
    static const char *const stmt_kws[] = { "def", "class", "with", "try", "import", "from", "global",
                                            "nonlocal", "del", "raise", "async", "lambda", "yield", NULL };
    for (int i = 0; stmt_kws[i]; i++) {
        if (is_kw(t, stmt_kws[i])) {
            char msg[96];
            snprintf(msg, sizeof msg, "'%s' is not supported inside a @triton.jit function", stmt_kws[i]);
            error_at(P, t, msg);
            return NULL;
        }
    }
    node *lhs = parse_expr_list(P);
    if (!lhs) return NULL;
    token *o = peek(P);
    if (tok_is_op(o, ":") && lhs->kind == E_NAME) {
        next(P);
        n = mk(P, S_ANNASSIGN, t);
        n->a = lhs;
        n->c = parse_expr(P);
        if (!n->c) return NULL;
        if (accept_op(P, "=")) {
            n->b = parse_expr_list(P);
            if (!n->b) return NULL;
        }
        goto done;
    }
    if (o->kind == TK_OP && strlen(o->op) >= 2 && o->op[strlen(o->op) - 1] == '=' &&
        strcmp(o->op, "==") && strcmp(o->op, "<=") && strcmp(o->op, ">=") && strcmp(o->op, "!=")) {
        next(P);
        n = mk(P, S_AUGASSIGN, o);
        n->pos = lhs->pos;
        n->op = arena_strndup(P->a, o->op, strlen(o->op) - 1);
        n->a = lhs;
        n->b = parse_expr_list(P);
        if (!n->b) return NULL;
        goto done;
    }
    if (tok_is_op(o, "=")) {
        n = mk(P, S_ASSIGN, o);
        n->pos = lhs->pos;
        n->a = lhs;
        while (accept_op(P, "=")) {
            node *rhs = parse_expr_list(P);
            if (!rhs) return NULL;
            if (n->b) {
                /* a = b = expr: targets in items, value in b */
                list_push(P, &n->items, n->b);
            }
            n->b = rhs;
        }
        goto done;
    }
    n = mk(P, S_EXPR, t);
    n->pos = lhs->pos;
    n->a = lhs;
done:
    if (!end_of_simple(P)) return NULL;
    return n;
}

static node *parse_statement(parser *P);

/* if_stmt: 'if' expr ':' block ('elif' expr ':' block)* ['else' ':' block] */
static node *parse_if(parser *P)
{
    token *t = next(P);
    node *n = mk(P, S_IF, t);
    n->a = parse_expr(P);
    if (!n->a || !expect_op(P, ":") || !parse_block(P, &n->body)) return NULL;
    if (is_kw(peek(P), "elif")) {
        node *e = parse_if(P);
        if (!e) return NULL;
        list_push(P, &n->orelse, e);
    } else if (is_kw(peek(P), "else")) {
        next(P);
        if (!expect_op(P, ":") || !parse_block(P, &n->orelse)) return NULL;
    }
    return n;
}

/* statement: if_stmt | for_stmt | while_stmt | simple_stmt */
static node *parse_statement(parser *P)
{
    if (!enter(P)) return NULL;
    token *t = peek(P);
    node *n = NULL;
    if (is_kw(t, "if")) {
        n = parse_if(P);
    } else if (is_kw(t, "for")) {
        /* for_stmt: 'for' exprlist 'in' expr ':' block */
        next(P);
        n = mk(P, S_FOR, t);
        token *tt = peek(P);
        n->a = parse_bor(P);
        if (n->a && tok_is_op(peek(P), ",")) {
            node *tup = mk(P, E_TUPLE, tt);
            list_push(P, &tup->items, n->a);
            while (accept_op(P, ",")) {
                node *e = parse_bor(P);
                if (!e) { n = NULL; goto out; }
                list_push(P, &tup->items, e);
            }
            n->a = tup;
        }
        if (!n->a) { n = NULL; goto out; }
        if (!is_kw(peek(P), "in")) {
            error_at(P, peek(P), "expected 'in'");
            n = NULL;
            goto out;
        }
        next(P);
        n->b = parse_expr(P);
        if (!n->b || !expect_op(P, ":") || !parse_block(P, &n->body)) { n = NULL; goto out; }
        if (is_kw(peek(P), "else")) {
            error_at(P, peek(P), "'else' on a loop is not supported in kernels");
            n = NULL;
        }
    } else if (is_kw(t, "while")) {
        /* while_stmt: 'while' expr ':' block */
        next(P);
        n = mk(P, S_WHILE, t);
        n->a = parse_expr(P);
        if (!n->a || !expect_op(P, ":") || !parse_block(P, &n->body)) { n = NULL; goto out; }
        if (is_kw(peek(P), "else")) {
            error_at(P, peek(P), "'else' on a loop is not supported in kernels");
            n = NULL;
        }
    } else if (t->kind == TK_INDENT) {
        error_at(P, t, "unexpected indent");
    } else if (t->kind == TK_ERROR) {
        error_at(P, t, t->sval ? t->sval : "invalid character in kernel source");
    } else if (tok_is_op(t, "@")) {
        error_at(P, t, "decorators are not supported inside a kernel");
    } else {
        n = parse_simple_statement(P);
    }
out:
    P->depth--;
    return n;
}

/* block: simple_stmt (same line) | NEWLINE INDENT statement+ DEDENT */
static bool parse_block(parser *P, node_list *out)
{
    if (peek(P)->kind != TK_NEWLINE) {
        node *s = parse_simple_statement(P);
        if (!s) return false;
        list_push(P, out, s);
        return true;
    }
    next(P);
    if (peek(P)->kind != TK_INDENT) {
        error_at(P, peek(P), "expected an indented block");
        return false;
    }
    next(P);
    while (peek(P)->kind != TK_DEDENT && peek(P)->kind != TK_EOF) {
        node *s = parse_statement(P);
        if (!s) return false;
        list_push(P, out, s);
    }
    if (peek(P)->kind == TK_DEDENT) next(P);
    return true;
}

/* funcdef: 'def' NAME '(' [param (',' param)*] ')' ['->' expr] ':' block
 * param: NAME [':' expr] ['=' expr] */
bool parse_funcdef(parser *P, funcdef *f)
{
    token *t = next(P); /* def */
    token *nt = peek(P);
    if (nt->kind != TK_NAME) {
        error_at(P, nt, "expected a function name");
        return false;
    }
    next(P);
    f->name = tok_str(P, nt);
    f->pos = tpos(P, t);
    if (!expect_op(P, "(")) return false;
    VEC(param) ps = {0};
    int kind = PARAM_PLAIN;
    while (!tok_is_op(peek(P), ")")) {
        token *pt = peek(P);
        if (tok_is_op(pt, "**") || tok_is_op(pt, "/")) {
            error_at(P, pt, "**kwargs and positional-only markers are not supported in kernels");
            vec_free(&ps);
            return false;
        }
        if (tok_is_op(pt, "*")) {
            /* `*` or `*args`: what follows is keyword-only (sema: which
             * releases bind them, code_generator.py visit_arguments) */
            if (kind != PARAM_PLAIN) {
                error_at(P, pt, "* may appear only once in a parameter list");
                vec_free(&ps);
                return false;
            }
            next(P);
            kind = PARAM_KWONLY;
            token *vt = peek(P);
            if (vt->kind == TK_NAME) {
                next(P);
                param v = { tok_str(P, vt), tpos(P, pt), NULL, NULL, PARAM_VARARGS };
                if (accept_op(P, ":") && !parse_expr(P)) { vec_free(&ps); return false; }
                vec_push(&ps, v);
            }
            if (!accept_op(P, ",")) break;
            continue;
        }
        if (pt->kind != TK_NAME) {
            error_at(P, pt, "expected a parameter name");
            vec_free(&ps);
            return false;
        }
        next(P);
        param p = { tok_str(P, pt), tpos(P, pt), NULL, NULL, kind };
        if (accept_op(P, ":")) {
            p.annot = parse_expr(P);
            if (!p.annot) { vec_free(&ps); return false; }
        }
        if (accept_op(P, "=")) {
            p.def = parse_expr(P);
            if (!p.def) { vec_free(&ps); return false; }
        }
        vec_push(&ps, p);
        if (!accept_op(P, ",")) break;
    }
    if (!expect_op(P, ")")) { vec_free(&ps); return false; }
    if (accept_op(P, "->") && !parse_expr(P)) { vec_free(&ps); return false; }
    if (!expect_op(P, ":")) { vec_free(&ps); return false; }
    f->nparams = ps.n;
    f->params = arena_alloc(P->a, sizeof(param) * (size_t)(ps.n ? ps.n : 1));
    if (ps.n) memcpy(f->params, ps.v, sizeof(param) * (size_t)ps.n);
    vec_free(&ps);
    /* a docstring as the first statement is allowed and skipped by sema */
    return parse_block(P, &f->body);
}

void parse_skip_statement(parser *P)
{
    /* consume to the end of the logical line, then any indented block */
    while (peek(P)->kind != TK_NEWLINE && peek(P)->kind != TK_EOF) next(P);
    if (peek(P)->kind == TK_NEWLINE) next(P);
    if (peek(P)->kind == TK_INDENT) {
        int level = 0;
        do {
            token *t = next(P);
            if (t->kind == TK_INDENT) level++;
            else if (t->kind == TK_DEDENT) level--;
            else if (t->kind == TK_EOF) return;
        } while (level > 0);
    }
}
