/* main.c — runner of the ir suite (text form and verifier). */
#include <stdlib.h>
#include "tir.h"

int main(void)
{
    tir_types();
    Suite *s = suite_create("ir");
    suite_add_tcase(s, text_tcase());
    suite_add_tcase(s, text_limits_tcase());
    suite_add_tcase(s, verify_tcase());
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
