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
use crate::chess::{Color, Move, PieceType, Position, Square};

/// The node budget of one shortening (per side): a mate in three moves from the opening takes
/// some 60,000 nodes, one in five in K+Q v K some 80,000 (2026-12-01).
pub const SHORTEN_NODES: u64 = 100_000;

/// The node budget of the examples of `arbiter unwinnable` (per side): on the self-play
/// finals, the median example is 12 half-moves at this budget (see docs/unwinnable.md).
pub const EXAMPLE_NODES: u64 = 300;

/// The most nodes one length of the iterative deepening leaves to the longer ones when it runs
/// out ([`shortest_within`]).
const LONGER_LINES_NODES: u64 = EXAMPLE_NODES / 2;

/// The longest line (in half-moves) the exact search tries.
const MAX_PLIES: usize = 15;

/// A helpmate for `winner` from `pos` no longer than `line` (itself a helpmate), as short as
/// the budget allows.
pub fn shorten(pos: &Position, winner: Color, line: &[Move], budget: u64) -> Vec<Move> {
    example(pos, winner, line, budget, &mut Table::new(16)).0
}

/// [`shorten`] on the caller's table, with the nodes it took: the line with its cycles cut
/// out, then the exact search ([`shortest_within`]) up to two half-moves less than that (or
/// [`MAX_PLIES`]), its first find a shortest helpmate.
pub fn example(pos: &Position, winner: Color, line: &[Move], budget: u64, table: &mut Table) -> (Vec<Move>, u64) {
    let mut best = without_cycles(pos, line);
    if !is_helpmate(pos, winner, &best) {
        best = line.to_vec();
    }
    if best.len() <= 2 {
        return (best, 0);
    }
    let (short, nodes) = shortest_within(pos, winner, (best.len() - 2).min(MAX_PLIES), budget, table);
    (short.unwrap_or(best), nodes)
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

/// A shortest helpmate by `winner` of at most `max_plies` half-moves, by iterative deepening
/// over the number of half-moves (every move of both sides, only checks as the last move),
/// within about `budget` nodes; with the nodes it took. A line found after all shorter lengths
/// were searched to the end is a shortest one.
pub fn shortest_within(
    pos: &Position,
    winner: Color,
    max_plies: usize,
    budget: u64,
    table: &mut Table,
) -> (Option<Vec<Move>>, u64) {
    // The winner moves last, so the length's parity is fixed by who is to move.
    let first = if pos.side_to_move() == winner { 1 } else { 2 };
    let mut s = Exact { winner, table, nodes: 0, limit: 0, line: Vec::new() };
    for plies in (first..=max_plies).step_by(2) {
        s.table.clear();
        s.line.clear();
        // Each length may use what is left but a reserve (half of it, at most
        // `LONGER_LINES_NODES`): one that runs out of nodes leaves that to longer lines, which
        // the search may still find (then not proved shortest). A large budget stays exact.
        let left = budget - s.nodes.min(budget);
        s.limit = s.nodes + left - (left / 2).min(LONGER_LINES_NODES);
        match s.dfs(pos, plies) {
            Some(true) if is_helpmate(pos, winner, &s.line) => return (Some(s.line), s.nodes),
            Some(_) => {}
            None if s.nodes < budget => {}
            None => break,
        }
    }
    (None, s.nodes)
}

/// The exact search: a mate by `winner` in exactly `plies` half-moves.
struct Exact<'t> {
    winner: Color,
    /// Positions already searched to at least this many half-moves without a mate (only
    /// where the seventy-five-move rule cannot end the game within them: the key has no clock).
    table: &'t mut Table,
    nodes: u64,
    /// The node count at which this length's search stops.
    limit: u64,
    line: Vec<Move>,
}

impl Exact<'_> {
    /// Some(true): found (the line is in `self.line`); Some(false): none here; None: out of
    /// nodes.
    fn dfs(&mut self, pos: &Position, plies: usize) -> Option<bool> {
        if plies == 0 {
            return Some(pos.side_to_move() != self.winner && pos.in_check() && !has_legal_move(pos));
        }
        if pos.halfmove_clock() >= 150 {
            return Some(false); // 9.6.2: the game is over
        }
        let clock_free = usize::from(pos.halfmove_clock()) + plies <= 150;
        if clock_free && self.table.get(pos.key()).is_some_and(|p| p >= plies as i32) {
            return Some(false);
        }
        self.nodes += 1;
        if self.nodes > self.limit {
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
            // Checks first for the winner (the mate is one, and a check leaves the loser few
            // moves); the king's moves first for the loser (into the net).
            let mut ordered = moves;
            let loser_king = pos.king_square(self.winner.flip());
            if pos.side_to_move() == self.winner {
                // The winner's pieces closing in on the loser's king first.
                ordered
                    .as_mut_slice()
                    .sort_unstable_by_key(|&m| m.to().distance(loser_king) - m.from().distance(loser_king));
            } else {
                // The loser's king walking into the net (towards the winner's pieces), then
                // pieces blocking its own king's flight squares.
                let net = pos.color(self.winner) & !pos.pieces(PieceType::King);
                let pull = |sq: Square| net.into_iter().map(|n| sq.distance(n)).sum::<i32>();
                ordered.as_mut_slice().sort_unstable_by_key(|&m| {
                    if m.from() == loser_king {
                        (0, pull(m.to()))
                    } else {
                        (1 + i32::from(m.to().distance(loser_king) > 1), 0)
                    }
                });
            }
            for &m in ordered.iter() {
                self.line.push(m);
                if self.dfs(&pos.make_move(m), plies - 1)? {
                    return Some(true);
                }
                self.line.pop();
            }
        }
        if clock_free {
            self.table.put(pos.key(), plies as i32);
        }
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
