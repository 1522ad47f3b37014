/* tritium.h — libtritium, the C API of tritium (docs/design.md, "The C
 * API"). The `tritium` program and the Python package (python/tritium,
 * through ctypes) use this library.
 *
 *   tritium_module *m = tritium_module_load("kernels.py");
 *   tritium_launch *L = tritium_launch_new(m, "add_kernel");
 *   tritium_launch_tensor(L, "x_ptr", TRITIUM_F32, x, 1, (int64_t[]){n}, (int64_t[]){1}, x, n * 4);
 *   tritium_launch_int(L, "n_elements", n);
 *   tritium_launch_const_int(L, "BLOCK_SIZE", 1024);
 *   tritium_launch_grid(L, 4, 1, 1);
 *   tritium_report *r;
 *   int rc = tritium_run(L, NULL, &r);      // 0 clean, 1 faults/races/uninit, 2 bad input
 *
 * Host memory is used in place: the kernel reads and writes the caller's
 * buffers. Tensor arguments that view the same storage are one buffer, and
 * the storage (not the view) bounds every access, as on the GPU.
 *
 * Errors: functions returning int give 0 on success and -1 (or the status
 * below) on failure; functions returning pointers give NULL. The reason,
 * with the compiler's diagnostics ("file:line:col: error: ..."), is in
 * tritium_last_error() (per thread, valid until the next call that fails).
 * Nothing here aborts on bad input. Objects are not shared between threads. */
#ifndef TRITIUM_TRITIUM_H
#define TRITIUM_TRITIUM_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define TRITIUM_API_VERSION 6

/* Element types: the values of tt_dtype (dtype.h), fixed for the ABI
 * (api/dtype.c checks each at compile time); TRITIUM_X is the dtype whose
 * short name is x. Their names and sizes: tritium_dtypes_json. */
enum {
    TRITIUM_BOOL = 0, TRITIUM_I8, TRITIUM_I16, TRITIUM_I32, TRITIUM_I64,
    TRITIUM_U8, TRITIUM_U16, TRITIUM_U32, TRITIUM_U64,
    TRITIUM_F16, TRITIUM_BF16, TRITIUM_F32, TRITIUM_F64,
    TRITIUM_F8E4NV, TRITIUM_F8E5, TRITIUM_F8E4B15, TRITIUM_F8E4B8, TRITIUM_F8E5B16,
};

/* Run statuses (the `tritium` program's exit statuses, docs/design.md,
 * "The command line").
 * TRITIUM_INTERRUPTED (128 + SIGINT): a SIGINT (Ctrl-C) came while
 * tritium_run or tritium_check ran the launch. The library installs its own
 * SIGINT handler for that time (sigaction, SA_RESTART; none when SIGINT is
 * ignored) and restores the caller's before returning: the signal does not
 * reach the caller's handler, this status says it came. The launch stopped
 * at the next op of every program (the parallel schedule's threads too);
 * the report's stats count the programs that finished, and the tensors hold
 * what they wrote. tritium_check then compares nothing. */
enum { TRITIUM_OK = 0, TRITIUM_KERNEL_ERROR = 1, TRITIUM_INPUT_ERROR = 2, TRITIUM_NO_GPU = 3,
       TRITIUM_INTERRUPTED = 130 };

int tritium_api_version(void);
const char *tritium_version(void);
/* The most dims a tensor argument, a descriptor or a tile may have (32:
 * limits.h TT_MAX_RANK says why). */
int tritium_max_rank(void);
/* The last failure's message on this thread ("" when none). */
const char *tritium_last_error(void);
/* 1 when `name` ("triton.language.extra.libdevice") is a module of Triton
 * that kernels may use, by its full name, else 0 (NULL: 0). The Python
 * package resolves modules with it. */
int tritium_triton_module(const char *name);
/* The element types (the dtype table, compiler/support/dtype.c) as one JSON
 * array, owned by the library, valid for the process; element i is the type
 * of code i (TRITIUM_BOOL ...):
 *   [{"code", "name" ("f32"), "triton" ("fp32"), "tl" ("float32": the
 *     attribute of triton.language), "torch" ("float32", or null), "npy"
 *     ("<f4": numpy's dtype.str in a .npy file), "ml" (ml_dtypes' name, or
 *     null), "size" (bytes), "bits", "float", "fp8", "int", "signed"}]
 * The Python package takes its dtype codes and names from it. */
const char *tritium_dtypes_json(void);
/* Every option and environment variable (include/tritium/settings.def) as
 * one JSON object, owned by the library, valid for the process:
 *   {"commands": the `tritium` sub-commands ["run", "ir", ...],
 *    "settings": [{"name", "flags" (["--verbose", "-v"]; [] for none), "env"
 *                  (or null), "env_by_python", "python" (the Python option's
 *                  name, or null), "type" (bool, int, uint, float, enum,
 *                  seeded, str, path, list), "domain", "values" and
 *                  "aliases" (enum, seeded), "default" (text, or null),
 *                  "scope", "commands" (where the flag is taken: "run", ...,
 *                  "python"), "code" (changes generated code), "metavar",
 *                  "help"}]}
 * The Python package builds its options from it. */
const char *tritium_settings_json(void);

/* ---- modules ------------------------------------------------------------ */

typedef struct tritium_module tritium_module;

/* Parse a kernel file (only @triton.jit functions and constexpr globals are
 * read as kernel code), or source text registered under the virtual file
 * name `name` (used in diagnostics and reports). NULL on a diagnostic. */
tritium_module *tritium_module_load(const char *path);
tritium_module *tritium_module_load_text(const char *name, const char *text);
/* A live module: the kernel and the jit functions it reaches, each with its
 * source and the values Python resolved for its names, as JSON
 * (python/tritium/_resolve.py documents the format; a recorded launch keeps
 * it as kernel.json). Kernels are named by their function name. NULL with
 * tritium_last_error() set when the JSON is malformed or the kernel does not
 * parse. */
tritium_module *tritium_module_load_live(const char *name, const char *json);
/* Frees the module and its compiled kernels. NULL is ignored. */
void tritium_module_free(tritium_module *m);
/* The jit functions in source order. */
int tritium_module_kernel_count(const tritium_module *m);
const char *tritium_module_kernel_name(const tritium_module *m, int i);
/* Kernels compiled so far (one per specialization; for cache tests). */
int tritium_module_compiled_count(const tritium_module *m);

/* ---- launches ----------------------------------------------------------- */

typedef struct tritium_launch tritium_launch;

/* A launch of jit function `kernel` of m (m must outlive it). Arguments
 * are given by parameter name in any order; the grid defaults to (1,1,1),
 * num_warps to 4. NULL when m has no such kernel. */
tritium_launch *tritium_launch_new(tritium_module *m, const char *kernel);
void tritium_launch_free(tritium_launch *L);

/* A tensor argument: `data` is the view's first element (what the kernel's
 * pointer points to), shape/strides (elements) describe the view, and
 * [storage, storage + storage_bytes) is the whole allocation it lives in:
 * accesses anywhere in it are legal, outside it they are faults. Views of
 * the same storage and dtype share one buffer (and its race/writer shadow).
 * rank 0..tritium_max_rank(); data must lie in the storage at a multiple of the element
 * size. The memory is borrowed: it must stay valid until the launch is
 * freed. `uninit` marks the storage as never written (reads of elements no
 * program wrote are reported when the run checks uninitialized reads). */
/* A tuple parameter T (Triton 3.6 specializes tuples element by element)
 * takes its elements as values named "T[0]", "T[1]", ... (nested:
 * "T[0][1]"), added in order with the calls below. */
int tritium_launch_tensor(tritium_launch *L, const char *name, int dtype, void *data,
                          int rank, const int64_t *shape, const int64_t *strides,
                          void *storage, int64_t storage_bytes, int uninit);
/* A host TensorDescriptor argument (Triton 3.6,
 * triton/tools/tensor_descriptor.py): its base tensor as for
 * tritium_launch_tensor (data, storage: borrowed, as there), rank
 * 1..tritium_max_rank(), shape (1..2^31-1) and strides in elements (strides
 * but the last a multiple of 16 bytes, the last 1), block_shape powers of
 * two of at most 2^20 elements together; the arrays are copied. flags:
 * TRITIUM_DESC_PADDING_NAN for padding="nan" (a float tensor), and
 * TRITIUM_DESC_ROUND_TF32 for round_f32_to_tf32=True (Triton 3.7+; a
 * float32 tensor: every load and gather through the descriptor rounds to
 * tf32, nearest-even at 10 mantissa bits, Inf and NaN unchanged, as Triton
 * 3.9's interpreter does in runtime/interpreter.py _round_f32_to_tf32;
 * stores are not rounded). The kernel sees a tensor descriptor whose block
 * shape, padding and rounding are specialized; loads through it are
 * bounds-checked against the storage like any other. The name may be a
 * tuple element ("T[0]", "T[1][0]"): the kernel's tuple then holds the
 * descriptor. Returns 0, or -1 (tritium_last_error) for a bad shape, stride,
 * block, flag or name. */
enum { TRITIUM_DESC_PADDING_NAN = 1, TRITIUM_DESC_ROUND_TF32 = 2 };
int tritium_launch_desc(tritium_launch *L, const char *name, int dtype, void *data, void *storage,
                        int64_t storage_bytes, int rank, const int64_t *shape, const int64_t *strides,
                        const int64_t *block_shape, int flags);
/* A tensor that is no kernel parameter, reached only through a pointer
 * table (its name appears in reports). Arguments as tritium_launch_tensor. */
int tritium_launch_extra(tritium_launch *L, const char *name, int dtype, void *data,
                         int rank, const int64_t *shape, const int64_t *strides,
                         void *storage, int64_t storage_bytes);
/* A pointer table argument (Triton's tutorial 08): an i64 tensor of n host
 * addresses, each inside the storage of a tensor given to this launch
 * before it runs (argument, descriptor base or extra tensor). The kernel
 * reads the address of the same byte in the executor's address space, so
 * loads through it are checked against that tensor. The table is copied:
 * the kernel's writes to it are not seen by the caller. */
int tritium_launch_ptr_table(tritium_launch *L, const char *name, int n, const int64_t *addrs);
/* Runtime scalars. Integers are typed as Triton's specialize does (i32 when
 * the value fits, else i64; tritium_launch_uint for values above INT64_MAX
 * as u64); floats are f32; bools i1. */
int tritium_launch_int(tritium_launch *L, const char *name, int64_t v);
int tritium_launch_uint(tritium_launch *L, const char *name, uint64_t v);
int tritium_launch_float(tritium_launch *L, const char *name, double v);
int tritium_launch_bool(tritium_launch *L, const char *name, int v);
/* Constexpr values (also a runtime parameter given None, which Triton
 * specializes as constexpr None). `dtype` is a TRITIUM_* code. */
int tritium_launch_const_int(tritium_launch *L, const char *name, int64_t v);
int tritium_launch_const_float(tritium_launch *L, const char *name, double v);
int tritium_launch_const_bool(tritium_launch *L, const char *name, int v);
int tritium_launch_const_str(tritium_launch *L, const char *name, const char *s);
int tritium_launch_const_none(tritium_launch *L, const char *name);
int tritium_launch_const_dtype(tritium_launch *L, const char *name, int dtype);
/* A @triton.jit function as a value (a constexpr: Triton 3.6 specializes
 * every JITFunction argument as one). ref: "NAME" or "NAME@LINE" (the
 * first def of NAME at or after LINE) in the module's file, or
 * "PATH:NAME@LINE" for a function at the top level of another Python file.
 * An unknown function is an error when the launch compiles. */
int tritium_launch_const_func(tritium_launch *L, const char *name, const char *ref);
/* The tuple T itself (its elements are given as "T[k]"): needed for an
 * empty tuple (n = 0) and for a named tuple, whose class and field names
 * `named` gives as "CLASS FIELD FIELD ..." (n fields; NULL for a plain
 * tuple). "CLASS" alone names a named tuple class defined in the module's
 * file. A named tuple's fields are read in the kernel as T.FIELD
 * (Triton 3.6: tuple_type.fields, specialize.cc handle_tuple). */
int tritium_launch_tuple(tritium_launch *L, const char *name, int n, const char *named);
/* Grid dimensions >= 1 (at most 2^31-1 in x, 65535 in y and z, as CUDA);
 * num_warps a power of two 1..32. */
int tritium_launch_grid(tritium_launch *L, int64_t x, int64_t y, int64_t z);
int tritium_launch_num_warps(tritium_launch *L, int num_warps);
/* Triton's `debug` launch option (kernel[grid](..., debug=True)): on
 * compiles device_assert, off leaves it out even under
 * @triton.jit(debug=True); without this call the decorator and
 * TRITON_DEBUG decide (runtime/jit.py, JITFunction.run). */
int tritium_launch_debug(tritium_launch *L, int on);
/* Compile the kernel for this launch now (also done by tritium_run). The
 * module caches one compiled kernel per specialization: argument dtypes,
 * integer widths, integers equal to 1 and constexpr values (Triton's cache key without
 * num_warps and the alignment hints, which change no result); new runtime
 * integer values do not recompile. Returns 0, or TRITIUM_INPUT_ERROR with
 * the diagnostics in tritium_last_error(). */
int tritium_launch_compile(tritium_launch *L);

/* ---- running ------------------------------------------------------------ */

enum { TRITIUM_SCHED_IN_ORDER, TRITIUM_SCHED_REVERSE, TRITIUM_SCHED_RANDOM, TRITIUM_SCHED_PARALLEL };
/* FAST: the interpreter mimics Triton's compiled code (docs/gpu.md, "Numerics");
 * GPU is the older name of the same mode. */
enum { TRITIUM_NUMERICS_IEEE, TRITIUM_NUMERICS_FAST, TRITIUM_NUMERICS_GPU = TRITIUM_NUMERICS_FAST };

typedef struct tritium_options {
    int schedule;                  /* TRITIUM_SCHED_* */
    uint64_t schedule_seed;        /* TRITIUM_SCHED_RANDOM */
    int threads;                   /* TRITIUM_SCHED_PARALLEL; 0: all cores */
    int numerics;                  /* TRITIUM_NUMERICS_* */
    int check_races;               /* conflicting accesses between programs */
    int check_uninit;              /* reads of never-written `uninit` storage */
    int max_reports;               /* distinct fault reports kept; 0: 20 */
} tritium_options;

/* In order, ieee, races and uninitialized reads checked, 20 reports. */
void tritium_options_default(tritium_options *o);

typedef struct tritium_stats {
    int64_t programs;              /* program instances run */
    int64_t faults;                /* distinct fault sites (op, kind) */
    int64_t fault_lanes;           /* lanes that faulted in total */
    int64_t races;                 /* conflicting accesses found */
    int64_t uninit_reads;
    double seconds;                /* interpretation (or GPU kernel) time */
    int compiled;                  /* 1 when this run compiled (cache miss) */
} tritium_stats;

typedef struct tritium_report tritium_report;

/* Run the launch in the checked interpreter (o NULL: defaults), in place on
 * the tensors' memory. *rep (when rep is not NULL) receives the report;
 * free it with tritium_report_free. Returns TRITIUM_OK, TRITIUM_KERNEL_ERROR
 * (faults, races or uninitialized reads: the report says where),
 * TRITIUM_INTERRUPTED (Ctrl-C: a partial launch, with a report) or
 * TRITIUM_INPUT_ERROR (compile error, bad argument: tritium_last_error). */
int tritium_run(tritium_launch *L, const tritium_options *o, tritium_report **rep);
/* Run the same launch on tritium's GPU path (copy in, launch, copy out).
 * TRITIUM_NO_GPU when the library has no GPU compiler or no CUDA driver
 * answers; TRITIUM_KERNEL_ERROR when the launch failed on the device. */
int tritium_run_gpu(tritium_launch *L, tritium_report **rep);

/* ---- the GPU executor: launches on device memory ------------------------ */

/* A kernel compiled and loaded for one specialization, with the layout of
 * its parameter buffer (Triton's CompiledKernel with its launcher). Owned by
 * the library for the life of the process; launch it any number of times. */
typedef struct tritium_gpu_kernel tritium_gpu_kernel;

/* The GPU kernel for launch L, whose tensors are CUDA *device* memory:
 * tritium_launch_tensor's data and storage are device addresses in the
 * primary context of device 0 ($TRITIUM_DEVICE), never read on the host.
 * Specialized as Triton 3.6 does (runtime/jit.py, specialize.cc): each
 * tensor address 16-byte aligned or not, each integer % 16 == 0 or == 1,
 * the constexprs, num_warps, numerics (TRITIUM_NUMERICS_*). The first call
 * per specialization compiles (disk cache) and loads; later ones are a
 * memo lookup. Pointer tables and extra tensors are refused (device
 * memory already holds device addresses). TRITIUM_OK; TRITIUM_INPUT_ERROR
 * (compile error, bad launch: tritium_last_error); TRITIUM_NO_GPU. */
int tritium_gpu_prepare(tritium_launch *L, int numerics, const tritium_gpu_kernel **out);

/* Parameter kinds of the buffer, each stored little-endian at its offset:
 * PTR a 64-bit device address; BOOL and I32 32-bit integers; I64; F16 and
 * BF16 16-bit patterns; F32; F64. */
enum { TRITIUM_PARAM_PTR, TRITIUM_PARAM_BOOL, TRITIUM_PARAM_I32, TRITIUM_PARAM_I64, TRITIUM_PARAM_F16,
       TRITIUM_PARAM_BF16, TRITIUM_PARAM_F32, TRITIUM_PARAM_F64 };

/* The parameter buffer of k: returns its size in bytes and sets *nparams;
 * kinds[i] and offsets[i] (bytes, aligned to the parameter's size, CUDA's
 * ABI) for the first min(n, *nparams) parameters (the launch's runtime
 * arguments in kernel order, a host descriptor's shape and strides after
 * its base). Packing the same buffer once and launching it again and again
 * is the warm path. */
int tritium_gpu_kernel_layout(const tritium_gpu_kernel *k, int *nparams, int *kinds, int *offsets, int n);
/* Fill buf (the layout's size) with L's runtime arguments as
 * tritium_gpu_prepare took them. TRITIUM_OK or TRITIUM_INPUT_ERROR. */
int tritium_gpu_kernel_pack(const tritium_gpu_kernel *k, tritium_launch *L, void *buf);
/* One cuLaunchKernel of k with the packed buffer (CU_LAUNCH_PARAM_BUFFER_POINTER)
 * on `stream` (a CUstream; NULL: the legacy default stream; from torch:
 * torch.cuda.current_stream().cuda_stream). Asynchronous; no allocation, no
 * lookup. TRITIUM_OK; TRITIUM_INPUT_ERROR for a grid out of range (x
 * 1..2^31-1, y and z 1..65535; Triton launches nothing for an empty grid,
 * so neither should the caller); TRITIUM_KERNEL_ERROR with the driver's
 * message. */
int tritium_gpu_kernel_launch(const tritium_gpu_kernel *k, int64_t gx, int64_t gy, int64_t gz, void *stream,
                              const void *buf);

void tritium_report_stats(const tritium_report *r, tritium_stats *st);
/* The fault, race and uninitialized-read reports as tritium prints them
 * (source lines and carets), "" when clean; for tritium_check also the
 * `tritium diff` report. Valid while r lives. */
const char *tritium_report_text(const tritium_report *r);
/* What tl.device_print / print in the kernel printed in the interpreter
 * ("" when nothing), in program order; valid while r lives. */
const char *tritium_report_output(const tritium_report *r);
/* The report as data, a JSON object (valid while r lives):
 *   {"status": the call's return value,
 *    "stats": {"programs", "faults", "fault_lanes", "races", "uninit_reads", "seconds", "compiled"},
 *    "sites": [one per op and kind of problem: {"kind" ("out-of-bounds", "misaligned",
 *              "write-write-race", "read-after-write-race", "uninitialized-read", ...),
 *              "fault", "race", "program" [x,y,z] (the first), "programs", "lanes", "op",
 *              "file", "line", "col", "function", "tensor" and "element" (the first access's
 *              argument and storage element, or null), "other_program" (a race's writer or
 *              reader, or null)}],
 *    "check": null, or tritium_check's comparison: the fields of `tritium diff --json`'s runs
 *             ("tensors" with "first" mismatches: "index", "interp", "gpu" (the other side's
 *             value), "ulp", "written_by" {"program", "file", "line", ...}) plus "kernel",
 *             "against" and "mismatches"} */
const char *tritium_report_json(const tritium_report *r);
void tritium_report_free(tritium_report *r);

/* ---- checking a launch against another run of it ------------------------ */

/* The other run's contents of tensor argument `name`'s storage after the
 * launch (storage_bytes as given to tritium_launch_tensor). Borrowed until
 * the launch is freed. Tensors without a result count as not written by the
 * other run. */
int tritium_launch_result(tritium_launch *L, const char *name, const void *storage, int64_t storage_bytes);

enum { TRITIUM_AGAINST_RESULTS, TRITIUM_AGAINST_GPU };

typedef struct tritium_check_options {
    int against;                   /* RESULTS: tritium_launch_result's; GPU: tritium's GPU path */
    const char *label;             /* the other side's name in the report; NULL: "triton" */
    int numerics;                  /* the interpreter's (and GPU path's) TRITIUM_NUMERICS_* */
    int schedule;                  /* the interpreter's TRITIUM_SCHED_* */
    uint64_t schedule_seed;
    int threads;
    int has_rtol, has_atol;        /* override `tritium diff`'s per-dtype tolerances */
    double rtol, atol;
    int64_t ulp;                   /* also accept values this many ULPs apart; < 0: no */
    int max_show;                  /* mismatches listed per tensor, 0..10 (0: 10) */
    int max_reports;               /* interpreter fault reports kept; 0: 20 */
    int executor;                  /* TRITIUM_EXEC_*: the checked side; GPU only against RESULTS */
} tritium_check_options;

/* The checked side of tritium_check: the interpreter, or tritium's GPU path
 * (copy in, launch, copy out; compared with the RESULTS directly: the
 * program's own launch, e.g. Triton's, against tritium's compiled code). */
enum { TRITIUM_EXEC_INTERP, TRITIUM_EXEC_GPU };

/* RESULTS, the interpreter, fast numerics (what Triton's compiled code
 * does), in order, the per-dtype tolerances, no ULPs. */
void tritium_check_options_default(tritium_check_options *o);

/* Run the launch in the interpreter on copies of its tensors (they are not
 * modified) and compare every tensor the kernel wrote with the other run,
 * element by element, as `tritium diff` does (tolerances, ULPs, the program
 * and line that wrote each mismatching element). The report's text is
 * `tritium diff`'s; its JSON has the comparison under "check". Returns
 * TRITIUM_OK (all agree), TRITIUM_KERNEL_ERROR (a mismatch, or the
 * interpreter faulted), TRITIUM_NO_GPU (GPU: no driver or no GPU compiler),
 * TRITIUM_INTERRUPTED (Ctrl-C; the report's stats count the interpreter's
 * finished programs) or TRITIUM_INPUT_ERROR. With executor GPU, tritium's
 * GPU path runs on the copies instead of the interpreter (no last writers in
 * the report; a fault on the device is TRITIUM_KERNEL_ERROR). */
int tritium_check(tritium_launch *L, const tritium_check_options *o, tritium_report **rep);

/* ---- debugging a launch --------------------------------------------------- */

typedef struct tritium_debug_result {
    int finished;                  /* the launch ran to its end: results are in its tensors */
    int detached;                  /* the user said `detach` */
    int quit;                      /* the user said `quit` (no results) */
    int quit_status;               /* quit's status, -1 when none was given */
} tritium_debug_result;

/* Open `tritium debug`'s REPL on the launch (numerics: TRITIUM_NUMERICS_*).
 * argv holds the debugger's options: -ex CMD (repeatable), -x FILE, -batch,
 * -q; those commands run first, then the prompt reads stdin (readline on a
 * terminal) unless -batch. When input ends before the launch finished, it
 * runs to its end without stopping. The results are copied into the
 * launch's tensors. Returns TRITIUM_OK or TRITIUM_INPUT_ERROR. */
int tritium_debug(tritium_launch *L, int numerics, int argc, char **argv, tritium_debug_result *res);

/* ---- the HTML page of the launches -------------------------------------- */

/* Collect every later launch of tritium_run and tritium_check of the
 * process (their interpreter runs) into one self-contained HTML page
 * (docs/html.md: access maps, faults, races, uninitialized reads, the
 * error maps of a check, a program picker), written to `path` by
 * tritium_html_write and tritium_html_end; launches that faulted, raced or
 * disagreed come first. Collecting costs the traced runs time (the
 * interpreter calls the page's tracer per memory op); runs without a page
 * pay nothing. title: the page's title (NULL: "tritium"). TRITIUM_OK, or
 * TRITIUM_INPUT_ERROR when a page is already being collected. */
int tritium_html_begin(const char *path, const char *title);
/* Pause (1) or resume (0) collecting; returns the previous state. */
int tritium_html_pause(int paused);
/* Launches collected so far (0 when none is being collected). */
int tritium_html_launches(void);
/* Write the page as it is (collecting goes on) / write it and stop
 * collecting. TRITIUM_OK, or TRITIUM_INPUT_ERROR (tritium_last_error: no
 * page, cannot write the file). *bytes (may be NULL): the file's size. */
int tritium_html_write(int64_t *bytes);
int tritium_html_end(int64_t *bytes);

/* ---- the command line ---------------------------------------------------- */

/* Run a `tritium` sub-command (`run`, `debug`, `diff`, ...) with argv
 * words as on the command line (argv[0] the program's name, argv[1] the
 * sub-command). Returns its exit status. The `tritium` program (api/cli.c)
 * is this call. tritium_main and tritium_debug are the command line's entry
 * points (repl/main.c, repl/debug_api.c), which libtritium ships: the
 * command line is a client of the rest of this API's engine, never the
 * reverse. */
int tritium_main(int argc, char **argv);

#ifdef __cplusplus
}
#endif

#endif
