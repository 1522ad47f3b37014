#!/usr/bin/env python3
"""Every document and test path the sources name must exist.

Scans the comments of the C sources, headers and op tables (.c, .h, .def),
the comments and strings of the Python files, meson.build and
meson_options.txt, README.md and the pages of docs/ for
  - paths under docs/ and tests/ (`docs/design.md`, `tests/gpu/test_optable.c`,
    `tests/debugger/golden/CASE.cmd`: an upper-case placeholder only needs its
    directory; `tests/*/kernels/`: a glob needs one match),
  - any other Markdown document (`README.md`), looked up
    from the repository root and from the naming file's directory,
  - a section cited after a document (`docs/design.md, "Memory model"`), which
    must be a heading of that document,
  - in Markdown, every relative link ([text](path#anchor)) and its anchor.
Paths under a build directory (`build/tests/...`, `$BUILD/tests/...`) are
outputs, not sources, and are not checked.

usage: check_doc_paths.py [SOURCE_ROOT]     (default: $TRITIUM_SRCDIR, else
the directory above this file). Prints each missing path with the file and
line that names it; exit status 1 when there is one, else 0.
"""
import os
import re
import sys

SKIP_DIRS = {".git", ".venv", "__pycache__", "node_modules", "subprojects"}
# vendored files (Triton's tutorials, as Triton ships them), data and fuzz inputs
SKIP_PREFIXES = ("tests/python/tutorials/", "tests/conformance/refs/", "tests/fuzz/corpus/")

PATH_RE = re.compile(r"(?<![\w./$@~-])((?:docs|tests)/[\w./*{},-]*[\w*}/])")
MD_RE = re.compile(r"(?<![\w./$@~-])([\w./-]*[\w-]\.md)\b")
SECTION_RE = re.compile(r"(?<![\w./$@~-])([\w./-]*\.md)[,:]?\s+(?:section\s+)?\"([^\"\n]{2,80})\"")
LINK_RE = re.compile(r"\[[^\]\n]*\]\(([^)\s]+)\)")
# a line break inside a comment, with the next line's comment marker
FOLD_RE = re.compile(r"\n[ \t]*(?:\*(?!/)|#|//)?[ \t]*")
PLACEHOLDER_RE = re.compile(r"^[A-Z][A-Z0-9_]*(?:[-.][\w.-]*)?$")


def source_files(root):
    for dirpath, dirnames, filenames in os.walk(root):
        rel_dir = os.path.relpath(dirpath, root)
        rel_dir = "" if rel_dir == "." else rel_dir + "/"
        dirnames[:] = sorted(d for d in dirnames
                             if d not in SKIP_DIRS and not d.startswith("build") and not d.startswith(".")
                             and not (rel_dir + d + "/").startswith(SKIP_PREFIXES))
        for f in sorted(filenames):
            rel = rel_dir + f
            if rel.startswith(SKIP_PREFIXES):
                continue
            if f.endswith((".c", ".h", ".def")):
                yield rel, "c"
            elif f.endswith(".py"):
                yield rel, "py"
            elif f in ("meson.build", "meson_options.txt"):
                yield rel, "meson"
            elif f.endswith(".md") and (rel == "README.md" or rel.startswith("docs/")):
                yield rel, "md"


def c_comments(text):
    """The text with everything but comments blanked (newlines kept, so line
    numbers stay right)."""
    out = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append(text[i:j])
            i = j
        elif text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(text[i:j])
            i = j
        elif c in "\"'":
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            out.append(re.sub(r"[^\n]", " ", text[i:j + 1]))
            i = j + 1
        else:
            out.append(c if c == "\n" else " ")
            i += 1
    return "".join(out)


def py_comments(text):
    """The comments and string literals of Python source, everything else
    blanked (newlines kept); the whole text if it does not tokenize."""
    import io
    import tokenize
    lines = text.split("\n")
    out = [re.sub(r"[^\n]", " ", line) for line in lines]
    out = [list(line) for line in out]
    try:
        for tok in tokenize.generate_tokens(io.StringIO(text).readline):
            if tok.type not in (tokenize.COMMENT, tokenize.STRING):
                continue
            (r0, c0), (r1, c1) = tok.start, tok.end
            for r in range(r0, r1 + 1):
                src = lines[r - 1]
                a = c0 if r == r0 else 0
                b = c1 if r == r1 else len(src)
                out[r - 1][a:b] = src[a:b]
    except (tokenize.TokenError, IndentationError, SyntaxError):
        return text
    return "\n".join("".join(line) for line in out)


def strip_md_code(text):
    """Markdown with its inline code spans blanked, so that link syntax inside
    them (`kernel[grid](...)`) is not taken for a link. Paths are looked for in
    the raw text, since they are usually written as `code`."""
    return re.sub(r"`[^`\n]*`", lambda m: " " * len(m.group(0)), text)


def slug(heading):
    """GitHub's anchor of a heading."""
    h = heading.strip().lower()
    h = re.sub(r"[^\w\- ]", "", h)
    return h.replace(" ", "-")


_headings = {}


def headings(path):
    """(heading texts without backticks, anchors) of a Markdown file."""
    if path not in _headings:
        texts, anchors, seen, fence = set(), set(), {}, False
        with open(path, encoding="utf-8") as f:
            for line in f:
                if line.startswith("```"):
                    fence = not fence
                    continue
                m = None if fence else re.match(r"^#{1,6}\s+(.*?)\s*#*\s*$", line)
                if not m:
                    continue
                t = m.group(1)
                texts.add(re.sub(r"\s+", " ", t.replace("`", "")).strip())
                s = slug(t)
                k = seen.get(s, 0)
                seen[s] = k + 1
                anchors.add(s if k == 0 else "%s-%d" % (s, k))
        _headings[path] = (texts, anchors)
    return _headings[path]


def exists(root, base_dir, p, placeholders=False):
    """p names something that exists, from the root or from base_dir; with
    placeholders, an upper-case component that does not exist stands for
    any name in its directory."""
    p = p.rstrip("/")
    for start in (root, os.path.join(root, base_dir)):
        full = os.path.normpath(os.path.join(start, p))
        if any(ch in p for ch in "*{"):
            import glob
            pat = re.sub(r"\{[^}]*\}", "*", full)
            if glob.glob(pat):
                return True
            continue
        parts = p.split("/")
        for k, part in enumerate(parts):
            if placeholders and PLACEHOLDER_RE.match(part) and not part.endswith(".md") and not os.path.exists(os.path.join(start, *parts[:k + 1])):
                # NAME.ir, CASE.cmd, NNNN-KERNEL: only the directory must exist
                full = os.path.normpath(os.path.join(start, *parts[:k])) if k else start
                break
        if os.path.exists(full):
            return True
    return False


def resolve_doc(root, base_dir, p):
    for start in (root, os.path.join(root, base_dir)):
        full = os.path.normpath(os.path.join(start, p))
        if os.path.isfile(full):
            return full
    return None


def check_file(root, rel, kind, problems):
    with open(os.path.join(root, rel), encoding="utf-8", errors="replace") as f:
        text = f.read()
    base_dir = os.path.dirname(rel)
    scan = c_comments(text) if kind == "c" else py_comments(text) if kind == "py" else \
        strip_md_code(text) if kind == "md" else text
    scan_paths = text if kind == "md" else scan         # paths written as `code` count

    def line_of(pos):
        return text.count("\n", 0, pos) + 1

    seen = set()

    def report(pos, what):
        key = (line_of(pos), what)
        if key not in seen:
            seen.add(key)
            problems.append("%s:%d: %s" % (rel, key[0], what))

    for m in PATH_RE.finditer(scan_paths):
        p = m.group(1).rstrip(".,")
        if not exists(root, "", p, placeholders=True):
            report(m.start(1), "no such file or directory: %s" % p)
    for m in MD_RE.finditer(scan_paths):
        p = m.group(1)
        if p.startswith(("docs/", "tests/")) or "://" in scan_paths[max(0, m.start(1) - 80):m.start(1) + 1]:
            continue                                      # checked above / a URL
        if kind == "md" and scan_paths[max(0, m.start(1) - 2):m.start(1)] == "](":
            continue                                      # a link: checked below
        if not exists(root, base_dir, p):
            report(m.start(1), "no such document: %s" % p)
    # a section cited after a document: a comment may wrap it over lines
    flat = FOLD_RE.sub(" ", scan_paths) if kind != "md" else scan_paths
    for m in SECTION_RE.finditer(flat):
        p, section = m.group(1), re.sub(r"\s+", " ", m.group(2)).strip()
        doc = resolve_doc(root, base_dir, p)
        if not doc:
            continue                                      # reported as a missing document
        texts, _ = headings(doc)
        if not any(t == section or t.startswith(section + " (") for t in texts):
            if kind == "md":
                report(m.start(2), "%s has no section \"%s\"" % (p, section))
            else:
                problems.append("%s:%d: %s has no section \"%s\"" % (rel, _flat_line(scan_paths, m.start(2)), p, section))
    if kind == "md":
        for m in LINK_RE.finditer(scan):
            target = m.group(1)
            if re.match(r"^[a-z]+:", target):
                continue                                  # http:, https:, mailto:
            path, _, anchor = target.partition("#")
            full = os.path.normpath(os.path.join(root, base_dir, path)) if path else os.path.join(root, rel)
            if not os.path.exists(full):
                report(m.start(1), "broken link: %s" % target)
                continue
            if anchor and full.endswith(".md"):
                _, anchors = headings(full)
                if anchor not in anchors:
                    report(m.start(1), "broken link: %s (no such heading in %s)" % (
                        target, os.path.relpath(full, root)))


def _flat_line(orig, pos):
    """The line of orig where position pos of flat (orig with some newlines
    and their comment markers folded into one space) lies."""
    i = j = 0                                             # i in orig, j in flat
    line = 1
    for m in FOLD_RE.finditer(orig):
        seg = m.start() - i
        if j + seg >= pos:
            return line
        j += seg + 1
        i = m.end()
        line += 1
    return line


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else os.environ.get("TRITIUM_SRCDIR") or \
        os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    root = os.path.abspath(root)
    problems = []
    n = 0
    for rel, kind in source_files(root):
        check_file(root, rel, kind, problems)
        n += 1
    for p in problems:
        print(p)
    if problems:
        print("check_doc_paths: %d missing paths, sections or links in %d files" % (len(problems), n))
        return 1
    print("check_doc_paths: every path, section and link named in %d files exists" % n)
    return 0


if __name__ == "__main__":
    sys.exit(main())
