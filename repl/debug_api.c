/* debug_api.c — tritium_debug (tritium.h): `tritium debug`'s REPL on a
 * launch built through the C API (python -m tritium --mode debug), results
 * written back. Like tritium_main, it is an entry point of the command line
 * that ships in libtritium: the command uses the library (api/api.h's
 * launch), the library does not call the command. */
#include "api.h"
#include "debug_repl.h"

int tritium_debug(tritium_launch *L, int numerics, int argc, char **argv, tritium_debug_result *res)
{
    tritium_debug_result dummy;
    if (!res) res = &dummy;
    res->finished = res->detached = res->quit = 0;
    res->quit_status = -1;
    int rc = api_prepare(L);
    if (rc) return rc;
    if (numerics < TRITIUM_NUMERICS_IEEE || numerics > TRITIUM_NUMERICS_FAST || argc < 0 || (argc && !argv)) {
        api_fail("tritium: error: bad debug arguments (numerics %d, argc %d)", numerics, argc);
        return TRITIUM_INPUT_ERROR;
    }
    bool fin, det, quit;
    int qs;
    rc = repl_debug_launch(L->m->fm, L->kernel, &L->l, (tt_numerics)numerics, argc, argv, &fin, &det, &quit, &qs);
    res->finished = fin;
    res->detached = det;
    res->quit = quit;
    res->quit_status = qs;
    if (rc) {
        api_fail("tritium: error: the debugger could not start on '%s' (see the messages above)", L->kernel);
        return TRITIUM_INPUT_ERROR;
    }
    return TRITIUM_OK;
}
