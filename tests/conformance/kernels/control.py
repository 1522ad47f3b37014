# Reassigning a constexpr parameter, returns inside runtime control flow
# (kernel early exit, nested; a helper returning from a runtime if),
# triton.next_power_of_2-style host helpers come later.
import triton
import triton.language as tl


@triton.jit
def group_min(Y, M, GROUP_M: tl.constexpr):
    pid = tl.program_id(0)
    num_pid_m = tl.cdiv(M, 16)
    GROUP_M = min(GROUP_M, num_pid_m)   # the constexpr becomes a tensor
    tl.store(Y + pid, GROUP_M)


@triton.jit
def pick(x, n):
    if n > 4:
        return x * 2.0, n
    return x + 1.0, n + 1


@triton.jit
def early_exit(X, Y, n):
    pid = tl.program_id(0)
    if pid < 2:
        if n > pid:
            return
        tl.store(Y + pid, 5.0)
    v, m = pick(tl.load(X + pid), pid + n)
    tl.store(Y + pid, v + m)


@triton.jit
def host_helpers(Y, N: tl.constexpr):
    # host helpers on constexprs: triton.next_power_of_2, triton.cdiv
    BLOCK: tl.constexpr = triton.next_power_of_2(N)
    offs = tl.arange(0, BLOCK)
    tl.store(Y + offs, offs * 0 + BLOCK * 100 + triton.cdiv(N, 4), mask=offs < N)
