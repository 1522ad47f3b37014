/* main.c — the `tritium` program: dispatch to a sub-command (tritium_main,
 * in libtritium; api/cli.c is the executable's main). */
#include "repl.h"
#include "tritium/tritium.h"
#include "tritium/diag.h"
#include "tritium/settings.h"
#ifdef TRITIUM_HAVE_DEBUG
#include "debug_repl.h"
#endif
#ifdef TRITIUM_HAVE_GPU
#include "repl_gpu.h"
#endif

#include <errno.h>
#include <stdio.h>
#include <string.h>

#ifndef TRITIUM_VERSION
#define TRITIUM_VERSION "unknown"
#endif

static const struct command {
    const char *name;
    int (*fn)(int argc, char *const *argv);
} commands[] = {
    { "run", repl_cmd_run },
    { "ir", repl_cmd_ir },
    { "check", repl_cmd_check },
#ifdef TRITIUM_HAVE_DEBUG
    { "debug", repl_cmd_debug },
#endif
#ifdef TRITIUM_HAVE_GPU
    { "ptx", repl_cmd_ptx },
    { "diff", repl_cmd_diff },
#endif
};

/* A summary that could not be written (`tritium run > /dev/full`, a closed
 * pipe) is a failure, not a success. */
static int checked_output(int rc)
{
    if (fflush(stdout) == 0 && !ferror(stdout)) return rc;
    int e = errno;
    fprintf(stderr, "tritium: error: writing the output failed: %s\n", strerror(e ? e : EIO));
    return rc == REPL_EXIT_OK ? REPL_EXIT_INPUT : rc;
}

int tritium_main(int argc, char **argv)
{
    if (argc < 2) {
        repl_print_usage(stderr, NULL);
        return REPL_EXIT_INPUT;
    }
    const char *cmd = argv[1];
    if (!strcmp(cmd, "help") && argc > 2 && !strcmp(argv[2], "settings")) {
        tt_settings_print_help(stdout, argc > 3 && !strcmp(argv[3], "--markdown"));
        return REPL_EXIT_OK;
    }
    if (!strcmp(cmd, "--help") || !strcmp(cmd, "-h") || !strcmp(cmd, "help")) {
        repl_print_usage(stdout, argc > 2 && !strcmp(cmd, "help") ? argv[2] : NULL);
        return REPL_EXIT_OK;
    }
    if (!strcmp(cmd, "--version") || !strcmp(cmd, "-V")) {
        printf("tritium %s\n", TRITIUM_VERSION);
        return REPL_EXIT_OK;
    }
    const char *names[TT_COUNTOF(commands)];
    for (size_t i = 0; i < TT_COUNTOF(commands); i++) {
        if (!strcmp(cmd, commands[i].name)) return checked_output(commands[i].fn(argc - 2, argv + 2));
        names[i] = commands[i].name;
    }
    const char *sug = repl_suggest(cmd, names, (int)TT_COUNTOF(commands));
    if (cmd[0] == '-')
        diag_error(REPL_NOPOS, "unknown option '%s' (try 'tritium --help')", cmd);
    else if (sug)
        diag_error(REPL_NOPOS, "unknown command '%s' (did you mean '%s'?)", cmd, sug);
    else {
        char list[128] = "";
        for (size_t i = 0; i < TT_COUNTOF(commands); i++)
            snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s", i ? ", " : "", names[i]);
        diag_error(REPL_NOPOS, "unknown command '%s' (commands: %s)", cmd, list);
    }
    return REPL_EXIT_INPUT;
}
