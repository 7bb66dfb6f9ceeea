#!/usr/bin/env bash
# An interactive Octave session that calls msad_eval on an endless loop (spin.m), receives SIGINT
# (Ctrl-C) while the call runs, then calls msad_eval again and prints "after: f J". Prints the
# session's output; exits with Octave's status (0 once both calls ran).
set -u
root=$(cd "$(dirname "$0")/../../.." && pwd)
out=$(mktemp)
trap 'rm -f "$out"' EXIT
{
    echo "addpath('$root/matlab', '$root/tests/octave/fixtures');"
    echo "disp('spinning'); msad_eval(@(x) spin(x, Inf), 1)"
    # Holds the next command back until the interrupt has come.
    sleep 8
    echo "[f, J] = msad_eval(@(x) spin(x, 3), 1); printf('after: %g %g\n', f, J);"
    echo "exit(0)"
} | timeout 60 octave-cli --norc --no-gui -i -q >"$out" 2>&1 &
session=$!
for _ in $(seq 50); do
    grep -q spinning "$out" && break
    sleep 0.2
done
sleep 1
# timeout passes the signal on to Octave.
kill -INT "$session"
wait "$session"
status=$?
cat "$out"
exit $status
