/* test_spec.c — repl_spec_parse: option forms, value classification,
 * overrides, and the exact text of every error. */
#include <string.h>
#include "trepl.h"

#define ALL (REPL_OPT_LAUNCH | REPL_OPT_RUN)

static const repl_value *val(const repl_spec *s, const char *name)
{
    for (int i = 0; i < s->nvals; i++)
        if (!strcmp(s->vals[i].name, name)) return &s->vals[i];
    return NULL;
}

/* Parse `line` expecting failure; return the diagnostics. */
static const char *fails(const char *line, unsigned allowed, bool comment)
{
    repl_spec s;
    repl_spec_init(&s);
    cap_start();
    bool ok = parse_line(&s, line, allowed, comment, NULL);
    const char *msg = cap_end();
    repl_spec_free(&s);
    ck_assert_msg(!ok, "'%s' parsed", line);
    return msg;
}

START_TEST(generators)
{
    repl_spec s;
    repl_spec_init(&s);
    ck_assert(parse_line(&s, "--arg x=randn:f32[1024,512] --arg=y=full(2.5):f16[64] "
                             "--arg z='arange:i64[ 8 ]' --arg e=empty:bf16[] --arg w=full(-inf):f64[2,2,2,2]",
                         ALL, false, NULL));
    ck_assert_int_eq(s.nvals, 5);
    const repl_value *x = val(&s, "x");
    ck_assert_int_eq(x->kind, VAL_GEN);
    ck_assert_str_eq(x->gen, "randn");
    ck_assert_int_eq(x->dtype, TT_F32);
    ck_assert_int_eq(x->rank, 2);
    ck_assert_str_eq(x->dims[0], "1024");
    ck_assert_str_eq(x->dims[1], "512");
    ck_assert_ptr_null(x->fill);
    const repl_value *y = val(&s, "y");
    ck_assert_str_eq(y->gen, "full");
    ck_assert_str_eq(y->fill, "2.5");
    ck_assert_int_eq(y->dtype, TT_F16);
    ck_assert_int_eq(y->rank, 1);
    ck_assert_str_eq(val(&s, "z")->dims[0], "8");
    ck_assert_int_eq(val(&s, "z")->dtype, TT_I64);
    ck_assert_int_eq(val(&s, "e")->rank, 0);
    ck_assert_int_eq(val(&s, "e")->dtype, TT_BF16);
    ck_assert_int_eq(val(&s, "w")->rank, 4);
    ck_assert_str_eq(val(&s, "w")->fill, "-inf");
    repl_spec_free(&s);
}
END_TEST

START_TEST(every_dtype)
{
    static const struct { const char *name; tt_dtype d; } want[] = {
        { "f16", TT_F16 }, { "bf16", TT_BF16 }, { "f32", TT_F32 }, { "f64", TT_F64 },
        { "i8", TT_I8 }, { "i16", TT_I16 }, { "i32", TT_I32 }, { "i64", TT_I64 },
        { "u8", TT_U8 }, { "u16", TT_U16 }, { "u32", TT_U32 }, { "u64", TT_U64 }, { "bool", TT_BOOL },
        { "float16", TT_F16 }, { "fp32", TT_F32 }, { "int32", TT_I32 }, { "uint8", TT_U8 },
    };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        repl_spec s;
        repl_spec_init(&s);
        char line[64];
        snprintf(line, sizeof line, "--arg t=zeros:%s[3]", want[i].name);
        ck_assert_msg(parse_line(&s, line, ALL, false, NULL), "%s", line);
        ck_assert_int_eq(s.vals[0].dtype, want[i].d);
        repl_spec_free(&s);
    }
}
END_TEST

START_TEST(shape_expressions)
{
    repl_spec s;
    repl_spec_init(&s);
    ck_assert(parse_line(&s, "--arg a='rand:f32[M, cdiv(K, 2) * 2]' --arg b='ones:u8[x.shape[0],]'",
                         ALL, false, NULL));
    const repl_value *a = val(&s, "a");
    ck_assert_int_eq(a->rank, 2);
    ck_assert_str_eq(a->dims[0], "M");
    ck_assert_str_eq(a->dims[1], "cdiv(K, 2) * 2");
    const repl_value *b = val(&s, "b");
    ck_assert_int_eq(b->rank, 1);
    ck_assert_str_eq(b->dims[0], "x.shape[0]");
    repl_spec_free(&s);
}
END_TEST

START_TEST(npy_and_exprs)
{
    repl_spec s;
    repl_spec_init(&s);
    ck_assert(parse_line(&s, "--arg x=input.npy --arg y=@data/w.bin --arg n=numel(x) --arg stride='x.stride(0)' "
                             "--arg m=max(n,4) --arg eps=1e-5 --arg=seed=42",
                         ALL, false, NULL));
    ck_assert_int_eq(val(&s, "x")->kind, VAL_NPY);
    ck_assert_str_eq(val(&s, "x")->path, "input.npy");
    ck_assert_int_eq(val(&s, "y")->kind, VAL_NPY);
    ck_assert_str_eq(val(&s, "y")->path, "data/w.bin");
    ck_assert_int_eq(val(&s, "n")->kind, VAL_EXPR);
    ck_assert_str_eq(val(&s, "n")->text, "numel(x)");
    ck_assert_int_eq(val(&s, "stride")->kind, VAL_EXPR);
    ck_assert_int_eq(val(&s, "m")->kind, VAL_EXPR);   /* a call, not a generator */
    ck_assert_str_eq(val(&s, "eps")->text, "1e-5");
    ck_assert_str_eq(val(&s, "seed")->text, "42");
    repl_spec_free(&s);
    /* relative paths of the '# tritium:' line are relative to the kernel file */
    repl_spec_init(&s);
    ck_assert(parse_line(&s, "--arg x=in.npy --arg y=@/abs/y.npy --save o=out.npy --expect o=ref.npy", ALL, true,
                         "kernels"));
    ck_assert_str_eq(val(&s, "x")->path, "kernels/in.npy");
    ck_assert_str_eq(val(&s, "y")->path, "/abs/y.npy");
    ck_assert_str_eq(s.saves[0].path, "kernels/out.npy");
    ck_assert_str_eq(s.expects[0].path, "kernels/ref.npy");
    repl_spec_free(&s);
}
END_TEST

START_TEST(consts_and_options)
{
    repl_spec s;
    repl_spec_init(&s);
    ck_assert(parse_line(&s, "--const BLOCK=1024 --const DT=tl.float16 --const ACT=relu --grid 4,8 --num-warps=8 "
                             "--seed 0x10 --json --schedule random:7 --threads 3 --numerics gpu --kernel k2",
                         ALL, false, NULL));
    ck_assert(val(&s, "BLOCK")->is_const);
    ck_assert_int_eq(val(&s, "BLOCK")->kind, VAL_EXPR);
    ck_assert_str_eq(val(&s, "DT")->text, "tl.float16");
    ck_assert_str_eq(s.grid, "4,8");
    ck_assert_int_eq(s.set.num_warps, 8);
    ck_assert(tt_settings_given(&s.set, TT_SET_SEED) && s.set.seed == 16);
    ck_assert(s.set.json);
    ck_assert_int_eq(s.set.schedule.v, SCHED_RANDOM);
    ck_assert(s.set.schedule.has_n && s.set.schedule.n == 7);
    ck_assert_uint_eq(repl_sched_seed(&s.set, 99), 7);
    ck_assert_int_eq(s.set.threads, 3);
    ck_assert_int_eq(s.set.numerics, NUMERICS_FAST);
    ck_assert_str_eq(s.kernel, "k2");
    repl_spec_free(&s);
    /* one numerics mode, one name: `fast`, with `gpu` as its alias */
    repl_spec_init(&s);
    ck_assert(parse_line(&s, "--numerics fast", ALL, false, NULL));
    ck_assert_int_eq(s.set.numerics, NUMERICS_FAST);
    ck_assert_str_eq(tt_numerics_name((tt_numerics)s.set.numerics), "fast");
    ck_assert(parse_line(&s, "--numerics ieee", ALL, false, NULL));
    ck_assert_int_eq(s.set.numerics, NUMERICS_IEEE);
    ck_assert_str_eq(tt_numerics_name((tt_numerics)s.set.numerics), "ieee");
    /* --schedule-seed, and the launch's seed when neither gives one */
    ck_assert(parse_line(&s, "--schedule random --schedule-seed 5", ALL, false, NULL));
    ck_assert_uint_eq(repl_sched_seed(&s.set, 99), 5);
    repl_spec_free(&s);
    repl_spec_init(&s);
    ck_assert(parse_line(&s, "--schedule random", ALL, false, NULL));
    ck_assert_uint_eq(repl_sched_seed(&s.set, 99), 99);
    repl_spec_free(&s);
}
END_TEST

/* One option table: the debugger's `set` commands and repl_settings_take
 * read which options take a value and what a later one replaces from it. */
START_TEST(option_table)
{
    static const char *const valued[] = { "--grid", "--arg", "--const", "--num-warps", "--seed", "--save",
                                          "--expect", "--kernel", "--path", "--schedule", "--threads", "--numerics" };
    for (size_t i = 0; i < sizeof valued / sizeof valued[0]; i++) {
        const repl_option *o = repl_spec_option(valued[i]);
        ck_assert_ptr_nonnull(o);
        ck_assert_str_eq(o->name, valued[i]);
        ck_assert(o->takes_value);
    }
    ck_assert(!repl_spec_option("--json")->takes_value);
    ck_assert_str_eq(repl_spec_option("--arg=x=randn:f32[4]")->name, "--arg");
    ck_assert_int_eq(repl_spec_option("--arg")->key, REPL_KEY_PARAM);
    ck_assert_int_eq(repl_spec_option("--const")->key, REPL_KEY_PARAM);
    ck_assert_int_eq(repl_spec_option("--save")->key, REPL_KEY_OPTION_PARAM);
    ck_assert_int_eq(repl_spec_option("--grid")->key, REPL_KEY_OPTION);
    ck_assert_ptr_null(repl_spec_option("--ar"));
    ck_assert_ptr_null(repl_spec_option("--device"));   /* a GPU option, not the launch spec's */
}
END_TEST

START_TEST(expect_tolerances)
{
    repl_spec s;
    repl_spec_init(&s);
    ck_assert(parse_line(&s, "--expect out=ref.npy,rtol=1e-3,atol=0.5 --expect b=b.npy --expect c=c.npy,atol=2 "
                             "--save out=o.npy",
                         ALL, false, NULL));
    ck_assert_int_eq(s.nexpects, 3);
    ck_assert_str_eq(s.expects[0].path, "ref.npy");
    ck_assert(s.expects[0].has_rtol && s.expects[0].rtol == 1e-3);
    ck_assert(s.expects[0].has_atol && s.expects[0].atol == 0.5);
    ck_assert(!s.expects[1].has_rtol && !s.expects[1].has_atol);
    ck_assert(!s.expects[2].has_rtol && s.expects[2].has_atol && s.expects[2].atol == 2);
    ck_assert_int_eq(s.nsaves, 1);
    ck_assert_str_eq(s.saves[0].path, "o.npy");
    repl_spec_free(&s);
}
END_TEST

START_TEST(comment_then_command_line)
{
    repl_spec s;
    repl_spec_init(&s);
    ck_assert(parse_line(&s, "--grid 'cdiv(n, B)' --arg x=randn:f32[64] --arg n=numel(x) --const B=16 --seed 3",
                         ALL, true, "."));
    ck_assert(parse_line(&s, "--arg x=ones:f16[128] --grid 2 --const B=32", ALL, false, NULL));
    ck_assert_int_eq(s.nvals, 3);
    ck_assert_str_eq(s.grid, "2");
    ck_assert(!s.grid_from_comment);
    const repl_value *x = val(&s, "x");
    ck_assert_str_eq(x->gen, "ones");
    ck_assert_int_eq(x->dtype, TT_F16);
    ck_assert(!x->from_comment);
    ck_assert(val(&s, "n")->from_comment);
    ck_assert_str_eq(val(&s, "B")->text, "32");
    ck_assert(tt_settings_given(&s.set, TT_SET_SEED) && s.set.seed == 3);   /* kept from the comment */
    /* a name given with --arg in the comment may be replaced by --const */
    ck_assert(parse_line(&s, "--const n=5", ALL, false, NULL));
    ck_assert(val(&s, "n")->is_const && !val(&s, "n")->from_comment);
    ck_assert_str_eq(val(&s, "n")->text, "5");
    repl_spec_free(&s);
}
END_TEST

START_TEST(override_across_option_kinds)
{
    repl_spec s;
    repl_spec_init(&s);
    ck_assert(parse_line(&s, "--arg B=16", ALL, true, "."));
    ck_assert(parse_line(&s, "--const B=32", ALL, false, NULL));
    ck_assert_int_eq(s.nvals, 1);
    ck_assert(s.vals[0].is_const);
    ck_assert_str_eq(s.vals[0].text, "32");
    repl_spec_free(&s);
}
END_TEST

START_TEST(positional_words)
{
    repl_spec s;
    repl_spec_init(&s);
    ck_assert(parse_line(&s, "k.py:add --grid 1 extra", ALL | REPL_OPT_POSITIONAL, false, NULL));
    ck_assert_int_eq(s.npositional, 2);
    ck_assert_str_eq(s.positional[0], "k.py:add");
    ck_assert_str_eq(s.positional[1], "extra");
    repl_spec_free(&s);
}
END_TEST

START_TEST(error_messages)
{
    static const struct { const char *line; unsigned allowed; bool comment; const char *msg; } cases[] = {
        { "--arg x=randn:f33[4]", ALL, false,
          "tritium: error: --arg x: unknown dtype 'f33' (expected one of f16, bf16, f32, f64, i8, i16, i32, i64, "
          "u8, u16, u32, u64, bool, f8e4nv, f8e5, f8e4b15, f8e4b8, f8e5b16)\n" },
        { "--arg x=randm:f32[4]", ALL, false,
          "tritium: error: --arg x: unknown tensor generator 'randm' (did you mean 'randn'?)\n" },
        { "--arg x=gauss:f32[4]", ALL, false,
          "tritium: error: --arg x: unknown tensor generator 'gauss' (expected one of randn, rand, zeros, ones, "
          "empty, arange, full(V))\n" },
        { "--arg x=randn:f32", ALL, false,
          "tritium: error: --arg x: expected a shape in brackets after the dtype, as in randn:f32[1024]\n" },
        { "--arg x=randn:[4]", ALL, false,
          "tritium: error: --arg x: missing dtype after 'randn:' (expected one of f16, bf16, f32, f64, i8, i16, "
          "i32, i64, u8, u16, u32, u64, bool, f8e4nv, f8e5, f8e4b15, f8e4b8, f8e5b16)\n" },
        { "--arg x=randn:f32[4", ALL, false, "tritium: error: --arg x: missing ']' at the end of the shape\n" },
        { "--arg x=randn:f32[4]x", ALL, false, "tritium: error: --arg x: unexpected text 'x' after the shape\n" },
        { "--arg x=randn:f32[1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,2]", ALL, false,
          "tritium: error: --arg x: shape has 33 dimensions, at most 32 are supported\n" },
        { "--arg x=zeros:f32[4,,5]", ALL, false, "tritium: error: --arg x: empty dimension 1 in the shape\n" },
        { "--arg x=full:f32[4]", ALL, false,
          "tritium: error: --arg x: 'full' needs a fill value, as in full(2.5):f32[64]\n" },
        { "--arg x=full():f32[4]", ALL, false,
          "tritium: error: --arg x: full() takes one fill value, as in full(2.5)\n" },
        { "--arg x=zeros(1):f32[4]", ALL, false, "tritium: error: --arg x: 'zeros' takes no value in parentheses\n" },
        { "--arg x", ALL, false, "tritium: error: --arg 'x': expected NAME=SPEC\n" },
        { "--arg 1x=3", ALL, false, "tritium: error: --arg '1x=3': '1x' is not a parameter name\n" },
        { "--arg x=", ALL, false, "tritium: error: --arg x: empty value\n" },
        { "--arg x=@", ALL, false, "tritium: error: --arg x: missing file name after '@'\n" },
        { "--const x=randn:f32[4]", ALL, false, "tritium: error: --const x: a constexpr value cannot be a tensor\n" },
        { "--arg x=1 --arg x=2", ALL, false, "tritium: error: --arg x: a value for 'x' was already given\n" },
        { "--grid 1 --grid 2", ALL, false, "tritium: error: --grid was given twice\n" },
        { "--gird 4", ALL, false, "tritium: error: unknown option '--gird' (did you mean '--grid'?)\n" },
        { "--grid=4 --verbose", ALL, false, "tritium: error: unknown option '--verbose'\n" },
        { "--json", REPL_OPT_LAUNCH, false, "tritium: error: option '--json' cannot be used here\n" },
        { "--json=1", ALL, false, "tritium: error: option '--json' takes no value\n" },
        { "--grid", ALL, false, "tritium: error: option '--grid' needs a value\n" },
        /* settings (settings.def): the option, the value, what was expected */
        { "--num-warps 3", ALL, false, "tritium: error: --num-warps 3: expected one of 1, 2, 4, 8, 16, 32\n" },
        { "--num-warps 64", ALL, false, "tritium: error: --num-warps 64: expected one of 1, 2, 4, 8, 16, 32\n" },
        { "--seed -1", ALL, false, "tritium: error: --seed -1: expected a non-negative integer\n" },
        { "--schedule shuffled", ALL, false,
          "tritium: error: --schedule shuffled: expected one of in-order, reverse, random[:SEED], parallel\n" },
        { "--schedule random:x", ALL, false,
          "tritium: error: --schedule random:x: expected random:SEED with a non-negative integer SEED\n" },
        { "--threads many", ALL, false, "tritium: error: --threads many: expected an integer from 0 to 4096\n" },
        { "--numerics fastest", ALL, false, "tritium: error: --numerics fastest: expected one of ieee, fast, gpu\n" },
        { "--device gpu", ALL, false, "tritium: error: unknown option '--device'\n" },
        { "--expect o=r.npy,rtol=x", ALL, false,
          "tritium: error: --expect o: rtol: expected a non-negative number, got 'x'\n" },
        { "--expect o=r.npy,atol=-1", ALL, false,
          "tritium: error: --expect o: atol: expected a non-negative number, got '-1'\n" },
        { "--expect o=r.npy,rtol=1,tol=2", ALL, false,
          "tritium: error: --expect o: unknown setting 'tol' (expected rtol=R or atol=A)\n" },
        { "--save o=", ALL, false, "tritium: error: --save o: missing file name\n" },
        { "--save o=a.npy --save o=b.npy", ALL, false, "tritium: error: --save o: 'o' was already given\n" },
        { "--kernel 9k", ALL, false, "tritium: error: --kernel: '9k' is not a function name\n" },
        { "file.py", ALL, false, "tritium: error: unexpected argument 'file.py'\n" },
        { "--arg x=randn:f33[4]", ALL, true,
          "tritium: error: --arg x: unknown dtype 'f33' (expected one of f16, bf16, f32, f64, i8, i16, i32, i64, "
          "u8, u16, u32, u64, bool, f8e4nv, f8e5, f8e4b15, f8e4b8, f8e5b16) (in the file's '# tritium:' line)\n" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const char *msg = fails(cases[i].line, cases[i].allowed, cases[i].comment);
        ck_assert_msg(!strcmp(msg, cases[i].msg), "'%s':\n got  %s want %s", cases[i].line, msg, cases[i].msg);
    }
}
END_TEST

TCase *spec_tcase(void)
{
    TCase *tc = tcase_create("spec");
    tcase_add_test(tc, generators);
    tcase_add_test(tc, every_dtype);
    tcase_add_test(tc, shape_expressions);
    tcase_add_test(tc, npy_and_exprs);
    tcase_add_test(tc, consts_and_options);
    tcase_add_test(tc, expect_tolerances);
    tcase_add_test(tc, option_table);
    tcase_add_test(tc, comment_then_command_line);
    tcase_add_test(tc, override_across_option_kinds);
    tcase_add_test(tc, positional_words);
    tcase_add_test(tc, error_messages);
    return tc;
}
