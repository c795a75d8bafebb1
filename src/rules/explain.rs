//! Explain mode: for any move text in any position of a game, whether the move is legal
//! and exactly why, as a list of [`Reason`]s that each name their squares and pieces and
//! cite the FIDE Laws (contract: `docs/explain.md`).
//!
//! No second copy of the rules lives here. The verdict is always the move generator's
//! (`movegen::is_legal`); the reasons are read from the foundation's queries: piece
//! geometry from the attack tables (`empty_board_attacks`, `between`), king safety from
//! `attackers_to` with the occupancy the move would leave, pins from `pinner_of`,
//! checks from `checkers`, castling from `castling_path` / `castling_king_path` and
//! `attackers_by`. The oracle test checks that every illegal move gets at least one reason.

use crate::chess::attacks;
use crate::chess::movegen;
use crate::chess::notation::{self, SanSyntax};
use crate::chess::{Bitboard, CastleSide, Color, Move, MoveKind, Piece, PieceType, Position, Square};
use crate::rules::referee::{Game, Outcome, PositionReport};

/// Output language.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Lang {
    En,
    Zh,
}

impl Lang {
    /// `en` or `zh` (also accepts `zh-cn`, `cn`, `chinese`, `english`).
    pub fn parse(text: &str) -> Option<Lang> {
        match text.trim().to_ascii_lowercase().as_str() {
            "en" | "english" | "en-us" | "en-gb" => Some(Lang::En),
            "zh" | "cn" | "zh-cn" | "zh-hans" | "chinese" => Some(Lang::Zh),
            _ => None,
        }
    }
}

/// The stable reason codes of the contract (illegal moves) and of legal-move rationales.
/// Text for every code exists in every language: `text.rs` matches on [`Reason`]
/// exhaustively, so a missing translation does not compile.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ReasonCode {
    // Why a move is illegal.
    Malformed,
    Ambiguous,
    NoPiece,
    NotYourPiece,
    GameOver,
    BadGeometry,
    PathBlocked,
    OwnPiece,
    PawnForwardCapture,
    PawnDiagonalEmpty,
    PawnDoubleNotFirst,
    PawnBackward,
    EnPassantExpired,
    PromotionRequired,
    BadPromotionPiece,
    CastlingRightsLost,
    CastlingPathOccupied,
    CastlingInCheck,
    CastlingThroughCheck,
    CastlingIntoCheck,
    KingIntoCheck,
    LeavesKingInCheck,
    ExposesKing,
    // Why a move is legal.
    PawnAdvance,
    PawnDoubleStep,
    PawnCapture,
    EnPassant,
    Promotion,
    KnightMove,
    BishopMove,
    RookMove,
    QueenMove,
    KingStep,
    CastlingKingside,
    CastlingQueenside,
    CastlingAttackedRookAllowed,
    Capture,
    PinnedAlongLine,
    ResolvesCheck,
    KingSafe,
}

impl ReasonCode {
    /// Every code, illegal ones first.
    pub const ALL: [ReasonCode; 40] = [
        ReasonCode::Malformed,
        ReasonCode::Ambiguous,
        ReasonCode::NoPiece,
        ReasonCode::NotYourPiece,
        ReasonCode::GameOver,
        ReasonCode::BadGeometry,
        ReasonCode::PathBlocked,
        ReasonCode::OwnPiece,
        ReasonCode::PawnForwardCapture,
        ReasonCode::PawnDiagonalEmpty,
        ReasonCode::PawnDoubleNotFirst,
        ReasonCode::PawnBackward,
        ReasonCode::EnPassantExpired,
        ReasonCode::PromotionRequired,
        ReasonCode::BadPromotionPiece,
        ReasonCode::CastlingRightsLost,
        ReasonCode::CastlingPathOccupied,
        ReasonCode::CastlingInCheck,
        ReasonCode::CastlingThroughCheck,
        ReasonCode::CastlingIntoCheck,
        ReasonCode::KingIntoCheck,
        ReasonCode::LeavesKingInCheck,
        ReasonCode::ExposesKing,
        ReasonCode::PawnAdvance,
        ReasonCode::PawnDoubleStep,
        ReasonCode::PawnCapture,
        ReasonCode::EnPassant,
        ReasonCode::Promotion,
        ReasonCode::KnightMove,
        ReasonCode::BishopMove,
        ReasonCode::RookMove,
        ReasonCode::QueenMove,
        ReasonCode::KingStep,
        ReasonCode::CastlingKingside,
        ReasonCode::CastlingQueenside,
        ReasonCode::CastlingAttackedRookAllowed,
        ReasonCode::Capture,
        ReasonCode::PinnedAlongLine,
        ReasonCode::ResolvesCheck,
        ReasonCode::KingSafe,
    ];

    /// The code as it appears in JSON.
    pub fn as_str(self) -> &'static str {
        match self {
            ReasonCode::Malformed => "malformed",
            ReasonCode::Ambiguous => "ambiguous",
            ReasonCode::NoPiece => "no_piece",
            ReasonCode::NotYourPiece => "not_your_piece",
            ReasonCode::GameOver => "game_over",
            ReasonCode::BadGeometry => "bad_geometry",
            ReasonCode::PathBlocked => "path_blocked",
            ReasonCode::OwnPiece => "own_piece",
            ReasonCode::PawnForwardCapture => "pawn_forward_capture",
            ReasonCode::PawnDiagonalEmpty => "pawn_diagonal_empty",
            ReasonCode::PawnDoubleNotFirst => "pawn_double_not_first",
            ReasonCode::PawnBackward => "pawn_backward",
            ReasonCode::EnPassantExpired => "en_passant_expired",
            ReasonCode::PromotionRequired => "promotion_required",
            ReasonCode::BadPromotionPiece => "bad_promotion_piece",
            ReasonCode::CastlingRightsLost => "castling_rights_lost",
            ReasonCode::CastlingPathOccupied => "castling_path_occupied",
            ReasonCode::CastlingInCheck => "castling_in_check",
            ReasonCode::CastlingThroughCheck => "castling_through_check",
            ReasonCode::CastlingIntoCheck => "castling_into_check",
            ReasonCode::KingIntoCheck => "king_into_check",
            ReasonCode::LeavesKingInCheck => "leaves_king_in_check",
            ReasonCode::ExposesKing => "exposes_king",
            ReasonCode::PawnAdvance => "pawn_advance",
            ReasonCode::PawnDoubleStep => "pawn_double_step",
            ReasonCode::PawnCapture => "pawn_capture",
            ReasonCode::EnPassant => "en_passant",
            ReasonCode::Promotion => "promotion",
            ReasonCode::KnightMove => "knight_move",
            ReasonCode::BishopMove => "bishop_move",
            ReasonCode::RookMove => "rook_move",
            ReasonCode::QueenMove => "queen_move",
            ReasonCode::KingStep => "king_step",
            ReasonCode::CastlingKingside => "castling_kingside",
            ReasonCode::CastlingQueenside => "castling_queenside",
            ReasonCode::CastlingAttackedRookAllowed => "castling_attacked_rook_allowed",
            ReasonCode::Capture => "capture",
            ReasonCode::PinnedAlongLine => "pinned_along_line",
            ReasonCode::ResolvesCheck => "resolves_check",
            ReasonCode::KingSafe => "king_safe",
        }
    }

    /// True for the codes that make a move illegal.
    pub fn is_illegal(self) -> bool {
        !matches!(
            self,
            ReasonCode::PawnAdvance
                | ReasonCode::PawnDoubleStep
                | ReasonCode::PawnCapture
                | ReasonCode::EnPassant
                | ReasonCode::Promotion
                | ReasonCode::KnightMove
                | ReasonCode::BishopMove
                | ReasonCode::RookMove
                | ReasonCode::QueenMove
                | ReasonCode::KingStep
                | ReasonCode::CastlingKingside
                | ReasonCode::CastlingQueenside
                | ReasonCode::CastlingAttackedRookAllowed
                | ReasonCode::Capture
                | ReasonCode::PinnedAlongLine
                | ReasonCode::ResolvesCheck
                | ReasonCode::KingSafe
        )
    }
}

/// How castling rights were lost (3.8.2.1), as far as the game record tells.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CastlingLoss {
    /// The king is not on its initial square.
    KingNotHome,
    /// The king moved earlier in the game (maybe back again).
    KingMoved,
    /// The rook moved earlier in the game (maybe back again).
    RookMoved,
    /// No rook of ours on the corner square.
    RookGone,
    /// The start position (FEN) already had no such right.
    NotInStartPosition,
}

/// How a legal move answers a check (3.9.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CheckAnswer {
    CapturesChecker,
    Blocks,
    KingMoves,
}

/// A piece on a square.
pub type Placed = (Piece, Square);

/// One reason, with the data its sentence needs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reason {
    Malformed {
        input: String,
    },
    Ambiguous {
        input: String,
        candidates: Vec<(String, Move)>,
    },
    /// `from` empty; or (SAN) no piece of the named kind exists: `from` is None, `wanted` set.
    NoPiece {
        from: Option<Square>,
        wanted: Option<Piece>,
        to: Option<Square>,
    },
    NotYourPiece {
        piece: Piece,
        from: Square,
    },
    GameOver {
        outcome: Outcome,
    },
    /// The piece never moves that way. `from` None: SAN named a kind, none of which can.
    BadGeometry {
        piece: Piece,
        from: Option<Square>,
        to: Square,
    },
    PathBlocked {
        piece: Piece,
        from: Square,
        to: Square,
        blocker: Placed,
    },
    OwnPiece {
        piece: Piece,
        from: Square,
        to: Square,
        occupant: Piece,
    },
    PawnForwardCapture {
        piece: Piece,
        from: Square,
        to: Square,
        occupant: Piece,
    },
    PawnDiagonalEmpty {
        piece: Piece,
        from: Square,
        to: Square,
    },
    PawnDoubleNotFirst {
        piece: Piece,
        from: Square,
        to: Square,
    },
    PawnBackward {
        piece: Piece,
        from: Square,
        to: Square,
    },
    /// `plies_ago`: None when the double step was before the game record (start FEN).
    EnPassantExpired {
        piece: Piece,
        from: Square,
        to: Square,
        enemy_pawn: Square,
        plies_ago: Option<usize>,
    },
    PromotionRequired {
        piece: Piece,
        from: Square,
        to: Square,
    },
    /// `promotion` named on a move that cannot promote (`last_rank` false), or K/P named.
    BadPromotionPiece {
        piece: Piece,
        from: Square,
        to: Square,
        promotion: PieceType,
        last_rank: bool,
    },
    CastlingRightsLost {
        color: Color,
        side: CastleSide,
        cause: CastlingLoss,
    },
    CastlingPathOccupied {
        color: Color,
        side: CastleSide,
        occupied: Vec<Placed>,
    },
    CastlingInCheck {
        color: Color,
        side: CastleSide,
        checkers: Vec<Placed>,
    },
    CastlingThroughCheck {
        color: Color,
        side: CastleSide,
        square: Square,
        attackers: Vec<Placed>,
    },
    CastlingIntoCheck {
        color: Color,
        side: CastleSide,
        square: Square,
        attackers: Vec<Placed>,
    },
    /// `defended`: `to` holds an enemy piece (the king may not take a protected piece).
    /// `pinned_attackers`: attackers that are themselves pinned — they still count (3.1.3).
    KingIntoCheck {
        king: Piece,
        from: Square,
        to: Square,
        attackers: Vec<Placed>,
        defended: Option<Piece>,
        pinned_attackers: Vec<Square>,
    },
    /// `double`: two checkers, only a king move helps; `unblockable`: a knight or pawn check.
    LeavesKingInCheck {
        piece: Piece,
        from: Square,
        to: Square,
        king: Square,
        checkers: Vec<Placed>,
        double: bool,
        unblockable: bool,
    },
    /// `en_passant`: the capture removes two pawns from the line.
    ExposesKing {
        piece: Piece,
        from: Square,
        to: Square,
        king: Square,
        pinner: Placed,
        en_passant: bool,
    },

    // Legal-move rationale.
    /// The piece's own way of moving (pawn advance, knight, bishop, rook, queen, king step).
    Moves {
        piece: Piece,
        from: Square,
        to: Square,
    },
    PawnDoubleStep {
        piece: Piece,
        from: Square,
        to: Square,
        passed: Square,
    },
    PawnCapture {
        piece: Piece,
        from: Square,
        to: Square,
        captured: Piece,
    },
    EnPassant {
        piece: Piece,
        from: Square,
        to: Square,
        captured_on: Square,
    },
    Promotion {
        piece: Piece,
        to: Square,
        promotion: PieceType,
    },
    Castling {
        color: Color,
        side: CastleSide,
    },
    /// The rook's square, or b1/b8, is attacked — castling is still allowed.
    CastlingAttackedRookAllowed {
        color: Color,
        side: CastleSide,
        squares: Vec<Square>,
    },
    Capture {
        piece: Piece,
        from: Square,
        to: Square,
        captured: Piece,
    },
    PinnedAlongLine {
        piece: Piece,
        from: Square,
        to: Square,
        king: Square,
        pinner: Placed,
    },
    ResolvesCheck {
        piece: Piece,
        to: Square,
        how: CheckAnswer,
        checkers: Vec<Placed>,
    },
    /// After the move the mover's king (on `king`) is not attacked.
    KingSafe {
        king: Square,
        king_moved: bool,
    },
}

fn squares_of(list: &[Placed]) -> impl Iterator<Item = Square> + '_ {
    list.iter().map(|&(_, s)| s)
}

impl Reason {
    pub fn code(&self) -> ReasonCode {
        match self {
            Reason::Malformed { .. } => ReasonCode::Malformed,
            Reason::Ambiguous { .. } => ReasonCode::Ambiguous,
            Reason::NoPiece { .. } => ReasonCode::NoPiece,
            Reason::NotYourPiece { .. } => ReasonCode::NotYourPiece,
            Reason::GameOver { .. } => ReasonCode::GameOver,
            Reason::BadGeometry { .. } => ReasonCode::BadGeometry,
            Reason::PathBlocked { .. } => ReasonCode::PathBlocked,
            Reason::OwnPiece { .. } => ReasonCode::OwnPiece,
            Reason::PawnForwardCapture { .. } => ReasonCode::PawnForwardCapture,
            Reason::PawnDiagonalEmpty { .. } => ReasonCode::PawnDiagonalEmpty,
            Reason::PawnDoubleNotFirst { .. } => ReasonCode::PawnDoubleNotFirst,
            Reason::PawnBackward { .. } => ReasonCode::PawnBackward,
            Reason::EnPassantExpired { .. } => ReasonCode::EnPassantExpired,
            Reason::PromotionRequired { .. } => ReasonCode::PromotionRequired,
            Reason::BadPromotionPiece { .. } => ReasonCode::BadPromotionPiece,
            Reason::CastlingRightsLost { .. } => ReasonCode::CastlingRightsLost,
            Reason::CastlingPathOccupied { .. } => ReasonCode::CastlingPathOccupied,
            Reason::CastlingInCheck { .. } => ReasonCode::CastlingInCheck,
            Reason::CastlingThroughCheck { .. } => ReasonCode::CastlingThroughCheck,
            Reason::CastlingIntoCheck { .. } => ReasonCode::CastlingIntoCheck,
            Reason::KingIntoCheck { .. } => ReasonCode::KingIntoCheck,
            Reason::LeavesKingInCheck { .. } => ReasonCode::LeavesKingInCheck,
            Reason::ExposesKing { .. } => ReasonCode::ExposesKing,
            Reason::Moves { piece, .. } => match piece.kind {
                PieceType::Pawn => ReasonCode::PawnAdvance,
                PieceType::Knight => ReasonCode::KnightMove,
                PieceType::Bishop => ReasonCode::BishopMove,
                PieceType::Rook => ReasonCode::RookMove,
                PieceType::Queen => ReasonCode::QueenMove,
                PieceType::King => ReasonCode::KingStep,
            },
            Reason::PawnDoubleStep { .. } => ReasonCode::PawnDoubleStep,
            Reason::PawnCapture { .. } => ReasonCode::PawnCapture,
            Reason::EnPassant { .. } => ReasonCode::EnPassant,
            Reason::Promotion { .. } => ReasonCode::Promotion,
            Reason::Castling { side: CastleSide::King, .. } => ReasonCode::CastlingKingside,
            Reason::Castling { side: CastleSide::Queen, .. } => ReasonCode::CastlingQueenside,
            Reason::CastlingAttackedRookAllowed { .. } => ReasonCode::CastlingAttackedRookAllowed,
            Reason::Capture { .. } => ReasonCode::Capture,
            Reason::PinnedAlongLine { .. } => ReasonCode::PinnedAlongLine,
            Reason::ResolvesCheck { .. } => ReasonCode::ResolvesCheck,
            Reason::KingSafe { .. } => ReasonCode::KingSafe,
        }
    }

    /// The FIDE article cited.
    pub fn rule(&self) -> &'static str {
        match self {
            Reason::Malformed { .. } | Reason::Ambiguous { .. } => "Appendix C",
            Reason::NoPiece { .. } | Reason::OwnPiece { .. } => "3.1",
            Reason::NotYourPiece { .. } => "1.2",
            Reason::GameOver { outcome } => match outcome {
                Outcome::Checkmate { .. } => "5.1.1",
                Outcome::Draw(d) => d.rule(),
            },
            Reason::Moves { piece: Piece { kind: PieceType::Pawn, .. }, .. } => "3.7.1",
            Reason::BadGeometry { piece, .. } | Reason::Moves { piece, .. } => match piece.kind {
                PieceType::Pawn => "3.7",
                PieceType::Knight => "3.6",
                PieceType::Bishop => "3.2",
                PieceType::Rook => "3.3",
                PieceType::Queen => "3.4",
                PieceType::King => "3.8",
            },
            Reason::PathBlocked { piece, .. } => {
                if piece.kind == PieceType::Pawn {
                    "3.7.2"
                } else {
                    "3.5"
                }
            }
            Reason::PawnForwardCapture { .. } => "3.7.1",
            Reason::PawnDiagonalEmpty { .. } | Reason::PawnCapture { .. } => "3.7.3",
            Reason::PawnDoubleNotFirst { .. } | Reason::PawnDoubleStep { .. } => "3.7.2",
            Reason::PawnBackward { .. } => "3.7",
            Reason::EnPassantExpired { .. } => "3.7.3.2",
            Reason::EnPassant { .. } => "3.7.3.1",
            Reason::PromotionRequired { .. } | Reason::BadPromotionPiece { .. } | Reason::Promotion { .. } => "3.7.3.3",
            Reason::CastlingRightsLost { .. } => "3.8.2.1",
            Reason::CastlingPathOccupied { .. }
            | Reason::CastlingInCheck { .. }
            | Reason::CastlingThroughCheck { .. }
            | Reason::CastlingIntoCheck { .. }
            | Reason::CastlingAttackedRookAllowed { .. } => "3.8.2.2",
            Reason::Castling { .. } => "3.8.2",
            Reason::KingIntoCheck { .. } => "3.8.1",
            Reason::LeavesKingInCheck { .. } | Reason::ResolvesCheck { .. } => "3.9.2",
            Reason::ExposesKing { .. } | Reason::PinnedAlongLine { .. } => "3.9.2",
            Reason::Capture { .. } => "3.1",
            Reason::KingSafe { .. } => "3.9.2",
        }
    }

    /// The squares the reason is about (JSON `squares`, highlighted in the diagram):
    /// the move's squares first, then the pieces and squares that decide it.
    pub fn squares(&self) -> Vec<Square> {
        let mut v: Vec<Square> = Vec::new();
        match self {
            Reason::Malformed { .. } | Reason::GameOver { .. } => {}
            Reason::Ambiguous { candidates, .. } => v.extend(candidates.iter().map(|(_, m)| m.from())),
            Reason::NoPiece { from, to, .. } => v.extend(from.iter().chain(to.iter())),
            Reason::NotYourPiece { from, .. } => v.push(*from),
            Reason::BadGeometry { from, to, .. } => v.extend(from.iter().copied().chain([*to])),
            Reason::PathBlocked { from, to, blocker, .. } => v.extend([*from, *to, blocker.1]),
            Reason::OwnPiece { from, to, .. }
            | Reason::PawnForwardCapture { from, to, .. }
            | Reason::PawnDiagonalEmpty { from, to, .. }
            | Reason::PawnDoubleNotFirst { from, to, .. }
            | Reason::PawnBackward { from, to, .. }
            | Reason::PromotionRequired { from, to, .. }
            | Reason::BadPromotionPiece { from, to, .. }
            | Reason::Moves { from, to, .. }
            | Reason::PawnCapture { from, to, .. }
            | Reason::Capture { from, to, .. } => v.extend([*from, *to]),
            Reason::EnPassantExpired { from, to, enemy_pawn, .. } => v.extend([*from, *to, *enemy_pawn]),
            Reason::CastlingRightsLost { color, side, .. } | Reason::Castling { color, side } => {
                v.extend([CastleSide::king_from(*color), side.rook_from(*color)])
            }
            Reason::CastlingPathOccupied { occupied, .. } => v.extend(squares_of(occupied)),
            Reason::CastlingInCheck { color, checkers, .. } => {
                v.push(CastleSide::king_from(*color));
                v.extend(squares_of(checkers))
            }
            Reason::CastlingThroughCheck { square, attackers, .. }
            | Reason::CastlingIntoCheck { square, attackers, .. } => {
                v.push(*square);
                v.extend(squares_of(attackers))
            }
            Reason::KingIntoCheck { from, to, attackers, .. } => {
                v.extend([*from, *to]);
                v.extend(squares_of(attackers))
            }
            Reason::LeavesKingInCheck { from, to, king, checkers, .. } => {
                v.extend([*from, *to, *king]);
                v.extend(squares_of(checkers))
            }
            Reason::ExposesKing { from, king, pinner, .. } => v.extend([*from, *king, pinner.1]),
            Reason::PawnDoubleStep { from, to, passed, .. } => v.extend([*from, *passed, *to]),
            Reason::EnPassant { from, to, captured_on, .. } => v.extend([*from, *to, *captured_on]),
            Reason::Promotion { to, .. } => v.push(*to),
            Reason::CastlingAttackedRookAllowed { squares, .. } => v.extend(squares.iter().copied()),
            Reason::PinnedAlongLine { from, to, king, pinner, .. } => v.extend([*from, *to, *king, pinner.1]),
            Reason::ResolvesCheck { to, checkers, .. } => {
                v.push(*to);
                v.extend(squares_of(checkers))
            }
            Reason::KingSafe { king, .. } => v.push(*king),
        }
        v
    }
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
    /// The legal move, when the verdict is `legal`.
    pub legal_move: Option<Move>,
    pub san: Option<String>,
    pub legal: bool,
    /// Illegal: every reason that applies, most fundamental first. Legal: the rules that make it legal.
    pub reasons: Vec<Reason>,
    /// The referee's report after a legal move.
    pub after: Option<PositionReport>,
    /// The moving piece (as on the board), when there is one.
    pub piece: Option<Piece>,
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
    /// The kind of the legal move (None when illegal).
    pub fn category(&self) -> Option<MoveCategory> {
        self.legal_move.map(MoveCategory::of)
    }

    /// UCI text of the move asked about (`e2f2`), when its squares are known.
    pub fn uci(&self) -> Option<String> {
        match (self.legal_move, self.from, self.to) {
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

/// UCI-like text (`e2e4`, `e7e8q`) read leniently: a promotion letter of any piece is
/// accepted here so that `e7e8k` can be explained as a bad promotion piece.
fn parse_uci_lenient(text: &str) -> Option<(Square, Square, Option<PieceType>)> {
    if !text.is_ascii() || !(4..=5).contains(&text.len()) {
        return None;
    }
    let from = Square::parse(&text[0..2])?;
    let to = Square::parse(&text[2..4])?;
    let promo = match text.len() {
        5 => Some(PieceType::from_char(text.as_bytes()[4] as char)?),
        _ => None,
    };
    Some((from, to, promo))
}

/// Explains `text` (UCI or SAN) as the next move of `game`.
pub fn explain(game: &Game, text: &str) -> Explanation {
    let input = text.trim().to_string();
    let pos = game.current();
    let mut ex = Explanation {
        input: input.clone(),
        from: None,
        to: None,
        promotion: None,
        legal_move: None,
        san: None,
        legal: false,
        reasons: Vec::new(),
        after: None,
        piece: None,
    };
    if let Some((from, to, promo)) = parse_uci_lenient(&input) {
        explain_squares(game, &mut ex, from, to, promo);
        return ex;
    }
    let Some(syntax) = notation::parse_san_syntax(&input) else {
        ex.reasons.push(Reason::Malformed { input });
        return ex;
    };
    let us = pos.side_to_move();
    if let Some(side) = syntax.castle {
        let king_home = CastleSide::king_from(us);
        if pos.piece_at(king_home) != Some(Piece::new(us, PieceType::King)) {
            // "O-O" with the king elsewhere: the right is gone, whatever stands on e1.
            ex.piece = Some(Piece::new(us, PieceType::King));
            ex.from = Some(pos.king_square(us));
            ex.to = Some(side.king_to(us));
            if let Some(outcome) = game.outcome() {
                ex.reasons.push(Reason::GameOver { outcome });
            }
            castling_reasons(game, us, side, &mut ex.reasons);
            return ex;
        }
        explain_squares(game, &mut ex, king_home, side.king_to(us), None);
        return ex;
    }
    let candidates = notation::san_candidates(pos, &syntax);
    match candidates.as_slice() {
        [m] => explain_squares(game, &mut ex, m.from(), m.to(), m.promotion()),
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
        own &= Bitboard::file(syntax.to.file());
    }
    ex.to = Some(syntax.to);
    ex.piece = Some(wanted);
    if own.is_empty() {
        ex.reasons.push(Reason::NoPiece { from: None, wanted: Some(wanted), to: Some(syntax.to) });
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
    let pos = game.current();
    ex.from = Some(from);
    ex.to = Some(to);
    ex.promotion = promo;
    let us = pos.side_to_move();
    let outcome = game.outcome();
    if let Some(outcome) = outcome {
        ex.reasons.push(Reason::GameOver { outcome });
    }
    let Some(piece) = pos.piece_at(from) else {
        ex.reasons.push(Reason::NoPiece { from: Some(from), wanted: None, to: Some(to) });
        return;
    };
    ex.piece = Some(piece);
    if piece.color != us {
        ex.reasons.push(Reason::NotYourPiece { piece, from });
        return;
    }
    if from == to {
        ex.reasons.push(Reason::BadGeometry { piece, from: Some(from), to });
        return;
    }
    let castle_side = castling_side(us, piece, from, to);
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
            ex.legal = true;
            ex.legal_move = Some(m);
            ex.san = Some(notation::to_san(pos, m));
            ex.reasons = legal_reasons(pos, piece, m);
            let mut after = game.clone();
            if after.play(m).is_ok() {
                ex.after = Some(after.report());
            }
        }
    }
}

/// Is this a castling attempt (the king two squares sideways from its initial square)?
fn castling_side(us: Color, piece: Piece, from: Square, to: Square) -> Option<CastleSide> {
    if piece.kind != PieceType::King || from != CastleSide::king_from(us) {
        return None;
    }
    CastleSide::BOTH.into_iter().find(|s| s.king_to(us) == to)
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
        out.push(Reason::PawnBackward { piece, from, to });
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

/// Every castling condition that fails (3.8.2.1, 3.8.2.2), in the order of the Laws.
fn castling_reasons(game: &Game, us: Color, side: CastleSide, out: &mut Vec<Reason>) {
    let pos = game.current();
    let them = us.flip();
    let king_home = CastleSide::king_from(us);
    let rook_home = side.rook_from(us);
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
        out.push(Reason::CastlingRightsLost { color: us, side, cause });
    }
    let blocked = movegen::castling_path(us, side) & pos.occupied();
    if blocked.nonempty() {
        out.push(Reason::CastlingPathOccupied { color: us, side, occupied: placed(pos, blocked) });
    }
    if pos.in_check() {
        out.push(Reason::CastlingInCheck { color: us, side, checkers: placed(pos, pos.checkers()) });
    }
    let king_to = side.king_to(us);
    for sq in movegen::castling_king_path(us, side) {
        let attackers = pos.attackers_by(sq, them);
        if attackers.is_empty() {
            continue;
        }
        let attackers = placed(pos, attackers);
        if sq == king_to {
            out.push(Reason::CastlingIntoCheck { color: us, side, square: sq, attackers });
        } else {
            out.push(Reason::CastlingThroughCheck { color: us, side, square: sq, attackers });
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
        let pinned_attackers = (attackers & their_blockers).into_iter().collect();
        let defended = pos.piece_at(to).filter(|t| t.color == them);
        out.push(Reason::KingIntoCheck {
            king: piece,
            from,
            to,
            attackers: placed(pos, attackers),
            defended,
            pinned_attackers,
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
            out.push(Reason::Castling { color: us, side });
            let mut extra = Bitboard::from_square(side.rook_from(us));
            if side == CastleSide::Queen {
                extra = extra.with(Square::from_coords(crate::chess::File::B, us.back_rank()));
            }
            let attacked: Vec<Square> = extra.into_iter().filter(|&s| pos.is_square_attacked(s, us.flip())).collect();
            if !attacked.is_empty() {
                out.push(Reason::CastlingAttackedRookAllowed { color: us, side, squares: attacked });
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
                out.push(Reason::Moves { piece, from, to });
                out.push(Reason::Capture { piece, from, to, captured: c });
            }
            _ => out.push(Reason::Moves { piece, from, to }),
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
                out.push(Reason::PinnedAlongLine { piece, from, to, king: pos.king_square(us), pinner: (pp, pinner) });
            }
        }
    }
    let king_moved = piece.kind == PieceType::King;
    out.push(Reason::KingSafe { king: if king_moved { to } else { pos.king_square(us) }, king_moved });
    out
}
