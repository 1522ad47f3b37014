/* lines.c — source lines as the debugger sees them.
 *
 * Ops carry the position of the expression they come from, so one Python
 * statement spread over several lines (a call with its arguments on the next
 * line) has ops on all of them. Like a compiler's is_stmt line table, the
 * debugger maps every physical line to the first line of its statement
 * (a light scan of the Python text: brackets, strings, backslashes), and
 * stops, steps and breakpoints work on those statement lines.
 *
 * Also here: the per-op table (location, statement line, inline depth and
 * instance, memory-op kind) built once per compiled kernel, and `list`. */
#include "dbg_int.h"

#include <ctype.h>
#include <inttypes.h>

const char *dbg_src_line(int file, int line) { return diag_source_line(file, line); }

/* Scan the text: stmt[l] = first line of the statement containing line l. */
static void scan_statements(const char *t, dbg_lines *L)
{
    int nl = 0;
    size_t len = strlen(t);
    for (const char *p = t; *p; p++) if (*p == '\n') nl++;
    if (len && t[len - 1] != '\n') nl++;       /* a last line without a newline */
    L->nlines = nl;
    L->stmt = xcalloc((size_t)nl + 2, sizeof *L->stmt);
    L->code = xcalloc((size_t)nl + 2, sizeof *L->code);
    int line = 1, depth = 0, start = 1;
    bool cont = false;                 /* backslash continuation */
    char q = 0;                        /* open string quote */
    bool triple = false;
    const char *p = t;
    while (*p) {
        /* at the start of a physical line */
        if (depth == 0 && !q && !cont) start = line;
        L->stmt[line] = start;
        cont = false;
        while (*p && *p != '\n') {
            char c = *p;
            if (q) {
                if (c == '\\' && p[1]) { p += 2; if (p[-1] == '\n') { line++; L->stmt[line] = start; } continue; }
                if (c == q) {
                    if (!triple) { q = 0; p++; continue; }
                    if (p[1] == q && p[2] == q) { q = 0; triple = false; p += 3; continue; }
                }
                p++;
                continue;
            }
            if (c == '#') { while (*p && *p != '\n') p++; break; }
            if (c == '\'' || c == '"') {
                if (p[1] == c && p[2] == c) { q = c; triple = true; p += 3; }
                else { q = c; triple = false; p++; }
                continue;
            }
            if (c == '(' || c == '[' || c == '{') depth++;
            else if ((c == ')' || c == ']' || c == '}') && depth > 0) depth--;
            else if (c == '\\' && (p[1] == '\n' || p[1] == '\r')) cont = true;
            p++;
        }
        if (q && !triple) q = 0;       /* unterminated single-quoted string ends at the line */
        if (*p == '\n') p++;
        line++;
    }
    for (int l = 1; l <= nl; l++) if (!L->stmt[l]) L->stmt[l] = l;
}

dbg_lines *dbg_lines_get(dbg_session *d, int file)
{
    for (int i = 0; i < d->lines.n; i++)
        if (d->lines.v[i].file == file) return &d->lines.v[i];
    const char *t = file >= 0 ? diag_file_text(file) : NULL;
    if (!t) return NULL;
    dbg_lines L = { .file = file };
    scan_statements(t, &L);
    vec_push(&d->lines, L);
    return &d->lines.v[d->lines.n - 1];
}

int dbg_stmt_line(dbg_session *d, int file, int line)
{
    dbg_lines *L = dbg_lines_get(d, file);
    if (!L || line < 1 || line > L->nlines) return line;
    return L->stmt[line];
}

/* ---- the per-op table ------------------------------------------------------- */

void dbg_ops_free(dbg_session *d)
{
    free(d->ops);
    free(d->opbase);
    free(d->gregion);
    free(d->pos);
    d->ops = NULL;
    d->opbase = NULL;
    d->gregion = NULL;
    d->pos = NULL;
    d->nops = 0;
}

int dbg_loc_chain(const ir_func *f, int32_t loc, int32_t *inst, int max)
{
    /* innermost first, then reverse */
    int32_t tmp[DBG_MAX_FRAMES];
    int n = 0;
    int32_t l = loc;
    while (l >= 0 && l < f->locs.n && n < DBG_MAX_FRAMES) {
        int32_t c = f->locs.v[l].caller;
        tmp[n++] = c;                  /* instance of the frame holding l */
        l = c;
    }
    if (n == 0) tmp[n++] = -1;
    int k = 0;
    for (int i = n - 1; i >= 0 && k < max; i--) inst[k++] = tmp[i];
    return k;
}

static void mark_code(dbg_session *d, int file, int line)
{
    if (line <= 0 || file < 0) return;
    dbg_lines *L = dbg_lines_get(d, file);
    if (L && line <= L->nlines) L->code[line] = true;
}

void dbg_ops_build(dbg_session *d)
{
    dbg_ops_free(d);
    const ir_func *f = d->fn;
    d->opbase = xcalloc((size_t)f->regions.n + 1, sizeof *d->opbase);
    for (int r = 0; r < f->regions.n; r++) d->opbase[r + 1] = d->opbase[r] + f->regions.v[r].nops;
    d->nops = d->opbase[f->regions.n];
    d->ops = xcalloc((size_t)(d->nops ? d->nops : 1), sizeof *d->ops);
    d->gregion = xcalloc((size_t)(d->nops ? d->nops : 1), sizeof *d->gregion);
    VEC(dbg_pos) pos = { 0 };
    for (int r = 0; r < f->regions.n; r++) {
        const ir_region *reg = &f->regions.v[r];
        for (int i = 0; i < reg->nops; i++) {
            const ir_op *op = &reg->ops[i];
            int g = d->opbase[r] + i;
            dbg_opinfo *oi = &d->ops[g];
            d->gregion[g] = r;
            oi->loc = op->loc;
            oi->file = -1;
            oi->inst = -1;
            oi->pos = -1;
            if (ir_ops[op->opc].props & P_TERMINATOR) oi->kind = OK_TERM;
            else if (op->opc == IR_LOAD) oi->kind = OK_LOAD;
            else if (op->opc == IR_STORE) oi->kind = OK_STORE;
            else if (op->opc == IR_ATOMIC_RMW || op->opc == IR_ATOMIC_CAS || op->opc == IR_ATOMIC_POLL) oi->kind = OK_ATOMIC;
            if (oi->kind >= OK_LOAD) oi->flags |= OPF_MEM;
            if (op->loc < 0 || op->loc >= f->locs.n) continue;
            const ir_loc *lc = &f->locs.v[op->loc];
            oi->file = lc->file;
            oi->inst = lc->caller;
            int32_t chain[DBG_MAX_FRAMES];
            int n = dbg_loc_chain(f, op->loc, chain, DBG_MAX_FRAMES);
            oi->depth = (int16_t)(n - 1);
            if (oi->kind == OK_TERM) continue;      /* terminators never start a line */
            oi->line = lc->file >= 0 ? dbg_stmt_line(d, lc->file, lc->line) : lc->line;
            oi->pos = pos.n;
            for (int j = 0; j < n; j++) {
                /* level j: the op itself, or the call into level j+1 */
                int32_t l = j + 1 < n ? chain[j + 1] : op->loc;
                const ir_loc *x = &f->locs.v[l];
                dbg_pos p = { x->file, x->file >= 0 ? dbg_stmt_line(d, x->file, x->line) : x->line, chain[j],
                              x->func ? x->func : d->kernel };
                vec_push(&pos, p);
                mark_code(d, p.file, p.line);
            }
        }
    }
    d->pos = pos.v;
}

/* ---- function definitions in the source -------------------------------------- */

int dbg_def_line(int file, const char *name)
{
    const char *t = diag_file_text(file);
    if (!t || !name) return 0;
    size_t n = strlen(name);
    int line = 1;
    for (const char *p = t; *p; ) {
        const char *q = p;
        while (*q == ' ' || *q == '\t') q++;
        if (!strncmp(q, "def", 3) && isspace((unsigned char)q[3])) {
            q = dbg_skip(q + 3);
            if (!strncmp(q, name, n) && (q[n] == '(' || isspace((unsigned char)q[n]))) return line;
        }
        while (*p && *p != '\n') p++;
        if (*p) p++;
        line++;
    }
    return 0;
}

void dbg_print_src_line(dbg_session *d, int file, int line)
{
    if (file < 0 || line <= 0) return;
    dbg_printf(d, "%d\t%s\n", line, dbg_src_line(file, line));
}

/* ---- list ------------------------------------------------------------------- */

static int file_nlines(dbg_session *d, int file)
{
    dbg_lines *L = dbg_lines_get(d, file);
    return L ? L->nlines : 0;
}

static void list_range(dbg_session *d, int file, int a, int b)
{
    int n = file_nlines(d, file);
    if (a < 1) a = 1;
    if (b > n) b = n;
    if (a > b) {
        dbg_error(d, "Line number %d out of range; \"%s\" has %d lines.", a, diag_file_name(file), n);
        return;
    }
    for (int l = a; l <= b && !dbg_quit(d); l++) dbg_printf(d, "%d\t%s\n", l, dbg_src_line(file, l));
    d->list_file = file;
    d->list_first = a;
    d->list_last = b;
}

/* A line spec: [FILE:]LINE | FUNCTION | FILE:FUNCTION; returns file and line. */
static bool list_spec(dbg_session *d, const char *s, size_t len, int *file, int *line)
{
    char *t = xstrndup(s, len);
    char *colon = strrchr(t, ':');
    const char *what = t;
    *file = d->list_file >= 0 ? d->list_file : d->kfile;
    if (colon) {
        *colon = 0;
        int f = dbg_find_file(d, t);
        if (f < 0) {
            dbg_error(d, "No source file named %s.", t);
            free(t);
            return false;
        }
        *file = f;
        what = colon + 1;
    }
    const char *p = what;
    int64_t v;
    if (dbg_parse_int(&p, &v) && dbg_blank(p)) {
        if (v < 1 || v > file_nlines(d, *file)) {   /* also keeps list_range's sums in int */
            dbg_error(d, "Line number %" PRId64 " out of range; \"%s\" has %d lines.", v, diag_file_name(*file),
                      file_nlines(d, *file));
            free(t);
            return false;
        }
        *line = (int)v;
        free(t);
        return true;
    }
    int l = dbg_def_line(*file, dbg_skip(what));
    if (!l && !colon) {
        l = dbg_def_line(d->kfile, dbg_skip(what));
        if (l) *file = d->kfile;
    }
    if (!l) {
        dbg_error(d, "Function \"%s\" not defined.", dbg_skip(what));
        free(t);
        return false;
    }
    *line = l + 1;                     /* gdb centers on the line after the opening */
    free(t);
    return true;
}

int dbg_cmd_list(dbg_session *d, const char *args)
{
    if (!d->loaded) return dbg_error(d, "No kernel loaded.");
    const char *s = dbg_skip(args);
    if (!*s) {
        if (d->list_file >= 0) {
            int n = file_nlines(d, d->list_file);
            if (d->list_last >= n) return dbg_error(d, "Line number %d out of range; \"%s\" has %d lines.",
                                                    d->list_last + 1, diag_file_name(d->list_file), n);
            list_range(d, d->list_file, d->list_last + 1, d->list_last + 10);
            return 0;
        }
        int file, line;
        dbg_frameinfo fr[DBG_MAX_FRAMES];
        int nf = dbg_frames(d, fr, DBG_MAX_FRAMES);
        if (nf > 0 && fr[d->sel_frame < nf ? d->sel_frame : 0].line > 0) {
            file = fr[d->sel_frame < nf ? d->sel_frame : 0].file;
            line = fr[d->sel_frame < nf ? d->sel_frame : 0].line;
        } else {
            file = d->kfile;
            line = dbg_def_line(file, d->kernel) + 1;
        }
        list_range(d, file, line - 5, line + 4);
        return 0;
    }
    if (!strcmp(s, "-")) {
        if (d->list_file < 0) return dbg_error(d, "No default source file; use `list LINE`.");
        if (d->list_first <= 1) return dbg_error(d, "Already at the start of %s.", diag_file_name(d->list_file));
        list_range(d, d->list_file, d->list_first - 10, d->list_first - 1);
        return 0;
    }
    const char *comma = strchr(s, ',');
    if (comma) {
        int f1 = -1, l1 = 0, f2, l2;
        const char *b = dbg_skip(comma + 1);
        size_t alen = (size_t)(comma - s);
        while (alen && isspace((unsigned char)s[alen - 1])) alen--;
        if (alen && !list_spec(d, s, alen, &f1, &l1)) return -1;
        if (*b) {
            size_t blen = strlen(b);
            while (blen && isspace((unsigned char)b[blen - 1])) blen--;
            if (!list_spec(d, b, blen, &f2, &l2)) return -1;
            if (f1 < 0) { f1 = f2; l1 = l2 - 9; }
        } else {
            l2 = l1 + 9;
        }
        list_range(d, f1, l1, l2);
        return 0;
    }
    size_t len = strlen(s);
    while (len && isspace((unsigned char)s[len - 1])) len--;
    int file, line;
    if (!list_spec(d, s, len, &file, &line)) return -1;
    list_range(d, file, line - 5, line + 4);
    return 0;
}

int dbg_cmd_info_source(dbg_session *d, const char *args)
{
    (void)args;
    if (!d->loaded) return dbg_error(d, "No kernel loaded.");
    dbg_printf(d, "Current source file is %s\n", diag_file_name(d->kfile));
    dbg_printf(d, "Contains %d lines.\n", file_nlines(d, d->kfile));
    dbg_printf(d, "Kernel %s, %d ops in %d regions.\n", d->kernel, d->nops, d->fn->regions.n);
    return 0;
}
