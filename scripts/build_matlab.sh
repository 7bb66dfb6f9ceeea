#!/usr/bin/env bash
# `make matlab`: builds the --features matlab flavour in its own target folder, checks its imports
# against MATLAB's documented MEX/MX API, and installs it as matlab/msad_eval.mexa64 only when it
# was compiled against MATLAB's own headers ($MATLAB_ROOT): MATLAB maps the API to versioned
# symbols (mxCreateNumericArray_730) that Octave's mex.h does not.
set -euo pipefail
cd "$(dirname "$0")/.."
main_dir=${CARGO_TARGET_DIR:-target}
matlab_dir=$main_dir/matlab

# A first build starts from the Octave build's compiled dependencies (file times kept, so cargo
# finds them fresh) instead of compiling them all again: only msad itself is compiled.
if [[ ! -d $matlab_dir/release/deps && -d $main_dir/release/deps ]]; then
    for part in deps build .fingerprint; do
        mkdir -p "$matlab_dir/release/$part"
        find "$main_dir/release/$part" -mindepth 1 -maxdepth 1 ! -name '*msad*' -exec cp -a {} "$matlab_dir/release/$part/" \;
    done
fi

CARGO_TARGET_DIR=$matlab_dir cargo build --release --lib --features matlab
bash scripts/check_matlab_symbols.sh "$matlab_dir/release/libmsad.so"
if [[ -n ${MATLAB_ROOT:-} ]]; then
    # msad_apply: the same library under the name @fmad calls.
    for mex in msad_eval msad_apply; do
        cp "$matlab_dir/release/libmsad.so" "matlab/$mex.mexa64.tmp"
        mv -f "matlab/$mex.mexa64.tmp" "matlab/$mex.mexa64"
    done
else
    echo "matlab: compiled against Octave's mex.h (MATLAB_ROOT unset): checked, not installed as msad_eval.mexa64"
fi
