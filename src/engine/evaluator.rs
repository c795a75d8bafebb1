//! The static evaluation as a search thread sees it: the hand-crafted one, or a network with
//! this thread's accumulators. The search is generic over it, so each is compiled into its
//! own copy of the search: without a network the search is exactly what it was before
//! networks (not even a branch per node), and with one the accumulators follow the search
//! path at no cost to the hand-crafted build.

use super::eval::{evaluate_cached, PawnCache};
use super::nnue::{AccumulatorStack, Nnue};
use super::score::MATE_IN_MAX;
use crate::chess::Position;

/// What the search asks of an evaluation.
pub(super) trait StaticEval {
    /// A node at `ply` (at least 1) is about to evaluate `pos` or search its children.
    fn enter(&mut self, ply: usize, pos: &Position);
    /// The raw static evaluation of `pos`, the position at `ply` (entered, or the root):
    /// centipawns for the side to move.
    fn evaluate(&mut self, pos: &Position, ply: usize) -> i32;
}

/// The hand-crafted evaluation, pawn terms from this thread's cache.
pub(super) struct HandCrafted<'a>(pub &'a mut PawnCache);

impl StaticEval for HandCrafted<'_> {
    #[inline(always)]
    fn enter(&mut self, _: usize, _: &Position) {}

    #[inline(always)]
    fn evaluate(&mut self, pos: &Position, _: usize) -> i32 {
        evaluate_cached(pos, self.0)
    }
}

/// A network, with this thread's accumulators (reset to the root by [`Network::new`]).
pub(super) struct Network<'a> {
    net: &'a Nnue,
    acc: &'a mut AccumulatorStack,
}

impl<'a> Network<'a> {
    /// Room for `plies` plies from `root`.
    pub(super) fn new(net: &'a Nnue, acc: &'a mut AccumulatorStack, root: &Position, plies: usize) -> Network<'a> {
        acc.reset(net, root, plies);
        Network { net, acc }
    }
}

impl StaticEval for Network<'_> {
    #[inline(always)]
    fn enter(&mut self, ply: usize, pos: &Position) {
        self.acc.enter(ply, pos);
    }

    #[inline]
    fn evaluate(&mut self, pos: &Position, ply: usize) -> i32 {
        let e = self.acc.evaluate(self.net, ply, pos);
        #[cfg(test)]
        tests::check_against_reference(self.net, pos, ply, e);
        // A random or badly trained network may say anything: keep it out of mate scores.
        e.clamp(-MATE_IN_MAX + 1, MATE_IN_MAX - 1)
    }
}

#[cfg(test)]
mod tests {
    use super::super::nnue::layout;
    use super::super::nnue::tests::test_net_with;
    use super::*;
    use crate::chess::movegen::is_legal;
    use crate::engine::{Engine, EngineOptions, Limits, SearchControl, SearchRequest};
    use std::sync::atomic::{AtomicU64, Ordering};
    use std::sync::Arc;

    /// Network evaluations the search made in this test binary, each checked, and those that
    /// differed from the reference (counted, not panicking: the search catches panics).
    static CHECKED: AtomicU64 = AtomicU64::new(0);
    static WRONG: AtomicU64 = AtomicU64::new(0);

    /// In tests every network evaluation of the search, at whatever node asks for it (root,
    /// search, quiescence, razoring, ProbCut, singular and null-move searches), is compared
    /// with the from-scratch reference.
    pub(super) fn check_against_reference(net: &Nnue, pos: &Position, ply: usize, e: i32) {
        let reference = net.network().evaluate(pos);
        if e != reference && WRONG.fetch_add(1, Ordering::Relaxed) < 5 {
            eprintln!("ply {ply}: {} evaluated {e}, reference {reference}", pos.to_fen());
        }
        CHECKED.fetch_add(1, Ordering::Relaxed);
    }

    #[test]
    fn every_network_evaluation_of_a_search_is_exact() {
        crate::chess::attacks::init();
        let file = |layout: layout::InputLayout| {
            let name = format!("arbiter-search-test-{}-{}.nnue", layout.name(), std::process::id());
            let path = std::env::temp_dir().join(name);
            test_net_with(21, layout).write(&path).expect("write the test network");
            path
        };
        let (flat, buckets) = (file(layout::FLAT), file(layout::MIRROR4));
        let before = CHECKED.load(Ordering::Relaxed);
        for (threads, chess960, fen, path) in [
            (1, false, "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", &flat),
            (1, false, "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1", &flat),
            (1, false, "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3", &flat),
            (1, false, "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", &flat),
            (1, true, "1r4kr/p6p/8/8/8/8/P6P/1R4KR w HBhb - 0 1", &flat),
            (2, true, "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9", &flat),
            (2, false, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", &flat),
            // King buckets, mirrored: castling both ways, Chess960 castling, a king walk.
            (1, false, "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", &buckets),
            (1, true, "1r4kr/p6p/8/8/8/8/P6P/1R4KR w HBhb - 0 1", &buckets),
            (2, false, "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", &buckets),
        ] {
            let name = path.to_string_lossy().to_string();
            let opts = EngineOptions { threads, chess960, eval_file: name, ..EngineOptions::default() };
            let mut engine = Engine::new(opts).expect("engine with the test network");
            let mut position = Position::from_fen(fen).expect("fen");
            position.set_chess960(chess960);
            let limits = Limits { depth: Some(8), ..Limits::default() };
            let request = SearchRequest { position, history: Vec::new(), limits };
            let r = engine.search(request, &Arc::new(SearchControl::new()), &mut |_| {});
            assert!(r.best.is_some_and(|m| is_legal(&position, m)), "{fen}: {:?}", r.best);
        }
        let _ = std::fs::remove_file(&flat);
        let _ = std::fs::remove_file(&buckets);
        let checked = CHECKED.load(Ordering::Relaxed) - before;
        assert_eq!(WRONG.load(Ordering::Relaxed), 0, "of {checked}");
        assert!(checked > 10_000, "only {checked} evaluations checked");
    }
}
