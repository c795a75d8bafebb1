//! The engine's API types: what a search is asked ([`SearchRequest`], [`Limits`]), how it is
//! controlled ([`SearchControl`]), what it reports while running ([`SearchEvent`]) and what it
//! returns ([`SearchResult`]). Re-exported by [`crate::engine`], beside the [`Engine`] façade.
//!
//! [`Engine`]: super::Engine

use super::{wdl, Score};
use crate::chess::{Move, Position};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

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
    /// Start no new iteration once this many nodes are spent: the iteration in progress is
    /// finished (up to `nodes`, the hard limit). Not a UCI `go` parameter: for self-play and
    /// training data, whose scores then come from whole iterations.
    pub soft_nodes: Option<u64>,
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
            && self.soft_nodes.is_none()
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
    /// When `ponderhit` came, for the search's clock.
    pub(super) fn ponderhit_time(&self) -> Option<Instant> {
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
