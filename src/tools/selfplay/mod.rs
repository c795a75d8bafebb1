//! `arbiter selfplay`: matches between two players (in-process Arbiter instances or any UCI
//! engines), judged by the FIDE referee, with PGN, statistics, SPRT and training data.
//!
//! Output: the PGN goes to `--pgn FILE`, training data to `--datagen FILE`, game records to
//! `--records FILE`, the final summary to stdout (text, or one JSON object with `--json`), and
//! the live progress line and logs to stderr.

pub mod balance;
pub mod export;
pub mod game;
pub mod interrupt;
pub mod player;
pub mod runner;
pub mod stats;
pub mod tc;

use crate::data::{openings, records};
use crate::engine::Limits;
use player::{EngineSpec, InProcess, Player, UciEngine};
use runner::{MatchConfig, MatchSummary, PlayerFactory};
use stats::{Sprt, SprtDecision, SprtModel};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;
use tc::{MoveLimit, TimeControl};

/// Command-line arguments of `arbiter selfplay`.
#[derive(clap::Args, Debug, Clone)]
#[command(after_help = "Examples:
  arbiter selfplay --games 100 --tc 1+0.01 --concurrency 2 --openings openings.epd --repeat --pgn out.pgn
  arbiter selfplay --variant 960 --seed 1 --games 100 --repeat --nodes 20000 --pgn chess960.pgn
  arbiter selfplay --opponent \"cmd='gnuchess --uci'\" --tc 10+0.1 --games 200 --repeat --openings openings.epd
  arbiter selfplay --b-cmd ./arbiter-old --nodes 5000 --sprt \"elo0=0 elo1=5 alpha=0.05 beta=0.05\" --games 20000 --repeat

Draw claims: a threefold repetition or fifty-move draw is claimed for the player having the move as soon as it
may be claimed on the position on the board (FIDE 9.2.2, 9.3.2). A flag fall loses, unless the opponent cannot
possibly mate (FIDE 6.9), which draws. The summary goes to stdout; progress and logs to stderr.")]
pub struct SelfplayArgs {
    /// UCI options of player A, e.g. "Hash=64 Threads=1" (names may contain spaces: "Move Overhead=30").
    #[arg(long = "a", value_name = "OPTIONS", default_value = "")]
    pub a_options: String,
    /// UCI options of player B (ignored with --opponent, which carries its own).
    #[arg(long = "b", value_name = "OPTIONS", default_value = "")]
    pub b_options: String,
    /// Engine binary for player A, spoken to over UCI (default: Arbiter in-process).
    #[arg(long, value_name = "PATH")]
    pub a_cmd: Option<PathBuf>,
    /// Engine binary for player B, spoken to over UCI (default: Arbiter in-process).
    #[arg(long, value_name = "PATH")]
    pub b_cmd: Option<PathBuf>,
    /// Player B as any UCI engine: "cmd=PROGRAM [arg=ARG]... [name=NAME] [option.NAME=VALUE]...";
    /// cmd may carry arguments when quoted: "cmd='gnuchess --uci'".
    #[arg(long, value_name = "SPEC")]
    pub opponent: Option<String>,
    /// Clock per side, Cute Chess syntax [moves/]seconds[+increment]: 10+0.1, 40/60+0.5, 1:00+1.
    #[arg(long, value_name = "TC", conflicts_with_all = ["nodes", "depth", "movetime"])]
    pub tc: Option<String>,
    /// Fixed nodes per move instead of a clock.
    #[arg(long, value_name = "N", conflicts_with_all = ["depth", "movetime"])]
    pub nodes: Option<u64>,
    /// A soft node limit per move (training data): no new iteration starts once N nodes are
    /// spent and the one in progress is finished, up to --nodes (default 20 x N). Both players
    /// in-process: UCI has no soft limit to send to an engine.
    #[arg(long, value_name = "N", conflicts_with_all = ["tc", "depth", "movetime"])]
    pub soft_nodes: Option<u64>,
    /// Fixed depth per move instead of a clock.
    #[arg(long, value_name = "D", conflicts_with = "movetime")]
    pub depth: Option<u32>,
    /// Fixed time per move in milliseconds instead of a clock.
    #[arg(long, value_name = "MS")]
    pub movetime: Option<u64>,
    /// Openings: EPD/FEN one per line, or PGN (the position after each game). Default: the initial
    /// position (with --variant 960: the 960 start positions, numbers 0-959 in order or shuffled by --seed).
    #[arg(long, value_name = "FILE")]
    pub openings: Option<PathBuf>,
    /// The rules played: standard chess, or Chess960 (also "chess960", "fischerandom"): castling written
    /// king takes own rook, UCI_Chess960 set on every engine, `Variant "Chess960"` in the PGN.
    #[arg(long, value_enum, default_value = "standard")]
    pub variant: Variant,
    /// Play only the openings whose score, searched by Arbiter's built-in evaluation for
    /// --opening-nodes nodes, is within ± CP (training data: a random opening can hang a piece).
    #[arg(long, value_name = "CP")]
    pub opening_max_score: Option<i32>,
    /// With --opening-max-score: nodes searched per opening.
    #[arg(long, value_name = "N", default_value_t = 2000)]
    pub opening_nodes: u64,
    /// Shuffle the openings with this seed (default: in file order).
    #[arg(long)]
    pub seed: Option<u64>,
    /// Play each opening twice with colours reversed (game pairs; enables the pentanomial SPRT).
    #[arg(long)]
    pub repeat: bool,
    /// Number of games (default 2; or 2 x --rounds with --repeat, 1 x --rounds without).
    #[arg(long, value_name = "N")]
    pub games: Option<usize>,
    /// Number of rounds: one opening each (a pair of games with --repeat).
    #[arg(long, value_name = "N", conflicts_with = "games")]
    pub rounds: Option<usize>,
    /// Games played at once (each engine single-threaded unless configured otherwise).
    #[arg(long, default_value_t = 1, value_name = "N")]
    pub concurrency: usize,
    /// Write the games to this PGN file.
    #[arg(long, value_name = "FILE")]
    pub pgn: Option<PathBuf>,
    /// The PGN Event tag.
    #[arg(long, default_value = "Arbiter selfplay")]
    pub event: String,
    /// Stop early on a decision: "elo0=0 elo1=5 alpha=0.05 beta=0.05" (pentanomial GSPRT with --repeat,
    /// trinomial otherwise).
    #[arg(long, value_name = "PARAMS")]
    pub sprt: Option<String>,
    /// Adjudicate a win when both engines score a side at least CP ahead for --resign-moves moves each.
    #[arg(long, value_name = "CP")]
    pub resign_score: Option<i32>,
    /// With --resign-score: consecutive moves of each player the scores must agree for.
    #[arg(long, value_name = "N", default_value_t = 3)]
    pub resign_moves: u32,
    /// Adjudicate a draw when both engines' |score| <= CP for --draw-moves moves each, from move --draw-from on.
    #[arg(long, value_name = "CP")]
    pub draw_score: Option<i32>,
    /// With --draw-score: consecutive moves of each player the scores must stay small for.
    #[arg(long, value_name = "N", default_value_t = 8)]
    pub draw_moves: u32,
    /// With --draw-score: no draw adjudication before this full move number.
    #[arg(long, value_name = "MOVE", default_value_t = 40)]
    pub draw_from: u32,
    /// Write training data: "FEN | score-cp-from-white | result(1.0/0.5/0.0)" per quiet position.
    #[arg(long, value_name = "FILE")]
    pub datagen: Option<PathBuf>,
    /// With --datagen: skip this many plies at the start of every game.
    #[arg(long, value_name = "PLIES", default_value_t = records::DEFAULT_SKIP_PLIES)]
    pub datagen_skip: u32,
    /// Write game records: "start FEN | result | move score move score ..." per game, from which
    /// training data can be made again (`arbiter train --data FILE.games`; docs/nnue.md).
    #[arg(long, value_name = "FILE")]
    pub records: Option<PathBuf>,
    /// Seconds to wait for a move without a clock (--nodes/--depth) before an engine counts as stalled.
    #[arg(long, value_name = "SECS", default_value_t = 60.0)]
    pub stall_timeout: f64,
    /// Milliseconds waited past a flag fall before giving up on the move (it loses on time either way).
    #[arg(long, value_name = "MS", default_value_t = 200)]
    pub flag_grace: u64,
    /// Do not claim threefold / fifty-move draws (games then end at fivefold / seventy-five moves).
    #[arg(long)]
    pub no_draw_claims: bool,
    /// No live progress line on stderr.
    #[arg(long)]
    pub quiet: bool,
    /// Print the final summary as one JSON object on one line instead of text (for scripts;
    /// the fields are in docs/selfplay.md).
    #[arg(long)]
    pub json: bool,
}

/// The rules a match is played by.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Variant {
    Standard,
    /// Chess960 (Fischer Random), FIDE Laws, Guidelines II.
    #[value(name = "960", alias = "chess960", alias = "fischerandom")]
    Chess960,
}

/// Errors in the arguments.
#[derive(Debug)]
enum ArgError {
    Tc(tc::TcError),
    Spec(player::SpecError),
    Sprt(stats::SprtParseError),
    Openings(openings::OpeningsError),
    Invalid(String),
}

impl std::fmt::Display for ArgError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ArgError::Tc(e) => write!(f, "--tc: {e}"),
            ArgError::Spec(e) => write!(f, "{e}"),
            ArgError::Sprt(e) => write!(f, "{e}"),
            ArgError::Openings(e) => write!(f, "--openings: {e}"),
            ArgError::Invalid(s) => write!(f, "{s}"),
        }
    }
}

impl std::error::Error for ArgError {}

const HANDSHAKE_TIMEOUT: Duration = Duration::from_secs(10);

fn uci_factory(spec: EngineSpec) -> PlayerFactory {
    Arc::new(move || UciEngine::start(spec.clone(), HANDSHAKE_TIMEOUT).map(|e| Box::new(e) as Box<dyn Player>))
}

fn in_process_factory(name: String, options: Vec<(String, String)>) -> PlayerFactory {
    Arc::new(move || InProcess::new(&name, &options).map(|e| Box::new(e) as Box<dyn Player>))
}

/// Checks an in-process option set once, up front, so a typo is an argument error.
fn check_in_process(label: &str, options: &[(String, String)]) -> Result<(), ArgError> {
    let mut probe = crate::engine::Engine::new(crate::engine::EngineOptions { hash_mb: 1, ..Default::default() })
        .map_err(|e| ArgError::Invalid(format!("cannot create the engine: {e}")))?;
    for (k, v) in options {
        if k.eq_ignore_ascii_case("hash") {
            if v.parse::<u64>().map_or(true, |mb| mb == 0 || mb > 1 << 20) {
                return Err(ArgError::Invalid(format!("{label}: bad Hash value '{v}'")));
            }
            continue;
        }
        probe.set_option(k, Some(v)).map_err(|e| ArgError::Invalid(format!("{label}: option {k}={v}: {e}")))?;
    }
    Ok(())
}

/// Whether a player with these options can play two different games from one opening at a node
/// or depth limit: several search threads race each other, and a strength limit draws its dice
/// from the clock (`src/engine/strength.rs`).
fn varies_at_fixed_limits(options: &[(String, String)]) -> bool {
    options.iter().any(|(name, value)| {
        let value = value.trim();
        (name.eq_ignore_ascii_case("Threads") && value.parse::<u32>().is_ok_and(|t| t > 1))
            || (name.eq_ignore_ascii_case("UCI_LimitStrength") && value.eq_ignore_ascii_case("true"))
    })
}

/// The hard node limit of `--soft-nodes N` without `--nodes`, in multiples of N.
const SOFT_NODES_HARD_FACTOR: u64 = 20;

/// Turns the arguments into a match configuration.
fn build_config(args: &SelfplayArgs) -> Result<MatchConfig, ArgError> {
    let limits = if let Some(soft) = args.soft_nodes {
        let hard = args.nodes.unwrap_or(soft.saturating_mul(SOFT_NODES_HARD_FACTOR));
        if soft == 0 || hard < soft {
            return Err(ArgError::Invalid("--soft-nodes must be at least 1 and at most --nodes".into()));
        }
        if args.a_cmd.is_some() || args.b_cmd.is_some() || args.opponent.is_some() {
            return Err(ArgError::Invalid(
                "--soft-nodes needs in-process players: UCI has no soft node limit to send to an engine".into(),
            ));
        }
        MoveLimit::Fixed(Limits { nodes: Some(hard), soft_nodes: Some(soft), ..Limits::default() })
    } else if let Some(n) = args.nodes {
        if n == 0 {
            return Err(ArgError::Invalid("--nodes must be at least 1".into()));
        }
        MoveLimit::Fixed(Limits { nodes: Some(n), ..Limits::default() })
    } else if let Some(d) = args.depth {
        if d == 0 {
            return Err(ArgError::Invalid("--depth must be at least 1".into()));
        }
        MoveLimit::Fixed(Limits { depth: Some(d), ..Limits::default() })
    } else if let Some(ms) = args.movetime {
        if ms == 0 {
            return Err(ArgError::Invalid("--movetime must be at least 1 ms".into()));
        }
        MoveLimit::Fixed(Limits { movetime: Some(Duration::from_millis(ms)), ..Limits::default() })
    } else {
        MoveLimit::Clock(TimeControl::parse(args.tc.as_deref().unwrap_or("10+0.1")).map_err(ArgError::Tc)?)
    };
    let chess960 = args.variant == Variant::Chess960;
    // Every engine, in-process or external, is told the castling convention of the variant.
    let with_variant = |mut options: Vec<(String, String)>| {
        if chess960 {
            options.push(("UCI_Chess960".into(), "true".into()));
        }
        options
    };
    let a_options = with_variant(player::parse_option_set(&args.a_options).map_err(ArgError::Spec)?);
    let b_options = with_variant(player::parse_option_set(&args.b_options).map_err(ArgError::Spec)?);
    let opponent = args.opponent.as_deref().map(EngineSpec::parse).transpose().map_err(ArgError::Spec)?;
    let varies = varies_at_fixed_limits(&a_options)
        || varies_at_fixed_limits(opponent.as_ref().map_or(&b_options, |spec| &spec.options));
    // In-process Arbiter unless a binary is named; both in-process players get distinct names.
    let a = match &args.a_cmd {
        Some(p) => uci_factory(EngineSpec { program: p.clone(), options: a_options, ..EngineSpec::program("") }),
        None => {
            check_in_process("--a", &a_options)?;
            in_process_factory(format!("{} A", InProcess::default_name()), a_options)
        }
    };
    let b = match (opponent, &args.b_cmd) {
        (Some(spec), _) => uci_factory(EngineSpec { options: with_variant(spec.options), ..spec }),
        (None, Some(p)) => {
            uci_factory(EngineSpec { program: p.clone(), options: b_options, ..EngineSpec::program("") })
        }
        (None, None) => {
            check_in_process("--b", &b_options)?;
            in_process_factory(format!("{} B", InProcess::default_name()), b_options)
        }
    };
    let mut openings = match (&args.openings, chess960) {
        (Some(p), _) => openings::load(p).map_err(ArgError::Openings)?,
        (None, false) => vec![crate::chess::Position::startpos()],
        (None, true) => openings::chess960_starts(),
    };
    for pos in &mut openings {
        pos.set_chess960(chess960);
    }
    if let Some(seed) = args.seed {
        crate::rng::Rng::new(seed).shuffle(&mut openings);
    }
    if let Some(max_score) = args.opening_max_score {
        if max_score <= 0 || args.opening_nodes == 0 {
            return Err(ArgError::Invalid("--opening-max-score and --opening-nodes must be positive".into()));
        }
        let (before, start) = (openings.len(), std::time::Instant::now());
        let check = balance::Balance { nodes: args.opening_nodes, max_score };
        openings = balance::balanced(openings, check, args.concurrency.max(1)).map_err(ArgError::Invalid)?;
        eprintln!(
            "openings: {} of {before} within ±{max_score} cp at {} nodes ({:.1} s)",
            openings.len(),
            args.opening_nodes,
            start.elapsed().as_secs_f64()
        );
        if openings.is_empty() {
            return Err(ArgError::Invalid(format!("no opening is within ±{max_score} cp")));
        }
    }
    let games = match (args.games, args.rounds) {
        (Some(g), _) => g,
        (None, Some(r)) => {
            if args.repeat {
                r.saturating_mul(2)
            } else {
                r
            }
        }
        (None, None) => 2,
    };
    if games == 0 {
        return Err(ArgError::Invalid("--games / --rounds must be at least 1".into()));
    }
    // At a node or depth limit a game is deterministic: the same opening with the same colours
    // is the same game. Past the distinct games the openings hold a match would only count
    // copies (and an SPRT would decide on them), so it ends there, unless a player varies.
    let distinct = runner::distinct_games(openings.len(), args.repeat);
    let deterministic = matches!(&limits, MoveLimit::Fixed(l) if l.movetime.is_none()) && !varies;
    let games = if deterministic && games > distinct {
        log::warn!(
            "{} openings give {distinct} distinct games at a node or depth limit (every further game would \
             repeat one); playing {distinct} of the {games} asked: give more openings for more",
            openings.len()
        );
        distinct
    } else {
        games
    };
    if args.concurrency == 0 {
        return Err(ArgError::Invalid("--concurrency must be at least 1".into()));
    }
    let sprt = args.sprt.as_deref().map(Sprt::parse).transpose().map_err(ArgError::Sprt)?;
    if !(args.stall_timeout.is_finite() && args.stall_timeout > 0.0 && args.stall_timeout < 1e6) {
        return Err(ArgError::Invalid("--stall-timeout must be a positive number of seconds".into()));
    }
    let positive = |v: Option<i32>, name: &str| match v {
        Some(c) if c <= 0 => Err(ArgError::Invalid(format!("{name} must be positive"))),
        _ => Ok(v),
    };
    let resign = positive(args.resign_score, "--resign-score")?.map(|cp| (args.resign_moves.max(1), cp));
    let draw = positive(args.draw_score, "--draw-score")?.map(|cp| (args.draw_moves.max(1), cp, args.draw_from));
    let time_control = limits.pgn_tag();
    let game = game::GameConfig {
        limits,
        adjudication: game::Adjudication { resign, draw },
        stall_timeout: Duration::from_secs_f64(args.stall_timeout),
        flag_grace: Duration::from_millis(args.flag_grace),
        claim_draws: !args.no_draw_claims,
        interrupt: Some(interrupt::flag()),
    };
    Ok(MatchConfig {
        time_control,
        game,
        openings,
        games,
        repeat: args.repeat,
        concurrency: args.concurrency,
        sprt,
        pgn: args.pgn.clone(),
        datagen: args.datagen.clone(),
        datagen_skip: args.datagen_skip,
        records: args.records.clone(),
        event: args.event.clone(),
        progress: !args.quiet,
        keep_records: false,
        a,
        b,
    })
}

/// The final summary (stdout).
fn summary_text(s: &MatchSummary, sprt: Option<&Sprt>) -> String {
    let t = &s.tally;
    let e = t.elo();
    let mut out = String::new();
    if s.interrupted {
        out += "Interrupted: the games in progress were abandoned; these figures count the finished games.\n";
    }
    out += &format!(
        "Match: {} (A) vs {} (B), {} games in {:.1}s ({:.1} games/min)\n",
        s.a_name,
        s.b_name,
        t.games(),
        s.elapsed.as_secs_f64(),
        s.games_per_minute()
    );
    out += &format!(
        "A: W {} D {} L {}  score {:.1}%  draw ratio {:.1}%\n",
        t.wins,
        t.draws,
        t.losses,
        100.0 * t.score(),
        100.0 * t.draw_ratio()
    );
    out += &format!("Elo difference (A - B): {e} (95% interval)\n");
    out += &format!("LOS: {:.1}%\n", 100.0 * t.los());
    if t.pairs() > 0 {
        let p = t.penta;
        out += &format!("Pairs (0, 0.5, 1, 1.5, 2 points for A): {} {} {} {} {}\n", p[0], p[1], p[2], p[3], p[4]);
    }
    if let Some(sp) = sprt {
        let (llr, model) = sp.llr(t);
        let (lo, hi) = sp.bounds();
        let model = match model {
            SprtModel::Trinomial => "trinomial",
            SprtModel::Pentanomial => "pentanomial",
        };
        let verdict = match s.sprt {
            Some(SprtDecision::AcceptH1) => "H1 accepted (A is stronger by elo1)",
            Some(SprtDecision::AcceptH0) => "H0 accepted (A is not stronger by elo1)",
            _ => "no decision",
        };
        out += &format!("SPRT elo0={} elo1={} alpha={} beta={}: ", sp.elo0, sp.elo1, sp.alpha, sp.beta);
        match &s.decided_on {
            Some(d) if d.games() != t.games() => {
                let (at, _) = sp.llr(d);
                out += &format!(
                    "LLR {at:.3} [{lo:.3}, {hi:.3}] ({model}) after game {}: {verdict}; with the {} game(s) then being \
                     played: LLR {llr:.3}\n",
                    d.games(),
                    t.games() - d.games()
                );
            }
            _ => out += &format!("LLR {llr:.3} [{lo:.3}, {hi:.3}] ({model}): {verdict}\n"),
        }
    }
    let i = &s.incidents;
    out += &format!(
        "Incidents (A/B): illegal moves {}/{}, time losses {}/{}, crashes or stalls {}/{}\n",
        i.illegal_moves[0], i.illegal_moves[1], i.time_losses[0], i.time_losses[1], i.disconnects[0], i.disconnects[1]
    );
    out
}

/// A JSON number, or `null` for an infinite Elo bound (a match won or lost in every game).
fn finite(x: f64) -> Option<f64> {
    x.is_finite().then_some(x + 0.0)
}

/// The SPRT part of [`SummaryJson`].
#[derive(serde::Serialize)]
struct SprtJson {
    elo0: Option<f64>,
    elo1: Option<f64>,
    alpha: Option<f64>,
    beta: Option<f64>,
    llr: Option<f64>,
    lower: Option<f64>,
    upper: Option<f64>,
    model: &'static str,
    decision: Option<&'static str>,
    games_at_decision: Option<u64>,
    llr_at_decision: Option<f64>,
}

/// The final summary as `--json` writes it.
#[derive(serde::Serialize)]
struct SummaryJson<'a> {
    a: &'a str,
    b: &'a str,
    games: u64,
    wins: u64,
    draws: u64,
    losses: u64,
    pentanomial: Option<[u64; 5]>,
    score: Option<f64>,
    draw_ratio: Option<f64>,
    elo: Option<f64>,
    elo_low: Option<f64>,
    elo_high: Option<f64>,
    los: Option<f64>,
    sprt: Option<SprtJson>,
    illegal_moves: [u64; 2],
    time_losses: [u64; 2],
    disconnects: [u64; 2],
    seconds: Option<f64>,
    interrupted: bool,
}

/// The final summary as one JSON object (`--json`): the figures of [`summary_text`], counts as
/// integers, every pair of per-player counts as `[A, B]`.
pub fn summary_json(s: &MatchSummary, sprt: Option<&Sprt>) -> String {
    let t = &s.tally;
    let e = t.elo();
    let sprt = sprt.map(|sp| {
        let (llr, model) = sp.llr(t);
        let (lower, upper) = sp.bounds();
        SprtJson {
            elo0: finite(sp.elo0),
            elo1: finite(sp.elo1),
            alpha: finite(sp.alpha),
            beta: finite(sp.beta),
            llr: finite(llr),
            lower: finite(lower),
            upper: finite(upper),
            model: match model {
                SprtModel::Trinomial => "trinomial",
                SprtModel::Pentanomial => "pentanomial",
            },
            decision: match s.sprt {
                Some(SprtDecision::AcceptH1) => Some("H1"),
                Some(SprtDecision::AcceptH0) => Some("H0"),
                _ => None,
            },
            games_at_decision: s.decided_on.as_ref().map(|d| d.games()),
            llr_at_decision: s.decided_on.as_ref().and_then(|d| finite(sp.llr(d).0)),
        }
    });
    let i = &s.incidents;
    crate::explain::json::to_line(&SummaryJson {
        a: &s.a_name,
        b: &s.b_name,
        games: t.games(),
        wins: t.wins,
        draws: t.draws,
        losses: t.losses,
        pentanomial: (t.pairs() > 0).then_some(t.penta),
        score: finite(t.score()),
        draw_ratio: finite(t.draw_ratio()),
        elo: finite(e.elo),
        elo_low: finite(e.low),
        elo_high: finite(e.high),
        los: finite(t.los()),
        sprt,
        illegal_moves: i.illegal_moves,
        time_losses: i.time_losses,
        disconnects: i.disconnects,
        seconds: finite(s.elapsed.as_secs_f64()),
        interrupted: s.interrupted,
    })
}

/// Entry point of `arbiter selfplay`.
pub fn run(args: SelfplayArgs) -> ExitCode {
    let cfg = match build_config(&args) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    let sprt = cfg.sprt;
    let json = args.json;
    if !interrupt::install() {
        log::warn!("cannot catch Ctrl-C / SIGTERM: they will end the match without a summary");
    }
    match runner::run_match(cfg) {
        Ok(summary) => {
            if json {
                println!("{}", summary_json(&summary, sprt.as_ref()));
            } else {
                print!("{}", summary_text(&summary, sprt.as_ref()));
            }
            match interrupt::signal() {
                // The shell's convention for a process ended by a signal.
                Some(sig) if summary.interrupted => ExitCode::from((128 + sig).clamp(0, 255) as u8),
                _ => ExitCode::SUCCESS,
            }
        }
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(1)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use runner::Incidents;
    use stats::Tally;

    fn summary(tally: Tally) -> MatchSummary {
        MatchSummary {
            a_name: "New \"A\"".into(),
            b_name: "Old".into(),
            tally,
            incidents: Incidents { illegal_moves: [0, 1], time_losses: [2, 0], disconnects: [0, 3] },
            sprt: Some(SprtDecision::AcceptH1),
            decided_on: None,
            elapsed: Duration::from_millis(2500),
            records: Vec::new(),
            interrupted: false,
        }
    }

    /// A game still being played when the SPRT decides is counted after it: the summary gives
    /// the LLR at the decision, and the final one apart.
    #[test]
    fn the_summary_gives_the_llr_at_the_decision() {
        let sprt = Sprt::parse("elo0=0 elo1=10").unwrap();
        let at = Tally { wins: 5, draws: 2, losses: 1, penta: [0, 0, 1, 2, 1] };
        let mut s = summary(Tally { losses: 2, penta: [0, 0, 1, 2, 1], ..at.clone() });
        s.decided_on = Some(at.clone());
        let (before, _) = sprt.llr(&at);
        let (after, _) = sprt.llr(&s.tally);
        let text = summary_text(&s, Some(&sprt));
        let expected = format!("LLR {before:.3} [-2.944, 2.944] (pentanomial) after game 8: H1 accepted");
        assert!(text.contains(&expected), "{expected} not in {text}");
        assert!(text.contains(&format!("with the 1 game(s) then being played: LLR {after:.3}")), "{text}");
        let json = summary_json(&s, Some(&sprt));
        assert!(json.contains(&format!(r#""llr":{after},"#)), "{json}");
        assert!(json.contains(&format!(r#""games_at_decision":8,"llr_at_decision":{before}}}"#)), "{json}");
    }

    #[test]
    fn the_json_summary_is_one_object_with_every_figure() {
        let sprt = Sprt::parse("elo0=0 elo1=10").unwrap();
        let s = summary(Tally { wins: 5, draws: 2, losses: 1, penta: [0, 0, 1, 2, 1] });
        let json = summary_json(&s, Some(&sprt));
        let (llr, _) = sprt.llr(&s.tally);
        let e = s.tally.elo();
        for field in [
            r#"{"a":"New \"A\"","b":"Old","games":8,"wins":5,"draws":2,"losses":1,"pentanomial":[0,0,1,2,1],"#
                .to_string(),
            format!(r#""elo":{},"elo_low":{},"elo_high":{},"#, e.elo, e.low, e.high),
            format!(
                r#""llr":{llr},"lower":-2.9444389791664403,"upper":2.9444389791664403,"model":"pentanomial","decision":"H1","games_at_decision":null,"llr_at_decision":null}}"#
            ),
            r#""illegal_moves":[0,1],"time_losses":[2,0],"disconnects":[0,3],"seconds":2.5,"interrupted":false}"#
                .into(),
        ] {
            assert!(json.contains(&field), "{field} not in {json}");
        }
        assert!(!json.contains('\n'));
        // No pairs: no pentanomial; every game won: the interval has no upper end; no SPRT.
        let won = summary(Tally { wins: 3, draws: 0, losses: 0, penta: [0; 5] });
        let json = summary_json(&won, None);
        assert!(json.contains(r#""pentanomial":null,"#) && json.contains(r#""elo":null,"#), "{json}");
        assert!(json.contains(r#""sprt":null,"#), "{json}");
    }
}
