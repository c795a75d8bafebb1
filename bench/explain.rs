//! Explain-mode speed: microseconds to explain one move (verdict, reasons, SAN, and for a
//! legal move the referee's report after it), over a mix of legal and illegal moves in
//! middlegame positions. The bar is < 1 ms per move. Run: `cargo bench --bench explain`.

use arbiter::chess::attacks;
use arbiter::explain::explain;
use arbiter::rules::Game;
use std::hint::black_box;
use std::time::Instant;

fn main() {
    attacks::init();
    let cases: Vec<(Game, &str)> = [
        (
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            vec!["O-O", "O-O-O", "Qxf6", "e1e3", "Nxd7", "a2a4", "Bxa6", "Rb1"],
        ),
        ("4r1k1/8/8/8/8/8/4R3/4K3 w - - 0 1", vec!["Re2f2", "Rxe8", "Ke2", "e2a6"]),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", vec!["e4", "Nf3", "Nd2", "e2e5", "hello", "O-O"]),
        ("8/8/8/KPp4r/8/8/8/6k1 w - c6 0 2", vec!["bxc6", "b6", "Ka4"]),
    ]
    .into_iter()
    .flat_map(|(fen, moves)| {
        let g = Game::from_fen_and_moves::<&str>(Some(fen), &[]).expect("bench FEN");
        moves.into_iter().map(move |m| (g.clone(), m))
    })
    .collect();
    // Warm up, then time.
    for (g, m) in &cases {
        black_box(explain(g, m));
    }
    let rounds = 2000;
    let start = Instant::now();
    for _ in 0..rounds {
        for (g, m) in &cases {
            black_box(explain(black_box(g), black_box(m)));
        }
    }
    let n = (rounds * cases.len()) as f64;
    let us = start.elapsed().as_secs_f64() * 1e6 / n;
    println!("explain: {us:.1} µs/op over {} moves x {rounds} rounds", cases.len());
}
