//! `selfplay --opening-max-score`: each opening searched before it is played, and dropped when
//! a side is already far ahead. Random openings (`scripts/random_openings.py`) sometimes hang
//! a piece in their random plies; every position of such a game is a lost one for a side, and
//! teaches a network what it knows already (issue #33: "an evaluation check on random
//! openings").

use crate::chess::Position;
use crate::engine::{Engine, EngineOptions, Limits, Score, SearchControl, SearchRequest};
use std::sync::Arc;

/// The check: a search of `nodes` nodes by the built-in evaluation; an opening is kept when
/// its score is within ± `max_score` centipawns.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Balance {
    pub nodes: u64,
    pub max_score: i32,
}

/// The openings that pass `check`, in their order. Each is searched by a cleared engine, so
/// which are kept depends neither on `threads` nor on the order.
pub fn balanced(openings: Vec<Position>, check: Balance, threads: usize) -> Result<Vec<Position>, String> {
    let part = openings.len().div_ceil(threads.max(1)).max(1);
    let verdicts = std::thread::scope(|s| {
        let workers: Vec<_> = openings.chunks(part).map(|chunk| s.spawn(move || judge(chunk, check))).collect();
        workers
            .into_iter()
            .map(|w| w.join().unwrap_or_else(|_| Err("a thread of the opening check panicked".into())))
            .collect::<Result<Vec<Vec<bool>>, String>>()
    })?;
    Ok(openings.into_iter().zip(verdicts.into_iter().flatten()).filter_map(|(pos, keep)| keep.then_some(pos)).collect())
}

/// Whether each of `openings` is within the margin.
fn judge(openings: &[Position], check: Balance) -> Result<Vec<bool>, String> {
    // The smallest table: it is cleared before every opening, and a few thousand nodes need little.
    let mut engine =
        Engine::new(EngineOptions { hash_mb: 1, ..EngineOptions::default() }).map_err(|e| e.to_string())?;
    let control = Arc::new(SearchControl::new());
    let limits = Limits { nodes: Some(check.nodes), ..Limits::default() };
    Ok(openings
        .iter()
        .map(|pos| {
            engine.new_game();
            let request = SearchRequest { position: *pos, history: Vec::new(), limits: limits.clone() };
            let result = engine.search(request, &control, &mut |_| {});
            matches!(result.score, Score::Cp(cp) if cp.abs() <= check.max_score)
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn positions(fens: &[&str]) -> Vec<Position> {
        crate::chess::attacks::init();
        fens.iter().map(|f| Position::from_fen(f).expect("fen")).collect()
    }

    #[test]
    fn drops_the_openings_a_side_has_already_won_whatever_the_threads() {
        let openings = positions(&[
            // The initial position and a quiet opening: kept.
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "rnbqkb1r/pppp1ppp/5n2/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
            // White's queen hangs to a pawn, Black to move: dropped.
            "rnbqkbnr/ppp1pppp/8/3p4/4Q3/8/PPPP1PPP/RNB1KBNR b KQkq - 1 3",
            // Black has no queen: dropped.
            "rnb1kbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 3",
            // Mate on the board (fool's mate): dropped, a mate is beyond any margin.
            "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3",
        ]);
        let check = Balance { nodes: 2000, max_score: 200 };
        let one = balanced(openings.clone(), check, 1).expect("check");
        assert_eq!(one, openings[..2].to_vec());
        assert_eq!(balanced(openings.clone(), check, 3).expect("check"), one);
        // A margin wide enough keeps every opening a side is not mated in.
        assert_eq!(balanced(openings.clone(), Balance { nodes: 2000, max_score: 30_000 }, 2).expect("check").len(), 4);
    }
}
