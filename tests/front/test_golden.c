/* test_golden.c — golden IR texts of the examples (tests/front/golden/NAME.ir),
 * compared after ir_print. Regenerate with
 *     TRITIUM_UPDATE_GOLDEN=1 meson test -C BUILD --suite front
 * and review the diff: a golden file is only as good as its review. */
#include <stdlib.h>
#include "tfront.h"

static const char *srcdir(void)
{
    const char *s = getenv("TRITIUM_SRCDIR");
    return s && *s ? s : TRITIUM_SRCDIR_DEFAULT;
}

static char *slurp(const char *path)
{
    size_t len;
    return read_file(path, &len);
}

/* Compile examples/NAME.py's KERNEL for SPEC and compare with golden/NAME.ir. */
static void golden(const char *name, const char *kernel, const char *spec)
{
    char path[1024], gpath[1024], rel[256];
    snprintf(path, sizeof path, "%s/examples/%s.py", srcdir(), name);
    snprintf(gpath, sizeof gpath, "%s/tests/front/golden/%s.ir", srcdir(), name);
    snprintf(rel, sizeof rel, "examples/%s.py", name);
    char *text = slurp(path);
    ck_assert_msg(text != NULL, "cannot read %s", path);
    /* register under a relative name so the text does not depend on the checkout */
    launch l;
    mk_launch(&l, spec);
    cap_start();
    front_module *m = front_load_text(rel, text);
    ir_func *f = m ? front_compile(m, kernel, &l) : NULL;
    const char *d = cap_end();
    free(text);
    ck_assert_msg(f != NULL, "%s:\n%s", rel, d);
    char *out = NULL;
    size_t n = 0;
    FILE *o = open_memstream(&out, &n);
    ir_print(o, f);
    fclose(o);
    const char *upd = getenv("TRITIUM_UPDATE_GOLDEN");
    if (upd && !strcmp(upd, "1")) {
        FILE *g = fopen(gpath, "w");
        ck_assert_msg(g != NULL, "cannot write %s", gpath);
        fputs(out, g);
        fclose(g);
    } else {
        char *want = slurp(gpath);
        ck_assert_msg(want != NULL, "missing %s; create it with TRITIUM_UPDATE_GOLDEN=1", gpath);
        if (strcmp(want, out)) {
            /* report the first differing line */
            const char *a = want, *b = out;
            int line = 1;
            while (*a && *a == *b) {
                if (*a == '\n') line++;
                a++, b++;
            }
            ck_abort_msg("%s differs from %s at line %d:\n  golden: %.*s\n  now:    %.*s\n"
                         "(TRITIUM_UPDATE_GOLDEN=1 regenerates it)", rel, gpath, line,
                         (int)strcspn(a, "\n"), a, (int)strcspn(b, "\n"), b);
        }
        free(want);
    }
    free(out);
    ir_func_free(f);
    front_module_free(m);
    launch_free(&l);
}

/* the launches of the files' "# tritium:" lines */
START_TEST(golden_vector_add)
{
    golden("vector_add", "add_kernel",
           "x_ptr:*f32[98432] y_ptr:*f32[98432] output_ptr:*f32[98432] n_elements:i32=98432 BLOCK_SIZE=1024");
}
END_TEST

START_TEST(golden_matmul)
{
    golden("matmul", "matmul_kernel",
           "a_ptr:*f16[300,200] b_ptr:*f16[200,250] c_ptr:*f16[300,250] M:i32=300 N:i32=250 K:i32=200 "
           "stride_am:i32=200 stride_ak:i32=1 stride_bk:i32=250 stride_bn:i32=1 stride_cm:i32=250 stride_cn:i32=1 "
           "BLOCK_SIZE_M=64 BLOCK_SIZE_N=64 BLOCK_SIZE_K=32 GROUP_SIZE_M=8");
}
END_TEST

TCase *tc_golden(void)
{
    TCase *tc = tcase_create("golden");
    tcase_add_test(tc, golden_vector_add);
    tcase_add_test(tc, golden_matmul);
    return tc;
}
