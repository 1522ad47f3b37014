#!/usr/bin/env python3
"""Suite 'gpu': check mode's per-element bounds (docs/bounds.md) against real
Triton on a GPU. Exits 77 (skipped) without torch, triton or a CUDA device.

Programs in the spirit of the kernels whose legitimate differences the old
per-dtype tolerance flagged: a chunked state update with a tf32 dot of
exp-scaled fp32 operands (mamba's _chunk_state_fwd_kernel), a causal linear
attention with two chained tf32 dots and a decay (lightning attention's
forward), per-block int8 quantization x / scale rounded half away from zero
(SageAttention's quant_per_block_int8_kernel; the quotients of a few elements
planted within an ulp of .5) and per-token KV quantization through
libdevice.rint (lightllm). Each runs under `python -m tritium --mode check`
(Triton on the GPU, the interpreter on copies, fast numerics): every launch
must agree. The same programs under the old rule (--rtol 1e-4 --atol 1e-5)
are run and their mismatches printed, for the record.

Then two planted bugs must still be reported: an order-dependent prefix
(each program reads the total its predecessor stored) and a dot kernel
whose last K block is loaded without its mask (a read past the end)."""
import os
import re
import sys
import tempfile

from gpu_check import expect, run, skip_reason  # python -m tritium in a subprocess, and the ok/FAIL line


PROGRAMS = {
"chunk_state": '''
import torch, triton, triton.language as tl

@triton.jit
def chunk_state_kernel(x_ptr, b_ptr, dA_ptr, out_ptr, L: tl.constexpr, P: tl.constexpr, N: tl.constexpr,
                       BL: tl.constexpr):
    c = tl.program_id(0)
    rp = tl.arange(0, P)
    rn = tl.arange(0, N)
    dA_last = tl.load(dA_ptr + c * L + L - 1)
    acc = tl.zeros((P, N), tl.float32)
    for l0 in range(0, L, BL):
        rl = l0 + tl.arange(0, BL)
        x = tl.load(x_ptr + c * L * P + rl[None, :] * P + rp[:, None])
        dA = tl.load(dA_ptr + c * L + rl)
        b = tl.load(b_ptr + c * L * N + rl[:, None] * N + rn[None, :]) * tl.exp(dA_last - dA)[:, None]
        acc += tl.dot(x, b)
    tl.store(out_ptr + c * P * N + rp[:, None] * N + rn[None, :], acc)

torch.manual_seed(0)
C, L, P, N = 24, 256, 64, 32
x = torch.randn(C, L, P, device="cuda")
b = torch.randn(C, L, N, device="cuda")
dA = torch.cumsum(-0.05 * torch.rand(C, L, device="cuda"), dim=1)
out = torch.empty(C, P, N, device="cuda")
for _ in range(2):
    chunk_state_kernel[(C,)](x, b, dA, out, L, P, N, BL=64)
ref = torch.einsum("clp,cln->cpn", x.double(), (b * torch.exp(dA[:, -1:] - dA)[:, :, None]).double())
assert torch.allclose(out.double(), ref, rtol=1e-2, atol=1e-1)
print("program ok")
''',
"lightning": '''
import torch, triton, triton.language as tl

@triton.jit
def lightning_fwd(q_ptr, k_ptr, v_ptr, o_ptr, slope, D: tl.constexpr, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    h = tl.program_id(1)
    S = tl.num_programs(0) * BLOCK
    rq = pid * BLOCK + tl.arange(0, BLOCK)
    rd = tl.arange(0, D)
    base = h * S * D
    q = tl.load(q_ptr + base + rq[:, None] * D + rd[None, :])
    acc = tl.zeros((BLOCK, D), tl.float32)
    for k0 in range(0, (pid + 1) * BLOCK, BLOCK):
        rk = k0 + tl.arange(0, BLOCK)
        k = tl.load(k_ptr + base + rk[:, None] * D + rd[None, :])
        v = tl.load(v_ptr + base + rk[:, None] * D + rd[None, :])
        diff = (rq[:, None] - rk[None, :]).to(tl.float32)
        decay = tl.where(diff >= 0, tl.exp(-slope * diff), 0.0)
        qk = tl.dot(q, tl.trans(k)) * decay
        acc += tl.dot(qk, v)
    tl.store(o_ptr + base + rq[:, None] * D + rd[None, :], acc)

torch.manual_seed(1)
H, S, D = 4, 256, 64
q, k, v = (torch.randn(H, S, D, device="cuda") * 0.3 for _ in range(3))
o = torch.empty(H, S, D, device="cuda")
lightning_fwd[(S // 64, H)](q, k, v, o, 0.05, D=D, BLOCK=64)
i = torch.arange(S, device="cuda")
dec = torch.where(i[:, None] >= i[None, :], torch.exp(-0.05 * (i[:, None] - i[None, :]).float()), torch.zeros(()))
ref = ((q.double() @ k.double().transpose(1, 2)) * dec.double()) @ v.double()
assert torch.allclose(o.double(), ref, rtol=1e-2, atol=1e-2)
print("program ok")
''',
"sage_quant": '''
import torch, triton, triton.language as tl

@triton.jit
def quant_per_block_int8_kernel(x_ptr, out_ptr, scale_ptr, sm_scale, C: tl.constexpr, BLK: tl.constexpr):
    b = tl.program_id(0)
    offs = b * BLK * C + tl.arange(0, BLK)[:, None] * C + tl.arange(0, C)[None, :]
    x = tl.load(x_ptr + offs).to(tl.float32) * sm_scale
    scale = tl.max(tl.abs(x)) / 127.
    x_int8 = x / scale
    x_int8 += 0.5 * tl.where(x_int8 >= 0, 1, -1)
    tl.store(out_ptr + offs, x_int8.to(tl.int8))
    tl.store(scale_ptr + b, scale)

torch.manual_seed(2)
B, BLK, C = 200, 64, 128
x = torch.randn(B * BLK, C, device="cuda").half()
# plant quotients within an ulp of k + .5 in the first block (x / scale with scale = max / 127)
xs = x[:BLK].float()
m = xs.abs().max()
x[:BLK, :16] = ((torch.randint(-120, 120, (BLK, 16), device="cuda") + 0.5) * (m / 127)).half()
out = torch.empty(B * BLK, C, dtype=torch.int8, device="cuda")
scale = torch.empty(B, device="cuda")
quant_per_block_int8_kernel[(B,)](x, out, scale, 0.125, C=C, BLK=BLK)
ref = (x.float() * 0.125).view(B, BLK * C)
s = ref.abs().amax(1, keepdim=True) / 127
assert ((out.view(B, -1).float() - torch.round(ref / s)).abs() <= 1).all()
print("program ok")
''',
"kv_quant": '''
import torch, triton, triton.language as tl
from triton.language.extra import libdevice

@triton.jit
def kv_quant_kernel(kv_ptr, out_ptr, scale_ptr, D: tl.constexpr):
    t = tl.program_id(0)
    x = tl.load(kv_ptr + t * D + tl.arange(0, D))
    scale = tl.max(tl.abs(x), axis=0) / 127.0
    q = libdevice.rint(x / scale)
    tl.store(out_ptr + t * D + tl.arange(0, D), q.to(tl.int8))
    tl.store(scale_ptr + t, scale)

torch.manual_seed(3)
T, D = 4096, 128
kv = torch.randn(T, D, device="cuda") * 3
out = torch.empty(T, D, dtype=torch.int8, device="cuda")
scale = torch.empty(T, device="cuda")
kv_quant_kernel[(T,)](kv, out, scale, D=D)
assert ((out.float() - torch.round(kv / scale[:, None])).abs() <= 1).all()
print("program ok")
''',
}

ORDER_BUG = '''
import torch, triton, triton.language as tl

@triton.jit
def block_prefix_kernel(x_ptr, out_ptr, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    x = tl.load(x_ptr + pid * BLOCK + tl.arange(0, BLOCK))
    prev = tl.load(out_ptr + pid - 1, mask=pid > 0, other=0.0)  # PLANTED: the previous program may not have stored yet
    tl.store(out_ptr + pid, prev + tl.sum(x, axis=0))

x = torch.rand(512 * 256, device="cuda")
out = torch.zeros(512, device="cuda")
block_prefix_kernel[(512,)](x, out, BLOCK=256)
print("program ok")
'''

OOB_BUG = '''
import torch, triton, triton.language as tl

@triton.jit
def dot_tail_kernel(a_ptr, b_ptr, c_ptr, K, M: tl.constexpr, N: tl.constexpr, BK: tl.constexpr):
    rm = tl.arange(0, M)
    rn = tl.arange(0, N)
    acc = tl.zeros((M, N), tl.float32)
    for k0 in range(0, K, BK):
        rk = k0 + tl.arange(0, BK)
        a = tl.load(a_ptr + rm[:, None] * K + rk[None, :], mask=rk[None, :] < K, other=0.0)
        b = tl.load(b_ptr + rk[:, None] * N + rn[None, :])  # PLANTED: no mask on the last block
        acc += tl.dot(a, b)
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], acc)

a = torch.randn(32, 100, device="cuda")
b = torch.randn(100, 32, device="cuda")
c = torch.empty(32, 32, device="cuda")
dot_tail_kernel[(1,)](a, b, c, 100, M=32, N=32, BK=32)
print("program ok")
'''


def main():
    why = skip_reason()
    if why:
        print(why)
        return 77
    failed = 0
    with tempfile.TemporaryDirectory(prefix="tritium-bounds-") as d:
        for name, src in PROGRAMS.items():
            prog = os.path.join(d, name + ".py")
            with open(prog, "w") as f:
                f.write(src)
            rc, out, err = run(["--mode", "check", prog])
            m = re.search(r"(\d+) checked, (\d+) disagree or fault", err)
            failed += expect("check %s (bounds)" % name, rc == 0 and "program ok" in out and m and int(m.group(1)) > 0
                             and m.group(2) == "0", out + err)
            b = re.findall(r"bounds: .*", err)
            if b:
                print("     " + b[0])
            rc2, out2, err2 = run(["--mode", "check", "--rtol", "1e-4", "--atol", "1e-5", prog])
            mm = re.findall(r"MISMATCH: (\d+) of (\d+) elements", err2)
            print("     the old rule (rtol 1e-4, atol 1e-5): %s" % (", ".join("%s of %s" % x for x in mm) or "no mismatch"))
        prog = os.path.join(d, "order_bug.py")
        with open(prog, "w") as f:
            f.write(ORDER_BUG)
        line = next(i for i, l in enumerate(ORDER_BUG.splitlines(), 1) if "PLANTED" in l)
        rc, out, err = run(["--mode", "check", prog])
        failed += expect("check planted order bug", rc == 1 and "out_ptr  f32[512]  MISMATCH" in err, out + err)
        prog = os.path.join(d, "oob_bug.py")
        with open(prog, "w") as f:
            f.write(OOB_BUG)
        line = next(i for i, l in enumerate(OOB_BUG.splitlines(), 1) if "PLANTED" in l)
        rc, out, err = run(["--mode", "check", prog])
        failed += expect("check planted out-of-bounds dot", rc == 1 and re.search(r"oob_bug\.py:%d" % line, err),
                         out + err)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
