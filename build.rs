//! Gathers the primitives' names from their record files (the `Prim` enum), and builds the MEX
//! boundary when a `mex.h` is found: compiles the shim in `mex/` and generates its Rust bindings, then
//! sets `cfg(msad_mex)`. Without headers only the engine builds.

use std::env;
use std::path::{Path, PathBuf};
use std::process::Command;

const SHIM_HEADER: &str = "mex/msad_mex.h";
const SHIM_SOURCE: &str = "mex/msad_mex.cpp";
/// Octave's C++ side of the shim, compiled when Octave's own headers are found.
const OCTAVE_SOURCE: &str = "mex/msad_octave.cpp";
const OCTAVE_HANDLE_HEADER: &str = "octave/ov-fcn-handle.h";

fn main() {
    gather_primitive_names();
    println!("cargo::rustc-check-cfg=cfg(msad_mex)");
    println!("cargo::rerun-if-env-changed=MSAD_MEX_INCLUDE");
    println!("cargo::rerun-if-env-changed=MATLAB_ROOT");
    println!("cargo::rerun-if-changed={SHIM_HEADER}");
    println!("cargo::rerun-if-changed={SHIM_SOURCE}");
    println!("cargo::rerun-if-changed={OCTAVE_SOURCE}");
    // `--features matlab`: the shim alone, on MATLAB's documented MEX/MX API (no Octave internals).
    let matlab = env::var_os("CARGO_FEATURE_MATLAB").is_some();

    let Some(include_dirs) = find_mex_include(matlab) else {
        println!(
            "cargo::warning=mex.h not found (set MSAD_MEX_INCLUDE, install octave-dev, or set \
             MATLAB_ROOT): building the engine without the MEX gateway"
        );
        return;
    };
    compile_shim(&include_dirs, matlab);
    generate_bindings(&include_dirs);
    // Octave unloads a MEX file on `clear`; threads the engine started (rayon) may still sleep in
    // our code, so the library must stay mapped. The engine itself is freed through mexAtExit.
    println!("cargo::rustc-cdylib-link-arg=-Wl,-z,nodelete");
    println!("cargo::rustc-cfg=msad_mex");
}

/// Where the records declare the names of their primitives (`primitive_names! { Erf = "erf", }`).
const PRIMITIVES_DIR: &str = "src/primitives";

/// Gathers every record file's `primitive_names!` block, in file order, into one `prims!` invocation
/// (`$OUT_DIR/primitive_names.rs`, included by src/prim.rs): adding a builtin touches its record file only.
fn gather_primitive_names() {
    println!("cargo::rerun-if-changed={PRIMITIVES_DIR}");
    let mut files = Vec::new();
    collect_rust_files(Path::new(PRIMITIVES_DIR), &mut files);
    files.sort();
    let mut declarations = String::new();
    for file in &files {
        println!("cargo::rerun-if-changed={}", file.display());
        let text = std::fs::read_to_string(file).expect("a record file");
        for block in text.split("primitive_names! {\n").skip(1) {
            let body = block.split("\n}").next().expect("a closed primitive_names! block");
            declarations.extend(body.lines().map(|line| format!("{}\n", line.trim_end())));
        }
    }
    let out = PathBuf::from(env::var_os("OUT_DIR").expect("OUT_DIR")).join("primitive_names.rs");
    std::fs::write(out, format!("prims! {{\n{declarations}}}\n")).expect("write primitive_names.rs");
}

fn collect_rust_files(dir: &Path, files: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("src/primitives").flatten() {
        let path = entry.path();
        match path.is_dir() {
            true => collect_rust_files(&path, files),
            false if path.extension().is_some_and(|e| e == "rs") => files.push(path),
            false => {}
        }
    }
}

/// Directories to add to the include path so that `#include "mex.h"` works: `MSAD_MEX_INCLUDE`
/// (a path list), else Octave's `mkoctfile -p INCFLAGS`, else `$MATLAB_ROOT/extern/include`; for
/// the matlab feature `$MATLAB_ROOT/extern/include` comes before Octave's.
fn find_mex_include(matlab: bool) -> Option<Vec<PathBuf>> {
    let matlab_root = || env::var_os("MATLAB_ROOT").map(|root| vec![Path::new(&root).join("extern/include")]);
    let user = env::var_os("MSAD_MEX_INCLUDE").map(|dirs| env::split_paths(&dirs).collect());
    let candidates = match matlab {
        true => [user, matlab_root(), octave_include_dirs()],
        false => [user, octave_include_dirs(), matlab_root()],
    };
    candidates.into_iter().flatten().find(|dirs: &Vec<PathBuf>| dirs.iter().any(|d| d.join("mex.h").is_file()))
}

fn octave_include_dirs() -> Option<Vec<PathBuf>> {
    let output = Command::new("mkoctfile").args(["-p", "INCFLAGS"]).output().ok()?;
    if !output.status.success() {
        return None;
    }
    let flags = String::from_utf8(output.stdout).ok()?;
    Some(flags.split_whitespace().filter_map(|flag| flag.strip_prefix("-I")).map(PathBuf::from).collect())
}

fn compile_shim(include_dirs: &[PathBuf], matlab: bool) {
    let mut build = cc::Build::new();
    build
        .cpp(true)
        .std("c++11")
        .file(SHIM_SOURCE)
        .include("mex")
        .includes(include_dirs)
        // As MATLAB's mex command defines it; Octave's headers ignore it.
        .define("MATLAB_MEX_FILE", None)
        .warnings(true);
    if !matlab && include_dirs.iter().any(|dir| dir.join(OCTAVE_HANDLE_HEADER).is_file()) {
        // Octave's headers need C++17 (the shim only C++11: MATLAB's mex builds with that).
        build.file(OCTAVE_SOURCE).std("c++17").define("MSAD_OCTAVE_HANDLES", None);
    }
    build.compile("msad_mex_shim");
}

fn generate_bindings(include_dirs: &[PathBuf]) {
    let bindings = bindgen::Builder::default()
        .header(SHIM_HEADER)
        .clang_args(include_dirs.iter().map(|dir| format!("-I{}", dir.display())))
        .allowlist_function("msad_.*")
        .rustified_enum("msad_kind")
        // Raising an Octave error unwinds (C++ exception) through the Rust caller.
        .override_abi(bindgen::Abi::CUnwind, "msad_end_call|msad_raise_pending_interrupt")
        .layout_tests(false)
        .generate()
        .expect("generating bindings for mex/msad_mex.h");
    let out = PathBuf::from(env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    bindings.write_to_file(out.join("mex_bindings.rs")).expect("writing the MEX bindings");
}
