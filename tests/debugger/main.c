/* main.c — runner and helpers of the debugger suite (engine tests). */
#include <stdlib.h>
#include <string.h>
#include "tdbg.h"
#include "tritium/diag.h"

static char *src_path(const char *rel)
{
    const char *root = getenv("TRITIUM_SRCDIR");
    return xasprintf("%s/%s", root && *root ? root : ".", rel);
}

void tk_open(tk *k, const char *file, const char *spec)
{
    memset(k, 0, sizeof *k);
    char *path = src_path(file);
    int wc;
    char **w;
    char err[128];
    ck_assert_msg(repl_split_words(spec, &wc, &w, err, sizeof err), "bad spec: %s", err);
    char **argv = xcalloc((size_t)wc + 2, sizeof *argv);
    argv[0] = path;
    for (int i = 0; i < wc; i++) argv[i + 1] = w[i];
    repl_resolve_opts ro = { .need_grid = true };
    int rc = repl_target_open(&k->t, wc + 1, argv, REPL_OPT_LAUNCH | REPL_OPT_RUN, &ro);
    ck_assert_msg(rc == REPL_EXIT_OK, "cannot open %s %s", file, spec);
    free(argv);
    repl_words_free(wc, w);
    free(path);
    k->of = open_memstream(&k->obuf, &k->olen);
    k->ef = open_memstream(&k->ebuf, &k->elen);
    k->d = dbg_new(k->of, k->ef);
    diag_set_stream(k->ef);
    ck_assert(dbg_load(k->d, k->t.mod, k->t.kernel, &k->t.launch));
}

void tk_close(tk *k)
{
    dbg_free(k->d);
    diag_set_stream(NULL);
    fclose(k->of);
    fclose(k->ef);
    free(k->obuf);
    free(k->ebuf);
    free(k->last_out);
    free(k->last_err);
    repl_target_close(&k->t);
}

static void take(tk *k)
{
    fflush(k->of);
    fflush(k->ef);
    free(k->last_out);
    free(k->last_err);
    k->last_out = xstrndup(k->obuf + k->omark, k->olen - k->omark);
    k->last_err = xstrndup(k->ebuf + k->emark, k->elen - k->emark);
    k->omark = k->olen;
    k->emark = k->elen;
}

int tk_do(tk *k, int (*fn)(dbg_session *, const char *), const char *args)
{
    int rc = fn(k->d, args);
    take(k);
    return rc;
}

const char *tk_out(tk *k) { return k->last_out ? k->last_out : ""; }
const char *tk_err(tk *k) { return k->last_err ? k->last_err : ""; }

dbg_stop_info tk_stop(tk *k)
{
    dbg_stop_info st;
    dbg_get_stop(k->d, &st);
    return st;
}

void tk_eval(tk *k, const char *expr, dbg_value *v)
{
    bool ok = dbg_eval(k->d, expr, v);
    take(k);
    ck_assert_msg(ok, "eval '%s' failed: %s", expr, tk_err(k));
}

double tk_at(const dbg_value *v, int64_t i) { return tt_load_f64(v->data, v->dt, i); }

int count_of(const char *hay, const char *needle)
{
    int n = 0;
    size_t l = strlen(needle);
    for (const char *p = hay; (p = strstr(p, needle)); p += l) n++;
    return n;
}

float helpers_ref(float x)
{
    /* square(v) = v*v + 1; twice(v) = square(v) * 2; out = 3 * square(twice(x)),
     * accumulated as ((0 + z) + z) + z, in f32 like the kernel */
    float t = x * x;
    float a = t + 1.0f;
    float y = a * 2.0f;
    float t2 = y * y;
    float z = t2 + 1.0f;
    float acc = 0.0f;
    for (int i = 0; i < 3; i++) acc = acc + z;
    return acc;
}

int main(void)
{
    Suite *s = suite_create("debugger");
    suite_add_tcase(s, break_tcase());
    suite_add_tcase(s, step_tcase());
    suite_add_tcase(s, values_tcase());
    suite_add_tcase(s, watch_tcase());
    suite_add_tcase(s, sched_tcase());
    suite_add_tcase(s, format_tcase());
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
