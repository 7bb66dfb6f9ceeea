#!/usr/bin/env bash
# Installs what building and testing msad needs when it is missing: make, a C++ compiler, Octave
# with its development files (mex.h, mkoctfile), libclang (for bindgen) and a Rust toolchain.
# Idempotent and quick when everything is there. Installs with apt-get when run as root; otherwise
# says what to install.
set -euo pipefail

have() { command -v "$1" >/dev/null 2>&1; }

missing=()
have make || missing+=(make)
have c++ || missing+=(g++)
have octave-cli || missing+=(octave)
have mkoctfile || missing+=(octave-dev)
# bindgen loads libclang at build time. (No grep -q: with pipefail, ldconfig's SIGPIPE would count.)
ldconfig -p 2>/dev/null | grep 'libclang[-.0-9]*\.so' >/dev/null || missing+=(libclang-dev)
need_rust=false
if ! have cargo && [[ ! -x "$HOME/.cargo/bin/cargo" ]]; then
    need_rust=true
    have curl || missing+=(curl ca-certificates)
fi

if ((${#missing[@]} > 0)); then
    if [[ $EUID -eq 0 ]] && have apt-get; then
        echo "setup: installing ${missing[*]}"
        export DEBIAN_FRONTEND=noninteractive
        apt-get update -q
        apt-get install -y -q --no-install-recommends "${missing[@]}"
    else
        echo "setup: missing ${missing[*]}; install them (Debian/Ubuntu: sudo apt-get install ${missing[*]})" >&2
        exit 1
    fi
fi

# Optional: Octave's optim package (lsqnonlin, lsqcurvefit), for its examples and tests; installed
# only when run as root with apt-get, else those tests say they skipped it.
if [[ $EUID -eq 0 ]] && have apt-get && ! dpkg -s octave-optim >/dev/null 2>&1; then
    echo "setup: installing octave-optim"
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends octave-optim ||
        echo "setup: octave-optim could not be installed: the lsqnonlin tests will be skipped" >&2
fi

if $need_rust; then
    echo "setup: installing the Rust toolchain with rustup"
    curl --proto '=https' --tlsv1.2 -sSf https://sh.rustup.rs | sh -s -- -y --profile minimal --component clippy,rustfmt
elif command -v rustup >/dev/null; then
    # make test checks formatting and lints: a toolchain without them gets them where it can.
    rustup component add clippy rustfmt >/dev/null 2>&1 || true
fi
