//! Shorter helpmates for a reader. The decision's helpmate search follows plans (take
//! everything, promote, drive the king to a corner), so its lines are sound but often long: after
//! 1.Nf3 it shows a 53-move line where a 3-move one exists. Where a line is shown to a person,
//! [`shorten`] looks for a shorter one: cycles cut out of the line, the line cut at the first
//! position on it where the winner mates at once, then a small exact search, iterative
//! deepening over the number of half-moves, every move of both sides tried, within a node
//! budget. Its last move is found without a move list ([`mating_move`]: only checks are made,
//! and a check after which the king surely has a flight square is not played). It keeps the
//! decision's line when nothing shorter is found, and returns only lines that replay to mate
//! ([`super::is_helpmate`]).
//!
//! The decision itself does not shorten: the batch and the referee need the verdict, not the
//! shortest evidence, and would pay for the search at every position.

use super::cover::{may_mate_within, AfterLoserMove, AfterWinnerMove};
use super::is_helpmate;
use super::reply::Replies;
use super::table::Table;
use crate::chess::attacks::{self, aligned};
use crate::chess::movegen::{
    has_legal_move, king_step_is_safe, legal_moves, moves_with_untested_king_steps_into, Sink, MAX_MOVES,
};
use crate::chess::{Bitboard, Color, Move, MoveKind, PieceType, Position, Square};

/// The node budget of one shortening (per side): a mate in three moves from the opening takes
/// some 60,000 nodes, one in five in K+Q v K some 80,000 (2026-12-01).
pub const SHORTEN_NODES: u64 = 100_000;

/// The node budget (per side) with which the batch of `arbiter unwinnable` shortens the
/// decision's line where no helpmate of at most [`SHORT_PLIES`] half-moves was found first:
/// none, only its cycles and the moves past a mate on the way are cut: the lengths of at most
/// [`SHORT_PLIES`] were settled first (`SHORT_NODES` in mod.rs), and the time does more there.
pub const EXAMPLE_NODES: u64 = 0;

/// The nodes the iterative deepening keeps for each longer length while it searches a length
/// to the end, and gives each longer length once one has run out of nodes ([`shortest_within`]).
const LONGER_LINE_NODES: u64 = 15;

/// The exact search's table: 8,192 entries (128 KB), which stay in the cache (one of 65,536
/// missed it at nearly every lookup; the batch's searches visit a few hundred positions, the
/// reader's up to 100,000, and those where the last move is made, most of them, are not kept).
pub const TABLE_BITS: u32 = 13;

/// The table of a reader's search for a short example ([`super::for_reader`]): 65,536
/// entries (1 MB), kept by the thread, for searches of up to a few hundred thousand nodes.
pub const READER_TABLE_BITS: u32 = 16;

/// The longest line (in half-moves) the exact search tries.
const MAX_PLIES: usize = 15;

/// The lengths (in half-moves) looked at first, before the decision ([`short`]).
pub const SHORT_PLIES: usize = 6;

/// A helpmate for `winner` from `pos` no longer than `line` (itself a helpmate), as short as
/// the budget allows.
pub fn shorten(pos: &Position, winner: Color, line: &[Move], budget: u64) -> Vec<Move> {
    example(pos, winner, line, 1, budget, &mut Table::new(TABLE_BITS)).0
}

/// [`shorten`] on the caller's table, with the nodes it took: the line with its cycles cut
/// out and cut at a mate on the way ([`mate_on_the_way`]), then the exact search
/// ([`shortest_within`]) from `from_plies` half-moves (the shorter lengths known to hold no
/// helpmate, or 1) up to two half-moves less than that (or [`MAX_PLIES`]), its first find a
/// shortest helpmate when every shorter length was searched to the end.
pub fn example(
    pos: &Position,
    winner: Color,
    line: &[Move],
    from_plies: usize,
    budget: u64,
    table: &mut Table,
) -> (Vec<Move>, u64) {
    let mut best = without_cycles(pos, line);
    // Replayed only when something was cut (the decision's line is a helpmate).
    if best.len() < line.len() && !is_helpmate(pos, winner, &best) {
        best = line.to_vec();
    }
    if let Some(shortcut) = mate_on_the_way(pos, winner, &best) {
        best = shortcut;
    }
    if best.len() <= from_plies.max(2) || budget == 0 {
        return (best, 0);
    }
    let found = shortest_within(pos, winner, from_plies, (best.len() - 2).min(MAX_PLIES), budget, table);
    (found.line.unwrap_or(best), found.nodes)
}

/// A shortest helpmate of at most `max_plies` (up to [`SHORT_PLIES`]) half-moves, looked for before anything
/// else where examples are wanted: most sides that can mate at all can in so few (two in
/// three of the self-play finals' winnable sides), and a line found here needs no decision.
pub fn short(pos: &Position, winner: Color, max_plies: usize, budget: u64, table: &mut Table) -> Shortest {
    shortest_within(pos, winner, 1, max_plies.min(SHORT_PLIES), budget, table)
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

/// The line cut at the first position on it, with the winner to move, where the winner
/// mates at once (replayed to make sure), when there is one before its end. The decision's
/// plans walk past such mates (on the self-play finals, one side in four).
fn mate_on_the_way(pos: &Position, winner: Color, line: &[Move]) -> Option<Vec<Move>> {
    let mut p = *pos;
    for (i, &m) in line.iter().enumerate().take(line.len().saturating_sub(1)) {
        if p.side_to_move() == winner {
            if let Some(mate) = mating_move(&p) {
                let cut: Vec<Move> = line[..i].iter().copied().chain([mate]).collect();
                return is_helpmate(pos, winner, &cut).then_some(cut);
            }
        }
        p = p.make_move(m);
    }
    None
}

/// What [`shortest_within`] found.
pub struct Shortest {
    /// A helpmate, the shortest there is when every shorter length was searched to the end.
    pub line: Option<Vec<Move>>,
    pub nodes: u64,
    /// Every length up to this many half-moves was searched to the end without a find.
    pub none_within: usize,
}

/// A shortest helpmate by `winner` of `min_plies` to `max_plies` half-moves, by iterative
/// deepening over the number of half-moves (every move of both sides, only checks as the last
/// move), within about `budget` nodes. A line found after all shorter lengths were searched to
/// the end is a shortest one.
fn shortest_within(
    pos: &Position,
    winner: Color,
    min_plies: usize,
    max_plies: usize,
    budget: u64,
    table: &mut Table,
) -> Shortest {
    // The winner moves last, so the length's parity is fixed by who is to move.
    let odd = pos.side_to_move() == winner;
    let mut first = min_plies.max(1);
    if (first % 2 == 1) != odd {
        first += 1;
    }
    let mut s = Exact { winner, table, nodes: 0, limit: 0, line: Vec::new() };
    let lengths: Vec<usize> = (first..=max_plies).step_by(2).collect();
    let mut exact = true;
    let mut none_within = min_plies.saturating_sub(1);
    for (i, &plies) in lengths.iter().enumerate() {
        s.table.clear();
        s.line.clear();
        let left = budget - s.nodes.min(budget);
        let longer = (lengths.len() - 1 - i) as u64;
        let share = if exact { left - (LONGER_LINE_NODES * longer).min(left / 2) } else { LONGER_LINE_NODES.min(left) };
        s.limit = s.nodes + share;
        match s.dfs(pos, plies) {
            Some(true) if is_helpmate(pos, winner, &s.line) => {
                return Shortest { line: Some(s.line), nodes: s.nodes, none_within }
            }
            Some(_) => {
                if exact {
                    none_within = plies + 1;
                }
            }
            None => {
                exact = false;
                if s.nodes >= budget {
                    break;
                }
            }
        }
    }
    Shortest { line: None, nodes: s.nodes, none_within }
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
    /// nodes. `plies` is at least 1.
    fn dfs(&mut self, pos: &Position, plies: usize) -> Option<bool> {
        if pos.halfmove_clock() >= 150 {
            return Some(false); // 9.6.2: the game is over
        }
        // The last move's positions are not kept: they are most of the nodes, seldom met
        // again, and testing for a mate costs less than looking one up in a large table.
        let clock_free = plies > 1 && usize::from(pos.halfmove_clock()) + plies <= 150;
        if clock_free && self.table.get(pos.key()).is_some_and(|p| p >= plies as i32) {
            return Some(false);
        }
        self.search(pos, plies, clock_free)
    }

    /// [`Self::dfs`] past the clock's and the table's tests (`clock_free`: the position may be
    /// kept in the table).
    fn search(&mut self, pos: &Position, plies: usize, clock_free: bool) -> Option<bool> {
        self.nodes += 1;
        if self.nodes > self.limit {
            return None;
        }
        // The bound at every node two half-moves or more from the end: it costs about what a
        // node did before the loser's replies were filtered (`reply.rs`), less than one does
        // now, so it pays in the batch's searches of a few hundred nodes too (until then they
        // asked it only before each length; docs/unwinnable.md).
        if plies > 1 && !may_mate_within(pos, self.winner, plies) {
            if clock_free {
                self.table.put(pos.key(), plies as i32);
            }
            return Some(false);
        }
        self.expand(pos, plies, clock_free, Bitboard::FULL)
    }

    /// [`Self::search`] past the node count and the bound; `ends`: the squares on which the
    /// bound lets the loser's king end a mate (two half-moves from the end; else all).
    fn expand(&mut self, pos: &Position, plies: usize, clock_free: bool, ends: Bitboard) -> Option<bool> {
        if plies == 1 {
            // The mating move: only a check can be one.
            let found = mating_move(pos);
            self.line.extend(found);
            return Some(found.is_some());
        }
        // Two half-moves from the end, the loser's moves after which no mate can follow are not
        // played (the line found is the same: the others keep their order); where that is all
        // of them, no move list is made.
        let replies =
            (plies == 2 && pos.side_to_move() != self.winner).then(|| Replies::ending_on(pos, self.winner, ends));
        if replies.as_ref().is_some_and(Replies::allow_none) {
            if clock_free {
                self.table.put(pos.key(), plies as i32);
            }
            return Some(false);
        }
        // Each move's index with its order key in the high bits, made once: sorting plain
        // integers costs a fraction of sorting moves by a key worked out at every comparison
        // (and equal keys keep the generator's order).
        // Where the replies are filtered, only the kept ones are made.
        let moves = match &replies {
            Some(r) => r.kept(),
            None => legal_moves(pos),
        };
        let mut ordered = [0u32; MAX_MOVES];
        let mut n = 0;
        let loser_king = pos.king_square(self.winner.flip());
        if pos.side_to_move() == self.winner {
            // The winner's pieces landing nearest the loser's king first.
            for (i, &m) in moves.iter().enumerate() {
                ordered[i] = (m.to().distance(loser_king) as u32) << 16 | i as u32;
            }
            n = moves.len();
        } else {
            // The loser's king walking into the net (towards the winner's pieces and the
            // edge), then pieces blocking its own king's flight squares.
            let net = pos.color(self.winner) & !pos.pieces(PieceType::King);
            let mut pull = [0; 64];
            for sq in attacks::king_attacks(loser_king) {
                let (file, rank) = (sq.file().index() as i32, sq.rank().index() as i32);
                let edge = file.min(7 - file).min(rank).min(7 - rank);
                pull[sq.index()] = net.into_iter().map(|n| sq.distance(n)).sum::<i32>() + 2 * edge;
            }
            for (i, &m) in moves.iter().enumerate() {
                let key = if m.from() == loser_king {
                    pull[m.to().index()]
                } else {
                    (1 + i32::from(m.to().distance(loser_king) > 1)) << 10
                };
                ordered[n] = (key as u32) << 16 | i as u32;
                n += 1;
            }
        }
        let ordered = &mut ordered[..n];
        ordered.sort_unstable();
        // Three half-moves from the end, the bound on each child is worked out before its
        // move is made (most children are cut by it); where the loser moves (four or more),
        // too, from the winner's men worked out once for all the children.
        let mut after = if plies == 3 { AfterWinnerMove::new(pos, self.winner) } else { None };
        let after_loser = if plies > 3 && pos.side_to_move() != self.winner {
            AfterLoserMove::new(pos, self.winner, plies - 1)
        } else {
            None
        };
        for &k in ordered.iter() {
            let m = moves.get((k & 0xffff) as usize);
            // Where the child's key is known without the move (most moves), the table is
            // asked first: a third of the positions two half-moves from the end are found
            // there (the replies of both sides transpose), and need no move made.
            let known = if plies > 2 { pos.key_after(m) } else { None };
            let clock_free = match known {
                Some((_, clock)) if clock >= 150 => continue, // the game is over there
                Some((key, clock)) => {
                    let clock_free = usize::from(clock) + plies - 1 <= 150;
                    if clock_free && self.table.get(key).is_some_and(|p| p >= plies as i32 - 1) {
                        continue;
                    }
                    clock_free
                }
                None => false,
            };
            // The child's node count and bound as its `search` would have them (after a winner's
            // move, with the squares a mate can end on).
            let bound = match (&known, &mut after, &after_loser) {
                (Some((key, _)), Some(after), _) => after.mate_ends_after(m).map(|ends| (ends, *key)),
                (Some((key, _)), None, Some(after)) => {
                    after.may_mate_after(m).map(|may| (if may { Bitboard::FULL } else { Bitboard::EMPTY }, *key))
                }
                _ => None,
            };
            if let Some((ends, key)) = bound {
                let may = ends.nonempty();
                self.nodes += 1;
                if self.nodes > self.limit {
                    return None;
                }
                if !may {
                    if clock_free {
                        self.table.put(key, plies as i32 - 1);
                    }
                    continue;
                }
            }
            self.line.push(m);
            let child = pos.make_move(m);
            let found = match (known, bound) {
                (_, Some((ends, _))) => self.expand(&child, plies - 1, clock_free, ends),
                (Some(_), None) => self.search(&child, plies - 1, clock_free),
                (None, _) => self.dfs(&child, plies - 1),
            };
            if found? {
                return Some(true);
            }
            self.line.pop();
        }
        if clock_free {
            self.table.put(pos.key(), plies as i32);
        }
        Some(false)
    }
}

/// The first move of the side to move that checkmates, in the generator's order (that of
/// [`legal_moves`]). Only checks are made and tried: the moves are filtered by the squares
/// from which each kind of piece checks the enemy king and by the pieces that uncover a
/// check by moving off its lines, without a move list.
fn mating_move(pos: &Position) -> Option<Move> {
    let us = pos.side_to_move();
    let king = pos.king_square(us.flip());
    let occ = pos.occupied();
    let (bishop, rook) = (attacks::bishop_attacks(king, occ), attacks::rook_attacks(king, occ));
    let mut sink = Mates {
        pos,
        king,
        our_king: pos.king_square(us),
        discoverers: pos.slider_blockers(king, us).0 & pos.color(us),
        direct: [
            attacks::pawn_attacks(us.flip(), king),
            attacks::knight_attacks(king),
            bishop,
            rook,
            bishop | rook,
            Bitboard::EMPTY,
        ],
        found: None,
    };
    moves_with_untested_king_steps_into(pos, &mut sink);
    sink.found
}

/// The sink of [`mating_move`].
struct Mates<'p> {
    pos: &'p Position,
    /// The enemy king.
    king: Square,
    our_king: Square,
    /// Our pieces that uncover a check by leaving the king's lines.
    discoverers: Bitboard,
    /// The squares from which each kind of piece checks, by [`PieceType::index`].
    direct: [Bitboard; 6],
    found: Option<Move>,
}

impl Mates<'_> {
    /// Plays `m`, a check by a piece of `kind` that is legal (a king step once tested), and
    /// keeps it if it mates.
    #[inline]
    fn try_check(&mut self, kind: PieceType, m: Move) {
        if self.found.is_none()
            && (m.from() != self.our_king || king_step_is_safe(self.pos, m))
            && !self.king_escapes(kind, m)
            && !has_legal_move(&self.pos.make_move(m))
        {
            self.found = Some(m);
        }
    }

    /// Does the checked king surely have a flight square after `m` (a quiet move or capture
    /// by a piece of `kind`), without playing it? A square next to it that holds none of its
    /// pieces is safe when the moved piece does not attack it from its new square and no piece
    /// of ours does with the new occupancy, the moved piece counted on its old square too (an
    /// over-count: it only makes a square look covered, so "escapes" is never wrong).
    #[inline]
    fn king_escapes(&self, kind: PieceType, m: Move) -> bool {
        let (from, to) = (m.from(), m.to());
        let us = self.pos.side_to_move();
        let theirs = self.pos.color(us.flip()).without(to);
        let occ = (self.pos.occupied().without(from).with(to)).without(self.king);
        let reach = match kind {
            PieceType::Pawn => attacks::pawn_attacks(us, to),
            _ => attacks::piece_attacks(kind, to, occ),
        };
        (attacks::king_attacks(self.king) - theirs - reach)
            .into_iter()
            .any(|f| !self.pos.is_square_attacked_with(f, us, occ))
    }

    /// The squares of `targets` onto which a move from `from` checks.
    #[inline]
    fn checking(&self, kind: PieceType, from: Square, targets: Bitboard) -> Bitboard {
        let mut checks = targets & self.direct[kind.index()];
        if self.discoverers.contains(from) {
            checks |= targets - attacks::line(self.king, from);
        }
        checks
    }
}

impl Sink for Mates<'_> {
    #[inline]
    fn piece_moves(&mut self, from: Square, targets: Bitboard, enemies: Bitboard) {
        if self.found.is_some() {
            return;
        }
        let Some(piece) = self.pos.piece_at(from) else { return };
        let checks = self.checking(piece.kind, from, targets);
        for to in checks & enemies {
            self.try_check(piece.kind, Move::new(from, to, MoveKind::Capture));
        }
        for to in checks - enemies {
            self.try_check(piece.kind, Move::new(from, to, MoveKind::Quiet));
        }
    }

    #[inline]
    fn pawn_moves(&mut self, targets: Bitboard, delta: i8, kind: MoveKind) {
        if self.found.is_some() {
            return;
        }
        for to in targets {
            let from = Square::new((to.index() as i8 - delta) as u8);
            if self.direct[PieceType::Pawn.index()].contains(to)
                || (self.discoverers.contains(from) && !aligned(self.king, from, to))
            {
                self.try_check(PieceType::Pawn, Move::new(from, to, kind));
            }
        }
    }

    #[inline]
    fn promotions(&mut self, targets: Bitboard, delta: i8, capture: bool, under: bool) {
        for to in targets {
            let from = Square::new((to.index() as i8 - delta) as u8);
            // In the order of `legal_moves`.
            let pieces: &[PieceType] = if under {
                &[PieceType::Queen, PieceType::Knight, PieceType::Rook, PieceType::Bishop]
            } else {
                &[PieceType::Queen]
            };
            for &p in pieces {
                self.single(Move::new(from, to, MoveKind::promotion(p, capture)));
            }
        }
    }

    #[inline]
    fn single(&mut self, m: Move) {
        // Castling, en passant, promotions, pinned pawns: rare, tested by playing them.
        if self.found.is_none() {
            let child = self.pos.make_move(m);
            if child.in_check() && !has_legal_move(&child) {
                self.found = Some(m);
            }
        }
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

    /// The mating move found without a move list is the first mate of `legal_moves` (every
    /// move played), on the perft positions, a third of the self-play finals and the positions
    /// one move after them.
    #[test]
    fn the_mating_move_is_the_first_mate_of_the_move_list() {
        attacks::init();
        let positions = super::super::perft_and_finals_with_children(3, MAX_MOVES);
        let mut mates = 0;
        for pos in &positions {
            let first = legal_moves(pos).iter().copied().find(|&m| {
                let after = pos.make_move(m);
                after.in_check() && !has_legal_move(&after)
            });
            assert_eq!(mating_move(pos), first, "{pos:?}");
            mates += usize::from(first.is_some());
        }
        assert!(positions.len() > 20_000 && mates > 100, "{} positions, {mates} mates", positions.len());
    }

    #[test]
    fn cuts_at_a_mate_on_the_way() {
        attacks::init();
        let pos = Position::from_fen("7k/8/6K1/8/8/8/8/R7 w - - 0 1").expect("test FEN");
        // Rb1 Kg8 Rb8# walks past Ra8#.
        let line = super::super::uci_line(&pos, &["a1b1", "h8g8", "b1b8"]);
        assert!(is_helpmate(&pos, Color::White, &line));
        let cut = mate_on_the_way(&pos, Color::White, &line).expect("a mate at once");
        assert_eq!(cut.len(), 1);
        assert!(is_helpmate(&pos, Color::White, &cut));
        assert_eq!(mate_on_the_way(&pos, Color::White, &cut), None);
    }

    #[test]
    fn cuts_cycles() {
        attacks::init();
        let pos = Position::from_fen("7k/8/6K1/8/8/8/8/R7 w - - 0 1").expect("test FEN");
        // Ra2 Kg8 Ra1 Kh8 Ra8#: the first four half-moves return to the start.
        let line = super::super::uci_line(&pos, &["a1a2", "h8g8", "a2a1", "g8h8", "a1a8"]);
        assert!(is_helpmate(&pos, Color::White, &line));
        assert_eq!(without_cycles(&pos, &line), &line[4..]);
        assert_eq!(shorten(&pos, Color::White, &line, 1000).len(), 1);
    }
}

/// By hand: how often the examples are a shortest helpmate where one of at most six
/// half-moves exists, on the self-play finals (or the EPD file `FINALS` names), against this
/// module's exact search run to the end of six half-moves (up to 20 M nodes a side):
/// `cargo test --release --lib shortest_up_to_six -- --ignored --nocapture` (some 2 minutes;
/// `SHORTEST_TSV=file` keeps a line per side: finals line, side, the decision's length, the
/// batch's with `--shortest`, the shortest of at most six or `-`, the nodes that took, the
/// reader's length). The sides where an example is not one of the shortest are listed: within
/// its budget (`SHORT_NODES` in mod.rs) the exact search did not reach the shortest line.
#[cfg(test)]
mod measured {
    use super::*;
    use crate::chess::attacks;
    use crate::rules::unwinnable::{decide, decide_with_example, for_reader, Budget, Decision, Verdict};
    use std::fmt::Write;

    #[test]
    #[ignore]
    fn shortest_up_to_six_on_the_finals() {
        attacks::init();
        let finals = match std::env::var("FINALS") {
            Ok(path) => std::fs::read_to_string(path).expect("FINALS"),
            Err(_) => include_str!("../../../tests/data/selfplay-finals.epd").to_string(),
        };
        let mut table = Table::new(20);
        let mut tsv = String::new();
        let (mut sides, mut short, mut batch_shortest, mut reader_shortest) = (0, 0, 0, 0);
        let (mut exact_nodes, mut exact_time) = (0u64, std::time::Duration::ZERO);
        let mut missed = Vec::new();

        for (i, fen) in finals.lines().enumerate() {
            let fen = fen.trim();
            if fen.is_empty() || fen.starts_with('#') {
                continue;
            }
            let pos = Position::from_fen(fen).expect("fen");
            for side in Color::ALL {
                let d = decide(&pos, side, Budget::default());
                let Verdict::Winnable { helpmate } = &d.verdict else { continue };
                if helpmate.is_empty() {
                    continue; // mated already: no example is shown
                }
                let length = |d: &Decision| match &d.verdict {
                    Verdict::Winnable { helpmate } => helpmate.len(),
                    _ => panic!("{fen}: a winnable side became {:?}", d.verdict),
                };
                let batch = length(&decide_with_example(&pos, side, Budget::default(), EXAMPLE_NODES));
                let reader = length(&for_reader(&pos, side, &d));
                let max = if pos.side_to_move() == side { 5 } else { 6 };
                let clock = std::time::Instant::now();
                let found = shortest_within(&pos, side, 1, max, 20_000_000, &mut table);
                exact_time += clock.elapsed();
                exact_nodes += found.nodes;
                assert!(found.line.is_some() || found.none_within >= max, "{fen}: out of nodes");
                let oracle = found.line.as_ref().map(Vec::len);
                sides += 1;
                if let Some(n) = oracle {
                    assert!(batch >= n && reader >= n, "{fen} {side:?}: shorter than the shortest");
                    short += 1;
                    batch_shortest += usize::from(batch == n);
                    reader_shortest += usize::from(reader == n);
                    if batch != n || reader != n {
                        missed.push(format!(
                            "{fen} {side:?}: shortest {n} ({} nodes), batch {batch}, reader {reader}",
                            found.nodes
                        ));
                    }
                }
                let oracle = oracle.map_or("-".to_string(), |n| n.to_string());
                writeln!(tsv, "{i}\t{side:?}\t{}\t{batch}\t{oracle}\t{}\t{reader}", helpmate.len(), found.nodes)
                    .expect("string");
            }
        }
        if let Ok(path) = std::env::var("SHORTEST_TSV") {
            std::fs::write(path, tsv).expect("write");
        }
        println!(
            "{sides} sides with an example; {short} with a helpmate of at most six half-moves: \
             the batch (--shortest) shows a shortest in {batch_shortest}, a reader in {reader_shortest}; \
             the exact search to the end took {exact_nodes} nodes, {:.1} s",
            exact_time.as_secs_f64()
        );
        for m in &missed {
            println!("not a shortest: {m}");
        }
    }
}

/// By hand: the exact search alone, to the end of six half-moves on every side of the self-play
/// finals not mated (no decision, no reader's search): its nodes and seconds, for timing it
/// (`EXACT_BUDGET` sets the budget a side; 20 M by default):
/// `cargo test --release --lib exact_search_alone -- --ignored --nocapture`.
#[cfg(test)]
mod exact_alone {
    use super::*;
    use crate::chess::attacks;

    #[test]
    #[ignore]
    fn exact_search_alone_on_the_finals() {
        attacks::init();
        let bits = std::env::var("EXACT_TABLE_BITS").ok().and_then(|s| s.parse().ok()).unwrap_or(20);
        let mut table = Table::new(bits);
        let budget: u64 = std::env::var("EXACT_BUDGET").ok().and_then(|s| s.parse().ok()).unwrap_or(20_000_000);
        let (mut nodes, mut found, mut shortest) = (0u64, 0usize, 0usize);
        let clock = std::time::Instant::now();
        for pos in super::super::selfplay_finals() {
            if !has_legal_move(&pos) {
                continue;
            }
            for side in Color::ALL {
                let max = if pos.side_to_move() == side { 5 } else { 6 };
                let f = shortest_within(&pos, side, 1, max, budget, &mut table);
                nodes += f.nodes;
                found += usize::from(f.line.is_some());
                // A find after every shorter length was searched to the end.
                shortest += usize::from(f.line.is_some_and(|l| f.none_within + 2 >= l.len()));
            }
        }
        println!(
            "exact search, budget {budget} a side, table 2^{bits}: {found} found ({shortest} shown shortest), \
             {nodes} nodes, {:.2} s",
            clock.elapsed().as_secs_f64()
        );
    }
}
