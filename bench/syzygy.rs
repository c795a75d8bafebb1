//! Tablebase probe speed: WDL and DTZ probes of a fixed set of positions, in probes/s.
//!
//! `ARBITER_SYZYGY_DIR=DIRS cargo bench --bench syzygy` (default: the tables kept in
//! `tests/data/syzygy`). The positions: random walks of quiet moves (seeded, so the same
//! every run) from one start position per ending below; those whose table is not loaded
//! are left out. `ARBITER_SYZYGY_ROUNDS` sets how often the set is probed (default 20).

use arbiter::chess::{legal_moves, Position};
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
        *seed ^= *seed << 13;
        *seed ^= *seed >> 7;
        *seed ^= *seed << 17;
        let quiet: Vec<_> =
            legal_moves(&pos).iter().copied().filter(|m| !m.is_capture() && !m.is_promotion()).collect();
        if quiet.is_empty() {
            pos = *start;
            continue;
        }
        pos = pos.make_move(quiet[(*seed % quiet.len() as u64) as usize]);
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
    for (name, dtz) in [("probe_wdl", false), ("probe_dtz", true)] {
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
}
