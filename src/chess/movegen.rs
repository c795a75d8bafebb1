//! Legal move generation, directly (no make-and-test): check evasions, double check,
//! pins, the en-passant capture that uncovers an attack on its own king, and castling
//! through or into attacked squares. One generic generator feeds either a move list
//! or a counter (perft counts the last ply by population counts, without moves).

use super::attacks;
use super::bitboard::Bitboard;
use super::castling;
use super::position::Position;
use super::types::{CastleSide, Color, Move, MoveKind, PieceType, Square};

/// The largest number of legal moves in any position is 218; 256 leaves room.
pub const MAX_MOVES: usize = 256;

/// A fixed-capacity list of moves on the stack.
#[derive(Clone)]
pub struct MoveList {
    moves: [Move; MAX_MOVES],
    len: usize,
}

const FILLER: Move = Move::new(Square::A1, Square::B1, MoveKind::Quiet);

impl MoveList {
    #[inline(always)]
    pub fn new() -> MoveList {
        MoveList { moves: [FILLER; MAX_MOVES], len: 0 }
    }
    #[inline(always)]
    pub fn push(&mut self, m: Move) {
        // Never more than 218 legal moves exist; the guard keeps a bug from becoming UB-free panic.
        if self.len < MAX_MOVES {
            self.moves[self.len] = m;
            self.len += 1;
        }
    }
    #[inline(always)]
    pub fn len(&self) -> usize {
        self.len
    }
    /// Empties the list (its storage is reused).
    #[inline(always)]
    pub fn clear(&mut self) {
        self.len = 0;
    }
    #[inline(always)]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
    #[inline(always)]
    pub fn as_slice(&self) -> &[Move] {
        &self.moves[..self.len]
    }
    #[inline(always)]
    pub fn as_mut_slice(&mut self) -> &mut [Move] {
        &mut self.moves[..self.len]
    }
    pub fn iter(&self) -> std::slice::Iter<'_, Move> {
        self.as_slice().iter()
    }
    pub fn contains(&self, m: Move) -> bool {
        self.as_slice().contains(&m)
    }
    #[inline(always)]
    pub fn swap(&mut self, a: usize, b: usize) {
        self.moves.swap(a, b);
    }
    #[inline(always)]
    pub fn get(&self, i: usize) -> Move {
        self.moves[i]
    }
    /// Removes the move at `i` (if there is one), the last move taking its place.
    #[inline(always)]
    pub fn swap_remove(&mut self, i: usize) {
        if i < self.len {
            self.len -= 1;
            self.moves[i] = self.moves[self.len];
        }
    }
}

impl Default for MoveList {
    fn default() -> Self {
        MoveList::new()
    }
}

impl<'a> IntoIterator for &'a MoveList {
    type Item = &'a Move;
    type IntoIter = std::slice::Iter<'a, Move>;
    fn into_iter(self) -> Self::IntoIter {
        self.as_slice().iter()
    }
}

/// Where generated moves go: a list, a counter, or a caller's own sink that looks at each
/// move as it is made, when the generator still knows what it is (whose move, the captures,
/// the promotions), so that nothing is looked up again (see [`moves_with_untested_king_steps_into`]).
pub trait Sink {
    /// Moves of a non-pawn piece from `from` to each of `targets`; `enemies` marks captures
    /// (`Quiet` and `Capture` moves).
    fn piece_moves(&mut self, from: Square, targets: Bitboard, enemies: Bitboard);
    /// Pawn moves from `to - delta` to every square of `targets`, all of kind `kind`
    /// (`Quiet`, `DoublePush` or `Capture`; no promotions).
    fn pawn_moves(&mut self, targets: Bitboard, delta: i8, kind: MoveKind);
    /// Promotions from `to - delta` to every square of `targets`: to a queen, and with
    /// `under` to a knight, rook and bishop too.
    fn promotions(&mut self, targets: Bitboard, delta: i8, capture: bool, under: bool);
    /// Any other move: castling, en passant, the moves of pinned pawns.
    fn single(&mut self, m: Move);
}

impl Sink for MoveList {
    #[inline(always)]
    fn piece_moves(&mut self, from: Square, targets: Bitboard, enemies: Bitboard) {
        for to in targets & enemies {
            self.push(Move::new(from, to, MoveKind::Capture));
        }
        for to in targets - enemies {
            self.push(Move::new(from, to, MoveKind::Quiet));
        }
    }
    #[inline(always)]
    fn pawn_moves(&mut self, targets: Bitboard, delta: i8, kind: MoveKind) {
        for to in targets {
            self.push(Move::new(Square::new((to.index() as i8 - delta) as u8), to, kind));
        }
    }
    #[inline(always)]
    fn promotions(&mut self, targets: Bitboard, delta: i8, capture: bool, under: bool) {
        for to in targets {
            let from = Square::new((to.index() as i8 - delta) as u8);
            self.push(Move::new(from, to, MoveKind::promotion(PieceType::Queen, capture)));
            if under {
                self.push(Move::new(from, to, MoveKind::promotion(PieceType::Knight, capture)));
                self.push(Move::new(from, to, MoveKind::promotion(PieceType::Rook, capture)));
                self.push(Move::new(from, to, MoveKind::promotion(PieceType::Bishop, capture)));
            }
        }
    }
    #[inline(always)]
    fn single(&mut self, m: Move) {
        self.push(m);
    }
}

/// Counts moves without creating them.
struct Counter(u64);

impl Sink for Counter {
    #[inline(always)]
    fn piece_moves(&mut self, _from: Square, targets: Bitboard, _enemies: Bitboard) {
        self.0 += targets.count() as u64;
    }
    #[inline(always)]
    fn pawn_moves(&mut self, targets: Bitboard, _delta: i8, _kind: MoveKind) {
        self.0 += targets.count() as u64;
    }
    #[inline(always)]
    fn promotions(&mut self, targets: Bitboard, _delta: i8, _capture: bool, under: bool) {
        self.0 += targets.count() as u64 * if under { 4 } else { 1 };
    }
    #[inline(always)]
    fn single(&mut self, _m: Move) {
        self.0 += 1;
    }
}

/// Which moves to generate. Tactical = captures (incl. e.p.) and all promotions;
/// Quiet = everything else (incl. castling and double pushes). Together: all moves.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum GenKind {
    All,
    Tactical,
    Quiet,
}

const ALL: u8 = 0;
const TACTICAL: u8 = 1;
const QUIET: u8 = 2;

/// `KING_SAFE`: each king step is tested for attacks (else it is left to the caller, see
/// [`moves_with_untested_king_steps`]).
#[inline(always)]
fn generate<S: Sink, const KIND: u8, const KING_SAFE: bool>(pos: &Position, sink: &mut S) {
    let us = pos.side_to_move();
    let them = us.flip();
    let our = pos.color(us);
    let enemies = pos.color(them);
    let occ = pos.occupied();
    let ksq = pos.king_square(us);
    let checkers = pos.checkers();

    let want_captures = KIND != QUIET;
    let want_quiets = KIND != TACTICAL;

    // King moves: never onto an attacked square; the king is removed from the occupancy
    // so it cannot hide behind itself from a slider.
    let mut king_targets = attacks::king_attacks(ksq) & !our;
    if !want_quiets {
        king_targets &= enemies;
    }
    if !want_captures {
        king_targets &= !enemies;
    }
    let occ_no_king = occ ^ Bitboard::from_square(ksq);
    let mut safe = Bitboard::EMPTY;
    for to in king_targets {
        if !KING_SAFE || !pos.is_square_attacked_with(to, them, occ_no_king) {
            safe = safe.with(to);
        }
    }
    sink.piece_moves(ksq, safe, enemies);

    if checkers.more_than_one() {
        return; // double check: only the king may move (3.9)
    }

    // Squares a non-king move may go to: anywhere, or, in check, block or capture.
    let check_mask = match checkers.lsb() {
        Some(c) => attacks::between(ksq, c) | checkers,
        None => Bitboard::FULL,
    };
    let mut target_mask = !our & check_mask;
    if !want_quiets {
        target_mask &= enemies;
    }
    if !want_captures {
        target_mask &= !enemies;
    }
    let pinned = pos.pinned();

    // Knights: a pinned knight can never move.
    for from in pos.pieces_of(us, PieceType::Knight) & !pinned {
        sink.piece_moves(from, attacks::knight_attacks(from) & target_mask, enemies);
    }
    let queens = pos.pieces_of(us, PieceType::Queen);
    for from in (pos.pieces_of(us, PieceType::Bishop) | queens) - pinned {
        sink.piece_moves(from, attacks::bishop_attacks(from, occ) & target_mask, enemies);
    }
    for from in (pos.pieces_of(us, PieceType::Rook) | queens) - pinned {
        sink.piece_moves(from, attacks::rook_attacks(from, occ) & target_mask, enemies);
    }
    // Pinned sliders may move along the pin line only (which includes capturing the pinner).
    if pinned.nonempty() && checkers.is_empty() {
        for from in pinned & (pos.pieces(PieceType::Bishop) | pos.pieces(PieceType::Rook) | queens) {
            let pt = match pos.piece_at(from) {
                Some(p) => p.kind,
                None => continue,
            };
            let t = attacks::piece_attacks(pt, from, occ) & target_mask & attacks::line(ksq, from);
            sink.piece_moves(from, t, enemies);
        }
    }

    generate_pawns::<S, KIND>(pos, sink, us, check_mask, enemies);

    // Castling (3.8.2; Chess960: Guidelines II.3): rights, empty path, not in check, king
    // crosses and lands on unattacked squares. The rook being attacked, or b1/b8, does not matter.
    if want_quiets && checkers.is_empty() && pos.castling_rights().has_any(us) {
        for side in CastleSide::BOTH {
            if castling_allowed(pos, us, side) {
                sink.single(pos.castling_move(us, side));
            }
        }
    }
}

/// Full castling test for the side to move (rights, path, check, attacked squares), for
/// any king and rook files. The attacks are looked at without the castling rook, which
/// in Chess960 may stand between an enemy rook or queen and the king's destination.
#[inline]
fn castling_allowed(pos: &Position, us: Color, side: CastleSide) -> bool {
    let Some(rook) = pos.castling_rook(us, side) else { return false };
    let king = pos.king_square(us);
    let occ = pos.occupied();
    (castling::squares_to_clear(king, rook) & occ).is_empty()
        && pos.checkers().is_empty()
        && castling::king_path(king, rook)
            .into_iter()
            .all(|sq| !pos.is_square_attacked_with(sq, us.flip(), occ ^ Bitboard::from_square(rook)))
}

#[inline(always)]
fn generate_pawns<S: Sink, const KIND: u8>(
    pos: &Position,
    sink: &mut S,
    us: Color,
    check_mask: Bitboard,
    enemies: Bitboard,
) {
    let want_captures = KIND != QUIET;
    let want_quiets = KIND != TACTICAL;
    let occ = pos.occupied();
    let empty = !occ;
    let ksq = pos.king_square(us);
    let pinned = pos.pinned();
    let pawns = pos.pieces_of(us, PieceType::Pawn);
    let promo_rank = Bitboard::relative_rank(us, super::types::Rank::R8);
    let third_rank = Bitboard::relative_rank(us, super::types::Rank::R3);
    let fwd = us.forward();
    let (west, east) = match us {
        Color::White => (7i8, 9i8),
        Color::Black => (-9i8, -7i8),
    };

    // Unpinned pawns set-wise; pinned pawns one by one (rare).
    let free = pawns - pinned;
    let push1 = free.forward(us) & empty;
    let push2 = (push1 & third_rank).forward(us) & empty & check_mask;
    let push1 = push1 & check_mask;
    let cap_w = shift_west(free, us) & enemies & check_mask;
    let cap_e = shift_east(free, us) & enemies & check_mask;

    // Promotions are "tactical" (queen and under-promotions alike), so quiet generation
    // emits none of them.
    if want_captures {
        sink.promotions(push1 & promo_rank, fwd, false, true);
        sink.promotions(cap_w & promo_rank, west, true, true);
        sink.promotions(cap_e & promo_rank, east, true, true);
        sink.pawn_moves(cap_w - promo_rank, west, MoveKind::Capture);
        sink.pawn_moves(cap_e - promo_rank, east, MoveKind::Capture);
    }
    if want_quiets {
        sink.pawn_moves(push1 - promo_rank, fwd, MoveKind::Quiet);
        sink.pawn_moves(push2, 2 * fwd, MoveKind::DoublePush);
    }

    // Pinned pawns: only along the pin line. In check a pinned pawn can never help.
    if pinned.nonempty() && pos.checkers().is_empty() {
        for from in pawns & pinned {
            let pin_line = attacks::line(ksq, from);
            let b = Bitboard::from_square(from);
            let p1 = b.forward(us) & empty & pin_line;
            let p2 = (p1 & third_rank).forward(us) & empty;
            let caps = attacks::pawn_attacks(us, from) & enemies & pin_line;
            if want_captures {
                for to in caps {
                    if promo_rank.contains(to) {
                        for pt in PieceType::PROMOTIONS {
                            sink.single(Move::new(from, to, MoveKind::promotion(pt, true)));
                        }
                    } else {
                        sink.single(Move::new(from, to, MoveKind::Capture));
                    }
                }
                for to in p1 & promo_rank {
                    for pt in PieceType::PROMOTIONS {
                        sink.single(Move::new(from, to, MoveKind::promotion(pt, false)));
                    }
                }
            }
            if want_quiets {
                for to in p1 - promo_rank {
                    sink.single(Move::new(from, to, MoveKind::Quiet));
                }
                for to in p2 {
                    sink.single(Move::new(from, to, MoveKind::DoublePush));
                }
            }
        }
    }

    // En passant: tested one by one by playing it on the occupancy.
    if want_captures {
        if let Some(ep) = pos.legal_ep_square() {
            for from in attacks::pawn_attacks(us.flip(), ep) & pawns {
                if pos.ep_capture_is_legal(from, ep) {
                    sink.single(Move::new(from, ep, MoveKind::EnPassant));
                }
            }
        }
    }
}

#[inline(always)]
fn shift_west(b: Bitboard, us: Color) -> Bitboard {
    let b = b - Bitboard::FILE_A;
    match us {
        Color::White => b << 7,
        Color::Black => b >> 9,
    }
}

#[inline(always)]
fn shift_east(b: Bitboard, us: Color) -> Bitboard {
    let b = b - Bitboard::FILE_H;
    match us {
        Color::White => b << 9,
        Color::Black => b >> 7,
    }
}

/// All legal moves.
pub fn legal_moves(pos: &Position) -> MoveList {
    let mut list = MoveList::new();
    generate::<MoveList, ALL, true>(pos, &mut list);
    list
}

/// The legal moves into `list` (emptied first), except that the king's steps (its moves other
/// than castling) are not tested for attacks: each must pass [`king_step_is_safe`] before it
/// is played. They come first; the result is how many there are. For a search that looks at
/// every move but plays few of them: most of those tests are never needed.
pub fn moves_with_untested_king_steps(pos: &Position, list: &mut MoveList) -> usize {
    list.clear();
    moves_with_untested_king_steps_into(pos, list);
    untested_king_steps(pos).count() as usize
}

/// The targets of the king steps the generator emits, first, when it does not test them: every
/// square next to the king not holding one of ours.
#[inline]
fn untested_king_steps(pos: &Position) -> Bitboard {
    let us = pos.side_to_move();
    attacks::king_attacks(pos.king_square(us)) & !pos.color(us)
}

/// The moves of [`moves_with_untested_king_steps`] (king steps untested, emitted first, by
/// [`Sink::piece_moves`] from the king's square) into any sink.
#[inline(always)]
pub fn moves_with_untested_king_steps_into<S: Sink>(pos: &Position, sink: &mut S) {
    generate::<S, ALL, false>(pos, sink);
}

/// Does the king step `m` (see [`moves_with_untested_king_steps`]) of the side to move land on
/// a safe square?
#[inline]
pub fn king_step_is_safe(pos: &Position, m: Move) -> bool {
    king_may_step_to(pos, m.to())
}

/// Is `to` not attacked once the side to move's king has left its square (it cannot hide
/// behind itself from a slider)?
#[inline]
fn king_may_step_to(pos: &Position, to: Square) -> bool {
    let us = pos.side_to_move();
    !pos.is_square_attacked_with(to, us.flip(), pos.occupied().without(pos.king_square(us)))
}

/// The squares the king of the side to move may not step to: all the opponent attacks, the
/// king lifted off the board (it cannot hide behind itself from a slider). A king step is
/// safe ([`king_step_is_safe`]) exactly when its target is not in it: one map for many steps.
pub fn king_danger(pos: &Position) -> Bitboard {
    let us = pos.side_to_move();
    let them = us.flip();
    let occ = pos.occupied().without(pos.king_square(us));
    let mut danger =
        pos.pieces_of(them, PieceType::Pawn).pawn_attacks(them) | attacks::king_attacks(pos.king_square(them));
    for sq in pos.pieces_of(them, PieceType::Knight) {
        danger |= attacks::knight_attacks(sq);
    }
    let queens = pos.pieces_of(them, PieceType::Queen);
    for sq in pos.pieces_of(them, PieceType::Bishop) | queens {
        danger |= attacks::bishop_attacks(sq, occ);
    }
    for sq in pos.pieces_of(them, PieceType::Rook) | queens {
        danger |= attacks::rook_attacks(sq, occ);
    }
    danger
}

/// Legal moves of one kind (all, tactical or quiet), appended to `list`.
pub fn generate_into(pos: &Position, kind: GenKind, list: &mut MoveList) {
    match kind {
        GenKind::All => generate::<MoveList, ALL, true>(pos, list),
        GenKind::Tactical => generate::<MoveList, TACTICAL, true>(pos, list),
        GenKind::Quiet => generate::<MoveList, QUIET, true>(pos, list),
    }
}

/// The number of legal moves, counted without building a list.
#[inline]
pub fn count_legal(pos: &Position) -> u64 {
    let mut c = Counter(0);
    generate::<Counter, ALL, true>(pos, &mut c);
    c.0
}

/// Is there at least one legal move? (Checkmate/stalemate detection.) The king's steps are
/// tested only when nothing else can move, and only until one is safe.
pub fn has_legal_move(pos: &Position) -> bool {
    let mut c = Counter(0);
    moves_with_untested_king_steps_into(pos, &mut c);
    let steps = untested_king_steps(pos);
    c.0 > steps.count() as u64 || steps.into_iter().any(|to| king_may_step_to(pos, to))
}

/// Could `m` be a move of this position, ignoring whether it leaves the king in check?
/// Checks the move's encoding against the board exactly as the generator would emit it,
/// so any 16-bit value (from the TT, or made from GUI text) is safe to ask about.
fn is_pseudo_legal(pos: &Position, m: Move) -> bool {
    let us = pos.side_to_move();
    let (from, to) = (m.from(), m.to());
    let Some(piece) = pos.piece_at(from) else { return false };
    if piece.color != us {
        return false;
    }
    // Castling first: in Chess960 its encoding may end on our own rook (or, in standard
    // notation, on the king's own square).
    if let Some(side) = m.castle_side() {
        return pos.castling_rook(us, side).is_some()
            && m == pos.castling_move(us, side)
            && castling_allowed(pos, us, side);
    }
    if from == to {
        return false;
    }
    let occ = pos.occupied();
    let target = pos.piece_at(to);
    if target.is_some_and(|t| t.color == us) {
        return false;
    }
    let is_enemy_capture = target.is_some_and(|t| t.color != us && t.kind != PieceType::King);
    let promo_rank = Bitboard::relative_rank(us, super::types::Rank::R8);
    match m.kind() {
        MoveKind::CastleKing | MoveKind::CastleQueen => false, // answered above
        MoveKind::EnPassant => {
            piece.kind == PieceType::Pawn
                && pos.legal_ep_square() == Some(to)
                && attacks::pawn_attacks(us, from).contains(to)
        }
        MoveKind::DoublePush => {
            piece.kind == PieceType::Pawn
                && from.rank() == us.pawn_start_rank()
                && from.offset(2 * us.forward()) == Some(to)
                && from.offset(us.forward()).is_some_and(|mid| !occ.contains(mid))
                && target.is_none()
        }
        kind => {
            let capture = m.is_capture();
            if capture != is_enemy_capture || (!capture && target.is_some()) {
                return false;
            }
            if piece.kind == PieceType::Pawn {
                if m.is_promotion() != promo_rank.contains(to) {
                    return false;
                }
                if capture {
                    attacks::pawn_attacks(us, from).contains(to)
                } else {
                    from.offset(us.forward()) == Some(to)
                }
            } else {
                kind != MoveKind::DoublePush
                    && !m.is_promotion()
                    && attacks::piece_attacks(piece.kind, from, occ).contains(to)
            }
        }
    }
}

/// Is the pseudo-legal move `m` legal (does it leave its own king safe)?
fn is_legal_given_pseudo(pos: &Position, m: Move) -> bool {
    let us = pos.side_to_move();
    let (from, to) = (m.from(), m.to());
    let ksq = pos.king_square(us);
    if m.is_en_passant() {
        return pos.ep_capture_is_legal(from, to);
    }
    if from == ksq {
        if m.is_castling() {
            return true; // fully checked by castling_allowed
        }
        return !pos.is_square_attacked_with(to, us.flip(), pos.occupied() ^ Bitboard::from_square(from));
    }
    let checkers = pos.checkers();
    if checkers.more_than_one() {
        return false;
    }
    if let Some(c) = checkers.lsb() {
        if !(attacks::between(ksq, c) | checkers).contains(to) {
            return false;
        }
    }
    !pos.pinned().contains(from) || attacks::aligned(ksq, from, to)
}

/// Is `m` a legal move here? Safe for any value (from the TT, a GUI or a test).
pub fn is_legal(pos: &Position, m: Move) -> bool {
    is_pseudo_legal(pos, m) && is_legal_given_pseudo(pos, m)
}

/// Finds the legal move with these squares and promotion piece (how UCI text names moves).
pub fn find_move(pos: &Position, from: Square, to: Square, promotion: Option<PieceType>) -> Option<Move> {
    legal_moves(pos).iter().copied().find(|m| m.from() == from && m.to() == to && m.promotion() == promotion)
}
