/* settings_args.c — take a sub-command's settings (settings.def rows it
 * accepts, --device, --arch, --rtol, --check, --for-all, ...) out of argv
 * before the launch spec is parsed: one loop for every command. */
#include "repl.h"
#include "tritium/diag.h"

#include <stdarg.h>
#include <string.h>

static bool fail(char **rest, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static bool fail(char **rest, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    diag_vat(DIAG_ERROR, REPL_NOPOS, fmt, ap);
    va_end(ap);
    free(rest);
    return false;
}

bool repl_settings_take(int argc, char *const *argv, unsigned cmd, bool spec_rows, tt_settings *s, int *rargc,
                        char ***rargv)
{
    *rargc = 0;                        /* defined on failure too: callers free *rargv */
    *rargv = NULL;
    char **rest = xcalloc((size_t)argc + 1, sizeof *rest);
    int nr = 0;
    for (int i = 0; i < argc; i++) {
        const char *w = argv[i], *val = NULL;
        int id = w[0] == '-' ? tt_setting_by_flag(w, cmd, &val) : -1;
        if (id >= 0 && !spec_rows && repl_spec_option(w)) id = -1;      /* the launch spec's */
        if (id < 0) {
            rest[nr++] = (char *)w;
            /* the value of a launch-spec option is never one of ours */
            const repl_option *so = strchr(w, '=') ? NULL : repl_spec_option(w);
            if (so && so->takes_value && i + 1 < argc) rest[nr++] = argv[++i];
            continue;
        }
        const tt_setting_info *r = tt_setting_row((tt_setting_id)id);
        int n = (int)(strchr(w, '=') ? (size_t)(strchr(w, '=') - w) : strlen(w));
        if (r->type == TT_SET_T_BOOL && val) return fail(rest, "option '%.*s' takes no value", n, w);
        if (r->type != TT_SET_T_BOOL && !val) {
            if (i + 1 >= argc) return fail(rest, "option '%.*s' needs a value", n, w);
            val = argv[++i];
        }
        char err[256];
        if (!tt_settings_set(s, (tt_setting_id)id, val, TT_SRC_ARGV, err, sizeof err))
            return fail(rest, "%.*s %s: %s", n, w, val ? val : "", err);
    }
    *rargc = nr;
    *rargv = rest;
    return true;
}
