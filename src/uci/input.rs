//! Is a command waiting on standard input? Lets a busy search give its CPU to the UCI
//! input thread at the moment that thread has something to read (see
//! [`crate::engine::SearchControl::with_waiting_input`]).

/// True when standard input has bytes ready to read (a GUI sent a line the input thread
/// has not consumed yet). Never blocks. Always false where it cannot be asked.
pub fn stdin_pending() -> bool {
    sys::stdin_pending()
}

#[cfg(unix)]
mod sys {
    /// `struct pollfd` from <poll.h>: the same layout on Linux, the BSDs and macOS.
    #[repr(C)]
    struct PollFd {
        fd: std::ffi::c_int,
        events: std::ffi::c_short,
        revents: std::ffi::c_short,
    }

    /// `nfds_t`: unsigned long on Linux, unsigned int on macOS and the BSDs.
    #[cfg(target_os = "linux")]
    type NFds = std::ffi::c_ulong;
    #[cfg(not(target_os = "linux"))]
    type NFds = std::ffi::c_uint;

    /// POLLIN has this value on every Unix we know of (Linux, macOS, the BSDs).
    const POLLIN: std::ffi::c_short = 0x1;
    const STDIN_FILENO: std::ffi::c_int = 0;

    unsafe extern "C" {
        /// poll(2) from the C library that std already links.
        fn poll(fds: *mut PollFd, nfds: NFds, timeout: std::ffi::c_int) -> std::ffi::c_int;
    }

    pub fn stdin_pending() -> bool {
        let mut fd = PollFd { fd: STDIN_FILENO, events: POLLIN, revents: 0 };
        // SAFETY: `fd` is a live, exclusively borrowed, correctly laid out (`repr(C)`,
        // field types as in <poll.h>) `struct pollfd`, and nfds = 1 says the array holds
        // exactly that one element, so poll(2) reads and writes only inside it. A timeout
        // of 0 makes it return at once. poll never keeps the pointer after returning, and
        // it has no other memory effects; a closed or invalid fd 0 only yields POLLNVAL
        // or an error return, both of which read as "nothing pending" below.
        let ready = unsafe { poll(&mut fd, 1, 0) };
        ready > 0 && fd.revents & POLLIN != 0
    }
}

#[cfg(not(unix))]
mod sys {
    pub fn stdin_pending() -> bool {
        false
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn never_blocks() {
        // Whatever the test harness gave as stdin, the probe returns at once.
        let t = std::time::Instant::now();
        for _ in 0..1000 {
            let _ = super::stdin_pending();
        }
        assert!(t.elapsed() < std::time::Duration::from_secs(1));
    }
}
