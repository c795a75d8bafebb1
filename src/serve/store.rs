//! The boards the server holds: each under its own lock, found by an id nobody can guess,
//! at most [`Store::capacity`] of them; a board unused for [`Store::ttl`] is dropped, and when
//! the store is full the board unused longest makes room.

use super::board::Board;
use std::collections::HashMap;
use std::hash::{BuildHasher, Hasher};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

/// A board and when it was last used.
#[derive(Debug)]
pub struct Entry {
    pub board: Board,
    last_used: Instant,
}

/// The boards held.
pub struct Store {
    boards: Mutex<HashMap<String, Arc<Mutex<Entry>>>>,
    capacity: usize,
    ttl: Duration,
    /// The keyed hasher ids are made with (its key comes from the operating system).
    keys: std::collections::hash_map::RandomState,
    counter: AtomicU64,
}

impl Store {
    pub fn new(capacity: usize, ttl: Duration) -> Store {
        Store {
            boards: Mutex::new(HashMap::new()),
            capacity: capacity.max(1),
            ttl,
            keys: std::collections::hash_map::RandomState::new(),
            counter: AtomicU64::new(0),
        }
    }

    pub fn capacity(&self) -> usize {
        self.capacity
    }

    pub fn ttl(&self) -> Duration {
        self.ttl
    }

    /// The map, even if a thread panicked while holding it (it holds no invariant a panic
    /// could break: entries are inserted and removed whole).
    fn map(&self) -> MutexGuard<'_, HashMap<String, Arc<Mutex<Entry>>>> {
        self.boards.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// A new id: 128 bits of a keyed hash of a counter.
    fn new_id(&self) -> String {
        let n = self.counter.fetch_add(1, Ordering::Relaxed);
        let half = |salt: u64| {
            let mut h = self.keys.build_hasher();
            h.write_u64(n);
            h.write_u64(salt);
            h.finish()
        };
        format!("{:016x}{:016x}", half(1), half(2))
    }

    /// Holds `board`; returns its id. Expired boards go first; if still full, the one unused
    /// longest.
    pub fn insert(&self, board: Board) -> (String, Arc<Mutex<Entry>>) {
        let now = Instant::now();
        let mut map = self.map();
        map.retain(|_, e| e.try_lock().map_or(true, |e| now.duration_since(e.last_used) < self.ttl));
        while map.len() >= self.capacity {
            let oldest = map
                .iter()
                .filter_map(|(id, e)| e.try_lock().ok().map(|e| (e.last_used, id.clone())))
                .min()
                .map(|(_, id)| id);
            match oldest {
                Some(id) => {
                    map.remove(&id);
                }
                None => break, // every board is in use right now: hold one more for a moment
            }
        }
        let id = self.new_id();
        let entry = Arc::new(Mutex::new(Entry { board, last_used: now }));
        map.insert(id.clone(), Arc::clone(&entry));
        (id, entry)
    }

    /// The board `id`, if held (and not expired).
    pub fn get(&self, id: &str) -> Option<Arc<Mutex<Entry>>> {
        let entry = Arc::clone(self.map().get(id)?);
        Some(entry)
    }

    /// How many boards are held.
    pub fn len(&self) -> usize {
        self.map().len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

impl Entry {
    /// Marks the board used now.
    pub fn touch(&mut self) {
        self.last_used = Instant::now();
    }
}

/// Locks an entry, even if a thread panicked while holding it: the board is then what that
/// request left, which every operation keeps consistent (a refused one changes nothing).
pub fn lock(entry: &Mutex<Entry>) -> MutexGuard<'_, Entry> {
    entry.lock().unwrap_or_else(|e| e.into_inner())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Game;

    #[test]
    fn the_store_holds_at_most_its_capacity_and_drops_the_oldest() {
        let store = Store::new(3, Duration::from_secs(3600));
        let ids: Vec<String> = (0..5).map(|_| store.insert(Board::new(Game::startpos())).0).collect();
        assert_eq!(store.len(), 3);
        assert!(store.get(&ids[0]).is_none() && store.get(&ids[1]).is_none());
        assert!(store.get(&ids[4]).is_some());
        let unique: std::collections::HashSet<_> = ids.iter().collect();
        assert_eq!(unique.len(), 5);
        assert!(ids.iter().all(|id| id.len() == 32));
    }

    #[test]
    fn expired_boards_are_dropped() {
        let store = Store::new(10, Duration::from_millis(0));
        let (first, _) = store.insert(Board::new(Game::startpos()));
        store.insert(Board::new(Game::startpos()));
        assert!(store.get(&first).is_none());
    }
}
