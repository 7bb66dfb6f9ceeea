#!/usr/bin/env bash
# The whole test suite: the Rust tests, the MATLAB flavour's imports, then the Octave tests
# (tests/octave/run_all.m), after the hygiene checks (cargo fmt --check, cargo clippy -D warnings).
# Prints "hygiene: ...", "rust: N passed, N failed", "matlab: ...", the Octave runner's
# "octave: N passed, N failed", and last "total: N passed, N failed" (hygiene and the MATLAB check
# count as one each).
# Exits non-zero when anything failed.
set -uo pipefail
cd "$(dirname "$0")/.."

hygiene_status=0
if ! cargo fmt --check >/dev/null; then
    echo "hygiene: FAIL cargo fmt --check (run cargo fmt)"
    hygiene_status=1
elif ! cargo clippy --release --all-targets --quiet -- -D warnings; then
    echo "hygiene: FAIL cargo clippy --all-targets -- -D warnings"
    hygiene_status=1
else
    echo "hygiene: cargo fmt and cargo clippy clean"
fi

rust_log=$(mktemp)
octave_log=$(mktemp)
trap 'rm -f "$rust_log" "$octave_log"' EXIT
cargo test --release 2>&1 | tee "$rust_log"
rust_status=${PIPESTATUS[0]}
read -r passed failed < <(awk '/^test result:/ { p += $4; f += $6 } END { print p + 0, f + 0 }' "$rust_log")
# A build failure runs no test at all: count it as one failure.
if ((rust_status != 0 && failed == 0)); then failed=1; fi
echo "rust: $passed passed, $failed failed"

# Octave loads the matlab flavour too (it uses no Octave internals): a value, a Jacobian through
# a handle to a builtin and a Hessian, against hand-derived ones.
matlab_flavour_runs_in_octave() {
    local folder
    folder=$(mktemp -d)
    cp "${CARGO_TARGET_DIR:-target}/matlab/release/libmsad.so" "$folder/msad_eval.mex"
    local output
    output=$(bash scripts/octave.sh --eval "addpath('$folder');
        [y, J] = msad_eval(@(x) [x(1)^2 * x(2); sin(x(2))], [3; 0.5]);
        assert(norm(J - [3, 9; 0, cos(0.5)]) < 1e-14);
        [~, J] = msad_eval(@sin, [1; 2]);
        assert(norm(J - diag(cos([1; 2]))) < 1e-14);
        [~, g, H] = msad_eval(@(x) sum(x.^3), [1; 2]);
        assert(isequal(g, [3; 12]) && isequal(full(H), diag([6 12])));
        disp('matlab flavour: derivatives right')")
    rm -rf "$folder"
    [[ $output == *'matlab flavour: derivatives right'* ]]
}

# The matlab flavour imports only MATLAB's documented MEX/MX API; the Octave build, which uses
# Octave's internals, must fail the same check (or the check checks nothing).
matlab_status=0
if ! make -s matlab; then
    echo "matlab: FAIL the --features matlab build or its symbol check"
    matlab_status=1
elif bash scripts/check_matlab_symbols.sh "${CARGO_TARGET_DIR:-target}/release/libmsad.so" >/dev/null 2>&1; then
    echo "matlab: FAIL scripts/check_matlab_symbols.sh accepts the Octave build"
    matlab_status=1
elif ! matlab_flavour_runs_in_octave; then
    echo "matlab: FAIL the matlab flavour, loaded into Octave, gave wrong derivatives"
    matlab_status=1
else
    echo "matlab: symbol check passed; the flavour, loaded into Octave, differentiates correctly"
fi

if [[ -f tests/octave/run_all.m ]]; then
    bash scripts/octave.sh tests/octave/run_all.m 2>&1 | tee "$octave_log"
    octave_status=${PIPESTATUS[0]}
else
    echo "octave: 0 passed, 1 failed (tests/octave/run_all.m is missing)" | tee "$octave_log"
    octave_status=1
fi
read -r octave_passed octave_failed < <(awk '/^octave: [0-9]+ passed, [0-9]+ failed/ { p = $2; f = $4 } END { print p + 0, f + 0 }' "$octave_log")
# A runner that died before its summary counts as one failure.
if ((octave_status != 0 && octave_failed == 0)); then octave_failed=1; fi
checks_passed=$(((hygiene_status == 0) + (matlab_status == 0)))
echo "total: $((passed + octave_passed + checks_passed)) passed, $((failed + octave_failed + hygiene_status + matlab_status)) failed"
exit $((hygiene_status != 0 || rust_status != 0 || matlab_status != 0 || octave_status != 0))
