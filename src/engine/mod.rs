//! The chess engine: search, evaluation, transposition table, time management.
//!
//! [`Engine`] is the in-process API. The UCI session drives it, and so can a self-play
//! harness or a test:
//!
//! ```no_run
//! use arbiter::chess::Position;
//! use arbiter::engine::{Engine, EngineOptions, Limits, SearchControl, SearchEvent, SearchRequest};
//! use std::sync::Arc;
//! use std::time::Duration;
//!
//! arbiter::chess::attacks::init();
//! let mut engine = Engine::new(EngineOptions::default()).expect("16 MB hash");
//! engine.set_option("Hash", Some("64")).unwrap();
//! engine.new_game();
//! let limits = Limits { movetime: Some(Duration::from_millis(100)), ..Limits::default() };
//! let control = Arc::new(SearchControl::for_limits(&limits)); // stop() it from any thread
//! let request = SearchRequest { position: Position::startpos(), history: Vec::new(), limits };
//! let result = engine.search(request, &control, &mut |event| {
//!     if let SearchEvent::Info(info) = event {
//!         println!("depth {} score {}", info.depth, info.score);
//!     }
//! });
//! println!("bestmove {}", result.best.unwrap());
//! ```
//!
//! [`Engine::start`] is the same without blocking: the events, the result last, go to
//! a listener on the search's main thread (the UCI session prints them from there).
//! The search threads are a pool that lives as long as the engine ([`threads`]).

pub mod bench;
pub mod endgame;
pub mod eval;
pub mod eval_weights;
mod evaluator;
pub mod history;
pub mod movepick;
pub mod nnue;
pub mod options;
pub mod params;
pub mod score;
pub mod search;
pub mod see;
pub mod strength;
mod strength_fit;
pub mod threads;
pub mod time;
pub mod tt;
pub mod wdl;
mod wdl_fit;

pub use options::{EngineOptions, OptionError, OptionValue};
pub use score::Score;

use crate::chess::{Move, Position};
use crate::syzygy::Tablebases;
use options::Action;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc, Mutex};
use std::time::{Duration, Instant};
use threads::ThreadPool;
use tt::TranspositionTable;

/// One search to run: the position, the game that led to it, and the limits.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchRequest {
    pub position: Position,
    /// Keys ([`Position::key`]) of the positions that occurred in the game before
    /// `position`, oldest first (not including `position`): for repetition draws.
    pub history: Vec<u64>,
    pub limits: Limits,
}

/// What limits a search (the parameters of UCI `go`). When no limit at all is given
/// (`Limits::default()`), [`Engine::search`] treats it as `infinite`, like UCI plain
/// `go`, and only returns after [`SearchControl::stop`].
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    pub wtime: Option<Duration>,
    pub btime: Option<Duration>,
    pub winc: Option<Duration>,
    pub binc: Option<Duration>,
    pub movestogo: Option<u32>,
    /// Maximum iteration depth.
    pub depth: Option<u32>,
    /// Stop after about this many nodes (checked every node in the main thread).
    pub nodes: Option<u64>,
    /// Stop as soon as a mate in at most this many moves is found.
    pub mate: Option<u32>,
    pub movetime: Option<Duration>,
    /// Search until [`SearchControl::stop`]; the result is only returned after it.
    pub infinite: bool,
    /// Search in ponder mode: like `infinite` until [`SearchControl::ponderhit`], then
    /// the clock limits apply (counted from the ponderhit).
    pub ponder: bool,
    /// Restrict the root to these moves (illegal ones are ignored).
    pub searchmoves: Vec<Move>,
}

impl Limits {
    /// True when no limit at all was given (UCI plain `go` = until `stop`).
    pub fn is_unlimited(&self) -> bool {
        self.wtime.is_none()
            && self.btime.is_none()
            && self.movestogo.is_none()
            && self.depth.is_none()
            && self.nodes.is_none()
            && self.mate.is_none()
            && self.movetime.is_none()
    }
}

/// Tells whether whoever controls a search has input waiting for it (see
/// [`SearchControl::with_waiting_input`]).
pub type InputProbe = Arc<dyn Fn() -> bool + Send + Sync>;

/// Shared between the search and whoever controls it (stop, ponderhit).
pub struct SearchControl {
    stop: AtomicBool,
    pondering: AtomicBool,
    ponderhit_at: Mutex<Option<Instant>>,
    waiting_input: Option<InputProbe>,
}

impl std::fmt::Debug for SearchControl {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SearchControl")
            .field("stop", &self.stop)
            .field("pondering", &self.pondering)
            .field("ponderhit_at", &self.ponderhit_at)
            .field("waiting_input", &self.waiting_input.is_some())
            .finish()
    }
}

impl Default for SearchControl {
    fn default() -> Self {
        SearchControl::new()
    }
}

impl SearchControl {
    pub fn new() -> SearchControl {
        SearchControl {
            stop: AtomicBool::new(false),
            pondering: AtomicBool::new(false),
            ponderhit_at: Mutex::new(None),
            waiting_input: None,
        }
    }
    /// `probe` tells whether the controller has input waiting that it has not read yet
    /// (a UCI front end asks whether a command is pending). The search polls it about
    /// every 0.7 ms and, when input is waiting, yields its CPU once. Why: with every core
    /// busy searching, the woken input thread can otherwise wait a whole scheduler slice
    /// (3-6 ms measured) before it even reads `stop` or `isready`. Yielding only then
    /// keeps the search's fair CPU share against other processes (yielding
    /// unconditionally cost a third of it on a shared core).
    pub fn with_waiting_input(mut self, probe: InputProbe) -> SearchControl {
        self.waiting_input = Some(probe);
        self
    }
    /// See [`SearchControl::with_waiting_input`].
    pub(crate) fn input_pending(&self) -> bool {
        self.waiting_input.as_ref().is_some_and(|probe| probe())
    }
    /// A control for a search with these limits: in ponder mode when `limits.ponder`.
    /// Create it before starting the search so an early `ponderhit` is never lost.
    pub fn for_limits(limits: &Limits) -> SearchControl {
        let c = SearchControl::new();
        c.pondering.store(limits.ponder, Ordering::SeqCst);
        c
    }
    /// Ask the search to finish as soon as possible (it still returns a legal best move).
    pub fn stop(&self) {
        self.stop.store(true, Ordering::SeqCst);
    }
    pub fn is_stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }
    /// The opponent played the expected move: switch from pondering to a normal timed search.
    pub fn ponderhit(&self) {
        if let Ok(mut t) = self.ponderhit_at.lock() {
            *t = Some(Instant::now());
        }
        self.pondering.store(false, Ordering::SeqCst);
    }
    pub fn is_pondering(&self) -> bool {
        self.pondering.load(Ordering::Relaxed)
    }
    fn ponderhit_time(&self) -> Option<Instant> {
        self.ponderhit_at.lock().ok().and_then(|t| *t)
    }
}

/// Bound flag of a reported score (aspiration-window fail high/low).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ScoreBound {
    Exact,
    Lower,
    Upper,
}

/// Progress of a search, reported through the info callback (one per PV line per
/// completed iteration, and on aspiration fail high/low after the first seconds).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchInfo {
    pub depth: u32,
    pub seldepth: u32,
    /// 1-based PV line number.
    pub multipv: u32,
    pub score: Score,
    pub bound: ScoreBound,
    /// Expected outcome of `score` (only with `UCI_ShowWDL`).
    pub wdl: Option<wdl::Wdl>,
    pub nodes: u64,
    pub nps: u64,
    /// Permille of the hash used by this search.
    pub hashfull: u32,
    /// Positions found in the endgame tables so far (`None` when no tables are loaded).
    pub tbhits: Option<u64>,
    pub time: Duration,
    pub pv: Vec<Move>,
}

/// What a running search tells its listener, from its main thread.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SearchEvent {
    /// One PV line of a completed iteration (or of an aspiration fail high/low after the
    /// first seconds).
    Info(SearchInfo),
    /// The root move being searched now, with its 1-based number in the current move
    /// order; only after the search's first second.
    CurrMove { depth: u32, mv: Move, number: u32 },
    /// The search is over; always the last event, sent exactly once.
    BestMove(SearchResult),
}

/// Receives a search's events (on the search's main thread).
pub type Listener = Box<dyn FnMut(&SearchEvent) + Send>;

/// The outcome of [`Engine::search`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchResult {
    /// `None` only when the side to move has no legal move (mate or stalemate).
    pub best: Option<Move>,
    /// The expected reply (second PV move, or a TT move), if any.
    pub ponder: Option<Move>,
    /// `Mate(0)` when checkmated at the root, `Cp(0)` when stalemated.
    pub score: Score,
    /// Last completed iteration (0 with no legal move).
    pub depth: u32,
    pub seldepth: u32,
    /// All threads together.
    pub nodes: u64,
    pub pv: Vec<Move>,
    pub time: Duration,
}

/// A chess engine instance: options, a transposition table shared by the search
/// threads, and the pool of those threads with their own tables. One search at a time.
pub struct Engine {
    options: EngineOptions,
    tt: Arc<TranspositionTable>,
    /// No search has written to `tt` since it was allocated: it is all zeroes.
    tt_fresh: bool,
    /// Ends the background pre-faulting of a fresh table (see [`Engine::prefault`]).
    prefault_stop: Arc<AtomicBool>,
    pool: ThreadPool,
    /// The network the search evaluates with (`EvalFile`); `None`: the hand-crafted evaluation.
    network: Option<Arc<nnue::Nnue>>,
    /// The search started last, with the control that stops it.
    job: Option<(Arc<search::Shared>, Arc<SearchControl>)>,
    /// The endgame tables `SyzygyPath` names (shared by the search threads).
    tablebases: Arc<Tablebases>,
    /// Lines for the user that options produced (what `SyzygyPath` found), not yet taken.
    notes: Vec<String>,
}

/// Up to this size the hash is cleared by zeroing it on the search threads (at most
/// ~0.8 s on one thread even where its pages were never mapped: first touches cost
/// ~0.8 s/GB of CPU on the 2-core VM, zeroing mapped memory 0.16 s/GB). A larger
/// table is cleared by allocating a fresh zeroed one instead.
const CLEAR_IN_PLACE_MB: usize = 1024;

impl Engine {
    /// An engine with the given options (fails only if the hash or the threads cannot
    /// be had).
    pub fn new(options: EngineOptions) -> Result<Engine, OptionError> {
        let network = nnue::source::load(&options.eval_file).map_err(OptionError::EvalFile)?;
        let pool = ThreadPool::new(options.threads).map_err(|e| OptionError::Threads(e.to_string()))?;
        let tt = Arc::new(TranspositionTable::new(options.hash_mb).map_err(OptionError::Alloc)?);
        let mut engine = Engine {
            options,
            tt,
            tt_fresh: true,
            prefault_stop: Arc::new(AtomicBool::new(false)),
            pool,
            network,
            job: None,
            tablebases: Arc::new(Tablebases::empty()),
            notes: Vec::new(),
        };
        if !engine.options.syzygy_path.is_empty() {
            engine.load_tablebases();
        }
        engine.prefault();
        Ok(engine)
    }

    pub fn options(&self) -> &EngineOptions {
        &self.options
    }

    /// The network the search evaluates with, if any (else the hand-crafted evaluation).
    /// A strength level (`UCI_LimitStrength`) evaluates by hand whatever `EvalFile` loaded:
    /// the levels were calibrated against rated engines with that evaluation
    /// (docs/levels.md), and a stronger one would shift them.
    pub fn network(&self) -> Option<&Arc<nnue::Nnue>> {
        self.network.as_ref().filter(|_| !self.options.limit_strength)
    }

    /// Sets a UCI option by name (case-insensitive). On error every option keeps its
    /// value. `Hash` is reallocated here, not at the next search. Waits for a running
    /// search to end first (stop it, or this waits as long as it runs).
    pub fn set_option(&mut self, name: &str, value: Option<&str>) -> Result<(), OptionError> {
        let (spec, value) = options::parse_option(name, value)?;
        self.wait();
        let mut next = self.options.clone();
        match spec.apply(&mut next, value) {
            Some(Action::ClearHash) => self.clear_hash(),
            Some(Action::LoadEvalFile) => {
                // Read before anything changes: a bad file keeps the previous evaluation.
                self.network = nnue::source::load(&next.eval_file).map_err(OptionError::EvalFile)?;
            }
            Some(Action::LoadSyzygy) => {
                self.options.syzygy_path.clone_from(&next.syzygy_path);
                self.load_tablebases();
            }
            None => {}
        }
        self.reconfigure(next)
    }

    /// Loads the tables of `SyzygyPath` in place of the current ones; what was found (and
    /// what was skipped, and why) goes to the notes. Bad files and directories are skipped.
    fn load_tablebases(&mut self) {
        let path = self.options.syzygy_path.trim().to_string();
        if path.is_empty() {
            self.tablebases = Arc::new(Tablebases::empty());
            return;
        }
        let (tb, report) = Tablebases::load(&path);
        self.notes.extend(report.problems.iter().map(|p| format!("Syzygy: {p}")));
        self.notes.push(format!("Syzygy: found {report} in '{path}'"));
        self.tablebases = Arc::new(tb);
    }

    /// The endgame tables loaded (empty without `SyzygyPath`).
    pub fn tablebases(&self) -> &Arc<Tablebases> {
        &self.tablebases
    }

    /// Lines for the user since the last call: what loading tables found, and tables a
    /// search found damaged (they are no longer used).
    pub fn take_notes(&mut self) -> Vec<String> {
        let mut notes = std::mem::take(&mut self.notes);
        notes.extend(self.tablebases.take_problems().into_iter().map(|p| format!("Syzygy: {p}")));
        notes
    }

    /// Adopts `next`, doing the work its changed values need (the effects of options
    /// that are not simply read by the next search).
    fn reconfigure(&mut self, next: EngineOptions) -> Result<(), OptionError> {
        if next.hash_mb != self.options.hash_mb {
            if let Err(e) = self.replace_table(next.hash_mb) {
                // Restore the previous size (empty), or at least a small table.
                if self.replace_table(self.options.hash_mb).is_err() {
                    self.options.hash_mb = 1;
                }
                return Err(OptionError::Alloc(e));
            }
        }
        if next.threads != self.options.threads {
            if let Err(e) = self.pool.resize(next.threads) {
                let started = self.pool.len();
                self.options.threads = started;
                return Err(OptionError::Threads(format!("{e}; running with {started}")));
            }
        }
        self.options = next;
        Ok(())
    }

    /// A new, empty table of `mb` MB in place of the current one (dropped first, so
    /// both never exist at once). Its memory comes zeroed from the OS, untouched, so
    /// this returns at once whatever the size.
    fn replace_table(&mut self, mb: usize) -> Result<(), tt::AllocError> {
        self.tt = Arc::new(TranspositionTable::new(1)?);
        self.tt = Arc::new(TranspositionTable::new(mb)?);
        self.tt_fresh = true;
        self.prefault();
        Ok(())
    }

    /// Has the idle search threads touch every page of a fresh table in the background
    /// (each its own slice), so that the OS maps the memory before a search needs it
    /// rather than during the search. Any later use of the threads ends it at once
    /// ([`Engine::quiesce`]); pages not reached yet are then mapped on first use.
    fn prefault(&mut self) {
        let stop = Arc::new(AtomicBool::new(false));
        self.prefault_stop = Arc::clone(&stop);
        let tt = Arc::clone(&self.tt);
        let parts = self.pool.len();
        self.pool.start_all(move |id, _| tt.prefault_part(id, parts, &stop));
    }

    /// Ends background work and waits until every thread is idle (the running search,
    /// if any, included: stop it first or this waits as long as it runs).
    fn quiesce(&self) {
        self.prefault_stop.store(true, Ordering::Relaxed);
        self.pool.wait_idle();
    }

    /// Empties the hash: nothing to do for a fresh table; a small one is zeroed by all
    /// the search threads at once, a large one replaced by a fresh one.
    fn clear_hash(&mut self) {
        self.quiesce();
        if self.tt_fresh {
            return;
        }
        if self.options.hash_mb <= CLEAR_IN_PLACE_MB {
            let tt = Arc::clone(&self.tt);
            let parts = self.pool.len();
            self.pool.run_all(move |id, _| tt.clear_part(id, parts));
            self.tt_fresh = true;
        } else if let Err(e) = self.replace_table(self.options.hash_mb) {
            // The old table is gone and no new one of that size could be had (memory
            // taken by another process meanwhile): keep searching with a tiny one.
            log::error!("{e}; searching with a 1 MB hash");
            let _ = self.replace_table(1);
            self.options.hash_mb = 1;
        }
    }

    /// Forget everything learnt in the previous game (the hash and every thread's tables).
    pub fn new_game(&mut self) {
        self.clear_hash();
        self.pool.run_all(|_, data| data.clear());
    }

    /// Per-mille of the hash table filled by the latest search.
    pub fn hashfull(&self) -> u32 {
        self.tt.hashfull()
    }

    /// Starts searching and returns at once. `listener` gets the search's events on its
    /// main thread, the [`SearchEvent::BestMove`] last; `control` stops it (or, for
    /// ponder, turns it into a timed search). A search still running is waited for first.
    ///
    /// With `limits.infinite`, `limits.ponder` or no limits at all, the best move is only
    /// sent after `control.stop()` (or, for ponder, after ponderhit plus the clock budget).
    pub fn start(&mut self, request: SearchRequest, control: Arc<SearchControl>, listener: Listener) {
        self.quiesce();
        self.tt.new_search();
        self.tt_fresh = false;
        let threads = self.pool.len();
        let shared = Arc::new(search::Shared::new(
            Arc::clone(&self.tt),
            Arc::clone(&control),
            request,
            &self.options,
            self.network().cloned(),
            Arc::clone(&self.tablebases),
            threads,
            listener,
        ));
        self.job = Some((Arc::clone(&shared), control));
        self.pool.start_all(move |id, data| search::run_thread(&shared, id, data));
    }

    /// Is a search running (its best move not sent yet)?
    pub fn is_searching(&self) -> bool {
        self.job.as_ref().is_some_and(|(job, _)| !job.is_finished())
    }

    /// Asks the running search, if any, to stop (it still sends a legal best move).
    pub fn stop(&self) {
        if let Some((_, control)) = &self.job {
            control.stop();
        }
    }

    /// Waits until the running search, if any, has sent its best move and every thread
    /// is idle.
    pub fn wait(&self) {
        self.quiesce();
    }

    /// Searches and returns the best move: [`Engine::start`], waiting on the calling
    /// thread, which also runs `on_event` for every event.
    pub fn search(
        &mut self,
        request: SearchRequest,
        control: &Arc<SearchControl>,
        on_event: &mut dyn FnMut(&SearchEvent),
    ) -> SearchResult {
        let position = request.position;
        let (tx, rx) = mpsc::channel();
        self.start(request, Arc::clone(control), Box::new(move |e| drop(tx.send(e.clone()))));
        let mut result = None;
        // Ends after the best move, or when the search's threads dropped the sender.
        for event in rx.iter() {
            on_event(&event);
            if let SearchEvent::BestMove(r) = event {
                result = Some(r);
                break;
            }
        }
        self.wait();
        result.unwrap_or_else(|| search::fallback_result(&position))
    }
}

impl Drop for Engine {
    /// Stops a running search and background work; the pool then joins its threads.
    fn drop(&mut self) {
        self.stop();
        self.prefault_stop.store(true, Ordering::Relaxed);
    }
}
