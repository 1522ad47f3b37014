"""Every libdevice function with a rounding mode (_rn, _rz, _rd, _ru) in the
PTX of `tritium ptx`: the instruction that does its rounding must carry that
mode. The expected instruction comes from the PTX ISA (cvt, add, sub, mul,
div, fma, rcp, sqrt with .rn/.rz/.rm/.rp; float -> int with .rni/.rzi/.rmi/
.rpi), written out here, not from tritium's op table. LLVM 19 emits libdevice's
int -> float _rz conversions as cvt.rn (issue 8): those six fail without the
cvt forms of include/tritium/ops_math.def. No GPU needed.

usage: ptx_rounding.py TRITIUM"""
import os
import re
import subprocess
import sys
import tempfile

MODE = {"rn": "rn", "rz": "rz", "rd": "rm", "ru": "rp"}
CTYPE = {"int": "i32", "uint": "u32", "ll": "i64", "ull": "u64", "float": "f32", "double": "f64"}
PTXT = {"i32": "s32", "u32": "u32", "i64": "s64", "u64": "u64", "f32": "f32", "f64": "f64"}
MODES = ("rn", "rz", "rd", "ru")


def cases():
    """(libdevice name, operand dtypes, result dtype, expected PTX instruction)"""
    out = []
    for src in ("int", "uint", "ll", "ull"):          # int -> float
        for dst in ("float", "double"):
            # int2double and uint2double are exact: libdevice has only _rn
            for m in ("rn",) if dst == "double" and src in ("int", "uint") else MODES:
                a, r = CTYPE[src], CTYPE[dst]
                out.append(("%s2%s_%s" % (src, dst, m), [a], r, "cvt.%s.%s.%s" % (MODE[m], PTXT[r], PTXT[a])))
    for src in ("float", "double"):                  # float -> int
        for dst in ("int", "uint", "ll", "ull"):
            for m in MODES:
                a, r = CTYPE[src], CTYPE[dst]
                out.append(("%s2%s_%s" % (src, dst, m), [a], r, "cvt.%si.%s.%s" % (MODE[m], PTXT[r], PTXT[a])))
    for m in MODES:                                  # double -> float
        out.append(("double2float_%s" % m, ["f64"], "f32", "cvt.%s.f32.f64" % MODE[m]))
    for op, n in (("add", 2), ("sub", 2), ("mul", 2), ("div", 2), ("fma", 3), ("rcp", 1), ("sqrt", 1)):
        for t in ("f32", "f64"):
            for m in MODES:
                out.append(("%s_%s" % (op, m), [t] * n, t, "%s.%s.%s" % (op, MODE[m], t)))
    return out


def libdevice_names():
    """The rounding-mode functions of the installed Triton's libdevice.py (None without Triton)."""
    import importlib.util
    spec = importlib.util.find_spec("triton")
    if not spec or not spec.submodule_search_locations:
        return None
    path = os.path.join(spec.submodule_search_locations[0], "language", "extra", "cuda", "libdevice.py")
    if not os.path.exists(path):
        return None
    return set(re.findall(r"^def ([a-z0-9_]+_r[nzdu])\(", open(path).read(), re.M))


def main():
    exe = os.path.abspath(sys.argv[1])
    cs = cases()
    names = libdevice_names()
    if names is not None:
        # rsqrt_rn is a libdevice sequence (rsqrt.approx + Newton step), no single instruction
        missing = names - {c[0] for c in cs} - {"rsqrt_rn"}
        if missing:
            print("FAIL  not covered here: %s" % ", ".join(sorted(missing)))
            return 1
    tmp = tempfile.mkdtemp(prefix="tritium_ptx_round_")
    src = ["import triton", "import triton.language as tl", "from triton.language.extra.cuda import libdevice", ""]
    for i, (name, args, res, _) in enumerate(cs):
        ps = "".join("A%d, " % k for k in range(len(args)))
        loads = ", ".join("tl.load(A%d + offs)" % k for k in range(len(args)))
        src += ["@triton.jit", "def k%d(%sOut, BLOCK: tl.constexpr):" % (i, ps), "    offs = tl.arange(0, BLOCK)",
                "    tl.store(Out + offs, libdevice.%s(%s))" % (name, loads), ""]
    kfile = os.path.join(tmp, "rounding.py")
    with open(kfile, "w") as f:
        f.write("\n".join(src))
    env = dict(os.environ, TRITIUM_CACHE_DIR=os.path.join(tmp, "cache"))
    fails = 0
    for i, (name, args, res, want) in enumerate(cs):
        cmd = [exe, "ptx", kfile, "--kernel", "k%d" % i, "--grid", "1"]
        for k, t in enumerate(args):
            cmd += ["--arg", "A%d=zeros:%s[64]" % (k, t)]
        cmd += ["--arg", "Out=empty:%s[64]" % res, "--const", "BLOCK=64"]
        p = subprocess.run(cmd, capture_output=True, text=True, env=env)
        if p.returncode:
            fails += 1
            print("FAIL  %s: tritium ptx exit %d\n%s" % (name, p.returncode, p.stderr[-800:]))
            continue
        # the instructions of the family (cvt.*, add.*, ...) that round: exactly the one wanted
        fam = want.split(".")[0]
        got = sorted(set(i for i in re.findall(r"^\s*(%s\.[a-z0-9.]+)\s" % fam, p.stdout, re.M)
                         if re.search(r"\.(rni?|rzi?|rmi?|rpi?|approx)\.", i)))
        if got != [want]:
            fails += 1
            print("FAIL  %-16s want %-16s got %s" % (name, want, " ".join(got) or "(none)"))
    print("%d libdevice rounding-mode functions, %d with the wrong rounding in the PTX" % (len(cs), fails))
    return min(fails, 99)


if __name__ == "__main__":
    sys.exit(main())
