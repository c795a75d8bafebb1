//! The unwinnability decision against CHA's test vectors and real game positions.
//!
//! ```text
//! cargo bench --bench unwinnable -- [--vectors FILE] [--positions FILE] [--budget NODES] [--every K]
//! ```
//! - `--vectors`: lines `WB|W-|-B|-- FEN` (default `tests/data/cha-test-vectors.txt`): per class
//!   the side verdicts decided, undetermined and wrong (must be 0); every helpmate is replayed.
//! - `--positions`: one FEN per line (anything after the FEN's fields ignored): per-position time
//!   (both sides), median / mean / p99 / max, verdict counts, the Undetermined rate, the slowest.
//! - `--mode`: what is timed per position with `--positions`: `decide` (the verdicts, the
//!   default), `batch` (`arbiter unwinnable --epd`: the verdicts with the decision's helpmate as
//!   the example), `shortest` (the same with `--shortest`), `report` (the position report of
//!   `arbiter explain`, as a web board asks for it after every move).
//! - `--every K`: only every K-th vector (a quick look).
//!
//! Prints the undetermined and wrong vectors with their side, so they can be studied.

use arbiter::chess::{attacks, Color, Position};
use arbiter::rules::unwinnable::{
    decide, decide_with_any_example, decide_with_example, is_helpmate, Budget, Decision, Verdict, EXAMPLE_NODES,
};
use arbiter::rules::Game;
use std::collections::BTreeMap;
use std::time::Instant;

/// CPU time of this thread in microseconds (not wall time: the measurement machine is shared,
/// and a thread waiting for a core should not count). Wall time where that is unavailable.
#[cfg(target_os = "linux")]
fn cpu_micros() -> f64 {
    #[repr(C)]
    struct Timespec {
        tv_sec: i64,
        tv_nsec: i64,
    }
    extern "C" {
        fn clock_gettime(clock: i32, tp: *mut Timespec) -> i32;
    }
    const CLOCK_THREAD_CPUTIME_ID: i32 = 3;
    let mut t = Timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: clock_gettime writes one Timespec (two 64-bit fields on 64-bit Linux, which is
    // what this bench runs on) through a pointer to a live local; no other memory is touched.
    let rc = unsafe { clock_gettime(CLOCK_THREAD_CPUTIME_ID, &mut t) };
    if rc != 0 {
        return wall_micros();
    }
    t.tv_sec as f64 * 1e6 + t.tv_nsec as f64 / 1e3
}

#[cfg(not(target_os = "linux"))]
fn cpu_micros() -> f64 {
    wall_micros()
}

fn wall_micros() -> f64 {
    static START: std::sync::OnceLock<Instant> = std::sync::OnceLock::new();
    START.get_or_init(Instant::now).elapsed().as_secs_f64() * 1e6
}

fn main() {
    attacks::init();
    let mut vectors = Some("tests/data/cha-test-vectors.txt".to_string());
    let mut positions = None;
    let mut budget = Budget::default();
    let mut every = 1usize;
    let mut mode = Mode::Decide;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--vectors" => vectors = args.next(),
            "--no-vectors" => vectors = None,
            "--positions" => positions = args.next(),
            "--budget" => budget = Budget(args.next().and_then(|s| s.parse().ok()).unwrap_or(budget.0)),
            "--mode" => {
                mode = match args.next().as_deref() {
                    Some("decide") => Mode::Decide,
                    Some("batch") => Mode::Batch,
                    Some("shortest") => Mode::Shortest,
                    Some("report") => Mode::Report,
                    other => panic!("--mode {other:?}: decide, batch, shortest or report"),
                }
            }
            "--every" => every = args.next().and_then(|s| s.parse().ok()).unwrap_or(1).max(1),
            "--dump" => {
                let n = args.next().and_then(|s| s.parse().ok()).unwrap_or(50);
                if let Some(p) = &positions {
                    dump(p, budget, n);
                }
                return;
            }
            "--reach" => {
                let fen = args.next().unwrap_or_default();
                let pos = Position::from_fen(&fen).expect("FEN");
                let r = arbiter::rules::unwinnable::reach::Reach::new(&pos);
                for u in r.units() {
                    let names =
                        |b: arbiter::chess::Bitboard| b.squares().map(|q| q.to_string()).collect::<Vec<_>>().join(" ");
                    println!(
                        "{:?} {:?} {}: {} | promoted: {}",
                        u.color,
                        u.kind,
                        u.square,
                        names(u.reach),
                        names(u.promoted)
                    );
                }
                for side in [Color::White, Color::Black] {
                    println!("{}: {:?}", side.name(), arbiter::rules::unwinnable::statics::prove(&pos, side));
                }
                return;
            }
            "--bench" => {}
            other => eprintln!("ignored argument {other}"),
        }
    }
    if let Some(path) = vectors {
        run_vectors(&path, budget, every);
    }
    if let Some(path) = positions {
        run_positions(&path, budget, mode);
    }
}

fn fen_of(text: &str) -> Option<String> {
    // A FEN has 4 or 6 fields; take the first 6 whitespace-separated fields at most. (One CHA
    // vector has only placement and side to move: the missing fields are "-".)
    let fields: Vec<&str> = text.split_whitespace().collect();
    if fields.len() == 2 {
        return Some(format!("{} {} - -", fields[0], fields[1]));
    }
    if fields.len() < 4 {
        return None;
    }
    let n =
        if fields.len() >= 6 && fields[4].parse::<u32>().is_ok() && fields[5].parse::<u32>().is_ok() { 6 } else { 4 };
    let end = fields[..n].iter().map(|f| f.len()).sum::<usize>() + n - 1;
    let start = text.find(fields[0])?;
    Some(text[start..start + end].to_string())
}

#[derive(Default)]
struct Tally {
    decided: u32,
    undetermined: u32,
    wrong: u32,
    total: u32,
}

fn run_vectors(path: &str, budget: Budget, every: usize) {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let mut tallies: BTreeMap<(String, &str), Tally> = BTreeMap::new();
    let mut times = Vec::new();
    let mut nodes_total = 0u64;
    let mut bad_helpmates = 0;
    let start_all = Instant::now();
    for (i, line) in text.lines().filter(|l| !l.starts_with('#') && !l.trim().is_empty()).enumerate() {
        if i % every != 0 {
            continue;
        }
        let (class, rest) = line.split_at(2);
        let Some(fen) = fen_of(rest) else { continue };
        let Ok(pos) = Position::from_fen(&fen) else {
            println!("bad FEN: {line}");
            continue;
        };
        for (side, idx) in [(Color::White, 0), (Color::Black, 1)] {
            if class.as_bytes()[idx] == b'?' {
                continue; // this side's verdict is not asked for
            }
            let expected_win = class.as_bytes()[idx] != b'-';
            let t = cpu_micros();
            let d = decide(&pos, side, budget);
            let us = cpu_micros() - t;
            times.push(us);
            nodes_total += d.nodes;
            let key = (class.to_string(), if expected_win { "winnable" } else { "unwinnable" });
            let tally = tallies.entry(key).or_default();
            tally.total += 1;
            match &d.verdict {
                Verdict::Undetermined => {
                    tally.undetermined += 1;
                    println!("undetermined {} nodes {} {:.0} ms ({line})", side.name(), d.nodes, us / 1000.0);
                }
                Verdict::Winnable { helpmate } => {
                    if !is_helpmate(&pos, side, helpmate) {
                        bad_helpmates += 1;
                        println!("INVALID HELPMATE {} ({line})", side.name());
                    }
                    if expected_win {
                        tally.decided += 1;
                    } else {
                        tally.wrong += 1;
                        println!("WRONG winnable {} ({line})", side.name());
                    }
                }
                Verdict::Unwinnable { reason } => {
                    if expected_win {
                        tally.wrong += 1;
                        println!("WRONG unwinnable ({}) {} ({line})", reason.code(), side.name());
                    } else {
                        tally.decided += 1;
                    }
                }
            }
        }
    }
    println!("\nclass side-verdict   total decided undetermined wrong");
    let mut sum = Tally::default();
    for ((class, kind), t) in &tallies {
        println!("{class}    {kind:<12} {:>5} {:>7} {:>12} {:>5}", t.total, t.decided, t.undetermined, t.wrong);
        sum.total += t.total;
        sum.decided += t.decided;
        sum.undetermined += t.undetermined;
        sum.wrong += t.wrong;
    }
    println!("all               {:>5} {:>7} {:>12} {:>5}", sum.total, sum.decided, sum.undetermined, sum.wrong);
    println!("invalid helpmates: {bad_helpmates}");
    report_times("per side verdict", &mut times);
    println!("nodes: {nodes_total}; wall {:.1} s", start_all.elapsed().as_secs_f64());
}

/// What `--positions` times per position.
#[derive(Clone, Copy)]
enum Mode {
    Decide,
    Batch,
    Shortest,
    Report,
}

/// Both sides' answers in `mode` (the report's `mate_possible`, as shown to a reader).
fn answer(pos: &Position, budget: Budget, mode: Mode) -> [Decision; 2] {
    let each = |side| match mode {
        Mode::Decide | Mode::Report => decide(pos, side, budget),
        Mode::Batch => decide_with_any_example(pos, side, budget),
        Mode::Shortest => decide_with_example(pos, side, budget, EXAMPLE_NODES),
    };
    if let Mode::Report = mode {
        let report = Game::new(*pos).report().for_reader(pos);
        if let Some(both) = report.mate_possible {
            return both;
        }
    }
    [each(Color::White), each(Color::Black)]
}

fn run_positions(path: &str, budget: Budget, mode: Mode) {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let mut times = Vec::new();
    let mut counts: BTreeMap<&str, u32> = BTreeMap::new();
    let mut bad_helpmates = 0;
    let mut n = 0;
    let mut nodes_each: Vec<u64> = Vec::new();
    let mut slowest: Vec<(f64, String)> = Vec::new();
    for line in text.lines().filter(|l| !l.starts_with('#') && !l.trim().is_empty()) {
        let Some(fen) = fen_of(line) else { continue };
        let Ok(pos) = Position::from_fen(&fen) else { continue };
        n += 1;
        let t = cpu_micros();
        let both = answer(&pos, budget, mode);
        let us = cpu_micros() - t;
        times.push(us);
        slowest.push((us, fen.clone()));
        nodes_each.push(both[0].nodes + both[1].nodes);
        for (d, side) in both.iter().zip([Color::White, Color::Black]) {
            *counts.entry(d.verdict.code()).or_default() += 1;
            match &d.verdict {
                Verdict::Winnable { helpmate } if !is_helpmate(&pos, side, helpmate) => bad_helpmates += 1,
                Verdict::Undetermined => println!("undetermined {} ({fen})", side.name()),
                _ => {}
            }
        }
    }
    slowest.sort_by(|a, b| b.0.total_cmp(&a.0));
    for (us, fen) in slowest.iter().take(5) {
        println!("slow: {:.1} ms {fen}", us / 1000.0);
    }
    let nodes_sorted = {
        let mut v = nodes_each.clone();
        v.sort_unstable();
        v
    };
    if !nodes_sorted.is_empty() {
        println!(
            "nodes per position: median {}, p90 {}, p99 {}",
            nodes_sorted[nodes_sorted.len() / 2],
            nodes_sorted[nodes_sorted.len() * 9 / 10],
            nodes_sorted[nodes_sorted.len() * 99 / 100]
        );
    }
    println!("\n{n} positions, both sides: {counts:?}; invalid helpmates {bad_helpmates}");
    let und = counts.get("undetermined").copied().unwrap_or(0);
    println!("undetermined: {:.3} % of side verdicts", 100.0 * und as f64 / (2 * n).max(1) as f64);
    report_times("per position (both sides)", &mut times);
}

fn report_times(what: &str, times: &mut [f64]) {
    if times.is_empty() {
        return;
    }
    times.sort_by(|a, b| a.total_cmp(b));
    let pct = |p: f64| times[((times.len() - 1) as f64 * p).round() as usize];
    let mean = times.iter().sum::<f64>() / times.len() as f64;
    println!(
        "CPU time {what}: median {:.1} µs, mean {:.1} µs, p90 {:.1} µs, p99 {:.1} µs, max {:.1} ms",
        pct(0.5),
        mean,
        pct(0.9),
        pct(0.99),
        times[times.len() - 1] / 1000.0
    );
}

#[allow(dead_code)]
fn dump(path: &str, budget: Budget, n: usize) {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    for line in text.lines().take(n) {
        let Some(fen) = fen_of(line) else { continue };
        let Ok(pos) = Position::from_fen(&fen) else { continue };
        for side in [Color::White, Color::Black] {
            let t = cpu_micros();
            let d = decide(&pos, side, budget);
            let us = cpu_micros() - t;
            let len = match &d.verdict {
                Verdict::Winnable { helpmate } => helpmate.len() as i64,
                _ => -1,
            };
            println!(
                "{:>8.1} µs {:>7} nodes len {:>3} {:<12} {} {}",
                us,
                d.nodes,
                len,
                d.verdict.code(),
                side.name(),
                fen
            );
            if let Verdict::Winnable { helpmate } = &d.verdict {
                let mut p = pos;
                let mut sans = Vec::new();
                for &m in helpmate {
                    sans.push(arbiter::chess::notation::to_san(&p, m));
                    p = p.make_move(m);
                }
                println!("      {}", sans.join(" "));
            }
        }
    }
}
