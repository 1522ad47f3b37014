/* module.c — libtritium: versions, errors, kernel modules and their cache of
 * compiled specializations. */
#include "api.h"
#include "tritium/diag.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#ifndef TRITIUM_VERSION
#define TRITIUM_VERSION "unknown"
#endif

static _Thread_local char *last_error;
static _Thread_local FILE *capture, *captured_prev;
static _Thread_local char *capture_buf;
static _Thread_local size_t capture_len;

int tritium_api_version(void) { return TRITIUM_API_VERSION; }
const char *tritium_version(void) { return TRITIUM_VERSION; }
int tritium_max_rank(void) { return TT_MAX_RANK; }
int tritium_triton_module(const char *name) { return front_triton_module(name); }
const char *tritium_last_error(void) { return last_error ? last_error : ""; }

void api_clear_error(void)
{
    free(last_error);
    last_error = NULL;
}

void api_fail(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char buf[1024];
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    free(last_error);
    last_error = xstrdup(buf);
}

void api_capture_begin(void)
{
    capture = open_memstream(&capture_buf, &capture_len);
    captured_prev = diag_set_stream(capture);
}

void api_capture_end(bool fail)
{
    diag_set_stream(captured_prev);
    if (!capture) return;
    fclose(capture);
    capture = NULL;
    if (fail) {
        free(last_error);
        last_error = capture_buf && *capture_buf ? capture_buf : xstrdup("tritium: error (no message)");
    } else {
        if (capture_buf && *capture_buf) fputs(capture_buf, stderr);   /* warnings */
        free(capture_buf);
    }
    capture_buf = NULL;
}

static tritium_module *module_wrap(front_module *fm)
{
    if (!fm) return NULL;
    tritium_module *m = xcalloc(1, sizeof *m);
    m->fm = fm;
    return m;
}

tritium_module *tritium_module_load(const char *path)
{
    if (!path) { api_fail("tritium_module_load: no path"); return NULL; }
    api_capture_begin();
    front_module *fm = front_load(path);
    api_capture_end(!fm);
    return module_wrap(fm);
}

tritium_module *tritium_module_load_text(const char *name, const char *text)
{
    if (!name || !text) { api_fail("tritium_module_load_text: no name or text"); return NULL; }
    api_capture_begin();
    front_module *fm = front_load_text(name, text);
    api_capture_end(!fm);
    return module_wrap(fm);
}

tritium_module *tritium_module_load_live(const char *name, const char *json)
{
    if (!name || !json) { api_fail("tritium_module_load_live: no name or JSON"); return NULL; }
    api_capture_begin();
    front_module *fm = front_load_live(name, json);
    api_capture_end(!fm);
    return module_wrap(fm);
}

void tritium_module_free(tritium_module *m)
{
    if (!m) return;
    for (int i = 0; i < m->cache.n; i++) {
        free(m->cache.v[i].key);
        ir_func_free(m->cache.v[i].fn);
    }
    vec_free(&m->cache);
    front_module_free(m->fm);
    free(m);
}

int tritium_module_kernel_count(const tritium_module *m) { return m ? front_function_count(m->fm) : 0; }
const char *tritium_module_kernel_name(const tritium_module *m, int i) { return m ? front_function_name(m->fm, i) : NULL; }
int tritium_module_compiled_count(const tritium_module *m) { return m ? m->cache.n : 0; }
