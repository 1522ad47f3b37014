/* diag.c — source registry and compiler-style diagnostics. */
#include "tritium/diag.h"
#include "tritium/support.h"

#include <string.h>

typedef struct source { char *name, *text; } source;
static VEC(source) sources;
static FILE *stream;
static int nerrors;

int diag_add_source(const char *name, const char *text)
{
    source s = { xstrdup(name), xstrdup(text) };
    vec_push(&sources, s);
    return sources.n - 1;
}

int diag_find_source(const char *name)
{
    for (int i = sources.n - 1; i >= 0; i--)
        if (!strcmp(sources.v[i].name, name)) return i;
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
