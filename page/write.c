/* write.c — the page file (page.h): the HTML around the sealed launches,
 * with the styles and the script inline (page_assets.c, generated from
 * page.css and page.js). The launches' data is one JSON object in a
 * <script type="application/json"> element, which page.js reads; launches
 * that faulted, raced or disagreed come first. */
#include "page_int.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

static void html_text(FILE *f, const char *s)
{
    for (; *s; s++) {
        switch (*s) {
        case '<': fputs("&lt;", f); break;
        case '>': fputs("&gt;", f); break;
        case '&': fputs("&amp;", f); break;
        case '"': fputs("&quot;", f); break;
        default: fputc(*s, f);
        }
    }
}

static int by_badness(const void *a, const void *b)
{
    const page_launch *x = *(page_launch *const *)a, *y = *(page_launch *const *)b;
    if (x->badness != y->badness) return y->badness - x->badness;
    return x->order - y->order;
}

int page_doc_write(page_doc *d, const char *path, size_t *bytes, char *err, size_t errlen)
{
    pthread_mutex_lock(&d->lock);
    page_launch **v = xmalloc((size_t)(d->n ? d->n : 1) * sizeof *v);
    int n = 0;
    for (int i = 0; i < d->n; i++)
        if (d->v[i]->summary) v[n++] = d->v[i];       /* sealed ones only */
    qsort(v, (size_t)n, sizeof *v, by_badness);
    FILE *f = fopen(path, "w");
    if (!f) {
        snprintf(err, errlen, "cannot write '%s': %s", path, strerror(errno));
        pthread_mutex_unlock(&d->lock);
        free(v);
        return -1;
    }
    fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
          "<meta name=\"generator\" content=\"tritium\">\n<title>", f);
    html_text(f, d->title);
    fputs("</title>\n<style>\n", f);
    fputs(pg_css, f);
    fputs("</style>\n</head>\n<body>\n<div id=\"app\"><noscript>This page draws its maps with JavaScript.</noscript></div>\n"
          "<script type=\"application/json\" id=\"tritium-data\">", f);
    json_t *head = json_pack("{s:s,s:s,s:i,s:i,s:i,s:i}", "title", d->title, "generator", "tritium", "launches_total",
                             d->added, "dropped", d->dropped, "max_cells", PAGE_MAX_CELLS, "max_launches",
                             PAGE_MAX_LAUNCHES);
    char *hs = json_dumps(head, JSON_COMPACT | JSON_PRESERVE_ORDER);
    json_decref(head);
    /* {...head, "launches": [ ... ]}: the head without its closing brace */
    size_t hl = strlen(hs);
    for (size_t i = 0; i + 1 < hl; i++) fputc(hs[i] == '<' ? ' ' : hs[i], f);
    free(hs);
    fputs(",\"launches\":[", f);
    for (int i = 0; i < n; i++) {
        if (i) fputc(',', f);
        if (v[i]->json) {
            fputs(v[i]->json, f);
        } else {                             /* maps dropped: the summary, marked */
            size_t sl = strlen(v[i]->summary);
            fwrite(v[i]->summary, 1, sl - 1, f);
            fputs(",\"dropped\":true}", f);
        }
    }
    fputs("]}</script>\n<script>\n", f);
    fputs(pg_js, f);
    fputs("</script>\n</body>\n</html>\n", f);
    pthread_mutex_unlock(&d->lock);
    free(v);
    long size = ftell(f);
    if (ferror(f) | (fclose(f) != 0)) {
        snprintf(err, errlen, "cannot write '%s': %s", path, strerror(errno));
        return -1;
    }
    if (bytes) *bytes = size > 0 ? (size_t)size : 0;
    return 0;
}

void page_doc_free(page_doc *d)
{
    if (!d) return;
    for (int i = 0; i < d->n; i++) pg_launch_free(d->v[i]);
    free(d->v);
    free(d->title);
    pthread_mutex_destroy(&d->lock);
    free(d);
}
