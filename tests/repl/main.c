/* main.c — runner of the repl suite (launch-spec parser, resolver, --expect). */
#include <stdlib.h>
#include <string.h>
#include "trepl.h"
#include "tritium/diag.h"

static char *cap_buf;
static size_t cap_len;
static FILE *cap_f;

void cap_start(void)
{
    free(cap_buf);
    cap_buf = NULL;
    cap_f = open_memstream(&cap_buf, &cap_len);
    diag_set_stream(cap_f);
}

const char *cap_end(void)
{
    diag_set_stream(NULL);
    fclose(cap_f);
    cap_f = NULL;
    return cap_buf ? cap_buf : "";
}

bool parse_line(repl_spec *s, const char *line, unsigned allowed, bool from_comment, const char *base)
{
    int argc;
    char **argv;
    char err[64];
    if (!repl_split_words(line, &argc, &argv, err, sizeof err)) return false;
    bool ok = repl_spec_parse(s, argc, argv, allowed, from_comment, base);
    repl_words_free(argc, argv);
    return ok;
}

int main(void)
{
    Suite *s = suite_create("repl");
    suite_add_tcase(s, literal_tcase());
    suite_add_tcase(s, spec_tcase());
    suite_add_tcase(s, resolve_tcase());
    suite_add_tcase(s, expect_tcase());
    suite_add_tcase(s, expr_tcase());
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
