//! Move-ordering memory that outlives a single node: quiet history (by side, from, to),
//! continuation history (by the move played one and two plies earlier and this move's
//! piece and target), capture history (by piece, target and victim), killers (by ply)
//! and counter-moves (by the previous move's piece and target); and the static
//! evaluation's correction (by side to move, and by the pawns and by the other men).
//! Each search thread has its own; `ucinewgame` clears it.

use super::params;
use super::score::MAX_PLY;
use crate::chess::{Color, Move, PieceType, Position};

/// History values stay within +-HISTORY_MAX (the "gravity" update below).
const HISTORY_MAX: i32 = 16384;

/// A move as continuation and capture history see it: the mover (`Piece::index`) and its
/// target square, as one index `piece * 64 + to` (two bytes, so the search's per-ply
/// frames and lists of tried moves stay small).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PieceTo(u16);

impl PieceTo {
    /// `m` (legal in `pos`) as (mover, target).
    #[inline]
    pub fn of(pos: &Position, m: Move) -> PieceTo {
        let piece = pos.piece_at(m.from()).map_or(0, |p| p.index());
        PieceTo((piece * 64 + m.to().index()) as u16)
    }

    #[inline]
    fn index(self) -> usize {
        self.0 as usize
    }

    /// The mover's `Piece::index`.
    #[inline]
    pub fn piece(self) -> usize {
        self.index() / 64
    }

    /// The target square's index.
    #[inline]
    pub fn to(self) -> usize {
        self.index() % 64
    }
}

/// The moves played one and two plies before a node (None: a null move, or the root).
pub type Continuation = [Option<PieceTo>; 2];

const PIECE_TO: usize = 12 * 64;

/// Correction-history entries per side and table.
const CORRECTION_SIZE: usize = 16384;
/// The correction tables: by the pawns (the pawn key), by White's other men and by Black's
/// ([`men_key`]). A structure of either kind can mislead the evaluation the same way wherever
/// the others stand.
const CORRECTION_TABLES: usize = 3;
/// Corrections are kept in 1/CORRECTION_GRAIN centipawns ...
const CORRECTION_GRAIN: i32 = 256;
/// ... and never exceed this many centipawns.
const CORRECTION_MAX: i32 = 96;

pub struct History {
    butterfly: Box<[[[i32; 64]; 64]; 2]>,
    /// `[previous piece-to][this piece-to]`, flattened.
    continuation: Vec<i16>,
    /// `[piece-to][victim type]`, flattened.
    capture: Vec<i16>,
    counter: Box<[[Option<Move>; 64]; 12]>,
    killers: [[Option<Move>; 2]; MAX_PLY + 8],
    /// `[table][side][key % CORRECTION_SIZE]`, flattened: the share of how far searches
    /// found the static evaluation off in positions with this structure that each table's
    /// entry carries (the entries of a position add up to its correction).
    correction: Vec<i32>,
}

impl Default for History {
    fn default() -> Self {
        History {
            butterfly: Box::new([[[0; 64]; 64]; 2]),
            continuation: vec![0; PIECE_TO * PIECE_TO],
            capture: vec![0; PIECE_TO * 6],
            counter: Box::new([[None; 64]; 12]),
            killers: [[None; 2]; MAX_PLY + 8],
            correction: vec![0; CORRECTION_TABLES * 2 * CORRECTION_SIZE],
        }
    }
}

/// Bonus for a move that caused a cutoff at `depth` (and malus for the ones tried before it).
pub fn bonus(depth: i32) -> i32 {
    (depth * depth * params::hist_mul() + depth * params::hist_add()).min(params::hist_max())
}

/// Moves `e` towards +-HISTORY_MAX by `delta`, more slowly the closer it is.
#[inline]
fn gravity(e: i32, delta: i32) -> i32 {
    let delta = delta.clamp(-HISTORY_MAX, HISTORY_MAX);
    e + delta - e * delta.abs() / HISTORY_MAX
}

impl History {
    pub fn clear(&mut self) {
        *self = History::default();
    }

    /// The butterfly (side, from, to) part of a quiet move's history.
    #[inline]
    pub fn get(&self, side: Color, m: Move) -> i32 {
        self.butterfly[side.index()][m.from().index()][m.to().index()]
    }

    /// A quiet move's ordering score: butterfly plus both continuation histories.
    #[inline]
    pub fn quiet(&self, side: Color, m: Move, moved: PieceTo, cont: &Continuation) -> i32 {
        let cur = moved.index();
        let mut s = self.get(side, m);
        for prev in cont.iter().flatten() {
            s += self.continuation[prev.index() * PIECE_TO + cur] as i32;
        }
        s
    }

    /// [`Self::quiet`] for many moves of one node: the side's butterfly table and the two
    /// continuation rows are looked up once.
    #[inline]
    pub fn quiet_scorer(&self, side: Color, cont: &Continuation) -> QuietScorer<'_> {
        let row = |prev: Option<PieceTo>| {
            prev.and_then(|p| {
                let start = p.index() * PIECE_TO;
                self.continuation.get(start..start + PIECE_TO)
            })
        };
        QuietScorer { butterfly: &self.butterfly[side.index()], rows: [row(cont[0]), row(cont[1])] }
    }

    /// Rewards (`delta` > 0) or punishes a quiet move in every table that scores it.
    pub fn update_quiet(&mut self, side: Color, m: Move, moved: PieceTo, cont: &Continuation, delta: i32) {
        let e = &mut self.butterfly[side.index()][m.from().index()][m.to().index()];
        *e = gravity(*e, delta);
        let cur = moved.index();
        for prev in cont.iter().flatten() {
            let e = &mut self.continuation[prev.index() * PIECE_TO + cur];
            *e = gravity(*e as i32, delta) as i16;
        }
    }

    /// A capture's (or promotion's) history: by mover, target and victim (a pawn for a
    /// non-capturing promotion, which is only ever compared with other tactical moves).
    #[inline]
    pub fn capture(&self, moved: PieceTo, victim: Option<PieceType>) -> i32 {
        self.capture[moved.index() * 6 + victim.map_or(0, |v| v.index())] as i32
    }

    pub fn update_capture(&mut self, moved: PieceTo, victim: Option<PieceType>, delta: i32) {
        let e = &mut self.capture[moved.index() * 6 + victim.map_or(0, |v| v.index())];
        *e = gravity(*e as i32, delta) as i16;
    }

    #[inline]
    pub fn killers(&self, ply: usize) -> [Option<Move>; 2] {
        self.killers[ply]
    }

    pub fn add_killer(&mut self, ply: usize, m: Move) {
        let k = &mut self.killers[ply];
        if k[0] != Some(m) {
            k[1] = k[0];
            k[0] = Some(m);
        }
    }

    pub fn clear_killers(&mut self, ply: usize) {
        self.killers[ply] = [None, None];
    }

    /// What to add to the static evaluation of `pos`.
    #[inline]
    pub fn correction(&self, pos: &Position) -> i32 {
        correction_indices(pos).iter().map(|&i| self.correction[i]).sum::<i32>() / CORRECTION_GRAIN
    }

    /// A search of `depth` found `error` = search score - raw static evaluation of `pos`:
    /// each table's entry moves towards itself plus what the correction still misses (an
    /// average weighted by depth), so the entries share the error. With one table this is
    /// the entry moving towards the error.
    pub fn update_correction(&mut self, pos: &Position, depth: i32, error: i32) {
        let indices = correction_indices(pos);
        let w = (depth + 1).clamp(1, 16);
        let missed = error * CORRECTION_GRAIN - indices.iter().map(|&i| self.correction[i]).sum::<i32>();
        let max = CORRECTION_MAX * CORRECTION_GRAIN;
        for i in indices {
            let e = &mut self.correction[i];
            let target = (*e + missed).clamp(-max, max);
            *e = (*e * (256 - w) + target * w) / 256;
        }
    }

    /// The remembered reply to the previous move.
    #[inline]
    pub fn counter(&self, prev: PieceTo) -> Option<Move> {
        self.counter[prev.piece()][prev.to()]
    }

    pub fn set_counter(&mut self, prev: PieceTo, m: Move) {
        self.counter[prev.piece()][prev.to()] = Some(m);
    }
}

/// Scores quiet moves of one node exactly as [`History::quiet`] does.
pub struct QuietScorer<'a> {
    butterfly: &'a [[i32; 64]; 64],
    /// The continuation-history rows of the previous two moves (None: no such move).
    rows: [Option<&'a [i16]>; 2],
}

impl QuietScorer<'_> {
    #[inline]
    pub fn score(&self, m: Move, moved: PieceTo) -> i32 {
        let cur = moved.index();
        let mut s = self.butterfly[m.from().index()][m.to().index()];
        for row in self.rows.iter().flatten() {
            s += row.get(cur).copied().unwrap_or(0) as i32;
        }
        s
    }
}

/// A hash of where `side`'s pieces other than pawns stand (a mix of their bitboards: cheaper
/// than Zobrist keys kept by every move, and only an index here).
#[inline]
fn men_key(pos: &Position, side: Color) -> u64 {
    let mut h = 0x9e37_79b9_7f4a_7c15 ^ side.index() as u64;
    for pt in [PieceType::Knight, PieceType::Bishop, PieceType::Rook, PieceType::Queen, PieceType::King] {
        h = (h ^ pos.pieces_of(side, pt).0).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        h ^= h >> 31;
    }
    h
}

/// Where `pos`'s entries are, one per table ([`CORRECTION_TABLES`]).
#[inline]
fn correction_indices(pos: &Position) -> [usize; CORRECTION_TABLES] {
    let side = pos.side_to_move().index();
    let keys = [pos.pawn_key(), men_key(pos, Color::White), men_key(pos, Color::Black)];
    std::array::from_fn(|t| (t * 2 + side) * CORRECTION_SIZE + (keys[t] % CORRECTION_SIZE as u64) as usize)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gravity_keeps_values_bounded() {
        let mut e = 0;
        for _ in 0..1000 {
            e = gravity(e, 4000);
            assert!(e <= HISTORY_MAX, "{e}");
        }
        assert!(e > HISTORY_MAX * 9 / 10);
        for _ in 0..1000 {
            e = gravity(e, -4000);
            assert!(e >= -HISTORY_MAX, "{e}");
        }
        assert!(i16::try_from(e).is_ok());
    }

    /// The tables share the error: a position's correction converges to it (not to twice
    /// it), another position with the same pawns gets the pawn table's share, and no entry
    /// leaves its bound.
    #[test]
    fn the_correction_tables_share_the_error() {
        crate::chess::attacks::init();
        let pos = |fen: &str| Position::from_fen(fen).expect("FEN");
        let a = pos("4k3/pp6/8/8/8/8/PP6/R3K3 w - - 0 1");
        let same_pawns = pos("4k3/pp6/8/8/8/8/PP6/4K2Q w - - 0 1");
        let mut h = History::default();
        for _ in 0..400 {
            h.update_correction(&a, 12, 60);
        }
        assert!((58..=60).contains(&h.correction(&a)), "{}", h.correction(&a));
        let shared = h.correction(&same_pawns);
        assert!(shared > 0 && shared < 60, "{shared}");
        for _ in 0..400 {
            h.update_correction(&a, 12, 10_000);
        }
        assert!(h.correction(&a) <= CORRECTION_TABLES as i32 * CORRECTION_MAX, "{}", h.correction(&a));
        assert!(h.correction.iter().all(|e| e.abs() <= CORRECTION_MAX * CORRECTION_GRAIN));
    }
}
