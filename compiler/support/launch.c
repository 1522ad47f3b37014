/* launch.c — freeing and copying a resolved launch (launch.h). */
#include "tritium/launch.h"

#include <string.h>

static char *dup_or_null(const char *s) { return s ? xstrdup(s) : NULL; }

void launch_free(launch *l)
{
    if (!l) return;
    for (int i = 0; i < l->nargs + l->nextra; i++) {
        free(l->args[i].name);
        if (!l->args[i].shared) tt_tensor_free(l->args[i].tensor);
        free(l->args[i].ptr_to);
        free(l->args[i].ptr_off);
    }
    free(l->args);
    for (int i = 0; i < l->nconsts; i++) {
        free(l->consts[i].name);
        free(l->consts[i].s);
    }
    free(l->consts);
    l->args = NULL;
    l->consts = NULL;
    l->nargs = l->nconsts = l->nextra = 0;
}

void launch_copy(launch *dst, const launch *src)
{
    *dst = *src;
    int n = src->nargs + src->nextra;
    dst->args = n ? xcalloc((size_t)n, sizeof *dst->args) : NULL;
    for (int i = 0; i < n; i++) {
        const launch_arg *a = &src->args[i];
        dst->args[i] = *a;
        dst->args[i].name = dup_or_null(a->name);
        dst->args[i].tensor = NULL;
        if (a->ptr_n) {
            dst->args[i].ptr_to = xmalloc(sizeof(int) * (size_t)a->ptr_n);
            dst->args[i].ptr_off = xmalloc(sizeof(int64_t) * (size_t)a->ptr_n);
            memcpy(dst->args[i].ptr_to, a->ptr_to, sizeof(int) * (size_t)a->ptr_n);
            memcpy(dst->args[i].ptr_off, a->ptr_off, sizeof(int64_t) * (size_t)a->ptr_n);
        }
        if (a->kind == ARG_TENSOR && launch_owner(src, i) == i) dst->args[i].tensor = tt_tensor_clone(a->tensor);
    }
    for (int i = 0; i < n; i++) {          /* views of one storage stay together (owners may come later) */
        int o = launch_owner(src, i);
        if (src->args[i].kind != ARG_TENSOR || o == i) continue;
        if (o >= 0) {
            dst->args[i].tensor = dst->args[o].tensor;
        } else {
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

int launch_owner(const launch *l, int i)
{
    const launch_arg *a = &l->args[i];
    if (a->kind != ARG_TENSOR || !a->tensor) return -1;
    if (!a->shared) return i;
    for (int j = 0; j < l->nargs + l->nextra; j++)
        if (l->args[j].kind == ARG_TENSOR && !l->args[j].shared && l->args[j].tensor == a->tensor) return j;
    return -1;
}

uint64_t launch_arg_addr(const launch *l, int i, uint64_t base)
{
    const launch_arg *a = &l->args[i];
    return base + (uint64_t)a->offset * (uint64_t)tt_dtype_size(a->tensor->dtype);
}

void launch_fill_ptr_tables(launch *l, uint64_t (*base_of)(void *user, int j), void *user)
{
    for (int i = 0; i < l->nargs + l->nextra; i++) {
        launch_arg *a = &l->args[i];
        if (a->kind != ARG_TENSOR || !a->ptr_n || !a->tensor || !a->tensor->data) continue;
        int64_t *cell = (int64_t *)a->tensor->data;
        for (int k = 0; k < a->ptr_n && (size_t)(k + 1) * 8 <= a->tensor->nbytes; k++) {
            int j = a->ptr_to[k];
            int o = j >= 0 && j < l->nargs + l->nextra ? launch_owner(l, j) : -1;
            uint64_t b = o >= 0 ? base_of(user, o) : 0;
            cell[k] = b ? (int64_t)(b + (uint64_t)a->ptr_off[k]) : 0;
        }
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
