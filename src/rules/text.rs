//! Sentences, in English and Chinese, for every reason and every state the explainer and
//! the referee report. Every function matches exhaustively on [`Reason`] / [`Note`], so a
//! new code without a translation does not compile; `tests/explain.rs` renders them all.
//!
//! Chinese uses the usual terms: 将军, 将杀, 逼和, 王车易位, 吃过路兵, 升变, 牵制, 三次重复,
//! 五十回合, 子力不足, 死局; citations in full-width parentheses `（FIDE 3.9.2）`.

use super::dead::DeadReason;
use super::explain::{CastlingLoss, CheckAnswer, Explanation, Lang, MoveCategory, Placed, Reason};
use super::referee::{AutomaticDraw, DrawClaim, Outcome, PositionReport};
use crate::chess::{CastleSide, Color, Piece, PieceType, Square};

/// Facts about a position (after a move, or in the position report), one sentence each.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Note {
    ToMove {
        side: Color,
    },
    /// `side`'s king is attacked by `checkers` (two = double check).
    Check {
        side: Color,
        checkers: Vec<Placed>,
    },
    NotInCheck {
        side: Color,
    },
    LegalMoves {
        side: Color,
        count: usize,
    },
    Checkmate {
        loser: Color,
    },
    Stalemate {
        side: Color,
    },
    DeadPosition {
        reason: DeadReason,
    },
    FivefoldRepetition,
    SeventyFiveMoves,
    /// Mate on (or after) the 150th half-move: the mate stands (9.6.2).
    MateBeatsSeventyFive,
    Repetitions {
        count: u32,
    },
    HalfmoveClock {
        count: u16,
    },
    ClaimThreefoldNow {
        side: Color,
        count: u32,
    },
    ClaimFiftyNow {
        side: Color,
        count: u16,
    },
    /// Claim by declaring one of `moves` (SAN) first.
    ClaimWithMove {
        side: Color,
        draw: DrawClaim,
        moves: Vec<String>,
    },
}

impl Note {
    pub fn rule(&self) -> &'static str {
        match self {
            Note::ToMove { .. } => "1.2",
            Note::Check { .. } | Note::NotInCheck { .. } => "3.9",
            Note::LegalMoves { .. } => "3.10",
            Note::Checkmate { .. } => "5.1.1",
            Note::Stalemate { .. } => "5.2.1",
            Note::DeadPosition { .. } => "5.2.2",
            Note::FivefoldRepetition => "9.6.1",
            Note::SeventyFiveMoves | Note::MateBeatsSeventyFive => "9.6.2",
            Note::Repetitions { .. } => "9.2.3",
            Note::HalfmoveClock { .. } => "9.3",
            Note::ClaimThreefoldNow { .. } => "9.2.1.2",
            Note::ClaimFiftyNow { .. } => "9.3.2",
            Note::ClaimWithMove { draw, .. } => draw.rule(false),
        }
    }
}

/// `（FIDE 3.9.2）` / `(FIDE 3.9.2)`.
pub fn citation(rule: &str, lang: Lang) -> String {
    match lang {
        Lang::En => format!("(FIDE {rule})"),
        Lang::Zh => format!("（FIDE {}）", rule.replace("Appendix", "附录")),
    }
}

fn color_en(c: Color) -> &'static str {
    match c {
        Color::White => "White",
        Color::Black => "Black",
    }
}
fn color_zh(c: Color) -> &'static str {
    match c {
        Color::White => "白方",
        Color::Black => "黑方",
    }
}
fn kind_en(k: PieceType) -> &'static str {
    k.name()
}
fn kind_zh(k: PieceType) -> &'static str {
    match k {
        PieceType::Pawn => "兵",
        PieceType::Knight => "马",
        PieceType::Bishop => "象",
        PieceType::Rook => "车",
        PieceType::Queen => "后",
        PieceType::King => "王",
    }
}
/// "白车" / "黑马".
fn piece_zh(p: Piece) -> String {
    let c = if p.color == Color::White { "白" } else { "黑" };
    format!("{c}{}", kind_zh(p.kind))
}
/// "the black rook on e8".
fn at_en(p: Piece, sq: Square) -> String {
    format!("the {} {} on {sq}", color_en(p.color).to_lowercase(), kind_en(p.kind))
}
/// "e8 的黑车".
fn at_zh(p: Piece, sq: Square) -> String {
    format!("{sq} 的{}", piece_zh(p))
}
fn join_en(items: Vec<String>) -> String {
    match items.len() {
        0 => String::new(),
        1 => items[0].clone(),
        n => format!("{} and {}", items[..n - 1].join(", "), items[n - 1]),
    }
}
fn join_zh(items: Vec<String>) -> String {
    match items.len() {
        0 => String::new(),
        1 => items[0].clone(),
        n => format!("{}和{}", items[..n - 1].join("、"), items[n - 1]),
    }
}
fn list_en(list: &[Placed]) -> String {
    join_en(list.iter().map(|&(p, s)| at_en(p, s)).collect())
}
fn list_zh(list: &[Placed]) -> String {
    join_zh(list.iter().map(|&(p, s)| at_zh(p, s)).collect())
}
fn side_en(side: CastleSide) -> &'static str {
    match side {
        CastleSide::King => "king-side (O-O)",
        CastleSide::Queen => "queen-side (O-O-O)",
    }
}
fn side_zh(side: CastleSide) -> &'static str {
    match side {
        CastleSide::King => "短易位（王翼，O-O）",
        CastleSide::Queen => "长易位（后翼，O-O-O）",
    }
}
fn line_kind(from: Square, to: Square) -> (&'static str, &'static str) {
    if from.rank() == to.rank() {
        ("rank", "横线")
    } else if from.file() == to.file() {
        ("file", "直线")
    } else {
        ("diagonal", "斜线")
    }
}

/// Chinese typesetting: one space between a Han character and a square name or number
/// ("被 e8 的黑车"), none next to full-width punctuation.
fn space_cjk(s: &str) -> String {
    let han = |c: char| ('\u{4E00}'..='\u{9FFF}').contains(&c);
    let latin = |c: char| c.is_ascii_alphanumeric();
    let mut out = String::with_capacity(s.len() + 8);
    let mut prev: Option<char> = None;
    for c in s.chars() {
        if let Some(p) = prev {
            if (han(p) && latin(c)) || (latin(p) && han(c)) {
                out.push(' ');
            }
        }
        out.push(c);
        prev = Some(c);
    }
    out
}

fn category_en(c: MoveCategory) -> String {
    match c {
        MoveCategory::Quiet => "quiet move".into(),
        MoveCategory::Capture => "capture".into(),
        MoveCategory::DoublePawnPush => "two-square pawn advance".into(),
        MoveCategory::EnPassant => "en passant capture".into(),
        MoveCategory::CastlingKingside => "castling king-side".into(),
        MoveCategory::CastlingQueenside => "castling queen-side".into(),
        MoveCategory::Promotion { piece, capture: false } => format!("promotion to a {}", kind_en(piece)),
        MoveCategory::Promotion { piece, capture: true } => format!("capture and promotion to a {}", kind_en(piece)),
    }
}

fn category_zh(c: MoveCategory) -> String {
    match c {
        MoveCategory::Quiet => "普通移动".into(),
        MoveCategory::Capture => "吃子".into(),
        MoveCategory::DoublePawnPush => "兵前进两格".into(),
        MoveCategory::EnPassant => "吃过路兵".into(),
        MoveCategory::CastlingKingside => "短易位".into(),
        MoveCategory::CastlingQueenside => "长易位".into(),
        MoveCategory::Promotion { piece, capture: false } => format!("升变为{}", kind_zh(piece)),
        MoveCategory::Promotion { piece, capture: true } => format!("吃子并升变为{}", kind_zh(piece)),
    }
}

/// One reason as a sentence with its citation.
pub fn reason_text(r: &Reason, lang: Lang) -> String {
    let body = match lang {
        Lang::En => reason_en(r),
        Lang::Zh => space_cjk(&reason_zh(r)),
    };
    match lang {
        Lang::En => format!("{body} {}", citation(r.rule(), lang)),
        Lang::Zh => format!("{body}{}", citation(r.rule(), lang)),
    }
}

fn reason_en(r: &Reason) -> String {
    match r {
        Reason::Malformed { input } => format!(
            "\"{input}\" is not a move: write it in algebraic notation such as e4, Nf3, exd5, O-O or e8=Q, or as \
             two squares such as e2e4."
        ),
        Reason::Ambiguous { input, candidates } => {
            let sans: Vec<String> = candidates.iter().map(|(s, _)| s.clone()).collect();
            let first = sans.first().cloned().unwrap_or_default();
            format!(
                "\"{input}\" fits more than one legal move ({}), so the notation must say which piece moves, \
                 for example {first}.",
                join_en(sans.clone()).replace(" and ", " or ")
            )
        }
        Reason::NoPiece { from: Some(from), .. } => format!("There is no piece on {from} to move."),
        Reason::NoPiece { from: None, wanted, to } => match (wanted, to) {
            (Some(p), Some(to)) => {
                format!("{} has no {} that could move to {to}.", color_en(p.color), kind_en(p.kind))
            }
            _ => "There is no such piece to move.".to_string(),
        },
        Reason::NotYourPiece { piece, from } => format!(
            "The {} on {from} belongs to {}, but it is {}'s turn: each player moves only their own pieces, \
             one move at a time.",
            kind_en(piece.kind),
            color_en(piece.color),
            color_en(piece.color.flip())
        ),
        Reason::GameOver { outcome } => match outcome {
            Outcome::Checkmate { winner } => format!(
                "The game is already over: {} is checkmated, so no further move can be played.",
                color_en(winner.flip())
            ),
            Outcome::Draw(AutomaticDraw::Stalemate) => "The game is already over: the player to move has no legal \
                 move and is not in check, which is stalemate, a draw."
                .to_string(),
            Outcome::Draw(AutomaticDraw::DeadPosition) => "The game is already over: neither player can checkmate \
                 by any series of legal moves (a dead position), so it is drawn."
                .to_string(),
            Outcome::Draw(AutomaticDraw::FivefoldRepetition) => {
                "The game is already over: the same position has appeared five times, which draws automatically."
                    .to_string()
            }
            Outcome::Draw(AutomaticDraw::SeventyFiveMoves) => "The game is already over: each player has made 75 \
                 moves without a capture or a pawn move, which draws automatically."
                .to_string(),
        },
        Reason::BadGeometry { piece, from: None, to } => format!(
            "No {} {} can reach {to}: that is not a {} move from any of them.",
            color_en(piece.color).to_lowercase(),
            kind_en(piece.kind),
            kind_en(piece.kind)
        ),
        Reason::BadGeometry { piece, from: Some(from), to } => match piece.kind {
            PieceType::Knight => format!(
                "A knight moves in an L, two squares one way and one square to the side; {to} is not a knight's \
                 jump from {from}."
            ),
            PieceType::Bishop => {
                format!("A bishop moves only along diagonals; {to} is not on a diagonal through {from}.")
            }
            PieceType::Rook => {
                format!("A rook moves only along ranks and files; {to} is not on the same rank or file as {from}.")
            }
            PieceType::Queen => format!(
                "A queen moves along ranks, files and diagonals, never in an L; {to} is on none of the lines \
                 through {from}."
            ),
            PieceType::King => format!(
                "A king moves one square in any direction (two squares sideways only when castling from its \
                 initial square); {from} to {to} is not such a move."
            ),
            PieceType::Pawn => format!(
                "A pawn moves straight forward one square (two from its starting square) and captures one square \
                 diagonally forward; {from} to {to} is none of these."
            ),
        },
        Reason::PathBlocked { piece, from, to, blocker } => {
            if piece.kind == PieceType::Pawn {
                format!(
                    "The pawn on {from} cannot advance two squares to {to}: {} stands in the way, and a pawn \
                     never jumps.",
                    at_en(blocker.0, blocker.1)
                )
            } else {
                format!(
                    "The {} cannot go from {from} to {to}: {} is in the way, and only a knight may jump over \
                     pieces.",
                    kind_en(piece.kind),
                    at_en(blocker.0, blocker.1)
                )
            }
        }
        Reason::OwnPiece { piece, to, occupant, .. } => format!(
            "The {} cannot go to {to}: your own {} stands there, and no piece may move to a square occupied by a \
             piece of its own colour.",
            kind_en(piece.kind),
            kind_en(occupant.kind)
        ),
        Reason::PawnForwardCapture { from, to, occupant, .. } => format!(
            "The pawn on {from} cannot move to {to}: {} stands directly in front of it, and a pawn captures only \
             diagonally.",
            at_en(*occupant, *to)
        ),
        Reason::PawnDiagonalEmpty { from, to, .. } => format!(
            "The pawn on {from} may move diagonally only to capture, but {to} is empty and is not an en-passant \
             square."
        ),
        Reason::PawnDoubleNotFirst { from, .. } => format!(
            "The pawn on {from} is no longer on its starting square, so it may advance only one square at a time."
        ),
        Reason::PawnBackward { from, to, .. } => {
            let how = if from.rank() == to.rank() { "sideways" } else { "backwards" };
            format!("A pawn never moves backwards or sideways, and {from} to {to} goes {how}.")
        }
        Reason::EnPassantExpired { piece, to, enemy_pawn, plies_ago, .. } => {
            let when = match plies_ago {
                Some(n) => format!("{n} half-moves ago"),
                None => "before this game record started".to_string(),
            };
            format!(
                "The {} pawn on {enemy_pawn} did advance two squares past {to}, but that was {when}; en passant \
                 is allowed only on the move immediately after the two-square advance.",
                color_en(piece.color.flip()).to_lowercase()
            )
        }
        Reason::PromotionRequired { from, to, .. } => format!(
            "The pawn on {from} reaches the last rank at {to} and must be exchanged at once for a queen, rook, \
             bishop or knight: say which, for example {to}=Q."
        ),
        Reason::BadPromotionPiece { promotion, last_rank: true, .. } => format!(
            "A pawn may promote only to a queen, rook, bishop or knight of its own colour, never to a {}.",
            kind_en(*promotion)
        ),
        Reason::BadPromotionPiece { piece, from, to, promotion, last_rank: false } => format!(
            "Only a pawn reaching the last rank is promoted; moving the {} from {from} to {to} is not such a move, \
             so no promotion piece ({}) may be named.",
            kind_en(piece.kind),
            kind_en(*promotion)
        ),
        Reason::CastlingRightsLost { color, side, cause } => {
            let c = color_en(*color);
            let rook = side.rook_from(*color);
            let king = CastleSide::king_from(*color);
            match cause {
                CastlingLoss::KingNotHome => format!(
                    "{c} cannot castle {}: the king is not on its initial square {king}, so it has moved.",
                    side_en(*side)
                ),
                CastlingLoss::KingMoved => format!(
                    "{c} can no longer castle: the king has already moved in this game, and returning to {king} \
                     does not restore the right."
                ),
                CastlingLoss::RookMoved => format!(
                    "{c} can no longer castle {}: the rook on {rook} has already moved in this game, even though \
                     it is back on its square.",
                    side_en(*side)
                ),
                CastlingLoss::RookGone => format!(
                    "{c} cannot castle {}: there is no {} rook on {rook} any more (it has moved or been captured).",
                    side_en(*side),
                    c.to_lowercase()
                ),
                CastlingLoss::NotInStartPosition => format!(
                    "{c} has no right to castle {} in this position (the FEN records none): the king or the {rook} \
                     rook has moved before.",
                    side_en(*side)
                ),
            }
        }
        Reason::CastlingPathOccupied { color, side, occupied } => format!(
            "{} cannot castle {}: {} {} between the king and the rook, and every square between them must be \
             empty{}.",
            color_en(*color),
            side_en(*side),
            list_en(occupied),
            if occupied.len() > 1 { "stand" } else { "stands" },
            if *side == CastleSide::Queen { " (the b-file square included)" } else { "" }
        ),
        Reason::CastlingInCheck { color, checkers, .. } => format!(
            "{} cannot castle while the king is in check, and it is in check from {}.",
            color_en(*color),
            list_en(checkers)
        ),
        Reason::CastlingThroughCheck { color, side, square, attackers } => format!(
            "{} cannot castle {}: the king would pass over {square}, which is attacked by {}.",
            color_en(*color),
            side_en(*side),
            list_en(attackers)
        ),
        Reason::CastlingIntoCheck { color, side, square, attackers } => format!(
            "{} cannot castle {}: the king would land on {square}, which is attacked by {}.",
            color_en(*color),
            side_en(*side),
            list_en(attackers)
        ),
        Reason::KingIntoCheck { to, attackers, defended, pinned_attackers, .. } => {
            let kings_meet = attackers.iter().any(|(p, _)| p.kind == PieceType::King);
            let mut s = match defended {
                Some(d) => format!(
                    "The king cannot capture the {} on {to}: it is protected by {}, so the king would be moving \
                     into check.",
                    kind_en(d.kind),
                    list_en(attackers)
                ),
                None => format!(
                    "The king cannot go to {to}: that square is attacked by {}, and a king may never move into \
                     check.",
                    list_en(attackers)
                ),
            };
            if kings_meet {
                s.push_str(" The two kings may never stand next to each other.");
            }
            if !pinned_attackers.is_empty() {
                let sqs: Vec<String> = pinned_attackers.iter().map(|s| s.to_string()).collect();
                s.push_str(&format!(
                    " The piece on {} is pinned, but it still attacks {to}: an attack counts even from a pinned \
                     piece (FIDE 3.1.3).",
                    join_en(sqs)
                ));
            }
            s
        }
        Reason::LeavesKingInCheck { piece, from, to, king, checkers, double, unblockable } => {
            let mut s = format!(
                "Your king on {king} is in check from {}, and moving the {} from {from} to {to} does not end the \
                 check.",
                list_en(checkers),
                kind_en(piece.kind)
            );
            if *double {
                s.push_str(" It is double check: only a king move can help.");
            } else if *unblockable {
                s.push_str(
                    " A check by a knight or a pawn cannot be blocked: capture the checking piece or move the king.",
                );
            }
            s
        }
        Reason::ExposesKing { piece, from, to, king, pinner, en_passant } => {
            if *en_passant {
                format!(
                    "Capturing en passant from {from} to {to} would take both pawns off the line between {} and \
                     your king on {king}, leaving the king in check.",
                    at_en(pinner.0, pinner.1)
                )
            } else {
                format!(
                    "The {} on {from} is pinned by {}: moving it to {to} would open the line to your king on \
                     {king}.",
                    kind_en(piece.kind),
                    at_en(pinner.0, pinner.1)
                )
            }
        }
        Reason::Moves { piece, from, to } => match piece.kind {
            PieceType::Pawn => format!("The pawn advances one square from {from} to the empty square {to}."),
            PieceType::Knight => {
                format!("The knight jumps in an L from {from} to {to}; a knight may jump over other pieces.")
            }
            PieceType::King => format!("The king steps one square, from {from} to {to}."),
            k => format!(
                "The {} moves along the {} from {from} to {to}, and no piece stands in between.",
                kind_en(k),
                line_kind(*from, *to).0
            ),
        },
        Reason::PawnDoubleStep { from, to, passed, .. } => format!(
            "From its starting square {from} a pawn may advance two squares, and both {passed} and {to} are empty."
        ),
        Reason::PawnCapture { from, to, captured, .. } => {
            format!("The pawn on {from} captures {} one square diagonally forward.", at_en(*captured, *to))
        }
        Reason::EnPassant { piece, to, captured_on, .. } => format!(
            "En passant: the {} pawn on {captured_on} has just advanced two squares, passing {to}, so on this move \
             only it may be captured as if it had moved one square; it is removed from {captured_on}.",
            color_en(piece.color.flip()).to_lowercase()
        ),
        Reason::Promotion { to, promotion, .. } => {
            format!("The pawn reaches the last rank and is exchanged for a {} on {to}.", kind_en(*promotion))
        }
        Reason::Castling { color, side } => format!(
            "Castling {}: the king goes from {} to {} and the rook from {} to {}. Neither has moved yet, the \
             squares between them are empty, the king is not in check, and it neither crosses nor lands on an \
             attacked square.",
            side_en(*side),
            CastleSide::king_from(*color),
            side.king_to(*color),
            side.rook_from(*color),
            side.rook_to(*color)
        ),
        Reason::CastlingAttackedRookAllowed { squares, .. } => {
            let sqs: Vec<String> = squares.iter().map(|s| s.to_string()).collect();
            format!(
                "That {} {} attacked does not matter: only the king's square, the square it crosses and the \
                 square it lands on must be safe.",
                join_en(sqs),
                if squares.len() > 1 { "are" } else { "is" }
            )
        }
        Reason::Capture { piece, to, captured, .. } => {
            format!("The {} captures {}, which is removed from the board.", kind_en(piece.kind), at_en(*captured, *to))
        }
        Reason::PinnedAlongLine { piece, to, king, pinner, .. } => {
            if *to == pinner.1 {
                format!(
                    "The {} is pinned by {}, but capturing the pinning piece is allowed: the king on {king} is not \
                     exposed.",
                    kind_en(piece.kind),
                    at_en(pinner.0, pinner.1)
                )
            } else {
                format!(
                    "The {} is pinned by {}, but it moves along the pin line, so it still shields your king on \
                     {king}.",
                    kind_en(piece.kind),
                    at_en(pinner.0, pinner.1)
                )
            }
        }
        Reason::ResolvesCheck { piece, to, how, checkers } => match how {
            CheckAnswer::CapturesChecker => format!(
                "It answers the check by capturing the checking piece ({}) with the {}.",
                list_en(checkers),
                kind_en(piece.kind)
            ),
            CheckAnswer::Blocks => {
                format!("It answers the check from {} by blocking the line on {to}.", list_en(checkers))
            }
            CheckAnswer::KingMoves => {
                format!("It answers the check from {} by moving the king out of attack.", list_en(checkers))
            }
        },
        Reason::KingSafe { king, king_moved: true } => {
            format!("No enemy piece attacks {king}, so the king is safe there.")
        }
        Reason::KingSafe { king, king_moved: false } => {
            format!("After the move your king on {king} is not attacked, so the move is legal.")
        }
    }
}

fn reason_zh(r: &Reason) -> String {
    match r {
        Reason::Malformed { input } => format!(
            "“{input}”不是一步着法：请用代数记谱法书写，例如 e4、Nf3、exd5、O-O、e8=Q，或写出起止格，例如 e2e4。"
        ),
        Reason::Ambiguous { input, candidates } => {
            let sans: Vec<String> = candidates.iter().map(|(s, _)| s.clone()).collect();
            let first = sans.first().cloned().unwrap_or_default();
            format!(
                "“{input}”可以指不止一步合法着法（{}），记谱时必须注明走的是哪一个棋子，例如 {first}。",
                sans.join("、")
            )
        }
        Reason::NoPiece { from: Some(from), .. } => format!("{from} 上没有棋子可走。"),
        Reason::NoPiece { from: None, wanted, to } => match (wanted, to) {
            (Some(p), Some(to)) => format!("{}没有能走到 {to} 的{}。", color_zh(p.color), kind_zh(p.kind)),
            _ => "没有这样的棋子可走。".to_string(),
        },
        Reason::NotYourPiece { piece, from } => format!(
            "{}属于{}，但现在轮到{}走棋：双方轮流走棋，每次只能走自己的棋子。",
            at_zh(*piece, *from),
            color_zh(piece.color),
            color_zh(piece.color.flip())
        ),
        Reason::GameOver { outcome } => match outcome {
            Outcome::Checkmate { winner } => {
                format!("对局已经结束：{}已被将杀，不能再走任何着法。", color_zh(winner.flip()))
            }
            Outcome::Draw(AutomaticDraw::Stalemate) => {
                "对局已经结束：轮到走棋的一方没有合法着法且未被将军，形成逼和，为和棋。".to_string()
            }
            Outcome::Draw(AutomaticDraw::DeadPosition) => {
                "对局已经结束：双方都无法通过任何合法着法序列将杀对方（死局），为和棋。".to_string()
            }
            Outcome::Draw(AutomaticDraw::FivefoldRepetition) => {
                "对局已经结束：同一局面已出现五次，自动判和。".to_string()
            }
            Outcome::Draw(AutomaticDraw::SeventyFiveMoves) => {
                "对局已经结束：双方各已连续走了 75 步，期间没有吃子也没有兵的移动，自动判和。".to_string()
            }
        },
        Reason::BadGeometry { piece, from: None, to } => format!(
            "{}没有哪个{}能按{}的走法到达 {to}。",
            color_zh(piece.color),
            kind_zh(piece.kind),
            kind_zh(piece.kind)
        ),
        Reason::BadGeometry { piece, from: Some(from), to } => match piece.kind {
            PieceType::Knight => {
                format!("马走“日”字：先向一个方向走两格，再横移一格；从 {from} 跳不到 {to}。")
            }
            PieceType::Bishop => format!("象只能沿斜线走；{to} 不在经过 {from} 的斜线上。"),
            PieceType::Rook => format!("车只能横走或竖走；{to} 与 {from} 不在同一横线或直线上。"),
            PieceType::Queen => {
                format!("后可以横、竖、斜走任意格，但不能走“日”字；{to} 不在经过 {from} 的任何一条线上。")
            }
            PieceType::King => format!(
                "王每次只能向任意方向走一格（只有从原位王车易位时才横走两格）；从 {from} 到 {to} 不是这样的走法。"
            ),
            PieceType::Pawn => format!(
                "兵只能向前直走一格（在初始位置可走两格），吃子时向前斜走一格；从 {from} 到 {to} 都不符合。"
            ),
        },
        Reason::PathBlocked { piece, from, to, blocker } => {
            if piece.kind == PieceType::Pawn {
                format!("{from} 的兵不能前进两格到 {to}：{}挡在路上，兵不能越子。", at_zh(blocker.0, blocker.1))
            } else {
                format!(
                    "{}不能从 {from} 走到 {to}：途中有{}挡住，只有马可以越过棋子。",
                    kind_zh(piece.kind),
                    at_zh(blocker.0, blocker.1)
                )
            }
        }
        Reason::OwnPiece { piece, to, occupant, .. } => format!(
            "{}不能走到 {to}：那里是己方的{}，棋子不能走到己方棋子所在的格子。",
            kind_zh(piece.kind),
            kind_zh(occupant.kind)
        ),
        Reason::PawnForwardCapture { from, to, occupant, .. } => format!(
            "{from} 的兵不能走到 {to}：正前方是{}，兵只能斜着吃子。",
            at_zh(*occupant, *to)
        ),
        Reason::PawnDiagonalEmpty { from, to, .. } => {
            format!("{from} 的兵只有吃子时才能斜走，而 {to} 是空格，也不是可以吃过路兵的格子。")
        }
        Reason::PawnDoubleNotFirst { from, .. } => {
            format!("{from} 的兵已经不在初始位置，只能一次前进一格。")
        }
        Reason::PawnBackward { from, to, .. } => {
            let how = if from.rank() == to.rank() { "横走" } else { "后退" };
            format!("兵不能后退，也不能横走；从 {from} 到 {to} 是{how}。")
        }
        Reason::EnPassantExpired { piece, to, enemy_pawn, plies_ago, .. } => {
            let when = match plies_ago {
                Some(n) => format!("那是 {n} 个半回合之前的事"),
                None => "那发生在本棋谱记录开始之前".to_string(),
            };
            format!(
                "{enemy_pawn} 的{}确实走了两格越过 {to}，但{when}；吃过路兵只能在对方兵走两格后紧接着的一着进行。",
                piece_zh(Piece::new(piece.color.flip(), PieceType::Pawn))
            )
        }
        Reason::PromotionRequired { from, to, .. } => format!(
            "{from} 的兵走到底线 {to}，必须立即升变为后、车、象或马：请注明升变的棋子，例如 {to}=Q。"
        ),
        Reason::BadPromotionPiece { promotion, last_rank: true, .. } => {
            format!("兵只能升变为同色的后、车、象或马，不能升变为{}。", kind_zh(*promotion))
        }
        Reason::BadPromotionPiece { piece, from, to, promotion, last_rank: false } => format!(
            "只有走到底线的兵才能升变；{}从 {from} 到 {to} 不是这样的着法，不能指定升变棋子（{}）。",
            kind_zh(piece.kind),
            kind_zh(*promotion)
        ),
        Reason::CastlingRightsLost { color, side, cause } => {
            let c = color_zh(*color);
            let rook = side.rook_from(*color);
            let king = CastleSide::king_from(*color);
            match cause {
                CastlingLoss::KingNotHome => {
                    format!("{c}不能{}：王已不在原位 {king}，说明它已经走动过。", side_zh(*side))
                }
                CastlingLoss::KingMoved => {
                    format!("{c}不能再王车易位：王在本局中已经走动过，即使回到 {king} 也不能恢复易位权。")
                }
                CastlingLoss::RookMoved => format!(
                    "{c}不能再{}：{rook} 的车在本局中已经走动过，即使回到原位也不能恢复易位权。",
                    side_zh(*side)
                ),
                CastlingLoss::RookGone => {
                    format!("{c}不能{}：{rook} 上已经没有己方的车（已走动或被吃掉）。", side_zh(*side))
                }
                CastlingLoss::NotInStartPosition => format!(
                    "此局面中{c}没有{}的权利（FEN 中没有记录）：王或 {rook} 的车之前已经走动过。",
                    side_zh(*side)
                ),
            }
        }
        Reason::CastlingPathOccupied { color, side, occupied } => format!(
            "{}不能{}：王和车之间有{}，两者之间的格子必须全部为空{}。",
            color_zh(*color),
            side_zh(*side),
            list_zh(occupied),
            if *side == CastleSide::Queen { "（包括 b 线上的那一格）" } else { "" }
        ),
        Reason::CastlingInCheck { color, checkers, .. } => format!(
            "{}的王正被{}将军，被将军时不能王车易位。",
            color_zh(*color),
            list_zh(checkers)
        ),
        Reason::CastlingThroughCheck { color, side, square, attackers } => format!(
            "{}不能{}：王要经过的 {square} 受到{}的攻击。",
            color_zh(*color),
            side_zh(*side),
            list_zh(attackers)
        ),
        Reason::CastlingIntoCheck { color, side, square, attackers } => format!(
            "{}不能{}：王的落点 {square} 受到{}的攻击。",
            color_zh(*color),
            side_zh(*side),
            list_zh(attackers)
        ),
        Reason::KingIntoCheck { to, attackers, defended, pinned_attackers, .. } => {
            let kings_meet = attackers.iter().any(|(p, _)| p.kind == PieceType::King);
            let mut s = match defended {
                Some(d) => format!(
                    "王不能吃 {to} 的{}：它受到{}的保护，吃掉它就等于把王送进将军。",
                    kind_zh(d.kind),
                    list_zh(attackers)
                ),
                None => format!("王不能走到 {to}：该格受到{}的攻击，王不能走进被将军的格子。", list_zh(attackers)),
            };
            if kings_meet {
                s.push_str("两个王永远不能相邻。");
            }
            if !pinned_attackers.is_empty() {
                let sqs: Vec<String> = pinned_attackers.iter().map(|s| s.to_string()).collect();
                s.push_str(&format!(
                    "{} 的棋子虽然被牵制，但仍然攻击 {to}：被牵制的棋子的攻击同样有效（FIDE 3.1.3）。",
                    join_zh(sqs)
                ));
            }
            s
        }
        Reason::LeavesKingInCheck { piece, from, to, king, checkers, double, unblockable } => {
            let mut s = format!(
                "{king} 的王正被{}将军，而把{}从 {from} 走到 {to} 并不能解除将军。",
                list_zh(checkers),
                kind_zh(piece.kind)
            );
            if *double {
                s.push_str("这是双将：只有走王才能解将。");
            } else if *unblockable {
                s.push_str("马或兵的将军无法阻挡：只能吃掉将军的棋子或者走王。");
            }
            s
        }
        Reason::ExposesKing { piece, from, to, king, pinner, en_passant } => {
            if *en_passant {
                format!(
                    "从 {from} 到 {to} 吃过路兵会同时移走这条线上的两个兵，让{}直接将军 {king} 的王。",
                    at_zh(pinner.0, pinner.1)
                )
            } else {
                format!(
                    "{from} 的{}被{}牵制：它一旦走到 {to}，{} 与 {king} 的己方王之间的线路就会打开，王将被将军。",
                    kind_zh(piece.kind),
                    at_zh(pinner.0, pinner.1),
                    pinner.1
                )
            }
        }
        Reason::Moves { piece, from, to } => match piece.kind {
            PieceType::Pawn => format!("兵从 {from} 向前走一格到空格 {to}。"),
            PieceType::Knight => format!("马从 {from} 走“日”字跳到 {to}，马可以越过其他棋子。"),
            PieceType::King => format!("王从 {from} 走一格到 {to}。"),
            k => format!(
                "{}沿{}从 {from} 走到 {to}，途中没有棋子阻挡。",
                kind_zh(k),
                line_kind(*from, *to).1
            ),
        },
        Reason::PawnDoubleStep { from, to, passed, .. } => {
            format!("兵在初始位置 {from} 可以前进两格，途经的 {passed} 和落点 {to} 都是空格。")
        }
        Reason::PawnCapture { from, to, captured, .. } => {
            format!("{from} 的兵向前斜走一格，吃掉{}。", at_zh(*captured, *to))
        }
        Reason::EnPassant { piece, to, captured_on, .. } => format!(
            "吃过路兵：{captured_on} 的{}刚刚走了两格，越过了 {to}，所以仅在紧接着的这一着，可以像它只走了一格那样把它吃掉，并把它从 {captured_on} 拿走。",
            piece_zh(Piece::new(piece.color.flip(), PieceType::Pawn))
        ),
        Reason::Promotion { to, promotion, .. } => {
            format!("兵到达底线，在 {to} 升变为{}。", kind_zh(*promotion))
        }
        Reason::Castling { color, side } => format!(
            "王车易位，{}：王从 {} 走到 {}，车从 {} 走到 {}。王和车都还没有走动过，两者之间的格子全空，王没有被将军，经过和到达的格子也都不受攻击。",
            side_zh(*side),
            CastleSide::king_from(*color),
            side.king_to(*color),
            side.rook_from(*color),
            side.rook_to(*color)
        ),
        Reason::CastlingAttackedRookAllowed { squares, .. } => {
            let sqs: Vec<String> = squares.iter().map(|s| s.to_string()).collect();
            format!(
                "{} 受到攻击并不妨碍易位：只有王所在的格子、经过的格子和到达的格子必须不受攻击。",
                join_zh(sqs)
            )
        }
        Reason::Capture { piece, to, captured, .. } => {
            format!("{}吃掉{}，把它从棋盘上拿走。", kind_zh(piece.kind), at_zh(*captured, *to))
        }
        Reason::PinnedAlongLine { piece, to, king, pinner, .. } => {
            if *to == pinner.1 {
                format!(
                    "{}被{}牵制，但可以吃掉牵制它的棋子：{king} 的王不会因此暴露。",
                    kind_zh(piece.kind),
                    at_zh(pinner.0, pinner.1)
                )
            } else {
                format!(
                    "{}被{}牵制，但它沿着牵制线移动，仍然挡在 {king} 的王前面。",
                    kind_zh(piece.kind),
                    at_zh(pinner.0, pinner.1)
                )
            }
        }
        Reason::ResolvesCheck { piece, to, how, checkers } => match how {
            CheckAnswer::CapturesChecker => {
                format!("用{}吃掉将军的棋子（{}），解除了将军。", kind_zh(piece.kind), list_zh(checkers))
            }
            CheckAnswer::Blocks => format!("在 {to} 挡住{}的将军线路，解除了将军。", list_zh(checkers)),
            CheckAnswer::KingMoves => format!("王走出了{}的攻击范围，解除了将军。", list_zh(checkers)),
        },
        Reason::KingSafe { king, king_moved: true } => format!("{king} 不受对方任何棋子攻击，王走到那里是安全的。"),
        Reason::KingSafe { king, king_moved: false } => {
            format!("走完之后 {king} 的王不受攻击，所以这步棋合法。")
        }
    }
}

/// One state sentence with its citation.
pub fn note_text(n: &Note, lang: Lang) -> String {
    let body = match lang {
        Lang::En => note_en(n),
        Lang::Zh => space_cjk(&note_zh(n)),
    };
    match lang {
        Lang::En => format!("{body} {}", citation(n.rule(), lang)),
        Lang::Zh => format!("{body}{}", citation(n.rule(), lang)),
    }
}

fn shorten(moves: &[String], max: usize) -> (Vec<String>, usize) {
    let shown: Vec<String> = moves.iter().take(max).cloned().collect();
    (shown, moves.len().saturating_sub(max))
}

fn note_en(n: &Note) -> String {
    match n {
        Note::ToMove { side } => format!("{} to move.", color_en(*side)),
        Note::Check { side, checkers } => {
            let kind = if checkers.len() > 1 { "Double check" } else { "Check" };
            format!("{kind}: the {} king is attacked by {}.", color_en(*side).to_lowercase(), list_en(checkers))
        }
        Note::NotInCheck { side } => format!("The {} king is not in check.", color_en(*side).to_lowercase()),
        Note::LegalMoves { side, count } => format!("{} has {count} legal moves.", color_en(*side)),
        Note::Checkmate { loser } => format!(
            "Checkmate: the {} king is in check and there is no legal move to escape. {} wins.",
            color_en(*loser).to_lowercase(),
            color_en(loser.flip())
        ),
        Note::Stalemate { side } => {
            format!("Stalemate: {} has no legal move and is not in check. The game is drawn.", color_en(*side))
        }
        Note::DeadPosition { reason } => format!(
            "Dead position: neither player can checkmate by any series of legal moves ({}). The game is drawn.",
            match reason {
                DeadReason::InsufficientMaterial => "insufficient material",
                DeadReason::FrozenPawns => {
                    "every pawn is blocked for good and neither king can reach a pawn it could capture, \
                     so no check can ever be given"
                }
            }
        ),
        Note::FivefoldRepetition => {
            "The same position has now appeared five times: the game is drawn automatically.".to_string()
        }
        Note::SeventyFiveMoves => "Each player has made 75 moves without a capture or a pawn move: the game is \
                                   drawn automatically."
            .to_string(),
        Note::MateBeatsSeventyFive => "This is at least the 150th half-move without a capture or pawn move, but \
                                       checkmate takes precedence over the seventy-five-move rule."
            .to_string(),
        Note::Repetitions { count } => format!(
            "This position has occurred {count} time{} in the game (the same player to move, the same pieces on \
             the same squares and the same possible moves).",
            if *count == 1 { "" } else { "s" }
        ),
        Note::HalfmoveClock { count } => format!(
            "Half-moves since the last capture or pawn move: {count} (a draw may be claimed at 100; it is \
             automatic at 150)."
        ),
        Note::ClaimThreefoldNow { side, count } => format!(
            "{} may now claim a draw by threefold repetition: this position has occurred {count} times. The draw \
             is not automatic; play goes on unless the claim is made.",
            color_en(*side)
        ),
        Note::ClaimFiftyNow { side, count } => format!(
            "{} may now claim a draw under the fifty-move rule ({count} half-moves without a capture or pawn \
             move). The draw is not automatic.",
            color_en(*side)
        ),
        Note::ClaimWithMove { side, draw, moves } => {
            let (shown, more) = shorten(moves, 6);
            let list = join_en(shown).replace(" and ", " or ");
            let more = if more > 0 { format!(" (or any of {more} other moves)") } else { String::new() };
            let what = match draw {
                DrawClaim::ThreefoldRepetition => "threefold repetition",
                DrawClaim::FiftyMoves => "the fifty-move rule",
            };
            format!(
                "{} may claim a draw by {what} by first writing down and declaring the move {list}{more}, which \
                 creates the condition.",
                color_en(*side)
            )
        }
    }
}

fn note_zh(n: &Note) -> String {
    match n {
        Note::ToMove { side } => format!("轮到{}走棋。", color_zh(*side)),
        Note::Check { side, checkers } => {
            let kind = if checkers.len() > 1 { "双将" } else { "将军" };
            format!("{kind}：{}的王受到{}的攻击。", color_zh(*side), list_zh(checkers))
        }
        Note::NotInCheck { side } => format!("{}的王没有被将军。", color_zh(*side)),
        Note::LegalMoves { side, count } => format!("{}共有 {count} 步合法着法。", color_zh(*side)),
        Note::Checkmate { loser } => format!(
            "将杀！{}的王被将军，且没有任何合法着法可以解将。{}获胜。",
            color_zh(*loser),
            color_zh(loser.flip())
        ),
        Note::Stalemate { side } => {
            format!("逼和：{}没有任何合法着法，也没有被将军，对局为和棋。", color_zh(*side))
        }
        Note::DeadPosition { reason } => format!(
            "死局：双方都无法通过任何合法着法序列将杀对方（{}），对局为和棋。",
            match reason {
                DeadReason::InsufficientMaterial => "子力不足",
                DeadReason::FrozenPawns => "所有的兵都被永久封锁，任何一方的王都无法吃到可吃的兵，因此再也不可能将军",
            }
        ),
        Note::FivefoldRepetition => "同一局面已经出现五次，自动判和。".to_string(),
        Note::SeventyFiveMoves => "双方各已连续走了 75 步，期间没有吃子也没有兵的移动，自动判和。".to_string(),
        Note::MateBeatsSeventyFive => {
            "这已是连续第 150 个（或更多）没有吃子和兵移动的半回合，但将杀优先于七十五回合规则。".to_string()
        }
        Note::Repetitions { count } => {
            format!("此局面在本局中已出现 {count} 次（同一方走棋、相同棋子位于相同格子、可走着法相同，才算同一局面）。")
        }
        Note::HalfmoveClock { count } => format!(
            "自上次吃子或兵的移动以来已走了 {count} 个半回合（达到 100 可以申请五十回合和棋，达到 150 自动和棋）。"
        ),
        Note::ClaimThreefoldNow { side, count } => format!(
            "{}现在可以申请三次重复和棋：此局面已出现 {count} 次。和棋不会自动生效，需由行棋方提出申请。",
            color_zh(*side)
        ),
        Note::ClaimFiftyNow { side, count } => format!(
            "{}现在可以依据五十回合规则申请和棋（已连续 {count} 个半回合没有吃子和兵的移动）。和棋不会自动生效。",
            color_zh(*side)
        ),
        Note::ClaimWithMove { side, draw, moves } => {
            let (shown, more) = shorten(moves, 6);
            let list = shown.join("、");
            let more = if more > 0 { format!("（或另外 {more} 步中的任意一步）") } else { String::new() };
            let what = match draw {
                DrawClaim::ThreefoldRepetition => "三次重复",
                DrawClaim::FiftyMoves => "五十回合",
            };
            format!(
                "{}可以先写下并向裁判声明着法 {list}{more}，由于这步棋会形成{what}的条件，可据此申请和棋。",
                color_zh(*side)
            )
        }
    }
}

/// The notes describing a position report: for the position after a move (`after_move`:
/// only what the move causes) or as a full position report.
pub fn report_notes(r: &PositionReport, after_move: bool) -> Vec<Note> {
    let side = r.side_to_move;
    let mut v = Vec::new();
    if !after_move {
        v.push(Note::ToMove { side });
    }
    if r.checkmate {
        v.push(Note::Checkmate { loser: side });
        if r.halfmove_clock >= 150 {
            v.push(Note::MateBeatsSeventyFive);
        }
    } else if !r.checkers.is_empty() {
        v.push(Note::Check { side, checkers: r.checkers.clone() });
    } else if !after_move {
        v.push(Note::NotInCheck { side });
    }
    if !after_move {
        v.push(Note::LegalMoves { side, count: r.legal_moves });
    }
    match r.automatic_draw {
        Some(AutomaticDraw::Stalemate) => v.push(Note::Stalemate { side }),
        Some(AutomaticDraw::DeadPosition) => {
            if let Some(reason) = r.dead_reason {
                v.push(Note::DeadPosition { reason });
            }
        }
        Some(AutomaticDraw::FivefoldRepetition) => v.push(Note::FivefoldRepetition),
        Some(AutomaticDraw::SeventyFiveMoves) => v.push(Note::SeventyFiveMoves),
        None => {}
    }
    if !after_move {
        v.push(Note::Repetitions { count: r.repetitions });
        v.push(Note::HalfmoveClock { count: r.halfmove_clock });
    }
    for c in &r.claimable_draws {
        v.push(match c {
            DrawClaim::ThreefoldRepetition => Note::ClaimThreefoldNow { side, count: r.repetitions },
            DrawClaim::FiftyMoves => Note::ClaimFiftyNow { side, count: r.halfmove_clock },
        });
    }
    for draw in [DrawClaim::ThreefoldRepetition, DrawClaim::FiftyMoves] {
        let moves: Vec<String> =
            r.claimable_with_move.iter().filter(|c| c.draw == draw).map(|c| c.san.clone()).collect();
        if !moves.is_empty() {
            v.push(Note::ClaimWithMove { side, draw, moves });
        }
    }
    v
}

/// The position report as text lines.
pub fn render_report(r: &PositionReport, lang: Lang) -> Vec<String> {
    let mut lines = vec![match lang {
        Lang::En => format!("Position: {}", r.fen),
        Lang::Zh => format!("局面：{}", r.fen),
    }];
    lines.extend(report_notes(r, false).iter().map(|n| note_text(n, lang)));
    lines
}

/// The whole explanation as text lines: the verdict, one line per reason, and for a legal
/// move what it causes.
pub fn render_explanation(ex: &Explanation, lang: Lang) -> Vec<String> {
    let uci = ex.uci();
    let mut lines = Vec::new();
    let what = match (ex.piece, ex.category()) {
        (Some(p), Some(c)) => match lang {
            Lang::En => format!(", {} {}, {}", color_en(p.color).to_lowercase(), kind_en(p.kind), category_en(c)),
            Lang::Zh => format!("，{}，{}", piece_zh(p), category_zh(c)),
        },
        _ => String::new(),
    };
    let headline = match (ex.legal, lang) {
        (true, Lang::En) => {
            format!("Legal: {} ({}){what}.", ex.san.clone().unwrap_or_default(), uci.clone().unwrap_or_default())
        }
        (true, Lang::Zh) => {
            format!("合法着法：{}（{}）{what}。", ex.san.clone().unwrap_or_default(), uci.clone().unwrap_or_default())
        }
        (false, Lang::En) => match &uci {
            Some(u) if *u != ex.input => format!("Illegal: {} ({u}).", ex.input),
            _ => format!("Illegal: {}.", ex.input),
        },
        (false, Lang::Zh) => match &uci {
            Some(u) if *u != ex.input => format!("非法着法：{}（{u}）。", ex.input),
            _ => format!("非法着法：{}。", ex.input),
        },
    };
    lines.push(headline);
    for r in &ex.reasons {
        lines.push(format!("- {}", reason_text(r, lang)));
    }
    if let Some(after) = &ex.after {
        let notes = report_notes(after, true);
        if !notes.is_empty() {
            lines.push(match lang {
                Lang::En => format!("After {}:", ex.san.clone().unwrap_or_default()),
                Lang::Zh => format!("走 {} 之后：", ex.san.clone().unwrap_or_default()),
            });
            for n in notes {
                lines.push(format!("- {}", note_text(&n, lang)));
            }
        }
    }
    lines
}
