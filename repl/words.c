/* words.c — shell-like word splitting (for "# tritium:" lines) and
 * "did you mean" suggestions. */
#include "repl.h"

#include <string.h>

/* word   := (unquoted | '...' | "..." )+
 * Follows POSIX sh quoting (XCU 2.2) without expansions: inside "..." a
 * backslash escapes only $ ` " \ and newline. */
bool repl_split_words(const char *text, int *argc, char ***argv, char *err, size_t errlen)
{
    VEC(char *) words = { 0 };
    strbuf w = { 0 };
    const char *p = text;
    bool ok = true;
    for (;;) {
        while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r') p++;
        if (!*p) break;
        bool have = false;
        while (*p && !(*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')) {
            have = true;
            if (*p == '\'') {
                const char *e = strchr(p + 1, '\'');
                if (!e) { snprintf(err, errlen, "unterminated ' quote"); ok = false; goto out; }
                for (const char *q = p + 1; q < e; q++) sb_putc(&w, *q);
                p = e + 1;
            } else if (*p == '"') {
                p++;
                while (*p && *p != '"') {
                    if (*p == '\\' && p[1] && strchr("$`\"\\\n", p[1])) {
                        if (p[1] != '\n') sb_putc(&w, p[1]);
                        p += 2;
                    } else {
                        sb_putc(&w, *p++);
                    }
                }
                if (*p != '"') { snprintf(err, errlen, "unterminated \" quote"); ok = false; goto out; }
                p++;
            } else if (*p == '\\') {
                if (!p[1]) { snprintf(err, errlen, "trailing backslash"); ok = false; goto out; }
                if (p[1] != '\n') sb_putc(&w, p[1]);
                p += 2;
            } else {
                sb_putc(&w, *p++);
            }
        }
        if (have) vec_push(&words, sb_take(&w));
    }
out:
    sb_free(&w);
    if (!ok) {
        for (int i = 0; i < words.n; i++) free(words.v[i]);
        vec_free(&words);
        *argc = 0;
        *argv = NULL;
        return false;
    }
    vec_push(&words, NULL);
    *argc = words.n - 1;
    *argv = words.v;
    return true;
}

void repl_words_free(int argc, char **argv)
{
    if (!argv) return;
    for (int i = 0; i < argc; i++) free(argv[i]);
    free(argv);
}

int repl_edit_distance(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    if (la > 64 || lb > 64) return 100;
    int row[65];
    for (size_t j = 0; j <= lb; j++) row[j] = (int)j;
    for (size_t i = 1; i <= la; i++) {
        int diag = row[0];
        row[0] = (int)i;
        for (size_t j = 1; j <= lb; j++) {
            int up = row[j];
            int best = diag + (a[i - 1] != b[j - 1]);
            if (up + 1 < best) best = up + 1;
            if (row[j - 1] + 1 < best) best = row[j - 1] + 1;
            row[j] = best;
            diag = up;
        }
    }
    return row[lb] > 100 ? 100 : row[lb];
}

const char *repl_suggest(const char *word, const char *const *cands, int n)
{
    const char *best = NULL;
    int bestd = 100;
    int limit = (int)strlen(word) / 3 + 1;
    for (int i = 0; i < n; i++) {
        int d = repl_edit_distance(word, cands[i]);
        if (d < bestd) { bestd = d; best = cands[i]; }
    }
    return bestd <= limit && bestd < (int)strlen(word) ? best : NULL;
}
