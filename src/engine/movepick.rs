//! Move ordering: every legal move gets a score, then moves are handed out best first
//! by selection (most nodes cut off after one or two moves, so sorting all is waste).
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

/// Scores ordering tactical moves: most valuable victim first, then capture history.
#[inline]
fn tactical_score(pos: &Position, m: Move, hist: &History) -> i32 {
    let victim = pos.captured_piece(m);
    let promo = m.promotion().map_or(0, |p| value(p) - value(PieceType::Pawn));
    (victim.map_or(0, value) + promo) * 16 + hist.capture(PieceTo::of(pos, m), victim) / 16
}

pub struct MovePicker {
    list: MoveList,
    scores: [i32; MAX_MOVES],
    next: usize,
}

impl Default for MovePicker {
    fn default() -> Self {
        MovePicker { list: MoveList::new(), scores: [0; MAX_MOVES], next: 0 }
    }
}

impl MovePicker {
    /// Fills the picker with all legal moves for an interior node (`cont`: the two previous
    /// moves). Pickers are reused: the search keeps one per ply and refills it, so a node
    /// does not zero and copy 1.5 KB of move list and scores.
    pub fn reset(
        &mut self,
        pos: &Position,
        tt_move: Option<Move>,
        hist: &History,
        ply: usize,
        counter: Option<Move>,
        cont: &Continuation,
    ) {
        self.list.clear();
        self.next = 0;
        generate_into(pos, GenKind::All, &mut self.list);
        let killers = hist.killers(ply);
        let quiet = hist.quiet_scorer(pos.side_to_move(), cont);
        for (score, &m) in self.scores.iter_mut().zip(self.list.iter()) {
            *score = if Some(m) == tt_move {
                TT_MOVE
            } else if m.is_tactical() {
                let under = m.promotion().is_some_and(|p| p != PieceType::Queen);
                if !under && see_ge(pos, m, 0) {
                    GOOD_TACTICAL + tactical_score(pos, m, hist)
                } else {
                    BAD_TACTICAL + tactical_score(pos, m, hist)
                }
            } else if Some(m) == killers[0] {
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

    /// Fills the picker with the tactical moves only (or every evasion when in check), for
    /// quiescence; with `quiet_checks`, also the quiet moves that give check (after the
    /// captures).
    pub fn reset_quiescence(&mut self, pos: &Position, tt_move: Option<Move>, hist: &History, quiet_checks: bool) {
        self.list.clear();
        self.next = 0;
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
        for (score, &m) in self.scores.iter_mut().zip(self.list.iter()) {
            *score = if Some(m) == tt_move {
                TT_MOVE
            } else if m.is_tactical() {
                GOOD_TACTICAL + tactical_score(pos, m, hist)
            } else {
                0
            };
        }
    }

    pub fn len(&self) -> usize {
        self.list.len()
    }

    pub fn is_empty(&self) -> bool {
        self.list.is_empty()
    }

    /// The next best move and its ordering score.
    #[inline]
    pub fn next_move(&mut self) -> Option<(Move, i32)> {
        let n = self.list.len();
        if self.next >= n {
            return None;
        }
        // The first of the highest scores: a max reduction the compiler vectorises, then a
        // search for its first occurrence (the same choice as a strict `>` scan, twice as fast).
        let rest = &self.scores[self.next..n];
        let max = rest.iter().fold(i32::MIN, |a, &s| a.max(s));
        let best = self.next + rest.iter().position(|&s| s == max).unwrap_or(0);
        self.list.swap(self.next, best);
        self.scores.swap(self.next, best);
        let r = (self.list.get(self.next), self.scores[self.next]);
        self.next += 1;
        Some(r)
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
