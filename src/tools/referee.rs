//! `arbiter referee GAMES.pgn [--json] [--threads N]`: the judge of finished games, for arbiters, teachers
//! and game servers. Every game is replayed with the Laws; reported per game are the first
//! illegal move (with the explain mode's reasons), a move played after the game had ended
//! (checkmate, stalemate, dead position, fivefold repetition, seventy-five moves), and a
//! recorded result the Laws contradict: a decisive result where the game is not over on the
//! board is read as a resignation (5.1.2) or, with `[Termination "time forfeit"]`, a flag fall
//! (6.9), which stands unless the winner could not checkmate by any series of legal moves.
//!
//! Games of other variants are not judged; a `Result` tag against the movetext's termination
//! marker is reported. The file is read on one thread while the games are judged on all
//! cores, a bounded number ahead of the one printed next: output in file order, memory flat.
//! Progress goes to stderr. Exit 0 when the file was read, 2 when it cannot be opened or read.

use crate::chess::{notation, Color, Move, Position};
use crate::data::{in_order, position_args};
use crate::explain::{explain, json, note_text, outcome_note, reason_text, ruling_note, Lang, ReasonCode, RefereeText};
use crate::rules::pgn::{PgnError, PgnReader, RawGame};
use crate::rules::referee::board_outcome;
use crate::rules::{dead, Game, Outcome, ProblemCode};
use std::io::{BufReader, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::mpsc;

/// Arguments of `arbiter referee`.
#[derive(clap::Args, Debug, Clone)]
pub struct RefereeArgs {
    /// The PGN file (any number of games).
    #[arg(value_name = "GAMES.pgn")]
    pub pgn: PathBuf,
    /// One JSON object per game, in file order (the summary goes to stderr).
    #[arg(long)]
    pub json: bool,
    /// Games judged at once (default: one per core); the output keeps the file's order.
    #[arg(long)]
    pub threads: Option<usize>,
    /// The language of the texts: en or zh (JSON keys and codes stay as they are).
    #[arg(long, default_value = "en")]
    pub lang: String,
}

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

/// One game's judgement as `--json` writes it.
#[derive(serde::Serialize)]
struct JudgementJson<'a> {
    game: usize,
    white: &'a str,
    black: &'a str,
    result: &'a str,
    laws_result: Option<&'a str>,
    problems: Vec<ProblemJson<'a>>,
}

#[derive(serde::Serialize)]
struct ProblemJson<'a> {
    ply: usize,
    code: &'static str,
    rule: Option<&'a str>,
    text: &'a str,
}

/// Judges one game of a PGN file.
pub fn judge(raw: &RawGame, lang: Lang) -> Judgement {
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
        return j;
    }
    let start = match raw.start_position() {
        Ok(p) => p,
        Err(PgnError::Fen { error, .. }) => {
            let text = lang.words().referee(&RefereeText::BadFen { error: &error.to_string() });
            record_problem(&mut j, ProblemCode::Unreadable, text);
            return j;
        }
        Err(PgnError::Variant { name, .. }) => {
            let text = lang.words().referee(&RefereeText::OtherVariant { name: &name });
            record_problem(&mut j, ProblemCode::UnsupportedVariant, text);
            return j;
        }
        Err(error) => {
            record_problem(
                &mut j,
                ProblemCode::Unreadable,
                lang.words().referee(&RefereeText::Unreadable { error: &error }),
            );
            return j;
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
    // Decisions that need long searches also need tens of megabytes: they run on one thread
    // of their own, one at a time and always in the same memory, while the other threads go
    // on with the common games, whose decisions are quick.
    let last = replay.game.current();
    let winner = match j.result.as_str() {
        "1-0" if !board_end && illegal.is_none() => Some(Color::White),
        "0-1" if !board_end && illegal.is_none() => Some(Color::Black),
        _ => None,
    };
    let quick = Color::ALL.into_iter().any(|side| dead::quick_helpmate(last, side))
        && winner.is_none_or(|w| dead::quick_helpmate(last, w));
    if quick {
        return conclude(j, &texts, flag, replay, lang);
    }
    let texts: Vec<String> = texts.iter().map(|t| t.to_string()).collect();
    on_the_long_decisions_thread(move || conclude(j, &texts, flag, replay, lang))
}

type Job = Box<dyn FnOnce() + Send>;

/// The thread that runs the jobs of [`on_the_long_decisions_thread`] (none if it cannot be
/// started).
static LONG_DECISIONS: once_cell::sync::Lazy<Option<mpsc::Sender<Job>>> = once_cell::sync::Lazy::new(|| {
    let (tx, rx) = mpsc::channel::<Job>();
    let thread =
        std::thread::Builder::new().name("long decisions".into()).spawn(move || rx.into_iter().for_each(|job| job()));
    thread.ok().map(|_| tx)
});

/// Runs `f` on the long decisions' thread and waits for it (runs it here if that thread
/// cannot be had); a panic in `f` goes on here.
fn on_the_long_decisions_thread<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
    let (tx, rx) = mpsc::channel();
    let job: Job = Box::new(move || {
        let _ = tx.send(std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)));
    });
    let unsent = match LONG_DECISIONS.as_ref() {
        Some(queue) => queue.send(job).err().map(|mpsc::SendError(job)| job),
        None => Some(job),
    };
    if let Some(job) = unsent {
        job();
    }
    match rx.recv() {
        Ok(Ok(v)) => v,
        Ok(Err(panic)) => std::panic::resume_unwind(panic),
        Err(_) => panic!("the long decisions' thread dropped a job"),
    }
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
        // Text that is no move in any notation (`Qh4x#`, `e9`) is a broken record, not a move
        // the Laws forbid.
        let problem = if ex.reasons.iter().any(|r| r.code() == ReasonCode::Malformed) {
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

impl Judgement {
    fn to_json(&self) -> String {
        json::to_line(&JudgementJson {
            game: self.game,
            white: &self.white,
            black: &self.black,
            result: &self.result,
            laws_result: self.laws_result.as_deref(),
            problems: self
                .problems
                .iter()
                .map(|p| ProblemJson {
                    ply: p.ply,
                    code: p.code.code(),
                    rule: Some(p.rule.as_str()).filter(|r| !r.is_empty()),
                    text: &p.text,
                })
                .collect(),
        })
    }

    pub fn to_text(&self, lang: Lang) -> Vec<String> {
        let laws = match &self.laws_result {
            Some(r) if *r == self.result => None,
            Some(r) => Some(Some(r.as_str())),
            None => Some(None),
        };
        let mut lines = vec![lang.words().referee(&RefereeText::Game {
            number: self.game,
            white: &self.white,
            black: &self.black,
            result: &self.result,
            laws,
            clean: self.problems.is_empty(),
        })];
        for p in &self.problems {
            lines.push(lang.words().referee(&RefereeText::Problem {
                ply: p.ply,
                code: p.code,
                rule: &p.rule,
                text: &p.text,
            }));
        }
        // Tag values and move texts come from the file: a control character (an escape
        // sequence that clears the screen, say) is shown, not sent to the terminal.
        lines.iter().map(|l| escape_controls(l)).collect()
    }
}

/// `text` with every control character (C0, DEL, C1) written as `\xHH`.
fn escape_controls(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if c.is_control() {
            out.push_str(&format!("\\x{:02x}", c as u32));
        } else {
            out.push(c);
        }
    }
    out
}

/// Games read ahead of the one printed next: enough to keep every thread busy past a game
/// whose dead-position question takes seconds, few enough to keep memory flat.
const WINDOW: usize = 1024;

/// Runs `arbiter referee`: the file is read on this thread, the games are judged on a thread
/// pool, and each judgement is printed as soon as those before it are.
pub fn run(args: RefereeArgs) -> ExitCode {
    crate::chess::attacks::init();
    let lang = match position_args::language(&args.lang) {
        Ok(l) => l,
        Err(code) => return code,
    };
    let file = match std::fs::File::open(&args.pgn) {
        Ok(f) => f,
        Err(e) => {
            eprintln!("error: cannot read {}: {e}", args.pgn.display());
            return ExitCode::from(2);
        }
    };
    let pool = match in_order::pool(args.threads) {
        Ok(p) => p,
        Err(code) => return code,
    };
    let mut printer = Printer {
        out: std::io::stdout().lock(),
        json: args.json,
        lang,
        games: 0,
        clean: 0,
        counts: [0; ProblemCode::ALL.len()],
        closed: false,
    };
    let mut read_error = None;
    let games = PgnReader::new(BufReader::with_capacity(1 << 16, file)).map_while(|raw| match raw {
        Ok(raw) => Some(raw),
        Err(e) => {
            read_error = Some(e);
            None
        }
    });
    in_order::map_in_order(
        &pool,
        games,
        WINDOW,
        |raw| judge(&raw, lang),
        |judgement| {
            printer.print(&judgement);
            !printer.closed
        },
    );
    if printer.closed {
        return ExitCode::SUCCESS; // the reader went away
    }
    if let Some(e) = read_error {
        // What was read has been judged; no summary claims the whole file.
        eprintln!("error: cannot read {}: {e}", args.pgn.display());
        return ExitCode::from(2);
    }
    let summary = printer.summary();
    if args.json {
        eprintln!("{summary}");
    } else {
        let _ = writeln!(printer.out, "{summary}");
    }
    ExitCode::SUCCESS
}

/// Prints judgements in file order and keeps the tally.
struct Printer<W: Write> {
    out: W,
    json: bool,
    lang: Lang,
    games: usize,
    clean: usize,
    counts: [usize; ProblemCode::ALL.len()],
    /// The output was closed (e.g. `| head`): nothing more is written.
    closed: bool,
}

impl<W: Write> Printer<W> {
    fn print(&mut self, j: &Judgement) {
        self.games += 1;
        if j.problems.is_empty() {
            self.clean += 1;
        }
        for p in &j.problems {
            self.counts[ProblemCode::ALL.iter().position(|&c| c == p.code).unwrap_or(0)] += 1;
        }
        if !self.closed {
            let lines = if self.json { vec![j.to_json()] } else { j.to_text(self.lang) };
            self.closed = lines.iter().try_for_each(|l| writeln!(self.out, "{l}")).is_err();
        }
        if self.games.is_multiple_of(1000) {
            eprintln!("{} games judged", self.games);
        }
    }

    fn summary(&self) -> String {
        let counts: Vec<(ProblemCode, usize)> = ProblemCode::ALL.into_iter().zip(self.counts).collect();
        self.lang.words().referee(&RefereeText::Summary { games: self.games, clean: self.clean, counts: &counts })
    }
}
