/* debug_input.c — reading commands: GNU readline when stdin is a terminal
 * (history kept in $XDG_STATE_HOME/tritium/history, by default
 * ~/.local/state/tritium/history; completion of commands, subcommands,
 * breakpoint locations and variable names), plain getline() otherwise.
 *
 * Ctrl-C: the SIGINT handler asks a running
 * launch to stop (dbg_interrupt turns the interpreter's trap on; the hook
 * stops at the next op) and any other command to give up ("Quit", see
 * dbg_interrupt). At the prompt it discards the line being edited:
 * readline runs through its callback interface under pselect(), so the
 * signal interrupts the wait and the line is reset outside the handler. */
#include "debug_repl.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/select.h>
#include <sys/stat.h>
#include <unistd.h>

#include <readline/history.h>
#include <readline/readline.h>

static repl_dbg *g_r;
static volatile sig_atomic_t g_sigint;
static char *g_hist_path;

static void on_sigint(int sig)
{
    (void)sig;
    if (g_r && g_r->d && dbg_interrupt(g_r->d)) return;
    if (g_r && !g_r->interactive) {
        /* not at a terminal prompt: leave like an ordinary program */
        signal(SIGINT, SIG_DFL);
        raise(SIGINT);
        return;
    }
    g_sigint = 1;
}

char *repl_history_path(void)
{
    const char *state = getenv("XDG_STATE_HOME");
    char *dir;
    if (state && *state) dir = xasprintf("%s/tritium", state);
    else {
        const char *home = getenv("HOME");
        if (!home || !*home) return NULL;
        dir = xasprintf("%s/.local/state/tritium", home);
    }
    /* mkdir -p */
    for (char *p = dir + 1; *p; p++) {
        if (*p != '/') continue;
        *p = 0;
        mkdir(dir, 0700);
        *p = '/';
    }
    mkdir(dir, 0700);
    char *path = xasprintf("%s/history", dir);
    free(dir);
    return path;
}

/* ---- completion ------------------------------------------------------------------- */

static char **g_cands;
static int g_ncands;

static void cands_clear(void)
{
    for (int i = 0; i < g_ncands; i++) free(g_cands[i]);
    free(g_cands);
    g_cands = NULL;
    g_ncands = 0;
}

static void cand_add(const char *s)
{
    for (int i = 0; i < g_ncands; i++)
        if (!strcmp(g_cands[i], s)) return;
    g_cands = xrealloc(g_cands, sizeof *g_cands * (size_t)(g_ncands + 1));
    g_cands[g_ncands++] = xstrdup(s);
}

static void cand_add_names(dbg_names_kind k, const char *suffix)
{
    char **n = dbg_names(g_r->d, k);
    for (char **p = n; p && *p; p++) {
        if (suffix) {
            char *s = xasprintf("%s%s", *p, suffix);
            cand_add(s);
            free(s);
        } else {
            cand_add(*p);
        }
    }
    dbg_names_free(n);
}

static char *generator(const char *text, int state)
{
    static int i;
    static size_t len;
    if (!state) {
        i = 0;
        len = strlen(text);
    }
    while (i < g_ncands) {
        const char *c = g_cands[i++];
        if (!strncmp(c, text, len)) return xstrdup(c);
    }
    return NULL;
}

static char **complete(const char *text, int start, int end)
{
    (void)end;
    rl_attempted_completion_over = 1;
    cands_clear();
    /* the words before the one being completed */
    char *before = xstrndup(rl_line_buffer, (size_t)start);
    int wc;
    char **w;
    char err[64];
    if (!repl_split_words(before, &wc, &w, err, sizeof err)) {
        free(before);
        return NULL;
    }
    free(before);
    const char *const *names = NULL;
    if (wc == 0) {
        names = repl_dbg_command_names(NULL);
    } else {
        const char *sub = NULL;
        repl_args_kind k = repl_dbg_args_kind(w[0], &sub);
        if (k == ARGS_SUB && wc == 1) names = repl_dbg_command_names(sub);
        else if (k == ARGS_COMMAND && wc == 1) names = repl_dbg_command_names(NULL);
        else if (k == ARGS_LOCATION) {
            cand_add_names(DBG_NAMES_FUNCS, NULL);
            cand_add_names(DBG_NAMES_FILES, ":");
            rl_completion_append_character = '\0';
        } else if (k == ARGS_EXPR || (k == ARGS_SUB && wc >= 2)) {
            cand_add_names(DBG_NAMES_VARS, NULL);
            cand_add_names(DBG_NAMES_BUFFERS, NULL);
        } else if (k == ARGS_FILE) {
            repl_words_free(wc, w);
            rl_attempted_completion_over = 0;   /* readline's file names */
            return NULL;
        }
    }
    repl_words_free(wc, w);
    for (const char *const *p = names; p && *p; p++) cand_add(*p);
    if (!g_ncands) return NULL;
    return rl_completion_matches(text, generator);
}

/* ---- line input ---------------------------------------------------------------------- */

static char *g_line;
static bool g_have_line;

static void on_line(char *line)
{
    g_line = line;
    g_have_line = true;
    rl_callback_handler_remove();
}

void repl_input_init(repl_dbg *r)
{
    g_r = r;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_sigint;
    sigemptyset(&sa.sa_mask);
    /* SA_RESTART: a write to a full pipe must not fail with EINTR and lose
     * buffered output; pselect is interrupted regardless (signal(7)) */
    sa.sa_flags = SA_RESTART;
    sigaction(SIGINT, &sa, NULL);
    if (!r->interactive) return;
    rl_readline_name = "tritium";
    rl_catch_signals = 0;
    rl_attempted_completion_function = complete;
    rl_basic_word_break_characters = " \t\n\"'`@$><=;|&{(+-*/%[],~!";
    using_history();
    stifle_history(1000);
    g_hist_path = repl_history_path();
    if (g_hist_path) read_history(g_hist_path);
}

void repl_input_done(repl_dbg *r)
{
    if (r->interactive && g_hist_path) write_history(g_hist_path);
    free(g_hist_path);
    g_hist_path = NULL;
    cands_clear();
    signal(SIGINT, SIG_DFL);
    g_r = NULL;
}

char *repl_input_line(repl_dbg *r, const char *prompt)
{
    if (!r->interactive) {
        char *line = NULL;
        size_t cap = 0;
        ssize_t n;
        for (;;) {
            errno = 0;
            n = getline(&line, &cap, stdin);
            if (n >= 0 || errno != EINTR) break;
            clearerr(stdin);
        }
        if (n < 0) {
            free(line);
            return NULL;
        }
        while (n > 0 && (line[n - 1] == '\n' || line[n - 1] == '\r')) line[--n] = 0;
        return line;
    }
    g_have_line = false;
    g_line = NULL;
    fflush(stdout);
    rl_callback_handler_install(prompt, on_line);
    sigset_t block, old;
    sigemptyset(&block);
    sigaddset(&block, SIGINT);
    while (!g_have_line) {
        sigprocmask(SIG_BLOCK, &block, &old);
        if (g_sigint) {
            g_sigint = 0;
            sigprocmask(SIG_SETMASK, &old, NULL);
            /* Ctrl-C at the prompt: drop the line, as gdb does */
            rl_free_line_state();
            rl_callback_sigcleanup();
            rl_replace_line("", 0);
            rl_crlf();
            printf("Quit\n");
            fflush(stdout);
            rl_on_new_line();
            rl_redisplay();
            continue;
        }
        fd_set fds;
        FD_ZERO(&fds);
        FD_SET(STDIN_FILENO, &fds);
        int rc = pselect(STDIN_FILENO + 1, &fds, NULL, NULL, NULL, &old);
        sigprocmask(SIG_SETMASK, &old, NULL);
        if (rc > 0) rl_callback_read_char();
        else if (rc < 0 && errno != EINTR) break;
    }
    if (!g_have_line) {
        rl_callback_handler_remove();
        return NULL;
    }
    char *line = g_line;
    if (line && *line) {
        HIST_ENTRY *last = history_length > 0 ? history_get(history_base + history_length - 1) : NULL;
        if (!last || strcmp(last->line, line)) add_history(line);
        if (g_hist_path) {
            /* keep the file current, so a crash or kill loses nothing */
            write_history(g_hist_path);
        }
    }
    return line;
}
