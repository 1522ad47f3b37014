/* test_view.c — suite 'sanit': reads outside a tensor's view, through the C
 * API (libtritium), which passes each tensor's view next to its storage.
 * x is the view storage[:, :8] of a 4x16 f32 matrix (strides (16, 1)); the
 * row-sum kernel with n_cols = 16 reads columns 8..15 of every row: inside
 * the allocation, outside the view. The reference (plain C) counts those
 * lanes and the first element; n_cols = 8 must give no warning and the
 * right sums. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tritium/tritium.h"

static float g_store[4 * 16];

static int run_rows(int64_t n_cols, char **text, float out[4])
{
    tritium_module *m = tritium_module_load("tests/sanit/kernels/view_rows.py");
    ck_assert_ptr_nonnull(m);
    tritium_launch *L = tritium_launch_new(m, "row_sum");
    ck_assert_ptr_nonnull(L);
    int64_t vshape[2] = { 4, 8 }, vstrides[2] = { 16, 1 };
    ck_assert_int_eq(tritium_launch_tensor(L, "x", TRITIUM_F32, g_store, 2, vshape, vstrides, g_store,
                                           (int64_t)sizeof g_store, 0), 0);
    int64_t oshape[1] = { 4 }, ostrides[1] = { 1 };
    ck_assert_int_eq(tritium_launch_tensor(L, "out", TRITIUM_F32, out, 1, oshape, ostrides, out, 16, 0), 0);
    ck_assert_int_eq(tritium_launch_int(L, "stride", 16), 0);
    ck_assert_int_eq(tritium_launch_int(L, "n_cols", n_cols), 0);
    ck_assert_int_eq(tritium_launch_const_int(L, "BLOCK", 16), 0);
    ck_assert_int_eq(tritium_launch_grid(L, 4, 1, 1), 0);
    tritium_report *r = NULL;
    int rc = tritium_run(L, NULL, &r);
    ck_assert_ptr_nonnull(r);
    *text = strdup(tritium_report_text(r));
    tritium_report_free(r);
    tritium_launch_free(L);
    tritium_module_free(m);
    return rc;
}

START_TEST(read_past_view)
{
    for (int i = 0; i < 64; i++) g_store[i] = (float)i;
    float out[4];
    char *t;
    run_rows(16, &t, out);
    /* reference: lanes with col >= 8 (the view has 8 columns), per row */
    int first_elem = -1, lanes_row0 = 0, total = 0;
    for (int row = 0; row < 4; row++)
        for (int c = 0; c < 16; c++) {
            if (c < 8) continue;
            if (first_elem < 0) first_elem = row * 16 + c;
            lanes_row0 += row == 0;
            total++;
        }
    char want[512];
    snprintf(want, sizeof want,
             "  lane 8 (of 16) reads element %d of the storage of x (64 elements), which is in no view the launch "
             "passes for it: x (f32[4,8] view, strides (16, 1), at element 0 of its storage); %d lanes of this op did "
             "so in this program\n", first_elem, lanes_row0);
    ck_assert_msg(strstr(t, "warning: load outside the tensor's view in program (0, 0, 0)\n"), "%s", t);
    ck_assert_msg(strstr(t, want), "missing:\n%s\nin:\n%s", want, t);
    snprintf(want, sizeof want, "%d lanes outside a view", total);
    ck_assert_msg(strstr(t, want), "%s", t);
    free(t);
    /* clean: n_cols = 8 reads exactly the view */
    ck_assert_int_eq(run_rows(8, &t, out), 0);
    ck_assert_msg(!strstr(t, "view"), "%s", t);
    for (int row = 0; row < 4; row++) {
        float s = 0;
        for (int c = 0; c < 8; c++) s += g_store[row * 16 + c];
        ck_assert(out[row] == s);
    }
    free(t);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("sanit-view");
    TCase *tc = tcase_create("view");
    tcase_add_test(tc, read_past_view);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? 1 : 0;
}
