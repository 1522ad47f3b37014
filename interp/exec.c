/* exec.c — the region executor: one switch over the op families of ops.def
 * (each family has its evaluator, eval_*.c), the debug-hook check before each op (the only per-op cost of debugging,
 * as in Lua's VM), and running one program instance. */
#include "internal.h"

#include <stdio.h>

/* Zeroed memory on cache lines of its own (INTERP_LINE bytes, padded): the
 * programs of a parallel launch write their value tables at every op, and
 * two threads' tables sharing a line would bounce it between their cores. */
void *interp_line_alloc(size_t n)
{
    n = (n + INTERP_LINE - 1) & ~(size_t)(INTERP_LINE - 1);
    void *d = aligned_alloc(INTERP_LINE, n ? n : INTERP_LINE);
    if (!d) die("out of memory (%zu bytes)", n);
    memset(d, 0, n ? n : INTERP_LINE);
    return d;
}

void interp_prog_init(interp_session *s, interp_prog *p)
{
    memset(p, 0, sizeof *p);
    p->s = s;
    p->vals = interp_line_alloc(sizeof *p->vals * (size_t)(s->nvals ? s->nvals : 1));
    p->contig = interp_line_alloc((size_t)(s->nvals ? s->nvals : 1));
    if (s->bounds) {
        p->bnd = interp_line_alloc(sizeof *p->bnd * (size_t)(s->nvals ? s->nvals : 1));
        p->bsrc = interp_line_alloc(sizeof *p->bsrc * (size_t)(s->nvals ? s->nvals : 1));
        p->bcontig = interp_line_alloc((size_t)(s->nvals ? s->nvals : 1));
    }
}

void interp_prog_free(interp_prog *p)
{
    free(p->vals);
    free(p->contig);
    free(p->bnd);
    free(p->bsrc);
    free(p->bcontig);
    p->vals = NULL;
    p->contig = NULL;
    p->bnd = NULL;
    p->bsrc = NULL;
    p->bcontig = NULL;
    ts_free(&p->mem);
}

static int call_hook(interp_prog *p)
{
    interp_session *s = p->s;
    if (TRAP_GET(s->interrupted)) {    /* Ctrl-C (interp_interrupt): unwind program and launch */
        TRAP_SET(s->abort, true);
        return HOOK_ABORT;
    }
    if (!s->hook) return HOOK_CONTINUE;
    interp_frame fr = { s->f, p->region, p->opi, { p->pid[0], p->pid[1], p->pid[2] } };
    pthread_mutex_lock(&s->hook_lock);
    interp_prog *saved = s->cur;
    s->cur = p;
    interp_hook_action act = s->hook(s->hook_user, s, &fr);
    s->cur = saved;
    pthread_mutex_unlock(&s->hook_lock);
    if (act == HOOK_ABORT) TRAP_SET(s->abort, true);
    return act;
}

/* The family of each opcode (ops.def), one byte each for the dispatch. */
static const uint8_t op_family[IR_OP_COUNT] = {
#define X(e, name, mino, maxo, nres, nreg, attrs, props, fam, sig, roles) [IR_##e] = fam,
#include "tritium/ops.def"
#undef X
};

static void store_scalar_int(void *d, int esize, int64_t v)
{
    uint64_t x = (uint64_t)v;
    memcpy(d, &x, (size_t)esize);
}

int interp_exec_region(interp_prog *p, int32_t r, const ir_op **term)
{
    interp_session *s = p->s;
    const ir_region *reg = &s->f->regions.v[r];
    const ir_op *ops = reg->ops;
    int n = reg->nops;
    for (int i = 0; i < n; i++) {
        const ir_op *op = &ops[i];
        p->region = r;
        p->opi = i;
        if (TRAP_GET(s->trap) && call_hook(p) == HOOK_ABORT) return EXEC_ABORT;
        switch (op_family[op->opc]) {
        case F_SOURCE:
            if (op->opc == IR_GET_PID || op->opc == IR_GET_NPROG) {
                unsigned axis = (unsigned)op->attr[0];
                int64_t v = axis < 3 ? (op->opc == IR_GET_PID ? p->pid[axis] : s->grid[axis]) : 0;
                store_scalar_int(interp_result(p, op, 0), s->vi[op->res].esize, v);
            } else {
                p->vals[op->res] = s->constdata[op->res];   /* constants and ranges: built once */
                p->contig[op->res] = (op->opc == IR_MAKE_RANGE ? CT_RUN : CT_UNIF) | interp_ct_single(&s->vi[op->res]);
            }
            break;
        case F_SHAPE:
            if (op->opc == IR_SPLAT) {
                if (s->addr_splat[op->res] && !TRAP_GET(s->trap)) break;
                if (s->constdata[op->res]) {            /* a splat of an argument or constant: built once */
                    p->vals[op->res] = s->constdata[op->res];
                    p->contig[op->res] = CT_UNIF | interp_ct_single(&s->vi[op->res]);
                    break;
                }
            }
            interp_eval_shape(p, op);
            break;
        case F_PTR:
        case F_MEM:
            interp_eval_mem(p, op);
            break;
        case F_DOT:
            interp_eval_dot(p, op);
            break;
        case F_REDUCE:
            if (op->opc == IR_REDUCE) {
                interp_eval_reduce(p, op);
            } else {
                int rc = interp_eval_combine(p, op);
                if (rc != EXEC_OK) return rc;
            }
            break;
        case F_MAP: {
            int rc = interp_eval_map(p, op);
            if (rc != EXEC_OK) return rc;
            break;
        }
        case F_ARITH:
            interp_eval_arith(p, op);
            if (__builtin_expect(s->ovf_any, 0) && s->ovf[s->opbase[r] + i])
                interp_overflow_check(p, op, s->ovf[s->opbase[r] + i]);
            break;
        case F_CAST:
            interp_eval_cast(p, op);
            break;
        case F_MATH:
            interp_eval_math(p, op);
            break;
        case F_HINT:
            break;
        case F_DEBUG: {
            int rc = interp_eval_debug(p, op);
            /* a failed assert: the debugger (if any) stops here, trap or not,
             * with the program's values still live */
            if (rc == EXEC_RETURN && s->hook && call_hook(p) == HOOK_ABORT) return EXEC_ABORT;
            if (rc != EXEC_OK) return rc;
            break;
        }
        case F_ASM:                    /* refused by interp_session_new */
            die("interp: %s cannot run on the CPU", ir_ops[op->opc].name);
        case F_SCF: {
            int rc = interp_eval_scf(p, op);
            if (rc != EXEC_OK) return rc;
            break;
        }
        case F_TERM:
            if (op->opc == IR_RETURN) return EXEC_RETURN;
            *term = op;
            return EXEC_OK;
        default:
            die("interp: op %s is not implemented", ir_ops[op->opc].name);
        }
        if (__builtin_expect(p->bnd != NULL, 0)) interp_bound_op(p, op);
    }
    *term = NULL;
    return EXEC_OK;
}

int interp_prog_run(interp_prog *p, const int64_t pid[3])
{
    interp_session *s = p->s;
    ts_reset(&p->mem);
    memset(p->vals, 0, sizeof *p->vals * (size_t)s->nvals);
    if (p->bnd) memset(p->bnd, 0, sizeof *p->bnd * (size_t)s->nvals);
    const ir_region *body = &s->f->regions.v[IR_BODY];
    for (int i = 0; i < body->nargs; i++) p->vals[body->args[i]] = s->argdata[i];
    for (int d = 0; d < 3; d++) p->pid[d] = pid[d];
    p->lin = interp_lin_of(s->grid, pid);
    p->me = (uint32_t)((p->lin + 1) & SH_PROG);
    p->faulted = p->raced = p->synced = false;
    const ir_op *term = NULL;
    int rc = interp_exec_region(p, IR_BODY, &term);
    if (p->faulted || p->raced) {
        pthread_mutex_lock(&s->rep_lock);
        if (p->faulted) s->fault_programs++;
        if (p->raced) s->race_programs++;
        pthread_mutex_unlock(&s->rep_lock);
    }
    /* a program cut short by interp_interrupt did not run: the partial summary counts finished ones */
    if (rc != EXEC_ABORT || !TRAP_GET(s->interrupted)) __atomic_add_fetch(&s->st.programs, 1, __ATOMIC_RELAXED);
    return rc == EXEC_ABORT ? -1 : 0;
}

int interp_run_program(interp_session *s, const int64_t pid[3])
{
    TRAP_SET(s->abort, false);
    return interp_prog_run(&s->main, pid);
}
