//! `arbiter unwinnable`: can each player still checkmate by any series of legal moves (the
//! question of FIDE 5.2.2, 6.9 and 5.1.2)? For one position, or a batch (`--epd`).
//!
//! Exit status: 0 when the position (or the batch) was answered — a bad line of a batch is an
//! answer with an `error`; 2 for bad arguments, an unusable position, or an unreadable file.

use crate::chess::fen::epd_fen;
use crate::chess::{Color, Position};
use crate::data::in_order;
use crate::data::position_args::{parse_player, PositionArgs};
use crate::explain::{json, note_text, outcome_note, Lang, MateFact, Note};
use crate::rules::unwinnable::{self, decide, Budget, Decision, Verdict};
use crate::rules::{dead, referee};
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

/// Arguments of `arbiter unwinnable`.
#[derive(clap::Args, Debug, Clone)]
pub struct UnwinnableArgs {
    #[command(flatten)]
    pub position: PositionArgs,
    /// Whose chances to decide: white, black or both.
    #[arg(long, default_value = "both")]
    pub side: String,
    /// Search budget per player, in positions visited.
    #[arg(long, default_value_t = Budget::DEFAULT_NODES)]
    pub budget: u64,
    /// Batch: one FEN per line (4 or 6 fields; anything after them ignored; `#` lines and
    /// blank lines skipped), answered in order.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["fen", "moves"])]
    pub epd: Option<PathBuf>,
    /// Positions of a batch answered at once (default: one per core); the output keeps the
    /// file's order, and each position's `micros` is its own time on its thread.
    #[arg(long)]
    pub threads: Option<usize>,
    /// Batch: show one of the shortest helpmates where one of at most six half-moves exists
    /// (as the single-position answer does), at about twice the default's median time and five
    /// times its mean; without it a batch shows any valid helpmate, the decision's own with its
    /// cycles cut out (docs/unwinnable.md).
    #[arg(long)]
    pub shortest: bool,
}

/// Positions of a batch read ahead of the one printed next.
const WINDOW: usize = 256;

/// Runs `arbiter unwinnable`; never panics on any input.
pub fn run(args: UnwinnableArgs) -> ExitCode {
    let lang = match args.position.language() {
        Ok(l) => l,
        Err(code) => return code,
    };
    let sides: &[Color] = match parse_player(&args.side) {
        Some(Color::White) => &[Color::White],
        Some(Color::Black) => &[Color::Black],
        None if args.side.eq_ignore_ascii_case("both") => &Color::ALL,
        None => {
            eprintln!("error: --side '{}' is not one of white, black, both", args.side.to_ascii_lowercase());
            return ExitCode::from(2);
        }
    };
    if args.threads.is_some() && args.epd.is_none() {
        eprintln!("error: --threads applies to a batch (--epd FILE)");
        return ExitCode::from(2);
    }
    if args.shortest && args.epd.is_none() {
        eprintln!("error: --shortest applies to a batch (--epd FILE); one position always shows one of the shortest");
        return ExitCode::from(2);
    }
    let budget = Budget(args.budget);
    let mut out = std::io::stdout().lock();
    if let Some(path) = &args.epd {
        let text = match std::fs::read(path) {
            Ok(bytes) => String::from_utf8_lossy(&bytes).into_owned(),
            Err(e) => {
                eprintln!("error: cannot read {}: {e}", path.display());
                return ExitCode::from(2);
            }
        };
        let pool = match in_order::pool(args.threads) {
            Ok(p) => p,
            Err(code) => return code,
        };
        let lines = text.lines().map(str::trim).filter(|l| !l.is_empty() && !l.starts_with('#'));
        let chess960 = args.position.variant.chess960;
        let example = if args.shortest { Example::Shortest } else { Example::Any };
        let answer = |line: &str| {
            let answer = match epd_fen(line).map(|f| Position::from_fen(&f).map_err(|e| e.to_string())) {
                Some(Ok(mut pos)) => {
                    if chess960 {
                        pos.set_chess960(true);
                    }
                    Answer::of(&pos, sides, budget, example)
                }
                Some(Err(e)) => Answer::error(line, &format!("bad FEN: {e}")),
                None => Answer::error(line, "not a FEN (it needs at least 4 fields)"),
            };
            answer.render(args.position.json, lang)
        };
        in_order::map_in_order(&pool, lines, WINDOW, answer, |rendered| write_lines(&mut out, &rendered).is_ok());
        return ExitCode::SUCCESS;
    }
    let game = match args.position.game() {
        Ok(g) => g,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    // One position: the examples of the position report, in text and JSON alike.
    let answer = Answer::of(game.current(), sides, budget, Example::Reader);
    let _ = write_lines(&mut out, &answer.render(args.position.json, lang));
    ExitCode::SUCCESS
}

fn write_lines(out: &mut impl Write, lines: &[String]) -> std::io::Result<()> {
    for l in lines {
        writeln!(out, "{l}")?;
    }
    Ok(())
}

/// The answer for one position (or one bad line).
/// One position's answer as `--json` writes it.
#[derive(serde::Serialize)]
struct AnswerJson<'a> {
    fen: &'a str,
    white: Option<json::DecisionJson>,
    black: Option<json::DecisionJson>,
    nodes: u64,
    micros: u128,
}

/// A line that is no position, as `--json` writes it.
#[derive(serde::Serialize)]
struct AnswerErrorJson<'a> {
    fen: &'a str,
    error: &'a str,
}

struct Answer {
    fen: String,
    position: Option<Position>,
    /// White's and Black's decisions, for the sides asked.
    decisions: [Option<Decision>; 2],
    micros: u128,
    error: Option<String>,
}

/// How short the helpmates shown are made.
#[derive(Clone, Copy)]
enum Example {
    /// The decision's own helpmate, its cycles and the moves past a mate on the way cut
    /// ([`unwinnable::decide_with_any_example`]): the batch's default.
    Any,
    /// One of the shortest where one of at most six half-moves exists
    /// ([`unwinnable::decide_with_example`]): the batch with `--shortest`.
    Shortest,
    /// As in the position report ([`unwinnable::for_reader`]).
    Reader,
}

impl Answer {
    fn of(pos: &Position, sides: &[Color], budget: Budget, example: Example) -> Answer {
        let start = Instant::now();
        let mut decisions = [None, None];
        for &side in sides {
            decisions[side.index()] = Some(match example {
                Example::Any => unwinnable::decide_with_any_example(pos, side, budget),
                Example::Shortest => unwinnable::decide_with_example(pos, side, budget, unwinnable::EXAMPLE_NODES),
                Example::Reader => unwinnable::for_reader(pos, side, &decide(pos, side, budget)),
            });
        }
        Answer { fen: pos.to_fen(), position: Some(*pos), decisions, micros: start.elapsed().as_micros(), error: None }
    }

    fn error(line: &str, error: &str) -> Answer {
        Answer { fen: line.to_string(), position: None, decisions: [None, None], micros: 0, error: Some(error.into()) }
    }

    fn render(&self, as_json: bool, lang: Lang) -> Vec<String> {
        if as_json {
            let side = |d: &Option<Decision>| d.as_ref().map(json::DecisionJson::from);
            let line = match &self.error {
                Some(e) => json::to_line(&AnswerErrorJson { fen: &self.fen, error: e }),
                None => json::to_line(&AnswerJson {
                    fen: &self.fen,
                    white: side(&self.decisions[0]),
                    black: side(&self.decisions[1]),
                    nodes: self.decisions.iter().flatten().map(|d| d.nodes).sum(),
                    micros: self.micros,
                }),
            };
            return vec![line];
        }
        let words = lang.words();
        let (Some(pos), None) = (&self.position, &self.error) else {
            return vec![words.position(&self.fen), format!("- error: {}", self.error.as_deref().unwrap_or_default())];
        };
        let mut lines = vec![words.position(&self.fen)];
        // A game already over on the board has no series of moves left and no resignation or flag
        // fall to judge: say how it ended, as the position report does.
        if let Some(outcome) = referee::board_outcome(pos) {
            if let Some(note) = outcome_note(outcome, pos.side_to_move(), || dead::dead_position(pos)) {
                lines.push(format!("- {}", note_text(&note, lang)));
            }
            return lines;
        }
        for (side, d) in [Color::White, Color::Black].into_iter().zip(&self.decisions) {
            if let Some(d) = d {
                let note = Note::MatePossible { side, fact: MateFact::of(pos, d) };
                lines.push(format!("- {}", note_text(&note, lang)));
            }
        }
        if let [Some(w), Some(b)] = &self.decisions {
            if let (Verdict::Unwinnable { .. }, Verdict::Unwinnable { .. }) = (&w.verdict, &b.verdict) {
                if let Some(d) = dead::dead_from(&[w.clone(), b.clone()]) {
                    let note = Note::DeadPosition { white: d.white, black: d.black };
                    lines.push(format!("- {}", note_text(&note, lang)));
                }
            }
        }
        lines
    }
}
