//! Shorter helpmates for a reader. The decision's helpmate search follows plans (take
//! everything, promote, drive the king to a corner), so its lines are sound but often long: after
//! 1.Nf3 it shows a 53-move line where a 3-move one exists. Where a line is shown to a person,
//! [`shorten`] looks for a shorter one with a small exact search: cycles cut out of the line,
//! then iterative deepening over the number of half-moves, every move of both sides tried,
//! within a node budget. It keeps the decision's line when nothing shorter is found, and
//! returns only lines that replay to mate ([`super::is_helpmate`]).
//!
//! The decision itself does not shorten: the batch and the referee need the verdict, not the
//! shortest evidence, and would pay for the search at every position.

use super::is_helpmate;
use super::table::Table;
use crate::chess::movegen::{has_legal_move, legal_moves};
use crate::chess::{Color, Move, Position};

/// The node budget of one shortening (per side): a mate in three moves from the opening takes
/// some 60,000 nodes, one in five in K+Q v K some 80,000 (2026-12-01).
pub const SHORTEN_NODES: u64 = 100_000;

/// The longest line (in half-moves) the exact search tries.
const MAX_PLIES: usize = 15;

/// A helpmate for `winner` from `pos` no longer than `line` (itself a helpmate), as short as
/// the budget allows.
pub fn shorten(pos: &Position, winner: Color, line: &[Move], budget: u64) -> Vec<Move> {
    let mut best = without_cycles(pos, line);
    if !is_helpmate(pos, winner, &best) {
        best = line.to_vec();
    }
    // The winner moves last, so the length's parity is fixed by who is to move.
    let first = if pos.side_to_move() == winner { 1 } else { 2 };
    let mut s = Exact { winner, table: Table::new(16), nodes: 0, budget, line: Vec::new() };
    for plies in (first..best.len().min(MAX_PLIES + 1)).step_by(2) {
        s.table.clear();
        s.line.clear();
        match s.dfs(pos, plies) {
            Some(true) if is_helpmate(pos, winner, &s.line) => return s.line,
            Some(_) => {}
            None => break, // out of nodes
        }
    }
    best
}

/// The line with every stretch between two visits of the same position cut out (the clock
/// never grows by it, so the line still keeps within the seventy-five-move rule).
fn without_cycles(pos: &Position, line: &[Move]) -> Vec<Move> {
    let mut keys = vec![pos.key()];
    let mut out: Vec<Move> = Vec::new();
    let mut p = *pos;
    for &m in line {
        p = p.make_move(m);
        out.push(m);
        keys.push(p.key());
        if let Some(i) = keys[..keys.len() - 1].iter().position(|&k| k == p.key()) {
            out.truncate(i);
            keys.truncate(i + 1);
        }
    }
    out
}

/// The exact search: a mate by `winner` in exactly `plies` half-moves.
struct Exact {
    winner: Color,
    /// Positions already searched to at least this many half-moves without a mate.
    table: Table,
    nodes: u64,
    budget: u64,
    line: Vec<Move>,
}

impl Exact {
    /// Some(true): found (the line is in `self.line`); Some(false): none here; None: out of
    /// nodes.
    fn dfs(&mut self, pos: &Position, plies: usize) -> Option<bool> {
        if plies == 0 {
            return Some(pos.side_to_move() != self.winner && pos.in_check() && !has_legal_move(pos));
        }
        if pos.halfmove_clock() >= 150 {
            return Some(false); // 9.6.2: the game is over
        }
        if self.table.get(pos.key()).is_some_and(|p| p >= plies as i32) {
            return Some(false);
        }
        self.nodes += 1;
        if self.nodes > self.budget {
            return None;
        }
        let moves = legal_moves(pos);
        if plies == 1 {
            // The mating move: only a check can be one.
            let checks = pos.check_squares();
            for &m in moves.iter() {
                if pos.gives_check_by(m, &checks) && !has_legal_move(&pos.make_move(m)) {
                    self.line.push(m);
                    return Some(true);
                }
            }
        } else {
            for &m in moves.iter() {
                self.line.push(m);
                if self.dfs(&pos.make_move(m), plies - 1)? {
                    return Some(true);
                }
                self.line.pop();
            }
        }
        self.table.put(pos.key(), plies as i32);
        Some(false)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::attacks;
    use crate::rules::unwinnable::{decide, Budget, Verdict};

    fn shortened(fen: &str, winner: Color) -> (usize, Vec<Move>) {
        attacks::init();
        let pos = Position::from_fen(fen).expect("test FEN");
        let Verdict::Winnable { helpmate } = decide(&pos, winner, Budget::default()).verdict else {
            panic!("{fen}: not winnable for {winner:?}")
        };
        let short = shorten(&pos, winner, &helpmate, SHORTEN_NODES);
        assert!(is_helpmate(&pos, winner, &short), "{fen}: {short:?}");
        (helpmate.len(), short)
    }

    #[test]
    fn finds_the_short_mates_of_the_opening() {
        // After 1.Nf3 the decision's lines run to some fifty moves; mates in three exist.
        let fen = "rnbqkbnr/pppppppp/8/8/8/5N2/PPPPPPPP/RNBQKB1R b KQkq - 1 1";
        for winner in Color::ALL {
            let (long, short) = shortened(fen, winner);
            assert!(short.len() <= 6 && short.len() < long, "{winner:?}: {long} -> {}", short.len());
        }
    }

    #[test]
    fn cuts_cycles() {
        attacks::init();
        let pos = Position::from_fen("7k/8/6K1/8/8/8/8/R7 w - - 0 1").expect("test FEN");
        // Ra2 Kg8 Ra1 Kh8 Ra8#: the first four half-moves return to the start.
        let mut p = pos;
        let mut line = Vec::new();
        for uci in ["a1a2", "h8g8", "a2a1", "g8h8", "a1a8"] {
            let mv = crate::chess::notation::parse_uci_move(&p, uci).expect("move");
            line.push(mv);
            p = p.make_move(mv);
        }
        assert!(is_helpmate(&pos, Color::White, &line));
        assert_eq!(without_cycles(&pos, &line), &line[4..]);
        assert_eq!(shorten(&pos, Color::White, &line, 1000).len(), 1);
    }
}
