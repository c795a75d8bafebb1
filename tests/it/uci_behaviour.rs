//! What a GUI relies on beyond the scripted sessions: stop latency, quit mid-search,
//! end of input, CRLF, a closed stdout, bench determinism. Timing bounds are generous
//! (CI machines are loaded); the measured values are printed.

use crate::common::Engine;
use std::io::Write;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const WAIT: Duration = Duration::from_secs(30);

#[test]
fn stop_answers_quickly_with_a_legal_move() {
    let mut e = Engine::start();
    e.send("uci");
    e.wait_for("uciok", WAIT, |l| l == "uciok");
    let mut worst = Duration::ZERO;
    for moves in ["", " moves e2e4", " moves d2d4 g8f6 c2c4"] {
        e.send(&format!("position startpos{moves}"));
        e.send("go infinite");
        e.wait_for("info depth 8", WAIT, |l| l.starts_with("info depth 8 "));
        let t = Instant::now();
        e.send("stop");
        let l = e.wait_for("bestmove", WAIT, |l| l.starts_with("bestmove"));
        let dt = t.elapsed();
        worst = worst.max(dt);
        assert!(!l.contains("0000"), "{l}");
    }
    println!("worst stop -> bestmove latency: {worst:?}");
    assert!(worst < Duration::from_millis(500), "stop took {worst:?}");
}

#[test]
fn stop_before_the_first_iteration_still_gives_a_move() {
    let mut e = Engine::start();
    for _ in 0..5 {
        e.send("position startpos moves e2e4 c7c5");
        e.send("go infinite");
        e.send("stop");
        let l = e.wait_for("bestmove", WAIT, |l| l.starts_with("bestmove"));
        let m = l.split_whitespace().nth(1).unwrap_or("");
        assert!(m.len() >= 4 && m != "0000", "{l}");
    }
}

#[test]
fn isready_is_answered_during_a_search() {
    let mut e = Engine::start();
    e.send("isready");
    e.wait_for("readyok", WAIT, |l| l == "readyok");
    e.send("go infinite");
    e.wait_for("info depth 3", WAIT, |l| l.starts_with("info depth 3 "));
    let t = Instant::now();
    e.send("isready");
    e.wait_for("readyok", WAIT, |l| l == "readyok");
    println!("isready during search: {:?}", t.elapsed());
    assert!(t.elapsed() < Duration::from_secs(2));
    e.send("stop");
    e.wait_for("bestmove", WAIT, |l| l.starts_with("bestmove"));
}

#[test]
fn quit_mid_search_exits_at_once() {
    let mut e = Engine::start();
    e.send("setoption name Threads value 2");
    e.send("go infinite");
    e.wait_for("info depth 5", WAIT, |l| l.starts_with("info depth 5 "));
    let t = Instant::now();
    e.send("quit");
    assert!(e.wait_exit(Duration::from_secs(5)), "engine still running after quit");
    println!("quit mid-search: exited after {:?}", t.elapsed());
}

#[test]
fn end_of_input_means_quit() {
    let mut e = Engine::start();
    e.send("isready");
    e.wait_for("readyok", WAIT, |l| l == "readyok");
    e.close_stdin();
    assert!(e.wait_exit(Duration::from_secs(5)));
}

#[test]
fn crlf_and_odd_whitespace_are_tolerated() {
    let mut e = Engine::start();
    e.send_raw(b"uci\r\n\r\n   isready   \r\n\tposition   startpos   moves e2e4\te7e5\r\ngo depth 3\r\n");
    e.wait_for("uciok", WAIT, |l| l == "uciok");
    e.wait_for("readyok", WAIT, |l| l == "readyok");
    let l = e.wait_for("bestmove", WAIT, |l| l.starts_with("bestmove"));
    assert!(!l.contains("0000"));
    // Invalid UTF-8 is not fatal either.
    e.send_raw(b"\xff\xfe garbage\nisready\n");
    e.wait_for("readyok", WAIT, |l| l == "readyok");
}

#[test]
fn a_closed_stdout_does_not_crash_the_engine() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("start");
    drop(child.stdout.take()); // the GUI went away
    let mut stdin = child.stdin.take().expect("stdin");
    let _ = stdin.write_all(b"uci\nisready\ngo depth 4\n");
    std::thread::sleep(Duration::from_millis(500));
    let _ = stdin.write_all(b"quit\n");
    drop(stdin);
    let deadline = Instant::now() + Duration::from_secs(10);
    let status = loop {
        if let Ok(Some(s)) = child.try_wait() {
            break Some(s);
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            break None;
        }
        std::thread::sleep(Duration::from_millis(10));
    };
    let status = status.expect("engine hung with a closed stdout");
    assert!(status.success(), "exit status {status:?} (a panic gives 101)");
}

fn bench_nodes(depth: &str) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_arbiter")).args(["bench", depth]).output().expect("run bench");
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout).to_string();
    let line = text.lines().find(|l| l.starts_with("Nodes searched: ")).expect("Nodes searched line").to_string();
    assert!(text.lines().any(|l| l.starts_with("Nodes/second: ")));
    line
}

#[test]
fn bench_is_deterministic() {
    let a = bench_nodes("7");
    let b = bench_nodes("7");
    assert_eq!(a, b);
    let n: u64 = a.trim_start_matches("Nodes searched: ").parse().expect("a number");
    assert!(n > 10_000, "{a}");
}
