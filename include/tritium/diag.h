/* diag.h — compiler-style diagnostics for the user's input.
 *
 *   file.py:12:17: error: message
 *      12 |     x = tl.load(x_ptr + offs)
 *         |                 ^
 *
 * Sources are registered once (diag_add_source) so that any later message
 * (a fault at run time, a debugger stop) can quote the line. Diagnostics never
 * abort; callers count errors with diag_error_count(). */
#ifndef TRITIUM_DIAG_H
#define TRITIUM_DIAG_H

#include <stdio.h>
#include <stdarg.h>

/* A source position: file id from diag_add_source, 1-based line and column.
 * file < 0 means "no location" (command-line input without a file). */
typedef struct src_pos { int file, line, col; } src_pos;

/* Register a source text under a display name; the text is copied.
 * Returns the file id. Registering the same name twice returns a new id,
 * unless the text is the same as that name's latest: then that id. */
int diag_add_source(const char *name, const char *text);
/* The id of the latest source registered under `name`, or -1. */
int diag_find_source(const char *name);
const char *diag_file_name(int file);
const char *diag_file_text(int file);
/* Line `line` (1-based) of file `file` without its newline, in a static
 * buffer valid until the next call; "" when out of range. */
const char *diag_source_line(int file, int line);
/* The registry only grows (a fault report may quote any file later). A
 * process that parses many throwaway texts (a fuzzer, a long REPL) takes
 * diag_source_mark() before and diag_source_release(mark) after, which frees
 * every source registered since the mark; no src_pos into them may be used
 * afterwards. */
int diag_source_mark(void);
void diag_source_release(int mark);

typedef enum { DIAG_ERROR, DIAG_WARNING, DIAG_NOTE } diag_kind;

/* Print a diagnostic to the current stream (stderr unless redirected). */
void diag_at(diag_kind k, src_pos p, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
void diag_vat(diag_kind k, src_pos p, const char *fmt, va_list ap);
#define diag_error(p, ...) diag_at(DIAG_ERROR, (p), __VA_ARGS__)
/* Print "  LINE | text\n       |   ^" for a position (used by fault reports). */
void diag_quote(FILE *f, src_pos p);

/* Where diagnostics go (NULL restores stderr); returns the previous stream. */
FILE *diag_set_stream(FILE *f);
FILE *diag_stream(void);
int diag_error_count(void);
void diag_reset_count(void);

#endif
