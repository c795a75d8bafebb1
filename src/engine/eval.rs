//! Static evaluation: a tapered (middlegame/endgame) sum of hand-written terms, from
//! the side to move's point of view, in centipawns.
//!
//! Where the numbers come from:
//! * Material and piece-square tables are PeSTO's (Ronald Friederich, published on the
//!   Chess Programming Wiki page "PeSTO's Evaluation Function"); they were
//!   Texel-tuned for an evaluation made of nothing else, which is why the remaining
//!   terms are kept small.
//! * Mobility, pawn structure, king safety, bishop pair and rook-file bonuses are
//!   conventional hand-set values of the size used by the classical engines (Fruit,
//!   Stockfish's hand-crafted eval before NNUE), scaled down so they mostly refine
//!   PeSTO rather than fight it. They are not tuned for Arbiter.

use crate::chess::attacks::{bishop_attacks, king_attacks, knight_attacks, pawn_attacks, queen_attacks, rook_attacks};
use crate::chess::{Bitboard, Color, PieceType, Position, Square};

/// A middlegame/endgame pair.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct S(pub i32, pub i32);

impl std::ops::AddAssign for S {
    fn add_assign(&mut self, o: S) {
        self.0 += o.0;
        self.1 += o.1;
    }
}
impl std::ops::Sub for S {
    type Output = S;
    fn sub(self, o: S) -> S {
        S(self.0 - o.0, self.1 - o.1)
    }
}
impl std::ops::Mul<i32> for S {
    type Output = S;
    fn mul(self, k: i32) -> S {
        S(self.0 * k, self.1 * k)
    }
}

/// The evaluation terms, in the order `eval` prints them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Term {
    MaterialPst = 0,
    Mobility,
    PawnStructure,
    PassedPawns,
    KingSafety,
    BishopPair,
    RookFiles,
    Tempo,
}

pub const TERM_NAMES: [&str; 8] =
    ["Material+PST", "Mobility", "Pawn structure", "Passed pawns", "King safety", "Bishop pair", "Rook files", "Tempo"];

/// Every term for both colours, for the UCI `eval` command and tests.
#[derive(Clone, Debug, Default)]
pub struct Breakdown {
    /// `terms[term][color]`, each from that colour's point of view.
    pub terms: [[S; 2]; 8],
    /// 24 = all pieces on the board (pure middlegame), 0 = pawn ending.
    pub phase: i32,
    /// Endgame scale in 1/64 (64 = no scaling; lower for drawish material).
    pub eg_scale: i32,
    /// Final score, White's point of view.
    pub white: i32,
    /// Final score, side to move's point of view (what the search uses).
    pub side_to_move: i32,
}

// PeSTO values (pawn, knight, bishop, rook, queen, king).
const MG_VALUE: [i32; 6] = [82, 337, 365, 477, 1025, 0];
const EG_VALUE: [i32; 6] = [94, 281, 297, 512, 936, 0];

// PeSTO piece-square tables, laid out as a board seen by White: index 0 is a8.
#[rustfmt::skip]
const MG_PST: [[i32; 64]; 6] = [
    [
      0,   0,   0,   0,   0,   0,  0,   0,
     98, 134,  61,  95,  68, 126, 34, -11,
     -6,   7,  26,  31,  65,  56, 25, -20,
    -14,  13,   6,  21,  23,  12, 17, -23,
    -27,  -2,  -5,  12,  17,   6, 10, -25,
    -26,  -4,  -4, -10,   3,   3, 33, -12,
    -35,  -1, -20, -23, -15,  24, 38, -22,
      0,   0,   0,   0,   0,   0,  0,   0,
    ],
    [
    -167, -89, -34, -49,  61, -97, -15, -107,
     -73, -41,  72,  36,  23,  62,   7,  -17,
     -47,  60,  37,  65,  84, 129,  73,   44,
      -9,  17,  19,  53,  37,  69,  18,   22,
     -13,   4,  16,  13,  28,  19,  21,   -8,
     -23,  -9,  12,  10,  19,  17,  25,  -16,
     -29, -53, -12,  -3,  -1,  18, -14,  -19,
    -105, -21, -58, -33, -17, -28, -19,  -23,
    ],
    [
    -29,   4, -82, -37, -25, -42,   7,  -8,
    -26,  16, -18, -13,  30,  59,  18, -47,
    -16,  37,  43,  40,  35,  50,  37,  -2,
     -4,   5,  19,  50,  37,  37,   7,  -2,
     -6,  13,  13,  26,  34,  12,  10,   4,
      0,  15,  15,  15,  14,  27,  18,  10,
      4,  15,  16,   0,   7,  21,  33,   1,
    -33,  -3, -14, -21, -13, -12, -39, -21,
    ],
    [
     32,  42,  32,  51, 63,  9,  31,  43,
     27,  32,  58,  62, 80, 67,  26,  44,
     -5,  19,  26,  36, 17, 45,  61,  16,
    -24, -11,   7,  26, 24, 35,  -8, -20,
    -36, -26, -12,  -1,  9, -7,   6, -23,
    -45, -25, -16, -17,  3,  0,  -5, -33,
    -44, -16, -20,  -9, -1, 11,  -6, -71,
    -19, -13,   1,  17, 16,  7, -37, -26,
    ],
    [
    -28,   0,  29,  12,  59,  44,  43,  45,
    -24, -39,  -5,   1, -16,  57,  28,  54,
    -13, -17,   7,   8,  29,  56,  47,  57,
    -27, -27, -16, -16,  -1,  17,  -2,   1,
     -9, -26,  -9, -10,  -2,  -4,   3,  -3,
    -14,   2, -11,  -2,  -5,   2,  14,   5,
    -35,  -8,  11,   2,   8,  15,  -3,   1,
     -1, -18,  -9,  10, -15, -25, -31, -50,
    ],
    [
    -65,  23,  16, -15, -56, -34,   2,  13,
     29,  -1, -20,  -7,  -8,  -4, -38, -29,
     -9,  24,   2, -16, -20,   6,  22, -22,
    -17, -20, -12, -27, -30, -25, -14, -36,
    -49,  -1, -27, -39, -46, -44, -33, -51,
    -14, -14, -22, -46, -44, -30, -15, -27,
      1,   7,  -8, -64, -43, -16,   9,   8,
    -15,  36,  12, -54,   8, -28,  24,  14,
    ],
];

#[rustfmt::skip]
const EG_PST: [[i32; 64]; 6] = [
    [
      0,   0,   0,   0,   0,   0,   0,   0,
    178, 173, 158, 134, 147, 132, 165, 187,
     94, 100,  85,  67,  56,  53,  82,  84,
     32,  24,  13,   5,  -2,   4,  17,  17,
     13,   9,  -3,  -7,  -7,  -8,   3,  -1,
      4,   7,  -6,   1,   0,  -5,  -1,  -8,
     13,   8,   8,  10,  13,   0,   2,  -7,
      0,   0,   0,   0,   0,   0,   0,   0,
    ],
    [
    -58, -38, -13, -28, -31, -27, -63, -99,
    -25,  -8, -25,  -2,  -9, -25, -24, -52,
    -24, -20,  10,   9,  -1,  -9, -19, -41,
    -17,   3,  22,  22,  22,  11,   8, -18,
    -18,  -6,  16,  25,  16,  17,   4, -18,
    -23,  -3,  -1,  15,  10,  -3, -20, -22,
    -42, -20, -10,  -5,  -2, -20, -23, -44,
    -29, -51, -23, -15, -22, -18, -50, -64,
    ],
    [
    -14, -21, -11,  -8, -7,  -9, -17, -24,
     -8,  -4,   7, -12, -3, -13,  -4, -14,
      2,  -8,   0,  -1, -2,   6,   0,   4,
     -3,   9,  12,   9, 14,  10,   3,   2,
     -6,   3,  13,  19,  7,  10,  -3,  -9,
    -12,  -3,   8,  10, 13,   3,  -7, -15,
    -14, -18,  -7,  -1,  4,  -9, -15, -27,
    -23,  -9, -23,  -5, -9, -16,  -5, -17,
    ],
    [
     13, 10, 18, 15, 12,  12,   8,   5,
     11, 13, 13, 11, -3,   3,   8,   3,
      7,  7,  7,  5,  4,  -3,  -5,  -3,
      4,  3, 13,  1,  2,   1,  -1,   2,
      3,  5,  8,  4, -5,  -6,  -8, -11,
     -4,  0, -5, -1, -7, -12,  -8, -16,
     -6, -6,  0,  2, -9,  -9, -11,  -3,
     -9,  2,  3, -1, -5, -13,   4, -20,
    ],
    [
     -9,  22,  22,  27,  27,  19,  10,  20,
    -17,  20,  32,  41,  58,  25,  30,   0,
    -20,   6,   9,  49,  47,  35,  19,   9,
      3,  22,  24,  45,  57,  40,  57,  36,
    -18,  28,  19,  47,  31,  34,  39,  23,
    -16, -27,  15,   6,   9,  17,  10,   5,
    -22, -23, -30, -16, -16, -23, -36, -32,
    -33, -28, -22, -43,  -5, -32, -20, -41,
    ],
    [
    -74, -35, -18, -18, -11,  15,   4, -17,
    -12,  17,  14,  17,  17,  38,  23,  11,
     10,  17,  23,  15,  20,  45,  44,  13,
     -8,  22,  24,  27,  26,  33,  26,   3,
    -18,  -4,  21,  24,  27,  23,   9, -11,
    -19,  -3,  11,  21,  23,  16,   7,  -9,
    -27, -11,   4,  13,  14,   4,  -5, -17,
    -53, -34, -21, -11, -28, -14, -24, -43,
    ],
];

/// Game-phase weight of each piece type (PeSTO): 24 with all pieces on the board.
const PHASE_WEIGHT: [i32; 6] = [0, 1, 1, 2, 4, 0];

// Mobility: bonus per reachable square (not own-occupied, not attacked by enemy
// pawns), relative to a typical count so an average piece scores about zero.
const MOBILITY: [(S, i32); 4] = [(S(4, 4), 4), (S(4, 5), 6), (S(2, 4), 6), (S(1, 2), 12)];

const DOUBLED: S = S(-10, -20);
const ISOLATED: S = S(-10, -12);
const BACKWARD: S = S(-6, -8);
/// Passed pawn bonus by relative rank (on top of PeSTO's pawn tables, which already
/// reward advanced pawns in the endgame).
const PASSED: [S; 8] = [S(0, 0), S(2, 8), S(4, 12), S(8, 20), S(18, 36), S(30, 60), S(45, 90), S(0, 0)];
const BISHOP_PAIR: S = S(30, 50);
const ROOK_OPEN: S = S(25, 10);
const ROOK_SEMI_OPEN: S = S(12, 6);
const TEMPO: S = S(10, 5);
const SHIELD_NEAR: i32 = 10;
const SHIELD_FAR: i32 = 5;
const OPEN_FILE_NEAR_KING: i32 = -12;
/// King-attack weight per attacking piece type (N, B, R, Q).
const ATTACK_UNITS: [i32; 4] = [2, 2, 3, 5];

#[inline]
fn pst_index(c: Color, sq: Square) -> usize {
    match c {
        Color::White => sq.index() ^ 56,
        Color::Black => sq.index(),
    }
}

#[inline]
fn file_mask(file: usize) -> Bitboard {
    Bitboard(0x0101_0101_0101_0101u64 << file)
}

#[inline]
fn adjacent_files(file: usize) -> Bitboard {
    let mut b = Bitboard::EMPTY;
    if file > 0 {
        b |= file_mask(file - 1);
    }
    if file < 7 {
        b |= file_mask(file + 1);
    }
    b
}

/// Squares on ranks strictly in front of `sq` from `c`'s point of view.
#[inline]
fn ranks_ahead(c: Color, sq: Square) -> Bitboard {
    let r = sq.rank().index();
    match c {
        Color::White => {
            if r >= 7 {
                Bitboard::EMPTY
            } else {
                Bitboard(!0u64 << (8 * (r + 1)))
            }
        }
        Color::Black => Bitboard((1u64 << (8 * r)) - 1),
    }
}

/// The side-to-move evaluation the search uses.
#[inline]
pub fn evaluate(pos: &Position) -> i32 {
    breakdown(pos).side_to_move
}

/// All terms and the final score.
pub fn breakdown(pos: &Position) -> Breakdown {
    let mut t = Breakdown { eg_scale: 64, ..Breakdown::default() };
    let occ = pos.occupied();
    let pawns = [pos.pieces_of(Color::White, PieceType::Pawn), pos.pieces_of(Color::Black, PieceType::Pawn)];
    let pawn_attacks_by = [pawns[0].pawn_attacks(Color::White), pawns[1].pawn_attacks(Color::Black)];

    let mut phase = 0;
    for c in Color::ALL {
        let us = c.index();
        let them = c.flip();
        let enemy_king = pos.king_square(them);
        let king_zone = king_attacks(enemy_king) | Bitboard::from_square(enemy_king);
        let mobility_area = !pos.color(c) & !pawn_attacks_by[them.index()];
        let (mut attackers, mut units) = (0, 0);

        for pt in PieceType::ALL {
            for sq in pos.pieces_of(c, pt) {
                let i = pst_index(c, sq);
                t.terms[Term::MaterialPst as usize][us] +=
                    S(MG_VALUE[pt.index()] + MG_PST[pt.index()][i], EG_VALUE[pt.index()] + EG_PST[pt.index()][i]);
                phase += PHASE_WEIGHT[pt.index()];
                let attacks = match pt {
                    PieceType::Knight => knight_attacks(sq),
                    PieceType::Bishop => bishop_attacks(sq, occ),
                    PieceType::Rook => rook_attacks(sq, occ),
                    PieceType::Queen => queen_attacks(sq, occ),
                    _ => continue,
                };
                let k = pt.index() - 1;
                let (per_square, typical) = MOBILITY[k];
                let n = (attacks & mobility_area).count() as i32;
                t.terms[Term::Mobility as usize][us] += per_square * (n - typical);
                if (attacks & king_zone).nonempty() {
                    attackers += 1;
                    units += ATTACK_UNITS[k] + (attacks & king_zone).count() as i32 / 2;
                }
                if pt == PieceType::Rook {
                    let f = file_mask(sq.file().index());
                    if (f & (pawns[0] | pawns[1])).is_empty() {
                        t.terms[Term::RookFiles as usize][us] += ROOK_OPEN;
                    } else if (f & pawns[us]).is_empty() {
                        t.terms[Term::RookFiles as usize][us] += ROOK_SEMI_OPEN;
                    }
                }
            }
        }
        // King danger is charged to the defender's account.
        if attackers >= 2 && pos.pieces_of(c, PieceType::Queen).nonempty() {
            let penalty = (units * units * 2).min(500);
            t.terms[Term::KingSafety as usize][them.index()] += S(-penalty, 0);
        }

        if pos.pieces_of(c, PieceType::Bishop).more_than_one() {
            t.terms[Term::BishopPair as usize][us] += BISHOP_PAIR;
        }

        // Pawn structure.
        let own = pawns[us];
        let theirs = pawns[them.index()];
        for file in 0..8 {
            let n = (own & file_mask(file)).count() as i32;
            if n > 1 {
                t.terms[Term::PawnStructure as usize][us] += DOUBLED * (n - 1);
            }
        }
        for sq in own {
            let file = sq.file().index();
            let adj = adjacent_files(file);
            let ahead = ranks_ahead(c, sq);
            if (own & adj).is_empty() {
                t.terms[Term::PawnStructure as usize][us] += ISOLATED;
            } else if (own & adj & !ahead).is_empty() {
                // No friendly pawn beside or behind: if the square in front is
                // covered by an enemy pawn, this pawn can never be defended by a pawn.
                if let Some(stop) = sq.offset(c.forward() * 8) {
                    if pawn_attacks(c, stop) & theirs != Bitboard::EMPTY {
                        t.terms[Term::PawnStructure as usize][us] += BACKWARD;
                    }
                }
            }
            if (theirs & ahead & (adj | file_mask(file))).is_empty() && (own & ahead & file_mask(file)).is_empty() {
                let r = sq.rank().relative(c).index();
                t.terms[Term::PassedPawns as usize][us] += PASSED[r];
            }
        }

        // Pawn shield and open files in front of the own king (middlegame only).
        let ksq = pos.king_square(c);
        let kfile = ksq.file().index();
        let files = file_mask(kfile) | adjacent_files(kfile);
        let mut shield = 0;
        if ksq.rank().relative(c).index() <= 1 {
            let near_rank = Bitboard::rank(ksq.rank()).forward(c);
            let far_rank = near_rank.forward(c);
            shield += (own & files & near_rank).count() as i32 * SHIELD_NEAR;
            shield += (own & files & far_rank).count() as i32 * SHIELD_FAR;
        }
        for f in kfile.saturating_sub(1)..=(kfile + 1).min(7) {
            if (own & file_mask(f)).is_empty() {
                shield += OPEN_FILE_NEAR_KING;
            }
        }
        t.terms[Term::KingSafety as usize][us] += S(shield, 0);
    }
    let stm = pos.side_to_move().index();
    t.terms[Term::Tempo as usize][stm] += TEMPO;

    let mut total = S(0, 0);
    for term in &t.terms {
        total += term[0] - term[1];
    }
    t.phase = phase.min(24);

    // Drawish material: the side ahead has no pawns and at most a minor piece more.
    let strong = if total.1 >= 0 { Color::White } else { Color::Black };
    if pawns[strong.index()].is_empty() {
        let npm = |c: Color| {
            pos.pieces_of(c, PieceType::Knight).count() as i32 * 3
                + pos.pieces_of(c, PieceType::Bishop).count() as i32 * 3
                + pos.pieces_of(c, PieceType::Rook).count() as i32 * 5
                + pos.pieces_of(c, PieceType::Queen).count() as i32 * 9
        };
        if npm(strong) - npm(strong.flip()) <= 3 {
            t.eg_scale = if npm(strong) <= 3 { 4 } else { 16 };
        }
    }
    let eg = total.1 * t.eg_scale / 64;
    t.white = (total.0 * t.phase + eg * (24 - t.phase)) / 24;
    t.side_to_move = if pos.side_to_move() == Color::White { t.white } else { -t.white };
    t
}

/// Text for the UCI `eval` command: one line per term, then the total.
pub fn describe(pos: &Position) -> String {
    let b = breakdown(pos);
    let mut s = String::new();
    s.push_str("      Term      |    White    |    Black    |    Total\n");
    s.push_str("                |   MG    EG  |   MG    EG  |   MG    EG\n");
    for (i, name) in TERM_NAMES.iter().enumerate() {
        let [w, bl] = b.terms[i];
        let d = w - bl;
        s.push_str(&format!("{name:>15} | {:5} {:5} | {:5} {:5} | {:5} {:5}\n", w.0, w.1, bl.0, bl.1, d.0, d.1));
    }
    s.push_str(&format!("phase {} / 24, endgame scale {} / 64\n", b.phase, b.eg_scale));
    s.push_str(&format!("Final evaluation: {} cp (White's view), {} cp (side to move)\n", b.white, b.side_to_move));
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mirror(fen: &str) -> String {
        // Swap colours and flip ranks: the evaluation must be the same for the mover.
        let parts: Vec<&str> = fen.split_whitespace().collect();
        let board: Vec<String> = parts[0]
            .split('/')
            .rev()
            .map(|r| {
                r.chars()
                    .map(|c| if c.is_ascii_uppercase() { c.to_ascii_lowercase() } else { c.to_ascii_uppercase() })
                    .collect()
            })
            .collect();
        let side = if parts[1] == "w" { "b" } else { "w" };
        format!("{} {} - - 0 1", board.join("/"), side)
    }

    #[test]
    fn symmetric_under_colour_flip() {
        crate::chess::attacks::init();
        for fen in [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "2r1kb1r/pp1b1ppp/1qn1pn2/2pp4/3P1B2/2P1PN1P/PP1N1PP1/R1Q1KB1R w KQk - 1 9",
        ] {
            let a = Position::from_fen(fen).unwrap();
            let b = Position::from_fen(&mirror(fen)).unwrap();
            assert_eq!(evaluate(&a), evaluate(&b), "{fen}");
        }
    }

    #[test]
    fn start_position_is_about_level_and_material_counts() {
        crate::chess::attacks::init();
        let e = evaluate(&Position::startpos());
        assert!(e.abs() < 40, "{e}");
        let up_a_queen = Position::from_fen("rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1").unwrap();
        assert!(evaluate(&up_a_queen) > 700);
    }
}
