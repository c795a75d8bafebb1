//! `arbiter referee GAMES.pgn [--json]`: the judge of finished games, for arbiters, teachers
//! and game servers. Every game is replayed with the Laws; reported per game are the first
//! illegal move (with the explain mode's reasons), a move played after the game had ended
//! (checkmate, stalemate, dead position, fivefold repetition, seventy-five moves), and a
//! recorded result the Laws contradict: a decisive result where the game is not over on the
//! board is read as a resignation (5.1.2) or, with `[Termination "time forfeit"]`, a flag fall
//! (6.9), which stands unless the winner could not checkmate by any series of legal moves.
//!
//! The file is read one game at a time (constant memory); progress goes to stderr. Exit 0
//! when the file was read, 2 when it cannot be opened.

use crate::chess::{notation, Color, Position};
use crate::explain::{explain, json, note_text, reason_text, ruling_note, Lang, Note};
use crate::rules::pgn::{tag_result, PgnReader, RawGame, Token};
use crate::rules::{AutomaticDraw, Game, Outcome};
use std::io::{BufReader, Write};
use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `arbiter referee`.
#[derive(clap::Args, Debug, Clone)]
pub struct RefereeArgs {
    /// The PGN file (any number of games).
    #[arg(value_name = "GAMES.pgn")]
    pub pgn: PathBuf,
    /// One JSON object per game, in file order (the summary goes to stderr).
    #[arg(long)]
    pub json: bool,
}

/// What can be wrong with a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ProblemCode {
    IllegalMove,
    MoveAfterEnd,
    ResultContradictsLaws,
    /// The game's text cannot be read (broken tag, unbalanced brackets, bad FEN tag).
    Unreadable,
}

impl ProblemCode {
    pub const ALL: [ProblemCode; 4] = [
        ProblemCode::IllegalMove,
        ProblemCode::MoveAfterEnd,
        ProblemCode::ResultContradictsLaws,
        ProblemCode::Unreadable,
    ];

    pub fn code(self) -> &'static str {
        match self {
            ProblemCode::IllegalMove => "illegal_move",
            ProblemCode::MoveAfterEnd => "move_after_end",
            ProblemCode::ResultContradictsLaws => "result_contradicts_laws",
            ProblemCode::Unreadable => "unreadable",
        }
    }
}

/// One problem in one game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    /// Half-move number from 1 (the move at fault, or the last move played for a result).
    pub ply: usize,
    pub code: ProblemCode,
    /// The article (empty for an unreadable game).
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

/// Judges one game of a PGN file.
pub fn judge(raw: &RawGame) -> Judgement {
    let mut j = Judgement {
        game: raw.index,
        white: raw.tag("White").unwrap_or("?").to_string(),
        black: raw.tag("Black").unwrap_or("?").to_string(),
        result: tag_result(raw.tag("Result")),
        laws_result: None,
        problems: Vec::new(),
    };
    let unreadable = |j: &mut Judgement, text: String| {
        j.problems.push(Problem { ply: 0, code: ProblemCode::Unreadable, rule: String::new(), text });
    };
    let tokens = match raw.tokens() {
        Ok(t) => t,
        Err(e) => {
            unreadable(&mut j, e.to_string());
            return j;
        }
    };
    let start = match raw.tag("FEN").map(Position::from_fen).unwrap_or_else(|| Ok(Position::startpos())) {
        Ok(p) => p,
        Err(e) => {
            unreadable(&mut j, format!("bad FEN tag: {e}"));
            return j;
        }
    };
    if let Some(Token::Result(r)) = tokens.iter().rev().find(|t| matches!(t, Token::Result(_))) {
        j.result = r.clone();
    }
    let mut game = Game::new(start);
    let mut ended: Option<(Outcome, usize)> = game.outcome().map(|o| (o, 0));
    for (i, text) in tokens.iter().filter_map(|t| if let Token::Move(m) = t { Some(m) } else { None }).enumerate() {
        let ply = i + 1;
        if let Some((outcome, _)) = ended {
            let ex = explain(&game, text);
            let reasons: Vec<String> = ex.reasons.iter().map(|r| reason_text(r, Lang::En)).collect();
            j.problems.push(Problem {
                ply,
                code: ProblemCode::MoveAfterEnd,
                rule: outcome_rule(outcome).to_string(),
                text: format!("{text} was played after the end of the game. {}", reasons.join(" ")),
            });
            break;
        }
        match notation::parse_move(game.current(), text) {
            Ok(m) => {
                if game.play(m).is_err() {
                    break; // parse_move returns legal moves only
                }
                if let Some(o) = game.outcome() {
                    ended = Some((o, ply));
                }
            }
            Err(_) => {
                let ex = explain(&game, text);
                let rule = ex.reasons.first().map_or("", |r| r.rule()).to_string();
                let reasons: Vec<String> = ex.reasons.iter().map(|r| reason_text(r, Lang::En)).collect();
                let mover = if game.current().side_to_move() == Color::White { "White" } else { "Black" };
                j.problems.push(Problem {
                    ply,
                    code: ProblemCode::IllegalMove,
                    rule,
                    text: format!("{mover}'s move {text} is illegal. {}", reasons.join(" ")),
                });
                return j; // the Laws cannot tell how a game with an illegal move ends
            }
        }
    }
    let plies = game.moves().len();
    if let Some((outcome, ply)) = ended {
        let laws = outcome.result();
        j.laws_result = Some(laws.to_string());
        if j.result != "*" && j.result != laws {
            let note = outcome_note(outcome, game.current());
            j.problems.push(Problem {
                ply,
                code: ProblemCode::ResultContradictsLaws,
                rule: outcome_rule(outcome).to_string(),
                text: format!("Recorded {}, but the Laws give {laws}: {}", j.result, note_text(&note, Lang::En)),
            });
        }
        return j;
    }
    let loser = match j.result.as_str() {
        "1-0" => Color::Black,
        "0-1" => Color::White,
        "1/2-1/2" => {
            j.laws_result = Some(j.result.clone()); // agreed or claimed: the Laws allow it
            return j;
        }
        _ => return j, // unfinished
    };
    let flag = raw.tag("Termination").is_some_and(|t| t.trim().eq_ignore_ascii_case("time forfeit"));
    let ruling = if flag { game.flag_fall(loser) } else { game.resign(loser) };
    j.laws_result = Some(ruling.result().to_string());
    if ruling.drawn_by_unwinnability() {
        let note = ruling_note(game.current(), &ruling);
        j.problems.push(Problem {
            ply: plies,
            code: ProblemCode::ResultContradictsLaws,
            rule: ruling.rule().to_string(),
            text: format!(
                "Recorded {}, but the Laws give {}: {}",
                j.result,
                ruling.result(),
                note_text(&note, Lang::En)
            ),
        });
    }
    j
}

fn outcome_rule(o: Outcome) -> &'static str {
    match o {
        Outcome::Checkmate { .. } => "5.1.1",
        Outcome::Draw(d) => d.rule(),
    }
}

/// The report's sentence for how the game ended on the board.
pub(crate) fn outcome_note(o: Outcome, pos: &Position) -> Note {
    match o {
        Outcome::Checkmate { winner } => Note::Checkmate { loser: winner.flip() },
        Outcome::Draw(AutomaticDraw::Stalemate) => Note::Stalemate { side: pos.side_to_move() },
        Outcome::Draw(AutomaticDraw::DeadPosition) => match crate::rules::dead::dead_position(pos) {
            Some(d) => Note::DeadPosition { white: d.white, black: d.black },
            None => Note::SeventyFiveMoves,
        },
        Outcome::Draw(AutomaticDraw::FivefoldRepetition) => Note::FivefoldRepetition,
        Outcome::Draw(AutomaticDraw::SeventyFiveMoves) => Note::SeventyFiveMoves,
    }
}

impl Judgement {
    pub fn to_json(&self) -> String {
        let problems = self.problems.iter().map(|p| {
            json::Object::new()
                .raw("ply", p.ply)
                .str("code", p.code.code())
                .opt_str("rule", Some(p.rule.as_str()).filter(|r| !r.is_empty()))
                .str("text", &p.text)
                .finish()
        });
        json::Object::new()
            .raw("game", self.game)
            .str("white", &self.white)
            .str("black", &self.black)
            .str("result", &self.result)
            .opt_str("laws_result", self.laws_result.as_deref())
            .raw("problems", json::array(problems))
            .finish()
    }

    pub fn to_text(&self) -> Vec<String> {
        let laws = match &self.laws_result {
            Some(r) if *r == self.result => String::new(),
            Some(r) => format!(", by the Laws {r}"),
            None => ", the Laws cannot tell the result".to_string(),
        };
        let state = if self.problems.is_empty() { "clean" } else { "problems" };
        let mut lines =
            vec![format!("Game {} ({} - {}): {}{laws}: {state}", self.game, self.white, self.black, self.result)];
        for p in &self.problems {
            let rule = if p.rule.is_empty() { String::new() } else { format!(" (FIDE {})", p.rule) };
            lines.push(format!("- ply {}: {}{rule}: {}", p.ply, p.code.code(), p.text));
        }
        lines
    }
}

/// Runs `arbiter referee`.
pub fn run(args: RefereeArgs) -> ExitCode {
    let file = match std::fs::File::open(&args.pgn) {
        Ok(f) => f,
        Err(e) => {
            eprintln!("error: cannot read {}: {e}", args.pgn.display());
            return ExitCode::from(2);
        }
    };
    let mut out = std::io::stdout().lock();
    let mut games = 0usize;
    let mut clean = 0usize;
    let mut counts = [0usize; ProblemCode::ALL.len()];
    for raw in PgnReader::new(BufReader::new(file)) {
        games += 1;
        let j = match raw {
            Ok(raw) => judge(&raw),
            Err(e) => Judgement {
                game: games,
                white: "?".into(),
                black: "?".into(),
                result: "*".into(),
                laws_result: None,
                problems: vec![Problem {
                    ply: 0,
                    code: ProblemCode::Unreadable,
                    rule: String::new(),
                    text: e.to_string(),
                }],
            },
        };
        if j.problems.is_empty() {
            clean += 1;
        }
        for p in &j.problems {
            counts[ProblemCode::ALL.iter().position(|&c| c == p.code).unwrap_or(0)] += 1;
        }
        let lines = if args.json { vec![j.to_json()] } else { j.to_text() };
        if lines.iter().try_for_each(|l| writeln!(out, "{l}")).is_err() {
            return ExitCode::SUCCESS; // the reader went away
        }
        if games.is_multiple_of(1000) {
            eprintln!("{games} games judged");
        }
    }
    let summary = format!(
        "Summary: {games} games, {clean} clean; illegal moves: {}, moves after the end: {}, results contradicting \
         the Laws: {}, unreadable: {}",
        counts[0], counts[1], counts[2], counts[3]
    );
    if args.json {
        eprintln!("{summary}");
    } else {
        let _ = writeln!(out, "{summary}");
    }
    ExitCode::SUCCESS
}
