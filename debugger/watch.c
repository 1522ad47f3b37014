/* watch.c — watchpoints on buffer elements: `watch out[17]`, `watch
 * out[16:32]`, `watch *(out_ptr + 3705)` (writes), `rwatch` (reads),
 * `awatch` (both).
 *
 * While a watchpoint is enabled the trap is on in every program and the
 * hook looks at each tt.load / tt.store / tt.atomic_* (OPF_MEM) before it
 * runs: the pointer operand's tile (interp_value_data) and its mask give the
 * lanes that will be performed; a lane whose address lies in the watched
 * elements [base + lo*size, base + hi*size) (interp_buffer_base) is a hit.
 * Reads stop before the op, showing the value. Writes remember the old
 * values and stop at the next op (or when the program ends), showing old and
 * new values read from the host tensor, the writing program and its line.
 * Every write stops, also one that stores the same value. */
#include "dbg_int.h"

#include <inttypes.h>

static int add_watch(dbg_session *d, const char *args, int kind)
{
    if (!d->loaded) return dbg_error(d, "No kernel loaded.");
    const char *s = dbg_skip(args);
    if (!*s) return dbg_error(d, "Argument required (BUFFER[INDEX] or BUFFER[LO:HI]).");
    int arg;
    int64_t lo, hi;
    bool slice;
    const char *end = NULL;
    if (*s == '*') {                   /* watch *(out_ptr + 3705): where the pointers reach */
        if (!dbg_deref_run(d, s, &arg, &lo, &hi)) return -1;
        end = s + strlen(s);
        slice = hi - lo > 1;
    } else if (!dbg_parse_bufref(d, s, &arg, 0, &lo, &hi, &slice, &end)) {
        return -1;
    }
    if (!dbg_blank(end)) return dbg_error(d, "Junk at end of arguments: '%s'", dbg_skip(end));
    dbg_bp *b = xcalloc(1, sizeof *b);
    b->num = d->next_bp++;
    b->kind = kind;
    b->enabled = true;
    b->disp = DISP_KEEP;
    size_t n = strlen(s);
    while (n && (s[n - 1] == ' ' || s[n - 1] == '\t')) n--;
    b->what = xstrndup(s, n);
    b->warg = arg;
    b->wlo = lo;
    b->whi = hi;
    b->wname = xstrdup(dbg_buf_tensor(d, arg)->name);
    vec_push(&d->bps, b);
    dbg_bp_flags(d);
    static const char *names[] = { "Watchpoint", "Read watchpoint", "Access watchpoint" };
    dbg_printf(d, "%s %d: %s\n", names[kind - BP_WATCH], b->num, b->what);
    if (d->th_alive && d->s) interp_set_trap(d->s, true);
    return 0;
}

int dbg_cmd_watch(dbg_session *d, const char *args) { return add_watch(d, args, BP_WATCH); }
int dbg_cmd_rwatch(dbg_session *d, const char *args) { return add_watch(d, args, BP_RWATCH); }
int dbg_cmd_awatch(dbg_session *d, const char *args) { return add_watch(d, args, BP_AWATCH); }

/* Element i of a tile that may be 0-d (splatted over the op's lanes). */
static const void *lane(const void *base, int64_t numel, int64_t i, size_t es)
{
    return (const char *)base + (numel == 1 ? 0 : (size_t)i * es);
}

void dbg_watch_check(dbg_session *d, int32_t g, int *reason, int *bpn)
{
    const ir_func *f = d->fn;
    int r = d->gregion[g];
    const ir_op *op = &f->regions.v[r].ops[g - d->opbase[r]];
    int kind = d->ops[g].kind;
    ir_value pv = op->opnd[0];
    int mk = -1;
    int64_t n;
    if (kind == OK_LOAD) { mk = op->nopnd > 1 ? 1 : -1; n = ir_type_numel(ir_value_type(f, op->res)); }
    else if (kind == OK_STORE) { mk = op->nopnd > 2 ? 2 : -1; n = ir_type_numel(ir_value_type(f, pv)); }
    else { mk = op->opc == IR_ATOMIC_RMW && op->nopnd > 2 ? 2 : -1; n = ir_type_numel(ir_value_type(f, op->res)); }
    const uint64_t *ptr = interp_value_data(d->s, pv);
    if (!ptr) return;
    int64_t pn = ir_type_numel(ir_value_type(f, pv));
    const uint8_t *mask = mk >= 0 ? interp_value_data(d->s, op->opnd[mk]) : NULL;
    int64_t mn = mk >= 0 ? ir_type_numel(ir_value_type(f, op->opnd[mk])) : 0;
    bool reads = kind == OK_LOAD || kind == OK_ATOMIC;
    bool writes = kind == OK_STORE || kind == OK_ATOMIC;
    for (int i = 0; i < d->bps.n; i++) {
        dbg_bp *b = d->bps.v[i];
        if (!b->enabled || b->kind < BP_WATCH) continue;
        bool want_r = b->kind != BP_WATCH, want_w = b->kind != BP_RWATCH;
        if (!((reads && want_r) || (writes && want_w))) continue;
        const tt_tensor *t = dbg_buf_tensor(d, b->warg);
        size_t es = (size_t)tt_dtype_size(t->dtype);
        uint64_t base = interp_buffer_base(d->s, b->warg);
        uint64_t lo = base + (uint64_t)b->wlo * es, hi = base + (uint64_t)b->whi * es;
        int64_t hits = 0;
        int64_t elems[8];
        int nel = 0;
        for (int64_t l = 0; l < n; l++) {
            if (mask && !*(const uint8_t *)lane(mask, mn, l, 1)) continue;
            uint64_t a = *(const uint64_t *)lane(ptr, pn, l, 8);
            if (a < lo || a >= hi) continue;
            int64_t e = (int64_t)((a - base) / es);
            bool dup = false;
            for (int k = 0; k < nel; k++) dup |= elems[k] == e;
            if (dup) continue;
            hits++;
            if (nel < 8) elems[nel++] = e;
        }
        if (!hits) continue;
        b->hits++;
        if (writes && want_w) {
            /* stop after the op, when the new values are there */
            d->wpend.active = true;
            d->wpend.bp = b->num;
            d->wpend.nhit = nel;
            d->wpend.total = hits;
            d->wpend.g = g;
            for (int k = 0; k < nel; k++) {
                d->wpend.elem[k] = elems[k];
                memcpy(d->wpend.old[k], (const char *)t->data + (size_t)elems[k] * es, es);
            }
            return;
        }
        /* a read: stop before it */
        sb_printf(&d->stop_msg, "\n%s %d: %s\n\n", b->kind == BP_RWATCH ? "Read watchpoint" : "Access watchpoint",
                  b->num, b->what);
        for (int k = 0; k < nel; k++) {
            char *nm = dbg_elem_name(d, b->warg, elems[k]);
            char *v = dbg_elem_str(d, b->warg, elems[k]);
            if (nel == 1 && hits == 1) sb_printf(&d->stop_msg, "Value = %s\n", v);
            else sb_printf(&d->stop_msg, "%s = %s\n", nm, v);
            free(nm);
            free(v);
        }
        if (hits > nel) sb_printf(&d->stop_msg, "... and %" PRId64 " more elements\n", hits - nel);
        *reason = DBG_STOP_WATCH;
        *bpn = b->num;
        return;
    }
}

void dbg_watch_finish(dbg_session *d, int *reason, int *bpn)
{
    dbg_wpend *w = &d->wpend;
    w->active = false;
    dbg_bp *b = dbg_bp_find(d, w->bp);
    if (!b) return;
    const tt_tensor *t = dbg_buf_tensor(d, b->warg);
    tt_dtype dt = t->dtype;
    size_t es = (size_t)tt_dtype_size(dt);
    sb_printf(&d->stop_msg, "\n%s %d: %s\n\n", b->kind == BP_WATCH ? "Watchpoint" : "Access watchpoint", b->num, b->what);
    for (int k = 0; k < w->nhit; k++) {
        dbg_value ov = { .dt = dt, .numel = 1 };
        ov.data = xmalloc(es);
        memcpy(ov.data, w->old[k], es);
        char *o = dbg_elem_format(&ov, 0, 0);
        char *nv = dbg_elem_str(d, b->warg, w->elem[k]);
        if (w->nhit == 1 && w->total == 1 && b->whi - b->wlo == 1) {
            sb_printf(&d->stop_msg, "Old value = %s\nNew value = %s\n", o, nv);
        } else {
            char *nm = dbg_elem_name(d, b->warg, w->elem[k]);
            sb_printf(&d->stop_msg, "%s: old value = %s, new value = %s\n", nm, o, nv);
            free(nm);
        }
        free(o);
        free(nv);
        dbg_value_free(&ov);
    }
    if (w->total > w->nhit) sb_printf(&d->stop_msg, "... and %" PRId64 " more elements written\n", w->total - w->nhit);
    const dbg_opinfo *oi = &d->ops[w->g];
    int64_t pid[3];
    char pb[80];
    interp_pid_of(d->grid, d->cur, pid);
    const ir_op *op = &d->fn->regions.v[d->gregion[w->g]].ops[w->g - d->opbase[d->gregion[w->g]]];
    sb_printf(&d->stop_msg, "Written by program %s (%s) at %s:%d\n", dbg_pid_str(pid, pb, sizeof pb), ir_ops[op->opc].name,
              oi->file >= 0 ? diag_file_name(oi->file) : "?", oi->line);
    *reason = DBG_STOP_WATCH;
    *bpn = b->num;
}
