/* report.c — libtritium: the report of a run or a check, as text and as
 * data (tritium_report_json). */
#include "api.h"
#include "tritium/diag.h"

#include <jansson.h>
#include <string.h>

tritium_report *api_report_new(void) { return xcalloc(1, sizeof(tritium_report)); }

void api_report_give(tritium_report *r, tritium_report **out)
{
    if (!r->text) r->text = xstrdup("");
    if (!r->output) r->output = xstrdup("");
    if (out) *out = r;
    else tritium_report_free(r);
}

void api_report_sites(tritium_report *r, const tritium_launch *L, const interp_session *s)
{
    int64_t n = interp_sites(s, NULL, 0);
    if (n <= 0) return;
    if (n > 1000) n = 1000;                    /* one per op and kind: bounded by the kernel */
    interp_site_info *v = xcalloc((size_t)n, sizeof *v);
    interp_sites(s, v, n);
    r->sites = xcalloc((size_t)n, sizeof *r->sites);
    r->nsites = (int)n;
    for (int k = 0; k < r->nsites; k++) {
        api_site *o = &r->sites[k];
        o->i = v[k];
        if (v[k].arg >= 0 && v[k].arg < L->l.nargs && L->l.args[v[k].arg].name)
            o->tensor = xstrdup(L->l.args[v[k].arg].name);
        const ir_func *f = L->fn;
        if (f && v[k].loc >= 0 && v[k].loc < f->locs.n) {
            const ir_loc *lc = &f->locs.v[v[k].loc];
            o->file = xstrdup(diag_file_name(lc->file));
            o->line = lc->line;
            o->col = lc->col;
            if (lc->func) o->func = xstrdup(lc->func);
        }
    }
    free(v);
}

static json_t *pid_json(const int64_t p[3])
{
    return json_pack("[III]", (json_int_t)p[0], (json_int_t)p[1], (json_int_t)p[2]);
}

static json_t *site_json(const api_site *s)
{
    json_t *o = json_object();
    json_object_set_new(o, "kind", json_string(s->i.kind));
    json_object_set_new(o, "fault", json_boolean(s->i.fault));
    json_object_set_new(o, "race", json_boolean(s->i.race));
    json_object_set_new(o, "program", pid_json(s->i.pid));
    json_object_set_new(o, "programs", json_integer(s->i.programs));
    json_object_set_new(o, "lanes", json_integer(s->i.lanes));
    json_object_set_new(o, "op", json_string(s->i.op));
    json_object_set_new(o, "file", s->file ? json_string(s->file) : json_null());
    json_object_set_new(o, "line", json_integer(s->line));
    json_object_set_new(o, "col", json_integer(s->col));
    json_object_set_new(o, "function", s->func ? json_string(s->func) : json_null());
    json_object_set_new(o, "tensor", s->tensor ? json_string(s->tensor) : json_null());
    json_object_set_new(o, "element", s->tensor ? json_integer(s->i.elem) : json_null());
    json_object_set_new(o, "other_program", s->i.has_other ? pid_json(s->i.other_pid) : json_null());
    return o;
}

const char *tritium_report_json(const tritium_report *cr)
{
    if (!cr) return "null";
    tritium_report *r = (tritium_report *)cr;  /* the cache only */
    if (r->json) return r->json;
    json_t *o = json_object();
    json_object_set_new(o, "status", json_integer(r->status));
    json_t *st = json_object();
    json_object_set_new(st, "programs", json_integer(r->st.programs));
    json_object_set_new(st, "faults", json_integer(r->st.faults));
    json_object_set_new(st, "fault_lanes", json_integer(r->st.fault_lanes));
    json_object_set_new(st, "races", json_integer(r->st.races));
    json_object_set_new(st, "uninit_reads", json_integer(r->st.uninit_reads));
    json_object_set_new(st, "seconds", json_real(r->st.seconds));
    json_object_set_new(st, "compiled", json_boolean(r->st.compiled));
    json_object_set_new(o, "stats", st);
    json_t *sites = json_array();
    for (int i = 0; i < r->nsites; i++) json_array_append_new(sites, site_json(&r->sites[i]));
    json_object_set_new(o, "sites", sites);
    json_t *chk = r->check_json ? json_loads(r->check_json, 0, NULL) : NULL;
    json_object_set_new(o, "check", chk ? chk : json_null());
    r->json = json_dumps(o, JSON_COMPACT | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(9));
    json_decref(o);
    if (!r->json) r->json = xstrdup("null");
    return r->json;
}

void tritium_report_stats(const tritium_report *r, tritium_stats *st)
{
    if (r) *st = r->st;
    else memset(st, 0, sizeof *st);
}

const char *tritium_report_text(const tritium_report *r) { return r && r->text ? r->text : ""; }
const char *tritium_report_output(const tritium_report *r) { return r && r->output ? r->output : ""; }

void tritium_report_free(tritium_report *r)
{
    if (!r) return;
    for (int i = 0; i < r->nsites; i++) {
        free(r->sites[i].tensor);
        free(r->sites[i].file);
        free(r->sites[i].func);
    }
    free(r->sites);
    free(r->check_json);
    free(r->json);
    free(r->text);
    free(r->output);
    free(r);
}
