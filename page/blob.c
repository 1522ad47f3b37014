/* blob.c — binary arrays for the page (page_int.h): deflated with zlib when
 * tritium is built with it (the page inflates them with the browser's
 * DecompressionStream("deflate")), then base64. Cell arrays are mostly runs
 * of one value, so a map of 65536 cells takes a few kilobytes. */
#include "page_int.h"

#include <string.h>
#ifdef TRITIUM_HAVE_ZLIB
#include <zlib.h>
#endif

static char *base64(const unsigned char *p, size_t n)
{
    static const char tab[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    char *out = xmalloc((n + 2) / 3 * 4 + 1), *q = out;
    size_t i = 0;
    for (; i + 2 < n; i += 3) {
        uint32_t v = (uint32_t)p[i] << 16 | (uint32_t)p[i + 1] << 8 | p[i + 2];
        *q++ = tab[v >> 18];
        *q++ = tab[(v >> 12) & 63];
        *q++ = tab[(v >> 6) & 63];
        *q++ = tab[v & 63];
    }
    if (i < n) {
        uint32_t v = (uint32_t)p[i] << 16 | (i + 1 < n ? (uint32_t)p[i + 1] << 8 : 0);
        *q++ = tab[v >> 18];
        *q++ = tab[(v >> 12) & 63];
        *q++ = i + 1 < n ? tab[(v >> 6) & 63] : '=';
        *q++ = '=';
    }
    *q = 0;
    return out;
}

json_t *pg_blob(const void *data, size_t n, size_t esize, const char *type)
{
    size_t bytes = n * esize;
    const unsigned char *p = data;
    unsigned char *z = NULL;
    bool deflated = false;
#ifdef TRITIUM_HAVE_ZLIB
    if (bytes >= 64) {
        uLongf zn = compressBound((uLong)bytes);
        z = xmalloc(zn);
        if (compress2(z, &zn, p, (uLong)bytes, 1) == Z_OK && zn < bytes) {
            p = z;
            bytes = zn;
            deflated = true;
        }
    }
#endif
    char *b = base64(p, bytes);
    json_t *o = json_pack("{s:s,s:b,s:I,s:s}", "t", type, "z", deflated, "n", (json_int_t)n, "d", b);
    free(b);
    free(z);
    return o;
}
