/* trace.c — the tracer of interp_trace.h: the access call before each
 * memory op, the problem call for each faulting, racing or uninitialized
 * lane (eval_mem.c calls both, only when a tracer is set). */
#include "internal.h"
#include "tritium/interp_trace.h"

void interp_set_tracer(interp_session *s, const interp_tracer *t)
{
    s->trace_access = t ? t->access : NULL;
    s->trace_problem = t ? t->problem : NULL;
    s->trace_user = t ? t->user : NULL;
    s->trace_on = s->trace_access || s->trace_problem;
}

void interp_trace_access(interp_prog *p, const ir_op *op)
{
    interp_session *s = p->s;
    if (!s->trace_access) return;
    interp_access a;
    a.program = p->lin;
    a.loc = op->loc;
    int kmask;
    switch (op->opc) {
    case IR_LOAD:
        a.kind = INTERP_ACC_LOAD;
        a.n = s->vi[op->res].numel;
        a.esize = s->vi[op->res].esize;
        kmask = 1;
        break;
    case IR_STORE:
        a.kind = INTERP_ACC_STORE;
        a.n = s->vi[op->opnd[0]].numel;
        a.esize = s->vi[op->opnd[1]].esize;
        kmask = 2;
        break;
    case IR_ATOMIC_RMW:
        a.kind = INTERP_ACC_ATOMIC;
        a.n = s->vi[op->res].numel;
        a.esize = s->vi[op->res].esize;
        kmask = 2;
        break;
    case IR_ATOMIC_CAS:
    case IR_ATOMIC_POLL:
        a.kind = INTERP_ACC_ATOMIC;
        a.n = s->vi[op->res].numel;
        a.esize = s->vi[op->opnd[1]].esize;  /* cmp / expected: atomic_poll's result is i1 */
        kmask = -1;                        /* no mask operand */
        break;
    default:
        return;                            /* tt.addptr and the pointer casts touch no memory */
    }
    /* every lane of the pointers and the mask (row-heads tiles filled in,
     * 0-d operands splatted), as the lane paths of eval_mem.c read them */
    interp_full(p, op->opnd[0]);
    a.addr = interp_operand(p, op, 0, a.n);
    a.mask = NULL;
    if (kmask > 0 && op->nopnd > kmask) {
        interp_full(p, op->opnd[kmask]);
        a.mask = interp_operand(p, op, kmask, a.n);
    }
    s->trace_access(s->trace_user, &a);
}

void interp_trace_problem(interp_prog *p, int kind, uint64_t addr, int64_t other, int32_t other_loc)
{
    interp_session *s = p->s;
    if (!s->trace_problem) return;
    interp_problem pb;
    pb.program = p->lin;
    pb.kind = interp_site_kind(kind);      /* report.c: the names interp_sites gives */
    pb.fault = FK_IS_FAULT(kind);
    pb.race = FK_IS_RACE(kind);
    pb.loc = s->f->regions.v[p->region].ops[p->opi].loc;
    pb.addr = addr;
    pb.other = pb.race ? other : -1;
    pb.other_loc = pb.race ? other_loc : -1;
    s->trace_problem(s->trace_user, &pb);
}
