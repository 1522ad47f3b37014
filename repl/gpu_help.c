/* gpu_help.c — usage texts of `tritium ptx`, `tritium diff` and the GPU
 * options of `tritium run`; the options are settings.def's rows. */
#include "repl_gpu.h"

#include <string.h>

static const char ptx_usage[] =
    "usage: tritium ptx FILE.py[:KERNEL] [launch spec] [options]\n"
    "\n"
    "Compile the kernel for the launch (argument types, constexpr values, the\n"
    "alignment specialization a GPU launch would get) and print its PTX. Needs\n"
    "only LLVM: no GPU, no driver. Tensors are not generated, only typed.\n"
    "\n"
    "options:\n";

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
    "options:\n";

static const char diff_after[] =
    "\n"
    "E.g. tritium diff examples/vector_add.py --trials 20 --sizes n_elements=1:98432\n"
    "(the tensors keep their size; the kernel sees n), or\n"
    "--arg n=1000 --arg x=randn:f32[n] --sizes n=1:100000.\n"
    "A progress bar is drawn on stderr when it is a terminal and N > 1.\n"
    "exit status: 0 every trial agrees, 1 a mismatch (or a fault on either side),\n"
    "2 bad input, compile error, or no GPU (\"no CUDA driver: libcuda.so.1 not found\").\n"
    "\n";

void repl_gpu_print_usage(FILE *f, const char *command)
{
    unsigned not_launch = ~(1u << TT_SCOPE_LAUNCH);
    if (!strcmp(command, "run")) {
        fputs("GPU options of tritium run:\n", f);
        tt_settings_print_usage(f, TT_CMD_RUN, 1u << TT_SCOPE_GPU);
        fputc('\n', f);
        return;
    }
    if (!strcmp(command, "ptx")) {
        fputs(ptx_usage, f);
        tt_settings_print_usage(f, TT_CMD_PTX, not_launch);
        fputc('\n', f);
    } else {
        fputs(diff_usage, f);
        tt_settings_print_usage(f, TT_CMD_DIFF, not_launch);
        fputs(diff_after, f);
    }
    repl_print_spec_help(f);
}
