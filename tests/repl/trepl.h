/* trepl.h — shared helpers of the repl suite. */
#ifndef TREPL_H
#define TREPL_H

#include <check.h>
#include <stdio.h>
#include "repl.h"

TCase *literal_tcase(void);
TCase *spec_tcase(void);
TCase *resolve_tcase(void);
TCase *expect_tcase(void);
TCase *expr_tcase(void);

/* Capture diagnostics (diag.h) in memory between cap_start and cap_end;
 * cap_end returns the text (static until the next cap_start). */
void cap_start(void);
const char *cap_end(void);

/* Parse one whitespace-separated command line into s (test convenience;
 * the words may not contain spaces). */
bool parse_line(repl_spec *s, const char *line, unsigned allowed, bool from_comment, const char *base);

#endif
