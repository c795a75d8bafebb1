//! Ctrl-C and SIGTERM during a match. The first one asks the match to end cleanly: games
//! in progress are abandoned (not counted, not written), every engine is told to quit
//! (and killed if it does not), and the summary of the finished games is printed. A
//! second one ends the process at once.

use std::sync::atomic::{AtomicBool, AtomicI32, Ordering};

static REQUESTED: AtomicBool = AtomicBool::new(false);
static SIGNAL: AtomicI32 = AtomicI32::new(0);

/// Set once SIGINT or SIGTERM has arrived (after [`install`]); the match polls it.
pub fn flag() -> &'static AtomicBool {
    &REQUESTED
}

/// The number of the signal that asked the match to end, if one did.
pub fn signal() -> Option<i32> {
    Some(SIGNAL.load(Ordering::SeqCst)).filter(|&s| s != 0)
}

/// Catches SIGINT and SIGTERM for the rest of the process's life. False where that is not
/// possible (the signals then end the process as usual).
pub fn install() -> bool {
    sys::install()
}

#[cfg(unix)]
mod sys {
    use std::ffi::c_int;
    use std::sync::atomic::Ordering;

    /// The same numbers on Linux, macOS and the BSDs.
    const SIGINT: c_int = 2;
    const SIGTERM: c_int = 15;
    /// `sighandler_t`: a function pointer, passed as an address.
    type SigHandler = usize;
    const SIG_ERR: SigHandler = !0;

    unsafe extern "C" {
        /// signal(2) from the C library that std already links (BSD semantics on Linux,
        /// macOS and the BSDs: the handler stays installed and interrupted reads restart).
        fn signal(signum: c_int, handler: SigHandler) -> SigHandler;
        /// _exit(2): ends the process without running anything else; async-signal-safe.
        fn _exit(status: c_int) -> !;
    }

    /// Runs in signal context: only lock-free atomic operations and `_exit`, all of which
    /// POSIX allows there.
    extern "C" fn on_signal(sig: c_int) {
        if super::REQUESTED.swap(true, Ordering::SeqCst) {
            // SAFETY: `_exit` is async-signal-safe and takes any status; nothing of the
            // interrupted code runs again, so no invariant of it can be observed broken.
            unsafe { _exit(128 + sig) }
        }
        super::SIGNAL.store(sig, Ordering::SeqCst);
    }

    pub fn install() -> bool {
        [SIGINT, SIGTERM].into_iter().all(|sig| {
            // SAFETY: `on_signal` is an `extern "C" fn(c_int)`, the type signal(2) expects
            // for a handler, passed as its address like `sighandler_t`; it lives for the
            // whole program and does only async-signal-safe work (see above). `signal` has
            // no other memory effects.
            unsafe { signal(sig, on_signal as extern "C" fn(c_int) as SigHandler) != SIG_ERR }
        })
    }
}

#[cfg(not(unix))]
mod sys {
    pub fn install() -> bool {
        false
    }
}
