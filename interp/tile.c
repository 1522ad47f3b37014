/* tile.c — tile memory: a stack allocator with mark/release.
 *
 * Each program instance allocates its tiles here and resets the stack when
 * it starts; loops take a mark before an iteration and release it after the
 * loop-carried values are copied out, so a long loop runs in a fixed
 * footprint. Chunks are never freed before ts_free, only reused (a chunk too
 * small for a request is replaced), so steady state does no malloc. */
#include "internal.h"

#define MIN_CHUNK ((size_t)256 << 10)
#define MAX_GROW ((size_t)64 << 20)

static tchunk *new_chunk(size_t size)
{
    tchunk *c = xmalloc(sizeof *c + size);
    c->next = NULL;
    c->size = size;
    return c;
}

void *ts_alloc_slow(tstack *t, size_t n)
{
    /* n is already rounded to 64 bytes by ts_alloc */
    tchunk **link = t->head ? &t->head->next : &t->first;
    tchunk *c = *link;
    if (c && c->size < n) {
        /* the next chunk is too small: drop it and everything after it is
         * still reusable, so unlink only this one */
        *link = c->next;
        t->reserved -= c->size;
        free(c);
        c = NULL;
    }
    if (!c) {
        size_t size = t->head ? t->head->size * 2 : MIN_CHUNK;
        if (size > MAX_GROW) size = MAX_GROW;
        if (size < MIN_CHUNK) size = MIN_CHUNK;
        if (size < n) size = n;
        c = new_chunk(size);
        c->next = *link;
        *link = c;
        t->reserved += size;
    }
    t->head = c;
    t->used = n;
    t->live += n;
    if (t->live > t->peak) t->peak = t->live;
    return c->data;
}

void ts_release(tstack *t, tmark m)
{
    t->head = m.head;
    t->used = m.used;
    t->live = m.live;
}

void ts_reset(tstack *t)
{
    t->head = NULL;
    t->used = 0;
    t->live = 0;
}

void ts_free(tstack *t)
{
    for (tchunk *c = t->first, *next; c; c = next) {
        next = c->next;
        free(c);
    }
    memset(t, 0, sizeof *t);
}
