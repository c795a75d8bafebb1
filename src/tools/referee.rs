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

use crate::data::{in_order, position_args};
use crate::explain::judge::{self, Judgement, Started};
use crate::explain::{json, text, Lang, RefereeText};
use crate::rules::pgn::{PgnReader, RawGame};
use crate::rules::ProblemCode;
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

/// Judges one game: at once when its decisions are quick; else on the long decisions' thread.
/// Decisions that need long searches also need tens of megabytes: they run on one thread of
/// their own, one at a time and always in the same memory, while the other threads go on with
/// the common games.
pub fn judge_game(raw: &RawGame, lang: Lang) -> Judgement {
    match judge::start(raw, lang) {
        Started::Judged(done) => done,
        Started::Pending(pending) if pending.is_quick() => pending.conclude(),
        Started::Pending(pending) => on_the_long_decisions_thread(move || pending.conclude()),
    }
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
        lines.iter().map(|l| text::shown_as_text(l)).collect()
    }
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
        |raw| judge_game(&raw, lang),
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
