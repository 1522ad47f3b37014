/* support.h — arenas, growable arrays and die() shared by every component.
 *
 * Three kinds of error in tritium (docs/design.md, "Errors and working
 * habits"): diagnostics for the user's input
 * (diag.h, never abort), die() for broken invariants (this file), and recovery
 * points in the REPL. */
#ifndef TRITIUM_SUPPORT_H
#define TRITIUM_SUPPORT_H

#include <stddef.h>
#include <stdlib.h>
#include <stdint.h>
#include <stdbool.h>

#define TT_COUNTOF(a) (sizeof(a) / sizeof((a)[0]))

/* Abort with "tritium: internal error: ..." — only for broken invariants,
 * never for bad user input. */
_Noreturn void die(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* xmalloc/xcalloc/xrealloc: malloc that dies on exhaustion. Caller frees. */
void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t sz);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
/* printf into a fresh malloc'd string; caller frees. */
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Arena: bump allocator made of chunks. Everything allocated from it is freed
 * at once by arena_reset/arena_free. Allocations are 16-byte aligned and
 * zero-filled. */
typedef struct arena_chunk arena_chunk;
typedef struct arena {
    arena_chunk *head;   /* current chunk; older ones linked behind it */
    size_t used;         /* bytes used in head */
    size_t total;        /* bytes handed out since the last reset */
} arena;

void *arena_alloc(arena *a, size_t n);
char *arena_strdup(arena *a, const char *s);
char *arena_strndup(arena *a, const char *s, size_t n);
/* Keep the largest chunk for reuse, drop the rest. */
void arena_reset(arena *a);
void arena_free(arena *a);

/* Growable array of T: struct { T *v; int n, cap; }.
 * vec_push(&vec, x) appends; memory is malloc'd and freed with vec_free. */
#define VEC(T) struct { T *v; int n, cap; }
#define vec_grow(vp, need) do { \
        if ((need) > (vp)->cap) { \
            int c_ = (vp)->cap ? (vp)->cap * 2 : 8; \
            while (c_ < (need)) c_ *= 2; \
            (vp)->v = xrealloc((vp)->v, (size_t)c_ * sizeof(*(vp)->v)); \
            (vp)->cap = c_; \
        } } while (0)
#define vec_push(vp, x) do { vec_grow((vp), (vp)->n + 1); (vp)->v[(vp)->n++] = (x); } while (0)
#define vec_free(vp) do { free((vp)->v); (vp)->v = NULL; (vp)->n = (vp)->cap = 0; } while (0)

/* Growable string buffer. */
typedef struct strbuf { char *s; size_t len, cap; } strbuf;
void sb_putc(strbuf *b, char c);
void sb_puts(strbuf *b, const char *s);
void sb_printf(strbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void sb_free(strbuf *b);
/* Return the buffer's string (never NULL) and leave the buffer empty; caller frees. */
char *sb_take(strbuf *b);

/* Read a whole file into a NUL-terminated malloc'd buffer. Returns NULL and
 * sets errno on failure. *len may be NULL. */
char *read_file(const char *path, size_t *len);
/* read_file with at most max bytes: errno EFBIG past it (endless files such
 * as /dev/zero included), EISDIR for a directory. limits.h's
 * tt_read_file_limited picks max from the limits table. */
char *read_file_max(const char *path, size_t max, size_t *len);

/* Monotonic clock in seconds. */
double now_seconds(void);
/* CPU time of the process in seconds, all threads (timings on a shared machine). */
double cpu_seconds(void);
/* Sort v[0..n) ascending (n >= 1) and return its median (the mean of the
 * middle two for even n): benchmark timings, v[0] and v[n-1] are then the
 * minimum and maximum. */
double tt_sort_median(double *v, size_t n);

/* splitmix64 (Steele, Lea, Flood 2014; Vigna's reference code): advances
 * *state and returns the next 64 random bits. The one small generator of the
 * project (schedules, diff --sizes); tensor data comes from Philox
 * (Random123) instead. */
uint64_t tt_splitmix64(uint64_t *state);

#endif
