//! Helpmates of a lone minor piece, aimed at one mating picture at a time (issue #64).
//!
//! A knight or a bishop mates only with help: the loser's king on some square K, the minor
//! piece arriving on a square C from which it checks K, the winner's king on a square W two
//! steps from K covering some of its flight squares, and the loser's own men standing on the
//! flight squares nothing covers (each where it can neither take the checker nor step into
//! the line of the check). The plan searches of `helpmate.rs` reach such pictures by
//! wandering towards corners; on the real finals where a lone minor piece faces rooks and
//! queens, or another minor piece with a long way to go before the seventy-five-move rule,
//! they needed hundreds of thousands of nodes (docs/unwinnable.md).
//!
//! Here the pictures are listed first, each with the moves it needs: the loser's king steps
//! to K and each blocker's moves to its square, one move for each other man of the loser's
//! that stands in the way (on a square the picture needs, or attacking C, W or the line of
//! the check), the winner king's steps to W and the minor piece's moves to C (the last of
//! them the check). Those counts give the half-moves the picture needs at the least, the
//! winner moving last. The pictures that need the fewest are searched in turn, each by
//! iterative deepening on that count (IDA*): a line is followed only while the half-moves
//! played and the half-moves the picture still needs fit the iteration's limit. Any mate met
//! on the way ends the search, whatever picture led to it. Nothing here proves anything: "not
//! found" means not found within the nodes; a line found replays to mate.

use super::helpmate::knight_distance;
use super::table::Table;
use crate::chess::attacks::{between, bishop_attacks, king_attacks, knight_attacks, pawn_attacks, piece_attacks};
use crate::chess::movegen::{has_legal_move, legal_moves, MAX_MOVES};
use crate::chess::{Bitboard, Color, Move, PieceType, Position, Square};

/// The most flight squares a picture lets the loser's own men block.
const MAX_BLOCKERS: usize = 5;

/// The men a picture moves: the loser's king, the winner's king, the minor piece, blockers.
const MEN: usize = 3 + MAX_BLOCKERS;

/// Moves a man could never make.
const NEVER: u32 = 99;

/// How far from the loser's king a mating square is looked for (king steps).
const MAX_KING_WALK: i32 = 6;

/// A mating picture.
#[derive(Clone, Copy, Debug)]
struct Picture {
    /// The loser's king's square at the mate.
    king: Square,
    /// The square the minor piece checks from.
    check_from: Square,
    /// The winner's king's square at the mate.
    winner_king: Square,
    /// The squares strictly between the checker and the king: empty at the mate.
    line: Bitboard,
    /// The squares each blocker goes to (`blockers` of them), by the order of the men.
    targets: [Square; MAX_BLOCKERS],
    /// What each blocker is there (a pawn of the loser's may promote on the way).
    kinds: [PieceType; MAX_BLOCKERS],
    blockers: usize,
    /// The half-moves it needs at the least from the start.
    plies: u32,
}

/// The men a picture moves, where they stand now: the loser's king, the winner's king, the
/// minor piece, then the blockers.
type Men = [Square; MEN];

/// The slack over a picture's least half-moves each round of iterations allows (the winner
/// moves last, so a line is longer by an even number).
const SLACKS: [u32; 4] = [0, 2, 4, 6];

/// The pictures searched, fewest half-moves first.
const PICTURES: usize = 24;

/// Nodes one iteration (a picture at a slack) may use: a picture that fits is most often made
/// within a few hundred, and a wrong one should not hold up the others.
const ITERATION_NODES: u64 = 2_000;

/// A helpmate by `winner` where it has a lone knight or bishop (besides its king and pawns)
/// against a loser with men to block, within about `limit` nodes: the line (a helpmate, to be
/// replayed by the caller like every line of a heuristic search) and the nodes spent. Nothing
/// for any other material.
pub fn search(pos: &Position, winner: Color, table: &mut Table, limit: u64) -> (Option<Vec<Move>>, u64) {
    let Some(checker) = lone_minor(pos, winner) else { return (None, 0) };
    let pictures = pictures(pos, winner, checker);
    let mut s = Search { winner, table, nodes: 0, limit: 0, line: Vec::new() };
    for slack in SLACKS {
        for (picture, men) in &pictures {
            s.table.clear();
            s.line.clear();
            s.limit = (s.nodes + ITERATION_NODES).min(limit);
            if s.dfs(picture, pos, men, 0, picture.plies + slack) == Some(true) {
                return (Some(s.line), s.nodes);
            }
            if s.nodes >= limit {
                return (None, s.nodes);
            }
        }
    }
    (None, s.nodes)
}

/// The winner's one knight or bishop, where it has nothing else but its king and pawns and
/// the loser has men besides its king.
fn lone_minor(pos: &Position, winner: Color) -> Option<Square> {
    let pieces = pos.color(winner) & !pos.pieces(PieceType::King) & !pos.pieces(PieceType::Pawn);
    let minors = pos.pieces(PieceType::Knight) | pos.pieces(PieceType::Bishop);
    let loser_men = pos.color(winner.flip()) & !pos.pieces(PieceType::King);
    (pieces.count() == 1 && (pieces & minors).nonempty() && loser_men.nonempty())
        .then(|| pieces.squares().next())
        .flatten()
}

/// Moves a man of `kind` (of `color`) needs from `from` to `to` on an empty board, or
/// [`NEVER`] (a pawn only pushes, and never onto its last rank).
fn moves_to(kind: PieceType, color: Color, from: Square, to: Square) -> u32 {
    if from == to {
        return 0;
    }
    match kind {
        PieceType::King => from.distance(to) as u32,
        PieceType::Knight => knight_distance(from, to) as u32,
        PieceType::Bishop if from.is_light() != to.is_light() => NEVER,
        PieceType::Bishop => 2 - u32::from(bishop_attacks(from, Bitboard::EMPTY).contains(to)),
        PieceType::Rook => 2 - u32::from(from.file() == to.file() || from.rank() == to.rank()),
        PieceType::Queen => {
            let aligned = bishop_attacks(from, Bitboard::EMPTY).contains(to)
                || from.file() == to.file()
                || from.rank() == to.rank();
            2 - u32::from(aligned)
        }
        PieceType::Pawn => {
            let (r0, r1) = (from.relative(color).rank().index() as i32, to.relative(color).rank().index() as i32);
            if from.file() != to.file() || r1 <= r0 || r1 == 7 {
                return NEVER;
            }
            let ranks = (r1 - r0) as u32;
            if r0 == 1 && ranks >= 2 {
                ranks - 1
            } else {
                ranks
            }
        }
    }
}

/// Moves a man of the loser's (`color`), a `now` on `from`, needs to stand on `to` as a
/// `kind`: a pawn may promote on its file on the way.
fn blocker_moves(now: PieceType, kind: PieceType, color: Color, from: Square, to: Square) -> u32 {
    if now == kind {
        return moves_to(kind, color, from, to);
    }
    if now != PieceType::Pawn || kind == PieceType::King {
        return NEVER;
    }
    let rank = from.relative(color).rank().index() as u32;
    let promoting = 7 - rank - u32::from(rank == 1);
    let last = Square::new((from.file().index() + if color == Color::White { 56 } else { 0 }) as u8);
    promoting + moves_to(kind, color, last, to)
}

/// Moves the minor piece needs to arrive on `to` giving check (it must move last).
fn checker_moves(kind: PieceType, from: Square, to: Square) -> u32 {
    match moves_to(kind, Color::White, from, to) {
        0 => 2,
        n => n,
    }
}

/// Where a man of `kind` and `color` on `from` attacks, the board `occ`.
fn reach(kind: PieceType, color: Color, from: Square, occ: Bitboard) -> Bitboard {
    match kind {
        PieceType::Pawn => pawn_attacks(color, from),
        _ => piece_attacks(kind, from, occ),
    }
}

/// The squares a pawn of `color` on `from` pushes to (one or two ahead), the board `occ`.
fn pushes(color: Color, from: Square, occ: Bitboard) -> Bitboard {
    let Some(one) = from.offset(color.forward()) else { return Bitboard::EMPTY };
    if occ.contains(one) {
        return Bitboard::EMPTY;
    }
    let mut out = Bitboard::from_square(one);
    if from.relative(color).rank().index() == 1 {
        if let Some(two) = one.offset(color.forward()) {
            if !occ.contains(two) {
                out = out.with(two);
            }
        }
    }
    out
}

/// The half-moves a picture needs at the least when the winner needs `w` more moves (its
/// last the check) and the loser `l`, the winner moving last.
fn plies(w: u32, l: u32, winner_to_move: bool) -> u32 {
    if winner_to_move {
        (2 * w).saturating_sub(1).max(2 * l + 1)
    } else {
        (2 * w).max(2 * l)
    }
}

impl Picture {
    /// The moves (winner's, loser's) this picture still needs from `pos`, its men on `men`,
    /// or None where one of them can never get there.
    fn needs(&self, pos: &Position, winner: Color, men: &Men) -> Option<(u32, u32)> {
        let loser = winner.flip();
        let kind = |s: Square| pos.piece_at(s).map(|p| p.kind);
        let checker = kind(men[2])?;
        let mut w = men[1].distance(self.winner_king) as u32 + checker_moves(checker, men[2], self.check_from);
        let mut l = men[0].distance(self.king) as u32;
        let mut placed = Bitboard::from_square(men[0]).with(men[1]).with(men[2]);
        let mut targets = Bitboard::from_square(self.king).with(self.winner_king).with(self.check_from);
        for i in 0..self.blockers {
            let at = men[3 + i];
            l += blocker_moves(kind(at)?, self.kinds[i], loser, at, self.targets[i]);
            placed = placed.with(at);
            targets = targets.with(self.targets[i]);
        }
        if w >= NEVER || l >= NEVER {
            return None;
        }
        // The others: off the squares the picture needs, and (the loser's) out of reach of the
        // checker's square, the winner king's and the line of the check.
        let occ = (pos.occupied() - placed) | targets;
        let needed = targets | self.line;
        let guarded = self.line.with(self.check_from).with(self.winner_king);
        for s in pos.occupied() - placed {
            let Some(p) = pos.piece_at(s) else { continue };
            if needed.contains(s) {
                if p.color == winner {
                    w += 1;
                } else {
                    l += 1;
                }
            } else if p.color == loser {
                let mut hits = reach(p.kind, p.color, s, occ);
                if p.kind == PieceType::Pawn {
                    hits |= pushes(p.color, s, occ);
                }
                if (hits & guarded).nonempty() {
                    l += 1;
                }
            }
        }
        Some((w, l))
    }
}

/// The pictures worth searching from `pos`, fewest half-moves first, each with its men.
/// Every (K, C, W) gets a lower bound first (the kings' walks and the checker's moves); the
/// blockers, the costly part, are found in the order of that bound until the next bound
/// exceeds what the last picture kept needs.
fn pictures(pos: &Position, winner: Color, checker: Square) -> Vec<(Picture, Men)> {
    let loser = winner.flip();
    let Some(checker_kind) = pos.piece_at(checker).map(|p| p.kind) else { return Vec::new() };
    let (lk, wk) = (pos.king_square(loser), pos.king_square(winner));
    let winner_to_move = pos.side_to_move() == winner;
    let ours = pos.color(winner);
    let colour = if checker.is_light() { Bitboard::LIGHT_SQUARES } else { Bitboard::DARK_SQUARES };
    // (lower bound, K, C, W), packed into one integer to sort.
    let mut candidates: Vec<u32> = Vec::with_capacity(4096);
    for k in Square::all() {
        let walk = lk.distance(k);
        if walk > MAX_KING_WALK || ours.contains(k) && k != wk && k != checker {
            continue;
        }
        let checks = match checker_kind {
            PieceType::Knight => knight_attacks(k),
            _ => bishop_attacks(k, Bitboard::EMPTY) & colour,
        };
        // Two steps from K (it covers flights only from there), or where it stands.
        let near = king_attacks(k).into_iter().fold(Bitboard::EMPTY, |b, s| b | king_attacks(s));
        let winner_kings = near.with(wk) - king_attacks(k).with(k);
        for c in checks {
            let to_check = checker_moves(checker_kind, checker, c);
            for w in winner_kings.without(c) {
                let bound = plies(to_check + wk.distance(w) as u32, walk as u32, winner_to_move);
                candidates.push(bound << 18 | (k.index() as u32) << 12 | (c.index() as u32) << 6 | w.index() as u32);
            }
        }
    }
    candidates.sort_unstable();
    let mut out: Vec<(Picture, Men)> = Vec::new();
    for key in candidates {
        let bound = key >> 18;
        if out.len() >= PICTURES && bound > out[PICTURES - 1].0.plies {
            break;
        }
        let square = |shift: u32| Square::new(((key >> shift) & 63) as u8);
        let Some((picture, men)) = picture(pos, winner, checker, checker_kind, square(12), square(6), square(0)) else {
            continue;
        };
        // Kept in order of the half-moves needed (stable: the bound's order among equals).
        let at = out.partition_point(|(p, _)| (p.plies, p.blockers) <= (picture.plies, picture.blockers));
        out.insert(at, (picture, men));
        out.truncate(PICTURES);
    }
    out
}

/// The picture of the loser's king on `k`, the checker arriving on `c` and the winner's king on
/// `w`, with the nearest blockers that can stand harmlessly on the flight squares nothing
/// covers, and its men; None where it cannot be made.
fn picture(
    pos: &Position,
    winner: Color,
    checker: Square,
    checker_kind: PieceType,
    k: Square,
    c: Square,
    w: Square,
) -> Option<(Picture, Men)> {
    let loser = winner.flip();
    let (lk, wk) = (pos.king_square(loser), pos.king_square(winner));
    let flights = king_attacks(k);
    let line = between(c, k);
    if line.contains(w) {
        return None;
    }
    // The board without the men that move into place; what the winner's pawns cover.
    let rest = pos.occupied().without(lk).without(wk).without(checker);
    let pawns_cover =
        pos.pieces_of(winner, PieceType::Pawn).into_iter().fold(Bitboard::EMPTY, |b, s| b | pawn_attacks(winner, s));
    // The checker's cover, the king off the board (it cannot flee along the line); next to
    // the king, the checker must be guarded.
    let occ = rest.without(k).with(c);
    let from_c = piece_attacks(checker_kind, c, occ - line);
    if flights.contains(c) && !king_attacks(w).contains(c) && !pawns_cover.contains(c) {
        return None;
    }
    let open = flights - from_c - king_attacks(w) - pawns_cover - Bitboard::from_square(c);
    let loser_men = pos.color(loser) & !pos.pieces(PieceType::King);
    if open.count() as usize > MAX_BLOCKERS || open.count() > loser_men.count() {
        return None;
    }
    // Each open flight gets the nearest free blocker that can stand there harmlessly.
    let guarded = line.with(c).with(w);
    let final_occ = occ | open | Bitboard::from_square(w);
    let mut used = Bitboard::EMPTY;
    let mut targets = [Square::A1; MAX_BLOCKERS];
    let mut kinds = [PieceType::Pawn; MAX_BLOCKERS];
    let mut men: Men = [lk, wk, checker, Square::A1, Square::A1, Square::A1, Square::A1, Square::A1];
    for (i, f) in open.into_iter().enumerate() {
        // (moves, square, kind): a pawn as itself or promoted to each piece.
        let mut best: Option<(u32, Square, PieceType)> = None;
        for b in loser_men - used {
            let Some(p) = pos.piece_at(b) else { continue };
            let as_kinds: &[PieceType] = match p.kind {
                PieceType::Pawn => {
                    &[PieceType::Pawn, PieceType::Knight, PieceType::Bishop, PieceType::Rook, PieceType::Queen]
                }
                _ => std::slice::from_ref(&p.kind),
            };
            for &kind in as_kinds {
                let n = blocker_moves(p.kind, kind, loser, b, f);
                if n >= NEVER || best.is_some_and(|(m, _, _)| m <= n) {
                    continue;
                }
                let mut hits = reach(kind, loser, f, final_occ);
                if kind == PieceType::Pawn {
                    hits |= pushes(loser, f, final_occ);
                }
                if (hits & guarded).is_empty() {
                    best = Some((n, b, kind));
                }
            }
        }
        let (_, b, kind) = best?;
        used = used.with(b);
        targets[i] = f;
        kinds[i] = kind;
        men[3 + i] = b;
    }
    let picture = Picture {
        king: k,
        check_from: c,
        winner_king: w,
        line,
        targets,
        kinds,
        blockers: open.count() as usize,
        plies: 0,
    };
    let (wm, lm) = picture.needs(pos, winner, &men)?;
    Some((Picture { plies: plies(wm, lm, pos.side_to_move() == winner), ..picture }, men))
}

struct Search<'t> {
    winner: Color,
    /// Positions searched in this iteration, with the half-moves that were left.
    table: &'t mut Table,
    nodes: u64,
    /// The node count at which this iteration stops.
    limit: u64,
    line: Vec<Move>,
}

impl Search<'_> {
    /// A mate by the winner within `limit` half-moves from the start, `played` of them played
    /// to reach `pos`, along lines where `picture` still fits: Some(true) when found (the line
    /// in `self.line`), None when out of nodes.
    fn dfs(&mut self, picture: &Picture, pos: &Position, men: &Men, played: u32, limit: u32) -> Option<bool> {
        let remaining = (limit - played) as i32;
        if self.table.get(pos.key()).is_some_and(|r| r >= remaining) {
            return Some(false); // searched with as much left, or on the current line
        }
        self.table.put(pos.key(), remaining);
        let winner_moves = pos.side_to_move() == self.winner;
        let movers = 3 + picture.blockers;
        // Each move with the half-moves the picture needs after it, fewest first; those after
        // which it no longer fits are not kept.
        let moves = legal_moves(pos);
        let mut keyed = [(0u32, 0usize, [Square::A1; MEN]); MAX_MOVES];
        let mut n = 0;
        for (i, &m) in moves.iter().enumerate() {
            // The picture's checker and blockers are not to be taken; castling and en passant
            // (two men at once) have no part in it.
            if m.is_castling() || m.is_en_passant() || m.is_capture() && men[2..movers].contains(&m.to()) {
                continue;
            }
            self.nodes += 1;
            if self.nodes > self.limit {
                return None;
            }
            let child = pos.make_move(m);
            if winner_moves && child.in_check() && !has_legal_move(&child) {
                self.line.push(m);
                return Some(true); // any mate will do, whatever picture led to it
            }
            if child.halfmove_clock() >= 150 {
                continue; // 9.6.2: the game is over
            }
            let mut moved = *men;
            if let Some(s) = moved[..movers].iter_mut().find(|s| **s == m.from()) {
                *s = m.to();
            }
            let Some((w, l)) = picture.needs(&child, self.winner, &moved) else { continue };
            let left = plies(w, l, !winner_moves);
            if played + 1 + left <= limit {
                keyed[n] = (left, i, moved);
                n += 1;
            }
        }
        let keyed = &mut keyed[..n];
        keyed.sort_unstable_by_key(|&(left, i, _)| (left, i));
        for &(_, i, moved) in keyed.iter() {
            let m = moves.get(i);
            self.line.push(m);
            if self.dfs(picture, &pos.make_move(m), &moved, played + 1, limit)? {
                return Some(true);
            }
            self.line.pop();
        }
        Some(false)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::attacks;
    use crate::rules::unwinnable::is_helpmate;

    /// Record finals where the plans of `helpmate.rs` found no helpmate within 2,000,000 nodes
    /// (a lone bishop against queens and rooks), and minor pieces against each other with
    /// fifty half-moves before the seventy-five-move rule (700,000 nodes and more): the
    /// pictures find each within the stage's nodes, and the line replays to mate.
    #[test]
    fn finds_the_mates_of_a_lone_minor_piece() {
        attacks::init();
        let mut table = Table::new(16);
        for (fen, winner) in [
            ("8/8/4q3/B1K1bp2/8/5k2/8/7r w - - 4 66", Color::White),
            ("8/8/3B4/8/6p1/5k2/8/1r4bK b - - 21 73", Color::White),
            ("8/4pp2/3qb3/8/8/4k3/7K/7B w - - 8 57", Color::White),
            ("Q1R5/8/7k/4b3/8/1PP2R2/2K5/8 w - - 1 53", Color::Black),
            ("8/1R6/8/k7/2Q1K3/2b5/5P2/8 w - - 9 93", Color::Black),
            ("8/5K2/4N3/8/8/8/3k4/4n3 b - - 100 129", Color::White),
            ("8/5K2/4N3/8/8/8/3k4/4n3 b - - 100 129", Color::Black),
            ("8/2K5/8/8/8/5N2/8/1bk5 w - - 100 180", Color::White),
        ] {
            let pos = Position::from_fen(fen).expect("test FEN");
            let (line, nodes) = search(&pos, winner, &mut table, 60_000);
            let line = line.unwrap_or_else(|| panic!("{fen} for {winner:?}: none in {nodes} nodes"));
            assert!(is_helpmate(&pos, winner, &line), "{fen} for {winner:?}: {line:?}");
        }
    }

    /// Only a lone knight or bishop (with its king and pawns) against men that can block.
    #[test]
    fn other_material_is_left_to_the_plans() {
        attacks::init();
        let mut table = Table::new(16);
        for (fen, winner) in [
            ("4k3/8/8/8/8/8/8/R3K3 w - - 0 1", Color::White),  // a rook
            ("4k3/8/8/8/8/8/8/2NNK3 w - - 0 1", Color::White), // two knights
            ("4k3/8/8/8/8/8/8/3NK3 w - - 0 1", Color::White),  // nothing to block with
            ("4k3/8/8/8/8/8/8/3QK3 w - - 0 1", Color::Black),  // a bare king
        ] {
            let pos = Position::from_fen(fen).expect("test FEN");
            assert_eq!(search(&pos, winner, &mut table, 60_000), (None, 0), "{fen}");
        }
    }
}
