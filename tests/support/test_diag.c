/* test_diag.c — the source registry: a released mark frees what came after
 * it and name lookup falls back to the earlier source of the same name. */
#include <string.h>
#include "tsupport.h"
#include "tritium/diag.h"

START_TEST(release_to_mark)
{
    int a = diag_add_source("k.py", "first\n");
    int mark = diag_source_mark();
    ck_assert_int_eq(mark, a + 1);
    int b = diag_add_source("k.py", "second\n");
    (void)diag_add_source("other.py", "x\n");
    ck_assert_int_eq(diag_find_source("k.py"), b);
    diag_source_release(mark);
    ck_assert_int_eq(diag_find_source("k.py"), a);
    ck_assert_int_eq(diag_find_source("other.py"), -1);
    ck_assert_str_eq(diag_source_line(a, 1), "first");
    ck_assert_str_eq(diag_file_text(b), "");          /* a released id reads as empty, never freed memory */
    ck_assert_int_eq(diag_add_source("k.py", "third\n"), b);
    diag_source_release(diag_source_mark());          /* nothing after the mark: a no-op */
    ck_assert_str_eq(diag_source_line(b, 1), "third");
}
END_TEST

TCase *diag_tcase(void)
{
    TCase *tc = tcase_create("diag");
    tcase_add_test(tc, release_to_mark);
    return tc;
}
