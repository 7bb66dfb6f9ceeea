//! `tic` and `toc` as Octave runs them. `id = tic` is the time in microseconds since 1970 (a uint64,
//! as Octave's), `toc(id)` the seconds since then, so ids pass between Octave and the differentiated
//! code. `tic` alone starts the call's stopwatch, which `toc` alone reads; the session's own stopwatch
//! is started after the call (Octave's `tic`), as the code leaves it. Without an output `toc` prints
//! the time, once per call like other output. The values carry no derivative.

use super::Interpreter;
use crate::diag::{Diagnostic, ErrorKind, Result};
use crate::host::HostCall;
use crate::ir::Timer;
use crate::primitives::runtime;
use crate::value::{Array, IntClass, Value};
use std::time::{SystemTime, UNIX_EPOCH};

impl Interpreter<'_> {
    /// Runs `tic` or `toc` with `args`, asked for `nargout` results: the result, if one is asked for.
    pub(super) fn timer(&mut self, timer: Timer, args: &[&Value], nargout: usize) -> Result<Option<Value>> {
        let now = microseconds_now();
        match (timer, args) {
            (Timer::Tic, []) if nargout == 0 => {
                self.tic_at = Some(now);
                self.host_calls.push(HostCall { function: "tic", args: vec![] });
                Ok(None)
            }
            (Timer::Tic, []) => Ok(Some(Value::Int(IntClass::Uint64, Array::scalar(now)))),
            (Timer::Toc, []) => {
                let start = self.tic_at.ok_or_else(|| {
                    Diagnostic::new(ErrorKind::Unsupported, "msad does not support toc of a tic outside the differentiated code yet")
                        .with_hint("pass the id of that tic (t = tic; ... toc(t)), or call tic in the code")
                })?;
                Ok(self.elapsed(start, now, nargout))
            }
            (Timer::Toc, [Value::Int(IntClass::Uint64, id)]) if id.numel() == 1 => Ok(self.elapsed(id.data[0], now, nargout)),
            (Timer::Toc, [_]) => Err(runtime("toc: invalid ID")),
            (Timer::Tic, _) | (Timer::Toc, _) => Err(runtime(format!("Invalid call to {}", format!("{timer:?}").to_lowercase()))),
        }
    }

    /// The seconds from `start` to `now`: the result, or printed as Octave's `toc` prints them.
    fn elapsed(&mut self, start: f64, now: f64, nargout: usize) -> Option<Value> {
        let seconds = Value::scalar((now - start) / 1e6);
        if nargout > 0 {
            return Some(seconds);
        }
        self.host_calls.push(HostCall { function: "printf", args: vec![Value::string("Elapsed time is %g seconds.\n"), seconds] });
        None
    }
}

/// Microseconds since 1970, as Octave's `tic` gives them (exact in a double until the year 2255).
fn microseconds_now() -> f64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map_or(0.0, |d| d.as_micros() as f64)
}
