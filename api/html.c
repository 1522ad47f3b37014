/* html.c — libtritium's HTML page (tritium.h: tritium_html_begin ...): one
 * page (include/tritium/page.h) that every tritium_run and tritium_check of
 * the process adds its launch to while it is collected; python -m tritium
 * --html FILE and the pytest plugin use it. */
#include "api_html.h"
#ifdef TRITIUM_HAVE_GPU
#include "tritium/diff.h"
#endif

#include <pthread.h>
#include <string.h>

static pthread_mutex_t g_lock = PTHREAD_MUTEX_INITIALIZER;
static page_doc *g_doc;
static char *g_path;
static bool g_paused;

int tritium_html_begin(const char *path, const char *title)
{
    api_clear_error();
    if (!path || !*path) {
        api_fail("tritium_html_begin: no file name");
        return TRITIUM_INPUT_ERROR;
    }
    pthread_mutex_lock(&g_lock);
    if (g_doc) {
        pthread_mutex_unlock(&g_lock);
        api_fail("tritium_html_begin: a page (%s) is already being collected", g_path);
        return TRITIUM_INPUT_ERROR;
    }
    g_doc = page_doc_new(title && *title ? title : "tritium");
    g_path = xstrdup(path);
    g_paused = false;
    pthread_mutex_unlock(&g_lock);
    return TRITIUM_OK;
}

int tritium_html_pause(int paused)
{
    pthread_mutex_lock(&g_lock);
    int was = g_paused;
    g_paused = paused != 0;
    pthread_mutex_unlock(&g_lock);
    return was;
}

static int write_locked(int64_t *bytes)
{
    if (!g_doc) {
        api_fail("tritium_html_write: no page is being collected (tritium_html_begin)");
        return TRITIUM_INPUT_ERROR;
    }
    char err[512] = "";
    size_t n = 0;
    if (page_doc_write(g_doc, g_path, &n, err, sizeof err)) {
        api_fail("tritium: error: --html: %s", err);
        return TRITIUM_INPUT_ERROR;
    }
    if (bytes) *bytes = (int64_t)n;
    return TRITIUM_OK;
}

int tritium_html_write(int64_t *bytes)
{
    api_clear_error();
    pthread_mutex_lock(&g_lock);
    int rc = write_locked(bytes);
    pthread_mutex_unlock(&g_lock);
    return rc;
}

int tritium_html_end(int64_t *bytes)
{
    api_clear_error();
    pthread_mutex_lock(&g_lock);
    int rc = write_locked(bytes);
    page_doc_free(g_doc);
    g_doc = NULL;
    free(g_path);
    g_path = NULL;
    pthread_mutex_unlock(&g_lock);
    return rc;
}

int tritium_html_launches(void)
{
    pthread_mutex_lock(&g_lock);
    int n = g_doc ? page_doc_launches(g_doc) : 0;
    pthread_mutex_unlock(&g_lock);
    return n;
}

page_launch *api_html_begin(const tritium_launch *L, const launch *l, interp_session *s, int schedule, int numerics)
{
    pthread_mutex_lock(&g_lock);
    page_launch *pl = NULL;
    if (g_doc && !g_paused && s) {
        char label[48];
        snprintf(label, sizeof label, "launch %d", page_doc_launches(g_doc) + 1);
        page_launch_info info = { .label = label, .file = NULL,
                                  .schedule = interp_sched_name((interp_sched)schedule),
                                  .numerics = tt_numerics_name((tt_numerics)numerics), .seed = l->seed };
        pl = page_launch_begin(g_doc, L->fn, l, s, &info);
    }
    pthread_mutex_unlock(&g_lock);
    return pl;
}

void api_html_end(page_launch *pl, interp_session *s)
{
    if (pl) page_launch_end(pl, s);
}

#ifdef TRITIUM_HAVE_GPU
typedef struct watch {
    const tritium_launch *L;
    int schedule, numerics;
    page_launch *pl;
} watch;

static _Thread_local watch t_watch;

static void on_session(void *user, interp_session *s, const launch *l)
{
    watch *w = user;
    w->pl = api_html_begin(w->L, l, s, w->schedule, w->numerics);
}

static void on_done(void *user, const launch *in, const launch *ref, interp_session *s, const launch *got,
                    const struct dbg_diff_report *r)
{
    (void)in;
    watch *w = user;
    if (!w->pl) return;
    page_launch_diff(w->pl, ref, got, r);
    api_html_end(w->pl, s);
    w->pl = NULL;
}

void api_html_watch_diff(struct dbg_diff_options *o, const tritium_launch *L)
{
    pthread_mutex_lock(&g_lock);
    bool on = g_doc && !g_paused;
    pthread_mutex_unlock(&g_lock);
    if (!on) return;
    t_watch = (watch){ L, (int)o->sched, (int)o->numerics, NULL };
    o->on_session = on_session;
    o->on_done = on_done;
    o->watch_user = &t_watch;
}
#else
void api_html_watch_diff(struct dbg_diff_options *o, const tritium_launch *L)
{
    (void)o;
    (void)L;
}
#endif
