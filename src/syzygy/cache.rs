//! Reading table files by page, through a cache of bounded size shared by every table
//! and search thread.
//!
//! A probe needs a few bytes of a file: an index entry, a few block lengths, one block
//! (64 bytes in a WDL file, at most 1 KiB in a DTZ file as the generator writes them).
//! So nothing is read whole: each miss reads one page of [`PAGE`] bytes with a
//! positioned read, and the cache keeps at most [`CACHE_BYTES`] of them whatever the
//! tables' size (6-piece files are GBs). The operating system's page cache keeps the
//! files' hot parts anyway; this one saves the system calls.
//!
//! Why not map the files: mapping needs `unsafe` (or a crate that wraps it) and would
//! make the resident size follow what the search touches; positioned reads cost one
//! system call a miss (measured in docs/syzygy.md) and keep the bound ours.
//!
//! The cache is two-way set-associative: a page can only be in the two slots of the set
//! its file and page number name (pages of one file in consecutive sets), so finding it
//! is two comparisons, not a hash map. A hit takes no lock, as every search thread
//! probes: each slot is a sequence lock (its counter is odd while the slot is being
//! written, and a reader that sees it change while it copied throws the copy away), its
//! bytes atomic words, so all of it is safe Rust. A miss reads the page outside every
//! lock and replaces the slot of its set not used since the set's last miss (the clock
//! rule on two slots). Open files are bounded too ([`MAX_OPEN`]): a set of 6-piece
//! tables has 1,000+ files, more than a process may usually hold open.

use std::fs::File;
use std::io;
use std::path::Path;
use std::sync::atomic::{fence, AtomicBool, AtomicU32, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, OnceLock};

/// Bytes read from disk at a time (the usual size of an operating-system page).
pub const PAGE: usize = 4096;
/// The most bytes of table data kept in memory (all tables together).
pub const CACHE_BYTES: usize = 32 << 20;
/// Files kept open at once; the one used longest ago is closed first.
pub const MAX_OPEN: usize = 64;
const WAYS: usize = 2;
const SETS: usize = CACHE_BYTES / PAGE / WAYS;
const WORDS: usize = PAGE / 8;

/// One page's place in the cache.
#[derive(Default)]
struct Slot {
    /// Even while the slot holds a whole page (or none), odd while it is being written.
    seq: AtomicU64,
    /// The page's file id plus one (0: empty) and page number.
    file: AtomicU32,
    page: AtomicU64,
    /// Used since the last miss of its set.
    used: AtomicBool,
    /// The page's bytes (little-endian words), allocated when the slot is first filled.
    words: OnceLock<Box<[AtomicU64]>>,
}

impl Slot {
    /// Copies `out.len()` bytes of the page from `offset` if the slot holds page `page`
    /// of file `file` (both as stored) and was not rewritten meanwhile.
    fn copy_if_holds(&self, file: u32, page: u64, offset: usize, out: &mut [u8]) -> bool {
        let seq = self.seq.load(Ordering::Acquire);
        if seq & 1 != 0 || self.file.load(Ordering::Relaxed) != file || self.page.load(Ordering::Relaxed) != page {
            return false;
        }
        let Some(words) = self.words.get() else { return false };
        copy_out(words, offset, out);
        // The copy counts only if no writer began meanwhile: this fence orders the
        // loads above before the counter's second reading (a writer's fence pairs with it).
        fence(Ordering::Acquire);
        if self.seq.load(Ordering::Relaxed) != seq {
            return false;
        }
        if !self.used.load(Ordering::Relaxed) {
            self.used.store(true, Ordering::Relaxed);
        }
        true
    }

    /// Fills the slot with `bytes`, page `page` of file `file` (as stored); gives up if
    /// another thread is writing it (the page is then read again when next wanted).
    fn fill(&self, file: u32, page: u64, bytes: &[u8; PAGE]) {
        let seq = self.seq.load(Ordering::Relaxed);
        if seq & 1 != 0 || self.seq.compare_exchange(seq, seq + 1, Ordering::Acquire, Ordering::Relaxed).is_err() {
            return;
        }
        // Readers that see any store below see the odd counter too.
        fence(Ordering::Release);
        let words = self.words.get_or_init(|| (0..WORDS).map(|_| AtomicU64::new(0)).collect());
        self.file.store(file, Ordering::Relaxed);
        self.page.store(page, Ordering::Relaxed);
        for (w, b) in words.iter().zip(bytes.chunks_exact(8)) {
            w.store(u64::from_le_bytes([b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7]]), Ordering::Relaxed);
        }
        self.used.store(true, Ordering::Relaxed);
        self.seq.store(seq + 2, Ordering::Release);
    }
}

/// Copies the bytes `offset..offset + out.len()` of a page kept as little-endian words,
/// eight at a time (each from the one or two words it spans).
fn copy_out(words: &[AtomicU64], offset: usize, out: &mut [u8]) {
    let word = |i: usize| words.get(i).map_or(0, |w| w.load(Ordering::Relaxed));
    let (mut i, shift) = (offset / 8, offset % 8 * 8);
    for chunk in out.chunks_mut(8) {
        let v = if shift == 0 { word(i) } else { word(i) >> shift | word(i + 1) << (64 - shift) };
        let bytes = v.to_le_bytes();
        if chunk.len() == 8 {
            chunk.copy_from_slice(&bytes);
        } else {
            chunk.iter_mut().zip(bytes).for_each(|(d, b)| *d = b);
        }
        i += 1;
    }
}

/// One open file and when it was last used.
struct Open {
    id: u32,
    file: Arc<File>,
    used: u64,
}

/// What a read can fail with.
#[derive(Debug)]
pub enum ReadError {
    /// The bytes asked for are not all in the file.
    PastEnd,
    /// The file is not the size it had when it was checked.
    SizeChanged,
    /// The file ended before a page that was in it when it was checked.
    Shrunk,
    Io(io::Error),
}

/// The page cache of a set of tables (see the module's documentation).
pub struct Cache {
    /// Allocated on the first read: tables that are never probed cost nothing.
    slots: OnceLock<Box<[Slot]>>,
    /// The number of sets (a power of two) less one.
    set_mask: u64,
    open: Mutex<(Vec<Open>, u64)>,
}

impl Default for Cache {
    fn default() -> Cache {
        Cache::with_sets(SETS)
    }
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// The file of one table as the cache reads it: `id` names it among the tables of one
/// [`Cache`], `len` is its size when it was checked.
#[derive(Clone, Copy)]
pub struct FileRef<'a> {
    pub id: u32,
    pub path: &'a Path,
    pub len: u64,
}

impl Cache {
    /// A cache of `sets` sets (a power of two; tests use few, to make pages meet).
    fn with_sets(sets: usize) -> Cache {
        debug_assert!(sets.is_power_of_two());
        Cache { slots: OnceLock::new(), set_mask: sets as u64 - 1, open: Mutex::default() }
    }

    /// Copies the bytes of `file` at `at..at + buf.len()` into `buf`.
    pub fn read(&self, file: FileRef, at: u64, buf: &mut [u8]) -> Result<(), ReadError> {
        let end = at.checked_add(buf.len() as u64).ok_or(ReadError::PastEnd)?;
        if end > file.len {
            return Err(ReadError::PastEnd);
        }
        let slots =
            self.slots.get_or_init(|| (0..(self.set_mask as usize + 1) * WAYS).map(|_| Slot::default()).collect());
        let stored_id = file.id.wrapping_add(1);
        // Consecutive pages of a file go to consecutive sets, from a place of its own.
        let first_set = (file.id as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 40;
        let mut done = 0;
        while done < buf.len() {
            let pos = at + done as u64;
            let page = pos / PAGE as u64;
            let offset = (pos % PAGE as u64) as usize;
            let n = (PAGE - offset).min(buf.len() - done);
            let out = &mut buf[done..done + n];
            let set = (first_set.wrapping_add(page) & self.set_mask) as usize;
            let ways = &slots[set * WAYS..(set + 1) * WAYS];
            if !ways.iter().any(|s| s.copy_if_holds(stored_id, page, offset, out)) {
                let mut bytes = [0u8; PAGE];
                let start = page * PAGE as u64;
                let len = (file.len - start).min(PAGE as u64) as usize;
                read_at(&*self.handle(file)?, start, &mut bytes[..len]).map_err(|e| match e.kind() {
                    io::ErrorKind::UnexpectedEof => ReadError::Shrunk,
                    _ => ReadError::Io(e),
                })?;
                out.copy_from_slice(&bytes[offset..offset + n]);
                // The clock rule on the set: a slot not used since the last miss goes
                // first; when both were, both lose that mark.
                let victim = ways.iter().find(|s| !s.used.load(Ordering::Relaxed)).unwrap_or_else(|| {
                    ways.iter().for_each(|s| s.used.store(false, Ordering::Relaxed));
                    &ways[(page % WAYS as u64) as usize]
                });
                victim.fill(stored_id, page, &bytes);
            }
            done += n;
        }
        Ok(())
    }

    /// An open handle of `file`: kept from before, or opened now (and its size checked).
    fn handle(&self, file: FileRef) -> Result<Arc<File>, ReadError> {
        let mut guard = lock(&self.open);
        let (open, clock) = &mut *guard;
        *clock += 1;
        if let Some(o) = open.iter_mut().find(|o| o.id == file.id) {
            o.used = *clock;
            return Ok(Arc::clone(&o.file));
        }
        let f = File::open(file.path).map_err(ReadError::Io)?;
        let len = f.metadata().map_err(ReadError::Io)?.len();
        if len != file.len {
            return Err(ReadError::SizeChanged);
        }
        let f = Arc::new(f);
        if open.len() >= MAX_OPEN {
            if let Some(oldest) = (0..open.len()).min_by_key(|&i| open[i].used) {
                open.swap_remove(oldest);
            }
        }
        open.push(Open { id: file.id, file: Arc::clone(&f), used: *clock });
        Ok(f)
    }

    /// Pages and bytes kept now (for measurements and tests).
    pub fn kept(&self) -> (usize, usize) {
        let pages = self.slots.get().map_or(0, |s| s.iter().filter(|s| s.file.load(Ordering::Relaxed) != 0).count());
        (pages, pages * PAGE)
    }
}

/// Reads exactly `buf.len()` bytes at `at`, without moving any shared file position.
#[cfg(unix)]
fn read_at(file: &File, at: u64, buf: &mut [u8]) -> io::Result<()> {
    std::os::unix::fs::FileExt::read_exact_at(file, buf, at)
}

#[cfg(windows)]
fn read_at(file: &File, mut at: u64, mut buf: &mut [u8]) -> io::Result<()> {
    use std::os::windows::fs::FileExt;
    while !buf.is_empty() {
        match file.seek_read(buf, at) {
            Ok(0) => return Err(io::ErrorKind::UnexpectedEof.into()),
            Ok(n) => {
                buf = &mut buf[n..];
                at += n as u64;
            }
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(())
}

/// Elsewhere: a seek and a read on a handle of its own, as threads share the kept one.
#[cfg(not(any(unix, windows)))]
fn read_at(file: &File, at: u64, buf: &mut [u8]) -> io::Result<()> {
    use std::io::{Read, Seek, SeekFrom};
    let mut own = file.try_clone()?;
    own.seek(SeekFrom::Start(at))?;
    own.read_exact(buf)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch_file(tag: &str, len: u64, byte: impl Fn(u64) -> u8) -> std::path::PathBuf {
        let path = std::env::temp_dir().join(format!("arbiter-cache-{tag}-{}.bin", std::process::id()));
        std::fs::write(&path, (0..len).map(byte).collect::<Vec<u8>>()).expect("write");
        path
    }

    /// Reads across page boundaries give the file's bytes; the kept pages never exceed
    /// the bound, however much is read; a read past the end is refused.
    #[test]
    fn reads_are_exact_and_memory_bounded() {
        let len = (CACHE_BYTES + 3 * PAGE + 123) as u64;
        let byte = |i: u64| (i.wrapping_mul(31) >> 3) as u8;
        let path = scratch_file("bounded", len, byte);
        let cache = Cache::default();
        let file = FileRef { id: 7, path: &path, len };
        let mut buf = [0u8; 100];
        for round in 0..2 {
            for at in (0..len - 100).step_by(PAGE / 2 - 7) {
                cache.read(file, at, &mut buf).expect("read");
                assert!(buf.iter().enumerate().all(|(i, &b)| b == byte(at + i as u64)), "at {at}, round {round}");
            }
        }
        let (pages, bytes) = cache.kept();
        assert!(pages <= CACHE_BYTES / PAGE && bytes <= CACHE_BYTES, "{pages} pages, {bytes} bytes");
        assert!(matches!(cache.read(file, len - 50, &mut buf), Err(ReadError::PastEnd)));
        // A file that is no longer the size it was checked at is refused on its next open.
        let other = FileRef { id: 8, path: &path, len: len + 64 };
        assert!(matches!(cache.read(other, 0, &mut buf), Err(ReadError::SizeChanged)));
        let _ = std::fs::remove_file(&path);
    }

    /// Threads that read the same two pages of their files over and over, while another
    /// keeps replacing them with pages of its own, through a cache of one set of two
    /// slots: no read ever returns a byte of another page (the sequence locks hold).
    #[test]
    fn concurrent_readers_never_see_a_torn_page() {
        let len = (64 * PAGE) as u64;
        // Every 8-byte word of every file differs from the words of other pages and files.
        let byte = |k: u64, i: u64| {
            let w = i / 8 + (k << 20);
            (w ^ (w >> 8) ^ (w >> 16)) as u8
        };
        let paths: Vec<_> = (0..3).map(|k| scratch_file(&format!("torn{k}"), len, move |i| byte(k, i))).collect();
        let cache = Cache::with_sets(1);
        let until = std::time::Instant::now() + std::time::Duration::from_millis(400);
        std::thread::scope(|s| {
            for (k, path) in paths.iter().enumerate() {
                let cache = &cache;
                s.spawn(move || {
                    let file = FileRef { id: k as u32, path, len };
                    // Threads 0 and 1 read within their first two pages; thread 2 anywhere.
                    let span = if k == 2 { len } else { 2 * PAGE as u64 };
                    let mut buf = [0u8; 300];
                    let mut at = k as u64 * 977;
                    while std::time::Instant::now() < until {
                        for _ in 0..1000 {
                            at = (at.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407) >> 11)
                                % (span - buf.len() as u64);
                            cache.read(file, at, &mut buf).expect("read");
                            for (i, &b) in buf.iter().enumerate() {
                                assert_eq!(b, byte(k as u64, at + i as u64), "file {k} at {}", at + i as u64);
                            }
                        }
                    }
                });
            }
        });
        assert!(cache.kept().0 <= WAYS);
        for p in paths {
            let _ = std::fs::remove_file(p);
        }
    }
}
