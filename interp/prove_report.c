/* prove_report.c — reports of proof mode in the interpreter's fault-report
 * format (report.c): a refuted access reads like the fault the interpreter
 * would report for its counterexample program. */
#include "internal.h"
#include "tritium/prove.h"

#include <inttypes.h>

static const char *verb(int acc)
{
    return acc == 0 ? "reads" : acc == 1 ? "writes" : "atomically updates";
}

void prove_print_access(FILE *out, const prove_input *in, const prove_access *a, const char *replay)
{
    if (a->status == PROVE_PROVED) return;
    const ir_func *f = in->f;
    if (a->status == PROVE_OPEN) {
        fprintf(out, "note: could not prove the %s in bounds: it depends on %s\n", a->opname, a->why);
        interp_quote_loc(f, a->loc, out);
        return;
    }
    const launch_arg *la = &in->l->args[a->arg];
    const tt_tensor *t = la->tensor;
    fprintf(out, "error: out-of-bounds %s in program (%" PRId64 ", %" PRId64 ", %" PRId64 ")", a->opname, a->pid[0],
            a->pid[1], a->pid[2]);
    for (int j = 0; j < in->nforall; j++)
        fprintf(out, "%s%s = %" PRId64, j ? ", " : " with ", in->l->args[in->fa[j].arg].name, a->forall_val[j]);
    fputc('\n', out);
    interp_quote_loc(f, a->loc, out);
    char lb[96], eb[128], tb[96];
    interp_describe_lane(a->tile, a->lane, lb, sizeof lb);
    tt_tensor shape = *t;                                         /* the extent of the counterexample */
    if (in->nforall && t->rank == 1) shape.shape[0] = a->extent;
    interp_describe_elem(&shape, la->name, a->elem, eb, sizeof eb);
    interp_describe_tensor(&shape, t->dtype, tb, sizeof tb);
    fprintf(out, "  %s %s %s", lb, verb(a->acc), eb);
    if (a->elem < 0)
        fprintf(out, ", %" PRId64 " element%s before the start of %s (%s)", -a->elem, a->elem == -1 ? "" : "s",
                la->name, tb);
    else
        fprintf(out, ", but %s has %" PRId64 " elements (%s)", la->name, a->extent, tb);
    if (a->lanes > 1) fprintf(out, "; %" PRId64 " lanes of this op fault in this program", a->lanes);
    fputc('\n', out);
    fprintf(out, "  proved reachable: the lane is masked in and its index is exact (no value of the analysis is approximated)\n");
    if (replay) fprintf(out, "  replay: %s\n", replay);
}
