//! Ctrl-C during a run. The evaluator cannot see the host: the host's gateway installs a poll (the
//! MEX reads Octave's interrupt state), which loops ask through `due` or `check` at every block they
//! run. The poll itself runs once per `CHECKS_PER_POLL` checks per thread, so a hot loop pays for a
//! countdown; an interrupt seen once stays seen (`INTERRUPTED`) until the next call `clear`s it.

use crate::diag::{Diagnostic, ErrorKind, Result};
use std::cell::Cell;
use std::sync::RwLock;
use std::sync::atomic::{AtomicBool, Ordering};

/// Checks between two polls of the host: a few microseconds of the fastest loops.
const CHECKS_PER_POLL: u32 = 1 << 12;

static POLL: RwLock<Option<fn() -> bool>> = RwLock::new(None);
static INTERRUPTED: AtomicBool = AtomicBool::new(false);

thread_local! {
    static COUNTDOWN: Cell<u32> = const { Cell::new(CHECKS_PER_POLL) };
}

/// Makes `poll` (true: the user asked to stop) the host's answer from now on; `None` removes it.
pub fn install(poll: Option<fn() -> bool>) {
    *POLL.write().unwrap_or_else(|poisoned| poisoned.into_inner()) = poll;
}

/// Forgets an interrupt seen by an earlier call.
pub fn clear() {
    INTERRUPTED.store(false, Ordering::Relaxed);
}

/// Whether the run should stop now.
#[inline]
pub fn due() -> bool {
    if INTERRUPTED.load(Ordering::Relaxed) {
        return true;
    }
    COUNTDOWN.with(|countdown| match countdown.get() {
        0 => {
            countdown.set(CHECKS_PER_POLL);
            poll_host()
        }
        left => {
            countdown.set(left - 1);
            false
        }
    })
}

/// Simple operations of a long kernel between two `stop_if_requested` (a few tens of ms).
const WORK_PER_POLL: usize = 1 << 26;

/// How many items of `work_per_item` operations each a long kernel does between two asks.
pub fn items_per_poll(work_per_item: usize) -> usize {
    (WORK_PER_POLL / work_per_item.max(1)).max(1)
}

/// The payload of the panic that stops a kernel with no error to return when the user asked to stop
/// (`stop_if_requested`); the gateway reports it as `interrupted()`.
pub struct Interrupted;

/// Asks the host now, without the countdown: for long kernels, between chunks of their work. Stops
/// the run with the `Interrupted` panic when the user asked to stop.
pub fn stop_if_requested() {
    if INTERRUPTED.load(Ordering::Relaxed) || poll_host() {
        std::panic::panic_any(Interrupted);
    }
}

/// `work(input)` for a library kernel that cannot stop halfway (a dense factorization): it runs on a
/// thread of its own while this one asks the host about Ctrl-C; when the user asks to stop, the run
/// stops at once (the `Interrupted` panic) and the abandoned thread finishes in the background.
pub fn abandonable<I, T>(input: I, work: impl FnOnce(I) -> T + Send + 'static) -> T
where
    I: Send + 'static,
    T: Send + 'static,
{
    let (sender, receiver) = std::sync::mpsc::channel();
    let worker = std::thread::Builder::new().spawn(move || drop(sender.send(work(input))));
    if worker.is_err() {
        std::panic::panic_any(super::memory::OutOfMemory);
    }
    loop {
        match receiver.recv_timeout(std::time::Duration::from_millis(20)) {
            Ok(result) => return result,
            Err(std::sync::mpsc::RecvTimeoutError::Timeout) => stop_if_requested(),
            Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => panic!("a kernel's thread stopped without its result"),
        }
    }
}

/// `Err(interrupted())` when the run should stop now.
#[inline]
pub fn check() -> Result<()> {
    if due() { Err(interrupted()) } else { Ok(()) }
}

#[cold]
fn poll_host() -> bool {
    let poll = *POLL.read().unwrap_or_else(|poisoned| poisoned.into_inner());
    let interrupted = poll.is_some_and(|poll| poll());
    if interrupted {
        INTERRUPTED.store(true, Ordering::Relaxed);
    }
    interrupted
}

/// The error a stopped run ends with: Octave's identifier, and no `try` in the user's code catches it.
pub fn interrupted() -> Diagnostic {
    Diagnostic::new(ErrorKind::Interrupted, "interrupted (Ctrl-C)")
}
