#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Opcode coverage of the emulated shader unit over real code.

Disassembles every code object for gfx900, gfx90a and gfx1030 with LLVM 22's
llvm-objdump: those in the .hip_fatbin sections (clang offload bundles) of
Debian's ROCm libraries (--libs: librocsparse0, librocrand1, libhipsparse0,
libhiprand1, found with dpkg -L), of HIP programs built with hipcc (--hip
FILE.hip, when hipcc is installed), of any .so or executable given with
--so, and LLVM 22's output for LLVM IR files (--kernels FILE.ll, at -O0 and
-O3), and programs given with --so-opt FILE when they exist (our hipcc-built
library judges; a note names those absent). Each distinct instruction goes through the unit's own decoder and
opcode tables (the sqk_decode_words helper, --decoder): what they do not
take, the unit cannot execute. Prints, per target, the count of every
mnemonic the unit cannot execute (and writes it to --report FILE).

With --allow FILE (one mnemonic per line, '#' comments): exit 1 when an
unexecutable mnemonic is not in the list, naming each; mnemonics in the
list that no longer occur are named so the list can shrink. Exit 77 when
LLVM 22 or one of the libraries --libs names is absent.

With --cache DIR, the disassembly of each code object (keyed by its bytes'
SHA-256 and the llvm-objdump binary) and each hipcc build (keyed by the
source, the targets and hipcc) are kept in DIR, so a second run (the
sanitizer build's, say) only decodes: the decoder runs every time.

Usage: scripts/sq-coverage.py --decoder PATH [--llvm DIR] [--allow FILE]
       [--cache DIR] [--report FILE] [--targets gfx900,gfx90a,gfx1030] [--libs]
       [--so FILE]... [--so-opt FILE]... [--hip FILE.hip]... [--kernels FILE.ll]...
"""
import argparse, collections, concurrent.futures, hashlib, os, re, shutil, struct, subprocess
import sys
import tempfile

MAGIC = b"__CLANG_OFFLOAD_BUNDLE__"
LIBS = ["librocsparse0", "librocrand1", "libhipsparse0", "libhiprand1"]
GFXV = {"gfx900": 90000, "gfx90a": 90010, "gfx1030": 100300}
LINE = re.compile(r"^\t(\S+).*?// [0-9A-F]+: ((?:[0-9A-F]{8} ?)+)\s*$")


def skip(msg):
    print("SKIP: " + msg)
    sys.exit(77)


def fatbin_sections(llvm, path):
    out = subprocess.run([llvm + "/llvm-readelf", "-S", "-W", path], capture_output=True,
                         text=True).stdout
    for line in out.splitlines():
        if ".hip_fatbin" in line:
            f = line.split("]", 1)[1].split()
            yield int(f[3], 16), int(f[4], 16)


def bundles(llvm, path):
    """(target, code object bytes) of every clang offload bundle entry in
    the .hip_fatbin sections of @path (format: clang-offload-bundler)."""
    with open(path, "rb") as fh:
        for off, size in fatbin_sections(llvm, path):
            fh.seek(off)
            data = fh.read(size)
            p = 0
            while True:
                p = data.find(MAGIC, p)
                if p < 0:
                    break
                (n,) = struct.unpack_from("<Q", data, p + 24)
                q = p + 32
                for _ in range(n):
                    o, s, ts = struct.unpack_from("<QQQ", data, q)
                    q += 24
                    triple = data[q:q + ts].decode()
                    q += ts
                    if s:
                        yield triple, data[p + o:p + o + s]
                p = q


def target_of(triple):
    """gfx900 of hipv4-amdgcn-amd-amdhsa--gfx900:xnack-"""
    m = re.search(r"--(gfx[0-9a-f]+)", triple)
    return m.group(1) if m else None


def tool_id(path):
    """What identifies a tool's build for a cache key: its path, size and
    modification time."""
    st = os.stat(path)
    return "%s:%d:%d" % (os.path.realpath(path), st.st_size, st.st_mtime_ns)


def cache_put(path, data):
    """Write @data (bytes) to @path atomically: a reader never sees half."""
    tmp = "%s.%d.tmp" % (path, os.getpid())
    with open(tmp, "wb") as f:
        f.write(data)
    os.replace(tmp, path)


def disasm(llvm, path, cache=None):
    """Counter of (mnemonic, words) in the code object at @path; kept in
    @cache (a directory) under the object's and llvm-objdump's key."""
    objdump = llvm + "/llvm-objdump"
    key = None
    if cache:
        h = hashlib.sha256(tool_id(objdump).encode())
        with open(path, "rb") as f:
            h.update(f.read())
        key = os.path.join(cache, "dis-" + h.hexdigest())
        if os.path.isfile(key):
            c = collections.Counter()
            with open(key) as f:
                for line in f:
                    n, mn, words = line.rstrip("\n").split("\t")
                    c[(mn, words)] = int(n)
            return c
    c = collections.Counter()
    out = subprocess.run([objdump, "-d", "--section=.text", path], capture_output=True,
                         text=True)
    if out.returncode != 0:
        raise RuntimeError("llvm-objdump failed on %s: %s" % (path, out.stderr.strip()))
    for line in out.stdout.splitlines():
        m = LINE.match(line)
        if m:
            c[(m.group(1), m.group(2).strip())] += 1
    if key:
        cache_put(key, "".join("%d\t%s\t%s\n" % (n, mn, w)
                               for (mn, w), n in c.items()).encode())
    return c


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--decoder", required=True)
    ap.add_argument("--llvm", default="/usr/lib/llvm-22/bin")
    ap.add_argument("--allow")
    ap.add_argument("--report")
    ap.add_argument("--cache")
    ap.add_argument("--targets", default="gfx900,gfx90a,gfx1030")
    ap.add_argument("--libs", action="store_true")
    ap.add_argument("--so", action="append", default=[])
    ap.add_argument("--so-opt", action="append", default=[])
    ap.add_argument("--hip", action="append", default=[])
    ap.add_argument("--kernels", action="append", default=[])
    ap.add_argument("-j", type=int, default=2)
    a = ap.parse_args()
    targets = a.targets.split(",")
    if a.cache:
        os.makedirs(a.cache, exist_ok=True)
    for t in ("llvm-objdump", "llvm-readelf", "opt", "llc", "ld.lld"):
        if not os.access(os.path.join(a.llvm, t), os.X_OK):
            skip("no LLVM 22 in " + a.llvm)
    sources = []  # (label, path)
    if a.libs:
        for pkg in LIBS:
            r = subprocess.run(["dpkg", "-L", pkg], capture_output=True, text=True)
            sos = [l for l in r.stdout.splitlines() if re.search(r"\.so\.\d+$", l)]
            if r.returncode != 0 or not sos:
                skip(pkg + " is not installed")
            sources += [(pkg, s) for s in sos if os.path.isfile(s)]
    sources += [(os.path.basename(s), s) for s in a.so]
    for s in a.so_opt:
        if os.path.isfile(s):
            sources.append((os.path.basename(s), s))
        else:
            print("note: %s not built; not scanned" % s)
    tmp = tempfile.mkdtemp(prefix="kfdsig-sqcov-")
    try:
        cos = []  # (label, target, path)
        hipcc = shutil.which("hipcc")
        for h in a.hip:
            if not hipcc:
                print("note: no hipcc; %s not built" % h)
                continue
            exe = os.path.join(tmp, os.path.basename(h) + ".out")
            cmd = [hipcc] + ["--offload-arch=" + t for t in targets] + ["-O2", "-c", h, "-o", exe]
            key = None
            if a.cache:
                k = hashlib.sha256((tool_id(hipcc) + "\0" + " ".join(cmd[1:-2])).encode())
                with open(h, "rb") as f:
                    k.update(f.read())
                key = os.path.join(a.cache, "hip-" + k.hexdigest())
            if key and os.path.isfile(key):
                shutil.copyfile(key, exe)
            else:
                r = subprocess.run(cmd, capture_output=True, text=True)
                if r.returncode != 0:
                    print("hipcc failed on %s:\n%s" % (h, r.stderr))
                    return 1
                if key:
                    with open(exe, "rb") as f:
                        cache_put(key, f.read())
            sources.append((os.path.basename(h) + " (hipcc)", exe))
        n = 0
        for label, path in sources:
            for triple, blob in bundles(a.llvm, path):
                t = target_of(triple)
                if t in targets:
                    p = os.path.join(tmp, "co%d" % n)
                    n += 1
                    with open(p, "wb") as f:
                        f.write(blob)
                    cos.append((label, t, p))
        for ll in a.kernels:
            for t in targets:
                for o in (0, 3):
                    base = os.path.join(tmp, "k%d" % n)
                    n += 1
                    cmd = ("{l}/opt -O{o} -mtriple=amdgcn-amd-amdhsa -mcpu={t} '{ll}' -o {b}.bc && "
                           "{l}/llc -O{o} -mtriple=amdgcn-amd-amdhsa -mcpu={t} -filetype=obj "
                           "{b}.bc -o {b}.o && {l}/ld.lld -shared {b}.o -o {b}.co").format(
                               l=a.llvm, o=o, t=t, ll=ll, b=base)
                    if subprocess.run(cmd, shell=True).returncode != 0:
                        print("LLVM 22 failed on %s for %s" % (ll, t))
                        return 1
                    cos.append((os.path.basename(ll) + " (LLVM 22 -O%d)" % o, t, base + ".co"))
        if not cos:
            print("no code objects for %s" % a.targets)
            return 1
        per = {t: collections.Counter() for t in targets}
        where = collections.defaultdict(set)  # (target, mnemonic) -> labels
        with concurrent.futures.ThreadPoolExecutor(a.j) as ex:
            for (label, t, p), c in zip(cos, ex.map(lambda x: disasm(a.llvm, x[2], a.cache), cos)):
                per[t].update(c)
                for (mn, _) in c:
                    where[(t, mn)].add(label)
        # the unit's decoder on each distinct instruction
        bad = {t: collections.Counter() for t in targets}
        total = {}
        for t in targets:
            keys = list(per[t])
            total[t] = sum(per[t].values())
            inp = "".join("%d %s\n" % (GFXV[t], w) for (_, w) in keys)
            r = subprocess.run([a.decoder], input=inp, capture_output=True, text=True)
            res = r.stdout.splitlines()
            if r.returncode != 0 or len(res) != len(keys):
                print("decoder failed (%d)" % r.returncode)
                return 1
            for k, v in zip(keys, res):
                if v != "ok":
                    bad[t][k[0]] += per[t][k]
        lines = []
        for t in targets:
            b = bad[t]
            lines.append("== %s: %d instructions in %d code objects, %d the unit cannot execute "
                         "(%d mnemonics)" % (t, total[t], sum(1 for c in cos if c[1] == t),
                                             sum(b.values()), len(b)))
            for mn, cnt in sorted(b.items(), key=lambda x: (-x[1], x[0])):
                lines.append("%9d  %-32s %s" % (cnt, mn, ", ".join(sorted(where[(t, mn)]))))
        text = "\n".join(lines) + "\n"
        sys.stdout.write(text)
        if a.report:
            with open(a.report, "w") as f:
                f.write(text)
        rc = 0
        if a.allow:
            allow = set()
            for line in open(a.allow):
                line = line.split("#", 1)[0].strip()
                if line:
                    allow.add(line)
            seen = set(mn for t in targets for mn in bad[t])
            new = sorted(seen - allow)
            for mn in new:
                print("NOT EXECUTABLE and not in %s: %s (%s)" % (
                    os.path.basename(a.allow), mn,
                    ", ".join("%s %d" % (t, bad[t][mn]) for t in targets if bad[t][mn])))
            gone = sorted(allow - seen)
            if gone:
                print("note: executable now, remove from the allowlist: " + " ".join(gone))
            rc = 1 if new else 0
        return rc
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
