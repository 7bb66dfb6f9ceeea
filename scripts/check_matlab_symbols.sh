#!/usr/bin/env bash
# Checks that a MEX library imports from its host only MATLAB's documented MEX/MX API
# (scripts/matlab_mex_api.txt): every undefined dynamic symbol is either in that list, versioned
# (glibc, libstdc++, libgcc: the system's) or weak. Prints the offending symbols and exits 1.
#   scripts/check_matlab_symbols.sh target/matlab/release/libmsad.so
set -euo pipefail
library=$1
api=$(dirname "$0")/matlab_mex_api.txt
nm -D --defined-only "$library" | grep -q ' mexFunction$' || { echo "$library: no mexFunction" >&2; exit 1; }
undocumented=$(nm -D --undefined-only "$library" |
    awk '$1 == "U" && $2 !~ /@/ { print $2 }' |
    grep -vxF -f <(grep -v '^#' "$api") || true)
if [[ -n $undocumented ]]; then
    echo "$library imports host symbols outside MATLAB's documented MEX/MX API:" >&2
    echo "$undocumented" >&2
    exit 1
fi
echo "$library: $(nm -D --undefined-only "$library" | grep -c ' U m[ex]x\?[A-Z]') host symbols, all in MATLAB's documented API"
