/* diag.c — source registry and compiler-style diagnostics. */
#include "tritium/diag.h"
#include "tritium/support.h"

#include <string.h>

typedef struct source { char *name, *text; } source;
static VEC(source) sources;
static FILE *stream;
static int nerrors;

/* name -> the latest source of that name: an open-addressing table of
 * index + 1 (0: empty), at most half full. A linear search made IR text
 * with many distinct location files quadratic. */
static int *byname;
static size_t byname_cap;

static size_t hash_name(const char *s)
{
    uint64_t h = 14695981039346656037ull;              /* FNV-1a */
    for (; *s; s++) h = (h ^ (unsigned char)*s) * 1099511628211ull;
    return (size_t)h;
}

static void byname_put(int idx)
{
    size_t m = byname_cap - 1, i = hash_name(sources.v[idx].name) & m;
    while (byname[i] && strcmp(sources.v[byname[i] - 1].name, sources.v[idx].name)) i = (i + 1) & m;
    byname[i] = idx + 1;                               /* a later source of the same name wins */
}

int diag_add_source(const char *name, const char *text)
{
    int last = diag_find_source(name);   /* the same text again (the prelude of every module): one copy */
    if (last >= 0 && !strcmp(sources.v[last].text, text)) return last;
    source s = { xstrdup(name), xstrdup(text) };
    vec_push(&sources, s);
    if ((size_t)sources.n * 2 > byname_cap) {
        free(byname);
        byname_cap = byname_cap ? byname_cap * 2 : 64;
        byname = xcalloc(byname_cap, sizeof *byname);
        for (int i = 0; i < sources.n; i++) byname_put(i);
    } else {
        byname_put(sources.n - 1);
    }
    return sources.n - 1;
}

int diag_source_mark(void) { return sources.n; }

void diag_source_release(int mark)
{
    if (mark < 0 || mark >= sources.n) return;
    for (int i = mark; i < sources.n; i++) {
        free(sources.v[i].name);
        free(sources.v[i].text);
    }
    sources.n = mark;
    memset(byname, 0, byname_cap * sizeof *byname);
    for (int i = 0; i < sources.n; i++) byname_put(i);
}

int diag_find_source(const char *name)
{
    if (!byname_cap) return -1;
    size_t m = byname_cap - 1;
    for (size_t i = hash_name(name) & m; byname[i]; i = (i + 1) & m)
        if (!strcmp(sources.v[byname[i] - 1].name, name)) return byname[i] - 1;
    return -1;
}

const char *diag_file_name(int file)
{
    return file >= 0 && file < sources.n ? sources.v[file].name : "<input>";
}

const char *diag_file_text(int file)
{
    return file >= 0 && file < sources.n ? sources.v[file].text : "";
}

const char *diag_source_line(int file, int line)
{
    static char buf[1024];
    buf[0] = 0;
    if (file < 0 || file >= sources.n || line < 1) return buf;
    const char *p = sources.v[file].text;
    for (int l = 1; l < line; l++) {
        p = strchr(p, '\n');
        if (!p) return buf;
        p++;
    }
    size_t n = strcspn(p, "\r\n");
    if (n >= sizeof buf) n = sizeof buf - 1;
    memcpy(buf, p, n);
    buf[n] = 0;
    return buf;
}

FILE *diag_set_stream(FILE *f)
{
    FILE *old = diag_stream();
    stream = f;
    return old;
}

FILE *diag_stream(void) { return stream ? stream : stderr; }
int diag_error_count(void) { return nerrors; }
void diag_reset_count(void) { nerrors = 0; }

void diag_quote(FILE *f, src_pos p)
{
    if (p.file < 0 || p.line < 1) return;
    const char *text = diag_source_line(p.file, p.line);
    fprintf(f, "%5d | %s\n      | ", p.line, text);
    /* keep tabs so the caret lines up under the source */
    for (int i = 1; i < p.col && text[i - 1]; i++) fputc(text[i - 1] == '\t' ? '\t' : ' ', f);
    fputs("^\n", f);
}

void diag_vat(diag_kind k, src_pos p, const char *fmt, va_list ap)
{
    static const char *const kinds[] = { "error", "warning", "note" };
    FILE *f = diag_stream();
    if (k == DIAG_ERROR) nerrors++;
    if (p.file >= 0 && p.line > 0)
        fprintf(f, "%s:%d:%d: %s: ", diag_file_name(p.file), p.line, p.col, kinds[k]);
    else if (p.file >= 0)
        fprintf(f, "%s: %s: ", diag_file_name(p.file), kinds[k]);
    else
        fprintf(f, "tritium: %s: ", kinds[k]);
    if (fmt) vfprintf(f, fmt, ap);   /* guard also silences a GCC 12 -fsanitize false positive */
    fputc('\n', f);
    diag_quote(f, p);
}

void diag_at(diag_kind k, src_pos p, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    diag_vat(k, p, fmt, ap);
    va_end(ap);
}
