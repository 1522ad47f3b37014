/* test_random.c — tl.randint / tl.rand / tl.randn (the prelude's Philox,
 * language/random.py) run in the interpreter and compared with Random123's
 * philox4x32-10, the independent reference the semantics cite (§2.12). */
#include "tfront.h"
#include "tritium/interp.h"

#include <math.h>
#include <Random123/philox.h>

static const char src[] =
    "import triton\n"
    "import triton.language as tl\n"
    "@triton.jit\n"
    "def k(OI, OF, ON, seed, N: tl.constexpr):\n"
    "    offs = tl.arange(0, N)\n"
    "    tl.store(OI + offs, tl.randint(seed, offs))\n"
    "    tl.store(OF + offs, tl.rand(seed, offs))\n"
    "    tl.store(ON + offs, tl.randn(seed, offs))\n";

/* run k with the given seed; out tensors in l */
static void run(int64_t seed, launch *l)
{
    char spec[256];
    snprintf(spec, sizeof spec, "OI:*u32[256] OF:*f32[256] ON:*f32[256] seed:i32=%lld N=256", (long long)seed);
    mk_launch(l, spec);
    front_module *m = front_load_text("k.py", src);
    ck_assert_ptr_nonnull(m);
    ir_func *f = front_compile(m, "k", l);
    ck_assert_ptr_nonnull(f);
    interp_options o;
    interp_options_default(&o);
    interp_session *s = interp_session_new(f, l, &o);
    ck_assert_ptr_nonnull(s);
    ck_assert_int_eq(interp_run_launch(s), 0);
    interp_stats st;
    interp_get_stats(s, &st);
    ck_assert_int_eq(st.faults, 0);
    interp_session_free(s);
    ir_func_free(f);
    front_module_free(m);
}

static const tt_tensor *arg(const launch *l, const char *name)
{
    for (int i = 0; i < l->nargs; i++)
        if (!strcmp(l->args[i].name, name)) return l->args[i].tensor;
    ck_abort_msg("no argument %s", name);
    return NULL;
}

/* uint_to_uniform_float of random.py, written from §2.12 */
static float uniform(uint32_t u)
{
    int32_t x = (int32_t)u;
    if (x < 0) x = -x - 1;
    return (float)x * 4.6566127342e-10f;
}

static void check_seed(int64_t seed)
{
    launch l;
    run(seed, &l);
    const uint32_t *oi = arg(&l, "OI")->data;
    const float *of = arg(&l, "OF")->data, *on = arg(&l, "ON")->data;
    /* the key is the seed sign-extended to 64 bits (seed.to(tl.uint64)) */
    uint64_t s64 = (uint64_t)seed;
    for (uint32_t i = 0; i < 256; i++) {
        philox4x32_ctr_t c = { { i, 0, 0, 0 } };
        philox4x32_key_t k = { { (uint32_t)s64, (uint32_t)(s64 >> 32) } };
        philox4x32_ctr_t r = philox4x32_R(10, c, k);
        ck_assert_msg(oi[i] == r.v[0], "randint seed %lld offset %u: got %#x, Random123 %#x", (long long)seed, i, oi[i], r.v[0]);
        ck_assert_msg(of[i] == uniform(r.v[0]), "rand seed %lld offset %u: got %.9g want %.9g", (long long)seed, i, of[i], uniform(r.v[0]));
        ck_assert(of[i] >= 0.0f && of[i] < 1.0f);
        float u1 = fmaxf(1.0e-7f, uniform(r.v[0])), u2 = uniform(r.v[1]);
        double n = sqrt(-2.0 * log((double)u1)) * cos(6.283185307179586 * (double)u2);
        ck_assert_msg(fabs(on[i] - n) <= 1e-5 * (1 + fabs(n)), "randn seed %lld offset %u: got %.9g want %.9g", (long long)seed, i, on[i], n);
    }
    launch_free(&l);
}

START_TEST(random_matches_random123)
{
    check_seed(0);
    check_seed(123);
    check_seed(-7);   /* a negative seed sets the high key word to 0xffffffff */
    check_seed(0x7fffffff);
}
END_TEST

TCase *tc_random(void)
{
    TCase *tc = tcase_create("random");
    tcase_add_test(tc, random_matches_random123);
    return tc;
}
