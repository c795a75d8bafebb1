//! A small driver for the built binary: send lines, wait for output lines.
#![allow(dead_code)]

pub mod helpmate;
pub mod hostile;
pub mod oracle;
pub mod rng;

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

/// Whether python3 runs (the scripts' tests need it); a message says the test is skipped where it does not.
pub fn have_python() -> bool {
    let ok = Command::new("python3").arg("--version").output().is_ok_and(|o| o.status.success());
    if !ok {
        eprintln!("SKIPPED: python3 not found");
    }
    ok
}

/// Runs `python3 ARGS` with `input` on its standard input; its output (stdout and stderr
/// captured). An error only when python3 cannot be started.
pub fn python_with_input(args: &[&str], input: &str) -> std::io::Result<std::process::Output> {
    use std::io::Write;
    let mut child = Command::new("python3")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()?;
    // A script that exits without reading its input closes the pipe: its output says why.
    if let Some(mut stdin) = child.stdin.take() {
        let _ = stdin.write_all(input.as_bytes());
    }
    child.wait_with_output()
}

pub struct Engine {
    pub child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    /// Every line read so far, in order.
    pub seen: Vec<String>,
}

impl Engine {
    pub fn start() -> Engine {
        Engine::start_with_args(&[])
    }

    pub fn start_with_args(args: &[&str]) -> Engine {
        let mut child = Command::new(env!("CARGO_BIN_EXE_arbiter"))
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("start arbiter");
        let stdout = child.stdout.take().expect("stdout");
        let stdin = child.stdin.take();
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(l) = line else { break };
                if tx.send(l).is_err() {
                    break;
                }
            }
        });
        Engine { child, stdin, lines: rx, seen: Vec::new() }
    }

    pub fn send(&mut self, s: &str) {
        if let Some(w) = self.stdin.as_mut() {
            let _ = writeln!(w, "{s}");
            let _ = w.flush();
        }
    }

    pub fn send_raw(&mut self, s: &[u8]) {
        if let Some(w) = self.stdin.as_mut() {
            let _ = w.write_all(s);
            let _ = w.flush();
        }
    }

    pub fn close_stdin(&mut self) {
        self.stdin = None;
    }

    /// Next line within `timeout`, or None.
    pub fn next_line(&mut self, timeout: Duration) -> Option<String> {
        match self.lines.recv_timeout(timeout) {
            Ok(l) => {
                self.seen.push(l.clone());
                Some(l)
            }
            Err(RecvTimeoutError::Timeout) | Err(RecvTimeoutError::Disconnected) => None,
        }
    }

    /// Waits for a line satisfying `pred`; panics with the transcript on timeout.
    pub fn wait_for(&mut self, what: &str, timeout: Duration, pred: impl Fn(&str) -> bool) -> String {
        let deadline = Instant::now() + timeout;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.next_line(left) {
                Some(l) if pred(&l) => return l,
                Some(_) => {}
                None => panic!(
                    "timed out waiting for {what}; output so far:\n{}",
                    self.seen.iter().rev().take(40).rev().cloned().collect::<Vec<_>>().join("\n")
                ),
            }
        }
    }

    /// Waits for the process to exit, up to `timeout`; true if it did.
    pub fn wait_exit(&mut self, timeout: Duration) -> bool {
        let deadline = Instant::now() + timeout;
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return true;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        false
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Runs `arbiter ARGS` with empty stdin: (exit status, stdout, stderr).
pub fn arbiter_cli(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_arbiter")).args(args).output().expect("run arbiter");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into(),
        String::from_utf8_lossy(&out.stderr).into(),
    )
}

/// Runs `arbiter ARGS` in `dir` (relative paths there), with empty stdin.
pub fn arbiter_in(args: &[&str], dir: &std::path::Path) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_arbiter")).args(args).current_dir(dir).output().expect("run arbiter")
}

/// A fresh temporary directory `arbiter-{what}-{pid}` with the training data lines (`data.txt`) and
/// game records (`data.games`) of `games` node-limited self-play games from tests/data/openings.epd.
pub fn selfplay_data_dir(what: &str, games: usize) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("arbiter-{what}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let openings = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/openings.epd");
    let games = games.to_string();
    let o = arbiter_in(
        &["selfplay", "--nodes", "300", "--games", &games, "--concurrency", "1", "--quiet", "--openings"]
            .into_iter()
            .chain([openings.to_str().unwrap(), "--datagen", "data.txt", "--records", "data.games"])
            .collect::<Vec<_>>(),
        &dir,
    );
    assert!(o.status.success(), "selfplay: {}", stderr_text(&o));
    dir
}

/// A run's stderr as text.
pub fn stderr_text(o: &std::process::Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// Runs `arbiter explain ARGS`: (exit status, stdout, stderr).
pub fn explain_cli(args: &[&str]) -> (i32, String, String) {
    arbiter_cli(&[&["explain"], args].concat())
}
