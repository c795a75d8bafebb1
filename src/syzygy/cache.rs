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
//! Pages are kept in shards (each under its own lock, chosen by the page's key) and
//! evicted by the clock rule (a page used since the hand last passed it gets a second
//! chance). The disk is read outside every lock. Open files are bounded too
//! ([`MAX_OPEN`]): a set of 6-piece tables has 1,000+ files, more than a process may
//! usually hold open.

use std::collections::HashMap;
use std::fs::File;
use std::hash::{BuildHasherDefault, Hasher};
use std::io;
use std::path::Path;
use std::sync::{Arc, Mutex, MutexGuard};

/// Bytes read from disk at a time (the usual size of an operating-system page).
pub const PAGE: usize = 4096;
/// The most bytes of table data kept in memory (all tables together).
pub const CACHE_BYTES: usize = 32 << 20;
/// Files kept open at once; the one used longest ago is closed first.
pub const MAX_OPEN: usize = 64;
const SHARDS: usize = 16;
const PAGES_PER_SHARD: usize = CACHE_BYTES / PAGE / SHARDS;

/// Which file and which page of it.
type PageKey = (u32, u64);

struct Slot {
    key: PageKey,
    bytes: Box<[u8]>,
    used: bool,
}

/// A multiplicative hash of a page key: the keys are not chosen by anyone, and the
/// standard library's hasher (SipHash) costs more than the rest of a cache hit.
#[derive(Default)]
struct PageHasher(u64);

impl Hasher for PageHasher {
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(b as u64);
        }
    }
    fn write_u32(&mut self, n: u32) {
        self.write_u64(n as u64);
    }
    fn write_u64(&mut self, n: u64) {
        self.0 = (self.0.rotate_left(5) ^ n).wrapping_mul(0x51_7C_C1_B7_27_22_0A_95);
    }
    fn finish(&self) -> u64 {
        self.0
    }
}

#[derive(Default)]
struct Shard {
    where_is: HashMap<PageKey, usize, BuildHasherDefault<PageHasher>>,
    slots: Vec<Slot>,
    hand: usize,
}

impl Shard {
    /// Keeps `bytes` as the page `key`, evicting a page not used lately if full.
    fn insert(&mut self, key: PageKey, bytes: Box<[u8]>) -> usize {
        if let Some(&i) = self.where_is.get(&key) {
            return i; // another thread read it meanwhile
        }
        let i = if self.slots.len() < PAGES_PER_SHARD {
            self.slots.push(Slot { key, bytes, used: true });
            self.slots.len() - 1
        } else {
            while self.slots[self.hand].used {
                self.slots[self.hand].used = false;
                self.hand = (self.hand + 1) % self.slots.len();
            }
            let i = self.hand;
            self.hand = (self.hand + 1) % self.slots.len();
            self.where_is.remove(&self.slots[i].key);
            self.slots[i] = Slot { key, bytes, used: true };
            i
        };
        self.where_is.insert(key, i);
        i
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
    shards: Vec<Mutex<Shard>>,
    open: Mutex<(Vec<Open>, u64)>,
}

impl Default for Cache {
    fn default() -> Cache {
        Cache { shards: (0..SHARDS).map(|_| Mutex::default()).collect(), open: Mutex::default() }
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
    /// Copies the bytes of `file` at `at..at + buf.len()` into `buf`.
    pub fn read(&self, file: FileRef, at: u64, buf: &mut [u8]) -> Result<(), ReadError> {
        let end = at.checked_add(buf.len() as u64).ok_or(ReadError::PastEnd)?;
        if end > file.len {
            return Err(ReadError::PastEnd);
        }
        let mut done = 0;
        while done < buf.len() {
            let pos = at + done as u64;
            let page = pos / PAGE as u64;
            let offset = (pos % PAGE as u64) as usize;
            let n = (PAGE - offset).min(buf.len() - done);
            self.with_page(file, page, |bytes| buf[done..done + n].copy_from_slice(&bytes[offset..offset + n]))?;
            done += n;
        }
        Ok(())
    }

    /// Runs `f` on page `page` of `file`, reading it first if it is not kept.
    fn with_page(&self, file: FileRef, page: u64, f: impl FnOnce(&[u8])) -> Result<(), ReadError> {
        let key = (file.id, page);
        let shard = &self.shards[(file.id as u64 ^ page.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 32) as usize % SHARDS];
        {
            let mut s = lock(shard);
            if let Some(&i) = s.where_is.get(&key) {
                let slot = &mut s.slots[i];
                slot.used = true;
                f(&slot.bytes);
                return Ok(());
            }
        }
        let start = page * PAGE as u64;
        let mut bytes = vec![0u8; (file.len - start).min(PAGE as u64) as usize].into_boxed_slice();
        read_at(&*self.handle(file)?, start, &mut bytes).map_err(|e| match e.kind() {
            io::ErrorKind::UnexpectedEof => ReadError::Shrunk,
            _ => ReadError::Io(e),
        })?;
        let mut s = lock(shard);
        let i = s.insert(key, bytes);
        f(&s.slots[i].bytes);
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
        self.shards
            .iter()
            .map(|s| lock(s))
            .fold((0, 0), |(n, b), s| (n + s.slots.len(), b + s.slots.iter().map(|x| x.bytes.len()).sum::<usize>()))
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

    /// Reads across page boundaries give the file's bytes; the kept pages never exceed
    /// the bound, however much is read; a read past the end is refused.
    #[test]
    fn reads_are_exact_and_memory_bounded() {
        let path = std::env::temp_dir().join(format!("arbiter-cache-{}.bin", std::process::id()));
        let len = (CACHE_BYTES + 3 * PAGE + 123) as u64;
        let byte = |i: u64| (i.wrapping_mul(31) >> 3) as u8;
        std::fs::write(&path, (0..len).map(byte).collect::<Vec<u8>>()).expect("write");
        let cache = Cache::default();
        let file = FileRef { id: 7, path: &path, len };
        let mut buf = [0u8; 100];
        for at in (0..len - 100).step_by(PAGE / 2 - 7) {
            cache.read(file, at, &mut buf).expect("read");
            assert!(buf.iter().enumerate().all(|(i, &b)| b == byte(at + i as u64)), "at {at}");
        }
        let (pages, bytes) = cache.kept();
        assert!(pages <= CACHE_BYTES / PAGE && bytes <= CACHE_BYTES, "{pages} pages, {bytes} bytes");
        assert!(matches!(cache.read(file, len - 50, &mut buf), Err(ReadError::PastEnd)));
        // A file that is no longer the size it was checked at is refused on its next open.
        let other = FileRef { id: 8, path: &path, len: len + 64 };
        assert!(matches!(cache.read(other, 0, &mut buf), Err(ReadError::SizeChanged)));
        let _ = std::fs::remove_file(&path);
    }
}
