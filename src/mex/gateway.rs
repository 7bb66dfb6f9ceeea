//! The MEX entry point. Neither a panic nor a host error may cross a Rust frame: panics are caught
//! here and become `msad:internal` errors; errors are recorded with the shim, which raises them
//! after every Rust value of the call has been dropped.

use super::apply;
use super::array::{self, ArrayRef, CallOutput};
use super::convert::{self, Place};
use super::ffi::mxArray;
use super::host::MexHost;
use super::request;
use super::stack;
use crate::diag::{Diagnostic, ErrorKind, Result};
use crate::engine::{Engine, Host, Request};
use crate::value::interrupt;
use crate::value::memory::{self, OutOfMemory};
use crate::value::{FunctionHandle, Value};
use std::ffi::c_int;
use std::panic::{self, AssertUnwindSafe};
use std::sync::{Mutex, MutexGuard, Once, PoisonError, TryLockError};

/// The engine and its cache live across calls until the host unloads the MEX file.
static ENGINE: Mutex<Option<Engine>> = Mutex::new(None);
/// What the last panic said and where, recorded by our panic hook (on whichever thread panicked).
static LAST_PANIC: Mutex<Option<String>> = Mutex::new(None);
/// Installs what lasts for the process: the panic hook and the engine's interrupt poll.
static SETUP: Once = Once::new();
/// Names the test hook to run instead of the engine (see `test_hook`).
const TEST_HOOK: &str = "MSAD_TEST_HOOK";

/// `[f, J] = msad_eval(fun, x, opts, extra...)`: the symbol Octave and MATLAB look up.
///
/// # Safety
/// Called by the host with `plhs` room for `max(nlhs, 1)` outputs and `nrhs` valid inputs.
#[unsafe(no_mangle)]
pub unsafe extern "C-unwind" fn mexFunction(nlhs: c_int, plhs: *mut *mut mxArray, nrhs: c_int, prhs: *const *const mxArray) {
    // On every call: `clear msad_eval` makes the host forget it, though this library stays loaded.
    array::at_exit(release_engine);
    array::release_outputs();
    // SAFETY: the host's pointers, as mexFunction received them.
    stack::on_large_stack(|| unsafe { respond(nlhs, plhs, nrhs, prhs) });
    // No Rust value is live in this frame: raising an error unwinds through it into the host.
    // SAFETY: no Rust value is live in this frame (the call's values were dropped in `respond`).
    unsafe { array::end_call() }
}

unsafe fn respond(nlhs: c_int, plhs: *mut *mut mxArray, nrhs: c_int, prhs: *const *const mxArray) {
    SETUP.call_once(|| {
        panic::set_hook(Box::new(record_panic));
        interrupt::install(Some(array::interrupt_pending));
    });
    interrupt::clear();
    // SAFETY: the host's pointers, as mexFunction received them.
    let outcome = panic::catch_unwind(AssertUnwindSafe(|| unsafe { answer(nlhs, plhs, nrhs, prhs) }));
    let failure = match outcome {
        Ok(Ok(())) => return,
        Ok(Err(diagnostic)) => diagnostic,
        Err(payload) if payload.is::<OutOfMemory>() => memory::out_of_memory(),
        Err(payload) if payload.is::<interrupt::Interrupted>() => interrupt::interrupted(),
        Err(_) => internal_error(),
    };
    let failure = if nlhs >= 2 { memory::with_derivative_hint(failure) } else { failure };
    array::fail(failure.identifier(), &failure.to_string());
}

unsafe fn answer(nlhs: c_int, plhs: *mut *mut mxArray, nrhs: c_int, prhs: *const *const mxArray) -> Result<()> {
    // SAFETY: the host passes `nrhs` valid input pointers at `prhs`.
    let inputs = if nrhs > 0 { unsafe { std::slice::from_raw_parts(prhs, nrhs as usize) } } else { &[] };
    let inputs: Vec<ArrayRef> = inputs
        .iter()
        .map(|&input| {
            // SAFETY: an input array, valid for the whole call.
            unsafe { ArrayRef::from_raw(input) }.expect("the host passes no null inputs")
        })
        .collect();
    let nargout = nlhs.max(0) as usize;
    let outputs = match apply::called_as_apply() {
        true => apply::outputs(&inputs, nargout)?,
        false => evaluate_call(&inputs, nargout)?,
    };
    for (index, output) in outputs.into_iter().enumerate() {
        // SAFETY: `plhs` has room for max(nlhs, 1) outputs and the request asked for at most that many.
        unsafe { *plhs.add(index) = output.into_raw() };
    }
    Ok(())
}

/// The outputs of an msad_eval call.
fn evaluate_call(inputs: &[ArrayRef], nargout: usize) -> Result<Vec<CallOutput>> {
    let values = inputs
        .iter()
        .enumerate()
        .map(|(index, &input)| convert::to_value(input, &Place::Argument(&request::argument_name(index))))
        .collect::<Result<Vec<_>>>()?;
    let request = request::build_request(values, nargout)?;
    let results = evaluate(&request)?;
    let outputs = results.iter().map(convert::to_output).collect::<Result<Vec<_>>>()?;
    // Copied into the host's arrays: the buffers (and those the arguments were read into) serve the
    // next call (freed, malloc could hand the memory back to the system and the next call would
    // fault every page of its J in again).
    results.into_iter().chain(request.args).for_each(Value::recycle);
    Ok(outputs)
}

/// The values for the call's outputs: `f`, then `J` (or the gradient) and `H` when asked for.
fn evaluate(request: &Request) -> Result<Vec<Value>> {
    if let Ok(mode) = std::env::var(TEST_HOOK)
        && !mode.is_empty()
    {
        return test_hook(&mode, request);
    }
    let mut engine = lock_engine()?;
    let evaluation = engine.get_or_insert_with(Engine::new).evaluate(&mut MexHost::default(), request)?;
    if request.options.verbose {
        evaluation.log.iter().for_each(|line| array::print(&format!("{line}\n")));
    }
    let missing = |what: &str| Diagnostic::new(ErrorKind::Internal, format!("the engine returned no {what}"));
    let mut outputs = vec![evaluation.value];
    if request.nargout >= 2 {
        outputs.push(evaluation.jacobian.ok_or_else(|| missing("Jacobian"))?);
    }
    if request.nargout == 3 {
        outputs.push(evaluation.hessian.ok_or_else(|| missing("Hessian"))?);
    }
    Ok(outputs)
}

/// `panic` panics while holding the engine; `echo` returns the parsed request (and `J = []`).
fn test_hook(mode: &str, request: &Request) -> Result<Vec<Value>> {
    match mode {
        "panic" => {
            let _engine = lock_engine()?;
            panic!("{TEST_HOOK}=panic");
        }
        "echo" => {
            let source = match &request.function {
                FunctionHandle::Named(name) => MexHost::default().which(name),
                _ => None,
            };
            let mut outputs = vec![request::describe(request, source.as_deref())];
            outputs.resize(request.nargout, request::empty_matrix());
            Ok(outputs)
        }
        other => Err(Diagnostic::new(ErrorKind::BadInput, format!("{TEST_HOOK}={other}: use panic or echo"))),
    }
}

/// The engine, unless a call on this (the host's only) thread holds it already: a function the
/// engine had the host evaluate called msad_eval again.
fn lock_engine() -> Result<MutexGuard<'static, Option<Engine>>> {
    match ENGINE.try_lock() {
        Ok(engine) => Ok(engine),
        Err(TryLockError::Poisoned(poisoned)) => {
            // A panic interrupted an evaluation: its cache may be inconsistent, so start afresh.
            ENGINE.clear_poison();
            let mut engine = poisoned.into_inner();
            *engine = None;
            Ok(engine)
        }
        Err(TryLockError::WouldBlock) => {
            Err(Diagnostic::new(ErrorKind::Unsupported, "msad_eval was called from inside a function msad_eval is evaluating"))
        }
    }
}

/// Called by the host before it unloads the MEX file: frees the engine, its cache and the last outputs.
unsafe extern "C" fn release_engine() {
    // Called from the host, outside any Rust frame: a panic must stop here.
    let _ = stack::on_large_stack(|| panic::catch_unwind(|| lock_engine().map(|mut engine| *engine = None)));
    array::release_outputs();
    convert::forget_handles();
}

fn record_panic(info: &panic::PanicHookInfo) {
    *LAST_PANIC.lock().unwrap_or_else(PoisonError::into_inner) = Some(info.to_string().replace('\n', " "));
}

fn internal_error() -> Diagnostic {
    let panic = LAST_PANIC.lock().unwrap_or_else(PoisonError::into_inner).take();
    Diagnostic::new(ErrorKind::Internal, format!("internal error ({})", panic.as_deref().unwrap_or("a panic")))
        .with_hint("this is a bug in msad: please report it with the call that caused it")
}
