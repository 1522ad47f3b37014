/* placeholder until the front end lands */
#include "tritium/front.h"
front_module *front_load(const char *path) { (void)path; return NULL; }
front_module *front_load_text(const char *name, const char *text) { (void)name; (void)text; return NULL; }
void front_module_free(front_module *m) { (void)m; }
int front_function_count(const front_module *m) { (void)m; return 0; }
const char *front_function_name(const front_module *m, int i) { (void)m; (void)i; return NULL; }
const char *front_launch_comment(const front_module *m) { (void)m; return ""; }
int front_file(const front_module *m) { (void)m; return -1; }
int front_params(const front_module *m, const char *k, const front_param **o) { (void)m; (void)k; (void)o; return -1; }
ir_func *front_compile(front_module *m, const char *k, const launch *l) { (void)m; (void)k; (void)l; return NULL; }
bool front_eval_host(const char *o, const char *t, front_lookup_fn f, void *u, hostval *out) { (void)o; (void)t; (void)f; (void)u; (void)out; return false; }
