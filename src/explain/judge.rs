//! Judging a recorded game (the referee of `arbiter referee` and of the board's review): the
//! game is replayed with the Laws, and reported are the first illegal move (with the explain
//! mode's reasons), a move played after the game had ended (checkmate, stalemate, dead
//! position, fivefold repetition, seventy-five moves), text that is no move, and a recorded
//! result the Laws contradict: a decisive result where the game is not over on the board is
//! read as a resignation (5.1.2) or, with `[Termination "time forfeit"]`, a flag fall (6.9),
//! which stands unless the winner could not checkmate by any series of legal moves. Games of
//! other variants are not judged; a `Result` tag against the movetext's marker is reported.
//! Every finding is worded in the language asked for.

use super::{explain, note_text, outcome_note, reason_text, ruling_note, Lang, ReasonCode, RefereeText};
use crate::chess::{notation, Color, Move, Position};
use crate::rules::pgn::{PgnError, RawGame};
use crate::rules::referee::board_outcome;
use crate::rules::{dead, Game, Outcome, ProblemCode};

/// One problem in one game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    /// Half-move number from 1 (the move at fault, or the last move played for a result).
    pub ply: usize,
    pub code: ProblemCode,
    /// The article (empty where none applies: unreadable text, another variant, a Result tag).
    pub rule: String,
    pub text: String,
}

/// The referee's judgement of one game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Judgement {
    pub game: usize,
    pub white: String,
    pub black: String,
    /// As recorded (`*` when missing).
    pub result: String,
    /// The result by the Laws for the game as recorded; `None` when they cannot tell (an
    /// unfinished game, or one cut short by an illegal move or unreadable text).
    pub laws_result: Option<String>,
    pub problems: Vec<Problem>,
}

/// A game replayed, with what is left to decide: how it ended and the ruling on its result
/// (searches that can be long: see [`Pending::is_quick`]).
pub struct Pending {
    judgement: Judgement,
    texts: Vec<String>,
    flag: bool,
    replay: Replay,
    lang: Lang,
    quick: bool,
}

impl Pending {
    /// The decisions left are quick (each side that matters has a helpmate found at once): a
    /// batch runs them on any thread, and the long ones apart, so they do not hold up the
    /// common games or take memory on every thread.
    pub fn is_quick(&self) -> bool {
        self.quick
    }

    /// The judgement.
    pub fn conclude(self) -> Judgement {
        conclude(self.judgement, &self.texts, self.flag, self.replay, self.lang)
    }
}

/// How far [`start`] got.
pub enum Started {
    /// The record settles it (it cannot be read, another variant).
    Judged(Judgement),
    /// Replayed; decisions are left.
    Pending(Box<Pending>),
}

/// Judges one game of a PGN file, with its texts in `lang`.
pub fn judge(raw: &RawGame, lang: Lang) -> Judgement {
    match start(raw, lang) {
        Started::Judged(done) => done,
        Started::Pending(pending) => pending.conclude(),
    }
}

/// Judges the record of one game and replays it.
pub fn start(raw: &RawGame, lang: Lang) -> Started {
    let mut j = Judgement {
        game: raw.index,
        white: raw.tag("White").unwrap_or("?").to_string(),
        black: raw.tag("Black").unwrap_or("?").to_string(),
        result: raw.result(),
        laws_result: None,
        problems: Vec::new(),
    };
    // A problem with the record as a whole (ply 0), not with a move.
    let record_problem = |j: &mut Judgement, code: ProblemCode, text: String| {
        j.problems.push(Problem { ply: 0, code, rule: String::new(), text });
    };
    if let Some(error) = &raw.error {
        record_problem(&mut j, ProblemCode::Unreadable, lang.words().referee(&RefereeText::Unreadable { error }));
        return Started::Judged(j);
    }
    let start = match raw.start_position() {
        Ok(p) => p,
        Err(PgnError::Fen { error, .. }) => {
            let text = lang.words().referee(&RefereeText::BadFen { error: &error.to_string() });
            record_problem(&mut j, ProblemCode::Unreadable, text);
            return Started::Judged(j);
        }
        Err(PgnError::Variant { name, .. }) => {
            let text = lang.words().referee(&RefereeText::OtherVariant { name: &name });
            record_problem(&mut j, ProblemCode::UnsupportedVariant, text);
            return Started::Judged(j);
        }
        Err(error) => {
            record_problem(
                &mut j,
                ProblemCode::Unreadable,
                lang.words().referee(&RefereeText::Unreadable { error: &error }),
            );
            return Started::Judged(j);
        }
    };
    if let Some(tag) = raw.result_tag_mismatch() {
        let text = lang.words().referee(&RefereeText::ResultTag { tag, marker: &j.result });
        record_problem(&mut j, ProblemCode::ResultTagMismatch, text);
    }

    // Replay up to the first illegal move or the first end the board shows by itself
    // (checkmate, stalemate, fivefold repetition, seventy-five moves); the dead-position
    // question (5.2.2) and a ruling are then decided in `conclude`.
    let texts: Vec<&str> = raw.moves().collect();
    let mut game = Game::new(start);
    let mut positions = vec![start];
    let mut illegal = None;
    let mut board_end = board_ended(&game);
    for (i, text) in texts.iter().enumerate() {
        if board_end {
            break;
        }
        match notation::parse_move(game.current(), text) {
            Ok(m) if game.play(m).is_ok() => {
                positions.push(*game.current());
                board_end = board_ended(&game);
            }
            _ => {
                illegal = Some(i);
                break;
            }
        }
    }
    let replay = Replay { start, game, positions, illegal, board_end };
    let flag = raw.tag("Termination").is_some_and(|t| t.trim().eq_ignore_ascii_case("time forfeit"));
    let last = replay.game.current();
    let winner = match j.result.as_str() {
        "1-0" if !board_end && illegal.is_none() => Some(Color::White),
        "0-1" if !board_end && illegal.is_none() => Some(Color::Black),
        _ => None,
    };
    let quick = Color::ALL.into_iter().any(|side| dead::quick_helpmate(last, side))
        && winner.is_none_or(|w| dead::quick_helpmate(last, w));
    let texts = texts.iter().map(|t| t.to_string()).collect();
    Started::Pending(Box::new(Pending { judgement: j, texts, flag, replay, lang, quick }))
}

/// A game replayed up to its first illegal move or the first end shown by the board.
struct Replay {
    start: Position,
    /// The game as far as it was replayed.
    game: Game,
    /// Its positions, the start first.
    positions: Vec<Position>,
    /// The index of the first illegal move text.
    illegal: Option<usize>,
    /// The last position is an end by the board.
    board_end: bool,
}

/// The rest of [`judge`]: how the game ended (a dead position before the board's end), the
/// move played after it or the illegal move, and the ruling on a decisive result.
fn conclude<S: AsRef<str>>(mut j: Judgement, texts: &[S], flag: bool, replay: Replay, lang: Lang) -> Judgement {
    let words = lang.words();
    let Replay { start, game, positions, illegal, board_end } = replay;
    let end = match dead::first_dead_position(&positions) {
        Some(i) => Some(i),
        None if board_end => Some(positions.len() - 1),
        None => None,
    };
    let ended = end.and_then(|at| {
        let game = if at + 1 < positions.len() { replayed(start, &game.moves()[..at]) } else { game.clone() };
        game.outcome().map(|o| (o, at, game))
    });
    if let Some((outcome, at, game)) = ended {
        if let Some(text) = texts.get(at).map(AsRef::as_ref) {
            let ex = explain(&game, text);
            let reasons: Vec<String> = ex.reasons.iter().map(|r| reason_text(r, lang)).collect();
            j.problems.push(Problem {
                ply: at + 1,
                code: ProblemCode::MoveAfterEnd,
                rule: outcome_rule(outcome).to_string(),
                text: words.referee(&RefereeText::MoveAfterEnd { text, reasons: &reasons.join(" ") }),
            });
        }
        let laws = outcome.result();
        j.laws_result = Some(laws.to_string());
        if j.result != "*" && j.result != laws {
            // The dead position's reason as the game found it (the decision that ended it).
            let note = outcome_note(outcome, game.current().side_to_move(), || game.report().dead_reason);
            let why = note.map_or_else(|| format!("FIDE {}", outcome_rule(outcome)), |n| note_text(&n, lang));
            j.problems.push(Problem {
                ply: at,
                code: ProblemCode::ResultContradictsLaws,
                rule: outcome_rule(outcome).to_string(),
                text: words.referee(&RefereeText::ContradictsLaws { recorded: &j.result, laws, why: &why }),
            });
        }
        return j;
    }
    if let Some(i) = illegal {
        let text = texts[i].as_ref();
        let ex = explain(&game, text);
        let rule = ex.reasons.first().map_or("", |r| r.rule()).to_string();
        let reasons: Vec<String> = ex.reasons.iter().map(|r| reason_text(r, lang)).collect();
        let mover = game.current().side_to_move();
        let reasons = reasons.join(" ");
        // Text that is no move in any notation (`Qh4x#`, `e9`), or that fits more than one
        // legal move (`Nd2` with knights on b1 and f1), is a broken record, not a move the
        // Laws forbid: the record does not say which move was played.
        let problem = if ex.reasons.iter().any(|r| matches!(r.code(), ReasonCode::Malformed | ReasonCode::Ambiguous)) {
            Problem {
                ply: i + 1,
                code: ProblemCode::Unreadable,
                rule: String::new(),
                text: words.referee(&RefereeText::UnreadableMove { mover, text, reasons: &reasons }),
            }
        } else {
            Problem {
                ply: i + 1,
                code: ProblemCode::IllegalMove,
                rule,
                text: words.referee(&RefereeText::IllegalMove { mover, text, reasons: &reasons }),
            }
        };
        j.problems.push(problem);
        return j; // the Laws cannot tell how a game with an illegal move ends
    }
    let plies = game.moves().len();
    let loser = match j.result.as_str() {
        "1-0" => Color::Black,
        "0-1" => Color::White,
        "1/2-1/2" => {
            j.laws_result = Some(j.result.clone()); // agreed or claimed: the Laws allow it
            return j;
        }
        _ => return j, // unfinished
    };
    let ruling = if flag { game.flag_fall(loser) } else { game.resign(loser) };
    j.laws_result = Some(ruling.result().to_string());
    if ruling.drawn_by_unwinnability() {
        let note = ruling_note(game.current(), &ruling);
        j.problems.push(Problem {
            ply: plies,
            code: ProblemCode::ResultContradictsLaws,
            rule: ruling.rule().to_string(),
            text: words.referee(&RefereeText::ContradictsLaws {
                recorded: &j.result,
                laws: ruling.result(),
                why: &note_text(&note, lang),
            }),
        });
    }
    j
}

/// The board alone has ended the game: checkmate, stalemate, fivefold repetition or
/// seventy-five moves (which of them, or a dead position before, [`Game::outcome`] says).
fn board_ended(game: &Game) -> bool {
    board_outcome(game.current()).is_some() || game.repetitions() >= 5
}

/// The game of `moves` (legal) from `start`.
fn replayed(start: Position, moves: &[Move]) -> Game {
    let mut game = Game::new(start);
    for &m in moves {
        let _ = game.play(m);
    }
    game
}

fn outcome_rule(o: Outcome) -> &'static str {
    match o {
        Outcome::Checkmate { .. } => "5.1.1",
        Outcome::Draw(d) => d.rule(),
    }
}
