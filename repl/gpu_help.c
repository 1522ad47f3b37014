/* gpu_help.c — usage texts of `tritium ptx`, `tritium diff` and the GPU
 * options of `tritium run`. */
#include "repl_gpu.h"

#include <string.h>

static const char ptx_usage[] =
    "usage: tritium ptx FILE.py[:KERNEL] [launch spec] [--arch sm_NN] [--mma wgmma|sync]\n"
    "                   [--numerics ieee|fast] [--num-warps N] [--llvm]\n"
    "\n"
    "Compile the kernel for the launch (argument types, constexpr values, the\n"
    "alignment specialization a GPU launch would get) and print its PTX. Needs\n"
    "only LLVM: no GPU, no driver. Tensors are not generated, only typed.\n"
    "\n"
    "options:\n"
    "  --arch sm_NN           target (default sm_90; sm_90a with wgmma)\n"
    "  --mma wgmma|sync       dots on sm_90: wgmma (default; target sm_90a) or\n"
    "                         Ampere's mma.sync (target sm_90); $TRITIUM_WGMMA=0 is\n"
    "                         --mma sync. Other GPUs always use mma.sync\n"
    "  --numerics M           ieee (default: IEEE division and square root, no fma\n"
    "                         contraction) or fast (Triton's: fma, approximate\n"
    "                         division and exp, flush to zero)\n"
    "  --llvm                 print the optimized LLVM IR instead of the PTX\n"
    "\n";

static const char diff_usage[] =
    "usage: tritium diff FILE.py[:KERNEL] [launch spec] [options]\n"
    "\n"
    "Run the launch in the checked CPU interpreter and on the GPU, both on the\n"
    "same inputs, and compare every tensor the kernel writes (a tensor counts as\n"
    "written when either side changed it or the interpreter stored to it).\n"
    "Reports per tensor the max abs/rel/ULP error, the number of mismatching\n"
    "elements and the first ones with their index, both values, and the program\n"
    "and source line that wrote the element (in the interpreter).\n"
    "\n"
    "An element agrees when the values are equal (NaN == NaN), or\n"
    "|gpu - interp| <= atol + rtol * |interp|, or, with --ulp N, the two are at\n"
    "most N units in the last place apart. Default tolerances by dtype:\n"
    "  bool, integers  exact            f16, bf16  rtol 1e-2, atol 1e-2\n"
    "  f32  ieee: rtol 1e-5, atol 1e-6;   fast: rtol 1e-4, atol 1e-5\n"
    "  f64  ieee: rtol 1e-12, atol 1e-14; fast: rtol 1e-10, atol 1e-12\n"
    "  fp8  e4 formats: rtol 0.125, atol 1e-2; e5 formats: rtol 0.25, atol 1e-2\n"
    "\n"
    "options:\n"
    "  --rtol R, --atol A     tolerances for every written tensor (integers too)\n"
    "  --ulp N                also accept elements at most N ULPs apart\n"
    "  --numerics M           ieee (default; the interpreter's ieee mode against\n"
    "                         the GPU's IEEE code) or fast (the interpreter's gpu\n"
    "                         mode against Triton's fast GPU numerics)\n"
    "  --trials N             run N times; trial k uses seed S+k (S: --seed, default\n"
    "                         0) for every generated tensor\n"
    "  --sizes NAME=LO:HI     each trial sets the integer parameter NAME to a value\n"
    "                         drawn from [LO, HI] (log-uniformly when LO >= 1: every\n"
    "                         factor of two is equally likely); every shape, grid and\n"
    "                         expression naming NAME follows. Repeatable. E.g.\n"
    "                           tritium diff examples/vector_add.py --trials 20 \\\n"
    "                             --sizes n_elements=1:98432\n"
    "                         (the tensors keep their size; the kernel sees n), or\n"
    "                           --arg n=1000 --arg x=randn:f32[n] --sizes n=1:100000\n"
    "  --show N               mismatches listed per tensor (1-10, default 10)\n"
    "  --arch sm_NN           target (default: the device's)\n"
    "  --mma wgmma|sync       dots on sm_90: wgmma (default; target sm_90a) or\n"
    "                         Ampere's mma.sync (target sm_90); $TRITIUM_WGMMA=0 is\n"
    "                         --mma sync. Other GPUs always use mma.sync\n"
    "  --against S            compare with a second interpreter run under schedule S\n"
    "                         (in-order, reverse, random[:SEED], parallel) instead\n"
    "                         of the GPU: finds order-dependent results, no GPU needed\n"
    "  --json                 one JSON object on stdout (all trials)\n"
    "  --schedule S           the interpreter's schedule (default in-order)\n"
    "\n"
    "A progress bar is drawn on stderr when it is a terminal and N > 1.\n"
    "exit status: 0 every trial agrees, 1 a mismatch (or a fault on either side),\n"
    "2 bad input, compile error, or no GPU (\"no CUDA driver: libcuda.so.1 not found\").\n"
    "\n";

static const char run_gpu_usage[] =
    "GPU options of tritium run:\n"
    "  --device cpu|gpu       where to run (default cpu: the checked interpreter);\n"
    "                         gpu copies the tensors in, launches, copies them back,\n"
    "                         then saves/checks/prints as on the CPU\n"
    "  --numerics ieee|fast   with --device gpu: the GPU's numerics (default ieee)\n"
    "  --arch sm_NN           with --device gpu: target (default: the device's)\n"
    "  --mma wgmma|sync       with --device gpu: dots on sm_90 through wgmma\n"
    "                         (default) or mma.sync ($TRITIUM_WGMMA=0)\n"
    "  --bench N              then time N more launches one by one and report the\n"
    "                         median: on the GPU with CUDA events, L2 flushed before\n"
    "                         each (as Triton's do_bench), and the host cost of one\n"
    "                         launch; in the interpreter each from the tensors as\n"
    "                         they were before the first launch (wall clock)\n"
    "\n";

void repl_gpu_print_usage(FILE *f, const char *command)
{
    if (!strcmp(command, "run")) { fputs(run_gpu_usage, f); return; }
    fputs(!strcmp(command, "ptx") ? ptx_usage : diff_usage, f);
    repl_print_spec_help(f);
}
