//! Attack tables, all computed at compile time (plain statics: no lazy dereference in the hot
//! paths): leapers (knight, king, pawn), sliders (bishop, rook) by "fancy" magic bitboards,
//! and the `between`/`line` tables used for pins, check blocking and explanations.

use super::bitboard::Bitboard;
use super::types::{Color, PieceType, Square};

const fn leaper_table(deltas: &[(i8, i8)]) -> [Bitboard; 64] {
    let mut table = [Bitboard::EMPTY; 64];
    let mut sq = 0;
    while sq < 64 {
        let (f, r) = ((sq % 8) as i8, (sq / 8) as i8);
        let mut bits = 0u64;
        let mut i = 0;
        while i < deltas.len() {
            let (df, dr) = deltas[i];
            let (nf, nr) = (f + df, r + dr);
            if nf >= 0 && nf < 8 && nr >= 0 && nr < 8 {
                bits |= 1 << (nr * 8 + nf);
            }
            i += 1;
        }
        table[sq] = Bitboard(bits);
        sq += 1;
    }
    table
}

const KNIGHT_STEPS: [(i8, i8); 8] = [(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)];
const KING_STEPS: [(i8, i8); 8] = [(1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1)];
static KNIGHT: [Bitboard; 64] = leaper_table(&KNIGHT_STEPS);
static KING: [Bitboard; 64] = leaper_table(&KING_STEPS);
static PAWN: [[Bitboard; 64]; 2] = [leaper_table(&[(-1, 1), (1, 1)]), leaper_table(&[(-1, -1), (1, -1)])];

#[inline(always)]
pub fn knight_attacks(sq: Square) -> Bitboard {
    KNIGHT[sq.index()]
}
#[inline(always)]
pub fn king_attacks(sq: Square) -> Bitboard {
    KING[sq.index()]
}
/// Squares a pawn of `color` on `sq` attacks.
#[inline(always)]
pub fn pawn_attacks(color: Color, sq: Square) -> Bitboard {
    PAWN[color.index()][sq.index()]
}

/// Slow reference slider attacks by ray walking, in tests (the compile-time tables are checked
/// against it).
#[cfg(test)]
fn sliding_attacks_slow(dirs: &[(i8, i8)], sq: Square, occupied: Bitboard) -> Bitboard {
    let mut result = Bitboard::EMPTY;
    for &(df, dr) in dirs {
        let (mut f, mut r) = (sq.file().index() as i8, sq.rank().index() as i8);
        loop {
            f += df;
            r += dr;
            if !(0..8).contains(&f) || !(0..8).contains(&r) {
                break;
            }
            let s = Square::new((r * 8 + f) as u8);
            result = result.with(s);
            if occupied.contains(s) {
                break;
            }
        }
    }
    result
}

#[derive(Clone, Copy)]
struct Magic {
    mask: u64,
    magic: u64,
    shift: u32,
    offset: usize,
}

impl Magic {
    #[inline(always)]
    fn index(&self, occupied: Bitboard) -> usize {
        self.offset + ((occupied.0 & self.mask).wrapping_mul(self.magic) >> self.shift) as usize
    }
}

struct SliderTables {
    rook: [Magic; 64],
    bishop: [Magic; 64],
    attacks: [Bitboard; SLIDER_ENTRIES],
}

// Magics found once by a search over seeded random candidates and stored (searching at every
// start-up took ~250 ms). Each is verified while the table is filled at compile time: a bad one
// stops the build (`slider_tables`).
const ROOK_MAGICS: [u64; 64] = [
    0x1080004008801020,
    0x0840092002C03000,
    0x1900200010400900,
    0x0880100008000480,
    0x4200100420080200,
    0x8100020100080400,
    0x0200040110886200,
    0x0200008040220411,
    0x0404800084400220,
    0x0000401000402000,
    0x0086001081220440,
    0x0408800800100280,
    0x000A001201040820,
    0x8848800200840080,
    0x4001000100040200,
    0x0442000102105084,
    0x9080010020804100,
    0x0040404000201009,
    0x0000808010002009,
    0x2200090021D00100,
    0x0008008008040080,
    0x0004004002010040,
    0x0011040008015042,
    0x00000A0001768104,
    0x0000800080204009,
    0x2010004140002001,
    0x9800200280100080,
    0x1000100080080080,
    0x0442000A00049020,
    0x2100040080020080,
    0x0800120400900148,
    0x0010040A00128541,
    0x2800804000800030,
    0x1010002000400041,
    0x4000200011004100,
    0x0610008410800800,
    0x0400802402800800,
    0xC100020080800400,
    0x0002000802000401,
    0x0182085882000401,
    0x0220204000808000,
    0x2860100040024022,
    0x0001002004110040,
    0x99101042000A0020,
    0x0004080004008080,
    0x0010040002008080,
    0x2012004881020004,
    0x8300842444820011,
    0x0088403882010200,
    0x0820400080210100,
    0x0110910040A00300,
    0x0801100280080480,
    0x0242009008200600,
    0x1002000489500200,
    0x0040800200010080,
    0x0091800041000080,
    0x0000209300488001,
    0x04C1002414824001,
    0x020020000B001041,
    0x7000100004200901,
    0x8002002004100802,
    0x30010002084C0007,
    0x0888221800813004,
    0x4000002840840112,
];
const BISHOP_MAGICS: [u64; 64] = [
    0xA010041108003100,
    0x006082020A002900,
    0x6810010619200000,
    0x08281A0520000408,
    0x0001104001000400,
    0x0018901008048400,
    0x00040A0210245280,
    0x000200210808A402,
    0x9140048410821200,
    0x0800091010820041,
    0x20504804832202C0,
    0x0100091401081000,
    0x8021011140000012,
    0x0810020804450400,
    0x208B0542109008A2,
    0x0080084A08040204,
    0x0040E2A80811244C,
    0x2505022008008108,
    0x0430220100420040,
    0x010A040420220040,
    0x1105000290400000,
    0x0093001200822120,
    0x4000A62048043004,
    0x280120048A015004,
    0x006090002A020814,
    0x44042000240800D0,
    0x01102800040A4400,
    0x1004080080220040,
    0x0001001011004024,
    0x0010044000805040,
    0x0914041200820100,
    0x0004821012821480,
    0x0024040500C05021,
    0x0088611002080200,
    0x0116080A00040020,
    0x4000020080080080,
    0x2450450140840040,
    0x0000880201484100,
    0x0222020404020092,
    0x8081110600002E00,
    0x2842101105000801,
    0x1100809008001025,
    0x00020202221C0400,
    0x0422014022009020,
    0x0210046102100C00,
    0xC004008082029102,
    0x00AA461801101200,
    0x0404080080201108,
    0x020542108C205002,
    0x0410544804100100,
    0x0040910841100000,
    0x0400200042021100,
    0x00004204850400C0,
    0x0200100410A42102,
    0x1040020801210102,
    0x0805040410420000,
    0x2884804130100200,
    0x800C262201242000,
    0x1058000194108800,
    0x0014221054420204,
    0x0104000012A02200,
    0x0200881003300100,
    0x0140400202840100,
    0x0402020801010201,
];

/// The rays from every square in the eight directions, indexed `[square][direction]`.
type Rays = [[u64; 8]; 64];

/// The rook's directions are `0..4` of [`DIRS`], the bishop's `4..8`.
const DIRS: [(i8, i8); 8] = [(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1)];

const fn rays() -> Rays {
    let mut t = [[0u64; 8]; 64];
    let mut sq = 0;
    while sq < 64 {
        let mut d = 0;
        while d < 8 {
            t[sq][d] = ray(sq, DIRS[d].0, DIRS[d].1);
            d += 1;
        }
        sq += 1;
    }
    t
}

/// A direction that walks towards higher square indices: its first blocker is the ray's lowest
/// set bit, else its highest.
const fn ascending(d: usize) -> bool {
    let (df, dr) = DIRS[d];
    dr > 0 || (dr == 0 && df > 0)
}

/// The first of `bits` met walking from the origin in direction `d` (`bits` not empty).
const fn nearest(bits: u64, d: usize) -> usize {
    if ascending(d) {
        bits.trailing_zeros() as usize
    } else {
        63 - bits.leading_zeros() as usize
    }
}

/// The index in [`DIRS`] of the slider's first direction: the rook's or the bishop's.
const fn first_dir(rook: bool) -> usize {
    if rook {
        0
    } else {
        4
    }
}

/// Relevant occupancy: the rays without their last square (the edge never blocks anything
/// beyond); `rook`: the rook's rays, else the bishop's.
const fn relevant_mask(rays: &Rays, sq: usize, rook: bool) -> u64 {
    let mut mask = 0u64;
    let mut d = first_dir(rook);
    while d < first_dir(rook) + 4 {
        let r = rays[sq][d];
        if r != 0 {
            // The farthest square is the nearest one walking back from the other end.
            let edge = if ascending(d) { 63 - r.leading_zeros() } else { r.trailing_zeros() };
            mask |= r & !(1 << edge);
        }
        d += 1;
    }
    mask
}

/// [`sliding_attacks_slow`] at compile time: each ray up to and including its first blocker
/// (the ray minus the blocker's own ray beyond it), a few operations a direction where a walk
/// square by square cost seconds of each build.
const fn sliding_attacks_const(rays: &Rays, sq: usize, rook: bool, occupied: u64) -> u64 {
    let mut result = 0u64;
    let mut d = first_dir(rook);
    while d < first_dir(rook) + 4 {
        let r = rays[sq][d];
        let blockers = r & occupied;
        result |= if blockers == 0 { r } else { r & !rays[nearest(blockers, d)][d] };
        d += 1;
    }
    result
}

/// The entries of both sliders' tables: each square's slice holds 2^(relevant bits).
const fn slider_entries() -> usize {
    let rays = rays();
    let mut n = 0;
    let mut sq = 0;
    while sq < 64 {
        n += 1 << relevant_mask(&rays, sq, true).count_ones();
        n += 1 << relevant_mask(&rays, sq, false).count_ones();
        sq += 1;
    }
    n
}

const SLIDER_ENTRIES: usize = slider_entries();

/// The sliders' tables, filled at compile time from the stored magics (the rooks' squares
/// first, then the bishops'), each square's occupancies enumerated (Carry-Rippler) with their
/// true attacks. A stored magic that maps two occupancies with different attacks to one entry
/// stops the build.
const fn slider_tables() -> SliderTables {
    let rays = rays();
    let none = Magic { mask: 0, magic: 0, shift: 0, offset: 0 };
    let mut t = SliderTables { rook: [none; 64], bishop: [none; 64], attacks: [Bitboard::EMPTY; SLIDER_ENTRIES] };
    let mut offset = 0;
    let mut pass = 0;
    while pass < 2 {
        let rook = pass == 0;
        let mut sq = 0;
        while sq < 64 {
            let mask = relevant_mask(&rays, sq, rook);
            let bits = mask.count_ones();
            let magic = if rook { ROOK_MAGICS[sq] } else { BISHOP_MAGICS[sq] };
            let m = Magic { mask, magic, shift: 64 - bits, offset };
            let mut subset = 0u64;
            loop {
                let attacks = sliding_attacks_const(&rays, sq, rook, subset);
                let i = offset + (subset.wrapping_mul(magic) >> m.shift) as usize;
                // A slider always attacks some square, so an empty entry is one not yet filled
                // (and the entries no occupancy maps to stay empty).
                let entry = t.attacks[i].0;
                if entry == 0 {
                    t.attacks[i] = Bitboard(attacks);
                } else if entry != attacks {
                    panic!("a stored magic maps two occupancies with different attacks to one entry");
                }
                subset = subset.wrapping_sub(mask) & mask;
                if subset == 0 {
                    break;
                }
            }
            if rook {
                t.rook[sq] = m;
            } else {
                t.bishop[sq] = m;
            }
            offset += 1 << bits;
            sq += 1;
        }
        pass += 1;
    }
    t
}

#[allow(long_running_const_eval)]
static SLIDERS: SliderTables = slider_tables();

/// The `between` and `line` tables, by the two squares: built at compile time (a plain static,
/// no lazy dereference in the hot paths of the move filters).
struct LineTables {
    /// Squares strictly between two squares on a common line, else empty.
    between: [[Bitboard; 64]; 64],
    /// The whole line (edge to edge) through two squares, else empty.
    line: [[Bitboard; 64]; 64],
}

/// The squares from `sq` (a square index) along the direction (`df`, `dr`) to the edge.
const fn ray(sq: usize, df: i8, dr: i8) -> u64 {
    let (mut f, mut r) = ((sq % 8) as i8, (sq / 8) as i8);
    let mut bits = 0u64;
    loop {
        f += df;
        r += dr;
        if f < 0 || f >= 8 || r < 0 || r >= 8 {
            break;
        }
        bits |= 1 << (r * 8 + f);
    }
    bits
}

const fn line_tables() -> LineTables {
    let rays = rays();
    let mut t = LineTables { between: [[Bitboard::EMPTY; 64]; 64], line: [[Bitboard::EMPTY; 64]; 64] };
    let mut a = 0;
    while a < 64 {
        let mut d = 0;
        while d < DIRS.len() {
            let (df, dr) = DIRS[d];
            let whole = rays[a][d] | ray(a, -df, -dr) | 1 << a;
            // Each square b on the ray from a: between them, the ray from a without b and the ray
            // beyond it.
            let mut on_ray = rays[a][d];
            while on_ray != 0 {
                let b = on_ray.trailing_zeros() as usize;
                on_ray &= on_ray - 1;
                t.between[a][b] = Bitboard(rays[a][d] & !rays[b][d] & !(1 << b));
                t.line[a][b] = Bitboard(whole);
            }
            d += 1;
        }
        a += 1;
    }
    t
}

static LINES: LineTables = line_tables();

/// Once forced the lazy tables at start-up; they are built at compile time now, so there is
/// nothing left to do (kept for its callers).
#[inline(always)]
pub fn init() {}

#[inline(always)]
pub fn bishop_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
    let t = &SLIDERS;
    t.attacks[t.bishop[sq.index()].index(occupied)]
}

#[inline(always)]
pub fn rook_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
    let t = &SLIDERS;
    t.attacks[t.rook[sq.index()].index(occupied)]
}

#[inline(always)]
pub fn queen_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
    bishop_attacks(sq, occupied) | rook_attacks(sq, occupied)
}

/// Attacks of a piece of type `pt` (not pawn) on `sq` given the occupancy.
#[inline(always)]
pub fn piece_attacks(pt: PieceType, sq: Square, occupied: Bitboard) -> Bitboard {
    match pt {
        PieceType::Knight => knight_attacks(sq),
        PieceType::Bishop => bishop_attacks(sq, occupied),
        PieceType::Rook => rook_attacks(sq, occupied),
        PieceType::Queen => queen_attacks(sq, occupied),
        PieceType::King => king_attacks(sq),
        PieceType::Pawn => Bitboard::EMPTY,
    }
}

/// Squares strictly between `a` and `b` if they share a rank, file or diagonal.
#[inline(always)]
pub fn between(a: Square, b: Square) -> Bitboard {
    LINES.between[a.index()][b.index()]
}

/// The full line through `a` and `b` (edge to edge), empty if they are not aligned.
#[inline(always)]
pub fn line(a: Square, b: Square) -> Bitboard {
    LINES.line[a.index()][b.index()]
}

/// True when the three squares lie on one rank, file or diagonal.
#[inline(always)]
pub fn aligned(a: Square, b: Square, c: Square) -> bool {
    line(a, b).contains(c)
}

/// The squares from which a piece of each kind (by [`PieceType::index`]) attacks a king of
/// `king_color` on `king` with the occupancy `occupied`: where a move of that kind checks it
/// directly (a king never does).
#[inline]
pub fn check_squares_by_kind(king_color: Color, king: Square, occupied: Bitboard) -> [Bitboard; 6] {
    let (bishop, rook) = (bishop_attacks(king, occupied), rook_attacks(king, occupied));
    // A pawn on `sq` checks the king when the king attacks `sq` as one of its own pawns would.
    [pawn_attacks(king_color, king), knight_attacks(king), bishop, rook, bishop | rook, Bitboard::EMPTY]
}

/// What each kind of piece (by [`PieceType::index`]; a pawn: none) attacks from each square
/// on the empty board, at compile time: the reply filters ask it in their hot loop.
static EMPTY_BOARD: [[Bitboard; 64]; 6] = empty_board_table();

const fn empty_board_table() -> [[Bitboard; 64]; 6] {
    let (knight, king, rays) = (leaper_table(&KNIGHT_STEPS), leaper_table(&KING_STEPS), rays());
    let mut table = [[Bitboard::EMPTY; 64]; 6];
    let mut sq = 0;
    while sq < 64 {
        let (bishop, rook) = (sliding_attacks_const(&rays, sq, false, 0), sliding_attacks_const(&rays, sq, true, 0));
        table[1][sq] = knight[sq];
        table[2][sq] = Bitboard(bishop);
        table[3][sq] = Bitboard(rook);
        table[4][sq] = Bitboard(bishop | rook);
        table[5][sq] = king[sq];
        sq += 1;
    }
    table
}

/// Empty-board rays of a rook/bishop (for geometry checks in explanations), a knight's or a
/// king's steps; a pawn: none.
#[inline(always)]
pub fn empty_board_attacks(pt: PieceType, sq: Square) -> Bitboard {
    EMPTY_BOARD[pt.index()][sq.index()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn empty_board_attacks_are_the_attacks_on_an_empty_board() {
        for sq in Square::all() {
            for pt in PieceType::ALL {
                assert_eq!(empty_board_attacks(pt, sq), piece_attacks(pt, sq, Bitboard::EMPTY), "{pt:?} {sq}");
            }
        }
    }
    use crate::rng::Rng;

    const ROOK_DIRS: [(i8, i8); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
    const BISHOP_DIRS: [(i8, i8); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];

    /// The relevant mask by walking each ray and leaving out its last square.
    fn relevant_mask_slow(dirs: &[(i8, i8)], sq: Square) -> u64 {
        let mut mask = 0u64;
        for &(df, dr) in dirs {
            let (mut f, mut r) = (sq.file().index() as i8, sq.rank().index() as i8);
            let mut walked = Vec::new();
            loop {
                f += df;
                r += dr;
                if !(0..8).contains(&f) || !(0..8).contains(&r) {
                    break;
                }
                walked.push(r * 8 + f);
            }
            walked.pop();
            mask |= walked.iter().fold(0u64, |m, &s| m | 1 << s);
        }
        mask
    }

    #[test]
    fn relevant_masks_match_ray_walking() {
        let rays = rays();
        for sq in Square::all() {
            assert_eq!(relevant_mask(&rays, sq.index(), true), relevant_mask_slow(&ROOK_DIRS, sq), "{sq:?}");
            assert_eq!(relevant_mask(&rays, sq.index(), false), relevant_mask_slow(&BISHOP_DIRS, sq), "{sq:?}");
        }
    }

    #[test]
    fn magic_attacks_match_ray_walking() {
        let mut rng = Rng::new(12345);
        for sq in Square::all() {
            for _ in 0..200 {
                let occ = Bitboard(rng.next_u64() & rng.next_u64());
                assert_eq!(rook_attacks(sq, occ), sliding_attacks_slow(&ROOK_DIRS, sq, occ));
                assert_eq!(bishop_attacks(sq, occ), sliding_attacks_slow(&BISHOP_DIRS, sq, occ));
            }
        }
    }

    /// The compile-time tables against their construction from the ray walk (as they were
    /// built at start-up before).
    #[test]
    fn line_tables_match_ray_walking() {
        for a in Square::all() {
            for b in Square::all() {
                let (mut line_ab, mut between_ab) = (Bitboard::EMPTY, Bitboard::EMPTY);
                for dirs in [&ROOK_DIRS, &BISHOP_DIRS] {
                    let from_a = sliding_attacks_slow(dirs, a, Bitboard::EMPTY);
                    if from_a.contains(b) {
                        let from_b = sliding_attacks_slow(dirs, b, Bitboard::EMPTY);
                        line_ab = (from_a & from_b) | Bitboard::from_square(a) | Bitboard::from_square(b);
                        between_ab = sliding_attacks_slow(dirs, a, Bitboard::from_square(b))
                            & sliding_attacks_slow(dirs, b, Bitboard::from_square(a));
                    }
                }
                assert_eq!(line(a, b), line_ab, "{a:?} {b:?}");
                assert_eq!(between(a, b), between_ab, "{a:?} {b:?}");
            }
        }
    }

    /// Every occupancy of every square's relevant mask (all the tables' entries): the
    /// compile-time tables against the ray walk.
    #[test]
    fn magic_attacks_match_ray_walking_on_every_relevant_occupancy() {
        for sq in Square::all() {
            for (rook, dirs) in [(true, &ROOK_DIRS), (false, &BISHOP_DIRS)] {
                let mask = relevant_mask_slow(dirs, sq);
                let mut subset = 0u64;
                loop {
                    let occ = Bitboard(subset);
                    let table = if rook { rook_attacks(sq, occ) } else { bishop_attacks(sq, occ) };
                    assert_eq!(table, sliding_attacks_slow(dirs, sq, occ), "{sq:?} {subset:#x}");
                    subset = subset.wrapping_sub(mask) & mask;
                    if subset == 0 {
                        break;
                    }
                }
            }
        }
    }

    #[test]
    fn between_and_line() {
        let (a1, h8) = (Square::A1, Square::H8);
        assert_eq!(between(a1, h8).count(), 6);
        assert_eq!(line(a1, h8).count(), 8);
        assert!(between(Square::A1, Square::B1).is_empty());
        assert!(line(Square::A1, Square::new(17)).is_empty()); // b3: knight-jump away
    }
}
