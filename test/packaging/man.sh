#!/bin/sh
# The man pages: every page renders with groff -ww -z -man without a
# warning, every command has its page, and each command's options (from its
# getopt table: kfdsig completion options CMD) appear in it.
# Every section-1 page has NAME, SYNOPSIS, DESCRIPTION, OPTIONS, EXIT STATUS
# and EXAMPLES in that order (other sections may come between them).
# Every section-3 page has RETURN VALUE and ERRORS, and its parameter lists
# render as lists: no paragraph holds two '@name:' parameters run together.
# Every ERRORS entry names the errnos it means (or says the function does
# not fail): none says only that a call's errno is "passed through".
# Every public function (KFDSIG_API or static inline in include/kfdsig/)
# has a man3 page or link named after it; every link leads to a page; the
# page that names the function's header gives it a line in RETURN VALUE
# and in ERRORS.
# Usage: man.sh KFDSIG MANDIR [INCLUDEDIR] (the built pages: man1/*.1, man3/*.3)
set -u
k=$1
dir=$2
command -v groff >/dev/null || { echo "no groff (groff-base): skip"; exit 77; }
[ -d "$dir/man1" ] || { echo "no man pages built (scdoc missing?): skip"; exit 77; }
fail=0
# each page rendered as text once, for all the checks that read it
cache=$(mktemp -d) || exit 1
trap 'rm -rf "$cache"' EXIT
render() {
  [ -f "$cache/${1##*/}" ] || groff -man -Tascii -P-cbou "$1" >"$cache/${1##*/}" 2>/dev/null
  cat "$cache/${1##*/}"
}
for p in "$dir"/man1/*.1 "$dir"/man3/*.3; do
  [ -f "$p" ] || continue
  # link pages (.so) are checked through their target, which must be a page
  if head -n 1 "$p" | grep -q '^\.so '; then
    t=$dir/$(sed -n '1s/^\.so //p' "$p")
    { [ -f "$t" ] && ! head -n 1 "$t" | grep -q '^\.so '; } ||
      { echo "FAIL: $p links to $t, which is not a page"; fail=1; }
    continue
  fi
  w=$(groff -ww -z -man "$p" 2>&1)
  [ -z "$w" ] || { echo "FAIL: $p: $w"; fail=1; }
done
[ -f "$dir/man1/kfdsig.1" ] || { echo "FAIL: no kfdsig(1)"; fail=1; }
# scdoc markup that came out as text: a literal **bold** (scdoc's bold is
# *one* star; an escaped \*\* prints both)
for p in "$dir"/man1/*.1 "$dir"/man3/*.3; do
  if render "$p" | grep -qE '(^|[ (])\*\*[A-Za-z][^*]*\*\*'; then
    echo "FAIL: $(basename "$p"): a literal '**' in the rendered page"
    fail=1
  fi
done
want='NAME SYNOPSIS DESCRIPTION OPTIONS EXIT_STATUS EXAMPLES'
for p in "$dir"/man1/*.1; do
  head -n 1 "$p" | grep -q '^\.so ' && continue
  got=$(render "$p" | grep '^[A-Z][A-Z ]*[A-Z]$' | tr ' ' '_' |
    grep -x -e NAME -e SYNOPSIS -e DESCRIPTION -e OPTIONS -e EXIT_STATUS -e EXAMPLES | tr '\n' ' ')
  [ "$got" = "$want " ] ||
    { echo "FAIL: $(basename "$p"): sections '$got', want '$want' in that order"; fail=1; }
done
for p in "$dir"/man3/*.3; do
  [ -f "$p" ] || continue
  head -n 1 "$p" | grep -q '^\.so ' && continue
  text=$(render "$p")
  for sec in 'RETURN VALUE' 'ERRORS'; do
    printf '%s\n' "$text" | grep -qx "$sec" ||
      { echo "FAIL: $(basename "$p"): no $sec section"; fail=1; }
  done
  # each ERRORS entry names its errnos (or says the function does not
  # fail): "the errno of a failing call, passed through" names none
  vague=$(printf '%s\n' "$text" | awk '
    /^ERRORS$/ { on = 1; next }
    /^[A-Z][A-Z ]*[A-Z]$/ { on = 0 }
    !on { next }
    /^ +o   / { if (e != "") check(e); e = $0; next }
    { e = e " " $0 }
    END { if (e != "") check(e) }
    function check(s, t) {
      t = tolower(s)
      if (t ~ /pass(ed|es)? through|errno of a failing/ ||
          (s !~ /E[A-Z0-9][A-Z0-9]+/ && t !~ /none|not fail|cannot fail/))
        print substr(s, 1, 160)
    }')
  [ -z "$vague" ] ||
    { echo "FAIL: $(basename "$p"): an ERRORS entry that does not name its errnos: $vague"; fail=1; }
  runon=$(printf '%s\n' "$text" | awk 'BEGIN { RS = "" } { n = gsub(/@[A-Za-z_][A-Za-z0-9_]*:/, "&"); if (n > 1) print substr($0, 1, 120) }')
  [ -z "$runon" ] ||
    { echo "FAIL: $(basename "$p"): a parameter list run into one paragraph: $runon"; fail=1; }
done
for c in $("$k" completion commands); do
  p=$dir/man1/kfdsig-$c.1
  [ -f "$p" ] || { echo "FAIL: no page kfdsig-$c(1)"; fail=1; continue; }
  text=$(render "$p")
  for o in $("$k" completion options "$c"); do
    printf '%s\n' "$text" | grep -q -e "$o\([^a-z0-9-]\|$\)" ||
      { echo "FAIL: kfdsig-$c(1) does not document $o"; fail=1; }
  done
  "$k" "$c" --help | grep -q '^Exit status' ||
    { echo "FAIL: kfdsig $c --help has no exit status"; fail=1; }
  printf '%s\n' "$text" | grep -q '^EXIT STATUS' ||
    { echo "FAIL: kfdsig-$c(1) has no EXIT STATUS section"; fail=1; }
done
# the global options in kfdsig(1)
text=$(render "$dir/man1/kfdsig.1")
for o in --emulate --json --json-seq --pretty --quiet -j -p -q; do
  printf '%s\n' "$text" | grep -q -e "$o\([^a-z0-9-]\|$\)" || { echo "FAIL: kfdsig(1) lacks $o"; fail=1; }
done
if [ -n "${3:-}" ]; then
  # each public function of the header a page documents has its line in
  # the page's RETURN VALUE and in its ERRORS (hyphenation and line breaks
  # taken out before looking)
  for p in "$dir"/man3/*.3; do
    [ -f "$p" ] || continue
    head -n 1 "$p" | grep -q '^\.so ' && continue
    text=$(render "$p")
    for h in $(printf '%s\n' "$text" | tr -d ' \n-' | grep -o 'include/kfdsig/[a-z_]*\.h' | sort -u); do
      [ -f "$3/${h#include/}" ] || continue
      for sec in 'RETURN VALUE' 'ERRORS'; do
        body=$(printf '%s\n' "$text" |
          awk -v s="$sec" '$0 == s { on = 1; next } /^[A-Z][A-Z ]*[A-Z]$/ { on = 0 } on' |
          tr -d ' \n-')
        for fn in $(tr '\n' ' ' <"$3/${h#include/}" |
          grep -o '\(KFDSIG_API\|static inline\) [^;{(]*kfdsig_[a-z0-9_]*(' |
          grep -o 'kfdsig_[a-z0-9_]*($' | tr -d '('); do
          case $body in
          *"$fn()"*) ;;
          *) echo "FAIL: $(basename "$p"): $fn() has no line in $sec"; fail=1 ;;
          esac
        done
      done
    done
  done
  for fn in $(cat "$3"/kfdsig/*.h | tr '\n' ' ' |
    grep -o '\(KFDSIG_API\|static inline\) [^;{(]*kfdsig_[a-z0-9_]*(' | grep -o 'kfdsig_[a-z0-9_]*($' | tr -d '('); do
    [ -f "$dir/man3/$fn.3" ] || { echo "FAIL: no man3 page for $fn"; fail=1; }
  done
fi
[ $fail -eq 0 ] && echo "ok: man pages"
exit $fail
