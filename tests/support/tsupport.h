/* tsupport.h — the test cases of the support suite. */
#ifndef TSUPPORT_H
#define TSUPPORT_H
#include <check.h>
TCase *dtype_tcase(void);
TCase *tensor_tcase(void);
TCase *npy_tcase(void);
TCase *launch_tcase(void);
TCase *diag_tcase(void);
TCase *settings_tcase(void);
#endif
