/* test_golden.c — golden transcripts of `tritium debug -batch` sessions.
 *
 * usage: test_debugger_golden TRITIUM CASE   (run from the source root)
 *
 * tests/debugger/golden/CASE.cmd holds the commands; its first line is
 * "#! ARGS" with the rest of the command line (kernel file, launch spec).
 * The program runs `TRITIUM debug -batch -x CASE.cmd ARGS` with stdout and
 * stderr together, appends "[exit status N]", and compares the text with
 * CASE.out. With TRITIUM_UPDATE_GOLDEN=1 it writes CASE.out instead. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include "tritium/support.h"

static const char *g_tritium, *g_case;

static char *run_case(void)
{
    char *cmdf = xasprintf("tests/debugger/golden/%s.cmd", g_case);
    FILE *f = fopen(cmdf, "r");
    ck_assert_msg(f != NULL, "cannot open %s (run from the source root)", cmdf);
    char first[1024] = "";
    if (!fgets(first, sizeof first, f)) first[0] = 0;
    fclose(f);
    ck_assert_msg(!strncmp(first, "#! ", 3), "%s must start with '#! ARGS'", cmdf);
    first[strcspn(first, "\n")] = 0;
    char *sh = xasprintf("'%s' debug -batch -x %s %s 2>&1; echo \"[exit status $?]\"", g_tritium, cmdf, first + 3);
    FILE *p = popen(sh, "r");
    ck_assert(p != NULL);
    strbuf out = { 0 };
    char buf[4096];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, p)) > 0) {
        buf[n] = 0;
        for (size_t i = 0; i < n; i++) sb_putc(&out, buf[i]);
    }
    pclose(p);
    free(sh);
    free(cmdf);
    return sb_take(&out);
}

START_TEST(golden)
{
    char *got = run_case();
    char *outf = xasprintf("tests/debugger/golden/%s.out", g_case);
    const char *upd = getenv("TRITIUM_UPDATE_GOLDEN");
    if (upd && *upd == '1') {
        FILE *f = fopen(outf, "w");
        ck_assert(f != NULL);
        fputs(got, f);
        fclose(f);
    }
    size_t len;
    char *want = read_file(outf, &len);
    ck_assert_msg(want != NULL, "missing %s (TRITIUM_UPDATE_GOLDEN=1 writes it)", outf);
    if (strcmp(got, want)) {
        char tmp[] = "/tmp/tritium-golden-XXXXXX";
        int fd = mkstemp(tmp);
        FILE *f = fdopen(fd, "w");
        fputs(got, f);
        fclose(f);
        char *diff = xasprintf("diff -u %s %s >&2", outf, tmp);
        if (system(diff)) { /* the diff is the message */ }
        free(diff);
        remove(tmp);
        ck_abort_msg("transcript of %s differs from %s (diff above)", g_case, outf);
    }
    free(want);
    free(outf);
    free(got);
}
END_TEST

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: %s TRITIUM CASE\n", argv[0]);
        return 2;
    }
    g_tritium = argv[1];
    g_case = argv[2];
    Suite *s = suite_create("debugger-golden");
    TCase *tc = tcase_create(g_case);
    tcase_set_timeout(tc, 240);
    tcase_add_test(tc, golden);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? 1 : 0;
}
