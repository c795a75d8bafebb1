//! Tablebase probe speed: WDL and DTZ probes of a fixed set of positions, in probes/s.
//!
//! `ARBITER_SYZYGY_DIR=DIRS cargo bench --bench syzygy` (default: the tables kept in
//! `tests/data/syzygy`). The positions: random walks of quiet moves (seeded, so the same
//! every run) from one start position per ending below; those whose table is not loaded
//! are left out. `ARBITER_SYZYGY_ROUNDS` sets how often the set is probed (default 20),
//! `ARBITER_SYZYGY_KIND` (`wdl` or `dtz`) which probes alone are timed (default both):
//! instruction counts of two runs with different rounds (`valgrind --tool=callgrind`)
//! then give the cost of one probe of that kind. `ARBITER_SYZYGY_SPREAD=N` then probes N
//! random placements of each start's pieces (WDL and DTZ), to reach much of the tables,
//! and prints the peak resident memory (Linux): the page cache's bound, or the tables' size.

use arbiter::chess::{legal_moves, Piece, Position};
use arbiter::syzygy::Tablebases;
use std::hint::black_box;
use std::time::Instant;

const STARTS: &[&str] = &[
    "8/8/8/4k3/8/8/8/KQ6 w - - 0 1",
    "8/8/8/4k3/8/8/1r6/KQ6 w - - 0 1",
    "8/8/8/4k3/8/8/1r6/KR6 w - - 0 1",
    "8/8/8/4k3/8/8/8/KBN5 w - - 0 1",
    "8/8/4k3/8/3P4/8/8/4K3 w - - 0 1",
    "8/8/4k3/2p5/3P4/8/8/4K3 w - - 0 1",
    "8/8/8/4k3/8/8/1r6/KQR5 w - - 0 1",
    "8/8/8/4k3/8/3P4/1r6/KR6 w - - 0 1",
];

/// `n` positions reached from `start` by random quiet moves (a fixed xorshift sequence).
fn walk(start: &Position, n: usize, seed: &mut u64) -> Vec<Position> {
    let mut out = Vec::with_capacity(n);
    let mut pos = *start;
    while out.len() < n {
        let r = xorshift(seed);
        let quiet: Vec<_> =
            legal_moves(&pos).iter().copied().filter(|m| !m.is_capture() && !m.is_promotion()).collect();
        if quiet.is_empty() {
            pos = *start;
            continue;
        }
        pos = pos.make_move(quiet[(r % quiet.len() as u64) as usize]);
        out.push(pos);
    }
    out
}

fn main() {
    arbiter::chess::attacks::init();
    let dirs = std::env::var("ARBITER_SYZYGY_DIR")
        .unwrap_or_else(|_| concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/syzygy").to_string());
    let rounds: usize = std::env::var("ARBITER_SYZYGY_ROUNDS").ok().and_then(|r| r.parse().ok()).unwrap_or(20);
    let (tb, report) = Tablebases::load(&dirs);
    println!("tables: {report}");
    let mut seed = 0x5EED_0064_u64;
    let positions: Vec<Position> = STARTS
        .iter()
        .filter_map(|f| Position::from_fen(f).ok())
        .flat_map(|p| walk(&p, 500, &mut seed))
        .filter(|p| tb.probe_wdl(p).is_ok() && tb.probe_dtz(p).is_ok())
        .collect();
    println!("positions: {}", positions.len());
    let kind = std::env::var("ARBITER_SYZYGY_KIND").unwrap_or_default();
    for (name, dtz) in [("probe_wdl", false), ("probe_dtz", true)] {
        if !kind.is_empty() && kind != name[6..] {
            continue;
        }
        let t = Instant::now();
        let mut sum = 0i64;
        for _ in 0..rounds {
            for p in &positions {
                sum += if dtz {
                    tb.probe_dtz(black_box(p)).unwrap_or(0) as i64
                } else {
                    tb.probe_wdl(p).map_or(0, |w| w as i64)
                };
            }
        }
        black_box(sum);
        let n = (rounds * positions.len()) as f64;
        println!("{name:<10} {:10.0} probes/s ({n} probes, checksum {sum})", n / t.elapsed().as_secs_f64());
    }
    if let Some(n) = std::env::var("ARBITER_SYZYGY_SPREAD").ok().and_then(|n| n.parse::<usize>().ok()) {
        let mut sum = 0i64;
        let mut probed = 0;
        for start in STARTS.iter().filter_map(|f| Position::from_fen(f).ok()) {
            for _ in 0..n {
                let Some(p) = placed(&start, &mut seed) else { continue };
                if let (Ok(w), Ok(d)) = (tb.probe_wdl(&p), tb.probe_dtz(&p)) {
                    sum += w as i64 + d as i64;
                    probed += 1;
                }
            }
        }
        println!("spread: {probed} positions probed (checksum {sum})");
    }
    println!("table data kept in memory: {} KiB", tb.cached_bytes() / 1024);
    if let Ok(status) = std::fs::read_to_string("/proc/self/status") {
        if let Some(peak) = status.lines().find(|l| l.starts_with("VmHWM:")) {
            println!("peak resident memory: {}", peak["VmHWM:".len()..].trim());
        }
    }
}

/// The pieces of `start` on random squares (the same side to move), if that is legal.
fn placed(start: &Position, seed: &mut u64) -> Option<Position> {
    let mut board = [None; 64];
    for sq in 0..64u8 {
        let Some(piece) = start.piece_at(arbiter::chess::Square::new(sq)) else { continue };
        loop {
            let to = (xorshift(seed) % 64) as usize;
            let pawn_rank = piece.kind == arbiter::chess::PieceType::Pawn && !(8..56).contains(&to);
            if board[to].is_none() && !pawn_rank {
                board[to] = Some(piece);
                break;
            }
        }
    }
    // Each rank as 8 characters, `1` an empty square (a FEN the parser reads).
    let ranks: Vec<String> = (0..8)
        .rev()
        .map(|r| board[r * 8..r * 8 + 8].iter().map(|p| p.map_or('1', Piece::fen_char)).collect())
        .collect();
    let side = if start.side_to_move() == arbiter::chess::Color::White { 'w' } else { 'b' };
    Position::from_fen(&format!("{} {side} - - 0 1", ranks.join("/"))).ok()
}

/// The next number of a fixed xorshift sequence.
fn xorshift(seed: &mut u64) -> u64 {
    *seed ^= *seed << 13;
    *seed ^= *seed >> 7;
    *seed ^= *seed << 17;
    *seed
}
