/* diff_json.c — the diff engine's report as JSON (tritium/diff.h,
 * dbg_diff_json_fill): `tritium diff --json` and the C API's check report
 * print the same fields. */
#include "tritium/diff.h"
#include "tritium/diag.h"

#include <jansson.h>
#include <math.h>
#include <stdio.h>

static json_t *jnum(double d)
{
    if (isnan(d)) return json_string("nan");
    if (isinf(d)) return json_string(d > 0 ? "inf" : "-inf");
    return json_real(d);
}

static json_t *jvalue(tt_dtype d, uint64_t bits)
{
    if (d == TT_BOOL) return json_boolean(bits & 1);
    if (tt_dtype_is_int(d)) {
        if (d == TT_U64 && bits > (uint64_t)INT64_MAX) {
            char b[32];
            snprintf(b, sizeof b, "%llu", (unsigned long long)bits);
            return json_string(b);
        }
        return json_integer((json_int_t)tt_load_i64(&bits, d, 0));
    }
    return jnum(tt_load_f64(&bits, d, 0));
}

static json_t *jindex(const dbg_diff_tensor *t, int64_t lin)
{
    if (lin < 0) return json_null();
    json_t *a = json_array();
    int64_t idx[TT_MAX_RANK];
    tt_unravel(t->shape, t->rank, lin, idx);
    for (int d = 0; d < t->rank; d++) json_array_append_new(a, json_integer(idx[d]));
    return a;
}

static json_t *julp(uint64_t u)
{
    return u == UINT64_MAX ? json_string("nan") : json_integer((json_int_t)(u > (uint64_t)INT64_MAX ? INT64_MAX : u));
}

static json_t *tensor_json(const dbg_diff_tensor *t)
{
    json_t *o = json_object();
    json_object_set_new(o, "name", json_string(t->name));
    json_object_set_new(o, "dtype", json_string(tt_dtype_name(t->dtype)));
    json_t *sh = json_array();
    for (int d = 0; d < t->rank; d++) json_array_append_new(sh, json_integer(t->shape[d]));
    json_object_set_new(o, "shape", sh);
    json_object_set_new(o, "numel", json_integer(t->numel));
    json_object_set_new(o, "ok", json_boolean(t->ok));
    json_object_set_new(o, "mismatches", json_integer(t->mismatches));
    json_object_set_new(o, "written_interp", json_boolean(t->written_interp));
    json_object_set_new(o, "written_gpu", json_boolean(t->written_gpu));
    json_object_set_new(o, "exact", json_boolean(t->exact));
    json_object_set_new(o, "rule", json_string(t->bounds ? "bounds" : "tolerance"));
    if (t->bounds) {
        json_object_set_new(o, "inexact", json_integer(t->inexact));
        json_object_set_new(o, "unmodeled", json_integer(t->unmodeled));
        json_object_set_new(o, "within", json_integer(t->within));
        json_object_set_new(o, "max_bound", jnum(t->max_bound));
        json_object_set_new(o, "max_bound_op", t->max_bound_why[0] ? json_string(t->max_bound_why) : json_null());
    }
    json_object_set_new(o, "rtol", json_real(t->rtol));
    json_object_set_new(o, "atol", json_real(t->atol));
    json_object_set_new(o, "ulp", t->ulp >= 0 ? json_integer(t->ulp) : json_null());
    json_object_set_new(o, "math_ulp", json_integer(t->math_ulp));   /* 0: none (dbg_diff_math_ulp) */
    json_object_set_new(o, "max_abs", jnum(t->max_abs));
    json_object_set_new(o, "max_abs_at", jindex(t, t->max_abs_at));
    json_object_set_new(o, "max_rel", jnum(t->max_rel));
    json_object_set_new(o, "max_rel_at", jindex(t, t->max_rel_at));
    json_object_set_new(o, "max_ulp", julp(t->max_ulp));
    json_object_set_new(o, "max_ulp_at", jindex(t, t->max_ulp_at));
    json_t *first = json_array();
    for (int k = 0; k < t->nfirst; k++) {
        const dbg_diff_elem *e = &t->first[k];
        json_t *j = json_object();
        json_object_set_new(j, "index", jindex(t, e->elem));
        json_object_set_new(j, "linear", json_integer(e->elem));
        json_object_set_new(j, "interp", jvalue(t->dtype, e->ref_bits));
        json_object_set_new(j, "gpu", jvalue(t->dtype, e->got_bits));
        json_object_set_new(j, "abs_err", jnum(e->abs_err));
        json_object_set_new(j, "ulp", julp(e->ulp));
        if (t->bounds)
            json_object_set_new(j, "bound", e->has_bound ? json_pack("{s:o,s:o,s:s}", "dn", jnum(e->bdn), "up", jnum(e->bup),
                                                                       "op", e->why)
                                                         : json_null());
        if (e->has_writer) {
            json_t *w = json_object();
            json_object_set_new(w, "program", json_pack("[III]", (json_int_t)e->pid[0], (json_int_t)e->pid[1],
                                                        (json_int_t)e->pid[2]));
            json_object_set_new(w, "file", e->file >= 0 ? json_string(diag_file_name(e->file)) : json_null());
            json_object_set_new(w, "line", json_integer(e->file >= 0 ? e->line : 0));
            json_object_set_new(w, "col", json_integer(e->file >= 0 ? e->col : 0));
            json_object_set_new(w, "function", e->func[0] ? json_string(e->func) : json_null());
            json_object_set_new(j, "written_by", w);
        } else {
            json_object_set_new(j, "written_by", json_null());
        }
        json_array_append_new(first, j);
    }
    json_object_set_new(o, "first", first);
    return o;
}

void dbg_diff_json_fill(json_t *o, const dbg_diff_report *r)
{
    json_object_set_new(o, "status", json_integer(r->status));
    json_object_set_new(o, "grid", json_pack("[III]", (json_int_t)r->grid[0], (json_int_t)r->grid[1],
                                             (json_int_t)r->grid[2]));
    json_object_set_new(o, "num_warps", json_integer(r->num_warps));
    json_object_set_new(o, "message", json_string(r->message));
    json_t *gj = json_object();
    json_object_set_new(gj, "ran", json_boolean(r->gpu_ran));
    json_object_set_new(gj, "failed", json_boolean(r->gpu_failed));
    json_object_set_new(gj, "device", json_string(r->gpu.device));
    json_object_set_new(gj, "arch", json_string(r->gpu.arch));
    json_object_set_new(gj, "kernel_ms", json_real(r->gpu.kernel_ms));
    json_object_set_new(gj, "compile_ms", json_real(r->gpu.compile_ms));
    json_object_set_new(o, "gpu", gj);
    json_t *ij = json_object();
    json_object_set_new(ij, "programs", json_integer(r->interp.programs));
    json_object_set_new(ij, "faults", json_integer(r->interp.faults));
    json_object_set_new(ij, "races", json_integer(r->interp.races));
    json_object_set_new(ij, "uninit_reads", json_integer(r->interp.uninit_reads));
    json_object_set_new(ij, "seconds", json_real(r->interp.seconds));
    json_object_set_new(o, "interp", ij);
    json_t *ts = json_array();
    for (int i = 0; i < r->ntensors; i++) json_array_append_new(ts, tensor_json(&r->tensors[i]));
    json_object_set_new(o, "tensors", ts);
    json_t *un = json_array();
    for (int i = 0; i < r->nunwritten; i++) json_array_append_new(un, json_string(r->unwritten[i]));
    json_object_set_new(o, "unwritten", un);
}
