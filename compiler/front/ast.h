/* ast.h — syntax tree of the Python subset (internal to the front end).
 * Nodes live in the module's arena. */
#ifndef FRONT_AST_H
#define FRONT_AST_H

#include "lex.h"

typedef enum {
    /* expressions */
    E_NAME, E_INT, E_FLOAT, E_STR, E_TRUE, E_FALSE, E_NONE,
    E_ATTR,        /* a.name */
    E_CALL,        /* f(args, k=v) */
    E_SUBSCRIPT,   /* a[items]; items may be E_SLICE (':') or E_NONE */
    E_SLICE,       /* start:stop:step inside a subscript; a, b, c (NULL where omitted) */
    E_BINOP, E_UNARY, E_BOOLOP, E_IFEXP,
    E_COMPARE,     /* a op b; a chain a < b < c continues in c (an E_COMPARE with a NULL: the previous b) */
    E_TUPLE, E_LIST,
    E_DICT,        /* {k: v}: keys in items, values in kwvals (decorator arguments only) */
    E_LISTCOMP,    /* [a for NAME in c]: target name in `name`, or a tuple target in b; `if` filters in items */
    E_FSTRING,     /* f"...": items are E_STR pieces and E_FVALUE fields */
    E_FVALUE,      /* an f-string field {a[!conv]}: conversion in ival ('r', 's', 'a' or 0) */
    E_STARRED,     /* *a among a call's positional arguments */
    E_NAMEDEXPR,   /* name := a (Triton 3.8+ code_generator.py visit_NamedExpr) */
    /* statements */
    S_EXPR, S_ASSIGN, S_AUGASSIGN, S_ANNASSIGN, S_IF, S_FOR, S_WHILE,
    S_RETURN, S_PASS, S_ASSERT, S_BREAK, S_CONTINUE, S_OTHER,
} node_kind;

typedef struct node node;
typedef struct { node **v; int n; } node_list;

struct node {
    node_kind kind;
    src_pos pos;
    const char *op;          /* E_BINOP/E_UNARY/E_BOOLOP/E_COMPARE/S_AUGASSIGN: "+", "not", "and", "<", "is", "not in" */
    const char *name;        /* E_NAME, E_ATTR attribute, E_STR text */
    int64_t ival; bool big;  /* E_INT */
    double fval;             /* E_FLOAT */
    node *a, *b, *c;         /* operands: binop (a,b); ifexp (a if b else c); attr/call/subscript base a;
                              * assign target a value b; annassign target a, annotation c, value b;
                              * if/while cond a; for target a iter b; return value a; assert a, msg b */
    node_list items;         /* call positional args, tuple/list/subscript items, compare chain */
    node_list kwnames;       /* call keyword names (E_NAME nodes) */
    node_list kwvals;
    node_list body, orelse;  /* statements */
};

typedef struct param {
    const char *name;
    src_pos pos;
    node *annot;             /* may be NULL */
    node *def;               /* default, may be NULL */
    int kind;                /* PARAM_PLAIN, PARAM_VARARGS (*name), PARAM_KWONLY (after * or *name) */
} param;
enum { PARAM_PLAIN, PARAM_VARARGS, PARAM_KWONLY };

typedef struct funcdef {
    const char *name;
    src_pos pos;
    param *params;
    int nparams;
    node_list body;
    node_list decorators;
    bool is_jit;
    int unit;                /* the Python module it is defined in */
    bool bad;                /* in an imported file, did not parse: diagnosed when used */
    int tok;                 /* token index of its `def` */
    const char *must_use;    /* @triton.must_use_result (outside @triton.jit): "" or its message; NULL: none */
} funcdef;

/* Parser over a token array. */
typedef struct parser {
    arena *a;
    int file;
    token *toks;
    int ntoks, i;
    int depth;               /* recursion depth, capped */
    int errors;
} parser;

/* expr: full expression (ternary, lambda unsupported); statement-level
 * functions return NULL after a diagnostic. */
node *parse_expr(parser *P);
node *parse_expr_list(parser *P);   /* a, b, c -> E_TUPLE when a comma appears */
/* Parse "def ...:" with its block at P->i (after decorators). */
bool parse_funcdef(parser *P, funcdef *f);
/* Skip one top-level statement (with its indented block). */
void parse_skip_statement(parser *P);
node *parse_simple_statement(parser *P);   /* one statement line */

#endif
