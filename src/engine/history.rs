//! Move-ordering memory that outlives a single node: history (by side, from, to),
//! killers (by ply) and counter-moves (by the previous move's piece and target).
//! Each search thread has its own; `ucinewgame` clears it.

use super::params;
use super::score::MAX_PLY;
use crate::chess::{Color, Move};

/// History values stay within +-HISTORY_MAX (the "gravity" update below).
pub const HISTORY_MAX: i32 = 16384;

pub struct History {
    butterfly: Box<[[[i32; 64]; 64]; 2]>,
    counter: Box<[[Option<Move>; 64]; 12]>,
    killers: [[Option<Move>; 2]; MAX_PLY + 8],
}

impl Default for History {
    fn default() -> Self {
        History {
            butterfly: Box::new([[[0; 64]; 64]; 2]),
            counter: Box::new([[None; 64]; 12]),
            killers: [[None; 2]; MAX_PLY + 8],
        }
    }
}

/// Bonus for a move that caused a cutoff at `depth` (and malus for the ones tried before it).
pub fn bonus(depth: i32) -> i32 {
    (depth * depth * params::hist_mul() + depth * params::hist_add()).min(params::hist_max())
}

impl History {
    pub fn clear(&mut self) {
        *self = History::default();
    }

    #[inline]
    pub fn get(&self, side: Color, m: Move) -> i32 {
        self.butterfly[side.index()][m.from().index()][m.to().index()]
    }

    /// Moves the entry towards +-HISTORY_MAX by `delta`, more slowly the closer it is.
    #[inline]
    pub fn update(&mut self, side: Color, m: Move, delta: i32) {
        let e = &mut self.butterfly[side.index()][m.from().index()][m.to().index()];
        *e += delta - *e * delta.abs() / HISTORY_MAX;
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

    /// The remembered reply to the previous move (`piece` = Piece::index of its mover).
    #[inline]
    pub fn counter(&self, piece: usize, to: usize) -> Option<Move> {
        self.counter[piece][to]
    }

    pub fn set_counter(&mut self, piece: usize, to: usize, m: Move) {
        self.counter[piece][to] = Some(m);
    }
}
