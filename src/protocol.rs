//! The UCI protocol's text, in both directions, for both ends of the pipe:
//!
//! - what a GUI sends and the engine reads: [`parse`] (text to [`Command`]), and, for a
//!   client such as self-play's external-engine player, [`position_line`] and [`go_line`];
//! - what the engine sends and a GUI reads: [`event_line`] ([`info_line`],
//!   [`currmove_line`], [`bestmove_line`]), and, for a client, [`parse_engine_line`] (text
//!   to [`EngineLine`]).
//!
//! Parsing never fails on unknown input: an unknown command becomes `Command::Unknown`, bad
//! parts become [`ParseError`]s the session reports as `info string` lines.

use crate::chess::{Move, STARTPOS_FEN};
use crate::engine::{Limits, Score, ScoreBound, SearchEvent, SearchInfo};
use std::fmt;
use std::time::Duration;

/// Where a `position` command starts from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PositionBase {
    StartPos,
    Fen(String),
}

/// The parameters of `go`, as text-level values (moves are checked by the session).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GoParams {
    /// Every search limit of `go`. `limits.searchmoves` stays empty: moves can only be
    /// read against the position, so their text is kept in `searchmoves`.
    pub limits: Limits,
    pub searchmoves: Vec<String>,
    /// `go perft N` (an extension).
    pub perft: Option<u32>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    Uci,
    Debug(bool),
    IsReady,
    SetOption {
        name: String,
        value: Option<String>,
    },
    UciNewGame,
    Position {
        base: PositionBase,
        moves: Vec<String>,
    },
    Go(GoParams),
    Stop,
    PonderHit,
    Quit,
    /// Extension: board diagram, FEN, key, checkers.
    Display,
    /// Extension: static evaluation with its terms.
    Eval,
    /// Extension: the bench (optional depth).
    Bench(Option<u32>),
    /// Extension: explain why a move is legal or illegal (answered by the rules module).
    /// `explain [MOVE] [en|zh]` (MOVE may be SAN with spaces, e.g. `exd6 e.p.`).
    Explain {
        text: String,
        lang: crate::explain::Lang,
    },
    /// An empty line.
    Empty,
    /// Not a command we know (ignored).
    Unknown(String),
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParseError {
    /// A `go`/`bench` parameter needs a non-negative number.
    BadNumber {
        param: String,
        value: String,
    },
    /// A `go` parameter's number does not fit (beyond 2^63 - 1).
    TooLarge {
        param: String,
        value: String,
    },
    MissingValue(String),
    /// `position` without `startpos` or `fen`.
    BadPosition(String),
    /// `setoption` without `name`.
    BadSetOption,
    BadDebug(String),
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseError::BadNumber { param, value } => write!(f, "'{param}' needs a non-negative number, got '{value}'"),
            ParseError::TooLarge { param, value } => write!(f, "'{param}' value '{value}' is too large"),
            ParseError::MissingValue(p) => write!(f, "'{p}' needs a value"),
            ParseError::BadPosition(t) => write!(f, "position: expected 'startpos' or 'fen', got '{t}'"),
            ParseError::BadSetOption => write!(f, "setoption: expected 'setoption name <name> [value <value>]'"),
            ParseError::BadDebug(t) => write!(f, "debug: expected 'on' or 'off', got '{t}'"),
        }
    }
}

impl std::error::Error for ParseError {}

const COMMANDS: &[&str] = &[
    "uci",
    "debug",
    "isready",
    "setoption",
    "ucinewgame",
    "position",
    "go",
    "stop",
    "ponderhit",
    "quit",
    "d",
    "eval",
    "bench",
    "explain",
];

/// Parses one input line. Leading unknown tokens are skipped (UCI: "if the engine
/// receives a token it doesn't know, it should ignore it and try to parse the rest").
/// Returns the command and any non-fatal problems (e.g. a bad number in `go`).
pub fn parse(line: &str) -> Result<(Command, Vec<ParseError>), ParseError> {
    let tokens: Vec<&str> = line.split_whitespace().collect();
    if tokens.is_empty() {
        return Ok((Command::Empty, Vec::new()));
    }
    let Some(start) = tokens.iter().position(|t| COMMANDS.contains(t)) else {
        return Ok((Command::Unknown(line.trim().to_string()), Vec::new()));
    };
    let args = &tokens[start + 1..];
    let mut warnings = Vec::new();
    let cmd = match tokens[start] {
        "uci" => Command::Uci,
        "isready" => Command::IsReady,
        "ucinewgame" => Command::UciNewGame,
        "stop" => Command::Stop,
        "ponderhit" => Command::PonderHit,
        "quit" => Command::Quit,
        "d" => Command::Display,
        "eval" => Command::Eval,
        "debug" => match args.first() {
            Some(&"on") => Command::Debug(true),
            Some(&"off") => Command::Debug(false),
            other => return Err(ParseError::BadDebug(other.unwrap_or(&"").to_string())),
        },
        "bench" => match args.first() {
            None => Command::Bench(None),
            Some(t) => match t.parse() {
                Ok(d) => Command::Bench(Some(d)),
                Err(_) => return Err(ParseError::BadNumber { param: "bench".into(), value: t.to_string() }),
            },
        },
        // `explain [MOVE] [en|zh]`: without a move, the position report.
        "explain" => {
            let lang_given = args.last().and_then(|t| crate::explain::Lang::parse(t));
            let move_args = if lang_given.is_some() { &args[..args.len() - 1] } else { args };
            Command::Explain { text: move_args.join(" "), lang: lang_given.unwrap_or(crate::explain::Lang::En) }
        }
        "setoption" => parse_setoption(args)?,
        "position" => parse_position(args)?,
        "go" => Command::Go(parse_go(args, &mut warnings)),
        _ => Command::Unknown(line.trim().to_string()),
    };
    Ok((cmd, warnings))
}

fn parse_setoption(args: &[&str]) -> Result<Command, ParseError> {
    if args.first() != Some(&"name") {
        return Err(ParseError::BadSetOption);
    }
    let rest = &args[1..];
    let value_at = rest.iter().position(|t| *t == "value");
    let (name, value) = match value_at {
        Some(i) => (rest[..i].join(" "), Some(rest[i + 1..].join(" "))),
        None => (rest.join(" "), None),
    };
    if name.is_empty() {
        return Err(ParseError::BadSetOption);
    }
    Ok(Command::SetOption { name, value })
}

fn parse_position(args: &[&str]) -> Result<Command, ParseError> {
    let moves_at = args.iter().position(|t| *t == "moves");
    let (head, moves) = match moves_at {
        Some(i) => (&args[..i], args[i + 1..].iter().map(|s| s.to_string()).collect()),
        None => (args, Vec::new()),
    };
    let base = match head.first() {
        Some(&"startpos") => PositionBase::StartPos,
        Some(&"fen") => PositionBase::Fen(head[1..].join(" ")),
        other => return Err(ParseError::BadPosition(other.unwrap_or(&"").to_string())),
    };
    Ok(Command::Position { base, moves })
}

fn parse_go(args: &[&str], warnings: &mut Vec<ParseError>) -> GoParams {
    let mut g = GoParams::default();
    let mut i = 0;
    while i < args.len() {
        let t = args[i];
        i += 1;
        let mut number = |i: &mut usize| -> Option<u64> {
            let Some(v) = args.get(*i) else {
                warnings.push(ParseError::MissingValue(t.to_string()));
                return None;
            };
            *i += 1;
            // Some GUIs send negative clock times when a player is in time trouble.
            match v.parse::<i64>() {
                Ok(n) => Some(n.max(0) as u64),
                Err(e) if *e.kind() == std::num::IntErrorKind::PosOverflow => {
                    warnings.push(ParseError::TooLarge { param: t.to_string(), value: v.to_string() });
                    None
                }
                Err(_) => {
                    warnings.push(ParseError::BadNumber { param: t.to_string(), value: v.to_string() });
                    None
                }
            }
        };
        let ms = Duration::from_millis;
        match t {
            "wtime" => g.limits.wtime = number(&mut i).map(ms),
            "btime" => g.limits.btime = number(&mut i).map(ms),
            "winc" => g.limits.winc = number(&mut i).map(ms),
            "binc" => g.limits.binc = number(&mut i).map(ms),
            "movestogo" => g.limits.movestogo = number(&mut i).map(|n| n.min(u32::MAX as u64) as u32),
            "depth" => g.limits.depth = number(&mut i).map(|n| n.min(1000) as u32),
            "nodes" => g.limits.nodes = number(&mut i),
            "mate" => g.limits.mate = number(&mut i).map(|n| n.min(1000) as u32),
            "movetime" => g.limits.movetime = number(&mut i).map(ms),
            "perft" => g.perft = number(&mut i).map(|n| n.min(64) as u32),
            "infinite" => g.limits.infinite = true,
            "ponder" => g.limits.ponder = true,
            "searchmoves" => {
                while i < args.len() && crate::chess::notation::parse_uci_squares(args[i]).is_some() {
                    g.searchmoves.push(args[i].to_string());
                    i += 1;
                }
            }
            _ => {} // unknown token: ignored
        }
    }
    g
}

// ---------------------------------------------------------------------------------------
// The engine's side of the conversation, as text.

/// The protocol line for a search event.
pub fn event_line(e: &SearchEvent) -> String {
    match e {
        SearchEvent::Info(i) => info_line(i),
        SearchEvent::CurrMove { depth, mv, number } => currmove_line(*depth, *mv, *number),
        SearchEvent::BestMove(r) => bestmove_line(r.best, r.ponder),
    }
}

/// `info depth D currmove M currmovenumber N`: the root move being searched.
fn currmove_line(depth: u32, mv: Move, number: u32) -> String {
    format!("info depth {depth} currmove {mv} currmovenumber {number}")
}

/// `info depth D seldepth S multipv K score cp X [lowerbound|upperbound] nodes N nps N
/// hashfull N [tbhits N] time T pv ...` for one PV line of an iteration (`tbhits` when
/// tables are loaded).
pub fn info_line(i: &SearchInfo) -> String {
    let mut s = format!("info depth {} seldepth {} multipv {} score {}", i.depth, i.seldepth, i.multipv, i.score);
    match i.bound {
        ScoreBound::Lower => s.push_str(" lowerbound"),
        ScoreBound::Upper => s.push_str(" upperbound"),
        ScoreBound::Exact => {}
    }
    if let Some(w) = i.wdl {
        s.push_str(&format!(" wdl {} {} {}", w.win, w.draw, w.loss));
    }
    s.push_str(&format!(" nodes {} nps {} hashfull {}", i.nodes, i.nps, i.hashfull));
    if let Some(hits) = i.tbhits {
        s.push_str(&format!(" tbhits {hits}"));
    }
    s.push_str(&format!(" time {}", i.time.as_millis()));
    if !i.pv.is_empty() {
        s.push_str(" pv");
        for m in &i.pv {
            s.push_str(&format!(" {m}"));
        }
    }
    s
}

/// `bestmove M [ponder P]`, or `bestmove 0000` when there is no legal move.
fn bestmove_line(best: Option<Move>, ponder: Option<Move>) -> String {
    match (best, ponder) {
        (Some(b), Some(p)) => format!("bestmove {b} ponder {p}"),
        (Some(b), None) => format!("bestmove {b}"),
        (None, _) => "bestmove 0000".to_string(),
    }
}

// ---------------------------------------------------------------------------------------
// The client's side (a GUI, or self-play driving an external engine).

/// `position startpos [moves ...]` or `position fen F [moves ...]`.
pub fn position_line(start_fen: &str, moves: &[Move]) -> String {
    let mut s =
        if start_fen == STARTPOS_FEN { "position startpos".to_string() } else { format!("position fen {start_fen}") };
    if !moves.is_empty() {
        s.push_str(" moves");
        for m in moves {
            s.push_str(&format!(" {m}"));
        }
    }
    s
}

/// The `go` command for `limits` (every limit that is set, in the order of the UCI
/// specification); [`parse`] reads it back to the same limits.
pub fn go_line(limits: &Limits) -> String {
    let mut s = "go".to_string();
    let ms = |name: &str, d: Option<Duration>| d.map(|d| format!(" {name} {}", d.as_millis())).unwrap_or_default();
    let num = |name: &str, n: Option<u64>| n.map(|n| format!(" {name} {n}")).unwrap_or_default();
    if !limits.searchmoves.is_empty() {
        s.push_str(" searchmoves");
        for m in &limits.searchmoves {
            s.push_str(&format!(" {m}"));
        }
    }
    if limits.ponder {
        s.push_str(" ponder");
    }
    s.push_str(&ms("wtime", limits.wtime));
    s.push_str(&ms("btime", limits.btime));
    s.push_str(&ms("winc", limits.winc));
    s.push_str(&ms("binc", limits.binc));
    s.push_str(&num("movestogo", limits.movestogo.map(u64::from)));
    s.push_str(&num("depth", limits.depth.map(u64::from)));
    s.push_str(&num("nodes", limits.nodes));
    s.push_str(&num("mate", limits.mate.map(u64::from)));
    s.push_str(&ms("movetime", limits.movetime));
    if limits.infinite {
        s.push_str(" infinite");
    }
    s
}

/// One line an engine writes, as a client reads it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EngineLine {
    /// `id name NAME`.
    IdName(String),
    UciOk,
    ReadyOk,
    /// An `info` line: its depth, and its score unless that is only a bound.
    Info {
        depth: Option<u32>,
        score: Option<Score>,
    },
    /// `bestmove M [ponder P]`, the moves as text (unchecked).
    BestMove {
        best: String,
        ponder: Option<String>,
    },
    /// `option name NAME type TYPE ...`: the option's name (it may hold spaces) and, for a
    /// `spin`, its range (None when the line gives none).
    OptionDecl {
        name: String,
        spin: Option<(i64, i64)>,
    },
    /// Anything else (`id author`, `info string` is an `Info` without values).
    Other,
}

/// Reads one line of engine output.
pub fn parse_engine_line(line: &str) -> EngineLine {
    let words: Vec<&str> = line.split_whitespace().collect();
    match words.as_slice() {
        ["id", "name", ..] => EngineLine::IdName(words[2..].join(" ")),
        ["uciok", ..] => EngineLine::UciOk,
        ["readyok", ..] => EngineLine::ReadyOk,
        ["bestmove", rest @ ..] => EngineLine::BestMove {
            best: rest.first().map(|s| s.to_string()).unwrap_or_default(),
            ponder: match rest {
                [_, "ponder", p, ..] => Some(p.to_string()),
                _ => None,
            },
        },
        ["info", rest @ ..] => parse_info(rest),
        ["option", "name", rest @ ..] => parse_option_decl(rest),
        _ => EngineLine::Other,
    }
}

/// The words after `option name`: the name runs up to `type`; a spin's `min` and `max`.
fn parse_option_decl(words: &[&str]) -> EngineLine {
    let Some(t) = words.iter().position(|w| *w == "type") else { return EngineLine::Other };
    if t == 0 {
        return EngineLine::Other;
    }
    let value_after = |key: &str| {
        words[t..].iter().position(|w| *w == key).and_then(|i| words.get(t + i + 1)).and_then(|w| w.parse().ok())
    };
    let spin = match words.get(t + 1) {
        Some(&"spin") => value_after("min").zip(value_after("max")),
        _ => None,
    };
    EngineLine::OptionDecl { name: words[..t].join(" "), spin }
}

/// `depth N` and `score cp N` / `score mate N` of an `info` line (a bounded score is not a
/// score; everything after `pv` or `string` is not read).
fn parse_info(words: &[&str]) -> EngineLine {
    let (mut score, mut depth) = (None, None);
    let mut i = 0;
    while i < words.len() {
        match words[i] {
            "depth" => depth = words.get(i + 1).and_then(|w| w.parse().ok()),
            "score" => {
                let bound = words.get(i + 3).is_some_and(|w| *w == "lowerbound" || *w == "upperbound");
                if !bound {
                    score = match (words.get(i + 1), words.get(i + 2).and_then(|w| w.parse::<i32>().ok())) {
                        (Some(&"cp"), Some(v)) => Some(Score::Cp(v)),
                        (Some(&"mate"), Some(v)) => Some(Score::Mate(v)),
                        _ => None,
                    };
                }
            }
            "pv" | "string" => break,
            _ => {}
        }
        i += 1;
    }
    EngineLine::Info { depth, score }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cmd(s: &str) -> Command {
        parse(s).unwrap().0
    }

    #[test]
    fn parses_the_common_commands() {
        assert_eq!(cmd("uci\r"), Command::Uci);
        assert_eq!(cmd("   "), Command::Empty);
        assert_eq!(cmd("joho debug on"), Command::Debug(true));
        assert_eq!(
            cmd("setoption name Move Overhead value 30"),
            Command::SetOption { name: "Move Overhead".into(), value: Some("30".into()) }
        );
        assert_eq!(cmd("setoption name Clear Hash"), Command::SetOption { name: "Clear Hash".into(), value: None });
        assert_eq!(
            cmd("position startpos moves e2e4  e7e5"),
            Command::Position { base: PositionBase::StartPos, moves: vec!["e2e4".into(), "e7e5".into()] }
        );
        assert_eq!(
            cmd("position fen 8/8/8/8/8/8/8/K1k5 w - - 0 1"),
            Command::Position { base: PositionBase::Fen("8/8/8/8/8/8/8/K1k5 w - - 0 1".into()), moves: vec![] }
        );
        let Command::Go(g) = cmd("go wtime 1000 btime -5 winc 10 movestogo 5 searchmoves e2e4 d2d4 ponder") else {
            panic!()
        };
        assert_eq!(g.limits.wtime, Some(Duration::from_millis(1000)));
        assert_eq!(g.limits.btime, Some(Duration::ZERO));
        assert_eq!(g.limits.movestogo, Some(5));
        assert_eq!(g.searchmoves, vec!["e2e4".to_string(), "d2d4".to_string()]);
        assert!(g.limits.ponder);
        assert!(matches!(cmd("frobnicate"), Command::Unknown(_)));
    }

    #[test]
    fn reports_bad_parts() {
        let (c, w) = parse("go depth x").unwrap();
        assert_eq!(c, Command::Go(GoParams::default()));
        assert_eq!(w.len(), 1);
        // A number too large for the clock is named as such (not "needs a non-negative number").
        let (c, w) = parse("go wtime 18446744073709551615").unwrap();
        assert_eq!(c, Command::Go(GoParams::default()));
        assert_eq!(w.len(), 1);
        assert_eq!(w[0].to_string(), "'wtime' value '18446744073709551615' is too large");
        let (_, w) = parse("go btime -99999999999999999999").unwrap();
        assert!(w[0].to_string().contains("non-negative"), "{}", w[0]);
        assert!(parse("position banana").is_err());
        assert!(parse("setoption value 3").is_err());
    }

    #[test]
    fn go_lines_read_back() {
        let ms = Duration::from_millis;
        let clock = Limits {
            wtime: Some(ms(9000)),
            btime: Some(ms(8500)),
            winc: Some(ms(100)),
            binc: Some(ms(100)),
            movestogo: Some(12),
            ..Limits::default()
        };
        assert_eq!(go_line(&clock), "go wtime 9000 btime 8500 winc 100 binc 100 movestogo 12");
        let nodes = Limits { nodes: Some(5000), ..Limits::default() };
        assert_eq!(go_line(&nodes), "go nodes 5000");
        let depth_time = Limits { depth: Some(7), movetime: Some(ms(250)), ..Limits::default() };
        for limits in [clock, nodes, depth_time, Limits { infinite: true, ponder: true, ..Limits::default() }] {
            let Command::Go(g) = cmd(&go_line(&limits)) else { panic!("{}", go_line(&limits)) };
            assert_eq!(g.limits, limits);
        }
    }

    #[test]
    fn engine_output_lines() {
        assert_eq!(parse_engine_line("id name Arbiter 0.1.0"), EngineLine::IdName("Arbiter 0.1.0".into()));
        assert_eq!(parse_engine_line("uciok"), EngineLine::UciOk);
        assert_eq!(
            parse_engine_line("bestmove e2e4 ponder e7e5"),
            EngineLine::BestMove { best: "e2e4".into(), ponder: Some("e7e5".into()) }
        );
        assert_eq!(parse_engine_line("bestmove"), EngineLine::BestMove { best: String::new(), ponder: None });
        let info = |depth, score| EngineLine::Info { depth, score };
        assert_eq!(
            parse_engine_line("info depth 12 seldepth 20 score cp 34 nodes 100 pv e2e4"),
            info(Some(12), Some(Score::Cp(34)))
        );
        assert_eq!(parse_engine_line("info depth 3 score mate -2 pv a1a2"), info(Some(3), Some(Score::Mate(-2))));
        assert_eq!(parse_engine_line("info depth 3 score cp 10 lowerbound"), info(Some(3), None));
        assert_eq!(parse_engine_line("info string score cp 5"), info(None, None));
        assert_eq!(
            parse_engine_line("option name Hash type spin"),
            EngineLine::OptionDecl { name: "Hash".into(), spin: None }
        );
        assert_eq!(
            parse_engine_line("option name Move Overhead type spin default 10 min 0 max 5000"),
            EngineLine::OptionDecl { name: "Move Overhead".into(), spin: Some((0, 5000)) }
        );
        assert_eq!(
            parse_engine_line("option name EvalFile type string default <embedded>"),
            EngineLine::OptionDecl { name: "EvalFile".into(), spin: None }
        );
        assert_eq!(parse_engine_line("option name type spin"), EngineLine::Other);
        assert_eq!(parse_engine_line("option name Hash"), EngineLine::Other);
    }

    #[test]
    fn what_the_engine_writes_a_client_reads() {
        let e2e4 = crate::chess::notation::parse_uci_move(&crate::chess::Position::startpos(), "e2e4").unwrap();
        let info = SearchInfo {
            depth: 9,
            seldepth: 14,
            multipv: 1,
            score: Score::Mate(-3),
            bound: ScoreBound::Exact,
            wdl: Some(crate::engine::wdl::Wdl { win: 0, draw: 20, loss: 980 }),
            nodes: 1000,
            nps: 5000,
            hashfull: 3,
            tbhits: None,
            time: Duration::from_millis(200),
            pv: vec![e2e4],
        };
        assert_eq!(
            info_line(&info),
            "info depth 9 seldepth 14 multipv 1 score mate -3 wdl 0 20 980 nodes 1000 nps 5000 hashfull 3 time 200 pv e2e4"
        );
        assert_eq!(
            parse_engine_line(&info_line(&info)),
            EngineLine::Info { depth: Some(9), score: Some(Score::Mate(-3)) }
        );
        assert_eq!(
            parse_engine_line(&bestmove_line(Some(e2e4), None)),
            EngineLine::BestMove { best: "e2e4".into(), ponder: None }
        );
        assert_eq!(bestmove_line(None, None), "bestmove 0000");
        assert_eq!(position_line(STARTPOS_FEN, &[e2e4]), "position startpos moves e2e4");
    }
}
