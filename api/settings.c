/* settings.c — tritium_settings_json: the settings table (settings.def) and
 * the sub-commands as JSON, for the Python package's options. */
#include "tritium/settings.h"
#include "tritium/support.h"
#include "tritium/tritium.h"

#include <jansson.h>
#include <pthread.h>
#include <string.h>

static json_t *str_or_null(const char *s) { return s ? json_string(s) : json_null(); }

/* "A|B|X=B:" -> ["A", "B"] (values) and {"X": "B"} (aliases). */
static void enum_values(const char *domain, json_t *values, json_t *aliases)
{
    for (const char *p = domain; p; p = strchr(p, '|') ? strchr(p, '|') + 1 : NULL) {
        size_t k = strcspn(p, "|=:");
        char *name = xstrndup(p, k);
        if (p[k] == '=') {
            char *target = xstrndup(p + k + 1, strcspn(p + k + 1, "|"));
            json_object_set_new(aliases, name, json_string(target));
            free(target);
        } else {
            json_array_append_new(values, json_string(name));
        }
        free(name);
    }
}

static json_t *row_json(const tt_setting_info *r)
{
    json_t *o = json_object();
    json_object_set_new(o, "name", json_string(r->name));
    json_t *flags = json_array();
    for (const char *p = r->flag; p; p = strchr(p, '|') ? strchr(p, '|') + 1 : NULL) {
        char *f = xstrndup(p, strcspn(p, "|"));
        json_array_append_new(flags, json_string(f));
        free(f);
    }
    json_object_set_new(o, "flags", flags);
    json_object_set_new(o, "env", str_or_null(r->env));
    json_object_set_new(o, "env_by_python", json_boolean(r->env_by_python));
    json_object_set_new(o, "python", str_or_null(r->python));
    static const char *const kinds[] = { "bool", "int", "uint", "float", "enum", "seeded", "str", "path", "list" };
    json_object_set_new(o, "type", json_string(kinds[r->type]));
    json_object_set_new(o, "domain", str_or_null(r->domain));
    if (r->type == TT_SET_T_ENUM || r->type == TT_SET_T_SEEDED) {
        json_t *values = json_array(), *aliases = json_object();
        enum_values(r->domain, values, aliases);
        json_object_set_new(o, "values", values);
        json_object_set_new(o, "aliases", aliases);
    }
    json_object_set_new(o, "default", str_or_null(r->def));
    json_object_set_new(o, "scope", json_string(tt_setting_scope_name(r->scope)));
    json_t *cmds = json_array();
    for (int k = 0; k < TT_CMD_COUNT; k++)
        if (r->commands >> k & 1) json_array_append_new(cmds, json_string(tt_setting_command_name(1u << k)));
    json_object_set_new(o, "commands", cmds);
    json_object_set_new(o, "code", json_boolean(r->code));
    json_object_set_new(o, "metavar", json_string(r->metavar));
    json_object_set_new(o, "help", json_string(r->help));
    return o;
}

static char *g_json;
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void build(void)
{
    json_t *o = json_object();
    json_t *cmds = json_array();
    for (unsigned c = TT_CMD_RUN; c <= TT_CMD_DIFF; c <<= 1) json_array_append_new(cmds, json_string(tt_setting_command_name(c)));
    json_object_set_new(o, "commands", cmds);
    json_t *rows = json_array();
    for (int i = 0; i < TT_SET_COUNT; i++) json_array_append_new(rows, row_json(tt_setting_row((tt_setting_id)i)));
    json_object_set_new(o, "settings", rows);
    g_json = json_dumps(o, JSON_COMPACT | JSON_PRESERVE_ORDER);
    json_decref(o);
}

const char *tritium_settings_json(void)
{
    pthread_once(&once, build);
    return g_json;
}
