/* print.c — the IR's text form (MLIR-like generic syntax, one format for
 * every op, driven by ops.def):
 *
 *   module {
 *     tt.func public @add_kernel(%x_ptr.0: !tt.ptr<f32>, %n.1: i32 {tt.dtype = "u32"}) {
 *       %2 = tt.get_program_id {axis = 0} : i32 loc(#loc1)
 *       %acc.3, %i.4 = scf.for %lb.5, ... : tensor<64xf32>, i32 {
 *       ^bb0(%iv.6: i32, ...):
 *         scf.yield %a.7, %b.8 loc(#loc9)
 *       } loc(#loc6)
 *       tt.return loc(#loc0)
 *     }
 *   }
 *   #loc0 = loc("examples/vector_add.py":10:0)
 *   #loc1 = loc("helper"("examples/vector_add.py":4:8))
 *   #loc6 = loc(callsite("helper"("examples/vector_add.py":5:4) at #loc1))
 *
 * Values print as %N or %name.N, N numbering definitions in print order
 * (function arguments first; an op's results before its regions' arguments),
 * so that print -> parse -> print is byte-identical. Multiple results print
 * as a comma-separated list, each with its own name. Every attribute of the
 * op's spec prints, in spec order. Each region prints a `^bb0(args):` label
 * line (`^bb0:` without arguments). Locations print as #locN, N the index in
 * ir_func.locs; every location is listed after the module. */
#include "tritium/ir.h"
#include "tritium/limits.h"
#include "attrspec.h"

#include <math.h>
#include <string.h>

/* ---- value numbering ---- */

typedef struct printer {
    FILE *out;
    const ir_func *f;
    int *num;                      /* per value: print number, -1 if not reached */
    int next;
} printer;

static bool region_ok(const ir_func *f, int32_t r) { return r >= 0 && r < f->regions.n; }

static void number_value(printer *p, ir_value v)
{
    if (v >= 0 && v < p->f->values.n && p->num[v] < 0) p->num[v] = p->next++;
}

/* depth: r's nesting level (0: the body; limits.h TT_MAX_REGION_DEPTH) */
static void number_region(printer *p, int32_t r, int depth)
{
    if (!region_ok(p->f, r) || depth > TT_MAX_REGION_DEPTH) return;
    const ir_region *rg = &p->f->regions.v[r];
    for (int i = 0; i < rg->nargs; i++) number_value(p, rg->args[i]);
    for (int i = 0; i < rg->nops; i++) {
        const ir_op *op = &rg->ops[i];
        for (int k = 0; k < op->nres; k++) number_value(p, op->res + k);
        for (int k = 0; k < op->nregions && k < 2; k++) number_region(p, op->region[k], depth + 1);
    }
}

static void printer_init(printer *p, FILE *out, const ir_func *f)
{
    p->out = out;
    p->f = f;
    p->num = xmalloc(sizeof *p->num * (size_t)(f->values.n ? f->values.n : 1));
    for (int i = 0; i < f->values.n; i++) p->num[i] = -1;
    p->next = 0;
    number_region(p, IR_BODY, 0);
}

/* Characters allowed in a value name; others print as '_'. */
static bool name_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
           c == '_' || c == '.' || c == '$' || c == '-';
}

static void print_value(printer *p, ir_value v)
{
    if (v < 0 || v >= p->f->values.n || p->num[v] < 0) {
        fprintf(p->out, "%%<undefined:%d>", v);
        return;
    }
    const char *name = p->f->values.v[v].name;
    fputc('%', p->out);
    if (name && *name) {
        for (const char *c = name; *c; c++) fputc(name_char(*c) ? *c : '_', p->out);
        fputc('.', p->out);
    }
    fprintf(p->out, "%d", p->num[v]);
}

static void print_type(printer *p, ir_type t)
{
    char buf[128];
    fputs(t ? ir_type_str(t, buf, sizeof buf) : "<no type>", p->out);
}

/* A string literal with MLIR escapes (\" \\ and \XX hex for the rest). */
static void print_string(FILE *out, const char *s)
{
    fputc('"', out);
    for (const unsigned char *c = (const unsigned char *)s; *c; c++) {
        if (*c == '"' || *c == '\\') fprintf(out, "\\%c", *c);
        else if (*c < 0x20 || *c >= 0x7f) fprintf(out, "\\%02X", *c);
        else fputc(*c, out);
    }
    fputc('"', out);
}

/* Shortest decimal that reads back as the same double; inf, -inf, nan,
 * -nan spelled out; always recognisable as a float (has '.', 'e' or a word). */
static void print_double(FILE *out, double v)
{
    if (isnan(v)) { fputs(signbit(v) ? "-nan" : "nan", out); return; }
    if (isinf(v)) { fputs(v < 0 ? "-inf" : "inf", out); return; }
    char buf[64];
    for (int prec = 1; prec <= 17; prec++) {
        snprintf(buf, sizeof buf, "%.*g", prec, v);
        if (strtod(buf, NULL) == v) break;
    }
    fputs(buf, out);
    if (!strpbrk(buf, ".e")) fputs(".0", out);
}

static void print_attrs(printer *p, const ir_op *op)
{
    const ir_opdesc *d = &ir_ops[op->opc];
    ir_attrspec spec[4];
    int n = ir_attrspec_split(d->attrs, spec);
    if (!n) return;
    fputs(" {", p->out);
    for (int i = 0; i < n; i++) {
        fprintf(p->out, "%s%.*s = ", i ? ", " : "", (int)spec[i].name_len, spec[i].name);
        int64_t a = op->attr[i];
        if (ir_attrspec_kind_is(&spec[i], "i")) {
            fprintf(p->out, "%lld", (long long)a);
        } else if (ir_attrspec_kind_is(&spec[i], "v")) {
            ir_type t = op->nres >= 1 && op->res >= 0 && op->res < p->f->values.n ? ir_value_type(p->f, op->res) : 0;
            if (t && ir_type_is_float(t)) print_double(p->out, op->fval);
            else fprintf(p->out, "%lld", (long long)op->ival);
        } else if (ir_attrspec_kind_is(&spec[i], "s")) {
            print_string(p->out, ir_str_at(p->f, a));
        } else if (ir_attrspec_kind_is(&spec[i], "a")) {
            int64_t e[IR_ATTR_ARRAY_MAX];
            int k = ir_attr_array_get(p->f, a, e);
            fputc('[', p->out);
            for (int j = 0; j < k; j++) fprintf(p->out, "%s%lld", j ? ", " : "", (long long)e[j]);
            if (k < 0) fputs("<corrupt>", p->out);
            fputc(']', p->out);
        } else {
            const char *const *names = ir_enum_names(spec[i].kind, spec[i].kind_len);
            int count = 0;
            while (names && names[count]) count++;
            if (a >= 0 && a < count) fputs(names[a], p->out);
            else fprintf(p->out, "%lld", (long long)a);
        }
    }
    fputc('}', p->out);
}

static void print_loc_ref(printer *p, int32_t loc)
{
    if (loc < 0) fputs(" loc(unknown)", p->out);
    else fprintf(p->out, " loc(#loc%d)", loc);
}

static void print_op(printer *p, int32_t region, int index, int indent, int depth);

/* depth: the nesting level of the op that owns r (0: an op of the body), so
 * r is at level depth + 1. A region past TT_MAX_REGION_DEPTH is printed as
 * an error line, which the parser refuses at the region's brace: IR the
 * parser could not read back is never printed as if it could. */
static void print_region(printer *p, int32_t r, int indent, int depth)
{
    fputs(" {\n", p->out);
    if (!region_ok(p->f, r)) {
        fprintf(p->out, "%*s<bad region %d>\n%*s}", indent, "", r, indent, "");
        return;
    }
    if (depth + 1 > TT_MAX_REGION_DEPTH) {
        char *why = tt_limit_exceeded(TT_LIM_REGION_DEPTH);
        fprintf(p->out, "%*s<error: %s: region %d not printed>\n%*s}", indent, "", why, r, indent, "");
        free(why);
        return;
    }
    const ir_region *rg = &p->f->regions.v[r];
    fprintf(p->out, "%*s^bb0", indent, "");
    if (rg->nargs) {
        fputc('(', p->out);
        for (int i = 0; i < rg->nargs; i++) {
            if (i) fputs(", ", p->out);
            print_value(p, rg->args[i]);
            fputs(": ", p->out);
            ir_value a = rg->args[i];
            print_type(p, a >= 0 && a < p->f->values.n ? ir_value_type(p->f, a) : 0);
        }
        fputc(')', p->out);
    }
    fputs(":\n", p->out);
    for (int i = 0; i < p->f->regions.v[r].nops; i++) print_op(p, r, i, indent + 2, depth + 1);
    fprintf(p->out, "%*s}", indent, "");
}

static void print_op(printer *p, int32_t region, int index, int indent, int depth)
{
    const ir_op *op = &p->f->regions.v[region].ops[index];
    fprintf(p->out, "%*s", indent, "");
    if (op->opc >= IR_OP_COUNT) {
        fprintf(p->out, "<bad opcode %u>\n", op->opc);
        return;
    }
    for (int i = 0; i < op->nres; i++) {
        if (i) fputs(", ", p->out);
        print_value(p, op->res + i);
    }
    if (op->nres) fputs(" = ", p->out);
    fputs(ir_ops[op->opc].name, p->out);
    for (int i = 0; i < op->nopnd; i++) {
        fputs(i ? ", " : " ", p->out);
        print_value(p, op->opnd[i]);
    }
    print_attrs(p, op);
    for (int i = 0; i < op->nres; i++) {
        fputs(i ? ", " : " : ", p->out);
        ir_value v = op->res + i;
        print_type(p, v >= 0 && v < p->f->values.n ? ir_value_type(p->f, v) : 0);
    }
    for (int i = 0; i < op->nregions && i < 2; i++) print_region(p, op->region[i], indent, depth);
    print_loc_ref(p, op->loc);
    fputc('\n', p->out);
}

/* The dtype an argument's IR type implies (signless: i32 for u32). */
static tt_dtype implied_dtype(ir_type t)
{
    const ir_type_info *ti = ir_type_get(t);
    if (ti->elem == TT_PTR) return ir_type_get(ti->pointee)->elem;
    return ti->elem;
}

static bool plain_ident(const char *s)
{
    if (!*s) return false;
    for (const char *c = s; *c; c++)
        if (!name_char(*c) || *c == '-') return false;
    return true;
}

static void print_loc_body(FILE *out, const ir_loc *l)
{
    if (l->func) {
        print_string(out, l->func);
        fputc('(', out);
    }
    print_string(out, l->file >= 0 ? diag_file_name(l->file) : "");
    fprintf(out, ":%d:%d", l->line, l->col);
    if (l->func) fputc(')', out);
}

void ir_print(FILE *out, const ir_func *f)
{
    printer p;
    printer_init(&p, out, f);
    fputs("module {\n  tt.func public @", out);
    if (plain_ident(f->name)) fputs(f->name, out);
    else print_string(out, f->name);
    fputc('(', out);
    const ir_region *body = &f->regions.v[IR_BODY];
    for (int i = 0; i < body->nargs; i++) {
        ir_value a = body->args[i];
        if (i) fputs(", ", out);
        print_value(&p, a);
        fputs(": ", out);
        ir_type t = a >= 0 && a < f->values.n ? ir_value_type(f, a) : 0;
        print_type(&p, t);
        if (i < f->nargs && t) {
            bool dt = f->arg_dtype[i] != implied_dtype(t);
            bool ptr = f->arg_is_ptr[i] != ir_type_is_ptr(t);
            if (dt || ptr) {
                fputs(" {", out);
                if (dt) fprintf(out, "tt.dtype = \"%s\"", tt_dtype_name(f->arg_dtype[i]));
                if (ptr) fprintf(out, "%stt.is_ptr = %s", dt ? ", " : "", f->arg_is_ptr[i] ? "true" : "false");
                fputc('}', out);
            }
        }
    }
    fputs(") {\n", out);
    for (int i = 0; i < body->nops; i++) print_op(&p, IR_BODY, i, 4, 0);
    fputs("  }\n}\n", out);
    for (int i = 0; i < f->locs.n; i++) {
        const ir_loc *l = &f->locs.v[i];
        fprintf(out, "#loc%d = loc(", i);
        if (l->caller >= 0) {
            fputs("callsite(", out);
            print_loc_body(out, l);
            fprintf(out, " at #loc%d)", l->caller);
        } else {
            print_loc_body(out, l);
        }
        fputs(")\n", out);
    }
    free(p.num);
}

void ir_print_op(FILE *out, const ir_func *f, int region, int index, int indent)
{
    if (!region_ok(f, region) || index < 0 || index >= f->regions.v[region].nops) {
        fprintf(out, "%*s<no op at region %d index %d>\n", indent, "", region, index);
        return;
    }
    printer p;
    printer_init(&p, out, f);
    print_op(&p, region, index, indent, 0);
    free(p.num);
}
