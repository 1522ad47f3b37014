#!/usr/bin/env python3
"""test_html.py — tritium's HTML page (--html FILE, docs/html.md) rendered in
headless Chromium and checked on the rendered DOM (cdp.py drives it over the
DevTools protocol through a pipe).

    test_html.py TRITIUM [CASE...] [--screenshots DIR] [--measure]

Cases: fault (examples/oob_bug.py), race (examples/order_bug.py), uninit
(kernels/uninit_read.py), diff (order_bug.py under `tritium diff --against
reverse`: no GPU needed), python (python -m tritium --html over a program
with a fault, a race and a clean launch, in interp mode, in check mode
--against reverse, in record and debug modes), big (a 2^24-element launch: the
page stays a few megabytes and says it reduced its maps). Every page must
log no script error. Exit 77 (skipped) when no chromium is installed, or
for the python case when torch and triton are not importable.

--screenshots DIR writes docs/html-*.png as docs/html.md shows them;
--measure prints the size, the time to write and the time to first paint
of the big page (docs/html.md's table)."""
import json
import os
import re
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import cdp  # noqa: E402

SRC = os.environ.get("TRITIUM_SRCDIR") or os.path.dirname(os.path.dirname(HERE))
FAILURES = []


def check(cond, what):
    if not cond:
        FAILURES.append(what)
        print("FAIL: " + what)
    return cond


def run(cmd, expect=None, env=None):
    t0 = time.monotonic()
    p = subprocess.run(cmd, cwd=SRC, capture_output=True, text=True, env=env, stdin=subprocess.DEVNULL)
    dt = time.monotonic() - t0
    if expect is not None and p.returncode not in expect:
        print(p.stdout)
        print(p.stderr)
        raise SystemExit("FAIL: %s exited %d (expected %s)" % (" ".join(cmd), p.returncode, expect))
    return p, dt


class Session:
    """One page open in the browser, with helpers for the assertions."""

    def __init__(self, browser, path, width=1400, height=1000):
        self.path = path
        self.p = browser.open("file://" + path, width=width, height=height)
        self.p.wait("document.body && document.body.dataset.ready === '1'")

    def js(self, expr):
        return self.p.eval(expr)

    def maps(self, cmp=False):
        sel = ".map.cmp" if cmp else ".map:not(.cmp)"
        return self.js("[...document.querySelectorAll(%s)].map(m => m.dataset.name)" % json.dumps(sel))

    def counts(self, name):
        return self.js("(function(){var m=document.querySelector(%s);"
                       "return m ? [+m.dataset.loaded, +m.dataset.stored, +m.dataset.faulted] : null;})()"
                       % json.dumps('.map:not(.cmp)[data-name="%s"]' % name))

    def hover(self, mapi, elem, cmp=False):
        """The tooltip's text after the mouse moves onto element elem of map mapi."""
        c = self.js("tritium.cellCenter(%d, %d, %s)" % (mapi, elem, "true" if cmp else "false"))
        if not c:
            return None
        self.p.mouse_move(c["x"], c["y"])
        time.sleep(0.05)
        return self.js("document.getElementById('tip').hidden ? '' : document.getElementById('tip').innerText")

    def reports(self):
        return self.js("[...document.querySelectorAll('ol.reports li')].map(li => [li.dataset.kind, li.textContent, "
                       "li.dataset.map === undefined ? null : +li.dataset.map, "
                       "li.dataset.element === undefined ? null : +li.dataset.element])")

    def no_errors(self, what):
        self.p.flush_events(0.2)
        errs = self.p.errors + (self.js("tritium.errors") or [])
        check(not errs, "%s: the page logged script errors: %s" % (what, errs))

    def screenshot(self, out, full=True):
        with open(out, "wb") as f:
            f.write(self.p.screenshot(full_page=full))


def case_fault(b, tritium, tmp, shots):
    page = os.path.join(tmp, "fault.html")
    run([tritium, "run", "examples/oob_bug.py", "--html", page], expect=[1])
    s = Session(b, page)
    check(s.maps() == ["x_ptr", "out_ptr"], "fault: the tensors are x_ptr and out_ptr: %s" % s.maps())
    reps = s.reports()
    check(len(reps) == 1 and reps[0][0] == "out-of-bounds" and "x_ptr[4000]" in reps[0][1] and reps[0][2] == 0
          and reps[0][3] == 4000, "fault: one out-of-bounds report at x_ptr[4000]: %s" % reps)
    check("program (3, 0, 0)" in reps[0][1] and "oob_bug.py:34" in reps[0][1], "fault: the report names program 3 "
          "and line 34: %s" % reps)
    check(s.js("document.getElementById('L0-34').classList.contains('rep-fault')"), "fault: line 34 is marked")
    # the faulting element, drawn past the edge of x_ptr
    tip = s.hover(0, 4000)
    check(tip and "x_ptr[4000]" in tip and "past the end" in tip and "fault" in tip and "program (3, 0, 0)" in tip,
          "fault: hovering x_ptr[4000] names it, past the end, faulted by program 3: %r" % tip)
    tip = s.hover(0, 3999)
    check(tip and "x_ptr[3999]" in tip and "value" in tip and "past the end" not in tip and "program (3, 0, 0)" in tip,
          "fault: hovering x_ptr[3999] gives its value and reader: %r" % tip)
    tip = s.hover(1, 10)
    check(tip and "out_ptr[10]" in tip and "last written by program (0, 0, 0)" in tip and "oob_bug.py:35" in tip,
          "fault: hovering out_ptr[10] names its writer and line: %r" % tip)
    # the picker: what program 3 touched, then program 0
    s.js("tritium.pick(3)")
    c3x, c3o = s.counts("x_ptr"), s.counts("out_ptr")
    check(c3x == [928, 0, 96] and c3o == [0, 928, 0], "fault: program 3 loaded 928 cells of x_ptr, 96 lanes past its "
          "end, stored 928 of out_ptr: %s %s" % (c3x, c3o))
    if shots:
        s.hover(0, 4000)
        s.screenshot(os.path.join(shots, "html-fault.png"))
    s.p.click_selector("#prev")
    check(s.js("document.body.dataset.program") == "2", "fault: the ◀ button picks program 2")
    c2 = s.counts("x_ptr")
    check(c2 == [1024, 0, 0], "fault: program 2 loaded 1024 cells of x_ptr, none past the end: %s" % c2)
    s.p.click_selector("ol.reports li")
    check(s.js("document.body.dataset.program") == "3", "fault: clicking the report picks its program (3)")
    s.p.click_selector("#clear")
    check(s.js("document.body.dataset.program") == "" and s.counts("x_ptr") == [0, 0, 0],
          "fault: 'all' clears the highlight")
    s.no_errors("fault")


def case_race(b, tritium, tmp, shots):
    page = os.path.join(tmp, "race.html")
    run([tritium, "run", "examples/order_bug.py", "--html", page], expect=[1])
    s = Session(b, page)
    check(s.maps() == ["x_ptr", "out_ptr"], "race: the tensors: %s" % s.maps())
    reps = s.reports()
    check(len(reps) == 1 and reps[0][0] == "read-after-write-race" and "out_ptr[0]" in reps[0][1],
          "race: a read-after-write race report at out_ptr[0]: %s" % reps)
    check(s.js("document.getElementById('L0-45').classList.contains('rep-race')"), "race: line 45 is marked")
    tip = s.hover(1, 0)
    check(tip and "out_ptr[0]" in tip and "race with program (0, 0, 0)" in tip and "last read by program (1, 0, 0)" in tip,
          "race: hovering out_ptr[0] names the race and both programs: %r" % tip)
    s.js("tritium.pick(5)")
    check(s.counts("out_ptr") == [1, 1, 0] and s.counts("x_ptr") == [1024, 0, 0],
          "race: program 5 loaded one element of out_ptr, stored one and loaded 1024 of x_ptr: %s %s"
          % (s.counts("out_ptr"), s.counts("x_ptr")))
    if shots:
        s.hover(1, 4)
        s.screenshot(os.path.join(shots, "html-race.png"))
    s.no_errors("race")


def case_uninit(b, tritium, tmp, shots):
    page = os.path.join(tmp, "uninit.html")
    run([tritium, "run", "tests/html/kernels/uninit_read.py", "--html", page], expect=[0])
    s = Session(b, page)
    check(s.maps() == ["tmp_ptr", "out_ptr"], "uninit: the tensors: %s" % s.maps())
    reps = s.reports()
    check(len(reps) == 1 and reps[0][0] == "uninitialized-read" and "tmp_ptr[2, 0]" in reps[0][1],
          "uninit: one uninitialized-read report at tmp_ptr[2, 0]: %s" % reps)
    tip = s.hover(0, 128)
    check(tip and "tmp_ptr[2, 0]" in tip and "uninitialized read" in tip, "uninit: hovering tmp_ptr[2, 0]: %r" % tip)
    tip = s.hover(0, 127)
    check(tip and "tmp_ptr[1, 63]" in tip and "uninitialized" not in tip and "last written by program (0, 0, 0)" in tip,
          "uninit: tmp_ptr[1, 63] was written first: %r" % tip)
    s.js("tritium.pick(0)")
    check(s.counts("tmp_ptr") == [256, 128, 0], "uninit: program 0 stored 128 elements of tmp_ptr and loaded 256: %s"
          % s.counts("tmp_ptr"))
    if shots:
        s.hover(0, 200)
        s.screenshot(os.path.join(shots, "html-uninit.png"))
    s.no_errors("uninit")


def case_diff(b, tritium, tmp, shots):
    page = os.path.join(tmp, "diff.html")
    p, _ = run([tritium, "diff", "examples/order_bug.py", "--against", "reverse", "--html", page], expect=[1, 2])
    if p.returncode == 2 and "unknown" in p.stderr and not os.path.exists(page):
        print("SKIP diff: this tritium has no `tritium diff` (built without the GPU compiler): " + p.stderr.strip())
        return 77
    s = Session(b, page)
    check(s.maps(cmp=True) == ["out_ptr"], "diff: one error map, of out_ptr: %s" % s.maps(cmp=True))
    check("63 mismatches" in s.js("document.getElementById('cmp-1').textContent"), "diff: the map says 63 mismatches")
    tip = s.hover(1, 5, cmp=True)
    check(tip and "out_ptr[5]" in tip and "mismatch" in tip and re.search(r"interp \S+ · reverse \S+", tip)
          and "last written by program (5, 0, 0)" in tip and "order_bug.py:46" in tip,
          "diff: hovering out_ptr[5] gives both values, the error and its writer: %r" % tip)
    tip = s.hover(1, 0, cmp=True)
    check(tip and "same bits" in tip, "diff: out_ptr[0] is the same on both sides: %r" % tip)
    s.js("tritium.pick(7)")
    n = s.js("+document.getElementById('cmp-1').dataset.stored")
    check(n == 1, "diff: the picker highlights program 7's store in the error map: %s" % n)
    if shots:
        s.js("tritium.pick(-1)")
        s.hover(1, 9, cmp=True)
        s.screenshot(os.path.join(shots, "html-diff.png"))
    s.no_errors("diff")


def case_python(b, tritium, tmp, shots):
    env = dict(os.environ)
    try:
        import torch  # noqa: F401
        import triton  # noqa: F401
    except ImportError:
        print("SKIP python: torch or triton not importable")
        return 77
    lib = env.get("TRITIUM_LIB") or os.path.join(os.path.dirname(os.path.abspath(tritium)), "libtritium.so")
    env["TRITIUM_LIB"] = lib
    env["PYTHONPATH"] = os.path.join(SRC, "python") + os.pathsep + env.get("PYTHONPATH", "")
    page = os.path.join(tmp, "python.html")
    p, _ = run([sys.executable, "-m", "tritium", "--on-error", "warn", "--html", page,
                os.path.join(HERE, "kernels", "py_launches.py")], expect=[0], env=env)
    check("wrote " + page in p.stderr, "python: says where the page is: %r" % p.stderr[-300:])
    s = Session(b, page)
    order = s.js("[...document.querySelectorAll('nav.launches button')].map(x => x.textContent)")
    check(order and len(order) == 3 and "fault" in order[0] and "race" in order[1] and "ok" in order[2],
          "python: three launches, the fault first, then the race, then the clean one: %s" % order)
    check(s.maps() == ["x_ptr", "out_ptr"], "python: the faulting launch's tensors: %s" % s.maps())
    tip = s.hover(0, 100)
    check(tip and "x_ptr[100]" in tip and "past the end" in tip, "python: x_ptr[100] past the end: %r" % tip)
    s.p.click_selector("nav.launches button[data-launch='1']")
    s.p.wait("document.body.dataset.launch === '1' && document.body.dataset.ready === '1'")
    reps = s.reports()
    check(reps and reps[0][0] == "read-after-write-race", "python: the second launch raced: %s" % reps)
    if shots:
        s.screenshot(os.path.join(shots, "html-python.png"), full=False)
    s.no_errors("python")
    # check mode against a second schedule: the comparison's error maps (its second run is not a launch)
    page = os.path.join(tmp, "python-check.html")
    run([sys.executable, "-m", "tritium", "--mode", "check", "--against", "reverse", "--html", page,
         os.path.join(HERE, "kernels", "py_launches.py")], expect=[1], env=env)
    s = Session(b, page)
    n = s.js("document.querySelectorAll('nav.launches button').length")
    check(n == 3, "python check: three launches on the page: %s" % n)
    s.p.click_selector("nav.launches button[data-launch='1']")
    s.p.wait("document.body.dataset.launch === '1' && document.body.dataset.ready === '1'")
    title = s.js("(document.querySelector('.map.cmp[data-name=\"out_ptr\"] h3') || {}).textContent")
    check(title and "against interp" in title and "7 mismatches" in title,
          "python check: prefix_kernel's out_ptr has an error map with 7 mismatches: %r" % title)
    tip = s.hover(1, 3, cmp=True)
    check(tip and "out_ptr[3]" in tip and "reverse" in tip and "mismatch" in tip,
          "python check: out_ptr[3] mismatches against reverse: %r" % tip)
    s.no_errors("python check")
    # record and debug modes: each launch drawn once, from an interpreter run on copies
    for mode, extra in (("record", ["--record-dir", os.path.join(tmp, "rec")]),
                        ("debug", ["--break", "prefix_kernel", "-ex", "continue"])):
        page = os.path.join(tmp, "python-%s.html" % mode)
        run([sys.executable, "-m", "tritium", "--mode", mode, "--on-error", "warn", "--html", page] + extra
            + [os.path.join(HERE, "kernels", "py_launches.py")], expect=[0], env=env)
        s = Session(b, page)
        order = s.js("[...document.querySelectorAll('nav.launches button')].map(x => x.textContent)")
        check(order and len(order) == 3 and "fault" in order[0] and "race" in order[1],
              "python %s: the three launches, each once, the fault first: %s" % (mode, order))
        s.no_errors("python " + mode)
    return 0


def case_big(b, tritium, tmp, shots, measure=False):
    n = 1 << 24
    page = os.path.join(tmp, "big.html")
    args = [tritium, "run", "examples/vector_add.py", "--arg", "x_ptr=randn:f32[%d]" % n,
            "--arg", "y_ptr=randn:f32[%d]" % n, "--arg", "output_ptr=empty:f32[%d]" % n]
    p0, t_plain = run(args, expect=[0])
    p1, t_html = run(args + ["--html", page], expect=[0])
    size = os.path.getsize(page)
    m = re.search(r"wrote .* \(([\d.]+) KB; its data made in (\d+) ms, the file written in (\d+) ms\)", p1.stderr)
    launch = [float(x) for x in re.findall(r"time\s+([\d.]+) ms", p0.stdout + p1.stdout)]
    check(size <= 4 << 20, "big: the page of a 2^24-element launch is at most 4 MB: %d bytes" % size)
    t0 = time.monotonic()
    s = Session(b, page)
    t_ready = time.monotonic() - t0
    check(s.js("!!document.getElementById('reduced')"), "big: the page says that it reduced the maps")
    note = s.js("document.querySelector('.map .note').textContent")
    check("reduced" in note and "cells of 256 elements" in note, "big: a map says how it was reduced: %r" % note)
    tip = s.hover(0, 5000000)
    check(tip and "cell of 256 elements" in tip, "big: hovering a cell names its block: %r" % tip)
    s.js("tritium.pick(100)")
    check(s.counts("x_ptr") == [4, 0, 0] and s.counts("output_ptr") == [0, 4, 0],
          "big: program 100 loaded 4 cells of x_ptr and stored 4 of output_ptr: %s" % s.counts("x_ptr"))
    paint = s.js("(performance.getEntriesByType('paint').find(e => e.name === 'first-contentful-paint') || {}).startTime")
    ready = s.js("tritium.readyAt || null")
    s.no_errors("big")
    if shots:
        s.js("tritium.pick(-1)")
        s.screenshot(os.path.join(shots, "html-big.png"), full=False)
    if measure:
        print("big: %d elements per tensor; page %.2f MB; launch %s ms (without --html, with it; the command: %.2f s, "
              "%.2f s wall); data made in %s ms, file written in %s ms; first contentful paint %.0f ms, maps drawn "
              "%.0f ms after navigation start (%.2f s wall with the browser's start)"
              % (n, size / 2**20, launch, t_plain, t_html, m.group(2) if m else "?", m.group(3) if m else "?",
                 paint or -1, ready or -1, t_ready))


CASES = ["fault", "race", "uninit", "diff", "python", "big"]


def main(argv):
    args = [a for a in argv[1:] if not a.startswith("--")]
    shots = None
    if "--screenshots" in argv:
        shots = os.path.abspath(argv[argv.index("--screenshots") + 1])
        os.makedirs(shots, exist_ok=True)
        args.remove(shots) if shots in args else None
        args = [a for a in args if os.path.abspath(a) != shots]
    measure = "--measure" in argv
    if not args:
        sys.exit(__doc__)
    tritium = os.path.abspath(args[0])
    cases = args[1:] or CASES
    if not cdp.find_chromium():
        print("SKIP: no chromium (apt-get install chromium)")
        return 77
    skipped = 0
    with tempfile.TemporaryDirectory(prefix="tritium-html-") as tmp, cdp.Browser() as b:
        for c in cases:
            t0 = time.monotonic()
            if c == "big":
                rc = case_big(b, tritium, tmp, shots, measure)
            else:
                rc = globals()["case_" + c](b, tritium, tmp, shots)
            skipped += rc == 77
            print("%s: %s (%.1f s)" % (c, "skipped" if rc == 77 else "done", time.monotonic() - t0))
    if FAILURES:
        print("%d check(s) failed" % len(FAILURES))
        return 1
    return 77 if skipped == len(cases) else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
