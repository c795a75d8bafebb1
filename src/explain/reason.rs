//! The reasons of the explain mode, defined once: every row of the table below is one
//! stable code of the contract (`docs/explain.md`) — its variant with the facts its
//! sentence needs, its JSON code, whether it makes a move illegal, the FIDE article it
//! cites, and the squares it is about. [`ReasonCode`], [`ReasonCode::ALL`],
//! [`ReasonCode::as_str`], [`ReasonCode::is_illegal`], [`Reason::code`], [`Reason::rule`]
//! and [`Reason::squares`] are all generated from it; the sentences live in one file per
//! language (`en.rs`, `zh.rs`), each an exhaustive `match` on [`Reason`].

use crate::chess::{CastleSide, Color, File, Move, Piece, PieceType, Rank, Square};
use crate::rules::Outcome;

/// A piece on a square.
pub type Placed = (Piece, Square);

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

/// The line a bishop, rook or queen moves along.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Line {
    Rank,
    File,
    Diagonal,
}

impl Line {
    /// The line through `from` and `to` (a diagonal unless they share a rank or a file).
    pub fn between(from: Square, to: Square) -> Line {
        if from.rank() == to.rank() {
            Line::Rank
        } else if from.file() == to.file() {
            Line::File
        } else {
            Line::Diagonal
        }
    }
}

/// The section of the FIDE Laws that governs castling in Chess960 (Guidelines II, Chess960
/// rules, II.3): every square between the king and its destination and between the rook and
/// its destination empty except for that king and rook; the king's start, path and
/// destination not attacked.
const CHESS960_CASTLING: &str = "Guidelines II.3";

/// One castling: who castles, on which side, and where king and rook stand before and after.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Castling {
    pub color: Color,
    pub side: CastleSide,
    pub king_from: Square,
    pub king_to: Square,
    pub rook_from: Square,
    pub rook_to: Square,
    /// A Chess960 castling (a Chess960 game, or king and rook not on e- and a/h-files):
    /// cited from the Chess960 rules.
    pub chess960: bool,
}

impl Castling {
    /// Castling with the king on `king_from` and the rook on `rook_from`.
    pub fn new(color: Color, side: CastleSide, king_from: Square, rook_from: Square, chess960: bool) -> Castling {
        let standard = king_from == CastleSide::king_from(color) && rook_from == side.rook_from(color);
        Castling {
            color,
            side,
            king_from,
            king_to: side.king_to(color),
            rook_from,
            rook_to: side.rook_to(color),
            chess960: chess960 || !standard,
        }
    }

    /// Castling in standard chess (king from the e-file, rooks from the corners).
    pub fn standard(color: Color, side: CastleSide) -> Castling {
        Castling::new(color, side, CastleSide::king_from(color), side.rook_from(color), false)
    }

    /// The article cited: `standard` in standard chess, the Chess960 castling rules otherwise.
    pub fn rule(&self, standard: &'static str) -> &'static str {
        if self.chess960 {
            CHESS960_CASTLING
        } else {
            standard
        }
    }
}

/// What a reason names, added to its `squares()` list in order.
trait SquareList {
    fn add_to(self, list: &mut Vec<Square>);
}

impl SquareList for Square {
    fn add_to(self, list: &mut Vec<Square>) {
        list.push(self);
    }
}
impl SquareList for &Square {
    fn add_to(self, list: &mut Vec<Square>) {
        list.push(*self);
    }
}
impl SquareList for &Option<Square> {
    fn add_to(self, list: &mut Vec<Square>) {
        list.extend(*self);
    }
}
impl SquareList for &Placed {
    fn add_to(self, list: &mut Vec<Square>) {
        list.push(self.1);
    }
}
impl SquareList for &Vec<Placed> {
    fn add_to(self, list: &mut Vec<Square>) {
        list.extend(self.iter().map(|&(_, s)| s));
    }
}
impl SquareList for &Vec<Square> {
    fn add_to(self, list: &mut Vec<Square>) {
        list.extend(self.iter().copied());
    }
}
/// Ambiguous SAN: the squares of the pieces that could move.
impl SquareList for &Vec<(String, Move)> {
    fn add_to(self, list: &mut Vec<Square>) {
        list.extend(self.iter().map(|(_, m)| m.from()));
    }
}

/// The article of a piece's own way of moving.
fn movement_article(kind: PieceType) -> &'static str {
    match kind {
        PieceType::Pawn => "3.7",
        PieceType::Knight => "3.6",
        PieceType::Bishop => "3.2",
        PieceType::Rook => "3.3",
        PieceType::Queen => "3.4",
        PieceType::King => "3.8",
    }
}

/// Builds the reason types from the table: one row per code,
/// `Variant { fields } = "code", illegal|legal, rule EXPR, squares [EXPR, ...];`
/// (`rule` and `squares` may use the fields by name).
macro_rules! reasons {
    ($(
        $(#[$doc:meta])*
        $name:ident { $($field:ident : $ty:ty),* $(,)? } = $code:literal, $verdict:ident,
            rule $rule:expr, squares [$($square:expr),* $(,)?];
    )*) => {
        /// The stable reason codes of the contract: why a move is illegal, or what makes it legal.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum ReasonCode {
            $($name,)*
        }

        impl ReasonCode {
            const COUNT: usize = [$($code),*].len();

            /// Every code, in the order of the table (illegal ones first).
            pub const ALL: [ReasonCode; Self::COUNT] = [$(ReasonCode::$name),*];

            /// The code as it appears in JSON.
            pub fn as_str(self) -> &'static str {
                match self {
                    $(ReasonCode::$name => $code,)*
                }
            }

            /// True for the codes that make a move illegal.
            pub fn is_illegal(self) -> bool {
                match self {
                    $(ReasonCode::$name => reasons!(@illegal $verdict),)*
                }
            }
        }

        /// One reason, with the facts its sentence needs (computed once, by the explainer).
        #[derive(Clone, Debug, PartialEq, Eq)]
        pub enum Reason {
            $(
                $(#[$doc])*
                $name { $($field: $ty),* },
            )*
        }

        impl Reason {
            pub fn code(&self) -> ReasonCode {
                match self {
                    $(Reason::$name { .. } => ReasonCode::$name,)*
                }
            }

            /// The FIDE article cited.
            #[allow(unused_variables)]
            pub fn rule(&self) -> &'static str {
                match self {
                    $(Reason::$name { $($field),* } => $rule,)*
                }
            }

            /// The squares the reason is about (JSON `squares`, highlighted in the diagram):
            /// the move's squares first, then the pieces and squares that decide it.
            #[allow(unused_variables)]
            pub fn squares(&self) -> Vec<Square> {
                let mut list = Vec::new();
                match self {
                    $(Reason::$name { $($field),* } => { $(SquareList::add_to($square, &mut list);)* })*
                }
                list
            }
        }
    };
    (@illegal illegal) => { true };
    (@illegal legal) => { false };
}

reasons! {
    // Why a move is illegal.
    Malformed { input: String } = "malformed", illegal, rule "Appendix C", squares [];
    Ambiguous { input: String, candidates: Vec<(String, Move)> } = "ambiguous", illegal,
        rule "Appendix C", squares [candidates];
    /// A lower-case `b` that reads as a b-pawn capture written without `x` (`pawn`, e.g. `bxc4`) or
    /// as a bishop move with a small letter (`bishop`, e.g. `Bc4`), and neither reading alone is
    /// the one legal move.
    TwoReadings { input: String, pawn: String, bishop: String } = "two_readings", illegal,
        rule "Appendix C", squares [];
    /// `from` empty; or (SAN) no piece of the named kind exists: `from` is None, `wanted` set,
    /// and `from_file` / `from_rank` say where the SAN looked (`Nbd7`: the b-file).
    NoPiece {
        from: Option<Square>,
        wanted: Option<Piece>,
        to: Option<Square>,
        from_file: Option<File>,
        from_rank: Option<Rank>,
    } = "no_piece", illegal, rule "3.1", squares [from, to];
    NotYourPiece { piece: Piece, from: Square } = "not_your_piece", illegal, rule "1.2", squares [from];
    GameOver { outcome: Outcome } = "game_over", illegal,
        rule match outcome {
            Outcome::Checkmate { .. } => "5.1.1",
            Outcome::Draw(d) => d.rule(),
        },
        squares [];
    /// A "move" from a square to the same square: a move takes a piece to another square.
    SameSquare { piece: Piece, square: Square } = "same_square", illegal,
        rule movement_article(piece.kind), squares [square];
    /// A bare square (`e2`) where a piece of the side to move stands and no pawn could advance
    /// to: it names a piece, not a move. `moves`: that piece's legal moves (SAN and move).
    BareSquare { piece: Piece, square: Square, moves: Vec<(String, Move)> } = "bare_square", illegal,
        rule "Appendix C", squares [square];
    /// The piece never moves that way. `from` None: SAN named a kind, none of which can.
    BadGeometry { piece: Piece, from: Option<Square>, to: Square } = "bad_geometry", illegal,
        rule movement_article(piece.kind), squares [from, to];
    PathBlocked { piece: Piece, from: Square, to: Square, blocker: Placed } = "path_blocked", illegal,
        rule if piece.kind == PieceType::Pawn { "3.7.2" } else { "3.5" }, squares [from, to, blocker];
    OwnPiece { piece: Piece, from: Square, to: Square, occupant: Piece } = "own_piece", illegal,
        rule "3.1", squares [from, to];
    PawnForwardCapture { piece: Piece, from: Square, to: Square, occupant: Piece } = "pawn_forward_capture",
        illegal, rule "3.7.1", squares [from, to];
    PawnDiagonalEmpty { piece: Piece, from: Square, to: Square } = "pawn_diagonal_empty", illegal,
        rule "3.7.3", squares [from, to];
    PawnDoubleNotFirst { piece: Piece, from: Square, to: Square } = "pawn_double_not_first", illegal,
        rule "3.7.2", squares [from, to];
    /// `sideways`: along the rank (otherwise backwards).
    PawnBackward { piece: Piece, from: Square, to: Square, sideways: bool } = "pawn_backward", illegal,
        rule "3.7", squares [from, to];
    /// `plies_ago`: None when the double step was before the game record (start FEN).
    EnPassantExpired { piece: Piece, from: Square, to: Square, enemy_pawn: Square, plies_ago: Option<usize> }
        = "en_passant_expired", illegal, rule "3.7.3.2", squares [from, to, enemy_pawn];
    PromotionRequired { piece: Piece, from: Square, to: Square } = "promotion_required", illegal,
        rule "3.7.3.3", squares [from, to];
    /// `promotion` named on a move that cannot promote (`last_rank` false), or K/P named.
    BadPromotionPiece { piece: Piece, from: Square, to: Square, promotion: PieceType, last_rank: bool }
        = "bad_promotion_piece", illegal, rule "3.7.3.3", squares [from, to];
    CastlingRightsLost { castling: Castling, cause: CastlingLoss } = "castling_rights_lost", illegal,
        rule "3.8.2.1", squares [castling.king_from, castling.rook_from];
    CastlingPathOccupied { castling: Castling, occupied: Vec<Placed> } = "castling_path_occupied", illegal,
        rule castling.rule("3.8.2.2"), squares [occupied];
    CastlingInCheck { castling: Castling, checkers: Vec<Placed> } = "castling_in_check", illegal,
        rule castling.rule("3.8.2.2"), squares [castling.king_from, checkers];
    /// `behind_rook`: attacked only once the castling rook has left its square (Chess960).
    CastlingThroughCheck { castling: Castling, square: Square, attackers: Vec<Placed>, behind_rook: bool }
        = "castling_through_check", illegal, rule castling.rule("3.8.2.2"), squares [square, attackers];
    /// `square` may be the king's own square when it does not move (Chess960).
    CastlingIntoCheck { castling: Castling, square: Square, attackers: Vec<Placed>, behind_rook: bool }
        = "castling_into_check", illegal, rule castling.rule("3.8.2.2"), squares [square, attackers];
    /// `defended`: `to` holds an enemy piece (the king may not take a protected piece).
    /// `pinned_attackers`: attackers that are themselves pinned — they still count (3.1.3).
    /// `kings_meet`: one of the attackers is the other king. `only_pinned_attackers`: every
    /// attacker is pinned, so the verdict rests on 3.1.3 (an attack counts even from a pinned
    /// piece); otherwise on 3.9.2 (no move may leave the own king in check).
    KingIntoCheck {
        king: Piece,
        from: Square,
        to: Square,
        attackers: Vec<Placed>,
        defended: Option<Piece>,
        pinned_attackers: Vec<Square>,
        kings_meet: bool,
        only_pinned_attackers: bool,
    } = "king_into_check", illegal, rule if *only_pinned_attackers { "3.1.3" } else { "3.9.2" },
        squares [from, to, attackers];
    /// `double`: two checkers, only a king move helps; `unblockable`: a knight or pawn check.
    LeavesKingInCheck {
        piece: Piece,
        from: Square,
        to: Square,
        king: Square,
        checkers: Vec<Placed>,
        double: bool,
        unblockable: bool,
    } = "leaves_king_in_check", illegal, rule "3.9.2", squares [from, to, king, checkers];
    /// `en_passant`: the capture removes two pawns from the line.
    ExposesKing { piece: Piece, from: Square, to: Square, king: Square, pinner: Placed, en_passant: bool }
        = "exposes_king", illegal, rule "3.9.2", squares [from, king, pinner];

    // Why a move is legal.
    PawnAdvance { piece: Piece, from: Square, to: Square } = "pawn_advance", legal,
        rule "3.7.1", squares [from, to];
    PawnDoubleStep { piece: Piece, from: Square, to: Square, passed: Square } = "pawn_double_step", legal,
        rule "3.7.2", squares [from, passed, to];
    PawnCapture { piece: Piece, from: Square, to: Square, captured: Piece } = "pawn_capture", legal,
        rule "3.7.3", squares [from, to];
    EnPassant { piece: Piece, from: Square, to: Square, captured_on: Square } = "en_passant", legal,
        rule "3.7.3.1", squares [from, to, captured_on];
    Promotion { piece: Piece, to: Square, promotion: PieceType } = "promotion", legal,
        rule "3.7.3.3", squares [to];
    KnightMove { piece: Piece, from: Square, to: Square } = "knight_move", legal, rule "3.6", squares [from, to];
    BishopMove { piece: Piece, from: Square, to: Square, line: Line } = "bishop_move", legal,
        rule "3.2", squares [from, to];
    RookMove { piece: Piece, from: Square, to: Square, line: Line } = "rook_move", legal,
        rule "3.3", squares [from, to];
    QueenMove { piece: Piece, from: Square, to: Square, line: Line } = "queen_move", legal,
        rule "3.4", squares [from, to];
    KingStep { piece: Piece, from: Square, to: Square } = "king_step", legal, rule "3.8", squares [from, to];
    CastlingKingside { castling: Castling } = "castling_kingside", legal,
        rule castling.rule("3.8.2"), squares [castling.king_from, castling.rook_from];
    CastlingQueenside { castling: Castling } = "castling_queenside", legal,
        rule castling.rule("3.8.2"), squares [castling.king_from, castling.rook_from];
    /// The rook's square, or b1/b8 (in Chess960: a square only the rook crosses), is attacked —
    /// castling is still allowed.
    CastlingAttackedRookAllowed { castling: Castling, squares: Vec<Square> } = "castling_attacked_rook_allowed",
        legal, rule castling.rule("3.8.2.2"), squares [squares];
    Capture { piece: Piece, from: Square, to: Square, captured: Piece } = "capture", legal,
        rule "3.1", squares [from, to];
    /// `captures_pinner`: the pinned piece takes the piece that pins it.
    PinnedAlongLine { piece: Piece, from: Square, to: Square, king: Square, pinner: Placed, captures_pinner: bool }
        = "pinned_along_line", legal, rule "3.9.2", squares [from, to, king, pinner];
    ResolvesCheck { piece: Piece, to: Square, how: CheckAnswer, checkers: Vec<Placed> } = "resolves_check", legal,
        rule "3.9.2", squares [to, checkers];
    /// After the move the mover's king (on `king`) is not attacked.
    KingSafe { king: Square, king_moved: bool } = "king_safe", legal, rule "3.9.2", squares [king];
}

impl Reason {
    /// The reason a legal move of `piece` follows its own way of moving (pawn advance, knight,
    /// bishop, rook, queen, king step).
    pub fn movement(piece: Piece, from: Square, to: Square) -> Reason {
        let line = Line::between(from, to);
        match piece.kind {
            PieceType::Pawn => Reason::PawnAdvance { piece, from, to },
            PieceType::Knight => Reason::KnightMove { piece, from, to },
            PieceType::Bishop => Reason::BishopMove { piece, from, to, line },
            PieceType::Rook => Reason::RookMove { piece, from, to, line },
            PieceType::Queen => Reason::QueenMove { piece, from, to, line },
            PieceType::King => Reason::KingStep { piece, from, to },
        }
    }
}
