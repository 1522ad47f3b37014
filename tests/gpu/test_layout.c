/* test_layout.c — linear layouts (compiler/gpu/layout.c) against independent
 * references: Triton's blocked-encoding ownership rule written out with
 * mixed-radix arithmetic, and the PTX ISA's mma.sync and wgmma fragment formulas. */
#include <check.h>
#include <string.h>

#include "../../compiler/gpu/gpu_int.h"

/* Coordinate of (reg, lane, warp) under L, by its bases. */
static void coord_of(const glayout *L, int r, int lane, int warp, int64_t *c)
{
    for (int d = 0; d < L->rank; d++) c[d] = 0;
    for (int i = 0; i < L->nreg; i++)
        if (r >> i & 1) c[L->reg[i].dim] |= (int64_t)1 << L->reg[i].bit;
    for (int i = 0; i < 5; i++)
        if ((lane >> i & 1) && L->lane[i].dim >= 0) c[L->lane[i].dim] |= (int64_t)1 << L->lane[i].bit;
    for (int i = 0; i < L->nwarp; i++)
        if ((warp >> i & 1) && L->warp[i].dim >= 0) c[L->warp[i].dim] |= (int64_t)1 << L->warp[i].bit;
}

/* Reference (Triton's BlockedEncodingAttr): thread (lane, warp) owns element c
 * iff along every dim d some register offset s < spt[d] and repetition k put
 * its start position on c[d], positions wrapping modulo shape[d]. */
static bool ref_owns(int rank, const int64_t *shape, const int *spt, const int *tpw, const int *wpc,
                     const int *order, int lane, int warp, const int64_t *c)
{
    int li[4], wi[4];
    int l = lane, w = warp;
    for (int k = 0; k < rank; k++) {
        int d = order[k];
        li[d] = l % tpw[d];
        l /= tpw[d];
        wi[d] = w % wpc[d];
        w /= wpc[d];
    }
    for (int d = 0; d < rank; d++) {
        int64_t tile = (int64_t)spt[d] * tpw[d] * wpc[d];
        int64_t base = (int64_t)li[d] * spt[d] + (int64_t)wi[d] * spt[d] * tpw[d];
        bool found = false;
        for (int64_t k = 0; k * tile < (shape[d] > tile ? shape[d] : tile) && !found; k++)
            for (int s = 0; s < spt[d] && !found; s++)
                if ((base + s + k * tile) % shape[d] == c[d]) found = true;
        if (!found) return false;
    }
    return true;
}

static void check_blocked(int rank, const int64_t *shape, const int *spt, const int *tpw, const int *wpc,
                          const int *order, int num_warps)
{
    int nwarp = 0;
    while ((1 << nwarp) < num_warps) nwarp++;
    glayout L;
    ck_assert(gl_blocked(&L, rank, shape, spt, tpw, wpc, order, nwarp));
    int64_t numel = 1;
    for (int d = 0; d < rank; d++) numel *= shape[d];
    /* every (reg, lane, warp) names an element the reference says it owns */
    char *seen = calloc((size_t)numel, 1);
    for (int w = 0; w < num_warps; w++)
        for (int l = 0; l < 32; l++) {
            int64_t owned = 0;
            for (int r = 0; r < (1 << L.nreg); r++) {
                int64_t c[4];
                coord_of(&L, r, l, w, c);
                int64_t lin = 0;
                for (int d = 0; d < rank; d++) {
                    ck_assert_int_lt(c[d], shape[d]);
                    lin = lin * shape[d] + c[d];
                }
                ck_assert_msg(ref_owns(rank, shape, spt, tpw, wpc, order, l, w, c),
                              "lane %d warp %d reg %d not an owner", l, w, r);
                seen[lin] = 1;
            }
            /* and it holds all of them: count the reference's elements */
            int64_t c[4] = { 0 };
            for (int64_t e = 0; e < numel; e++) {
                int64_t x = e;
                for (int d = rank - 1; d >= 0; d--) { c[d] = x % shape[d]; x /= shape[d]; }
                owned += ref_owns(rank, shape, spt, tpw, wpc, order, l, w, c);
            }
            ck_assert_int_eq(owned, 1 << L.nreg);
        }
    for (int64_t e = 0; e < numel; e++) ck_assert(seen[e]);
    free(seen);
}

START_TEST(blocked_1d)
{
    int64_t s1[1] = { 1024 }, s2[1] = { 64 }, s3[1] = { 4096 };
    int spt[1] = { 4 }, tpw[1] = { 32 }, wpc[1] = { 4 }, order[1] = { 0 };
    check_blocked(1, s1, spt, tpw, wpc, order, 4);
    check_blocked(1, s2, spt, tpw, wpc, order, 4);   /* smaller than the CTA tile: replicated */
    check_blocked(1, s3, spt, tpw, wpc, order, 4);   /* wraps into more registers */
    int spt1[1] = { 1 };
    check_blocked(1, s2, spt1, tpw, wpc, order, 4);
}
END_TEST

START_TEST(blocked_2d)
{
    int64_t s1[2] = { 64, 64 }, s2[2] = { 128, 32 }, s3[2] = { 16, 256 }, s4[2] = { 8, 4 };
    int spt[2] = { 1, 8 }, tpw[2] = { 4, 8 }, wpc[2] = { 4, 1 }, order[2] = { 1, 0 };
    check_blocked(2, s1, spt, tpw, wpc, order, 4);
    check_blocked(2, s2, spt, tpw, wpc, order, 4);
    check_blocked(2, s3, spt, tpw, wpc, order, 4);
    check_blocked(2, s4, spt, tpw, wpc, order, 4);
    int spt2[2] = { 2, 1 }, tpw2[2] = { 16, 2 }, wpc2[2] = { 1, 8 }, order2[2] = { 0, 1 };
    check_blocked(2, s1, spt2, tpw2, wpc2, order2, 8);
}
END_TEST

START_TEST(default_layout)
{
    /* Triton 3.6 picked sizePerThread=[4] for add with BLOCK=4096, 4 warps */
    glayout L;
    int64_t s[1] = { 4096 };
    ck_assert(gl_default(&L, 1, s, 4, 4));
    ck_assert_int_eq(L.reg[0].dim, 0); ck_assert_int_eq(L.reg[0].bit, 0);
    ck_assert_int_eq(L.reg[1].bit, 1);
    ck_assert_int_eq(L.lane[0].bit, 2);
    ck_assert_int_eq(L.warp[0].bit, 7);
    ck_assert_int_eq(L.nreg, 5);            /* 4 elements x 8 chunks = 32 registers */
    /* 64x64 f16 (vec 8): threadsPerWarp [4, 8], warps along M */
    int64_t s2[2] = { 64, 64 };
    ck_assert(gl_default(&L, 2, s2, 8, 4));
    ck_assert_int_eq(L.reg[0].dim, 1);
    ck_assert_int_eq(L.lane[0].dim, 1); ck_assert_int_eq(L.lane[0].bit, 3);
    ck_assert_int_eq(L.lane[2].dim, 1); ck_assert_int_eq(L.lane[2].bit, 5);
    ck_assert_int_eq(L.lane[3].dim, 0); ck_assert_int_eq(L.lane[3].bit, 0);
    ck_assert_int_eq(L.warp[0].dim, 0); ck_assert_int_eq(L.warp[0].bit, 2);
    /* non power of two: refused */
    int64_t s3[1] = { 100 };
    ck_assert(!gl_default(&L, 1, s3, 4, 4));
}
END_TEST

START_TEST(slice_expand_broadcast)
{
    glayout L, S, E, P;
    int64_t s[2] = { 32, 64 };
    ck_assert(gl_default(&L, 2, s, 4, 4));
    gl_slice(&S, &L, 1);                     /* rows: [32] */
    ck_assert_int_eq(S.rank, 1);
    ck_assert_int_eq(S.shape[0], 32);
    gl_expand(&E, &S, 1);                    /* [32, 1] */
    ck_assert_int_eq(E.shape[1], 1);
    int64_t ps[2] = { 32, 1 };
    gl_project(&P, &L, ps);
    ck_assert(gl_equal(&E, &P));
    /* broadcasting [32,1] back to L is a pure register pick */
    int *map = malloc(sizeof(int) << 12);
    ck_assert(gl_reg_map(&E, &L, map));
    for (int r = 0; r < (1 << L.nreg); r++) {
        int64_t c[2];
        coord_of(&L, r, 0, 0, c);
        int64_t ce[2];
        coord_of(&E, map[r], 0, 0, ce);
        ck_assert_int_eq(ce[0], c[0]);
    }
    /* a layout with a different lane mapping is not a register pick */
    glayout T;
    int64_t st[2] = { 32, 64 };
    int spt[2] = { 1, 1 }, tpw[2] = { 32, 1 }, wpc[2] = { 1, 4 }, order[2] = { 0, 1 };
    ck_assert(gl_blocked(&T, 2, st, spt, tpw, wpc, order, 2));
    ck_assert(!gl_reg_map(&L, &T, map));
    free(map);
}
END_TEST

/* PTX ISA, "Matrix fragments for mma.m16n8k16 with floating point type":
 * C/D: c0,c1 at (groupID, 2*tig + {0,1}), c2,c3 at (groupID+8, ...);
 * A: a0,a1 (g, 2t+{0,1}), a2,a3 (g+8, ..), a4,a5 (g, 2t+8+..), a6,a7 (g+8, 2t+8+..);
 * B: b0,b1 (k = 2t+{0,1}, n = g), b2,b3 (k = 2t+8+.., n = g). */
START_TEST(mma_fragments)
{
    glayout C, A, B;
    ck_assert(gl_mma(&C, 0, 16, 8, 16, 16, 1));
    ck_assert(gl_mma(&A, 1, 16, 8, 16, 16, 1));
    ck_assert(gl_mma(&B, 2, 16, 8, 16, 16, 1));
    ck_assert_int_eq(1 << C.nreg, 4);
    ck_assert_int_eq(1 << A.nreg, 8);
    ck_assert_int_eq(1 << B.nreg, 4);
    for (int lane = 0; lane < 32; lane++) {
        int g = lane >> 2, t = lane & 3;
        int64_t c[2];
        for (int i = 0; i < 4; i++) {
            coord_of(&C, i, lane, 0, c);
            ck_assert_int_eq(c[0], g + 8 * (i >> 1));
            ck_assert_int_eq(c[1], 2 * t + (i & 1));
        }
        for (int i = 0; i < 8; i++) {
            coord_of(&A, i, lane, 0, c);
            ck_assert_int_eq(c[0], g + 8 * ((i >> 1) & 1));
            ck_assert_int_eq(c[1], 2 * t + (i & 1) + 8 * (i >> 2));
        }
        for (int i = 0; i < 4; i++) {
            coord_of(&B, i, lane, 0, c);
            ck_assert_int_eq(c[0], 2 * t + (i & 1) + 8 * (i >> 1));
            ck_assert_int_eq(c[1], g);
        }
    }
    /* tf32 m16n8k8: a0 (g,t) a1 (g+8,t) a2 (g,t+4) a3 (g+8,t+4); b0 (t,g) b1 (t+4,g) */
    ck_assert(gl_mma(&A, 1, 16, 8, 8, 8, 1));
    ck_assert(gl_mma(&B, 2, 16, 8, 8, 8, 1));
    for (int lane = 0; lane < 32; lane++) {
        int g = lane >> 2, t = lane & 3;
        int64_t c[2];
        for (int i = 0; i < 4; i++) {
            coord_of(&A, i, lane, 0, c);
            ck_assert_int_eq(c[0], g + 8 * (i & 1));
            ck_assert_int_eq(c[1], t + 4 * (i >> 1));
        }
        for (int i = 0; i < 2; i++) {
            coord_of(&B, i, lane, 0, c);
            ck_assert_int_eq(c[0], t + 4 * i);
            ck_assert_int_eq(c[1], g);
        }
    }
    /* a 64x64 tile over 4 warps covers every element exactly once */
    ck_assert(gl_mma(&C, 0, 64, 64, 32, 16, 4));
    char seen[64 * 64] = { 0 };
    for (int w = 0; w < 4; w++)
        for (int l = 0; l < 32; l++)
            for (int r = 0; r < (1 << C.nreg); r++) {
                int64_t c[2];
                coord_of(&C, r, l, w, c);
                ck_assert(!seen[c[0] * 64 + c[1]]);
                seen[c[0] * 64 + c[1]] = 1;
            }
}
END_TEST

/* wgmma's D fragment (PTX ISA "Register fragments and shared memory
 * matrix layouts", wgmma .m64nNk16 D with f32): in a warpgroup, warp w
 * owns rows 16 w .. 16 w + 15; register i of lane l holds row 16 w + l / 4
 * + 8 ((i / 2) % 2), column 8 (i / 4) + 2 (l % 4) + i % 2; a 64-row block
 * b (one instruction each) is registers b N/2 .. (b+1) N/2 - 1; with two
 * warpgroups, warpgroup g owns the 64-row half g of each 128 rows. */
START_TEST(wgmma_fragments)
{
    static const int64_t shapes[][3] = { { 64, 64, 4 }, { 128, 128, 4 }, { 128, 256, 8 }, { 256, 16, 8 }, { 64, 8, 4 } };
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
        int64_t M = shapes[s][0], N = shapes[s][1];
        int nw = (int)shapes[s][2];
        glayout C;
        bool ok = gl_wgmma(&C, M, N, nw);
        if (N < 16) { ck_assert(!ok); continue; }
        ck_assert(ok);
        int64_t per = N / 2, blocks = M / (16 * nw);
        ck_assert_int_eq((int64_t)1 << C.nreg, per * blocks);
        for (int w = 0; w < nw; w++)
            for (int l = 0; l < 32; l++)
                for (int64_t b = 0; b < blocks; b++)
                    for (int64_t i = 0; i < per; i++) {
                        int64_t c[2];
                        coord_of(&C, (int)(b * per + i), l, w, c);
                        int64_t row = b * 16 * nw + (w / 4) * 64 + 16 * (w % 4) + l / 4 + 8 * ((i / 2) % 2);
                        ck_assert_int_eq(c[0], row);
                        ck_assert_int_eq(c[1], 8 * (i / 4) + 2 * (l % 4) + i % 2);
                    }
    }
    /* A from registers (f16/bf16): elements a0..a7 of lane l in warp w, k16
     * step s, 64-row block b: row 16 w + l / 4 + 8 ((i / 2) % 2), column
     * 16 s + 2 (l % 4) + i % 2 + 8 (i / 4) */
    static const int64_t ashapes[][3] = { { 64, 16, 4 }, { 128, 64, 4 }, { 128, 32, 8 }, { 256, 64, 8 } };
    for (size_t s = 0; s < sizeof ashapes / sizeof ashapes[0]; s++) {
        int64_t M = ashapes[s][0], K = ashapes[s][1];
        int nw = (int)ashapes[s][2];
        glayout A;
        ck_assert(gl_wgmma_a(&A, M, K, nw));
        int64_t steps = K / 16, blocks = M / (16 * nw);
        ck_assert_int_eq((int64_t)1 << A.nreg, 8 * steps * blocks);
        for (int w = 0; w < nw; w++)
            for (int l = 0; l < 32; l++)
                for (int64_t r = 0; r < 8 * steps * blocks; r++) {
                    int64_t i = r % 8, st = r / 8 % steps, b = r / 8 / steps, c[2];
                    coord_of(&A, (int)r, l, w, c);
                    ck_assert_int_eq(c[0], b * 16 * nw + (w / 4) * 64 + 16 * (w % 4) + l / 4 + 8 * ((i / 2) % 2));
                    ck_assert_int_eq(c[1], 16 * st + 2 * (l % 4) + i % 2 + 8 * (i / 4));
                }
    }
    glayout C;
    ck_assert(!gl_wgmma_a(&C, 64, 8, 4));
    ck_assert(!gl_wgmma(&C, 64, 64, 8));        /* two warpgroups need 128 rows */
    ck_assert(!gl_wgmma(&C, 128, 512, 4));      /* N above 256 */
    ck_assert(!gl_wgmma(&C, 128, 128, 2));
}
END_TEST

int main(void)
{
    Suite *s = suite_create("gpu_layout");
    TCase *tc = tcase_create("layout");
    tcase_add_test(tc, blocked_1d);
    tcase_add_test(tc, blocked_2d);
    tcase_add_test(tc, default_layout);
    tcase_add_test(tc, slice_expand_broadcast);
    tcase_add_test(tc, mma_fragments);
    tcase_add_test(tc, wgmma_fragments);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int nf = srunner_ntests_failed(sr);
    srunner_free(sr);
    return nf ? 1 : 0;
}
