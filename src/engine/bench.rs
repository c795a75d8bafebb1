//! `bench`: a fixed search over a fixed list of positions with one thread and a 16 MB
//! hash, cleared before every position. The node count is a fingerprint of the search
//! and evaluation (it changes when they change and is otherwise deterministic), quoted
//! as `Bench: N` in commit messages; nodes/second is a speed measurement. The evaluation is
//! the one `EvalFile` names (by default the engine's default evaluation).

use super::{Engine, EngineOptions, Limits, OptionError, SearchControl, SearchRequest};
use crate::chess::Position;
use std::sync::Arc;
use std::time::{Duration, Instant};

pub const DEFAULT_DEPTH: u32 = 11;

/// Openings, middlegames, endgames; tactical and quiet; positions with checks, mates,
/// promotions, repetitions nearby. Sources: the Chess Programming Wiki perft positions,
/// the Bratko-Kopec test, and balanced openings from the Stockfish 8-move book.
const POSITIONS: &[&str] = &[
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 10",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 11",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
    "2r1kb1r/pp1b1ppp/1qn1pn2/2pp4/3P1B2/2P1PN1P/PP1N1PP1/R1Q1KB1R w KQk - 1 9",
    "r1bqk2r/pp3ppp/2n1p3/2bn4/8/2N2NP1/PP2PPBP/R1BQK2R w KQkq - 0 9",
    "r1bqk2r/p3npbp/1pn1p1p1/2pp4/4P3/2PPBNP1/PP3PBP/RN1Q1RK1 w kq - 0 9",
    "1k1r4/pp1b1R2/3q2pp/4p3/2B5/4Q3/PPP2B2/2K5 b - - 0 1",
    "3r1k2/4npp1/1ppr3p/p6P/P2PPPP1/1NR5/5K2/2R5 w - - 0 1",
    "2q1rr1k/3bbnnp/p2p1pp1/2pPp3/PpP1P1P1/1P2BNNP/2BQ1PRK/7R b - - 0 1",
    "rnbqkb1r/p3pppp/1p6/2ppP3/3N4/2P5/PPP1QPPP/R1B1KB1R w KQkq - 0 1",
    "r1b2rk1/2q1b1pp/p2ppn2/1p6/3QP3/1BN1B3/PPP3PP/R4RK1 w - - 0 1",
    "2r3k1/pppR1pp1/4p3/4P1P1/5P2/1P4K1/P1P5/8 w - - 0 1",
    "1nk1r1r1/pp2n1pp/4p3/q2pPp1N/b1pP1P2/B1P2R2/2P1B1PP/R2Q2K1 w - - 0 1",
    "4b3/p3kp2/6p1/3pP2p/2pP1P2/4K1P1/P3N2P/8 w - - 0 1",
    "2kr1bnr/pbpq4/2n1pp2/3p3p/3P1P1B/2N2N1Q/PPP3PP/2KR1B1R w - - 0 1",
    "3rr1k1/pp3pp1/1qn2np1/8/3p4/PP1R1P2/2P1NQPP/R1B3K1 b - - 0 1",
    "2r1nrk1/p2q1ppp/bp1p4/n1pPp3/P1P1P3/2PBB1N1/4QPPP/R4RK1 w - - 0 1",
    "r3r1k1/ppqb1ppp/8/4p1NQ/8/2P5/PP3PPP/R3R1K1 b - - 0 1",
    "r2q1rk1/4bppp/p2p4/2pP4/3pP3/3Q4/PP1B1PPP/R3R1K1 w - - 0 1",
    "rnb2r1k/pp2p2p/2pp2p1/q2P1p2/8/1Pb2NP1/PB2PPBP/R2Q1RK1 w - - 0 1",
    "2r3k1/1p2q1pp/2b1pr2/p1pp4/6Q1/1P1PP1R1/P1PN2PP/5RK1 w - - 0 1",
    "r1bqkb1r/4npp1/p1p4p/1p1pP1B1/8/1B6/PPPN1PPP/R2QK2R w KQkq - 0 1",
    "r2q1rk1/1ppnbppp/p2p1nb1/3Pp3/2P1P1P1/2N2N1P/PPB1QP2/R1B2RK1 b - - 0 1",
    "r1bq1rk1/pp2ppbp/2np2p1/2n5/P3PP2/N1P2N2/1PB3PP/R1B1QRK1 b - - 0 1",
    "3rr3/2pq2pk/p2p1pnp/8/2QBPP2/1P6/P5PP/4RRK1 b - - 0 1",
    "r4k2/pb2bp1r/1p1qp2p/3pNp2/3P1P2/2N3P1/PPP1Q2P/2KRR3 w - - 0 1",
    "3rn2k/ppb2rpp/2ppqp2/5N2/2P1P3/1P5Q/PB3PPP/3RR1K1 w - - 0 1",
    "2r2rk1/1bqnbpp1/1p1ppn1p/pP6/N1P1P3/P2B1N1P/1B2QPP1/R2R2K1 b - - 0 1",
    "r1bqk2r/pp2bppp/2p5/3pP3/P2Q1P2/2N1B3/1PP3PP/R4RK1 b kq - 0 1",
    "8/8/8/5k2/8/8/4K3/3R4 w - - 0 1",
    "8/5pk1/6p1/8/5P2/6P1/5K2/8 w - - 0 1",
    "8/8/2k5/5q2/5n2/8/5K2/8 b - - 0 1",
    "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1",
    "8/8/8/8/8/6k1/6p1/6K1 w - - 0 1",
    "k7/8/1Q6/8/8/8/8/7K b - - 0 1",
    "4k3/8/8/8/8/8/3PPP2/4K3 w - - 0 1",
    "8/3k4/8/3KP3/8/8/8/8 w - - 0 1",
];

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BenchResult {
    pub nodes: u64,
    pub elapsed: Duration,
}

impl BenchResult {
    pub fn nps(&self) -> u64 {
        (self.nodes as u128 * 1_000_000 / self.elapsed.as_micros().max(1)) as u64
    }
}

/// Searches every position to `depth` evaluating with what `eval_file` names (an `EvalFile`
/// value); `progress` receives one line per position. Fails if the engine cannot be made
/// (the network cannot be read, the hash cannot be allocated): the reason.
pub fn run(depth: u32, eval_file: &str, progress: &mut dyn FnMut(&str)) -> Result<BenchResult, String> {
    crate::chess::attacks::init();
    let opts = EngineOptions {
        hash_mb: 16,
        threads: 1,
        multipv: 1,
        eval_file: eval_file.to_string(),
        ..EngineOptions::default()
    };
    let mut engine = Engine::new(opts).map_err(|e| match e {
        OptionError::EvalFile(why) => format!("EvalFile {why}"),
        other => other.to_string(),
    })?;
    let limits = Limits { depth: Some(depth.max(1)), ..Limits::default() };
    let start = Instant::now();
    let mut nodes = 0;
    for (i, fen) in POSITIONS.iter().enumerate() {
        let Ok(pos) = Position::from_fen(fen) else {
            progress(&format!("position {} has a bad FEN: {fen}", i + 1));
            continue;
        };
        engine.new_game();
        let request = SearchRequest { position: pos, history: Vec::new(), limits: limits.clone() };
        let r = engine.search(request, &Arc::new(SearchControl::new()), &mut |_| {});
        nodes += r.nodes;
        progress(&format!(
            "position {:2}/{}: bestmove {} score {} nodes {}",
            i + 1,
            POSITIONS.len(),
            r.best.map_or("0000".to_string(), |m| m.to_string()),
            r.score,
            r.nodes
        ));
    }
    Ok(BenchResult { nodes, elapsed: start.elapsed() })
}
