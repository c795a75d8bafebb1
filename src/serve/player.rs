//! Arbiter's moves against a learner: a small pool of engines shared by every board, each
//! search on a thread of its own (the page stays responsive and polls), bounded in time, one
//! search per board at a time, and dropped when the board changed meanwhile (a take-back).

use super::board::{Board, Mode, Strength};
use super::store::{lock, Store};
use crate::engine::{Engine, EngineOptions, Limits, SearchControl, SearchRequest};
use std::sync::{Arc, Condvar, Mutex};
use std::time::Duration;

/// The engines, made as needed up to `capacity`; a search waits for a free one.
pub struct Engines {
    options: EngineOptions,
    free: Mutex<Vec<Engine>>,
    made: Mutex<usize>,
    returned: Condvar,
    capacity: usize,
    /// The longest Arbiter thinks over a move.
    pub move_time: Duration,
}

impl Engines {
    /// The pool; one engine is made at once, so a bad `EvalFile` or `SyzygyPath` is reported
    /// at start-up (with the engine's notes, e.g. what the tables held).
    pub fn new(options: EngineOptions, capacity: usize, move_time: Duration) -> Result<(Engines, Vec<String>), String> {
        let mut first = Engine::new(options.clone()).map_err(|e| e.to_string())?;
        // The tables are read in the background: wait for them, to say what they held.
        first.tablebases().wait();
        let notes = first.take_notes();
        let pool = Engines {
            options,
            free: Mutex::new(vec![first]),
            made: Mutex::new(1),
            returned: Condvar::new(),
            capacity: capacity.max(1),
            move_time,
        };
        Ok((pool, notes))
    }

    /// The tables the engines probe (`--syzygy`), for the page's tablebase panel.
    pub fn tablebases(&self) -> Arc<crate::syzygy::Tablebases> {
        let free = self.free.lock().unwrap_or_else(|e| e.into_inner());
        free.first().map_or_else(|| Arc::new(crate::syzygy::Tablebases::empty()), |e| e.tablebases().wait())
    }

    /// A free engine, or a new one while fewer than `capacity` exist; else waits for one.
    fn take(&self) -> Result<Engine, String> {
        let mut free = self.free.lock().unwrap_or_else(|e| e.into_inner());
        loop {
            if let Some(e) = free.pop() {
                return Ok(e);
            }
            {
                let mut made = self.made.lock().unwrap_or_else(|e| e.into_inner());
                if *made < self.capacity {
                    *made += 1;
                    drop(made);
                    drop(free);
                    return Engine::new(self.options.clone()).map_err(|e| e.to_string());
                }
            }
            free = self.returned.wait(free).unwrap_or_else(|e| e.into_inner());
        }
    }

    fn give(&self, engine: Engine) {
        self.free.lock().unwrap_or_else(|e| e.into_inner()).push(engine);
        self.returned.notify_one();
    }
}

/// Starts Arbiter's search on board `id` if it is Arbiter's turn and none runs yet; the move
/// is played on the board when the search ends (unless the board changed meanwhile).
pub fn think_if_due(engines: &Arc<Engines>, store: &Arc<Store>, id: &str, board: &mut Board) {
    let Mode::Engine { strength, .. } = board.mode() else { return };
    if !board.engine_to_move() || board.thinking().is_some() {
        return;
    }
    let control = Arc::new(SearchControl::new());
    board.start_thinking(Arc::clone(&control));
    let generation = board.generation();
    let game = board.game();
    let keys = game.keys();
    let request = SearchRequest {
        position: *game.current(),
        history: keys[..keys.len() - 1].to_vec(),
        limits: Limits { movetime: Some(engines.move_time), ..Limits::default() },
    };
    let (engines, store, id) = (Arc::clone(engines), Arc::clone(store), id.to_string());
    let spawned = std::thread::Builder::new().name("arbiter move".into()).spawn(move || {
        let best = search(&engines, strength, request, &control);
        if let Some(entry) = store.get(&id) {
            let mut entry = lock(&entry);
            entry.board.engine_move(generation, best);
        }
    });
    if let Err(e) = spawned {
        log::error!("cannot start a search thread: {e}");
        board.engine_move(generation, None);
    }
}

/// One search with `strength` on an engine of the pool; `None` if none could be had.
fn search(
    engines: &Engines,
    strength: Strength,
    request: SearchRequest,
    control: &Arc<SearchControl>,
) -> Option<crate::chess::Move> {
    let mut engine = match engines.take() {
        Ok(e) => e,
        Err(e) => {
            log::error!("no engine for a search: {e}");
            return None;
        }
    };
    let (limit, elo) = match strength {
        Strength::Full => ("false", None),
        Strength::Elo(e) => ("true", Some(e.to_string())),
    };
    let configured = engine.set_option("UCI_LimitStrength", Some(limit)).is_ok()
        && elo.as_deref().is_none_or(|e| engine.set_option("UCI_Elo", Some(e)).is_ok());
    let best =
        if configured && !control.is_stopped() { engine.search(request, control, &mut |_| {}).best } else { None };
    engines.give(engine);
    best
}
