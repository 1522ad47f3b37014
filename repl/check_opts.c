/* check_opts.c — `--check WHAT` of `tritium run` (the settings row check):
 * which sanitizers beyond the default checks run. */
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

bool repl_checks_parse(const tt_settings *s, repl_checks *c)
{
    memset(c, 0, sizeof *c);
    c->overflow = INTERP_OVF_ADDRESS;
    for (int i = 0; i < s->check.n; i++)
        if (!parse_one(s->check.v[i], c)) return false;
    return true;
}
