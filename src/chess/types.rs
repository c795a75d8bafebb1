//! Tiny value types of the board: colours, pieces, squares, moves, castling rights.

use std::fmt;
use std::num::NonZeroU16;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Color {
    White = 0,
    Black = 1,
}

impl Color {
    pub const ALL: [Color; 2] = [Color::White, Color::Black];

    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }

    #[inline(always)]
    pub const fn flip(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }

    /// +1 for White, -1 for Black: turns a score from this side's view into White's and back.
    #[inline(always)]
    pub const fn sign(self) -> i32 {
        match self {
            Color::White => 1,
            Color::Black => -1,
        }
    }

    /// The rank pawns of this colour start on.
    pub const fn pawn_start_rank(self) -> Rank {
        match self {
            Color::White => Rank::R2,
            Color::Black => Rank::R7,
        }
    }

    /// The rank this colour's pawns promote on.
    pub const fn promotion_rank(self) -> Rank {
        match self {
            Color::White => Rank::R8,
            Color::Black => Rank::R1,
        }
    }

    /// The rank of this colour's king and rooks in the initial position.
    pub const fn back_rank(self) -> Rank {
        match self {
            Color::White => Rank::R1,
            Color::Black => Rank::R8,
        }
    }

    /// +8 for White (pawns go up the board), -8 for Black.
    pub const fn forward(self) -> i8 {
        match self {
            Color::White => 8,
            Color::Black => -8,
        }
    }

    pub const fn name(self) -> &'static str {
        match self {
            Color::White => "white",
            Color::Black => "black",
        }
    }
}

impl std::ops::Not for Color {
    type Output = Color;
    #[inline(always)]
    fn not(self) -> Color {
        self.flip()
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum PieceType {
    Pawn = 0,
    Knight = 1,
    Bishop = 2,
    Rook = 3,
    Queen = 4,
    King = 5,
}

impl PieceType {
    pub const ALL: [PieceType; 6] =
        [PieceType::Pawn, PieceType::Knight, PieceType::Bishop, PieceType::Rook, PieceType::Queen, PieceType::King];
    /// The pieces a pawn may promote to (FIDE 3.7.3.3), strongest first.
    pub const PROMOTIONS: [PieceType; 4] = [PieceType::Queen, PieceType::Rook, PieceType::Bishop, PieceType::Knight];

    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }

    #[inline(always)]
    pub const fn from_index(i: usize) -> PieceType {
        match i {
            0 => PieceType::Pawn,
            1 => PieceType::Knight,
            2 => PieceType::Bishop,
            3 => PieceType::Rook,
            4 => PieceType::Queen,
            _ => PieceType::King,
        }
    }

    /// Lower-case letter as in FEN and UCI promotion suffixes.
    pub const fn char(self) -> char {
        match self {
            PieceType::Pawn => 'p',
            PieceType::Knight => 'n',
            PieceType::Bishop => 'b',
            PieceType::Rook => 'r',
            PieceType::Queen => 'q',
            PieceType::King => 'k',
        }
    }

    /// Upper-case SAN letter (pawns have none in SAN but `P` is used in FEN).
    pub const fn san_char(self) -> char {
        self.char().to_ascii_uppercase()
    }

    pub fn from_char(c: char) -> Option<PieceType> {
        match c.to_ascii_lowercase() {
            'p' => Some(PieceType::Pawn),
            'n' => Some(PieceType::Knight),
            'b' => Some(PieceType::Bishop),
            'r' => Some(PieceType::Rook),
            'q' => Some(PieceType::Queen),
            'k' => Some(PieceType::King),
            _ => None,
        }
    }

    pub const fn name(self) -> &'static str {
        match self {
            PieceType::Pawn => "pawn",
            PieceType::Knight => "knight",
            PieceType::Bishop => "bishop",
            PieceType::Rook => "rook",
            PieceType::Queen => "queen",
            PieceType::King => "king",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Piece {
    pub color: Color,
    pub kind: PieceType,
}

impl Piece {
    #[inline(always)]
    pub const fn new(color: Color, kind: PieceType) -> Piece {
        Piece { color, kind }
    }

    /// Index 0..12 for tables: colour-major.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self.color.index() * 6 + self.kind.index()
    }

    /// FEN letter: upper case for White.
    pub const fn fen_char(self) -> char {
        match self.color {
            Color::White => self.kind.char().to_ascii_uppercase(),
            Color::Black => self.kind.char(),
        }
    }

    pub fn from_fen_char(c: char) -> Option<Piece> {
        let kind = PieceType::from_char(c)?;
        let color = if c.is_ascii_uppercase() { Color::White } else { Color::Black };
        Some(Piece::new(color, kind))
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum File {
    A = 0,
    B,
    C,
    D,
    E,
    F,
    G,
    H,
}

impl File {
    pub const ALL: [File; 8] = [File::A, File::B, File::C, File::D, File::E, File::F, File::G, File::H];
    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }
    #[inline(always)]
    pub const fn from_index(i: usize) -> File {
        File::ALL[i & 7]
    }
    pub const fn char(self) -> char {
        (b'a' + self as u8) as char
    }
    pub fn from_char(c: char) -> Option<File> {
        match c {
            'a'..='h' => Some(File::from_index(c as usize - 'a' as usize)),
            _ => None,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Rank {
    R1 = 0,
    R2,
    R3,
    R4,
    R5,
    R6,
    R7,
    R8,
}

impl Rank {
    pub const ALL: [Rank; 8] = [Rank::R1, Rank::R2, Rank::R3, Rank::R4, Rank::R5, Rank::R6, Rank::R7, Rank::R8];
    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }
    #[inline(always)]
    pub const fn from_index(i: usize) -> Rank {
        Rank::ALL[i & 7]
    }
    pub const fn char(self) -> char {
        (b'1' + self as u8) as char
    }
    pub fn from_char(c: char) -> Option<Rank> {
        match c {
            '1'..='8' => Some(Rank::from_index(c as usize - '1' as usize)),
            _ => None,
        }
    }
    /// The rank as seen from `color`'s side (rank 2 for White is rank 7 for Black).
    #[inline(always)]
    pub const fn relative(self, color: Color) -> Rank {
        match color {
            Color::White => self,
            Color::Black => Rank::from_index(7 - self as usize),
        }
    }
}

/// A square, 0 = a1 .. 63 = h8 (little-endian rank-file mapping).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

impl Square {
    pub const A1: Square = Square(0);
    pub const B1: Square = Square(1);
    pub const C1: Square = Square(2);
    pub const D1: Square = Square(3);
    pub const E1: Square = Square(4);
    pub const F1: Square = Square(5);
    pub const G1: Square = Square(6);
    pub const H1: Square = Square(7);
    pub const A8: Square = Square(56);
    pub const B8: Square = Square(57);
    pub const C8: Square = Square(58);
    pub const D8: Square = Square(59);
    pub const E8: Square = Square(60);
    pub const F8: Square = Square(61);
    pub const G8: Square = Square(62);
    pub const H8: Square = Square(63);

    /// Panics (in debug) on an index over 63; callers pass board indices only.
    #[inline(always)]
    pub const fn new(index: u8) -> Square {
        debug_assert!(index < 64);
        Square(index & 63)
    }

    #[inline(always)]
    pub const fn from_coords(file: File, rank: Rank) -> Square {
        Square(rank as u8 * 8 + file as u8)
    }

    #[inline(always)]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    #[inline(always)]
    pub const fn file(self) -> File {
        File::from_index((self.0 & 7) as usize)
    }

    #[inline(always)]
    pub const fn rank(self) -> Rank {
        Rank::from_index((self.0 >> 3) as usize)
    }

    /// The square `delta` steps away in index space, or None when off the board.
    /// (Only meaningful for vertical deltas; horizontal wrap is the caller's concern.)
    #[inline(always)]
    pub const fn offset(self, delta: i8) -> Option<Square> {
        let i = self.0 as i16 + delta as i16;
        if i >= 0 && i < 64 {
            Some(Square(i as u8))
        } else {
            None
        }
    }

    /// Mirror vertically (a1 <-> a8): the square as seen from Black's side.
    #[inline(always)]
    const fn flip_rank(self) -> Square {
        Square(self.0 ^ 56)
    }

    #[inline(always)]
    pub const fn relative(self, color: Color) -> Square {
        match color {
            Color::White => self,
            Color::Black => self.flip_rank(),
        }
    }

    /// True for the light squares (h1 is light, FIDE 2.1).
    pub const fn is_light(self) -> bool {
        (self.file() as u8 + self.rank() as u8) % 2 == 1
    }

    /// King moves from `self` to `other` on an empty board (the larger of the file and rank steps).
    #[inline(always)]
    pub fn distance(self, other: Square) -> i32 {
        KING_DISTANCE[self.0 as usize][other.0 as usize] as i32
    }

    /// File steps plus rank steps.
    pub const fn manhattan_distance(self, other: Square) -> i32 {
        let (files, ranks) = file_rank_steps(self, other);
        files + ranks
    }

    pub fn all() -> impl Iterator<Item = Square> {
        (0u8..64).map(Square)
    }

    /// Parses "e4".
    pub fn parse(s: &str) -> Option<Square> {
        let mut chars = s.chars();
        let f = File::from_char(chars.next()?)?;
        let r = Rank::from_char(chars.next()?)?;
        if chars.next().is_some() {
            return None;
        }
        Some(Square::from_coords(f, r))
    }
}

const fn file_rank_steps(a: Square, b: Square) -> (i32, i32) {
    let (a, b) = (a.0 as i32, b.0 as i32);
    ((a % 8 - b % 8).abs(), (a / 8 - b / 8).abs())
}

/// [`Square::distance`] by table: the helpmate search's move ordering asks for it for every king move.
static KING_DISTANCE: [[u8; 64]; 64] = {
    let mut t = [[0; 64]; 64];
    let mut a = 0;
    while a < 64 {
        let mut b = 0;
        while b < 64 {
            let (files, ranks) = file_rank_steps(Square(a), Square(b));
            t[a as usize][b as usize] = if files > ranks { files } else { ranks } as u8;
            b += 1;
        }
        a += 1;
    }
    t
};

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.file().char(), self.rank().char())
    }
}

/// What kind of move a [`Move`] is; stored in its top four bits.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum MoveKind {
    Quiet = 0,
    DoublePush = 1,
    CastleKing = 2,
    CastleQueen = 3,
    Capture = 4,
    EnPassant = 5,
    PromoKnight = 8,
    PromoBishop = 9,
    PromoRook = 10,
    PromoQueen = 11,
    PromoCaptureKnight = 12,
    PromoCaptureBishop = 13,
    PromoCaptureRook = 14,
    PromoCaptureQueen = 15,
}

impl MoveKind {
    #[inline(always)]
    const fn from_bits(b: u16) -> MoveKind {
        match b {
            0 => MoveKind::Quiet,
            1 => MoveKind::DoublePush,
            2 => MoveKind::CastleKing,
            3 => MoveKind::CastleQueen,
            4 => MoveKind::Capture,
            5 => MoveKind::EnPassant,
            8 => MoveKind::PromoKnight,
            9 => MoveKind::PromoBishop,
            10 => MoveKind::PromoRook,
            11 => MoveKind::PromoQueen,
            12 => MoveKind::PromoCaptureKnight,
            13 => MoveKind::PromoCaptureBishop,
            14 => MoveKind::PromoCaptureRook,
            // 6, 7 are never constructed; 15 is the queen promotion-capture.
            _ => MoveKind::PromoCaptureQueen,
        }
    }

    pub const fn promotion(piece: PieceType, capture: bool) -> MoveKind {
        let base = match piece {
            PieceType::Knight => 8,
            PieceType::Bishop => 9,
            PieceType::Rook => 10,
            _ => 11,
        };
        MoveKind::from_bits(base + if capture { 4 } else { 0 })
    }
}

/// A move in 16 bits: from (6), to (6), kind (4). Never zero, so `Option<Move>` is
/// also 16 bits. Castling is stored as UCI writes it: the king's move (e1g1) in standard
/// chess, "king takes own rook" (e1h1) in Chess960 (the position decides, see
/// `Position::castling_move`); the kind says which side.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Move(NonZeroU16);

impl Move {
    #[inline(always)]
    pub const fn new(from: Square, to: Square, kind: MoveKind) -> Move {
        let bits = from.0 as u16 | (to.0 as u16) << 6 | (kind as u16) << 12;
        // from == to only for a "null" encoding we never produce; a1a1 quiet is
        // the only zero value and is mapped to a non-zero sentinel bit pattern.
        match NonZeroU16::new(bits) {
            Some(nz) => Move(nz),
            None => Move(NonZeroU16::MIN),
        }
    }

    #[inline(always)]
    pub const fn from(self) -> Square {
        Square((self.0.get() & 63) as u8)
    }

    #[inline(always)]
    pub const fn to(self) -> Square {
        Square(((self.0.get() >> 6) & 63) as u8)
    }

    #[inline(always)]
    pub const fn kind(self) -> MoveKind {
        MoveKind::from_bits(self.0.get() >> 12)
    }

    #[inline(always)]
    pub const fn raw(self) -> u16 {
        self.0.get()
    }

    /// A move from its 16 bits; None for zero and for the two unused kind codes (6, 7).
    pub const fn from_raw(raw: u16) -> Option<Move> {
        if matches!(raw >> 12, 6 | 7) {
            return None;
        }
        match NonZeroU16::new(raw) {
            Some(nz) => Some(Move(nz)),
            None => None,
        }
    }

    #[inline(always)]
    pub const fn is_capture(self) -> bool {
        self.0.get() >> 12 & 4 != 0
    }

    #[inline(always)]
    pub const fn is_promotion(self) -> bool {
        self.0.get() >> 12 & 8 != 0
    }

    #[inline(always)]
    pub const fn is_castling(self) -> bool {
        // Kinds 2 and 3 (a bit test: cheaper than decoding the kind, in hot loops).
        self.0.get() >> 13 == MoveKind::CastleKing as u16 >> 1
    }

    /// The side of a castling move.
    #[inline(always)]
    pub const fn castle_side(self) -> Option<CastleSide> {
        match self.kind() {
            MoveKind::CastleKing => Some(CastleSide::King),
            MoveKind::CastleQueen => Some(CastleSide::Queen),
            _ => None,
        }
    }

    #[inline(always)]
    pub const fn is_en_passant(self) -> bool {
        self.0.get() >> 12 == MoveKind::EnPassant as u16
    }

    /// Captures and promotions: the moves quiescence search looks at.
    #[inline(always)]
    pub const fn is_tactical(self) -> bool {
        self.0.get() >> 12 & 12 != 0
    }

    #[inline]
    pub const fn promotion(self) -> Option<PieceType> {
        if !self.is_promotion() {
            return None;
        }
        Some(match (self.0.get() >> 12) & 3 {
            0 => PieceType::Knight,
            1 => PieceType::Bishop,
            2 => PieceType::Rook,
            _ => PieceType::Queen,
        })
    }

    /// Long algebraic as UCI writes it: `e2e4`, `e7e8q`, `e1g1` (`e1h1` in Chess960).
    pub fn to_uci(self) -> String {
        self.to_string()
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.from(), self.to())?;
        if let Some(p) = self.promotion() {
            write!(f, "{}", p.char())?;
        }
        Ok(())
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}({:?})", self, self.kind())
    }
}

/// Castling rights as four bits: white king side, white queen side, black king side, black queen side.
/// Which rook each right belongs to (any file in Chess960) is kept by the position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct CastlingRights(u8);

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum CastleSide {
    King = 0,
    Queen = 1,
}

impl CastleSide {
    pub const BOTH: [CastleSide; 2] = [CastleSide::King, CastleSide::Queen];

    /// Where the king ends up (g- or c-file, in Chess960 too).
    pub const fn king_to(self, color: Color) -> Square {
        let file = match self {
            CastleSide::King => File::G,
            CastleSide::Queen => File::C,
        };
        Square::from_coords(file, color.back_rank())
    }
    /// The rook's square before castling in standard chess (Chess960 positions know
    /// their own: `Position::castling_rook`).
    pub const fn rook_from(self, color: Color) -> Square {
        let file = match self {
            CastleSide::King => File::H,
            CastleSide::Queen => File::A,
        };
        Square::from_coords(file, color.back_rank())
    }
    /// Where the rook ends up (f- or d-file, in Chess960 too).
    pub const fn rook_to(self, color: Color) -> Square {
        let file = match self {
            CastleSide::King => File::F,
            CastleSide::Queen => File::D,
        };
        Square::from_coords(file, color.back_rank())
    }
    /// The king's initial square in standard chess.
    pub const fn king_from(color: Color) -> Square {
        Square::from_coords(File::E, color.back_rank())
    }
    /// The side a rook on `rook` castles to with the king on `king`: toward the h-file when
    /// it stands right of the king.
    pub const fn of_rook(king: Square, rook: Square) -> CastleSide {
        if rook.0 > king.0 {
            CastleSide::King
        } else {
            CastleSide::Queen
        }
    }
    /// The move kind that castles on this side.
    pub const fn move_kind(self) -> MoveKind {
        match self {
            CastleSide::King => MoveKind::CastleKing,
            CastleSide::Queen => MoveKind::CastleQueen,
        }
    }
}

impl CastlingRights {
    pub const NONE: CastlingRights = CastlingRights(0);
    pub const ALL: CastlingRights = CastlingRights(15);

    /// 0..4: white king side, white queen side, black king side, black queen side.
    #[inline(always)]
    pub const fn index(color: Color, side: CastleSide) -> usize {
        color as usize * 2 + side as usize
    }
    #[inline(always)]
    const fn bit(color: Color, side: CastleSide) -> u8 {
        1 << Self::index(color, side)
    }
    #[inline(always)]
    pub const fn has(self, color: Color, side: CastleSide) -> bool {
        self.0 & Self::bit(color, side) != 0
    }
    #[inline(always)]
    pub const fn has_any(self, color: Color) -> bool {
        self.0 & (3 << (color as u8 * 2)) != 0
    }
    #[inline(always)]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }
    pub fn add(&mut self, color: Color, side: CastleSide) {
        self.0 |= Self::bit(color, side);
    }
    pub fn remove(&mut self, color: Color, side: CastleSide) {
        self.0 &= !Self::bit(color, side);
    }
    #[inline(always)]
    pub const fn bits(self) -> u8 {
        self.0
    }
    #[inline(always)]
    pub const fn from_bits(bits: u8) -> CastlingRights {
        CastlingRights(bits & 15)
    }
    /// The rights held, as (colour, side), white first, king side first.
    pub fn iter(self) -> impl Iterator<Item = (Color, CastleSide)> {
        Color::ALL
            .into_iter()
            .flat_map(|c| CastleSide::BOTH.into_iter().map(move |s| (c, s)))
            .filter(move |&(c, s)| self.has(c, s))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn move_round_trips_its_fields() {
        let m = Move::new(Square::parse("e7").unwrap(), Square::parse("d8").unwrap(), MoveKind::PromoCaptureKnight);
        assert_eq!(m.to_string(), "e7d8n");
        assert!(m.is_capture() && m.is_promotion());
        assert_eq!(std::mem::size_of::<Option<Move>>(), 2);
    }

    #[test]
    fn square_distances() {
        for a in Square::all() {
            for b in Square::all() {
                let files = (a.file() as i32 - b.file() as i32).abs();
                let ranks = (a.rank() as i32 - b.rank() as i32).abs();
                assert_eq!(a.distance(b), files.max(ranks), "{a} {b}");
                assert_eq!(a.manhattan_distance(b), files + ranks, "{a} {b}");
            }
        }
        assert_eq!(Square::A1.distance(Square::H8), 7);
        assert_eq!(Square::A1.manhattan_distance(Square::H8), 14);
    }

    #[test]
    fn square_colours() {
        assert!(Square::H1.is_light());
        assert!(!Square::A1.is_light());
    }
}
