/* location.c — breakpoint locations: `LINE | FILE:LINE | FUNCTION |
 * FILE:FUNCTION` parsed and resolved against the loaded kernel (used by
 * `break`, `tbreak`, `until`, `advance` and `info line`). A line resolves to its
 * statement line (lines.c), or to the next line with code when it has none,
 * as gdb does; a function to its inlined instances. */
#include "dbg_int.h"

#include <ctype.h>
#include <inttypes.h>
#include <limits.h>

int dbg_find_file(dbg_session *d, const char *name)
{
    int cands[64], nc = 0;
    if (d->loaded) cands[nc++] = d->kfile;
    for (int g = 0; g < d->nops && nc < 64; g++) {
        int f = d->ops[g].file;
        bool have = f < 0;
        for (int i = 0; i < nc && !have; i++) have = cands[i] == f;
        if (!have) cands[nc++] = f;
    }
    size_t n = strlen(name);
    for (int i = 0; i < nc; i++) {
        const char *fn = diag_file_name(cands[i]);
        if (!fn) continue;
        if (!strcmp(fn, name)) return cands[i];
        size_t m = strlen(fn);
        if (m > n && fn[m - n - 1] == '/' && !strcmp(fn + m - n, name)) return cands[i];
    }
    /* name is a path to the file: compare base names */
    const char *base = strrchr(name, '/');
    base = base ? base + 1 : name;
    for (int i = 0; i < nc; i++) {
        const char *fn = diag_file_name(cands[i]);
        const char *fb = fn ? strrchr(fn, '/') : NULL;
        fb = fb ? fb + 1 : fn;
        if (fb && !strcmp(fb, base) && base != name) return cands[i];
    }
    return -1;
}

int dbg_resolve_line(dbg_session *d, int file, int line)
{
    dbg_lines *L = dbg_lines_get(d, file);
    if (!L || line < 1 || line > L->nlines) return 0;
    int s = L->stmt[line];
    if (L->code[s]) return s;
    for (int l = line + 1; l <= L->nlines; l++)
        if (L->stmt[l] >= line && L->code[L->stmt[l]]) return L->stmt[l];
    return 0;
}

static bool is_jit_function(dbg_session *d, const char *name)
{
    int n = front_function_count(d->mod);
    for (int i = 0; i < n; i++)
        if (!strcmp(front_function_name(d->mod, i), name)) return true;
    return false;
}

/* Inline instances of function `name` in the kernel. */
int dbg_count_instances(dbg_session *d, const char *name)
{
    const ir_func *f = d->fn;
    int32_t seen[256];
    int n = 0;
    for (int l = 0; l < f->locs.n; l++) {
        const ir_loc *lc = &f->locs.v[l];
        if (!lc->func || strcmp(lc->func, name)) continue;
        bool have = false;
        for (int i = 0; i < n && !have; i++) have = seen[i] == lc->caller;
        if (!have && n < 256) seen[n++] = lc->caller;
    }
    return n;
}

void dbg_loc_free(dbg_loc *l)
{
    free(l->file);
    free(l->func);
    memset(l, 0, sizeof *l);
}

/* The default file: the selected frame's, else the kernel's. */
static int default_file(dbg_session *d)
{
    dbg_frameinfo fr[DBG_MAX_FRAMES];
    int n = dbg_frames(d, fr, DBG_MAX_FRAMES);
    if (n > 0) {
        int k = d->sel_frame < n ? d->sel_frame : 0;
        if (fr[k].file >= 0) return fr[k].file;
    }
    return d->kfile;
}

bool dbg_parse_location(dbg_session *d, const char **sp, dbg_loc *loc)
{
    memset(loc, 0, sizeof *loc);
    const char *s = dbg_skip(*sp);
    size_t n = 0;
    while (s[n] && !isspace((unsigned char)s[n])) n++;
    if (!n) {
        dbg_error(d, "missing location");
        return false;
    }
    char *tok = xstrndup(s, n);
    char *colon = strrchr(tok, ':');
    const char *what = tok;
    int file = default_file(d);
    if (colon) {
        *colon = 0;
        loc->file = xstrdup(tok);
        file = dbg_find_file(d, tok);
        if (file < 0) {
            dbg_error(d, "No source file named %s.", tok);
            free(tok);
            dbg_loc_free(loc);
            return false;
        }
        what = colon + 1;
    }
    const char *p = what;
    int64_t v;
    if (*p && dbg_parse_int(&p, &v) && !*p) {
        if (v <= 0 || v > INT_MAX) {
            dbg_error(d, "line number %" PRId64 " is out of range", v);
            free(tok);
            dbg_loc_free(loc);
            return false;
        }
        loc->kind = LOC_LINE;
        loc->line = (int)v;
        loc->rfile = file;
        loc->rline = dbg_resolve_line(d, file, (int)v);
        if (!loc->rline) {
            dbg_lines *L = dbg_lines_get(d, file);
            if (L && v > L->nlines)
                dbg_error(d, "Line %" PRId64 " is out of range for \"%s\" (%d lines).", v, diag_file_name(file),
                          L->nlines);
            else dbg_error(d, "No code at or after line %" PRId64 " of \"%s\" in kernel %s.", v, diag_file_name(file),
                           d->kernel);
            free(tok);
            dbg_loc_free(loc);
            return false;
        }
    } else {
        bool ident = isalpha((unsigned char)*what) || *what == '_';
        for (const char *q = what; *q && ident; q++) ident = isalnum((unsigned char)*q) || *q == '_';
        if (!ident || !is_jit_function(d, what)) {
            dbg_error(d, "Function \"%s\" not defined.", what);
            free(tok);
            dbg_loc_free(loc);
            return false;
        }
        loc->kind = LOC_FUNC;
        loc->func = xstrdup(what);
        loc->rfile = file;
        int dl = dbg_def_line(file, what);
        loc->rline = dl ? dbg_resolve_line(d, file, dl + 1) : 0;
    }
    free(tok);
    *sp = s + n;
    return true;
}
