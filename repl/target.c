/* target.c — open `FILE.py[:KERNEL] [launch spec]`: load the file, pick the
 * kernel, merge the file's "# tritium:" line with the command line, resolve
 * the launch. Shared by every sub-command that launches a kernel. */
#include "repl.h"
#include "tritium/diag.h"

#include <ctype.h>
#include <errno.h>
#include <string.h>
#include <unistd.h>

static int terr(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int terr(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    diag_vat(DIAG_ERROR, REPL_NOPOS, fmt, ap);
    va_end(ap);
    return REPL_EXIT_INPUT;
}

/* KERNEL or KERNEL@LINE (a kernel of that name defined on that line). */
static bool ident_at_end(const char *s)
{
    if (!*s || !(isalpha((unsigned char)*s) || *s == '_')) return false;
    for (; *s && *s != '@'; s++)
        if (!(isalnum((unsigned char)*s) || *s == '_')) return false;
    if (*s == '@') {
        if (!s[1]) return false;
        for (s++; *s; s++)
            if (!isdigit((unsigned char)*s)) return false;
    }
    return true;
}

static char *dir_of(const char *path)
{
    const char *slash = strrchr(path, '/');
    if (!slash) return xstrdup(".");
    if (slash == path) return xstrdup("/");
    return xstrndup(path, (size_t)(slash - path));
}

static char *function_list(const front_module *m)
{
    strbuf b = { 0 };
    int n = front_function_count(m);
    for (int i = 0; i < n; i++) sb_printf(&b, "%s%s", i ? ", " : "", front_function_name(m, i));
    return sb_take(&b);
}

static bool has_function(const front_module *m, const char *name)
{
    return front_find_function(m, name, true) >= 0;
}

/* The command line's explicit kernel: FILE.py:KERNEL or --kernel. */
static int explicit_kernel(const char *colon_kernel, const repl_spec *cmd, const char **out)
{
    *out = colon_kernel;
    if (cmd->kernel) {
        if (colon_kernel && strcmp(colon_kernel, cmd->kernel))
            return terr("the kernel is named twice: ':%s' and --kernel %s", colon_kernel, cmd->kernel);
        *out = cmd->kernel;
    }
    return REPL_EXIT_OK;
}

int repl_target_open(repl_target *t, int argc, char *const *argv, unsigned allowed,
                     const repl_resolve_opts *o)
{
    memset(t, 0, sizeof *t);
    repl_spec_init(&t->spec);
    if (o->settings) {                 /* the command's settings, which the launch spec's join */
        tt_settings_free(&t->spec.set);
        tt_settings_copy(&t->spec.set, o->settings);
    }
    int rc = REPL_EXIT_INPUT;

    /* 1. the command line on its own, for the file name and early errors */
    repl_spec cmd;
    repl_spec_init(&cmd);
    if (!repl_spec_parse(&cmd, argc, argv, allowed | REPL_OPT_POSITIONAL, false, NULL)) goto out;
    if (cmd.npositional == 0) {
        terr("missing kernel file (FILE.py[:KERNEL])");
        goto out;
    }
    if (cmd.npositional > 1) {
        terr("unexpected argument '%s' (only one kernel file is taken)", cmd.positional[1]);
        goto out;
    }
    const char *target = cmd.positional[0];
    const char *colon = strrchr(target, ':');
    const char *colon_kernel = NULL;
    if (colon && ident_at_end(colon + 1)) {
        t->file = xstrndup(target, (size_t)(colon - target));
        colon_kernel = colon + 1;
    } else if (colon && !colon[1]) {
        terr("'%s': missing kernel name after ':'", target);
        goto out;
    } else {
        t->file = xstrdup(target);
    }
    const char *want;
    if (explicit_kernel(colon_kernel, &cmd, &want)) goto out;

    /* 2. the file */
    if (access(t->file, R_OK) != 0) {
        terr("cannot read '%s': %s", t->file, strerror(errno));
        goto out;
    }
    int before = diag_error_count();
    t->mod = front_load(t->file);
    if (!t->mod) {
        if (diag_error_count() == before) terr("%s: cannot load the kernel file", t->file);
        goto out;
    }
    if (front_function_count(t->mod) == 0) {
        terr("%s: no @triton.jit function in this file", t->file);
        goto out;
    }

    /* 3. the "# tritium:" line, unless it is about another kernel */
    const char *comment = front_launch_comment(t->mod);
    if (comment && *comment) {
        int wc;
        char **words;
        char err[128];
        if (!repl_split_words(comment, &wc, &words, err, sizeof err)) {
            terr("%s: '# tritium:' line: %s", t->file, err);
            goto out;
        }
        char *dir = dir_of(t->file);
        bool ok = repl_spec_parse(&t->spec, wc, words, REPL_OPT_LAUNCH | REPL_OPT_RUN, true, dir);
        free(dir);
        repl_words_free(wc, words);
        if (!ok) goto out;
        if (want && t->spec.kernel && strcmp(want, t->spec.kernel)) {
            tt_settings kept;          /* its launch is for another kernel: the command's settings stay */
            tt_settings_copy(&kept, o->settings ? o->settings : tt_settings_env());
            repl_spec_free(&t->spec);
            tt_settings_free(&t->spec.set);
            t->spec.set = kept;
        }
    }

    /* 4. the kernel */
    if (!want) want = t->spec.kernel;
    if (!want) {
        if (front_function_count(t->mod) != 1) {
            char *list = function_list(t->mod);
            terr("%s has %d @triton.jit functions (%s); name one as %s:KERNEL", t->file,
                 front_function_count(t->mod), list, t->file);
            free(list);
            goto out;
        }
        want = front_function_name(t->mod, 0);
    }
    if (!has_function(t->mod, want)) {
        int n = front_function_count(t->mod);
        const char **names = xmalloc((size_t)n * sizeof *names);
        for (int i = 0; i < n; i++) names[i] = front_function_name(t->mod, i);
        const char *sug = repl_suggest(want, names, n);
        char *list = function_list(t->mod);
        if (sug) terr("%s: no @triton.jit function '%s' (did you mean '%s'?)", t->file, want, sug);
        else terr("%s: no @triton.jit function '%s' (functions: %s)", t->file, want, list);
        free(list);
        free(names);
        goto out;
    }
    t->kernel = xstrdup(want);

    /* 5. the command line over the comment, then the launch */
    if (!repl_spec_parse(&t->spec, argc, argv, allowed | REPL_OPT_POSITIONAL, false, NULL)) goto out;
    for (int i = 0; i < t->spec.npaths; i++) front_add_path(t->mod, t->spec.paths[i]);
    t->nparams = front_params(t->mod, t->kernel, &t->params);
    if (t->nparams < 0) {
        terr("%s: no parameters for '%s'", t->file, t->kernel);
        goto out;
    }
    repl_resolve_opts ro = *o;
    ro.kernel = t->kernel;
    if (!repl_resolve(&t->spec, t->params, t->nparams, &ro, &t->launch)) goto out;
    t->have_launch = true;
    rc = REPL_EXIT_OK;
out:
    repl_spec_free(&cmd);
    return rc;
}

void repl_target_close(repl_target *t)
{
    if (t->have_launch) launch_free(&t->launch);
    if (t->mod) front_module_free(t->mod);
    repl_spec_free(&t->spec);
    free(t->file);
    free(t->kernel);
    memset(t, 0, sizeof *t);
}

ir_func *repl_target_compile(repl_target *t)
{
    int before = diag_error_count();
    ir_func *fn = front_compile(t->mod, t->kernel, &t->launch);
    if (!fn && diag_error_count() == before)
        diag_error(REPL_NOPOS, "%s: cannot compile kernel '%s'", t->file, t->kernel);
    return fn;
}
