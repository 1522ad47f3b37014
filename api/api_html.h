/* api_html.h — libtritium's HTML page (tritium_html_begin, api/html.c):
 * the hooks tritium_run and tritium_check call around their interpreter
 * runs. Each does nothing while no page is being collected. */
#ifndef TRITIUM_API_HTML_H
#define TRITIUM_API_HTML_H

#include "api.h"
#include "tritium/page.h"

struct dbg_diff_options;

/* The launch run by session s (on launch l: L's, or a copy of it), before
 * it runs; NULL when no page is collected. */
page_launch *api_html_begin(const tritium_launch *L, const launch *l, interp_session *s, int schedule, int numerics);
/* After the run (and page_launch_diff for a check), s still alive. */
void api_html_end(page_launch *pl, interp_session *s);
/* tritium_check against the GPU: collect the diff engine's interpreter run. */
void api_html_watch_diff(struct dbg_diff_options *o, const tritium_launch *L);

#endif
