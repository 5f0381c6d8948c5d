#!/bin/sh
# kfdsig smi's timestamps: the text prefix HH:MM:SS.mmm is the local time
# (TZ honoured) the event was read at, the JSON "time" is seconds since the
# epoch with milliseconds, both between the run's start and end; --no-time
# drops both. The event comes from the emulated KFD's smi= injection (raised
# when smi enables it). Usage: smi-time.sh KFDSIG
set -u
k=$1
fail=0
bad() { echo "FAIL: $*"; fail=1; }
spec=gfx90a,smi=thermal_throttle
# A zone no machine runs in, written in POSIX form (no tzdata needed): a
# stamp in UTC or in the machine's zone cannot pass by chance.
export TZ=KST-5:47
secs() { # HH:MM:SS.mmm -> milliseconds of the day
	echo "$1" | awk -F'[:.]' '{ print (($1 * 60 + $2) * 60 + $3) * 1000 + $4 }'
}

t0=$(date +%H:%M:%S.%3N)
out=$("$k" smi --emulate "$spec" -c 1 -T 5000)
st=$?
t1=$(date +%H:%M:%S.%3N)
[ $st -eq 0 ] || bad "smi exited $st"
echo "$out" | grep -Eq '^[0-2][0-9]:[0-5][0-9]:[0-6][0-9]\.[0-9]{3} 0x[0-9a-f]{4,} thermal_throttle bitmask=0x1 counter=1$' ||
	bad "text line without an HH:MM:SS.mmm prefix: $out"
stamp=$(echo "$out" | cut -d' ' -f1)
a=$(secs "$t0"); b=$(secs "$t1"); s=$(secs "$stamp")
if [ "$b" -ge "$a" ]; then # (a run across midnight is not checked)
	[ "$s" -ge "$a" ] && [ "$s" -le "$b" ] ||
		bad "stamp $stamp is not the local time ($TZ) of the run ($t0 .. $t1)"
fi

e0=$(date +%s.%3N)
out=$("$k" smi --emulate "$spec" -c 1 -T 5000 --json)
e1=$(date +%s.%3N)
echo "$out" | grep -Eq '^\{"time": [0-9]+\.[0-9]{3}, "gpu_id": [0-9]+, "type": 2, "event": "thermal_throttle",' ||
	bad "JSON record without a leading \"time\" in seconds.milliseconds: $out"
t=$(echo "$out" | sed -n 's/^{"time": \([0-9.]*\),.*/\1/p')
awk -v a="$e0" -v b="$e1" -v t="$t" 'BEGIN { exit !(t >= a && t <= b) }' ||
	bad "JSON time $t is not the epoch time of the run ($e0 .. $e1)"

# --no-time: neither
out=$("$k" smi --emulate "$spec" -c 1 -T 5000 --no-time)
echo "$out" | grep -Eq '^0x[0-9a-f]{4,} thermal_throttle ' || bad "--no-time kept a prefix: $out"
out=$("$k" smi --emulate "$spec" -c 1 -T 5000 --no-time -j)
case $out in *'"time"'*) bad "--no-time kept \"time\": $out" ;; esac

[ $fail -eq 0 ] && echo "ok: smi timestamps"
exit $fail
