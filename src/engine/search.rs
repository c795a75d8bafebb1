//! The search: iterative deepening with aspiration windows over a principal-variation
//! negamax alpha-beta, quiescence search, and Lazy SMP (helper threads search the
//! same tree and share only the transposition table).
//!
//! Pruning and reductions (all standard, see the Chess Programming Wiki pages of the
//! same names): mate-distance pruning, TT cutoffs, reverse futility (static null move),
//! null move (not in pawn-only endings, where zugzwang is common), futility pruning,
//! late-move pruning, SEE pruning, late-move reductions; check extension.
//!
//! Draws: a repetition of any earlier position (game history or search path, FIDE
//! 9.2.3 identity from the position key), the fifty-move rule (halfmove clock >= 100,
//! unless the side to move is checkmated) and insufficient material all score 0, so
//! the search prefers a draw when behind and avoids one when ahead.

use super::endgame;
use super::evaluator::{HandCrafted, Network, StaticEval};
use super::history::{bonus, Continuation, History, PieceTo};
use super::movepick::{is_bad_tactical_score, is_refutation_score, MovePicker};
use super::nnue::Nnue;
use super::params;
use super::score::{mate_in, mated_in, Score, DRAW, INFINITE, MATE_IN_MAX, MAX_PLY};
use super::see::see_ge;
use super::strength::{Handicap, Level};
use super::tables::TableLoad;
use super::threads::ThreadData;
use super::time::{budget, stability_scale, TimeBudget};
use super::tt::{score_from_tt, score_to_tt, Bound, TranspositionTable};
use super::{
    EngineOptions, Limits, Listener, ScoreBound, SearchControl, SearchEvent, SearchInfo, SearchRequest, SearchResult,
};
use crate::chess::movegen::{has_legal_move, is_legal};
use crate::chess::{Move, PieceType, Position};
use crate::syzygy::{self, Tablebases, Wdl};
#[cfg(not(feature = "tune"))]
use once_cell::sync::Lazy;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, OnceLock};
use std::time::{Duration, Instant};

/// `currmove` lines start after this much search time (UCI GUIs show them in long searches).
const CURRMOVE_AFTER: Duration = Duration::from_secs(1);

/// The late-move reduction formula (the usual log*log one).
fn lmr_formula(depth: usize, moves: usize) -> i32 {
    let (base, divisor) = (params::lmr_base() as f64 / 100.0, params::lmr_divisor() as f64 / 100.0);
    (base + (depth as f64).ln() * (moves as f64).ln() / divisor) as i32
}

/// Late-move reduction table, `[depth][move number]`.
#[cfg(not(feature = "tune"))]
static LMR: Lazy<[[i32; 64]; 64]> = Lazy::new(|| {
    let mut t = [[0; 64]; 64];
    for (d, row) in t.iter_mut().enumerate().skip(1) {
        for (m, r) in row.iter_mut().enumerate().skip(1) {
            *r = lmr_formula(d, m);
        }
    }
    t
});

/// The base reduction of the `moves`-th move at `depth` (both at least 1).
#[inline]
fn lmr(depth: i32, moves: usize) -> i32 {
    let (d, m) = (depth.clamp(1, 63) as usize, moves.clamp(1, 63));
    #[cfg(not(feature = "tune"))]
    return LMR[d][m];
    #[cfg(feature = "tune")]
    return lmr_formula(d, m);
}

/// State shared by all threads of one search. Owned, since the pool's threads outlive
/// any borrow of the caller's.
pub(super) struct Shared {
    tt: Arc<TranspositionTable>,
    control: Arc<SearchControl>,
    /// Set by the main thread when it is done, so helpers stop.
    abort: AtomicBool,
    /// Nodes searched by each thread, published every few hundred nodes.
    nodes: Vec<AtomicU64>,
    start: Instant,
    budget: Option<TimeBudget>,
    position: Position,
    limits: Limits,
    /// Root lines searched (at least the `MultiPV` option; more for a strength level).
    multipv: usize,
    /// Root lines reported (the `MultiPV` option).
    reported_lines: usize,
    /// Playing below full strength (`UCI_LimitStrength`): only the main thread searches,
    /// and the move is chosen among its lines.
    handicap: Option<Handicap>,
    /// Material on the root position, for the win/draw/loss model (`UCI_ShowWDL`).
    wdl_material: Option<u32>,
    /// Keys of the positions before the root, oldest first.
    history: Vec<u64>,
    /// What each helper thread found, and how many are still searching.
    helpers: Mutex<HelperResults>,
    helpers_done: Condvar,
    /// Progress and the result go here (called from the main thread only).
    listener: Mutex<Listener>,
    /// Set as the best move is sent (the engine then waits only for the threads to idle).
    finished: AtomicBool,
    /// The network to evaluate with; `None`: the hand-crafted evaluation.
    nnue: Option<Arc<Nnue>>,
    /// Endgame tables, as `SyzygyPath` named them when the search started (perhaps still
    /// being read then).
    tb_load: Arc<TableLoad>,
    /// `SyzygyProbeLimit` (0 for a strength level: calibrated without tables).
    tb_limit: u32,
    /// `SyzygyProbeDepth`.
    tb_depth: i32,
    tb_rule50: bool,
    /// How the tables are used, worked out by the first search thread (see [`Shared::tb`]).
    tb: OnceLock<TbUse>,
    tb_hits: AtomicU64,
}

/// How a search uses the tables.
struct TbUse {
    tables: Arc<Tablebases>,
    /// Positions of up to this many pieces are probed in the search (0: none).
    pieces: u32,
    /// With exactly `pieces` pieces, only at this depth or more.
    probe_depth: i32,
    /// The root's moves ranked by the tables, when the root is in them (and they can
    /// tell): the search then chooses only among the best-ranked moves, reports their
    /// table value, and probes nothing below (the ranking keeps the result, the search
    /// finds the way, as the anchors do).
    root: Option<Vec<syzygy::RankedMove>>,
}

/// The score of a tablebase win at the root; a win `ply` plies from the root scores
/// `TB_WIN - ply` (above any evaluation, below every mate score).
const TB_WIN: i32 = 20_000;

struct HelperResults {
    running: usize,
    found: Vec<ThreadBest>,
}

/// One thread's last completed iteration: its best line as a result, with the internal
/// score to compare threads by.
struct ThreadBest {
    result: SearchResult,
    score: i32,
}

impl Shared {
    /// A search of `request` by `threads` threads; the clock starts now.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn new(
        tt: Arc<TranspositionTable>,
        control: Arc<SearchControl>,
        request: SearchRequest,
        options: &EngineOptions,
        nnue: Option<Arc<Nnue>>,
        tb_load: Arc<TableLoad>,
        threads: usize,
        listener: Listener,
    ) -> Shared {
        let start = Instant::now();
        let SearchRequest { position, history, mut limits } = request;
        // Plain `go` (and `go ponder` without a clock) searches until `stop`.
        if limits.is_unlimited() {
            limits.infinite = true;
        }
        let threads = threads.max(1);
        let mut budget = budget(&limits, position.side_to_move(), options.move_overhead);
        let handicap = options
            .limit_strength
            .then(|| Handicap::new(Level::for_elo(options.elo), &position, &mut limits, &mut budget));
        let lines = options.multipv.max(1);
        Shared {
            tt,
            control,
            abort: AtomicBool::new(false),
            nodes: (0..threads).map(|_| AtomicU64::new(0)).collect(),
            start,
            budget,
            wdl_material: options.show_wdl.then(|| super::wdl::material(&position)),
            position,
            limits,
            multipv: lines.max(handicap.map_or(1, |h| h.lines())),
            reported_lines: lines,
            handicap,
            history,
            helpers: Mutex::new(HelperResults { running: threads - 1, found: Vec::new() }),
            helpers_done: Condvar::new(),
            listener: Mutex::new(listener),
            finished: AtomicBool::new(false),
            nnue,
            tb_load,
            tb_limit: if options.limit_strength { 0 } else { options.syzygy_probe_limit },
            tb_depth: options.syzygy_probe_depth,
            tb_rule50: options.syzygy_50_move_rule,
            tb: OnceLock::new(),
            tb_hits: AtomicU64::new(0),
        }
    }

    /// How this search uses the tables, worked out by the first search thread to ask
    /// (the others wait for it), never by the one that started the search (the UCI
    /// command thread): the tables may still be being read, and the root ranking's probes
    /// may read a table for the first time. Tables not read by the time the search must
    /// stop (`stop`, its time limit) are not used.
    fn tb(&self) -> &TbUse {
        self.tb.get_or_init(|| {
            let tables = if self.tb_limit == 0 {
                None
            } else {
                self.tb_load.wait_while(|| {
                    !self.control.is_stopped()
                        && self.budget.zip(self.clock_elapsed()).is_none_or(|(b, el)| el < b.hard)
                })
            };
            let tables = tables.unwrap_or_else(|| Arc::new(Tablebases::empty()));
            // As the anchors do: a limit above the largest tables probes those at any depth.
            let (pieces, probe_depth) = if self.tb_limit > tables.max_pieces() {
                (tables.max_pieces(), 0)
            } else {
                (self.tb_limit, self.tb_depth)
            };
            let pos = &self.position;
            let root = (pieces > 0 && pos.occupied().count() <= pieces && pos.castling_rights().is_empty())
                .then(|| syzygy::rank_moves(&tables, pos, &self.history, self.tb_rule50).ok())
                .flatten()
                .filter(|r| !r.is_empty());
            if let Some(r) = &root {
                self.tb_hits.fetch_add(r.len() as u64, Ordering::Relaxed);
            }
            TbUse { pieces: if root.is_some() { 0 } else { pieces }, probe_depth, tables, root }
        })
    }

    /// The root's moves ranked by the tables, once they are worked out.
    fn tb_root(&self) -> Option<&[syzygy::RankedMove]> {
        self.tb.get()?.root.as_deref()
    }

    /// The table's rank of a root move (0 when the root is not in the tables).
    fn tb_rank(&self, m: Move) -> i32 {
        self.tb_root().and_then(|r| r.iter().find(|x| x.mv == m)).map_or(0, |x| x.rank)
    }

    /// The score to report for a line starting with `first`: at a root in the tables,
    /// the table's value unless the search found a mate.
    fn reported_score(&self, first: Option<Move>, score: i32) -> i32 {
        let Some(ranked) = self.tb_root().filter(|_| !is_mate_score(score)) else { return score };
        match ranked.iter().find(|x| Some(x.mv) == first).map(|x| x.wdl) {
            Some(Wdl::Win) => TB_WIN,
            Some(Wdl::CursedWin) => 1,
            Some(Wdl::Draw) => DRAW,
            Some(Wdl::BlessedLoss) => -1,
            Some(Wdl::Loss) => -TB_WIN,
            None => score,
        }
    }

    /// Is the best move decided (being sent or sent)?
    pub(super) fn is_finished(&self) -> bool {
        self.finished.load(Ordering::SeqCst)
    }

    fn total_nodes(&self) -> u64 {
        self.nodes.iter().map(|n| n.load(Ordering::Relaxed)).sum()
    }

    /// Time that counts against our clock: none while pondering, from ponderhit after it.
    fn clock_elapsed(&self) -> Option<Duration> {
        if self.control.is_pondering() {
            return None;
        }
        Some(match self.control.ponderhit_time() {
            Some(t) => t.elapsed(),
            None => self.start.elapsed(),
        })
    }

    fn emit(&self, event: &SearchEvent) {
        // A listener that panicked once is still called: it only formats and writes.
        let mut listener = self.listener.lock().unwrap_or_else(|e| e.into_inner());
        (*listener)(event);
    }

    fn lock_helpers(&self) -> MutexGuard<'_, HelperResults> {
        self.helpers.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Waits until every helper has stopped and returns what they found.
    fn wait_for_helpers(&self) -> Vec<ThreadBest> {
        let mut h = self.lock_helpers();
        while h.running > 0 {
            h = self.helpers_done.wait(h).unwrap_or_else(|e| e.into_inner());
        }
        std::mem::take(&mut h.found)
    }

    /// The result of the search, from the main thread's best line or a helper's that
    /// got deeper with a better score. A helper's line is reported before it is used,
    /// so the best move is always the first move of the last `info` PV.
    fn choose(&self, main: Option<ThreadBest>, helpers: Vec<ThreadBest>) -> SearchResult {
        let Some(mut best) = main else {
            return fallback_result(&self.position);
        };
        let mut from_helper = false;
        for h in helpers {
            if h.result.depth > best.result.depth && h.score > best.score && h.result.best.is_some() {
                best = h;
                from_helper = true;
            }
        }
        if from_helper {
            let r = &best.result;
            let info = self.info(r.depth, r.seldepth, 1, best.score, ScoreBound::Exact, r.pv.clone());
            self.emit(&SearchEvent::Info(info));
        }
        best.result
    }

    /// An `info` line of this search: `score` is internal, the counters are as of now.
    /// (The one place an `info` line is made.)
    fn info(
        &self,
        depth: u32,
        seldepth: u32,
        multipv: u32,
        score: i32,
        bound: ScoreBound,
        pv: Vec<Move>,
    ) -> SearchInfo {
        let elapsed = self.start.elapsed();
        let nodes = self.total_nodes();
        let score = Score::from_internal(self.reported_score(pv.first().copied(), score));
        SearchInfo {
            depth,
            seldepth,
            multipv,
            score,
            bound,
            wdl: self.wdl_material.map(|m| super::wdl::wdl(score, m)),
            nodes,
            nps: nps(nodes, elapsed),
            hashfull: self.tt.hashfull(),
            tbhits: self.tb.get().is_some_and(|t| !t.tables.is_empty()).then(|| self.tb_hits.load(Ordering::Relaxed)),
            time: elapsed,
            pv,
        }
    }
}

/// One thread's part of a search started by `Engine::start`. Helpers search until the
/// main thread (id 0) is done; the main thread reports progress, waits for the helpers,
/// picks the result and sends it as the last event.
pub(super) fn run_thread(sh: &Shared, id: usize, data: &mut ThreadData) {
    // A strength level is one thread's search (its node budget means the same with any
    // number of threads).
    let idle = id != 0 && sh.handicap.is_some();
    let found = if idle {
        None
    } else {
        catch_unwind(AssertUnwindSafe(|| {
            let ThreadData { history, pawns, accumulators } = data;
            // One copy of the search per evaluation (see `evaluator`).
            match sh.nnue.as_deref() {
                Some(net) => {
                    let eval = Network::new(net, accumulators, &sh.position, MAX_PLY + 8);
                    Worker::new(id, sh, history, eval).iterative_deepening()
                }
                None => Worker::new(id, sh, history, HandCrafted(pawns)).iterative_deepening(),
            }
        }))
        .unwrap_or_else(|_| {
            log::error!("search thread {id} panicked");
            None
        })
    };
    if id != 0 {
        let mut h = sh.lock_helpers();
        h.found.extend(found);
        h.running -= 1;
        drop(h);
        sh.helpers_done.notify_all();
        return;
    }
    sh.abort.store(true, Ordering::SeqCst);
    let helpers = sh.wait_for_helpers();
    let mut result = sh.choose(found, helpers);
    // UCI: in infinite or ponder mode the best move is only sent after stop/ponderhit.
    while (sh.limits.infinite || sh.control.is_pondering()) && !sh.control.is_stopped() {
        std::thread::sleep(Duration::from_micros(500));
        if !sh.control.is_pondering() && !sh.limits.infinite {
            break;
        }
    }
    // A strength level answers after its thinking time, like a person, not at once.
    if let Some(think) = sh.handicap.and_then(|h| h.think_time()) {
        while !sh.control.is_stopped() && sh.clock_elapsed().is_none_or(|e| e < think) {
            std::thread::sleep(Duration::from_millis(1));
        }
    }
    result.nodes = sh.total_nodes();
    result.time = sh.start.elapsed();
    // Finished before the best move is out: whoever reads it may at once change options.
    sh.finished.store(true, Ordering::SeqCst);
    sh.emit(&SearchEvent::BestMove(result));
}

fn nps(nodes: u64, elapsed: Duration) -> u64 {
    (nodes as u128 * 1_000_000 / elapsed.as_micros().max(1)) as u64
}

#[derive(Clone, Debug)]
struct RootMove {
    mv: Move,
    /// The tables' rank (see `syzygy::root`); 0 for every move when the root is not in them.
    tb_rank: i32,
    score: i32,
    prev_score: i32,
    bound: ScoreBound,
    pv: Vec<Move>,
}

impl RootMove {
    /// A root move not searched yet.
    fn new(mv: Move, tb_rank: i32) -> RootMove {
        RootMove { mv, tb_rank, score: -INFINITE, prev_score: -INFINITE, bound: ScoreBound::Exact, pv: vec![mv] }
    }
}

#[derive(Clone, Copy, Default)]
struct Frame {
    static_eval: Option<i32>,
    /// (piece index, target square) of the move played from this ply; None for null.
    moved: Option<PieceTo>,
    null_move: bool,
    /// The move a singular-extension search at this ply leaves out.
    excluded: Option<Move>,
    /// Double extensions on the path to this ply (limited, so the tree stays finite).
    double_exts: i32,
}

struct Worker<'a, E: StaticEval> {
    id: usize,
    sh: &'a Shared,
    hist: &'a mut History,
    eval: E,
    nodes: u64,
    /// The main thread stops at this many of its own nodes: the `nodes` limit less what
    /// the helpers had searched at the last check.
    node_limit: Option<u64>,
    /// Deepest ply reached in the current iteration.
    seldepth: usize,
    keys: Vec<u64>,
    stack: Vec<Frame>,
    pv: Vec<[Option<Move>; MAX_PLY + 1]>,
    pv_len: [usize; MAX_PLY + 2],
    /// One move picker per ply, refilled at every node (see [`MovePicker::reset`]); a node
    /// takes its ply's picker out while it searches and puts it back when it is done.
    pickers: Vec<Option<Box<MovePicker>>>,
    root_moves: Vec<RootMove>,
    pv_idx: usize,
    root_depth: i32,
    completed_depth: i32,
    stopped: bool,
    /// How the tables are used ([`Shared::tb`]).
    tb: &'a TbUse,
}

/// Used only if the main search thread could not run: any legal move.
pub(super) fn fallback_result(pos: &Position) -> SearchResult {
    let moves = crate::chess::legal_moves(pos);
    let best = moves.iter().next().copied();
    let score = if best.is_some() {
        Score::Cp(0)
    } else if pos.in_check() {
        Score::Mate(0)
    } else {
        Score::Cp(0)
    };
    SearchResult {
        best,
        ponder: None,
        score,
        depth: 0,
        seldepth: 0,
        nodes: 0,
        pv: best.into_iter().collect(),
        time: Duration::ZERO,
    }
}

fn is_mate_score(s: i32) -> bool {
    s.abs() >= MATE_IN_MAX
}

impl<'a, E: StaticEval> Worker<'a, E> {
    fn new(id: usize, sh: &'a Shared, hist: &'a mut History, eval: E) -> Self {
        // First: the root moves' order depends on the tables' ranking.
        let tb = sh.tb();
        let pos = &sh.position;
        let mut keys = Vec::with_capacity(sh.history.len() + MAX_PLY + 8);
        keys.extend_from_slice(&sh.history);
        // Root moves in a sensible first order (TT move, captures, history).
        let tt_move = sh.tt.probe(pos.key()).and_then(|e| e.mv).filter(|&m| is_legal(pos, m));
        let mut picker = MovePicker::default();
        picker.reset(pos, tt_move, hist, 0, None, &[None, None]);
        let mut root_moves = Vec::new();
        while let Some((m, _)) = picker.next_move(pos, hist) {
            if sh.limits.searchmoves.is_empty() || sh.limits.searchmoves.contains(&m) {
                root_moves.push(RootMove::new(m, sh.tb_rank(m)));
            }
        }
        if root_moves.is_empty() && !sh.limits.searchmoves.is_empty() {
            // None of the searchmoves is legal: ignore the restriction.
            picker.reset(pos, tt_move, hist, 0, None, &[None, None]);
            while let Some((m, _)) = picker.next_move(pos, hist) {
                root_moves.push(RootMove::new(m, sh.tb_rank(m)));
            }
        }
        // Best-ranked first: the search keeps within a rank (see `group_end`).
        root_moves.sort_by_key(|r| std::cmp::Reverse(r.tb_rank));
        Worker {
            id,
            sh,
            hist,
            eval,
            nodes: 0,
            node_limit: if id == 0 { sh.limits.nodes } else { None },
            seldepth: 0,
            keys,
            stack: vec![Frame::default(); MAX_PLY + 8],
            pv: vec![[None; MAX_PLY + 1]; MAX_PLY + 2],
            pv_len: [0; MAX_PLY + 2],
            pickers: (0..MAX_PLY + 8).map(|_| Some(Box::default())).collect(),
            root_moves,
            pv_idx: 0,
            root_depth: 0,
            completed_depth: 0,
            stopped: false,
            tb,
        }
    }

    fn is_main(&self) -> bool {
        self.id == 0
    }

    /// The raw static evaluation of `pos`, the position at `ply`.
    #[inline(always)]
    fn evaluate(&mut self, pos: &Position, ply: usize) -> i32 {
        match endgame::bare_king(pos) {
            Some(known) => known,
            None => self.eval.evaluate(pos, ply),
        }
    }

    /// A node at `ply` is about to evaluate `pos` or search its children (the network's
    /// accumulators follow the search path).
    #[inline(always)]
    fn enter(&mut self, ply: usize, pos: &Position) {
        self.eval.enter(ply, pos);
    }

    /// The move picker of `ply`, taken out of its slot (a new one if the slot is empty:
    /// a singular-extension search at the same ply, or a node that returned early).
    #[inline]
    fn take_picker(&mut self, ply: usize) -> Box<MovePicker> {
        self.pickers.get_mut(ply).and_then(Option::take).unwrap_or_default()
    }

    #[inline]
    fn put_picker(&mut self, ply: usize, picker: Box<MovePicker>) {
        if let Some(slot) = self.pickers.get_mut(ply) {
            *slot = Some(picker);
        }
    }

    /// Polled at every node; does the real checks every 256 nodes (about 0.2 ms at full
    /// speed, so `stop` and the hard time limit are honoured even on a starved CPU).
    #[inline]
    fn check_stop(&mut self) -> bool {
        if self.stopped {
            return true;
        }
        // Iteration 1 always completes, so there is always a searched best move.
        if self.completed_depth == 0 {
            return false;
        }
        if let Some(n) = self.node_limit {
            if self.nodes >= n {
                self.stopped = true;
                return true;
            }
        }
        if self.nodes & 255 != 0 {
            return false;
        }
        self.poll_stop()
    }

    /// The every-256-nodes part of [`Self::check_stop`], kept out of line so the per-node
    /// part stays small in the hot loops.
    #[inline(never)]
    fn poll_stop(&mut self) -> bool {
        self.sh.nodes[self.id].store(self.nodes, Ordering::Relaxed);
        if let Some(n) = self.sh.limits.nodes.filter(|_| self.is_main() && self.sh.nodes.len() > 1) {
            let helpers = self.sh.total_nodes().saturating_sub(self.nodes);
            self.node_limit = Some(n.saturating_sub(helpers));
        }
        // A syscall: every 1024 nodes (~0.7 ms) is often enough.
        if self.nodes & 1023 == 0 && self.sh.control.input_pending() {
            std::thread::yield_now();
        }
        if self.sh.control.is_stopped() || self.sh.abort.load(Ordering::Relaxed) {
            self.stopped = true;
        } else if self.is_main() {
            if let (Some(b), Some(el)) = (self.sh.budget, self.sh.clock_elapsed()) {
                if el >= b.hard {
                    self.stopped = true;
                }
            }
        }
        self.stopped
    }

    /// Sends an event to the search's listener; only the main thread reports.
    fn report(&self, event: impl FnOnce() -> SearchEvent) {
        if self.is_main() {
            self.sh.emit(&event());
        }
    }

    /// Searches deeper and deeper until a limit says stop; returns this thread's best
    /// line from its last completed iteration.
    fn iterative_deepening(&mut self) -> Option<ThreadBest> {
        let sh = self.sh;
        let pos = &sh.position;
        if self.root_moves.is_empty() {
            let score = if pos.in_check() { mated_in(0) } else { DRAW };
            self.report(|| SearchEvent::Info(sh.info(0, 0, 1, score, ScoreBound::Exact, Vec::new())));
            let result = SearchResult {
                best: None,
                ponder: None,
                score: Score::from_internal(score),
                depth: 0,
                seldepth: 0,
                nodes: 0,
                pv: Vec::new(),
                time: sh.start.elapsed(),
            };
            return Some(ThreadBest { result, score });
        }
        let max_depth = self.sh.limits.depth.map_or(MAX_PLY as i32 - 4, |d| (d as i32).clamp(1, MAX_PLY as i32 - 4));
        let multipv = self.sh.multipv.min(self.root_moves.len());
        let mut best_snapshot: Vec<RootMove> = self.root_moves.clone();
        let mut best_seldepth = 0;
        let mut last_best = None;
        let mut stable = 0u32;

        for depth in 1..=max_depth {
            // Lazy SMP: helpers skip some depths so threads spread over depths.
            if self.id > 0 && depth > 2 && (depth as usize + self.id).is_multiple_of(3) {
                continue;
            }
            self.root_depth = depth;
            self.seldepth = 0;
            for rm in &mut self.root_moves {
                rm.prev_score = rm.score;
            }
            for pv_idx in 0..multipv {
                self.pv_idx = pv_idx;
                let prev = self.root_moves[pv_idx].prev_score;
                let mut delta = params::aspiration_delta();
                let (mut alpha, mut beta) = if depth >= params::aspiration_min_depth() && prev > -INFINITE {
                    ((prev - delta).max(-INFINITE), (prev + delta).min(INFINITE))
                } else {
                    (-INFINITE, INFINITE)
                };
                loop {
                    let score = self.root_search(pos, alpha, beta, depth);
                    sort_root(&mut self.root_moves[pv_idx..]);
                    if self.stopped {
                        break;
                    }
                    if score <= alpha {
                        beta = (alpha + beta) / 2;
                        alpha = (score - delta).max(-INFINITE);
                    } else if score >= beta {
                        beta = (score + delta).min(INFINITE);
                    } else {
                        break;
                    }
                    if self.is_main()
                        && pv_idx < self.sh.reported_lines
                        && self.sh.start.elapsed() > Duration::from_secs(3)
                    {
                        self.report(|| SearchEvent::Info(self.info_line(pv_idx, depth)));
                    }
                    delta += delta / 2 + 5;
                }
                sort_root(&mut self.root_moves[..=pv_idx]);
                if self.stopped {
                    break;
                }
            }
            if self.stopped {
                break;
            }
            self.completed_depth = depth;
            best_snapshot.clone_from(&self.root_moves);
            best_seldepth = self.iteration_seldepth();
            if !self.is_main() {
                continue;
            }
            for i in 0..multipv.min(self.sh.reported_lines) {
                self.report(|| SearchEvent::Info(self.info_line(i, depth)));
            }
            let best = self.root_moves[0].mv;
            if last_best == Some(best) {
                stable += 1;
            } else {
                stable = 0;
            }
            last_best = Some(best);

            // Should another iteration start?
            let score = self.root_moves[0].score;
            if let Some(m) = self.sh.limits.mate {
                if score >= MATE_IN_MAX && (mate_in(0) - score + 1) / 2 <= m as i32 {
                    break;
                }
            }
            if self.sh.control.is_stopped() {
                break;
            }
            if let Some(n) = self.sh.limits.soft_nodes {
                self.sh.nodes[self.id].store(self.nodes, Ordering::Relaxed);
                if self.sh.total_nodes() >= n {
                    break;
                }
            }
            if let (Some(b), Some(el)) = (self.sh.budget, self.sh.clock_elapsed()) {
                if b.fixed {
                    continue;
                }
                if self.root_moves.len() == 1 {
                    break;
                }
                let soft = b.soft.as_secs_f64() * stability_scale(stable);
                if el.as_secs_f64() >= soft.min(b.hard.as_secs_f64()) {
                    break;
                }
            }
        }
        self.sh.nodes[self.id].store(self.nodes, Ordering::Relaxed);
        let best = &best_snapshot[self.chosen_line(&best_snapshot[..multipv], best_seldepth)];
        let ponder = best.pv.get(1).copied().or_else(|| {
            let child = pos.make_move(best.mv);
            self.sh.tt.probe(child.key()).and_then(|e| e.mv).filter(|&m| is_legal(&child, m))
        });
        let result = SearchResult {
            best: Some(best.mv),
            ponder,
            score: Score::from_internal(self.sh.reported_score(Some(best.mv), best.score)),
            depth: self.completed_depth.max(1) as u32,
            seldepth: best_seldepth,
            nodes: self.sh.total_nodes(),
            pv: best.pv.clone(),
            time: self.sh.start.elapsed(),
        };
        Some(ThreadBest { result, score: best.score })
    }

    /// The line to play from the last completed iteration's `lines` (best first): the
    /// first, unless a strength level chooses another, which is then reported as the
    /// principal variation so the best move is always the last PV's first move.
    fn chosen_line(&self, lines: &[RootMove], seldepth: u32) -> usize {
        let Some(handicap) = self.sh.handicap.filter(|_| self.is_main() && self.completed_depth > 0) else {
            return 0;
        };
        let scores: Vec<i32> = lines.iter().map(|l| l.score).take_while(|&s| s > -INFINITE).collect();
        let i = handicap.choose(&scores);
        if i > 0 {
            let l = &lines[i];
            let depth = self.completed_depth as u32;
            self.report(|| {
                SearchEvent::Info(self.sh.info(depth, seldepth, 1, l.score, ScoreBound::Exact, l.pv.clone()))
            });
        }
        i
    }

    /// The deepest ply any root move reached in this iteration, never less than its depth.
    fn iteration_seldepth(&self) -> u32 {
        self.seldepth.max(self.root_depth as usize) as u32
    }

    fn info_line(&self, i: usize, depth: i32) -> SearchInfo {
        self.sh.nodes[self.id].store(self.nodes, Ordering::Relaxed);
        let rm = &self.root_moves[i];
        let score = if rm.score == -INFINITE { rm.prev_score } else { rm.score };
        self.sh.info(depth as u32, self.iteration_seldepth(), i as u32 + 1, score, rm.bound, rm.pv.clone())
    }

    /// `info currmove` for GUIs, once a search has run long enough to be worth watching.
    fn report_currmove(&self, depth: i32, mv: Move, index: usize) {
        if self.is_main() && self.sh.start.elapsed() >= CURRMOVE_AFTER {
            self.sh.emit(&SearchEvent::CurrMove { depth: depth as u32, mv, number: index as u32 + 1 });
        }
    }

    fn root_search(&mut self, pos: &Position, mut alpha: i32, beta: i32, depth: i32) -> i32 {
        let mut best = -INFINITE;
        self.nodes += 1;
        self.stack[0] = Frame::default();
        self.stack[0].static_eval = if pos.in_check() { None } else { Some(self.evaluate(pos, 0)) };
        self.hist.clear_killers(1);
        self.keys.push(pos.key());
        let start_alpha = alpha;
        for i in self.pv_idx..self.group_end() {
            let m = self.root_moves[i].mv;
            self.report_currmove(depth, m, i);
            let child = pos.make_move(m);
            self.stack[0].moved = Some(PieceTo::of(pos, m));
            let ext = child.in_check() as i32;
            let new_depth = depth - 1 + ext;
            let score = if i == self.pv_idx {
                -self.search(&child, -beta, -alpha, new_depth, 1, false)
            } else {
                let quiet = !m.is_tactical();
                let mut r = 0;
                if depth >= 3 && i >= self.pv_idx + 3 && quiet {
                    r = (lmr(depth, i) - 1).clamp(0, new_depth - 1);
                }
                let mut s = -self.search(&child, -alpha - 1, -alpha, new_depth - r, 1, true);
                if s > alpha && r > 0 && !self.stopped {
                    s = -self.search(&child, -alpha - 1, -alpha, new_depth, 1, true);
                }
                if s > alpha && s < beta && !self.stopped {
                    s = -self.search(&child, -beta, -alpha, new_depth, 1, false);
                }
                s
            };
            if self.stopped {
                break;
            }
            let rm_first = i == self.pv_idx;
            if rm_first || score > alpha {
                let mut pv = vec![m];
                for k in 0..self.pv_len[1] {
                    match self.pv[1][k] {
                        Some(mv) => pv.push(mv),
                        None => break,
                    }
                }
                let rm = &mut self.root_moves[i];
                rm.score = score;
                rm.pv = pv;
                rm.bound = if score >= beta {
                    ScoreBound::Lower
                } else if score <= start_alpha {
                    ScoreBound::Upper
                } else {
                    ScoreBound::Exact
                };
            } else {
                self.root_moves[i].score = -INFINITE;
            }
            if score > best {
                best = score;
            }
            if score > alpha {
                alpha = score;
                if score >= beta {
                    break;
                }
            }
        }
        self.keys.pop();
        if !self.stopped && self.pv_idx == 0 {
            let bm = self.root_moves.iter().max_by_key(|r| r.score).map(|r| r.mv);
            let bound = if best >= beta {
                Bound::Lower
            } else if best > start_alpha {
                Bound::Exact
            } else {
                Bound::Upper
            };
            let eval = self.stack[0].static_eval.unwrap_or(0);
            self.sh.tt.store(pos.key(), bm, score_to_tt(best, 0), eval, depth, bound);
        }
        best
    }

    /// The end of the current line's group of root moves: those of its table rank (all
    /// of them when the root is not in the tables). A line is chosen within its group,
    /// so a move the tables rank higher always comes first.
    fn group_end(&self) -> usize {
        let rank = self.root_moves[self.pv_idx].tb_rank;
        self.root_moves[self.pv_idx..]
            .iter()
            .position(|r| r.tb_rank != rank)
            .map_or(self.root_moves.len(), |n| self.pv_idx + n)
    }

    /// The tables' value of `pos` at `ply` as a search score, with its bound; `None`
    /// when the tables cannot tell (the search goes on). Only just after a zeroing move,
    /// as then the fifty-move counter is 0, as the tables assume.
    fn probe_tables(&self, pos: &Position, depth: i32, ply: usize) -> Option<(i32, Bound)> {
        let sh = self.sh;
        let pieces = pos.occupied().count();
        if pieces > self.tb.pieces
            || (pieces == self.tb.pieces && depth < self.tb.probe_depth)
            || pos.halfmove_clock() != 0
            || !pos.castling_rights().is_empty()
        {
            return None;
        }
        let wdl = self.tb.tables.probe_wdl(pos).ok()? as i32;
        sh.tb_hits.fetch_add(1, Ordering::Relaxed);
        let draw = sh.tb_rule50 as i32;
        Some(if wdl > draw {
            (TB_WIN - ply as i32, Bound::Lower)
        } else if wdl < -draw {
            (-TB_WIN + ply as i32, Bound::Upper)
        } else {
            (DRAW + 2 * wdl * draw, Bound::Exact)
        })
    }

    /// Draw by rule at an interior node: fifty moves, dead position (insufficient material,
    /// or a frozen pawn wall: only in king-and-pawn positions, rejected cheaply otherwise),
    /// repetition.
    fn is_draw(&self, pos: &Position) -> bool {
        if pos.halfmove_clock() >= 100 && (!pos.in_check() || has_legal_move(pos)) {
            return true;
        }
        if pos.insufficient_material() || crate::rules::dead::frozen_pawn_wall(pos) {
            return true;
        }
        // Repetition: a position that already occurred after the root is scored a draw at
        // once (whoever could avoid the repeat did not); one that only occurred at or before
        // the root counts as a draw when this is its third occurrence (FIDE 9.2), since a
        // second occurrence ends nothing and the opponent may still deviate.
        let key = pos.key();
        let n = self.keys.len();
        let root = self.sh.history.len(); // index of the root's key in `keys`
        let reach = (pos.halfmove_clock() as usize).min(n);
        let mut earlier = 0;
        let mut i = 2;
        while i <= reach {
            let j = n - i;
            if self.keys[j] == key {
                if j > root {
                    return true;
                }
                earlier += 1;
                if earlier >= 2 {
                    return true;
                }
            }
            i += 2;
        }
        false
    }

    /// What every node of the main search and of quiescence does first: count itself and
    /// end at once (`Some(score)`) when the search stops, on a draw by rule, or at the ply
    /// limit (the static evaluation, or a draw in check).
    #[inline(always)]
    fn open_node(&mut self, pos: &Position, ply: usize) -> Option<i32> {
        self.pv_len[ply] = 0;
        self.nodes += 1;
        if self.check_stop() {
            return Some(0);
        }
        self.seldepth = self.seldepth.max(ply);
        if self.is_draw(pos) {
            return Some(DRAW);
        }
        if ply >= MAX_PLY - 2 {
            if pos.in_check() {
                return Some(DRAW);
            }
            self.enter(ply, pos);
            return Some(self.evaluate(pos, ply));
        }
        None
    }

    fn update_pv(&mut self, ply: usize, m: Move) {
        self.pv[ply][0] = Some(m);
        let child_len = self.pv_len[ply + 1].min(MAX_PLY - 1);
        for k in 0..child_len {
            self.pv[ply][k + 1] = self.pv[ply + 1][k];
        }
        self.pv_len[ply] = child_len + 1;
    }

    #[allow(clippy::too_many_arguments)]
    fn search(&mut self, pos: &Position, mut alpha: i32, mut beta: i32, depth: i32, ply: usize, cut_node: bool) -> i32 {
        if depth <= 0 {
            return self.qsearch_with_eval(pos, alpha, beta, ply, None, true);
        }
        if let Some(score) = self.open_node(pos, ply) {
            return score;
        }
        let pv_node = beta - alpha > 1;
        let in_check = pos.in_check();
        // Mate-distance pruning: no line from here can beat a shorter mate already found.
        alpha = alpha.max(mated_in(ply));
        beta = beta.min(mate_in(ply + 1));
        if alpha >= beta {
            return alpha;
        }

        let key = pos.key();
        let excluded = self.stack[ply].excluded;
        let tt = self.sh.tt.probe(key);
        let tt_move = tt.and_then(|e| e.mv).filter(|&m| is_legal(pos, m));
        if let Some(e) = tt {
            let s = score_from_tt(e.score, ply);
            if !pv_node
                && excluded.is_none()
                && e.depth >= depth
                && pos.halfmove_clock() < 90
                && e.bound.settles(s, alpha, beta)
            {
                return s;
            }
        }
        if self.tb.pieces > 0 && excluded.is_none() {
            if let Some((value, bound)) = self.probe_tables(pos, depth, ply) {
                if bound.settles(value, alpha, beta) {
                    return value;
                }
            }
        }
        // From here on this node evaluates or has children (nodes cut off above need no
        // accumulator).
        self.enter(ply, pos);

        // The evaluation as stored in the TT, and as the search uses it (corrected by what
        // earlier searches found in positions with these pawns).
        let raw_eval = if in_check {
            None
        } else {
            Some(match tt {
                Some(e) => e.eval,
                None => self.evaluate(pos, ply),
            })
        };
        let static_eval = raw_eval.map(|e| self.corrected(pos, e));
        self.stack[ply].static_eval = static_eval;
        self.stack[ply].null_move = false;
        let improving = match (static_eval, ply.checked_sub(2).and_then(|p| self.stack[p].static_eval)) {
            (Some(e), Some(old)) => e > old,
            (Some(_), None) => true,
            _ => false,
        };
        self.hist.clear_killers(ply + 1);
        self.stack[ply + 1].double_exts = self.stack[ply].double_exts;

        // For pruning, a TT score is a better estimate than the static evaluation when its
        // bound points the right way.
        let eval = match (static_eval, tt) {
            (Some(se), Some(e)) => {
                let s = score_from_tt(e.score, ply);
                Some(if e.bound.corrects(s, se) && !is_mate_score(s) { s } else { se })
            }
            _ => static_eval,
        };

        if let (false, None, Some(eval)) = (pv_node, excluded, eval) {
            // Razoring: far below alpha near the horizon, only captures could save it.
            if depth <= params::razor_max_depth() && eval + params::razor_margin() * depth <= alpha {
                let s = self.qsearch_with_eval(pos, alpha, alpha + 1, ply, raw_eval, false);
                if self.stopped {
                    return 0;
                }
                if s <= alpha {
                    return s;
                }
            }
            // Reverse futility: far above beta at low depth, a quiet move will not lose it all.
            if depth <= params::rfp_max_depth()
                && !is_mate_score(beta)
                && eval - (params::rfp_margin() * depth - if improving { params::rfp_improving() } else { 0 }) >= beta
            {
                return eval;
            }
            // Null move: if passing still fails high, a real move surely does. Not in
            // pawn-only endings (zugzwang) and never twice in a row.
            if depth >= params::nmp_min_depth()
                && eval >= beta
                && !self.stack[ply - 1].null_move
                && pos.has_non_pawn_material(pos.side_to_move())
                && !is_mate_score(beta)
            {
                let r = params::nmp_base()
                    + depth / params::nmp_depth_divisor()
                    + ((eval - beta) / params::nmp_eval_divisor()).min(params::nmp_eval_max());
                let child = pos.make_null_move();
                self.stack[ply].moved = None;
                self.stack[ply].null_move = true;
                self.keys.push(key);
                let s = -self.search(&child, -beta, -beta + 1, depth - r, ply + 1, !cut_node);
                self.keys.pop();
                self.stack[ply].null_move = false;
                if self.stopped {
                    return 0;
                }
                if s >= beta {
                    return if is_mate_score(s) { beta } else { s };
                }
            }
            // ProbCut: a good capture that beats beta by a margin in a reduced search
            // very likely beats beta in the full one.
            let pc_beta = beta + params::probcut_margin();
            if depth >= params::probcut_min_depth()
                && !is_mate_score(beta)
                && !tt.is_some_and(|e| e.depth >= depth - 3 && score_from_tt(e.score, ply) < pc_beta)
            {
                let raw = raw_eval.unwrap_or(eval);
                if let Some(s) = self.probcut(pos, key, tt_move, (eval, raw), pc_beta, depth, ply, cut_node) {
                    return s;
                }
                if self.stopped {
                    return 0;
                }
            }
        }

        // Internal iterative reduction: without a TT move the ordering is poor; search shallower.
        let depth = if tt_move.is_none() && depth >= params::iir_min_depth() && (pv_node || cut_node) {
            depth - 1
        } else {
            depth
        };

        let cont: Continuation = [self.stack[ply - 1].moved, ply.checked_sub(2).and_then(|p| self.stack[p].moved)];
        let counter = cont[0].and_then(|prev| self.hist.counter(prev));
        let mut picker = self.take_picker(ply);
        picker.reset(pos, tt_move, self.hist, ply, counter, &cont);
        if picker.is_empty() {
            self.put_picker(ply, picker);
            return if in_check { mated_in(ply) } else { DRAW };
        }
        let us = pos.side_to_move();
        let start_alpha = alpha;
        let mut best = -INFINITE;
        let mut best_move = None;
        let mut searched = 0usize;
        let mut quiets_tried: [Option<(Move, PieceTo)>; 64] = [None; 64];
        let mut n_quiets = 0;
        let mut captures_tried: [Option<(PieceTo, Option<PieceType>)>; 32] = [None; 32];
        let mut n_captures = 0;
        // Computed at the first quiet move that futility pruning asks about.
        let mut check_squares = None;
        self.keys.push(key);

        while let Some((m, order)) = picker.next_move(pos, self.hist) {
            if Some(m) == excluded {
                continue;
            }
            let quiet = !m.is_tactical();
            let refutation = is_refutation_score(order);
            let moved = PieceTo::of(pos, m);
            let quiet_history = if quiet { self.hist.quiet(us, m, moved, &cont) } else { 0 };
            if best > -MATE_IN_MAX && !in_check && searched > 0 {
                if quiet {
                    // History pruning: near the horizon, a move that has kept failing is skipped.
                    if depth <= params::hp_max_depth() && !refutation && quiet_history < -params::hp_margin() * depth {
                        continue;
                    }
                    // Late-move pruning: this quiet move and, since nothing here falls as the
                    // loop goes on, every later one.
                    if !pv_node
                        && depth <= params::lmp_max_depth()
                        && searched >= (params::lmp_base() + depth * depth) as usize / if improving { 1 } else { 2 }
                    {
                        picker.skip_quiets();
                        continue;
                    }
                    // Futility pruning.
                    if let Some(eval) = eval {
                        if depth <= params::fp_max_depth()
                            && !refutation
                            && eval + params::fp_base() + params::fp_per_depth() * depth <= alpha
                            && !pos.gives_check_by(m, check_squares.get_or_insert_with(|| pos.check_squares()))
                        {
                            continue;
                        }
                    }
                    if depth <= params::see_max_depth() && !see_ge(pos, m, -params::see_quiet() * depth * depth) {
                        continue;
                    }
                } else if depth <= params::see_max_depth()
                    && is_bad_tactical_score(order)
                    && !see_ge(pos, m, -params::see_tactical() * depth)
                {
                    continue;
                }
            }
            let mut ext = 0;
            let mut singular_searched = false;
            if let Some(e) = tt.filter(|_| Some(m) == tt_move && excluded.is_none()) {
                let tt_score = score_from_tt(e.score, ply);
                if depth >= params::se_min_depth()
                    && e.depth >= depth - 3
                    && e.bound != Bound::Upper
                    && !is_mate_score(tt_score)
                    && ply < 2 * self.root_depth as usize
                {
                    // Singular extension: is the TT move much better than every other move?
                    // Search the rest at half depth against a bound a little below its score.
                    let s_beta = tt_score - depth * params::se_beta_margin() / 16;
                    self.keys.pop();
                    self.stack[ply].excluded = Some(m);
                    let s = self.search(pos, s_beta - 1, s_beta, (depth - 1) / 2, ply, cut_node);
                    self.stack[ply].excluded = None;
                    self.keys.push(key);
                    if self.stopped {
                        self.keys.pop();
                        return 0;
                    }
                    singular_searched = true;
                    if s < s_beta {
                        ext = if !pv_node
                            && s < s_beta - params::se_double_margin()
                            && self.stack[ply].double_exts < params::se_double_max()
                        {
                            2
                        } else {
                            1
                        };
                    } else if s_beta >= beta {
                        // Multi-cut: another move also beats beta; this node will fail high.
                        self.keys.pop();
                        self.put_picker(ply, picker);
                        return s_beta;
                    } else if tt_score >= beta {
                        // The TT move is not the only good one: it need not be searched so deep.
                        ext = -1;
                    }
                }
            }
            let child = pos.make_move(m);
            let gives_check = child.in_check();
            if !singular_searched {
                ext = (gives_check && ply < 2 * self.root_depth as usize) as i32;
            }
            let new_depth = depth - 1 + ext;
            self.stack[ply + 1].double_exts = self.stack[ply].double_exts + (ext >= 2) as i32;
            self.stack[ply].moved = Some(moved);
            searched += 1;

            let score = if searched == 1 {
                -self.search(&child, -beta, -alpha, new_depth, ply + 1, !pv_node && !cut_node)
            } else {
                let mut r = 0;
                if depth >= 3 && searched > 1 + pv_node as usize && (quiet || is_bad_tactical_score(order)) {
                    r = lmr(depth, searched);
                    if pv_node {
                        r -= 1;
                    }
                    if !improving {
                        r += 1;
                    }
                    if cut_node {
                        r += 1;
                    }
                    if refutation {
                        r -= 1;
                    }
                    if gives_check || in_check {
                        r -= 1;
                    }
                    if quiet {
                        r -= quiet_history / params::lmr_history_divisor();
                        // When the TT move is a capture, the quiet moves are likely worse.
                        if tt_move.is_some_and(|t| t.is_tactical()) {
                            r += 1;
                        }
                    }
                    r = r.clamp(0, new_depth - 1);
                }
                let mut s = -self.search(&child, -alpha - 1, -alpha, new_depth - r, ply + 1, true);
                if s > alpha && r > 0 && !self.stopped {
                    s = -self.search(&child, -alpha - 1, -alpha, new_depth, ply + 1, !cut_node);
                }
                if pv_node && s > alpha && s < beta && !self.stopped {
                    s = -self.search(&child, -beta, -alpha, new_depth, ply + 1, false);
                }
                s
            };
            if self.stopped {
                self.keys.pop();
                return 0;
            }
            if score > best {
                best = score;
                if score > alpha {
                    best_move = Some(m);
                    alpha = score;
                    if pv_node {
                        self.update_pv(ply, m);
                    }
                    if score >= beta {
                        let b = bonus(depth);
                        if quiet {
                            self.hist.update_quiet(us, m, moved, &cont, b);
                            for &(q, qm) in quiets_tried[..n_quiets].iter().flatten() {
                                self.hist.update_quiet(us, q, qm, &cont, -b);
                            }
                            self.hist.add_killer(ply, m);
                            if let Some(prev) = cont[0] {
                                self.hist.set_counter(prev, m);
                            }
                        } else {
                            self.hist.update_capture(moved, pos.captured_piece(m), b);
                        }
                        for &(cm, victim) in captures_tried[..n_captures].iter().flatten() {
                            self.hist.update_capture(cm, victim, -b);
                        }
                        break;
                    }
                }
            }
            if quiet && n_quiets < quiets_tried.len() {
                quiets_tried[n_quiets] = Some((m, moved));
                n_quiets += 1;
            } else if !quiet && n_captures < captures_tried.len() {
                captures_tried[n_captures] = Some((moved, pos.captured_piece(m)));
                n_captures += 1;
            }
        }
        self.keys.pop();
        self.put_picker(ply, picker);
        if excluded.is_some() {
            // A singular-extension search: its result is not this node's; nothing to store.
            return if searched == 0 { alpha } else { best };
        }

        let bound = if best >= beta {
            Bound::Lower
        } else if pv_node && best > start_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        if let (Some(raw), Some(eval)) = (raw_eval, static_eval) {
            // Teach the correction history when the result says something about the
            // evaluation: not after a capture (material, not structure), and only in the
            // direction the bound allows.
            if bound.corrects(best, eval) && best_move.is_none_or(|m| !m.is_tactical()) && !is_mate_score(best) {
                self.hist.update_correction(pos, depth, best - raw);
            }
        }
        self.sh.tt.store(key, best_move, score_to_tt(best, ply), raw_eval.unwrap_or(0), depth, bound);
        best
    }

    /// ProbCut's captures (see [`Self::search`]): the score that proves a cutoff, if any.
    #[allow(clippy::too_many_arguments)]
    fn probcut(
        &mut self,
        pos: &Position,
        key: u64,
        tt_move: Option<Move>,
        (eval, raw_eval): (i32, i32),
        pc_beta: i32,
        depth: i32,
        ply: usize,
        cut_node: bool,
    ) -> Option<i32> {
        let mut picker = self.take_picker(ply);
        picker.reset_quiescence(pos, tt_move.filter(|m| m.is_tactical()), self.hist, false);
        self.keys.push(key);
        let mut result = None;
        while let Some((m, _)) = picker.next_move(pos, self.hist) {
            if !see_ge(pos, m, pc_beta - eval) {
                continue;
            }
            let child = pos.make_move(m);
            self.stack[ply].moved = Some(PieceTo::of(pos, m));
            let mut s = -self.qsearch(&child, -pc_beta, -pc_beta + 1, ply + 1);
            if s >= pc_beta && !self.stopped {
                s = -self.search(&child, -pc_beta, -pc_beta + 1, depth - 4, ply + 1, !cut_node);
            }
            if self.stopped {
                break;
            }
            if s >= pc_beta {
                self.sh.tt.store(key, Some(m), score_to_tt(s, ply), raw_eval, depth - 3, Bound::Lower);
                result = Some(s);
                break;
            }
        }
        self.keys.pop();
        self.put_picker(ply, picker);
        result
    }

    /// A static evaluation plus the correction history's adjustment.
    #[inline]
    fn corrected(&self, pos: &Position, raw: i32) -> i32 {
        (raw + self.hist.correction(pos)).clamp(-MATE_IN_MAX + 1, MATE_IN_MAX - 1)
    }

    #[inline]
    fn qsearch(&mut self, pos: &Position, alpha: i32, beta: i32, ply: usize) -> i32 {
        self.qsearch_with_eval(pos, alpha, beta, ply, None, false)
    }

    /// [`Self::qsearch`] where the caller may already know the raw static evaluation of
    /// `pos` (`known_raw`, used only if the TT has none), so it is not computed twice.
    /// `quiet_checks` (the first quiescence ply below the main search): quiet moves that give
    /// check and do not lose material are searched too, so a mating net or a forking check at
    /// the horizon is not left to the static evaluation.
    fn qsearch_with_eval(
        &mut self,
        pos: &Position,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        known_raw: Option<i32>,
        quiet_checks: bool,
    ) -> i32 {
        if let Some(score) = self.open_node(pos, ply) {
            return score;
        }
        let in_check = pos.in_check();
        let pv_node = beta - alpha > 1;
        let key = pos.key();
        let tt = self.sh.tt.probe(key);
        if let Some(e) = tt {
            let s = score_from_tt(e.score, ply);
            if !pv_node && e.bound.settles(s, alpha, beta) {
                return s;
            }
        }
        self.enter(ply, pos);
        let tt_move = tt.and_then(|e| e.mv).filter(|&m| m.is_tactical() || in_check).filter(|&m| is_legal(pos, m));

        let (raw_eval, stand_pat, mut best) = if in_check {
            (None, None, -INFINITE)
        } else {
            let raw = tt.map_or_else(|| known_raw.unwrap_or_else(|| self.evaluate(pos, ply)), |t| t.eval);
            let e = self.corrected(pos, raw);
            if e >= beta {
                return e;
            }
            alpha = alpha.max(e);
            (Some(raw), Some(e), e)
        };
        let start_alpha = alpha;
        let mut best_move = None;
        let mut picker = self.take_picker(ply);
        picker.reset_quiescence(pos, tt_move, self.hist, quiet_checks);
        if in_check && picker.is_empty() {
            self.put_picker(ply, picker);
            return mated_in(ply);
        }
        self.keys.push(key);
        while let Some((m, _)) = picker.next_move(pos, self.hist) {
            if let Some(sp) = stand_pat {
                // Delta pruning: even winning the victim cleanly cannot reach alpha (a quiet
                // check, the only quiet move here, is searched for what it threatens).
                let gain = pos.captured_piece(m).map_or(0, super::see::value)
                    + m.promotion().map_or(0, |p| super::see::value(p) - 100);
                if sp + gain + params::qs_delta_margin() <= alpha && m.is_tactical() && !m.is_promotion() {
                    continue;
                }
                if !see_ge(pos, m, 0) {
                    continue;
                }
            }
            let child = pos.make_move(m);
            let score = -self.qsearch(&child, -beta, -alpha, ply + 1);
            if self.stopped {
                self.keys.pop();
                return 0;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    best_move = Some(m);
                    if pv_node {
                        self.update_pv(ply, m);
                    }
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        self.keys.pop();
        self.put_picker(ply, picker);
        let bound = if best >= beta {
            Bound::Lower
        } else if pv_node && best > start_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.sh.tt.store(key, best_move, score_to_tt(best, ply), raw_eval.unwrap_or(0), 0, bound);
        best
    }
}

/// Best first; a stable sort keeps the previous order among equal scores.
fn sort_root(moves: &mut [RootMove]) {
    moves.sort_by(|a, b| b.tb_rank.cmp(&a.tb_rank).then(b.score.cmp(&a.score)).then(b.prev_score.cmp(&a.prev_score)));
}
