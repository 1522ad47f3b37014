/* api.h — libtritium's internals shared between the files of api/ (tritium.h is the
 * public side), and with the command line's entry points that ship in the
 * library (repl/debug_api.c: tritium_debug). api/ itself uses the engine
 * (compiler, interp/, debugger/ through their include/tritium headers) and
 * nothing of repl/. */
#ifndef TRITIUM_API_INT_H
#define TRITIUM_API_INT_H

#include "tritium/tritium.h"
#include "tritium/front.h"
#include "tritium/launch.h"
#include "tritium/interp.h"

/* One compiled specialization of a kernel. */
typedef struct api_compiled {
    char *key;                     /* api_spec_key */
    ir_func *fn;
} api_compiled;

struct tritium_module {
    front_module *fm;
    struct { api_compiled *v; int n, cap; } cache;
};

/* A value given to the launch builder, by parameter name. */
typedef struct api_value {
    char *name;
    bool is_const;
    bool extra;                    /* tritium_launch_extra: no kernel parameter */
    int64_t dshape[TT_MAX_RANK], dstrides[TT_MAX_RANK];   /* a descriptor's (arg.desc_rank) */
    int64_t *ptr_addr;             /* a pointer table's host addresses (arg.ptr_n of them) */
    launch_arg arg;                /* !is_const (arg.name unset) */
    const void *result;            /* tritium_launch_result: the other run's storage, or NULL */
    launch_const c;                /* is_const (c.name unset) */
} api_value;

struct tritium_launch {
    tritium_module *m;
    char *kernel;
    const front_param *params; int nparams;
    struct { api_value *v; int n, cap; } vals;
    int64_t grid[3];
    int num_warps;
    int debug;                     /* LAUNCH_DEBUG_* */
    launch l;                      /* assembled by api_assemble (borrows the tensors) */
    bool assembled;
    ir_func *fn;                   /* compiled for l (owned by the module's cache) */
    bool compiled_now;             /* the last compile missed the cache */
};

/* One report site (interp_site_info) with its strings copied, so that the
 * report outlives the launch and the module. */
typedef struct api_site {
    interp_site_info i;
    char *tensor;                  /* the argument's name, NULL when none */
    char *file, *func;             /* NULL when unknown */
    int line, col;
} api_site;

struct tritium_report {
    int status;                    /* what the call returned */
    tritium_stats st;
    char *text;
    char *output;                  /* device_print output */
    api_site *sites; int nsites;
    char *check_json;              /* tritium_check: the diff's JSON object, else NULL */
    char *json;                    /* tritium_report_json, made on first use */
};

tritium_report *api_report_new(void);
/* Hand r to *out (or free it when out is NULL); an unset text becomes "". */
void api_report_give(tritium_report *r, tritium_report **out);
/* Copy the sites of session s (run with L's kernel and launch) into r. */
void api_report_sites(tritium_report *r, const tritium_launch *L, const interp_session *s);

/* Record the failure message (printf format) for tritium_last_error. */
void api_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void api_clear_error(void);
/* Start capturing diagnostics (diag.h) into a buffer; api_capture_end
 * restores the stream and, when fail is set, makes the text the last error. */
void api_capture_begin(void);
void api_capture_end(bool fail);

/* Build L->l from the values, in the kernel's parameter order; compile or
 * fetch from the module's cache. TRITIUM_OK or TRITIUM_INPUT_ERROR. */
int api_prepare(tritium_launch *L);

#endif
