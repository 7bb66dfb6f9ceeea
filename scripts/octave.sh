#!/usr/bin/env bash
# Runs octave-cli without user settings and keeps its exit code, but drops the line
#   error: ignoring const execution_exception& while preparing to exit
# that Octave 7 prints when it exits, whether the run failed or not. Both of Octave's streams go
# to stdout through one pipe, so they stay in the order Octave wrote them.
set -uo pipefail
octave-cli --norc --no-gui "$@" 2>&1 |
    { grep -v 'ignoring const execution_exception& while preparing to exit' || true; }
