//! The UCI front end: [`crate::protocol`] turns text into commands, `session` executes them.

pub mod input;
pub mod session;

use session::{Flow, Out, Session};
use std::io::BufRead;

/// Runs the UCI loop on stdin/stdout until `quit` or end of input.
pub fn run_stdio() {
    let mut session = Session::new(Out::stdout());
    session.set_input_probe(std::sync::Arc::new(input::stdin_pending));
    let stdin = std::io::stdin();
    let mut input = stdin.lock();
    let mut buf = Vec::new();
    loop {
        buf.clear();
        match input.read_until(b'\n', &mut buf) {
            Ok(0) => break, // EOF means quit
            Ok(_) => {
                let line = String::from_utf8_lossy(&buf);
                if session.handle_line(&line) == Flow::Quit {
                    break;
                }
            }
            Err(e) => {
                log::error!("reading stdin: {e}");
                break;
            }
        }
    }
    session.shutdown();
}
