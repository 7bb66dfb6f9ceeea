#!/usr/bin/env bash
# Builds the Octave package msad-<version>.tar.gz in the repository root (or in $1): DESCRIPTION,
# INDEX, COPYING and the licences, the .m files of matlab/ in inst/, and the Rust crate in src/
# with package/Makefile, which builds msad_eval.mex with cargo during `pkg install`.
# File times are kept (cp -p, tar), so cargo, given the same CARGO_TARGET_DIR, finds an up-to-date
# build of the same sources fresh instead of compiling again.
set -euo pipefail
cd "$(dirname "$0")/.."
out_dir=${1:-$PWD}

version=$(sed -n 's/^version = "\(.*\)"$/\1/p' Cargo.toml | head -n 1)
name=msad-$version
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
root=$stage/$name
mkdir -p "$root/inst" "$root/src"

sed -e "s/@VERSION@/$version/" -e "s/@DATE@/$(date -u +%Y-%m-%d)/" package/DESCRIPTION.in >"$root/DESCRIPTION"
cp -p package/INDEX package/COPYING LICENSE-MIT LICENSE-APACHE "$root/"

# The .m files (with private/ and @fmad/), not the built MEX files nor the examples.
(cd matlab && find . -path ./examples -prune -o -type f -name '*.m' -print -o -type f -name '*.cc' -print) |
    while read -r file; do
        mkdir -p "$root/inst/$(dirname "$file")"
        cp -p "matlab/$file" "$root/inst/$file"
    done

# The crate: its library sources only (no benches, tests, examples or the CLI binary).
cp -pr src mex build.rs Cargo.lock "$root/src/"
rm -rf "$root/src/src/bin"
awk '/^\[\[(bin|bench)\]\]/ { skip = 1; next } /^\[/ { skip = 0 } !skip' Cargo.toml >"$root/src/Cargo.toml"
touch -r Cargo.toml "$root/src/Cargo.toml"
cp -p package/Makefile "$root/src/Makefile"

tar -C "$stage" -czf "$out_dir/$name.tar.gz" "$name"
echo "$out_dir/$name.tar.gz"
