/* npy.c — reading and writing NumPy .npy files (format versions 1.0, 2.0 and
 * 3.0, as numpy/lib/format.py defines them): little-endian, C order, the
 * dtypes of dtype.h, rank 0..4. The header is a Python dict literal, parsed
 * here by a small recursive-descent reader that checks every byte it looks
 * at against the header's length, so truncated or hostile input yields a
 * message, never a crash. */
#include "tritium/limits.h"
#include "tritium/tensor.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#define MAGIC "\x93NUMPY"
#define MAGIC_LEN 6
#define MAX_HEADER (1u << 20)      /* numpy itself refuses headers over 10000 bytes by default */
#define GROWTH_AXIS_MAX_DIGITS 21  /* numpy's spare room after the dict (format.py) */

static void fail(char *err, size_t errlen, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void fail(char *err, size_t errlen, const char *fmt, ...)
{
    if (!err || !errlen) return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
}

/* ---- header dict ---- */

typedef struct hdr {
    const char *p, *end;           /* cursor in the header text */
    const char *start;
    char *err;
    size_t errlen;
    bool failed;
} hdr;

static bool hfail(hdr *h, const char *what)
{
    if (!h->failed)
        fail(h->err, h->errlen, "malformed .npy header: %s at header offset %td", what, h->p - h->start);
    h->failed = true;
    return false;
}

static void hskip(hdr *h)
{
    while (h->p < h->end && (*h->p == ' ' || *h->p == '\t' || *h->p == '\n' || *h->p == '\r')) h->p++;
}

static bool hpeek(hdr *h, char c)
{
    hskip(h);
    return h->p < h->end && *h->p == c;
}

static bool haccept(hdr *h, char c)
{
    if (!hpeek(h, c)) return false;
    h->p++;
    return true;
}

/* string := '\'' chars '\'' | '"' chars '"'   (no escapes needed for our keys/values) */
static bool hstring(hdr *h, char *out, size_t n)
{
    hskip(h);
    if (h->p >= h->end || (*h->p != '\'' && *h->p != '"')) return hfail(h, "expected a string");
    char q = *h->p++;
    size_t len = 0;
    while (h->p < h->end && *h->p != q) {
        if (*h->p == '\\') return hfail(h, "escape in string");
        if (len + 1 >= n) return hfail(h, "string too long");
        out[len++] = *h->p++;
    }
    if (h->p >= h->end) return hfail(h, "unterminated string");
    h->p++;
    out[len] = 0;
    return true;
}

static bool hword(hdr *h, const char *w)
{
    hskip(h);
    size_t n = strlen(w);
    if ((size_t)(h->end - h->p) >= n && !memcmp(h->p, w, n)) {
        h->p += n;
        return true;
    }
    return false;
}

/* int := digits ['L']   (non-negative; Python 2 wrote 3L) */
static bool hint(hdr *h, int64_t *out)
{
    hskip(h);
    if (h->p >= h->end || *h->p < '0' || *h->p > '9') return hfail(h, "expected a non-negative integer");
    uint64_t v = 0;
    while (h->p < h->end && *h->p >= '0' && *h->p <= '9') {
        v = v * 10 + (uint64_t)(*h->p++ - '0');
        if (v > ((uint64_t)1 << 50)) return hfail(h, "dimension too large");
    }
    if (h->p < h->end && *h->p == 'L') h->p++;
    *out = (int64_t)v;
    return true;
}

/* shape := '(' [int (',' int)* [',']] ')' */
static bool hshape(hdr *h, int *rank, int64_t *shape)
{
    if (!haccept(h, '(')) return hfail(h, "expected '(' for the shape");
    *rank = 0;
    while (!haccept(h, ')')) {
        int64_t d = 0;                 /* set by hint(); GCC -O3 cannot see it */
        if (!hint(h, &d)) return false;
        if (*rank == TT_MAX_RANK) {
            fail(h->err, h->errlen, "arrays of rank > %d are not supported", TT_MAX_RANK);
            h->failed = true;
            return false;
        }
        shape[(*rank)++] = d;
        if (!haccept(h, ',')) {
            if (!haccept(h, ')')) return hfail(h, "expected ',' or ')' in the shape");
            break;
        }
    }
    return true;
}

typedef struct npy_header {
    char descr[32];
    bool fortran;
    int rank;
    int64_t shape[TT_MAX_RANK];
} npy_header;

/* dict := '{' [key ':' value (',' key ':' value)* [',']] '}'
 * with exactly the keys descr, fortran_order and shape (as numpy requires). */
static bool parse_dict(hdr *h, npy_header *out)
{
    bool have_descr = false, have_fortran = false, have_shape = false;
    if (!haccept(h, '{')) return hfail(h, "expected '{'");
    while (!haccept(h, '}')) {
        char key[32];
        if (!hstring(h, key, sizeof key)) return false;
        if (!haccept(h, ':')) return hfail(h, "expected ':'");
        if (!strcmp(key, "descr")) {
            if (have_descr) return hfail(h, "duplicate key 'descr'");
            if (hpeek(h, '[')) {
                fail(h->err, h->errlen, "structured dtypes are not supported");
                h->failed = true;
                return false;
            }
            if (!hstring(h, out->descr, sizeof out->descr)) return false;
            have_descr = true;
        } else if (!strcmp(key, "fortran_order")) {
            if (have_fortran) return hfail(h, "duplicate key 'fortran_order'");
            if (hword(h, "True")) out->fortran = true;
            else if (hword(h, "False")) out->fortran = false;
            else return hfail(h, "expected True or False");
            have_fortran = true;
        } else if (!strcmp(key, "shape")) {
            if (have_shape) return hfail(h, "duplicate key 'shape'");
            if (!hshape(h, &out->rank, out->shape)) return false;
            have_shape = true;
        } else {
            fail(h->err, h->errlen, "malformed .npy header: unexpected key '%s'", key);
            h->failed = true;
            return false;
        }
        if (!haccept(h, ',')) {
            if (!haccept(h, '}')) return hfail(h, "expected ',' or '}'");
            break;
        }
    }
    if (!have_descr || !have_fortran || !have_shape) {
        fail(h->err, h->errlen, "malformed .npy header: missing key '%s'",
             !have_descr ? "descr" : !have_fortran ? "fortran_order" : "shape");
        h->failed = true;
        return false;
    }
    hskip(h);
    if (h->p != h->end) return hfail(h, "trailing characters after the dict");
    return true;
}

/* descr: byte order ('<', '=', '|'; '>' and '!' only for 1-byte types),
 * kind ('b', 'i', 'u', 'f', 'V') and size in bytes. ml_dtypes' types save as
 * voids ('<V2' bfloat16, '<V1' every float8 but one) and float8_e5m2 as
 * '<f1' (np.lib.format.dtype_to_descr); a '<V1' file does not say which
 * float8 it holds, so `hint` (an fp8 dtype, or TT_DTYPE_COUNT for none)
 * names it; a hint also reads '|u1'/'|i1' bytes (fp8e4b15, which ml_dtypes
 * lacks, is saved as '|u1'). Other descriptors ignore the hint. */
static bool parse_descr(const char *s, tt_dtype hint, tt_dtype *out, char *err, size_t errlen)
{
    static const struct { const char *code; tt_dtype d; } tab[] = {
        { "b1", TT_BOOL }, { "i1", TT_I8 }, { "i2", TT_I16 }, { "i4", TT_I32 }, { "i8", TT_I64 },
        { "u1", TT_U8 }, { "u2", TT_U16 }, { "u4", TT_U32 }, { "u8", TT_U64 },
        { "f2", TT_F16 }, { "f4", TT_F32 }, { "f8", TT_F64 },
        { "V2", TT_BF16 },   /* ml_dtypes.bfloat16 saves as a 2-byte void (np.lib.format.dtype_to_descr) */
        { "f1", TT_F8E5 },   /* ml_dtypes.float8_e5m2 */
    };
    char order = s[0];
    if (!strchr("<>=|!", order) || !order) {
        fail(err, errlen, "unsupported dtype '%s'", s);
        return false;
    }
    const char *code = s + 1;
    if (code[0] == 'O') {
        fail(err, errlen, "object arrays ('%s') are not supported", s);
        return false;
    }
    bool fp8_hint = hint != TT_DTYPE_COUNT && tt_dtype_is_fp8(hint);
    if (!strcmp(code, "V1") || (fp8_hint && (!strcmp(code, "u1") || !strcmp(code, "i1")))) {
        if (!fp8_hint) {
            char names[64] = "";                    /* the fp8 dtypes' names (dtype.c) */
            for (int d = TT_F8E4NV; d <= TT_F8E5B16; d++)
                snprintf(names + strlen(names), sizeof names - strlen(names), "%s%s", d > TT_F8E4NV ? " " : "",
                         tt_dtype_name((tt_dtype)d));
            fail(err, errlen, "dtype '%s' is a 1-byte ml_dtypes type (float8_e4m3fn, float8_e4m3fnuz, float8_e5m2fnuz, ...) "
                 "whose name the file does not record; say which: FILE.npy:%s (%s)", s, tt_dtype_name(TT_F8E4NV), names);
            return false;
        }
        *out = hint;
        return true;
    }
    for (size_t i = 0; i < TT_COUNTOF(tab); i++) {
        if (strcmp(code, tab[i].code)) continue;
        bool one = tt_dtype_size(tab[i].d) == 1;
        if ((order == '>' || order == '!') && !one) {
            fail(err, errlen, "big-endian data ('%s') is not supported", s);
            return false;
        }
        if (order == '|' && !one) {
            fail(err, errlen, "dtype '%s' needs a byte order", s);
            return false;
        }
        *out = tab[i].d;
        return true;
    }
    fail(err, errlen, "unsupported dtype '%s' (expected bool, int8..64, uint8..64, float16/32/64, or an ml_dtypes "
         "type as np.save writes it: bfloat16 '<V2', float8_e5m2 '<f1', other float8 '<V1')", s);
    return false;
}

static uint32_t rd16(const unsigned char *p) { return (uint32_t)p[0] | (uint32_t)p[1] << 8; }
static uint32_t rd32(const unsigned char *p) { return rd16(p) | rd16(p + 2) << 16; }

tt_tensor *npy_parse_as(const void *bytes, size_t len, tt_dtype hint, char *err, size_t errlen)
{
    const unsigned char *b = bytes;
    if (!b || len < MAGIC_LEN + 2 || memcmp(b, MAGIC, MAGIC_LEN)) {
        fail(err, errlen, "not a .npy file (bad magic)");
        return NULL;
    }
    int major = b[6], minor = b[7];
    if ((major != 1 && major != 2 && major != 3) || minor != 0) {
        fail(err, errlen, "unsupported .npy format version %d.%d", major, minor);
        return NULL;
    }
    size_t lensize = major == 1 ? 2 : 4;
    if (len < 8 + lensize) {
        fail(err, errlen, "truncated .npy header");
        return NULL;
    }
    uint32_t hlen = major == 1 ? rd16(b + 8) : rd32(b + 8);
    size_t off = 8 + lensize;
    if (hlen > MAX_HEADER) {
        fail(err, errlen, ".npy header too long (%u bytes)", hlen);
        return NULL;
    }
    if (hlen > len - off) {
        fail(err, errlen, "truncated .npy header (%u bytes declared, %zu present)", hlen, len - off);
        return NULL;
    }
    const char *htext = (const char *)b + off;
    for (uint32_t i = 0; i < hlen; i++) {
        if (htext[i] == 0) {
            fail(err, errlen, "malformed .npy header: NUL byte at header offset %u", i);
            return NULL;
        }
    }
    hdr h = { htext, htext + hlen, htext, err, errlen, false };
    npy_header nh = { .rank = 0 };
    if (!parse_dict(&h, &nh)) return NULL;
    if (nh.fortran) {
        fail(err, errlen, "fortran_order arrays are not supported (save with np.ascontiguousarray)");
        return NULL;
    }
    tt_dtype d;
    if (!parse_descr(nh.descr, hint, &d, err, errlen)) return NULL;
    /* size checks before allocating: a short file must not make us
     * allocate what its header claims */
    uint64_t need = (uint64_t)tt_dtype_size(d);
    bool huge = false;
    for (int i = 0; i < nh.rank; i++) {
        if (nh.shape[i] == 0) need = 0;
        else if (need > ((uint64_t)1 << 40) / (uint64_t)nh.shape[i]) huge = true;
        else need *= (uint64_t)nh.shape[i];
    }
    if (huge) {
        fail(err, errlen, "array too large (more than 2^40 bytes)");
        return NULL;
    }
    off += hlen;
    if (need > len - off) {
        fail(err, errlen, "truncated .npy data: need %llu bytes, have %zu", (unsigned long long)need, len - off);
        return NULL;
    }
    tt_tensor *t = tt_tensor_new(NULL, d, nh.rank, nh.shape);
    if (!t) {
        fail(err, errlen, "array too large (more than 2^40 bytes)");
        return NULL;
    }
    memcpy(t->data, b + off, t->nbytes);
    if (d == TT_BOOL) {
        unsigned char *p = t->data;
        for (size_t i = 0; i < t->nbytes; i++) p[i] = p[i] != 0;
    }
    return t;
}

tt_tensor *npy_parse(const void *bytes, size_t len, char *err, size_t errlen)
{
    return npy_parse_as(bytes, len, TT_DTYPE_COUNT, err, errlen);
}

tt_tensor *npy_read(const char *path, char *err, size_t errlen)
{
    return npy_read_as(path, TT_DTYPE_COUNT, err, errlen);
}

tt_tensor *npy_read_as(const char *path, tt_dtype hint, char *err, size_t errlen)
{
    /* the magic first: /dev/zero or a text file fails at once, not after
     * reading up to the limit */
    FILE *f = fopen(path, "rb");
    char head[sizeof MAGIC - 1];
    if (f && fread(head, 1, sizeof head, f) == sizeof head && memcmp(head, MAGIC, sizeof head)) {
        fclose(f);
        fail(err, errlen, "%s: not a .npy file (bad magic)", path);
        return NULL;
    }
    if (f) fclose(f);
    size_t len;
    char *buf = tt_read_file_limited(path, TT_LIM_NPY_BYTES, &len);
    if (!buf) {
        char *why = errno == EFBIG ? tt_limit_exceeded(TT_LIM_NPY_BYTES) : xstrdup(strerror(errno));
        fail(err, errlen, "%s: %s", path, why);
        free(why);
        return NULL;
    }
    char why[256];
    tt_tensor *t = npy_parse_as(buf, len, hint, why, sizeof why);
    free(buf);
    if (!t) fail(err, errlen, "%s: %s", path, why);
    return t;
}

/* The header exactly as numpy's format.py writes it: keys sorted, the
 * shape's repr, spare room for growth, space padding and '\n' so that the
 * data starts at a multiple of 64 bytes. */
static char *make_header(const tt_tensor *t, const char *descr, size_t *total, int *version)
{
    strbuf s = {0};
    sb_printf(&s, "{'descr': '%s', 'fortran_order': False, 'shape': (", descr);
    for (int i = 0; i < t->rank; i++) sb_printf(&s, i ? ", %lld" : "%lld", (long long)t->shape[i]);
    sb_puts(&s, t->rank == 1 ? ",), }" : "), }");
    if (t->rank > 0) {
        int digits = snprintf(NULL, 0, "%lld", (long long)t->shape[0]);
        for (int i = digits; i < GROWTH_AXIS_MAX_DIGITS; i++) sb_putc(&s, ' ');
    }
    *version = 1;
    size_t hl = s.len + 1;
    size_t pad = 64 - ((MAGIC_LEN + 2 + 2 + hl) % 64);
    if (hl + pad > 0xffff) {
        *version = 2;
        pad = 64 - ((MAGIC_LEN + 2 + 4 + hl) % 64);
    }
    for (size_t i = 0; i < pad; i++) sb_putc(&s, ' ');
    sb_putc(&s, '\n');
    *total = s.len;
    return sb_take(&s);
}

bool npy_write(const char *path, const tt_tensor *t, char *err, size_t errlen)
{
    size_t hlen;
    int version;
    char *header = make_header(t, tt_dtype_npy_descr(t->dtype), &hlen, &version);
    unsigned char pre[12];
    memcpy(pre, MAGIC, MAGIC_LEN);
    pre[6] = (unsigned char)version;
    pre[7] = 0;
    size_t npre = version == 1 ? 10 : 12;
    for (size_t i = 0; i < npre - 8; i++) pre[8 + i] = (unsigned char)(hlen >> (8 * i));

    FILE *f = fopen(path, "wb");
    if (!f) {
        fail(err, errlen, "%s: %s", path, strerror(errno));
        free(header);
        return false;
    }
    bool ok = fwrite(pre, 1, npre, f) == npre && fwrite(header, 1, hlen, f) == hlen;
    free(header);
    if (ok && t->nbytes) {
        ok = fwrite(t->data, 1, t->nbytes, f) == t->nbytes;
    }
    int e = errno;
    if (fclose(f) != 0 && ok) {
        ok = false;
        e = errno;
    }
    if (!ok) fail(err, errlen, "%s: write failed: %s", path, strerror(e));
    return ok;
}
