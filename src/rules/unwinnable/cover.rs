//! Can a helpmate of so few half-moves exist at all? A necessary condition, checked without a
//! search, that lets the exact search ([`super::shorten`]) skip what cannot mate in time.
//!
//! At a checkmate the loser's king stands on some square K, and every square of K's *block*
//! (K itself and the squares next to it) either holds another piece of the loser's or is
//! attacked by the winner (K itself must be: it is check). Within `w` winner moves and `l`
//! loser moves:
//! - K is at most `l` king steps from the king's square now;
//! - the loser's other pieces in the block are those there now, plus at most one for each
//!   loser move that is not a king step;
//! - a winner piece that never moves attacks at most what it attacks now on an empty board; one
//!   that moves attacks at most [`CAP`] squares of a block (a king: what it attacks from the
//!   squares it walks to in the moves it takes), and gets near only so fast (a king or a
//!   knight walks, a pawn only goes forward; queens, rooks and bishops get anywhere they can
//!   help from in one move), and the winner's `w` moves are shared among the pieces;
//! - K is in check, from a winner man other than the king: K is a square one of them attacks
//!   now or can attack within the moves (a rook or queen anywhere, a bishop on its colour, a
//!   knight or pawn where it walks to, a pawn that promotes in time anywhere).
//!
//! If on every such K the squares left over outnumber what the moving pieces can attack (a
//! small knapsack over their move costs), there is no helpmate. Everything is counted
//! generously (lines through any piece, captures never counted), so "no" is always sound.
//! Castling moves two pieces at once and the king two squares: with any castling right the
//! answer is "maybe".

use crate::chess::attacks::{
    bishop_attacks, empty_board_attacks, king_attacks, knight_attacks, pawn_attacks, rook_attacks,
};
use crate::chess::{Bitboard, Color, Move, MoveKind, PieceType, Position, Square};
use once_cell::sync::Lazy;

/// What a piece may attack of a block, worked out once from the move generator's attack tables
/// (on the empty board, so never too few).
struct Tables {
    /// The most squares of K's block a piece of each kind attacks from any square, by
    /// [`PieceType::index`] and K (a king from two squares away at least, as kings never stand
    /// next to each other; a pawn of either colour). An edge or a corner leaves fewer: a queen
    /// attacks at most six squares of a block in the middle of the board and three in a corner.
    cap: [[u8; 64]; 6],
    /// A bishop's `cap` by the colour of its square (light: 1): it never leaves it.
    bishop_cap: [[u8; 64]; 2],
    /// The fewest moves a knight on one square (first index) takes to attack a square of K's
    /// block (second index).
    knight_moves: [[u8; 64]; 64],
    /// The most of each kind's `cap` on any square.
    most: [u8; 6],
    /// What a piece of each kind attacks from each square on the empty board (a pawn: none;
    /// its attacks depend on its colour), by [`PieceType::index`]: the sliders' without the
    /// magic lookup.
    reach: [[Bitboard; 64]; 6],
    /// The fewest moves each kind of piece on a square takes to help on K's block, by K (a
    /// lower bound, at least one): what [`Man`]s point to. A king's, a knight's, one for
    /// the others.
    king_cost: [[u8; 64]; 64],
    /// The most squares of K's block a king attacks once it made at most `c` moves, by `c - 1`,
    /// its square now and K: from a square within `c` steps, at least two from K. Tighter
    /// than its `cap` where it stands far (a king on b6 with one move covers two squares of
    /// a3's block at most, not three).
    king_cap: [[[u8; 64]; 64]; MAX_WINNER_MOVES],
    /// The squares a knight on a square (second index) attacks now or after at most `c` moves
    /// (first index), on the empty board: where it can give check in time.
    knight_check: [[Bitboard; 64]; MAX_WINNER_MOVES + 1],
    /// The same for a pawn, by colour (every square where it can promote within `c` moves).
    pawn_check: [[[Bitboard; 64]; MAX_WINNER_MOVES + 1]; 2],
    knight_cost: [[u8; 64]; 64],
    one: [u8; 64],
    /// A pawn's as a pawn, by colour, square and K: it must stand on one of the three ranks
    /// below the block's top one and within two files of K (it changes files only by
    /// capturing, one a move); `u8::MAX` where it never helps as a pawn.
    pawn_cost: [[[u8; 64]; 64]; 2],
}

static TABLES: Lazy<Tables> = Lazy::new(|| {
    let attacks = |kind: PieceType, s: Square| -> [Bitboard; 2] {
        match kind {
            PieceType::Pawn => [pawn_attacks(Color::White, s), pawn_attacks(Color::Black, s)],
            _ => [empty_board_attacks(kind, s); 2],
        }
    };
    let most = |kind: PieceType, k: Square, from: &dyn Fn(Square) -> bool| -> u8 {
        let block = block_of(k);
        Square::all()
            .filter(|&s| s != k && (kind != PieceType::King || s.distance(k) >= 2) && from(s))
            .flat_map(|s| attacks(kind, s))
            .map(|a| (a & block).count() as u8)
            .max()
            .unwrap_or(0)
    };
    let mut t = Tables {
        cap: [[0; 64]; 6],
        bishop_cap: [[0; 64]; 2],
        knight_moves: [[u8::MAX; 64]; 64],
        most: [0; 6],
        reach: [[Bitboard::EMPTY; 64]; 6],
        king_cost: [[0; 64]; 64],
        king_cap: [[[0; 64]; 64]; MAX_WINNER_MOVES],
        knight_check: [[Bitboard::EMPTY; 64]; MAX_WINNER_MOVES + 1],
        pawn_check: [[[Bitboard::EMPTY; 64]; MAX_WINNER_MOVES + 1]; 2],
        knight_cost: [[0; 64]; 64],
        one: [1; 64],
        pawn_cost: [[[u8::MAX; 64]; 64]; 2],
    };
    for k in Square::all() {
        for kind in PieceType::ALL {
            if kind != PieceType::Pawn {
                t.reach[kind.index()][k.index()] = empty_board_attacks(kind, k);
            }
        }
        for kind in PieceType::ALL {
            t.cap[kind.index()][k.index()] = most(kind, k, &|_| true);
        }
        for light in [false, true] {
            t.bishop_cap[usize::from(light)][k.index()] = most(PieceType::Bishop, k, &|s| s.is_light() == light);
        }
        // Breadth first from the squares from which a knight attacks the block.
        let block = block_of(k);
        let mut frontier = Square::all()
            .filter(|&s| (knight_attacks(s) & block).nonempty())
            .fold(Bitboard::EMPTY, |set, s| set.with(s));
        let (mut seen, mut distance) = (frontier, 0);
        while frontier.nonempty() {
            let mut next = Bitboard::EMPTY;
            for s in frontier {
                t.knight_moves[s.index()][k.index()] = distance;
                next |= knight_attacks(s);
            }
            frontier = next - seen;
            seen |= next;
            distance += 1;
        }
        for s in Square::all() {
            t.king_cost[s.index()][k.index()] = (s.distance(k) - 2).max(1) as u8;
            t.knight_cost[s.index()][k.index()] = t.knight_moves[s.index()][k.index()].max(1);
            for color in Color::ALL {
                let rank = s.relative(color).rank().index() as i32;
                let top = k.relative(color).rank().index() as i32 + 1;
                if rank < top {
                    let ranks = (top - 3 - rank).max(0);
                    let ranks = if rank == 1 && ranks >= 2 { ranks - 1 } else { ranks };
                    let files = (s.file().index() as i32 - k.file().index() as i32).abs() - 2;
                    t.pawn_cost[color.index()][s.index()][k.index()] = ranks.max(files).max(1) as u8;
                }
            }
        }
    }
    for kind in PieceType::ALL {
        t.most[kind.index()] = t.cap[kind.index()].iter().copied().max().unwrap_or(0);
    }
    // The king's caps by its moves, one step further each: the best of the squares next to it
    // (a king next to K attacks none of its block: kings never stand side by side).
    let stands = |to: Square, k: Square| match to.distance(k) >= 2 {
        true => (king_attacks(to) & block_of(k)).count() as u8,
        false => 0,
    };
    for c in 0..MAX_WINNER_MOVES {
        for s in Square::all() {
            for k in Square::all() {
                t.king_cap[c][s.index()][k.index()] = block_of(s)
                    .into_iter()
                    .map(|to| if c == 0 { stands(to, k) } else { t.king_cap[c - 1][to.index()][k.index()] })
                    .max()
                    .unwrap_or(0);
            }
        }
    }
    for s in Square::all() {
        // A knight's squares within `c` moves, grown a move at a time, and what it attacks there.
        // (What it attacks from its squares is also where its next move goes.)
        let (mut within, mut check) = (Bitboard::from_square(s), knight_attacks(s));
        for c in 0..=MAX_WINNER_MOVES {
            t.knight_check[c][s.index()] = check;
            within |= check;
            check = within.into_iter().fold(Bitboard::EMPTY, |all, n| all | knight_attacks(n));
        }
        for color in Color::ALL {
            let rank = s.relative(color).rank().index() as i32;
            let promoting = moves_to_promote(rank);
            for c in 0..=MAX_WINNER_MOVES as i32 {
                // Where it promotes in time it can check anywhere; else from a square ahead of
                // it that it reaches in time, a file further for each capture.
                t.pawn_check[color.index()][c as usize][s.index()] = if promoting <= c {
                    Bitboard::FULL
                } else {
                    Square::all()
                        .filter(|&q| {
                            let ranks = q.relative(color).rank().index() as i32 - rank;
                            let files = (q.file().index() as i32 - s.file().index() as i32).abs();
                            // Two ranks in one step from its second rank, where no capture
                            // needs that step.
                            let double = rank == 1 && ranks >= 2 && files <= ranks - 2;
                            ranks >= 0 && files <= ranks && ranks - i32::from(double) <= c
                        })
                        .fold(Bitboard::EMPTY, |all, q| all | pawn_attacks(color, q))
                };
            }
        }
    }
    t
});

/// The fewest moves a pawn on `rank` (its own side's count, 0 to 7) takes to promote: two
/// ranks in its first step from the second rank.
const fn moves_to_promote(rank: i32) -> i32 {
    let moves = 7 - rank - if rank == 1 { 1 } else { 0 };
    if moves < 1 {
        1
    } else {
        moves
    }
}

/// K and the squares next to it: where a mated king and its flight squares are.
#[inline(always)]
fn block_of(k: Square) -> Bitboard {
    // The king's steps from the compile-time table (`grown` shifts the board eight ways).
    king_attacks(k).with(k)
}

/// The most winner moves the knapsack handles; longer lines are never ruled out.
const MAX_WINNER_MOVES: usize = 8;

/// False when `winner` surely cannot checkmate within `plies` half-moves from `pos` (the
/// winner moving last, the loser helping); true when it might.
pub fn may_mate_within(pos: &Position, winner: Color, plies: usize) -> bool {
    let winner_moves = if pos.side_to_move() == winner { plies.div_ceil(2) } else { plies / 2 };
    let loser_moves = plies - winner_moves;
    if winner_moves == 0 || winner_moves > MAX_WINNER_MOVES || !pos.castling_rights().is_empty() {
        return winner_moves > 0;
    }
    let loser = winner.flip();
    let winners = Winners::new(pos, winner, winner_moves, &TABLES);
    let blockers = pos.color(loser).without(pos.king_square(loser));
    let kind_of = |s: Square| pos.piece_at(s).map(|p| p.kind);
    mate_ends::<false>(
        Bitboard::EMPTY,
        pos.king_square(loser),
        &kind_of,
        loser,
        blockers,
        &winners,
        winner_moves,
        loser_moves,
        pos.side_to_move() == loser,
    )
    .nonempty()
}

/// The bound's test on every square K the loser's king (on `king`) can reach
/// ([`may_mate_within`]), the loser's other pieces `blockers` (each of the kind `kind_of` says),
/// the winner's `winners`: the squares that pass, all of them with `EVERY`, else the first one
/// only (or none). A mate can end with the loser's king on no other square. Where the
/// loser moves first with one move left, the king does not step onto a square of `illegal`.
#[allow(clippy::too_many_arguments)]
fn mate_ends<const EVERY: bool>(
    illegal: Bitboard,
    king: Square,
    kind_of: &impl Fn(Square) -> Option<PieceType>,
    loser: Color,
    blockers: Bitboard,
    winners: &Winners,
    winner_moves: usize,
    loser_moves: usize,
    loser_first: bool,
) -> Bitboard {
    // The squares within `loser_moves` king steps (one step: the block, from a table).
    let mut reach = if loser_moves == 0 { Bitboard::from_square(king) } else { block_of(king) };
    for _ in 1..loser_moves {
        reach = reach.grown();
    }
    if loser_first && loser_moves == 1 {
        reach = first_step_reach(king, blockers, winners) - illegal.without(king);
    }
    // A mate is check: by a man but the king, now or after its moves.
    reach &= winners.check;
    let passes = |k: Square| {
        let block = block_of(k);
        // Kings never stand side by side: one next to K now must move.
        let king_moves = winners.king.distance(k) <= 1;
        let open = block - winners.attacked[if king_moves { WITHOUT_KING } else { ALL }];
        let blocking = (blockers & open).without(k).count() as usize;
        let free_moves = loser_moves - king.distance(k) as usize;
        let others = blockers - (open.without(k));
        // Each loser move that is not a king step brings at most one piece into the block.
        let arriving = free_moves.min(others.count() as usize);
        let need = (open.count() as usize).saturating_sub(blocking + arriving);
        if need == 0 {
            return true;
        }
        if need > winners.most_caps {
            return false;
        }
        // Covering all the open squares the loser's pieces do not hold settles both tests below.
        let enough = open.count() as usize - blocking;
        let covered = winners.most_covered(k, block, blockers, winner_moves, king_moves, enough);
        if covered >= need {
            // Only the pieces that can get there count as arriving.
            let arriving = free_moves.min(can_arrive(kind_of, loser, others, open.without(k), free_moves));
            return covered + blocking + arriving >= open.count() as usize;
        }
        false
    };
    if EVERY {
        reach.into_iter().filter(|&k| passes(k)).fold(Bitboard::EMPTY, Bitboard::with)
    } else {
        reach.into_iter().find(|&k| passes(k)).map_or(Bitboard::EMPTY, Bitboard::from_square)
    }
}

/// K where the loser, to move, has one move left (`blockers`: its pieces but the king on
/// `king`): its square, or its king's step, a legal one, so not onto one of its own pieces nor
/// onto a square the winner's pawns, knights or king attack (they have not moved; their
/// attacks do not depend on the board, and a piece taken on K never attacked its own square).
#[inline(always)]
fn first_step_reach(king: Square, blockers: Bitboard, winners: &Winners) -> Bitboard {
    (block_of(king) - blockers - winners.leapers).with(king)
}

/// The bound two half-moves from the end (the loser to move, the winner's mate next) after
/// each move of the winner's at a node three half-moves from the end, without making the
/// move: [`may_mate_within`]'s answer on the position after it, from what the moves share
/// (the winner's pieces but the mover, the loser's).
pub struct AfterWinnerMove<'p> {
    pos: &'p Position,
    winners: Winners,
    /// What the men but each one (by its index in `winners.men`; the king's: all the others)
    /// attack together, worked out once for all the moves: a child's sums are these and the
    /// mover's, without a walk over the men at each.
    without: [Sums; 16],
    /// The winner's bishops and queens; rooks and queens.
    diagonal: Bitboard,
    straight: Bitboard,
}

/// What [`Winners::sum_up`] works out of the men but the king, and the largest cap of them
/// all: attacked, attacked twice, attacked by a leaper; the largest `most`.
#[derive(Clone, Copy, Default)]
struct Sums {
    attacked: Bitboard,
    twice: Bitboard,
    leapers: Bitboard,
    check: Bitboard,
    most: u8,
}

impl<'p> AfterWinnerMove<'p> {
    /// At `pos` (`winner` to move); None where a castling right is left (the bound says
    /// "maybe" there, and the moves can end rights).
    pub fn new(pos: &'p Position, winner: Color) -> Option<AfterWinnerMove<'p>> {
        if pos.side_to_move() != winner || !pos.castling_rights().is_empty() {
            return None;
        }
        let winners = Winners::new(pos, winner, 1, &TABLES);
        // The sums of the men before each one and after it, then put together.
        let n = winners.count;
        let (men, king) = winners.men[..n].split_at(n - 1);
        let add = |sums: Sums, man: &Man| Sums {
            attacked: sums.attacked | man.attacks,
            twice: sums.twice | (sums.attacked & man.attacks),
            leapers: if man.leaper { sums.leapers | man.attacks } else { sums.leapers },
            check: sums.check | man.check,
            most: sums.most.max(man.most),
        };
        let mut before = [Sums::default(); 16];
        for i in 1..n {
            before[i] = add(before[i - 1], &men[i - 1]);
        }
        let mut without = [Sums::default(); 16];
        let mut after = Sums::default();
        for i in (0..n - 1).rev() {
            let (b, a) = (before[i], after);
            without[i] = Sums {
                attacked: b.attacked | a.attacked,
                twice: b.twice | a.twice | (b.attacked & a.attacked),
                leapers: b.leapers | a.leapers,
                check: b.check | a.check,
                most: b.most.max(a.most).max(king[0].most),
            };
            after = add(after, &men[i]);
        }
        // The king moves: the other men all stay.
        without[n - 1] = before[n - 1];
        let queens = pos.pieces_of(winner, PieceType::Queen);
        let diagonal = pos.pieces_of(winner, PieceType::Bishop) | queens;
        let straight = pos.pieces_of(winner, PieceType::Rook) | queens;
        Some(AfterWinnerMove { pos, winners, without, diagonal, straight })
    }

    /// [`may_mate_within`] two half-moves from the end on the position after `m` (a legal
    /// move), as the squares on which the loser's king can end a mate there (none: "no"; the
    /// king's square or its legal steps); None for castling and en passant (ask it after the
    /// move).
    pub fn mate_ends_after(&mut self, m: Move) -> Option<Bitboard> {
        if matches!(m.kind(), MoveKind::EnPassant | MoveKind::CastleKing | MoveKind::CastleQueen) {
            return None;
        }
        let (from, to) = (m.from(), m.to());
        let w = &mut self.winners;
        let i = w.men[..w.count].iter().position(|man| man.square == from)?;
        let kind = match m.promotion() {
            Some(kind) => kind,
            None => self.pos.piece_at(from)?.kind,
        };
        // The mover on its new square, and back after the test.
        let (man, king, sums) = (w.men[i], w.king, (w.attacked, w.twice, w.most_caps, w.leapers, w.check));
        let moved = Man::new(&TABLES, w.color, kind, to, 1);
        w.men[i] = moved;
        // `Winners::sum_up` with one winner move, from the men but the mover's sums (the king's
        // attacks on their own, as it does).
        let rest = self.without[i];
        let (attacked, twice, leapers, king_attacks) = if i == w.count - 1 {
            w.king = to;
            (rest.attacked, rest.twice, rest.leapers, moved.attacks)
        } else {
            let leapers = if moved.leaper { rest.leapers | moved.attacks } else { rest.leapers };
            (
                rest.attacked | moved.attacks,
                rest.twice | (rest.attacked & moved.attacks),
                leapers,
                w.men[w.count - 1].attacks,
            )
        };
        w.leapers = leapers | king_attacks;
        w.attacked = [attacked | king_attacks, attacked];
        w.twice = [twice | (attacked & king_attacks), twice];
        w.most_caps = usize::from(rest.most.max(moved.most));
        w.check = rest.check | moved.check;
        #[cfg(debug_assertions)]
        {
            let fast = (w.attacked, w.twice, w.most_caps, w.leapers, w.check);
            w.sum_up();
            debug_assert!(fast == (w.attacked, w.twice, w.most_caps, w.leapers, w.check));
        }
        let loser = w.color.flip();
        let loser_king = self.pos.king_square(loser);
        // A piece taken on `to` is gone.
        let blockers = self.pos.color(loser).without(loser_king).without(to);
        // The loser moves next: its king's step is legal, so not onto a square the winner's
        // sliders attack after the move (the king lifted off); the leapers' are dropped anyway.
        let occ = self.pos.occupied().without(from).with(to).without(loser_king);
        let (mut diagonal, mut straight) = (self.diagonal.without(from), self.straight.without(from));
        if matches!(kind, PieceType::Bishop | PieceType::Queen) {
            diagonal = diagonal.with(to);
        }
        if matches!(kind, PieceType::Rook | PieceType::Queen) {
            straight = straight.with(to);
        }
        let mut attacked = Bitboard::EMPTY;
        for s in diagonal {
            attacked |= bishop_attacks(s, occ);
        }
        for s in straight {
            attacked |= rook_attacks(s, occ);
        }
        let kind_of = |s: Square| self.pos.piece_at(s).map(|p| p.kind);
        let ends = mate_ends::<true>(attacked, loser_king, &kind_of, loser, blockers, w, 1, 1, true);
        (w.men[i], w.king) = (man, king);
        (w.attacked, w.twice, w.most_caps, w.leapers, w.check) = sums;
        Some(ends)
    }
}

/// The bound at each child of a node where the loser is to move, without making the move:
/// [`may_mate_within`]'s answer on the position after it. A move that takes none of the
/// winner's pieces leaves them as they are, so what the bound works out of them (`Winners`) is
/// the same at every such child: worked out once here, where the child's bound worked it out
/// at each child and after its move was made.
pub struct AfterLoserMove<'p> {
    pos: &'p Position,
    winners: Winners,
    winner_moves: usize,
    loser_moves: usize,
}

impl<'p> AfterLoserMove<'p> {
    /// At `pos` (the loser to move), for children `plies` half-moves from the end; None where
    /// a castling right is left (the bound says "maybe" there) or the children's bound answers
    /// without the winners (no winner move, or more than the knapsack handles).
    pub fn new(pos: &'p Position, winner: Color, plies: usize) -> Option<AfterLoserMove<'p>> {
        // In the children the winner is to move.
        let winner_moves = plies.div_ceil(2);
        let loser_moves = plies - winner_moves;
        if pos.side_to_move() == winner
            || !pos.castling_rights().is_empty()
            || winner_moves == 0
            || winner_moves > MAX_WINNER_MOVES
        {
            return None;
        }
        let winners = Winners::new(pos, winner, winner_moves, &TABLES);
        Some(AfterLoserMove { pos, winners, winner_moves, loser_moves })
    }

    /// [`may_mate_within`] on the position after the loser's legal move `m`; None where `m`
    /// takes a piece of the winner's (en passant too) or castles (ask it after the move).
    pub fn may_mate_after(&self, m: Move) -> Option<bool> {
        let (pos, loser) = (self.pos, self.winners.color.flip());
        let (from, to) = (m.from(), m.to());
        if matches!(m.kind(), MoveKind::EnPassant | MoveKind::CastleKing | MoveKind::CastleQueen)
            || pos.color(loser.flip()).contains(to)
        {
            return None;
        }
        let king = pos.king_square(loser);
        let others = pos.color(loser).without(king);
        let (king, blockers) = if from == king { (to, others) } else { (king, others.without(from).with(to)) };
        let moved = m.promotion().or_else(|| pos.piece_at(from).map(|p| p.kind));
        let kind_of = |s: Square| if s == to { moved } else { pos.piece_at(s).map(|p| p.kind) };
        let ends = mate_ends::<false>(
            Bitboard::EMPTY,
            king,
            &kind_of,
            loser,
            blockers,
            &self.winners,
            self.winner_moves,
            self.loser_moves,
            false,
        );
        Some(ends.nonempty())
    }
}

/// How many of `pieces` (the loser's, not its king) can stand on a square of `target` within
/// `moves` moves, each counted by a lower bound on its moves: a pawn only goes forward and
/// changes files only by capturing (unless it promotes in time), a knight moves at most two
/// king steps.
fn can_arrive(
    kind_of: &impl Fn(Square) -> Option<PieceType>,
    loser: Color,
    pieces: Bitboard,
    target: Bitboard,
    moves: usize,
) -> usize {
    if moves == 0 || target.is_empty() {
        return 0;
    }
    let moves = moves as i32;
    let mut n = 0;
    for p in pieces {
        let arrives = match kind_of(p) {
            Some(PieceType::Pawn) => {
                let rank = p.relative(loser).rank().index() as i32;
                // Promoted with a move to spare, it goes anywhere.
                let promoting = moves_to_promote(rank);
                promoting < moves
                    || target.into_iter().any(|t| {
                        let ranks = t.relative(loser).rank().index() as i32 - rank;
                        let files = (t.file().index() as i32 - p.file().index() as i32).abs();
                        let steps = if rank == 1 && ranks >= 2 { ranks - 1 } else { ranks };
                        ranks >= 1 && files <= ranks && steps.max(files) <= moves
                    })
            }
            Some(PieceType::Knight) => target.into_iter().any(|t| (p.distance(t) + 1) / 2 <= moves),
            _ => true,
        };
        n += usize::from(arrives);
    }
    n
}

/// One of the winner's pieces, with its move cost and cap for each K worked out before (a
/// pawn's for the moves the winner has: as a queen where it can promote in time).
#[derive(Clone, Copy)]
struct Man {
    square: Square,
    /// The largest cap it has anywhere (a pawn's: a queen's).
    most: u8,
    /// What it attacks from where it stands, on the empty board.
    attacks: Bitboard,
    /// A pawn, knight or king: `attacks` is what it attacks on any board.
    leaper: bool,
    /// The fewest moves it takes to help on K's block, by K, at most `most_cost`.
    cost: &'static [u8; 64],
    most_cost: u8,
    /// The most squares of K's block it attacks once it moved, by K.
    cap: &'static [u8; 64],
    /// The squares it attacks now or can attack in the moves (on the empty board): where it can
    /// give check. A king gives none.
    check: Bitboard,
}

impl Man {
    /// A piece of `kind` and `color` on `square`, for `moves` winner moves (at least one).
    #[inline(always)]
    fn new(t: &'static Tables, color: Color, kind: PieceType, square: Square, moves: usize) -> Man {
        let (attacks, cost, mut most_cost, cap) = match kind {
            PieceType::Pawn => (
                pawn_attacks(color, square),
                &t.pawn_cost[color.index()][square.index()],
                u8::MAX,
                &t.cap[kind.index()],
            ),
            PieceType::Knight => {
                (knight_attacks(square), &t.knight_cost[square.index()], u8::MAX, &t.cap[kind.index()])
            }
            // Its cap with all the winner's moves (the knapsack gives it fewer where it takes
            // fewer: [`Winners::most_covered`]).
            PieceType::King => (
                king_attacks(square),
                &t.king_cost[square.index()],
                u8::MAX,
                &t.king_cap[moves.clamp(1, MAX_WINNER_MOVES) - 1][square.index()],
            ),
            PieceType::Bishop => {
                (t.reach[kind.index()][square.index()], &t.one, u8::MAX, &t.bishop_cap[usize::from(square.is_light())])
            }
            _ => (t.reach[kind.index()][square.index()], &t.one, u8::MAX, &t.cap[kind.index()]),
        };
        let leaper = matches!(kind, PieceType::Pawn | PieceType::Knight | PieceType::King);
        let within = moves.min(MAX_WINNER_MOVES);
        let check = match kind {
            PieceType::Pawn => t.pawn_check[color.index()][within][square.index()],
            PieceType::Knight => t.knight_check[within][square.index()],
            // Only squares of its own colour, any of them in a move or two (a lower bound: one).
            PieceType::Bishop if square.is_light() => Bitboard::LIGHT_SQUARES,
            PieceType::Bishop => Bitboard::DARK_SQUARES,
            PieceType::Rook | PieceType::Queen => Bitboard::FULL,
            PieceType::King => Bitboard::EMPTY,
        };
        let mut man = Man { square, most: t.most[kind.index()], attacks, leaper, cost, most_cost, cap, check };
        if kind == PieceType::Pawn {
            // As a pawn, or promoted (as a queen, at the cheaper of the two costs) where it can
            // promote within the moves.
            let rank = square.relative(color).rank().index() as i32;
            let promoting = moves_to_promote(rank) as usize;
            if promoting <= moves {
                most_cost = promoting as u8;
                man.most_cost = most_cost;
                man.cap = &t.cap[PieceType::Queen.index()];
                man.most = t.most[PieceType::Queen.index()];
            }
        }
        man
    }

    /// (move cost, cap) on `k`'s block.
    #[inline(always)]
    fn help(&self, k: Square) -> (usize, u8) {
        (usize::from(self.cost[k.index()].min(self.most_cost)), self.cap[k.index()])
    }
}

/// The winner's pieces and what they attack.
struct Winners {
    color: Color,
    /// The winner's moves they are counted for (at most [`MAX_WINNER_MOVES`]).
    moves: usize,
    /// The first `count` of them, the king last (a list without gaps: the bound runs at every
    /// node of the exact search, and most endings leave a side two or three men).
    men: [Man; 16],
    count: usize,
    king: Square,
    /// Attacked by at least one of them, with and without the king.
    attacked: [Bitboard; 2],
    /// Attacked by at least two of them, with and without the king: a square that stays
    /// attacked whichever one moves.
    twice: [Bitboard; 2],
    /// The sum of the largest caps of as many pieces as the winner has moves: no block's
    /// squares left over can be more than this for a mate.
    most_caps: usize,
    /// Attacked by the pawns, knights and king (on any board).
    leapers: Bitboard,
    /// Where one of them but the king can give check in the moves ([`Man::check`]): K is
    /// in check at a mate.
    check: Bitboard,
}

/// Indexes of [`Winners::attacked`] and [`Winners::twice`].
const ALL: usize = 0;
const WITHOUT_KING: usize = 1;

impl Winners {
    #[inline(always)]
    fn new(pos: &Position, color: Color, moves: usize, t: &'static Tables) -> Winners {
        let king = pos.king_square(color);
        let moves = moves.min(MAX_WINNER_MOVES);
        let king_man = Man::new(t, color, PieceType::King, king, moves);
        let mut men = [king_man; 16];
        let mut count = 0;
        // Kind by kind (no lookup of each square's piece; the knapsack's best does not
        // depend on the men's order).
        for kind in [PieceType::Pawn, PieceType::Knight, PieceType::Bishop, PieceType::Rook, PieceType::Queen] {
            for square in pos.pieces_of(color, kind) {
                if count == 15 {
                    break;
                }
                men[count] = Man::new(t, color, kind, square, moves);
                count += 1;
            }
        }
        // The king, last.
        men[count] = king_man;
        count += 1;
        let mut w = Winners {
            color,
            moves,
            men,
            count,
            king,
            attacked: [Bitboard::EMPTY; 2],
            twice: [Bitboard::EMPTY; 2],
            most_caps: 0,
            leapers: Bitboard::EMPTY,
            check: Bitboard::EMPTY,
        };
        w.sum_up();
        w
    }

    /// Works out what the men attack together and the largest caps from the men.
    #[inline(always)]
    fn sum_up(&mut self) {
        let (mut attacked, mut twice) = (Bitboard::EMPTY, Bitboard::EMPTY);
        // The largest caps of as many pieces as the winner has moves, largest first.
        let mut top = [0u8; MAX_WINNER_MOVES];
        let moves = self.moves;
        let (men, king) = self.men[..self.count].split_at(self.count - 1);
        for man in men.iter().chain(king) {
            if let Some(i) = top[..moves].iter().position(|&c| man.most > c) {
                // Shifted down by hand: `copy_within` was a call to memmove for a few bytes.
                for j in (i + 1..moves).rev() {
                    top[j] = top[j - 1];
                }
                top[i] = man.most;
            }
        }
        let (mut leapers, mut check) = (Bitboard::EMPTY, Bitboard::EMPTY);
        for man in men {
            twice |= attacked & man.attacks;
            attacked |= man.attacks;
            check |= man.check;
            if man.leaper {
                leapers |= man.attacks;
            }
        }
        self.check = check;
        let king_attacks = king[0].attacks;
        self.leapers = leapers | king_attacks;
        self.attacked = [attacked | king_attacks, attacked];
        self.twice = [twice | (attacked & king_attacks), twice];
        self.most_caps = top[..moves].iter().map(|&c| usize::from(c)).sum();
    }

    /// The most squares of `k`'s block left open by the pieces that stay that pieces moved
    /// within `moves` winner moves can attack: a 0/1 knapsack, each piece's cost a lower bound
    /// on the moves it takes to help ([`Man::help`]: queens, rooks and bishops get where they
    /// help in one move; the king covers a block's squares from two steps away; a knight
    /// walks), its value its cap less the block's squares only it attacks now (they open when
    /// it moves, unless one of the loser's pieces stands there). With `king_moves` (a king
    /// next to K must go) the king is among the moved pieces. With one move, the first piece
    /// that covers `enough` ends the look (the answer is then at least `enough`).
    #[inline]
    fn most_covered(
        &self,
        k: Square,
        block: Bitboard,
        blockers: Bitboard,
        moves: usize,
        king_moves: bool,
        enough: usize,
    ) -> usize {
        let which = if king_moves { WITHOUT_KING } else { ALL };
        let (men, king) = self.men[..self.count].split_at(self.count - 1);
        let (king_cost, king_cap) = king[0].help(k);
        if moves == 1 && king_moves {
            // The king must move, with the one move there is (its cost: one).
            return usize::from(king_cap);
        }
        let only_one = block - self.twice[which] - blockers.without(k);
        if moves == 1 {
            // One piece moves: the best of them (the knapsack of one item).
            let mut best = 0;
            for man in &self.men[..self.count] {
                let (cost, cap) = man.help(k);
                if cost <= 1 {
                    best = best.max(cap.saturating_sub((man.attacks & only_one).count() as u8));
                    if usize::from(best) >= enough {
                        break;
                    }
                }
            }
            return usize::from(best);
        }
        let mut best = [0u8; MAX_WINNER_MOVES + 1];
        for man in men {
            let (cost, cap) = man.help(k);
            if cost > moves {
                continue;
            }
            let value = cap.saturating_sub((man.attacks & only_one).count() as u8);
            if value == 0 {
                continue;
            }
            for budget in (cost..=moves).rev() {
                best[budget] = best[budget].max(best[budget - cost] + value);
            }
        }
        if king_cost > moves {
            // The king cannot get away in time (where it must), or help.
            return if king_moves { 0 } else { usize::from(best[moves]) };
        }
        // The king last, with each number of moves it can take (it covers more with more):
        // where it must move, it is among the moved pieces; else, as any other man, it may stay.
        let (caps, lost) = (&TABLES.king_cap, (king[0].attacks & only_one).count() as u8);
        let mut most = if king_moves { 0 } else { best[moves] };
        for c in king_cost..=moves {
            let cap = caps[c - 1][king[0].square.index()][k.index()];
            let value = if king_moves { cap } else { cap.saturating_sub(lost) };
            most = most.max(best[moves - c] + value);
        }
        usize::from(most)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::attacks;

    /// The king's caps by its moves are what walking it shows: the most squares of K's block
    /// it attacks from a square at most `c` steps away and not next to K.
    #[test]
    fn the_king_covers_what_it_walks_to() {
        let t = &*TABLES;
        for c in 1..=MAX_WINNER_MOVES {
            for s in Square::all() {
                for k in Square::all() {
                    let walked = Square::all()
                        .filter(|&to| s.distance(to) as usize <= c && to.distance(k) >= 2)
                        .map(|to| (king_attacks(to) & block_of(k)).count() as u8)
                        .max()
                        .unwrap_or(0);
                    assert_eq!(t.king_cap[c - 1][s.index()][k.index()], walked, "{s} to {k} in {c}");
                    assert!(walked <= t.cap[PieceType::King.index()][k.index()]);
                }
            }
        }
        // On b6, two squares of a3's block at most with one move or two (from b5, a5 or c4),
        // three with three (from c3).
        let (b6, a3) = (Square::parse("b6").expect("square"), Square::parse("a3").expect("square"));
        let caps: Vec<u8> = (0..3).map(|c| t.king_cap[c][b6.index()][a3.index()]).collect();
        assert_eq!(caps, [2, 2, 3]);
    }

    /// Where a knight or a pawn can give check within `c` moves is what walking it shows: the
    /// squares it attacks from where it gets (a pawn forward, a file further for a capture, two
    /// ranks from its second; promoted in time, from anywhere).
    #[test]
    fn a_man_checks_from_where_it_walks_to() {
        let t = &*TABLES;
        for s in Square::all() {
            let mut squares = Bitboard::from_square(s);
            for c in 0..=MAX_WINNER_MOVES {
                let walked = squares.into_iter().fold(Bitboard::EMPTY, |all, n| all | knight_attacks(n));
                assert_eq!(t.knight_check[c][s.index()], walked, "knight on {s}, {c} moves");
                squares |= walked;
            }
            // Pawns stand on neither first rank.
            for color in Color::ALL.into_iter().filter(|_| (1..7).contains(&s.rank().index())) {
                let last = if color == Color::White { 7 } else { 0 };
                let (mut squares, mut promoted) = (Bitboard::from_square(s), false);
                for c in 0..=MAX_WINNER_MOVES {
                    let walked = squares.into_iter().fold(Bitboard::EMPTY, |all, n| all | pawn_attacks(color, n));
                    let check = if promoted { Bitboard::FULL } else { walked };
                    assert_eq!(t.pawn_check[color.index()][c][s.index()], check, "{color:?} pawn on {s}, {c} moves");
                    // One move more: a step, a capture either way, two steps from the first rank.
                    let mut next = squares;
                    let forward = |n: Square| {
                        Square::new(if color == Color::White { n.index() + 8 } else { n.index() - 8 } as u8)
                    };
                    for n in squares.into_iter().filter(|n| n.rank().index() != last) {
                        next = next.with(forward(n)) | pawn_attacks(color, n);
                        if n.relative(color).rank().index() == 1 {
                            next = next.with(forward(forward(n)));
                        }
                    }
                    squares = next;
                    promoted |= squares.into_iter().any(|n| n.rank().index() == last);
                }
            }
        }
    }

    /// The caps are what a board shows (the most of each kind anywhere, and on some squares): a
    /// queen covers six squares of a block in the middle (from next to the king) and three of a
    /// corner's four, a rook four, a bishop three from outside, only from squares of the colour of the
    /// block's long diagonal in a corner, a knight two, a king three from two steps away, a pawn one
    /// on the edge.
    #[test]
    fn the_caps_are_what_a_board_shows() {
        attacks::init();
        assert_eq!(TABLES.most, [2, 2, 3, 4, 6, 3], "pawn, knight, bishop, rook, queen, king");
        let at = |kind: PieceType, sq: &str| TABLES.cap[kind.index()][Square::parse(sq).expect("square").index()];
        assert_eq!((at(PieceType::Queen, "e4"), at(PieceType::Queen, "a1")), (6, 3));
        assert_eq!((at(PieceType::Rook, "e4"), at(PieceType::Bishop, "e4"), at(PieceType::Knight, "e4")), (4, 3, 2));
        assert_eq!((at(PieceType::King, "e4"), at(PieceType::Pawn, "e4"), at(PieceType::Pawn, "a4")), (3, 2, 1));
        // a1's block: a1, b1, a2, b2; its long diagonal (a1, b2) is dark.
        let a1 = Square::parse("a1").expect("square").index();
        assert_eq!((TABLES.bishop_cap[0][a1], TABLES.bishop_cap[1][a1]), (2, 1));
    }

    /// [`Tables::knight_moves`] by a breadth-first walk of its own.
    #[test]
    fn knight_moves_match_a_walk() {
        attacks::init();
        for k in Square::all() {
            let block = block_of(k);
            for n in Square::all() {
                let mut seen = Bitboard::from_square(n);
                let mut moves = 0;
                while seen.into_iter().all(|s| (knight_attacks(s) & block).is_empty()) {
                    seen = seen.into_iter().fold(seen, |acc, s| acc | knight_attacks(s));
                    moves += 1;
                }
                assert_eq!(TABLES.knight_moves[n.index()][k.index()], moves, "knight {n} to the block of {k}");
            }
        }
    }

    #[test]
    fn grown_is_every_king_step() {
        for sq in Square::all() {
            assert_eq!(Bitboard::from_square(sq).grown(), king_attacks(sq).with(sq), "{sq}");
            assert_eq!(block_of(sq), Bitboard::from_square(sq).grown(), "{sq}");
        }
    }

    fn may(fen: &str, winner: Color, plies: usize) -> bool {
        attacks::init();
        may_mate_within(&Position::from_fen(fen).expect("test FEN"), winner, plies)
    }

    /// [`AfterWinnerMove`] is [`may_mate_within`] after the move, or stricter (it knows the
    /// king's legal steps exactly), and sound square by square: on the self-play finals and the
    /// positions one and two moves after them (the side to move as the winner), no reply that
    /// leaves the loser's king on a square it rules out is followed by a mate (every such reply
    /// where some square is left, and those of every 16th child where none is).
    #[test]
    fn the_bound_after_a_move_is_the_bound_on_the_position_after_it_or_stricter() {
        use crate::chess::movegen::{has_legal_move, legal_moves};
        attacks::init();
        let (mut asked, mut ruled_out, mut stricter, mut replies) = (0, 0, 0, 0);
        for final_position in super::super::selfplay_finals().step_by(4) {
            let positions = final_position.with_nearby();
            for pos in &positions {
                let winner = pos.side_to_move();
                let Some(mut after) = AfterWinnerMove::new(pos, winner) else { continue };
                for &m in legal_moves(pos).iter() {
                    let Some(ends) = after.mate_ends_after(m) else { continue };
                    let child = pos.make_move(m);
                    let may = may_mate_within(&child, winner, 2);
                    assert!(ends.is_empty() || may, "{m} in {pos:?}");
                    asked += 1;
                    ruled_out += usize::from(ends.is_empty());
                    stricter += usize::from(ends.is_empty() && may);
                    if ends.is_empty() && asked % 16 != 0 {
                        continue;
                    }
                    let king = child.king_square(winner.flip());
                    for &r in legal_moves(&child).iter() {
                        let castles = matches!(r.kind(), MoveKind::CastleKing | MoveKind::CastleQueen);
                        let end = if r.from() == king && !castles { r.to() } else { king };
                        if castles || ends.contains(end) {
                            continue;
                        }
                        let after_r = child.make_move(r);
                        let answers = legal_moves(&after_r);
                        let mate = answers.iter().find(|&&w| {
                            let after_w = after_r.make_move(w);
                            after_w.in_check() && !has_legal_move(&after_w)
                        });
                        assert!(mate.is_none(), "{m} {r} then {mate:?} mates in {pos:?}");
                        replies += 1;
                    }
                }
            }
        }
        println!(
            "{asked} moves, {ruled_out} ruled out ({stricter} only by the legal steps), {replies} replies checked"
        );
        assert!(asked > 100_000 && ruled_out * 10 > asked && replies > 100_000, "{ruled_out} of {asked}, {replies}");
    }

    /// [`AfterLoserMove`] answers what [`may_mate_within`] does after the loser's move, three
    /// and five half-moves from the end, on the self-play finals and the positions one and two
    /// moves after them (the side to move as the loser).
    #[test]
    fn the_bound_after_a_loser_move_is_the_bound_on_the_position_after_it() {
        use crate::chess::movegen::legal_moves;
        attacks::init();
        let (mut asked, mut ruled_out) = (0, 0);
        for final_position in super::super::selfplay_finals().step_by(4) {
            let positions = final_position.with_nearby();
            for pos in &positions {
                let winner = pos.side_to_move().flip();
                for plies in [3, 5] {
                    let Some(after) = AfterLoserMove::new(pos, winner, plies) else { continue };
                    for &m in legal_moves(pos).iter() {
                        let Some(may) = after.may_mate_after(m) else { continue };
                        assert_eq!(may, may_mate_within(&pos.make_move(m), winner, plies), "{m} in {pos:?}");
                        asked += 1;
                        ruled_out += usize::from(!may);
                    }
                }
            }
        }
        assert!(asked > 100_000 && ruled_out * 10 > asked, "{ruled_out} of {asked}");
    }

    /// Every legal king step (castling aside) where the loser moves first with one move left is
    /// onto a K of [`first_step_reach`] (its own pieces' squares and those the winner's pawns,
    /// knights and king attack dropped), on the finals, the positions after them and after two
    /// moves.
    #[test]
    fn the_king_never_steps_where_the_bound_drops_k() {
        use crate::chess::movegen::legal_moves;
        attacks::init();
        let (mut steps, mut dropped) = (0, 0);
        for final_position in super::super::selfplay_finals() {
            let positions = final_position.with_nearby();
            for pos in &positions {
                let loser = pos.side_to_move();
                let king = pos.king_square(loser);
                let winners = Winners::new(pos, loser.flip(), 1, &TABLES);
                let reach = first_step_reach(king, pos.color(loser).without(king), &winners);
                // Castling (the king onto its rook's square) leaves the bound at "maybe".
                let castling = |m: &Move| matches!(m.kind(), MoveKind::CastleKing | MoveKind::CastleQueen);
                for &m in legal_moves(pos).iter().filter(|m| m.from() == king && !castling(m)) {
                    assert!(reach.contains(m.to()), "{m} in {pos:?}");
                    steps += 1;
                }
                dropped += (block_of(king) - reach).count() as usize;
            }
        }
        println!("{steps} king steps, {dropped} squares dropped");
        assert!(steps > 100_000 && dropped > 100_000, "{steps} king steps, {dropped} squares dropped");
    }

    #[test]
    fn a_lone_rook_needs_the_king_on_an_edge() {
        // K+R v K, the loser's king in the centre: no mate within four half-moves; Ra8 mates
        // in one with the king on h8 behind its own pawns, and the king walks to an edge.
        assert!(!may("8/8/8/4k3/8/8/8/R3K3 w - - 0 1", Color::White, 5));
        assert!(may("7k/6pp/8/8/8/8/8/R3K3 w - - 0 1", Color::White, 1));
        assert!(may("8/8/8/4k3/8/8/8/R3K3 w - - 0 1", Color::White, 15));
    }
}
