//! The Octave/MATLAB gateway `msad_eval`, the only unsafe and FFI code in msad. `request` (checking
//! the call and parsing options) is host-independent; the rest needs a `mex.h` at build time
//! (`cfg(msad_mex)`, set by build.rs) and runs inside Octave or MATLAB.

#![deny(clippy::undocumented_unsafe_blocks)]

pub mod request;

#[cfg(msad_mex)]
mod apply;
#[cfg(msad_mex)]
mod array;
#[cfg(msad_mex)]
mod convert;
#[cfg(msad_mex)]
mod ffi;
#[cfg(msad_mex)]
mod gateway;
#[cfg(msad_mex)]
mod host;
#[cfg(msad_mex)]
mod stack;
#[cfg(msad_mex)]
mod watch;
