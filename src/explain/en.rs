//! English: every reason and every fact of the position report as a sentence.

use super::analysis::{CastlingWriting, MoveCategory};
use super::lang::{Legend, RefereeText, TablebaseWords, Wording};
use super::reason::{Castling, CastlingLoss, CheckAnswer, Line, Placed, Reason};
use super::report::{MateFact, Note};
use super::text::{join_with, moves_with_uci, shorten, square_names, DeadWhy};
use crate::chess::{CastleSide, Color, FenError, Piece, PieceType, Square};
use crate::rules::unwinnable::Reason as MateReason;
use crate::rules::{Act, AutomaticDraw, DrawClaim, Outcome, ProblemCode};
use crate::syzygy::Wdl;

pub struct English;

impl Wording for English {
    fn reason(&self, r: &Reason) -> String {
        reason(r)
    }

    fn note(&self, n: &Note) -> String {
        note(n)
    }

    fn cited(&self, sentence: String, rule: &str) -> String {
        format!("{sentence} (FIDE {rule})")
    }

    fn legal_headline(&self, san: &str, uci: &str, what: Option<(Piece, MoveCategory)>) -> String {
        let what = what.map_or_else(String::new, |(p, c)| {
            format!(", {} {}, {}", color_name(p.color).to_lowercase(), kind_name(p.kind), category(c))
        });
        format!("Legal: {san} ({uci}){what}.")
    }

    fn illegal_headline(&self, input: &str, uci: Option<&str>) -> String {
        match uci {
            Some(u) => format!("Illegal: {input} ({u})."),
            None => format!("Illegal: {input}."),
        }
    }

    fn read_as(&self, input: &str, read_as: &str) -> String {
        format!("\"{input}\" is read as {read_as}.")
    }

    fn castling_writing(&self, input: &str, w: &CastlingWriting) -> String {
        let san = if w.side == CastleSide::King { "O-O" } else { "O-O-O" };
        let here = &w.here;
        if w.chess960 {
            format!(
                "In Chess960 (UCI_Chess960) castling is written as the king taking its own rook: {san} is {here} \
                 here; \"{input}\" is read as a king move."
            )
        } else {
            format!(
                "\"{input}\", the king onto its own rook, is how Chess960 writes castling; in standard chess {san} \
                 is written {here} (the king two squares towards the rook), and \"{input}\" is read as a king move."
            )
        }
    }

    fn after_move(&self, san: &str) -> String {
        format!("After {san}:")
    }

    fn position(&self, fen: &str) -> String {
        format!("Position: {fen}")
    }

    fn square_label(&self, sq: Square, piece: Option<Piece>) -> String {
        match piece {
            Some(p) => format!("{sq}, {} {}", color_name(p.color).to_lowercase(), kind_name(p.kind)),
            None => format!("{sq}, empty"),
        }
    }

    fn board_label(&self, bottom: Color) -> String {
        format!("Chessboard, {} at the bottom", color_name(bottom))
    }

    fn legend(&self) -> Legend {
        Legend {
            quiet: "quiet move",
            capture: "capture",
            two_step: "pawn two-step",
            the_move: "the move",
            attacked: "attacker / attacked square",
            in_the_way: "pin line / piece in the way",
            other: "other square the reason names",
            char_width: 7,
        }
    }

    fn fen_error(&self, e: &FenError) -> String {
        e.to_string()
    }

    fn tablebase_words(&self) -> TablebaseWords {
        TABLEBASE
    }

    fn referee(&self, t: &RefereeText) -> String {
        match t {
            RefereeText::IllegalMove { mover, text, reasons } => {
                format!("{}'s move {text} is illegal. {reasons}", color_name(*mover))
            }
            RefereeText::UnreadableMove { mover, text, reasons } => {
                format!("{}'s move {text} cannot be read. {reasons}", color_name(*mover))
            }
            RefereeText::MoveAfterEnd { text, reasons } => {
                format!("{text} was played after the end of the game. {reasons}")
            }
            RefereeText::ContradictsLaws { recorded, laws, why } => {
                format!("Recorded {recorded}, but the Laws give {laws}: {why}")
            }
            RefereeText::OtherVariant { name } => {
                format!("Variant \"{name}\" is not played by the FIDE Laws of Chess: the game is not judged.")
            }
            RefereeText::ResultTag { tag, marker } => {
                format!("The Result tag says \"{tag}\", the movetext ends with {marker}.")
            }
            RefereeText::BadFen { error } => format!("bad FEN tag: {error}"),
            RefereeText::Unreadable { error } => error.to_string(),
            RefereeText::Game { number, white, black, result, laws, clean } => {
                let laws = match laws {
                    None => String::new(),
                    Some(Some(r)) => format!(", by the Laws {r}"),
                    Some(None) => ", the Laws cannot tell the result".to_string(),
                };
                let state = if *clean { "clean" } else { "problems" };
                format!("Game {number} ({white} - {black}): {result}{laws}: {state}")
            }
            RefereeText::Problem { ply, code, rule, text } => {
                let rule = if rule.is_empty() { String::new() } else { format!(" (FIDE {rule})") };
                format!("- ply {ply}: {}{rule}: {text}", code.code())
            }
            RefereeText::Summary { games, clean, counts } => {
                let counts: Vec<String> =
                    counts.iter().map(|(code, n)| format!("{}: {n}", problems_counted(*code))).collect();
                format!("Summary: {games} games, {clean} clean; {}", counts.join(", "))
            }
        }
    }
}

/// How the summary line counts the games with a finding.
fn problems_counted(code: ProblemCode) -> &'static str {
    match code {
        ProblemCode::IllegalMove => "illegal moves",
        ProblemCode::MoveAfterEnd => "moves after the end",
        ProblemCode::ResultContradictsLaws => "results contradicting the Laws",
        ProblemCode::Unreadable => "unreadable",
        ProblemCode::UnsupportedVariant => "other variants",
        ProblemCode::ResultTagMismatch => "result tags contradicting the movetext",
    }
}

fn color_name(c: Color) -> &'static str {
    match c {
        Color::White => "White",
        Color::Black => "Black",
    }
}

/// "1st", "2nd", "3rd", "4th", ...
fn ordinal(n: usize) -> String {
    let suffix = match n {
        1 => "st",
        2 => "nd",
        3 => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}

fn kind_name(k: PieceType) -> &'static str {
    k.name()
}

/// "the black rook on e8".
fn at(p: Piece, sq: Square) -> String {
    format!("the {} {} on {sq}", color_name(p.color).to_lowercase(), kind_name(p.kind))
}

/// "a, b and c".
fn join(items: Vec<String>) -> String {
    join_with(items, ", ", " and ")
}

/// " once the rook has left h1": an attack the castling rook shields only until it moves.
fn once_rook_left(castling: &Castling, behind_rook: bool) -> String {
    if behind_rook {
        format!(" once the rook has left {}", castling.rook_from)
    } else {
        String::new()
    }
}

fn list(list: &[Placed]) -> String {
    join(list.iter().map(|&(p, s)| at(p, s)).collect())
}

fn side_name(side: CastleSide) -> &'static str {
    match side {
        CastleSide::King => "king-side (O-O)",
        CastleSide::Queen => "queen-side (O-O-O)",
    }
}

fn category(c: MoveCategory) -> String {
    match c {
        MoveCategory::Quiet => "quiet move".into(),
        MoveCategory::Capture => "capture".into(),
        MoveCategory::DoublePawnPush => "two-square pawn advance".into(),
        MoveCategory::EnPassant => "en passant capture".into(),
        MoveCategory::CastlingKingside => "castling king-side".into(),
        MoveCategory::CastlingQueenside => "castling queen-side".into(),
        MoveCategory::Promotion { piece, capture: false } => format!("promotion to a {}", kind_name(piece)),
        MoveCategory::Promotion { piece, capture: true } => format!("capture and promotion to a {}", kind_name(piece)),
    }
}

fn reason(r: &Reason) -> String {
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
                join(sans.clone()).replace(" and ", " or ")
            )
        }
        Reason::TwoReadings { input, pawn, bishop } => format!(
            "\"{input}\" can be read two ways: {pawn} (a move of the b-pawn) or {bishop} (a bishop move). Piece \
             letters are written as capitals and a pawn capture with an x: write the move you mean."
        ),
        Reason::NoPiece { from: Some(from), .. } => format!("There is no piece on {from} to move."),
        Reason::NoPiece { from: None, wanted, to, from_file, from_rank } => match (wanted, to) {
            (Some(p), Some(to)) => {
                let place = match (from_file, from_rank) {
                    (None, None) => String::new(),
                    (Some(f), None) => format!(" on the {}-file", f.char()),
                    (None, Some(r)) => format!(" on the {} rank", ordinal(r.index() + 1)),
                    (Some(f), Some(r)) => format!(" on {}{}", f.char(), r.char()),
                };
                format!("{} has no {}{place} that could move to {to}.", color_name(p.color), kind_name(p.kind))
            }
            _ => "There is no such piece to move.".to_string(),
        },
        Reason::SameSquare { piece, square } => format!(
            "A move takes a piece to another square; {square} to {square} would leave the {} where it stands.",
            kind_name(piece.kind)
        ),
        Reason::BareSquare { piece, square, moves } => {
            let listed = moves_with_uci(moves, (" (", ")"));
            let moves = match listed.as_slice() {
                [] => "It has no legal move here.".to_string(),
                [only] => format!("Its only legal move is {only}."),
                _ => format!("Its legal moves are {}.", join(listed)),
            };
            format!(
                "{square} only names a square, where the {} {} stands; a move also names the square the piece goes \
                 to. {moves}",
                color_name(piece.color).to_lowercase(),
                kind_name(piece.kind)
            )
        }
        Reason::NotYourPiece { piece, from } => format!(
            "The {} on {from} belongs to {}, but it is {}'s turn: each player moves only their own pieces, \
             one move at a time.",
            kind_name(piece.kind),
            color_name(piece.color),
            color_name(piece.color.flip())
        ),
        Reason::GameOver { outcome } => match outcome {
            Outcome::Checkmate { winner } => format!(
                "The game is already over: {} is checkmated, so no further move can be played.",
                color_name(winner.flip())
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
            color_name(piece.color).to_lowercase(),
            kind_name(piece.kind),
            kind_name(piece.kind)
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
                    at(blocker.0, blocker.1)
                )
            } else {
                format!(
                    "The {} cannot go from {from} to {to}: {} is in the way, and only a knight may jump over \
                     pieces.",
                    kind_name(piece.kind),
                    at(blocker.0, blocker.1)
                )
            }
        }
        Reason::OwnPiece { piece, to, occupant, .. } => format!(
            "The {} cannot go to {to}: your own {} stands there, and no piece may move to a square occupied by a \
             piece of its own colour.",
            kind_name(piece.kind),
            kind_name(occupant.kind)
        ),
        Reason::PawnForwardCapture { from, to, occupant, .. } => format!(
            "The pawn on {from} cannot move to {to}: {} stands directly in front of it, and a pawn captures only \
             diagonally.",
            at(*occupant, *to)
        ),
        Reason::PawnDiagonalEmpty { from, to, .. } => format!(
            "The pawn on {from} may move diagonally only to capture, but {to} is empty and is not an en-passant \
             square."
        ),
        Reason::PawnDoubleNotFirst { from, .. } => format!(
            "The pawn on {from} is no longer on its starting square, so it may advance only one square at a time."
        ),
        Reason::PawnBackward { from, to, sideways, .. } => {
            let how = if *sideways { "sideways" } else { "backwards" };
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
                color_name(piece.color.flip()).to_lowercase()
            )
        }
        Reason::PromotionRequired { from, to, .. } => format!(
            "The pawn on {from} reaches the last rank at {to} and must be exchanged at once for a queen, rook, \
             bishop or knight: say which, for example {}.",
            super::text::promotion_example(*from, *to)
        ),
        Reason::BadPromotionPiece { promotion, last_rank: true, .. } => format!(
            "A pawn may promote only to a queen, rook, bishop or knight of its own colour, never to a {}.",
            kind_name(*promotion)
        ),
        Reason::BadPromotionPiece { piece, from, to, promotion, last_rank: false } => format!(
            "Only a pawn reaching the last rank is promoted; moving the {} from {from} to {to} is not such a move, \
             so no promotion piece ({}) may be named.",
            kind_name(piece.kind),
            kind_name(*promotion)
        ),
        Reason::CastlingRightsLost { castling, cause } => {
            let c = color_name(castling.color);
            let (side, rook, king) = (&castling.side, castling.rook_from, castling.king_from);
            match cause {
                CastlingLoss::KingNotHome => format!(
                    "{c} cannot castle {}: the king is not on its initial square {king}, so it has moved.",
                    side_name(*side)
                ),
                CastlingLoss::KingMoved => format!(
                    "{c} can no longer castle: the king has already moved in this game, and returning to {king} \
                     does not restore the right."
                ),
                CastlingLoss::RookMoved => format!(
                    "{c} can no longer castle {}: the rook on {rook} has already moved in this game, even though \
                     it is back on its square.",
                    side_name(*side)
                ),
                CastlingLoss::RookGone => format!(
                    "{c} cannot castle {}: there is no {} rook on {rook} any more (it has moved or been captured).",
                    side_name(*side),
                    c.to_lowercase()
                ),
                CastlingLoss::NotInStartPosition => format!(
                    "{c} has no right to castle {} in this position (the FEN records none): the king or the {rook} \
                     rook has moved before.",
                    side_name(*side)
                ),
            }
        }
        Reason::CastlingPathOccupied { castling, occupied } if castling.chess960 => format!(
            "{} cannot castle {}: {} {} in the way. In Chess960 every square between the king ({}) and its \
             destination {} and between the rook ({}) and its destination {}, both destinations included, must be \
             empty except for that king and rook.",
            color_name(castling.color),
            side_name(castling.side),
            list(occupied),
            if occupied.len() > 1 { "stand" } else { "stands" },
            castling.king_from,
            castling.king_to,
            castling.rook_from,
            castling.rook_to
        ),
        Reason::CastlingPathOccupied { castling: Castling { color, side, .. }, occupied } => format!(
            "{} cannot castle {}: {} {} between the king and the rook, and every square between them must be \
             empty{}.",
            color_name(*color),
            side_name(*side),
            list(occupied),
            if occupied.len() > 1 { "stand" } else { "stands" },
            if *side == CastleSide::Queen { " (the b-file square included)" } else { "" }
        ),
        Reason::CastlingInCheck { castling: Castling { color, .. }, checkers } => format!(
            "{} cannot castle while the king is in check, and it is in check from {}.",
            color_name(*color),
            list(checkers)
        ),
        Reason::CastlingThroughCheck { castling, square, attackers, behind_rook } => format!(
            "{} cannot castle {}: the king would pass over {square}, which is attacked by {}{}.",
            color_name(castling.color),
            side_name(castling.side),
            list(attackers),
            once_rook_left(castling, *behind_rook)
        ),
        Reason::CastlingIntoCheck { castling, square, attackers, behind_rook } => format!(
            "{} cannot castle {}: the king would {} {square}, which is attacked by {}{}.",
            color_name(castling.color),
            side_name(castling.side),
            if castling.king_from == castling.king_to { "stay on" } else { "land on" },
            list(attackers),
            once_rook_left(castling, *behind_rook)
        ),
        Reason::KingIntoCheck {
            to, attackers, defended, pinned_attackers, kings_meet, only_pinned_attackers, ..
        } => {
            let mut s = match defended {
                Some(d) => format!(
                    "The king cannot capture the {} on {to}: it is protected by {}, so the king would be moving \
                     into check.",
                    kind_name(d.kind),
                    list(attackers)
                ),
                None => format!(
                    "The king cannot go to {to}: that square is attacked by {}, and a king may never move into \
                     check.",
                    list(attackers)
                ),
            };
            if *kings_meet {
                s.push_str(" The two kings may never stand next to each other.");
            }
            if !pinned_attackers.is_empty() {
                let sqs = square_names(pinned_attackers);
                // Cited here only when another attacker decides (then the reason cites 3.9.2).
                let cite = if *only_pinned_attackers { "" } else { " (FIDE 3.1.3)" };
                s.push_str(&format!(
                    " The piece on {} is pinned, but it still attacks {to}: an attack counts even from a pinned \
                     piece{cite}.",
                    join(sqs)
                ));
            }
            s
        }
        Reason::LeavesKingInCheck { piece, from, to, king, checkers, double, unblockable } => {
            let mut s = format!(
                "Your king on {king} is in check from {}, and moving the {} from {from} to {to} does not end the \
                 check.",
                list(checkers),
                kind_name(piece.kind)
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
                    at(pinner.0, pinner.1)
                )
            } else {
                format!(
                    "The {} on {from} is pinned by {}: moving it to {to} would open the line to your king on \
                     {king}.",
                    kind_name(piece.kind),
                    at(pinner.0, pinner.1)
                )
            }
        }
        Reason::PawnAdvance { from, to, .. } => {
            format!("The pawn advances one square from {from} to the empty square {to}.")
        }
        Reason::KnightMove { from, to, .. } => {
            format!("The knight jumps in an L from {from} to {to}; a knight may jump over other pieces.")
        }
        Reason::KingStep { from, to, .. } => format!("The king steps one square, from {from} to {to}."),
        Reason::BishopMove { piece, from, to, line }
        | Reason::RookMove { piece, from, to, line }
        | Reason::QueenMove { piece, from, to, line } => format!(
            "The {} moves along the {} from {from} to {to}, and no piece stands in between.",
            kind_name(piece.kind),
            match line {
                Line::Rank => "rank",
                Line::File => "file",
                Line::Diagonal => "diagonal",
            }
        ),
        Reason::PawnDoubleStep { from, to, passed, .. } => format!(
            "From its starting square {from} a pawn may advance two squares, and both {passed} and {to} are empty."
        ),
        Reason::PawnCapture { from, to, captured, .. } => {
            format!("The pawn on {from} captures {} one square diagonally forward.", at(*captured, *to))
        }
        Reason::EnPassant { piece, to, captured_on, .. } => format!(
            "En passant: the {} pawn on {captured_on} has just advanced two squares, passing {to}, so on this move \
             only it may be captured as if it had moved one square; it is removed from {captured_on}.",
            color_name(piece.color.flip()).to_lowercase()
        ),
        Reason::Promotion { to, promotion, .. } => {
            format!("The pawn reaches the last rank and is exchanged for a {} on {to}.", kind_name(*promotion))
        }
        Reason::CastlingKingside { castling } | Reason::CastlingQueenside { castling } if castling.chess960 => {
            let goes = |from: Square, to: Square| {
                if from == to {
                    format!("stays on {from}")
                } else {
                    format!("goes from {from} to {to}")
                }
            };
            format!(
                "Chess960 castling {}: the king {} and the rook {}. Neither has moved yet, every square between each \
                 of them and its destination is empty except for the two of them, the king is not in check, and \
                 the squares it crosses and ends on are not attacked.",
                side_name(castling.side),
                goes(castling.king_from, castling.king_to),
                goes(castling.rook_from, castling.rook_to)
            )
        }
        Reason::CastlingKingside { castling } | Reason::CastlingQueenside { castling } => format!(
            "Castling {}: the king goes from {} to {} and the rook from {} to {}. Neither has moved yet, the \
             squares between them are empty, the king is not in check, and it neither crosses nor lands on an \
             attacked square.",
            side_name(castling.side),
            castling.king_from,
            castling.king_to,
            castling.rook_from,
            castling.rook_to
        ),
        Reason::CastlingAttackedRookAllowed { squares, .. } => {
            let sqs = square_names(squares);
            format!(
                "That {} {} attacked does not matter: only the king's square, the square it crosses and the \
                 square it lands on must be safe.",
                join(sqs),
                if squares.len() > 1 { "are" } else { "is" }
            )
        }
        Reason::Capture { piece, to, captured, .. } => {
            format!("The {} captures {}, which is removed from the board.", kind_name(piece.kind), at(*captured, *to))
        }
        Reason::PinnedAlongLine { piece, king, pinner, captures_pinner, .. } => {
            if *captures_pinner {
                format!(
                    "The {} is pinned by {}, but capturing the pinning piece is allowed: the king on {king} is not \
                     exposed.",
                    kind_name(piece.kind),
                    at(pinner.0, pinner.1)
                )
            } else {
                format!(
                    "The {} is pinned by {}, but it moves along the pin line, so it still shields your king on \
                     {king}.",
                    kind_name(piece.kind),
                    at(pinner.0, pinner.1)
                )
            }
        }
        Reason::ResolvesCheck { piece, to, how, checkers } => match how {
            CheckAnswer::CapturesChecker => format!(
                "It answers the check by capturing the checking piece ({}) with the {}.",
                list(checkers),
                kind_name(piece.kind)
            ),
            CheckAnswer::Blocks => {
                format!("It answers the check from {} by blocking the line on {to}.", list(checkers))
            }
            CheckAnswer::KingMoves => {
                format!("It answers the check from {} by moving the king out of attack.", list(checkers))
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

fn note(n: &Note) -> String {
    match n {
        Note::ToMove { side } => format!("{} to move.", color_name(*side)),
        Note::Check { side, checkers } => {
            let kind = if checkers.len() > 1 { "Double check" } else { "Check" };
            format!("{kind}: the {} king is attacked by {}.", color_name(*side).to_lowercase(), list(checkers))
        }
        Note::NotInCheck { side } => format!("The {} king is not in check.", color_name(*side).to_lowercase()),
        Note::LegalMoves { side, count } => format!("{} has {count} legal moves.", color_name(*side)),
        Note::Checkmate { loser } => format!(
            "Checkmate: the {} king is in check and there is no legal move to escape. {} wins.",
            color_name(*loser).to_lowercase(),
            color_name(loser.flip())
        ),
        Note::Stalemate { side } => {
            format!("Stalemate: {} has no legal move and is not in check. The game is drawn.", color_name(*side))
        }
        Note::DeadPosition { white, black } => {
            let why = match DeadWhy::of(*white, *black) {
                DeadWhy::InsufficientMaterial => "insufficient material".to_string(),
                DeadWhy::BothSides(r) => both_sides_reason(r),
                DeadWhy::EachSide => each_side(*white, *black),
            };
            format!(
                "Dead position: neither player can checkmate by any series of legal moves ({why}). The game is drawn."
            )
        }
        Note::MatePossible { side, fact } => {
            let (us, them) = (color_name(*side), color_name(side.flip()));
            match fact {
                MateFact::Winnable { line } => format!(
                    "{us} can still checkmate by a series of legal moves, for example {line}. A resignation by \
                     {them} or {them}'s flag falling loses."
                ),
                MateFact::Unwinnable { reason } => format!(
                    "{us} can no longer checkmate by any series of legal moves: {}. A resignation by {them} or \
                     {them}'s flag falling would be a draw.",
                    mate_reason(*side, *reason)
                ),
                MateFact::Undetermined { nodes } => format!(
                    "Whether {us} can still checkmate was not decided within the search budget ({nodes} positions); \
                     a resignation by {them} or {them}'s flag falling loses unless that is shown impossible."
                ),
            }
        }
        Note::Ruling { side, act, already_over, result, fact, .. } => {
            let (us, them) = (color_name(*side), color_name(side.flip()));
            let event = match act {
                Act::Resignation => format!("If {us} resigns now"),
                Act::FlagFall => format!("If {us}'s flag falls now"),
            };
            match (already_over, fact) {
                (Some(r), _) => format!(
                    "The game has already ended on the board ({r}); {} changes nothing.",
                    match act {
                        Act::Resignation => "a resignation",
                        Act::FlagFall => "the clock",
                    }
                ),
                (None, MateFact::Unwinnable { reason }) => format!(
                    "{event}, the game is drawn ({result}): {them} cannot checkmate by any series of legal moves: {}.",
                    mate_reason(side.flip(), *reason)
                ),
                (None, MateFact::Winnable { line }) => format!(
                    "{event}, {them} wins ({result}): {them} can still checkmate by a series of legal moves, for \
                     example {line}."
                ),
                (None, MateFact::Undetermined { .. }) => format!(
                    "{event}, {them} wins ({result}): it was not shown, within the search budget, that {them} \
                     cannot checkmate."
                ),
            }
        }
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
            color_name(*side)
        ),
        Note::ClaimFiftyNow { side, count } => format!(
            "{} may now claim a draw under the fifty-move rule ({count} half-moves without a capture or pawn \
             move). The draw is not automatic.",
            color_name(*side)
        ),
        Note::ClaimWithMove { side, draw, moves } => {
            let (shown, more) = shorten(moves, 6);
            let list = join(shown).replace(" and ", " or ");
            let more = if more > 0 { format!(" (or any of {more} other moves)") } else { String::new() };
            let what = match draw {
                DrawClaim::ThreefoldRepetition => "threefold repetition",
                DrawClaim::FiftyMoves => "the fifty-move rule",
            };
            format!(
                "{} may claim a draw by {what} by first writing down and declaring the move {list}{more}, which \
                 creates the condition.",
                color_name(*side)
            )
        }
        Note::Claim(v) => {
            let who = color_name(v.side);
            let (what, needed, unit) = match v.draw {
                DrawClaim::ThreefoldRepetition => ("threefold repetition", 3, "occurrences of the position"),
                DrawClaim::FiftyMoves => ("the fifty-move rule", 100, "half-moves without a capture or a pawn move"),
            };
            let count = v.count;
            let basis = match (&v.with_move, v.draw) {
                (None, DrawClaim::ThreefoldRepetition) => format!("this position has occurred {count} times"),
                (None, DrawClaim::FiftyMoves) => {
                    format!("{count} half-moves have been made without a capture or a pawn move")
                }
                (Some((_, san)), DrawClaim::ThreefoldRepetition) => {
                    format!("after {san} the position will have occurred {count} times")
                }
                (Some((_, san)), DrawClaim::FiftyMoves) => {
                    format!("after {san}, {count} half-moves will have been made without a capture or a pawn move")
                }
            };
            let claim = match &v.with_move {
                None => format!("{who} claims a draw by {what}"),
                Some((_, san)) => format!("{who} writes down {san} and claims a draw by {what}"),
            };
            match (&v.with_move, v.correct) {
                (_, true) => format!("{claim}: {basis}. The claim is correct: the game is drawn."),
                (None, false) => format!(
                    "{claim}, but {basis}, and {needed} {unit} are needed. The claim is incorrect: the game goes on."
                ),
                (Some((_, san)), false) => format!(
                    "{claim}, but {basis}, and {needed} {unit} are needed. The claim is incorrect: the game goes on, \
                     and the declared move {san} must be played."
                ),
            }
        }
        Note::Attacks { piece, targets } => {
            let (p, sq) = *piece;
            let mut at_piece = at(p, sq);
            if let Some(first) = at_piece.get_mut(..1) {
                first.make_ascii_uppercase();
            }
            format!("{at_piece} now attacks {}.", list(targets))
        }
    }
}

/// Why `side` can never checkmate, as a clause.
fn mate_reason(side: Color, r: MateReason) -> String {
    let (us, them) = (color_name(side), color_name(side.flip()));
    match r {
        MateReason::Checkmated => format!("{us} is checkmated"),
        MateReason::Stalemate => "the position is stalemate".to_string(),
        MateReason::SeventyFiveMoves => "the seventy-five-move rule has ended the game".to_string(),
        MateReason::BareKing => format!("{us} has only the king"),
        MateReason::InsufficientMaterial => format!(
            "{us}'s pieces (a lone knight, or bishops all on squares of one colour) can never mate, and {them} has \
             nothing that could block its king's flight squares"
        ),
        MateReason::NoCheck => format!(
            "no {} piece can ever attack a square the {} king can reach (the pawns are blocked for good and the \
             pieces walled off)",
            us.to_lowercase(),
            them.to_lowercase()
        ),
        MateReason::NoMatingSquare => format!(
            "{us} can give check, but wherever the {} king stands one of its flight squares can never be covered \
             or blocked",
            them.to_lowercase()
        ),
        MateReason::Exhaustive => {
            format!("every position that can still arise was examined, and none is a checkmate by {us}")
        }
        MateReason::Exhaustive75 => format!(
            "every position that can still arise before the seventy-five-move rule ends the game was examined, \
             and none is a checkmate by {us}"
        ),
    }
}

/// The same reason holding for both players, as a clause.
fn both_sides_reason(r: MateReason) -> String {
    match r {
        MateReason::NoCheck => "no piece of either player can ever attack a square the other king can reach (the \
                                pawns are blocked for good and the pieces walled off)"
            .to_string(),
        MateReason::NoMatingSquare => "wherever either king stands, one of its flight squares can never be covered \
                                       or blocked"
            .to_string(),
        MateReason::Exhaustive => {
            "every position that can still arise was examined, and none is a checkmate".to_string()
        }
        MateReason::Exhaustive75 => "every position that can still arise before the seventy-five-move rule ends \
                                     the game was examined, and none is a checkmate"
            .to_string(),
        other => each_side(other, other),
    }
}

/// Each player's reason, as a clause.
fn each_side(white: MateReason, black: MateReason) -> String {
    format!("White: {}; Black: {}", mate_reason(Color::White, white), mate_reason(Color::Black, black))
}

/// The phrases of the tables' value.
const TABLEBASE: TablebaseWords = TablebaseWords {
    head: "Tablebase (Syzygy; best play by both sides, not a ruling under the Laws):",
    not_in_tables: |head, pieces, largest| {
        format!("{head} not in the tables ({pieces} pieces, tables up to {largest})")
    },
    unknown: |head, why| format!("{head} unknown: {why}"),
    dtz: |dtz| match dtz {
        Ok(d) => format!(", {} plies to the next capture or pawn move (DTZ {d})", d.abs()),
        Err(e) => format!(" (DTZ unknown: {e})"),
    },
    value: |side, value, dtz, clock| {
        format!("  {} to move: {}{dtz}, if the fifty-move counter were 0 (it is {clock})", side.name(), value.name())
    },
    result: |best| match best {
        Wdl::Win => "win within the fifty-move rule",
        Wdl::CursedWin => "win, too slow for the fifty-move rule",
        Wdl::Draw => "draw",
        Wdl::BlessedLoss => "loss the fifty-move rule saves",
        Wdl::Loss => "loss",
    },
    move_dtz: |san, dtz| format!("{san} (DTZ {dtz})"),
    separator: ", ",
    best: |result, moves| format!("  best result with the counter as it stands: {result}; moves: {moves}"),
    moves_unknown: |why| format!("  moves unknown: {why}"),
};
