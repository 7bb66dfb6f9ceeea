//! Edits of the source files behind prepared code, noticed through Linux's inotify: a repeated call
//! reads the (usually empty) event queue once, where comparing modification times costs a `stat` per
//! file, the largest cost of a small call after the host's own. The kernel queues an event within the
//! writing call itself, so an edit made before `msad_eval` is called is always seen. Other systems
//! watch nothing: the engine then compares modification times on every call.

/// Watches `path` (the file, through symlinks, for edits in place; its directory, for a file replaced
/// by a rename or deleted). False when it cannot be watched.
pub fn watch(path: &std::path::Path) -> bool {
    platform::watch(path)
}

/// A count that moves whenever a watched file may have changed (any event, or a failure to read the
/// queue, counts); `None` when nothing can be watched.
pub fn edits() -> Option<u64> {
    platform::edits()
}

#[cfg(target_os = "linux")]
mod platform {
    use std::ffi::CString;
    use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};
    use std::os::unix::ffi::OsStrExt;
    use std::path::Path;
    use std::sync::{Mutex, OnceLock, PoisonError};

    struct Queue {
        fd: OwnedFd,
        edits: u64,
    }

    const EDITS: u32 = libc::IN_MODIFY
        | libc::IN_ATTRIB
        | libc::IN_CLOSE_WRITE
        | libc::IN_CREATE
        | libc::IN_DELETE
        | libc::IN_MOVED_FROM
        | libc::IN_MOVED_TO
        | libc::IN_DELETE_SELF
        | libc::IN_MOVE_SELF;

    /// One queue for the process, opened on first use; `None` when inotify is unavailable.
    fn queue() -> Option<&'static Mutex<Queue>> {
        static QUEUE: OnceLock<Option<Mutex<Queue>>> = OnceLock::new();
        QUEUE
            .get_or_init(|| {
                // SAFETY: no precondition; the result is checked.
                let fd = unsafe { libc::inotify_init1(libc::IN_NONBLOCK | libc::IN_CLOEXEC) };
                // SAFETY: a new descriptor that nothing else owns.
                (fd >= 0).then(|| Mutex::new(Queue { fd: unsafe { OwnedFd::from_raw_fd(fd) }, edits: 0 }))
            })
            .as_ref()
    }

    pub fn watch(path: &Path) -> bool {
        let Some(queue) = queue() else { return false };
        let queue = queue.lock().unwrap_or_else(PoisonError::into_inner);
        [Some(path), path.parent()].into_iter().all(|watched| {
            let Some(name) = watched.and_then(|p| CString::new(p.as_os_str().as_bytes()).ok()) else { return false };
            // SAFETY: an open inotify descriptor and a NUL-terminated path.
            unsafe { libc::inotify_add_watch(queue.fd.as_raw_fd(), name.as_ptr(), EDITS) >= 0 }
        })
    }

    pub fn edits() -> Option<u64> {
        let mut queue = queue()?.lock().unwrap_or_else(PoisonError::into_inner);
        let mut events = [0u8; 4096];
        loop {
            // SAFETY: reads at most `events.len()` bytes into `events`.
            let read = unsafe { libc::read(queue.fd.as_raw_fd(), events.as_mut_ptr().cast(), events.len()) };
            if read < 0 && std::io::Error::last_os_error().kind() == std::io::ErrorKind::WouldBlock {
                return Some(queue.edits);
            }
            queue.edits += 1;
            if read <= 0 {
                // Not readable: every call counts as an edit, so files are compared every time.
                return Some(queue.edits);
            }
        }
    }
}

#[cfg(not(target_os = "linux"))]
mod platform {
    pub fn watch(_: &std::path::Path) -> bool {
        false
    }

    pub fn edits() -> Option<u64> {
        None
    }
}
