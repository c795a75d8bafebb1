//! Move ordering: the TT move first, before anything is generated; then every other move
//! gets a score and is handed out best first by selection (most nodes cut off after one or
//! two moves, so sorting all is waste).
//!
//! Order: TT move; winning/equal captures and queen promotions by victim value and
//! capture history; killers; the counter-move; quiet moves by history (butterfly plus
//! continuation); losing captures and under-promotions last.

use super::history::{Continuation, History, PieceTo};
use super::see::{see_ge, value};
use crate::chess::movegen::{generate_into, GenKind, MoveList, MAX_MOVES};
use crate::chess::{Move, PieceType, Position};

const TT_MOVE: i32 = 4_000_000;
const GOOD_TACTICAL: i32 = 2_000_000;
const KILLER_1: i32 = 1_500_000;
const KILLER_2: i32 = 1_499_000;
const COUNTER: i32 = 1_498_000;
const BAD_TACTICAL: i32 = -1_000_000;
/// A quiet move left behind once quiet moves are skipped: never handed out.
const SKIPPED: i32 = i32::MIN;

/// Scores ordering tactical moves: most valuable victim first, then capture history.
#[inline]
fn tactical_score(pos: &Position, m: Move, hist: &History) -> i32 {
    let victim = pos.captured_piece(m);
    let promo = m.promotion().map_or(0, |p| value(p) - value(PieceType::Pawn));
    (victim.map_or(0, value) + promo) * 16 + hist.capture(PieceTo::of(pos, m), victim) / 16
}

/// Promotions to anything but a queen: ordered with the losing captures.
#[inline]
fn is_under_promotion(m: Move) -> bool {
    m.promotion().is_some_and(|p| p != PieceType::Queen)
}

/// Where a picker is in its node. Each stage does only the work its moves need, since most
/// nodes are refuted by their first move or two: the TT move goes out before anything is
/// generated, the good captures before the quiet moves are generated and scored.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
#[repr(u8)]
enum Stage {
    /// The TT move, not generated.
    TtMove,
    /// Generate the tactical moves (or, in quiescence, all the node's moves).
    GenerateTactical,
    /// The winning and equal captures and queen promotions (interior nodes), each tested by
    /// SEE as it comes up.
    GoodTactical,
    /// Generate and score the quiet moves, unless they are skipped (interior nodes).
    GenerateQuiet,
    /// What is left, best first.
    Rest,
}

/// What the picker fills itself with, and how it scores it.
#[derive(Clone, Copy)]
enum Fill {
    /// Every legal move (an interior node: `ply` for its killers, the counter-move, the two
    /// previous moves).
    All { ply: usize, counter: Option<Move>, cont: Continuation },
    /// Tactical moves (every evasion in check); with `quiet_checks`, the quiet checks too.
    Quiescence { quiet_checks: bool },
}

pub struct MovePicker {
    list: MoveList,
    scores: [i32; MAX_MOVES],
    next: usize,
    stage: Stage,
    tt_move: Option<Move>,
    fill: Fill,
    /// Set by the search once late-move pruning skips every further quiet move.
    skip_quiets: bool,
}

impl Default for MovePicker {
    fn default() -> Self {
        MovePicker {
            list: MoveList::new(),
            scores: [0; MAX_MOVES],
            next: 0,
            stage: Stage::Rest,
            tt_move: None,
            fill: Fill::Quiescence { quiet_checks: false },
            skip_quiets: false,
        }
    }
}

impl MovePicker {
    /// Sets the picker up for an interior node (`cont`: the two previous moves): all legal
    /// moves, the TT move (legal: the caller checked) first. Pickers are reused: the search
    /// keeps one per ply and refills it, so a node does not zero and copy 1.5 KB of move list
    /// and scores.
    pub fn reset(
        &mut self,
        pos: &Position,
        tt_move: Option<Move>,
        hist: &History,
        ply: usize,
        counter: Option<Move>,
        cont: &Continuation,
    ) {
        self.start(pos, hist, tt_move, Fill::All { ply, counter, cont: *cont });
    }

    /// Sets the picker up for quiescence: the tactical moves only (or every evasion when in
    /// check); with `quiet_checks`, also the quiet moves that give check (after the captures).
    pub fn reset_quiescence(&mut self, pos: &Position, tt_move: Option<Move>, hist: &History, quiet_checks: bool) {
        self.start(pos, hist, tt_move, Fill::Quiescence { quiet_checks });
    }

    fn start(&mut self, pos: &Position, hist: &History, tt_move: Option<Move>, fill: Fill) {
        self.list.clear();
        self.next = 0;
        self.tt_move = tt_move;
        self.fill = fill;
        self.skip_quiets = false;
        self.stage = Stage::TtMove;
        if tt_move.is_none() {
            // Nothing to hand out first. Generate now, all the way to a move if there is
            // one, so that `is_empty` can tell a node without moves (mate or stalemate).
            self.stage = Stage::GenerateTactical;
            self.advance(pos, hist);
            if self.list.is_empty() && self.stage == Stage::GoodTactical {
                self.stage = Stage::GenerateQuiet;
                self.advance(pos, hist);
            }
        }
    }

    /// True when there is nothing to hand out: for an interior node or a quiescence node in
    /// check, no legal move at all (mate or stalemate); for quiescence out of check, no
    /// tactical move (or quiet check).
    pub fn is_empty(&self) -> bool {
        self.stage == Stage::Rest && self.list.is_empty()
    }

    /// No more quiet moves from here on (late-move pruning would skip them all): they are
    /// not generated, or no longer handed out.
    pub fn skip_quiets(&mut self) {
        if !self.skip_quiets && self.stage == Stage::Rest {
            for i in self.next..self.list.len() {
                if !self.list.get(i).is_tactical() {
                    self.scores[i] = SKIPPED;
                }
            }
        }
        self.skip_quiets = true;
    }

    /// The next best move and its ordering score (`pos` and `hist`: the node's, as given to
    /// the reset; the moves after the TT move are scored when they are generated, with the
    /// history as it is then).
    #[inline]
    pub fn next_move(&mut self, pos: &Position, hist: &History) -> Option<(Move, i32)> {
        loop {
            match self.stage {
                Stage::TtMove => {
                    self.stage = Stage::GenerateTactical;
                    if let Some(m) = self.tt_move.filter(|m| m.is_tactical() || !self.skip_quiets) {
                        return Some((m, TT_MOVE));
                    }
                }
                Stage::GoodTactical => match self.best() {
                    Some(i) if self.scores[i] >= GOOD_TACTICAL => {
                        if see_ge(pos, self.list.get(i), 0) {
                            return Some(self.take(i));
                        }
                        // A losing capture: with the losing ones, in place. The moves handed
                        // out, and the list's order, are those of testing every capture first
                        // (the best of the winning ones is the best whose test passes).
                        self.scores[i] += BAD_TACTICAL - GOOD_TACTICAL;
                    }
                    _ => self.stage = Stage::GenerateQuiet,
                },
                Stage::Rest => {
                    return match self.best() {
                        Some(i) if self.scores[i] != SKIPPED => Some(self.take(i)),
                        _ => None,
                    }
                }
                Stage::GenerateTactical | Stage::GenerateQuiet => self.advance(pos, hist),
            }
        }
    }

    /// Runs a generating stage and moves to the next.
    fn advance(&mut self, pos: &Position, hist: &History) {
        match (self.stage, self.fill) {
            (Stage::GenerateTactical, Fill::All { .. }) => {
                let from = self.list.len();
                generate_into(pos, GenKind::Tactical, &mut self.list);
                self.drop_tt_move(from);
                // Captures are taken to win until the good-tactical stage reaches them: SEE
                // is tested only on moves about to be handed out (see `next_move`).
                for i in from..self.list.len() {
                    let m = self.list.get(i);
                    let base = if is_under_promotion(m) { BAD_TACTICAL } else { GOOD_TACTICAL };
                    self.scores[i] = base + tactical_score(pos, m, hist);
                }
                self.stage = Stage::GoodTactical;
            }
            (Stage::GenerateQuiet, Fill::All { ply, counter, cont }) => {
                if !self.skip_quiets {
                    let from = self.list.len();
                    generate_into(pos, GenKind::Quiet, &mut self.list);
                    self.drop_tt_move(from);
                    let killers = hist.killers(ply);
                    let quiet = hist.quiet_scorer(pos.side_to_move(), &cont);
                    for i in from..self.list.len() {
                        let m = self.list.get(i);
                        self.scores[i] = if Some(m) == killers[0] {
                            KILLER_1
                        } else if Some(m) == killers[1] {
                            KILLER_2
                        } else if Some(m) == counter {
                            COUNTER
                        } else {
                            quiet.score(m, PieceTo::of(pos, m))
                        };
                    }
                }
                self.stage = Stage::Rest;
            }
            (Stage::GenerateTactical, Fill::Quiescence { quiet_checks }) => {
                if pos.in_check() {
                    generate_into(pos, GenKind::All, &mut self.list);
                } else {
                    generate_into(pos, GenKind::Tactical, &mut self.list);
                    if quiet_checks {
                        let mut quiets = MoveList::new();
                        generate_into(pos, GenKind::Quiet, &mut quiets);
                        let checks = pos.check_squares();
                        for &m in quiets.iter().filter(|&&m| pos.gives_check_by(m, &checks)) {
                            self.list.push(m);
                        }
                    }
                }
                self.drop_tt_move(0);
                for i in 0..self.list.len() {
                    let m = self.list.get(i);
                    self.scores[i] = if m.is_tactical() { GOOD_TACTICAL + tactical_score(pos, m, hist) } else { 0 };
                }
                self.stage = Stage::Rest;
            }
            // Quiescence has no quiet stage; the other stages generate nothing.
            (Stage::GenerateQuiet, Fill::Quiescence { .. }) => self.stage = Stage::Rest,
            (Stage::TtMove | Stage::GoodTactical | Stage::Rest, _) => {}
        }
    }

    /// Removes the TT move (handed out already) from the moves generated from `from` on.
    fn drop_tt_move(&mut self, from: usize) {
        if let Some(tt) = self.tt_move {
            if let Some(i) = self.list.as_slice()[from..].iter().position(|&m| m == tt) {
                self.list.swap_remove(from + i);
            }
        }
    }

    /// The index of the first of the highest scores among the moves not handed out yet.
    #[inline]
    fn best(&self) -> Option<usize> {
        let rest = &self.scores[self.next..self.list.len()];
        // A max reduction the compiler vectorises, then a search for its first occurrence
        // (the same choice as a strict `>` scan, twice as fast).
        let max = rest.iter().fold(i32::MIN, |a, &s| a.max(s));
        rest.iter().position(|&s| s == max).map(|i| self.next + i)
    }

    /// Hands out the move at `i`.
    #[inline]
    fn take(&mut self, i: usize) -> (Move, i32) {
        self.list.swap(self.next, i);
        self.scores.swap(self.next, i);
        let r = (self.list.get(self.next), self.scores[self.next]);
        self.next += 1;
        r
    }
}

/// True when the ordering score marks a killer or counter-move (not reduced as much).
pub fn is_refutation_score(s: i32) -> bool {
    (COUNTER..=KILLER_1).contains(&s)
}

/// True for captures that lost the exchange (ordered after the quiet moves).
pub fn is_bad_tactical_score(s: i32) -> bool {
    s < BAD_TACTICAL / 2
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::legal_moves;
    use crate::rng::Rng;

    /// Positions with every kind of move: the perft suite's classics (castling both ways,
    /// en passant, promotions with and without capture, pins, checks), a mate and a stalemate.
    const FENS: &[&str] = &[
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
        "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
        "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
        "rnb2k1r/pp1Pbppp/2p5/q7/2B5/8/PPPQNnPP/RNB1K2R w KQ - 3 9",
        "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1",
        "7k/8/6QK/8/8/8/8/8 b - - 0 1",
    ];

    /// What a test checks at a node: the position, the history, the ply, a TT move.
    type Check<'a> = dyn FnMut(&Position, &History, usize, Option<Move>, &mut Rng) + 'a;

    /// Positions along random games from `FENS`, with history tables that have seen some
    /// cutoffs, so that every scoring rule has something to order.
    fn cases(f: &mut Check) {
        let mut rng = Rng::new(7);
        let mut hist = History::default();
        for fen in FENS {
            let mut pos = Position::from_fen(fen).expect("fen");
            for ply in 0..40 {
                let moves: Vec<Move> = legal_moves(&pos).iter().copied().collect();
                let tt = match rng.below(3) {
                    0 => None,
                    _ if moves.is_empty() => None,
                    _ => Some(moves[rng.below(moves.len() as u64) as usize]),
                };
                f(&pos, &hist, ply, tt, &mut rng);
                if moves.is_empty() {
                    break;
                }
                for &m in moves.iter().take(4) {
                    let moved = PieceTo::of(&pos, m);
                    let delta = rng.below(4000) as i32 - 2000;
                    if m.is_tactical() {
                        hist.update_capture(moved, pos.captured_piece(m), delta);
                    } else {
                        hist.update_quiet(pos.side_to_move(), m, moved, &[None, None], delta);
                        hist.add_killer(ply, m);
                    }
                }
                pos = pos.make_move(moves[rng.below(moves.len() as u64) as usize]);
            }
        }
    }

    fn drain(picker: &mut MovePicker, pos: &Position, hist: &History) -> Vec<(Move, i32)> {
        std::iter::from_fn(|| picker.next_move(pos, hist)).collect()
    }

    fn sorted(mut v: Vec<Move>) -> Vec<Move> {
        v.sort_by_key(|m| format!("{m:?}"));
        v
    }

    #[test]
    fn interior_nodes_get_every_legal_move_once_best_first() {
        let mut picker = MovePicker::default();
        let mut checked = 0;
        cases(&mut |pos, hist, ply, tt, _| {
            let legal: Vec<Move> = legal_moves(pos).iter().copied().collect();
            picker.reset(pos, tt, hist, ply, None, &[None, None]);
            assert_eq!(picker.is_empty(), legal.is_empty(), "{}", pos.to_fen());
            let out = drain(&mut picker, pos, hist);
            let moves: Vec<Move> = out.iter().map(|&(m, _)| m).collect();
            assert_eq!(sorted(moves.clone()), sorted(legal), "{}", pos.to_fen());
            if let Some(t) = tt {
                assert_eq!(out[0], (t, TT_MOVE));
            }
            // After the TT move, scores never rise: good tactical moves, killers, quiet
            // moves by history, then the losing tactical moves.
            let rest = &out[tt.is_some() as usize..];
            assert!(rest.windows(2).all(|w| w[0].1 >= w[1].1), "{}: {rest:?}", pos.to_fen());
            assert!(rest.iter().all(|&(m, s)| m.is_tactical() || !is_bad_tactical_score(s)));
            // Good means winning or equal by SEE (tested only when a capture comes up).
            for &(m, s) in rest.iter().filter(|(m, _)| m.is_tactical()) {
                assert_eq!(s >= GOOD_TACTICAL, !is_under_promotion(m) && see_ge(pos, m, 0), "{}: {m:?}", pos.to_fen());
            }
            checked += 1;
        });
        assert!(checked > 200, "{checked}");
    }

    #[test]
    fn skipped_quiet_moves_are_not_handed_out_and_tactical_ones_still_are() {
        let mut picker = MovePicker::default();
        cases(&mut |pos, hist, ply, tt, rng| {
            let legal: Vec<Move> = legal_moves(pos).iter().copied().collect();
            picker.reset(pos, tt, hist, ply, None, &[None, None]);
            // Skip at a random point, as late-move pruning does.
            let before = rng.below(legal.len() as u64 + 1) as usize;
            let mut out: Vec<Move> = (0..before).filter_map(|_| picker.next_move(pos, hist)).map(|(m, _)| m).collect();
            picker.skip_quiets();
            let after: Vec<Move> = drain(&mut picker, pos, hist).into_iter().map(|(m, _)| m).collect();
            assert!(after.iter().all(|m| m.is_tactical()), "{}", pos.to_fen());
            out.extend(after);
            let tactical: Vec<Move> = legal.iter().copied().filter(|m| m.is_tactical() || out.contains(m)).collect();
            assert_eq!(sorted(out), sorted(tactical), "{}", pos.to_fen());
        });
    }

    #[test]
    fn quiescence_gets_tactical_moves_or_every_evasion() {
        let mut picker = MovePicker::default();
        cases(&mut |pos, hist, _, tt, rng| {
            let legal: Vec<Move> = legal_moves(pos).iter().copied().collect();
            let quiet_checks = rng.below(2) == 0;
            let checks = pos.check_squares();
            let wanted: Vec<Move> = legal
                .iter()
                .copied()
                .filter(|&m| pos.in_check() || m.is_tactical() || (quiet_checks && pos.gives_check_by(m, &checks)))
                .collect();
            let tt = tt.filter(|&m| wanted.contains(&m));
            picker.reset_quiescence(pos, tt, hist, quiet_checks);
            if pos.in_check() {
                assert_eq!(picker.is_empty(), legal.is_empty());
            }
            let out = drain(&mut picker, pos, hist);
            assert_eq!(sorted(out.iter().map(|&(m, _)| m).collect()), sorted(wanted), "{}", pos.to_fen());
            if let Some(t) = tt {
                assert_eq!(out[0].0, t);
            }
        });
    }

    #[test]
    fn tactical_and_quiet_generation_split_the_legal_moves() {
        cases(&mut |pos, _, _, _, _| {
            let mut split = MoveList::new();
            generate_into(pos, GenKind::Tactical, &mut split);
            let tactical = split.len();
            generate_into(pos, GenKind::Quiet, &mut split);
            assert!(split.iter().take(tactical).all(|m| m.is_tactical()));
            assert!(split.iter().skip(tactical).all(|m| !m.is_tactical()));
            let legal: Vec<Move> = legal_moves(pos).iter().copied().collect();
            assert_eq!(sorted(split.iter().copied().collect()), sorted(legal), "{}", pos.to_fen());
        });
    }
}
