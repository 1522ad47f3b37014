/* ir_cmd.c — `tritium ir`: compile a kernel for a launch and print its IR. */
#include "repl.h"
#include "tritium/diag.h"

int repl_cmd_ir(int argc, char *const *argv)
{
    if (repl_wants_help(argc, argv)) {
        repl_print_usage(stdout, "ir");
        return REPL_EXIT_OK;
    }
    repl_target t;
    repl_resolve_opts ro = { .types_only = true };
    int rc = repl_target_open(&t, argc, argv, REPL_OPT_LAUNCH, &ro);
    if (rc) { repl_target_close(&t); return rc; }
    ir_func *fn = repl_target_compile(&t);
    if (!fn) {
        rc = REPL_EXIT_INPUT;
    } else {
        ir_print(stdout, fn);
        fflush(stdout);
        ir_func_free(fn);
    }
    repl_target_close(&t);
    return rc;
}
