/* sigint.c — interrupting a launch: interp_interrupt sets the flags that
 * stop every program at its next op (async-signal-safe), and Ctrl-C for a
 * library call (interp_sigint_begin/end) calls it from a SIGINT
 * handler, installed while scopes are open, that interrupts the launches
 * running in them. The command-line tool's `run` has its own handler
 * (repl/run.c), over the whole command. */
#include "internal.h"

#include <sched.h>

#define WATCH_MAX 64               /* launches running in scopes at once (threads); more are not watched */

static interp_session *g_watched[WATCH_MAX];   /* atomics: read by the handler */
static unsigned g_sigints;                     /* SIGINTs handled so far */
static int g_in_handler;                       /* handlers running now */
static pthread_mutex_t g_mu = PTHREAD_MUTEX_INITIALIZER;
static int g_scopes;                           /* open scopes, under g_mu */
static bool g_installed;                       /* g_old holds the handler to restore, under g_mu */
static struct sigaction g_old;
static __thread bool t_scope;                  /* this thread is in a scope */
static __thread unsigned t_since;              /* g_sigints when it began */

static void on_sigint(int sig)
{
    (void)sig;
    __atomic_add_fetch(&g_in_handler, 1, __ATOMIC_SEQ_CST);
    __atomic_add_fetch(&g_sigints, 1, __ATOMIC_SEQ_CST);
    for (int i = 0; i < WATCH_MAX; i++) {
        interp_session *s = __atomic_load_n(&g_watched[i], __ATOMIC_SEQ_CST);
        if (s) interp_interrupt(s);
    }
    __atomic_sub_fetch(&g_in_handler, 1, __ATOMIC_SEQ_CST);
}

void interp_sigint_begin(void)
{
    pthread_mutex_lock(&g_mu);
    if (g_scopes++ == 0) {
        /* SA_RESTART: a read or write of the program's must not fail with EINTR */
        struct sigaction sa = { .sa_handler = on_sigint, .sa_flags = SA_RESTART };
        sigemptyset(&sa.sa_mask);
        g_installed = sigaction(SIGINT, NULL, &g_old) == 0 && g_old.sa_handler != SIG_IGN &&
                      sigaction(SIGINT, &sa, NULL) == 0;
    }
    pthread_mutex_unlock(&g_mu);
    t_since = __atomic_load_n(&g_sigints, __ATOMIC_SEQ_CST);
    t_scope = true;
}

bool interp_sigint_end(void)
{
    if (!t_scope) return false;
    t_scope = false;
    pthread_mutex_lock(&g_mu);
    if (--g_scopes == 0 && g_installed) {
        sigaction(SIGINT, &g_old, NULL);
        g_installed = false;
    }
    pthread_mutex_unlock(&g_mu);
    return __atomic_load_n(&g_sigints, __ATOMIC_SEQ_CST) != t_since;
}

int interp_sigint_watch(interp_session *s)
{
    if (!t_scope) return -1;
    for (int i = 0; i < WATCH_MAX; i++) {
        interp_session *none = NULL;
        if (!__atomic_compare_exchange_n(&g_watched[i], &none, s, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST))
            continue;
        /* a Ctrl-C earlier in the scope (the launch had not started): no program runs */
        if (__atomic_load_n(&g_sigints, __ATOMIC_SEQ_CST) != t_since) interp_interrupt(s);
        return i;
    }
    return -1;
}

void interp_sigint_unwatch(int slot)
{
    if (slot < 0) return;
    __atomic_store_n(&g_watched[slot], NULL, __ATOMIC_SEQ_CST);
    /* a handler on another thread may still hold the session: it is freed after this */
    while (__atomic_load_n(&g_in_handler, __ATOMIC_SEQ_CST)) sched_yield();
}

void interp_interrupt(interp_session *s)
{
    TRAP_SET(s->interrupted, 1);
    TRAP_SET(s->trap, true);
}

bool interp_interrupted(const interp_session *s) { return TRAP_GET(s->interrupted) != 0; }
