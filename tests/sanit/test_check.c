/* test_check.c — suite 'sanit': the sanitizers end to end: `tritium check`
 * (proof mode) and `tritium run --check determinism`.
 *
 * Runs the real executable with --json and checks its verdicts against
 * independent references:
 *   - clean kernels (every example, Triton tutorials 02-05 as the tutorials
 *     write them) must be proved with nothing refuted or open;
 *   - planted bugs (an off-by-one mask, a 2-D tile with unchecked rows, a
 *     K-loop mask off by one) must be refuted, and the counterexample is
 *     checked by plain C arithmetic of the kernel's own index formula (the
 *     lane is masked in and its element is out of range), and replaying the
 *     printed `tritium debug` command must report the fault;
 *   - --for-all: vector add proved for every n up to 2^31-1; the unmasked
 *     load refuted at the smallest n;
 *   - a gather through loaded indices is left open and the interpreter runs;
 *   - determinism: an atomic ticket counter (reference: program p takes
 *     ticket p in order, 7 - p reversed), a float atomic_add reduction (both
 *     results within 1e-3 of the exact sum of the saved input, and
 *     different), a clean kernel, and the note after race reports;
 *   - int32 overflow: a 2-D offset row * stride that wraps at 2^31 (operands
 *     and wrapped value checked against int64 arithmetic in C), off, and
 *     overflow=all on a hash that is not an address (lanes counted in C).
 *
 * usage: test_check TRITIUM   (run from the source root) */
#include <check.h>
#include <jansson.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

static const char *g_tritium;

/* `tritium CMD`: stdout (and stderr unless CMD redirects it). */
static char *run(const char *cmd, int *status)
{
    char *sh = malloc(strlen(cmd) + strlen(g_tritium) + 32);
    sprintf(sh, strstr(cmd, "2>") ? "'%s' %s" : "'%s' %s 2>&1", g_tritium, cmd);
    FILE *p = popen(sh, "r");
    ck_assert_ptr_nonnull(p);
    size_t cap = 1 << 16, len = 0, n;
    char *out = malloc(cap);
    while ((n = fread(out + len, 1, cap - len - 1, p)) > 0) {
        len += n;
        if (cap - len < 4096) out = realloc(out, cap *= 2);
    }
    out[len] = 0;
    int st = pclose(p);
    *status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
    free(sh);
    return out;
}

/* `tritium check ARGS --json` (stderr dropped); the parsed object. */
static json_t *check_json(const char *args, int *status)
{
    char *cmd = malloc(strlen(args) + 64);
    sprintf(cmd, "check %s --json 2>/dev/null", args);
    char *o = run(cmd, status);
    json_error_t err;
    json_t *j = json_loads(o, 0, &err);
    if (!j) ck_abort_msg("not JSON (%s): %s", err.text, o);
    free(o);
    free(cmd);
    return j;
}

static json_int_t jint(json_t *o, const char *k)
{
    json_t *v = json_object_get(o, k);
    ck_assert_msg(json_is_integer(v), "missing %s", k);
    return json_integer_value(v);
}

static void expect_clean(const char *args, int naccesses)
{
    int st;
    json_t *j = check_json(args, &st);
    ck_assert_msg(st == 0, "%s: exit %d", args, st);
    ck_assert_int_eq(jint(j, "refuted"), 0);
    ck_assert_int_eq(jint(j, "open"), 0);
    ck_assert_int_eq(jint(j, "proved"), naccesses);
    ck_assert_int_eq((int)json_array_size(json_object_get(j, "accesses")), naccesses);
    json_decref(j);
}

START_TEST(clean_kernels_are_proved)
{
    expect_clean("examples/vector_add.py", 3);
    expect_clean("examples/softmax.py", 2);
    expect_clean("examples/layer_norm.py", 8);
    expect_clean("examples/matmul.py", 3);
    /* Triton 3.6's tutorials 02-05 as vendored, unchanged (tests/python/tutorials) */
    expect_clean("tests/python/tutorials/02-fused-softmax.py:softmax_kernel --grid 64 --arg "
                 "output_ptr=empty:f32[1823,781] --arg input_ptr=randn:f32[1823,781] --arg "
                 "input_row_stride='input_ptr.stride(0)' --arg output_row_stride='output_ptr.stride(0)' --arg "
                 "n_rows='input_ptr.shape[0]' --arg n_cols='input_ptr.shape[1]' --const BLOCK_SIZE=1024 --const "
                 "num_stages=4", 2);
    expect_clean("tests/python/tutorials/03-matrix-multiplication.py:matmul_kernel --grid 'cdiv(M, BLOCK_SIZE_M) "
                 "* cdiv(N, BLOCK_SIZE_N)' --arg a_ptr=randn:f16[513,129] --arg b_ptr=randn:f16[129,300] --arg "
                 "c_ptr=empty:f16[513,300] --arg M='a_ptr.shape[0]' --arg N='b_ptr.shape[1]' --arg "
                 "K='a_ptr.shape[1]' --arg stride_am='a_ptr.stride(0)' --arg stride_ak='a_ptr.stride(1)' --arg "
                 "stride_bk='b_ptr.stride(0)' --arg stride_bn='b_ptr.stride(1)' --arg stride_cm='c_ptr.stride(0)' "
                 "--arg stride_cn='c_ptr.stride(1)' --const BLOCK_SIZE_M=64 --const BLOCK_SIZE_N=64 --const "
                 "BLOCK_SIZE_K=32 --const GROUP_SIZE_M=8 --const ACTIVATION=leaky_relu", 3);
    expect_clean("tests/python/tutorials/04-low-memory-dropout.py:_seeded_dropout --grid 'cdiv(n_elements, "
                 "BLOCK_SIZE)' --arg x_ptr=randn:f32[100003] --arg output_ptr=empty:f32[100003] --arg "
                 "n_elements='numel(x_ptr)' --arg p=0.5 --arg seed=123 --const BLOCK_SIZE=1024", 2);
    expect_clean("tests/python/tutorials/05-layer-norm.py:_layer_norm_bwd_dx_fused --grid 'X.shape[0]' --arg "
                 "DX=empty:f32[300,1000] --arg DY=randn:f32[300,1000] --arg DW=zeros:f32[16,1000] --arg "
                 "DB=zeros:f32[16,1000] --arg X=randn:f32[300,1000] --arg W=randn:f32[1000] --arg "
                 "Mean=randn:f32[300] --arg Rstd=rand:f32[300] --arg Lock=zeros:i32[32] --arg "
                 "stride='X.stride(0)' --arg N='X.shape[1]' --const GROUP_SIZE_M=16 --const BLOCK_SIZE_N=1024", 14);
    expect_clean("tests/python/tutorials/05-layer-norm.py:_layer_norm_bwd_dwdb --grid 'cdiv(N, BLOCK_SIZE_N)' "
                 "--arg DW=zeros:f32[16,1000] --arg DB=zeros:f32[16,1000] --arg FINAL_DW=empty:f32[1000] --arg "
                 "FINAL_DB=empty:f32[1000] --arg M=16 --arg N=1000 --const BLOCK_SIZE_M=32 --const "
                 "BLOCK_SIZE_N=128", 4);
    /* odd sizes, a grid smaller than the rows, one program */
    expect_clean("examples/softmax.py --grid 3 --arg input_ptr=randn:f32[7,5] --arg output_ptr=empty:f32[7,5] "
                 "--const BLOCK_SIZE=8", 2);
    expect_clean("examples/matmul.py --arg a_ptr=randn:f16[1,1] --arg b_ptr=randn:f16[1,1] "
                 "--arg c_ptr=empty:f16[1,1]", 3);
    /* 2^20 programs */
    expect_clean("examples/vector_add.py --arg x_ptr=randn:f32[1073741824] --arg y_ptr=randn:f32[1073741824] "
                 "--arg output_ptr=empty:f32[1073741824]", 3);
}
END_TEST

/* The first refuted access's counterexample. */
static json_t *refuted(json_t *j, int idx)
{
    json_t *a = json_array_get(json_object_get(j, "accesses"), (size_t)idx);
    ck_assert_ptr_nonnull(a);
    ck_assert_str_eq(json_string_value(json_object_get(a, "status")), "refuted");
    json_t *ce = json_object_get(a, "counterexample");
    ck_assert_ptr_nonnull(ce);
    return ce;
}

static void replay_reports(json_t *ce, const char *want)
{
    const char *cmd = json_string_value(json_object_get(ce, "replay"));
    ck_assert_ptr_nonnull(cmd);
    ck_assert(!strncmp(cmd, "tritium debug ", 14));
    char *c2 = malloc(strlen(cmd) + 16);
    sprintf(c2, "debug -batch %s", cmd + 14);
    int st;
    char *o = run(c2, &st);
    ck_assert_msg(strstr(o, want), "replay did not report '%s':\n%s", want, o);
    free(o);
    free(c2);
}

START_TEST(off_by_one_mask)
{
    int st;
    json_t *j = check_json("tests/sanit/kernels/bug_off_by_one.py", &st);
    ck_assert_int_eq(st, 1);
    ck_assert_int_eq(jint(j, "refuted"), 3);
    /* reference: offsets = pid*1024 + lane, masked in when offsets <= 5000;
     * the only faulting lane of the launch is offset 5000 */
    const int n = 5000, B = 1024;
    int faults = 0, fpid = -1, flane = -1;
    for (int pid = 0; pid < (n + B - 1) / B; pid++)
        for (int lane = 0; lane < B; lane++) {
            int off = pid * B + lane;
            if (off <= n && off >= n) { faults++; fpid = pid; flane = lane; }
        }
    ck_assert_int_eq(faults, 1);
    for (int k = 0; k < 3; k++) {
        json_t *ce = refuted(j, k);
        ck_assert_int_eq(json_integer_value(json_array_get(json_object_get(ce, "program"), 0)), fpid);
        ck_assert_int_eq(jint(ce, "lane"), flane);
        ck_assert_int_eq(jint(ce, "element"), n);
        ck_assert_int_eq(jint(ce, "extent"), n);
        ck_assert_int_eq(jint(ce, "lanes"), 1);
    }
    replay_reports(refuted(j, 0), "error: out-of-bounds load in program (4, 0, 0)");
    json_decref(j);
    /* the text report: fault-report format */
    char *o = run("check tests/sanit/kernels/bug_off_by_one.py", &st);
    ck_assert_int_eq(st, 1);
    ck_assert(strstr(o, "error: out-of-bounds load in program (4, 0, 0)\n"));
    ck_assert(strstr(o, "lane 904 (of 1024) reads x_ptr[5000], but x_ptr has 5000 elements (f32[5000])"));
    ck_assert(strstr(o, "   17 |     x = tl.load(x_ptr + offsets, mask=mask)\n"));
    ck_assert(strstr(o, "summary: 3 accesses: 0 proved, 3 refuted, 0 open"));
    free(o);
}
END_TEST

START_TEST(two_d_rows_unchecked)
{
    int st;
    json_t *j = check_json("tests/sanit/kernels/bug_2d_rows.py", &st);
    ck_assert_int_eq(st, 1);
    json_t *ce = refuted(j, 0);
    json_t *store = json_array_get(json_object_get(j, "accesses"), 1);
    ck_assert_str_eq(json_string_value(json_object_get(store, "status")), "proved");
    /* reference: rows = p0*16 + i, cols = p1*32 + c, mask cols < 70, element rows*70 + cols */
    int p0 = (int)json_integer_value(json_array_get(json_object_get(ce, "program"), 0));
    int p1 = (int)json_integer_value(json_array_get(json_object_get(ce, "program"), 1));
    int lane = (int)jint(ce, "lane");
    int row = p0 * 16 + lane / 32, col = p1 * 32 + lane % 32;
    ck_assert(p0 < 7 && p1 < 3);
    ck_assert_int_lt(col, 70);
    ck_assert_int_ge(row * 70 + col, 7000);
    ck_assert_int_eq(jint(ce, "element"), row * 70 + col);
    int lanes = 0;
    for (int i = 0; i < 16; i++)
        for (int c = 0; c < 32; c++) {
            int r = p0 * 16 + i, cc = p1 * 32 + c;
            lanes += cc < 70 && r * 70 + cc >= 7000;
        }
    ck_assert_int_eq(jint(ce, "lanes"), lanes);
    replay_reports(ce, "error: out-of-bounds load in program");
    json_decref(j);
}
END_TEST

START_TEST(loop_mask_off_by_one)
{
    int st;
    json_t *j = check_json("tests/sanit/kernels/bug_loop_k.py", &st);
    ck_assert_int_eq(st, 1);
    json_t *ce = refuted(j, 0);
    /* reference: element row*100 + k*32 + lane with lane <= 100 - k*32 */
    int pid = (int)json_integer_value(json_array_get(json_object_get(ce, "program"), 0));
    int e = (int)jint(ce, "element");
    int lane = (int)jint(ce, "lane");
    ck_assert_int_ge(e, 3700);
    int k = (e - pid * 100 - lane) / 32;
    ck_assert_int_eq(pid * 100 + k * 32 + lane, e);
    ck_assert(k >= 0 && k < 4 && lane <= 100 - k * 32);
    replay_reports(ce, "error: out-of-bounds load in program");
    json_decref(j);
}
END_TEST

START_TEST(for_all_sizes)
{
    int st;
    json_t *j = check_json("examples/vector_add.py --for-all n_elements=1:2147483647 "
                           "--arg 'x_ptr=randn:f32[n_elements]' --arg 'y_ptr=randn:f32[n_elements]' "
                           "--arg 'output_ptr=empty:f32[n_elements]'", &st);
    ck_assert_int_eq(st, 0);
    ck_assert_int_eq(jint(j, "proved"), 3);
    json_decref(j);
    j = check_json("examples/oob_bug.py --for-all n_elements=1:100000 --arg 'x_ptr=randn:f32[n_elements]' "
                   "--arg 'out_ptr=empty:f32[n_elements]'", &st);
    ck_assert_int_eq(st, 1);
    json_t *ce = refuted(j, 0);
    /* the unmasked load faults for every n that is not a multiple of 1024,
     * first at n = 1: lane 1 of program 0 */
    ck_assert_int_eq(jint(json_object_get(ce, "for_all"), "n_elements"), 1);
    ck_assert_int_eq(jint(ce, "lane"), 1);
    ck_assert_int_eq(jint(ce, "element"), 1);
    ck_assert_int_eq(jint(ce, "extent"), 1);
    replay_reports(ce, "error: out-of-bounds load in program (0, 0, 0)");
    json_decref(j);
    /* bad ranges */
    char *o = run("check examples/vector_add.py --for-all n_elements=5:1", &st);
    ck_assert_int_eq(st, 2);
    ck_assert(strstr(o, "LO is greater than HI"));
    free(o);
    o = run("check examples/vector_add.py --for-all n_elements=1:3000000000", &st);
    ck_assert_int_eq(st, 2);
    ck_assert(strstr(o, "split the range at 2147483647"));
    free(o);
    o = run("check examples/vector_add.py --for-all nosuch=1:3", &st);
    ck_assert_int_eq(st, 2);
    free(o);
}
END_TEST

START_TEST(open_runs_the_interpreter)
{
    int st;
    json_t *j = check_json("tests/sanit/kernels/gather.py", &st);
    ck_assert_int_eq(st, 0);
    /* in source order: idx load, the store (column 4), the x load (column 29) */
    json_t *a = json_array_get(json_object_get(j, "accesses"), 2);
    ck_assert_str_eq(json_string_value(json_object_get(a, "status")), "open");
    ck_assert_int_eq(jint(a, "col"), 29);
    ck_assert_int_eq(jint(j, "proved"), 2);
    ck_assert_int_eq(jint(json_object_get(j, "interpreter"), "faults"), 0);
    json_decref(j);
    /* indices past the end: the interpreter run finds the fault */
    char *o = run("check tests/sanit/kernels/gather.py --arg 'idx=full(1000):i32[500]'", &st);
    ck_assert_int_eq(st, 1);
    ck_assert(strstr(o, "note: could not prove the load in bounds: it depends on a value loaded from memory (line 14)"));
    ck_assert(strstr(o, "error: out-of-bounds load in program (0, 0, 0)"));
    free(o);
}
END_TEST


/* ---- run --check determinism ------------------------------------------- */

START_TEST(ticket_counter)
{
    int st;
    char *o = run("run tests/sanit/kernels/ticket.py --check determinism --json 2>/dev/null", &st);
    ck_assert_int_eq(st, 1);
    ck_assert(strstr(o, "\"nondeterministic_elements\": 8"));
    free(o);
    o = run("run tests/sanit/kernels/ticket.py --check determinism", &st);
    ck_assert_int_eq(st, 1);
    /* reference: in order program p takes ticket p; reversed, program 7 - p */
    for (int i = 0; i < 5; i++) {
        char want[512];
        sprintf(want, "error: nondeterministic result: out[%d] differs between schedules in-order and reverse\n"
                      "  in-order     %d, written by program (%d, 0, 0) at tests/sanit/kernels/ticket.py:14:8\n"
                      "  reverse      %d, written by program (%d, 0, 0) at tests/sanit/kernels/ticket.py:14:8\n",
                i, i, i, 7 - i, 7 - i);
        ck_assert_msg(strstr(o, want), "missing:\n%s\nin:\n%s", want, o);
    }
    ck_assert(strstr(o, "... 8 elements of out differ between in-order and reverse in all"));
    free(o);
}
END_TEST

START_TEST(float_atomic_sum)
{
    int st;
    char *o = run("run tests/sanit/kernels/float_sum.py --check determinism --save x=/tmp/tritium-sanit-x.npy", &st);
    ck_assert_int_eq(st, 1);
    const char *l1 = strstr(o, "  in-order     "), *l2 = strstr(o, "  reverse      ");
    ck_assert(l1 && l2);
    double a = atof(l1 + 15), b = atof(l2 + 15);
    ck_assert(a != b);
    /* reference: the exact sum of x (double, from the saved .npy) */
    FILE *f = fopen("/tmp/tritium-sanit-x.npy", "rb");
    ck_assert_ptr_nonnull(f);
    unsigned char hdr[10];
    ck_assert_int_eq((int)fread(hdr, 1, 10, f), 10);
    int hl = hdr[8] | hdr[9] << 8;
    fseek(f, 10 + hl, SEEK_SET);
    double sum = 0;
    float v;
    int n = 0;
    while (fread(&v, 4, 1, f) == 1) { sum += v; n++; }
    fclose(f);
    remove("/tmp/tritium-sanit-x.npy");
    ck_assert_int_eq(n, 65536);
    ck_assert(fabs(a - sum) < 1e-3 && fabs(b - sum) < 1e-3);
    free(o);
}
END_TEST

START_TEST(clean_and_races)
{
    int st;
    char *o = run("run examples/vector_add.py --check determinism=4 --json 2>/dev/null", &st);
    ck_assert_int_eq(st, 0);
    ck_assert(strstr(o, "\"nondeterministic_elements\": 0"));
    free(o);
    /* a race report says whether the final values differ */
    o = run("run examples/order_bug.py", &st);
    ck_assert_int_eq(st, 1);
    ck_assert(strstr(o, "race"));
    ck_assert(strstr(o, "differs between schedules in-order and reverse"));
    free(o);
    o = run("run tests/sanit/kernels/benign_race.py", &st);
    ck_assert_int_eq(st, 1);
    ck_assert(strstr(o, "write-write race"));
    ck_assert(strstr(o, "note: the final values are the same under the reverse schedule"));
    free(o);
    o = run("run examples/vector_add.py --check determinism=1", &st);
    ck_assert_int_eq(st, 2);
    free(o);
}
END_TEST

/* ---- int overflow ------------------------------------------------------ */

START_TEST(overflow_2d_offset)
{
    int st;
    char *o = run("run tests/sanit/kernels/overflow_2d.py", &st);
    ck_assert_int_eq(st, 1);
    /* reference: row * stride with stride 2^30 in int64, and its int32 wrap */
    int64_t stride = 1073741824, exact2 = 2 * stride;
    int32_t wrapped = (int32_t)(uint32_t)(uint64_t)exact2;
    char want[256];
    sprintf(want, "  lane 0 (of 1): 2 * %lld = %lld does not fit int32; it wraps to %d\n", (long long)stride,
            (long long)exact2, wrapped);
    ck_assert_msg(strstr(o, want), "missing %s in\n%s", want, o);
    ck_assert(strstr(o, "error: int32 overflow in mul in program (2, 0, 0)\n"
                        "  tests/sanit/kernels/overflow_2d.py:16:15: off = row * stride + cols\n"
                        "   16 |     off = row * stride + cols\n"
                        "      |               ^\n"));
    ck_assert(strstr(o, "the value is used to form an address"));
    ck_assert(strstr(o, "1 integer overflow (2 lanes)"));      /* rows 2 and 3 */
    free(o);
    o = run("run tests/sanit/kernels/overflow_2d.py --json 2>/dev/null", &st);
    ck_assert(strstr(o, "\"overflows\": 1") && strstr(o, "\"overflow_lanes\": 2"));
    free(o);
    o = run("run tests/sanit/kernels/overflow_2d.py --check overflow=off", &st);
    ck_assert_int_eq(st, 1);                                  /* the wrapped addresses still fault */
    ck_assert(!strstr(o, "int32 overflow") && !strstr(o, "integer overflow"));
    free(o);
}
END_TEST

START_TEST(overflow_all_ops)
{
    const char *k = "run tests/sanit/kernels/overflow_2d.py:hash_kernel --grid 4 --arg out=empty:i32[4096] "
                    "--arg n=4096 --const BLOCK=1024";
    char cmd[512];
    int st;
    char *o = run(k, &st);                                    /* not an address: not checked by default */
    ck_assert_int_eq(st, 0);
    ck_assert(!strstr(o, "int32 overflow") && !strstr(o, "integer overflow"));
    free(o);
    sprintf(cmd, "%s --check overflow=all", k);
    o = run(cmd, &st);
    ck_assert_int_eq(st, 1);
    /* reference: offs * 1000003 > INT32_MAX, per program of 1024 lanes */
    int first_prog = -1, first_lane = -1, in_first = 0, total = 0;
    for (int p = 0; p < 4; p++)
        for (int l = 0; l < 1024; l++) {
            int64_t v = (int64_t)(p * 1024 + l) * 1000003;
            if (v <= INT32_MAX) continue;
            total++;
            if (first_prog < 0) { first_prog = p; first_lane = l; }
            if (p == first_prog) in_first++;
        }
    char want[256];
    sprintf(want, "error: int32 overflow in mul in program (%d, 0, 0)", first_prog);
    ck_assert(strstr(o, want));
    sprintf(want, "lane %d (of 1024): %d * 1000003 = %lld does not fit int32; it wraps to %d; %d lanes", first_lane,
            first_prog * 1024 + first_lane, (long long)(first_prog * 1024 + first_lane) * 1000003,
            (int32_t)(uint32_t)((uint64_t)(first_prog * 1024 + first_lane) * 1000003u), in_first);
    ck_assert_msg(strstr(o, want), "missing %s in\n%s", want, o);
    sprintf(want, "1 integer overflow (%d lanes)", total);
    ck_assert(strstr(o, want));
    ck_assert(!strstr(o, "used to form an address"));
    free(o);
    o = run("run examples/vector_add.py --check overflow=bogus", &st);
    ck_assert_int_eq(st, 2);
    free(o);
}
END_TEST

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: test_check TRITIUM\n");
        return 2;
    }
    g_tritium = argv[1];
    Suite *s = suite_create("sanit");
    TCase *tc = tcase_create("check");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, clean_kernels_are_proved);
    tcase_add_test(tc, off_by_one_mask);
    tcase_add_test(tc, two_d_rows_unchecked);
    tcase_add_test(tc, loop_mask_off_by_one);
    tcase_add_test(tc, for_all_sizes);
    tcase_add_test(tc, open_runs_the_interpreter);
    suite_add_tcase(s, tc);
    TCase *td = tcase_create("determinism");
    tcase_set_timeout(td, 120);
    tcase_add_test(td, ticket_counter);
    tcase_add_test(td, float_atomic_sum);
    tcase_add_test(td, clean_and_races);
    suite_add_tcase(s, td);
    TCase *tv = tcase_create("overflow");
    tcase_set_timeout(tv, 120);
    tcase_add_test(tv, overflow_2d_offset);
    tcase_add_test(tv, overflow_all_ops);
    suite_add_tcase(s, tv);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? 1 : 0;
}
