//! The stack a MEX call runs on. Octave's own thread has 8 MiB, too little for deep user input (a
//! struct nested thousands of levels deep, long operator chains) that msad's recursive stages walk,
//! and a stack overflow kills the user's session. The call stays on the host's thread (the engine
//! calls back into the host, which allows that only from its own thread) but switches to a large
//! stack, mapped once and reused: pages are committed as they are first touched, so a small call
//! costs no more than on the host's stack. The depth bounds of each recursive stage (parser, lowering,
//! value conversion, user calls) keep every call within it.

use std::panic::{self, AssertUnwindSafe};
use std::sync::OnceLock;
use std::sync::atomic::{AtomicBool, Ordering};

/// Address space reserved for the stack (not memory: only touched pages are committed).
const STACK_BYTES: usize = 1 << 30;

/// Whether a call runs on the stack now: a nested MEX call (a function the host evaluates for msad
/// calls `msad_eval`) stays where it is, on the same stack.
static IN_USE: AtomicBool = AtomicBool::new(false);

/// The mapped stack: its lowest usable address and size; `None` when it could not be mapped.
struct Stack {
    base: usize,
    size: usize,
}

fn stack() -> Option<&'static Stack> {
    static STACK: OnceLock<Option<Stack>> = OnceLock::new();
    STACK.get_or_init(map_stack).as_ref()
}

/// `STACK_BYTES` of stack above one inaccessible guard page, which turns an overflow the depth bounds
/// missed into a fault at a known place instead of a write into other memory.
fn map_stack() -> Option<Stack> {
    // SAFETY: sysconf has no preconditions.
    let page = usize::try_from(unsafe { libc::sysconf(libc::_SC_PAGESIZE) }).ok()?;
    let length = STACK_BYTES + page;
    let flags = libc::MAP_PRIVATE | libc::MAP_ANONYMOUS | libc::MAP_NORESERVE | libc::MAP_STACK;
    // SAFETY: a new anonymous mapping at an address of the kernel's choice touches no existing memory.
    let mapping = unsafe { libc::mmap(std::ptr::null_mut(), length, libc::PROT_READ | libc::PROT_WRITE, flags, -1, 0) };
    if mapping == libc::MAP_FAILED {
        return None;
    }
    // SAFETY: the first page of the mapping just made, which nothing uses yet.
    if unsafe { libc::mprotect(mapping, page, libc::PROT_NONE) } != 0 {
        // SAFETY: the whole mapping just made, unused.
        unsafe { libc::munmap(mapping, length) };
        return None;
    }
    Some(Stack { base: mapping as usize + page, size: STACK_BYTES })
}

/// Runs `work` on the large stack (on the current one when already there, or when it could not be
/// mapped). A panic in `work` is carried across the switch and resumed here.
pub fn on_large_stack<R>(work: impl FnOnce() -> R) -> R {
    let Some(stack) = stack() else { return work() };
    if IN_USE.swap(true, Ordering::Acquire) {
        return work();
    }
    let run = || panic::catch_unwind(AssertUnwindSafe(work));
    // SAFETY: `base` and `size` are page aligned and describe a mapping nobody else uses (IN_USE);
    // `run` returns normally (catch_unwind stops a panic, and the shim stops host exceptions before
    // they reach Rust frames); the mapping is never unmapped.
    let outcome = unsafe { psm::on_stack(stack.base as *mut u8, stack.size, run) };
    IN_USE.store(false, Ordering::Release);
    outcome.unwrap_or_else(|payload| panic::resume_unwind(payload))
}
