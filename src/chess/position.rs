//! The position: piece placement (bitboards plus a mailbox), side to move, castling
//! rights, en-passant square, move counters, an incrementally updated Zobrist key,
//! and the attack queries (checkers, pins, attacked squares) every other part uses.
//!
//! Moves are applied by copy-make: `make_move` returns a new `Position` and leaves
//! `self` untouched, so "unmake" is dropping the copy. The struct is ~200 bytes; with
//! checkers and pins computed once per node this was the simplest design that
//! met the perft bar (see README, Performance).

use super::attacks;
use super::bitboard::Bitboard;
use super::types::{CastleSide, CastlingRights, Color, File, Move, MoveKind, Piece, PieceType, Rank, Square};
use super::zobrist;

const STANDARD_CASTLING_ROOKS: [Square; 4] = [Square::H1, Square::A1, Square::H8, Square::A8];

#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Position {
    by_type: [Bitboard; 6],
    by_color: [Bitboard; 2],
    board: [Option<Piece>; 64],
    side: Color,
    castling: CastlingRights,
    /// The rook each castling right belongs to (`CastlingRights::index` order); for a
    /// right not held, its standard square (so equal positions compare equal).
    castling_rooks: [Square; 4],
    /// The kings and castling rooks of the rights held: a move from or to one of these
    /// squares may remove rights (3.8.2.1). One test per move in `make_move`.
    castling_touch: Bitboard,
    /// Castling moves are encoded and written "king takes own rook" (UCI's Chess960
    /// convention) instead of as the king's two-square move.
    chess960: bool,
    /// The FEN castling field is written with rook files (Shredder-FEN `HAha`) rather than
    /// X-FEN (`KQkq`, a file letter only for an inner rook): the notation it was read in.
    shredder_fen: bool,
    /// The square a pawn just passed over with a double step, as FEN records it
    /// (whether or not a capture there is possible).
    ep_square: Option<Square>,
    /// True when an en-passant capture onto `ep_square` is legal: only then is the
    /// e.p. file part of the key (FIDE 9.2.3: positions are the same when the possible
    /// moves are the same).
    ep_capturable: bool,
    halfmove_clock: u16,
    fullmove_number: u16,
    key: u64,
    pawn_key: u64,
    /// Enemy pieces giving check to the side to move.
    checkers: Bitboard,
    /// Pieces of the side to move pinned to their own king.
    pinned: Bitboard,
}

impl Position {
    /// An empty board with White to move; used by the FEN parser as a starting point.
    pub(crate) fn empty() -> Position {
        Position {
            by_type: [Bitboard::EMPTY; 6],
            by_color: [Bitboard::EMPTY; 2],
            board: [None; 64],
            side: Color::White,
            castling: CastlingRights::NONE,
            castling_rooks: STANDARD_CASTLING_ROOKS,
            castling_touch: Bitboard::EMPTY,
            chess960: false,
            shredder_fen: false,
            ep_square: None,
            ep_capturable: false,
            halfmove_clock: 0,
            fullmove_number: 1,
            key: 0,
            pawn_key: 0,
            checkers: Bitboard::EMPTY,
            pinned: Bitboard::EMPTY,
        }
    }

    // ---- raw placement (used by FEN parsing and make_move) ----

    #[inline(always)]
    pub(crate) fn put_piece(&mut self, p: Piece, sq: Square) {
        let b = Bitboard::from_square(sq);
        self.by_type[p.kind.index()] |= b;
        self.by_color[p.color.index()] |= b;
        self.board[sq.index()] = Some(p);
    }

    #[inline(always)]
    fn remove_piece(&mut self, p: Piece, sq: Square) {
        let b = Bitboard::from_square(sq);
        self.by_type[p.kind.index()] ^= b;
        self.by_color[p.color.index()] ^= b;
        self.board[sq.index()] = None;
    }

    #[inline(always)]
    fn move_piece(&mut self, p: Piece, from: Square, to: Square) {
        let b = Bitboard::from_square(from) | Bitboard::from_square(to);
        self.by_type[p.kind.index()] ^= b;
        self.by_color[p.color.index()] ^= b;
        self.board[from.index()] = None;
        self.board[to.index()] = Some(p);
    }

    pub(crate) fn set_side(&mut self, c: Color) {
        self.side = c;
    }
    /// Grants the castling right of `color` with the rook on `rook` (the side follows from
    /// where the rook stands relative to the king, which must be on the same rank).
    pub(crate) fn add_castling_right(&mut self, color: Color, rook: Square) {
        let side = CastleSide::of_rook(self.king_square(color), rook);
        self.castling.add(color, side);
        self.castling_rooks[CastlingRights::index(color, side)] = rook;
        self.castling_touch = self.compute_castling_touch();
    }
    pub(crate) fn set_shredder_fen(&mut self, shredder: bool) {
        self.shredder_fen = shredder;
    }
    pub(crate) fn set_ep_square(&mut self, sq: Option<Square>) {
        self.ep_square = sq;
    }
    pub(crate) fn set_clocks(&mut self, halfmove: u16, fullmove: u16) {
        self.halfmove_clock = halfmove;
        self.fullmove_number = fullmove;
    }

    /// Recomputes all derived state (checkers, pins, e.p. legality, keys) from the placement.
    pub(crate) fn refresh(&mut self) {
        self.update_check_info();
        self.ep_capturable = self.compute_ep_capturable();
        self.key = self.compute_key();
        self.pawn_key = self.compute_pawn_key();
    }

    // ---- queries ----

    #[inline(always)]
    pub fn side_to_move(&self) -> Color {
        self.side
    }
    #[inline(always)]
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        self.board[sq.index()]
    }
    #[inline(always)]
    pub fn pieces(&self, pt: PieceType) -> Bitboard {
        self.by_type[pt.index()]
    }
    #[inline(always)]
    pub fn color(&self, c: Color) -> Bitboard {
        self.by_color[c.index()]
    }
    #[inline(always)]
    pub fn pieces_of(&self, c: Color, pt: PieceType) -> Bitboard {
        self.by_type[pt.index()] & self.by_color[c.index()]
    }
    #[inline(always)]
    pub fn occupied(&self) -> Bitboard {
        self.by_color[0] | self.by_color[1]
    }
    #[inline(always)]
    pub fn king_square(&self, c: Color) -> Square {
        self.pieces_of(c, PieceType::King).lsb_unchecked()
    }
    #[inline(always)]
    pub fn castling_rights(&self) -> CastlingRights {
        self.castling
    }
    /// The square of the rook `color` may castle with on `side`, while that right is held.
    #[inline(always)]
    pub fn castling_rook(&self, color: Color, side: CastleSide) -> Option<Square> {
        if self.castling.has(color, side) {
            Some(self.castling_rooks[CastlingRights::index(color, side)])
        } else {
            None
        }
    }
    /// The castling move of `color` on `side` as this position encodes it: the king's
    /// move to the g- or c-file, or in Chess960 mode the king "taking" its own rook.
    /// Meaningful only while that right is held.
    #[inline]
    pub fn castling_move(&self, color: Color, side: CastleSide) -> Move {
        let to =
            if self.chess960 { self.castling_rooks[CastlingRights::index(color, side)] } else { side.king_to(color) };
        Move::new(self.king_square(color), to, side.move_kind())
    }
    /// Chess960 mode: castling moves are encoded and written as king takes own rook
    /// (`e1h1`), as UCI does when `UCI_Chess960` is on.
    #[inline(always)]
    pub fn is_chess960(&self) -> bool {
        self.chess960
    }
    /// Switches the castling move convention (before generating moves of this position:
    /// moves generated earlier keep the old encoding).
    pub fn set_chess960(&mut self, on: bool) {
        self.chess960 = on;
    }
    /// True when every castling right held is a standard one: king on the e-file, rook on
    /// the a- or h-file. (A FEN with any other castling right can only be Chess960.)
    pub fn castling_is_standard(&self) -> bool {
        self.castling.iter().all(|(c, side)| {
            self.king_square(c) == CastleSide::king_from(c)
                && self.castling_rooks[CastlingRights::index(c, side)] == side.rook_from(c)
        })
    }
    /// Whether the FEN castling field is written as Shredder-FEN (rook files).
    pub fn writes_shredder_fen(&self) -> bool {
        self.shredder_fen
    }
    /// The e.p. square as FEN records it (set after every double push).
    #[inline(always)]
    pub fn ep_square(&self) -> Option<Square> {
        self.ep_square
    }
    /// The e.p. square only if an en-passant capture onto it is legal now.
    #[inline(always)]
    pub fn legal_ep_square(&self) -> Option<Square> {
        if self.ep_capturable {
            self.ep_square
        } else {
            None
        }
    }
    #[inline(always)]
    pub fn halfmove_clock(&self) -> u16 {
        self.halfmove_clock
    }
    #[inline(always)]
    pub fn fullmove_number(&self) -> u16 {
        self.fullmove_number
    }
    /// Zobrist key: equal keys mean the same position in the sense of FIDE 9.2.3.
    #[inline(always)]
    pub fn key(&self) -> u64 {
        self.key
    }
    /// Key of the pawn structure (both colours), for a pawn evaluation cache.
    #[inline(always)]
    pub fn pawn_key(&self) -> u64 {
        self.pawn_key
    }
    #[inline(always)]
    pub fn checkers(&self) -> Bitboard {
        self.checkers
    }
    #[inline(always)]
    pub fn in_check(&self) -> bool {
        self.checkers.nonempty()
    }
    /// Pieces of the side to move that are pinned to their king.
    #[inline(always)]
    pub fn pinned(&self) -> Bitboard {
        self.pinned
    }

    /// All pieces of both colours attacking `sq` given occupancy `occ`. An attack counts
    /// even if the attacker is pinned (FIDE 3.1.3 / 3.9).
    #[inline]
    pub fn attackers_to(&self, sq: Square, occ: Bitboard) -> Bitboard {
        (attacks::pawn_attacks(Color::White, sq) & self.pieces_of(Color::Black, PieceType::Pawn))
            | (attacks::pawn_attacks(Color::Black, sq) & self.pieces_of(Color::White, PieceType::Pawn))
            | (attacks::knight_attacks(sq) & self.pieces(PieceType::Knight))
            | (attacks::bishop_attacks(sq, occ) & (self.pieces(PieceType::Bishop) | self.pieces(PieceType::Queen)))
            | (attacks::rook_attacks(sq, occ) & (self.pieces(PieceType::Rook) | self.pieces(PieceType::Queen)))
            | (attacks::king_attacks(sq) & self.pieces(PieceType::King))
    }

    /// Pieces of colour `by` attacking `sq` with the current occupancy.
    #[inline]
    pub fn attackers_by(&self, sq: Square, by: Color) -> Bitboard {
        self.attackers_to(sq, self.occupied()) & self.color(by)
    }

    /// Is `sq` attacked by colour `by`, given occupancy `occ`?
    #[inline]
    pub fn is_square_attacked_with(&self, sq: Square, by: Color, occ: Bitboard) -> bool {
        let them = self.color(by);
        (attacks::pawn_attacks(by.flip(), sq) & self.pieces(PieceType::Pawn) & them).nonempty()
            || (attacks::knight_attacks(sq) & self.pieces(PieceType::Knight) & them).nonempty()
            || (attacks::king_attacks(sq) & self.pieces(PieceType::King) & them).nonempty()
            || (attacks::bishop_attacks(sq, occ)
                & (self.pieces(PieceType::Bishop) | self.pieces(PieceType::Queen))
                & them)
                .nonempty()
            || (attacks::rook_attacks(sq, occ) & (self.pieces(PieceType::Rook) | self.pieces(PieceType::Queen)) & them)
                .nonempty()
    }

    /// Is `sq` attacked by colour `by` in the current position?
    #[inline]
    pub fn is_square_attacked(&self, sq: Square, by: Color) -> bool {
        self.is_square_attacked_with(sq, by, self.occupied())
    }

    /// Pieces (of either colour) that alone stand between `target` and an enemy slider of
    /// colour `slider_color`, and those sliders. Used for pins (blockers of our own colour)
    /// and discovered checks (blockers of the attacker's colour).
    pub fn slider_blockers(&self, target: Square, slider_color: Color) -> (Bitboard, Bitboard) {
        let occ = self.occupied();
        let them = self.color(slider_color);
        let snipers = ((attacks::rook_attacks(target, Bitboard::EMPTY)
            & (self.pieces(PieceType::Rook) | self.pieces(PieceType::Queen)))
            | (attacks::bishop_attacks(target, Bitboard::EMPTY)
                & (self.pieces(PieceType::Bishop) | self.pieces(PieceType::Queen))))
            & them;
        let mut blockers = Bitboard::EMPTY;
        let mut pinners = Bitboard::EMPTY;
        for s in snipers {
            let b = attacks::between(target, s) & occ;
            if b.nonempty() && !b.more_than_one() {
                blockers |= b;
                pinners = pinners.with(s);
            }
        }
        (blockers, pinners)
    }

    /// The enemy piece pinning our piece on `sq` to our king, if it is pinned.
    pub fn pinner_of(&self, sq: Square) -> Option<Square> {
        let color = self.piece_at(sq)?.color;
        let ksq = self.king_square(color);
        let (blockers, pinners) = self.slider_blockers(ksq, color.flip());
        if !blockers.contains(sq) {
            return None;
        }
        pinners.into_iter().find(|&p| attacks::between(ksq, p).contains(sq))
    }

    fn update_check_info(&mut self) {
        let us = self.side;
        let ksq = self.king_square(us);
        self.checkers = self.attackers_to(ksq, self.occupied()) & self.color(us.flip());
        let (blockers, _) = self.slider_blockers(ksq, us.flip());
        self.pinned = blockers & self.color(us);
    }

    /// Is there a legal en-passant capture onto `ep_square` for the side to move?
    fn compute_ep_capturable(&self) -> bool {
        let Some(ep) = self.ep_square else { return false };
        let us = self.side;
        let capturers = attacks::pawn_attacks(us.flip(), ep) & self.pieces_of(us, PieceType::Pawn);
        capturers.into_iter().any(|from| self.ep_capture_is_legal(from, ep))
    }

    /// Legality of the en-passant capture `from`x`ep` by the side to move: after removing
    /// both pawns and placing ours on `ep`, our king must not be attacked (this covers the
    /// rank where both pawns leave, pins, and checks the capture does not resolve).
    #[inline]
    pub(crate) fn ep_capture_is_legal(&self, from: Square, ep: Square) -> bool {
        let us = self.side;
        let Some(captured) = ep.offset(-us.forward()) else { return false };
        if self.piece_at(captured) != Some(Piece::new(us.flip(), PieceType::Pawn)) {
            return false;
        }
        let ksq = self.king_square(us);
        let occ = (self.occupied() ^ Bitboard::from_square(from) ^ Bitboard::from_square(captured))
            | Bitboard::from_square(ep);
        let them = self.color(us.flip()) & !Bitboard::from_square(captured);
        let rq = (self.pieces(PieceType::Rook) | self.pieces(PieceType::Queen)) & them;
        let bq = (self.pieces(PieceType::Bishop) | self.pieces(PieceType::Queen)) & them;
        let others = (self.checkers & !Bitboard::from_square(captured))
            & !(self.pieces(PieceType::Rook) | self.pieces(PieceType::Bishop) | self.pieces(PieceType::Queen));
        (attacks::rook_attacks(ksq, occ) & rq).is_empty()
            && (attacks::bishop_attacks(ksq, occ) & bq).is_empty()
            && others.is_empty()
    }

    /// The full key computed from scratch (tests compare it with the incremental one).
    pub fn compute_key(&self) -> u64 {
        let mut k = 0;
        for sq in self.occupied() {
            if let Some(p) = self.piece_at(sq) {
                k ^= zobrist::piece(p, sq);
            }
        }
        k ^= self.castling_key();
        if let Some(ep) = self.legal_ep_square() {
            k ^= zobrist::en_passant(ep.file());
        }
        if self.side == Color::Black {
            k ^= zobrist::side();
        }
        k
    }

    /// The key part of the castling rights: one key per castling rook (colour and file).
    fn castling_key(&self) -> u64 {
        self.castling
            .iter()
            .fold(0, |k, (c, side)| k ^ zobrist::castling_rook(c, self.castling_rooks[CastlingRights::index(c, side)]))
    }

    /// The squares whose touching may remove a right (see `castling_touch`).
    fn compute_castling_touch(&self) -> Bitboard {
        self.castling.iter().fold(Bitboard::EMPTY, |b, (c, side)| {
            b.with(self.king_square(c)).with(self.castling_rooks[CastlingRights::index(c, side)])
        })
    }

    /// Removes the rights a move from `from` to `to` ends (3.8.2.1): the king moved, the
    /// rook moved, or the rook was captured. Called only when the move touched
    /// `castling_touch`; `self` is the position before the move.
    #[cold]
    fn remove_touched_rights(&self, p: &mut Position, from: Square, to: Square) -> u64 {
        let mut key = 0;
        for (c, side) in self.castling.iter() {
            let i = CastlingRights::index(c, side);
            let rook = self.castling_rooks[i];
            if from == rook || to == rook || from == self.king_square(c) {
                p.castling.remove(c, side);
                p.castling_rooks[i] = STANDARD_CASTLING_ROOKS[i];
                key ^= zobrist::castling_rook(c, rook);
            }
        }
        p.castling_touch = p.compute_castling_touch();
        key
    }

    fn compute_pawn_key(&self) -> u64 {
        let mut k = 0;
        for sq in self.pieces(PieceType::Pawn) {
            if let Some(p) = self.piece_at(sq) {
                k ^= zobrist::piece(p, sq);
            }
        }
        k
    }

    /// What every move, the null move included, does first to `p`, a copy of `self`: no
    /// en-passant square any more, the fifty-move clock one further. Returns `self`'s key
    /// with the side to move flipped and the old en-passant square taken out.
    #[inline(always)]
    fn pass_turn(&self, p: &mut Position) -> u64 {
        let mut key = self.key ^ zobrist::side();
        if let Some(ep) = self.legal_ep_square() {
            key ^= zobrist::en_passant(ep.file());
        }
        p.ep_square = None;
        p.ep_capturable = false;
        p.halfmove_clock += 1;
        key
    }

    /// Plays `m` (which must be legal here) and returns the new position.
    #[inline]
    pub fn make_move(&self, m: Move) -> Position {
        let mut p = *self;
        let us = self.side;
        let them = us.flip();
        let from = m.from();
        let to = m.to();
        // A legal move always has our piece on `from`.
        let Some(piece) = self.board[from.index()] else {
            debug_assert!(false, "make_move: no piece on {from}");
            return p;
        };
        let mut key = self.pass_turn(&mut p);
        if us == Color::Black {
            p.fullmove_number = p.fullmove_number.saturating_add(1);
        }

        match m.kind() {
            MoveKind::CastleKing | MoveKind::CastleQueen => {
                let side = if m.kind() == MoveKind::CastleKing { CastleSide::King } else { CastleSide::Queen };
                // In Chess960 either piece may already stand on its destination, or on the
                // other's: lift both, then place both.
                let (rf, rt) = (self.castling_rooks[CastlingRights::index(us, side)], side.rook_to(us));
                let kt = side.king_to(us);
                let rook = Piece::new(us, PieceType::Rook);
                p.remove_piece(piece, from);
                p.remove_piece(rook, rf);
                p.put_piece(piece, kt);
                p.put_piece(rook, rt);
                key ^= zobrist::piece(piece, from) ^ zobrist::piece(piece, kt);
                key ^= zobrist::piece(rook, rf) ^ zobrist::piece(rook, rt);
            }
            MoveKind::EnPassant => {
                let captured_sq = Square::new((to.index() as i8 - us.forward()) as u8);
                let cap = Piece::new(them, PieceType::Pawn);
                p.remove_piece(cap, captured_sq);
                p.move_piece(piece, from, to);
                key ^= zobrist::piece(cap, captured_sq);
                key ^= zobrist::piece(piece, from) ^ zobrist::piece(piece, to);
                p.pawn_key ^=
                    zobrist::piece(cap, captured_sq) ^ zobrist::piece(piece, from) ^ zobrist::piece(piece, to);
                p.halfmove_clock = 0;
            }
            _ => {
                if let Some(cap) = self.board[to.index()] {
                    p.remove_piece(cap, to);
                    key ^= zobrist::piece(cap, to);
                    if cap.kind == PieceType::Pawn {
                        p.pawn_key ^= zobrist::piece(cap, to);
                    }
                    p.halfmove_clock = 0;
                }
                if let Some(promo) = m.promotion() {
                    let np = Piece::new(us, promo);
                    p.remove_piece(piece, from);
                    p.put_piece(np, to);
                    key ^= zobrist::piece(piece, from) ^ zobrist::piece(np, to);
                    p.pawn_key ^= zobrist::piece(piece, from);
                } else {
                    p.move_piece(piece, from, to);
                    key ^= zobrist::piece(piece, from) ^ zobrist::piece(piece, to);
                    if piece.kind == PieceType::Pawn {
                        p.pawn_key ^= zobrist::piece(piece, from) ^ zobrist::piece(piece, to);
                    }
                }
                if piece.kind == PieceType::Pawn {
                    p.halfmove_clock = 0;
                    if m.kind() == MoveKind::DoublePush {
                        p.ep_square = Some(Square::new((from.index() as i8 + us.forward()) as u8));
                    }
                }
            }
        }

        if (self.castling_touch & (Bitboard::from_square(from) | Bitboard::from_square(to))).nonempty() {
            key ^= self.remove_touched_rights(&mut p, from, to);
        }
        p.side = them;
        p.update_check_info();
        if p.ep_square.is_some() {
            p.ep_capturable = p.compute_ep_capturable();
            if let Some(ep) = p.legal_ep_square() {
                key ^= zobrist::en_passant(ep.file());
            }
        }
        p.key = key;
        debug_assert_eq!(p.key, p.compute_key(), "incremental key after {m}");
        p
    }

    /// The key and fifty-move clock of the position after `m` (legal here), without making
    /// the move: for a table lookup before paying for [`Self::make_move`]. None for the moves
    /// whose key depends on more than the squares they touch: castling, en passant, double
    /// pushes (the new en-passant square counts only where a capture is legal) and moves
    /// onto or off a square that holds a castling right.
    #[inline]
    pub fn key_after(&self, m: Move) -> Option<(u64, u16)> {
        let (from, to) = (m.from(), m.to());
        let kind = m.kind();
        if matches!(kind, MoveKind::DoublePush | MoveKind::EnPassant | MoveKind::CastleKing | MoveKind::CastleQueen)
            || (self.castling_touch & (Bitboard::from_square(from) | Bitboard::from_square(to))).nonempty()
        {
            return None;
        }
        let piece = self.board[from.index()]?;
        let mut key = self.key ^ zobrist::side() ^ zobrist::piece(piece, from);
        if let Some(ep) = self.legal_ep_square() {
            key ^= zobrist::en_passant(ep.file());
        }
        let placed = m.promotion().map_or(piece, |promo| Piece::new(self.side, promo));
        key ^= zobrist::piece(placed, to);
        let mut clock = self.halfmove_clock + 1;
        if let Some(cap) = self.board[to.index()] {
            key ^= zobrist::piece(cap, to);
            clock = 0;
        }
        if piece.kind == PieceType::Pawn {
            clock = 0;
        }
        Some((key, clock))
    }

    /// Passes the turn (for null-move pruning); must not be called in check.
    pub fn make_null_move(&self) -> Position {
        let mut p = *self;
        let key = self.pass_turn(&mut p);
        p.side = self.side.flip();
        p.key = key;
        p.update_check_info();
        p
    }

    /// The piece type captured by `m`, if any (a pawn for en passant).
    #[inline]
    pub fn captured_piece(&self, m: Move) -> Option<PieceType> {
        if m.is_en_passant() {
            Some(PieceType::Pawn)
        } else if m.is_capture() {
            self.board[m.to().index()].map(|p| p.kind)
        } else {
            None
        }
    }

    /// Our pieces whose moving off a line can uncover a check on the enemy king.
    fn discovered_check_candidates(&self) -> Bitboard {
        let us = self.side_to_move();
        self.slider_blockers(self.king_square(us.flip()), us).0 & self.color(us)
    }

    /// What [`Self::gives_check_by`] needs to test moves of this position: computed once, it
    /// makes each test a few bitboard operations.
    pub fn check_squares(&self) -> CheckSquares {
        let them = self.side_to_move().flip();
        let king = self.king_square(them);
        CheckSquares {
            king,
            discoverers: self.discovered_check_candidates(),
            direct: attacks::check_squares_by_kind(them, king, self.occupied()),
        }
    }

    /// Does the move give check? `checks` is [`Self::check_squares`]. Direct checks from the
    /// squares that see the king (the moving piece's own square cannot be on such a line
    /// between its target and the king, or it would be giving check already), discovered
    /// checks from the pieces that block our sliders; castling, en passant and promotions
    /// (rare, with unusual geometry) by playing the move.
    #[inline]
    pub fn gives_check_by(&self, m: Move, checks: &CheckSquares) -> bool {
        if m.is_castling() || m.is_en_passant() || m.is_promotion() {
            return self.make_move(m).in_check();
        }
        let (from, to) = (m.from(), m.to());
        let Some(piece) = self.board[from.index()] else { return false };
        checks.direct[piece.kind.index()].contains(to)
            || (checks.discoverers.contains(from) && !attacks::aligned(checks.king, from, to))
    }

    /// Does the move give check? (For one move; [`Self::check_squares`] and
    /// [`Self::gives_check_by`] when testing many.)
    pub fn gives_check(&self, m: Move) -> bool {
        self.gives_check_by(m, &self.check_squares())
    }

    /// Non-pawn material of `c` exists (null-move pruning is unsafe in pawn endings).
    pub fn has_non_pawn_material(&self, c: Color) -> bool {
        (self.color(c) & !(self.pieces(PieceType::Pawn) | self.pieces(PieceType::King))).nonempty()
    }

    /// A text diagram (rank 8 at top), used by the UCI `d` command.
    pub fn diagram(&self) -> String {
        let mut s = String::from(" +---+---+---+---+---+---+---+---+\n");
        for r in Rank::ALL.iter().rev() {
            for f in File::ALL {
                let c = self.piece_at(Square::from_coords(f, *r)).map_or(' ', |p| p.fen_char());
                s.push_str(&format!(" | {c}"));
            }
            s.push_str(&format!(" | {}\n +---+---+---+---+---+---+---+---+\n", r.char()));
        }
        s.push_str("   a   b   c   d   e   f   g   h\n");
        s
    }
}

/// The squares from which each piece type of the side to move would check the enemy king, and
/// the pieces whose moving can uncover a check ([`Position::check_squares`]).
#[derive(Clone, Copy, Debug)]
pub struct CheckSquares {
    king: Square,
    discoverers: Bitboard,
    /// By [`PieceType::index`].
    direct: [Bitboard; 6],
}

impl std::fmt::Debug for Position {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Position({})", self.to_fen())
    }
}

impl Default for Position {
    fn default() -> Position {
        Position::startpos()
    }
}

impl Position {
    /// Dead position by insufficient material (FIDE 5.2.2), the cases recognised from
    /// material alone: K v K, K+N v K, K+B v K, and any number of bishops (either side)
    /// all on squares of one colour with nothing else. K+N+N v K and K+B v K+N are
    /// *not* dead: a mate exists (with the defender's help).
    pub fn insufficient_material(&self) -> bool {
        let kings = self.pieces(PieceType::King);
        let others = self.occupied() & !kings;
        if others.is_empty() {
            return true;
        }
        let minors = self.pieces(PieceType::Knight) | self.pieces(PieceType::Bishop);
        if others == minors && !others.more_than_one() {
            return true; // a single knight or bishop
        }
        let bishops = self.pieces(PieceType::Bishop);
        others == bishops
            && ((bishops & Bitboard::LIGHT_SQUARES).is_empty() || (bishops & Bitboard::DARK_SQUARES).is_empty())
    }
}

/// A test's sample of positions near `self`: itself, its children and the children of every
/// fourth child.
#[cfg(test)]
impl Position {
    pub(crate) fn with_nearby(self) -> Vec<Position> {
        let mut positions = vec![self];
        for (i, &m) in crate::chess::movegen::legal_moves(&self).iter().enumerate() {
            let child = self.make_move(m);
            if i % 4 == 0 {
                positions.extend(crate::chess::movegen::legal_moves(&child).iter().map(|&r| child.make_move(r)));
            }
            positions.push(child);
        }
        positions
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::movegen::legal_moves;

    /// [`Position::key_after`] gives the key and clock of [`Position::make_move`] wherever it
    /// answers, on the perft positions and the positions one move after them and some two.
    #[test]
    fn key_after_is_make_moves_key() {
        attacks::init();
        let perft = include_str!("../../tests/data/perft.epd").lines().filter_map(|l| l.split(';').next());
        let (mut answered, mut moves) = (0, 0);
        for fen in perft.map(str::trim).filter(|l| !l.is_empty() && !l.starts_with('#')) {
            let positions = Position::from_fen(fen).expect("test FEN").with_nearby();
            for pos in &positions {
                for &m in legal_moves(pos).iter() {
                    moves += 1;
                    let after = pos.make_move(m);
                    if let Some((key, clock)) = pos.key_after(m) {
                        assert_eq!((key, clock), (after.key(), after.halfmove_clock()), "{m} in {pos:?}");
                        answered += 1;
                    }
                }
            }
        }
        assert!(answered * 10 > moves * 8, "{answered} of {moves}");
    }
}
