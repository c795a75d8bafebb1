//! UCI torture: random but well-formed sequences of position / go (every limit kind) /
//! stop / isready / setoption (Hash and Threads included) / ucinewgame / ponderhit, with
//! random pauses, against the real binary. Checked: every `isready` is answered, every
//! search ends with exactly one `bestmove` that is legal in the position searched, and
//! the latencies of `isready` -> `readyok` and `stop` -> `bestmove`.
//!
//! CI runs 200 sequences with hang-detector bounds only (a loaded 2-core CI machine is no
//! place for timing assertions); the long run reports p50/p99/max:
//! `ARBITER_TORTURE_SEQUENCES=10000 cargo test --release --test it uci_torture:: -- --ignored --nocapture`.
//! `ARBITER_UCI_BIN=/path/to/engine` points it at another UCI engine.

use arbiter::chess::movegen::legal_moves;
use arbiter::chess::notation::parse_uci_move;
use arbiter::chess::Position;
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

use crate::common::rng::Rng;

/// Longest acceptable wait for any answer: a hang detector, not a performance bound.
const HANG: Duration = Duration::from_secs(10);

struct Engine {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<(Instant, String)>,
}

impl Engine {
    fn start() -> Engine {
        let bin = std::env::var("ARBITER_UCI_BIN").unwrap_or_else(|_| env!("CARGO_BIN_EXE_arbiter").to_string());
        let mut child = Command::new(bin)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("engine starts");
        let stdin = child.stdin.take().expect("stdin");
        let stdout = child.stdout.take().expect("stdout");
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send((Instant::now(), line)).is_err() {
                    break;
                }
            }
        });
        let mut e = Engine { child, stdin, lines };
        e.send("uci");
        e.wait_for("uciok");
        e
    }

    fn send(&mut self, cmd: &str) -> Instant {
        writeln!(self.stdin, "{cmd}").expect("engine accepts input");
        self.stdin.flush().expect("flush");
        Instant::now()
    }

    /// Waits for a line starting with `prefix`; returns it with its arrival time.
    /// Lines before it are checked: no `bestmove` may arrive unexpectedly.
    fn wait_for(&mut self, prefix: &str) -> (Instant, String) {
        let deadline = Instant::now() + HANG;
        loop {
            match self.lines.recv_timeout(deadline.saturating_duration_since(Instant::now())) {
                Ok((t, line)) => {
                    if line.starts_with(prefix) {
                        return (t, line);
                    }
                    assert!(!line.starts_with("bestmove"), "unexpected '{line}' while waiting for {prefix}");
                }
                Err(RecvTimeoutError::Timeout) => panic!("no '{prefix}' within {HANG:?}"),
                Err(RecvTimeoutError::Disconnected) => panic!("engine exited while waiting for '{prefix}'"),
            }
        }
    }

    /// Nothing arrives for `d` except info lines (asserts no stray bestmove).
    fn quiet_for(&mut self, d: Duration) {
        let deadline = Instant::now() + d;
        while let Ok((_, line)) = self.lines.recv_timeout(deadline.saturating_duration_since(Instant::now())) {
            assert!(!line.starts_with("bestmove"), "stray '{line}'");
        }
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = writeln!(self.stdin, "quit");
        let _ = self.stdin.flush();
        let deadline = Instant::now() + Duration::from_secs(5);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A random position: an opening line from the suite plus a few random legal moves,
/// sent as `position fen F moves ...` or `position startpos moves ...`.
fn random_position(rng: &mut Rng, openings: &[&str]) -> (String, Position) {
    let (mut cmd, mut pos) = if rng.below(3) == 0 {
        ("position startpos".to_string(), Position::startpos())
    } else {
        let fen = openings[rng.below(openings.len())];
        (format!("position fen {fen}"), Position::from_fen(fen).expect("opening FEN"))
    };
    let n = rng.below(12);
    let mut moves = Vec::new();
    for _ in 0..n {
        let list = legal_moves(&pos);
        if list.is_empty() {
            break;
        }
        let m = list.get(rng.below(list.len()));
        moves.push(m.to_string());
        pos = pos.make_move(m);
    }
    if !moves.is_empty() {
        cmd.push_str(" moves ");
        cmd.push_str(&moves.join(" "));
    }
    (cmd, pos)
}

#[derive(Default)]
struct Stats {
    searches: usize,
    stop_latencies: Vec<Duration>,
    ready_latencies: Vec<Duration>,
}

fn check_bestmove(line: &str, pos: &Position) {
    let mut it = line.split_whitespace().skip(1);
    let mv = it.next().expect("bestmove has a move");
    if legal_moves(pos).is_empty() {
        assert_eq!(mv, "0000", "no legal move, yet '{line}' at {}", pos.to_fen());
    } else {
        assert!(parse_uci_move(pos, mv).is_ok(), "illegal '{line}' at {}", pos.to_fen());
    }
}

fn run_sequence(e: &mut Engine, rng: &mut Rng, openings: &[&str], stats: &mut Stats) {
    for _ in 0..1 + rng.below(6) {
        match rng.below(10) {
            0 => {
                let hash = [1, 2, 8, 16, 33][rng.below(5)];
                e.send(&format!("setoption name Hash value {hash}"));
            }
            1 => {
                let threads = 1 + rng.below(3);
                e.send(&format!("setoption name Threads value {threads}"));
            }
            2 => {
                e.send("ucinewgame");
            }
            3 => {
                let t = e.send("isready");
                let (r, _) = e.wait_for("readyok");
                stats.ready_latencies.push(r - t);
            }
            _ => {
                let (cmd, pos) = random_position(rng, openings);
                e.send(&cmd);
                search(e, rng, &pos, stats);
            }
        }
    }
    let t = e.send("isready");
    let (r, _) = e.wait_for("readyok");
    stats.ready_latencies.push(r - t);
}

fn search(e: &mut Engine, rng: &mut Rng, pos: &Position, stats: &mut Stats) {
    stats.searches += 1;
    match rng.below(8) {
        0 => {
            e.send(&format!("go depth {}", 1 + rng.below(5)));
        }
        1 => {
            e.send(&format!("go nodes {}", 1 + rng.below(20_000)));
        }
        2 => {
            e.send(&format!("go movetime {}", 1 + rng.below(60)));
        }
        3 => {
            let (w, b) = (10 + rng.below(3000), 10 + rng.below(3000));
            e.send(&format!("go wtime {w} btime {b} winc {} binc {}", rng.below(100), rng.below(100)));
        }
        4 => {
            e.send(&format!(
                "go wtime {} btime {} movestogo {}",
                50 + rng.below(2000),
                50 + rng.below(2000),
                1 + rng.below(30)
            ));
        }
        5 | 6 => {
            // Infinite or ponder, then stop (or ponderhit) after a random pause.
            let ponder = rng.below(2) == 0;
            e.send(if ponder { "go ponder wtime 2000 btime 2000" } else { "go infinite" });
            let pause = Duration::from_millis(rng.below_u64(80));
            e.quiet_for(pause);
            if ponder && rng.below(2) == 0 {
                e.send("ponderhit");
                let (_, line) = e.wait_for("bestmove");
                check_bestmove(&line, pos);
                return;
            }
            if rng.below(4) == 0 {
                let t = e.send("isready");
                let (r, _) = e.wait_for("readyok");
                stats.ready_latencies.push(r - t);
            }
            let t = e.send("stop");
            let (b, line) = e.wait_for("bestmove");
            stats.stop_latencies.push(b - t);
            check_bestmove(&line, pos);
            if rng.below(3) == 0 {
                e.send("stop"); // a second stop is harmless: no second bestmove
            }
            return;
        }
        _ => {
            e.send(&format!("go mate {}", 1 + rng.below(3)));
            // A mate search may end by itself or run long where there is no mate: stop it
            // either way; exactly one bestmove must come (checked by the next wait_for).
            std::thread::sleep(Duration::from_millis(rng.below_u64(50)));
            e.send("stop");
        }
    }
    let (_, line) = e.wait_for("bestmove");
    check_bestmove(&line, pos);
}

fn percentile(v: &mut [Duration], p: f64) -> Duration {
    if v.is_empty() {
        return Duration::ZERO;
    }
    v.sort();
    v[((v.len() - 1) as f64 * p).round() as usize]
}

fn torture(sequences: usize, seed: u64) -> Stats {
    let openings: Vec<&str> = include_str!("../data/openings.epd").lines().collect();
    let mut rng = Rng::new(seed);
    let mut stats = Stats::default();
    let mut e = Engine::start();
    for i in 0..sequences {
        run_sequence(&mut e, &mut rng, &openings, &mut stats);
        if i % 500 == 499 {
            // A fresh process now and then, as a GUI restarting the engine would.
            e = Engine::start();
        }
    }
    let (mut s, mut r) = (stats.stop_latencies.clone(), stats.ready_latencies.clone());
    eprintln!(
        "uci torture: {sequences} sequences, {} searches; stop->bestmove p50 {:?} p99 {:?} max {:?} (n={}); \
         isready->readyok p50 {:?} p99 {:?} max {:?} (n={})",
        stats.searches,
        percentile(&mut s, 0.5),
        percentile(&mut s, 0.99),
        s.last().copied().unwrap_or_default(),
        s.len(),
        percentile(&mut r, 0.5),
        percentile(&mut r, 0.99),
        r.last().copied().unwrap_or_default(),
        r.len()
    );
    stats
}

#[test]
fn uci_torture_short() {
    let stats = torture(200, 0x7021_0001);
    assert!(stats.searches > 100);
}

#[test]
#[ignore = "long run; set ARBITER_TORTURE_SEQUENCES (default 10,000) and report the latencies"]
fn uci_torture_long() {
    let n = std::env::var("ARBITER_TORTURE_SEQUENCES").ok().and_then(|s| s.parse().ok()).unwrap_or(10_000);
    let mut stats = torture(n, 0x7021_0002);
    assert!(percentile(&mut stats.ready_latencies, 0.99) < Duration::from_millis(100), "isready p99");
    assert!(percentile(&mut stats.stop_latencies, 0.99) < Duration::from_millis(5), "stop p99");
}
