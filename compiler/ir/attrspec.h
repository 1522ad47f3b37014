/* attrspec.h — walking an op's attribute spec string from ops.def
 * ("name:kind,name:kind"); private to compiler/ir (printer, parser,
 * verifier). */
#ifndef TRITIUM_IR_ATTRSPEC_H
#define TRITIUM_IR_ATTRSPEC_H

#include <string.h>
#include "tritium/ir.h"

/* One attribute of a spec: its name and kind as (pointer, length) slices. */
typedef struct ir_attrspec {
    const char *name; size_t name_len;
    const char *kind; size_t kind_len;
} ir_attrspec;

/* Split `spec` into at most 4 attributes; returns how many. */
static inline int ir_attrspec_split(const char *spec, ir_attrspec out[4])
{
    int n = 0;
    const char *p = spec;
    while (*p && n < 4) {
        const char *colon = strchr(p, ':');
        if (!colon) break;
        const char *end = strchr(colon, ',');
        if (!end) end = colon + strlen(colon);
        out[n].name = p;
        out[n].name_len = (size_t)(colon - p);
        out[n].kind = colon + 1;
        out[n].kind_len = (size_t)(end - colon - 1);
        n++;
        p = *end ? end + 1 : end;
    }
    return n;
}

static inline bool ir_attrspec_kind_is(const ir_attrspec *a, const char *k)
{
    return a->kind_len == strlen(k) && !memcmp(a->kind, k, a->kind_len);
}

#endif
