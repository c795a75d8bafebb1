//! The match: schedules games over `concurrency` worker threads (each owning one instance of
//! each player), writes PGN and training data as games finish, keeps the statistics and stops
//! early on an SPRT decision.

use super::export::{self, PgnContext};
use super::game::{play_game, EndReason, GameConfig, GameRecord};
use super::player::{Player, PlayerError};
use super::stats::{signed_elo, Sprt, SprtDecision, Tally};
use crate::chess::{Color, Position};
use crate::data::records;
use std::collections::HashMap;
use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{mpsc, Arc};
use std::time::{Duration, Instant};

/// Makes a fresh player (one per worker thread).
pub type PlayerFactory = Arc<dyn Fn() -> Result<Box<dyn Player>, PlayerError> + Send + Sync>;

pub struct MatchConfig {
    pub game: GameConfig,
    /// Starting positions; game pair `k` uses `openings[k % len]`.
    pub openings: Vec<Position>,
    pub games: usize,
    /// Play each opening twice, colours reversed (game pairs).
    pub repeat: bool,
    pub concurrency: usize,
    pub sprt: Option<Sprt>,
    pub pgn: Option<PathBuf>,
    /// Training data lines ([`crate::data::lines::write`]) ...
    pub datagen: Option<PathBuf>,
    /// ... past this many plies of every game.
    pub datagen_skip: u32,
    /// Game records ([`records`]).
    pub records: Option<PathBuf>,
    pub event: String,
    pub time_control: String,
    pub progress: bool,
    /// Keep every game's record in [`MatchSummary::records`] (tests, tools). Off for the
    /// command line: games are written to PGN as they end, and a long match must not grow
    /// in memory with the number of games (each record is ~18 KB: moves, clocks, comments).
    pub keep_records: bool,
    pub a: PlayerFactory,
    pub b: PlayerFactory,
}

/// Game `index`'s opening (an index into the openings, before wrapping) and whether A has White:
/// with `repeat` each opening is a pair with colours swapped, without it one game each with
/// colours alternating.
fn schedule(index: usize, repeat: bool) -> (usize, bool) {
    (if repeat { index / 2 } else { index }, index.is_multiple_of(2))
}

/// How many games of [`schedule`] differ in their opening or colours before it repeats one: an
/// even number of openings without `repeat` comes round with the same colours after one pass,
/// an odd number after two.
pub fn distinct_games(openings: usize, repeat: bool) -> usize {
    if repeat || openings % 2 == 1 {
        openings.saturating_mul(2)
    } else {
        openings
    }
}

/// Counters per player (index 0 = A, 1 = B).
#[derive(Clone, Debug, Default)]
pub struct Incidents {
    pub illegal_moves: [u64; 2],
    pub time_losses: [u64; 2],
    pub disconnects: [u64; 2],
}

/// What the match produced.
#[derive(Clone, Debug)]
pub struct MatchSummary {
    pub a_name: String,
    pub b_name: String,
    pub tally: Tally,
    pub incidents: Incidents,
    pub sprt: Option<SprtDecision>,
    /// The tally when the SPRT decided: the games still being played then finish and are
    /// counted in `tally`, so its LLR can fall back inside the bounds.
    pub decided_on: Option<Tally>,
    pub elapsed: Duration,
    /// Every game's record, by game index, when [`MatchConfig::keep_records`]; else empty.
    pub records: Vec<(usize, bool, GameRecord)>,
    /// The match was interrupted ([`super::game::GameConfig::interrupt`]) before its end:
    /// the figures count the finished games only.
    pub interrupted: bool,
}

impl MatchSummary {
    pub fn games_per_minute(&self) -> f64 {
        self.tally.games() as f64 * 60.0 / self.elapsed.as_secs_f64().max(1e-9)
    }
}

#[derive(Debug)]
pub enum MatchError {
    NoPlayer(String),
    Output { path: String, error: String },
}

impl std::fmt::Display for MatchError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            MatchError::NoPlayer(e) => write!(f, "cannot start the players: {e}"),
            MatchError::Output { path, error } => write!(f, "cannot write {path}: {error}"),
        }
    }
}

impl std::error::Error for MatchError {}

enum Event {
    Started { a: String, b: String },
    Failed(String),
    Done { index: usize, a_white: bool, rec: Box<GameRecord> },
}

fn open_output(path: &Option<PathBuf>) -> Result<Option<std::io::BufWriter<std::fs::File>>, MatchError> {
    match path {
        None => Ok(None),
        Some(p) => std::fs::File::create(p)
            .map(|f| Some(std::io::BufWriter::new(f)))
            .map_err(|e| MatchError::Output { path: p.display().to_string(), error: e.to_string() }),
    }
}

/// Runs the match to the end (or to an SPRT decision).
pub fn run_match(cfg: MatchConfig) -> Result<MatchSummary, MatchError> {
    let mut pgn_out = open_output(&cfg.pgn)?;
    let mut data_out = open_output(&cfg.datagen)?;
    let mut records_out = open_output(&cfg.records)?;
    let cfg = Arc::new(cfg);
    let next = Arc::new(AtomicUsize::new(0));
    let stop = Arc::new(AtomicBool::new(false));
    let (tx, rx) = mpsc::channel::<Event>();
    let start = Instant::now();
    let workers = cfg.concurrency.clamp(1, cfg.games.max(1));
    let mut handles = Vec::new();
    for w in 0..workers {
        let (cfg, next, stop, tx) = (Arc::clone(&cfg), Arc::clone(&next), Arc::clone(&stop), tx.clone());
        let h = std::thread::Builder::new()
            .name(format!("selfplay-{w}"))
            .spawn(move || worker(&cfg, &next, &stop, &tx))
            .map_err(|e| MatchError::NoPlayer(e.to_string()))?;
        handles.push(h);
    }
    drop(tx);

    let date = export::pgn_date_today();
    let mut names: Option<(String, String)> = None;
    let mut tally = Tally::default();
    let progress_on_terminal = std::io::stderr().is_terminal();
    let mut incidents = Incidents::default();
    let mut pair_first: HashMap<usize, f64> = HashMap::new();
    let mut sprt_decision = None;
    let mut decided_on = None;
    let mut failures = Vec::new();
    let mut kept = Vec::new();
    let mut interrupted = false;
    loop {
        let ev = match rx.recv_timeout(Duration::from_millis(100)) {
            Ok(ev) => ev,
            Err(mpsc::RecvTimeoutError::Timeout) => {
                // No new game is started; the ones in progress abandon themselves.
                if cfg.game.interrupt.is_some_and(|f| f.load(Ordering::SeqCst)) {
                    interrupted = true;
                    stop.store(true, Ordering::SeqCst);
                }
                continue;
            }
            Err(mpsc::RecvTimeoutError::Disconnected) => break,
        };
        let (index, a_white, mut rec) = match ev {
            Event::Started { a, b } => {
                names.get_or_insert((a, b));
                continue;
            }
            Event::Failed(e) => {
                log::error!("{e}");
                failures.push(e);
                continue;
            }
            Event::Done { rec, .. } if rec.reason == EndReason::Interrupted => {
                interrupted = true;
                stop.store(true, Ordering::SeqCst);
                continue;
            }
            Event::Done { index, a_white, rec } => (index, a_white, *rec),
        };
        let (a_name, b_name) = names.clone().unwrap_or_default();
        if a_name == b_name {
            let (wa, ba) = if a_white { ("A", "B") } else { ("B", "A") };
            rec.white = format!("{} ({wa})", rec.white);
            rec.black = format!("{} ({ba})", rec.black);
        }
        let a_points = if a_white { rec.result.white_points() } else { 1.0 - rec.result.white_points() };
        tally.add_game(a_points);
        if cfg.repeat {
            match pair_first.remove(&(index / 2)) {
                Some(p) => tally.add_pair(p + a_points),
                None => {
                    pair_first.insert(index / 2, a_points);
                }
            }
        }
        let who = |c: Color| if (c == Color::White) == a_white { 0 } else { 1 };
        match &rec.reason {
            EndReason::IllegalMove { side, .. } => incidents.illegal_moves[who(*side)] += 1,
            EndReason::TimeForfeit(c) | EndReason::TimeForfeitNoMate(c) => incidents.time_losses[who(*c)] += 1,
            EndReason::Disconnected { side, .. } => incidents.disconnects[who(*side)] += 1,
            _ => {}
        }
        if let Some(out) = pgn_out.as_mut() {
            let ctx = PgnContext {
                event: &cfg.event,
                site: "arbiter selfplay",
                date: &date,
                round: &(index + 1).to_string(),
                time_control: &cfg.time_control,
            };
            match export::write_game(&rec, &ctx) {
                Ok(text) => {
                    if let Err(e) = out.write_all(text.as_bytes()).and_then(|_| out.flush()) {
                        log::error!("writing PGN: {e}");
                    }
                }
                Err(e) => log::error!("game {}: cannot write PGN: {e}", index + 1),
            }
        }
        if let Some(out) = data_out.as_mut() {
            match records::data_lines_of(&rec.start_fen, rec.result_text(), rec.scored_moves(), cfg.datagen_skip) {
                Ok(text) => {
                    if let Err(e) = out.write_all(text.as_bytes()).and_then(|_| out.flush()) {
                        log::error!("writing training data: {e}");
                    }
                }
                Err(e) => log::error!("game {}: no training data: {e}", index + 1),
            }
        }
        if let Some(out) = records_out.as_mut() {
            let line = records::record_line(&rec.start_fen, rec.result_text(), rec.scored_moves());
            if let Err(e) = out.write_all(line.as_bytes()).and_then(|_| out.flush()) {
                log::error!("writing game records: {e}");
            }
        }
        log::info!("game {} {} - {}: {} ({})", index + 1, rec.white, rec.black, rec.result.pgn(), rec.reason);
        if cfg.keep_records {
            kept.push((index, a_white, rec));
        }
        if let Some(sprt) = &cfg.sprt {
            let d = sprt.decision(&tally);
            if d != SprtDecision::Continue && sprt_decision.is_none() {
                sprt_decision = Some(d);
                decided_on = Some(tally.clone());
                stop.store(true, Ordering::SeqCst);
            }
        }
        if cfg.progress {
            let line = progress_line(&tally, cfg.games, cfg.sprt.as_ref());
            // A terminal shows one line rewritten in place (trailing blanks cover a longer previous
            // line); a log file gets a line per game (a carriage return there would make the match one line).
            if progress_on_terminal {
                eprint!("\r{line}   ");
            } else {
                eprintln!("{line}");
            }
        }
    }
    for h in handles {
        let _ = h.join();
    }
    if cfg.progress && progress_on_terminal {
        eprintln!();
    }
    if tally.games() == 0 && !failures.is_empty() {
        return Err(MatchError::NoPlayer(failures.join("; ")));
    }
    let (a_name, b_name) = names.unwrap_or_default();
    if let Some(sprt) = &cfg.sprt {
        if sprt_decision.is_none() {
            sprt_decision = Some(sprt.decision(&tally));
        }
    }
    kept.sort_by_key(|r| r.0);
    Ok(MatchSummary {
        a_name,
        b_name,
        tally,
        incidents,
        sprt: sprt_decision,
        decided_on,
        elapsed: start.elapsed(),
        records: kept,
        interrupted,
    })
}

fn worker(cfg: &MatchConfig, next: &AtomicUsize, stop: &AtomicBool, tx: &mpsc::Sender<Event>) {
    let mut a = match (cfg.a)() {
        Ok(p) => p,
        Err(e) => {
            let _ = tx.send(Event::Failed(format!("player A: {e}")));
            return;
        }
    };
    let mut b = match (cfg.b)() {
        Ok(p) => p,
        Err(e) => {
            let _ = tx.send(Event::Failed(format!("player B: {e}")));
            return;
        }
    };
    let _ = tx.send(Event::Started { a: a.name().to_string(), b: b.name().to_string() });
    loop {
        if stop.load(Ordering::SeqCst) || cfg.game.interrupt.is_some_and(|f| f.load(Ordering::SeqCst)) {
            return;
        }
        let index = next.fetch_add(1, Ordering::SeqCst);
        if index >= cfg.games {
            return;
        }
        let (opening_index, a_white) = schedule(index, cfg.repeat);
        let opening = cfg.openings[opening_index % cfg.openings.len()];
        let rec = if a_white {
            play_game(&opening, &mut *a, &mut *b, &cfg.game)
        } else {
            play_game(&opening, &mut *b, &mut *a, &cfg.game)
        };
        let restart_a = rec.restart[if a_white { 0 } else { 1 }];
        let restart_b = rec.restart[if a_white { 1 } else { 0 }];
        for (restart, p, label) in [(restart_a, &mut a, "A"), (restart_b, &mut b, "B")] {
            if restart {
                log::info!("restarting player {label} ({})", p.name());
                if let Err(e) = p.restart() {
                    log::error!("cannot restart player {label}: {e}");
                }
            }
        }
        if tx.send(Event::Done { index, a_white, rec: Box::new(rec) }).is_err() {
            return;
        }
    }
}

/// `games 12/100  +5 =4 -3  58.3%  Elo +58 [-40, +160]  LLR 0.52 [-2.94, 2.94]`
fn progress_line(t: &Tally, total: usize, sprt: Option<&Sprt>) -> String {
    let e = t.elo();
    let mut s = format!(
        "games {}/{}  +{} ={} -{}  {:.1}%  Elo {} [{}, {}]",
        t.games(),
        total,
        t.wins,
        t.draws,
        t.losses,
        100.0 * t.score(),
        signed_elo(e.elo, 0),
        signed_elo(e.low, 0),
        signed_elo(e.high, 0)
    );
    if let Some(sp) = sprt {
        let (llr, _) = sp.llr(t);
        let (lo, hi) = sp.bounds();
        s.push_str(&format!("  LLR {llr:.2} [{lo:.2}, {hi:.2}]"));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distinct_games_is_the_period_of_the_schedule() {
        for openings in 1..8 {
            for repeat in [false, true] {
                let game = |k: usize| {
                    let (o, a_white) = schedule(k, repeat);
                    (o % openings, a_white)
                };
                let n = distinct_games(openings, repeat);
                let first: Vec<_> = (0..n).map(game).collect();
                let mut unique = first.clone();
                unique.sort_unstable();
                unique.dedup();
                assert_eq!(unique.len(), n, "{openings} openings, repeat {repeat}");
                assert!((n..3 * n).all(|k| game(k) == first[k % n]), "{openings} openings, repeat {repeat}");
            }
        }
    }
}
