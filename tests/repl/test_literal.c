/* test_literal.c — shell word splitting, Python number literals, comma
 * splitting and edit distances, against hand-worked expectations. */
#include <math.h>
#include <string.h>
#include "trepl.h"

START_TEST(split_words_quotes)
{
    int argc;
    char **argv;
    char err[64];
    ck_assert(repl_split_words("  --grid 'cdiv(n, B)'  --arg \"x=a b\" c\\ d e\"f\"'g' \"q\\\"t\\\\\" ",
                               &argc, &argv, err, sizeof err));
    ck_assert_int_eq(argc, 7);
    ck_assert_str_eq(argv[0], "--grid");
    ck_assert_str_eq(argv[1], "cdiv(n, B)");
    ck_assert_str_eq(argv[2], "--arg");
    ck_assert_str_eq(argv[3], "x=a b");
    ck_assert_str_eq(argv[4], "c d");
    ck_assert_str_eq(argv[5], "efg");
    ck_assert_str_eq(argv[6], "q\"t\\");
    ck_assert_ptr_null(argv[7]);
    repl_words_free(argc, argv);
    /* backslash is literal inside single quotes (checked separately) */
    ck_assert(repl_split_words("'a\\b' \"\"", &argc, &argv, err, sizeof err));
    ck_assert_int_eq(argc, 2);
    ck_assert_str_eq(argv[0], "a\\b");
    ck_assert_str_eq(argv[1], "");
    repl_words_free(argc, argv);
    ck_assert(repl_split_words("   ", &argc, &argv, err, sizeof err));
    ck_assert_int_eq(argc, 0);
    repl_words_free(argc, argv);
}
END_TEST

START_TEST(split_words_errors)
{
    int argc;
    char **argv;
    char err[64];
    ck_assert(!repl_split_words("--arg 'x=1", &argc, &argv, err, sizeof err));
    ck_assert_str_eq(err, "unterminated ' quote");
    ck_assert(!repl_split_words("a \"b", &argc, &argv, err, sizeof err));
    ck_assert_str_eq(err, "unterminated \" quote");
    ck_assert(!repl_split_words("a b\\", &argc, &argv, err, sizeof err));
    ck_assert_str_eq(err, "trailing backslash");
}
END_TEST

START_TEST(parse_int_forms)
{
    int64_t v;
    bool u;
    ck_assert(repl_parse_int("42", &v, &u) && v == 42 && !u);
    ck_assert(repl_parse_int("-7", &v, &u) && v == -7);
    ck_assert(repl_parse_int("+7", &v, &u) && v == 7);
    ck_assert(repl_parse_int("0x1F", &v, &u) && v == 31);
    ck_assert(repl_parse_int("0o17", &v, &u) && v == 15);
    ck_assert(repl_parse_int("0b101", &v, &u) && v == 5);
    ck_assert(repl_parse_int("1_000_000", &v, &u) && v == 1000000);
    ck_assert(repl_parse_int("0x_ff", &v, &u) && v == 255);
    ck_assert(repl_parse_int("0", &v, &u) && v == 0);
    ck_assert(repl_parse_int("00", &v, &u) && v == 0);
    ck_assert(repl_parse_int("9223372036854775807", &v, &u) && v == INT64_MAX && !u);
    ck_assert(repl_parse_int("-9223372036854775808", &v, &u) && v == INT64_MIN && !u);
    ck_assert(repl_parse_int("9223372036854775808", &v, &u) && u && (uint64_t)v == UINT64_C(9223372036854775808));
    ck_assert(repl_parse_int("18446744073709551615", &v, &u) && u && (uint64_t)v == UINT64_MAX);
    ck_assert(!repl_parse_int("18446744073709551616", &v, &u));
    ck_assert(!repl_parse_int("-9223372036854775809", &v, &u));
    ck_assert(!repl_parse_int("007", &v, &u));        /* Python rejects leading zeros */
    ck_assert(!repl_parse_int("1__0", &v, &u));
    ck_assert(!repl_parse_int("10_", &v, &u));
    ck_assert(!repl_parse_int("_1", &v, &u));
    ck_assert(!repl_parse_int("0x", &v, &u));
    ck_assert(!repl_parse_int("0b2", &v, &u));
    ck_assert(!repl_parse_int("1.0", &v, &u));
    ck_assert(!repl_parse_int("", &v, &u));
    ck_assert(!repl_parse_int("-", &v, &u));
    ck_assert(!repl_parse_int("12a", &v, &u));
}
END_TEST

START_TEST(parse_float_forms)
{
    double d;
    ck_assert(repl_parse_float("1e-5", &d) && d == 1e-5);
    ck_assert(repl_parse_float("2.5", &d) && d == 2.5);
    ck_assert(repl_parse_float("-.5", &d) && d == -0.5);
    ck_assert(repl_parse_float("3.", &d) && d == 3.0);
    ck_assert(repl_parse_float("1_000.5", &d) && d == 1000.5);
    ck_assert(repl_parse_float("7", &d) && d == 7.0);
    ck_assert(repl_parse_float("1E+3", &d) && d == 1000.0);
    ck_assert(repl_parse_float("inf", &d) && isinf(d) && d > 0);
    ck_assert(repl_parse_float("-inf", &d) && isinf(d) && d < 0);
    ck_assert(repl_parse_float("nan", &d) && isnan(d));
    ck_assert(repl_parse_float("1e999", &d) && isinf(d));
    ck_assert(!repl_parse_float(".", &d));
    ck_assert(!repl_parse_float("e5", &d));
    ck_assert(!repl_parse_float("1e", &d));
    ck_assert(!repl_parse_float("0x10", &d));
    ck_assert(!repl_parse_float("1.5f", &d));
    ck_assert(!repl_parse_float("1__0.0", &d));
    ck_assert(!repl_parse_float("", &d));
}
END_TEST

START_TEST(split_commas)
{
    char **p;
    int n = repl_split_commas(" cdiv(M, 2) , [1, 2], 'a,b' ,x", &p);
    ck_assert_int_eq(n, 4);
    ck_assert_str_eq(p[0], "cdiv(M, 2)");
    ck_assert_str_eq(p[1], "[1, 2]");
    ck_assert_str_eq(p[2], "'a,b'");
    ck_assert_str_eq(p[3], "x");
    repl_free_parts(n, p);
    n = repl_split_commas("4,", &p);
    ck_assert_int_eq(n, 1);
    ck_assert_str_eq(p[0], "4");
    repl_free_parts(n, p);
    n = repl_split_commas("", &p);
    ck_assert_int_eq(n, 1);
    ck_assert_str_eq(p[0], "");
    repl_free_parts(n, p);
    n = repl_split_commas("1,,2", &p);
    ck_assert_int_eq(n, 3);
    ck_assert_str_eq(p[1], "");
    repl_free_parts(n, p);
}
END_TEST

START_TEST(edit_distance)
{
    ck_assert_int_eq(repl_edit_distance("kitten", "sitting"), 3);
    ck_assert_int_eq(repl_edit_distance("", "abc"), 3);
    ck_assert_int_eq(repl_edit_distance("--gird", "--grid"), 2);
    ck_assert_int_eq(repl_edit_distance("same", "same"), 0);
    const char *c[] = { "--grid", "--arg", "--const", "--seed" };
    ck_assert_str_eq(repl_suggest("--gird", c, 4), "--grid");
    ck_assert_str_eq(repl_suggest("--consts", c, 4), "--const");
    ck_assert_ptr_null(repl_suggest("--verbose", c, 4));
}
END_TEST

TCase *literal_tcase(void)
{
    TCase *tc = tcase_create("literal");
    tcase_add_test(tc, split_words_quotes);
    tcase_add_test(tc, split_words_errors);
    tcase_add_test(tc, parse_int_forms);
    tcase_add_test(tc, parse_float_forms);
    tcase_add_test(tc, split_commas);
    tcase_add_test(tc, edit_distance);
    return tc;
}
