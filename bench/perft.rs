//! Move generator benchmarks: perft on the four standard positions and micro-benchmarks of
//! legal move generation, bulk counting and make_move (copy-make). Run with
//! `cargo bench --bench perft` (optionally `-- quick` for fewer repetitions).
//! Prints the median of several runs; compare figures as ratios within one run.

use arbiter::chess::movegen::{count_legal, legal_moves};
use arbiter::chess::perft::perft;
use arbiter::chess::{attacks, Position};
use std::hint::black_box;
use std::time::Instant;

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(|a, b| a.total_cmp(b));
    v[v.len() / 2]
}

fn main() {
    attacks::init();
    let quick = std::env::args().any(|a| a == "quick");
    let reps = if quick { 1 } else { 5 };
    let suites = [
        ("startpos d6", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 6, 119_060_324u64),
        ("kiwipete d5", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 5, 193_690_690),
        ("position 3 d7", "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 7, 178_633_661),
        ("position 4 d6", "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1", 6, 706_045_033),
    ];
    for (name, fen, depth, expected) in suites {
        let pos = Position::from_fen(fen).expect("benchmark FEN");
        let mut times = Vec::new();
        for _ in 0..reps {
            let t = Instant::now();
            let n = perft(black_box(&pos), depth);
            times.push(t.elapsed().as_secs_f64());
            assert_eq!(n, expected, "{name}");
        }
        let t = median(times);
        println!("perft {name:<14} {expected:>11} nodes  {t:>7.3} s  {:>6.1} Mnps", expected as f64 / t / 1e6);
    }

    // Micro-benchmarks over the positions reached at ply 3 of Kiwipete (varied, tactical).
    let kiwi = Position::from_fen("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1")
        .expect("benchmark FEN");
    let mut sample = vec![kiwi];
    for _ in 0..3 {
        sample =
            sample.iter().flat_map(|p| legal_moves(p).iter().map(|&m| p.make_move(m)).collect::<Vec<_>>()).collect();
    }
    let positions = sample.len();
    let mut gen_t = Vec::new();
    let mut count_t = Vec::new();
    let mut make_t = Vec::new();
    let mut moves_total = 0usize;
    for _ in 0..reps.max(3) {
        let t = Instant::now();
        let mut n = 0;
        for p in &sample {
            n += legal_moves(black_box(p)).len();
        }
        gen_t.push(t.elapsed().as_secs_f64());
        moves_total = n;
        let t = Instant::now();
        let mut c = 0;
        for p in &sample {
            c += count_legal(black_box(p));
        }
        count_t.push(t.elapsed().as_secs_f64());
        assert_eq!(c as usize, n);
        let lists: Vec<_> = sample.iter().take(20_000).map(|p| (p, legal_moves(p))).collect();
        let made: usize = lists.iter().map(|(_, l)| l.len()).sum();
        let t = Instant::now();
        let mut keys = 0u64;
        for (p, l) in &lists {
            for &m in l.iter() {
                keys ^= black_box(p.make_move(m)).key();
            }
        }
        black_box(keys);
        make_t.push(t.elapsed().as_secs_f64() / made as f64);
    }
    let g = median(gen_t);
    let c = median(count_t);
    println!(
        "movegen (legal list)  {:>6.1} ns/position  ({positions} positions, {moves_total} moves)",
        g / positions as f64 * 1e9
    );
    println!("movegen (count only)  {:>6.1} ns/position", c / positions as f64 * 1e9);
    println!("make_move (copy-make) {:>6.1} ns/move", median(make_t) * 1e9);
}
