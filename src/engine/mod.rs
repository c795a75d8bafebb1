//! The chess engine: search, evaluation, transposition table, time management.
//!
//! [`Engine`] is the in-process API. The UCI session drives it, and so can a self-play
//! harness or a test:
//!
//! ```no_run
//! use arbiter::chess::Position;
//! use arbiter::engine::{Engine, EngineOptions, Limits, SearchControl};
//! use std::time::Duration;
//!
//! arbiter::chess::attacks::init();
//! let mut engine = Engine::new(EngineOptions::default()).expect("16 MB hash");
//! engine.set_option("Hash", Some("64")).unwrap();
//! engine.new_game();
//! let control = SearchControl::new(); // keep an Arc to stop from another thread
//! let limits = Limits { movetime: Some(Duration::from_millis(100)), ..Limits::default() };
//! let result = engine.search(&Position::startpos(), &[], &limits, &control, &mut |_info| {});
//! println!("bestmove {}", result.best.unwrap());
//! ```

pub mod eval;
pub mod history;
pub mod movepick;
pub mod options;
pub mod score;
pub mod search;
pub mod see;
pub mod time;
pub mod tt;

pub use options::{EngineOptions, OptionError, OptionValue};
pub use score::Score;

use crate::chess::{Move, Position};
use history::History;
use options::Action;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tt::TranspositionTable;

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

/// Shared between the searching thread and whoever controls it (the UCI input thread).
#[derive(Debug)]
pub struct SearchControl {
    stop: AtomicBool,
    pondering: AtomicBool,
    ponderhit_at: Mutex<Option<Instant>>,
    input_probe: Option<fn() -> bool>,
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
            input_probe: None,
        }
    }
    /// `probe` tells whether a command is waiting to be read by the thread that controls
    /// this search (the UCI loop passes [`crate::uci::input::stdin_pending`]). The search
    /// polls it about every 0.7 ms and, when input is waiting, yields its CPU once. Why:
    /// with every core busy searching, the woken input thread can otherwise wait a whole
    /// scheduler slice (3-6 ms measured) before it even reads `stop` or `isready`.
    /// Yielding only then keeps the search's fair CPU share against other processes
    /// (yielding unconditionally cost a third of it on a shared core).
    pub fn with_input_probe(mut self, probe: fn() -> bool) -> SearchControl {
        self.input_probe = Some(probe);
        self
    }
    /// See [`SearchControl::with_input_probe`].
    pub(crate) fn input_pending(&self) -> bool {
        self.input_probe.is_some_and(|probe| probe())
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
    pub nodes: u64,
    pub nps: u64,
    /// Permille of the hash used by this search.
    pub hashfull: u32,
    pub time: Duration,
    pub pv: Vec<Move>,
}

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

/// A chess engine instance: options, a transposition table and per-thread move-ordering
/// history. One search at a time (`search` takes `&mut self`).
pub struct Engine {
    options: EngineOptions,
    tt: Arc<TranspositionTable>,
    histories: Vec<History>,
}

impl Engine {
    /// An engine with the given options (fails only if the hash cannot be allocated).
    pub fn new(options: EngineOptions) -> Result<Engine, OptionError> {
        let tt = TranspositionTable::new(options.hash_mb).map_err(OptionError::Alloc)?;
        let histories = (0..options.threads.max(1)).map(|_| History::default()).collect();
        Ok(Engine { options, tt: Arc::new(tt), histories })
    }

    pub fn options(&self) -> &EngineOptions {
        &self.options
    }

    /// Sets a UCI option by name (case-insensitive). On error every option keeps its
    /// value. `Hash` is reallocated here, not at the next search.
    pub fn set_option(&mut self, name: &str, value: Option<&str>) -> Result<(), OptionError> {
        let (spec, value) = options::parse_option(name, value)?;
        let mut next = self.options.clone();
        match spec.apply(&mut next, value) {
            Some(Action::ClearHash) => self.tt.clear(),
            None => {}
        }
        self.reconfigure(next)
    }

    /// Adopts `next`, doing the work its changed values need (the effects of options
    /// that are not simply read by the next search).
    fn reconfigure(&mut self, next: EngineOptions) -> Result<(), OptionError> {
        if next.hash_mb != self.options.hash_mb {
            // Drop the old table first so both never exist at once.
            self.tt = Arc::new(TranspositionTable::new(1).map_err(OptionError::Alloc)?);
            match TranspositionTable::new(next.hash_mb) {
                Ok(t) => self.tt = Arc::new(t),
                Err(e) => {
                    // Restore the previous size (empty).
                    if let Ok(t) = TranspositionTable::new(self.options.hash_mb) {
                        self.tt = Arc::new(t);
                    }
                    return Err(OptionError::Alloc(e));
                }
            }
        }
        if next.threads != self.options.threads {
            self.histories.resize_with(next.threads.max(1), History::default);
        }
        self.options = next;
        Ok(())
    }

    /// Forget everything learnt in the previous game (TT and move-ordering history).
    pub fn new_game(&mut self) {
        self.tt.clear();
        for h in &mut self.histories {
            h.clear();
        }
    }

    /// Per-mille of the hash table filled by the latest search.
    pub fn hashfull(&self) -> u32 {
        self.tt.hashfull()
    }

    /// Searches `pos` and returns the best move.
    ///
    /// * `history`: keys ([`Position::key`]) of the positions that occurred in the game
    ///   before `pos`, oldest first (not including `pos`); used for repetition draws.
    /// * `control`: stop / ponderhit from another thread.
    /// * `info`: called from the search thread once per completed iteration and PV line.
    ///
    /// Blocks until the search ends; with `limits.infinite`, `limits.ponder` or no limits
    /// at all, it only returns after `control.stop()` (or, for ponder, after ponderhit
    /// plus the clock budget). Threads run with large stacks, so any caller thread is fine.
    pub fn search(
        &mut self,
        pos: &Position,
        history: &[u64],
        limits: &Limits,
        control: &SearchControl,
        info: &mut (dyn FnMut(&SearchInfo) + Send),
    ) -> SearchResult {
        search::run(self.tt.as_ref(), &mut self.histories, &self.options, pos, history, limits, control, info)
    }
}
