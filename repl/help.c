/* help.c — usage texts of the `tritium` program. */
#include "repl.h"

#include <string.h>

static const char main_usage[] =
    "usage: tritium COMMAND [ARGS]\n"
    "\n"
    "Run Triton kernels without Python: a checked CPU interpreter for @triton.jit\n"
    "functions in ordinary .py files.\n"
    "\n"
    "commands:\n"
    "  run FILE.py[:KERNEL] [launch spec]   run a launch in the checked interpreter\n"
    "  ir FILE.py[:KERNEL] [launch spec]    print the kernel's IR for a launch\n"
    "  check FILE.py[:KERNEL] [launch spec] prove every access in bounds for the whole grid\n"
    "  debug FILE.py[:KERNEL] [launch spec] debug the launch from a gdb-like prompt\n"
    "  ptx FILE.py[:KERNEL] [launch spec]   print the PTX the GPU compiler makes\n"
    "  diff FILE.py[:KERNEL] [launch spec]  run on the CPU and the GPU, compare every output\n"
    "  run ... --device gpu                 run the launch on the GPU\n"
    "\n"
    "  tritium COMMAND --help    options of a command and the launch spec\n"
    "  tritium help settings     every option and environment variable (--markdown)\n"
    "  tritium --version         print the version\n";

static const char run_usage[] =
    "usage: tritium run FILE.py[:KERNEL] [launch spec] [options]\n"
    "\n"
    "Run every program of the launch in the checked CPU interpreter. Faults,\n"
    "races and uninitialized reads are reported on stderr; a summary goes to\n"
    "stdout.\n"
    "\n"
    "options:\n"
    "  --json                 print the summary as one JSON object\n"
    "  --schedule S           in-order (default), reverse, random[:SEED], parallel\n"
    "  --threads N            threads for --schedule parallel (0: all cores)\n"
    "  --numerics M           ieee (default: correctly rounded, no contraction)\n"
    "                         or fast (mimic the compiled code: fma, reduction tree;\n"
    "                         gpu is an alias)\n"
    "\n";

static const char ir_usage[] =
    "usage: tritium ir FILE.py[:KERNEL] [launch spec]\n"
    "\n"
    "Compile the kernel for the launch (argument types, constexpr values) and\n"
    "print its IR. Tensors are not generated, only typed; --grid is optional.\n"
    "\n";

void repl_print_spec_help(FILE *f)
{
    fputs("launch spec:\n"
          "  --grid G               1-3 grid dimensions: '4', '4,8', '(4, 8)' or expressions\n"
          "                         over arguments and constexprs, e.g. 'cdiv(n, BLOCK)'\n"
          "  --arg NAME=SPEC        a kernel argument; SPEC is one of\n"
          "                           KIND:DTYPE[SHAPE]  a generated tensor, KIND one of randn,\n"
          "                               rand, zeros, ones, empty, arange, full(V); DTYPE one\n"
          "                               of f16 bf16 f32 f64 i8 i16 i32 i64 u8 u16 u32 u64 bool;\n"
          "                               e.g. randn:f32[1024,512], full(2.5):f16[M, K]\n"
          "                           FILE.npy or @FILE    a tensor read from a .npy file\n"
          "                           a number or an expression: 42, 1e-5, numel(x),\n"
          "                               x.stride(0), x.shape[0], M * N\n"
          "  --const NAME=VALUE     a tl.constexpr parameter: int, float, True/False, string,\n"
          "                         dtype (tl.float16) or expression (--arg works too)\n"
          "  --num-warps N          1, 2, 4 (default), 8, 16 or 32\n"
          "  --seed S               seed of the random generators (default 0)\n"
          "  --save NAME=FILE.npy   write a tensor after the run\n"
          "  --expect NAME=FILE.npy[,rtol=R][,atol=A]\n"
          "                         compare a tensor after the run (|a-b| <= atol + rtol*|b|;\n"
          "                         defaults rtol=1e-5 atol=1e-8, exact for integers)\n"
          "  --kernel NAME          the kernel, as FILE.py:NAME does\n"
          "  --path DIR             search DIR for imported Python modules (repeatable)\n"
          "\n"
          "Arguments may come in any order and refer to each other. A kernel file may\n"
          "carry defaults in comment lines '# tritium: --grid ... --arg ...'; options on\n"
          "the command line replace them name by name.\n"
          "\n"
          "exit status: 0 success, 1 the kernel misbehaved (an out-of-bounds or misaligned\n"
          "access, a race between programs, a failed --expect), 2 bad input (usage, compile\n"
          "error, unreadable file). Reads of never-written 'empty' elements are warnings.\n", f);
}

bool repl_wants_help(int argc, char *const *argv)
{
    for (int i = 0; i < argc; i++)
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) return true;
    return false;
}

void repl_print_usage(FILE *f, const char *command)
{
    if (!command) { fputs(main_usage, f); return; }
    fputs(!strcmp(command, "ir") ? ir_usage : run_usage, f);
    repl_print_spec_help(f);
}
