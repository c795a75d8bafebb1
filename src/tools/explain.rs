//! `arbiter explain`: the command line of the explain mode.
//!
//! Exit status (contract): 0 when a verdict or position report was produced (an illegal,
//! malformed or ambiguous MOVE included); 2 when the position itself is unusable (bad FEN,
//! an illegal or unparsable move in `--moves`, an unknown `--lang`, a `--resign`/`--flag`
//! that names no player or comes with a MOVE), with the reason on stderr and nothing on
//! stdout. 1 when the SVG file cannot be written.
//!
//! `--resign SIDE` / `--flag SIDE`: the result of that player resigning (5.1.2) or losing on
//! time (6.9) now, as the referee rules it (with `--svg`, the position and the ruling drawn).

use crate::data::position_args::{parse_player, PositionArgs};
use crate::explain::{explain, json, ruling_note, svg, text};
use crate::rules::Act;
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `arbiter explain`.
#[derive(clap::Args, Debug, Clone)]
pub struct ExplainArgs {
    #[command(flatten)]
    pub position: PositionArgs,
    /// The result if this player (white or black) resigned now: a loss, or a draw when the
    /// opponent cannot checkmate by any series of legal moves (FIDE 5.1.2).
    #[arg(long, value_name = "SIDE", conflicts_with = "flag")]
    pub resign: Option<String>,
    /// The result if this player's (white or black) flag fell now (FIDE 6.9).
    #[arg(long, value_name = "SIDE")]
    pub flag: Option<String>,
    /// Without a MOVE: also state the position's value in the Syzygy tables of these
    /// directories (`:`-separated), apart from the Laws' verdicts.
    #[arg(long, value_name = "PATH")]
    pub syzygy: Option<String>,
    /// Also draw the position, the move and the reasons (or the ruling of --resign/--flag) as an
    /// SVG diagram into FILE.
    #[arg(long, value_name = "FILE")]
    pub svg: Option<PathBuf>,
    /// The move to explain, UCI or SAN (several words are joined, e.g. `exd6 e.p.`).
    /// Without it, the position itself is reported. Options may stand before or after it.
    #[arg(value_name = "MOVE", num_args = 0..)]
    pub mv: Vec<String>,
}

/// `--resign` / `--flag` with `--json`: the ruling.
#[derive(serde::Serialize)]
struct RulingJson {
    fen: String,
    side: &'static str,
    act: &'static str,
    result: &'static str,
    rule: &'static str,
    already_over: Option<&'static str>,
    opponent: json::DecisionJson,
    text: String,
    lang: &'static str,
}

/// Runs `arbiter explain`; never panics on any input.
pub fn run(args: ExplainArgs) -> ExitCode {
    let lang = match args.position.language() {
        Ok(l) => l,
        Err(code) => return code,
    };
    let game = match args.position.game() {
        Ok(g) => g,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    let move_text = args.mv.join(" ");
    if let Some((act, who)) =
        args.resign.as_ref().map(|s| (Act::Resignation, s)).or(args.flag.as_ref().map(|s| (Act::FlagFall, s)))
    {
        let Some(side) = parse_player(who) else {
            eprintln!("error: '{}' is not a player: use white or black", who.to_ascii_lowercase());
            return ExitCode::from(2);
        };
        if !move_text.trim().is_empty() {
            eprintln!("error: --resign and --flag judge the position itself; give no MOVE with them");
            return ExitCode::from(2);
        }
        let ruling = match act {
            Act::Resignation => game.resign(side),
            Act::FlagFall => game.flag_fall(side),
        }
        .for_reader(game.current());
        let note = ruling_note(game.current(), &ruling);
        if let Some(path) = &args.svg {
            if let Err(e) = std::fs::write(path, svg::ruling_svg(&game, &text::note_text(&note, lang), lang)) {
                eprintln!("error: cannot write {}: {e}", path.display());
                return ExitCode::from(1);
            }
        }
        let line = if args.position.json {
            json::to_line(&RulingJson {
                fen: game.current().to_fen(),
                side: side.name(),
                act: act.code(),
                result: ruling.result(),
                rule: ruling.rule(),
                already_over: ruling.already_over.map(|o| o.result()),
                opponent: json::DecisionJson::from(&ruling.opponent),
                text: text::note_text(&note, lang),
                lang: lang.code(),
            })
        } else {
            text::note_text(&note, lang)
        };
        let _ = writeln!(std::io::stdout().lock(), "{line}");
        return ExitCode::SUCCESS;
    }
    let mut out: Vec<String> = Vec::new();
    let svg_doc = if move_text.trim().is_empty() {
        let report = game.report().for_reader(game.current());
        let mut tablebase = None;
        if let Some(path) = &args.syzygy {
            let (tb, load) = crate::syzygy::Tablebases::load(path);
            for p in &load.problems {
                eprintln!("warning: Syzygy: {p}");
            }
            if tb.is_empty() {
                eprintln!("error: no Syzygy tables found in '{path}'");
                return ExitCode::from(2);
            }
            let keys = game.keys();
            tablebase = crate::syzygy::report::value(&tb, game.current(), &keys[..keys.len().saturating_sub(1)]);
            for p in tb.take_problems() {
                eprintln!("warning: Syzygy: {p}");
            }
        }
        if args.position.json && args.syzygy.is_some() {
            // One object: the position report, with the tables' value as a field of it.
            out.push(json::report_with_tablebase(&report, tablebase.as_ref(), lang));
        } else if args.position.json {
            out.push(json::report(&report));
        } else {
            out.extend(text::render_report(&report, lang));
            if let Some(t) = &tablebase {
                out.push(String::new());
                out.extend(lang.words().tablebase(t));
            }
        }
        args.svg.as_ref().map(|_| svg::position_svg(&game, lang))
    } else {
        let ex = explain(&game, &move_text).for_reader(&game);
        if args.position.json {
            out.push(json::explanation(&ex, lang));
        } else {
            out.extend(text::render_explanation(&ex, lang));
        }
        args.svg.as_ref().map(|_| svg::explanation_svg(&game, &ex, lang))
    };
    if let (Some(path), Some(doc)) = (&args.svg, svg_doc) {
        if let Err(e) = std::fs::write(path, doc) {
            eprintln!("error: cannot write {}: {e}", path.display());
            return ExitCode::from(1);
        }
    }
    let mut stdout = std::io::stdout().lock();
    for line in out {
        if writeln!(stdout, "{line}").is_err() {
            break;
        }
    }
    ExitCode::SUCCESS
}
