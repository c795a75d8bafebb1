//! Where can each piece ever go? A semi-static over-approximation of the squares every
//! piece of a position may stand on in any position reachable from it.
//!
//! The pieces are followed by identity (a pawn keeps its identity after promotion). The sets
//! are the least fixpoint of one-step rules evaluated against three facts derived from the
//! sets themselves:
//! - `clear[c]`: squares that can ever be free of colour `c` (free now, or the `c` piece there
//!   can leave or be captured) — a piece moves only onto a square free of its own colour;
//! - `capturable[c]`: squares where some non-king piece of colour `c` can ever stand — a pawn
//!   captures only there;
//! - permanent attacks: a piece that can never move nor be captured attacks the same squares
//!   for ever (a slider at least its adjacent ones), and a king never steps onto them.
//!
//! Soundness, by induction over any series of legal moves: every piece stands on a square of
//! its set. A move s→t by a piece on s: a king step lands on a square free of its colour (so
//! in `clear`) that no piece attacks (so not permanently attacked); a slide passes only empty
//! squares (so in `clear` of both colours) and is a chain of one-square steps; a pawn pushes to
//! an empty square and captures a non-king piece standing on `capturable`; castling adds the
//! two destinations directly. Each such step is closed in the fixpoint, so t is in the set. The
//! facts themselves hold because a square is freed only by a move out of it or a capture on it,
//! both of which the sets contain. Hence "t is not in the set" is a proof that the piece never
//! stands on t; a set may still contain squares the piece can never really reach.

use crate::chess::attacks::{
    between, bishop_attacks, king_attacks, knight_attacks, pawn_attacks, queen_attacks, rook_attacks,
};
use crate::chess::{Bitboard, CastleSide, Color, PieceType, Position, Rank, Square};

/// One piece of the analysed position and the squares it may ever stand on.
#[derive(Clone, Copy, Debug)]
pub struct Unit {
    pub square: Square,
    pub color: Color,
    pub kind: PieceType,
    /// Squares where it may stand as its own kind (a pawn: as a pawn).
    pub reach: Bitboard,
    /// A pawn's squares after promotion (as any piece); empty for other pieces.
    pub promoted: Bitboard,
}

impl Unit {
    /// Every square it may stand on, promoted or not.
    #[inline]
    pub fn anywhere(&self) -> Bitboard {
        self.reach | self.promoted
    }

    /// Never moves: only its own square, no promotion.
    #[inline]
    pub fn immobile(&self) -> bool {
        self.promoted.is_empty() && self.reach == Bitboard::from_square(self.square)
    }
}

/// The fixpoint for one position.
pub struct Reach {
    units: Vec<Unit>,
    /// Squares that can ever be free of pieces of each colour.
    clear: [Bitboard; 2],
    /// Squares that always hold some piece (never free of one colour or the other).
    never_empty: Bitboard,
    /// Squares attacked for ever by pieces that never move and are never captured.
    permanent_attacks: [Bitboard; 2],
    /// For each colour's king, squares of its set it can only step onto by a move that ends
    /// the game (see [`Reach::confinement`]): nothing moves on from there.
    dead_ends: [Bitboard; 2],
}

impl Reach {
    /// Computes the fixpoint for `pos`.
    pub fn new(pos: &Position) -> Reach {
        let mut units = Vec::with_capacity(32);
        for sq in pos.occupied() {
            if let Some(p) = pos.piece_at(sq) {
                let b = Bitboard::from_square(sq);
                units.push(Unit { square: sq, color: p.color, kind: p.kind, reach: b, promoted: Bitboard::EMPTY });
            }
        }
        // En passant now: the pawn that just advanced two squares may be taken on the square
        // it passed over (its set gains that square, so pawns may capture there).
        if let Some(ep) = pos.legal_ep_square() {
            let mover = pos.side_to_move().flip();
            if let Some(pawn_sq) = ep.offset(mover.forward()) {
                add_reach(&mut units, pawn_sq, ep);
            }
        }
        let mut r = Reach {
            units,
            clear: [Bitboard::EMPTY; 2],
            never_empty: Bitboard::EMPTY,
            permanent_attacks: [Bitboard::EMPTY; 2],
            dead_ends: [Bitboard::EMPTY; 2],
        };
        r.saturate(pos);
        r
    }

    fn saturate(&mut self, pos: &Position) {
        loop {
            self.derive(pos);
            // The facts just derived must hold for the final sets: a set grown by castling
            // means another round.
            let mut changed = self.castle(pos);
            let capturable = [self.capturable(Color::White), self.capturable(Color::Black)];
            let empty_ok = self.clear[0] & self.clear[1];
            let ceilings = self.ceilings();
            for (i, ceiling) in ceilings.iter().enumerate() {
                let u = self.units[i];
                let c = u.color.index();
                let own_clear = self.clear[c];
                let (reach, promoted) = match u.kind {
                    PieceType::King => {
                        let allowed = own_clear & !self.permanent_attacks[1 - c];
                        let dead = self.dead_ends[c];
                        (close(u.reach, allowed, |b| king_step(b & !dead)), Bitboard::EMPTY)
                    }
                    PieceType::Knight => (close(u.reach, own_clear, knight_step), Bitboard::EMPTY),
                    PieceType::Bishop => (close(u.reach, own_clear, diagonal_step), Bitboard::EMPTY),
                    PieceType::Rook => (close(u.reach, own_clear, orthogonal_step), Bitboard::EMPTY),
                    PieceType::Queen => (close(u.reach, own_clear, king_step), Bitboard::EMPTY),
                    PieceType::Pawn => {
                        let reach = close_pawn(u.reach, u.color, empty_ok & !*ceiling, own_clear & capturable[1 - c]);
                        let last = reach & Bitboard::rank(u.color.promotion_rank());
                        let promoted = if last.is_empty() {
                            u.promoted
                        } else {
                            close(u.promoted | last, own_clear, |b| king_step(b) | knight_step(b))
                        };
                        (reach, promoted)
                    }
                };
                if reach != u.reach || promoted != u.promoted {
                    changed = true;
                    self.units[i].reach = reach;
                    self.units[i].promoted = promoted;
                }
            }
            if !changed {
                return;
            }
        }
    }

    /// For each pawn, the squares of its file it can never push onto because an enemy pawn
    /// ahead of it on that file stays in its way: both pawns are confined to the file (they
    /// never capture) and the other is never captured, so their order on the file never
    /// changes and ours stays short of the square the other stands on now.
    fn ceilings(&self) -> Vec<Bitboard> {
        let mut threats = [Bitboard::EMPTY; 2]; // squares where each colour might capture
        for u in &self.units {
            threats[u.color.index()] |= match u.kind {
                PieceType::Pawn => u.reach.pawn_attacks(u.color) | u.promoted,
                _ => u.reach,
            };
        }
        let on_file = |u: &Unit| {
            u.kind == PieceType::Pawn
                && u.promoted.is_empty()
                && (u.reach & !Bitboard::file(u.square.file())).is_empty()
        };
        let safe = |u: &Unit| (u.reach & threats[1 - u.color.index()]).is_empty();
        self.units
            .iter()
            .map(|u| {
                let mut ceiling = Bitboard::EMPTY;
                if !on_file(u) {
                    return ceiling;
                }
                for e in self.units.iter().filter(|e| e.color != u.color && e.square.file() == u.square.file()) {
                    let ahead = match u.color {
                        Color::White => e.square.index() > u.square.index(),
                        Color::Black => e.square.index() < u.square.index(),
                    };
                    if ahead && on_file(e) && safe(e) {
                        ceiling |= beyond(e.square, u.color);
                    }
                }
                ceiling
            })
            .collect()
    }

    /// Recomputes the dead ends, `clear`, `never_empty` and the permanent attacks from the
    /// current sets.
    fn derive(&mut self, pos: &Position) {
        self.dead_ends = [Bitboard::EMPTY; 2];
        for color in Color::ALL {
            if let Some(dead) = self.confinement(pos, color) {
                self.dead_ends[color.flip().index()] = dead;
            }
        }
        // Where pieces stand in positions the game goes on from (a capture on a dead end
        // frees nothing: no move follows it).
        let mut anywhere = [Bitboard::EMPTY; 2];
        for u in &self.units {
            let dead = if u.kind == PieceType::King { self.dead_ends[u.color.index()] } else { Bitboard::EMPTY };
            anywhere[u.color.index()] |= u.anywhere() & !dead;
        }
        // A square is freed by its piece leaving or being taken there (never a king).
        self.clear = [!pos.color(Color::White), !pos.color(Color::Black)];
        for u in &self.units {
            let c = u.color.index();
            let taken = u.kind != PieceType::King && anywhere[1 - c].contains(u.square);
            if taken || !u.immobile() {
                self.clear[c] = self.clear[c].with(u.square);
            }
        }
        self.never_empty = !(self.clear[0] & self.clear[1]);
        let mut perm = [Bitboard::EMPTY; 2];
        for u in &self.units {
            let c = u.color.index();
            // A piece that never leaves its square and is never taken there attacks the same
            // squares for ever: all of them for a pawn, knight or king, the adjacent ones of
            // its lines for a bishop, rook or queen (nothing can come between).
            if u.immobile() && !self.clear[c].contains(u.square) {
                perm[c] |= match u.kind {
                    PieceType::Pawn => pawn_attacks(u.color, u.square),
                    PieceType::Knight => knight_attacks(u.square),
                    PieceType::King => king_attacks(u.square),
                    PieceType::Bishop => diagonal_step(Bitboard::from_square(u.square)),
                    PieceType::Rook => orthogonal_step(Bitboard::from_square(u.square)),
                    PieceType::Queen => king_step(Bitboard::from_square(u.square)),
                };
            }
        }
        self.permanent_attacks = perm;
    }

    /// A side all but stalemated for good: none of its pieces but the king ever moves, it
    /// cannot castle, and its king only ever stands on two squares A and B. Then the other
    /// king never steps next to A or B (not next to both: kings are never adjacent) without
    /// ending the game: with it next to A, the side's king stands on B and its one move, to
    /// A, is attacked: no legal move, mate or stalemate. So the other king goes no further
    /// from those squares (returned), unless it stands on one now (the game goes on from
    /// there). The argument uses the final sets, which the fixpoint re-derives every round;
    /// a side once free is never confined again (sets only grow), so the rule only ever
    /// lets more in.
    fn confinement(&self, pos: &Position, color: Color) -> Option<Bitboard> {
        if pos.castling_rights().has_any(color) {
            return None;
        }
        let mut king = None;
        for u in self.units.iter().filter(|u| u.color == color) {
            match u.kind {
                PieceType::King => king = Some(u.reach),
                _ if !u.immobile() => return None,
                _ => {}
            }
        }
        let squares = king?;
        if squares.count() > 2 {
            return None;
        }
        let dead = king_step(squares) & !squares;
        let other = pos.king_square(color.flip());
        (!dead.contains(other)).then_some(dead)
    }

    /// Castling moves the king and the rook in one move: once the squares between them can be
    /// empty, both gain their destination squares. Returns whether a set grew.
    ///
    /// Only the destinations are taken as fixed (they are the same in every castling variant);
    /// the rook is any rook of the colour on the king's rank, on the side of the right, so the
    /// rule holds whatever files the king and its rooks started on. Every square strictly
    /// between king and rook lies on the path of one of them, so it must be able to be empty.
    fn castle(&mut self, pos: &Position) -> bool {
        let empty_ok = self.clear[0] & self.clear[1];
        let mut grew = false;
        for color in Color::ALL {
            let king = pos.king_square(color);
            for side in CastleSide::BOTH {
                if !pos.castling_rights().has(color, side) {
                    continue;
                }
                let rooks = pos.pieces_of(color, PieceType::Rook) & Bitboard::rank(king.rank());
                for rook in rooks {
                    let on_its_side = match side {
                        CastleSide::King => rook.file() > king.file(),
                        CastleSide::Queen => rook.file() < king.file(),
                    };
                    if !on_its_side || (between(king, rook) & !empty_ok).nonempty() {
                        continue;
                    }
                    grew |= add_reach(&mut self.units, king, side.king_to(color));
                    grew |= add_reach(&mut self.units, rook, side.rook_to(color));
                }
            }
        }
        grew
    }

    /// Squares where some non-king piece of `color` may ever stand.
    fn capturable(&self, color: Color) -> Bitboard {
        self.units
            .iter()
            .filter(|u| u.color == color && u.kind != PieceType::King)
            .fold(Bitboard::EMPTY, |b, u| b | u.anywhere())
    }

    pub fn units(&self) -> &[Unit] {
        &self.units
    }

    /// The unit for the king of `color`.
    pub fn king(&self, color: Color) -> Option<&Unit> {
        self.units.iter().find(|u| u.color == color && u.kind == PieceType::King)
    }

    /// Squares the king of `color` steps onto only by a move that ends the game.
    pub fn dead_ends(&self, color: Color) -> Bitboard {
        self.dead_ends[color.index()]
    }

    /// Squares that always hold a piece.
    pub fn never_empty(&self) -> Bitboard {
        self.never_empty
    }

    /// Could `u` ever attack `target`? Lines may pass only squares that are sometimes empty;
    /// `transparent` squares count as empty (the square a king leaves). The king's own
    /// adjacency is included for a king unit.
    pub fn can_attack(&self, u: &Unit, target: Square, transparent: Bitboard) -> bool {
        let occ = self.never_empty & !transparent;
        let from = match u.kind {
            PieceType::Pawn => pawn_attacks(u.color.flip(), target),
            PieceType::Knight => knight_attacks(target),
            PieceType::Bishop => bishop_attacks(target, occ),
            PieceType::Rook => rook_attacks(target, occ),
            PieceType::Queen => queen_attacks(target, occ),
            PieceType::King => king_attacks(target),
        };
        (u.reach & from).nonempty()
            || (u.promoted.nonempty()
                && (u.promoted & (queen_attacks(target, occ) | knight_attacks(target))).nonempty())
    }
}

/// `sq` and the squares of its file beyond it, seen from a pawn of `color` advancing.
fn beyond(sq: Square, color: Color) -> Bitboard {
    let file = Bitboard::file(sq.file());
    let r = sq.index() as u32 / 8;
    match color {
        Color::White => Bitboard(file.0 & (!0u64 << (8 * r))),
        Color::Black => Bitboard(file.0 & (!0u64 >> (8 * (7 - r)))),
    }
}

/// Adds `to` to the set of the piece that started on `from`; whether the set grew.
fn add_reach(units: &mut [Unit], from: Square, to: Square) -> bool {
    match units.iter_mut().find(|u| u.square == from) {
        Some(u) if !u.reach.contains(to) => {
            u.reach = u.reach.with(to);
            true
        }
        _ => false,
    }
}

/// Grows `set` by `step` within `allowed` until nothing changes.
#[inline]
fn close(mut set: Bitboard, allowed: Bitboard, step: impl Fn(Bitboard) -> Bitboard) -> Bitboard {
    loop {
        let next = set | (step(set) & allowed);
        if next == set {
            return set;
        }
        set = next;
    }
}

/// A pawn's squares: pushes onto squares that can be empty (two from its start rank), captures
/// onto `targets`.
fn close_pawn(mut set: Bitboard, color: Color, empty_ok: Bitboard, targets: Bitboard) -> Bitboard {
    let start = Bitboard::rank(Rank::R2.relative(color));
    loop {
        let single = set.forward(color) & empty_ok;
        let double = ((set & start).forward(color) & empty_ok).forward(color) & empty_ok;
        let next = set | single | double | (set.pawn_attacks(color) & targets);
        if next == set {
            return set;
        }
        set = next;
    }
}

const NOT_A: u64 = !Bitboard::FILE_A.0;
const NOT_H: u64 = !Bitboard::FILE_H.0;
const NOT_AB: u64 = !(Bitboard::FILE_A.0 | (Bitboard::FILE_A.0 << 1));
const NOT_GH: u64 = !(Bitboard::FILE_H.0 | (Bitboard::FILE_H.0 >> 1));

#[inline]
fn orthogonal_step(b: Bitboard) -> Bitboard {
    let x = b.0;
    Bitboard((x << 8) | (x >> 8) | ((x & NOT_H) << 1) | ((x & NOT_A) >> 1))
}

#[inline]
fn diagonal_step(b: Bitboard) -> Bitboard {
    let x = b.0;
    Bitboard(((x & NOT_H) << 9) | ((x & NOT_A) << 7) | ((x & NOT_H) >> 7) | ((x & NOT_A) >> 9))
}

#[inline]
pub(super) fn king_step(b: Bitboard) -> Bitboard {
    orthogonal_step(b) | diagonal_step(b)
}

#[inline]
fn knight_step(b: Bitboard) -> Bitboard {
    let x = b.0;
    let one = ((x & NOT_H) << 1) | ((x & NOT_A) >> 1);
    let two = ((x & NOT_GH) << 2) | ((x & NOT_AB) >> 2);
    Bitboard((one << 16) | (one >> 16) | (two << 8) | (two >> 8))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::attacks;

    fn sq(s: &str) -> Square {
        Square::parse(s).expect("test square")
    }

    fn reach_of(fen: &str, at: &str) -> Bitboard {
        attacks::init();
        let pos = Position::from_fen(fen).expect("test FEN");
        let r = Reach::new(&pos);
        r.units().iter().find(|u| u.square == sq(at)).map(|u| u.anywhere()).expect("a piece there")
    }

    #[test]
    fn steps_match_the_attack_tables() {
        attacks::init();
        for s in Square::all() {
            let b = Bitboard::from_square(s);
            assert_eq!(knight_step(b), knight_attacks(s));
            assert_eq!(king_step(b), king_attacks(s));
            assert_eq!(diagonal_step(b), bishop_attacks(s, Bitboard::FULL));
            assert_eq!(orthogonal_step(b), rook_attacks(s, Bitboard::FULL));
        }
    }

    #[test]
    fn a_free_piece_reaches_everything_it_can() {
        let fen = "4k3/8/8/8/8/8/8/4K2B w - - 0 1";
        assert_eq!(reach_of(fen, "e1"), Bitboard::FULL);
        assert_eq!(reach_of(fen, "h1"), Bitboard::LIGHT_SQUARES);
    }

    #[test]
    fn a_closed_wall_keeps_kings_on_their_sides() {
        let fen = "8/8/3k4/p1p1p1p1/P1P1P1P1/3K4/8/8 w - - 0 1";
        let white_king = reach_of(fen, "d3");
        assert!(!white_king.contains(sq("d6")));
        assert!(white_king.contains(sq("a1")));
        // The pawns never move.
        assert_eq!(reach_of(fen, "a4"), Bitboard::from_square(sq("a4")));
        assert_eq!(reach_of(fen, "g5"), Bitboard::from_square(sq("g5")));
    }

    #[test]
    fn a_king_next_to_a_stalemated_one_ends_the_game() {
        // White's king only ever stands on h3 or h4, nothing else of White's moves: Black's king
        // stepping next to either ends the game, so it never takes g2 or h5 and goes no further.
        attacks::init();
        let pos = Position::from_fen("8/b1b5/k6p/2b2p1P/1b3p2/5PpK/6P1/8 w - - 0 1").expect("test FEN");
        let r = Reach::new(&pos);
        let white_king = r.king(Color::White).expect("king").reach;
        assert_eq!(white_king, Bitboard::from_square(sq("h3")).with(sq("h4")));
        assert_eq!(r.dead_ends(Color::Black), king_step(white_king) & !white_king);
        assert_eq!(r.dead_ends(Color::White), Bitboard::EMPTY);
        for pawn in ["f3", "g2", "h5"] {
            assert_eq!(reach_of("8/b1b5/k6p/2b2p1P/1b3p2/5PpK/6P1/8 w - - 0 1", pawn), Bitboard::from_square(sq(pawn)));
        }
    }

    #[test]
    fn a_pawn_that_can_promote_goes_anywhere() {
        let fen = "4k3/8/8/8/8/8/P7/4K3 w - - 0 1";
        assert_eq!(reach_of(fen, "a2"), Bitboard::FULL);
    }

    #[test]
    fn a_pawn_captures_only_where_enemies_can_be() {
        // A closed wall; Black's dark-squared bishop can never stand where a white pawn
        // captures (b5, d5, f5, h5 are light), so every pawn stays put.
        let fen = "8/8/3k4/p1p1p1p1/P1P1P1P1/3K4/8/b7 w - - 0 1";
        assert_eq!(reach_of(fen, "e4"), Bitboard::from_square(sq("e4")));
        assert_eq!(reach_of(fen, "e5"), Bitboard::from_square(sq("e5")));
        // Without the wall's help a king walks up and takes a pawn: then nothing is frozen.
        let open = "4k2b/8/8/4p3/4P3/8/8/4K3 w - - 0 1";
        assert!(reach_of(open, "e4").contains(sq("e5")));
    }
}
