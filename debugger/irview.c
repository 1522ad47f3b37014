/* irview.c — `ir`: the IR of the current source line, the op about to run
 * marked with "=>", in the text form `tritium ir` prints (ir_print_op, so
 * value numbers match). `ir region` shows the whole current region, `ir all`
 * the whole kernel. */
#include "dbg_int.h"

static void print_marked(dbg_session *d, int r, int i, bool mark)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&buf, &len);
    if (!m) return;
    ir_print_op(m, d->fn, r, i, 3);
    fclose(m);
    if (mark && len >= 2) {
        buf[0] = '=';
        buf[1] = '>';
    }
    dbg_printf(d, "%s", buf);
    free(buf);
}

int dbg_cmd_ir(dbg_session *d, const char *args)
{
    if (!d->loaded) return dbg_error(d, "No kernel loaded.");
    const char *s = dbg_skip(args);
    if (!strcmp(s, "all")) {
        fflush(d->out);
        ir_print(d->out, d->fn);
        return 0;
    }
    bool region = !strcmp(s, "region");
    if (*s && !region) return dbg_error(d, "usage: ir [region|all]");
    if (dbg_get_state(d) != DBG_STOPPED || !d->in_prog)
        return dbg_error(d, "No program is stopped (`ir all` prints the whole kernel).");
    int r = d->stop.region, cur = d->stop.op;
    const ir_region *reg = &d->fn->regions.v[r];
    int line = d->stop.line, file = d->stop_file, lv = d->vlevel;
    dbg_frameinfo fr[1];
    int32_t inst = dbg_frames(d, fr, 1) ? fr[0].inst : -1;
    if (!region)
        dbg_printf(d, "%s:%d, program (%lld,%lld,%lld), region %d:\n", file >= 0 ? diag_file_name(file) : "?", line,
                   (long long)d->stop.pid[0], (long long)d->stop.pid[1], (long long)d->stop.pid[2], r);
    fflush(d->out);
    int shown = 0;
    for (int i = 0; i < reg->nops; i++) {
        const dbg_opinfo *oi = &d->ops[d->opbase[r] + i];
        bool on_line = oi->pos >= 0 && oi->depth >= lv && d->pos[oi->pos + lv].line == line &&
                       d->pos[oi->pos + lv].file == file && d->pos[oi->pos + lv].inst == inst;
        if (!region && !on_line && i != cur) continue;
        print_marked(d, r, i, i == cur);
        shown++;
    }
    if (!shown) dbg_printf(d, "(no ops)\n");
    return 0;
}
