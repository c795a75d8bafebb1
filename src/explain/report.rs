//! The position report's facts, one [`Note`] each: what the referee's [`PositionReport`]
//! says about a position (in the report without a move, or after a legal move), ready to be
//! worded in any language. A new fact is a new variant here, one arm in [`Note::rule`], one
//! sentence per language (`en.rs`, `zh.rs`: exhaustive matches, so a missing one does not
//! compile), and one push in [`report_notes`].

use super::reason::Placed;
use crate::chess::{attacks, notation, Color, Move, PieceType, Position};
use crate::rules::unwinnable::{Decision, Reason as MateReason, Verdict};
use crate::rules::{Act, AutomaticDraw, ClaimVerdict, DeadReason, DrawClaim, Outcome, PositionReport, Ruling};

/// What the referee found about one player's chances to checkmate, ready for words.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MateFact {
    /// It can still checkmate: `line` is a helpmate in numbered SAN (`45. Kb2 Kb7 46. Ka3 ...`).
    Winnable { line: String },
    /// It can never checkmate, and why.
    Unwinnable { reason: MateReason },
    /// The search budget ran out (`nodes` positions) before either was shown.
    Undetermined { nodes: u64 },
}

impl MateFact {
    /// The fact for a decision about `pos`.
    pub fn of(pos: &Position, d: &Decision) -> MateFact {
        match &d.verdict {
            Verdict::Winnable { helpmate } => MateFact::Winnable { line: numbered_line(pos, helpmate) },
            Verdict::Unwinnable { reason } => MateFact::Unwinnable { reason: *reason },
            Verdict::Undetermined => MateFact::Undetermined { nodes: d.nodes },
        }
    }
}

/// `moves` from `pos` in SAN with move numbers, as PGN writes them (`12... Kb7 13. Ka3`).
pub fn numbered_line(pos: &Position, moves: &[Move]) -> String {
    let mut p = *pos;
    let mut out = Vec::new();
    for (i, &m) in moves.iter().enumerate() {
        let number = p.fullmove_number();
        match p.side_to_move() {
            Color::White => out.push(format!("{number}.")),
            Color::Black if i == 0 => out.push(format!("{number}...")),
            Color::Black => {}
        }
        out.push(notation::to_san(&p, m));
        p = p.make_move(m);
    }
    out.join(" ")
}

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
    /// Neither player can checkmate: each one's reason.
    DeadPosition {
        white: MateReason,
        black: MateReason,
    },
    /// Whether `side` can still checkmate, and so what its opponent's resignation or flag fall
    /// would give (5.1.2, 6.9).
    MatePossible {
        side: Color,
        fact: MateFact,
    },
    /// The result if `side` resigned (or its flag fell) now.
    Ruling {
        side: Color,
        act: Act,
        /// The game had already ended on the board with this result.
        already_over: Option<&'static str>,
        /// The result by the Laws, and the article deciding it.
        result: &'static str,
        rule: &'static str,
        /// About the opponent's chances to checkmate.
        fact: MateFact,
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
    /// A draw claim judged ([`crate::rules::Game::claim`]).
    Claim(ClaimVerdict),
    /// After a move, the piece that moved (`piece`, where it stands now) attacks these enemy
    /// pieces: a check and a double attack shown together ([`attacks_after`]).
    Attacks {
        piece: Placed,
        targets: Vec<Placed>,
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
            // A proof resting on the seventy-five-move rule cites it too.
            Note::DeadPosition { white, black } if white.by_clock() || black.by_clock() => "5.2.2, 9.6.2",
            Note::DeadPosition { .. } => "5.2.2",
            Note::MatePossible { fact: MateFact::Unwinnable { reason }, .. } if reason.by_clock() => {
                "5.1.2, 6.9, 9.6.2"
            }
            Note::MatePossible { .. } => "5.1.2, 6.9",
            Note::Ruling { rule, .. } => rule,
            Note::FivefoldRepetition => "9.6.1",
            Note::SeventyFiveMoves | Note::MateBeatsSeventyFive => "9.6.2",
            Note::Repetitions { .. } => "9.2.3",
            Note::HalfmoveClock { .. } => "9.3",
            Note::ClaimThreefoldNow { .. } => "9.2.1.2",
            Note::ClaimFiftyNow { .. } => "9.3.2",
            Note::ClaimWithMove { draw, .. } => draw.rule(false),
            Note::Claim(v) => v.rule(),
            Note::Attacks { .. } => "3.1.3",
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
    if let Some(draw) = r.automatic_draw {
        v.extend(outcome_note(Outcome::Draw(draw), side, || r.dead_reason));
    }
    if let (Some(decisions), None) = (&r.mate_possible, r.outcome()) {
        if let Ok(pos) = Position::from_fen(&r.fen) {
            for (side, d) in [Color::White, Color::Black].into_iter().zip(decisions) {
                v.push(Note::MatePossible { side, fact: MateFact::of(&pos, d) });
            }
        }
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

/// What the piece that made `m` in `before` attacks where it lands: the enemy pieces it could
/// capture next (the king among them when it gives check). `None` for castling (two pieces
/// moved) and when it attacks nothing.
pub fn attacks_after(before: &Position, m: Move) -> Option<Note> {
    if m.is_castling() {
        return None;
    }
    let after = before.make_move(m);
    let to = m.to();
    let piece = after.piece_at(to)?;
    let reach = match piece.kind {
        PieceType::Pawn => attacks::pawn_attacks(piece.color, to),
        kind => attacks::piece_attacks(kind, to, after.occupied()),
    };
    let targets: Vec<Placed> = (reach & after.color(piece.color.flip()))
        .squares()
        .filter_map(|sq| after.piece_at(sq).map(|p| (p, sq)))
        .collect();
    (!targets.is_empty()).then_some(Note::Attacks { piece: (piece, to), targets })
}

/// How a game ended on the board, as a note: the one mapping from the referee's [`Outcome`] to
/// words, for the position report, `arbiter referee` and `arbiter unwinnable`. `dead` gives why
/// the position is dead (asked only for a dead position; no note without a reason).
pub fn outcome_note(outcome: Outcome, side_to_move: Color, dead: impl FnOnce() -> Option<DeadReason>) -> Option<Note> {
    Some(match outcome {
        Outcome::Checkmate { winner } => Note::Checkmate { loser: winner.flip() },
        Outcome::Draw(AutomaticDraw::Stalemate) => Note::Stalemate { side: side_to_move },
        Outcome::Draw(AutomaticDraw::DeadPosition) => {
            let d = dead()?;
            Note::DeadPosition { white: d.white, black: d.black }
        }
        Outcome::Draw(AutomaticDraw::FivefoldRepetition) => Note::FivefoldRepetition,
        Outcome::Draw(AutomaticDraw::SeventyFiveMoves) => Note::SeventyFiveMoves,
    })
}

/// The note for a ruling on a resignation or a flag fall in `pos`.
pub fn ruling_note(pos: &Position, ruling: &Ruling) -> Note {
    Note::Ruling {
        side: ruling.side,
        act: ruling.act,
        already_over: ruling.already_over.map(|o| o.result()),
        result: ruling.result(),
        rule: ruling.rule(),
        fact: MateFact::of(pos, &ruling.opponent),
    }
}
