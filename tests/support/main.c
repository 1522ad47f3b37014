/* main.c — runner of the support suite (dtype, tensor, npy, launch, diag, settings). */
#include <stdlib.h>
#include "tsupport.h"

int main(void)
{
    Suite *s = suite_create("support");
    suite_add_tcase(s, dtype_tcase());
    suite_add_tcase(s, tensor_tcase());
    suite_add_tcase(s, npy_tcase());
    suite_add_tcase(s, launch_tcase());
    suite_add_tcase(s, diag_tcase());
    suite_add_tcase(s, settings_tcase());
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
