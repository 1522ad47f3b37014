/* test_report.c — faults (out of bounds, misaligned, wrong element size),
 * races and uninitialized reads: detected, reported with the program, the
 * source line, the buffer, the index and the extent, counted, and never
 * performed. */
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "tinterp.h"

static int count_str(const char *hay, const char *needle)
{
    int n = 0;
    for (const char *p = hay; (p = strstr(p, needle)); p++) n++;
    return n;
}

#define HAS(rep, s) ck_assert_msg(strstr((rep), (s)) != NULL, "report lacks \"%s\":\n%s", (s), (rep))

START_TEST(oob_store)
{
    /* x and y have 4200 elements, out only 4100: program 4 stores lanes
     * 4096..4199, of which 100 are out of bounds */
    kb k;
    build_vadd(&k, 4200, 4100, 1024, true);
    tt_tensor *out = kb_tensor(&k, 2);
    size_t alloc = (out->nbytes + 63) & ~(size_t)63;
    float *xcopy = malloc(4200 * 4);
    memcpy(xcopy, kb_tensor(&k, 0)->data, 4200 * 4);
    interp_stats st;
    char *rep;
    ck_assert_int_eq(kb_run(&k, NULL, &st, &rep), 0);
    ck_assert_int_eq(st.faults, 1);
    ck_assert_int_eq(st.fault_lanes, 100);
    ck_assert_int_eq(st.programs, 5);
    HAS(rep, "error: out-of-bounds store in program (4, 0, 0)");
    HAS(rep, "vadd.py:8:5");
    HAS(rep, "tl.store(out_ptr + offsets, x + y, mask=mask)");
    HAS(rep, "out_ptr[4100]");
    HAS(rep, "4100 elements");
    HAS(rep, "f32[4100]");
    HAS(rep, "lane 4 (of 1024)");
    HAS(rep, "100 lanes");
    HAS(rep, "summary: 1 fault (100 lanes) in 1 program");
    ck_assert_int_eq(count_str(rep, "error:"), 1);
    /* not performed: the allocation's padding past the 4100 floats is
     * untouched, the in-bounds lanes were written, other buffers unchanged */
    const unsigned char *bytes = out->data;
    for (size_t i = out->nbytes; i < alloc; i++) ck_assert_uint_eq(bytes[i], 0);
    const float *o = out->data, *x = kb_tensor(&k, 0)->data, *y = kb_tensor(&k, 1)->data;
    for (int i = 0; i < 4100; i++) ck_assert(o[i] == x[i] + y[i]);
    ck_assert(memcmp(xcopy, x, 4200 * 4) == 0);
    free(xcopy);
    free(rep);
    kb_free(&k);
}
END_TEST

START_TEST(oob_load_unmasked)
{
    /* oob_bug.py's kernel: unmasked loads past the end in the last program;
     * one report per load op, faulting lanes read 0 */
    kb k;
    build_vadd(&k, 4000, 4000, 1024, false);
    interp_stats st;
    char *rep;
    interp_options o;
    interp_options_default(&o);
    ck_assert_int_eq(kb_run(&k, &o, &st, &rep), 0);
    ck_assert_int_eq(st.faults, 3);            /* load x, load y, store out */
    ck_assert_int_eq(st.fault_lanes, 3 * 96);
    HAS(rep, "error: out-of-bounds load in program (3, 0, 0)");
    HAS(rep, "vadd.py:6:9");
    HAS(rep, "x_ptr[4000], but x_ptr has 4000 elements (f32[4000])");
    HAS(rep, "y_ptr[4000]");
    HAS(rep, "lane 928 (of 1024)");
    HAS(rep, "96 lanes of this op faulted in this program");
    kb_free(&k);
    free(rep);
}
END_TEST

START_TEST(same_fault_many_programs)
{
    /* every program reads past the end: one report, counted per program */
    kb k;
    kb_init(&k, "allbad");
    kb_source(&k, "allbad.py", "def k(x):\n    v = tl.load(x + 100 + tl.arange(0, 4))\n");
    int64_t n = 10;
    ir_value px = kb_tensor_arg(&k, "x", tt_tensor_new("x", TT_F32, 1, &n));
    kb_at(&k, 2, 9);
    ir_value r = op(&k, IR_ADDI, TYT(TT_I32, 4), 2, range(&k, 0, 4), cint(&k, TYT(TT_I32, 4), 100));
    load(&k, ptrs(&k, px, r), -1, -1);
    ret(&k);
    k.l.grid[0] = 3;
    k.l.grid[1] = 2;
    interp_stats st;
    char *rep;
    ck_assert_int_eq(kb_run(&k, NULL, &st, &rep), 0);
    ck_assert_int_eq(st.faults, 1);
    ck_assert_int_eq(st.fault_lanes, 24);
    ck_assert_int_eq(count_str(rep, "error:"), 1);
    HAS(rep, "in program (0, 0, 0)");
    HAS(rep, "x[100], but x has 10 elements");
    HAS(rep, "happened in 6 programs (24 lanes in all)");
    HAS(rep, "summary: 1 fault (24 lanes) in 6 programs");
    free(rep);
    kb_free(&k);
}
END_TEST

START_TEST(multi_dim_index_and_suppression)
{
    /* a 2-D buffer is indexed as x[i, j]; max_reports = 1 suppresses the
     * second fault site */
    kb k;
    kb_init(&k, "md");
    int64_t shape[2] = { 4, 8 };
    ir_value px = kb_tensor_arg(&k, "x", tt_tensor_new("x", TT_F32, 2, shape));
    /* rows 2..5 of a [4, 8] buffer: rows 4 and 5 are out of bounds */
    ir_value offs = op(&k, IR_ADDI, TYT(TT_I32, 4, 8), 2, offs2d(&k, 4, 8, 8), cint(&k, TYT(TT_I32, 4, 8), 16));
    ir_value v = load(&k, ptrs(&k, px, offs), -1, -1);
    store(&k, ptrs(&k, px, offs), v, -1);
    ret(&k);
    interp_options o;
    interp_options_default(&o);
    o.max_reports = 1;
    interp_stats st;
    char *rep;
    ck_assert_int_eq(kb_run(&k, &o, &st, &rep), 0);
    ck_assert_int_eq(st.faults, 2);
    ck_assert_int_eq(st.fault_lanes, 32);
    HAS(rep, "lane [2, 0] (of 4x8) reads x[4, 0], but x has 32 elements (f32[4,8])");
    HAS(rep, "1 more report suppressed");
    ck_assert_int_eq(count_str(rep, "error:"), 1);
    free(rep);
    kb_free(&k);
}
END_TEST

START_TEST(misaligned_and_type)
{
    kb k;
    kb_init(&k, "mis");
    int64_t n = 16;
    ir_value px = kb_tensor_arg(&k, "x", tt_tensor_new("x", TT_F32, 1, &n));
    ir_value xi = op(&k, IR_PTR_TO_INT, ty(TT_I64), 1, px);
    ir_value odd = op(&k, IR_INT_TO_PTR, typ(TT_F32), 1, op(&k, IR_ADDI, ty(TT_I64), 2, xi, cint(&k, ty(TT_I64), 6)));
    load(&k, odd, -1, -1);
    ir_value half = op(&k, IR_INT_TO_PTR, typ(TT_F16), 1, xi);
    store(&k, half, cflt(&k, ty(TT_F16), 1.0), -1);
    ir_value null = op(&k, IR_INT_TO_PTR, typ(TT_F32), 1, cint(&k, ty(TT_I64), 0));
    load(&k, null, -1, -1);
    ret(&k);
    interp_stats st;
    char *rep;
    ck_assert_int_eq(kb_run(&k, NULL, &st, &rep), 0);
    ck_assert_int_eq(st.faults, 3);
    HAS(rep, "error: misaligned load");
    HAS(rep, "not aligned to 4 bytes");
    HAS(rep, "error: type-mismatched store");
    HAS(rep, "as f16 (2 bytes), but x holds f32[16] (4-byte elements)");
    HAS(rep, "address 0x0, which is in no buffer");
    /* the f16 store was not performed */
    ck_assert_uint_eq(((uint32_t *)kb_tensor(&k, 0)->data)[0], 0);
    free(rep);
    kb_free(&k);
}
END_TEST

START_TEST(write_write_race)
{
    /* every program stores to out[0..8): programs conflict */
    kb k;
    kb_init(&k, "ww");
    kb_source(&k, "ww.py", "def k(out):\n    tl.store(out + tl.arange(0, 8), tl.program_id(0))\n");
    int64_t n = 8;
    ir_value po = kb_tensor_arg(&k, "out", tt_tensor_new("out", TT_I32, 1, &n));
    kb_at(&k, 2, 5);
    store(&k, ptrs(&k, po, range(&k, 0, 8)), splat(&k, pid(&k, 0), TYT(TT_I32, 8)), -1);
    ret(&k);
    k.l.grid[0] = 3;
    interp_stats st;
    char *rep;
    ck_assert_int_eq(kb_run(&k, NULL, &st, &rep), 0);
    ck_assert_int_eq(st.faults, 0);
    ck_assert_int_eq(st.races, 16);            /* programs 1 and 2, 8 lanes each */
    HAS(rep, "warning: write-write race: store in program (1, 0, 0)");
    HAS(rep, "which program (0, 0, 0) also wrote in this launch (at ww.py:2:5)");
    ck_assert_int_eq(((int32_t *)kb_tensor(&k, 0)->data)[0], 2);   /* in order: the last one wins */
    free(rep);
    kb_free(&k);

    /* with check_races off: no report, but the writer is still tracked */
    kb_init(&k, "ww2");
    po = kb_tensor_arg(&k, "out", tt_tensor_new("out", TT_I32, 1, &n));
    store(&k, ptrs(&k, po, range(&k, 0, 8)), splat(&k, pid(&k, 0), TYT(TT_I32, 8)), -1);
    ret(&k);
    k.l.grid[0] = 3;
    interp_options o;
    interp_options_default(&o);
    o.check_races = false;
    interp_session *s = kb_session(&k, &o);
    FILE *devnull = fopen("/dev/null", "w");
    ck_assert_int_eq(interp_run_launch(s), 0);
    interp_get_stats(s, &st);
    ck_assert_int_eq(st.races, 0);
    int64_t prog;
    ck_assert(interp_last_writer(s, 0, 3, &prog, NULL));
    ck_assert_int_eq(prog, 2);
    interp_session_free(s);
    fclose(devnull);
    kb_free(&k);
}
END_TEST

/* buf[pid*4 + i] = buf[pid*4 + i + 1] + 1: reads the first element of the
 * next program's block */
static void build_shift(kb *k)
{
    kb_init(k, "shift");
    int64_t n = 16;
    ir_value pb = kb_tensor_arg(k, "buf", tt_tensor_new("buf", TT_F32, 1, &n));
    ir_type t = TYT(TT_I32, 4);
    ir_value offs = op(k, IR_ADDI, t, 2, splat(k, op(k, IR_MULI, ty(TT_I32), 2, pid(k, 0), cint(k, ty(TT_I32), 4)), t),
                       range(k, 0, 4));
    ir_value nxt = op(k, IR_ADDI, t, 2, offs, cint(k, t, 1));
    ir_value inb = opa(k, IR_CMPI, TYT(TT_BOOL, 4), CMPI_SLT, 0, 2, nxt, cint(k, t, 16));
    ir_value v = load(k, ptrs(k, pb, nxt), inb, -1);
    store(k, ptrs(k, pb, offs), op(k, IR_ADDF, TYT(TT_F32, 4), 2, v, cflt(k, TYT(TT_F32, 4), 1.0)), -1);
    ret(k);
    k->l.grid[0] = 4;
}

START_TEST(read_write_races)
{
    for (int rev = 0; rev < 2; rev++) {
        kb k;
        build_shift(&k);
        interp_options o;
        interp_options_default(&o);
        o.sched = rev ? SCHED_REVERSE : SCHED_IN_ORDER;
        interp_stats st;
        char *rep;
        ck_assert_int_eq(kb_run(&k, &o, &st, &rep), 0);
        ck_assert_int_eq(st.races, 3);
        if (rev) HAS(rep, "read-after-write race: load in program (2, 0, 0)");
        else HAS(rep, "write-after-read race: store in program (1, 0, 0)");
        free(rep);
        kb_free(&k);
    }
}
END_TEST

START_TEST(shared_read_then_write)
{
    /* every program reads buf[0..32) (one whole granule) and buf[33..37)
     * (part of one); program 3, the last to read them in order, then
     * writes both ranges. The other programs' reads race with that write
     * (on a GPU they may run after it): a shadow that kept only the last
     * reader would see program 3's own read and report nothing */
    kb k;
    kb_init(&k, "shared");
    int64_t n = 64;
    ir_value pb = kb_tensor_arg(&k, "buf", tt_tensor_new("buf", TT_I32, 1, &n));
    ir_value is3 = opa(&k, IR_CMPI, ty(TT_BOOL), CMPI_EQ, 0, 2, pid(&k, 0), cint(&k, ty(TT_I32), 3));
    ir_type t32 = TYT(TT_I32, 32), t4 = TYT(TT_I32, 4);
    ir_value whole = ptrs(&k, pb, range(&k, 0, 32));
    ir_value part = ptrs(&k, pb, op(&k, IR_ADDI, t4, 2, range(&k, 0, 4), cint(&k, t4, 33)));
    ir_value a = load(&k, whole, -1, -1), b = load(&k, part, -1, -1);
    store(&k, whole, op(&k, IR_ADDI, t32, 2, a, cint(&k, t32, 1)), splat(&k, is3, TYT(TT_BOOL, 32)));
    store(&k, part, op(&k, IR_ADDI, t4, 2, b, cint(&k, t4, 1)), splat(&k, is3, TYT(TT_BOOL, 4)));
    ret(&k);
    k.l.grid[0] = 4;
    interp_stats st;
    char *rep;
    ck_assert_int_eq(kb_run(&k, NULL, &st, &rep), 0);
    ck_assert_int_eq(st.races, 36);
    HAS(rep, "write-after-read race: store in program (3, 0, 0)");
    HAS(rep, "which program (0, 0, 0) read in this launch");
    free(rep);
    kb_free(&k);
}
END_TEST

START_TEST(reader_words)
{
    /* the reader layer directly: first reader, then SH_MANY kept with the
     * first reader's id, in whole granules and in split ones */
    sh_layer *L = sh_new(100);
    sh_mark_read(L, 0, 32, 1, false);
    ck_assert_uint_eq(sh_get(L, 5), 1);
    sh_mark_read(L, 0, 32, 1, true);
    ck_assert_uint_eq(sh_get(L, 5), 1);
    sh_mark_read(L, 0, 32, 2, true);
    ck_assert_uint_eq(sh_get(L, 31), 1 | SH_MANY);
    sh_mark_read(L, 0, 32, 3, false);
    ck_assert_uint_eq(sh_get(L, 0), 1 | SH_MANY);
    sh_mark_read(L, 40, 4, 7, false);               /* part of granule 1: split */
    ck_assert_uint_eq(sh_get(L, 39), 0);
    ck_assert_uint_eq(sh_get(L, 40), 7);
    sh_mark_read(L, 38, 4, 8, true);
    ck_assert_uint_eq(sh_get(L, 38), 8);
    ck_assert_uint_eq(sh_get(L, 41), 7 | SH_MANY);
    ck_assert_uint_eq(sh_get(L, 43), 7);
    sh_mark_read(L, 96, 4, 9, false);               /* the short last granule, whole */
    ck_assert_uint_eq(sh_get(L, 99), 9);
    ck_assert_uint_eq(sh_get(L, 95), 0);
    sh_free(L);
}
END_TEST

START_TEST(uninitialized_reads)
{
    /* out is "empty": reading out[0..8) before writing it is reported,
     * reading out[0..4) after this program wrote it is not */
    kb k;
    kb_init(&k, "uninit");
    int64_t n = 8;
    ir_value po = kb_tensor_arg(&k, "out", tt_tensor_new("out", TT_F32, 1, &n));
    ir_value r8 = range(&k, 0, 8), r4 = range(&k, 0, 4);
    ir_value v = load(&k, ptrs(&k, po, r8), -1, -1);
    (void)v;
    store(&k, ptrs(&k, po, r4), cflt(&k, TYT(TT_F32, 4), 1.0), -1);
    load(&k, ptrs(&k, po, r4), -1, -1);
    ret(&k);
    interp_session *s;
    char *rep = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&rep, &len);
    interp_options o;
    interp_options_default(&o);
    o.report = f;
    s = kb_session(&k, &o);
    interp_mark_uninitialized(s, 0);
    ck_assert_int_eq(interp_run_launch(s), 0);
    interp_stats st;
    interp_get_stats(s, &st);
    interp_session_free(s);
    fclose(f);
    ck_assert_int_eq(st.uninit_reads, 8);
    ck_assert_int_eq(st.faults, 0);
    HAS(rep, "warning: uninitialized load of memory in program (0, 0, 0)");
    HAS(rep, "reads out[0], which was created with `empty` and has not been written");
    free(rep);
    /* the same fact carried by the launch (launch_arg.uninit): every session
     * of the launch marks it, no call needed; without it nothing is reported */
    o.report = fopen("/dev/null", "w");
    for (int mark = 0; mark < 2; mark++) {
        k.l.args[0].uninit = mark;
        memset(k.l.args[0].tensor->data, 0, 8 * sizeof(float));
        s = kb_session(&k, &o);
        ck_assert_int_eq(interp_run_launch(s), 0);
        interp_get_stats(s, &st);
        interp_session_free(s);
        ck_assert_int_eq(st.uninit_reads, mark ? 8 : 0);
    }
    fclose(o.report);
    kb_free(&k);
}
END_TEST

/* The shadow is kept per granule of SH_GRAN elements (shadow.c) while a
 * granule's elements agree; these accesses split granules and must still
 * be seen element by element. */
static char *run_marked(kb *k, interp_sched sched, interp_stats *st, interp_session **keep)
{
    char *rep = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&rep, &len);
    interp_options o;
    interp_options_default(&o);
    o.report = f;
    o.sched = sched;
    interp_session *s = kb_session(k, &o);
    interp_mark_uninitialized(s, 0);
    ck_assert_int_eq(interp_run_launch(s), 0);
    interp_get_stats(s, st);
    if (keep) *keep = s;
    else interp_session_free(s);
    fclose(f);
    return rep;
}

START_TEST(uninit_hole_in_written_run)
{
    /* out[0..100) is stored with lane 37 masked out, then out[0..128) is
     * loaded: element 37 and the 28 never-written elements past 100 are
     * uninitialized, nothing else */
    kb k;
    kb_init(&k, "hole");
    int64_t n = 200;
    ir_value po = kb_tensor_arg(&k, "out", tt_tensor_new("out", TT_F32, 1, &n));
    ir_type t = TYT(TT_I32, 128), tb = TYT(TT_BOOL, 128);
    ir_value r = range(&k, 0, 128);
    ir_value m = op(&k, IR_ANDI, tb, 2, opa(&k, IR_CMPI, tb, CMPI_SLT, 0, 2, r, cint(&k, t, 100)),
                    opa(&k, IR_CMPI, tb, CMPI_NE, 0, 2, r, cint(&k, t, 37)));
    store(&k, ptrs(&k, po, r), cflt(&k, TYT(TT_F32, 128), 2.0), m);
    load(&k, ptrs(&k, po, range(&k, 0, 100)), -1, -1);
    load(&k, ptrs(&k, po, range(&k, 100, 128)), -1, -1);
    ret(&k);
    interp_stats st;
    char *rep = run_marked(&k, SCHED_IN_ORDER, &st, NULL);
    ck_assert_int_eq(st.uninit_reads, 1 + 28);
    HAS(rep, "reads out[37], which was created with `empty` and has not been written");
    HAS(rep, "reads out[100]");
    ck_assert_int_eq(count_str(rep, "warning:"), 2);
    free(rep);
    kb_free(&k);
}
END_TEST

START_TEST(races_in_split_granules)
{
    /* program p stores out[40p .. 40p + 48): 8 elements overlap the next
     * program's, never on a granule boundary; program 3 also stores one
     * element (out[10]) inside program 0's run */
    for (int rev = 0; rev < 2; rev++) {
        kb k;
        kb_init(&k, "split");
        int64_t n = 200;
        ir_value po = kb_tensor_arg(&k, "out", tt_tensor_new("out", TT_I32, 1, &n));
        ir_type t = TYT(TT_I32, 48);
        ir_value base = op(&k, IR_MULI, ty(TT_I32), 2, pid(&k, 0), cint(&k, ty(TT_I32), 40));
        ir_value offs = op(&k, IR_ADDI, t, 2, splat(&k, base, t), range(&k, 0, 48));
        store(&k, ptrs(&k, po, offs), splat(&k, pid(&k, 0), t), -1);
        ir_value is3 = opa(&k, IR_CMPI, ty(TT_BOOL), CMPI_EQ, 0, 2, pid(&k, 0), cint(&k, ty(TT_I32), 3));
        store(&k, ptrs(&k, po, cint(&k, ty(TT_I32), 10)), pid(&k, 0), is3);
        ret(&k);
        k.l.grid[0] = 4;
        interp_stats st;
        interp_session *s;
        char *rep = run_marked(&k, rev ? SCHED_REVERSE : SCHED_IN_ORDER, &st, &s);
        ck_assert_int_eq(st.races, 3 * 8 + 1);
        HAS(rep, "write-write race");
        ck_assert_int_eq(st.uninit_reads, 0);
        /* the last writer, element by element, against the schedule's order */
        for (int64_t e = 0; e < 168; e++) {
            int64_t prog = -1, want = e == 10 ? (rev ? 0 : 3) : rev ? e / 40 : (e >= 40 && e % 40 < 8 ? e / 40 : e / 40);
            if (rev && e >= 40 && e % 40 < 8) want = e / 40 - 1;      /* reverse: the lower program writes last */
            if (e >= 160) want = 3;
            ck_assert(interp_last_writer(s, 0, e, &prog, NULL));
            ck_assert_msg(prog == want, "element %lld: last writer %lld, expected %lld", (long long)e,
                          (long long)prog, (long long)want);
        }
        ck_assert(!interp_last_writer(s, 0, 168, NULL, NULL));
        interp_session_free(s);
        free(rep);
        kb_free(&k);
    }
}
END_TEST

START_TEST(loop_step_zero)
{
    kb k;
    kb_init(&k, "step0");
    ir_value i0 = cint(&k, ty(TT_I32), 0), i10 = cint(&k, ty(TT_I32), 10);
    ir_type it = ty(TT_I32);
    int32_t body = ir_new_region(k.f, 2, (ir_type[]){ it, it });
    int fi = ir_emit(&k.b, IR_FOR, 1, &it, 4, (ir_value[]){ i0, i10, i0, i0 });
    ir_op_add_region(k.f, IR_BODY, fi, body);
    ir_builder save = k.b;
    k.b.region = body;
    ir_value a = k.f->regions.v[body].args[1];
    op0(&k, IR_YIELD, 1, op(&k, IR_ADDI, it, 2, a, cint(&k, it, 1)));
    k.b = save;
    ret(&k);
    interp_stats st;
    char *rep;
    ck_assert_int_eq(kb_run(&k, NULL, &st, &rep), 0);
    ck_assert_int_eq(st.faults, 1);
    HAS(rep, "scf.for with a step of 0 or less");
    free(rep);
    kb_free(&k);
}
END_TEST

TCase *report_tcase(void)
{
    TCase *tc = tcase_create("report");
    tcase_add_test(tc, oob_store);
    tcase_add_test(tc, oob_load_unmasked);
    tcase_add_test(tc, same_fault_many_programs);
    tcase_add_test(tc, multi_dim_index_and_suppression);
    tcase_add_test(tc, misaligned_and_type);
    tcase_add_test(tc, write_write_race);
    tcase_add_test(tc, read_write_races);
    tcase_add_test(tc, shared_read_then_write);
    tcase_add_test(tc, reader_words);
    tcase_add_test(tc, uninitialized_reads);
    tcase_add_test(tc, uninit_hole_in_written_run);
    tcase_add_test(tc, races_in_split_granules);
    tcase_add_test(tc, loop_step_zero);
    return tc;
}
