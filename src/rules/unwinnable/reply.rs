//! The loser's replies before the winner's last move: which of them can be followed by a mate
//! at once? The exact search ([`super::shorten`]) spends nearly all its time two half-moves
//! from the end of a line, where it plays every move of the loser and looks for a mate after
//! it. [`Replies`] tells, once per such node, which moves need not be played: a sound filter
//! (it never drops a move after which the winner mates), so the search finds the same line.
//!
//! The argument. Let P be the node (the loser to move, in check or not, its king on k; F the
//! squares next to k that hold none of the loser's pieces), B the board of P with every piece
//! of the loser's but the king lifted off, and m a move of the loser from f to t that is not
//! the king's, not castling, not en passant, and not a double push next to a winner's pawn (so
//! no en passant follows it). Let C be the position after m, and w a mate in C. Then:
//! - every square occupied in B is occupied in C (the winner's pieces are those of P, less the
//!   one m may take, whose square t the loser then holds), so a line open in C is open in B;
//! - w is a move in B by the same piece from the same square `a` to the same square `d`,
//!   counted generously: legality ignored, pawns' captures onto every square they attack,
//!   captures onto the winner's pieces the loser can take, promotions as a queen (which attacks
//!   whatever a rook or bishop would) or a knight, castling as the king and rook both moved;
//! - w checks from d, or uncovers a line through a: in C the king is not in check, and w
//!   changes nothing else (no en passant). From d along a line of B: a bishop, rook or queen
//!   standing between the king and d on its own line would have checked in C already, so only
//!   a promoted pawn's line may pass through a, and that one is looked at without a. Castling
//!   is counted as a check without asking;
//! - after w every square of F but t is attacked (else the king steps there), and what is
//!   attacked after w in C is attacked after it in B: the occupancy of B after w (the king
//!   lifted off) is within that of C after w, and the attackers are the winner's pieces of P
//!   but the mover, which attacks from d only (in C it has left a; the pieces of C are those
//!   of P or fewer). Castling: the king and rook from their new squares only.
//!
//! So where every move of B that checks leaves at least two squares of F unattacked, no such m
//! allows a mate; where some leaves only one, m does not when t is another. Only the other
//! moves are played: those onto such a last square, the king's (below) and the rare kinds above.
//!
//! The king's steps. Let m be a step of the king from k to t (not castling) and w a mate in
//! the position C after it. In C the loser's other pieces are those of P; the winner's are
//! those of P less the one m may take on t; no en passant is possible (m gives none) and the
//! winner's castling rights are at most those of P. Let O be the occupancy of P without k and
//! without whatever stands on t (the king lifted off its new square, a piece it takes gone):
//! - w is a move of one of the winner's pieces in C from `a` to `d` ≠ t, counted generously on
//!   O (which has every line of C open, and those through k and t too): legality ignored,
//!   captures only onto the loser's pieces (pawns' too: m puts nothing new in reach),
//!   promotions as a queen or a knight, castling as the king and rook both moved;
//! - w checks t from d, or uncovers a line through a (a alone between t and a winner's slider
//!   on O, d off that line). From d along a line of O: a bishop, rook or queen on a between t
//!   and d on its own line would attack t in C already, and m is legal; so only a promoted
//!   pawn's line may pass through a, and that one is looked at without a. Castling is counted
//!   as a check without asking;
//! - after w every square next to t that holds none of the loser's pieces (the one w takes on
//!   d is gone) is attacked, else the king steps there. The occupancy of C after w, the king
//!   lifted off, is exactly O without a and with d, and the attackers are the winner's pieces
//!   of C but the mover, which attacks from d: counted so, nothing is over-counted. (A
//!   shortcut: on that occupancy a piece other than the mover attacks only what it attacks on
//!   O or along a line through a, as d only blocks; so a square outside both that the mover
//!   does not reach from d is open without asking. Where m takes on t, lines through t open
//!   too, and every square next to t is on one: no shortcut.)
//!
//! So m is played only where some move counted so checks t and leaves every such square
//! attacked.
//!
//! Where the bound ([`super::cover`]) was worked out on the node's parent
//! ([`AfterWinnerMove`](super::cover::AfterWinnerMove)), it also tells on which squares the
//! loser's king can stand at the end of a mate in two half-moves from the node: its own square
//! or a legal step, each ruled out where the winner's one move cannot cover that square's
//! block. After a step to t the king stands on t at the mate; after any other move (en passant
//! and a double push too; castling needs a right, and the bound says "maybe" wherever one is
//! left) on k. So a step to a square ruled out is not played, nor, where k is ruled out, any
//! move of another piece ([`Replies::ending_on`]).
//!
//! Before the checks are worked out, a cheaper question skips the winner's pieces that cannot
//! be that mover (`may_close`): the squares next to t no piece attacks on O, nor along a line
//! through a once a is emptied, are attacked after w only from d. Where no target of a piece
//! attacks them all on the empty board, none of its moves passes the test above, so nothing
//! else changes. The other pieces' filter asks the same, all but one square.

use crate::chess::attacks::{self, aligned};
use crate::chess::movegen::{moves_with_untested_king_steps_into, MoveList, Sink};
use crate::chess::{Bitboard, CastleSide, Color, Move, MoveKind, PieceType, Position, Rank, Square};

/// The loser's moves at a node where the winner mates with the next move if at all, those
/// after which a mate may follow ([`Replies::may_allow_mate`]).
pub struct Replies<'p> {
    pos: &'p Position,
    winner: Color,
    /// Every move of a piece other than the king must be played.
    all: bool,
    /// The loser's king.
    king: Square,
    /// The squares its legal steps (castling aside) may be followed by a mate from
    /// ([`king_step_may_allow_mate`]).
    king_to: Bitboard,
    /// Moves onto these squares are played: free squares next to the king that are the only
    /// one left after some check.
    to: Bitboard,
    /// The winner's pawns (a double push next to one is played).
    pawns: Bitboard,
    loser: Color,
    /// A mate may end with the king on its own square: else no move of another piece is played.
    stay: bool,
}

impl<'p> Replies<'p> {
    /// The replies of `pos` (the loser to move) with `winner` to mate after them.
    #[cfg(test)]
    pub fn new(pos: &'p Position, winner: Color) -> Replies<'p> {
        Self::ending_on(pos, winner, Bitboard::FULL)
    }

    /// [`Self::new`] where a mate in two half-moves can end only with the loser's king on a
    /// square of `ends` (the bound's answer: see the module's comment).
    pub fn ending_on(pos: &'p Position, winner: Color, ends: Bitboard) -> Replies<'p> {
        let loser = winner.flip();
        let king = pos.king_square(loser);
        let pawns = pos.pieces_of(winner, PieceType::Pawn);
        // The king's legal steps are those onto squares the winner does not attack with the
        // king lifted off (what `Steps` works out): the others need no look.
        let mut king_to = Bitboard::EMPTY;
        let targets = (attacks::king_attacks(king) & ends) - pos.color(loser);
        if targets.nonempty() {
            let steps = Steps::new(pos, winner, king);
            for t in targets - steps.attacked {
                if king_step_may_allow_mate(pos, winner, king, t, &steps) {
                    king_to = king_to.with(t);
                }
            }
        }
        let stay = ends.contains(king);
        let none = Replies { pos, winner, all: false, king, king_to, to: Bitboard::EMPTY, pawns, loser, stay };
        // A bare king has no other moves (no piece to move, no rook to castle with, no pawn to
        // take en passant): no square need be kept for them.
        if !stay || pos.color(loser) == Bitboard::from_square(king) {
            return none;
        }
        match last_free_squares(pos, winner, king) {
            Some(to) => Replies { to, ..none },
            None => Replies { all: true, to: Bitboard::FULL, ..none },
        }
    }

    /// Surely no legal move of the loser's is followed by a mate: the node needs no move list.
    /// Conservative: any move onto a last free square, en passant, castling or a double push
    /// next to a winner's pawn that may exist makes it false.
    pub fn allow_none(&self) -> bool {
        let pos = self.pos;
        if self.all || self.to.nonempty() || self.king_to.nonempty() {
            return false;
        }
        if pos.castling_rights().has_any(self.loser) {
            return false;
        }
        if !self.stay {
            return true;
        }
        if pos.ep_square().is_some() {
            return false;
        }
        let occ = pos.occupied();
        let second = Bitboard::relative_rank(self.loser, Rank::R2);
        let one = (pos.pieces_of(self.loser, PieceType::Pawn) & second).forward(self.loser) - occ;
        // The squares a double push passes over (its square two ahead empty too), where a
        // winner's pawn could take en passant.
        let over = (one.forward(self.loser) - occ).forward(self.winner);
        (over & self.pawns.pawn_attacks(self.winner)).is_empty()
    }

    /// The legal moves of the loser's after which a mate may follow ([`Self::may_allow_mate`]),
    /// in the order of [`legal_moves`](crate::chess::movegen::legal_moves), without making the
    /// others (nor testing the king's steps that are not kept).
    pub fn kept(&self) -> MoveList {
        let mut kept = Kept { replies: self, list: MoveList::new() };
        moves_with_untested_king_steps_into(self.pos, &mut kept);
        kept.list
    }

    /// May the winner mate at once after the loser's legal move `m`? False only where surely
    /// not.
    #[inline]
    pub fn may_allow_mate(&self, m: Move) -> bool {
        match m.kind() {
            MoveKind::CastleKing | MoveKind::CastleQueen => true,
            _ if m.from() == self.king => self.king_to.contains(m.to()),
            _ if !self.stay => false,
            MoveKind::EnPassant => true,
            MoveKind::DoublePush => {
                let over = Square::new(((m.from().index() + m.to().index()) / 2) as u8);
                self.all
                    || self.to.contains(m.to())
                    || (attacks::pawn_attacks(self.loser, over) & self.pawns).nonempty()
            }
            _ => self.all || self.to.contains(m.to()),
        }
    }
}

/// The moves [`Replies::kept`] collects, as the generator emits them.
struct Kept<'r, 'p> {
    replies: &'r Replies<'p>,
    list: MoveList,
}

impl Kept<'_, '_> {
    /// The squares a move of a piece from `from` (not castling, not en passant) is kept onto.
    #[inline(always)]
    fn onto(&self, from: Square) -> Bitboard {
        let r = self.replies;
        if from == r.king {
            r.king_to
        } else if r.all {
            Bitboard::FULL
        } else {
            r.to
        }
    }
}

impl Sink for Kept<'_, '_> {
    #[inline(always)]
    fn piece_moves(&mut self, from: Square, targets: Bitboard, enemies: Bitboard) {
        // The king's steps come untested: those of `king_to` are legal (`Steps`).
        let targets = targets & self.onto(from);
        for to in targets & enemies {
            self.list.push(Move::new(from, to, MoveKind::Capture));
        }
        for to in targets - enemies {
            self.list.push(Move::new(from, to, MoveKind::Quiet));
        }
    }
    #[inline(always)]
    fn pawn_moves(&mut self, targets: Bitboard, delta: i8, kind: MoveKind) {
        for to in targets {
            let m = Move::new(Square::new((to.index() as i8 - delta) as u8), to, kind);
            if self.replies.may_allow_mate(m) {
                self.list.push(m);
            }
        }
    }
    #[inline(always)]
    fn promotions(&mut self, targets: Bitboard, delta: i8, capture: bool, under: bool) {
        let r = self.replies;
        for to in targets & if r.all { Bitboard::FULL } else { r.to } {
            let from = Square::new((to.index() as i8 - delta) as u8);
            self.list.push(Move::new(from, to, MoveKind::promotion(PieceType::Queen, capture)));
            if under {
                self.list.push(Move::new(from, to, MoveKind::promotion(PieceType::Knight, capture)));
                self.list.push(Move::new(from, to, MoveKind::promotion(PieceType::Rook, capture)));
                self.list.push(Move::new(from, to, MoveKind::promotion(PieceType::Bishop, capture)));
            }
        }
    }
    #[inline(always)]
    fn single(&mut self, m: Move) {
        if self.replies.may_allow_mate(m) {
            self.list.push(m);
        }
    }
}

/// What the king's steps at one node share: the occupancy with the king lifted off, the
/// squares the winner's pieces attack on it, and each piece's (not a pawn's) moves on it.
struct Steps {
    occ: Bitboard,
    attacked: Bitboard,
    pieces: [(Square, PieceType, Bitboard); 16],
    /// What the winner's other sliders attack once each piece has left its square ([`opened`]).
    opened: [Bitboard; 16],
    n: usize,
    /// The squares on the winner's sliders' lines (on the empty board): only a pawn there may
    /// uncover a check.
    lines: Bitboard,
    /// [`may_close`]'s shortcut is taken (the tests turn it off to compare).
    shortcut: bool,
    /// More pieces than `pieces` holds (a position no game reaches): every step is played.
    overflow: bool,
}

impl Steps {
    fn new(pos: &Position, winner: Color, k: Square) -> Steps {
        let occ = pos.occupied().without(k);
        let ours = pos.color(winner);
        let pawns = pos.pieces_of(winner, PieceType::Pawn);
        let mut s = Steps {
            occ,
            attacked: pawns.pawn_attacks(winner),
            pieces: [(k, PieceType::King, Bitboard::EMPTY); 16],
            opened: [Bitboard::EMPTY; 16],
            n: 0,
            lines: Bitboard::EMPTY,
            shortcut: shortcut(),
            overflow: false,
        };
        for a in ours - pawns {
            let Some(piece) = pos.piece_at(a) else { continue };
            let reach = attacks::piece_attacks(piece.kind, a, occ);
            s.attacked |= reach;
            if s.n == s.pieces.len() {
                s.overflow = true;
                break;
            }
            if matches!(piece.kind, PieceType::Bishop | PieceType::Rook | PieceType::Queen) {
                s.lines |= attacks::empty_board_attacks(piece.kind, a);
            }
            s.pieces[s.n] = (a, piece.kind, reach - ours);
            s.opened[s.n] = opened(pos, winner, a, occ);
            s.n += 1;
        }
        s
    }
}

/// May the winner mate at once after the loser's king steps (legally, not castling) from `k` to
/// `t`? False only where surely not (see the module's comment): no move of the winner's, counted
/// generously on the board with k and t emptied, checks t and leaves every square next to it
/// that holds none of the loser's pieces attacked.
fn king_step_may_allow_mate(pos: &Position, winner: Color, k: Square, t: Square, steps: &Steps) -> bool {
    if steps.overflow {
        return true;
    }
    let loser = winner.flip();
    let blockers = pos.color(loser).without(k);
    // The winner's pieces after the step (one taken on t is gone) and the occupancy O.
    let taken = pos.color(winner).contains(t);
    let ours = pos.color(winner).without(t);
    let occ = steps.occ.without(t);
    let free = attacks::king_attacks(t) - blockers;
    // After a move from a, only a square the winner attacks on O, or one on a line through a,
    // can be attacked but from the mover's new square (its square stands in the way of no more
    // than it did). With a piece taken on t, lines through t open too: every square next to t.
    let seen = if taken { Bitboard::FULL } else { steps.attacked };
    let covers = |present: Bitboard, reach: Bitboard, occ: Bitboard, free: Bitboard, a: Option<Square>| {
        let need = free - reach;
        // The squares most likely left open first: one of them usually ends the test.
        let open = need - seen;
        if let Some(a) = a {
            if open.into_iter().any(|s| attacks::line(a, s).is_empty()) {
                return false;
            }
        }
        open.into_iter().chain(need - open).all(|s| attacked_by(pos, winner, present, s, occ))
    };
    for side in CastleSide::BOTH {
        let Some(rook) = pos.castling_rook(winner, side) else { continue };
        if rook == t {
            continue; // taken: the right is gone
        }
        let our_king = pos.king_square(winner);
        let (king_to, rook_to) = (side.king_to(winner), side.rook_to(winner));
        let after = occ.without(our_king).without(rook).with(king_to).with(rook_to);
        let reach = attacks::rook_attacks(rook_to, after) | attacks::king_attacks(king_to);
        if covers(ours.without(our_king).without(rook), reach, after, free, None) {
            return true;
        }
    }
    // Only a mover that may leave none of the squares next to t unattacked can mate (see
    // `may_close`): where no piece may, the checks need not be worked out (most steps).
    let open = if steps.shortcut { free - seen } else { Bitboard::EMPTY };
    let mut movers = Bitboard::EMPTY;
    for (i, &(a, kind, targets)) in steps.pieces[..steps.n].iter().enumerate() {
        // Where nothing is open (a piece taken on t opens every line through it) every piece
        // may be the mover.
        if a != t && (open.is_empty() || may_close(open - steps.opened[i], kind, targets, false)) {
            movers = movers.with(a);
        }
    }
    let pawns = pos.pieces_of(winner, PieceType::Pawn);
    let pawns = if open.is_empty() { pawns } else { pawn_movers(pos, winner, pawns, t, open, occ, steps.lines, false) };
    if movers.is_empty() && pawns.is_empty() {
        return false;
    }
    let direct = attacks::check_squares_by_kind(loser, t, occ);
    let discoverers = discoverers(pos, ours, t, occ, &direct);
    // A move that checks t and leaves every square next to it attacked (a loser's piece taken
    // on d leaves its square free).
    let mates = |kind: PieceType, a: Square, d: Square| {
        let occ = occ.without(a).with(d);
        let reach = match kind {
            PieceType::Pawn => attacks::pawn_attacks(winner, d),
            _ => attacks::piece_attacks(kind, d, occ),
        };
        let free = free | (attacks::king_attacks(t) & blockers & Bitboard::from_square(d));
        covers(ours.without(a), reach, occ, free, Some(a))
    };
    for &(a, kind, targets) in &steps.pieces[..steps.n] {
        if a == t || !movers.contains(a) {
            continue;
        }
        // A piece taken on t may have stood in the way.
        let targets = if taken { attacks::piece_attacks(kind, a, occ) - ours } else { targets.without(t) };
        let mut checks = targets & direct[kind.index()];
        if discoverers.contains(a) {
            checks |= targets - attacks::line(t, a);
        }
        if checks.into_iter().any(|d| mates(kind, a, d)) {
            return true;
        }
    }
    // Pawns: pushes blocked by the king on t too, captures only onto the loser's pieces.
    pawn_checks(winner, pawns, t, occ.with(t), occ, blockers, &direct, discoverers, mates)
}

/// The winner's pawn moves that check a king on `king`, counted generously (see the module's
/// comment), each given to `f` (as the kind of piece that stands on d after it, the pawn's
/// square a and d) until it returns true; true if it did. Pushes onto squares empty in
/// `standing`, captures onto the squares of `captures` only, promotions as a queen or a knight
/// (on `occ` without a: a promoted piece checks along a line through its own square too); a
/// move checks from d or uncovers a line through a pawn of `discoverers` (d off that line).
#[allow(clippy::too_many_arguments)]
#[inline]
fn pawn_checks(
    winner: Color,
    pawns: Bitboard,
    king: Square,
    standing: Bitboard,
    occ: Bitboard,
    captures: Bitboard,
    direct: &[Bitboard; 6],
    discoverers: Bitboard,
    mut f: impl FnMut(PieceType, Square, Square) -> bool,
) -> bool {
    let promoting = Bitboard::relative_rank(winner, Rank::R8);
    let second = Bitboard::relative_rank(winner, Rank::R2);
    // Only these pawns can check at all (a superset): those that uncover a line, those that
    // may promote, those a push of one or two squares or a capture takes onto a square from
    // which a pawn checks.
    let loser = winner.flip();
    let checking = direct[PieceType::Pawn.index()];
    let behind = checking.forward(loser);
    let near = behind | behind.forward(loser) | checking.pawn_attacks(loser);
    let seventh = Bitboard::relative_rank(winner, Rank::R7);
    for a in pawns & (discoverers | seventh | near) {
        let push = Bitboard::from_square(a).forward(winner) - standing;
        let double = if second.contains(a) { push.forward(winner) - standing } else { Bitboard::EMPTY };
        let targets = push | double | (attacks::pawn_attacks(winner, a) & captures);
        // As a pawn: onto a square from which it checks, or off the line it blocks.
        let stays = targets - promoting;
        let mut checks = stays & direct[PieceType::Pawn.index()];
        if discoverers.contains(a) {
            checks |= stays - attacks::line(king, a);
        }
        for d in checks {
            if f(PieceType::Pawn, a, d) {
                return true;
            }
        }
        for d in targets & promoting {
            for kind in [PieceType::Queen, PieceType::Knight] {
                let check = attacks::piece_attacks(kind, d, occ.without(a)).contains(king)
                    || (discoverers.contains(a) && !aligned(king, a, d));
                if check && f(kind, a, d) {
                    return true;
                }
            }
        }
    }
    false
}

/// Is `s` attacked by one of the winner's pieces in `present` (as `pos` has them) on `occ`?
#[inline]
fn attacked_by(pos: &Position, winner: Color, present: Bitboard, s: Square, occ: Bitboard) -> bool {
    let queens = pos.pieces(PieceType::Queen);
    let attackers = (attacks::pawn_attacks(winner.flip(), s) & pos.pieces(PieceType::Pawn))
        | (attacks::knight_attacks(s) & pos.pieces(PieceType::Knight))
        | (attacks::king_attacks(s) & pos.pieces(PieceType::King))
        | (attacks::bishop_attacks(s, occ) & (pos.pieces(PieceType::Bishop) | queens))
        | (attacks::rook_attacks(s, occ) & (pos.pieces(PieceType::Rook) | queens));
    (attackers & present).nonempty()
}

/// The squares next to the loser's king on which a piece of the loser's may leave the winner a
/// mate (see the module's comment): None when any may, else those that are the only free square
/// left unattacked after some check of the winner's on the board with the loser's pieces but
/// the king lifted off.
fn last_free_squares(pos: &Position, winner: Color, king: Square) -> Option<Bitboard> {
    let loser = winner.flip();
    let ours = pos.color(winner);
    let others = pos.color(loser).without(king);
    let free = attacks::king_attacks(king) - others;
    let occ = pos.occupied() - others;
    // The occupancy the winner's moves are made on (the king lifted off for its steps), and
    // what the winner's pieces attack on it (for after_move's shortcut).
    let occ_k = occ.without(king);
    let pawns = pos.pieces_of(winner, PieceType::Pawn);
    let mut seen = pawns.pawn_attacks(winner);
    for a in ours - pawns {
        if let Some(piece) = pos.piece_at(a) {
            seen |= attacks::piece_attacks(piece.kind, a, occ_k);
        }
    }
    // Only a mover that may leave at most one free square unattacked can make one the last
    // (see `may_close`): where no piece may and the winner cannot castle, none is.
    let open = if shortcut() { free - seen } else { Bitboard::EMPTY };
    let mut movers = Bitboard::EMPTY;
    let mut lines = Bitboard::EMPTY;
    for a in ours - pawns {
        let Some(piece) = pos.piece_at(a) else { continue };
        if matches!(piece.kind, PieceType::Bishop | PieceType::Rook | PieceType::Queen) {
            lines |= attacks::empty_board_attacks(piece.kind, a);
        }
        let targets = attacks::piece_attacks(piece.kind, a, occ);
        if open.is_empty() || may_close(open - opened(pos, winner, a, occ_k), piece.kind, targets, true) {
            movers = movers.with(a);
        }
    }
    let pawns = if open.is_empty() { pawns } else { pawn_movers(pos, winner, pawns, king, open, occ_k, lines, true) };
    if movers.is_empty()
        && pawns.is_empty()
        && pos.castling_rook(winner, CastleSide::King).is_none()
        && pos.castling_rook(winner, CastleSide::Queen).is_none()
    {
        return Some(Bitboard::EMPTY);
    }
    // The winner's pieces the loser's (but the king) can take: a square the winner may move to.
    let queens = pos.pieces_of(loser, PieceType::Queen);
    let mut taken = pos.pieces_of(loser, PieceType::Pawn).pawn_attacks(loser);
    for x in pos.pieces_of(loser, PieceType::Knight) {
        taken |= attacks::knight_attacks(x);
    }
    for x in pos.pieces_of(loser, PieceType::Bishop) | queens {
        taken |= attacks::bishop_attacks(x, pos.occupied());
    }
    for x in pos.pieces_of(loser, PieceType::Rook) | queens {
        taken |= attacks::rook_attacks(x, pos.occupied());
    }
    let blocked = ours - taken;
    let direct = attacks::check_squares_by_kind(loser, king, occ);
    let discoverers = discoverers(pos, ours, king, occ, &direct);
    let mut last = Bitboard::EMPTY;
    // Keeps the free squares left unattacked after a move when only one is; false when none.
    let mut left = |open: Bitboard| -> bool {
        if !open.more_than_one() {
            last |= open;
        }
        open.nonempty()
    };
    // Castling (both pieces moved; counted as a check).
    for side in CastleSide::BOTH {
        let Some(rook) = pos.castling_rook(winner, side) else { continue };
        let (king_to, rook_to) = (side.king_to(winner), side.rook_to(winner));
        let after = occ_k.without(pos.king_square(winner)).without(rook).with(king_to).with(rook_to);
        let reach = attacks::rook_attacks(rook_to, after) | attacks::king_attacks(king_to);
        let present = ours.without(pos.king_square(winner)).without(rook);
        if !left(unattacked(pos, winner, present, free - reach, after, Bitboard::EMPTY)) {
            return None;
        }
    }
    for a in movers {
        let Some(piece) = pos.piece_at(a) else { continue };
        let targets = attacks::piece_attacks(piece.kind, a, occ) - blocked;
        let mut checks = targets & direct[piece.kind.index()];
        if discoverers.contains(a) {
            checks |= targets - attacks::line(king, a);
        }
        for d in checks {
            if !left(after_move(pos, winner, free, occ_k, seen, piece.kind, a, d)) {
                return None;
            }
        }
    }
    // Pawns: captures onto every square the pawn attacks (the loser's move may put a piece
    // there) but the winner's pieces the loser cannot take.
    let none_left = |kind, a, d| !left(after_move(pos, winner, free, occ_k, seen, kind, a, d));
    if pawn_checks(winner, pawns, king, occ, occ, !blocked, &direct, discoverers, none_left) {
        return None;
    }
    Some(last)
}

/// May a move of a winner's piece of `kind` onto some of `targets` leave none of `alone`
/// unattacked? `alone`: the squares next to the loser's king, where it stands after its step,
/// that no piece of the winner's attacks now nor once the mover has left its square
/// ([`opened`]), on the board the filter moves on. After a move from a to d another piece
/// attacks only what it attacked before or along a line it had through a (d only blocks), so
/// only the mover from d can attack them: false where no target is a square from which a
/// piece of its kind attacks them all on the empty board. Exact for the filter: where it says
/// no, every move of the piece's fails the filter's own test, so it keeps what it kept without
/// it (`the_shortcut_changes_nothing`); a few table lookups against working out the checks.
#[inline(always)]
fn may_close(alone: Bitboard, kind: PieceType, targets: Bitboard, one_left: bool) -> bool {
    covering(alone, |s| attacks::empty_board_attacks(kind, s), one_left, targets)
}

/// Is one of `targets` a square from which a piece attacks every square of `squares`
/// (`one_left`: all but at most one), `from` giving the squares from which it attacks one?
#[inline(always)]
fn covering(squares: Bitboard, from: impl Fn(Square) -> Bitboard, one_left: bool, targets: Bitboard) -> bool {
    if one_left && !squares.more_than_one() {
        return true;
    }
    // The targets that missed none of the squares so far, and those that missed one.
    let (mut all, mut but_one) = (targets, Bitboard::EMPTY);
    for s in squares {
        let d = from(s);
        but_one = if one_left { (but_one & d) | (all - d) } else { Bitboard::EMPTY };
        all &= d;
        if (all | but_one).is_empty() {
            return false;
        }
    }
    true
}

/// [`may_close`] for the winner's `pawns` that [`pawn_checks`] looks at for a king on `t`:
/// those that may be the mover. A pawn moves onto a square ahead (one or two) or next to that
/// (a capture), and attacks from there as a pawn or, one step from promoting, as a queen or a
/// knight. `lines`: where a pawn may uncover a check. `one_left`: as [`may_close`]'s.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn pawn_movers(
    pos: &Position,
    winner: Color,
    pawns: Bitboard,
    t: Square,
    open: Bitboard,
    occ: Bitboard,
    lines: Bitboard,
    one_left: bool,
) -> Bitboard {
    let loser = winner.flip();
    let seventh = Bitboard::relative_rank(winner, Rank::R7);
    // `pawn_checks`' own superset of the pawns that can check t.
    let checking = attacks::pawn_attacks(loser, t);
    let behind = checking.forward(loser);
    let near = behind | behind.forward(loser) | checking.pawn_attacks(loser);
    // A pawn uncovering a check stands on a line from t and on a slider's line.
    let lines = lines & attacks::empty_board_attacks(PieceType::Queen, t);
    let mut movers = Bitboard::EMPTY;
    for a in pawns & (lines | seventh | near) {
        let alone = open - opened(pos, winner, a, occ);
        let one = Bitboard::from_square(a).forward(winner);
        let targets = one | one.forward(winner) | attacks::pawn_attacks(winner, a);
        let may = if seventh.contains(a) {
            may_close(alone, PieceType::Queen, targets, one_left)
                || may_close(alone, PieceType::Knight, targets, one_left)
        } else {
            covering(alone, |s| attacks::pawn_attacks(loser, s), one_left, targets)
        };
        if may {
            movers = movers.with(a);
        }
    }
    movers
}

/// Are [`may_close`]'s shortcuts taken? Always but where a test turns them off to compare.
#[inline(always)]
fn shortcut() -> bool {
    #[cfg(test)]
    return !tests::NO_SHORTCUT.with(std::cell::Cell::get);
    #[cfg(not(test))]
    true
}

/// What the winner's sliders but the one on `a` attack on `occ` once `a` is emptied, where
/// they see `a` (the lines a move from `a` opens; more than that, never less).
#[inline(always)]
fn opened(pos: &Position, winner: Color, a: Square, occ: Bitboard) -> Bitboard {
    let ours = pos.color(winner);
    let queens = pos.pieces(PieceType::Queen);
    let sliders = (pos.pieces(PieceType::Rook) | pos.pieces(PieceType::Bishop) | queens) & ours;
    // Mostly none on a line through a: one lookup.
    if (attacks::empty_board_attacks(PieceType::Queen, a) & sliders).is_empty() {
        return Bitboard::EMPTY;
    }
    let without = occ.without(a);
    let mut opened = Bitboard::EMPTY;
    for x in attacks::rook_attacks(a, occ) & (pos.pieces(PieceType::Rook) | queens) & ours {
        opened |= attacks::rook_attacks(x, without);
    }
    for x in attacks::bishop_attacks(a, occ) & (pos.pieces(PieceType::Bishop) | queens) & ours {
        opened |= attacks::bishop_attacks(x, without);
    }
    opened
}

/// The winner's pieces (`ours`) that alone stand between `king` and one of them that slides,
/// on `occ` (`direct`: the king's [`attacks::check_squares_by_kind`] on it).
fn discoverers(pos: &Position, ours: Bitboard, king: Square, occ: Bitboard, direct: &[Bitboard; 6]) -> Bitboard {
    let queens = pos.pieces(PieceType::Queen);
    let mut found = Bitboard::EMPTY;
    for kind in [PieceType::Rook, PieceType::Bishop] {
        // Ours first on a line from the king, and our sliders right behind them (x-rays: two
        // lookups where there is something to find, instead of a walk over every slider).
        let lines = direct[kind.index()];
        let first = lines & ours;
        let sliders = (pos.pieces(kind) | queens) & ours;
        if first.is_empty() || sliders.is_empty() {
            continue;
        }
        for x in (attacks::piece_attacks(kind, king, occ - first) - lines) & sliders {
            found |= attacks::between(king, x) & first;
        }
    }
    found
}

/// Up to two of the `free` squares that nothing attacks once the winner's piece moved from `a`
/// to `d` (as a `kind`), on the occupancy `occ` with the loser's king lifted off, the mover
/// counted from `d` only. `seen`: what the winner's pieces attack on `occ`.
#[allow(clippy::too_many_arguments)]
#[inline]
fn after_move(
    pos: &Position,
    winner: Color,
    free: Bitboard,
    occ: Bitboard,
    seen: Bitboard,
    kind: PieceType,
    a: Square,
    d: Square,
) -> Bitboard {
    let occ = occ.without(a).with(d);
    let reach = match kind {
        PieceType::Pawn => attacks::pawn_attacks(winner, d),
        _ => attacks::piece_attacks(kind, d, occ),
    };
    let squares = free - reach;
    // A square that no piece attacks before the move and that is on no line through a is
    // attacked after it only from d (d itself only blocks): open without asking.
    let mut open = Bitboard::EMPTY;
    for s in squares - seen {
        if attacks::line(a, s).is_empty() {
            open = open.with(s);
        }
    }
    if open.more_than_one() {
        return open;
    }
    unattacked(pos, winner, pos.color(winner).without(a), squares - open, occ, open)
}

/// Up to two of `squares` that none of the winner's pieces in `present` (as `pos` has them)
/// attacks on `occ`, with `open` (already known to be).
#[inline]
fn unattacked(
    pos: &Position,
    winner: Color,
    present: Bitboard,
    squares: Bitboard,
    occ: Bitboard,
    mut open: Bitboard,
) -> Bitboard {
    for s in squares {
        if open.more_than_one() {
            break;
        }
        if !attacked_by(pos, winner, present, s, occ) {
            open = open.with(s);
        }
    }
    open
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::movegen::{has_legal_move, legal_moves};
    use crate::rules::unwinnable::cover::may_mate_within;

    thread_local! {
        /// Turns [`may_close`] off (it says "may" to every piece): the filters without the
        /// shortcut, to compare with.
        pub(super) static NO_SHORTCUT: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
    }

    /// The filters with [`may_close`]'s shortcut keep exactly what they keep without it (the
    /// king's steps, the last free squares, every move), on random positions, on the finals and
    /// the positions near them and on two made by hand. A line through the mover's square not
    /// counted ([`opened`]), a pawn that uncovers a check left out or a pawn's move not counted
    /// drops a step the full test keeps (each was tried: this test and
    /// `never_drops_a_move_after_which_a_mate_follows` fail).
    #[test]
    fn the_shortcut_changes_nothing() {
        let mut positions = random_positions(&mut Rng(0x0123_4567_89ab_cdef), 100_000);
        for final_position in super::super::selfplay_finals() {
            positions.extend(final_position.with_nearby());
        }
        // Found among a million random positions: a square next to the king that only a line
        // along a diagonal through the mover's square covers. Made by hand: after 1... Kg4 only
        // 2. e4 mates (the double push uncovers the bishop's check and covers f5; the random
        // positions have no such mate).
        for fen in ["r3k2r/2b5/3n2q1/6n1/3B1K2/2R3n1/8/8 w kq - 0 1", "K7/8/4N3/5k2/8/R7/4P3/3B3R b - - 0 1"] {
            positions.push(Position::from_fen(fen).expect("test FEN"));
        }
        let by_hand = Position::from_fen("K7/8/4N3/5k2/8/R7/4P3/3B3R b - - 0 1").expect("test FEN");
        assert!(mates_after(&by_hand).iter().any(|(m, ws)| m.to_uci() == "f5g4" && ws[0].to_uci() == "e2e4"));
        let (mut steps, mut squares, mut none) = (0, 0, 0);
        for pos in &positions {
            let winner = pos.side_to_move().flip();
            let new = Replies::new(pos, winner);
            NO_SHORTCUT.with(|c| c.set(true));
            let old = Replies::new(pos, winner);
            NO_SHORTCUT.with(|c| c.set(false));
            assert_eq!((new.all, new.king_to, new.to), (old.all, old.king_to, old.to), "{pos:?}");
            assert_eq!(new.allow_none(), old.allow_none(), "{pos:?}");
            steps += new.king_to.count();
            squares += if new.all { 0 } else { new.to.count() };
            none += usize::from(new.allow_none());
        }
        println!("{} positions: {steps} king steps kept, {squares} last squares, {none} allow none", positions.len());
        assert!(steps > 10_000 && squares > 10_000 && none * 10 > positions.len(), "{steps} {squares} {none}");
    }

    /// Every legal move of the loser after which the winner mates at once, with every mate,
    /// the way the brute force finds them: every move of both sides played.
    fn mates_after(pos: &Position) -> Vec<(Move, Vec<Move>)> {
        legal_moves(pos)
            .iter()
            .filter_map(|&m| {
                let child = pos.make_move(m);
                let mates: Vec<Move> = legal_moves(&child)
                    .iter()
                    .copied()
                    .filter(|&w| {
                        let after = child.make_move(w);
                        after.in_check() && !has_legal_move(&after)
                    })
                    .collect();
                (!mates.is_empty()).then_some((m, mates))
            })
            .collect()
    }

    /// xorshift64*: the tests' own random numbers.
    struct Rng(u64);

    impl Rng {
        fn below(&mut self, n: usize) -> usize {
            self.0 ^= self.0 >> 12;
            self.0 ^= self.0 << 25;
            self.0 ^= self.0 >> 27;
            (self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 33) as usize % n
        }
    }

    /// `n` positions of [`random_position`]'s kinds, drawn from `rng`.
    fn random_positions(rng: &mut Rng, n: usize) -> Vec<Position> {
        let mut positions = Vec::with_capacity(n);
        while positions.len() < n {
            positions.extend(random_position(rng));
        }
        positions
    }

    /// A random position for a node before the winner's last move: the kings, up to 12 men
    /// (in three of four within three king steps of the king of the side to move, which is
    /// often on an edge), pawns often one step from promoting, castling rights where a king and
    /// rook stand at home (in one in eight the winner's, set up for castling with check), a
    /// pawn that may advance two squares next to an enemy one (one in eight), an en passant
    /// square where a pawn may just have advanced two squares, either side to move (in check or
    /// not); None when not a legal position.
    fn random_position(rng: &mut Rng) -> Option<Position> {
        let mut board = [None::<char>; 64];
        let white = rng.below(2) == 0;
        let (mover, other) = if white { ('K', 'k') } else { ('k', 'K') };
        // Rank indexes (0 = rank 1) from the side to move's side of the board.
        let rank_of = |r: usize| if white { r } else { 7 - r };
        let mode = rng.below(8);
        let edge = rng.below(2) == 0;
        let king = match mode {
            // The winner's king and rooks at home, the loser's king on the d- or f-file: mates
            // by castling.
            0 => {
                let home = rank_of(7) * 8 + 4;
                board[home] = Some(other);
                board[home - 4] = Some(if white { 'r' } else { 'R' });
                board[home + 3] = Some(if white { 'r' } else { 'R' });
                loop {
                    let sq = rng.below(8) * 8 + [3, 5][rng.below(2)];
                    if (sq / 8).abs_diff(home / 8) >= 2 {
                        break sq;
                    }
                }
            }
            // A pawn of the side to move that may advance two squares next to a pawn of the
            // winner's, its king near: mates by en passant.
            1 => {
                let file = rng.below(8);
                let beside = if file == 0 || (file < 7 && rng.below(2) == 0) { file + 1 } else { file - 1 };
                board[rank_of(1) * 8 + file] = Some(if white { 'P' } else { 'p' });
                board[rank_of(3) * 8 + beside] = Some(if white { 'p' } else { 'P' });
                loop {
                    // Where the capturing pawn checks, or on the rank it opens.
                    let sq = if rng.below(3) == 0 {
                        rank_of(3) * 8 + rng.below(8)
                    } else {
                        rank_of(1) * 8 + (file + 2 * rng.below(2)).clamp(1, 8) - 1
                    };
                    if board[sq].is_none() {
                        break sq;
                    }
                }
            }
            _ => loop {
                let sq = rng.below(64);
                let (rank, file) = (sq / 8, sq % 8);
                if !edge || rank == 0 || rank == 7 || file == 0 || file == 7 {
                    break sq;
                }
            },
        };
        board[king] = Some(mover);
        let near = rng.below(4) != 0;
        let men = rng.below(13);
        let mut pieces = if mode == 0 { vec![] } else { vec![other] };
        pieces.extend((0..men).map(|_| b"PPNBRQppnbrq"[rng.below(12)] as char));
        for piece in pieces {
            for _ in 0..100 {
                let sq = if piece.eq_ignore_ascii_case(&'p') && rng.below(3) == 0 {
                    // One step from promoting.
                    let rank = if piece == 'P' { 6 } else { 1 };
                    rank * 8 + rng.below(8)
                } else {
                    rng.below(64)
                };
                let (rank, file) = (sq / 8, sq % 8);
                let close = rank.abs_diff(king / 8).max(file.abs_diff(king % 8)) <= 3;
                let pawn_ok = !piece.eq_ignore_ascii_case(&'p') || (1..7).contains(&rank);
                if board[sq].is_none() && pawn_ok && (!near || close || piece == other) {
                    board[sq] = Some(piece);
                    break;
                }
            }
        }
        if rng.below(3) == 0 {
            // Kings and rooks at home for castling.
            for (k, r) in [(4, 0), (4, 7), (60, 56), (60, 63)] {
                let (kc, rc) = if k == 4 { ('K', 'R') } else { ('k', 'r') };
                if board[k] == Some(kc) && board[r].is_none() && rng.below(2) == 0 {
                    board[r] = Some(rc);
                }
            }
        }
        let mut castling = String::new();
        for (k, r, kc, rc, c) in
            [(4, 7, 'K', 'R', 'K'), (4, 0, 'K', 'R', 'Q'), (60, 63, 'k', 'r', 'k'), (60, 56, 'k', 'r', 'q')]
        {
            if board[k] == Some(kc) && board[r] == Some(rc) && rng.below(4) != 0 {
                castling.push(c);
            }
        }
        if castling.is_empty() {
            castling.push('-');
        }
        let side = if white { 'w' } else { 'b' };
        // En passant: an enemy pawn on its fourth rank with both squares behind it empty.
        let (ep_rank, behind, pawn) = if white { (4, 1, 'p') } else { (3, -1, 'P') };
        let mut ep = "-".to_string();
        if rng.below(2) == 0 {
            for file in 0..8 {
                let sq = ep_rank * 8 + file;
                let over = (sq as i32 + 8 * behind) as usize;
                let start = (sq as i32 + 16 * behind) as usize;
                if board[sq] == Some(pawn) && board[over].is_none() && board[start].is_none() {
                    ep = format!("{}{}", (b'a' + file as u8) as char, (b'1' + (over / 8) as u8) as char);
                    break;
                }
            }
        }
        let mut fen = String::new();
        for rank in (0..8).rev() {
            let mut empty = 0;
            for file in 0..8 {
                match board[rank * 8 + file] {
                    Some(c) => {
                        if empty > 0 {
                            fen.push_str(&empty.to_string());
                            empty = 0;
                        }
                        fen.push(c);
                    }
                    None => empty += 1,
                }
            }
            if empty > 0 {
                fen.push_str(&empty.to_string());
            }
            if rank > 0 {
                fen.push('/');
            }
        }
        Position::from_fen(&format!("{fen} {side} {castling} {ep} 0 1")).ok()
    }

    /// What the comparison saw: positions where every move was dropped at once, moves, moves
    /// not played, the king's steps and those not played, moves after which the winner mates,
    /// and of those: by the king, by the king taking a piece, by a double push, with the loser
    /// in check, mated by castling, by a promotion, by en passant.
    #[derive(Default, Debug)]
    struct Seen {
        /// Positions where no move is followed by a mate by the filter's word.
        none: usize,
        moves: usize,
        dropped: usize,
        king_steps: usize,
        king_dropped: usize,
        mates: usize,
        king: usize,
        king_takes: usize,
        double_push: usize,
        in_check: usize,
        castling: usize,
        promotion: usize,
        en_passant: usize,
        /// Positions the bound of `cover.rs` rules out.
        bound: usize,
    }

    /// Compares [`Replies`] with the brute force on `pos` (the winner the side not to move):
    /// the first move the filter drops though a mate follows it.
    fn compare(pos: &Position, seen: &mut Seen) -> Result<(), String> {
        let winner = pos.side_to_move().flip();
        let replies = Replies::new(pos, winner);
        let mates = mates_after(pos);
        // The exact search's bound two half-moves from the end (`cover.rs`) as well.
        if !may_mate_within(pos, winner, 2) {
            seen.bound += 1;
            if let Some((m, ws)) = mates.first() {
                return Err(format!(
                    "{}: the bound says none, but {} {} mates",
                    pos.to_fen(),
                    m.to_uci(),
                    ws[0].to_uci()
                ));
            }
        }
        if replies.allow_none() {
            // Then no move is played: every one must be dropped by the filter too.
            if let Some(m) = legal_moves(pos).iter().find(|&&m| replies.may_allow_mate(m)) {
                return Err(format!("{}: none allowed, but {} is played", pos.to_fen(), m.to_uci()));
            }
            seen.none += 1;
            if let Some((m, ws)) = mates.first() {
                return Err(format!("{}: none allowed, but {} {} mates", pos.to_fen(), m.to_uci(), ws[0].to_uci()));
            }
        }
        for &m in legal_moves(pos).iter() {
            seen.moves += 1;
            let kept = replies.may_allow_mate(m);
            seen.dropped += usize::from(!kept);
            let king_step = m.from() == pos.king_square(winner.flip()) && !m.is_castling();
            seen.king_steps += usize::from(king_step);
            seen.king_dropped += usize::from(king_step && !kept);
            if let Some((_, ws)) = mates.iter().find(|(n, _)| *n == m) {
                seen.mates += 1;
                seen.king += usize::from(king_step);
                seen.king_takes += usize::from(king_step && m.is_capture());
                seen.double_push += usize::from(m.kind() == MoveKind::DoublePush);
                seen.in_check += usize::from(pos.in_check());
                seen.castling += usize::from(ws.iter().any(|w| w.is_castling()));
                seen.promotion += usize::from(ws.iter().any(|w| w.is_promotion()));
                seen.en_passant += usize::from(ws.iter().any(|w| w.is_en_passant()));
                if !kept {
                    return Err(format!(
                        "{}: {} is followed by a mate ({}) but not played",
                        pos.to_fen(),
                        m.to_uci(),
                        ws[0].to_uci()
                    ));
                }
            }
        }
        Ok(())
    }

    /// The filter never drops a move after which the winner mates at once, the king's steps
    /// included, against every move of both sides played: on random positions (pawns about to
    /// promote, en passant, castling rights, checks, pins, either side the winner) and on the
    /// self-play finals and the positions one and two random moves after them.
    #[test]
    fn never_drops_a_move_after_which_a_mate_follows() {
        crate::chess::attacks::init();
        let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
        let mut positions = random_positions(&mut rng, 100_000);
        for mut pos in super::super::selfplay_finals() {
            for _ in 0..3 {
                positions.push(pos);
                let moves = legal_moves(&pos);
                if moves.is_empty() {
                    break;
                }
                pos = pos.make_move(moves.get(rng.below(moves.len())));
            }
        }
        // Made by hand, where the over-counting cannot stand in for the rule: only castling
        // mates after 1... a6 (the king's step to g1 covers g2), and after the king's step
        // 1... Kf3; only en passant mates after the double push that blocks the bishop's check
        // (exd3 opens its line again); only castling mates after 1... a6 with f4 free (the rook
        // on its new square covers it through the king).
        for fen in [
            "8/p7/8/8/4ppp1/2N1pkp1/8/4K2R b K - 0 1",
            "8/8/8/8/4ppp1/2N1p1p1/6k1/4K2R b K - 0 1",
            "7k/8/1b6/8/4p3/5PP1/3P1KP1/4NB2 w - - 0 1",
            "8/p7/8/8/4p1p1/2N1pkp1/8/4K2R b K - 0 1",
            // Only 2. e4 mates after 1... Kg4 (the double push uncovers a check and covers f5).
            "K7/8/4N3/5k2/8/R7/4P3/3B3R b - - 0 1",
        ] {
            let pos = Position::from_fen(fen).expect("test FEN");
            assert!(!mates_after(&pos).is_empty(), "{fen}");
            positions.push(pos);
        }
        // A bare king to move skips `last_free_squares`: enough of them are among the positions.
        let bare = positions.iter().filter(|p| p.color(p.side_to_move()).count() == 1).count();
        assert!(bare > 1_000, "{bare} positions with a bare king to move");
        let mut seen = Seen::default();
        let failures: Vec<String> = positions.iter().filter_map(|p| compare(p, &mut seen).err()).take(10).collect();
        assert!(failures.is_empty(), "{failures:#?}");
        println!("{} positions: {seen:?}", positions.len());
        assert!(
            seen.dropped * 2 > seen.moves && seen.king_dropped * 2 > seen.king_steps && seen.none * 4 > positions.len(),
            "{seen:?}"
        );
        assert!(
            seen.mates > 10_000
                && seen.king > 1_000
                && seen.king_takes > 500
                && seen.double_push > 20
                && seen.in_check > 500
                && seen.castling > 20
                && seen.promotion > 1_000
                && seen.en_passant > 5,
            "{seen:?}"
        );
    }

    /// The squares the bound lets a mate end on ([`AfterWinnerMove::mate_ends_after`](crate::rules::unwinnable::cover::AfterWinnerMove))
    /// drop only replies after which no mate follows: on every winner move of the self-play
    /// finals and the positions one and two moves after them (the side to move as the winner),
    /// each reply [`Replies::new`] keeps and [`Replies::ending_on`] drops is played, and no mate
    /// follows it (3.2 M children, 7,721 replies dropped, 16,223 nodes left with none).
    #[test]
    fn the_bound_s_mate_squares_drop_no_reply_a_mate_follows() {
        use crate::rules::unwinnable::cover::AfterWinnerMove;
        crate::chess::attacks::init();
        let (mut children, mut steps_dropped, mut others_dropped, mut none) = (0, 0, 0, 0);
        for final_position in super::super::selfplay_finals().step_by(2) {
            for pos in final_position.with_nearby() {
                let winner = pos.side_to_move();
                let Some(mut after) = AfterWinnerMove::new(&pos, winner) else { continue };
                for &m in legal_moves(&pos).iter() {
                    let Some(ends) = after.mate_ends_after(m) else { continue };
                    if ends.is_empty() {
                        continue;
                    }
                    let child = pos.make_move(m);
                    let (all, within) = (Replies::new(&child, winner), Replies::ending_on(&child, winner, ends));
                    children += 1;
                    none += usize::from(within.allow_none() && !all.allow_none());
                    let kept = within.kept();
                    let before = all.kept();
                    for &r in before.iter().filter(|r| !kept.iter().any(|k| k == *r)) {
                        let after_r = child.make_move(r);
                        let answers = legal_moves(&after_r);
                        let mate = answers.iter().find(|&&w| {
                            let after_w = after_r.make_move(w);
                            after_w.in_check() && !has_legal_move(&after_w)
                        });
                        assert!(
                            mate.is_none(),
                            "{} {} then {} mates in {}",
                            m.to_uci(),
                            r.to_uci(),
                            mate.map_or(String::new(), |w| w.to_uci()),
                            pos.to_fen()
                        );
                        if r.from() == child.king_square(winner.flip()) {
                            steps_dropped += 1;
                        } else {
                            others_dropped += 1;
                        }
                    }
                }
            }
        }
        println!("{children} children: {steps_dropped} king steps and {others_dropped} other replies dropped, {none} left none");
        // The king's own filter already drops every step the bound rules out on these (so
        // there the bound saves only the filter's time); the other pieces' filter keeps more.
        assert!(children > 1_000_000 && others_dropped > 5_000 && none > 10_000);
    }

    /// [`Replies::kept`] makes exactly the legal moves [`Replies::may_allow_mate`] keeps, in
    /// the order of `legal_moves`, on random positions (castling, en passant, double pushes
    /// and promotions among them) with either side as the winner.
    #[test]
    fn kept_is_the_filtered_move_list() {
        crate::chess::attacks::init();
        let mut rng = Rng(0x2545_f491_4f6c_dd1d);
        let (mut positions, mut kept, mut moves) = (0, 0, 0);
        while positions < 30_000 {
            let Some(pos) = random_position(&mut rng) else { continue };
            positions += 1;
            let winner = pos.side_to_move().flip();
            let replies = Replies::new(&pos, winner);
            let all = legal_moves(&pos);
            let want: Vec<Move> = all.iter().copied().filter(|&m| replies.may_allow_mate(m)).collect();
            assert_eq!(replies.kept().iter().copied().collect::<Vec<_>>(), want, "{pos:?}");
            kept += want.len();
            moves += all.len();
        }
        assert!(kept * 10 < moves * 9 && kept * 10 > moves, "{kept} of {moves}");
    }
}
