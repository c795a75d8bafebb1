//! The transposition table: one table shared by all search threads, without locks.
//!
//! Each entry is two `AtomicU64`s: `data` (move, score, static eval, depth, bound,
//! generation) and `key ^ data`. A reader recomputes `key` from the pair; if another
//! thread tore the entry between the two loads, the recomputed key does not match and
//! the entry is treated as a miss (Hyatt's "lockless hashing" xor trick). No `unsafe`
//! is needed, and a rare false hit is harmless because the search verifies every TT
//! move with `movegen::is_legal` before playing it.
//!
//! Four entries make a 64-byte bucket (one cache line). Replacement prefers, in order:
//! the same position, an empty slot, then the entry with the lowest
//! `depth - 8 * age` (age = how many searches ago it was written).

use crate::chess::Move;
use std::alloc::Layout;
use std::ptr::NonNull;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicU8, Ordering};

/// How a stored score relates to the true value of the node.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The score is a lower bound (the node failed high).
    Lower = 1,
    /// The score is an upper bound (the node failed low).
    Upper = 2,
    /// The score is exact (a PV node).
    Exact = 3,
}

impl Bound {
    /// Whether a score `s` of this bound settles a node searched with the window
    /// (`alpha`, `beta`): exact, or a bound beyond the window on its side.
    #[inline(always)]
    pub fn settles(self, s: i32, alpha: i32, beta: i32) -> bool {
        match self {
            Bound::Exact => true,
            Bound::Lower => s >= beta,
            Bound::Upper => s <= alpha,
        }
    }

    /// Whether a score `s` of this bound says more than `estimate` about the true value:
    /// exact, or a bound that lies beyond `estimate` on its side.
    #[inline(always)]
    pub fn corrects(self, s: i32, estimate: i32) -> bool {
        match self {
            Bound::Exact => true,
            Bound::Lower => s > estimate,
            Bound::Upper => s < estimate,
        }
    }
}

/// A decoded entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TtEntry {
    pub mv: Option<Move>,
    /// Score relative to this node (mate scores already adjusted by `ply`).
    pub score: i32,
    pub eval: i32,
    pub depth: i32,
    pub bound: Bound,
}

struct Slot {
    key_xor_data: AtomicU64,
    data: AtomicU64,
}

#[repr(align(64))]
struct Bucket {
    slots: [Slot; 4],
}

/// Scores at least this far from zero are mates and are stored relative to the node.
const MATE_BOUND: i32 = super::score::MATE_IN_MAX;
/// Depths are stored with this offset so that quiescence depths (<= 0) fit in a u8.
const DEPTH_OFFSET: i32 = 8;

pub struct TranspositionTable {
    buckets: BucketMemory,
    generation: AtomicU8,
}

/// Why the table could not be (re)sized.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AllocError {
    pub megabytes: usize,
}

impl std::fmt::Display for AllocError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "cannot allocate a {} MB hash table", self.megabytes)
    }
}

impl std::error::Error for AllocError {}

fn pack(mv: Option<Move>, score: i32, eval: i32, depth: i32, bound: Bound, generation: u8) -> u64 {
    let m = mv.map_or(0, |m| m.raw()) as u64;
    let s = (score.clamp(i16::MIN as i32, i16::MAX as i32) as i16 as u16) as u64;
    let e = (eval.clamp(i16::MIN as i32, i16::MAX as i32) as i16 as u16) as u64;
    let d = (depth + DEPTH_OFFSET).clamp(1, 255) as u64;
    let bg = (bound as u64) | ((generation as u64 & 0x3f) << 2);
    m | (s << 16) | (e << 32) | (d << 48) | (bg << 56)
}

fn unpack(data: u64) -> Option<TtEntry> {
    let bound = match (data >> 56) & 3 {
        1 => Bound::Lower,
        2 => Bound::Upper,
        3 => Bound::Exact,
        _ => return None,
    };
    Some(TtEntry {
        mv: Move::from_raw(data as u16),
        score: (data >> 16) as u16 as i16 as i32,
        eval: (data >> 32) as u16 as i16 as i32,
        depth: ((data >> 48) & 0xff) as i32 - DEPTH_OFFSET,
        bound,
    })
}

fn generation_of(data: u64) -> u8 {
    ((data >> 58) & 0x3f) as u8
}

fn depth_of(data: u64) -> i32 {
    ((data >> 48) & 0xff) as i32
}

/// A mate score as the distance from the node instead of from the root.
pub fn score_to_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score + ply as i32
    } else if score <= -MATE_BOUND {
        score - ply as i32
    } else {
        score
    }
}

/// The inverse of [`score_to_tt`].
pub fn score_from_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score - ply as i32
    } else if score <= -MATE_BOUND {
        score + ply as i32
    } else {
        score
    }
}

impl TranspositionTable {
    /// A table of `megabytes` MB (at least one bucket).
    ///
    /// The memory comes zeroed from the allocator, untouched: the engine then clears
    /// the table on all its search threads at once ([`TranspositionTable::clear_part`]),
    /// which also makes the OS map every page before the search needs it.
    pub fn new(megabytes: usize) -> Result<TranspositionTable, AllocError> {
        // Using the table touches every page, so a size beyond the free memory would
        // not fail here but get the process killed later: refuse it up front.
        if let Some(avail) = available_memory_mb() {
            if megabytes > 1 && megabytes > avail {
                return Err(AllocError { megabytes });
            }
        }
        let n = (megabytes.max(1) * 1024 * 1024 / std::mem::size_of::<Bucket>()).max(1);
        let buckets = BucketMemory::zeroed(n).ok_or(AllocError { megabytes })?;
        Ok(TranspositionTable { buckets, generation: AtomicU8::new(0) })
    }

    /// Size in MB as requested (rounded down to whole buckets).
    pub fn megabytes(&self) -> usize {
        self.buckets.len() * std::mem::size_of::<Bucket>() / (1024 * 1024)
    }

    /// Writes to one entry in every memory page of the `part`-th of `parts` slices, so
    /// the OS maps the pages now rather than during a search; returns early once `stop`
    /// is set (checked every 1 MB). Only for a table that is still all zeroes: it
    /// writes zeroes.
    pub fn prefault_part(&self, part: usize, parts: usize, stop: &AtomicBool) {
        const BUCKETS_PER_PAGE: usize = 4096 / std::mem::size_of::<Bucket>();
        let len = self.buckets.len();
        let parts = parts.max(1);
        let (from, to) = (len * part / parts, len * (part + 1) / parts);
        for (i, b) in self.buckets.get(from..to).unwrap_or_default().iter().step_by(BUCKETS_PER_PAGE).enumerate() {
            if i % 256 == 0 && stop.load(Ordering::Relaxed) {
                return;
            }
            b.slots[0].data.store(0, Ordering::Relaxed);
        }
    }

    /// Forgets everything (UCI `ucinewgame`, `Clear Hash`), on the calling thread.
    pub fn clear(&self) {
        self.clear_part(0, 1);
    }

    /// Empties the `part`-th of `parts` equal slices of the table (0-based), so that
    /// `parts` threads clear it together; part 0 also restarts the generation count.
    pub fn clear_part(&self, part: usize, parts: usize) {
        let len = self.buckets.len();
        let parts = parts.max(1);
        let (from, to) = (len * part / parts, len * (part + 1) / parts);
        for b in self.buckets.get(from..to).unwrap_or_default() {
            for s in &b.slots {
                s.key_xor_data.store(0, Ordering::Relaxed);
                s.data.store(0, Ordering::Relaxed);
            }
        }
        if part == 0 {
            self.generation.store(0, Ordering::Relaxed);
        }
    }

    /// Called once per `go`, so entries of older searches age out first.
    pub fn new_search(&self) {
        self.generation.fetch_add(1, Ordering::Relaxed);
    }

    fn current_generation(&self) -> u8 {
        self.generation.load(Ordering::Relaxed) & 0x3f
    }

    #[inline]
    fn bucket(&self, key: u64) -> &Bucket {
        // Multiply-shift maps the key uniformly onto any table size (no power of two needed).
        let idx = ((key as u128 * self.buckets.len() as u128) >> 64) as usize;
        &self.buckets[idx]
    }

    /// Looks `key` up. Mate scores come back node-relative; the caller converts them
    /// with [`score_from_tt`].
    #[inline]
    pub fn probe(&self, key: u64) -> Option<TtEntry> {
        for s in &self.bucket(key).slots {
            let data = s.data.load(Ordering::Relaxed);
            if data != 0 && s.key_xor_data.load(Ordering::Relaxed) ^ data == key {
                return unpack(data);
            }
        }
        None
    }

    /// Stores a result; `score` must already be node-relative (see [`score_to_tt`]).
    #[allow(clippy::too_many_arguments)]
    #[inline]
    pub fn store(&self, key: u64, mv: Option<Move>, score: i32, eval: i32, depth: i32, bound: Bound) {
        let generation = self.current_generation();
        let bucket = self.bucket(key);
        let mut victim = &bucket.slots[0];
        let mut victim_worth = i32::MAX;
        for s in &bucket.slots {
            let data = s.data.load(Ordering::Relaxed);
            let stored_key = s.key_xor_data.load(Ordering::Relaxed) ^ data;
            if data == 0 || stored_key == key {
                if data != 0 && stored_key == key {
                    // Same position: keep a deeper non-exact result, and keep the old
                    // move when the new search has none (fail-low nodes).
                    if bound != Bound::Exact && depth + DEPTH_OFFSET + 3 < depth_of(data) {
                        return;
                    }
                    let mv = mv.or_else(|| Move::from_raw(data as u16));
                    let new = pack(mv, score, eval, depth, bound, generation);
                    s.data.store(new, Ordering::Relaxed);
                    s.key_xor_data.store(key ^ new, Ordering::Relaxed);
                    return;
                }
                victim = s;
                break;
            }
            let age = (generation.wrapping_sub(generation_of(data)) & 0x3f) as i32;
            let worth = depth_of(data) - 8 * age;
            if worth < victim_worth {
                victim_worth = worth;
                victim = s;
            }
        }
        let new = pack(mv, score, eval, depth, bound, generation);
        victim.data.store(new, Ordering::Relaxed);
        victim.key_xor_data.store(key ^ new, Ordering::Relaxed);
    }

    /// Permille of sampled entries written by the current search (UCI `hashfull`).
    pub fn hashfull(&self) -> u32 {
        let generation = self.current_generation();
        let sample = self.buckets.len().min(250);
        let mut used = 0;
        for b in &self.buckets[..sample] {
            for s in &b.slots {
                let d = s.data.load(Ordering::Relaxed);
                if d != 0 && generation_of(d) == generation {
                    used += 1;
                }
            }
        }
        (used * 1000 / (sample * 4).max(1)) as u32
    }
}

/// The table's memory: `len` (at least one) empty buckets, on a 64-byte boundary inside
/// an allocation zeroed by the allocator itself. For a large table that is memory the
/// OS maps on first touch, already zeroed, so allocating returns at once. Not a
/// `Box<[Bucket]>`: the standard allocator zeroes memory aligned beyond 16 bytes by
/// writing all of it (4 GB: 8.9 s wall, 2.9 s CPU on the loaded 2-core VM, 2026-11-30),
/// so the allocation asks for 16-byte alignment and 64 spare bytes instead.
struct BucketMemory {
    raw: NonNull<u8>,
    layout: Layout,
    buckets: NonNull<Bucket>,
    len: usize,
}

impl BucketMemory {
    fn zeroed(len: usize) -> Option<BucketMemory> {
        const ALIGN: usize = std::mem::align_of::<Bucket>();
        let len = len.max(1);
        let size = len.checked_mul(std::mem::size_of::<Bucket>())?.checked_add(ALIGN)?;
        let layout = Layout::from_size_align(size, 16).ok()?;
        // SAFETY: the layout's size is not zero, as `alloc_zeroed` requires.
        let raw = NonNull::new(unsafe { std::alloc::alloc_zeroed(layout) })?;
        let offset = raw.as_ptr().align_offset(ALIGN);
        if offset >= ALIGN {
            // SAFETY: `raw` was allocated just above with this layout and is freed once.
            unsafe { std::alloc::dealloc(raw.as_ptr(), layout) };
            return None;
        }
        // SAFETY: offset < ALIGN, and the allocation has ALIGN bytes beyond the
        // buckets, so the pointer stays inside it.
        let buckets = unsafe { raw.add(offset) }.cast::<Bucket>();
        Some(BucketMemory { raw, layout, buckets, len })
    }
}

impl std::ops::Deref for BucketMemory {
    type Target = [Bucket];
    fn deref(&self) -> &[Bucket] {
        // SAFETY: `buckets` is non-null and 64-byte aligned, and `len` buckets from it
        // lie inside the live allocation `raw` (offset < 64 spare bytes). They are
        // initialised: the memory is zeroed, and an all-zero `Bucket` is a valid, empty
        // one (it holds only `AtomicU64`s, which have the representation of `u64`, valid
        // for every bit pattern). The memory is only ever reached through this shared
        // slice, whose lifetime is that of `self`, which owns the allocation.
        unsafe { std::slice::from_raw_parts(self.buckets.as_ptr(), self.len) }
    }
}

impl Drop for BucketMemory {
    fn drop(&mut self) {
        // SAFETY: `raw` was allocated by `alloc_zeroed` with exactly `layout`, and is
        // freed only here, once; no reference into it outlives `self`.
        unsafe { std::alloc::dealloc(self.raw.as_ptr(), self.layout) };
    }
}

// SAFETY: `BucketMemory` owns its allocation exclusively, like a `Box<[Bucket]>`, and
// only hands out `&[Bucket]`; `Bucket` is `Send + Sync` (atomics only). Moving it to or
// sharing it with another thread is therefore as safe as for `Box<[Bucket]>`.
unsafe impl Send for BucketMemory {}
// SAFETY: see `Send` above.
unsafe impl Sync for BucketMemory {}

/// MemAvailable from /proc/meminfo (Linux), in MB; None where unknown.
fn available_memory_mb() -> Option<usize> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = text.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kb: usize = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb / 1024)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::{MoveKind, Square};

    #[test]
    fn store_and_probe_round_trip() {
        let tt = TranspositionTable::new(1).unwrap();
        let m = Move::new(Square::new(12), Square::new(28), MoveKind::DoublePush);
        tt.store(0xdead_beef_1234, Some(m), -31990, 55, 7, Bound::Lower);
        let e = tt.probe(0xdead_beef_1234).unwrap();
        assert_eq!(e, TtEntry { mv: Some(m), score: -31990, eval: 55, depth: 7, bound: Bound::Lower });
        assert!(tt.probe(0xdead_beef_1235).is_none());
        tt.store(0xdead_beef_1234, None, 10, 20, -1, Bound::Exact);
        let e = tt.probe(0xdead_beef_1234).unwrap();
        assert_eq!((e.mv, e.depth, e.bound), (Some(m), -1, Bound::Exact));
        tt.clear();
        assert!(tt.probe(0xdead_beef_1234).is_none());
    }

    #[test]
    fn buckets_are_cache_line_aligned_and_start_empty() {
        for mb in [1, 3, 64] {
            let tt = TranspositionTable::new(mb).unwrap();
            assert_eq!(tt.megabytes(), mb);
            assert_eq!(tt.buckets.as_ptr() as usize % 64, 0);
            assert!(tt.buckets.iter().all(|b| b.slots.iter().all(|s| s.data.load(Ordering::Relaxed) == 0)));
            let stop = AtomicBool::new(false);
            tt.prefault_part(0, 2, &stop);
            tt.prefault_part(1, 2, &stop);
            tt.store(u64::MAX, None, 1, 2, 3, Bound::Upper);
            assert_eq!(tt.probe(u64::MAX).map(|e| e.depth), Some(3));
            tt.clear_part(1, 2);
            tt.clear_part(0, 2);
            assert!(tt.probe(u64::MAX).is_none());
        }
    }

    #[test]
    fn mate_scores_are_node_relative() {
        let s = super::super::score::MATE - 10;
        assert_eq!(score_from_tt(score_to_tt(s, 4), 4), s);
        assert_eq!(score_to_tt(s, 4), s + 4);
        assert_eq!(score_to_tt(-s, 4), -s - 4);
        assert_eq!(score_to_tt(123, 4), 123);
    }
}
