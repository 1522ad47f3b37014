/* settings.h — every option and knob of tritium as rows of one table
 * (settings.def), their resolved values (tt_settings), and the one parser
 * that reads them from the environment and from argv words.
 *
 * A setting's value comes from, in order of precedence: the command line,
 * a kernel file's "# tritium:" line, the environment, the row's default.
 * tt_settings_env() is the process's defaults plus environment, read once;
 * a command starts from a copy of it and parses its words over it
 * (tt_settings_set). The GPU compiler reads fields of the settings in its
 * gpu_options, never the environment; its cache key hashes every row that
 * changes code (tt_settings_key). Nothing else in the product calls getenv
 * for a TRITIUM_* variable (tests/support/test_settings.c checks it); the
 * limits of limits.h keep their own table and are listed with these rows
 * by `tritium help settings`. */
#ifndef TRITIUM_SETTINGS_H
#define TRITIUM_SETTINGS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Where a flag is accepted (settings.def's `commands` column). */
enum {
    TT_CMD_RUN = 1 << 0,           /* tritium run */
    TT_CMD_IR = 1 << 1,            /* tritium ir */
    TT_CMD_CHECK = 1 << 2,         /* tritium check */
    TT_CMD_DEBUG = 1 << 3,         /* tritium debug, the debugger's load and set launch */
    TT_CMD_PTX = 1 << 4,           /* tritium ptx */
    TT_CMD_DIFF = 1 << 5,          /* tritium diff */
    TT_CMD_DBG_DIFF = 1 << 6,      /* the debugger's diff command */
    TT_CMD_COMMENT = 1 << 7,       /* a kernel file's "# tritium:" line */
    TT_CMD_PYTHON = 1 << 8,        /* python -m tritium, TRITIUM_OPTIONS, tritium.enable(...) */
    TT_CMD_COUNT = 9,
    TT_ENV_PY = 1 << 9,            /* not a command: the Python package reads ENV, the library does not */
    /* every command with a launch spec, and "# tritium:" lines */
    TT_CMDS_LAUNCH = TT_CMD_RUN | TT_CMD_IR | TT_CMD_CHECK | TT_CMD_DEBUG | TT_CMD_PTX | TT_CMD_DIFF | TT_CMD_COMMENT,
    /* the commands that run the interpreter */
    TT_CMDS_INTERP = TT_CMD_RUN | TT_CMD_CHECK | TT_CMD_DEBUG | TT_CMD_DIFF | TT_CMD_COMMENT,
    /* the commands that compile for the GPU */
    TT_CMDS_GPU = TT_CMD_RUN | TT_CMD_PTX | TT_CMD_DIFF | TT_CMD_DBG_DIFF,
    TT_CMDS_DIFF = TT_CMD_DIFF | TT_CMD_DBG_DIFF,
};

typedef enum { TT_SCOPE_LAUNCH, TT_SCOPE_RUN, TT_SCOPE_GPU, TT_SCOPE_CHECK, TT_SCOPE_DEBUGGER, TT_SCOPE_DEVELOPER,
               TT_SCOPE_COUNT } tt_setting_scope;

typedef enum { TT_SET_T_BOOL, TT_SET_T_INT, TT_SET_T_UINT, TT_SET_T_FLOAT, TT_SET_T_ENUM, TT_SET_T_SEEDED,
               TT_SET_T_STR, TT_SET_T_PATH, TT_SET_T_LIST } tt_setting_type;

/* A SEEDED value: the index of the value in the row's domain, and the N of
 * "NAME:N" ("random:7"). */
typedef struct tt_seeded {
    int v;
    bool has_n;
    uint64_t n;
} tt_seeded;

/* A LIST value: the words given, in order (borrowed from argv; the array is
 * malloc'd, freed by tt_settings_free). */
typedef struct tt_strlist {
    const char **v;
    int n;
} tt_strlist;

#define TT_SET_CTYPE_BOOL bool
#define TT_SET_CTYPE_INT int64_t
#define TT_SET_CTYPE_UINT uint64_t
#define TT_SET_CTYPE_FLOAT double
#define TT_SET_CTYPE_ENUM int
#define TT_SET_CTYPE_SEEDED tt_seeded
#define TT_SET_CTYPE_STR const char *
#define TT_SET_CTYPE_PATH const char *
#define TT_SET_CTYPE_LIST tt_strlist

typedef enum {
#define TT_SETTING(ID, ...) TT_SET_##ID,
#include "tritium/settings.def"
#undef TT_SETTING
    TT_SET_COUNT
} tt_setting_id;

/* Where a value came from (tt_settings.src). */
typedef enum { TT_SRC_DEFAULT, TT_SRC_ENV, TT_SRC_COMMENT, TT_SRC_ARGV } tt_setting_src;

/* The resolved value of every row, in the field the row names. Strings
 * point into argv words or into the library's copy of the environment
 * (valid for the process); a copy by value shares the LIST arrays. */
typedef struct tt_settings {
#define TT_SETTING(ID, field, TYPE, ...) TT_SET_CTYPE_##TYPE field;
#include "tritium/settings.def"
#undef TT_SETTING
    uint8_t src[TT_SET_COUNT];     /* tt_setting_src of each row */
} tt_settings;

/* Named values of the ENUM rows that code compares with (the index in the
 * row's domain). numerics is tt_numerics (launch.h), schedule interp_sched
 * (interp.h): settings.c and repl/spec.c assert that they agree. */
enum { TT_MMA_WGMMA, TT_MMA_SYNC };
enum { TT_DEVICE_CPU, TT_DEVICE_GPU };
enum { TT_AGAINST_GPU, TT_AGAINST_IN_ORDER, TT_AGAINST_REVERSE, TT_AGAINST_RANDOM, TT_AGAINST_PARALLEL };

/* One row of settings.def. */
typedef struct tt_setting_info {
    tt_setting_id id;
    const char *name;              /* the field's name: "num_warps" */
    tt_setting_type type;
    const char *flag;              /* "--num-warps", "--verbose|-v", or NULL */
    const char *env;               /* "TRITIUM_WGMMA" or NULL */
    const char *python;            /* "numerics" or NULL */
    const char *domain;            /* settings.def says how each type reads it; may be NULL */
    const char *def;               /* the default as text; NULL: none */
    tt_setting_scope scope;
    unsigned commands;             /* TT_CMD_* */
    bool code;                     /* changes generated code: part of the cache key */
    bool env_by_python;            /* TT_ENV_PY: the Python package reads env, the library does not */
    const char *metavar;
    const char *help;
    size_t offset;                 /* of the field in tt_settings */
} tt_setting_info;

const tt_setting_info *tt_setting_row(tt_setting_id id);
/* "launch", "run", ...; "run", "ir", ... for a single TT_CMD_* bit (NULL for
 * another value); "bool", "int", ... */
const char *tt_setting_scope_name(tt_setting_scope s);
const char *tt_setting_command_name(unsigned cmd_bit);
const char *tt_setting_type_name(tt_setting_type t);

/* The row whose flag (any of its spellings) is the word's part before '=',
 * among the rows accepted by one of `commands` (TT_CMD_* bits); -1 when
 * none. *value (may be NULL) is set to the text after '=' or NULL. */
int tt_setting_by_flag(const char *word, unsigned commands, const char **value);
/* The row with field name, or environment variable, `name`; -1 when none. */
int tt_setting_by_name(const char *name);

/* Every row at its default (src TT_SRC_DEFAULT). */
void tt_settings_init(tt_settings *s);
/* Parse `value` for row id into s (text from argv, a comment line or the
 * environment; NULL for a BOOL flag, which sets the opposite of the
 * default) and record src. LIST rows append (the word is borrowed: it must
 * outlive s); the other rows replace, strings are borrowed too. False with
 * a message in err ("expected one of ieee, fast, gpu"; without the option's
 * name, which the caller puts in front) and s unchanged. */
bool tt_settings_set(tt_settings *s, tt_setting_id id, const char *value, tt_setting_src src, char *err,
                     size_t errlen);
/* Whether the row's value came from anything but its default. */
bool tt_settings_given(const tt_settings *s, tt_setting_id id);
/* *dst = *src with dst's own LIST arrays (free them with tt_settings_free). */
void tt_settings_copy(tt_settings *dst, const tt_settings *src);
/* Free the LIST arrays of s (the words stay the caller's) and empty them. */
void tt_settings_free(tt_settings *s);
/* Make s hold its own copy of every string (never freed: for holders that
 * live as long as the process, such as the GPU launcher's memo) and no
 * LIST values. */
void tt_settings_keep(tt_settings *s);

/* The defaults and the environment of the process, read on the first call
 * (thread-safe) and kept: the library's copy of each value. A value that
 * does not parse keeps the default, with one warning on stderr
 * ("tritium: warning: TRITIUM_WGMMA=2 ignored: expected one of ..."). */
const tt_settings *tt_settings_env(void);
/* Read the environment again (tests that setenv; not safe while other
 * threads use tt_settings_env()'s values). */
void tt_settings_reload(void);

/* The value of row id as text ("ieee", "4", "random:7", "" for none;
 * a LIST's words joined by ", "). malloc'd, caller frees. */
char *tt_settings_value_text(const tt_settings *s, tt_setting_id id);
/* One "name=value\n" line per row that changes code (settings.def's `code`
 * column), in table order: the settings' part of the GPU compile cache's
 * key. */
void tt_settings_key(const tt_settings *s, FILE *out);
/* Whether a and b agree on every row that changes code. */
bool tt_settings_same_code(const tt_settings *a, const tt_settings *b);

/* ---- texts (settings_text.c) --------------------------------------------- */

/* The options of the rows accepted by `command` (TT_CMD_* bits: any of them) whose
 * scope is in `scopes` (a bit per tt_setting_scope), one per line as usage
 * texts show them: "  --numerics M           help..." wrapped at 79
 * columns. */
void tt_settings_print_usage(FILE *f, unsigned command, unsigned scopes);
/* `tritium help settings`: every row (flag, environment variable, Python
 * name, type and domain, default, scope, whether it changes code, help),
 * then the limits of limits.h. markdown: the same as docs/settings.md. */
void tt_settings_print_help(FILE *f, bool markdown);

#endif
