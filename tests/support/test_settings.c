/* test_settings.c — walks every row of the settings table
 * (include/tritium/settings.def), as tests/gpu/test_optable.c walks the ops:
 * each row parses from argv words (every spelling of its flag, in every
 * command that accepts it), from its environment variable and as its
 * default; it appears in `tritium help settings`; a row that changes code
 * changes the cache key's text when its value changes. Bad values are
 * refused with a message naming what was expected. The sources of the
 * product read no TRITIUM_* variable outside the settings module, and
 * docs/settings.md is the table's text. */
#include <ctype.h>
#include <dirent.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include "tsupport.h"
#include "tritium/limits.h"
#include "tritium/settings.h"
#include "tritium/support.h"

/* A valid value of row r other than its default. */
static const char *other_value(const tt_setting_info *r, char *buf, size_t n)
{
    switch (r->type) {
    case TT_SET_T_BOOL: return r->def && !strcmp(r->def, "1") ? "0" : "1";
    case TT_SET_T_INT: case TT_SET_T_UINT:
        if (!strstr(r->domain, "..")) {                  /* the domain's second value */
            const char *bar = strchr(r->domain, '|');
            snprintf(buf, n, "%.*s", (int)strcspn(bar + 1, "|"), bar + 1);
            return buf;
        }
        snprintf(buf, n, "%.*s", (int)(strstr(r->domain, "..") - r->domain), r->domain);
        if (r->def && !strcmp(buf, r->def)) snprintf(buf, n, "%s", "1");
        return buf;
    case TT_SET_T_FLOAT: return "0.5";
    case TT_SET_T_ENUM: case TT_SET_T_SEEDED: {
        /* the second value; a seeded value with a seed */
        const char *p = strchr(r->domain, '|') + 1;
        size_t k = strcspn(p, "|=:");
        snprintf(buf, n, "%.*s%s", (int)k, p, p[k] == ':' ? ":7" : "");
        return buf;
    }
    case TT_SET_T_STR: return r->domain && !strcmp(r->domain, "arch") ? "sm_80" : "text";
    case TT_SET_T_PATH: return "/tmp/some/path";
    case TT_SET_T_LIST: return "item";
    }
    return NULL;
}

static char *key_of(const tt_settings *s)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&buf, &len);
    tt_settings_key(s, m);
    fclose(m);
    return buf;
}

static char *help_text(bool markdown)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&buf, &len);
    tt_settings_print_help(m, markdown);
    fclose(m);
    return buf;
}

START_TEST(every_row)
{
    char *help = help_text(false), *md = help_text(true);
    tt_settings def;
    tt_settings_init(&def);
    char *def_key = key_of(&def);
    for (int i = 0; i < TT_SET_COUNT; i++) {
        const tt_setting_info *r = tt_setting_row((tt_setting_id)i);
        ck_assert_int_eq(r->id, i);
        ck_assert_msg(r->flag || r->env || r->python, "%s: no flag, variable or Python name", r->name);
        ck_assert_msg(r->help && strlen(r->help) > 10, "%s: no help", r->name);
        ck_assert_msg(!r->code || r->type != TT_SET_T_LIST, "%s: a list cannot change code", r->name);
        ck_assert_msg(!r->python || (r->commands & TT_CMD_PYTHON) || !r->flag, "%s: a Python name but no Python flag",
                      r->name);
        ck_assert_int_eq(tt_setting_by_name(r->name), i);
        /* the default parses and is the initial value */
        ck_assert(!tt_settings_given(&def, (tt_setting_id)i));
        char *dv = tt_settings_value_text(&def, (tt_setting_id)i);
        if (r->def && r->type != TT_SET_T_SEEDED && r->type != TT_SET_T_ENUM)
            ck_assert_msg(!strcmp(dv, r->def) || r->type == TT_SET_T_FLOAT, "%s: default %s reads back as %s", r->name,
                          r->def, dv);
        free(dv);
        char vb[128];
        const char *v = other_value(r, vb, sizeof vb);
        char err[256];
        /* argv: every spelling, in every command that takes the flag, as
         * "--flag VALUE" (tt_settings_set) and "--flag=VALUE" */
        if (r->flag) {
            for (int c = 0; c < TT_CMD_COUNT; c++) {
                if (!(r->commands >> c & 1)) continue;
                for (const char *p = r->flag; p; p = strchr(p, '|') ? strchr(p, '|') + 1 : NULL) {
                    char *w = r->type == TT_SET_T_BOOL ? xstrndup(p, strcspn(p, "|"))
                                                       : xasprintf("%.*s=%s", (int)strcspn(p, "|"), p, v);
                    const char *val;
                    ck_assert_msg(tt_setting_by_flag(w, 1u << c, &val) == i, "%s: '%s' not found for %s", r->name, w,
                                  tt_setting_command_name(1u << c));
                    tt_settings s;
                    tt_settings_init(&s);
                    ck_assert_msg(tt_settings_set(&s, (tt_setting_id)i, val, TT_SRC_ARGV, err, sizeof err), "%s: %s",
                                  w, err);
                    ck_assert(tt_settings_given(&s, (tt_setting_id)i));
                    char *got = tt_settings_value_text(&s, (tt_setting_id)i);
                    if (r->type == TT_SET_T_BOOL) ck_assert_str_eq(got, v);
                    else if (r->type != TT_SET_T_FLOAT) ck_assert_msg(!strcmp(got, v), "%s: %s reads back as %s", r->name, v, got);
                    free(got);
                    if (r->code) {
                        char *k = key_of(&s);
                        ck_assert_msg(strcmp(k, def_key), "%s: changing it leaves the cache key", r->name);
                        free(k);
                    }
                    tt_settings_free(&s);
                    free(w);
                }
            }
        }
        /* the environment (the rows the library reads) */
        if (r->env && !r->env_by_python) {
            setenv(r->env, v, 1);
            tt_settings_reload();
            const tt_settings *e = tt_settings_env();
            ck_assert(tt_settings_given(e, (tt_setting_id)i));
            char *got = tt_settings_value_text(e, (tt_setting_id)i);
            if (r->type != TT_SET_T_FLOAT) ck_assert_msg(!strcmp(got, v), "$%s=%s reads back as %s", r->env, v, got);
            free(got);
            if (r->code) {
                char *k = key_of(e);
                ck_assert_msg(strcmp(k, def_key), "$%s: changing it leaves the cache key", r->env);
                free(k);
            }
            unsetenv(r->env);
            tt_settings_reload();
            ck_assert(!tt_settings_given(tt_settings_env(), (tt_setting_id)i));
        }
        /* in help and in the Markdown reference */
        ck_assert_msg(strstr(help, r->name), "%s: not in tritium help settings", r->name);
        if (r->env) ck_assert_msg(strstr(help, r->env) && strstr(md, r->env), "%s: not in help", r->env);
        if (r->flag) {
            char *f = xstrndup(r->flag, strcspn(r->flag, "|"));
            ck_assert_msg(strstr(help, f) && strstr(md, f), "%s: not in help", f);
            free(f);
        }
        if (r->python) ck_assert_msg(strstr(help, r->python), "%s: not in help", r->python);
    }
    for (int i = 0; i < TT_LIM_COUNT; i++) {
        const tt_limit_info *l = tt_limit_info_of((tt_limit_id)i);
        if (l->env) ck_assert_msg(strstr(help, l->env) && strstr(md, l->env), "%s: not in help", l->env);
    }
    free(def_key);
    free(help);
    free(md);
}
END_TEST

/* The messages of bad values: what was expected, without the option. */
START_TEST(bad_values)
{
    static const struct { tt_setting_id id; const char *v; const char *msg; } cases[] = {
        { TT_SET_NUMERICS, "fast2", "expected one of ieee, fast, gpu" },
        { TT_SET_SCHEDULE, "shuffled", "expected one of in-order, reverse, random[:SEED], parallel" },
        { TT_SET_SCHEDULE, "random:x", "expected random:SEED with a non-negative integer SEED" },
        { TT_SET_SCHEDULE, "reverse:3", "expected one of in-order, reverse, random[:SEED], parallel" },
        { TT_SET_NUM_WARPS, "3", "expected one of 1, 2, 4, 8, 16, 32" },
        { TT_SET_THREADS, "many", "expected an integer from 0 to 4096" },
        { TT_SET_THREADS, "4097", "expected an integer from 0 to 4096" },
        { TT_SET_SEED, "-1", "expected a non-negative integer" },
        { TT_SET_RTOL, "-1", "expected a non-negative number" },
        { TT_SET_RTOL, "inf", "expected a non-negative number" },
        { TT_SET_PERSISTENT, "2", "expected 0 or 1" },
        { TT_SET_MMA, "2", "expected one of wgmma, sync, 1, 0" },
        { TT_SET_ARCH, "sm_4", "expected sm_NN with NN >= 50, or sm_90a (e.g. sm_80)" },
        { TT_SET_ARCH, "sm_80a", "expected sm_NN with NN >= 50, or sm_90a (e.g. sm_80)" },
        { TT_SET_WGMMA_ASYNC, "2", "expected an integer from -1 to 1" },
        { TT_SET_CACHE_DIR, "", "expected a path" },
    };
    for (size_t i = 0; i < TT_COUNTOF(cases); i++) {
        tt_settings s;
        tt_settings_init(&s);
        tt_settings before = s;
        char err[256] = "";
        ck_assert_msg(!tt_settings_set(&s, cases[i].id, cases[i].v, TT_SRC_ARGV, err, sizeof err), "%s accepted",
                      cases[i].v);
        ck_assert_str_eq(err, cases[i].msg);
        ck_assert(!memcmp(&s, &before, sizeof s));
    }
    /* values as Python writes integers, aliases, seeds, a bool flag */
    tt_settings s;
    tt_settings_init(&s);
    char err[256];
    ck_assert(tt_settings_set(&s, TT_SET_SEED, "0x10", TT_SRC_ARGV, err, sizeof err) && s.seed == 16);
    ck_assert(tt_settings_set(&s, TT_SET_SEED, "18446744073709551615", TT_SRC_ARGV, err, sizeof err) &&
              s.seed == UINT64_MAX);
    ck_assert(tt_settings_set(&s, TT_SET_GPU_PIPE_SMEM, "160_000", TT_SRC_ARGV, err, sizeof err) &&
              s.gpu_pipe_smem == 160000);
    ck_assert(tt_settings_set(&s, TT_SET_NUMERICS, "gpu", TT_SRC_ARGV, err, sizeof err) && s.numerics == 1);
    ck_assert(tt_settings_set(&s, TT_SET_MMA, "0", TT_SRC_ENV, err, sizeof err) && s.mma_sync == TT_MMA_SYNC);
    ck_assert(tt_settings_set(&s, TT_SET_SCHEDULE, "random:7", TT_SRC_ARGV, err, sizeof err));
    ck_assert(s.schedule.v == 2 && s.schedule.has_n && s.schedule.n == 7);
    ck_assert(tt_settings_set(&s, TT_SET_CHECK_RACES, NULL, TT_SRC_ARGV, err, sizeof err) && !s.check_races);
    ck_assert(tt_settings_set(&s, TT_SET_SIZES, "n=1:8", TT_SRC_ARGV, err, sizeof err));
    ck_assert(tt_settings_set(&s, TT_SET_SIZES, "m=2:4", TT_SRC_ARGV, err, sizeof err));
    ck_assert_int_eq(s.sizes.n, 2);
    ck_assert_str_eq(s.sizes.v[1], "m=2:4");
    tt_settings_free(&s);
    ck_assert_int_eq(tt_setting_by_flag("--against", TT_CMD_DIFF, NULL), TT_SET_AGAINST);
    ck_assert_int_eq(tt_setting_by_flag("--against=triton", TT_CMD_PYTHON, NULL), TT_SET_CHECK_AGAINST);
    ck_assert_int_eq(tt_setting_by_flag("--llvm", TT_CMD_RUN, NULL), -1);
    ck_assert_int_eq(tt_setting_by_flag("-v", TT_CMD_PYTHON, NULL), TT_SET_VERBOSE);
}
END_TEST

/* An environment value that does not parse keeps the default, with a warning. */
START_TEST(bad_environment)
{
    setenv("TRITIUM_GPU_CGLEVEL", "7", 1);
    tt_settings_reload();
    ck_assert_int_eq(tt_settings_env()->gpu_cg_level, 3);
    ck_assert(!tt_settings_given(tt_settings_env(), TT_SET_GPU_CGLEVEL));
    unsetenv("TRITIUM_GPU_CGLEVEL");
    setenv("TRITIUM_WGMMA", "", 1);                       /* empty: unset */
    tt_settings_reload();
    ck_assert(!tt_settings_given(tt_settings_env(), TT_SET_MMA));
    unsetenv("TRITIUM_WGMMA");
    tt_settings_reload();
}
END_TEST

/* ---- no getenv of a TRITIUM_* variable outside the settings module -------- */

static int scan_file(const char *path, strbuf *bad)
{
    char *text = read_file(path, NULL);
    if (!text) return 0;
    int n = 0;
    bool settings = strstr(path, "compiler/support/settings.c") != NULL;
    bool limits = strstr(path, "compiler/support/limits.c") != NULL;
    for (const char *p = text; (p = strstr(p, "getenv(")); p += 7) {
        if (p > text && (isalnum((unsigned char)p[-1]) || p[-1] == '_')) continue;   /* secure_getenv, my_getenv */
        const char *a = p + 7;
        while (*a == ' ') a++;
        bool tritium = !strncmp(a, "\"TRITIUM_", 9);
        bool literal = *a == '"';
        /* limits.c reads the variables of its own table (limits.h), which
         * `tritium help settings` lists with the settings */
        if (settings || (limits && !literal)) continue;
        if (tritium || !literal) {
            sb_printf(bad, "%s: getenv(%.40s\n", path, a);
            n++;
        }
    }
    free(text);
    return n;
}

static int scan_dir(const char *dir, strbuf *bad)
{
    DIR *d = opendir(dir);
    if (!d) return 0;
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.') continue;
        char *p = xasprintf("%s/%s", dir, e->d_name);
        struct stat st;
        if (stat(p, &st) == 0 && S_ISDIR(st.st_mode)) n += scan_dir(p, bad);
        else {
            size_t l = strlen(p);
            if (l > 2 && (!strcmp(p + l - 2, ".c") || !strcmp(p + l - 2, ".h"))) n += scan_file(p, bad);
        }
        free(p);
    }
    closedir(d);
    return n;
}

START_TEST(no_getenv_outside_settings)
{
    const char *src = getenv("TRITIUM_SRCDIR");
    ck_assert_msg(src, "TRITIUM_SRCDIR is not set");
    static const char *const dirs[] = { "compiler", "interp", "debugger", "api", "repl", "include" };
    strbuf bad = { 0 };
    int n = 0;
    for (size_t i = 0; i < TT_COUNTOF(dirs); i++) {
        char *d = xasprintf("%s/%s", src, dirs[i]);
        n += scan_dir(d, &bad);
        free(d);
    }
    ck_assert_msg(n == 0, "getenv of a TRITIUM_* variable (or of a computed name) outside "
                  "compiler/support/settings.c; give the knob a row in include/tritium/settings.def:\n%s",
                  bad.s ? bad.s : "");
    sb_free(&bad);
}
END_TEST

/* docs/settings.md is `tritium help settings --markdown`. */
START_TEST(reference_in_sync)
{
    const char *src = getenv("TRITIUM_SRCDIR");
    ck_assert_msg(src, "TRITIUM_SRCDIR is not set");
    char *path = xasprintf("%s/docs/settings.md", src);
    char *doc = read_file(path, NULL);
    char *md = help_text(true);
    ck_assert_msg(doc && !strcmp(doc, md), "docs/settings.md is not the table's text: regenerate it with "
                  "`tritium help settings --markdown > docs/settings.md`");
    free(doc);
    free(md);
    free(path);
}
END_TEST

TCase *settings_tcase(void)
{
    TCase *tc = tcase_create("settings");
    tcase_add_test(tc, every_row);
    tcase_add_test(tc, bad_values);
    tcase_add_test(tc, bad_environment);
    tcase_add_test(tc, no_getenv_outside_settings);
    tcase_add_test(tc, reference_in_sync);
    return tc;
}
