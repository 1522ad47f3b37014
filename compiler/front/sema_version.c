/* sema_version.c — the Triton version whose language the front end follows
 * (settings.def TRITON_VERSION: TRITIUM_TRITON_VERSION, set by the Python
 * package from the installed Triton, python/tritium/_versions.py; default
 * the newest, 3.9). Version-specific behaviour is one check here:
 *
 * - a name of triton.language that the version lacks is an error naming the
 *   release that added it (Triton raises AttributeError: module
 *   'triton.language' has no attribute ...);
 * - a builtin that the version removed is an error in that release's words
 *   (3.9's core.py make_block_ptr/advance: NotImplementedError "Block
 *   pointers have been removed in favor of the tensor descriptor API");
 * - a keyword argument that a builtin gained in a later release (cat's dim
 *   in 3.7, cumprod's dtype and fdiv's approx in 3.9) is, before it,
 *   Python's TypeError "got an unexpected keyword argument";
 * - load/store's boundary_check and padding_option, gone from 3.9's
 *   core.py load/store (keyword-only cache_modifier, eviction_policy,
 *   volatile): TypeError "got an unexpected keyword argument";
 * - dot_scaled's uint8 scales cover groups of 32 before 3.8 (semantic.py
 *   verify_scaled_shape), of 16 or 32 from 3.8 (ir.deduce_scale_factor,
 *   from the scale's shape).
 *
 * The releases were read from each wheel's language/{core,standard}.py:
 * squeeze/unsqueeze first appear in 3.7 (standard.py), expect_zero and
 * aggregate_replace in 3.8 (core.py), atomic_load/atomic_store/atomic_poll
 * in 3.9 (core.py). */
#include <string.h>
#include "sema_builtin.h"
#include "tritium/front.h"
#include "tritium/settings.h"

static int g_minor = -1;

void front_set_triton_version(int minor) { g_minor = minor; }

int front_triton_version(void)
{
    if (g_minor >= 0) return g_minor;
    return 6 + tt_settings_env()->triton_version;   /* the domain is 3.6|3.7|3.8|3.9 */
}

static const struct vrow {
    const char *name;
    int added, removed;     /* minor versions of 3.x; 0: always there / never removed */
    const char *why;        /* the removing release's message */
} vtab[] = {
    { "squeeze", 7, 0, NULL },
    { "unsqueeze", 7, 0, NULL },
    { "expect_zero", 8, 0, NULL },
    { "aggregate_replace", 8, 0, NULL },
    { "atomic_load", 9, 0, NULL },
    { "atomic_store", 9, 0, NULL },
    { "atomic_poll", 9, 0, NULL },
    { "make_block_ptr", 0, 9, "Block pointers have been removed in favor of the tensor descriptor API" },
    { "advance", 0, 9, "Block pointers have been removed in favor of the tensor descriptor API" },
};

static const struct vrow *row(const char *name)
{
    for (size_t i = 0; i < sizeof vtab / sizeof vtab[0]; i++)
        if (!strcmp(vtab[i].name, name)) return &vtab[i];
    return NULL;
}

void sema_version_attr(sema *S, src_pos p, const char *name)
{
    const struct vrow *r = row(name);
    int v = front_triton_version();
    if (r && r->added && v < r->added)
        sema_error(S, p, "module 'triton.language' has no attribute '%s': tl.%s was added in Triton 3.%d "
                   "(tritium follows Triton 3.%d: TRITIUM_TRITON_VERSION)", name, name, r->added, v);
}

void sema_version_call(sema *S, src_pos p, const char *name, const char **kwn, int nkw)
{
    const struct vrow *r = row(name);
    int v = front_triton_version();
    if (r) {
        sema_version_attr(S, p, name);
        if (r->removed && v >= r->removed)
            sema_error(S, p, "NotImplementedError: %s (tl.%s was removed in Triton 3.%d; tritium follows Triton 3.%d: "
                       "TRITIUM_TRITON_VERSION)", r->why, name, r->removed, v);
    }
    if (v >= 9 && (!strcmp(name, "load") || !strcmp(name, "store")))
        for (int i = 0; i < nkw; i++)
            if (!strcmp(kwn[i], "boundary_check") || !strcmp(kwn[i], "padding_option"))
                sema_error(S, p, "TypeError: %s() got an unexpected keyword argument '%s' (removed in Triton 3.9 "
                           "with block pointers; tritium follows Triton 3.%d: TRITIUM_TRITON_VERSION)",
                           name, kwn[i], v);
}

/* Arguments that builtins gained after 3.6 (core.py cat's dim: 3.7;
 * standard.py cumprod's dtype, math.py fdiv's approx: 3.9). */
static const struct { const char *fn, *arg; int added; } argtab[] = {
    { "cat", "dim", 7 },
    { "cumprod", "dtype", 9 },
    { "fdiv", "approx", 9 },
};

void sema_version_args(sema *S, src_pos p, const bargs *B)
{
    int v = front_triton_version();
    const char *fn = sema_builtin_name(B->id);
    for (size_t i = 0; i < sizeof argtab / sizeof argtab[0]; i++)
        if (v < argtab[i].added && !strcmp(argtab[i].fn, fn) && sema_arg_has(B, argtab[i].arg))
            sema_error(S, p, "%s() got an unexpected keyword argument '%s' (added in Triton 3.%d; tritium follows "
                       "Triton 3.%d: TRITIUM_TRITON_VERSION)", fn, argtab[i].arg, argtab[i].added, v);
}

/* triton.aggregate is public from Triton 3.8 (__init__.py: aggregate =
 * language.core._aggregate); 3.6 and 3.7 have only the private
 * tl.core._aggregate, whose classes must define __init__ in Python. Under
 * those releases Python raises AttributeError at the decorator. */
void sema_version_aggregate(sema *S, src_pos p, const ntclass *k)
{
    int v = front_triton_version();
    if (k->aggregate && v < 8)
        sema_error(S, p, "module 'triton' has no attribute 'aggregate': @triton.aggregate (class %s) was added in "
                   "Triton 3.8 (tritium follows Triton 3.%d: TRITIUM_TRITON_VERSION)", k->tname, v);
}

/* The groups of K elements one uint8 (E8M0) scale of tl.dot_scaled covers:
 * 32 in Triton 3.6 and 3.7 (semantic.py verify_scaled_shape: 16 only for
 * float8e4nv scales), 16 or 32 from 3.8 (semantic.py deduce_scale_factor). */
unsigned sema_version_mx_groups(void)
{
    return front_triton_version() >= 8 ? 16 | 32 : 32;
}
