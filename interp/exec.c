/* exec.c — the region executor: one switch over the opcodes of ops.def,
 * the debug-hook check before each op (the only per-op cost of debugging,
 * as in Lua's VM), and running one program instance. */
#include "internal.h"

#include <stdio.h>

void interp_prog_init(interp_session *s, interp_prog *p)
{
    memset(p, 0, sizeof *p);
    p->s = s;
    p->vals = xcalloc((size_t)(s->nvals ? s->nvals : 1), sizeof *p->vals);
    p->contig = xcalloc((size_t)(s->nvals ? s->nvals : 1), 1);
}

void interp_prog_free(interp_prog *p)
{
    free(p->vals);
    free(p->contig);
    p->vals = NULL;
    p->contig = NULL;
    ts_free(&p->mem);
}

static int call_hook(interp_prog *p)
{
    interp_session *s = p->s;
    if (!s->hook) return HOOK_CONTINUE;
    interp_frame fr = { s->f, p->region, p->opi, { p->pid[0], p->pid[1], p->pid[2] } };
    pthread_mutex_lock(&s->hook_lock);
    interp_prog *saved = s->cur;
    s->cur = p;
    interp_hook_action act = s->hook(s->hook_user, s, &fr);
    s->cur = saved;
    pthread_mutex_unlock(&s->hook_lock);
    if (act == HOOK_ABORT) s->abort = true;
    return act;
}

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
        if (s->trap && call_hook(p) == HOOK_ABORT) return EXEC_ABORT;
        switch (op->opc) {
        case IR_CONSTANT:
        case IR_MAKE_RANGE:
            p->vals[op->res] = s->constdata[op->res];
            break;
        case IR_GET_PID:
        case IR_GET_NPROG: {
            unsigned axis = (unsigned)op->attr[0];
            int64_t v = axis < 3 ? (op->opc == IR_GET_PID ? p->pid[axis] : s->grid[axis]) : 0;
            store_scalar_int(interp_result(p, op, 0), s->vi[op->res].esize, v);
            break;
        }
        case IR_SPLAT:
            if (s->addr_splat[op->res] && !s->trap) break;
            interp_eval_shape(p, op);
            break;
        case IR_BROADCAST: case IR_EXPAND_DIMS: case IR_RESHAPE: case IR_TRANS: case IR_BITCAST:
            interp_eval_shape(p, op);
            break;
        case IR_ADDPTR: case IR_INT_TO_PTR: case IR_PTR_TO_INT:
        case IR_LOAD: case IR_STORE: case IR_ATOMIC_RMW: case IR_ATOMIC_CAS:
            interp_eval_mem(p, op);
            break;
        case IR_DOT:
            interp_eval_dot(p, op);
            break;
        case IR_REDUCE:
            interp_eval_reduce(p, op);
            break;
        case IR_ADDI: case IR_SUBI: case IR_MULI: case IR_DIVSI: case IR_DIVUI: case IR_REMSI: case IR_REMUI:
        case IR_ANDI: case IR_ORI: case IR_XORI: case IR_SHLI: case IR_SHRSI: case IR_SHRUI:
        case IR_MAXSI: case IR_MINSI: case IR_MAXUI: case IR_MINUI: case IR_MULHIUI: case IR_CMPI:
        case IR_ADDF: case IR_SUBF: case IR_MULF: case IR_DIVF: case IR_REMF:
        case IR_MAXNUMF: case IR_MINNUMF: case IR_MAXIMUMF: case IR_MINIMUMF: case IR_CMPF: case IR_SELECT:
            interp_eval_arith(p, op);
            if (__builtin_expect(s->ovf_any, 0) && s->ovf[s->opbase[r] + i])
                interp_overflow_check(p, op, s->ovf[s->opbase[r] + i]);
            break;
        case IR_EXTSI: case IR_EXTUI: case IR_TRUNCI: case IR_SITOFP: case IR_UITOFP:
        case IR_FPTOSI: case IR_FPTOUI: case IR_EXTF: case IR_TRUNCF:
            interp_eval_cast(p, op);
            break;
        case IR_EXP: case IR_EXP2: case IR_LOG: case IR_LOG2: case IR_SQRT: case IR_RSQRT: case IR_SIN:
        case IR_COS: case IR_ERF: case IR_FLOOR: case IR_CEIL: case IR_ABSF: case IR_ABSI: case IR_FMA:
            interp_eval_math(p, op);
            break;
        case IR_ASSUME:
        case IR_BARRIER:
            break;
        case IR_FOR:
        case IR_IF:
        case IR_WHILE: {
            int rc = interp_eval_scf(p, op);
            if (rc != EXEC_OK) return rc;
            break;
        }
        case IR_CONDITION:
        case IR_YIELD:
            *term = op;
            return EXEC_OK;
        case IR_RETURN:
            return EXEC_RETURN;
        default:
            die("interp: op %s is not implemented", ir_ops[op->opc].name);
        }
    }
    *term = NULL;
    return EXEC_OK;
}

int interp_prog_run(interp_prog *p, const int64_t pid[3])
{
    interp_session *s = p->s;
    ts_reset(&p->mem);
    memset(p->vals, 0, sizeof *p->vals * (size_t)s->nvals);
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
    __atomic_add_fetch(&s->st.programs, 1, __ATOMIC_RELAXED);
    return rc == EXEC_ABORT ? -1 : 0;
}

int interp_run_program(interp_session *s, const int64_t pid[3])
{
    s->abort = false;
    return interp_prog_run(&s->main, pid);
}
