//! One UCI session: options, the current position and its game history, and control of
//! the search. The input loop (`uci::run_stdio`) feeds it one line at a time and never
//! blocks on a search (the engine's own threads search and print `info` and `bestmove`),
//! so `isready`, `stop`, `ponderhit` and `quit` are answered at once.
//!
//! `info string` lines: errors and warnings about bad input always (the GUI's user must
//! learn that a command was refused), and the answers of the `explain` extension;
//! everything else (unknown commands, options set, bench progress) only after
//! `debug on`.

use crate::chess::notation::parse_uci_move;
use crate::chess::{Move, Position};
use crate::engine::options::uci_option_lines;
use crate::engine::{Engine, EngineOptions, InputProbe, Limits, SearchControl, SearchEvent, SearchRequest};
use crate::protocol::{event_line, parse, Command, GoParams, PositionBase};
use crate::rules::Game;
use std::io::Write;
use std::sync::{Arc, Mutex};

/// Where protocol lines go. Every line is written whole and flushed; write errors
/// (a GUI that closed the pipe) are ignored rather than panicking.
#[derive(Clone)]
pub struct Out {
    sink: Arc<Mutex<Box<dyn Write + Send>>>,
}

impl Out {
    pub fn new(w: Box<dyn Write + Send>) -> Out {
        Out { sink: Arc::new(Mutex::new(w)) }
    }
    pub fn stdout() -> Out {
        Out::new(Box::new(std::io::stdout()))
    }
    pub fn line(&self, s: &str) {
        self.lines(&[s]);
    }
    /// Writes `lines` together: no line of another thread comes between them.
    pub fn lines(&self, lines: &[impl AsRef<str>]) {
        let mut w = self.sink.lock().unwrap_or_else(|e| e.into_inner());
        for s in lines {
            let _ = writeln!(w, "{}", s.as_ref());
        }
        let _ = w.flush();
    }
    fn info_string(&self, s: &str) {
        // One protocol line per text line.
        self.lines(&s.lines().map(|l| format!("info string {l}")).collect::<Vec<_>>());
    }
}

/// Should the input loop go on?
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    Continue,
    Quit,
}

pub struct Session {
    out: Out,
    engine: Engine,
    /// The game as `position` set it: start position and moves. The current position and
    /// the keys of the earlier ones (repetition draws) come from it; `explain` uses the
    /// whole move list (an expired e.p. chance, which of king or rook has moved).
    game: Game,
    debug: bool,
    /// The control of the latest search (for `ponderhit`).
    control: Option<Arc<SearchControl>>,
    /// Tells a running search that a command is waiting (see `SearchControl::with_waiting_input`).
    input_probe: Option<InputProbe>,
    /// The latest answer worked out on a thread of its own (`explain`: a position report can
    /// take seconds; `d`: the tables' value); see [`Session::answer_later`]. `isready`,
    /// `quit` and the end of input wait for them all.
    explaining: Option<std::thread::JoinHandle<()>>,
}

impl Session {
    pub fn new(out: Out) -> Session {
        let engine = match Engine::new(EngineOptions::default()) {
            Ok(e) => e,
            Err(e) => {
                log::error!("{e}; falling back to a 1 MB hash");
                let opts = EngineOptions { hash_mb: 1, ..EngineOptions::default() };
                // 1 MB always fits; if even that fails the process cannot run anyway.
                Engine::new(opts).unwrap_or_else(|e| panic!("cannot allocate the engine: {e}"))
            }
        };
        // What a table load found is said when it ends, whatever command comes next.
        let notes = out.clone();
        let mut engine = engine;
        engine.set_note_sink(Arc::new(move |lines: &[String]| {
            notes.lines(&lines.iter().map(|l| format!("info string {l}")).collect::<Vec<_>>())
        }));
        Session {
            out,
            engine,
            game: Game::startpos(),
            debug: false,
            control: None,
            input_probe: None,
            explaining: None,
        }
    }

    /// Where input comes from a file descriptor the search can poll (the stdin loop), so a
    /// busy search can make room for the input thread at once.
    pub fn set_input_probe(&mut self, probe: InputProbe) {
        self.input_probe = Some(probe);
    }

    pub fn position(&self) -> &Position {
        self.game.current()
    }

    /// Keys of the positions before the current one, oldest first (repetition draws).
    fn history(&self) -> Vec<u64> {
        let keys = self.game.keys();
        keys[..keys.len().saturating_sub(1)].to_vec()
    }

    fn searching(&self) -> bool {
        self.engine.is_searching()
    }

    /// Stops a running search and waits until its `bestmove` has been written.
    fn stop_and_wait(&mut self) {
        self.engine.stop();
        self.engine.wait();
        self.control = None;
    }

    /// Handles one input line.
    pub fn handle_line(&mut self, line: &str) -> Flow {
        log::debug!("<< {line}");
        let (cmd, warnings) = match parse(line) {
            Ok(x) => x,
            Err(e) => {
                self.out.info_string(&format!("error: {e}"));
                return Flow::Continue;
            }
        };
        for w in warnings {
            self.out.info_string(&format!("warning: {w} (ignored)"));
        }
        match cmd {
            Command::Empty => {}
            Command::Unknown(text) => {
                if self.debug {
                    self.out.info_string(&format!("unknown command ignored: {text}"));
                }
            }
            Command::Uci => {
                self.out.line(&format!("id name Arbiter {}", env!("CARGO_PKG_VERSION")));
                self.out.line("id author the Arbiter developers");
                for l in uci_option_lines() {
                    self.out.line(&l);
                }
                self.out.line("uciok");
            }
            Command::Debug(on) => self.debug = on,
            Command::IsReady => {
                self.finish_explaining();
                self.out.line("readyok")
            }
            Command::SetOption { name, value } => {
                if self.searching() {
                    self.out.info_string(&format!("error: option '{name}' cannot be changed during a search"));
                } else {
                    self.stop_and_wait();
                    let result = self.engine.set_option(&name, value.as_deref());
                    for note in self.engine.take_notes() {
                        self.out.info_string(&note);
                    }
                    if let Err(e) = result {
                        self.out.info_string(&format!("error: {e}"));
                    } else {
                        // The game's castling moves follow the move convention at once.
                        self.game.set_chess960(self.engine.options().chess960);
                        if self.debug {
                            self.out.info_string(&format!("option {name} set"));
                        }
                    }
                }
            }
            Command::UciNewGame => {
                self.stop_and_wait();
                self.engine.new_game();
            }
            Command::Position { base, moves } => self.set_position(base, &moves),
            Command::Go(g) => self.go(g),
            Command::Stop => self.stop_and_wait(),
            Command::PonderHit => {
                if let Some(c) = &self.control {
                    c.ponderhit();
                }
            }
            Command::Quit => {
                self.shutdown();
                return Flow::Quit;
            }
            Command::Display => {
                for l in self.game.current().diagram().lines() {
                    self.out.line(l);
                }
                self.out.line(&format!("Fen: {}", self.game.current().to_fen()));
                self.out.line(&format!("Key: {:016X}", self.game.current().key()));
                let checkers: Vec<String> = self.game.current().checkers().map(|s| s.to_string()).collect();
                self.out.line(&format!("Checkers: {}", checkers.join(" ")));
                for note in self.engine.take_notes() {
                    self.out.info_string(&note);
                }
                // The tables' value: the tables may still be being read, and probes may
                // read a table for the first time, so not on this thread (`stop` is
                // answered meanwhile; `isready` after these lines).
                let (load, pos, history) = (Arc::clone(self.engine.tablebases()), *self.game.current(), self.history());
                self.answer_later(move || {
                    let tb = load.wait();
                    let words = crate::explain::Lang::En.words();
                    let mut lines = crate::syzygy::report::value(&tb, &pos, &history)
                        .map_or_else(Vec::new, |r| words.tablebase(&r));
                    lines.extend(tb.take_problems().into_iter().map(|p| format!("info string Syzygy: {p}")));
                    lines
                });
            }
            Command::Eval => {
                for l in self.engine.eval_report(self.game.current()).lines() {
                    self.out.line(l);
                }
            }
            Command::Bench(depth) => {
                self.stop_and_wait();
                let (out, debug) = (self.out.clone(), self.debug);
                let depth = depth.unwrap_or(crate::engine::bench::DEFAULT_DEPTH);
                // With the session's evaluation.
                let eval_file = self.engine.options().eval_file.clone();
                match crate::engine::bench::run(depth, &eval_file, &mut |l| {
                    if debug {
                        out.info_string(l)
                    }
                }) {
                    Ok(r) => {
                        self.out.line(&format!("Nodes searched: {}", r.nodes));
                        self.out.line(&format!("Nodes/second: {}", r.nps()));
                    }
                    Err(e) => self.out.info_string(&format!("error: bench: {e}")),
                }
            }
            Command::Explain { text: mv, lang } => {
                // On a copy of the session's game: the position and any running search are
                // untouched, and the input thread goes on reading (`stop` during `go infinite`).
                let game = self.game.clone();
                self.answer_later(move || {
                    let lines = crate::explain::explain_for_uci(&game, &mv, lang);
                    lines.iter().flat_map(|l| l.lines()).map(|l| format!("info string {l}")).collect()
                });
            }
        }
        Flow::Continue
    }

    /// `position`: applies all or nothing; on error the previous position stays.
    fn set_position(&mut self, base: PositionBase, moves: &[String]) {
        let mut start = match base {
            PositionBase::StartPos => Position::startpos(),
            PositionBase::Fen(fen) => match Position::from_fen(&fen) {
                Ok(p) => p,
                Err(e) => {
                    self.out.info_string(&format!("error: bad FEN '{fen}': {e}; position unchanged"));
                    return;
                }
            },
        };
        // UCI_Chess960 decides how castling is written (e1h1 or e1g1), whatever the FEN.
        start.set_chess960(self.engine.options().chess960);
        let mut game = Game::new(start);
        for (i, text) in moves.iter().enumerate() {
            match parse_uci_move(game.current(), text) {
                Ok(m) => {
                    // parse_uci_move returns legal moves only, which `play` accepts.
                    let _ = game.play(m);
                }
                Err(e) => {
                    self.out.info_string(&format!("error: move {} '{text}': {e}; position unchanged", i + 1));
                    return;
                }
            }
        }
        self.game = game;
    }

    fn go(&mut self, g: GoParams) {
        self.stop_and_wait();
        if let Some(depth) = g.perft {
            self.perft(depth);
            return;
        }
        let mut searchmoves: Vec<Move> = Vec::new();
        for t in &g.searchmoves {
            match parse_uci_move(self.game.current(), t) {
                Ok(m) => searchmoves.push(m),
                Err(e) => self.out.info_string(&format!("warning: searchmoves: {e} (ignored)")),
            }
        }
        let limits = Limits { searchmoves, ..g.limits };
        let mut control = SearchControl::for_limits(&limits);
        if let Some(probe) = &self.input_probe {
            control = control.with_waiting_input(Arc::clone(probe));
        }
        let control = Arc::new(control);
        let request = SearchRequest { position: *self.game.current(), history: self.history(), limits };
        let out = self.out.clone();
        let load = Arc::clone(self.engine.tablebases());
        let listener = move |e: &SearchEvent| {
            if matches!(e, SearchEvent::BestMove(_)) {
                // Tables the search found damaged: said once, before the move.
                for p in load.loaded().map(|tb| tb.take_problems()).unwrap_or_default() {
                    out.info_string(&format!("Syzygy: {p}"));
                }
            }
            out.line(&event_line(e))
        };
        self.engine.start(request, Arc::clone(&control), Box::new(listener));
        self.control = Some(control);
    }

    fn perft(&self, depth: u32) {
        let counts = crate::chess::perft::divide(self.game.current(), depth, 1);
        for (m, n) in &counts {
            self.out.line(&format!("{m}: {n}"));
        }
        self.out.line("");
        let total: u64 = if depth == 0 { 1 } else { counts.iter().map(|(_, n)| n).sum() };
        self.out.line(&format!("Nodes searched: {total}"));
    }

    /// Works out an answer (`explain`, the tables' part of `d`) on a thread of its own, so
    /// that the input loop goes on (`stop`, `isready`); its lines are printed after those
    /// of the answers asked for before it, so answers come in order.
    fn answer_later(&mut self, work: impl FnOnce() -> Vec<String> + Send + 'static) {
        let (out, before) = (self.out.clone(), self.explaining.take());
        let job = move || {
            let lines = work();
            if let Some(h) = before {
                let _ = h.join();
            }
            out.lines(&lines);
        };
        match std::thread::Builder::new().name("answer".into()).spawn(job) {
            Ok(h) => self.explaining = Some(h),
            Err(e) => self.out.info_string(&format!("error: cannot start a thread: {e}")),
        }
    }

    /// Ends the session: stops any search (used on `quit` and end of input).
    pub fn shutdown(&mut self) {
        self.engine.stop();
        // A `d` still waiting for tables being read must not hold the exit up.
        self.engine.tablebases().cancel();
        self.finish_explaining();
    }

    /// Waits until every `explain` answer asked for has been printed.
    fn finish_explaining(&mut self) {
        if let Some(h) = self.explaining.take() {
            let _ = h.join();
        }
    }
}
