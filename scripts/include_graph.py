#!/usr/bin/env python3
"""include_graph.py — the dependency graph between the files of a directory
(#include edges and calls), and the cycles in it.

A node is a module: a .c file, together with the header of the same name when
there is one (mathfn.c and mathfn.h are "mathfn"). A header without a .c
(gpu_int.h, internal.h, prove_dom.h) is a node of its own that others
include. An edge a -> b says that a includes b's header, or that code of a
calls a function that b defines. A call made inside a shared header's static
inline helper counts for every file that uses the helper (the helper's code
is compiled into that file), so that a header cannot hide a call.

    scripts/include_graph.py [--check] [--layers] [DIR...]     (default: compiler/gpu interp)

prints each directory's edges, then its cycles (strongly connected
components). A cycle is expected when it is the language's own recursion
(EXPECTED_BACK: the edges by which a region op's evaluator or lowering runs
the ops of its body, which may hold region ops); removing those edges must
leave no cycle. It also lists the inline helpers of shared headers that call
functions of other files, and HEADER_FORBIDDEN says into which files they
must not call (the interpreter's shared header calls no evaluator). With
--check only the findings are printed, and the exit status is 1 when there is
an unexpected cycle or a forbidden call. Run by the test 'include-graph'.

--layers also checks the directories against LAYERS, the library's layers in
order: a file calls functions of its own directory and of the layers before
its own, never of a later layer or of another directory of its layer (a
program's main, like api/cli.c, is a client and is not checked). So the C
API (api/) does not call into the command line (repl/), whose entry points
tritium_main and tritium_debug ship in the same library."""
import os
import re
import sys
from collections import defaultdict

# The back edges of the region recursion, per directory: (caller, callee).
EXPECTED_BACK = {
    # scf.for/if/while bodies and reduce/scan combine regions run through
    # exec.c's interp_exec_region
    "interp": {("eval_scf", "exec"), ("eval_combine", "exec")},
    # none: combine regions hold pure ops only, lowered by lower_cvt.c's
    # g_lower_pure_with, not through lower.c's dispatcher
    "compiler/gpu": set(),
}
# Shared headers' inline helpers must not call into these files (prefixes).
HEADER_FORBIDDEN = {"interp": ("eval_",), "compiler/gpu": ("lower_", "pipeline", "codegen")}

# The library's layers, in order (directories of one layer are independent).
LAYERS = [
    ["compiler/support"],
    ["compiler/ir"],
    ["compiler/front", "compiler/cuda"],
    ["compiler/gpu", "interp"],
    ["debugger", "page"],           # page: the HTML page of a launch (include/tritium/page.h)
    ["api"],                        # the C API (include/tritium/tritium.h)
    ["repl"],                       # the command line: tritium_main, tritium_debug
]

INCLUDE = re.compile(r'^\s*#\s*include\s*"([^"]+)"', re.M)
FUNC_DEF = re.compile(r'^(?!static\b)[A-Za-z_][\w \*]*?\b([a-z_][a-z0-9_]*)\s*\([^;{]*\)\s*\{', re.M)
INLINE_DEF = re.compile(r'^static\s+inline\b[^;{(]*?\b([a-z_][a-z0-9_]*)\s*\([^;{]*\)\s*\{', re.M)
CALL = re.compile(r'\b([a-z_][a-z0-9_]*)\s*\(')
COMMENT = re.compile(r'/\*.*?\*/|//[^\n]*', re.S)


def stem(path):
    return os.path.splitext(os.path.basename(path))[0]


def read(path):
    with open(path, encoding="utf-8") as f:
        return COMMENT.sub(" ", f.read())


def body_at(t, i):
    """The text of the {...} block that starts before index i."""
    depth = 1
    j = i
    while depth and j < len(t):
        depth += {"{": 1, "}": -1}.get(t[j], 0)
        j += 1
    return t[i:j]


def graph(d):
    files = sorted(os.path.join(d, f) for f in os.listdir(d) if f.endswith((".c", ".h")))
    cstems = {stem(f) for f in files if f.endswith(".c")}
    mods = {stem(f) for f in files}
    text = {f: read(f) for f in files}
    defined = {}                                    # function -> module that defines it
    inline = {}                                     # shared header inline helper -> (header, its body)
    for f in files:
        if f.endswith(".c"):
            for name in FUNC_DEF.findall(text[f]):
                defined.setdefault(name, stem(f))
        for m in INLINE_DEF.finditer(text[f]):
            if f.endswith(".h") and stem(f) not in cstems:
                inline[m.group(1)] = (stem(f), body_at(text[f], m.end()))
            else:
                defined.setdefault(m.group(1), stem(f))

    def calls(t, seen):
        """Functions t calls, through the inline helpers it uses: name -> via."""
        out = {}
        for name in set(CALL.findall(t)):
            if name in inline and name not in seen:
                seen.add(name)
                for callee, via in calls(inline[name][1], seen).items():
                    out.setdefault(callee, via or "%s.h's %s" % (inline[name][0], name))
            else:
                out.setdefault(name, None)
        return out

    edges = defaultdict(dict)                       # a -> {b: why}
    for f in files:
        a = stem(f)
        for inc in INCLUDE.findall(text[f]):
            b = stem(inc)
            if b in mods and b != a and os.path.exists(os.path.join(d, os.path.basename(inc))):
                edges[a].setdefault(b, '#include "%s"' % os.path.basename(inc))
        if f.endswith(".h") and a not in cstems:
            continue                                # a shared header's calls belong to its users
        for name, via in sorted(calls(text[f], set()).items()):
            b = defined.get(name)
            if b and b != a:
                edges[a].setdefault(b, "calls %s%s" % (name, " (through %s)" % via if via else ""))
    header_calls = []                               # (header, helper, callee, its module)
    for name, (h, body) in sorted(inline.items()):
        for callee in sorted(set(CALL.findall(body))):
            b = defined.get(callee)
            if b and b != h:
                header_calls.append((h, name, callee, b))
    return mods, edges, header_calls


def sccs(nodes, edges):
    """The strongly connected components with more than one node (Tarjan)."""
    index, low, stack, on, out = {}, {}, [], set(), []
    counter = [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(edges.get(v, {})):
            if w not in nodes:
                continue
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = set()
            while True:
                w = stack.pop()
                on.discard(w)
                comp.add(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(comp)

    for v in sorted(nodes):
        if v not in index:
            visit(v)
    return out


def layers(root, check):
    """Calls from a directory into a later layer or a sibling: the count of
    violations (printed); without check, the call matrix too."""
    rank = {d: i for i, ds in enumerate(LAYERS) for d in ds}
    defined, texts = {}, {}
    for d in rank:
        if not os.path.isdir(os.path.join(root, d)):
            continue                                    # an older tree's layers (see git history)
        for f in sorted(os.listdir(os.path.join(root, d))):
            if f.endswith((".c", ".h")):
                t = read(os.path.join(root, d, f))
                texts[(d, f)] = t
                if f.endswith(".c"):
                    for name in FUNC_DEF.findall(t):
                        defined.setdefault(name, d)
    calls = defaultdict(lambda: defaultdict(set))       # (from dir, to dir) -> function -> files
    for (d, f), t in texts.items():
        if not f.endswith(".c") or re.search(r"\bint\s+main\s*\(", t):
            continue
        for name in set(CALL.findall(t)):
            e = defined.get(name)
            if e and e != d:
                calls[(d, e)][name].add(f)
    bad = 0
    print("== layers: %s" % " < ".join("/".join(ds) for ds in LAYERS))
    for (a, b), names in sorted(calls.items(), key=lambda x: (rank[x[0][0]], x[0][0], rank[x[0][1]], x[0][1])):
        wrong = rank[b] >= rank[a]
        bad += wrong
        if wrong or not check:
            eg = ", ".join("%s (%s)" % (n, " ".join(sorted(fs)[:3] + ["..."] * (len(fs) > 3)))
                           for n, fs in sorted(names.items())[:3])
            print("  %-16s -> %-16s %3d functions, e.g. %s%s" % (a, b, len(names), eg, ": WRONG WAY" if wrong else ""))
    if not bad:
        print("  every call goes to an earlier layer")
    print()
    return bad


def main(argv):
    check = "--check" in argv
    dirs = [a for a in argv if not a.startswith("--")] or ["compiler/gpu", "interp"]
    root = os.environ.get("TRITIUM_SRCDIR") or os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
    bad = 0
    for d in dirs:
        key = d.rstrip("/")
        mods, edges, header_calls = graph(os.path.join(root, d))
        back = EXPECTED_BACK.get(key, set())
        print("== %s: %d modules, %d edges" % (d, len(mods), sum(len(e) for e in edges.values())))
        if not check:
            for a in sorted(edges):
                print("  %-14s -> %s" % (a, ", ".join("%s (%s)" % (b, w) for b, w in sorted(edges[a].items()))))
        for h, name, callee, b in header_calls:
            forbidden = b.startswith(HEADER_FORBIDDEN.get(key, ()))
            if forbidden or not check:
                print("  %s.h's inline %s calls %s (%s.c)%s" % (h, name, callee, b, ": FORBIDDEN" if forbidden else ""))
            bad += forbidden
        for comp in sccs(mods, edges):
            pruned = {a: {b: w for b, w in edges.get(a, {}).items() if (a, b) not in back} for a in comp}
            rest = sccs(comp, pruned)
            print("  cycle%s: %s" % (" (region recursion, expected)" if not rest else " UNEXPECTED",
                                     " ".join(sorted(comp))))
            for a in sorted(comp):
                for b, w in sorted(edges.get(a, {}).items()):
                    if b in comp:
                        print("      %s -> %s: %s%s" % (a, b, w, "  [region recursion]" if (a, b) in back else ""))
            bad += bool(rest)
        if not sccs(mods, edges):
            print("  no cycles")
        print()
    if "--layers" in argv:
        bad += layers(root, check)
    if check and bad:
        print("include_graph: %d unexpected cycle(s), forbidden header call(s) or calls against the layers" % bad)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
