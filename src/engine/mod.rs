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

mod api;
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
pub mod tables;
pub mod threads;
pub mod time;
pub mod tt;
pub mod wdl;
mod wdl_fit;

pub use api::{
    InputProbe, Limits, Listener, ScoreBound, SearchControl, SearchEvent, SearchInfo, SearchRequest, SearchResult,
};
pub use options::{EngineOptions, OptionError, OptionValue};
pub use score::Score;

use crate::syzygy::Tablebases;
use options::Action;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc};
use tables::{NoteSink, TableLoad};

use threads::ThreadPool;
use tt::TranspositionTable;

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
    /// The endgame tables `SyzygyPath` names (shared by the search threads), perhaps
    /// still being read (see [`tables`]).
    tablebases: Arc<TableLoad>,
    /// Lines for the user that options produced, not yet taken.
    notes: Vec<String>,
    /// Where what a table load found goes when it ends (else to the notes).
    note_sink: Option<NoteSink>,
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
            tablebases: TableLoad::ready(Tablebases::empty()),
            notes: Vec::new(),
            note_sink: None,
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

    /// Starts loading the tables of `SyzygyPath` in place of the current ones, on a thread
    /// of its own ([`tables`]); what it finds (and what it skips, and why) goes to the
    /// note sink, or to the notes, when it ends. Bad files and directories are skipped.
    fn load_tablebases(&mut self) {
        let path = self.options.syzygy_path.trim().to_string();
        if path.is_empty() {
            // Tables asked for before count as loaded: the path is no longer theirs.
            let had = self.tablebases.loaded().is_none_or(|t| !t.is_empty());
            self.tablebases.cancel();
            self.notes.push(if had {
                "Syzygy: SyzygyPath is empty: the tables loaded before are dropped".to_string()
            } else {
                "Syzygy: SyzygyPath is empty: no tables".to_string()
            });
            self.tablebases = TableLoad::ready(Tablebases::empty());
            return;
        }
        self.tablebases = TableLoad::start(path, Arc::clone(&self.tablebases), self.note_sink.clone());
    }

    /// Sends what table loads find, as soon as each ends, to `sink` rather than to the
    /// notes (the UCI session prints them at once: no command needs to come first).
    pub fn set_note_sink(&mut self, sink: NoteSink) {
        self.notes.extend(self.tablebases.take_notes());
        self.note_sink = Some(sink);
    }

    /// The `eval` command's report on `pos`: the hand-crafted evaluation's terms, the
    /// network's value when one is loaded, and which of them the search would use there.
    pub fn eval_report(&self, pos: &crate::chess::Position) -> String {
        let mut out = String::new();
        let network = self.network();
        if network.is_some() {
            out.push_str("Hand-crafted evaluation (for reading: the search uses the network below):\n");
        }
        out.push_str(&eval::describe(pos));
        if !out.ends_with('\n') {
            out.push('\n');
        }
        if let Some(net) = network {
            let stm = net.evaluate(pos);
            let white = pos.side_to_move().sign() * stm;
            out.push_str(&format!(
                "NNUE evaluation: {white} cp (White's view), {stm} cp (side to move); EvalFile {}\n",
                self.options.eval_file.trim()
            ));
        }
        if let Some(stm) = endgame::bare_king(pos) {
            let white = pos.side_to_move().sign() * stm;
            out.push_str(&format!(
                "Known endgame (a bare king against mating material): {white} cp (White's view), {stm} cp \
                 (side to move); the search uses this value\n"
            ));
        } else if self.options.limit_strength {
            out.push_str("(UCI_LimitStrength is on: the search uses this hand-crafted evaluation)\n");
        }
        if pos.in_check() {
            out.push_str("(the side to move is in check: the search does not use this value here)\n");
        }
        out
    }

    /// The endgame tables `SyzygyPath` names (none without it), perhaps still being read.
    pub fn tablebases(&self) -> &Arc<TableLoad> {
        &self.tablebases
    }

    /// Lines for the user since the last call: what options did, what a table load that
    /// ended found (when no note sink took it), and tables a search found damaged (they are
    /// no longer used). Never waits for a load.
    pub fn take_notes(&mut self) -> Vec<String> {
        let mut notes = std::mem::take(&mut self.notes);
        notes.extend(self.tablebases.take_notes());
        if let Some(tables) = self.tablebases.loaded() {
            notes.extend(tables.take_problems().into_iter().map(|p| format!("Syzygy: {p}")));
        }
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
        self.tablebases.cancel();
        self.stop();
        self.prefault_stop.store(true, Ordering::Relaxed);
    }
}
