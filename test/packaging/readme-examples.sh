#!/bin/sh
# Every `$ kfdsig ...` example of README.md, run as written: each in a fresh
# temporary directory with the built kfdsig first in PATH, its output
# compared with the lines the README shows under it.
#   An example is the `$ ` line of an indented block and its continuation
#   lines (a line ending in `\` or `|` goes on on the next one); the shown
#   output is the indented lines after it, up to the next `$ ` line or the
#   end of the block. An example that runs another program (`-- PROGRAM`)
#   needs what this test cannot have and is skipped, by name.
#   Comparison, line by line over the whole stdout: exact, except that
#   `...` in a shown line stands for any text (the README elides long field
#   lists) and a duration (a number before ` ms`, with the spaces that pad
#   its column) matches any number.
#   Exit status 0, or 1 when the shown output reports a failure: an
#   error-level finding (`error[`, what --lint exits 1 on) or a signal's
#   `TIMEOUT`. With no shown output, exit 0 only.
# Usage: readme-examples.sh KFDSIG README
set -u
k=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
readme=$(cd "$(dirname "$2")" && pwd)/$(basename "$2")
command -v python3 >/dev/null || { echo "no python3: skip"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/bin"
ln -s "$k" "$tmp/bin/kfdsig"
PATH="$tmp/bin:$PATH" python3 - "$readme" "$tmp" <<'PY'
import os
import re
import subprocess
import sys
import tempfile

readme, tmp = sys.argv[1], sys.argv[2]
lines = open(readme, encoding="utf-8").read().split("\n")
examples = []
i = 0
while i < len(lines):
    if not lines[i].startswith("    $ kfdsig "):
        i += 1
        continue
    cmd = [lines[i][6:]]
    while cmd[-1].rstrip().endswith(("\\", "|")) and i + 1 < len(lines):
        i += 1
        cmd.append(lines[i].strip())
    i += 1
    shown = []
    while i < len(lines) and lines[i].startswith("    ") and not lines[i].startswith("    $ "):
        shown.append(lines[i][4:])
        i += 1
    examples.append(("\n".join(cmd), shown))

def pattern(line):
    parts = [re.escape(p) for p in line.split("...")]
    p = ".*".join(parts)
    # a duration: any number before " ms"
    p = re.sub(r"(?:\\ )*[0-9]+\\\.[0-9]+\\ ms", lambda m: r" *[0-9]+\.[0-9]+ ms", p)
    return re.compile(p + r"\Z")

fail = ran = 0
for cmd, shown in examples:
    if re.search(r"(^|\s)--\s+\S", cmd):
        print("skip (runs another program): " + cmd.split("\n")[0])
        continue
    ran += 1
    work = tempfile.mkdtemp(dir=tmp)
    r = subprocess.run(["sh", "-c", cmd], cwd=work, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, stdin=subprocess.DEVNULL, timeout=300)
    out = r.stdout.decode("utf-8", "replace").split("\n")
    if out and out[-1] == "":
        out.pop()
    want = 1 if any("error[" in s or ": TIMEOUT," in s for s in shown) else 0
    bad = []
    if r.returncode != want:
        bad.append("exit status %d, expected %d" % (r.returncode, want))
    if shown:
        if len(out) != len(shown):
            bad.append("%d lines of output, the README shows %d" % (len(out), len(shown)))
        for n, (s, o) in enumerate(zip(shown, out)):
            if not pattern(s).match(o):
                bad.append("line %d:\n  README: %s\n  output: %s" % (n + 1, s, o))
    if bad:
        fail += 1
        print("FAIL: " + cmd)
        for b in bad:
            print("  " + b)
        print("  --- stdout:\n" + r.stdout.decode("utf-8", "replace"))
        print("  --- stderr:\n" + r.stderr.decode("utf-8", "replace"))
    else:
        print("ok: " + cmd.split("\n")[0])
if ran == 0:
    print("README: no kfdsig example found")
    sys.exit(1)
print("README examples: %d run as written, %d differ" % (ran, fail))
sys.exit(1 if fail else 0)
PY
