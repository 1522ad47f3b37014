/* settings_text.c — the settings table as text: the option lines of usage
 * texts and `tritium help settings` (plain or as docs/settings.md). */
#include "tritium/limits.h"
#include "tritium/settings.h"
#include "tritium/support.h"

#include <string.h>

enum { WIDTH = 79, HELP_COL = 25 };

/* Print text from column `col` (the cursor is at column `at`), wrapping at
 * WIDTH, each further line indented to col. */
static void wrap(FILE *f, const char *text, int at, int col)
{
    if (at > col) {
        fputc('\n', f);
        at = 0;
    }
    fprintf(f, "%*s", col - at, "");
    int x = col;
    const char *p = text;
    while (*p) {
        size_t n = strcspn(p, " ");
        if (x > col && x + 1 + (int)n > WIDTH) {
            fprintf(f, "\n%*s", col, "");
            x = col;
        } else if (x > col) {
            fputc(' ', f);
            x++;
        }
        fwrite(p, 1, n, f);
        x += (int)n;
        p += n;
        while (*p == ' ') p++;
    }
    fputc('\n', f);
}

/* "--verbose|-v" -> "--verbose, -v" with the metavar after the first. */
static void flag_text(const tt_setting_info *r, strbuf *b)
{
    const char *p = r->flag;
    size_t n = strcspn(p, "|");
    sb_printf(b, "%.*s%s%s", (int)n, p, r->metavar[0] ? " " : "", r->metavar);
    for (p += n; *p == '|'; p += n) {
        p++;
        n = strcspn(p, "|");
        sb_printf(b, ", %.*s", (int)n, p);
    }
}

/* The default as usage texts say it, or NULL when the help says enough. */
static const char *usage_default(const tt_setting_info *r)
{
    if (!r->def || r->type == TT_SET_T_BOOL || r->type == TT_SET_T_LIST) return NULL;
    return r->def;
}

void tt_settings_print_usage(FILE *f, unsigned command, unsigned scopes)
{
    for (int i = 0; i < TT_SET_COUNT; i++) {
        const tt_setting_info *r = tt_setting_row((tt_setting_id)i);
        if (!r->flag || !(r->commands & command) || !(scopes >> r->scope & 1)) continue;
        strbuf b = { 0 };
        sb_puts(&b, "  ");
        flag_text(r, &b);
        const char *d = usage_default(r);
        char *help = d ? xasprintf("%s (default %s)", r->help, d) : xstrdup(r->help);
        fputs(b.s, f);
        wrap(f, help, (int)b.len, HELP_COL);
        free(help);
        sb_free(&b);
    }
}

/* ---- tritium help settings --------------------------------------------------- */

static void domain_text(const tt_setting_info *r, strbuf *b)
{
    sb_puts(b, tt_setting_type_name(r->type));
    if (!r->domain) return;
    if (r->type == TT_SET_T_STR) {
        sb_printf(b, " (%s)", r->domain);
        return;
    }
    sb_puts(b, " ");
    for (const char *p = r->domain; *p; p++) {
        if (*p == '|') sb_puts(b, ", ");
        else if (*p == ':' && (r->type == TT_SET_T_SEEDED)) sb_puts(b, "[:SEED]");
        else if (*p == '=') {                               /* ALIAS=VALUE */
            size_t k = strcspn(p + 1, "|");
            sb_printf(b, " (= %.*s)", (int)k, p + 1);
            p += k;
        }
        else sb_putc(b, *p);
    }
}

static void commands_text(const tt_setting_info *r, strbuf *b)
{
    for (int k = 0; k < TT_CMD_COUNT; k++)
        if (r->commands >> k & 1) sb_printf(b, "%s%s", b->len ? ", " : "", tt_setting_command_name(1u << k));
}

static void flag_cell(const tt_setting_info *r, strbuf *b)
{
    if (!r->flag) return;
    flag_text(r, b);
}

/* Markdown: | and backquotes in a cell. */
static void md_cell(FILE *f, const char *s, bool code)
{
    bool quote = code && *s;
    fputs(quote ? " `" : " ", f);
    for (; *s; s++) {
        if (*s == '|') fputs("\\|", f);
        else fputc(*s, f);
    }
    fputs(quote ? "` |" : " |", f);
}

static void print_row_md(FILE *f, const tt_setting_info *r)
{
    strbuf fl = { 0 }, ty = { 0 }, cm = { 0 };
    flag_cell(r, &fl);
    domain_text(r, &ty);
    commands_text(r, &cm);
    fputs("|", f);
    md_cell(f, r->name, true);
    md_cell(f, fl.s ? fl.s : "", fl.s != NULL);
    char *env = r->env ? xasprintf("%s%s", r->env, r->env_by_python ? " (Python)" : "") : xstrdup("");
    md_cell(f, env, r->env != NULL);
    free(env);
    md_cell(f, r->python ? r->python : "", r->python != NULL);
    md_cell(f, ty.s ? ty.s : "", false);
    md_cell(f, r->def ? r->def : "", r->def != NULL);
    md_cell(f, r->code ? "yes" : "", false);
    char *help = cm.s ? xasprintf("%s. Accepted by: %s.", r->help, cm.s) : xasprintf("%s.", r->help);
    md_cell(f, help, false);
    free(help);
    fputc('\n', f);
    sb_free(&fl);
    sb_free(&ty);
    sb_free(&cm);
}

static void print_row_text(FILE *f, const tt_setting_info *r)
{
    strbuf b = { 0 };
    sb_printf(&b, "  %s", r->name);
    if (r->flag) {
        sb_puts(&b, "  ");
        flag_text(r, &b);
    }
    if (r->env) sb_printf(&b, "  $%s%s", r->env, r->env_by_python ? " (read by Python)" : "");
    if (r->python) sb_printf(&b, "  python: %s", r->python);
    fputs(b.s, f);
    fputc('\n', f);
    sb_free(&b);
    domain_text(r, &b);
    sb_printf(&b, "; default %s; scope %s%s", r->def ? r->def : "none", tt_setting_scope_name(r->scope),
              r->code ? "; changes the generated code" : "");
    wrap(f, b.s, 0, 6);
    sb_free(&b);
    strbuf cm = { 0 };
    commands_text(r, &cm);
    if (cm.s) {
        fputs("      accepted by:", f);
        wrap(f, cm.s, 18, 19);
    }
    sb_free(&cm);
    wrap(f, r->help, 0, 6);
}

static const char intro[] =
    "Every option of the tritium command and of python -m tritium, and every\n"
    "environment variable tritium reads, from one table\n"
    "(include/tritium/settings.def). A value comes from the command line, else a\n"
    "kernel file's '# tritium:' line, else the environment, else the default.\n"
    "Rows that change the generated code are part of the GPU compile cache's key.\n";

static void print_limits(FILE *f, bool markdown)
{
    if (markdown)
        fputs("\n## limits\n\nResource limits (include/tritium/limits.h, compiler/support/limits.c): a positive "
              "number, with an optional K, M or G suffix (2^10, 2^20, 2^30).\n\n"
              "| environment | default | limit on |\n|---|---|---|\n", f);
    else
        fputs("\nlimits (include/tritium/limits.h): a positive number of bytes; a K, M or G\n"
              "suffix multiplies it by 2^10, 2^20, 2^30\n", f);
    for (int i = 0; i < TT_LIM_COUNT; i++) {
        const tt_limit_info *l = tt_limit_info_of((tt_limit_id)i);
        if (!l->env) continue;
        if (markdown)
            fprintf(f, "| `%s` | %lld %s | %s |\n", l->env, (long long)l->def, l->unit, l->what);
        else
            fprintf(f, "  $%s  default %lld %s\n      the limit on %s\n", l->env, (long long)l->def, l->unit, l->what);
    }
}

void tt_settings_print_help(FILE *f, bool markdown)
{
    if (markdown) {
        fputs("# Settings\n\n<!-- generated by `tritium help settings --markdown` from include/tritium/settings.def; "
              "tests/support/test_settings.c keeps it in sync -->\n\n", f);
        fputs(intro, f);
        fputs("\nThe `code` column marks the rows that change the generated code. A boolean option takes no "
              "value and sets the opposite of its default; its environment variable takes 0 or 1. Each "
              "option is described at length on the page of its topic: [command-line.md](command-line.md), "
              "[python.md](python.md), [gpu.md](gpu.md), [diff-and-check.md](diff-and-check.md), "
              "[sanitizers.md](sanitizers.md), [debugging.md](debugging.md) and [limits.md](limits.md).\n", f);
    } else {
        fputs("usage: tritium help settings [--markdown]\n\n", f);
        fputs(intro, f);
    }
    for (int sc = 0; sc < TT_SCOPE_COUNT; sc++) {
        if (markdown)
            fprintf(f, "\n## %s\n\n| name | flag | environment | Python | type | default | code | help |\n"
                       "|---|---|---|---|---|---|---|---|\n", tt_setting_scope_name((tt_setting_scope)sc));
        else
            fprintf(f, "\n%s\n", tt_setting_scope_name((tt_setting_scope)sc));
        for (int i = 0; i < TT_SET_COUNT; i++) {
            const tt_setting_info *r = tt_setting_row((tt_setting_id)i);
            if (r->scope != (tt_setting_scope)sc) continue;
            if (markdown) print_row_md(f, r);
            else print_row_text(f, r);
        }
    }
    print_limits(f, markdown);
}
