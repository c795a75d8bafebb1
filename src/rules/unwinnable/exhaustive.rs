//! The last resort: visit every position reachable from the given one (all moves of both
//! sides), each once, depth first. A position is closed — nothing after it needs visiting —
//! when the game has ended there, or material proves the winner can never mate from it, or
//! (after a capture or a pawn move, when the structure changed) the static argument of
//! [`statics`] does. If every reachable position is visited or closed and none is a mate by the
//! winner, no mate exists: a proof. A mate met on the way is a helpmate (the line is the path
//! of the depth-first search).

use super::material;
use super::statics;
use crate::chess::movegen::legal_moves;
use crate::chess::{Color, Move, PieceType, Position};
use std::collections::HashSet;
use std::hash::{BuildHasherDefault, Hasher};

/// Position keys are Zobrist hashes already: hashing them again is wasted work.
#[derive(Default)]
pub struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ b as u64;
        }
    }
    fn write_u64(&mut self, k: u64) {
        self.0 = k;
    }
}

/// A set of position keys.
pub type KeySet = HashSet<u64, BuildHasherDefault<KeyHasher>>;

/// What the search found.
pub enum Found {
    /// A helpmate, first move first.
    Mate(Vec<Move>),
    /// Every reachable position was visited: none is a mate by the winner.
    NoMate,
    /// The node limit ran out first (or a line grew longer than [`MAX_LINE`]).
    Unknown,
}

pub struct Outcome {
    pub found: Found,
    pub nodes: u64,
}

/// Longest line followed (a bound on the memory of the path).
const MAX_LINE: usize = 20_000;

struct Frame {
    pos: Position,
    /// The move that led here (none at the start).
    mv: Option<Move>,
    /// This position's moves are `arena[start..end]`; `next..end` are still to try.
    start: usize,
    next: usize,
    end: usize,
}

/// Visits the reachable positions, at most about `limit` of them. `visited` is the caller's
/// scratch set (cleared here).
pub fn search(pos: &Position, winner: Color, visited: &mut KeySet, limit: u64) -> Outcome {
    // Clearing costs the capacity, not the contents: after a large search, a small one must
    // not pay for the large table every time (a fresh table instead).
    let wanted = usize::try_from(limit).unwrap_or(usize::MAX).saturating_add(1);
    if visited.capacity() > wanted.saturating_mul(4).max(4096) {
        *visited = KeySet::default();
    } else {
        visited.clear();
    }
    let mut nodes = 0u64;
    let mut arena: Vec<Move> = Vec::new();
    let mut stack: Vec<Frame> = Vec::new();
    let mut complete = true;
    visited.insert(pos.key());
    let root_moves = legal_moves(pos);
    arena.extend(root_moves.iter().copied());
    stack.push(Frame { pos: *pos, mv: None, start: 0, next: 0, end: arena.len() });
    while let Some(top) = stack.last_mut() {
        if top.next == top.end {
            arena.truncate(top.start);
            stack.pop();
            continue;
        }
        let m = arena[top.next];
        top.next += 1;
        let parent = top.pos;
        let child = parent.make_move(m);
        nodes += 1;
        if nodes > limit {
            return Outcome { found: Found::Unknown, nodes };
        }
        if !visited.insert(child.key()) {
            continue;
        }
        let moves = legal_moves(&child);
        if moves.is_empty() {
            if child.side_to_move() != winner && child.in_check() {
                let mut line: Vec<Move> = stack.iter().filter_map(|f| f.mv).collect();
                line.push(m);
                return Outcome { found: Found::Mate(line), nodes };
            }
            continue;
        }
        if material::prove(&child, winner).is_some() {
            continue;
        }
        if child.halfmove_clock() >= 150 {
            // 9.6.2 ends the game here; positions are compared without their clocks, so a
            // later visit with a lower clock would be skipped: no proof from this search.
            complete = false;
            continue;
        }
        let structure_changed =
            m.is_capture() || m.is_promotion() || parent.piece_at(m.from()).is_some_and(|p| p.kind == PieceType::Pawn);
        if structure_changed && statics::prove(&child, winner).is_some() {
            continue;
        }
        if stack.len() >= MAX_LINE {
            complete = false;
            continue;
        }
        let start = arena.len();
        arena.extend(moves.iter().copied());
        stack.push(Frame { pos: child, mv: Some(m), start, next: start, end: arena.len() });
    }
    let found = if complete { Found::NoMate } else { Found::Unknown };
    Outcome { found, nodes }
}
