/* lex.h — tokens of the Python subset (internal to the front end). */
#ifndef FRONT_LEX_H
#define FRONT_LEX_H

#include "tritium/support.h"
#include "tritium/diag.h"

typedef enum {
    TK_EOF, TK_NEWLINE, TK_INDENT, TK_DEDENT,
    TK_NAME, TK_INT, TK_FLOAT, TK_STRING,
    TK_OP,          /* punctuation; text in tok.op */
    TK_ERROR,       /* a character Python does not allow here; only an error inside kernel code */
} tok_kind;

typedef struct token {
    tok_kind kind;
    int line, col;          /* 1-based, col in bytes */
    int depth;              /* bracket depth at the token (0 at statement level) */
    const char *start;      /* into the source text */
    int len;
    char op[4];             /* TK_OP: "+", "**=", "->", ... */
    int64_t ival;           /* TK_INT (values above INT64_MAX saturate, flagged by big) */
    bool big;
    double fval;            /* TK_FLOAT */
    const char *sval;       /* TK_STRING: decoded contents (arena); TK_ERROR: the message */
    bool fstring;
} token;

typedef struct lexed {
    token *toks;
    int ntoks;
    char *launch_comment;   /* "# tritium: ..." lines joined with spaces (arena) */
} lexed;

/* Tokenize a whole Python file. Never fails: characters outside Python's
 * token set become TK_ERROR tokens so that only kernel code reports them.
 * Memory comes from `a`. */
void lex_file(arena *a, const char *text, lexed *out);

bool tok_is_op(const token *t, const char *op);
bool tok_is_name(const token *t, const char *name);

#endif
