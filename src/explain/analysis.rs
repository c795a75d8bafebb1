//! The reasoning of the explain mode: for any move text in any position of a game, whether
//! the move is legal and exactly why, as a list of [`Reason`]s that each carry the facts
//! their sentences need (squares, pieces, lines), computed here once for every language.
//!
//! No second copy of the rules lives here. The verdict is always the move generator's
//! (`movegen::is_legal`); the reasons are read from the foundation's queries: piece
//! geometry from the attack tables (`empty_board_attacks`, `between`), king safety from
//! `attackers_to` with the occupancy the move would leave, pins from `pinner_of`,
//! checks from `checkers`, castling from `castling::squares_to_clear` / `castling::king_path`
//! (any king and rook files: Chess960 too) and `attackers_to`. The oracle test checks that every illegal move gets at least one reason.

use super::reason::{Castling, CastlingLoss, CheckAnswer, Placed, Reason};
use crate::chess::attacks;
use crate::chess::castling;
use crate::chess::movegen;
use crate::chess::notation::{self, SanSyntax};
use crate::chess::{Bitboard, CastleSide, Color, File, Move, MoveKind, Piece, PieceType, Position, Square};
use crate::rules::{Game, Outcome, PositionReport};

/// What is known about a legal move: the move, its SAN, and the referee's report on the
/// position after it.
#[derive(Clone, Debug)]
pub struct LegalMove {
    pub mv: Move,
    pub san: String,
    pub after: PositionReport,
}

/// The explainer's answer about one move text.
#[derive(Clone, Debug)]
pub struct Explanation {
    /// The text asked about, as given.
    pub input: String,
    /// The move's squares when known (the move asked about, legal or not).
    pub from: Option<Square>,
    pub to: Option<Square>,
    pub promotion: Option<PieceType>,
    /// The moving piece (as on the board), when there is one.
    pub piece: Option<Piece>,
    /// Illegal: every reason that applies, most fundamental first. Legal: the rules that make it legal.
    pub reasons: Vec<Reason>,
    /// Set exactly when the move is legal.
    pub legal: Option<LegalMove>,
    /// How the input was read when that is not as written (`nf3` is read as `Nf3`).
    pub read_as: Option<String>,
    /// A castling the position allows, written (in UCI) the way of the other convention.
    pub castling_writing: Option<CastlingWriting>,
}

/// A castling the position allows, written the other convention's way: in standard chess
/// `e1h1` (the king onto its own rook, as Chess960 writes castling) for O-O, which is `e1g1`;
/// in Chess960 mode `e8g8` for the castling written `e8h8` there. The input is explained as
/// written (a king move); this says how to write the castling.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CastlingWriting {
    pub side: CastleSide,
    /// The castling as this game writes it in UCI.
    pub here: String,
    /// The game writes castling the Chess960 way (UCI_Chess960, `--chess960`).
    pub chess960: bool,
}

/// The kind of a move, as the contract names them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MoveCategory {
    Quiet,
    Capture,
    DoublePawnPush,
    EnPassant,
    CastlingKingside,
    CastlingQueenside,
    Promotion { piece: PieceType, capture: bool },
}

impl MoveCategory {
    pub fn of(m: Move) -> MoveCategory {
        match m.kind() {
            MoveKind::Quiet => MoveCategory::Quiet,
            MoveKind::Capture => MoveCategory::Capture,
            MoveKind::DoublePush => MoveCategory::DoublePawnPush,
            MoveKind::EnPassant => MoveCategory::EnPassant,
            MoveKind::CastleKing => MoveCategory::CastlingKingside,
            MoveKind::CastleQueen => MoveCategory::CastlingQueenside,
            _ => MoveCategory::Promotion { piece: m.promotion().unwrap_or(PieceType::Queen), capture: m.is_capture() },
        }
    }

    /// JSON name: `quiet`, `capture`, `double_pawn_push`, `en_passant`, `castling_kingside`,
    /// `castling_queenside`, `promotion_queen` (`promotion_capture_knight`, ...).
    pub fn code(self) -> String {
        match self {
            MoveCategory::Quiet => "quiet".into(),
            MoveCategory::Capture => "capture".into(),
            MoveCategory::DoublePawnPush => "double_pawn_push".into(),
            MoveCategory::EnPassant => "en_passant".into(),
            MoveCategory::CastlingKingside => "castling_kingside".into(),
            MoveCategory::CastlingQueenside => "castling_queenside".into(),
            MoveCategory::Promotion { piece, capture: false } => format!("promotion_{}", piece.name()),
            MoveCategory::Promotion { piece, capture: true } => format!("promotion_capture_{}", piece.name()),
        }
    }
}

impl Explanation {
    /// The explanation as shown to a reader: the helpmates in the report after a legal move
    /// shortened ([`PositionReport::for_reader`]). `game` is the game the move was asked in.
    pub fn for_reader(mut self, game: &Game) -> Explanation {
        if let Some(l) = &mut self.legal {
            l.after = l.after.clone().for_reader(&game.current().make_move(l.mv));
        }
        self
    }

    fn new(input: String) -> Explanation {
        Explanation {
            input,
            from: None,
            to: None,
            promotion: None,
            piece: None,
            reasons: Vec::new(),
            legal: None,
            read_as: None,
            castling_writing: None,
        }
    }

    pub fn is_legal(&self) -> bool {
        self.legal.is_some()
    }

    /// The legal move (None when illegal).
    pub fn legal_move(&self) -> Option<Move> {
        self.legal.as_ref().map(|l| l.mv)
    }

    /// The legal move in SAN (None when illegal).
    pub fn san(&self) -> Option<&str> {
        self.legal.as_ref().map(|l| l.san.as_str())
    }

    /// The referee's report after the legal move (None when illegal).
    pub fn after(&self) -> Option<&PositionReport> {
        self.legal.as_ref().map(|l| &l.after)
    }

    /// The kind of the legal move (None when illegal).
    pub fn category(&self) -> Option<MoveCategory> {
        self.legal_move().map(MoveCategory::of)
    }

    /// UCI text of the move asked about (`e2f2`), when its squares are known.
    pub fn uci(&self) -> Option<String> {
        match (self.legal_move(), self.from, self.to) {
            (Some(m), _, _) => Some(m.to_uci()),
            (None, Some(f), Some(t)) => {
                Some(format!("{f}{t}{}", self.promotion.map(|p| p.char().to_string()).unwrap_or_default()))
            }
            _ => None,
        }
    }

    /// The codes of the reasons, in order.
    pub fn codes(&self) -> Vec<&'static str> {
        self.reasons.iter().map(|r| r.code().as_str()).collect()
    }
}

/// Explains `text` (UCI or SAN) as the next move of `game`.
pub fn explain(game: &Game, text: &str) -> Explanation {
    let input = text.trim().to_string();
    let pos = game.current();
    let mut ex = Explanation::new(input.clone());
    if let Some((from, to, promo)) = notation::parse_uci_lenient(&input) {
        explain_squares(game, &mut ex, from, to, promo);
        if promo.is_none() && ex.legal.is_none() {
            ex.castling_writing = castling_written_otherwise(pos, from, to);
        }
        return ex;
    }
    let syntax = match read_san(pos, &input) {
        Reading::Syntax(syntax, read_as) => {
            ex.read_as = read_as;
            syntax
        }
        Reading::Two { pawn, bishop } => {
            ex.reasons.push(Reason::TwoReadings { input, pawn, bishop });
            return ex;
        }
        Reading::Malformed => {
            ex.reasons.push(Reason::Malformed { input });
            return ex;
        }
    };
    let us = pos.side_to_move();
    if let Some(side) = syntax.castle {
        if pos.castling_rook(us, side).is_some() {
            let m = pos.castling_move(us, side);
            explain_move(game, &mut ex, m.from(), m.to(), None, Some(side));
            return ex;
        }
        // "O-O" without the right: it is gone, wherever the king stands.
        ex.piece = Some(Piece::new(us, PieceType::King));
        ex.from = Some(pos.king_square(us));
        ex.to = Some(if pos.is_chess960() { castling_of(game, us, side).rook_from } else { side.king_to(us) });
        if let Some(outcome) = game.outcome() {
            ex.reasons.push(Reason::GameOver { outcome });
        }
        castling_reasons(game, us, side, &mut ex.reasons);
        return ex;
    }
    let mut candidates = notation::san_candidates(pos, &syntax);
    if candidates.is_empty() && syntax.piece == PieceType::Pawn && syntax.from_file.is_none() && syntax.capture {
        // `Pxd5`: a pawn capture named by the pawn letter instead of its file. The pawns
        // that can take there (en passant too) are meant; the move is read as its SAN.
        let file = syntax.to.file().index();
        candidates = File::ALL
            .into_iter()
            .filter(|f| f.index().abs_diff(file) == 1)
            .flat_map(|f| notation::san_candidates(pos, &SanSyntax { from_file: Some(f), ..syntax }))
            .collect();
        if let [m] = candidates.as_slice() {
            ex.read_as = Some(notation::to_san(pos, *m));
        }
    }
    match candidates.as_slice() {
        [m] => explain_squares(game, &mut ex, m.from(), m.to(), m.promotion()),
        [] if names_a_piece(pos, &syntax) => explain_bare_square(game, &mut ex, syntax.to),
        [] => explain_unmatched_san(game, &mut ex, &syntax),
        many => {
            ex.to = Some(syntax.to);
            ex.piece = Some(Piece::new(us, syntax.piece));
            ex.reasons.push(Reason::Ambiguous {
                input,
                candidates: many.iter().map(|&m| (notation::to_san(pos, m), m)).collect(),
            });
        }
    }
    ex
}

/// How a move text is read as SAN.
enum Reading {
    /// One reading; the text it was read as, when not as written.
    Syntax(SanSyntax, Option<String>),
    /// A lower-case `b`: a b-pawn capture without `x`, or a bishop move with a small letter.
    Two {
        pawn: String,
        bishop: String,
    },
    Malformed,
}

/// Reads SAN as beginners type it: a piece letter in lower case (`nf3`, `qh5`, `kxe2`) is read
/// as the capital; `b` is also a file, so `bc4` is the b-pawn capturing (written `bxc4`) or the
/// bishop (`Bc4`): whichever names a legal move when only one does, otherwise both are named.
/// Standard SAN (`bxc4`, `b4`) is read as written.
fn read_san(pos: &Position, input: &str) -> Reading {
    let as_written = notation::parse_san_syntax(input);
    let capital = match input.chars().next() {
        Some(c @ ('n' | 'b' | 'r' | 'q' | 'k')) => {
            let text = format!("{}{}", c.to_ascii_uppercase(), &input[1..]);
            notation::parse_san_syntax(&text).map(|syntax| (text, syntax))
        }
        _ => None,
    };
    match (as_written, capital) {
        (None, None) => Reading::Malformed,
        (None, Some((text, syntax))) => Reading::Syntax(syntax, Some(text)),
        (Some(syntax), None) => Reading::Syntax(syntax, None),
        // A pawn move, or a pawn capture with its `x`: standard SAN.
        (Some(syntax), Some(_)) if syntax.from_file.is_none() || syntax.capture => Reading::Syntax(syntax, None),
        (Some(pawn), Some((bishop_text, bishop))) => {
            // `bb5` is the b-pawn's advance `b5`; `bc4` its capture `bxc4`.
            let pawn_text = if pawn.from_file == Some(pawn.to.file()) {
                input[1..].to_string()
            } else {
                format!("{}x{}", &input[..1], &input[1..])
            };
            let pawn_legal = !notation::san_candidates(pos, &pawn).is_empty();
            let bishop_legal = !notation::san_candidates(pos, &bishop).is_empty();
            match (pawn_legal, bishop_legal) {
                (true, false) => Reading::Syntax(pawn, Some(pawn_text)),
                (false, true) => Reading::Syntax(bishop, Some(bishop_text)),
                _ => Reading::Two { pawn: pawn_text, bishop: bishop_text },
            }
        }
    }
}

/// A bare square (`e2`: SAN for a pawn moving there) that holds a piece of the side to move,
/// where no pawn of that side could advance from another square: the text points at the
/// piece; it is not a move (a pawn never moves onto its own side's piece).
fn names_a_piece(pos: &Position, syntax: &SanSyntax) -> bool {
    let us = pos.side_to_move();
    let bare = syntax.piece == PieceType::Pawn
        && syntax.from_file.is_none()
        && syntax.from_rank.is_none()
        && !syntax.capture
        && syntax.promotion.is_none();
    let pawn = Piece::new(us, PieceType::Pawn);
    let pawns_behind = (pos.pieces_of(us, PieceType::Pawn) & Bitboard::file(syntax.to.file()))
        .into_iter()
        .any(|from| from != syntax.to && could_reach(pawn, from, syntax.to));
    bare && pos.piece_at(syntax.to).is_some_and(|p| p.color == us) && !pawns_behind
}

/// The answer to a bare square holding a piece of the side to move: not a move, and the
/// moves that piece has.
fn explain_bare_square(game: &Game, ex: &mut Explanation, square: Square) {
    let pos = game.current();
    let Some(piece) = pos.piece_at(square) else { return };
    ex.from = Some(square);
    ex.piece = Some(piece);
    if let Some(outcome) = game.outcome() {
        ex.reasons.push(Reason::GameOver { outcome });
    }
    let moves = if game.outcome().is_some() {
        Vec::new()
    } else {
        movegen::legal_moves(pos)
            .iter()
            .filter(|m| m.from() == square)
            .map(|&m| (notation::to_san(pos, m), m))
            .collect()
    };
    ex.reasons.push(Reason::BareSquare { piece, square, moves });
}

/// SAN that names no legal move: find the piece(s) the writer must have meant — pieces of
/// that kind (and disambiguation) whose way of moving reaches the square on an empty
/// board — and explain those moves.
fn explain_unmatched_san(game: &Game, ex: &mut Explanation, syntax: &SanSyntax) {
    let pos = game.current();
    let us = pos.side_to_move();
    let wanted = Piece::new(us, syntax.piece);
    let mut own = pos.pieces_of(us, syntax.piece);
    if let Some(f) = syntax.from_file {
        own &= Bitboard::file(f);
    }
    if let Some(r) = syntax.from_rank {
        own &= Bitboard::rank(r);
    }
    if syntax.piece == PieceType::Pawn && syntax.from_file.is_none() {
        // A push is the pawn on the square's file; a capture (`Pxd5`), one that attacks it.
        own &=
            if syntax.capture { attacks::pawn_attacks(us.flip(), syntax.to) } else { Bitboard::file(syntax.to.file()) };
    }
    ex.to = Some(syntax.to);
    ex.piece = Some(wanted);
    if own.is_empty() {
        ex.reasons.push(Reason::NoPiece {
            from: None,
            wanted: Some(wanted),
            to: Some(syntax.to),
            from_file: syntax.from_file,
            from_rank: syntax.from_rank,
        });
        return;
    }
    let reach: Vec<Square> = own.into_iter().filter(|&from| could_reach(wanted, from, syntax.to)).collect();
    let chosen: Vec<Square> = match reach.as_slice() {
        [] if own.count() == 1 => own.into_iter().collect(),
        [] => {
            ex.reasons.push(Reason::BadGeometry { piece: wanted, from: None, to: syntax.to });
            return;
        }
        some => some.to_vec(),
    };
    let mut first = true;
    for from in chosen {
        let mut sub = ex.clone();
        sub.reasons.clear();
        explain_squares(game, &mut sub, from, syntax.to, syntax.promotion);
        if first {
            ex.from = sub.from;
            ex.promotion = sub.promotion;
            first = false;
        }
        for r in sub.reasons {
            if !ex.reasons.contains(&r) {
                ex.reasons.push(r);
            }
        }
    }
}

/// Whether a piece's way of moving takes it from `from` to `to` on an empty board
/// (pawns: one or two steps forward, or one diagonal step forward).
fn could_reach(piece: Piece, from: Square, to: Square) -> bool {
    if piece.kind == PieceType::Pawn {
        let fwd = piece.color.forward();
        return from.offset(fwd) == Some(to)
            || from.offset(2 * fwd) == Some(to)
            || attacks::pawn_attacks(piece.color, from).contains(to);
    }
    attacks::empty_board_attacks(piece.kind, from).contains(to)
}

fn placed(pos: &Position, squares: Bitboard) -> Vec<Placed> {
    squares.into_iter().filter_map(|s| pos.piece_at(s).map(|p| (p, s))).collect()
}

/// The heart of the explainer: the move `from`-`to` (with an optional promotion letter).
fn explain_squares(game: &Game, ex: &mut Explanation, from: Square, to: Square, promo: Option<PieceType>) {
    explain_move(game, ex, from, to, promo, None);
}

/// The piece on `from` if the player to move may move it, after the reasons that come first
/// whatever the move: the game is over (`outcome`), no piece stands there, the piece is the
/// opponent's. (`to`: where the move goes, when there is a move.)
fn piece_to_move(
    pos: &Position,
    outcome: Option<Outcome>,
    ex: &mut Explanation,
    from: Square,
    to: Option<Square>,
) -> Option<Piece> {
    if let Some(outcome) = outcome {
        ex.reasons.push(Reason::GameOver { outcome });
    }
    let Some(piece) = pos.piece_at(from) else {
        ex.reasons.push(Reason::NoPiece { from: Some(from), wanted: None, to, from_file: None, from_rank: None });
        return None;
    };
    ex.piece = Some(piece);
    if piece.color != pos.side_to_move() {
        ex.reasons.push(Reason::NotYourPiece { piece, from });
        return None;
    }
    Some(piece)
}

/// A board's first click: may the piece on `square` be chosen to move now? The reasons it may
/// not (the game is over, no piece stands there, it is the opponent's), in an explanation whose
/// input is the square; none when it may (its legal moves are then the board's targets).
pub fn explain_selection(game: &Game, square: Square) -> Explanation {
    let mut ex = Explanation::new(square.to_string());
    ex.from = Some(square);
    piece_to_move(game.current(), game.outcome(), &mut ex, square, None);
    ex
}

/// `explain_squares`, or with `castle` set: the castling on that side (`O-O` / `O-O-O`),
/// whatever squares it is written with.
fn explain_move(
    game: &Game,
    ex: &mut Explanation,
    from: Square,
    to: Square,
    promo: Option<PieceType>,
    castle: Option<CastleSide>,
) {
    let pos = game.current();
    ex.from = Some(from);
    ex.to = Some(to);
    ex.promotion = promo;
    let outcome = game.outcome();
    let Some(piece) = piece_to_move(pos, outcome, ex, from, Some(to)) else {
        return;
    };
    let us = pos.side_to_move();
    let castle_side = castle.or_else(|| castling_side(game, piece, from, to));
    if from == to && castle_side.is_none() {
        ex.reasons.push(Reason::SameSquare { piece, square: from });
        return;
    }
    let before = ex.reasons.len();
    if let Some(side) = castle_side {
        if let Some(p) = promo {
            ex.reasons.push(Reason::BadPromotionPiece { piece, from, to, promotion: p, last_rank: false });
        }
        castling_reasons(game, us, side, &mut ex.reasons);
    } else {
        movement_reasons(game, piece, from, to, promo, &mut ex.reasons);
    }
    let movement_ok = ex.reasons.len() == before;
    let m = candidate_move(pos, piece, from, to, promo, castle_side);
    let legal_by_movegen = m.is_some_and(|m| movegen::is_legal(pos, m));
    if movement_ok && !legal_by_movegen {
        if let Some(m) = m {
            safety_reasons(pos, piece, m, &mut ex.reasons);
        }
    }
    // A move the movement rules accept is legal exactly when the generator says so; the
    // oracle test checks the other direction (movement reasons only for generator-illegal moves).
    debug_assert!(
        !movement_ok || legal_by_movegen == (ex.reasons.len() == before),
        "explainer disagrees with movegen on {from}{to} in {}",
        pos.to_fen()
    );
    let legal_by_movegen = legal_by_movegen && movement_ok;
    if legal_by_movegen && outcome.is_none() {
        if let Some(m) = m {
            let mut after = game.clone();
            if after.play(m).is_ok() {
                ex.reasons = legal_reasons(pos, piece, m);
                ex.legal = Some(LegalMove { mv: m, san: notation::to_san(pos, m), after: after.report() });
            }
        }
    }
}

/// The castling the position allows that `from`-`to` (a move of the king of the side to move,
/// in UCI) writes the other convention's way, if any: onto its own castling rook in standard
/// chess, or two squares to the g- or c-file in Chess960 mode.
fn castling_written_otherwise(pos: &Position, from: Square, to: Square) -> Option<CastlingWriting> {
    let us = pos.side_to_move();
    if from != pos.king_square(us) || pos.piece_at(from) != Some(Piece::new(us, PieceType::King)) {
        return None;
    }
    CastleSide::BOTH.into_iter().find_map(|side| {
        let rook = pos.castling_rook(us, side)?;
        let castling = pos.castling_move(us, side);
        let other_way = if pos.is_chess960() { to == side.king_to(us) && to != rook } else { to == rook };
        (other_way && movegen::is_legal(pos, castling)).then(|| CastlingWriting {
            side,
            here: castling.to_uci(),
            chess960: pos.is_chess960(),
        })
    })
}

/// Is this a castling attempt? In Chess960 mode (UCI_Chess960) castling is written as the
/// king taking its own castling rook; otherwise as the king's move from its initial square to
/// the g- or c-file, two squares or more (a shorter one, possible in Chess960 positions, is
/// read as a king step: only `O-O` names it without doubt).
fn castling_side(game: &Game, piece: Piece, from: Square, to: Square) -> Option<CastleSide> {
    let us = piece.color;
    if piece.kind != PieceType::King || from.rank() != us.back_rank() || to.rank() != us.back_rank() {
        return None;
    }
    if game.current().is_chess960() {
        let side = CastleSide::of_rook(from, to);
        let onto_own_rook = game.current().piece_at(to) == Some(Piece::new(us, PieceType::Rook));
        return (onto_own_rook && castling_of(game, us, side).rook_from == to).then_some(side);
    }
    CastleSide::BOTH.into_iter().find(|&side| {
        to == side.king_to(us)
            && from == castling_of(game, us, side).king_from
            && from.file().index().abs_diff(to.file().index()) >= 2
    })
}

/// The castling `us` may make on `side` in this game: with the king and rook of the right
/// while it is held, else those of the start position, else the standard squares.
fn castling_of(game: &Game, us: Color, side: CastleSide) -> Castling {
    let chess960 = game.current().is_chess960();
    [game.current(), game.start()]
        .into_iter()
        .find_map(|p| p.castling_rook(us, side).map(|rook| Castling::new(us, side, p.king_square(us), rook, chess960)))
        .unwrap_or_else(|| Castling::new(us, side, CastleSide::king_from(us), side.rook_from(us), chess960))
}

/// The move as the generator would encode it, for asking `movegen::is_legal`.
fn candidate_move(
    pos: &Position,
    piece: Piece,
    from: Square,
    to: Square,
    promo: Option<PieceType>,
    castle: Option<CastleSide>,
) -> Option<Move> {
    if let Some(side) = castle {
        let kind = if side == CastleSide::King { MoveKind::CastleKing } else { MoveKind::CastleQueen };
        return Some(Move::new(from, to, kind));
    }
    let capture = pos.piece_at(to).is_some_and(|t| t.color != piece.color);
    let kind = if piece.kind == PieceType::Pawn {
        if let Some(p) = promo {
            if matches!(p, PieceType::King | PieceType::Pawn) {
                return None;
            }
            MoveKind::promotion(p, capture)
        } else if !capture && from.file() != to.file() && pos.ep_square() == Some(to) {
            MoveKind::EnPassant
        } else if from.offset(2 * piece.color.forward()) == Some(to) {
            MoveKind::DoublePush
        } else if capture {
            MoveKind::Capture
        } else {
            MoveKind::Quiet
        }
    } else if promo.is_some() {
        return None;
    } else if capture {
        MoveKind::Capture
    } else {
        MoveKind::Quiet
    };
    Some(Move::new(from, to, kind))
}

/// Geometry, path, destination and pawn rules (everything except king safety).
fn movement_reasons(
    game: &Game,
    piece: Piece,
    from: Square,
    to: Square,
    promo: Option<PieceType>,
    out: &mut Vec<Reason>,
) {
    let pos = game.current();
    let us = piece.color;
    let occ = pos.occupied();
    let target = pos.piece_at(to);
    let last_rank = to.rank() == us.promotion_rank();
    if let Some(p) = promo {
        if piece.kind != PieceType::Pawn || !last_rank {
            out.push(Reason::BadPromotionPiece { piece, from, to, promotion: p, last_rank: false });
        } else if matches!(p, PieceType::King | PieceType::Pawn) {
            out.push(Reason::BadPromotionPiece { piece, from, to, promotion: p, last_rank: true });
        }
    }
    let own_target = target.filter(|t| t.color == us);
    if piece.kind != PieceType::Pawn {
        if !attacks::empty_board_attacks(piece.kind, from).contains(to) {
            // Geometry first, then anything else that is also wrong with the destination.
            out.push(Reason::BadGeometry { piece, from: Some(from), to });
            if let Some(occupant) = own_target {
                out.push(Reason::OwnPiece { piece, from, to, occupant });
            } else if piece.kind == PieceType::King {
                let m = Move::new(from, to, MoveKind::Quiet);
                let attacked = pos.attackers_to(to, occ.without(from)) & pos.color(us.flip());
                if attacked.nonempty() {
                    safety_reasons(pos, piece, m, out);
                }
            }
            return;
        }
        if let Some(b) = first_blocker(from, to, occ) {
            if let Some(bp) = pos.piece_at(b) {
                out.push(Reason::PathBlocked { piece, from, to, blocker: (bp, b) });
            }
        }
        if let Some(occupant) = own_target {
            out.push(Reason::OwnPiece { piece, from, to, occupant });
        }
        return;
    }
    // Pawns (3.7): forward is towards the opponent's side.
    let fwd_steps = (to.rank().index() as i32 - from.rank().index() as i32) * if us == Color::White { 1 } else { -1 };
    let files = (to.file().index() as i32 - from.file().index() as i32).abs();
    if fwd_steps <= 0 {
        out.push(Reason::PawnBackward { piece, from, to, sideways: from.rank() == to.rank() });
        return;
    }
    match (files, fwd_steps) {
        (0, 1) => {
            if let Some(occupant) = target {
                if occupant.color == us {
                    out.push(Reason::OwnPiece { piece, from, to, occupant });
                } else {
                    out.push(Reason::PawnForwardCapture { piece, from, to, occupant });
                }
            }
        }
        (0, 2) => {
            if from.rank() != us.pawn_start_rank() {
                out.push(Reason::PawnDoubleNotFirst { piece, from, to });
                return;
            }
            if let Some(mid) = from.offset(us.forward()) {
                if let Some(bp) = pos.piece_at(mid) {
                    out.push(Reason::PathBlocked { piece, from, to, blocker: (bp, mid) });
                }
            }
            if let Some(occupant) = target {
                if occupant.color == us {
                    out.push(Reason::OwnPiece { piece, from, to, occupant });
                } else {
                    out.push(Reason::PawnForwardCapture { piece, from, to, occupant });
                }
            }
        }
        (1, 1) => match target {
            Some(occupant) if occupant.color == us => out.push(Reason::OwnPiece { piece, from, to, occupant }),
            Some(_) => {}
            None if pos.ep_square() == Some(to) => {}
            None => {
                let expired = to.offset(-us.forward()).and_then(|cap| {
                    if pos.piece_at(cap) != Some(Piece::new(us.flip(), PieceType::Pawn)) {
                        return None;
                    }
                    let n = game.moves().len();
                    game.double_steps()
                        .into_iter()
                        .rev()
                        .find(|&(_, landing)| landing == cap)
                        .map(|(ply, _)| (cap, ply.map(|i| n - i)))
                });
                match expired {
                    Some((enemy_pawn, plies_ago)) => {
                        out.push(Reason::EnPassantExpired { piece, from, to, enemy_pawn, plies_ago })
                    }
                    None => out.push(Reason::PawnDiagonalEmpty { piece, from, to }),
                }
            }
        },
        _ => {
            out.push(Reason::BadGeometry { piece, from: Some(from), to });
            return;
        }
    }
    if last_rank && promo.is_none() && out.is_empty() {
        out.push(Reason::PromotionRequired { piece, from, to });
    }
}

/// The first occupied square on the way from `from` to `to` (they must be aligned).
fn first_blocker(from: Square, to: Square, occ: Bitboard) -> Option<Square> {
    let on_path = attacks::between(from, to) & occ;
    on_path.into_iter().min_by_key(|&s| attacks::between(from, s).count())
}

/// Every castling condition that fails (3.8.2.1, 3.8.2.2; Chess960: Guidelines II.3), in the
/// order of the Laws. The same conditions as the move generator's, for any king and rook files.
fn castling_reasons(game: &Game, us: Color, side: CastleSide, out: &mut Vec<Reason>) {
    let pos = game.current();
    let castling = castling_of(game, us, side);
    let them = us.flip();
    let (king_home, rook_home) = (castling.king_from, castling.rook_from);
    if !pos.castling_rights().has(us, side) {
        let cause = if pos.piece_at(king_home) != Some(Piece::new(us, PieceType::King)) {
            CastlingLoss::KingNotHome
        } else if pos.piece_at(rook_home) != Some(Piece::new(us, PieceType::Rook)) {
            CastlingLoss::RookGone
        } else if game.moves().iter().any(|m| m.from() == king_home) {
            CastlingLoss::KingMoved
        } else if game.moves().iter().any(|m| m.from() == rook_home || m.to() == rook_home) {
            CastlingLoss::RookMoved
        } else {
            CastlingLoss::NotInStartPosition
        };
        out.push(Reason::CastlingRightsLost { castling, cause });
    }
    let blocked = castling::squares_to_clear(king_home, rook_home) & pos.occupied();
    if blocked.nonempty() {
        out.push(Reason::CastlingPathOccupied { castling, occupied: placed(pos, blocked) });
    }
    if pos.in_check() {
        out.push(Reason::CastlingInCheck { castling, checkers: placed(pos, pos.checkers()) });
    }
    // Attacks as the generator sees them: without the castling rook, which in Chess960 may
    // shield the king's destination from a rook or queen beyond it.
    let occ = pos.occupied();
    let without_rook =
        if pos.piece_at(rook_home) == Some(Piece::new(us, PieceType::Rook)) { occ.without(rook_home) } else { occ };
    for sq in castling::king_path(king_home, rook_home) {
        if sq == king_home && pos.in_check() {
            continue; // said by castling_in_check
        }
        let attackers = pos.attackers_to(sq, without_rook) & pos.color(them);
        if attackers.is_empty() {
            continue;
        }
        let behind_rook = (pos.attackers_to(sq, occ) & pos.color(them)).is_empty();
        let attackers = placed(pos, attackers);
        if sq == castling.king_to {
            out.push(Reason::CastlingIntoCheck { castling, square: sq, attackers, behind_rook });
        } else {
            out.push(Reason::CastlingThroughCheck { castling, square: sq, attackers, behind_rook });
        }
    }
}

/// Why a move that obeys the piece's movement rules still leaves its king attacked
/// (3.8.1, 3.9.2, 3.10): computed by asking `attackers_to` about the king's square with
/// the occupancy the move would leave.
fn safety_reasons(pos: &Position, piece: Piece, m: Move, out: &mut Vec<Reason>) {
    let us = piece.color;
    let them = us.flip();
    let (from, to) = (m.from(), m.to());
    let occ = pos.occupied();
    if piece.kind == PieceType::King {
        // The king's own square is vacated: a slider checking along the line still hits `to`.
        let attackers = pos.attackers_to(to, occ.without(from)) & pos.color(them);
        let their_king = pos.king_square(them);
        let (their_blockers, _) = pos.slider_blockers(their_king, us);
        let pinned = attackers & their_blockers;
        let only_pinned_attackers = pinned.nonempty() && pinned == attackers;
        let defended = pos.piece_at(to).filter(|t| t.color == them);
        let attackers = placed(pos, attackers);
        let kings_meet = attackers.iter().any(|(p, _)| p.kind == PieceType::King);
        out.push(Reason::KingIntoCheck {
            king: piece,
            from,
            to,
            attackers,
            defended,
            pinned_attackers: pinned.into_iter().collect(),
            kings_meet,
            only_pinned_attackers,
        });
        return;
    }
    let ksq = pos.king_square(us);
    let captured_sq = if m.is_en_passant() { to.offset(-us.forward()) } else { Some(to) };
    let captured_bb = captured_sq.map(Bitboard::from_square).unwrap_or(Bitboard::EMPTY);
    let occ_after = (occ.without(from) & !captured_bb).with(to);
    let attackers = pos.attackers_to(ksq, occ_after) & pos.color(them) & !captured_bb;
    let checkers = pos.checkers();
    let still = attackers & checkers;
    if still.nonempty() {
        let unblockable = checkers
            .into_iter()
            .all(|c| pos.piece_at(c).is_some_and(|p| matches!(p.kind, PieceType::Knight | PieceType::Pawn)));
        out.push(Reason::LeavesKingInCheck {
            piece,
            from,
            to,
            king: ksq,
            checkers: placed(pos, checkers),
            double: checkers.more_than_one(),
            unblockable,
        });
    }
    for pinner in attackers & !checkers {
        if let Some(pp) = pos.piece_at(pinner) {
            out.push(Reason::ExposesKing {
                piece,
                from,
                to,
                king: ksq,
                pinner: (pp, pinner),
                en_passant: m.is_en_passant() && pos.pinner_of(from) != Some(pinner),
            });
        }
    }
}

/// The rules that make the legal move `m` legal.
fn legal_reasons(pos: &Position, piece: Piece, m: Move) -> Vec<Reason> {
    let us = piece.color;
    let (from, to) = (m.from(), m.to());
    let mut out = Vec::new();
    let captured = pos.piece_at(to);
    match m.kind() {
        MoveKind::CastleKing | MoveKind::CastleQueen => {
            let side = if m.kind() == MoveKind::CastleKing { CastleSide::King } else { CastleSide::Queen };
            let rook = pos.castling_rook(us, side).unwrap_or(side.rook_from(us));
            let castling = Castling::new(us, side, from, rook, pos.is_chess960());
            out.push(match side {
                CastleSide::King => Reason::CastlingKingside { castling },
                CastleSide::Queen => Reason::CastlingQueenside { castling },
            });
            // Squares only the rook stands on or crosses (a1 and b1, h1 in standard chess):
            // attacks there do not matter.
            let extra =
                (castling::squares_to_clear(from, rook).with(rook) & !castling::king_path(from, rook)).without(from);
            let attacked: Vec<Square> = extra.into_iter().filter(|&s| pos.is_square_attacked(s, us.flip())).collect();
            if !attacked.is_empty() {
                out.push(Reason::CastlingAttackedRookAllowed { castling, squares: attacked });
            }
            return out;
        }
        MoveKind::DoublePush => {
            let passed = from.offset(us.forward()).unwrap_or(from);
            out.push(Reason::PawnDoubleStep { piece, from, to, passed });
        }
        MoveKind::EnPassant => {
            let captured_on = to.offset(-us.forward()).unwrap_or(to);
            out.push(Reason::EnPassant { piece, from, to, captured_on });
        }
        _ => match (piece.kind, captured) {
            (PieceType::Pawn, Some(c)) => out.push(Reason::PawnCapture { piece, from, to, captured: c }),
            (_, Some(c)) => {
                out.push(Reason::movement(piece, from, to));
                out.push(Reason::Capture { piece, from, to, captured: c });
            }
            _ => out.push(Reason::movement(piece, from, to)),
        },
    }
    if let Some(p) = m.promotion() {
        out.push(Reason::Promotion { piece, to, promotion: p });
    }
    if pos.in_check() {
        let checkers = placed(pos, pos.checkers());
        let how = if piece.kind == PieceType::King {
            CheckAnswer::KingMoves
        } else if pos.checkers().contains(to)
            || (m.is_en_passant() && to.offset(-us.forward()).is_some_and(|c| pos.checkers().contains(c)))
        {
            CheckAnswer::CapturesChecker
        } else {
            CheckAnswer::Blocks
        };
        out.push(Reason::ResolvesCheck { piece, to, how, checkers });
    }
    if piece.kind != PieceType::King && pos.pinned().contains(from) {
        if let Some(pinner) = pos.pinner_of(from) {
            if let Some(pp) = pos.piece_at(pinner) {
                out.push(Reason::PinnedAlongLine {
                    piece,
                    from,
                    to,
                    king: pos.king_square(us),
                    pinner: (pp, pinner),
                    captures_pinner: to == pinner,
                });
            }
        }
    }
    let king_moved = piece.kind == PieceType::King;
    out.push(Reason::KingSafe { king: if king_moved { to } else { pos.king_square(us) }, king_moved });
    out
}
