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
//!   that moves attacks at most [`CAP`] squares of a block, and gets near only so fast (a king
//!   or a knight walks, a pawn only goes forward; queens, rooks and bishops get anywhere they
//!   can help from in one move), and the winner's `w` moves are shared among the pieces.
//!
//! If on every such K the squares left over outnumber what the moving pieces can attack (a
//! small knapsack over their move costs), there is no helpmate. Everything is counted
//! generously (lines through any piece, captures never counted), so "no" is always sound.
//! Castling moves two pieces at once and the king two squares: with any castling right the
//! answer is "maybe".

use crate::chess::attacks::{empty_board_attacks, king_attacks, pawn_attacks};
use crate::chess::{Bitboard, Color, PieceType, Position, Square};

/// The most squares of K's block a piece of each kind attacks from any square, by
/// [`PieceType::index`] and K (a king from two squares away at least, as kings never stand
/// next to each other; a pawn of either colour): on the empty board, so never too few. An edge
/// or a corner leaves fewer: a queen attacks at most six squares of a block in the middle of
/// the board and three in a corner.
static CAP: [[u8; 64]; 6] = caps();

/// The fewest moves a knight on one square (first index) takes to attack a square of K's block
/// (second index), on the empty board.
static KNIGHT_MOVES: [[u8; 64]; 64] = knight_moves();

const fn knight_moves() -> [[u8; 64]; 64] {
    let mut moves = [[u8::MAX; 64]; 64];
    let mut k = 0;
    while k < 64 {
        let block = block(k);
        // Breadth first from every square from which a knight attacks the block.
        let mut frontier = 0u64;
        let mut s = 0;
        while s < 64 {
            if attacks_on_the_empty_board(1, true, s) & block != 0 {
                frontier |= 1 << s;
            }
            s += 1;
        }
        let mut seen = frontier;
        let mut distance = 0;
        while frontier != 0 {
            let mut next = 0u64;
            let mut s = 0;
            while s < 64 {
                if frontier >> s & 1 != 0 {
                    moves[s][k] = distance;
                    next |= attacks_on_the_empty_board(1, true, s);
                }
                s += 1;
            }
            frontier = next & !seen;
            seen |= next;
            distance += 1;
        }
        k += 1;
    }
    moves
}

/// The most of [`CAP`] on any square.
const MOST: [u8; 6] = [2, 2, 3, 4, 6, 3];

/// A bishop's [`CAP`] by the colour of its square (light: 1): it never leaves it.
static BISHOP_CAP: [[u8; 64]; 2] = [cap_row(2, 0), cap_row(2, 1)];

const fn caps() -> [[u8; 64]; 6] {
    [cap_row(0, ANY), cap_row(1, ANY), cap_row(2, ANY), cap_row(3, ANY), cap_row(4, ANY), cap_row(5, ANY)]
}

/// Any square colour, for [`cap_row`].
const ANY: usize = 2;

/// [`CAP`] for one kind, from the squares of one colour (light: 1) or of both ([`ANY`]).
const fn cap_row(kind: usize, colour: usize) -> [u8; 64] {
    let mut caps = [0u8; 64];
    let mut k = 0;
    while k < 64 {
        let block = block(k);
        let mut s = 0;
        while s < 64 {
            let far_enough = kind != 5 || chebyshev(s, k) >= 2;
            let light = (s % 8 + s / 8) % 2;
            if s != k && far_enough && (colour == ANY || colour == light) {
                // Pawns: each colour's way.
                let mut forward = 0;
                while forward < 2 {
                    let n = (attacks_on_the_empty_board(kind, forward == 0, s) & block).count_ones() as u8;
                    if n > caps[k] {
                        caps[k] = n;
                    }
                    forward += 1;
                }
            }
            s += 1;
        }
        k += 1;
    }
    caps
}

/// `k` and the squares next to it.
const fn block(k: usize) -> u64 {
    let mut block = 0u64;
    let mut s = 0;
    while s < 64 {
        if chebyshev(s, k) <= 1 {
            block |= 1 << s;
        }
        s += 1;
    }
    block
}

const fn chebyshev(a: usize, b: usize) -> usize {
    let files = (a % 8).abs_diff(b % 8);
    let ranks = (a / 8).abs_diff(b / 8);
    if files > ranks {
        files
    } else {
        ranks
    }
}

/// What a piece of kind `kind` (by [`PieceType::index`]; a pawn of White when `up`) on `s`
/// attacks on the empty board.
const fn attacks_on_the_empty_board(kind: usize, up: bool, s: usize) -> u64 {
    const KNIGHT: [(i32, i32); 8] = [(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)];
    const AROUND: [(i32, i32); 8] = [(1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1)];
    const WHITE_PAWN: [(i32, i32); 2] = [(1, 1), (-1, 1)];
    const BLACK_PAWN: [(i32, i32); 2] = [(1, -1), (-1, -1)];
    let (steps, slides): (&[(i32, i32)], bool) = match kind {
        0 if up => (&WHITE_PAWN, false),
        0 => (&BLACK_PAWN, false),
        1 => (&KNIGHT, false),
        5 => (&AROUND, false),
        _ => (&AROUND, true),
    };
    let mut attacks = 0u64;
    let mut i = 0;
    while i < steps.len() {
        let (df, dr) = steps[i];
        // Bishops take the diagonal steps, rooks the straight ones, queens both.
        let diagonal = df != 0 && dr != 0;
        let moves_so = match kind {
            2 => diagonal,
            3 => !diagonal,
            _ => true,
        };
        let (mut f, mut r) = ((s % 8) as i32 + df, (s / 8) as i32 + dr);
        while moves_so && f >= 0 && f < 8 && r >= 0 && r < 8 {
            attacks |= 1 << (r * 8 + f);
            if !slides {
                break;
            }
            f += df;
            r += dr;
        }
        i += 1;
    }
    attacks
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
    let king = pos.king_square(loser);
    let blockers = pos.color(loser).without(king);
    let winners = Winners::new(pos, winner, winner_moves);
    let mut reach = Bitboard::from_square(king);
    for _ in 0..loser_moves {
        reach = reach.grown();
    }
    reach.into_iter().any(|k| {
        let block = king_attacks(k).with(k);
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
        let covered = winners.most_covered(k, block, blockers, winner_moves, king_moves);
        if covered >= need {
            // Only the pieces that can get there count as arriving.
            let arriving = free_moves.min(can_arrive(pos, loser, others, open.without(k), free_moves));
            return covered + blocking + arriving >= open.count() as usize;
        }
        false
    })
}

/// How many of `pieces` (the loser's, not its king) can stand on a square of `target` within
/// `moves` moves, each counted by a lower bound on its moves: a pawn only goes forward and
/// changes files only by capturing (unless it promotes in time), a knight moves at most two
/// king steps.
fn can_arrive(pos: &Position, loser: Color, pieces: Bitboard, target: Bitboard, moves: usize) -> usize {
    if moves == 0 || target.is_empty() {
        return 0;
    }
    let moves = moves as i32;
    let mut n = 0;
    for p in pieces {
        let arrives = match pos.piece_at(p).map(|piece| piece.kind) {
            Some(PieceType::Pawn) => {
                let rank = p.relative(loser).rank().index() as i32;
                // Promoted with a move to spare, it goes anywhere.
                let promoting = (7 - rank - i32::from(rank == 1)).max(1);
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

/// One of the winner's pieces.
#[derive(Clone, Copy)]
struct Man {
    square: Square,
    kind: PieceType,
    /// What it attacks from where it stands, on the empty board.
    attacks: Bitboard,
}

/// The winner's pieces and what they attack.
struct Winners {
    color: Color,
    men: [Option<Man>; 16],
    king: Square,
    /// Attacked by at least one of them, with and without the king.
    attacked: [Bitboard; 2],
    /// Attacked by at least two of them, with and without the king: a square that stays
    /// attacked whichever one moves.
    twice: [Bitboard; 2],
    /// The sum of the largest caps of as many pieces as the winner has moves: no block's
    /// squares left over can be more than this for a mate.
    most_caps: usize,
}

/// Indexes of [`Winners::attacked`] and [`Winners::twice`].
const ALL: usize = 0;
const WITHOUT_KING: usize = 1;

impl Winners {
    fn new(pos: &Position, color: Color, moves: usize) -> Winners {
        let mut men = [None; 16];
        let (mut attacked, mut twice) = (Bitboard::EMPTY, Bitboard::EMPTY);
        let mut caps = [0u8; 16];
        let king = pos.king_square(color);
        for (i, square) in pos.color(color).without(king).into_iter().take(15).enumerate() {
            let kind = pos.piece_at(square).map_or(PieceType::Pawn, |p| p.kind);
            let attacks = match kind {
                PieceType::Pawn => pawn_attacks(color, square),
                _ => empty_board_attacks(kind, square),
            };
            twice |= attacked & attacks;
            attacked |= attacks;
            men[i] = Some(Man { square, kind, attacks });
            // A pawn may promote.
            caps[i] = MOST[if kind == PieceType::Pawn { PieceType::Queen } else { kind }.index()];
        }
        let king_attacks = king_attacks(king);
        men[15] = Some(Man { square: king, kind: PieceType::King, attacks: king_attacks });
        caps[15] = MOST[PieceType::King.index()];
        caps.sort_unstable_by(|a, b| b.cmp(a));
        let most_caps = caps.iter().take(moves).map(|&c| usize::from(c)).sum();
        Winners {
            color,
            men,
            king,
            attacked: [attacked | king_attacks, attacked],
            twice: [twice | (attacked & king_attacks), twice],
            most_caps,
        }
    }

    /// The most squares of `k`'s block left open by the pieces that stay that pieces moved
    /// within `moves` winner moves can attack: a 0/1 knapsack, each piece's cost a lower bound
    /// on the moves it takes to help, its value its cap less the block's squares only it
    /// attacks now (they open when it moves, unless one of the loser's pieces stands there).
    /// With `king_moves` (a king next to K must go) the king is among the moved pieces.
    fn most_covered(&self, k: Square, block: Bitboard, blockers: Bitboard, moves: usize, king_moves: bool) -> usize {
        let which = if king_moves { WITHOUT_KING } else { ALL };
        let only_one = block - self.twice[which] - blockers.without(k);
        let mut best = [0u8; MAX_WINNER_MOVES + 1];
        let mut moves = moves;
        let mut forced = None;
        for man in self.men.iter().flatten() {
            let Some((cost, cap)) = self.help(man, k, moves) else { continue };
            if king_moves && man.square == self.king {
                // Not among the men counted before it: the king is last.
                moves -= cost;
                forced = Some(usize::from(cap));
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
        match forced {
            None if king_moves => 0, // the king cannot get away in time
            _ => usize::from(best[moves]) + forced.unwrap_or(0),
        }
    }

    /// The (move cost, cap) of `man` for `k`'s block within `moves`, if it can help at all:
    /// queens, rooks and bishops get where they help in one move; the king covers a block's
    /// squares from two steps away; a knight walks ([`KNIGHT_MOVES`]).
    fn help(&self, man: &Man, k: Square, moves: usize) -> Option<(usize, u8)> {
        let (cost, cap) = match man.kind {
            PieceType::Pawn => return self.pawn(man.square, k, moves),
            PieceType::King => ((man.square.distance(k) - 2).max(1) as usize, CAP[PieceType::King.index()][k.index()]),
            PieceType::Knight => (
                usize::from(KNIGHT_MOVES[man.square.index()][k.index()]).max(1),
                CAP[PieceType::Knight.index()][k.index()],
            ),
            PieceType::Bishop => (1, BISHOP_CAP[usize::from(man.square.is_light())][k.index()]),
            kind => (1, CAP[kind.index()][k.index()]),
        };
        (cost <= moves).then_some((cost, cap))
    }

    /// A pawn's (move cost, cap) for `k`'s block within `moves`, if it can help at all. As a
    /// pawn it must stand on one of the three ranks below the block's top one and within two
    /// files of `k` (it changes files only by capturing, one a move); promoted within `moves`
    /// it is counted as a queen at the cheaper of the two costs (never an under-count).
    fn pawn(&self, p: Square, k: Square, moves: usize) -> Option<(usize, u8)> {
        let rank = p.relative(self.color).rank().index() as i32;
        let top = k.relative(self.color).rank().index() as i32 + 1;
        let double_step = rank == 1;
        let as_pawn = (rank < top).then(|| {
            let ranks = (top - 3 - rank).max(0);
            let ranks = if double_step && ranks >= 2 { ranks - 1 } else { ranks };
            let files = (p.file().index() as i32 - k.file().index() as i32).abs() - 2;
            ranks.max(files).max(1) as usize
        });
        let promoting = (7 - rank - i32::from(double_step)).max(1) as usize;
        match as_pawn {
            _ if promoting <= moves => {
                Some((as_pawn.map_or(promoting, |c| c.min(promoting)), CAP[PieceType::Queen.index()][k.index()]))
            }
            Some(cost) if cost <= moves => Some((cost, CAP[PieceType::Pawn.index()][k.index()])),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::attacks;

    /// [`CAP`] is the most a piece attacks of each block, by the move generator's attack
    /// tables, and [`MOST`] the most of it anywhere.
    #[test]
    fn caps_are_the_most_a_piece_attacks_of_a_block() {
        attacks::init();
        for kind in PieceType::ALL {
            let mut most = 0;
            for k in Square::all() {
                let block = king_attacks(k).with(k);
                let mut cap = 0;
                for s in Square::all().filter(|&s| s != k && (kind != PieceType::King || s.distance(k) >= 2)) {
                    let attacked: [Bitboard; 2] = match kind {
                        PieceType::Pawn => [pawn_attacks(Color::White, s), pawn_attacks(Color::Black, s)],
                        _ => [empty_board_attacks(kind, s); 2],
                    };
                    cap = cap.max(attacked.iter().map(|&a| (a & block).count()).max().unwrap_or(0));
                }
                assert_eq!(u32::from(CAP[kind.index()][k.index()]), cap, "{kind:?} on {k}");
                most = most.max(cap);
            }
            assert_eq!(u32::from(MOST[kind.index()]), most, "{kind:?}");
        }
        // A queen covers fewer of a corner's block than of one in the middle.
        assert_eq!((CAP[PieceType::Queen.index()][0], CAP[PieceType::Queen.index()][27]), (3, 6));
    }

    /// [`BISHOP_CAP`] by the attack tables, from squares of one colour; [`KNIGHT_MOVES`] by a
    /// breadth-first walk over them.
    #[test]
    fn bishop_caps_and_knight_moves_match_the_attack_tables() {
        attacks::init();
        for k in Square::all() {
            let block = king_attacks(k).with(k);
            for light in [false, true] {
                let cap = Square::all()
                    .filter(|&s| s != k && s.is_light() == light)
                    .map(|s| (empty_board_attacks(PieceType::Bishop, s) & block).count())
                    .max()
                    .unwrap_or(0);
                assert_eq!(u32::from(BISHOP_CAP[usize::from(light)][k.index()]), cap, "{k} light {light}");
            }
            for n in Square::all() {
                let mut seen = Bitboard::from_square(n);
                let mut moves = 0;
                while seen.into_iter().all(|s| (attacks::knight_attacks(s) & block).is_empty()) {
                    seen = seen.into_iter().fold(seen, |acc, s| acc | attacks::knight_attacks(s));
                    moves += 1;
                }
                assert_eq!(KNIGHT_MOVES[n.index()][k.index()], moves, "knight {n} to the block of {k}");
            }
        }
    }

    #[test]
    fn grown_is_every_king_step() {
        for sq in Square::all() {
            assert_eq!(Bitboard::from_square(sq).grown(), king_attacks(sq).with(sq), "{sq}");
        }
    }

    fn may(fen: &str, winner: Color, plies: usize) -> bool {
        attacks::init();
        may_mate_within(&Position::from_fen(fen).expect("test FEN"), winner, plies)
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
