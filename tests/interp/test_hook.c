/* test_hook.c — the debug hook: called before every op while the trap flag
 * is set, values inspectable, HOOK_ABORT unwinds the launch. */
#include <string.h>

#include "tinterp.h"

typedef struct hook_state {
    int calls;
    int stores_checked;
    int64_t abort_at;              /* program x at which to abort, -1: never */
    kb *k;
    bool value_was_null;
} hook_state;

static interp_hook_action hook(void *user, interp_session *s, const interp_frame *fr)
{
    hook_state *h = user;
    h->calls++;
    if (fr->pid[0] == h->abort_at) return HOOK_ABORT;
    const ir_op *op = &fr->fn->regions.v[fr->region].ops[fr->op];
    if (op->opc == IR_ADDF) {
        /* about to compute x + y: its result is not there yet */
        h->value_was_null |= interp_value_data(s, op->res) != NULL;
    }
    if (op->opc == IR_STORE) {
        /* the stored value is x + y of this program's block */
        const float *v = interp_value_data(s, op->opnd[1]);
        const float *x = kb_tensor(h->k, 0)->data, *y = kb_tensor(h->k, 1)->data;
        int64_t base = fr->pid[0] * 1024;
        for (int i = 0; i < 1024 && base + i < 5000; i++) ck_assert(v[i] == x[base + i] + y[base + i]);
        h->stores_checked++;
    }
    return HOOK_CONTINUE;
}

START_TEST(hook_sees_values)
{
    kb k;
    build_vadd(&k, 5000, 5000, 1024, true);
    hook_state h = { .abort_at = -1, .k = &k };
    interp_session *s = kb_session(&k, NULL);
    interp_set_hook(s, hook, &h);
    interp_set_trap(s, true);
    ck_assert_int_eq(interp_run_launch(s), 0);
    ck_assert_int_eq(h.stores_checked, 5);
    ck_assert(!h.value_was_null);
    int nops = k.f->regions.v[IR_BODY].nops;
    ck_assert_int_eq(h.calls, 5 * nops);
    /* trap off: the hook is not called */
    h.calls = 0;
    interp_set_trap(s, false);
    ck_assert_int_eq(interp_run_launch(s), 0);
    ck_assert_int_eq(h.calls, 0);
    interp_session_free(s);
    kb_free(&k);
}
END_TEST

START_TEST(hook_abort)
{
    kb k;
    build_vadd(&k, 5000, 5000, 1024, true);
    hook_state h = { .abort_at = 2, .k = &k };
    interp_session *s = kb_session(&k, NULL);
    interp_set_hook(s, hook, &h);
    interp_set_trap(s, true);
    ck_assert_int_eq(interp_run_launch(s), -1);
    interp_stats st;
    interp_get_stats(s, &st);
    ck_assert_int_eq(st.programs, 3);          /* 0, 1, and the aborted 2 */
    ck_assert_int_eq(h.stores_checked, 2);
    const float *o = kb_tensor(&k, 2)->data;
    ck_assert(o[2048] == 0.0f && o[4999] == 0.0f);
    ck_assert(o[1023] != 0.0f);
    /* one program through interp_run_program, aborted */
    int64_t p[3] = { 2, 0, 0 };
    ck_assert_int_eq(interp_run_program(s, p), -1);
    interp_session_free(s);
    kb_free(&k);
}
END_TEST

TCase *hook_tcase(void)
{
    TCase *tc = tcase_create("hook");
    tcase_add_test(tc, hook_sees_values);
    tcase_add_test(tc, hook_abort);
    return tc;
}
