/* main.c — runner of the interp suite. */
#include <stdlib.h>

#include "tinterp.h"

int main(void)
{
    Suite *s = suite_create("interp");
    suite_add_tcase(s, arith_tcase());
    suite_add_tcase(s, cast_tcase());
    suite_add_tcase(s, shape_tcase());
    suite_add_tcase(s, mem_tcase());
    suite_add_tcase(s, report_tcase());
    suite_add_tcase(s, reduce_tcase());
    suite_add_tcase(s, dot_tcase());
    suite_add_tcase(s, scf_tcase());
    suite_add_tcase(s, sched_tcase());
    suite_add_tcase(s, hook_tcase());
    suite_add_tcase(s, heads_tcase());
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
