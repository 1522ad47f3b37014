/* launch.c — freeing and copying a resolved launch (launch.h). */
#include "tritium/launch.h"

#include <string.h>

static char *dup_or_null(const char *s) { return s ? xstrdup(s) : NULL; }

void launch_free(launch *l)
{
    if (!l) return;
    for (int i = 0; i < l->nargs; i++) {
        free(l->args[i].name);
        if (!l->args[i].shared) tt_tensor_free(l->args[i].tensor);
    }
    free(l->args);
    for (int i = 0; i < l->nconsts; i++) {
        free(l->consts[i].name);
        free(l->consts[i].s);
    }
    free(l->consts);
    l->args = NULL;
    l->consts = NULL;
    l->nargs = l->nconsts = 0;
}

void launch_copy(launch *dst, const launch *src)
{
    *dst = *src;
    dst->args = src->nargs ? xcalloc((size_t)src->nargs, sizeof *dst->args) : NULL;
    for (int i = 0; i < src->nargs; i++) {
        dst->args[i] = src->args[i];
        dst->args[i].name = dup_or_null(src->args[i].name);
        dst->args[i].tensor = NULL;
        for (int j = 0; j < i && src->args[i].shared; j++)   /* keep views of one storage together */
            if (src->args[j].tensor == src->args[i].tensor) dst->args[i].tensor = dst->args[j].tensor;
        if (!dst->args[i].tensor) {
            dst->args[i].tensor = tt_tensor_clone(src->args[i].tensor);
            dst->args[i].shared = false;
        }
    }
    dst->consts = src->nconsts ? xcalloc((size_t)src->nconsts, sizeof *dst->consts) : NULL;
    for (int i = 0; i < src->nconsts; i++) {
        dst->consts[i] = src->consts[i];
        dst->consts[i].name = dup_or_null(src->consts[i].name);
        dst->consts[i].s = dup_or_null(src->consts[i].s);
    }
}

bool tt_numerics_parse(const char *s, tt_numerics *out)
{
    if (!strcmp(s, "ieee")) *out = NUMERICS_IEEE;
    else if (!strcmp(s, "fast") || !strcmp(s, "gpu")) *out = NUMERICS_FAST;
    else return false;
    return true;
}

const char *tt_numerics_name(tt_numerics n) { return n == NUMERICS_FAST ? "fast" : "ieee"; }
