//! A search thread's accumulators, one per ply, updated lazily.
//!
//! The search is copy-make, so there is no move to undo and no "dirty piece" list: each node
//! records the piece placement of its position ([`AccumulatorStack::enter`]); when a node
//! evaluates, the nearest ancestor whose accumulator is up to date is found and each ply
//! after it is derived from its parent by the *difference of their piece bitboards* —
//! which covers every kind of move alike (castling, Chess960 castling with the king or rook
//! standing still, en passant, promotions, null moves) without looking at the move. Nodes
//! that never evaluate (TT cutoffs, nodes whose evaluation comes from the TT) cost only the
//! 64-byte record.

use super::inference::{Accumulator, Nnue};
use super::output_bucket;
use crate::chess::{Color, Piece, PieceType, Position, Square};

/// The piece placement an accumulator depends on: a position's bitboards.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Board {
    kinds: [u64; 6],
    colors: [u64; 2],
}

/// At most this many pieces appear or disappear in one move (castling: two of each).
const MAX_CHANGES: usize = 4;

impl Board {
    #[inline]
    pub fn of(pos: &Position) -> Board {
        Board { kinds: PieceType::ALL.map(|k| pos.pieces(k).0), colors: Color::ALL.map(|c| pos.color(c).0) }
    }

    #[inline(always)]
    fn bits(&self, c: Color, k: PieceType) -> u64 {
        self.kinds[k.index()] & self.colors[c.index()]
    }

    /// The square of `c`'s king (a1 if there is none, which a position never lacks).
    #[inline(always)]
    pub fn king(&self, c: Color) -> Square {
        Square::new((self.bits(c, PieceType::King).trailing_zeros() & 63) as u8)
    }

    /// Every piece with its square.
    pub fn pieces(&self) -> impl Iterator<Item = (Piece, Square)> + '_ {
        Color::ALL.into_iter().flat_map(move |c| {
            PieceType::ALL.into_iter().flat_map(move |k| {
                crate::chess::Bitboard(self.bits(c, k)).squares().map(move |sq| (Piece::new(c, k), sq))
            })
        })
    }
}

/// The pieces that appear in and disappear from `from` to `to`, written to `added` and
/// `removed`: their counts, or `None` if there are more than [`MAX_CHANGES`] of either (not
/// one move apart: refresh instead).
#[inline]
fn changes(
    from: &Board,
    to: &Board,
    added: &mut [(Piece, Square); MAX_CHANGES],
    removed: &mut [(Piece, Square); MAX_CHANGES],
) -> Option<(usize, usize)> {
    let (mut na, mut nr) = (0, 0);
    // Usually one or two piece types change: skip the others at once. A type whose squares are
    // the same and whose White pieces are the same has the same Black ones too (each piece is
    // White or Black).
    let white_changed = from.colors[Color::White.index()] ^ to.colors[Color::White.index()];
    for k in PieceType::ALL {
        let kind = from.kinds[k.index()];
        if kind == to.kinds[k.index()] && white_changed & kind == 0 {
            continue;
        }
        for c in Color::ALL {
            let (a, b) = (from.bits(c, k), to.bits(c, k));
            if a == b {
                continue;
            }
            let piece = Piece::new(c, k);
            for sq in crate::chess::Bitboard(b & !a).squares() {
                *added.get_mut(na)? = (piece, sq);
                na += 1;
            }
            for sq in crate::chess::Bitboard(a & !b).squares() {
                *removed.get_mut(nr)? = (piece, sq);
                nr += 1;
            }
        }
    }
    Some((na, nr))
}

#[derive(Clone, Copy, Default)]
struct Ply {
    acc: Accumulator,
    board: Board,
    /// `acc` is the accumulator of `board`.
    fresh: bool,
}

/// One search thread's accumulators, indexed by ply (kept between searches to avoid
/// reallocating; [`AccumulatorStack::reset`] starts each search).
#[derive(Default)]
pub struct AccumulatorStack {
    plies: Vec<Ply>,
}

impl AccumulatorStack {
    /// Starts a search from `root` (ply 0, computed from scratch) with room for `plies` plies.
    pub fn reset(&mut self, nnue: &Nnue, root: &Position, plies: usize) {
        if self.plies.len() < plies {
            self.plies.resize(plies, Ply::default());
        }
        let p = &mut self.plies[0];
        p.board = Board::of(root);
        nnue.refresh(&p.board, &mut p.acc);
        p.fresh = true;
    }

    /// A node at `ply` (at least 1) searches `pos`: its accumulator is now unknown.
    #[inline]
    pub fn enter(&mut self, ply: usize, pos: &Position) {
        let p = &mut self.plies[ply];
        p.board = Board::of(pos);
        p.fresh = false;
    }

    /// The evaluation of `pos`, the position at `ply` (entered, or the root): centipawns for
    /// the side to move, equal to [`super::Network::evaluate`].
    #[inline]
    pub fn evaluate(&mut self, nnue: &Nnue, ply: usize, pos: &Position) -> i32 {
        debug_assert_eq!(self.plies[ply].board, Board::of(pos), "ply {ply} not entered");
        if !self.plies[ply].fresh {
            self.bring_up_to_date(nnue, ply);
        }
        nnue.output(&self.plies[ply].acc, pos.side_to_move(), output_bucket(pos.occupied()))
    }

    /// Updates every stale accumulator from the nearest fresh ancestor up to `ply`.
    #[inline(never)]
    fn bring_up_to_date(&mut self, nnue: &Nnue, ply: usize) {
        let mut first = ply;
        while first > 0 && !self.plies[first - 1].fresh {
            first -= 1;
        }
        if first == 0 {
            // Not reached from a fresh root (cannot happen in a search): from scratch.
            let p = &mut self.plies[0];
            nnue.refresh(&p.board, &mut p.acc);
            p.fresh = true;
            first = 1;
        }
        let none = (Piece::new(Color::White, PieceType::Pawn), Square::new(0));
        let (mut added, mut removed) = ([none; MAX_CHANGES], [none; MAX_CHANGES]);
        for r in first..=ply {
            let (done, rest) = self.plies.split_at_mut(r);
            let (prev, cur) = (&done[r - 1], &mut rest[0]);
            match changes(&prev.board, &cur.board, &mut added, &mut removed) {
                Some((na, nr)) => {
                    nnue.update((&prev.board, &prev.acc), &cur.board, &added[..na], &removed[..nr], &mut cur.acc)
                }
                None => nnue.refresh(&cur.board, &mut cur.acc),
            }
            cur.fresh = true;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::layout::{self, InputLayout};
    use super::super::tests::{test_net, test_net_with};
    use super::*;
    use crate::chess::legal_moves;
    use crate::rng::Rng;

    /// What a random walk went through, so the test knows it covered each kind of move.
    #[derive(Default, Debug)]
    struct Seen {
        checked: u64,
        castling: u64,
        en_passant: u64,
        promotions: u64,
        null_moves: u64,
        /// King moves after which the mover's perspective has another bucket or mirror side
        /// (a refresh of that perspective only).
        king_view_changes: u64,
        /// Of those, the ones across the d/e file.
        king_mirror_changes: u64,
    }

    /// A depth-first walk over a random part of the tree below `pos`, as the search walks
    /// it: every node entered, the evaluation checked against the from-scratch reference at
    /// random nodes (before and after the children, which reuse the plies above).
    fn walk(
        stack: &mut AccumulatorStack,
        nnue: &Nnue,
        pos: &Position,
        ply: usize,
        depth: u32,
        rng: &mut Rng,
        seen: &mut Seen,
    ) {
        if ply > 0 {
            stack.enter(ply, pos);
        }
        let check = |stack: &mut AccumulatorStack, seen: &mut Seen| {
            assert_eq!(stack.evaluate(nnue, ply, pos), nnue.network().evaluate(pos), "{}", pos.to_fen());
            seen.checked += 1;
        };
        if !rng.next_u64().is_multiple_of(3) {
            check(stack, seen);
        }
        if depth == 0 {
            return;
        }
        let moves: Vec<_> = legal_moves(pos).iter().copied().collect();
        // Special moves (and pawn moves, which make en passant possible) always, the others
        // at random.
        for m in moves {
            let pawn = pos.piece_at(m.from()).is_some_and(|p| p.kind == PieceType::Pawn);
            let special = m.is_castling() || m.is_en_passant() || m.is_promotion() || (pawn && depth > 2);
            if !special && !rng.next_u64().is_multiple_of(8) {
                continue;
            }
            seen.castling += m.is_castling() as u64;
            seen.en_passant += m.is_en_passant() as u64;
            seen.promotions += m.is_promotion() as u64;
            let (before, after) = (Board::of(pos), Board::of(&pos.make_move(m)));
            let layout = nnue.layout();
            let us = pos.side_to_move();
            let (v0, v1) = (layout.view(us, before.king(us)), layout.view(us, after.king(us)));
            seen.king_view_changes += u64::from(v0 != v1);
            seen.king_mirror_changes += u64::from(v0.flip != v1.flip);
            walk(stack, nnue, &pos.make_move(m), ply + 1, depth - 1, rng, seen);
        }
        if !pos.in_check() && rng.next_u64().is_multiple_of(2) {
            seen.null_moves += 1;
            walk(stack, nnue, &pos.make_null_move(), ply + 1, depth - 1, rng, seen);
        }
        check(stack, seen);
    }

    #[test]
    fn incremental_equals_from_scratch_on_random_trees() {
        let seen = random_trees(layout::FLAT);
        assert_eq!(seen.king_view_changes, 0);
    }

    #[test]
    fn incremental_equals_from_scratch_on_random_trees_mirrored() {
        let seen = random_trees(layout::MIRROR);
        assert!(seen.king_mirror_changes > 100, "{seen:?}");
    }

    #[test]
    fn incremental_equals_from_scratch_on_random_trees_with_king_buckets() {
        let seen = random_trees(layout::MIRROR4);
        assert!(seen.king_mirror_changes > 100 && seen.king_view_changes > seen.king_mirror_changes + 100, "{seen:?}");
    }

    /// Random trees below positions with every kind of move, in a network of `layout`: each
    /// evaluation equals the from-scratch reference.
    fn random_trees(layout: InputLayout) -> Seen {
        crate::chess::attacks::init();
        let nnue = Nnue::new(test_net_with(5, layout));
        let mut stack = AccumulatorStack::default();
        let mut rng = Rng::new(0x2545_f491_4f6c_dd1d);
        let mut seen = Seen::default();
        for fen in [
            // Castling both ways, promotions with and without capture.
            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
            // En passant, both colours.
            "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
            "rnbqkbnr/pppp1ppp/8/8/3Pp3/8/PPP1PPPP/RNBQKBNR b KQkq d3 0 3",
            "4k3/8/8/8/1p1p1p1p/8/PPPPPPPP/4K3 w - - 0 1",
            "4k3/pppppppp/8/P1P1P1P1/8/8/8/4K3 b - - 0 1",
            // Chess960: ordinary, king already on its castled square, rook already on its.
            "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
            "1r4kr/p6p/8/8/8/8/P6P/1R4KR w HBhb - 0 1",
            "4kr2/p6p/8/8/8/8/P6P/4KR2 w Ff - 0 1",
            // Kings next to the d/e file and the buckets' ranks (2/3, 4/5), with captures and
            // promotions around them.
            "8/1p2k3/8/3K4/8/4p3/1P6/8 w - - 0 1",
            "8/3P4/4k3/8/2r5/4K3/3p4/8 b - - 0 1",
            "r7/8/8/4k3/8/2K5/8/7R w - - 0 1",
        ] {
            let root = Position::from_fen(fen).expect("fen");
            stack.reset(&nnue, &root, 16);
            walk(&mut stack, &nnue, &root, 0, 4, &mut rng, &mut seen);
        }
        assert!(seen.checked > 10_000, "{seen:?}");
        assert!(
            seen.castling > 100 && seen.en_passant > 20 && seen.promotions > 100 && seen.null_moves > 100,
            "{seen:?}"
        );
        seen
    }

    #[test]
    fn a_stack_not_reached_from_its_root_is_refreshed() {
        crate::chess::attacks::init();
        let nnue = Nnue::new(test_net(6));
        let mut stack = AccumulatorStack::default();
        let a = Position::startpos();
        stack.reset(&nnue, &a, 4);
        // Ply 1 holds a position that is no child of the root: a full refresh, still exact.
        let far = Position::from_fen("8/8/2k5/5q2/5n2/8/5K2/8 b - - 0 1").expect("fen");
        stack.enter(1, &far);
        assert_eq!(stack.evaluate(&nnue, 1, &far), nnue.network().evaluate(&far));
    }
}
