/* test_diag.c — diagnostics for malformed kernels: exactly one
 * "file:line:col: error: message", then the source line and a caret under
 * the column (diag.h format), and NULL from front_load_text / front_compile
 * without a crash. Positions are 1-based; columns in bytes. */
#include <stdlib.h>
#include "tfront.h"

/* Line `line` of src without its newline (static buffer). */
static const char *src_line(const char *src, int line)
{
    static char buf[256];
    const char *p = src;
    for (int l = 1; l < line && p; l++) {
        p = strchr(p, '\n');
        if (p) p++;
    }
    if (!p) return "";
    size_t n = strcspn(p, "\n");
    snprintf(buf, sizeof buf, "%.*s", (int)n, p);
    return buf;
}

/* d must be exactly one error at k.py:line:col (col 0: any column) whose
 * message contains substr, quoted with the source line and a caret. */
static void check_diag(const char *d, const char *src, int line, int col, const char *substr)
{
    ck_assert_msg(count_str(d, "error:") == 1, "expected exactly one error, got:\n%s", d);
    char head[64];
    if (col > 0) snprintf(head, sizeof head, "k.py:%d:%d: error: ", line, col);
    else snprintf(head, sizeof head, "k.py:%d:", line);
    ck_assert_msg(!strncmp(d, head, strlen(head)), "expected the diagnostic to start with '%s':\n%s", head, d);
    const char *nl = strchr(d, '\n');
    ck_assert_ptr_nonnull(nl);
    if (substr) {
        char *first = strndup(d, (size_t)(nl - d));
        ck_assert_msg(strstr(first, substr), "message lacks '%s':\n%s", substr, d);
        free(first);
    }
    if (col <= 0) {
        sscanf(d + strlen(head), "%d", &col);
        ck_assert_int_gt(col, 0);
    }
    char quote[600];
    snprintf(quote, sizeof quote, "%5d | %s\n      | %*s^\n", line, src_line(src, line), col - 1, "");
    ck_assert_msg(!strncmp(nl + 1, quote, strlen(quote)), "expected the quote\n%s\ngot:\n%s", quote, nl + 1);
}

/* Is kernel k of src rejected (the load fails, or compiling k does)? The
 * diagnostics of both steps in *diag. */
static bool rejected(const char *src, const char **diag)
{
    launch l;
    mk_launch(&l, "");
    cap_start();
    front_module *m = front_load_text("k.py", src);
    ir_func *f = m ? front_compile(m, "k", &l) : NULL;
    *diag = cap_end();
    ir_func_free(f);
    front_module_free(m);
    launch_free(&l);
    return f == NULL;
}

/* A syntax error in kernel k: the file loads (a jit function is parsed
 * when a launch reaches it, as in Triton) and compiling k reports it. */
static void syntax_err(const char *src, int line, int col, const char *substr)
{
    launch l;
    mk_launch(&l, "");
    cap_start();
    front_module *m = front_load_text("k.py", src);
    ir_func *f = m ? front_compile(m, "k", &l) : NULL;
    const char *d = cap_end();
    ck_assert_msg(f == NULL, "expected a syntax error in:\n%s", src);
    check_diag(d, src, line, col, substr);
    front_module_free(m);
    launch_free(&l);
}

/* A semantic error: loads, front_compile returns NULL. */
static void sema_err(const char *src, const char *spec, int line, int col, const char *substr)
{
    launch l;
    mk_launch(&l, spec);
    cap_start();
    front_module *m = front_load_text("k.py", src);
    const char *d = cap_end();
    ck_assert_msg(m != NULL, "expected the file to load:\n%s", d);
    cap_start();
    ir_func *f = front_compile(m, "k", &l);
    d = cap_end();
    ck_assert_msg(f == NULL, "expected a compile error in:\n%s", src);
    check_diag(d, src, line, col, substr);
    front_module_free(m);
    launch_free(&l);
}

START_TEST(missing_colon)
{
    syntax_err(PRELUDE
               "def k(X):\n"
               "    x = tl.load(X)\n"
               "    if x > 0\n"
               "        x = 1.0\n", 6, 13, "':'");
    syntax_err(PRELUDE
               "def k(X)\n"
               "    pass\n", 4, 9, "':'");
    syntax_err(PRELUDE
               "def k(X, n):\n"
               "    for i in range(n)\n"
               "        pass\n", 5, 22, "':'");
}
END_TEST

START_TEST(bad_indentation)
{
    syntax_err(PRELUDE
               "def k(X):\n"
               "    x = 1\n"
               "        y = 2\n", 6, 9, "indent");
    syntax_err(PRELUDE
               "def k(X):\n"
               "pass\n", 5, 1, "indent");
}
END_TEST

START_TEST(unknown_name)
{
    sema_err(PRELUDE
             "def k(X):\n"
             "    y = foo + 1\n"
             "    tl.store(X, y)\n", "X:*f32[4]", 5, 9, "'foo'");
    /* an error inside a helper points into the helper */
    sema_err(PRELUDE
             "def k(X):\n"
             "    tl.store(X, h(1))\n"
             "@triton.jit\n"
             "def h(a):\n"
             "    return a + undefined_name\n", "X:*f32[4]", 8, 16, "'undefined_name'");
}
END_TEST

/* Triton 3.6-3.8 refuse chained comparisons (code_generator.py
 * visit_Compare); 3.9 allows them (test_lang39.c). */
START_TEST(chained_comparison)
{
    front_set_triton_version(8);
    const char *d = compile_err(PRELUDE "def k(X, a, b, c):\n    m = a < b < c\n", "k", "X:*i32[1] a:i32=1 b:i32=2 c:i32=3");
    ck_assert_msg(strstr(d, "k.py:5:9: error: simultaneous multiple comparison is not supported"), "got:\n%s", d);
    front_set_triton_version(-1);
}
END_TEST

START_TEST(lambda_in_kernel)
{
    syntax_err(PRELUDE
               "def k(X):\n"
               "    f = lambda v: v\n", 5, 9, "lambda");
}
END_TEST

START_TEST(unsupported_statements)
{
    static const struct { const char *stmt; int col; const char *what; } cases[] = {
        { "    with x:\n        pass\n", 5, "with" },
        { "    try:\n        pass\n    except Exception:\n        pass\n", 5, "try" },
        { "    del x\n", 5, "del" },
        { "    global g\n", 5, "global" },
        { "    import os\n", 5, "import" },
        { "    class C:\n        pass\n", 5, "class" },
        { "    def inner(v):\n        return v\n", 5, "def" },
        { "    yield x\n", 5, "yield" },
        { "    raise ValueError('no')\n", 5, "raise" },
        { "    @triton.jit\n    def h(): pass\n", 5, NULL },
        { "    y = 1 $ 2\n", 11, NULL },
        { "    y = foo(**x)\n", 13, NULL },    /* f(*t) is supported, **kwargs is not */
    };
    for (size_t i = 0; i < TT_COUNTOF(cases); i++) {
        char src[512];
        snprintf(src, sizeof src, PRELUDE "def k(x):\n%s", cases[i].stmt);
        syntax_err(src, 5, cases[i].col, cases[i].what);
    }
    syntax_err(PRELUDE "def k(*args):\n    pass\n", 4, 7, NULL);
    syntax_err(PRELUDE "def k(X, **kw):\n    pass\n", 4, 10, NULL);
}
END_TEST

START_TEST(semantic_statement_errors)
{
    sema_err(PRELUDE
             "def k(X):\n"
             "    x = tl.load(X + tl.arange(0, 4))\n"
             "    print(x)\n", "X:*f32[4]", 6, 5, "print");
    sema_err(PRELUDE
             "def k(X):\n"
             "    return 1\n", "X:*f32[4]", 5, 5, "return");
    sema_err(PRELUDE
             "def k(X):\n"
             "    x = tl.load(X + tl.arange(0, 4))\n"
             "    tl.store(X + tl.arange(0, 4), x ** 2)\n", "X:*f32[4]", 6, 0, NULL);
    sema_err(PRELUDE
             "def k(X):\n"
             "    x = tl.load(X + tl.arange(0, 4))\n"
             "    tl.store(X + tl.arange(0, 8), x)\n", "X:*f32[8]", 6, 0, NULL);   /* shapes 8 vs 4 */
}
END_TEST

/* The tokenizer and parser survive hostile input inside a kernel. */
/* Python syntax a kernel may legally use: CRLF line ends, tab indentation,
 * backslash and bracket continuations, semicolons, a docstring, comments,
 * a one-line if, a unicode identifier. */
START_TEST(syntax_variety_compiles)
{
    static const char src[] =
        "import triton\r\nimport triton.language as tl\r\n@triton.jit\r\n"
        "def k(X, n):\r\n"
        "\t\"\"\"Docstring.\"\"\"\r\n"
        "\tx = tl.load(X + \\\r\n"
        "\t    1)  # comment \xe2\x9c\x93\r\n"
        "\ty = (x +\r\n"
        "\t     2.0); z = y * 3.0\r\n"
        "\r\n"
        "\tif n > 0: z = z + 1.0\r\n"
        "\t\xce\xb1 = z\r\n"
        "\ttl.store(X, \xce\xb1)\r\n";
    ir_func *f = compile_ok(src, "k", "X:*f32[4] n:i32=2");
    ck_assert_int_eq(count_ops(f, IR_IF), 1);
    ck_assert_int_eq(count_ops(f, IR_MULF), 1);
    ir_op *ld = find_op(f, IR_LOAD, 0);
    ck_assert_int_eq(f->locs.v[ld->loc].line, 6);
    ir_op *st = find_op(f, IR_STORE, 0);
    ck_assert_int_eq(f->locs.v[st->loc].line, 13);
    ir_func_free(f);
}
END_TEST

START_TEST(hostile_input_no_crash)
{
    static const char *const srcs[] = {
        PRELUDE "def k(X):\n    y = (((((((((((((((((((\n",
        PRELUDE "def k(X):\n    y = 1 +\n",
        PRELUDE "def k(X):\n",
        PRELUDE "def k(",
        PRELUDE "def",
        PRELUDE "def k(X):\n    y = 1e\n",
        PRELUDE "def k(X):\n    y = 12abc\n",
        PRELUDE "def k(X):\n    y = ]\n",
        PRELUDE "def k(X):\n    \x01\x02\n",
    };
    for (size_t i = 0; i < TT_COUNTOF(srcs); i++) {
        const char *d;
        ck_assert_msg(rejected(srcs[i], &d), "case %zu must be rejected:\n%s", i, srcs[i]);
        ck_assert_msg(count_str(d, "error:") >= 1, "case %zu: no diagnostic", i);
        ck_assert_msg(!strncmp(d, "k.py:", 5), "case %zu: diagnostic without a position:\n%s", i, d);
    }
    /* very deep nesting is capped, not a stack overflow */
    char *deep = malloc(200000);
    strcpy(deep, PRELUDE "def k(X):\n    y = ");
    size_t n = strlen(deep);
    for (int i = 0; i < 50000; i++) deep[n++] = '-';
    strcpy(deep + n, "1\n");
    const char *d;
    ck_assert(rejected(deep, &d));
    ck_assert_msg(strstr(d, "error:"), "%s", d);
    free(deep);
}
END_TEST


/* ---- known bugs ---- */

/* Python: "IndentationError: unindent does not match any outer indentation
 * level" (line 7). */
START_TEST(inconsistent_dedent)
{
    syntax_err(PRELUDE
               "def k(X):\n"
               "    if 1:\n"
               "        x = 1\n"
               "      y = 2\n", 7, 0, NULL);
}
END_TEST

/* Python: "'(' was never closed", at the parenthesis (5:9). */
START_TEST(unclosed_paren_position)
{
    syntax_err(PRELUDE
               "def k(X):\n"
               "    y = (1 + 2\n", 5, 9, NULL);
}
END_TEST

/* Python rejects these tokens (SyntaxError); the tokenizer accepts them,
 * and 0b2 / 0o8 even become 0. */
START_TEST(invalid_literals)
{
    static const char *const bad[] = {
        "y = \"unterminated",          /* unterminated string literal */
        "y = '\'\'never\n    closed",    /* unterminated triple-quoted string */
        "y = 0x",                      /* invalid hexadecimal literal */
        "y = 0b2",                     /* invalid digit '2' in binary literal */
        "y = 0o8",                     /* invalid digit '8' in octal literal */
        "y = 09",                      /* leading zeros in decimal integer literals */
        "y = 1_",                      /* invalid decimal literal */
    };
    for (size_t i = 0; i < TT_COUNTOF(bad); i++) {
        char src[256];
        snprintf(src, sizeof src, PRELUDE "def k(X):\n    %s\n    tl.store(X, y)\n", bad[i]);
        const char *d;
        ck_assert_msg(rejected(src, &d), "'%s' must be a syntax error", bad[i]);
        ck_assert_msg(strstr(d, "k.py:5:"), "'%s': %s", bad[i], d);
    }
}
END_TEST

void add_diag_known_bugs(TCase *tc);
void add_diag_known_bugs(TCase *tc)
{
    (void)tc;
}

/* a 5000-term sum would build a tree 5000 deep: rejected, not a stack overflow */
START_TEST(long_chain)
{
    strbuf b = {0};
    sb_puts(&b, PRELUDE "def k(X):\n    x = tl.load(X)\n    y = x");
    for (int i = 0; i < 5000; i++) sb_puts(&b, "+x");
    sb_puts(&b, "\n    tl.store(X, y)\n");
    const char *d = compile_err(b.s, "k", "X:*f32[16]");
    ck_assert_msg(strstr(d, "k.py:6:") && strstr(d, "expression too long"), "got: %s", d);
    sb_free(&b);
}
END_TEST

TCase *tc_diag(void)
{
    TCase *tc = tcase_create("diag");
    tcase_add_test(tc, missing_colon);
    tcase_add_test(tc, long_chain);
    tcase_add_test(tc, bad_indentation);
    tcase_add_test(tc, unknown_name);
    tcase_add_test(tc, chained_comparison);
    tcase_add_test(tc, lambda_in_kernel);
    tcase_add_test(tc, unsupported_statements);
    tcase_add_test(tc, semantic_statement_errors);
    tcase_add_test(tc, syntax_variety_compiles);
    tcase_add_test(tc, hostile_input_no_crash);
    tcase_add_test(tc, invalid_literals);
    tcase_add_test(tc, inconsistent_dedent);
    tcase_add_test(tc, unclosed_paren_position);
    return tc;
}
