/* parse.c — the small helpers every command of the engine shares: output
 * and error printing, and the argument tokens (integers, blanks, program ids
 * "(x[,y[,z]])" with '*' wildcards). session.c, bpt.c and the other command
 * files are dispatchers; their shared parsing and printing lives here. */
#include "dbg_int.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>

int dbg_error(dbg_session *d, const char *fmt, ...)
{
    fflush(d->out);
    va_list ap;
    va_start(ap, fmt);
    vfprintf(d->err, fmt, ap);
    va_end(ap);
    fputc('\n', d->err);
    fflush(d->err);
    return -1;
}

void dbg_printf(dbg_session *d, const char *fmt, ...)
{
    if (FLAG_GET(d->quit)) return;
    va_list ap;
    va_start(ap, fmt);
    vfprintf(d->out, fmt, ap);
    va_end(ap);
}

bool dbg_quit(dbg_session *d)
{
    if (!FLAG_GET(d->quit)) return false;
    if (!d->quit_said) {
        d->quit_said = true;
        fflush(d->out);
        fputs("Quit\n", d->err);
        fflush(d->err);
    }
    return true;
}

void dbg_puts_lines(dbg_session *d, const char *s)
{
    while (*s && !dbg_quit(d)) {
        const char *nl = strchr(s, '\n');
        size_t n = nl ? (size_t)(nl - s) + 1 : strlen(s);
        fwrite(s, 1, n, d->out);
        s += n;
    }
}

const char *dbg_skip(const char *s)
{
    while (*s && isspace((unsigned char)*s)) s++;
    return s;
}

bool dbg_blank(const char *s) { return !*dbg_skip(s); }

bool dbg_parse_int(const char **sp, int64_t *v)
{
    const char *s = dbg_skip(*sp);
    char *end;
    errno = 0;
    long long x = strtoll(s, &end, 0);
    if (end == s || errno) return false;
    *v = x;
    *sp = end;
    return true;
}

char *dbg_pid_str(const int64_t pid[3], char *buf, size_t n)
{
    char c[3][24];
    for (int k = 0; k < 3; k++) {
        if (pid[k] < 0) snprintf(c[k], sizeof c[k], "*");
        else snprintf(c[k], sizeof c[k], "%" PRId64, pid[k]);
    }
    snprintf(buf, n, "(%s,%s,%s)", c[0], c[1], c[2]);
    return buf;
}

/* pid := '(' comp [',' comp [',' comp]] ')' | comp ; comp := INT | '*' */
bool dbg_parse_pid(const char **sp, int64_t pid[3], bool allow_wild)
{
    const char *s = dbg_skip(*sp);
    bool paren = *s == '(';
    if (paren) s++;
    int n = 0;
    pid[0] = pid[1] = pid[2] = 0;
    for (;;) {
        s = dbg_skip(s);
        if (*s == '*') {
            if (!allow_wild) return false;
            pid[n++] = -1;
            s++;
        } else {
            int64_t v;
            if (!dbg_parse_int(&s, &v) || v < 0) return false;
            pid[n++] = v;
        }
        s = dbg_skip(s);
        if (!paren || *s != ',' || n == 3) break;
        s++;
    }
    if (paren) {
        if (*s != ')') return false;
        s++;
    }
    /* missing trailing components: 0, or '*' when the last given one is '*' */
    for (int k = n; k < 3; k++) pid[k] = allow_wild && pid[n - 1] < 0 ? -1 : 0;
    *sp = s;
    return true;
}
