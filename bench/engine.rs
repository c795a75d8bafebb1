//! Hot-path micro-benchmarks: static evaluation (plain and with the search's pawn cache),
//! TT probe/store, SEE, move picking.
//! `cargo bench --bench engine` prints ns/op for each.

use arbiter::chess::movegen::legal_moves;
use arbiter::chess::Position;
use arbiter::engine::eval::{evaluate, evaluate_cached, PawnCache};
use arbiter::engine::history::History;
use arbiter::engine::movepick::MovePicker;
use arbiter::engine::see::see_ge;
use arbiter::engine::tt::{Bound, TranspositionTable};
use std::hint::black_box;
use std::time::Instant;

const FENS: &[&str] = &[
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 10",
    "2r1kb1r/pp1b1ppp/1qn1pn2/2pp4/3P1B2/2P1PN1P/PP1N1PP1/R1Q1KB1R w KQk - 1 9",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 11",
];

fn report(name: &str, ops: u64, start: Instant) {
    let ns = start.elapsed().as_nanos() as f64 / ops as f64;
    println!("{name:<28} {ns:8.1} ns/op");
}

fn main() {
    arbiter::chess::attacks::init();
    let positions: Vec<Position> = FENS.iter().filter_map(|f| Position::from_fen(f).ok()).collect();

    let n = 400_000u64;
    let t = Instant::now();
    let mut acc = 0i64;
    for i in 0..n {
        acc += evaluate(black_box(&positions[i as usize % positions.len()])) as i64;
    }
    black_box(acc);
    report("eval::evaluate", n, t);
    let mut cache = PawnCache::default();
    let t = Instant::now();
    for i in 0..n {
        acc += evaluate_cached(black_box(&positions[i as usize % positions.len()]), &mut cache) as i64;
    }
    black_box(acc);
    report("eval::evaluate_cached", n, t);

    let tt = TranspositionTable::new(16).expect("tt");
    let keys: Vec<u64> = (0..1u64 << 16).map(|i| i.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ (i << 7)).collect();
    let t = Instant::now();
    for (i, &k) in keys.iter().cycle().take(2_000_000).enumerate() {
        tt.store(k, None, i as i32 & 255, 0, (i & 15) as i32, Bound::Exact);
    }
    report("tt.store (16 MB)", 2_000_000, t);
    let t = Instant::now();
    let mut hits = 0u64;
    for &k in keys.iter().cycle().take(4_000_000) {
        hits += tt.probe(black_box(k)).is_some() as u64;
    }
    black_box(hits);
    report("tt.probe (16 MB)", 4_000_000, t);

    let moves: Vec<(Position, Vec<_>)> =
        positions.iter().map(|p| (*p, legal_moves(p).iter().copied().collect::<Vec<_>>())).collect();
    let t = Instant::now();
    let mut ops = 0u64;
    for _ in 0..20_000 {
        for (p, ms) in &moves {
            for &m in ms {
                acc += see_ge(p, m, 0) as i64;
                ops += 1;
            }
        }
    }
    black_box(acc);
    report("see::see_ge", ops, t);

    // Generate, score and hand out every move of a position (one interior node's picking).
    let hist = History::default();
    let mut picker = MovePicker::default();
    let n = 200_000u64;
    let t = Instant::now();
    for i in 0..n {
        let pos = black_box(&positions[i as usize % positions.len()]);
        picker.reset(pos, None, &hist, 2, None, &[None, None]);
        while let Some((m, s)) = picker.next_move(pos, &hist) {
            acc += s as i64 + m.raw() as i64;
        }
    }
    black_box(acc);
    report("movepick (all moves)", n, t);
}
