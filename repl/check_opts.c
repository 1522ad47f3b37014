/* check_opts.c — `--check WHAT` of `tritium run`: which sanitizers beyond the
 * default checks run. Taken out of argv before the launch spec is parsed. */
#include "repl.h"
#include "tritium/diag.h"

#include <string.h>

static bool parse_one(const char *v, repl_checks *c)
{
    if (!strcmp(v, "determinism")) {
        c->determinism = 3;
        return true;
    }
    if (!strncmp(v, "determinism=", 12)) {
        int64_t n;
        bool u;
        if (!repl_parse_int(v + 12, &n, &u) || u || n < 2 || n > 64) {
            diag_error(REPL_NOPOS, "--check %s: the number of runs must be 2 to 64", v);
            return false;
        }
        c->determinism = (int)n;
        return true;
    }
    if (!strcmp(v, "overflow=all") || !strcmp(v, "overflow=off") || !strcmp(v, "overflow=address") ||
        !strcmp(v, "overflow")) {
        c->overflow = !strcmp(v, "overflow=all") ? INTERP_OVF_ALL : !strcmp(v, "overflow=off") ? INTERP_OVF_OFF
                                                                                                : INTERP_OVF_ADDRESS;
        return true;
    }
    diag_error(REPL_NOPOS, "--check: unknown check '%s' (expected determinism[=N], overflow=address|all|off)", v);
    return false;
}

bool repl_checks_take(int *argc, char *const **argv, repl_checks *c, char ***owned)
{
    memset(c, 0, sizeof *c);
    c->overflow = INTERP_OVF_ADDRESS;
    int n = *argc, k = 0;
    char **out = xcalloc((size_t)n + 1, sizeof *out);
    for (int i = 0; i < n; i++) {
        const char *w = (*argv)[i];
        if (!strcmp(w, "--check") || !strncmp(w, "--check=", 8)) {
            const char *v = w[7] == '=' ? w + 8 : i + 1 < n ? (*argv)[++i] : NULL;
            if (!v) {
                diag_error(REPL_NOPOS, "--check needs a value (determinism[=N], overflow=address|all|off)");
                free(out);
                return false;
            }
            if (!parse_one(v, c)) {
                free(out);
                return false;
            }
            continue;
        }
        out[k++] = (*argv)[i];
    }
    *argc = k;
    *argv = out;
    *owned = out;
    return true;
}
