# Shared by the run-*.sh scripts of test/clients, which source it after
# setting $kfdsig: `. "$(dirname "$0")/client-lib.sh"`.
#
# client_need PROG CMD SECONDS: exit 77 (skip) when PROG, a program of ours
# built by hipcc, is not there ("" when the script runs none) or this
# kfdsig has no command CMD; set $to, the timeout(1) prefix of SECONDS.
# bad MESSAGE: print a failure and remember it in $fail (the exit status).
fail=0
bad() {
	echo "FAIL: $*"
	fail=1
}
client_need() {
	if [ -n "$1" ] && [ ! -x "$1" ]; then
		echo "SKIP: $(basename "$1") not built: hipcc not installed"
		exit 77
	fi
	"$kfdsig" "$2" --help >/dev/null 2>&1 || {
		echo "SKIP: this kfdsig has no '$2'"
		exit 77
	}
	to=
	if command -v timeout >/dev/null; then to="timeout $3"; fi
}
