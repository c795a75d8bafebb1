//! Players: anything that, given a game so far and a limit, answers with a move. One trait,
//! two implementations: an external engine spoken to over real UCI ([`UciEngine`]) and, when
//! the engine is built into this binary, an in-process instance.
//!
//! A player never judges legality: it returns the move text it was given and the game loop
//! checks it with `chess::notation::parse_uci_move`.

use crate::chess::{Move, Position};
use crate::engine::{Limits, Score};
use crate::protocol::{self, EngineLine};
use std::fmt;
use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// Everything a player is told for one move.
pub struct GoRequest<'a> {
    /// FEN of the game's starting position.
    pub start_fen: &'a str,
    /// Moves played since then.
    pub moves: &'a [Move],
    /// The current position (after `moves`).
    pub position: &'a Position,
    /// Keys (FIDE 9.2.3 identity) of every position of the game so far, current one last.
    pub history: &'a [u64],
    pub limits: Limits,
    /// Give up waiting after this long (the flag has fallen or the engine stalled).
    pub deadline: Duration,
    /// Stop thinking and answer [`PlayerError::Interrupted`] as soon as this is set.
    pub interrupt: Option<&'static AtomicBool>,
}

impl GoRequest<'_> {
    fn interrupted(&self) -> bool {
        self.interrupt.is_some_and(|f| f.load(Ordering::SeqCst))
    }
}

/// How often a thinking player looks at [`GoRequest::interrupt`].
const INTERRUPT_POLL: Duration = Duration::from_millis(50);

/// A player's answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reply {
    /// The move in UCI text, unchecked.
    pub best: String,
    pub score: Option<Score>,
    pub depth: Option<u32>,
    /// From sending `go` to receiving `bestmove`.
    pub elapsed: Duration,
}

/// Why a player failed to answer. After any of these the player is restarted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PlayerError {
    Spawn {
        cmd: String,
        error: String,
    },
    /// No `uciok` / `readyok` in time, or the engine said something impossible.
    Handshake(String),
    /// The process exited or closed its pipes.
    Crashed(String),
    /// No `bestmove` before the deadline.
    NoReply {
        waited: Duration,
    },
    /// The match was interrupted while the player was thinking.
    Interrupted,
    Internal(String),
}

impl fmt::Display for PlayerError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlayerError::Spawn { cmd, error } => write!(f, "cannot start engine '{cmd}': {error}"),
            PlayerError::Handshake(s) => write!(f, "UCI handshake failed: {s}"),
            PlayerError::Crashed(s) => write!(f, "engine crashed: {s}"),
            PlayerError::NoReply { waited } => write!(f, "no bestmove after {:.2}s", waited.as_secs_f64()),
            PlayerError::Interrupted => write!(f, "interrupted"),
            PlayerError::Internal(s) => write!(f, "internal player error: {s}"),
        }
    }
}

impl std::error::Error for PlayerError {}

/// One side of a game.
pub trait Player: Send {
    /// The name for the PGN tags.
    fn name(&self) -> &str;
    /// Called before each game (`ucinewgame`).
    fn new_game(&mut self) -> Result<(), PlayerError>;
    /// Chooses a move.
    fn go(&mut self, req: &GoRequest) -> Result<Reply, PlayerError>;
    /// Throws the engine away and starts a fresh one (after a crash, stall or illegal move).
    fn restart(&mut self) -> Result<(), PlayerError>;
}

/// An external UCI engine as configured on the command line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineSpec {
    /// PGN name; defaults to the engine's `id name`.
    pub name: Option<String>,
    pub program: PathBuf,
    pub args: Vec<String>,
    /// `setoption name K value V`, in order.
    pub options: Vec<(String, String)>,
}

/// A malformed `--opponent` / `--a` / `--b` text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SpecError {
    UnbalancedQuote(String),
    NoCommand(String),
    BadItem(String),
}

impl fmt::Display for SpecError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SpecError::UnbalancedQuote(s) => write!(f, "unbalanced quote in engine spec '{s}'"),
            SpecError::NoCommand(s) => write!(f, "engine spec '{s}' has no cmd=PROGRAM"),
            SpecError::BadItem(s) => {
                write!(f, "engine spec item '{s}' is not one of cmd=PROGRAM, arg=ARG, name=NAME, option.NAME=VALUE")
            }
        }
    }
}

impl std::error::Error for SpecError {}

/// Splits on whitespace outside single or double quotes, removing the quotes.
fn split_words(text: &str) -> Result<Vec<String>, SpecError> {
    let mut words = Vec::new();
    let mut cur = String::new();
    let mut in_word = false;
    let mut quote: Option<char> = None;
    for c in text.chars() {
        match quote {
            Some(q) if c == q => quote = None,
            Some(_) => cur.push(c),
            None if c == '"' || c == '\'' => {
                quote = Some(c);
                in_word = true;
            }
            None if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut cur));
                    in_word = false;
                }
            }
            None => {
                cur.push(c);
                in_word = true;
            }
        }
    }
    if quote.is_some() {
        return Err(SpecError::UnbalancedQuote(text.to_string()));
    }
    if in_word {
        words.push(cur);
    }
    Ok(words)
}

/// Parses an option set `Hash=64 Threads=1 Move Overhead=30`: a word without `=` belongs to
/// the name of the next `NAME=VALUE` (UCI option names may contain spaces).
pub fn parse_option_set(text: &str) -> Result<Vec<(String, String)>, SpecError> {
    let mut out = Vec::new();
    let mut pending: Vec<String> = Vec::new();
    for w in split_words(text)? {
        match w.split_once('=') {
            Some((k, v)) => {
                pending.push(k.to_string());
                let name = pending.join(" ");
                pending.clear();
                if name.trim().is_empty() {
                    return Err(SpecError::BadItem(w));
                }
                out.push((name, v.to_string()));
            }
            None => pending.push(w),
        }
    }
    if !pending.is_empty() {
        return Err(SpecError::BadItem(pending.join(" ")));
    }
    Ok(out)
}

impl EngineSpec {
    /// A plain program with no arguments or options.
    pub fn program(path: impl Into<PathBuf>) -> EngineSpec {
        EngineSpec { name: None, program: path.into(), args: Vec::new(), options: Vec::new() }
    }

    /// Parses `cmd=PROGRAM [arg=ARG]... [name=NAME] [option.NAME=VALUE]...`. `cmd` may hold
    /// arguments after the program when quoted: `cmd="gnuchess --uci"`.
    pub fn parse(text: &str) -> Result<EngineSpec, SpecError> {
        let mut spec = EngineSpec::program("");
        let mut have_cmd = false;
        for w in split_words(text)? {
            let Some((k, v)) = w.split_once('=') else { return Err(SpecError::BadItem(w)) };
            if let Some(opt) = k.strip_prefix("option.") {
                if opt.is_empty() {
                    return Err(SpecError::BadItem(w));
                }
                spec.options.push((opt.to_string(), v.to_string()));
                continue;
            }
            match k {
                "cmd" => {
                    let mut parts = v.split_whitespace();
                    let Some(prog) = parts.next() else { return Err(SpecError::NoCommand(text.to_string())) };
                    spec.program = PathBuf::from(prog);
                    spec.args.extend(parts.map(str::to_string));
                    have_cmd = true;
                }
                "arg" => spec.args.push(v.to_string()),
                "name" => spec.name = Some(v.to_string()),
                _ => return Err(SpecError::BadItem(w)),
            }
        }
        if !have_cmd {
            return Err(SpecError::NoCommand(text.to_string()));
        }
        Ok(spec)
    }

    pub fn command_line(&self) -> String {
        std::iter::once(self.program.display().to_string())
            .chain(self.args.iter().cloned())
            .collect::<Vec<_>>()
            .join(" ")
    }
}

enum Line {
    Text(Instant, String),
    Eof,
}

/// A running external engine.
struct Process {
    child: Child,
    stdin: ChildStdin,
    rx: Receiver<Line>,
    reader: Option<JoinHandle<()>>,
}

impl Process {
    fn spawn(spec: &EngineSpec) -> Result<Process, PlayerError> {
        let mut command = Command::new(&spec.program);
        command.args(&spec.args).stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::null());
        // Its own process group: a Ctrl-C in the terminal reaches only self-play, which
        // then tells the engine to quit, instead of killing it behind self-play's back.
        #[cfg(unix)]
        std::os::unix::process::CommandExt::process_group(&mut command, 0);
        let mut child =
            command.spawn().map_err(|e| PlayerError::Spawn { cmd: spec.command_line(), error: e.to_string() })?;
        let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            let _ = child.kill();
            let _ = child.wait();
            return Err(PlayerError::Spawn { cmd: spec.command_line(), error: "no pipes".into() });
        };
        let (tx, rx) = mpsc::channel();
        let reader = std::thread::Builder::new()
            .name("uci-reader".into())
            .spawn(move || {
                let mut r = BufReader::new(stdout);
                let mut buf = Vec::new();
                loop {
                    buf.clear();
                    match r.read_until(b'\n', &mut buf) {
                        Ok(0) | Err(_) => {
                            let _ = tx.send(Line::Eof);
                            return;
                        }
                        Ok(_) => {
                            let now = Instant::now();
                            let text = String::from_utf8_lossy(&buf).trim().to_string();
                            if tx.send(Line::Text(now, text)).is_err() {
                                return;
                            }
                        }
                    }
                }
            })
            .map_err(|e| PlayerError::Internal(e.to_string()))?;
        Ok(Process { child, stdin, rx, reader: Some(reader) })
    }

    fn send(&mut self, line: &str) -> Result<(), PlayerError> {
        log::trace!("> {line}");
        writeln!(self.stdin, "{line}")
            .and_then(|_| self.stdin.flush())
            .map_err(|e| PlayerError::Crashed(format!("writing '{line}': {e}")))
    }

    /// Next line before `until`; `Ok(None)` on timeout.
    fn recv(&mut self, until: Instant) -> Result<Option<(Instant, String)>, PlayerError> {
        let wait = until.saturating_duration_since(Instant::now());
        match self.rx.recv_timeout(wait) {
            Ok(Line::Text(t, s)) => {
                log::trace!("< {s}");
                Ok(Some((t, s)))
            }
            Ok(Line::Eof) | Err(RecvTimeoutError::Disconnected) => {
                Err(PlayerError::Crashed(match self.child.try_wait() {
                    Ok(Some(status)) => format!("exited ({status})"),
                    _ => "closed its output".to_string(),
                }))
            }
            Err(RecvTimeoutError::Timeout) => Ok(None),
        }
    }

    /// Reads until the line `expected` (`uciok`, `readyok`); returns the lines before it,
    /// read; error on timeout.
    fn wait_for(&mut self, expected: EngineLine, timeout: Duration) -> Result<Vec<EngineLine>, PlayerError> {
        let until = Instant::now() + timeout;
        let mut seen = Vec::new();
        loop {
            match self.recv(until)? {
                Some((_, s)) => match protocol::parse_engine_line(&s) {
                    line if line == expected => return Ok(seen),
                    line => seen.push(line),
                },
                None => {
                    let what = if expected == EngineLine::UciOk { "uciok" } else { "readyok" };
                    return Err(PlayerError::Handshake(format!("no '{what}' within {:.1}s", timeout.as_secs_f64())));
                }
            }
        }
    }

    /// Asks politely, then kills, and always reaps.
    fn shutdown(mut self) {
        let _ = self.send("quit");
        let until = Instant::now() + Duration::from_millis(500);
        loop {
            match self.child.try_wait() {
                Ok(Some(_)) => break,
                Ok(None) if Instant::now() < until => std::thread::sleep(Duration::from_millis(10)),
                _ => {
                    let _ = self.child.kill();
                    let _ = self.child.wait();
                    break;
                }
            }
        }
        // The reader thread ends by itself at EOF; it is not joined, because a grandchild
        // process (a wrapper script's engine) could keep the pipe open.
        drop(self.reader.take());
    }
}

/// An external engine over UCI. Dropping it quits and reaps the process.
pub struct UciEngine {
    spec: EngineSpec,
    name: String,
    proc: Option<Process>,
    handshake_timeout: Duration,
}

impl UciEngine {
    /// Starts the engine and completes `uci`/`uciok`, the options and `isready`/`readyok`.
    pub fn start(spec: EngineSpec, handshake_timeout: Duration) -> Result<UciEngine, PlayerError> {
        let mut e = UciEngine { name: spec.name.clone().unwrap_or_default(), spec, proc: None, handshake_timeout };
        e.launch()?;
        Ok(e)
    }

    fn launch(&mut self) -> Result<(), PlayerError> {
        if let Some(p) = self.proc.take() {
            p.shutdown();
        }
        let mut p = Process::spawn(&self.spec)?;
        let result = (|| {
            p.send("uci")?;
            let lines = p.wait_for(EngineLine::UciOk, self.handshake_timeout)?;
            if self.spec.name.is_none() {
                if let Some(n) = lines.iter().find_map(|l| match l {
                    EngineLine::IdName(n) => Some(n),
                    _ => None,
                }) {
                    self.name = n.clone();
                }
                if self.name.is_empty() {
                    self.name =
                        self.spec.program.file_name().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
                }
            }
            // An engine ignores an option it does not have (UCI has no refusal): check each
            // against what it declared, so a typo or an out-of-range value stops the match
            // instead of playing it with the default.
            for (k, v) in &self.spec.options {
                let declared = lines.iter().find_map(|l| match l {
                    EngineLine::OptionDecl { name, spin } if name.eq_ignore_ascii_case(k) => Some(*spin),
                    _ => None,
                });
                match declared {
                    None => return Err(PlayerError::Handshake(format!("the engine declares no option '{k}'"))),
                    Some(Some((min, max))) if !v.parse::<i64>().is_ok_and(|x| (min..=max).contains(&x)) => {
                        return Err(PlayerError::Handshake(format!(
                            "option {k}={v}: the engine takes a whole number within {min}..{max}"
                        )))
                    }
                    Some(_) => {}
                }
                p.send(&format!("setoption name {k} value {v}"))?;
            }
            p.send("isready")?;
            p.wait_for(EngineLine::ReadyOk, self.handshake_timeout)?;
            Ok(())
        })();
        match result {
            Ok(()) => {
                self.proc = Some(p);
                Ok(())
            }
            Err(e) => {
                p.shutdown();
                Err(e)
            }
        }
    }

    fn proc(&mut self) -> Result<&mut Process, PlayerError> {
        self.proc.as_mut().ok_or_else(|| PlayerError::Crashed("not running".into()))
    }
}

impl Drop for UciEngine {
    fn drop(&mut self) {
        if let Some(p) = self.proc.take() {
            p.shutdown();
        }
    }
}

impl Player for UciEngine {
    fn name(&self) -> &str {
        &self.name
    }

    fn new_game(&mut self) -> Result<(), PlayerError> {
        let t = self.handshake_timeout;
        let p = self.proc()?;
        p.send("ucinewgame")?;
        p.send("isready")?;
        p.wait_for(EngineLine::ReadyOk, t)?;
        Ok(())
    }

    fn go(&mut self, req: &GoRequest) -> Result<Reply, PlayerError> {
        let p = self.proc()?;
        p.send(&protocol::position_line(req.start_fen, req.moves))?;
        p.send(&protocol::go_line(&req.limits))?;
        let start = Instant::now();
        let until = start + req.deadline;
        let (mut score, mut depth) = (None, None);
        loop {
            let wake = if req.interrupt.is_some() { until.min(Instant::now() + INTERRUPT_POLL) } else { until };
            let Some((t, line)) = p.recv(wake)? else {
                if req.interrupted() {
                    let _ = p.send("stop");
                    return Err(PlayerError::Interrupted);
                }
                if Instant::now() < until {
                    continue;
                }
                return Err(PlayerError::NoReply { waited: start.elapsed() });
            };
            match protocol::parse_engine_line(&line) {
                EngineLine::Info { depth: d, score: Some(s) } => {
                    score = Some(s);
                    depth = d.or(depth);
                }
                EngineLine::BestMove { best, .. } => {
                    return Ok(Reply { best, score, depth, elapsed: t.saturating_duration_since(start) });
                }
                _ => {}
            }
        }
    }

    fn restart(&mut self) -> Result<(), PlayerError> {
        self.launch()
    }
}

/// Arbiter's own engine, in this process (`engine::Engine`), with its own option set.
pub struct InProcess {
    name: String,
    options: Vec<(String, String)>,
    engine: crate::engine::Engine,
    watchdog: Watchdog,
}

/// One search for the [`Watchdog`] to watch.
struct Watch {
    control: std::sync::Arc<crate::engine::SearchControl>,
    until: Instant,
    interrupt: Option<&'static AtomicBool>,
    /// Told (or dropped) when the search is over.
    done: Receiver<()>,
}

/// A thread that stops a search at its deadline or when the match is interrupted: one for the
/// player's life, not one a move (a training-data game makes a move in about 2 ms).
struct Watchdog {
    watches: mpsc::Sender<Watch>,
}

impl Watchdog {
    fn new() -> Result<Watchdog, PlayerError> {
        let (watches, incoming) = mpsc::channel::<Watch>();
        std::thread::Builder::new()
            .name("watchdog".into())
            .spawn(move || {
                // Ends when the player, and with it the sender, is dropped.
                for w in incoming {
                    loop {
                        let wait = w.until.saturating_duration_since(Instant::now()).min(INTERRUPT_POLL);
                        match w.done.recv_timeout(wait) {
                            Err(RecvTimeoutError::Timeout) => {
                                if Instant::now() >= w.until || w.interrupt.is_some_and(|f| f.load(Ordering::SeqCst)) {
                                    w.control.stop();
                                    break;
                                }
                            }
                            Ok(()) | Err(RecvTimeoutError::Disconnected) => break,
                        }
                    }
                }
            })
            .map_err(|e| PlayerError::Internal(format!("cannot start the watchdog thread: {e}")))?;
        Ok(Watchdog { watches })
    }
}

impl InProcess {
    /// A fresh engine with `options` applied in order (`Hash`, `Threads`, `Move Overhead`, ...).
    pub fn new(name: &str, options: &[(String, String)]) -> Result<InProcess, PlayerError> {
        let mut engine = crate::engine::Engine::new(crate::engine::EngineOptions::default())
            .map_err(|e| PlayerError::Internal(e.to_string()))?;
        for (k, v) in options {
            engine.set_option(k, Some(v)).map_err(|e| PlayerError::Handshake(format!("option {k}={v}: {e}")))?;
        }
        Ok(InProcess { name: name.to_string(), options: options.to_vec(), engine, watchdog: Watchdog::new()? })
    }

    /// The name Arbiter gives in UCI (`id name`).
    pub fn default_name() -> String {
        format!("Arbiter {}", env!("CARGO_PKG_VERSION"))
    }
}

impl Player for InProcess {
    fn name(&self) -> &str {
        &self.name
    }

    fn new_game(&mut self) -> Result<(), PlayerError> {
        self.engine.new_game();
        Ok(())
    }

    /// Searches on the calling thread. The player's watchdog stops the search at the deadline
    /// (or when the match is interrupted), and a panic inside the search is caught and
    /// reported as a crash (the player is then rebuilt).
    fn go(&mut self, req: &GoRequest) -> Result<Reply, PlayerError> {
        use crate::engine::{SearchControl, SearchRequest};
        let control = std::sync::Arc::new(SearchControl::new());
        let (done_tx, done) = mpsc::channel::<()>();
        let watch = Watch {
            control: std::sync::Arc::clone(&control),
            until: Instant::now() + req.deadline,
            interrupt: req.interrupt,
            done,
        };
        if self.watchdog.watches.send(watch).is_err() {
            return Err(PlayerError::Internal("the watchdog thread has ended".into()));
        }
        // Keys of the positions before the current one (the engine's `history`).
        let before = req.history[..req.history.len().saturating_sub(1)].to_vec();
        let request = SearchRequest { position: *req.position, history: before, limits: req.limits.clone() };
        let engine = &mut self.engine;
        let start = Instant::now();
        let result =
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| engine.search(request, &control, &mut |_| {})));
        let elapsed = start.elapsed();
        let _ = done_tx.send(());
        let result = result.map_err(|_| PlayerError::Crashed("the search panicked".into()))?;
        if req.interrupted() {
            return Err(PlayerError::Interrupted);
        }
        if elapsed > req.deadline {
            return Err(PlayerError::NoReply { waited: elapsed });
        }
        let best = result.best.map(|m| m.to_string()).unwrap_or_else(|| "0000".into());
        Ok(Reply { best, score: Some(result.score), depth: Some(result.depth), elapsed })
    }

    fn restart(&mut self) -> Result<(), PlayerError> {
        *self = InProcess::new(&self.name, &self.options)?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specs() {
        let s =
            EngineSpec::parse("cmd=/usr/games/stockfish option.UCI_LimitStrength=true option.UCI_Elo=1800").unwrap();
        assert_eq!(s.program, PathBuf::from("/usr/games/stockfish"));
        assert_eq!(s.options, vec![("UCI_LimitStrength".into(), "true".into()), ("UCI_Elo".into(), "1800".into())]);
        let s = EngineSpec::parse("cmd=\"gnuchess --uci\" name=GNU \"option.Move Overhead=50\"").unwrap();
        assert_eq!(s.args, vec!["--uci".to_string()]);
        assert_eq!(s.name.as_deref(), Some("GNU"));
        assert_eq!(s.options, vec![("Move Overhead".into(), "50".into())]);
        let s = EngineSpec::parse("cmd=gnuchess arg=--uci").unwrap();
        assert_eq!(s.args, vec!["--uci".to_string()]);
        assert!(EngineSpec::parse("option.Hash=1").is_err());
        assert!(EngineSpec::parse("cmd=\"x").is_err());
        assert!(EngineSpec::parse("cmd=x bogus").is_err());
        assert!(EngineSpec::parse("cmd=x option.=3").is_err());
    }

    #[test]
    fn option_sets() {
        assert_eq!(
            parse_option_set("Hash=64 Threads=1 Move Overhead=30").unwrap(),
            vec![("Hash".into(), "64".into()), ("Threads".into(), "1".into()), ("Move Overhead".into(), "30".into())]
        );
        assert!(parse_option_set("Hash").is_err());
        assert_eq!(parse_option_set("").unwrap(), vec![]);
    }
}
