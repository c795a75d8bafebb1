//! The tables `SyzygyPath` names, read off the UCI command thread.
//!
//! Setting `SyzygyPath` reads the directories: a header of a few KiB a file, which for a
//! set of 6-piece tables (1,000+ files) on a cold disk takes seconds. So a thread of its
//! own reads them ([`TableLoad::start`]) and nothing on the command thread waits for it:
//! `isready` is answered at once. What must see the new tables waits for them where it
//! runs: a search started meanwhile on its first search thread (until `stop` or its time
//! limit; then it searches without tables), the tables' part of `d` on its own thread.
//! What the load found is said (through the engine's note sink) before the tables are
//! handed to anyone, so those lines come before any output that used the tables.

use crate::syzygy::Tablebases;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::Duration;

/// Where the lines a load produces go as soon as it ends (the UCI session prints them);
/// without one they wait for [`TableLoad::take_notes`].
pub type NoteSink = Arc<dyn Fn(&[String]) + Send + Sync>;

/// Tables being read, or read.
pub struct TableLoad {
    tables: Mutex<Option<Arc<Tablebases>>>,
    loaded: Condvar,
    /// Set when a later `SyzygyPath` makes this load pointless.
    cancelled: AtomicBool,
    /// The lines of a finished load, when there was no sink to take them.
    notes: Mutex<Vec<String>>,
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

impl TableLoad {
    /// Tables there already (none, for example).
    pub fn ready(tables: Tablebases) -> Arc<TableLoad> {
        Arc::new(TableLoad {
            tables: Mutex::new(Some(Arc::new(tables))),
            loaded: Condvar::new(),
            cancelled: AtomicBool::new(false),
            notes: Mutex::default(),
        })
    }

    /// Reads the tables of `path` on a thread of its own, after `before` (a load this one
    /// replaces: it is cancelled, and waited for so that the loads' lines come in order).
    pub fn start(path: String, before: Arc<TableLoad>, sink: Option<NoteSink>) -> Arc<TableLoad> {
        before.cancelled.store(true, Ordering::Relaxed);
        let load = Arc::new(TableLoad {
            tables: Mutex::new(None),
            loaded: Condvar::new(),
            cancelled: AtomicBool::new(false),
            notes: Mutex::default(),
        });
        let job = Arc::clone(&load);
        let (p, b, s) = (path.clone(), Arc::clone(&before), sink.clone());
        let work = move || {
            // Whoever waits for the tables must not wait for ever.
            if catch_unwind(AssertUnwindSafe(|| job.run(&p, &b, s))).is_err() {
                log::error!("Syzygy: reading the tables failed");
                job.publish(Tablebases::empty());
            }
        };
        if let Err(e) = std::thread::Builder::new().name("syzygy-load".into()).spawn(work) {
            // No thread to be had: read them here rather than not at all.
            log::warn!("Syzygy: cannot start a thread to read the tables ({e}): reading them now");
            load.run(&path, &before, sink);
        }
        load
    }

    fn run(&self, path: &str, before: &TableLoad, sink: Option<NoteSink>) {
        before.wait();
        let (tables, report) = Tablebases::load_while(path, &|| !self.cancelled.load(Ordering::Relaxed));
        if self.cancelled.load(Ordering::Relaxed) {
            // Replaced before it was done: whoever still waits for it gets no tables.
            return self.publish(Tablebases::empty());
        }
        let mut notes: Vec<String> = report.problems.iter().map(|p| format!("Syzygy: {p}")).collect();
        notes.push(format!("Syzygy: found {report} in '{path}'"));
        match sink {
            Some(say) => say(&notes),
            None => *lock(&self.notes) = notes,
        }
        self.publish(tables);
    }

    fn publish(&self, tables: Tablebases) {
        *lock(&self.tables) = Some(Arc::new(tables));
        self.loaded.notify_all();
    }

    /// Gives the load up (the engine that asked for it is going away).
    pub fn cancel(&self) {
        self.cancelled.store(true, Ordering::Relaxed);
    }

    /// The tables, if they are read.
    pub fn loaded(&self) -> Option<Arc<Tablebases>> {
        lock(&self.tables).clone()
    }

    /// The tables, once they are read.
    pub fn wait(&self) -> Arc<Tablebases> {
        self.wait_while(|| true).unwrap_or_else(|| Arc::new(Tablebases::empty()))
    }

    /// The tables once they are read, or `None` as soon as `go_on` (asked every few
    /// milliseconds) says no.
    pub fn wait_while(&self, go_on: impl Fn() -> bool) -> Option<Arc<Tablebases>> {
        let mut tables = lock(&self.tables);
        loop {
            if let Some(t) = &*tables {
                return Some(Arc::clone(t));
            }
            if !go_on() {
                return None;
            }
            tables = self.loaded.wait_timeout(tables, Duration::from_millis(2)).unwrap_or_else(|e| e.into_inner()).0;
        }
    }

    /// The lines of a finished load that no sink took (once).
    pub fn take_notes(&self) -> Vec<String> {
        std::mem::take(&mut *lock(&self.notes))
    }
}
