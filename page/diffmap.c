/* diffmap.c — the error maps of `tritium diff --html`, `tritium check
 * --html` and python -m tritium --mode check (page.h): every tensor a diff
 * report compared, with both sides' values. Reads the report's fields only
 * (tritium/diff.h), so the page needs no GPU compiler. */
#include "page_int.h"
#include "tritium/diff.h"

void page_launch_diff(page_launch *pl, const launch *ref, const launch *got, const dbg_diff_report *r)
{
    const char *other = r->other_label[0] ? r->other_label : r->against_interp ? interp_sched_name(r->other_sched) : "gpu";
    const char *refl = r->ref_label[0] ? r->ref_label : "interp";
    page_launch_other(pl, refl, other, r->mismatches);
    if (!ref || !got) return;
    for (int i = 0; i < r->ntensors; i++) {
        const dbg_diff_tensor *t = &r->tensors[i];
        int a = t->arg;
        if (a < 0 || a >= ref->nargs + ref->nextra || a >= got->nargs + got->nextra) continue;
        const tt_tensor *rt = ref->args[a].tensor, *gt = got->args[a].tensor;
        if (!rt || !gt || rt->nbytes != gt->nbytes) continue;
        page_rule rule = { t->bounds, t->exact, t->rtol, t->atol, t->ulp };
        page_launch_compare(pl, a, rt->data, gt->data, t->bad, rule, t->mismatches);
    }
}
