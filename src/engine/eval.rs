//! Static evaluation: a tapered (middlegame/endgame) sum of hand-written terms, from
//! the side to move's point of view, in centipawns.
//!
//! The terms are computed here; their weights live in `eval_weights.rs`, which the
//! tuner (`arbiter texel`, src/tools/texel.rs) writes. The evaluation reports every
//! weight it uses to a [`Trace`] (a no-op in the search), which is how the tuner sees
//! the evaluation as a linear function of its weights.
//!
//! Where the current numbers come from: `arbiter texel` fitted them (2026-12-01) to 1.1 M
//! positions of node-limited self-play, starting from and pulled towards the first weights —
//! PeSTO's material and piece-square tables (Ronald Friederich, Chess Programming Wiki,
//! "PeSTO's Evaluation Function") and conventional hand-set mobility, pawn, king-safety,
//! bishop-pair and rook-file values (king danger `min(2 units², 500)` written out as a table).
//! docs/strength.md has the data, the command and the games that accepted them.

use super::eval_weights as w;
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
impl std::ops::Add for S {
    type Output = S;
    fn add(self, o: S) -> S {
        S(self.0 + o.0, self.1 + o.1)
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
enum Term {
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

/// Game-phase weight of each piece type (PeSTO): 24 with all pieces on the board.
const PHASE_WEIGHT: [i32; 6] = [0, 1, 1, 2, 4, 0];
/// The mobility blocks of knight, bishop, rook and queen, and their tables.
const MOBILITY_BLOCKS: [Block; 4] =
    [Block::MobilityKnight, Block::MobilityBishop, Block::MobilityRook, Block::MobilityQueen];
const MOBILITY: [&[S]; 4] = [
    MOBILITY_BLOCKS[0].values(),
    MOBILITY_BLOCKS[1].values(),
    MOBILITY_BLOCKS[2].values(),
    MOBILITY_BLOCKS[3].values(),
];
/// King-attack weight per attacking piece type (N, B, R, Q).
const ATTACK_UNITS: [i32; 4] = [2, 2, 3, 5];

/// The blocks of weights in `eval_weights.rs`, in the order the tuner sees them as one
/// flat vector (each weight's index there is its block's offset plus its place in it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Block {
    Material,
    Pst,
    MobilityKnight,
    MobilityBishop,
    MobilityRook,
    MobilityQueen,
    Passed,
    Doubled,
    Isolated,
    Backward,
    BishopPair,
    RookOpen,
    RookSemiOpen,
    Tempo,
    ShieldNear,
    ShieldFar,
    OpenFileNearKing,
    KingDanger,
}

impl Block {
    pub const ALL: [Block; 18] = [
        Block::Material,
        Block::Pst,
        Block::MobilityKnight,
        Block::MobilityBishop,
        Block::MobilityRook,
        Block::MobilityQueen,
        Block::Passed,
        Block::Doubled,
        Block::Isolated,
        Block::Backward,
        Block::BishopPair,
        Block::RookOpen,
        Block::RookSemiOpen,
        Block::Tempo,
        Block::ShieldNear,
        Block::ShieldFar,
        Block::OpenFileNearKing,
        Block::KingDanger,
    ];

    /// The current values, flattened (PST: piece by piece, a8 to h1).
    pub const fn values(self) -> &'static [S] {
        use std::slice::from_ref;
        match self {
            Block::Material => &w::MATERIAL,
            Block::Pst => w::PST.as_flattened(),
            Block::MobilityKnight => &w::MOBILITY_KNIGHT,
            Block::MobilityBishop => &w::MOBILITY_BISHOP,
            Block::MobilityRook => &w::MOBILITY_ROOK,
            Block::MobilityQueen => &w::MOBILITY_QUEEN,
            Block::Passed => &w::PASSED,
            Block::Doubled => from_ref(&w::DOUBLED),
            Block::Isolated => from_ref(&w::ISOLATED),
            Block::Backward => from_ref(&w::BACKWARD),
            Block::BishopPair => from_ref(&w::BISHOP_PAIR),
            Block::RookOpen => from_ref(&w::ROOK_OPEN),
            Block::RookSemiOpen => from_ref(&w::ROOK_SEMI_OPEN),
            Block::Tempo => from_ref(&w::TEMPO),
            Block::ShieldNear => from_ref(&w::SHIELD_NEAR),
            Block::ShieldFar => from_ref(&w::SHIELD_FAR),
            Block::OpenFileNearKing => from_ref(&w::OPEN_FILE_NEAR_KING),
            Block::KingDanger => &w::KING_DANGER,
        }
    }

    /// The constant's name in `eval_weights.rs`.
    pub const fn name(self) -> &'static str {
        match self {
            Block::Material => "MATERIAL",
            Block::Pst => "PST",
            Block::MobilityKnight => "MOBILITY_KNIGHT",
            Block::MobilityBishop => "MOBILITY_BISHOP",
            Block::MobilityRook => "MOBILITY_ROOK",
            Block::MobilityQueen => "MOBILITY_QUEEN",
            Block::Passed => "PASSED",
            Block::Doubled => "DOUBLED",
            Block::Isolated => "ISOLATED",
            Block::Backward => "BACKWARD",
            Block::BishopPair => "BISHOP_PAIR",
            Block::RookOpen => "ROOK_OPEN",
            Block::RookSemiOpen => "ROOK_SEMI_OPEN",
            Block::Tempo => "TEMPO",
            Block::ShieldNear => "SHIELD_NEAR",
            Block::ShieldFar => "SHIELD_FAR",
            Block::OpenFileNearKing => "OPEN_FILE_NEAR_KING",
            Block::KingDanger => "KING_DANGER",
        }
    }

    /// What the weight rewards (the doc comment in `eval_weights.rs`).
    pub const fn doc(self) -> &'static str {
        match self {
            Block::Material => "Piece values: pawn, knight, bishop, rook, queen, king.",
            Block::Pst => "Piece-square tables: pawn, knight, bishop, rook, queen, king.",
            Block::MobilityKnight => "Knight mobility by the number of safe squares it reaches.",
            Block::MobilityBishop => "Bishop mobility by the number of safe squares it reaches.",
            Block::MobilityRook => "Rook mobility by the number of safe squares it reaches.",
            Block::MobilityQueen => "Queen mobility by the number of safe squares it reaches.",
            Block::Passed => "Passed pawn by relative rank.",
            Block::Doubled => "Each extra pawn on a file.",
            Block::Isolated => "A pawn with no own pawn on the adjacent files.",
            Block::Backward => {
                "A pawn that can no longer be defended by a pawn and whose stop square an enemy pawn guards."
            }
            Block::BishopPair => "Two or more bishops.",
            Block::RookOpen => "A rook on a file without pawns.",
            Block::RookSemiOpen => "A rook on a file without own pawns.",
            Block::Tempo => "The side to move.",
            Block::ShieldNear => {
                "Each own pawn on the rank in front of the king (king on its first two ranks), king file and adjacent."
            }
            Block::ShieldFar => "Each own pawn two ranks in front of the king, likewise.",
            Block::OpenFileNearKing => "Each file at or beside the king without own pawns.",
            Block::KingDanger => {
                "King danger by attack units (charged to the defender; with two or more attackers and a queen)."
            }
        }
    }

    /// Index of the block's first weight in the flat vector.
    pub const fn offset(self) -> usize {
        let mut off = 0;
        let mut i = 0;
        while i < self as usize {
            off += Block::ALL[i].values().len();
            i += 1;
        }
        off
    }
}

/// Number of weights in the flat vector.
pub const NUM_WEIGHTS: usize = Block::KingDanger.offset() + w::KING_DANGER.len();

/// All weights as one vector, in [`Block::ALL`] order.
pub fn flat_weights() -> Vec<S> {
    Block::ALL.iter().flat_map(|b| b.values().iter().copied()).collect()
}

/// Receives every weight the evaluation uses: `count` times weight `index` (of
/// [`flat_weights`]) for `color`. The tuner records these; the search's evaluation
/// passes [`NoTrace`], which compiles away.
pub trait Trace {
    fn add(&mut self, index: usize, color: Color, count: i32);
}

/// The trace of a normal evaluation: nothing.
struct NoTrace;

impl Trace for NoTrace {
    #[inline(always)]
    fn add(&mut self, _: usize, _: Color, _: i32) {}
}

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

/// The side-to-move evaluation.
#[inline]
pub fn evaluate(pos: &Position) -> i32 {
    breakdown(pos).side_to_move
}

/// [`evaluate`] with the pawn-structure terms looked up in (or added to) `cache`: the
/// search's evaluation, same result, less work.
#[inline]
pub fn evaluate_cached(pos: &Position, cache: &mut PawnCache) -> i32 {
    terms(pos, &mut NoTrace, Some(cache)).side_to_move
}

/// All terms and the final score.
pub fn breakdown(pos: &Position) -> Breakdown {
    traced(pos, &mut NoTrace)
}

/// All terms and the final score, reporting every weight used to `trace`.
#[inline]
pub fn traced<T: Trace>(pos: &Position, trace: &mut T) -> Breakdown {
    terms(pos, trace, None)
}

/// The pawn-structure and passed-pawn terms of each colour: they depend on the pawns
/// alone, so the search caches them by pawn key ([`PawnCache`]).
#[derive(Clone, Copy, Debug, Default)]
struct PawnTerms {
    key: u64,
    /// `[color]`: doubled, isolated and backward pawns.
    structure: [S; 2],
    /// `[color]`: passed pawns.
    passed: [S; 2],
}

/// Entries in a [`PawnCache`] (a power of two): 4096 x 40 bytes.
const PAWN_CACHE_SIZE: usize = 4096;

/// A search thread's cache of [`PawnTerms`], indexed and verified by the full pawn key.
/// A position without pawns has key 0 and terms 0, which is what an empty entry holds.
pub struct PawnCache {
    entries: Box<[PawnTerms]>,
}

impl Default for PawnCache {
    fn default() -> Self {
        PawnCache { entries: vec![PawnTerms::default(); PAWN_CACHE_SIZE].into_boxed_slice() }
    }
}

impl PawnCache {
    fn get(&mut self, key: u64, pawns: [Bitboard; 2]) -> PawnTerms {
        let i = (key as usize) & (PAWN_CACHE_SIZE - 1);
        let Some(e) = self.entries.get_mut(i) else {
            return pawn_terms(key, pawns);
        };
        if e.key != key {
            *e = pawn_terms(key, pawns);
        }
        *e
    }
}

fn pawn_terms(key: u64, pawns: [Bitboard; 2]) -> PawnTerms {
    let mut e = PawnTerms { key, ..PawnTerms::default() };
    for c in Color::ALL {
        (e.structure[c.index()], e.passed[c.index()]) = pawn_terms_of(c, pawns, &mut NoTrace);
    }
    e
}

/// Colour `c`'s (pawn structure, passed pawns) terms.
#[inline]
fn pawn_terms_of<T: Trace>(c: Color, pawns: [Bitboard; 2], trace: &mut T) -> (S, S) {
    let (mut structure, mut passed) = (S(0, 0), S(0, 0));
    let own = pawns[c.index()];
    let theirs = pawns[c.flip().index()];
    for file in 0..8 {
        let n = (own & file_mask(file)).count() as i32;
        if n > 1 {
            structure += w::DOUBLED * (n - 1);
            trace.add(Block::Doubled.offset(), c, n - 1);
        }
    }
    for sq in own {
        let file = sq.file().index();
        let adj = adjacent_files(file);
        let ahead = ranks_ahead(c, sq);
        if (own & adj).is_empty() {
            structure += w::ISOLATED;
            trace.add(Block::Isolated.offset(), c, 1);
        } else if (own & adj & !ahead).is_empty() {
            // No friendly pawn beside or behind: if the square in front is
            // covered by an enemy pawn, this pawn can never be defended by a pawn.
            if let Some(stop) = sq.offset(c.forward() * 8) {
                if pawn_attacks(c, stop) & theirs != Bitboard::EMPTY {
                    structure += w::BACKWARD;
                    trace.add(Block::Backward.offset(), c, 1);
                }
            }
        }
        if (theirs & ahead & (adj | file_mask(file))).is_empty() && (own & ahead & file_mask(file)).is_empty() {
            let r = sq.rank().relative(c).index();
            passed += w::PASSED[r];
            trace.add(Block::Passed.offset() + r, c, 1);
        }
    }
    (structure, passed)
}

/// All terms and the final score; the pawn terms from `cache` if given (then `trace`
/// does not see them: only the tuner traces, and it passes no cache).
#[inline]
fn terms<T: Trace>(pos: &Position, trace: &mut T, cache: Option<&mut PawnCache>) -> Breakdown {
    let mut t = Breakdown { eg_scale: 64, ..Breakdown::default() };
    let occ = pos.occupied();
    let pawns = [pos.pieces_of(Color::White, PieceType::Pawn), pos.pieces_of(Color::Black, PieceType::Pawn)];
    let cached = cache.map(|c| c.get(pos.pawn_key(), pawns));
    let pawn_attacks_by = [pawns[0].pawn_attacks(Color::White), pawns[1].pawn_attacks(Color::Black)];

    let mut phase = 0;
    for c in Color::ALL {
        let us = c.index();
        let them = c.flip();
        let enemy_king = pos.king_square(them);
        let king_zone = king_attacks(enemy_king) | Bitboard::from_square(enemy_king);
        let mobility_area = !pos.color(c) & !pawn_attacks_by[them.index()];
        let (mut attackers, mut units) = (0, 0);
        // Summed in locals (registers) and added to `t.terms` once per colour.
        let (mut material_pst, mut mobility, mut rook_files) = (S(0, 0), S(0, 0), S(0, 0));

        for pt in PieceType::ALL {
            let p = pt.index();
            for sq in pos.pieces_of(c, pt) {
                let i = pst_index(c, sq);
                material_pst += w::MATERIAL[p];
                trace.add(Block::Material.offset() + p, c, 1);
                material_pst += w::PST[p][i];
                trace.add(Block::Pst.offset() + p * 64 + i, c, 1);
                phase += PHASE_WEIGHT[p];
                let attacks = match pt {
                    PieceType::Knight => knight_attacks(sq),
                    PieceType::Bishop => bishop_attacks(sq, occ),
                    PieceType::Rook => rook_attacks(sq, occ),
                    PieceType::Queen => queen_attacks(sq, occ),
                    _ => continue,
                };
                let k = p - 1;
                let n = (attacks & mobility_area).count() as usize;
                mobility += MOBILITY[k][n];
                trace.add(MOBILITY_BLOCKS[k].offset() + n, c, 1);
                if (attacks & king_zone).nonempty() {
                    attackers += 1;
                    units += ATTACK_UNITS[k] + (attacks & king_zone).count() as i32 / 2;
                }
                if pt == PieceType::Rook {
                    let f = file_mask(sq.file().index());
                    if (f & (pawns[0] | pawns[1])).is_empty() {
                        rook_files += w::ROOK_OPEN;
                        trace.add(Block::RookOpen.offset(), c, 1);
                    } else if (f & pawns[us]).is_empty() {
                        rook_files += w::ROOK_SEMI_OPEN;
                        trace.add(Block::RookSemiOpen.offset(), c, 1);
                    }
                }
            }
        }
        t.terms[Term::MaterialPst as usize][us] += material_pst;
        t.terms[Term::Mobility as usize][us] += mobility;
        t.terms[Term::RookFiles as usize][us] += rook_files;
        // King danger is charged to the defender's account.
        if attackers >= 2 && pos.pieces_of(c, PieceType::Queen).nonempty() {
            let u = (units as usize).min(w::KING_DANGER.len() - 1);
            t.terms[Term::KingSafety as usize][them.index()] += w::KING_DANGER[u];
            trace.add(Block::KingDanger.offset() + u, them, 1);
        }

        if pos.pieces_of(c, PieceType::Bishop).more_than_one() {
            t.terms[Term::BishopPair as usize][us] += w::BISHOP_PAIR;
            trace.add(Block::BishopPair.offset(), c, 1);
        }

        // Pawn structure.
        let (structure, passed) = match &cached {
            Some(e) => (e.structure[us], e.passed[us]),
            None => pawn_terms_of(c, pawns, trace),
        };
        t.terms[Term::PawnStructure as usize][us] += structure;
        t.terms[Term::PassedPawns as usize][us] += passed;
        let own = pawns[us];

        // Pawn shield and open files in front of the own king (middlegame only).
        let ksq = pos.king_square(c);
        let kfile = ksq.file().index();
        let files = file_mask(kfile) | adjacent_files(kfile);
        if ksq.rank().relative(c).index() <= 1 {
            let near_rank = Bitboard::rank(ksq.rank()).forward(c);
            let far_rank = near_rank.forward(c);
            let near = (own & files & near_rank).count() as i32;
            let far = (own & files & far_rank).count() as i32;
            t.terms[Term::KingSafety as usize][us] += w::SHIELD_NEAR * near + w::SHIELD_FAR * far;
            trace.add(Block::ShieldNear.offset(), c, near);
            trace.add(Block::ShieldFar.offset(), c, far);
        }
        let open = (kfile.saturating_sub(1)..=(kfile + 1).min(7)).filter(|&f| (own & file_mask(f)).is_empty()).count();
        t.terms[Term::KingSafety as usize][us] += w::OPEN_FILE_NEAR_KING * open as i32;
        trace.add(Block::OpenFileNearKing.offset(), c, open as i32);
    }
    let stm = pos.side_to_move();
    t.terms[Term::Tempo as usize][stm.index()] += w::TEMPO;
    trace.add(Block::Tempo.offset(), stm, 1);

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
    t.side_to_move = pos.side_to_move().sign() * t.white;
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
    fn pawn_cache_gives_the_same_evaluation() {
        crate::chess::attacks::init();
        let mut cache = PawnCache::default();
        let mut n = 0;
        for fen in [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "2q1rr1k/3bbnnp/p2p1pp1/2pPp3/PpP1P1P1/1P2BNNP/2BQ1PRK/7R b - - 0 1",
            "r1bqk2r/pp2bppp/2p5/3pP3/P2Q1P2/2N1B3/1PP3PP/R4RK1 b kq - 0 1",
            "4b3/p3kp2/6p1/3pP2p/2pP1P2/4K1P1/P3N2P/8 w - - 0 1",
            "8/8/2k5/5q2/5n2/8/5K2/8 b - - 0 1",
        ] {
            let root = Position::from_fen(fen).unwrap();
            let children = crate::chess::legal_moves(&root).iter().map(|&m| root.make_move(m)).collect::<Vec<_>>();
            // Twice: the first time fills the cache, the second reads it.
            for _ in 0..2 {
                for pos in std::iter::once(&root).chain(&children) {
                    assert_eq!(evaluate_cached(pos, &mut cache), evaluate(pos), "{}", pos.to_fen());
                    n += 1;
                }
            }
        }
        assert!(n > 300, "{n}");
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
