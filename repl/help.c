/* help.c — usage texts of the `tritium` program. */
#include "repl.h"
#include "tritium/settings.h"

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
    "options:\n";

static const char ir_usage[] =
    "usage: tritium ir FILE.py[:KERNEL] [launch spec]\n"
    "\n"
    "Compile the kernel for the launch (argument types, constexpr values) and\n"
    "print its IR. Tensors are not generated, only typed; --grid is optional.\n"
    "\n";

/* The dtypes a generated tensor may have: every element type of the dtype
 * table (compiler/support/dtype.c), in its order, as " name" words after
 * `col` printed columns, wrapped before `width` onto lines that start with
 * `indent`, the last followed by ';'. */
static void print_dtype_list(FILE *f, int col, const char *indent, int width)
{
    for (int d = 0; d < TT_PTR; d++) {
        const char *n = tt_dtype_name((tt_dtype)d);
        int len = 1 + (int)strlen(n) + (d == TT_PTR - 1);
        if (col + len > width) {
            fprintf(f, "\n%s", indent);
            col = (int)strlen(indent);
        }
        fprintf(f, " %s%s", n, d == TT_PTR - 1 ? ";" : "");
        col += len;
    }
    fputc('\n', f);
}

void repl_print_spec_help(FILE *f)
{
    fputs("launch spec:\n"
          "  --grid G               1-3 grid dimensions: '4', '4,8', '(4, 8)' or expressions\n"
          "                         over arguments and constexprs, e.g. 'cdiv(n, BLOCK)'\n"
          "  --arg NAME=SPEC        a kernel argument; SPEC is one of\n"
          "                           KIND:DTYPE[SHAPE]  a generated tensor, KIND one of randn,\n"
          "                               rand, zeros, ones, empty, arange, full(V); DTYPE one\n"
          "                               of", f);
    print_dtype_list(f, 33, "                              ", 88);
    fputs("                               e.g. randn:f32[1024,512], full(2.5):f16[M, K]\n"
          "                           FILE.npy or @FILE    a tensor read from a .npy file\n"
          "                           a number or an expression: 42, 1e-5, numel(x),\n"
          "                               x.stride(0), x.shape[0], M * N\n"
          "  --const NAME=VALUE     a tl.constexpr parameter: int, float, True/False, string,\n"
          "                         dtype (tl.float16) or expression (--arg works too)\n", f);
    tt_settings_print_usage(f, TT_CMDS_LAUNCH, 1u << TT_SCOPE_LAUNCH);    /* --num-warps, --seed */
    fputs("  --save NAME=FILE.npy   write a tensor after the run\n"
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
    if (!strcmp(command, "ir")) {
        fputs(ir_usage, f);
    } else {
        fputs(run_usage, f);
        /* run's options, the launch's and the GPU's aside (settings.def) */
        tt_settings_print_usage(f, TT_CMD_RUN, ~(1u << TT_SCOPE_LAUNCH | 1u << TT_SCOPE_GPU));
        fputc('\n', f);
    }
    repl_print_spec_help(f);
}
