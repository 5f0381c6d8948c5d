#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Check the layout of the CLI golden cases (ctest cli_cases).

test/cli/<command>/<case>.args is a case; <case>.out (required), .err and
.exit (optional) are its expectations (run-case.sh). Fails on:
  - an expectation (.out/.err/.exit) whose .args is missing (orphaned), or
    a .args without its .out;
  - any other file in a command folder, or a name outside [A-Za-z0-9._-];
  - a file at the top of test/cli other than run-case.sh, this script and
    the data/ folder of inputs;
  - a case whose arguments run another command than its folder names
    (main/ holds the global options and the dispatch: any command);
  - an .exit that is not one number;
  - a case that expects an event to complete (COMPLETE in its .out) with a
    --timeout/-T below 5000 ms: a loaded machine may take longer, and the
    wait returns as soon as the event is signalled anyway.

Usage: check-cases.py TEST_CLI_DIR
"""
import os
import re
import shlex
import sys

TOP_FILES = {"run-case.sh", "check-cases.py"}
TOP_DIRS = {"data"}
EXPECT = (".out", ".err", ".exit")
NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]*$")
# Least timeout of a case whose outcome is COMPLETE.
MIN_COMPLETE_MS = 5000
# Global options that take a value (kfdsig --help).
VALUED = {"--emulate"}


def command_of(args, commands):
    """The command the arguments run (prefixes resolved), or None."""
    words = shlex.split(args)
    i = 0
    while i < len(words):
        w = words[i]
        if w == "--":
            i += 1
            break
        if w in VALUED:
            i += 2
            continue
        if w.startswith("-"):
            i += 1
            continue
        break
    if i >= len(words):
        return None
    w = words[i]
    if w in commands:
        return w
    match = [c for c in commands if c.startswith(w)]
    return match[0] if len(match) == 1 else w


def main():
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    root = sys.argv[1]
    errors = []
    folders = []
    for e in sorted(os.listdir(root)):
        p = os.path.join(root, e)
        if os.path.isdir(p):
            if e not in TOP_DIRS:
                folders.append(e)
        elif e not in TOP_FILES:
            errors.append(f"{e}: stray file at the top of test/cli (cases go in <command>/)")
    commands = [f for f in folders if f != "main"]
    ncases = 0
    for d in folders:
        files = sorted(os.listdir(os.path.join(root, d)))
        cases = {f[: -len(".args")] for f in files if f.endswith(".args")}
        for f in files:
            rel = f"{d}/{f}"
            if not NAME.match(f):
                errors.append(f"{rel}: file name outside [A-Za-z0-9._-]")
                continue
            base, ext = os.path.splitext(f)
            if os.path.isdir(os.path.join(root, d, f)):
                errors.append(f"{rel}: a folder inside a command folder")
            elif ext == ".args":
                continue
            elif ext not in EXPECT:
                errors.append(f"{rel}: not a case file (.args {' '.join(EXPECT)})")
            elif base not in cases:
                errors.append(f"{rel}: orphaned expectation: no {d}/{base}.args")
            elif ext == ".exit":
                with open(os.path.join(root, d, f)) as fh:
                    if not re.fullmatch(r"\d+\n?", fh.read()):
                        errors.append(f"{rel}: not one exit status")
        for c in sorted(cases):
            ncases += 1
            if f"{c}.out" not in files:
                errors.append(f"{d}/{c}.args: no {c}.out (expected stdout)")
            if d == "main":
                continue
            with open(os.path.join(root, d, c + ".args"), errors="surrogateescape") as fh:
                args = fh.read()
            out = os.path.join(root, d, c + ".out")
            if os.path.exists(out):
                with open(out, errors="replace") as fh:
                    complete = "COMPLETE" in fh.read()
                words = shlex.split(args)
                for i, w in enumerate(words[:-1]):
                    if (complete and w in ("--timeout", "-T") and words[i + 1].isdigit()
                            and int(words[i + 1]) < MIN_COMPLETE_MS):
                        errors.append(f"{d}/{c}.args: --timeout {words[i + 1]} for a COMPLETE "
                                      f"outcome depends on the scheduler (at least "
                                      f"{MIN_COMPLETE_MS})")
            cmd = command_of(args, commands)
            if cmd != d:
                errors.append(f"{d}/{c}.args runs '{cmd}', not '{d}': move it to its command's folder")
    for e in errors:
        print(f"cli_cases: {e}")
    if errors:
        return 1
    print(f"cli_cases: {ncases} cases in {len(folders)} folders")
    return 0


if __name__ == "__main__":
    sys.exit(main())
