/* test_live.c — live modules (compiler/front/live.c): the JSON that the
 * Python entry point writes (python/tritium/_resolve.py) and record mode
 * keeps as kernel.json. Names resolve from the tables, as Triton's
 * global_lookup would have them; malformed input is a clear error. */
#include "tfront.h"

#include <stdlib.h>

/* A live module of one kernel `k` (file k.py, def on line 3) whose body is
 * BODY and whose names table is NAMES, then FUNCS (more functions) and MODS. */
static char *doc(const char *body, const char *names, const char *funcs, const char *mods)
{
    char *s = NULL;
    size_t n = 0;
    FILE *f = open_memstream(&s, &n);
    fprintf(f, "{\"format\":\"tritium-live-module\",\"version\":1,\"functions\":[{\"name\":\"k\",\"file\":\"k.py\","
               "\"line\":3,\"src\":\"def k(X, B: tl.constexpr):\\n%s\\n\",\"names\":{%s}}%s%s]%s%s%s}",
            body, names, funcs ? "," : "", funcs ? funcs : "", mods ? ",\"modules\":[" : "", mods ? mods : "",
            mods ? "]" : "");
    fclose(f);
    return s;
}

static const char TL[] = "\"tl\":{\"k\":\"module\",\"v\":\"triton.language\"}";

/* Load `json` and compile k for X: f32[16], B=16; NULL with *diag set on failure. */
static ir_func *live_compile(const char *json, const char **diag)
{
    cap_start();
    front_module *m = front_load_live("live.json", json);
    ir_func *fn = NULL;
    if (m) {
        launch l;
        mk_launch(&l, "X:*f32[16] B=16");
        fn = front_compile(m, "k", &l);
        launch_free(&l);
        front_module_free(m);
    }
    *diag = cap_end();
    return fn;
}

static void ok(const char *json)
{
    const char *d;
    ir_func *fn = live_compile(json, &d);
    ck_assert_msg(fn != NULL, "%s\n%s", json, d);
    ir_func_free(fn);
}

static void err(const char *json, const char *want)
{
    const char *d;
    ir_func *fn = live_compile(json, &d);
    ck_assert_msg(fn == NULL && strstr(d, want), "expected '%s' for\n%s\ngot: %s", want, json, d);
}

START_TEST(names_resolve_from_the_table)
{
    char names[512];
    snprintf(names, sizeof names, "%s,\"C\":{\"k\":\"int\",\"v\":3},\"F\":{\"k\":\"float\",\"v\":\"0.5\"},"
                                  "\"DT\":{\"k\":\"dtype\",\"v\":\"fp16\"},"
                                  "\"rs\":{\"k\":\"triton\",\"module\":\"triton.language.extra.libdevice\",\"attr\":\"rsqrt\"}", TL);
    char *j = doc("    o = tl.arange(0, B)\\n    x = tl.load(X + o) * C * F\\n"
                  "    tl.store(X + o, rs(x).to(DT).to(tl.float32))", names, NULL, NULL);
    const char *d;
    ir_func *fn = live_compile(j, &d);
    ck_assert_msg(fn != NULL, "%s", d);
    ck_assert_msg(count_ops(fn, IR_FP_TO_FP) + count_ops(fn, IR_EXTF) + count_ops(fn, IR_TRUNCF) >= 1, "no casts");
    ir_func_free(fn);
    free(j);
}
END_TEST

START_TEST(functions_and_modules)
{
    /* helper function 1 reads its own table; module 0 (a Python module) gives `h` */
    char names[256];
    snprintf(names, sizeof names, "%s,\"mod\":{\"k\":\"module\",\"v\":0}", TL);
    char *j = doc("    o = tl.arange(0, B)\\n    tl.store(X + o, mod.h(tl.load(X + o)))", names,
                  "{\"name\":\"h\",\"file\":\"h.py\",\"line\":10,\"src\":\"def h(x):\\n    return x * S\\n\","
                  "\"names\":{\"S\":{\"k\":\"int\",\"v\":2}}}",
                  "{\"name\":\"helpers\",\"names\":{\"h\":{\"k\":\"func\",\"v\":1}}}");
    ok(j);
    free(j);
}
END_TEST

START_TEST(triton_rules_and_errors)
{
    char names[512];
    /* a plain global: refused in Triton's words, but read in a parameter's default */
    snprintf(names, sizeof names, "%s,\"P\":{\"k\":\"int\",\"v\":3,\"refuse\":\"Cannot access global variable P\"}", TL);
    char *j = doc("    tl.store(X + tl.arange(0, B), tl.zeros([B], tl.float32) + P)", names, NULL, NULL);
    err(j, "k.py:4:");
    err(j, "Cannot access global variable P");
    free(j);
    snprintf(names, sizeof names, "%s,\"bad\":{\"k\":\"error\",\"v\":\"'bad' is a torch.Tensor\"}", TL);
    j = doc("    tl.store(X + tl.arange(0, B), bad)", names, NULL, NULL);
    err(j, "'bad' is a torch.Tensor");
    free(j);
    /* not in the table: only Triton's builtins remain (no conventional `tl` fallback) */
    j = doc("    tl.store(X + tl.arange(0, B), tl.zeros([B], tl.float32))", "", NULL, NULL);
    err(j, "k.py:4:5: error: name 'tl' is not defined");
    free(j);
    snprintf(names, sizeof names, "%s,\"f\":{\"k\":\"func\",\"v\":7}", TL);
    j = doc("    tl.store(X, f(1.0))", names, NULL, NULL);
    err(j, "function 7 out of range");
    free(j);
}
END_TEST

START_TEST(malformed_json_is_a_clear_error)
{
    err("{", "live.json:1:1: error: not valid JSON");
    err("{\"format\":\"x\",\"version\":1,\"functions\":[]}", "not a tritium live module");
    err("{\"format\":\"tritium-live-module\",\"version\":2,\"functions\":[]}", "\"version\" 1");
    err("{\"format\":\"tritium-live-module\",\"version\":1,\"functions\":[]}", "non-empty array");
    err("{\"format\":\"tritium-live-module\",\"version\":1,\"functions\":[{\"name\":\"k\"}]}", "needs \"src\"");
    err("{\"format\":\"tritium-live-module\",\"version\":1,\"functions\":[{\"name\":\"k\",\"file\":\"k.py\","
        "\"line\":0,\"src\":\"def k(): pass\\n\"}]}", "1..10^7");
    err("{\"format\":\"tritium-live-module\",\"version\":1,\"functions\":[{\"name\":\"k\",\"file\":\"k.py\","
        "\"line\":1,\"src\":\"x = 1\\n\"}]}", "has no `def`");
    err("{\"format\":\"tritium-live-module\",\"version\":1,\"functions\":[{\"name\":\"k\",\"file\":\"k.py\","
        "\"line\":1,\"src\":\"def k(X:\\n\"}]}", "error");
    /* an entry of an unknown kind, or without one */
    char *j = doc("    tl.store(X, q)", "\"tl\":{\"k\":\"module\",\"v\":\"triton.language\"},\"q\":{\"v\":1}", NULL, NULL);
    err(j, "has no kind");
    free(j);
    j = doc("    tl.store(X, q)", "\"tl\":{\"k\":\"module\",\"v\":\"triton.language\"},\"q\":{\"k\":\"sparkle\"}", NULL, NULL);
    err(j, "unknown kind 'sparkle'");
    free(j);
}
END_TEST

TCase *tc_live(void)
{
    TCase *tc = tcase_create("live");
    tcase_add_test(tc, names_resolve_from_the_table);
    tcase_add_test(tc, functions_and_modules);
    tcase_add_test(tc, triton_rules_and_errors);
    tcase_add_test(tc, malformed_json_is_a_clear_error);
    return tc;
}
