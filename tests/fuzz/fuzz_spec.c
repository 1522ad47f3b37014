/* fuzz_spec.c — libFuzzer harness for the launch-spec parser and resolver
 * (repl/spec.c, words.c, literal.c, resolve.c) with a fixed kernel
 * parameter list. Never touches the file system: .npy arguments are refused
 * (no_files) and --save/--expect paths are only parsed.
 *
 * Input: the first byte picks the mode, the rest is the text.
 *   mode & 1: the text is a "# tritium:" line split like a shell
 *             (repl_split_words); otherwise words are separated by NULs when
 *             the text has any, else by whitespace.
 *   mode & 2: the first half of the words is parsed as a comment line, the
 *             rest as a command line overriding it.
 *   mode & 4: a missing --grid is an error (tritium run) or not (tritium ir).
 *   mode & 8: types only (tensors not generated). */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include "repl.h"
#include "tritium/diag.h"

/* vector_add-like kernel plus a typed scalar and a few constexprs */
static const front_param params[] = {
    { .name = "x_ptr" }, { .name = "y_ptr" }, { .name = "out_ptr" }, { .name = "n" },
    { .name = "eps", .annotated_dtype = true, .annot = TT_F32 },
    { .name = "m", .annotated_dtype = true, .annot = TT_I64 },
    { .name = "BLOCK", .is_constexpr = true, .has_default = true, .def = { .kind = CONST_INT, .i = 128 } },
    { .name = "DT", .is_constexpr = true },
    { .name = "ACT", .is_constexpr = true, .has_default = true, .def = { .kind = CONST_STR, .s = "relu" } },
};

static int split_plain(const char *text, size_t len, char ***out)
{
    bool nul = memchr(text, 0, len) != NULL;
    int n = 0, cap = 8;
    char **v = xmalloc((size_t)cap * sizeof *v);
    size_t i = 0;
    while (i < len) {
        size_t j = i;
        if (nul) while (j < len && text[j]) j++;
        else while (j < len && !strchr(" \t\n\r", text[j])) j++;
        if (j > i || nul) {
            if (n + 2 > cap) v = xrealloc(v, (size_t)(cap *= 2) * sizeof *v);
            v[n++] = xstrndup(text + i, j - i);
        }
        i = j + 1;
    }
    v[n] = NULL;
    *out = v;
    return n;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static FILE *devnull;
    if (!devnull) devnull = fopen("/dev/null", "w");
    diag_set_stream(devnull);
    if (size < 1 || size > 4096) return 0;
    unsigned mode = data[0];
    /* the words are C strings: text up to the first NUL in shell mode */
    char *text = xstrndup((const char *)data + 1, size - 1);
    int argc;
    char **argv;
    char err[64];
    if (mode & 1) {
        if (!repl_split_words(text, &argc, &argv, err, sizeof err)) { free(text); return 0; }
    } else {
        argc = split_plain((const char *)data + 1, size - 1, &argv);
    }
    repl_spec s;
    repl_spec_init(&s);
    int half = mode & 2 ? argc / 2 : 0;
    bool ok = repl_spec_parse(&s, half, argv, REPL_OPT_LAUNCH | REPL_OPT_RUN, true, "kernels") &&
              repl_spec_parse(&s, argc - half, argv + half, REPL_OPT_LAUNCH | REPL_OPT_RUN | REPL_OPT_POSITIONAL,
                              false, NULL);
    if (ok) {
        repl_resolve_opts o = { .kernel = "fuzz", .no_files = true, .need_grid = (mode & 4) != 0,
                                .types_only = (mode & 8) != 0, .max_numel = 1 << 10 };
        launch l;
        if (repl_resolve(&s, params, (int)(sizeof params / sizeof params[0]), &o, &l)) {
            /* the launch must be well formed */
            for (int i = 0; i < l.nargs; i++)
                if (l.args[i].kind == ARG_TENSOR && (!l.args[i].tensor || !l.args[i].tensor->data)) __builtin_trap();
            if (l.nargs != 6) __builtin_trap();
            launch_free(&l);
        }
    }
    repl_spec_free(&s);
    repl_words_free(argc, argv);
    free(text);
    return 0;
}
