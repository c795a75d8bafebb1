//! The search threads: a pool of long-lived threads with large stacks, each owning its
//! per-thread tables ([`ThreadData`]), which survive from one search to the next. An
//! idle thread sleeps on its mailbox until it is given a task; the engine hands every
//! thread one task per `go` (the search), per `ucinewgame` (clear its tables and its
//! slice of the hash) and per hash resize (zero its slice).

use super::eval::PawnCache;
use super::history::History;
use super::nnue::AccumulatorStack;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::thread::JoinHandle;

/// Stack size of every search thread: recursion is up to MAX_PLY plies of copy-made
/// positions and move lists (~1.5 KB each), with room to spare. Only touched pages
/// are ever committed.
const STACK_SIZE: usize = 64 * 1024 * 1024;

/// What each search thread keeps between searches (move-ordering memory). A new
/// per-thread table is a field here, reset in [`ThreadData::clear`].
#[derive(Default)]
pub struct ThreadData {
    pub history: History,
    /// The evaluation's pawn-structure cache (exact, so it is never cleared).
    pub pawns: PawnCache,
    /// The network's accumulators, one per ply (allocated by the first search with a network).
    pub accumulators: AccumulatorStack,
}

impl ThreadData {
    /// Forgets everything learnt (a new game).
    pub fn clear(&mut self) {
        self.history.clear();
    }
}

/// Work for one thread: called with the thread's index (0 = main) and its tables.
type Task = Box<dyn FnOnce(usize, &mut ThreadData) + Send>;

enum State {
    Idle,
    Pending(Task),
    Running,
    Quit,
}

/// One thread's slot: the task it is given, and a condition variable for both
/// directions (a task arrived; the task is done).
struct Mailbox {
    state: Mutex<State>,
    changed: Condvar,
}

impl Mailbox {
    fn lock(&self) -> MutexGuard<'_, State> {
        // A task's panic is caught outside the lock, so poisoning cannot happen; if it
        // ever did, the state itself is still consistent.
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }
}

struct Worker {
    mailbox: Arc<Mailbox>,
    handle: Option<JoinHandle<()>>,
}

/// The pool; thread 0 is the search's main thread.
pub struct ThreadPool {
    workers: Vec<Worker>,
}

fn idle_loop(id: usize, mailbox: &Mailbox) {
    // Allocated by the thread that uses it (first touch on its own memory node).
    let mut data = ThreadData::default();
    loop {
        let task = {
            let mut state = mailbox.lock();
            loop {
                match std::mem::replace(&mut *state, State::Running) {
                    State::Pending(task) => break task,
                    State::Quit => return,
                    idle @ (State::Idle | State::Running) => {
                        *state = idle;
                        state = mailbox.changed.wait(state).unwrap_or_else(|e| e.into_inner());
                    }
                }
            }
        };
        if catch_unwind(AssertUnwindSafe(|| task(id, &mut data))).is_err() {
            // The task's own code reports what it can (the main search thread still
            // answers); the thread stays usable, its tables possibly half-updated.
            log::error!("a task on search thread {id} panicked");
        }
        *mailbox.lock() = State::Idle;
        mailbox.changed.notify_all();
    }
}

impl ThreadPool {
    /// A pool of `n` threads (at least one).
    pub fn new(n: usize) -> std::io::Result<ThreadPool> {
        let mut pool = ThreadPool { workers: Vec::new() };
        pool.resize(n)?;
        Ok(pool)
    }

    pub fn len(&self) -> usize {
        self.workers.len()
    }

    pub fn is_empty(&self) -> bool {
        self.workers.is_empty()
    }

    /// Grows or shrinks the pool to `n` threads (at least one), waiting for running
    /// tasks first. If a thread cannot be started the pool keeps the ones it has and
    /// the error is returned.
    pub fn resize(&mut self, n: usize) -> std::io::Result<()> {
        self.wait_idle();
        let n = n.max(1);
        while self.workers.len() > n {
            if let Some(w) = self.workers.pop() {
                w.quit();
            }
        }
        while self.workers.len() < n {
            let id = self.workers.len();
            let mailbox = Arc::new(Mailbox { state: Mutex::new(State::Idle), changed: Condvar::new() });
            let theirs = Arc::clone(&mailbox);
            let handle = std::thread::Builder::new()
                .name(format!("search-{id}"))
                .stack_size(STACK_SIZE)
                .spawn(move || idle_loop(id, &theirs))?;
            self.workers.push(Worker { mailbox, handle: Some(handle) });
        }
        Ok(())
    }

    /// Gives thread `id` a task; it must be idle (see [`ThreadPool::wait_idle`]).
    fn give(&self, id: usize, task: Task) {
        let w = &self.workers[id];
        let mut state = w.mailbox.lock();
        debug_assert!(matches!(*state, State::Idle), "thread {id} given a task while busy");
        *state = State::Pending(task);
        drop(state);
        w.mailbox.changed.notify_all();
    }

    /// Starts `f` on every thread (after waiting for any running task) and returns at
    /// once; [`ThreadPool::wait_idle`] waits for them to finish.
    pub fn start_all<F>(&self, f: F)
    where
        F: Fn(usize, &mut ThreadData) + Send + Sync + 'static,
    {
        self.wait_idle();
        let f = Arc::new(f);
        for id in 0..self.workers.len() {
            let f = Arc::clone(&f);
            self.give(id, Box::new(move |id, data| f(id, data)));
        }
    }

    /// Runs `f` on every thread in parallel and waits for all of them.
    pub fn run_all<F>(&self, f: F)
    where
        F: Fn(usize, &mut ThreadData) + Send + Sync + 'static,
    {
        self.start_all(f);
        self.wait_idle();
    }

    /// Waits until every thread has finished its task.
    pub fn wait_idle(&self) {
        for w in &self.workers {
            w.wait_idle();
        }
    }

    /// True when no thread has a task.
    pub fn is_idle(&self) -> bool {
        self.workers.iter().all(|w| matches!(*w.mailbox.lock(), State::Idle))
    }
}

impl Worker {
    fn wait_idle(&self) {
        let mut state = self.mailbox.lock();
        while !matches!(*state, State::Idle) {
            state = self.mailbox.changed.wait(state).unwrap_or_else(|e| e.into_inner());
        }
    }

    /// Ends the thread once its current task is done, and joins it.
    fn quit(mut self) {
        self.wait_idle();
        *self.mailbox.lock() = State::Quit;
        self.mailbox.changed.notify_all();
        if let Some(h) = self.handle.take() {
            if h.join().is_err() {
                log::error!("a search thread ended with a panic");
            }
        }
    }
}

impl Drop for ThreadPool {
    /// Joins every thread (after their current tasks: stop a search before dropping).
    fn drop(&mut self) {
        while let Some(w) = self.workers.pop() {
            w.quit();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};

    #[test]
    fn every_thread_runs_each_task_and_keeps_its_data() {
        let mut pool = ThreadPool::new(3).expect("pool");
        let seen = Arc::new(AtomicUsize::new(0));
        let s = Arc::clone(&seen);
        pool.run_all(move |id, data| {
            s.fetch_add(1 << (8 * id), Ordering::SeqCst);
            // Leave a mark in the per-thread data ...
            data.history.add_killer(1, crate::chess::Move::from_raw(1 + id as u16).expect("move"));
        });
        assert_eq!(seen.load(Ordering::SeqCst), 0x01_01_01);
        // ... which the next task on the same thread finds.
        let found = Arc::new(AtomicUsize::new(0));
        let f = Arc::clone(&found);
        pool.run_all(move |id, data| {
            if data.history.killers(1)[0].map(|m| m.raw()) == Some(1 + id as u16) {
                f.fetch_add(1, Ordering::SeqCst);
            }
        });
        assert_eq!(found.load(Ordering::SeqCst), 3);
        pool.resize(1).expect("shrink");
        assert_eq!(pool.len(), 1);
        pool.resize(2).expect("grow");
        assert!(pool.is_idle());
    }

    #[test]
    fn a_panicking_task_leaves_the_thread_usable() {
        let pool = ThreadPool::new(1).expect("pool");
        pool.run_all(|_, _| panic!("deliberate"));
        let ran = Arc::new(AtomicUsize::new(0));
        let r = Arc::clone(&ran);
        pool.run_all(move |_, _| {
            r.fetch_add(1, Ordering::SeqCst);
        });
        assert_eq!(ran.load(Ordering::SeqCst), 1);
    }
}
