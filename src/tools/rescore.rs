//! `arbiter rescore`: training positions searched again, deeper or by a stronger network, and
//! written with the new score and their game's result. A network learns mostly from the
//! search scores (`train --lambda 0.1`), so better scores on the same positions are better
//! data without playing a game (issue #33: the labels are what limits the network).
//!
//! Input: data lines or `.games` records (as `arbiter train` reads them). Output: data lines,
//! in the input's order, each game's positions searched in order by an engine cleared at the
//! game's start (so the output depends on neither `--threads` nor the batch). A position whose
//! new score is a mate, or whose new best move is a capture or a promotion, is left out, as
//! `selfplay --datagen` leaves them out ([`crate::data::lines::write`]).

use crate::data::{lines, records};
use crate::engine::{Engine, EngineOptions, Limits, Score, SearchControl, SearchRequest};
use clap::Args;
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Instant;

#[derive(Args, Debug, Clone)]
#[command(after_help = "Example:
  arbiter rescore --data dg-74807f3-s59-n2500.games --soft-nodes 2500 --out s59-rescored.txt
  arbiter rescore --data old.txt --nodes 5000 --option EvalFile=new.nnue --out old-new.txt")]
pub struct RescoreArgs {
    /// Data lines or `selfplay --records` files (`*.games`).
    #[arg(long, required = true, num_args = 1..)]
    pub data: Vec<PathBuf>,
    /// Write the rescored data lines here.
    #[arg(long)]
    pub out: PathBuf,
    /// Nodes per position (with --soft-nodes: the hard cap, default 20 x soft).
    #[arg(long, value_name = "N")]
    pub nodes: Option<u64>,
    /// Soft node limit per position: no new iteration starts once N nodes are spent.
    #[arg(long, value_name = "N")]
    pub soft_nodes: Option<u64>,
    /// Depth per position.
    #[arg(long, value_name = "D", conflicts_with_all = ["nodes", "soft_nodes"])]
    pub depth: Option<u32>,
    /// An engine option for every search, NAME=VALUE (e.g. EvalFile=net.nnue); repeat it for more.
    #[arg(long = "option", value_name = "NAME=VALUE")]
    pub options: Vec<String>,
    /// Threads, one engine each (the output does not depend on them).
    #[arg(long, default_value_t = 2)]
    pub threads: usize,
}

/// Games searched between two writes of the output.
const GAMES_PER_BATCH: usize = 512;

/// The hard node limit of `--soft-nodes N` without `--nodes`, in multiples of N (as selfplay's).
const SOFT_NODES_HARD_FACTOR: u64 = 20;

/// A run's counts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Counts {
    read: usize,
    malformed: usize,
    written: usize,
    mates: usize,
    tactical: usize,
}

impl Counts {
    fn add(&mut self, o: Counts) {
        self.read += o.read;
        self.malformed += o.malformed;
        self.written += o.written;
        self.mates += o.mates;
        self.tactical += o.tactical;
    }
}

pub fn run(args: RescoreArgs) -> ExitCode {
    match rescore(&args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
    }
}

fn limits(args: &RescoreArgs) -> Result<Limits, String> {
    match (args.soft_nodes, args.nodes, args.depth) {
        (Some(soft), hard, None) => {
            let hard = hard.unwrap_or(soft.saturating_mul(SOFT_NODES_HARD_FACTOR));
            if soft == 0 || hard < soft {
                return Err("--soft-nodes must be at least 1 and at most --nodes".into());
            }
            Ok(Limits { nodes: Some(hard), soft_nodes: Some(soft), ..Limits::default() })
        }
        (None, Some(n), None) if n > 0 => Ok(Limits { nodes: Some(n), ..Limits::default() }),
        (None, None, Some(d)) if d > 0 => Ok(Limits { depth: Some(d), ..Limits::default() }),
        (None, None, None) => Err("give --nodes, --soft-nodes or --depth".into()),
        _ => Err("--nodes and --depth must be at least 1".into()),
    }
}

/// An engine with the options applied.
fn engine(options: &[(String, String)]) -> Result<Engine, String> {
    let mut engine = Engine::new(EngineOptions::default()).map_err(|e| e.to_string())?;
    for (name, value) in options {
        engine.set_option(name, Some(value)).map_err(|e| format!("--option {name}={value}: {e}"))?;
    }
    Ok(engine)
}

fn rescore(args: &RescoreArgs) -> Result<(), String> {
    let limits = limits(args)?;
    if args.threads == 0 {
        return Err("--threads must be at least 1".into());
    }
    let options = parse_options(&args.options)?;
    // Refuse a bad option or input before the output is truncated and gigabytes read.
    engine(&options)?;
    for path in &args.data {
        match std::fs::metadata(path) {
            Ok(m) if m.is_file() => {}
            Ok(_) => return Err(format!("cannot read {}: not a file", path.display())),
            Err(e) => return Err(format!("cannot read {}: {e}", path.display())),
        }
    }
    let mut out = std::fs::File::create(&args.out)
        .map(std::io::BufWriter::new)
        .map_err(|e| format!("cannot write {}: {e}", args.out.display()))?;
    let start = Instant::now();
    let mut total = Counts::default();
    for path in &args.data {
        let text = records::read_data_file(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        let games = lines::games(text.lines());
        for batch in games.chunks(GAMES_PER_BATCH) {
            let (text, counts) = rescore_games(batch, &limits, &options, args.threads)?;
            out.write_all(text.as_bytes()).map_err(|e| format!("cannot write {}: {e}", args.out.display()))?;
            total.add(counts);
            let secs = start.elapsed().as_secs_f64();
            eprint!(
                "\rrescored {} positions, wrote {} ({:.0} a second)  ",
                total.read,
                total.written,
                total.read as f64 / secs
            );
        }
    }
    out.flush().map_err(|e| format!("cannot write {}: {e}", args.out.display()))?;
    eprintln!(
        "\n{} positions read: {} written to {}, {} left out as mates, {} as not quiet (a capture or promotion best), \
         {} malformed; {:.1} s",
        total.read,
        total.written,
        args.out.display(),
        total.mates,
        total.tactical,
        total.malformed,
        start.elapsed().as_secs_f64()
    );
    Ok(())
}

/// The `--option NAME=VALUE` pairs.
fn parse_options(items: &[String]) -> Result<Vec<(String, String)>, String> {
    items
        .iter()
        .map(|item| match item.split_once('=') {
            Some((name, value)) if !name.trim().is_empty() => Ok((name.trim().to_string(), value.trim().to_string())),
            _ => Err(format!("--option {item:?}: not NAME=VALUE")),
        })
        .collect()
}

/// The games' lines rescored, in order, on `threads` threads.
fn rescore_games(
    games: &[Vec<&str>],
    limits: &Limits,
    options: &[(String, String)],
    threads: usize,
) -> Result<(String, Counts), String> {
    let part = games.len().div_ceil(threads).max(1);
    let parts = std::thread::scope(|s| {
        let workers: Vec<_> = games
            .chunks(part)
            .map(|chunk| {
                s.spawn(move || -> Result<(String, Counts), String> {
                    let mut engine = engine(options)?;
                    let control = Arc::new(SearchControl::new());
                    let mut text = String::new();
                    let mut counts = Counts::default();
                    for game in chunk {
                        engine.new_game();
                        for line in game {
                            rescore_line(&mut engine, &control, limits, line, &mut text, &mut counts);
                        }
                        // Keeps the games apart for `lines::games` (their move numbers may follow on).
                        text.push('\n');
                    }
                    Ok((text, counts))
                })
            })
            .collect();
        workers
            .into_iter()
            .map(|w| w.join().unwrap_or_else(|_| Err("a rescoring thread panicked".into())))
            .collect::<Result<Vec<_>, String>>()
    })?;
    let mut text = String::new();
    let mut counts = Counts::default();
    for (t, c) in parts {
        text.push_str(&t);
        counts.add(c);
    }
    Ok((text, counts))
}

fn rescore_line(
    engine: &mut Engine,
    control: &Arc<SearchControl>,
    limits: &Limits,
    line: &str,
    out: &mut String,
    counts: &mut Counts,
) {
    counts.read += 1;
    let Some((pos, _, result)) = lines::parse(line) else {
        counts.malformed += 1;
        return;
    };
    let request = SearchRequest { position: pos, history: Vec::new(), limits: limits.clone() };
    let found = engine.search(request, control, &mut |_| {});
    match (found.score, found.best) {
        (Score::Cp(cp), Some(best)) if !best.is_tactical() => {
            let cp_white = pos.side_to_move().sign() * cp;
            out.push_str(&format!("{} | {cp_white} | {}\n", pos.to_fen(), result_text(result)));
            counts.written += 1;
        }
        (Score::Cp(_), Some(_)) => counts.tactical += 1,
        _ => counts.mates += 1,
    }
}

/// The result as the data lines write it.
fn result_text(white: f32) -> &'static str {
    records::result_text(f64::from(white))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn options_are_name_value_pairs() {
        let items = ["EvalFile=a=b.nnue".to_string(), "Move Overhead=30".to_string()];
        assert_eq!(
            parse_options(&items).unwrap(),
            vec![("EvalFile".into(), "a=b.nnue".into()), ("Move Overhead".into(), "30".into())]
        );
        assert!(parse_options(&["Hash".to_string()]).is_err());
        assert!(parse_options(&["=8".to_string()]).is_err());
    }
}
