"""Nondeterminism: an atomic ticket counter. Each program takes a ticket and
writes its program id to out[ticket]; which program gets which ticket
depends on the order in which the programs reach the atomic."""
# tritium: --kernel ticket_kernel --grid 8
# tritium: --arg counter=zeros:i32[1] --arg out=full(-1):i32[8]
import triton
import triton.language as tl


@triton.jit
def ticket_kernel(counter, out):
    pid = tl.program_id(0)
    ticket = tl.atomic_add(counter, 1)
    tl.store(out + ticket, pid)
