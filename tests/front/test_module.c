/* test_module.c — module scanning: only @triton.jit functions are parsed as
 * kernel code (docs/design.md "The kernel language"); module-level constexpr
 * globals; "# tritium:" launch comments; front_params. */
#include <math.h>
#include <stdlib.h>
#include "tfront.h"
#include "tritium/interp.h"

/* A file full of host Python that a kernel parser would choke on. */
static const char host_src[] =
    "#!/usr/bin/env python3\n"
    "# -*- coding: utf-8 -*-\n"
    "\"\"\"Module docstring with a fake kernel:\n"
    "@triton.jit\n"
    "def fake(x):\n"
    "    return x\n"
    "# tritium: --grid 999\n"
    "\"\"\"\n"
    "# tritium: --grid 4\n"
    "import os, sys\n"
    "import triton\n"
    "import triton.language as tl\n"
    "from triton import jit, cdiv\n"
    "from functools import (\n"
    "    partial,\n"
    "    lru_cache,\n"
    ")\n"
    "\n"
    "π = 3.14159  # unicode identifier\n"
    "GREETING = 'héllo wörld ✓'\n"
    "X = 5\n"
    "BLOCK = tl.constexpr(128)\n"
    "ANNOTATED: tl.constexpr = 7\n"
    "G = tl.constexpr(3)\n"
    "H = triton.language.constexpr(2)\n"
    "table = {k: v for k, v in zip('ab', [1, 2])}\n"
    "squares = [i * i for i in range(10) if (j := i) % 2]\n"
    "f = lambda a, *rest, **kw: (a, rest, kw)\n"
    "msg = f\"{GREETING!r:>{20}} {{braces}} {table['a']}\"\n"
    "nested = f\"{'x' if π > 3 else 'y'}\" \\\n"
    "    'continued'\n"
    "raw = r'\\d+\\s*' + b'bytes'.decode()\n"
    "\n"
    "\n"
    "class Runner:\n"
    "    \"\"\"Host class.\"\"\"\n"
    "    def __init__(self, n: int = 3) -> None:\n"
    "        self.n = n\n"
    "\n"
    "    @property\n"
    "    def twice(self):\n"
    "        with open(os.devnull) as fh:\n"
    "            return [x async for x in fh] if False else self.n * 2\n"
    "\n"
    "    @staticmethod\n"
    "    def go(*args, **kwargs):\n"
    "        try:\n"
    "            yield from range(3)\n"
    "        except Exception as e:\n"
    "            raise RuntimeError('no') from e\n"
    "        finally:\n"
    "            del args\n"
    "\n"
    "\n"
    "# tritium: --arg X=zeros:f32[128]\n"
    "@lru_cache(maxsize=None)\n"
    "def host_helper(n):\n"
    "    global X\n"
    "    return {i: i ** 2 for i in range(n)}\n"
    "\n"
    "\n"
    "@triton.autotune(\n"
    "    configs=[\n"
    "        triton.Config({'BLOCK_SIZE': 64}, num_warps=4),\n"
    "        triton.Config({'BLOCK_SIZE': 128}, num_warps=8),\n"
    "    ],\n"
    "    key=['n'],\n"
    ")\n"
    "@triton.heuristics({'EVEN': lambda args: args['n'] % args['BLOCK_SIZE'] == 0})\n"
    "@triton.jit\n"
    "def tuned(X, n, BLOCK_SIZE: tl.constexpr, EVEN: tl.constexpr):\n"
    "    offs = tl.arange(0, BLOCK_SIZE)\n"
    "    tl.store(X + offs, G * 1.0, mask=offs < n)\n"
    "\n"
    "\n"
    "@jit\n"
    "def via_alias(X):\n"
    "    tl.store(X + tl.arange(0, BLOCK), H * 1.0)\n"
    "\n"
    "\n"
    "@triton.jit(do_not_specialize=['n'])\n"
    "def third(X, n):\n"
    "    tl.store(X, n * 1.0)\n"
    "\n"
    "\n"
    "def launch(x):\n"
    "    grid = lambda meta: (cdiv(x.numel(), meta['BLOCK_SIZE']),)\n"
    "    tuned[grid](x, x.numel())\n"
    "    match x:\n"
    "        case [a, *_]:\n"
    "            print(a)\n"
    "    return f'{x=}'\n"
    "\n"
    "\n"
    "if __name__ == \"__main__\":\n"
    "    import torch\n"
    "    x = torch.zeros(128)\n"
    "    launch(x)\n"
    "    print(f\"done {x.sum():.3f}\", file=sys.stderr)\n";

START_TEST(only_jit_functions_are_parsed)
{
    cap_start();
    front_module *m = front_load_text("host.py", host_src);
    const char *d = cap_end();
    ck_assert_msg(m != NULL, "host code must be skipped, got:\n%s", d);
    ck_assert_msg(!strstr(d, "error"), "%s", d);
    ck_assert_int_eq(front_function_count(m), 3);
    ck_assert_str_eq(front_function_name(m, 0), "tuned");
    ck_assert_str_eq(front_function_name(m, 1), "via_alias");
    ck_assert_str_eq(front_function_name(m, 2), "third");
    ck_assert_ptr_null(front_function_name(m, 3));

    /* module-level constexprs are usable in kernels */
    launch l;
    mk_launch(&l, "X:*f32[128] n:i32=100 BLOCK_SIZE=64 EVEN=False");
    cap_start();
    ir_func *f = front_compile(m, "tuned", &l);
    d = cap_end();
    ck_assert_msg(f != NULL, "%s", d);
    double c;
    ck_assert(const_of(f, find_op(f, IR_STORE, 0)->opnd[1], &c) && c == 3.0);   /* G = tl.constexpr(3) */
    ir_func_free(f);
    launch_free(&l);

    mk_launch(&l, "X:*f32[128]");
    cap_start();
    f = front_compile(m, "via_alias", &l);
    d = cap_end();
    ck_assert_msg(f != NULL, "%s", d);
    ck_assert_int_eq(find_op(f, IR_MAKE_RANGE, 0)->attr[1], 128);                 /* BLOCK = tl.constexpr(128) */
    ck_assert(const_of(f, find_op(f, IR_STORE, 0)->opnd[1], &c) && c == 2.0);
    ir_func_free(f);
    launch_free(&l);
    front_module_free(m);
}
END_TEST

START_TEST(launch_comment_lines)
{
    cap_start();
    front_module *m = front_load_text("host.py", host_src);
    cap_end();
    ck_assert_ptr_nonnull(m);
    /* the comment lines, in order; not the one inside the docstring */
    const char *lc = front_launch_comment(m);
    char norm[256];
    int n = 0;
    for (const char *p = lc; *p && n < 255; p++) {
        if (*p == ' ' && (n == 0 || norm[n - 1] == ' ')) continue;
        norm[n++] = *p;
    }
    while (n && norm[n - 1] == ' ') n--;
    norm[n] = 0;
    ck_assert_str_eq(norm, "--grid 4 --arg X=zeros:f32[128]");
    front_module_free(m);

    cap_start();
    m = front_load_text("none.py", "import triton\n@triton.jit\ndef k(X):\n    pass\n");
    cap_end();
    ck_assert_str_eq(front_launch_comment(m), "");
    front_module_free(m);
}
END_TEST

/* `NAME: tl.constexpr = v` at module level leaves NAME a plain int in Python:
 * Triton 3.6 refuses it in a kernel (test_compile_errors.py
 * test_constexpr_annotated_global_var_access), and so does tritium, located,
 * naming the spelling that works; as a parameter default it is fine. */
START_TEST(annotated_global_is_an_error)
{
    static const char src[] =
        "import triton\n"
        "import triton.language as tl\n"
        "SCALE: tl.constexpr = 5\n"
        "@triton.jit\n"
        "def k(X, B: tl.constexpr = SCALE):\n"
        "    tl.store(X, B * 1.0)\n"
        "@triton.jit\n"
        "def k2(X):\n"
        "    tl.store(X, SCALE * 1.0)\n";
    ir_func *f = compile_ok(src, "k", "X:*f32[16]");
    ir_func_free(f);
    const char *d = compile_err(src, "k2", "X:*f32[16]");
    ck_assert_msg(strstr(d, "k.py:9:17: error: cannot access global variable 'SCALE'") &&
                  strstr(d, "SCALE = tl.constexpr(...)") && strstr(d, "^"), "%s", d);
}
END_TEST

/* A plain global in a kernel is an error that names it. */
START_TEST(plain_global_is_an_error)
{
    static const char src[] =
        "import triton\n"
        "import triton.language as tl\n"
        "SCALE = 5\n"
        "@triton.jit\n"
        "def k(X):\n"
        "    tl.store(X, SCALE * 1.0)\n";
    const char *d = compile_err(src, "k", "X:*f32[16]");
    ck_assert_msg(strstr(d, "k.py:6:17:") && strstr(d, "SCALE"), "%s", d);
}
END_TEST

START_TEST(params_report)
{
    static const char src[] = PRELUDE
        "def k(x_ptr, n, stride: tl.int64, B: tl.constexpr, C: tl.constexpr = 32,\n"
        "      ACT: tl.constexpr = \"relu\", F: tl.constexpr = -1.5, G: \"tl.constexpr\" = True,\n"
        "      D=None, E: tl.constexpr = BLOCK):\n"
        "    pass\n"
        "BLOCK: tl.constexpr = 16\n";
    cap_start();
    front_module *m = front_load_text("k.py", src);
    const char *d = cap_end();
    ck_assert_msg(m != NULL, "%s", d);
    const front_param *p;
    ck_assert_int_eq(front_params(m, "nope", &p), -1);
    int n = front_params(m, "k", &p);
    ck_assert_int_eq(n, 10);
    static const char *const names[] = { "x_ptr", "n", "stride", "B", "C", "ACT", "F", "G", "D", "E" };
    static const bool cx[] = { false, false, false, true, true, true, true, true, false, true };
    for (int i = 0; i < n; i++) {
        ck_assert_str_eq(p[i].name, names[i]);
        ck_assert_msg(p[i].is_constexpr == cx[i], "%s constexpr flag", names[i]);
    }
    ck_assert(!p[0].has_default && !p[3].has_default);
    ck_assert(p[2].annotated_dtype && p[2].annot == TT_I64);
    ck_assert(!p[1].annotated_dtype);
    ck_assert(p[4].has_default && p[4].def.kind == CONST_INT && p[4].def.i == 32);
    ck_assert(p[5].has_default && p[5].def.kind == CONST_STR && !strcmp(p[5].def.s, "relu"));
    ck_assert(p[6].has_default && p[6].def.kind == CONST_FLOAT && p[6].def.f == -1.5);
    ck_assert(p[7].has_default && p[7].def.kind == CONST_BOOL && p[7].def.i == 1);
    ck_assert(p[8].has_default && p[8].def.kind == CONST_NONE);
    ck_assert(!p[9].has_default);                        /* not a literal */
    front_module_free(m);
}
END_TEST

/* Constexpr values: from the launch, else the default; runtime parameters
 * take their types from the launch; `n: tl.int64` forces int64. */
START_TEST(parameter_binding)
{
    static const char src[] = PRELUDE
        "def k(X, n, m: tl.int64, s, B: tl.constexpr, C: tl.constexpr = 32):\n"
        "    tl.store(X + tl.arange(0, B), 1.0)\n"
        "    tl.store(X + tl.arange(0, C), n + m + s)\n";
    ir_func *f = compile_ok(src, "k", "X:*f16[64] n:i32=3 m:i32=4 s:f32=0.5 B=16");
    ck_assert_int_eq(f->nargs, 4);                       /* runtime parameters only */
    ir_value *args = f->regions.v[IR_BODY].args;
    ck_assert_str_eq(vtype(f, args[0]), "!tt.ptr<f16>");
    ck_assert(f->arg_is_ptr[0] && f->arg_dtype[0] == TT_F16);
    ck_assert_str_eq(vtype(f, args[1]), "i32");
    ck_assert_str_eq(vtype(f, args[2]), "i64");
    ck_assert_str_eq(vtype(f, args[3]), "f32");
    ck_assert(!f->arg_is_ptr[3] && f->arg_dtype[3] == TT_F32);
    ck_assert_int_eq(find_op(f, IR_MAKE_RANGE, 0)->attr[1], 16);
    ck_assert_int_eq(find_op(f, IR_MAKE_RANGE, 1)->attr[1], 32);
    ir_func_free(f);
    f = compile_ok(src, "k", "X:*f16[64] n:u32=3 m:i32=4 s:f32=0.5 B=16 C=64");
    ck_assert_int_eq(find_op(f, IR_MAKE_RANGE, 1)->attr[1], 64);
    ck_assert(f->arg_dtype[1] == TT_U32);
    ir_func_free(f);
    const char *d = compile_err(src, "k", "X:*f16[64] n:i32=3 m:i32=4 s:f32=0.5");
    ck_assert_msg(strstr(d, "'B'"), "missing constexpr must be named:\n%s", d);
    d = compile_err(src, "k", "X:*f16[64] m:i32=4 s:f32=0.5 B=16");
    ck_assert_msg(strstr(d, "'n'"), "missing argument must be named:\n%s", d);
    d = compile_err(src, "nope", "X:*f16[64]");
    ck_assert_msg(strstr(d, "nope"), "%s", d);
}
END_TEST

START_TEST(load_from_file)
{
    cap_start();
    front_module *m = front_load("/nonexistent/dir/kernel.py");
    const char *d = cap_end();
    ck_assert_ptr_null(m);
    ck_assert_msg(strstr(d, "/nonexistent/dir/kernel.py") && strstr(d, "error"), "%s", d);

    const char *root = getenv("TRITIUM_SRCDIR");
    char path[1024];
    snprintf(path, sizeof path, "%s/examples/vector_add.py", root ? root : TRITIUM_SRCDIR_DEFAULT);
    cap_start();
    m = front_load(path);
    d = cap_end();
    ck_assert_msg(m != NULL, "%s", d);
    ck_assert_int_eq(front_function_count(m), 1);
    ck_assert_str_eq(front_function_name(m, 0), "add_kernel");
    ck_assert_msg(strstr(front_launch_comment(m), "--const BLOCK_SIZE=1024"), "%s", front_launch_comment(m));
    ck_assert_str_eq(diag_file_name(front_file(m)), path);
    front_module_free(m);
}
END_TEST


/* ---- known bugs ---- */

/* code_generator.visit_FunctionDef evaluates defaults with
 * visiting_arg_default_value set: any global is allowed there, constexpr or
 * not (`def fn(x: tl.constexpr = GLOBAL)`). */
START_TEST(plain_global_in_default)
{
    static const char src[] =
        "import triton\n"
        "import triton.language as tl\n"
        "WIDTH = 64\n"
        "@triton.jit\n"
        "def k(X, B: tl.constexpr = WIDTH):\n"
        "    tl.store(X + tl.arange(0, B), 1.0)\n";
    ir_func *f = compile_ok(src, "k", "X:*f32[64]");
    ck_assert_int_eq(find_op(f, IR_MAKE_RANGE, 0)->attr[1], 64);
    ir_func_free(f);
}
END_TEST

/* `from triton import jit as tjit` then `@tjit`: the decorator is
 * triton.jit through an import alias (the module scanner records aliases). */
START_TEST(jit_decorator_alias)
{
    static const char src[] =
        "import triton.language as tl\n"
        "from triton import jit as tjit\n"
        "@tjit\n"
        "def k(X):\n"
        "    tl.store(X, 1.0)\n";
    cap_start();
    front_module *m = front_load_text("k.py", src);
    cap_end();
    ck_assert_ptr_nonnull(m);
    ck_assert_int_eq(front_function_count(m), 1);
    front_module_free(m);
}
END_TEST

void add_module_known_bugs(TCase *tc);
void add_module_known_bugs(TCase *tc)
{
    (void)tc;
}

/* @triton.autotune's first config supplies constexprs the launch leaves out */
START_TEST(autotune_first_config)
{
    static const char src[] =
        "import triton\n"
        "import triton.language as tl\n"
        "@triton.autotune(configs=[triton.Config({'B': 64, 'S': 'x'}, num_warps=4),\n"
        "                          triton.Config({'B': 128}, num_warps=8)], key=['n'])\n"
        "@triton.jit\n"
        "def k(X, n, B: tl.constexpr, S: tl.constexpr, C: tl.constexpr = 3):\n"
        "    tl.store(X + tl.arange(0, B), 1.0)\n";
    front_module *m = front_load_text("k.py", src);
    ck_assert_ptr_nonnull(m);
    const front_param *ps;
    ck_assert_int_eq(front_params(m, "k", &ps), 5);
    ck_assert(ps[2].is_constexpr && ps[2].has_default && ps[2].def.kind == CONST_INT && ps[2].def.i == 64);
    ck_assert(ps[3].has_default && ps[3].def.kind == CONST_STR && !strcmp(ps[3].def.s, "x"));
    ck_assert(ps[4].has_default && ps[4].def.i == 3);      /* the parameter's own default */
    ck_assert(!ps[0].has_default && !ps[1].has_default);
    front_module_free(m);
    ir_func *f = compile_ok(src, "k", "X:*f32[64] n:i32");
    ir_op *r = find_op(f, IR_MAKE_RANGE, 0);
    ck_assert_int_eq(r->attr[1], 64);
    ir_func_free(f);
}
END_TEST

/* Imports that cannot be resolved are errors at the use, naming the import
 * statement and its line; unused ones are never looked at. */
START_TEST(unresolved_import_is_located)
{
    static const char src[] =
        "import triton\n"
        "import triton.language as tl\n"
        "from tritium_no_such_module_q import helper\n"
        "from .rel import thing\n"
        "from triton.language.extra.libdevice import no_such_fn\n"
        "@triton.jit\n"
        "def k(X):\n"
        "    tl.store(X, helper(1.0))\n"
        "@triton.jit\n"
        "def k2(X):\n"
        "    tl.store(X, thing(1.0))\n"
        "@triton.jit\n"
        "def k3(X):\n"
        "    tl.store(X, no_such_fn(1.0))\n"
        "@triton.jit\n"
        "def k4(X):\n"
        "    tl.store(X, 1.0)\n";
    const char *d = compile_err(src, "k", "X:*f32[4]");
    ck_assert_msg(strstr(d, "k.py:8:17:") && strstr(d, "from tritium_no_such_module_q import helper") &&
                  strstr(d, "k.py:3") && strstr(d, "no module named"), "%s", d);
    d = compile_err(src, "k2", "X:*f32[4]");
    ck_assert_msg(strstr(d, "k.py:11:") && strstr(d, "relative import"), "%s", d);
    d = compile_err(src, "k3", "X:*f32[4]");
    ck_assert_msg(strstr(d, "k.py:14:") && strstr(d, "no_such_fn"), "%s", d);
    ir_func_free(compile_ok(src, "k4", "X:*f32[4]"));
}
END_TEST

/* Returns in runtime ifs: helper branches must return the same types;
 * returns inside loops stay errors (Triton rejects them). */
START_TEST(return_in_runtime_if)
{
    static const char mismatch[] = PRELUDE
        "def h(x, n):\n"
        "    if n > 0:\n"
        "        return x\n"
        "    return 1\n"
        "@triton.jit\n"
        "def k(X, n):\n"
        "    tl.store(X, h(tl.load(X), n))\n";
    const char *d = compile_err(mismatch, "k", "X:*f32[4] n:i32=3");
    ck_assert_msg(strstr(d, "k.py:5:") && strstr(d, "return"), "%s", d);
    static const char loop[] = PRELUDE
        "def k(X, n):\n"
        "    for i in range(n):\n"
        "        if i > 2:\n"
        "            return\n"
        "    tl.store(X, 1.0)\n";
    d = compile_err(loop, "k", "X:*f32[4] n:i32=3");
    ck_assert_msg(strstr(d, "k.py:7:") && strstr(d, "loop"), "%s", d);
    static const char ok[] = PRELUDE
        "def h(x, n):\n"
        "    if n > 0:\n"
        "        if n > 5:\n"
        "            return x * 2.0\n"
        "        x = x + 1.0\n"
        "    else:\n"
        "        return x - 1.0\n"
        "    return x\n"
        "@triton.jit\n"
        "def k(X, n):\n"
        "    tl.store(X, h(tl.load(X), n))\n";
    ir_func *f = compile_ok(ok, "k", "X:*f32[4] n:i32=3");
    ck_assert_int_eq(count_ops(f, IR_IF), 2);
    ir_func_free(f);
}
END_TEST

/* A name Triton 3.6 defines but tritium does not implement is named as such. */
START_TEST(unsupported_triton_name)
{
    static const char src[] = PRELUDE
        "def k(X):\n"
        "    x = tl.load(X)\n"
        "    tl.store(X, tl.slice(x, 0, 2, 1))\n";
    const char *d = compile_err(src, "k", "X:*f32[4]");
    ck_assert_msg(strstr(d, "k.py:6:20:") && strstr(d, "tritium does not support tl.slice yet"), "%s", d);
    /* every libdevice function is known; a wrong overload is refused as
     * Triton refuses it (extern_elementwise: exact dtypes, no promotion) */
    static const char ld[] = PRELUDE
        "def k(X):\n"
        "    tl.store(X, tl.extra.cuda.libdevice.cyl_bessel_i1(tl.load(X).to(tl.float16)))\n";
    d = compile_err(ld, "k", "X:*f32[4]");
    ck_assert_msg(strstr(d, "libdevice.cyl_bessel_i1 has no overload for (fp16): it takes (fp32) or (fp64)"), "%s", d);
    static const char typo[] = PRELUDE
        "def k(X):\n"
        "    tl.store(X, tl.frobnicate(tl.load(X)))\n";
    d = compile_err(typo, "k", "X:*f32[4]");
    ck_assert_msg(strstr(d, "frobnicate") && !strstr(d, "tritium does not support"), "%s", d);
}
END_TEST

/* Run kernel `k` of `src` for one program in the interpreter; the f32
 * tensor X (n elements) is copied to out. */
static void run_k(const char *src, const char *spec, float *out, int n)
{
    ir_func *f = compile_ok(src, "k", spec);
    launch l;
    mk_launch(&l, spec);
    interp_options o;
    interp_options_default(&o);
    interp_session *s = interp_session_new(f, &l, &o);
    ck_assert_ptr_nonnull(s);
    ck_assert_int_eq(interp_run_launch(s), 0);
    interp_stats st;
    interp_get_stats(s, &st);
    ck_assert_int_eq(st.faults, 0);
    interp_session_free(s);
    ck_assert(l.args[0].kind == ARG_TENSOR && !strcmp(l.args[0].name, "X"));
    memcpy(out, l.args[0].tensor->data, sizeof(float) * (size_t)n);
    launch_free(&l);
    ir_func_free(f);
}

/* Liger-Kernel's `_CASTING_MODE_LLAMA: tl.constexpr = tl.constexpr(0)`: the
 * value is a constexpr, so the global is one whatever its annotation (Triton
 * 3.6 code_generator.py _is_constexpr_global checks the value); a plain value
 * under the same annotation stays refused (annotated_global_is_an_error). */
START_TEST(annotated_constexpr_global)
{
    static const char src[] =
        "import triton\n"
        "import triton.language as tl\n"
        "_CASTING_MODE_NONE: tl.constexpr = tl.constexpr(-1)\n"
        "_CASTING_MODE_LLAMA: tl.constexpr = tl.constexpr(0)\n"
        "_CASTING_MODE_GEMMA: tl.constexpr = triton.language.constexpr(1)\n"
        "WIDTH: int = tl.constexpr(8)\n"
        "PLAIN: tl.constexpr = 4\n"
        "@triton.jit\n"
        "def k(X, casting_mode: tl.constexpr):\n"
        "    offs = tl.arange(0, WIDTH)\n"
        "    if casting_mode == _CASTING_MODE_LLAMA:\n"
        "        y = 2.0\n"
        "    elif casting_mode == _CASTING_MODE_GEMMA:\n"
        "        y = 3.0\n"
        "    else:\n"
        "        y = 5.0\n"
        "    tl.store(X + offs, offs.to(tl.float32) + y + _CASTING_MODE_NONE)\n"
        "@triton.jit\n"
        "def k2(X):\n"
        "    tl.store(X, PLAIN * 1.0)\n";
    /* X[i] = i + y - 1 with y chosen by the mode */
    static const struct { int mode; float y; } cases[] = { { 0, 2.0f }, { 1, 3.0f }, { -1, 5.0f }, { 7, 5.0f } };
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
        char spec[64];
        snprintf(spec, sizeof spec, "X:*f32[8] casting_mode=%d", cases[c].mode);
        float x[8];
        run_k(src, spec, x, 8);
        for (int i = 0; i < 8; i++)
            ck_assert_msg(x[i] == (float)i + cases[c].y - 1.0f, "mode %d: X[%d] = %g", cases[c].mode, i, x[i]);
    }
    ir_func *f = compile_ok(src, "k", "X:*f32[8] casting_mode=0");
    ck_assert_int_eq(find_op(f, IR_MAKE_RANGE, 0)->attr[1], 8);   /* WIDTH */
    ck_assert_int_eq(count_ops(f, IR_IF), 0);                    /* the modes compare at compile time */
    ir_func_free(f);
    const char *d = compile_err(src, "k2", "X:*f32[8]");
    ck_assert_msg(strstr(d, "k.py:20:17: error: cannot access global variable 'PLAIN'") &&
                  strstr(d, "does not make it one"), "%s", d);
}
END_TEST

/* A module-level `if` whose condition is a literal: the branch Python runs
 * is scanned as module-level code (its imports), the others are not (their
 * module does not exist). rsqrt is checked against 1/sqrt. */
START_TEST(literal_if_import)
{
    static const char *const srcs[] = {
        "import triton\n"
        "import triton.language as tl\n"
        "if True:\n"
        "    from triton.language.math import rsqrt\n"
        "else:\n"
        "    from tritium_no_such_module_q import rsqrt\n"
        "@triton.jit\n"
        "def k(X):\n"
        "    offs = tl.arange(0, 8)\n"
        "    tl.store(X + offs, rsqrt(offs.to(tl.float32) * 0.5 + 0.25))\n",

        "import triton\n"
        "import triton.language as tl\n"
        "if 0:\n"
        "    from tritium_no_such_module_q import rsqrt\n"
        "elif not True:\n"
        "    import tritium_no_such_module_q as rsqrt\n"
        "else:\n"
        "    try:\n"
        "        from tritium_no_such_module_q import rsqrt\n"
        "    except ImportError:\n"
        "        from triton.language.math import rsqrt\n"
        "@triton.jit\n"
        "def k(X):\n"
        "    offs = tl.arange(0, 8)\n"
        "    tl.store(X + offs, rsqrt(offs.to(tl.float32) * 0.5 + 0.25))\n",

        "import triton\n"
        "import triton.language as tl\n"
        "if 1: from triton.language.math import rsqrt\n"
        "else: from tritium_no_such_module_q import rsqrt\n"
        "@triton.jit\n"
        "def k(X):\n"
        "    offs = tl.arange(0, 8)\n"
        "    tl.store(X + offs, rsqrt(offs.to(tl.float32) * 0.5 + 0.25))\n",
    };
    for (size_t c = 0; c < sizeof srcs / sizeof *srcs; c++) {
        float x[8];
        run_k(srcs[c], "X:*f32[8]", x, 8);
        for (int i = 0; i < 8; i++) {
            double want = 1.0 / sqrt(i * 0.5 + 0.25);
            ck_assert_msg(fabs(x[i] - want) <= 2e-7 * want, "source %zu: rsqrt X[%d] = %.9g, want %.9g", c, i, x[i], want);
        }
    }
}
END_TEST

/* jit helpers defined in both branches of a literal `if` (mamba's `if
 * TRITON3:` with a literal): the branch that runs defines it, wherever it
 * comes in the file. */
START_TEST(literal_if_jit_helper)
{
    static const char *const srcs[] = {
        "import triton\n"
        "import triton.language as tl\n"
        "if False:\n"
        "    @triton.jit\n"
        "    def helper(x):\n"
        "        return x * 100.0\n"
        "else:\n"
        "    @triton.jit\n"
        "    def helper(x):\n"
        "        return x * 3.0 + 1.0\n"
        "@triton.jit\n"
        "def k(X):\n"
        "    offs = tl.arange(0, 8)\n"
        "    tl.store(X + offs, helper(offs.to(tl.float32)))\n",

        "import triton\n"
        "import triton.language as tl\n"
        "if not False:\n"
        "    @triton.jit\n"
        "    def helper(x):\n"
        "        return x * 3.0 + 1.0\n"
        "else:\n"
        "    @triton.jit\n"
        "    def helper(x):\n"
        "        return x * 100.0\n"
        "@triton.jit\n"
        "def k(X):\n"
        "    offs = tl.arange(0, 8)\n"
        "    tl.store(X + offs, helper(offs.to(tl.float32)))\n",
    };
    for (size_t c = 0; c < sizeof srcs / sizeof *srcs; c++) {
        float x[8];
        run_k(srcs[c], "X:*f32[8]", x, 8);
        for (int i = 0; i < 8; i++) ck_assert_msg(x[i] == 3.0f * (float)i + 1.0f, "source %zu: X[%d] = %g", c, i, x[i]);
    }
}
END_TEST

/* A module-level `if` tritium cannot evaluate (Liger-Kernel's version check,
 * mamba's `if TRITON3:`): a kernel using a name bound only there gets an
 * error at the use that names the `if`; names of `if __name__ == "__main__":`
 * and of function bodies are plainly not defined. */
START_TEST(runtime_if_names_are_located)
{
    static const char src[] =
        "import operator\n"
        "import triton\n"
        "import triton.language as tl\n"
        "from liger_kernel.utils import compare_version, is_npu_available\n"
        "if compare_version('triton', operator.ge, '3.0.0') and not is_npu_available():\n"
        "    try:\n"
        "        from triton.language.extra.libdevice import rsqrt\n"
        "    except ModuleNotFoundError:\n"
        "        from triton.language.extra.cuda.libdevice import rsqrt\n"
        "else:\n"
        "    from triton.language.math import rsqrt\n"
        "TRITON3 = True\n"
        "if TRITON3:\n"
        "    @triton.jit\n"
        "    def softplus(dt):\n"
        "        inner = 1\n"
        "        return tl.log(tl.exp(dt) + 1)\n"
        "else:\n"
        "    @triton.jit\n"
        "    def softplus(dt):\n"
        "        return tl.log(tl.exp(dt) + 1)\n"
        "if __name__ == '__main__':\n"
        "    SCALE = tl.constexpr(2)\n"
        "@triton.jit\n"
        "def k(X):\n"
        "    tl.store(X, rsqrt(tl.load(X)))\n"
        "@triton.jit\n"
        "def k2(X):\n"
        "    tl.store(X, softplus(tl.load(X)))\n"
        "@triton.jit\n"
        "def k3(X):\n"
        "    tl.store(X, SCALE * 1.0)\n"
        "@triton.jit\n"
        "def k4(X):\n"
        "    tl.store(X, inner * 1.0)\n";
    const char *d = compile_err(src, "k", "X:*f32[4]");
    ck_assert_msg(strstr(d, "k.py:26:17: error: name 'rsqrt' is defined under a module-level `if` (k.py:5) whose "
                            "condition tritium cannot evaluate without Python; run the program with `python -m "
                            "tritium`") &&
                  strstr(d, "define it unconditionally") && strstr(d, "tl.store(X, rsqrt(tl.load(X)))") &&
                  strstr(d, "^"), "%s", d);
    d = compile_err(src, "k2", "X:*f32[4]");
    ck_assert_msg(strstr(d, "k.py:29:17: error: name 'softplus' is defined under a module-level `if` (k.py:13)"), "%s", d);
    d = compile_err(src, "k3", "X:*f32[4]");
    ck_assert_msg(strstr(d, "k.py:32:17: error: name 'SCALE' is not defined") && !strstr(d, "module-level"), "%s", d);
    d = compile_err(src, "k4", "X:*f32[4]");
    ck_assert_msg(strstr(d, "k.py:35:17: error: name 'inner' is not defined"), "%s", d);
}
END_TEST

TCase *tc_module(void)
{
    TCase *tc = tcase_create("module");
    tcase_add_test(tc, autotune_first_config);
    tcase_add_test(tc, only_jit_functions_are_parsed);
    tcase_add_test(tc, launch_comment_lines);
    tcase_add_test(tc, plain_global_is_an_error);
    tcase_add_test(tc, annotated_global_is_an_error);
    tcase_add_test(tc, params_report);
    tcase_add_test(tc, parameter_binding);
    tcase_add_test(tc, load_from_file);
    tcase_add_test(tc, plain_global_in_default);
    tcase_add_test(tc, jit_decorator_alias);
    tcase_add_test(tc, unresolved_import_is_located);
    tcase_add_test(tc, return_in_runtime_if);
    tcase_add_test(tc, unsupported_triton_name);
    tcase_add_test(tc, annotated_constexpr_global);
    tcase_add_test(tc, literal_if_import);
    tcase_add_test(tc, literal_if_jit_helper);
    tcase_add_test(tc, runtime_if_names_are_located);
    return tc;
}
